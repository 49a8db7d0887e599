"""The rung ℚ(e^{1/L}): e^ε for a decimal ε and every probability computed from it."""

from __future__ import annotations

from typing import Any

from ... import limits as _limits
from ...errors import InexactValueError
from ..element import NotInDomain
from ..logqt import log_value
from ..qt import QtElement, qt_sign
from ..rational import Q, as_q, q_short, to_fraction
from ..roots import check_exponent
from .base import Domain, no_exact, sym_rational, sympy_module
from .rationals import QQ

__all__ = ["ExpField", "QT"]


class ExpField(Domain):
    """ℚ(e^{1/L}): e^ε for a decimal ε and every probability computed from it."""

    name, title = "QT", "ℚ(e^{1/L})"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is self:
            return x
        if source is QQ:
            return as_q(x)
        raise NotInDomain

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def cmp(self, a: Any, b: Any) -> int:
        if isinstance(a, QtElement):
            return a._order(b)
        if isinstance(b, QtElement):
            return -b._order(a)
        return (a > b) - (a < b)

    def neg(self, x: Any) -> Any:
        return -x

    def inv(self, x: Any) -> Any:
        return x.inverse()

    def sign(self, x: Any) -> int:
        return qt_sign(x)

    def text(self, x: Any) -> str:
        return x.text()

    def bits(self, x: Any) -> int:
        return x.bits()

    def ball(self, x: Any, prec: int) -> Any:
        return x.ball(prec)

    def log(self, x: Any) -> Any:
        if x.sign() <= 0:
            raise InexactValueError(f"log of a non-positive number: log({q_short(x.text(), 40)})")
        return log_value(Q(0), x)

    def power(self, x: Any, e: Any) -> Any:
        f = to_fraction(e)
        if f.denominator != 1:
            raise no_exact(f"({q_short(x.text(), 40)})^({q_short(f)})")
        k = f.numerator
        check_exponent(k, _limits.current().max_exponent)
        return x**k  # (the power checks its degree and size before it is formed)

    def to_sympy(self, x: Any) -> Any:
        sympy = sympy_module()
        t = sympy.exp(sympy.Rational(1, x.L))

        def poly(p: Any) -> Any:
            return sum(int(c) * t**k for k, c in enumerate(p.coeffs()) if c != 0)

        return sym_rational(x.c) * poly(x.n) / poly(x.d)


QT = ExpField()
