r"""Lemma 5.6 (= Lemma 1.6) of Henzinger–Safavi–Vadhan: an interactive post-processor of
IRR_(ε,δ) that calls IRR at most twice, and once on histories where M(x₀) and M(x₁) agree.

IRR_(ε,δ)(b) answers a first query with z (z = 0, "leak", w.p. δ, independent of b) and a second
with y (y = b if z = 0; else y = b w.p. E/(1+E)); (z, y) has the law of RR_(ε,δ)(b).  The
construction (Section 8 of the paper, read for finite trees) takes a *leak part* g⁰, g¹: two
consistent sub-probability measures on M's history tree with g^b(∅) = δ, found by one exact LP:

* (I)   0 ≤ g^b(h) ≤ P_b(h);
* (II)  R_b(h) ≤ E·R_{1−b}(h) for the remainders R_b = P_b − g^b;
* (III) Σ_a g^b(h·q·a) = g^b(h) for every query q;
* (IV)  g⁰(h) = g¹(h) on every history of an adversary whose views under x₀ and x₁ are identical.

The non-leak part is Vadhan–Wang's construction on the remainders,
u^y = (E·R_y − R_{1−y})/(E − 1) (so u^y(∅) = 1 − δ), and T's conditionals are
F_(0,y) = ratios of g^y, F_(1,y) = ratios of u^y.  T calls IRR once for z, and a second time for
y only at the first round where F_(z,0) ≠ F_(z,1); (IV) makes that never happen against an
adversary with identical views.  The mixture identity
δ·g^b/δ + (1−δ)E/(1+E)·u^b/(1−δ) + (1−δ)/(1+E)·u^{1−b}/(1−δ) = P_b is checked path by path.

References
----------
Henzinger, Safavi, Vadhan, Concurrent Composition for Differentially Private Continual
Mechanisms (arXiv 2411.03299), Def. 2.9, Lemma 5.6, Cor. 5.7, §8.
"""

from __future__ import annotations

from ..errors import UnsupportedMechanismError
from ..model.game import Ask, Chance, End, Mechanism, postorder
from ..numbers.rational import Q
from .approx import ApproxCertificate
from .common import (
    PostProcessor,
    conditionals_from_paths,
    expand,
    history_text,
)
from .lp import Infeasible, LinearSystem, certified

__all__ = ["lemma56_postprocessor", "identical_rounds", "irr_weights", "IRR_OUTPUTS"]

IRR_OUTPUTS = ("(0,0)", "(0,1)", "(1,0)", "(1,1)")


def irr_weights(E, delta) -> tuple:
    """Pr[IRR_(ε,δ)(b) = (z, y)] for (z, y) in IRR_OUTPUTS."""
    one = Q(1)
    keep, flip = (one - delta) * E / (one + E), (one - delta) / (one + E)
    return ((delta, Q(0), keep, flip), (Q(0), delta, flip, keep))


def _identical_nodes(mech: Mechanism, i: int, j: int) -> dict[int, bool]:
    """I(node): some continuation strategy from ``node`` sees identical views under x_i, x_j."""

    memo: dict[int, bool] = {}
    for node in postorder(mech.root):
        if isinstance(node, End):
            memo[node.uid] = True
        elif isinstance(node, Ask):
            memo[node.uid] = any(memo[c.uid] for c in node.children)
        else:
            assert isinstance(node, Chance)
            memo[node.uid] = all(
                row[i] == row[j] and (row[i] == 0 or memo[c.uid]) for row, c in zip(node.probs, node.children)
            )
    return memo


def identical_rounds(mech: Mechanism, hist, i: int, j: int) -> set[int]:
    """Rounds on the path of some adversary whose views under x_i and x_j are identical."""
    ident = _identical_nodes(mech, i, j)
    out: set[int] = set()
    for occ in hist.occs:
        node = mech.root
        ok = ident[node.uid]
        for _kind, lab in occ.prefix:
            if not ok:
                break
            assert isinstance(node, (Ask, Chance))
            node = node.children[node.labels.index(lab)]
            ok = ident[node.uid]
        if ok and ident[occ.node.uid]:
            out.add(occ.index)
    return out


