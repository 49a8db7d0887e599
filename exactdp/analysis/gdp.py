r"""Gaussian differential privacy, decided by certified interval arithmetic.

M is μ-GDP when T(M(x), M(x')) ≥ G_μ for every ordered adjacent pair, with
G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) the trade-off function of N(0, 1) vs N(μ, 1) (Dong–Roth–Su 2022,
Def. 2.6).  Our T is convex and piecewise linear with exact vertices, rational or, for a
decimal ε, in ℚ(e^{1/L}) (:mod:`exactdp.analysis.tradeoff`); on each segment T is linear and
G_μ convex, so T − G_μ is concave there and its minimum is at a vertex: checking every vertex
is exact.

At the ends G_μ is exact: G_μ(0) = 1 and G_μ(1) = 0, so the vertex α = 0 holds iff T(0) = 1 (no
view has positive probability under x only) and α = 1 always holds (T(1) = 0).  At an interior
vertex (α, β), G_μ(α) = ½·erfc(μ/√2 − erfcinv(2α)) and β are enclosed in arb balls
(python-flint) at doubling precision until they are separated; if the precision limit is
reached the answer is *undecided* (the vertex would touch G_μ) — never a guess.

References
----------
Dong, Roth & Su, *Gaussian Differential Privacy*, JRSS-B 84 (2022), Def. 2.6, Prop. 2.12.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..numbers import ladder
from ..numbers.rational import as_q
from ..numbers.types import FieldValue, Rational
from .tradeoff import Tradeoff

__all__ = ["GDPResult", "check_gdp", "gaussian_tradeoff_ball", "HOLDS", "FAILS", "UNDECIDED", "MAX_PREC"]

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
MAX_PREC = 1 << 12  # bits; beyond this a vertex is reported as touching G_mu (undecided)


@dataclass(frozen=True)
class GDPResult:
    """``status`` is holds/fails/undecided; ``vertex`` the deciding vertex (the failing one, the
    undecided one, or for holds the one closest to G_μ); ``g`` a decimal reading of G_μ there."""

    status: str
    vertex: tuple[FieldValue, FieldValue] | None
    g: str = ""


def _ball(x: FieldValue, prec: int) -> Any:
    """An arb ball containing x, a rational or an element of ℚ(e^{1/L}) (a decimal ε), at
    ``prec`` bits."""
    return ladder.ball(x, prec)


def gaussian_tradeoff_ball(alpha: FieldValue, mu: Rational, prec: int) -> Any:
    """An arb ball containing G_μ(α) = ½·erfc(μ/√2 − erfcinv(2α)) for α in (0, 1) (rational, or
    in ℚ(e^{1/L}) for a decimal ε)."""
    from flint import arb, ctx

    old = ctx.prec
    ctx.prec = prec
    try:
        two_alpha = _ball(alpha, prec) * 2
        z = _ball(as_q(mu), prec) / arb(2).sqrt() - two_alpha.erfcinv()
        return z.erfc() / 2
    finally:
        ctx.prec = old


def _vertex_cmp(alpha: FieldValue, beta: FieldValue, mu: Rational) -> tuple[int | None, str, float]:
    """sign(β − G_μ(α)) certified, or None at the precision limit; with a decimal reading of
    G_μ(α) and a float of it (both for display only)."""
    if alpha == 0:
        return ((beta > 1) - (beta < 1)), "1", 1.0
    if alpha == 1:
        return ((beta > 0) - (beta < 0)), "0", 0.0
    prec = 64
    g = None
    while prec <= MAX_PREC:
        g = gaussian_tradeoff_ball(alpha, mu, prec)
        b = _ball(beta, prec)
        if b > g or b < g:
            return (1 if b > g else -1), _reading(g), float(g.mid())
        prec *= 2
    return None, _reading(g) if g is not None else "?", 0.0


def _reading(g: Any) -> str:
    """A decimal reading of the ball g (display only): its midpoint, or, for a ball around 0
    too wide for a digit (G_mu of a huge mu), the bound it gives."""
    text = g.str(8, radius=False)
    if text.startswith("0e") or text == "0":
        return "0 (below " + g.upper().str(2, radius=False) + ")"
    return text


def check_gdp(t: Tradeoff, mu: Rational) -> GDPResult:
    """Whether T ≥ G_μ everywhere (module docstring): holds, fails at a vertex, or undecided."""
    mu = as_q(mu)
    closest: tuple | None = None  # for display only: the interior vertex nearest to G_mu
    undecided: tuple | None = None
    for a, b in t.vertices:
        s, g, approx = _vertex_cmp(a, b, mu)
        if s is None:
            undecided = undecided or ((a, b), g)
            continue
        if s < 0:
            return GDPResult(FAILS, (a, b), g)
        if 0 < a < 1:
            gap = float(b) - approx  # (display: which vertex is closest)
            if closest is None or gap < closest[2]:
                closest = ((a, b), g, gap)
    if undecided is not None:
        return GDPResult(UNDECIDED, undecided[0], undecided[1])
    return GDPResult(HOLDS, closest[0] if closest else None, closest[1] if closest else "")
