"""Independent brute-force unrolling of automata, continual mechanisms and their compositions.

Shares no game-building code with :mod:`exactdp.builders.automaton` / ``continual``: every node
is one full history, the probability of a history under a dataset is recomputed from scratch by
the forward algorithm over *unnormalised* state weights (no beliefs, no memo), and a
composition's verification function V′ is evaluated on the whole message sequence exactly as
the definitions read (multisets with ``Counter``, J = instances that ever got a differing
pair, the product of (1 − δᵢ) over created instances).  Exponential, for tiny instances only.
"""

from __future__ import annotations

from collections import Counter

from exactdp.builders.automaton import HALT
from exactdp.model import END, Ask, Chance, Mechanism
from exactdp.numbers import Q, ladder
from exactdp.numbers.rational import q_str

__all__ = ["unroll_automaton", "unroll_continual", "unroll_composition"]


def _forward(a, row, hist):
    """Unnormalised weights over states after ``hist`` [(query, answer)], or None if the
    history ended with a halt.  Recomputed from the initial distribution every time."""
    alpha = {s: w for s, w in a.initial[row]}
    for q, ans in hist:
        new: dict = {}
        for s, w in alpha.items():
            outs = a.transitions.get((s, q))
            if outs is None:
                continue  # this state halts: it contributes only to the answer `halt`
            for o in outs:
                if o.answer == ans:
                    new[o.next] = new.get(o.next, Q(0)) + w * o.probs[row]
        alpha = new
    return alpha


def _answer_masses(a, row, alpha, q):
    """Unnormalised mass of each answer (and `halt`) to query q from weights alpha."""
    out: dict = {}
    for s, w in alpha.items():
        outs = a.transitions.get((s, q))
        if outs is None:
            out[HALT] = out.get(HALT, Q(0)) + w
            continue
        for o in outs:
            out[o.answer] = out.get(o.answer, Q(0)) + w * o.probs[row]
    return out


def _chance(masses_per_x, totals, order):
    """Chance rows from unnormalised masses; a dataset with total 0 gets a point mass."""
    labels = [lab for lab in order if any(m.get(lab, 0) > 0 for m, t in zip(masses_per_x, totals) if t > 0)]
    probs = []
    for k, lab in enumerate(labels):
        row = []
        for m, t in zip(masses_per_x, totals):
            row.append(m.get(lab, Q(0)) / t if t > 0 else (Q(1) if k == 0 else Q(0)))
        probs.append(tuple(row))
    return labels, probs


def unroll_automaton(a, datasets=("x0", "x1"), adjacent=None) -> Mechanism:
    """The explicit probability tree of an automaton mechanism (one node per history)."""
    nd = len(datasets)
    rows = [x if a.n_rows > 1 else 0 for x in range(nd)]
    order = list(a.answers) + [HALT]

    def node(hist, left):
        if left == 0:
            return END
        alphas = [_forward(a, rows[x], hist) for x in range(nd)]
        offered = [q for q in a.queries if any(w > 0 and q in a.alphabet[s] for al in alphas for s, w in al.items())]
        if not offered:
            return END
        kids = []
        for q in offered:
            masses = [_answer_masses(a, rows[x], alphas[x], q) for x in range(nd)]
            totals = [sum(al.values(), Q(0)) for al in alphas]
            labels, probs = _chance(masses, totals, order)
            ch = [END if lab == HALT else node(hist + [(q, lab)], left - 1) for lab in labels]
            kids.append(Chance(labels, probs, ch))
        return Ask(offered, kids)

    if adjacent is None:
        adjacent = tuple((i, j) for i in range(nd) for j in range(i + 1, nd))
    return Mechanism(node([], a.horizon), tuple(datasets), tuple(adjacent), "unrolled")


def _fpc_ok(pairs) -> bool:
    """Def. 5.13: a first identical pair forces every later pair to be identical."""
    if pairs and pairs[0][0] == pairs[0][1]:
        return all(m0 == m1 for m0, m1 in pairs)
    return True


def _key(eps, delta=None):
    return ladder.text(eps) if delta is None else (ladder.text(eps), q_str(delta))


def _sub(ms: Counter, of: Counter) -> bool:
    return all(of[k] >= v for k, v in ms.items())


