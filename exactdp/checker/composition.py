r"""Composition theorems (claim kind ``composition``): the concurrent composition built here from
the component games, its PrivLoss (or divergences, or profile) recomputed, each component's
parameters checked and the theorem's bound recomputed from its formula.  Relies on core.py, and
on divergences.py for ``theorem: renyi``.
"""

from itertools import accumulate, permutations
from math import prod
from operator import mul
from typing import Any

from . import core
from .core import INF, ONE, ZERO, Game, Malformed, envelope, field, log_text, param, pinned, spend, text
from .divergences import compare_divergence, renyi_order

__all__ = ["composition", "concomp"]


def concomp(games: list, names: list, shown: list | None = None) -> Game:
    """ConComp(M_1, ..., M_k) (Vadhan & Wang 2021, Def. 2.1), built here from the components: at
    each step the adversary picks a component that has not ended and a query for it (or polls one
    waiting at an answer); it answers from its own state, the others keep theirs.  Sub-games are
    shared by the tuple of component states."""
    shapes = [(g.datasets, sorted(g.pairs)) for g in games]  # (numbers of Q and of Q(t) mix: Game.setup)
    if any(shape != shapes[0] for shape in shapes):
        raise Malformed("the components of a composition need the same datasets and pairs")

    def expand(state: tuple) -> tuple:
        tag, j, at = state
        if tag == "answer":
            nd = games[j].nodes[at[j]]
            return nd[:4] + ([("wait", -1, at[:j] + (c,) + at[j + 1 :]) for c in nd[4]],)
        labels, succ = list[Any](), list[Any]()
        for j, g in enumerate(games):
            nd = g.nodes[at[j]]
            if nd[0] == "answer":
                labels, succ = labels + [names[j]], succ + [("answer", j, at)]
            for lab, c in zip(nd[1], nd[2]) if nd[0] == "ask" else ():
                moved = at[:j] + (c,) + at[j + 1 :]
                labels.append(f"{names[j]}.{lab}")
                succ.append(("answer", j, moved) if g.nodes[c][0] == "answer" else ("wait", -1, moved))
        return ("ask", labels, succ) if labels else core.END

    ids, nodes, stack = {}, list[Any](), [(("wait", -1, tuple(g.root for g in games)), False)]
    while stack:
        state, expanded = stack.pop()
        if state in ids:
            continue
        spec = expand(state)  # (k-tuples for each successor: the work and memory grow with k)
        core.spend("steps", 8 * len(games) * (len(spec[-1]) + 1), "building the concurrent composition")
        if not expanded:
            stack += [(state, True)] + [(c, False) for c in spec[-1] if c not in ids]
            continue
        ids[state] = len(nodes)
        nodes.append(spec[:-1] + ([ids[c] for c in spec[-1]],))
        if len(nodes) > core.LIMITS["max_states"]:
            core.too_large("max_states", "building the concurrent composition", f"more than {len(nodes) - 1} nodes")
    built = Game.__new__(Game)
    built.name, built.datasets, built.pairs = f"ConComp({', '.join(names)})", games[0].datasets, games[0].pairs
    built.shown = f"ConComp({', '.join(shown or map(core.quoted, names))})"
    built.nodes, built.root = nodes, len(nodes) - 1
    built.setup()
    return built


