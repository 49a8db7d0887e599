r"""Certificates for ``composition`` claims: the components' games, the (ε_i, δ_i) the theorem
is applied to, and PrivLoss of their concurrent composition at the claim's δ.

The checker builds ConComp(M_1, ..., M_k) itself from the components (Vadhan & Wang 2021,
Def. 2.1), checks each component's (ε_i, δ_i) — claimed ones as (ε_i, δ_i)-DP, default ones as
ε_i = PrivLoss(M_i, δ_i) exactly — checks PrivLoss of the composition at δ, and recomputes the
theorem's bound: basic, improved basic and Thm 1.8 by their formulas, the optimal composition by
its finite sum over subsets (Kairouz, Oh & Viswanath 2015; Murtagh & Vadhan 2016).  ``theorem:
renyi`` and ``theorem: fdp`` need nothing but the games: the checker recomputes every Rényi
divergence, or the profiles and the tensor product of the components' trade-off functions.
"""

from __future__ import annotations

from typing import Any

from ..numbers.rational import Q
from ..theorems import basic, components, improved_basic, thm_1_8
from .base import Source, exp_eps
from .build import _body, _game
from .game import check_point_states, export_game

__all__ = ["composition_certificate"]


def composition_certificate(src: Source, claim: Any, holds: bool) -> dict:
    """The certificate of a :class:`~exactdp.claims.composition.CompositionClaim` whose verdict
    (``holds``) exactdp has decided."""
    names = tuple(claim.of)
    games = {}
    for n in names:
        g, _ = _game(src, n)
        games[g.name] = g
    body: dict = {"kind": "composition", "of": list(names), "theorem": claim.theorem}
    if claim.theorem == "fdp":
        return _body(body, holds, list(games.values()), {}, "computed by the checker from the games")
    if claim.theorem == "renyi":
        body["alpha"] = "inf" if str(claim.alpha) == "inf" else str(int(claim.alpha))
        return _body(body, holds, list(games.values()), {}, "recomputed by the checker from the games")
    deltas = list(claim.deltas or [Q(0)] * len(names))
    used = []
    for k, n in enumerate(names):
        if claim.eps is not None:
            used.append(exp_eps(claim.eps[k]))
        else:
            used.append(src.profile(n).least_lambda(deltas[k]))
    at = claim.delta if claim.delta is not None else (Q(0) if claim.theorem == "optimal" else None)
    built = src.concomp(names)  # type: ignore[attr-defined]
    check_point_states(export_game(built, "ConComp"))
    for n in names:
        check_point_states(games[n])
    concomp = src.cached(("certificate-concomp", names), lambda: src.engine.profile(built))  # type: ignore[attr-defined]
    if at is None:
        comps = components(
            [claim.eps[k] if claim.eps else src.profile(n).privloss(deltas[k]) for k, n in enumerate(names)], deltas
        )
        at = {"basic": basic, "improved-basic": improved_basic, "thm-1.8": thm_1_8}[claim.theorem](comps).delta
    body.update(delta=at if claim.delta is not None or claim.theorem == "optimal" else None, deltas=deltas)
    body["eps"] = [used[k] for k in range(len(names))] if claim.eps is not None else [None] * len(names)
    proof = {"exp_eps": used, "exp_privloss": concomp.least_lambda(at)}
    return _body(
        body, holds, list(games.values()), proof, f"PrivLoss of the composition at {at}: e^{concomp.least_lambda(at)}"
    )
