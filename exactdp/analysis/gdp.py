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

from ..model.checks import takes_instance
from ..numbers import INF, Infinity, ladder
from ..numbers.rational import Q, as_q
from ..numbers.types import FieldValue, Rational
from .status import Status
from .tradeoff import Tradeoff

__all__ = ["GDPResult", "Enclosure", "check_gdp", "tight_mu", "gaussian_tradeoff_ball", "MAX_PREC"]

HOLDS, FAILS, UNDECIDED = Status.HOLDS, Status.FAILS, Status.UNDECIDED
MAX_PREC = 1 << 12  # bits; beyond this a vertex is reported as touching G_mu (undecided)
TIGHT_MU_PREC = 128  # bits for the enclosure of the least mu (its width is about 1e-30)


@dataclass(frozen=True)
class GDPResult:
    """``status`` is holds/fails/undecided; ``vertex`` the deciding vertex (the failing one, the
    undecided one, or for holds the one closest to G_μ); ``g`` a decimal reading of G_μ there."""

    status: Status
    vertex: tuple[FieldValue, FieldValue] | None
    g: str = ""


@dataclass(frozen=True)
class Enclosure:
    """A certified enclosure lo ≤ x ≤ hi of a real number x that has no exact form here (it
    is transcendental): ``lo`` and ``hi`` are exact rationals (decimals)."""

    lo: Rational
    hi: Rational


def _flint() -> Any:
    import flint  # start-up: python-flint (arb balls) loads only when a Gaussian-DP claim is checked

    return flint


def _ball(x: FieldValue, prec: int) -> Any:
    """An arb ball containing x, a rational or an element of ℚ(e^{1/L}) (a decimal ε), at
    ``prec`` bits."""
    return ladder.ball(x, prec)


def gaussian_tradeoff_ball(alpha: FieldValue, mu: Rational, prec: int) -> Any:
    """An arb ball containing G_μ(α) = ½·erfc(μ/√2 − erfcinv(2α)) for α in (0, 1) (rational, or
    in ℚ(e^{1/L}) for a decimal ε)."""
    fl = _flint()
    old = fl.ctx.prec
    fl.ctx.prec = prec
    try:
        two_alpha = _ball(alpha, prec) * 2
        z = _ball(as_q(mu), prec) / fl.arb(2).sqrt() - two_alpha.erfcinv()
        return z.erfc() / 2
    finally:
        fl.ctx.prec = old


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


@takes_instance(
    Tradeoff, what="a trade-off function", how="compute it with exactdp.envelope_tradeoff(exactdp.profile(mech))"
)
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


def tight_mu(t: Tradeoff) -> Enclosure | Infinity:
    """The least μ ≥ 0 such that T ≥ G_μ (the mechanism is μ-GDP exactly for μ at least this),
    as a certified enclosure, or ∞ when no μ works.

    G_μ(α) ≤ β ⇔ μ ≥ Φ⁻¹(1 − α) − Φ⁻¹(β) = √2·(erfcinv(2α) + erfcinv(2β)) for 0 < α < 1 and
    0 < β < 1, with Φ⁻¹(p) = −√2·erfcinv(2p); as T − G_μ is minimal at a vertex of T (module
    docstring), the least μ is the largest of these over T's interior vertices (and 0).  A vertex
    (0, β) with β < 1, or (α, 0) with 0 < α < 1, is below G_μ for every μ: then ∞.  For RR_ε it
    is 2Φ⁻¹(e^ε/(1 + e^ε)) (Dong–Roth–Su 2022, Def. 2.6 and their f_(ε,0))."""
    fl = _flint()
    old = fl.ctx.prec
    fl.ctx.prec = TIGHT_MU_PREC
    try:
        lo = hi = fl.arb(0)
        for a, b in t.vertices:
            if a == 0:
                if b < 1:
                    return INF
                continue
            if a == 1 or b >= 1:
                continue
            if b == 0:
                return INF
            mu = (_ball(a, TIGHT_MU_PREC) * 2).erfcinv() + (_ball(b, TIGHT_MU_PREC) * 2).erfcinv()
            mu = mu * fl.arb(2).sqrt()
            lo, hi = lo.max(mu.lower()), hi.max(mu.upper())
        return Enclosure(_decimal(lo, -1), _decimal(hi, 1))
    finally:
        fl.ctx.prec = old


def _decimal(x: object, direction: int) -> Rational:
    """An exact decimal bound of the ball ``x``: below it (``direction`` −1) or above it (+1)."""
    mid, rad, exp = x.mid_rad_10exp(20)  # type: ignore[attr-defined]
    n = int(mid) + direction * int(rad)
    return Q(n) * Q(10) ** int(exp) if int(exp) >= 0 else Q(n, 10 ** (-int(exp)))
