"""What an exact value is: Python's number protocol for every kind of the ladder, and the errors
of values that are not exact.

Every kind of exact value above ℚ (field elements, logarithms, exponentials, ∞) subclasses
:class:`Element`, and so behaves like a number: exact comparisons with ints, Fractions, mpq's,
floats and one another; arithmetic with ints and Fractions (an exact result) and with floats (a
float); ``float()``, ``int()``, ``round()``, ``math.floor``/``ceil``, ``format()`` with any float
spec; a ``repr`` that reads as the exact value (``log(3)``) and ``_repr_latex_`` for notebooks.

A float is the exact binary fraction it is (``0.1`` is 3602879701896397/2^55, not 1/10): a
comparison with a float compares with that rational, never with the exact value rounded to a
float.  NaN is unordered (every comparison with it is false); ±``math.inf`` compare as the
infinities they are.  ``float()`` and ``format()`` are for display; no verdict uses them.

The kinds do not implement these operations themselves and do not import the code that does:
the ladder (:mod:`exactdp.numbers.ladder`, which imports every kind) installs its generic
operations here when it is imported (:func:`install`), so the kind modules sit below the
dispatcher with no import ring.  Importing any module of :mod:`exactdp.numbers` imports the
package first, which installs the ladder.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Protocol

from ..errors import ExactDPError
from .rational import RATIONAL_TYPES, Q

__all__ = [
    "Element",
    "ExactFraction",
    "public",
    "Arithmetic",
    "install",
    "float_operand",
    "UnregisteredKindError",
    "SymbolicValueError",
    "NotInDomain",
]


class UnregisteredKindError(ExactDPError):
    """A value that is no kind of exact number the ladder knows (a float where an exact value
    was required, a string, a truth value, ...).  Readers turn it into a located message."""


class SymbolicValueError(ExactDPError):
    """A value that depends on declared symbols where a number must be decided (compared,
    signed, printed as a decimal): symbols are allowed only where the case format says so."""


class NotInDomain(Exception):
    """Internal: a value cannot be converted into a domain (the ladder tries the next one)."""


class Arithmetic(Protocol):
    """What the ladder provides to the kinds (see :mod:`exactdp.numbers.ladder`)."""

    def add(self, a: Any, b: Any) -> Any: ...
    def sub(self, a: Any, b: Any) -> Any: ...
    def mul(self, a: Any, b: Any) -> Any: ...
    def div(self, a: Any, b: Any) -> Any: ...
    def neg(self, a: Any) -> Any: ...
    def power(self, a: Any, e: Any) -> Any: ...
    def cmp(self, a: Any, b: Any) -> int: ...
    def sign(self, a: Any) -> int: ...
    def text(self, a: Any) -> str: ...
    def latex(self, a: Any) -> str: ...
    def to_float(self, a: Any) -> float: ...
    def floor(self, a: Any, scale: int = 1) -> int: ...
    def round_to(self, a: Any, ndigits: int | None) -> Any: ...
    def format(self, a: Any, spec: str) -> str: ...


_LADDER: list[Arithmetic] = []


def install(ladder: Arithmetic) -> None:
    """Install the ladder's generic operations (called once, by :mod:`exactdp.numbers.ladder`)."""
    _LADDER[:] = [ladder]


def _ops() -> Arithmetic:
    return _LADDER[0]


_UNORDERED = None
_NEG_INF = object()  # -math.inf: below every exact value (it is no value of the ladder)


def float_operand(x: float) -> Any:
    """The exact value of a float operand: a finite float as its exact rational, ``math.inf`` as
    ``math.inf`` (the ladder's ∞ equals it), ``-math.inf`` as a marker below every value, and
    ``None`` for NaN (unordered)."""
    if math.isnan(x):
        return _UNORDERED
    if math.isinf(x):
        return x if x > 0 else _NEG_INF
    n, d = x.as_integer_ratio()
    return Q(n, d)


def _is_exact_operand(x: object) -> bool:
    return isinstance(x, (Element, *RATIONAL_TYPES)) and not isinstance(x, bool)


