r"""Privacy profiles compared, f-DP and trade-off values (claim kinds ``profile_le``, ``profile_eq``,
``fdp``, ``not_fdp``, ``tradeoff``), from the chains of core.py (delta for every lam).  Relies on
core.py: a referee of these kinds reads both.
"""

from .core import HANDLERS, NOT, ONE, above, envelope, game_of, order, param, relation, text, values, vertices

__all__ = ["profile", "tradeoff"]


def profile(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """delta_M(lam) <= delta_N(lam) for every lam >= 1 (:func:`above`); profile_eq both ways.  fdp, M
    is T(N)-DP (Dong, Roth & Su 2022): T(M) >= T(N), i.e. delta_M <= delta_N for every lam >= 0 (their
    Prop. 2.12), which lam >= 1 implies: over symmetric pairs delta(lam) = 1 - lam + lam delta(1/lam)."""
    key, rel = {"profile_le": ("than", "<="), "profile_eq": ("as", "equals")}.get(kind, ("f", None))
    m, n = game_of(games, claim.get("of")), game_of(games, claim.get(key))
    statement = f"profile of {m.shown} {rel} profile of {n.shown}"
    statement = statement if rel else f"{m.shown} is {NOT}T({n.shown})-DP"
    chains = {m.name: envelope(m), n.name: envelope(n)}
    for a, b in [(m, n)] + ([(n, m)] if kind == "profile_eq" else []):
        ca, cb = chains[a.name], chains[b.name]
        if (lam := above(ca, cb, ONE)) is not None:
            va, vb = values(ca, [lam])[0], values(cb, [lam])[0]
            facts = f"delta_{a.shown}({text(lam)}) = {text(va)} > delta_{b.shown}({text(lam)}) = {text(vb)}"
            return facts, statement, False
    return "compared at every bend and in the limit", statement, True


def tradeoff(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """T(M)(alpha) against a bound (Dong, Roth & Su 2022, Def. 2.1): the test rejecting on an
    event T has type I error P_x'(T) and type II error 1 - P_x(T), so T(M)(alpha) = 1 - C(alpha),
    C the envelope's chain as a function of b = P_x'(T), linear between its vertices (a test
    mixing the two vertices' tests by a coin)."""
    game, alpha = game_of(games, claim.get("of")), param(claim, "alpha", kind="prob")
    (rel, test), bound = relation(claim, ["equals", "at_least", "at_most"]), param(claim, "bound", kind="prob")
    pts = vertices(*envelope(game))
    (b0, a0), (b1, a1) = next((u, v) for u, v in zip(pts, pts[1:]) if order(v[0], alpha) >= 0)
    t = 1 - a0 - (a1 - a0) * (alpha - b0) / (b1 - b0)
    facts = f"T({game.shown})({text(alpha)}) = {text(t)}, between the vertices at {text(b0)} and {text(b1)}"
    return facts, f"T({game.shown})({text(alpha)}) {rel} {text(bound)}", test(order(t, bound))


HANDLERS.update(dict.fromkeys(["profile_le", "profile_eq", "fdp"], (profile, set())), tradeoff=(tradeoff, set()))
