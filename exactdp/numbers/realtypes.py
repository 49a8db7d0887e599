"""The exact real value types: ``log(r)``-type values, ``e^s``-type values and +∞.

A privacy parameter ε is usually written ``log(r)`` so that e^ε = r is rational; a decimal ε
makes e^ε transcendental.  These are the types that keep such values exact:

* :class:`LogReal` – s + ln r with rationals s and r > 0 (an ε-type value); r may also be an
  element of ℚ(e^{1/L});
* :class:`ExpReal` – r·e^s with rationals r > 0, s ≠ 0 (e^ε for a decimal ε, transcendental);
* :class:`LogSum` – s + Σ c_k ln r_k with s, c_k and r_k > 0 in ℚ(e^{1/L}) (a Rényi divergence
  of order α ≥ 3, log(S)/(α − 1), or a KL divergence, of a mechanism with a decimal ε);
* :data:`INF` – +∞, for privacy losses (:class:`Infinity`, a singleton equal to ``math.inf``).

Their arithmetic, exact comparison (certified for transcendental values) and text are in
:mod:`exactdp.numbers.real`, which re-exports every name here; comparisons with ints,
Fractions, mpq's and floats go through :class:`~exactdp.numbers.order.ExactOrder`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .loglinear import LogLinear
from .order import ExactOrder
from .qt import QtElement
from .rational import is_rational

__all__ = ["Infinity", "INF", "LogReal", "ExpReal", "LogSum", "Real", "is_real"]


class Infinity(ExactOrder):
    """+∞ (only as a privacy-loss value; it takes no part in arithmetic).

    It is above every exact value and every finite float, and equal to ``math.inf``."""

    _instance: Infinity | None = None

    def __new__(cls) -> Infinity:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "INF"

    def __str__(self) -> str:
        return "inf"

    def __float__(self) -> float:
        return math.inf

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, float) and other == math.inf)

    def __hash__(self) -> int:
        return hash(math.inf)  # equal to math.inf, so hashed like it

    def _order(self, other: object) -> Any:
        """−1, 0, +1 against an exact value or a float; None for NaN (the comparisons
        themselves are :class:`~exactdp.numbers.order.ExactOrder`'s)."""
        if other is self:
            return 0
        if isinstance(other, float):
            return None if math.isnan(other) else (0 if other == math.inf else 1)
        if is_real(other):
            return 1
        return NotImplemented

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (Infinity, ())


INF = Infinity()


class _RealOrder(ExactOrder):
    """Exact order and ``float()`` for :class:`LogReal` and :class:`ExpReal` (via
    :func:`real_cmp`: certified, never through a float)."""

    __slots__ = ()

    def _cmp_exact(self, other: Any) -> Any:
        if not is_real(other):
            return NotImplemented
        from .real import real_cmp  # the arithmetic module imports this one

        return real_cmp(self, other)

    def __float__(self) -> float:
        """A double near the value (display only: comparisons never go through it)."""
        from .real import real_float

        return real_float(self)


@dataclass(frozen=True)
class LogReal(_RealOrder):
    """The real number s + ln r (s rational, r > 0 rational, r ≠ 1).

    Use :func:`real_log` to build one; it returns a plain rational when r = 1.  Comparisons
    with ints, Fractions, mpq's, floats and exactdp's other values are exact.
    """

    s: Any
    r: Any

    def exp(self) -> Real:
        from .real import real_exp

        return real_exp(self)

    def __str__(self) -> str:
        from .real import real_str

        return real_str(self)


@dataclass(frozen=True)
class ExpReal(_RealOrder):
    """The real number r·e^s (r > 0 and s ≠ 0 rational): transcendental, never rational.

    ``r`` may also be an element of ℚ(e^{1/L}) (:class:`QtElement`): that happens when a
    decimal ε with many digits (e^s of huge degree over the field) meets field-valued
    probabilities; such values are compared by certified interval evaluation."""

    r: Any
    s: Any

    def __str__(self) -> str:
        from .real import real_str

        return real_str(self)


@dataclass(frozen=True)
class LogSum(_RealOrder):
    """The real number s + Σ_k c_k·ln r_k, with s and every c_k ≠ 0 in ℚ(e^{1/L}) (or rational)
    and distinct r_k > 0 in ℚ(e^{1/L}) (or rational), none of them 1 or a monomial c·t^m.

    It holds what a mechanism with a decimal ε gives where logarithms of field elements meet:
    D_α = log(S)/(α − 1) for α ≥ 3 (S in ℚ(e^{1/L})) and the KL divergence Σ P log(P/P').
    Build one with :func:`exactdp.numbers.logsum.log_sum`, which returns a simpler type (a
    field element, :class:`LogReal`, :class:`LogLinear`) whenever the value is one.  Its sign
    is decided exactly when the coefficients are rational, else by certified intervals, and an
    undecidable sign is refused (``InexactValueError``), never guessed.
    """

    s: Any
    terms: tuple

    def __str__(self) -> str:
        from .real import real_str

        return real_str(self)


Real = Any | LogReal | ExpReal | LogSum | Infinity
"""Any exact real value of exactdp (a rational, :class:`LogReal`, :class:`ExpReal`, ``INF``, …)."""


def is_real(x: object) -> bool:
    """Whether ``x`` is one of exactdp's exact real values (or +∞)."""
    return is_rational(x) or isinstance(x, (LogReal, LogLinear, ExpReal, LogSum, Infinity, QtElement))