class Element:
    """Mixin of every kind of exact value above ℚ: the number protocol, answered by the ladder.

    Subclasses hold their value and define ``__eq__`` and ``__hash__`` (canonical forms make
    them exact); everything else comes from here.  A subclass may override :meth:`_order` for a
    fast path on operands of its own kind (and fall back to this one)."""

    __slots__ = ()

    # --- order ------------------------------------------------------------------------------

    def _order(self, other: object) -> Any:
        """−1, 0, +1 against ``other``; None when unordered (NaN); NotImplemented for a value
        that is not a number."""
        if isinstance(other, float):
            v = float_operand(other)
            if v is _UNORDERED:
                return _UNORDERED
            if v is _NEG_INF:
                return 1
            if isinstance(v, float):  # math.inf: above every finite value (the ladder's INF equals it)
                return -1
            other = v
        elif not _is_exact_operand(other):
            return NotImplemented
        return _ops().cmp(self, other)

    def __lt__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c < 0)

    def __le__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c <= 0)

    def __gt__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c > 0)

    def __ge__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c >= 0)

    def __bool__(self) -> bool:
        return _ops().sign(self) != 0

    # --- arithmetic: exact with exact operands, a float with a float -------------------------

    def _binary(self, other: Any, op: str, reflected: bool) -> Any:
        if isinstance(other, float):
            fa, fb = (other, float(self)) if reflected else (float(self), other)
            return _FLOAT_OPS[op](fa, fb)
        if not _is_exact_operand(other):
            return NotImplemented
        xa, xb = (other, self) if reflected else (self, other)
        return public(getattr(_ops(), op)(xa, xb))

    def __add__(self, other: Any) -> Any:
        return self._binary(other, "add", False)

    def __radd__(self, other: Any) -> Any:
        return self._binary(other, "add", True)

    def __sub__(self, other: Any) -> Any:
        return self._binary(other, "sub", False)

    def __rsub__(self, other: Any) -> Any:
        return self._binary(other, "sub", True)

    def __mul__(self, other: Any) -> Any:
        return self._binary(other, "mul", False)

    def __rmul__(self, other: Any) -> Any:
        return self._binary(other, "mul", True)

    def __truediv__(self, other: Any) -> Any:
        return self._binary(other, "div", False)

    def __rtruediv__(self, other: Any) -> Any:
        return self._binary(other, "div", True)

    def __pow__(self, other: Any) -> Any:
        return self._binary(other, "power", False)

    def __rpow__(self, other: Any) -> Any:
        return self._binary(other, "power", True)

    def __neg__(self) -> Any:
        return public(_ops().neg(self))

    def __pos__(self) -> Any:
        return self

    def __abs__(self) -> Any:
        return public(_ops().neg(self)) if _ops().sign(self) < 0 else self

    # --- conversions and display ------------------------------------------------------------

    def __float__(self) -> float:
        """The double nearest the value (display only: comparisons never go through it)."""
        return _ops().to_float(self)

    def __floor__(self) -> int:
        return _ops().floor(self)

    def __ceil__(self) -> int:
        return -_ops().floor(_ops().neg(self))

    def __trunc__(self) -> int:
        return self.__floor__() if _ops().sign(self) >= 0 else self.__ceil__()

    def __int__(self) -> int:
        return self.__trunc__()

    def __round__(self, ndigits: int | None = None) -> Any:
        """The nearest integer (``ndigits`` None) or the nearest multiple of 10^-ndigits as an
        exact rational; ties to even, decided exactly."""
        return public(_ops().round_to(self, ndigits))

    def __format__(self, spec: str) -> str:
        """``format(x, ".3f")``: the exact value's digits, correctly rounded, for any float
        format spec; the empty spec gives the exact text (as ``str``)."""
        return _ops().format(self, spec)

    def __str__(self) -> str:
        return _ops().text(self)

    def __repr__(self) -> str:
        return _ops().text(self)

    def _repr_latex_(self) -> str:
        """The exact value in LaTeX, for Jupyter."""
        return f"${_ops().latex(self)}$"


_FLOAT_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "power": lambda a, b: a**b,
}


class ExactFraction(Element, Fraction):
    """A rational as exactdp's Python API returns it: a :class:`fractions.Fraction` that also
    formats with any float spec (``f"{d:.3f}"``, exact digits), prints as ``13/40`` and renders in
    LaTeX, like the other exact values (exactdp computes with gmpy2's faster ``mpq`` inside)."""

    __slots__ = ()

    def __int__(self) -> int:  # type: ignore[override]  # (Fraction's own, without its private argument)
        return Fraction.__int__(self)

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return (ExactFraction, (self.numerator, self.denominator))  # not through text: any size


_PLAIN_RATIONALS = (type(Q(0)), Fraction)


def public(x: Any) -> Any:
    """A value as the Python API hands it out: a rational as an :class:`ExactFraction` (ints
    and every other kind as they are)."""
    if type(x) in _PLAIN_RATIONALS:
        return ExactFraction(int(x.numerator), int(x.denominator))
    return x
