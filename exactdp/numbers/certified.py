"""Certified sign decisions for numbers of the form r·e^s with rational r and s.

For rational s ≠ 0, e^s is transcendental (Lindemann–Weierstrass), so r·e^s − q is never 0
for rational q and r ≠ 0.  Interval evaluation at increasing precision therefore always
decides the sign, and terminates.  These decisions are exact: the answer is certified by an
interval that excludes 0, not by a rounded float.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import mpmath

from .rational import to_fraction

__all__ = ["sign_r_exp_s_minus_q", "decimal_digits_of", "interval_exp"]

_MAX_PREC = 1 << 16  # bits; far beyond anything a sign decision on case-file numbers needs


@contextmanager
def _iv_prec(bits: int):
    """Set mpmath's interval precision for a block (the iv context has no workprec)."""
    old = mpmath.iv.prec
    mpmath.iv.prec = bits
    try:
        yield
    finally:
        mpmath.iv.prec = old


def _iv_rational(x: Any):
    f = to_fraction(x)
    return mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator)


def interval_exp(r: Any, s: Any, prec: int):
    """An mpmath interval containing r·e^s, at ``prec`` bits."""
    with _iv_prec(prec):
        return _iv_rational(r) * mpmath.iv.exp(_iv_rational(s))


def sign_r_exp_s_minus_q(r: Any, s: Any, q: Any) -> int:
    """Sign (−1, 0, +1) of r·e^s − q, for rationals r, s, q; exact.

    Returns 0 only when it is exactly 0 (that needs s = 0 and r = q, or r = q = 0).
    """
    fr, fs, fq = to_fraction(r), to_fraction(s), to_fraction(q)
    if fs == 0 or fr == 0:
        d = fr - fq
        return (d > 0) - (d < 0)
    prec = 64
    while prec <= _MAX_PREC:
        with _iv_prec(prec):
            v = _iv_rational(fr) * mpmath.iv.exp(_iv_rational(fs)) - _iv_rational(fq)
            if v.a > 0:
                return 1
            if v.b < 0:
                return -1
        prec *= 2
    # Unreachable in practice: the gap |r e^s - q| is bounded below for case-file sizes.
    raise ArithmeticError(f"could not decide the sign of {fr}*exp({fs}) - {fq} within {_MAX_PREC} bits")


def decimal_digits_of(r: Any, s: Any, digits: int = 6) -> str:
    """A decimal reading of r·e^s with ``digits`` significant digits (display only)."""
    with mpmath.workdps(digits + 10):
        v = mpmath.mpf(to_fraction(r).numerator) / to_fraction(r).denominator
        fs = to_fraction(s)
        if fs:
            v *= mpmath.exp(mpmath.mpf(fs.numerator) / fs.denominator)
        return mpmath.nstr(v, digits)
