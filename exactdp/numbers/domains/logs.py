"""The rungs of logarithms: linear forms in logarithms of rationals, and logarithms of elements
of ℚ(e^{1/L})."""

from __future__ import annotations

from typing import Any

from ... import limits as _limits
from ...errors import InexactValueError
from ..certified import arb_rational, sign_r_exp_s_minus_q
from ..element import NotInDomain
from ..expreal import ExpReal
from ..loglinear import (
    LogLinear,
    LogReal,
    as_log_linear,
    canonical,
    enclosure,
    ll_add,
    ll_bits,
    ll_neg,
    ll_scale,
    ll_sign,
    ll_single_log,
    ll_str,
    single_log,
)
from ..logqt import LogQt, log_value, sign_log, text_log
from ..logsum import LogSum, as_log_sum, log_sum, ls_ball, ls_bits, ls_sign, ls_str
from ..qt import QtElement, qt_exp
from ..rational import Q, as_q, is_rational, q_bits, q_short, q_str, to_fraction
from .base import Domain, no_exact, sym_rational, sympy_module
from .field import QT
from .rationals import QQ

__all__ = ["LogLinearForms", "FieldLogs", "LogSums", "LL", "LQT", "LS"]


class LogLinearForms(Domain):
    """s + Σ c·ln b: ε = log(r) (:class:`LogReal`), Rényi divergences log(r)/(α − 1) and KL
    (:class:`LogLinear`).  Elements are rationals, LogReal's and LogLinear's as given."""

    name, title = "LL", "ℚ + ℚ·log ℚ"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is self:
            return x
        if source is QQ:
            return as_q(x)
        raise NotInDomain

    @staticmethod
    def _max_bits() -> int:
        return _limits.current().max_bits

    def add(self, a: Any, b: Any) -> Any:
        if not isinstance(a, LogLinear) and not isinstance(b, LogLinear):  # s + ln r: one logarithm
            sa, ra = (a.s, a.r) if isinstance(a, LogReal) else (as_q(a), Q(1))
            sb, rb = (b.s, b.r) if isinstance(b, LogReal) else (as_q(b), Q(1))
            return single_log(sa + sb, ra * rb)
        return canonical(ll_add(_ll(a), _ll(b)), self._max_bits())

    def mul(self, a: Any, b: Any) -> Any:
        if is_rational(b):
            a, b = b, a
        if not is_rational(a):
            raise no_exact(f"({self.text(a)}) * ({self.text(b)})")
        if is_rational(b):
            return as_q(a) * as_q(b)
        return canonical(ll_scale(_ll(b), a), self._max_bits())

    def cmp(self, a: Any, b: Any) -> int:
        if is_rational(a) and is_rational(b):
            return (a > b) - (a < b)
        if not isinstance(a, LogLinear) and not isinstance(b, LogLinear):  # one log each: r e^s vs 1
            sa, ra = (a.s, a.r) if isinstance(a, LogReal) else (as_q(a), Q(1))
            sb, rb = (b.s, b.r) if isinstance(b, LogReal) else (as_q(b), Q(1))
            return sign_r_exp_s_minus_q(ra / rb, sa - sb, 1)
        return ll_sign(ll_add(_ll(a), ll_neg(_ll(b))))

    def neg(self, x: Any) -> Any:
        if isinstance(x, LogReal):  # -(s + ln r) = -s + ln(1/r)
            return single_log(-x.s, 1 / x.r)
        return canonical(ll_neg(x), self._max_bits())

    def sign(self, x: Any) -> int:
        if isinstance(x, LogReal):  # sign(s + ln r) = sign(r e^s - 1)
            return sign_r_exp_s_minus_q(x.r, x.s, 1)
        return ll_sign(x)

    def text(self, x: Any) -> str:
        if isinstance(x, LogReal):
            lg = f"log({q_str(x.r)})"
            return lg if x.s == 0 else f"{q_str(x.s)} + {lg}"
        return ll_str(x)

    def bits(self, x: Any) -> int:
        if isinstance(x, LogReal):
            return max(q_bits(x.s), q_bits(x.r))
        return ll_bits(x)

    def ball(self, x: Any, prec: int) -> Any:
        if isinstance(x, LogReal):
            return arb_rational(x.r, prec).log() + arb_rational(x.s, prec)
        return enclosure(x, prec)

    def exp(self, x: Any) -> Any:
        if isinstance(x, LogReal):
            return as_q(x.r) if x.s == 0 else ExpReal(as_q(x.r), as_q(x.s))
        ll = _ll(x)
        if all(to_fraction(c).denominator == 1 for _b, c in ll.terms):  # e^s * prod b^c, b^c rational
            _limits.check_bits(
                sum(abs(int(to_fraction(c))) * int(b).bit_length() for b, c in ll.terms), "exp of a sum of logarithms"
            )
            r = Q(1)
            for b, c in ll.terms:
                r *= Q(int(b)) ** int(to_fraction(c))
            return r if ll.s == 0 else ExpReal(r, as_q(ll.s))
        # otherwise the product is an irrational root of a rational, and e^s is transcendental
        # when s != 0
        what = "an irrational algebraic number (a root of a rational)"
        if _ll(x).s != 0:
            what = f"e^({q_str(_ll(x).s)}) times {what}, a transcendental number"
        raise InexactValueError(
            f"exp({ll_str(x)}) is {what}: exactdp keeps e^eps exact only when it is rational or "
            "e^(rational) times a rational"
        )

    def to_sympy(self, x: Any) -> Any:
        sympy = sympy_module()
        ll = _ll(x)
        return sym_rational(ll.s) + sum(sym_rational(c) * sympy.log(sympy.Integer(b)) for b, c in ll.terms)