# --- composition theorems: the composition built here, the bound recomputed ---------------------
def size(nums: list) -> int:
    """Word operations of one step on these numbers (a product and a sum of Fractions: about 32
    times their mean size in words, measured)."""
    return 32 * sum(core.bits(x) // 64 + 1 for x in nums) // max(len(nums), 1)


def theorem_bound(theorem: str, lams: list, deltas: list) -> tuple[Any, Any]:
    """(e^eps_T, delta_T) of a composition theorem for (log lams[i], deltas[i])-DP components: basic
    (Sum eps_i, Sum delta_i; Vadhan & Wang 2021, Thm 3.3 for pure components; Vadhan & Zhang 2023
    and Lyu 2022 for approximate ones), improved basic (delta_T = 1 - Prod(1 - delta_i); Henzinger,
    Safavi & Vadhan, Remark 5.12) and Thm 1.8 (delta_T = min over the k! orders s of Sum_k
    e^(eps_(s(1)) + ... + eps_(s(k-1))) delta_(s(k)))."""
    if theorem == "basic":
        return prod(lams), sum(deltas, ZERO)
    if theorem == "improved-basic":
        return prod(lams), 1 - prod([1 - d for d in deltas])
    w = len(lams) * max(map(core.bits, lams + deltas)) // 64 + 2  # words of a prefix product: sums cost w^2
    spend("steps", prod(range(1, len(lams) + 1)) * len(lams) * 8 * w * w, "Theorem 1.8's orders")
    orders = permutations(range(len(lams)))  # for each, Sum_k (prefix product of e^eps) delta_(s(k))
    return prod(lams), min(
        sum(map(mul, accumulate((lams[i] for i in s), mul, initial=ONE), (deltas[i] for i in s))) for s in orders
    )


def optimal_holds(lams: list, deltas: list, at: Any, lam: Any) -> bool:
    """log(lam) <= eps_g, the least eps >= 0 with f(e^eps) <= tau, where (Kairouz, Oh & Viswanath
    2015; Murtagh & Vadhan 2016; Vadhan & Wang 2021, Thm 1.4)
        f(l) = Sum over subsets S of max(E_S - l E_(not S), 0) / Prod(1 + e^eps_i),  E_S = Prod_(i in S) e^eps_i,
        tau = 1 - (1 - delta) / Prod(1 - delta_i)
    (tau < 0: no eps works, eps_g = inf).  f is continuous and nonincreasing, so log(lam) <= eps_g
    iff f(l) > tau for every l < lam: f(lam) > tau, or f(lam) = tau with f strictly decreasing
    just below lam (some term with E_S >= lam E_(not S) is still active there)."""
    k = len(lams)
    spend("steps", 2**k * k * size(lams + deltas), "the optimal composition's sum over subsets")
    keep = prod([1 - d for d in deltas])
    if not keep:  # some delta_i = 1: delta(l) = 1 for every l, so eps_g = inf below delta 1, and 0 at 1
        return at < 1 or lam == 1
    tau, total, active = 1 - (1 - at) / keep, ZERO, False
    if tau < 0 or lam == INF or lam == 1:  # (tau < 0: no eps works, eps_g = inf)
        return tau < 0 or lam == 1
    for mask in range(2**k):
        es = prod([x for i, x in enumerate(lams) if mask >> i & 1])
        rest = prod([x for i, x in enumerate(lams) if not mask >> i & 1])
        if es - lam * rest >= 0:
            total, active = total + es - lam * rest, True
    f = total / prod([1 + x for x in lams])
    return f > tau or (f == tau and active)


def composition(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """A composition theorem on ConComp of the components, built here (:func:`concomp`): its PrivLoss
    at delta (or Renyi divergence, or trade-off function), each component's (eps_i, delta_i) checked
    (claimed: (eps_i, delta_i)-DP; by default eps_i = PrivLoss(M_i, delta_i)), the bound recomputed."""
    names = [core.expect(n, str, f"claim.of[{k}]") for k, n in enumerate(field(claim, "of", list, "claim"))]
    comps = [core.game_of(games, n) for n in names]
    if not comps:
        raise Malformed("claim.of: at least one component")
    labels, shown, used, copies = list[str](), list[str](), set[str](), dict[str, int]()
    for n in names:  # a repeated component is another copy: R, R#2, R#3, ..., never another game's name
        x = n
        while x in used or (x != n and x in games):
            copies[n] = copies.get(n, 1) + 1
            x = f"{n}#{copies[n]}"
        labels.append(x)
        shown.append(core.quoted(n) + f"#{copies.get(n)}" * (x != n))  # (names with # are quoted: #k marks a copy)
        used.add(x)
    built = concomp(comps, labels, shown)
    games[built.name], name, theorem = built, built.shown, field(claim, "theorem", str, "claim")
    if theorem == "fdp":  # T(ConComp) >= the tensor product of the T(M_i): delta below, at every lam >= 0
        holds = core.above(envelope(built), tensor([envelope(g) for g in comps]), ZERO) is None
        said = f"T({name}) >= the tensor product of the T(M_i)"
        return "both profiles compared at every bend and in the limit", said, holds
    if theorem == "renyi":
        alpha = renyi_order(claim.get("alpha"), "claim.alpha", whole=True)
        c, d = compare_divergence([built] + comps, alpha)[0], f"D_{alpha or 'inf'}"
        return "recomputed from the games", f"{d}({name}) <= " + " + ".join(f"{d}({n})" for n in shown), c <= 0
    if theorem not in ("basic", "improved-basic", "thm-1.8", "optimal"):
        raise Malformed("claim.theorem: basic, improved-basic, thm-1.8, optimal, renyi or fdp")
    deltas = [core.number(d, f"claim.deltas[{k}]") for k, d in enumerate(field(claim, "deltas", list, "claim"))]
    claimed, used = field(claim, "eps", list, "claim"), field(proof, "exp_eps", list, "proof")
    if not len(deltas) == len(claimed) == len(used) == len(comps):
        raise Malformed("claim.deltas, claim.eps and proof.exp_eps need one entry per component")
    lams = []
    for k, (g, d) in enumerate(zip(comps, deltas)):
        lam = param(used, k, "proof.exp_eps", "ratio")
        if lam == INF or lam < 1 or not 0 <= d <= 1:
            raise Malformed(f"proof.exp_eps[{k}]: a finite e^eps_i >= 1 (and delta_i in [0, 1])")
        if claimed[k] is None:
            pinned(g, d, lam)
        elif param(claimed, k, "claim.eps", "ratio") != lam:
            raise Malformed(f"proof.exp_eps[{k}]: must be the claimed e^eps_i")
        elif not core.delta_at(g, lam)[0] <= d:
            return f"{g.shown} is not ({log_text(lam)}, {text(d)})-DP", f"{name} within {theorem}", False
        lams.append(lam)
    parts = ", ".join(f"({log_text(x)}, {text(d)})" for x, d in zip(lams, deltas))
    lam = param(proof, "exp_privloss", "proof", "lam")
    if theorem == "optimal":
        at, bound_text = param(claim, "delta", kind="prob"), "the optimal composition's eps"
        holds = optimal_holds(lams, deltas, at, lam)
    else:
        bound, delta_t = theorem_bound(theorem, lams, deltas)
        at = param(claim, "delta", kind="prob") if claim.get("delta") is not None else delta_t
        holds = at < delta_t or (lam != INF and lam <= bound)
        bound_text = f"{log_text(bound)} at delta >= {text(delta_t)}"
    facts = f"{pinned(built, at, lam)}; components ({parts}); {theorem} gives {bound_text}"
    return facts, f"PrivLoss({name}, {text(at)}) within the {theorem} theorem", holds


def tensor(chains: list) -> tuple:
    """The chain of the product distributions (Dong, Roth & Su 2022, Def. 3.1: the tensor product of
    trade-off functions).  A chain is a view of ratio inf with P-mass top and views of ratio r with
    P'-mass w; product views multiply ratios and masses, ratio inf (the top) when a factor's is."""
    top, atoms = ZERO, {ONE: ONE}  # the product of no chain: one view of ratio 1
    for t, edges in chains:
        spend("steps", len(atoms) * len(edges), "the tensor product of trade-off functions")
        new: dict = {}
        for r1, w1 in atoms.items():
            for r2, w2 in edges:
                new[r1 * r2] = new.get(r1 * r2, ZERO) + w1 * w2
        atoms, top = new, 1 - (1 - top) * (1 - t)
    return top, sorted(atoms.items(), key=lambda e: e[0], reverse=True)


core.HANDLERS["composition"] = (composition, {"exp_eps", "exp_privloss"})
