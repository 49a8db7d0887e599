r"""Gaussian differential privacy (claim kinds ``gdp``, ``not_gdp``; Dong, Roth & Su 2022), with
rigorous rational bounds on Phi.  Relies on core.py: a referee of these kinds reads both.
"""

from fractions import Fraction
from math import isqrt
from typing import Any

from . import core
from .core import LIMITS, ONE, ZERO, Malformed, decide, envelope, exp_iv, order, param, series, text, vertices

__all__ = ["gdp", "phi_iv"]


def phi_iv(x: Fraction, p: int) -> tuple[Fraction, Fraction]:
    """Bounds on Phi(x), the standard normal distribution function: for x >= 0 Phi(x) = 1/2 +
    e^(-x^2/2)/sqrt(2 pi) * sum_n x^(2n+1)/(1*3*...*(2n+1)) (ratios x^2/(2n+3)), with pi/6 =
    arcsin(1/2) = sum_k c_k, c_0 = 1/2, ratios (2k+1)^2/(4(2k+2)(2k+3)) <= 1/4, and integer square
    roots; Phi(x) = 1 - Phi(-x) for x < 0.  Far out, 1 - Phi(x) < e^(-x^2/2) <= 2/(2 + x^2)."""
    if x < 0:
        lo, hi = phi_iv(-x, p)
        return 1 - hi, 1 - lo
    if x * x > 4 * LIMITS["max_precision"]:
        return 1 - 2 / (2 + x * x), ONE
    q = p + int(x * x) + 16  # e^(-x^2/2) >= 2^(-x^2): what the cancellation in 1 - Phi costs
    slo, shi = series(x, lambda n: (x.numerator**2, x.denominator**2 * (2 * n + 3)), q) if x else (ZERO, ZERO)
    elo, ehi = exp_iv(-x * x / 2, q)
    plo, phi = series(Fraction(1, 2), lambda k: ((2 * k + 1) ** 2, 4 * (2 * k + 2) * (2 * k + 3)), q)
    s = 1 << q  # sqrt(2 pi) = sqrt(12 arcsin(1/2))
    rlo = Fraction(isqrt(12 * plo.numerator * s * s // plo.denominator), s)
    rhi = Fraction(isqrt(-(-12 * phi.numerator * s * s // phi.denominator)) + 1, s)
    return Fraction(1, 2) + elo / rhi * slo, Fraction(1, 2) + ehi / rlo * shi


def gauss_cmp(b: Fraction, w: Any, mu: Fraction) -> int:
    """The sign of G_mu(b) - w, G_mu(b) = Phi(Phi^-1(1 - b) - mu) (Dong, Roth & Su 2022, Def. 2.6):
    with z = Phi^-1(1 - b) and y = Phi^-1(w) it is the sign of z - y - mu, decided by bisecting
    rational brackets of z and y (Phi bounded by :func:`phi_iv`) until they separate."""
    if b <= 0 or b >= 1 or w <= 0 or w >= 1:
        g = ONE if b <= 0 else ZERO if b >= 1 else None
        return order(g, w) if g is not None else 1 if w <= 0 else -1
    for (zl, zh), (yl, yh) in zip(bracket(1 - b), bracket(w)):
        if zl - yh - mu > 0 or zh - yl - mu < 0:
            break
    return 1 if zl - yh - mu > 0 else -1


def bracket(u: Any) -> Any:
    """Rational lo < Phi^-1(u) < hi for 0 < u < 1, halved at every step (bisection on certified
    comparisons of Phi(x) with u; a midpoint whose comparison stays undecided is moved)."""
    if u == Fraction(1, 2):
        while True:
            yield ZERO, ZERO

    def phi_cmp(x: Fraction) -> int:  # the sign of Phi(x) - u, 0 if 4,096-bit bounds leave it open
        def iv(p: int) -> tuple:  # (charged as measured: ~100 us at 64 bits, ~20 steps a us)
            core.spend("steps", 512 * ((p + 2 * core.bits(x) + int(x * x)) // 64 + 1) * (p // 64 + 1), "bounds on Phi")
            return tuple(b - u for b in phi_iv(x, p))

        return decide(iv, "Phi(x) - u", 4096)

    lo, hi = Fraction(-1), ONE
    while phi_cmp(lo) >= 0:
        lo *= 2
    while phi_cmp(hi) <= 0:
        hi *= 2
    while True:
        yield lo, hi
        if hi - lo < Fraction(1, 1 << LIMITS["max_precision"]):
            core.too_large("max_precision", "separating Phi^-1 from the GDP curve", "more bits")
        for mid in ((lo + hi) / 2, (2 * lo + hi) / 3, (lo + 2 * hi) / 3):
            c = phi_cmp(mid)
            if c:
                lo, hi = (mid, hi) if c < 0 else (lo, mid)
                break
        else:  # Phi is u within 2^-4096 on the whole bracket: it would never shrink
            core.too_large("max_precision", "separating Phi^-1 from the GDP curve", "bounds on Phi beyond 4,096 bits")


def gdp(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """mu-GDP: T(M(x), M(x')) >= G_mu for every ordered pair (Dong, Roth & Su 2022, Def. 2.6).  The
    chain's vertices (b, a) are tests with P_x'(T) = b, P_x(T) = a, and T(M)(b) = 1 - C(b) for the
    concave, piecewise linear chain C, while G_mu is convex: so G_mu(b) <= 1 - a at every vertex."""
    game, mu = core.game_of(games, claim.get("of")), param(claim, "mu")
    if not isinstance(mu, Fraction) or mu < 0:
        raise Malformed("claim.mu: a rational >= 0")
    statement = f"{game.shown} is {core.NOT}{text(mu)}-GDP"
    for b, a in vertices(*envelope(game)):
        if gauss_cmp(b, 1 - a, mu) > 0:
            return f"the test with P_x'(T) = {text(b)}, P_x(T) = {text(a)} lies below G_{text(mu)}", statement, False
    return f"G_{text(mu)} lies below the trade-off curve at every vertex", statement, True


core.HANDLERS["gdp"] = (gdp, set())
core.NEGATED.add("gdp")
