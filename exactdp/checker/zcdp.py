r"""Zero-concentrated differential privacy (claim kinds ``zcdp`` and ``not_zcdp``; Bun & Steinke
2016, Def. 1.1: D_alpha(M) <= rho alpha for every real alpha > 1), from Renyi divergences at the
finitely many orders the proof names and the convexity of (alpha - 1) D_alpha.  Relies on core.py
and divergences.py: a referee of these kinds reads all three.
"""

from fractions import Fraction

from .core import HANDLERS, INF, NEGATED, NOT, ONE, ZERO, Malformed, field, game_of, param, text
from .divergences import compare_divergence, renyi_order

__all__ = ["zcdp"]


def zcdp(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """K(alpha) = (alpha - 1) D_alpha = log of the largest sum_v P^alpha P'^(1 - alpha) over the
    adversaries and pairs is convex in alpha (the log of each sum is, by Hoelder's inequality; so
    is a max of convex functions; van Erven & Harremoes 2014 state it as the concavity of
    (1 - alpha) D_alpha), and K(1) = 0.  So the proof's orders 1 < a_0 < ... < a_N, with
    ``bounds`` k_i >= K(a_i) (each checked), prove D_alpha <= rho alpha on (1, a_N] when on each
    [a_(i-1), a_i] (a_(-1) = 1, k_(-1) = 0) the chord through the k's lies below rho alpha
    (alpha - 1) (:func:`below`); beyond a_N, D_alpha <= D_inf <= rho a_N, D being nondecreasing
    in alpha (their Thm 3).  The proof's ``alpha`` with D_alpha > rho alpha refutes the claim."""
    game, rho = game_of(games, claim.get("of")), param(claim, "rho")
    if not isinstance(rho, Fraction) or rho <= 0:
        raise Malformed("claim.rho: a rational number > 0")
    statement = f"{game.shown} is {NOT}{text(rho)}-zCDP"
    if set(proof) == {"alpha"}:
        a = renyi_order(proof["alpha"], "proof.alpha")
        if a in (None, 1):
            raise Malformed("proof.alpha: a finite order > 1")
        refuted = compare_divergence([game], a, (rho * a, []))[0] > 0
        facts = f"D_{text(a)}({game.shown}) {'>' if refuted else '<='} {text(rho * a)}"
        return facts, statement, not refuted and None
    orders = [renyi_order(x, f"proof.orders[{k}]") for k, x in enumerate(field(proof, "orders", list, "proof"))]
    bounds = field(proof, "bounds", list, "proof")
    ks = [param(bounds, k, "proof.bounds", "ratio") for k in range(len(bounds))]
    if not orders or None in orders or 1 in orders or any(b <= a for a, b in zip(orders, orders[1:])):
        raise Malformed("proof.orders: increasing finite orders > 1")
    if len(ks) != len(orders) or INF in ks or any(not isinstance(k, Fraction) for k in ks):
        raise Malformed("proof.bounds: a rational bound on (alpha - 1) D_alpha, one for each order")
    for (a, ka), (b, kb) in zip([(ONE, ZERO)] + list(zip(orders, ks)), zip(orders, ks)):  # (cheap ones first)
        if not below(a, ka, Fraction(b), kb, rho):
            return f"the chord on [{text(a)}, {text(b)}] rises above rho alpha (alpha - 1)", statement, None
    if compare_divergence([game], None, (rho * orders[-1], []))[0] > 0:
        return f"D_inf({game.shown}) > {text(rho * orders[-1])}", statement, None
    for a, k in zip(orders, ks):
        if compare_divergence([game], a, (k / (a - 1), []))[0] > 0:
            return f"D_{text(a)}({game.shown}) > {text(k / (a - 1))}", statement, None
    span = f"{len(orders)} orders from {text(orders[0])} to {text(orders[-1])}, and inf"
    return f"D_alpha <= {text(rho)} alpha for every alpha > 1, from D at {span}", statement, True


def below(a: Fraction, ka: Fraction, b: Fraction, kb: Fraction, rho: Fraction) -> bool:
    """Whether f(x) = rho x (x - 1) - ka - s (x - a) >= 0 on [a, b], s = (kb - ka)/(b - a): f is a
    convex quadratic, least at x = (rho + s)/(2 rho) or at the nearer end of [a, b]."""
    s = (kb - ka) / (b - a)
    x = min(max((rho + s) / (2 * rho), a), b)
    return rho * x * (x - 1) - ka - s * (x - a) >= 0


HANDLERS["zcdp"] = (zcdp, {"orders", "bounds", "alpha"})
NEGATED.add("zcdp")
