"""The rung of exponentials beyond the field: r·e^s and a − b·r·e^s."""

from __future__ import annotations

from typing import Any

from ... import limits as _limits
from ...errors import InexactValueError
from ..certified import arb_exp, arb_rational, certified_sign, decimal_digits_of, sign_r_exp_s_minus_q
from ..element import NotInDomain
from ..expreal import AffineInLambda, ExpReal
from ..logqt import log_value
from ..qt import QtElement, qt_exp, qt_sign
from ..rational import Q, as_q, is_rational, q_bits, q_short, q_str, to_fraction
from ..roots import check_exponent
from .base import Domain, no_exact, sym_rational, sympy_module
from .field import QT
from .rationals import QQ

__all__ = ["Exponentials", "EXP"]


class Exponentials(Domain):
    """r·e^s (:class:`ExpReal`) and a − b·r·e^s (:class:`AffineInLambda`).  Elements are triples
    (a, c, s) meaning a + c·e^s, with a and c in ℚ(e^{1/L}) (c = 0: the value a)."""

    name, title = "EXP", "ℚ(e^{1/L}) + ℚ(e^{1/L})·e^s"

    def hold(self, x: Any, source: Domain) -> Any:
        if isinstance(x, ExpReal):
            return (Q(0), x.r, x.s)
        if isinstance(x, AffineInLambda):
            return (x.a, -x.b * x.lam.r, x.lam.s)
        if source is QQ or source is QT:
            return (x, Q(0), None)
        raise NotInDomain

    @staticmethod
    def to_field(h: tuple) -> Any:
        """a + c·e^s in the field ℚ(e^{1/L}); :class:`~exactdp.errors.InexactValueError` (naming
        the field-degree limit) when the field would be too large."""
        a, c, s = h
        return a if c == 0 else a + c * qt_exp(1, s)

    @classmethod
    def lower(cls, h: tuple) -> Any:
        """a + c·e^s in the field ℚ(e^{1/L}), or None when the field would be too large."""
        try:
            return cls.to_field(h)
        except InexactValueError:
            return None

    @classmethod
    def value(cls, a: Any, c: Any, s: Any) -> Any:
        """a + c·e^s in its canonical kind: r·e^s for a = 0 and a rational r = c > 0 (as
        ``exp(1/10)`` is read), else a field value when the degree allows, else r·e^s or
        a − b·e^s."""
        if c == 0 or s == 0:
            return a + c if s == 0 else a
        if a == 0 and is_rational(c) and c > 0:
            return ExpReal(c, s)
        low = cls.lower((a, c, s))
        if low is not None:
            return low
        return ExpReal(c, s) if a == 0 and qt_sign(c) > 0 else AffineInLambda(a, -c, ExpReal(Q(1), s))

    def add(self, h1: tuple, h2: tuple) -> Any:
        l1, l2 = self.lower(h1), self.lower(h2)
        if l1 is not None and l2 is not None:
            return l1 + l2
        (a1, c1, s1), (a2, c2, s2) = h1, h2
        if c1 == 0 or c2 == 0 or s1 == s2:
            return self.value(a1 + a2, c1 + c2, s1 if c1 != 0 else s2)
        raise no_exact(f"({self._text(h1)}) + ({self._text(h2)})")

    def mul(self, h1: tuple, h2: tuple) -> Any:
        (a1, c1, s1), (a2, c2, s2) = h1, h2
        if c1 == 0 or c2 == 0:  # a field value k times a + c e^s
            k, (a, c, s) = (a1, h2) if c1 == 0 else (a2, h1)
            return self.value(k * a, k * c, s)
        if a1 == 0 and a2 == 0:  # two monomials: r1 r2 e^(s1 + s2)
            return self.value(Q(0), c1 * c2, s1 + s2)
        l1, l2 = self.lower(h1), self.lower(h2)
        if l1 is not None and l2 is not None:
            return l1 * l2
        raise no_exact(f"({self._text(h1)}) * ({self._text(h2)})")

    def cmp(self, h1: tuple, h2: tuple) -> int:
        (a1, c1, s1), (a2, c2, s2) = h1, h2
        if c1 == 0 or c2 == 0 or s1 == s2:
            return self._sign((a1 - a2, c1 - c2, s1 if c1 != 0 else s2))
        l1, l2 = self.lower(h1), self.lower(h2)
        if l1 is not None and l2 is not None:
            return QT.cmp(l1, l2)
        raise no_exact("a comparison of exponentials with different exponents")  # intervals decide

    def _sign(self, h: tuple) -> int:
        """sign(a + c·e^s), exactly."""
        a, c, s = h
        if c == 0:
            return qt_sign(a)
        low = self.lower(h)
        if low is not None:
            return qt_sign(low)
        if is_rational(a) and is_rational(c):  # sign(c e^s - (-a)), certified
            return sign_r_exp_s_minus_q(c, s, -a)
        return certified_sign(lambda prec: self._ball(h, prec), lambda: q_short(self._text(h), 40))

    def neg(self, x: Any) -> Any:
        a, c, s = self.hold(x, self)
        return self.value(-a, -c, s)

    def inv(self, x: Any) -> Any:
        if isinstance(x, ExpReal):
            return self.value(Q(0), 1 / x.r, -x.s)
        low = self.lower(self.hold(x, self))
        if low is None or low == 0:
            raise no_exact(f"1/({self.text(x)})")
        return 1 / low

    def sign(self, x: Any) -> int:
        if isinstance(x, ExpReal):
            return qt_sign(x.r)
        return self._sign(self.hold(x, self))

    def _text(self, h: tuple) -> str:
        a, c, s = h
        if c == 0:
            return _field_text(a)
        return self.text(AffineInLambda(a, -c, ExpReal(Q(1), s)))

    def text(self, x: Any) -> str:
        if isinstance(x, ExpReal):
            ex = f"exp({q_str(x.s)})"
            if isinstance(x.r, QtElement):
                return f"({x.r.text()})*{ex}"
            return ex if x.r == 1 else f"{q_str(x.r)}*{ex}"
        if x.b == 0:
            return _field_text(x.a)
        a, b = _field_text(x.a), _field_text(x.b)
        if isinstance(x.b, QtElement):
            b = f"({b})"
        return f"{a} - {b}*{self.text(x.lam)}"

    def decimal(self, x: Any, digits: int) -> str:
        if isinstance(x, ExpReal) and is_rational(x.r):
            return decimal_digits_of(x.r, x.s, digits)
        return super().decimal(x, digits)

    def bits(self, x: Any) -> int:
        if isinstance(x, ExpReal):
            return max(_field_bits(x.r), q_bits(x.s))
        return max(_field_bits(x.a), _field_bits(x.b), self.bits(x.lam))

    def _ball(self, h: tuple, prec: int) -> Any:
        a, c, s = h
        out = _field_ball(a, prec)
        return out if c == 0 else out + _field_ball(c, prec) * arb_exp(1, s, prec)

    def ball(self, x: Any, prec: int) -> Any:
        return self._ball(self.hold(x, self), prec)

    def log(self, x: Any) -> Any:
        if isinstance(x, ExpReal):  # ln(r e^s) = s + ln r
            return log_value(x.s, x.r)
        low = self.lower(self.hold(x, self))
        if low is None:
            return super().log(x)
        return QQ.log(low) if is_rational(low) else QT.log(low)

    def power(self, x: Any, e: Any) -> Any:
        if not isinstance(x, ExpReal):
            return super().power(x, e)
        f = to_fraction(e)
        check_exponent(f.numerator, _limits.current().max_exponent)
        r = QQ.power(x.r, e) if is_rational(x.r) else QT.power(x.r, e)
        return self.value(Q(0), r, as_q(x.s) * as_q(e)) if r != 0 else Q(0)

    def to_sympy(self, x: Any) -> Any:
        a, c, s = self.hold(x, self)
        sympy = sympy_module()
        return _field_sympy(a) + _field_sympy(c) * sympy.exp(sym_rational(s))


def _field_text(x: Any) -> str:
    return x.text() if isinstance(x, QtElement) else q_str(x)


def _field_bits(x: Any) -> int:
    return x.bits() if isinstance(x, QtElement) else q_bits(x)


def _field_ball(x: Any, prec: int) -> Any:
    return x.ball(prec) if isinstance(x, QtElement) else arb_rational(x, prec)


def _field_sympy(x: Any) -> Any:
    return QT.to_sympy(x) if isinstance(x, QtElement) else sym_rational(x)


EXP = Exponentials()