def lemma56_postprocessor(
    mech: Mechanism, pair: tuple[int, int], E, delta, *, eps_text: str = "", max_histories: int | None = None
) -> PostProcessor | ApproxCertificate:
    """Build Lemma 5.6's T for the pair (x_pair[0], x_pair[1]), E = e^ε > 1 and 0 < δ ≤ 1.

    Returns a :class:`PostProcessor` with the four IRR outcomes (z, y) as outputs (``extra``
    holds the rounds where a second IRR call is triggered), or an
    :class:`ApproxCertificate` when the leak-part LP is infeasible.
    """
    E, delta = Q(E), Q(delta)
    if E <= 1:
        raise UnsupportedMechanismError("Lemma 5.6 needs eps > 0 (e^eps > 1); for eps = 0 use the LP (via: lp)")
    if not (0 < delta <= 1):
        raise UnsupportedMechanismError("Lemma 5.6 needs 0 < delta <= 1; for delta = 0 use Theorem 1.10 (via: auto)")
    hist = expand(mech, max_histories=max_histories)
    i, j = pair
    same = identical_rounds(mech, hist, i, j)
    s = LinearSystem()
    n = len(hist.hists)
    for b in (0, 1):
        for h in range(n):
            s.var((b, h))
    P = [[h.P[i] for h in hist.hists], [h.P[j] for h in hist.hists]]
    for b in (0, 1):
        for occ in hist.occs:
            coefs = {s.var((b, h)): Q(1) for h in occ.answers}
            if occ.parent < 0:
                s.add(coefs, "=", delta, ("III", b, occ.index))
            else:
                coefs[s.var((b, occ.parent))] = Q(-1)
                s.add(coefs, "=", 0, ("III", b, occ.index))
    for h in range(n):
        for b in (0, 1):
            s.add({s.var((b, h)): Q(1)}, "<=", P[b][h], ("I", b, h))
            # P_b - g^b <= E (P_{1-b} - g^{1-b})
            s.add({s.var((b, h)): Q(-1), s.var((1 - b, h)): E}, "<=", E * P[1 - b][h] - P[b][h], ("II", b, h))
    for o in sorted(same):
        for h in hist.occs[o].answers:
            s.add({s.var((0, h)): Q(1), s.var((1, h)): Q(-1)}, "=", 0, ("IV", h))
    ans = certified(s)
    if isinstance(ans, Infeasible):
        return ApproxCertificate(mech.pair_names(pair), s, ans.multipliers, None, hist)
    g = [[ans.x[s.var((b, h))] for h in range(n)] for b in (0, 1)]
    R = [[P[b][h] - g[b][h] for h in range(n)] for b in (0, 1)]
    u = [[(E * R[y][h] - R[1 - y][h]) / (E - 1) for h in range(n)] for y in (0, 1)]
    if delta == 1:
        paths = [g[0], g[1], P[0], P[1]]  # (1, y) never occurs
    else:
        paths = [
            [v / delta for v in g[0]],
            [v / delta for v in g[1]],
            [v / (1 - delta) for v in u[0]],
            [v / (1 - delta) for v in u[1]],
        ]
    cond, free = conditionals_from_paths(hist, paths, (i, j, i, j))
    second = [
        o.index for o in hist.occs if cond[0][o.index] != cond[1][o.index] or cond[2][o.index] != cond[3][o.index]
    ]
    bad_same = [o for o in second if o in same]
    notes = [
        f"leak part g from one exact LP ({len(s.rows)} constraints); non-leak part by Vadhan-Wang on the remainders",
        f"IRR calls: one for z; a second (for y) is triggered at {len(second)} of {len(hist.occs)} rounds",
    ]
    if same:
        notes.append(
            f"one call only against adversaries with identical views ({len(same)} rounds): "
            + ("holds" if not bad_same else f"FAILS at {history_text(hist.occs[bad_same[0]].prefix)}")
        )
    if free:
        notes.append(
            f"{len(free)} conditional(s) are at rounds never reached under that IRR outcome: free, set to M's own conditional"
        )
    pp = PostProcessor(
        "lemma56",
        pair,
        mech.pair_names(pair),
        IRR_OUTPUTS,
        irr_weights(E, delta),
        cond,
        free,
        hist,
        paths,
        eps_text,
        E,
        delta,
        notes,
    )
    pp.extra.update(
        {
            "second_call_rounds": second,
            "identical_rounds": sorted(same),
            "one_call_violations": bad_same,
            "calls_text": notes[1],
        }
    )
    return pp
