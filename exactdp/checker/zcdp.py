r"""Zero-concentrated differential privacy (claim kinds ``zcdp`` and ``not_zcdp``; Bun & Steinke
2016, Def. 1.1: D_alpha(M) <= rho alpha for every real alpha > 1), from Renyi divergences at the
finitely many orders the proof names.  Relies on core.py and divergences.py: a referee of these
kinds reads all three.
"""

from __future__ import annotations

from fractions import Fraction

from .core import HANDLERS, NEGATED, NOT, Malformed, field, game_of, param, text
from .divergences import compare_divergence, renyi_order

__all__ = ["zcdp"]


def zcdp(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """D_alpha is nondecreasing in alpha (van Erven & Harremoes 2014, Thm 3; so is its sup over
    adversaries and pairs).  So the proof's ``orders`` 1 < a_0 < ... < a_N with D_(a_0) <= rho,
    D_(a_(i+1)) <= rho a_i and D_inf <= rho a_N cover every alpha > 1: on (1, a_0], D_alpha <=
    D_(a_0) <= rho < rho alpha; on [a_i, a_(i+1)], D_alpha <= D_(a_(i+1)) <= rho a_i <= rho alpha;
    beyond a_N, D_alpha <= D_inf <= rho a_N.  The proof's ``alpha`` with D_alpha > rho alpha
    refutes the claim instead."""
    game, rho = game_of(games, claim.get("of")), param(claim, "rho")
    if not isinstance(rho, Fraction) or rho <= 0:
        raise Malformed("claim.rho: a rational number > 0")
    statement = f"{text(game.name)} is {NOT}{text(rho)}-zCDP"
    if set(proof) == {"alpha"}:
        a = renyi_order(proof["alpha"], "proof.alpha")
        if a in (None, 1):
            raise Malformed("proof.alpha: a finite order > 1")
        refuted = compare_divergence([game], a, (rho * a, []))[0] > 0
        return (
            f"D_{text(a)}({text(game.name)}) {'>' if refuted else '<='} {text(rho * a)}",
            statement,
            not refuted and None,
        )
    orders = [renyi_order(x, f"proof.orders[{k}]") for k, x in enumerate(field(proof, "orders", list, "proof"))]
    if not orders or None in orders or 1 in orders or any(b <= a for a, b in zip(orders, orders[1:])):
        raise Malformed("proof.orders: increasing finite orders > 1")
    for a, bound in zip(orders + [None], [rho] + [rho * a for a in orders]):
        if compare_divergence([game], a, (bound, []))[0] > 0:
            return f"D_{text(a) if a else 'inf'}({text(game.name)}) > {text(bound)}", statement, None
    span = f"{len(orders)} orders from {text(orders[0])} to {text(orders[-1])}, and inf"
    return f"D_alpha <= {text(rho)} alpha for every alpha > 1, from D at {span}", statement, True


HANDLERS["zcdp"] = (zcdp, {"orders", "alpha"})
NEGATED.add("zcdp")
