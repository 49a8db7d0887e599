"""Certified sign decisions by interval arithmetic, and decimal readings for display.

A nonzero real is enclosed in a ball (python-flint's Arb: the true value lies in the ball,
Johansson 2017) at increasing precision until the ball excludes 0; the sign is then certified,
never guessed from a rounded float.  The callers make sure the value is not 0 (by exact
arguments: e^s is transcendental for rational s ≠ 0, Lindemann–Weierstrass), so the refinement
ends; the precision it may use is the named limit ``max_precision`` (``--max-precision``), and a
decision that needs more is refused with that limit's error.

References
----------
Johansson, *Arb: efficient arbitrary-precision midpoint-radius interval arithmetic*, IEEE Trans.
Computers 66(8), 2017.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from .. import limits as _limits
from ..lazy import mpmath
from .rational import q_short, to_fraction

__all__ = [
    "certified_sign",
    "arb_prec",
    "arb_rational",
    "arb_exp",
    "ball_bounds",
    "sign_r_exp_s_minus_q",
    "decimal_digits_of",
    "ball_decimal",
]

_START_PREC = 64

_flint: Any = None


def _load() -> Any:
    """python-flint, imported on first use (rational-only runs never load it)."""
    global _flint
    if _flint is None:
        import flint

        _flint = flint
    return _flint


@contextmanager
def arb_prec(bits: int) -> Iterator[Any]:
    """Arb's working precision set to ``bits`` for a block; yields the flint module."""
    flint = _load()
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield flint
    finally:
        flint.ctx.prec = old


def arb_rational(x: Any, prec: int) -> Any:
    """An Arb ball containing the rational ``x``, at ``prec`` bits."""
    f = to_fraction(x)
    with arb_prec(prec) as flint:
        return flint.arb(flint.fmpq(f.numerator, f.denominator))


def arb_exp(r: Any, s: Any, prec: int) -> Any:
    """An Arb ball containing r·e^s for rationals r and s, at ``prec`` bits."""
    fs = to_fraction(s)
    with arb_prec(prec) as flint:
        return arb_rational(r, prec) * flint.arb(flint.fmpq(fs.numerator, fs.denominator)).exp()


def certified_sign(ball: Callable[[int], Any], what: Callable[[], str]) -> int:
    """The sign (+1 or −1) of a nonzero real given by ``ball(prec)`` (an Arb ball containing it
    at ``prec`` bits; called with Arb's working precision set to ``prec``), refined by doubling
    the precision up to the ``max_precision`` limit.

    ``what()`` names the value for the error raised at the limit
    (:class:`~exactdp.errors.LimitExceededError`, naming ``--max-precision``)."""
    cap = _limits.current().max_precision
    prec = min(_START_PREC, cap)
    while True:
        with arb_prec(prec):  # every operation of ``ball`` runs at this precision
            v = ball(prec)
        if v > 0:
            return 1
        if v < 0:
            return -1
        if prec >= cap:
            raise _limits.precision_limit_error(what())
        prec = min(2 * prec, cap)


def ball_bounds(v: Any) -> tuple[Fraction, Fraction]:
    """The exact rational endpoints (lower, upper) of an Arb ball: midpoint ∓ radius, both exact
    (``lower()``/``upper()`` would round to the precision in force where they are called)."""
    mid, rad = (_dyadic(*x.man_exp()) for x in (v.mid(), v.rad()))
    return mid - rad, mid + rad


def _dyadic(man: Any, exp: Any) -> Fraction:
    man, exp = int(man), int(exp)
    # an enclosure of exp(exp(100)) is finite, with a binary exponent of 10^43: bounded before 2^exp is formed
    _limits.check_bits(abs(exp) + man.bit_length(), "the exact end of an enclosure")
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def sign_r_exp_s_minus_q(r: Any, s: Any, q: Any) -> int:
    """Sign (−1, 0, +1) of r·e^s − q, for rationals r, s, q; exact.

    It is 0 only when s = 0 and r = q, or r = q = 0: for s ≠ 0 and r ≠ 0, r·e^s is
    transcendental, so it differs from every rational q and its sign is certified."""
    fr, fs, fq = to_fraction(r), to_fraction(s), to_fraction(q)
    if fs == 0 or fr == 0:
        d = fr - fq
        return (d > 0) - (d < 0)
    return certified_sign(
        lambda prec: arb_exp(fr, fs, prec) - arb_rational(fq, prec),
        lambda: f"{q_short(fr)}*exp({q_short(fs)}) - {q_short(fq)}",
    )


def decimal_digits_of(r: Any, s: Any, digits: int = 6) -> str:
    """A decimal reading of r·e^s with ``digits`` significant digits (display only)."""
    with mpmath.workdps(digits + 10):
        v = mpmath.mpf(to_fraction(r).numerator) / to_fraction(r).denominator
        fs = to_fraction(s)
        if fs:
            v *= mpmath.exp(mpmath.mpf(fs.numerator) / fs.denominator)
        return mpmath.nstr(v, digits)


def _proved_digits(v: Any) -> int:
    """How many significant digits of a finite ball's midpoint the ball proves (within one unit
    of the last); a ball that is not finite or contains 0 proves none, and is refused."""
    if not v.is_finite() or 0 in v:
        raise _limits.precision_limit_error("a decimal reading of a value")
    with mpmath.workdps(30):
        ratio = mpmath.mpf(abs(v.mid()).str(30, radius=False)) / mpmath.mpf(v.rad().str(30, radius=False))
        return max(1, int(mpmath.floor(mpmath.log10(ratio))) - 1)


def ball_decimal(ball: Callable[[int], Any], digits: int = 6) -> str:
    """A decimal reading with ``digits`` significant digits of the real that ``ball(prec)``
    encloses (display only): the midpoint of a ball a few dozen bits more precise than the
    digits shown, refined by doubling the precision (up to the ``max_precision`` limit) while the
    ball is not finite or wider than those digits (cancellation in a long field element).  When
    the limit stops the refinement first, fewer digits are shown: only those the ball proves."""
    cap = _limits.current().max_precision
    need = int(digits * 3.33) + 8
    prec = min(max(64, need + 56), cap)
    while True:
        with arb_prec(prec):
            v = ball(prec)
        if v.is_finite() and (v.rad() == 0 or v.rad() * 2**need <= abs(v.mid())):
            break
        if prec >= cap:
            digits = _proved_digits(v)
            break
        prec = min(2 * prec, cap)
    man, exp = v.mid().man_exp()
    with mpmath.workdps(digits + 10):
        return mpmath.nstr(mpmath.ldexp(mpmath.mpf(int(man)), int(exp)), digits)
