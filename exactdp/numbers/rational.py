"""The exact rational type used in every hot loop, and its conversions.

gmpy2's ``mpq`` is several times faster than :class:`fractions.Fraction` and hashes
identically; it is used when gmpy2 is importable and ``EXACTDP_NO_GMPY`` is not set.
Nothing here ever goes through a float.
"""

from __future__ import annotations

import os
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, Union

from ..errors import ArgumentTypeError

if TYPE_CHECKING:  # pragma: no cover - the name for the type checker only
    from gmpy2 import mpq

__all__ = [
    "Q",
    "BACKEND",
    "as_q",
    "to_fraction",
    "q_str",
    "q_short",
    "int_str",
    "q_bits",
    "parse_decimal",
    "is_rational",
    "RATIONAL_TYPES",
    "Rational",
]

Rational: TypeAlias = Union[int, Fraction, "mpq"]
"""An exact rational number (re-exported by :mod:`exactdp.numbers.types`)."""


def _backend() -> tuple[Any, str]:
    """(the rational type, its name): gmpy2's mpq unless EXACTDP_NO_GMPY is set."""
    if not os.environ.get("EXACTDP_NO_GMPY"):
        try:
            from gmpy2 import mpq

            return mpq, "gmpy2"
        except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
            pass
    return Fraction, "fractions"


Q: Any  # the fast exact rational type (callable like Fraction: Q(3), Q(1, 3))
BACKEND: str
Q, BACKEND = _backend()

RATIONAL_TYPES: tuple[type, ...] = (int, Fraction, type(Q(1)))


def is_rational(x: object) -> bool:
    """True for ints, Fractions and mpq values (never for bool or float)."""
    return isinstance(x, RATIONAL_TYPES) and not isinstance(x, bool)


def as_q(x: Any) -> Rational:
    """Convert an int, Fraction or mpq to the fast rational type ``Q``.

    Floats are refused (:class:`ArgumentTypeError`, also a TypeError): a score or probability
    written as a float has usually already been rounded.
    """
    if isinstance(x, bool) or not is_rational(x):
        hint = f" (Fraction({str(x)!r}) is that decimal exactly)" if isinstance(x, float) else ""
        raise ArgumentTypeError(f"expected an exact rational (int, Fraction, mpq), got {type(x).__name__}: {x!r}{hint}")
    if isinstance(x, Fraction):
        return Q(x.numerator, x.denominator)
    return Q(x)


def to_fraction(x: Any) -> Fraction:
    """Convert an exact rational to :class:`fractions.Fraction` (for the public API)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int) and not isinstance(x, bool):
        return Fraction(x)
    return Fraction(int(x.numerator), int(x.denominator))  # type: ignore[attr-defined]


_SMALL_BITS = 12_000  # below Python's int-to-str limit (4,300 digits) with room to spare


def int_str(n: int) -> str:
    """Decimal text of any integer, however long.

    Python refuses ``str()`` of an int over 4,300 digits (a guard against its quadratic
    conversion); exact values can be that long (``log(3^9999)``), so long ones are converted
    by GMP (subquadratic), or, without gmpy2, with the guard lifted for this one conversion
    (their size is bounded by ``--max-bits``)."""
    n = int(n)
    if n.bit_length() <= _SMALL_BITS:
        return str(n)
    try:
        import gmpy2

        return gmpy2.mpz(n).digits(10)
    except ImportError:  # pragma: no cover - gmpy2 is a declared dependency
        import sys

        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(n)
        finally:
            sys.set_int_max_str_digits(old)


def q_str(x: Any) -> str:
    """``3``, ``-1/3``: the canonical exact text of a rational, of any length (other exact
    values, such as elements of ℚ(e^{1/L}), print as their own exact text)."""
    if not is_rational(x):
        return str(x)
    f = to_fraction(x)
    return int_str(f.numerator) if f.denominator == 1 else f"{int_str(f.numerator)}/{int_str(f.denominator)}"


def _int_short(n: int, digits: int) -> str:
    n = int(n)
    if n.bit_length() <= 3.3 * 2 * digits:
        return str(n)
    s = int_str(n)
    if len(s) <= 2 * digits + 1:
        return s
    sign = "-" if s.startswith("-") else ""
    s = s.lstrip("-")
    return f"{sign}{s[:digits]}…{s[-digits // 2 :]} ({len(s)} digits)"


def q_short(x: object, digits: int = 20) -> str:
    """A rational for a message: exact when short, else its first and last digits and its
    length (``1234…89 (4771 digits)``): messages stay short whatever the value."""
    if not is_rational(x):
        text = str(x)
        return text if len(text) <= 4 * digits else text[: 2 * digits] + f"… ({len(text)} characters)"
    f = to_fraction(x)
    if f.denominator == 1:
        return _int_short(f.numerator, digits)
    return f"{_int_short(f.numerator, digits)}/{_int_short(f.denominator, digits)}"


def q_bits(x: object) -> int:
    """Size of an exact rational: the larger bit length of its numerator and denominator."""
    if isinstance(x, int):
        return abs(x).bit_length()
    num, den = x.numerator, x.denominator  # type: ignore[attr-defined]
    return max(int(num).bit_length() if num >= 0 else int(-num).bit_length(), int(den).bit_length())


_DECIMAL = re.compile(r"^(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?:[eE](?P<exp>[+-]?[0-9]+))?$")


def parse_decimal(text: str, *, max_exponent: int = 10_000) -> Rational:
    """Read an unsigned decimal literal exactly: ``0.25`` is 1/4, ``1e-3`` is 1/1000.

    Raises ``ValueError`` for text that is not a decimal literal or whose exponent is
    larger than ``max_exponent`` in absolute value (a guard against ``1e999999999``).
    """
    m = _DECIMAL.match(text)
    if not m or not (m.group("int") or m.group("frac")):
        raise ValueError(f"not a decimal number: {text!r}")
    digits = (m.group("int") or "") + (m.group("frac") or "")
    scale = len(m.group("frac") or "")
    exp = int(m.group("exp") or 0)
    if abs(exp) > max_exponent:
        raise ValueError(f"exponent {exp} in {text!r} is larger than the limit {max_exponent}")
    power = exp - scale
    n = int(digits) if digits else 0
    if power >= 0:
        return Q(n * 10**power)
    return Q(n, 10**-power)
