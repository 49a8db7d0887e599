"""Exact rational powers and roots: q^(m/n) is rational exactly when q's numerator and
denominator are perfect n-th powers, and it is then formed exactly; otherwise it is refused,
never rounded.

The value types built on these (logarithms, exponentials) are rungs of
:mod:`exactdp.numbers.ladder`, which gives their arithmetic.  Every
power is checked against the limits before it is formed: the exponent against
``--max-exponent`` and the result's size against ``max_bits`` (:mod:`exactdp.limits`).
"""

from __future__ import annotations

from typing import Any

from .. import limits as _limits
from ..errors import InexactValueError
from .rational import Q, as_q, q_short, to_fraction

__all__ = ["DEFAULT_MAX_EXPONENT", "exact_root", "rational_power", "check_exponent"]

DEFAULT_MAX_EXPONENT = 10_000
"""The largest exponent numerator a power may have unless ``--max-exponent`` raises it."""


def exact_root(q: Any, n: int) -> Q | None:
    """The exact rational n-th root of q ≥ 0 if it exists, else None.

    An integer a ≥ 2 is an n-th power only if n < its bit length, so a huge n (``2^(1/10^30)``)
    is answered at once, without any power of size n being formed."""
    f = to_fraction(q)
    if f < 0:
        return None
    for part in (f.numerator, f.denominator):
        if part > 1 and n >= part.bit_length():
            return None
    a, b = _iroot(f.numerator, n), _iroot(f.denominator, n)
    if a is None or b is None:
        return None
    return Q(a, b)


def _iroot(x: int, n: int) -> int | None:
    """The integer n-th root of x ≥ 0 if x is a perfect n-th power, else None (bisection)."""
    if x in (0, 1):
        return x
    lo, hi = 0, 1 << (x.bit_length() // n + 1)
    while lo < hi:  # largest y with y**n <= x
        mid = (lo + hi + 1) // 2
        if mid**n <= x:
            lo = mid
        else:
            hi = mid - 1
    return lo if lo**n == x else None


def check_exponent(n: int, max_exponent: int) -> None:
    """Refuse an exponent numerator beyond ``max_exponent`` (the ``--max-exponent`` limit)
    before any power is formed."""
    if abs(n) > max_exponent:
        raise InexactValueError(
            f"exponent {q_short(n)} is larger than the limit {max_exponent} (raise it with --max-exponent)"
        )


def rational_power(q: Any, e: Any, max_exponent: int = DEFAULT_MAX_EXPONENT) -> Any:
    """q^e for rationals q ≥ 0 and e, exactly: an integer power, or the exact root of q raised
    to the numerator; refused (:class:`~exactdp.errors.InexactValueError`) when irrational, and
    refused before it is formed when the exponent or the result's size is beyond the limits."""
    fe = to_fraction(e)
    check_exponent(fe.numerator, max_exponent)
    fq = to_fraction(q)
    bits = max(fq.numerator.bit_length(), fq.denominator.bit_length()) * abs(fe.numerator) // fe.denominator
    _limits.check_bits(bits, f"{q_short(q)}^({q_short(fe)}), a number")
    if fe.denominator == 1:
        if q == 0 and fe < 0:
            raise InexactValueError("0 raised to a negative power is a division by zero")
        return as_q(q) ** int(fe)
    root = exact_root(q, fe.denominator)
    if root is None:
        raise InexactValueError(
            f"{q_short(q)}^({q_short(fe)}) is irrational: exactdp keeps every number exact and cannot represent it"
        )
    if root == 0 and fe < 0:
        raise InexactValueError("0 raised to a negative power is a division by zero")
    return root**fe.numerator
