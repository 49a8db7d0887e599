r"""Bounded range (claim kinds ``bounded_range``, ``not_bounded_range``, ``br_range``; Dong, Durfee &
Rogers 2020, Def. 2.2), recomputed from the game.  Relies on core.py: a referee of these kinds
reads both.
"""

from typing import Any

from . import core
from .core import HANDLERS, INF, NEGATED, NOT, ONE, Game, Malformed, field, game_of, log_text, most, order, param

__all__ = ["bounded_range", "br_ratio"]


def br_ratio(game: Game, pair: tuple, deterministic: bool) -> Any:
    """e^(BR-range) for one ordered pair (Dong, Durfee & Rogers 2020, Def. 2.2): the largest ratio
    P_x(w1)/P_x'(w1) over P_x(w2)/P_x'(w2) for views w1, w2 of one deterministic adversary (or any
    two views, for randomized ones); inf when a view has ratio 0 or inf.  Two views of one strategy
    first differ at an answer: the largest ratio on from answer a over the smallest on from b != a
    (the prefix cancels); HI(v), LO(v), the extreme ratios of a continuation, are one pass."""
    (i, j), reach = pair, {game.root}  # the nodes that views with P_x, P_x' > 0 reach
    for k in range(game.root, -1, -1):
        for row, c in zip(game.probs(k), game.nodes[k][-1]) if k in reach else ():
            if bool(row[i]) != bool(row[j]):
                return INF  # a view impossible under exactly one dataset: ratio 0 or inf
            if row[i]:
                reach.add(c)
    hi, lo, best = list[Any](), list[Any](), ONE
    for k, nd in enumerate(game.nodes):
        opts = [(r[i] / r[j], c) for r, c in zip(game.probs(k), nd[-1]) if r[i] and r[j]]
        hs, ls = [q * hi[c] for q, c in opts], [q * lo[c] for q, c in opts]
        w = max((core.bits(x) for x in hs + ls), default=0) // 64 + 2  # (words: products, quotients cost w^2)
        core.spend("steps", 16 * len(hs) * w * w, "the BR-range")
        hi.append(core.bounded(max(hs), "the BR-range") if hs else ONE)
        lo.append(core.bounded(min(ls), "the BR-range") if ls else ONE)
        if nd[0] == "answer" and k in reach and len(ls) > 1:
            m = min(range(len(ls)), key=lambda a: ls[a])
            second = min(x for a, x in enumerate(ls) if a != m)
            best = max([best] + [h / (ls[m] if a != m else second) for a, h in enumerate(hs)])
    return best if deterministic else hi[game.root] / lo[game.root]


def bounded_range(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """M is eps-BR (Dong, Durfee & Rogers 2020, Def. 2.2): every pair's BR-range (:func:`br_ratio`) <= eps."""
    game, adv = game_of(games, claim.get("of")), field(claim, "adversaries", str, "claim")
    if adv not in ("deterministic", "randomized"):
        raise Malformed("claim.adversaries: deterministic or randomized")
    r = most([br_ratio(game, p, adv == "deterministic") for p in game.pairs])
    facts, suffix = f"BR-range({game.shown}) = {log_text(r)}", " (randomized adversaries)" * (adv == "randomized")
    if kind == "br_range":
        target = param(claim, "equals", kind="lam")
        return facts, f"BR-range({game.shown}) = {log_text(target)}{suffix}", order(r, target) == 0
    lam = param(claim, "exp_eps", kind="exp")
    return facts, f"{game.shown} is {NOT}{log_text(lam)}-BR{suffix}", order(r, lam) <= 0


HANDLERS.update(dict.fromkeys(["bounded_range", "br_range"], (bounded_range, set())))
NEGATED.add("bounded_range")
