r"""Points where the checker computes δ(λ) itself: tangent lines for profile claims and the test
that refutes a GDP claim.

The checker computes δ(λ) and its left derivative at any λ by the backward induction over the
game.  A convex function lies above its tangent lines, so the left-derivative lines of δ_N at
one λ inside each linear piece of δ_N (on λ ≥ 1) make a lower bound that equals δ_N there; and
at λ equal to the slope of the k-th edge of a pair's chain, the left derivative selects the
chain's vertex k — a test (P_x'(T), P_x(T)) of that pair.

References
----------
Vadhan & Wang (TCC 2021), Def. 1.7 and Lemma 2.2; Dong, Roth & Su (2022), Def. 2.6.
"""

from __future__ import annotations

from typing import Any

from ..analysis.gdp import gaussian_tradeoff_ball
from ..analysis.results import Profile
from ..numbers.qt import QtElement
from ..numbers.rational import Q, to_fraction
from .game import ExportedGame

__all__ = ["support_points", "gdp_failure"]

_ONE = Q(1)


def support_points(prof: Profile) -> list[Any]:
    """One λ inside each linear piece of δ_M on λ ≥ 1 where δ_M > 0, increasing."""
    bps = sorted(r for r in prof.envelope.breakpoints(at_least=_ONE) if r > 1)
    points = [(a + b) / 2 for a, b in zip([_ONE] + bps, bps)] + [(bps[-1] if bps else _ONE) + 1]
    return [lam for lam in points if prof.delta_at_lambda(lam) > 0]


def gdp_failure(g: ExportedGame, mu: Any) -> tuple[Any, list[str]] | None:
    """(λ, ordered pair) where a pair's optimal test lies below G_μ, or None.  The test is vertex
    k of the pair's exact chain: (b, a) = (P_x'(T), P_x(T)) with T(M(x'), M(x))(b) <= 1 - a."""
    mech = g.mech
    for pair in mech.ordered_pairs:
        h = g.chains(pair)[mech.root.uid]
        b, a = Q(0), h.top
        for k in range(len(h.edges) + 1):
            if k:
                r, w = h.edges[k - 1]
                b, a = b + w, a + r * w
            if _below(b, 1 - a, mu):
                lam = h.edges[k - 1][0] if k else (h.edges[0][0] + 1 if h.edges else Q(2))
                return lam, list(mech.pair_names(pair))
    return None


def _below(alpha: Any, beta: Any, mu: Any) -> bool:
    """β < G_μ(α), certified by Arb balls (False when 4,096 bits do not decide it)."""
    if alpha == 0 or alpha == 1:
        return beta < (1 if alpha == 0 else 0)
    from flint import arb, ctx, fmpq

    for prec in (64, 256, 1024, 4096):
        old, ctx.prec = ctx.prec, prec
        try:
            g = gaussian_tradeoff_ball(alpha, mu, prec)
            b = beta.ball(prec) if isinstance(beta, QtElement) else arb(fmpq(*_ratio(beta)))
            if b < g or b > g:
                return bool(b < g)
        finally:
            ctx.prec = old
    return False


def _ratio(x: Any) -> tuple[int, int]:
    f = to_fraction(x)
    return f.numerator, f.denominator