def composition_valid(menu, kind, params, budget, cap, fpc, events) -> bool:
    """V′(events) = 1, from the definitions (events: ("create", j) | ("pair", i, m0, m1))."""
    created: list[int] = []
    pairs: dict[int, list] = {}
    for e in events:
        if e[0] == "create":
            created.append(e[1])
            pairs[len(created) - 1] = []
        else:
            if e[1] >= len(created):
                return False  # Def. 4.4 (ii)
            pairs[e[1]].append((e[2], e[3]))
    if cap is not None and len(created) > cap:
        return False
    for i, j in enumerate(created):
        cm = menu[j].cm
        if not cm.verifier.accepts_sequence(pairs[i]) or len(pairs[i]) > cm.mechanism.horizon:
            return False
        if (fpc or cm.first_pair_consistent) and not _fpc_ok(pairs[i]):
            return False
    J = [i for i in range(len(created)) if any(m0 != m1 for m0, m1 in pairs[i])]
    prod = Q(1)
    for j in created:
        prod *= 1 - menu[j].delta
    if kind == "4.10":
        return _sub(Counter(_key(menu[j].eps, menu[j].delta) for j in created), Counter(_key(e, d) for e, d in params))
    if kind in ("5.1", "5.14"):
        return _sub(
            Counter(_key(menu[created[i]].eps, menu[created[i]].delta) for i in J),
            Counter(_key(e, d) for e, d in params),
        )
    if kind == "5.3":
        return (
            _sub(Counter(_key(menu[created[i]].eps) for i in J), Counter(_key(e) for e in params))
            and prod >= 1 - budget
        )
    if kind == "5.8":
        return prod >= 1 - budget
    if kind == "10.2":  # basic filter: params = (E_total, delta_total) over created instances
        from exactdp.numbers import ladder

        E = Q(1)
        for j in created:
            E *= ladder.exp(menu[j].eps)
        return E <= params[0] and sum((menu[j].delta for j in created), Q(0)) <= params[1]
    if kind == "5.10":
        pos = Counter(_key(menu[j].eps) for j in created if menu[j].eps != 0)
        return _sub(pos, Counter(_key(e) for e in params)) and prod >= 1 - budget
    raise ValueError(kind)


def unroll_composition(menu, kind, params=None, budget=None, cap=2, fpc=False, datasets=("x0", "x1"), single=False):
    """The explicit tree of V′∘I∘ExtConComp over ``menu`` (``single``: one pre-created
    instance of menu[0], no creations, unprefixed labels — the Cor. 3.8 game of one CM)."""

    def inst_hist(hist, i):
        return [(e[2], e[3], e[4]) for e in hist if e[0] == "pair" and e[1] == i]

    def node(hist):
        events = [e[:4] if e[0] == "pair" else e for e in hist]
        ncreated = sum(1 for e in hist if e[0] == "create")
        opts = []
        if not single:
            for j, it in enumerate(menu):
                ev = ("create", j)
                if composition_valid(menu, kind, params, budget, cap, fpc, events + [ev]):
                    opts.append((f"create {it.name}", ev))
        for i in range(ncreated):
            j = [e[1] for e in hist if e[0] == "create"][i]
            cm = menu[j].cm
            ih = inst_hist(hist, i)
            if HALT in [x[2] for x in ih]:
                continue
            for m0 in cm.verifier.messages:
                for m1 in cm.verifier.messages:
                    ev = ("pair", i, m0, m1)
                    if composition_valid(menu, kind, params, budget, cap, fpc, events + [ev]):
                        lab = f"({m0},{m1})" if single else f"{i + 1}:({m0},{m1})"
                        opts.append((lab, ev))
        if not opts:
            return END
        kids = []
        for _lab, ev in opts:
            if ev[0] == "create":
                kids.append(node(hist + [ev]))
                continue
            _, i, m0, m1 = ev
            j = [e[1] for e in hist if e[0] == "create"][i]
            a = menu[j].cm.mechanism
            ih = inst_hist(hist, i)
            # this instance's own answers, recomputed from scratch under each world (a branch
            # impossible because of another instance only adds views of probability 0)
            masses, totals = [], []
            for w, m in ((0, m0), (1, m1)):
                alpha = _forward(a, 0, [(x[w], x[2]) for x in ih])
                totals.append(sum(alpha.values(), Q(0)))
                masses.append(_answer_masses(a, 0, alpha, m))
            labels, probs = _chance(masses, totals, list(a.answers) + [HALT])
            ch = [node(hist + [("pair", i, m0, m1, ans)]) for ans in labels]
            kids.append(Chance(labels, probs, ch))
        return Ask([l for l, _ in opts], kids)

    start = [("create", 0)] if single else []
    root = node(start)
    return Mechanism(root, tuple(datasets), ((0, 1),), "unrolled")


def unroll_continual(cm, datasets=("x0", "x1")):
    """The Cor. 3.8 game of one CM, unrolled."""
    from exactdp.builders.continual import MenuItem

    return unroll_composition(
        [MenuItem("M", cm, Q(0), Q(0))], "5.8", budget=Q(1), cap=1, single=True, datasets=datasets
    )
