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

from .element import Element

__all__ = ["ExpReal", "AffineInLambda"]


@dataclass(frozen=True, repr=False)
class ExpReal(Element):
    """The real number r·e^s (r > 0, s ≠ 0 rational; r may be an element of ℚ(e^{1/L})):
    transcendental, never rational.  Build one with the ladder (``exactdp.exact("exp(1/10)")``)."""

    r: Any
    s: Any


@dataclass(frozen=True, repr=False)
class AffineInLambda(Element):
    """The exact number a − b·λ for λ = r·e^s an :class:`ExpReal` (δ of a profile at a
    transcendental λ, Vadhan–Wang 2021, Def. 1.7); a and b are rationals or field elements."""

    a: Any
    b: Any
    lam: ExpReal