def _ll(x: Any) -> LogLinear:
    out = as_log_linear(x)
    if out is None:  # pragma: no cover - the ladder only hands LL elements here
        raise NotInDomain
    return out


# --- logarithms of field elements -------------------------------------------------------------


class FieldLogs(Domain):
    """s + ln r with r in ℚ(e^{1/L}): the privacy loss of a mechanism with a decimal ε
    (:class:`LogQt`).  Elements are pairs (s, r)."""

    name, title = "LQT", "ℚ + log ℚ(e^{1/L})"

    def hold(self, x: Any, source: Domain) -> Any:
        if isinstance(x, LogQt):
            return (x.s, x.r)
        if isinstance(x, LogReal):
            return (x.s, x.r)
        if isinstance(x, LogLinear):  # integer coefficients only: then it is one logarithm
            one = ll_single_log(x, _limits.current().max_bits)
            if one is None:
                raise NotInDomain
            return (as_q(one[0]), as_q(one[1]))
        if is_rational(x):
            return (as_q(x), Q(1))
        raise NotInDomain

    def add(self, a: Any, b: Any) -> Any:
        return log_value(a[0] + b[0], a[1] * b[1])

    def mul(self, a: Any, b: Any) -> Any:
        if b[1] != 1:
            a, b = b, a
        if b[1] != 1:
            raise no_exact(f"({text_log(*a)}) * ({text_log(*b)})")
        k = b[0]  # a rational
        if a[1] == 1:
            return as_q(a[0] * k)
        f = to_fraction(k)
        if f.denominator != 1:
            raise no_exact(f"{q_short(k)} * ({text_log(*a)})")
        return log_value(a[0] * k, a[1] ** f.numerator)  # (a power in the field is bounded before it is formed)

    def cmp(self, a: Any, b: Any) -> int:
        s, r = a[0] - b[0], a[1] / b[1]
        if is_rational(r):
            return sign_r_exp_s_minus_q(r, s, 1) if r != 1 else (s > 0) - (s < 0)
        return sign_log(s, r)

    def neg(self, x: Any) -> Any:
        return log_value(-x.s, x.r.inverse())

    def sign(self, x: Any) -> int:
        return sign_log(x.s, x.r)

    def text(self, x: Any) -> str:
        return text_log(x.s, x.r)

    def bits(self, x: Any) -> int:
        return max(q_bits(x.s), x.r.bits())

    def ball(self, x: Any, prec: int) -> Any:
        return x.r.ball(prec).log() + arb_rational(x.s, prec)

    def exp(self, x: Any) -> Any:
        try:
            return x.r * qt_exp(1, x.s)
        except InexactValueError:  # e^s of huge degree over the field: keep r·e^s
            return ExpReal(x.r, x.s)

    def to_sympy(self, x: Any) -> Any:
        return sym_rational(x.s) + sympy_module().log(QT.to_sympy(x.r))


LL = LogLinearForms()
LQT = FieldLogs()


# --- sums of logarithms with field coefficients -------------------------------------------------


class LogSums(Domain):
    """s + Σ c·ln r with s, c and r in ℚ(e^{1/L}) (:class:`~exactdp.numbers.logsum.LogSum`): Rényi
    divergences of order ≥ 3 and KL divergences of a mechanism with a decimal ε.  It holds every
    value of ℚ(e^{1/L}) and of the logarithm rungs; elements are pairs (s, terms)."""

    name, title = "LS", "ℚ(e^{1/L}) + Σ ℚ(e^{1/L})·log ℚ(e^{1/L})"

    def hold(self, x: Any, source: Domain) -> Any:
        parts = as_log_sum(x)
        if parts is None:
            raise NotInDomain
        return parts

    def add(self, a: Any, b: Any) -> Any:
        return log_sum(a[0] + b[0], a[1] + b[1])

    def mul(self, a: Any, b: Any) -> Any:
        if b[1]:
            a, b = b, a
        if b[1]:
            raise no_exact(f"({ls_str(LogSum(*a))}) * ({ls_str(LogSum(*b))})")
        k = b[0]  # a field value
        return log_sum(k * a[0], tuple((r, k * c) for r, c in a[1]))

    def cmp(self, a: Any, b: Any) -> int:
        return ls_sign(self.add(a, (-b[0], tuple((r, -c) for r, c in b[1]))))

    def neg(self, x: Any) -> Any:
        return log_sum(-x.s, tuple((r, -c) for r, c in x.terms))

    def sign(self, x: Any) -> int:
        return ls_sign(x)

    def text(self, x: Any) -> str:
        return ls_str(x)

    def bits(self, x: Any) -> int:
        return ls_bits(x)

    def ball(self, x: Any, prec: int) -> Any:
        return ls_ball(x.s, x.terms, prec)

    def to_sympy(self, x: Any) -> Any:
        def part(v: Any) -> Any:
            return QT.to_sympy(v) if isinstance(v, QtElement) else sym_rational(v)

        return part(x.s) + sum(part(c) * sympy_module().log(part(r)) for r, c in x.terms)


LS = LogSums()
