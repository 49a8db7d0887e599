r"""Exponentials beyond the field: r·e^s and a − b·r·e^s.

e^ε for a decimal ε is kept exact as :class:`ExpReal` r·e^s (r > 0 rational or an element of
ℚ(e^{1/L}), s ≠ 0 rational).  When the exponent's denominator is moderate, r·e^s lies in the
field ℚ(e^{1/L}) and the ladder computes with it there; when it is huge (an ε such as
0.2999999999, or an interval endpoint), the field would need a polynomial of enormous degree,
so the value stays in this form.  A privacy profile is affine in λ = e^ε between breakpoints,
so δ at such a λ is a − b·λ (:class:`AffineInLambda`).

Signs are exact: r·e^s − q ≠ 0 for rationals r ≠ 0, q and s ≠ 0 (e^s is transcendental,
Lindemann–Weierstrass), so certified interval arithmetic always decides it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InexactValueError
from .element import Element
from .qt import QtElement, qt_exp

__all__ = ["ExpReal", "AffineInLambda"]


@dataclass(frozen=True, repr=False, eq=False)
class ExpReal(Element):
    """The real number r·e^s (r > 0, s ≠ 0 rational; r may be an element of ℚ(e^{1/L})):
    transcendental, never rational.  Build one with the ladder (``exactdp.exact("exp(1/10)")``).

    It equals (and hashes as) the element of ℚ(e^{1/L}) of the same value, when the field's
    degree allows to form it."""

    r: Any
    s: Any

    def _field(self) -> Any:
        try:
            return self.r * qt_exp(1, self.s)
        except InexactValueError:
            return None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ExpReal):
            if self.r == other.r and self.s == other.s:
                return True
            mine, theirs = self._field(), other._field()
            return mine is not None and mine == theirs
        if isinstance(other, QtElement):
            return self._field() == other
        return False  # transcendental: never a rational, a float or a logarithm's value here

    def __hash__(self) -> int:
        f = self._field()
        return hash(f) if f is not None else hash(("exactdp-exp", self.r, self.s))


@dataclass(frozen=True, repr=False)
class AffineInLambda(Element):
    """The exact number a − b·λ for λ = r·e^s an :class:`ExpReal` (δ of a profile at a
    transcendental λ, Vadhan–Wang 2021, Def. 1.7); a and b are rationals or field elements."""

    a: Any
    b: Any
    lam: ExpReal
