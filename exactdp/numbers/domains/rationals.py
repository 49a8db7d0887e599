"""The rung ℚ: probabilities, δ, e^ε for ε = log(r)."""

from __future__ import annotations

from typing import Any

from ... import limits as _limits
from ...errors import InexactValueError
from ..certified import arb_rational, decimal_digits_of
from ..element import NotInDomain
from ..expreal import ExpReal
from ..loglinear import LogReal
from ..rational import Q, as_q, q_bits, q_short, q_str, to_fraction
from ..roots import rational_power
from .base import Domain, no_exact, sym_rational

__all__ = ["Rationals", "QQ"]


class Rationals(Domain):
    """ℚ: probabilities, δ, e^ε for ε = log(r) (gmpy2's mpq, or int and Fraction as given)."""

    name, title = "QQ", "ℚ"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is not self:
            raise NotInDomain
        return as_q(x)

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def cmp(self, a: Any, b: Any) -> int:
        return (a > b) - (a < b)

    def neg(self, x: Any) -> Any:
        return -as_q(x)

    def inv(self, x: Any) -> Any:
        if x == 0:
            raise InexactValueError("division by zero")
        return 1 / as_q(x)

    def sign(self, x: Any) -> int:
        return (x > 0) - (x < 0)

    def text(self, x: Any) -> str:
        return q_str(x)

    def decimal(self, x: Any, digits: int) -> str:
        return decimal_digits_of(x, 0, digits)

    def bits(self, x: Any) -> int:
        return q_bits(x)

    def ball(self, x: Any, prec: int) -> Any:
        return arb_rational(x, prec)

    def log(self, x: Any) -> Any:
        if x <= 0:
            raise InexactValueError(f"log of a non-positive number: log({q_short(x)})")
        return Q(0) if x == 1 else LogReal(Q(0), as_q(x))

    def exp(self, x: Any) -> Any:
        return Q(1) if x == 0 else ExpReal(Q(1), as_q(x))

    def power(self, x: Any, e: Any) -> Any:
        max_exponent = _limits.current().max_exponent
        if x < 0:
            if to_fraction(e).denominator != 1:
                raise no_exact(f"({q_short(x)})^({q_short(e)})")
            return (-1) ** int(to_fraction(e)) * rational_power(-as_q(x), e, max_exponent)
        return rational_power(x, e, max_exponent)

    def to_sympy(self, x: Any) -> Any:
        return sym_rational(x)


QQ = Rationals()
