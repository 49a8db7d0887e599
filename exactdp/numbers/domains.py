r"""The rungs of the number ladder: one domain per kind of exact value, each knowing how to hold,
add, multiply, compare, sign, print and measure its elements, and how to take in the values of
the rungs below.

Modelled on SymPy's ``polys.domains``: a :class:`Domain` converts a value of a lower domain into
its own elements (:meth:`Domain.hold`, SymPy's ``convert_from``), computes with them, and hands
back the value in its canonical kind (the lowest kind that holds it: a sum of logarithms that
is a rational comes back as a rational).  Which domain meets which, and the kinds each holds,
is the table :data:`exactdp.numbers.ladder.LADDER`; the generic operations there pick the
domain and call these methods, so nothing else tells number kinds apart.

A domain method that has no exact result raises :class:`~exactdp.errors.InexactValueError`
(the ladder then tries the next domain up, and reports the first reason if none has one); a
value that cannot be held by a domain raises :class:`~exactdp.numbers.element.NotInDomain`.

The domains (their order and lifts are the table of :mod:`exactdp.numbers.ladder`):

* ``QQ`` — ℚ; exact rational arithmetic (gmpy2).
* ``QT`` — ℚ(e^{1/L}), rational functions of e^{1/L}; exact field arithmetic, certified signs.
* ``LL`` — s + Σ c·ln b, linear forms in logarithms; an exact zero test over a coprime basis,
  certified signs.
* ``LQT`` — s + ln r with r ∈ ℚ(e^{1/L}); the field when e^s fits in it, else certified
  intervals.
* ``EXP`` — r·e^s and a − b·r·e^s beyond the field; the field when the degree allows, else
  certified intervals.
* ``RR`` — values of two different rungs together; comparison only, by certified intervals.
* ``OO`` — +∞; by definition, in no arithmetic.
* ``SYM`` — rational functions of declared symbols (SymPy), only where symbols are allowed.

References
----------
SymPy's ``polys.domains`` (``Domain.convert_from``, ``Domain.unify``); Lindemann–Weierstrass
(the zero tests); Johansson 2017, Arb (the certified signs).
"""

from __future__ import annotations

from typing import Any

from .. import limits as _limits
from ..errors import InexactValueError
from .certified import arb_exp, arb_rational, ball_decimal, certified_sign, decimal_digits_of, sign_r_exp_s_minus_q
from .element import NotInDomain, SymbolicValueError
from .expreal import AffineInLambda, ExpReal
from .infinity import INF
from .loglinear import (
    LogLinear,
    LogReal,
    as_log_linear,
    canonical,
    enclosure,
    ll_add,
    ll_bits,
    ll_decimal,
    ll_neg,
    ll_scale,
    ll_sign,
    ll_single_log,
    ll_str,
)
from .logqt import LogQt, log_parts, sign_log, text_log
from .qt import QtElement, check_power, qt_exp, qt_sign
from .rational import Q, as_q, is_rational, q_bits, q_short, q_str, to_fraction
from .roots import check_exponent, rational_power

__all__ = [
    "Domain",
    "NoOperation",
    "Rationals",
    "ExpField",
    "LogLinearForms",
    "FieldLogs",
    "Exponentials",
    "Reals",
    "Infinite",
    "Symbolic",
    "QQ",
    "QT",
    "LL",
    "LQT",
    "EXP",
    "RR",
    "OO",
    "SYM",
]


def _no_exact(what: str) -> InexactValueError:
    return InexactValueError(f"{what} has no exact representation in exactdp's number types")


class NoOperation(InexactValueError):
    """A domain without the operation asked for (the ladder then words the refusal itself)."""


def _sympy() -> Any:
    import sympy  # heavy: imported only when a value meets a symbol

    return sympy


def _sym_rational(x: Any) -> Any:
    f = to_fraction(x)
    return _sympy().Rational(f.numerator, f.denominator)


class Domain:
    """A rung of the ladder (see the module docstring).

    ``hold(x, source)`` converts a value of the domain ``source`` into an element of this one;
    ``add``, ``mul``, ``cmp`` take elements and return values (of the canonical kind);
    ``neg``, ``inv``, ``sign``, ``text``, ``latex``, ``decimal``, ``bits``, ``ball``, ``log``,
    ``exp``, ``power`` and ``to_sympy`` take values of this domain's own kinds."""

    name = ""
    title = ""

    def __repr__(self) -> str:
        return self.name

    # --- holding ------------------------------------------------------------------------------

    def hold(self, x: Any, source: Domain) -> Any:
        if source is self:
            return x
        raise NotInDomain

    # --- arithmetic on elements -----------------------------------------------------------------

    def add(self, a: Any, b: Any) -> Any:
        raise NoOperation(f"{self.name} has no sums")

    def mul(self, a: Any, b: Any) -> Any:
        raise NoOperation(f"{self.name} has no products")

    def cmp(self, a: Any, b: Any) -> int:
        raise NoOperation(f"{self.name} has no comparisons")

    # --- one value of the domain's kinds --------------------------------------------------------

    def neg(self, x: Any) -> Any:
        raise _no_exact(f"-({self.text(x)})")

    def inv(self, x: Any) -> Any:
        raise _no_exact(f"1/({self.text(x)})")

    def sign(self, x: Any) -> int:
        raise NotImplementedError

    def text(self, x: Any) -> str:
        raise NotImplementedError

    def decimal(self, x: Any, digits: int) -> str:
        return ball_decimal(lambda prec: self.ball(x, prec), digits)

    def bits(self, x: Any) -> int:
        raise NotImplementedError

    def ball(self, x: Any, prec: int) -> Any:
        """An Arb ball containing x at ``prec`` bits."""
        raise NotImplementedError

    def log(self, x: Any) -> Any:
        raise _no_exact(f"log({self.text(x)})")

    def exp(self, x: Any) -> Any:
        raise _no_exact(f"exp({self.text(x)})")

    def power(self, x: Any, e: Any) -> Any:
        raise _no_exact(f"({self.text(x)})^({q_str(e)})")

    def to_sympy(self, x: Any) -> Any:
        raise InexactValueError(f"{q_short(self.text(x), 40)} cannot take part in a symbolic expression")


# --- ℚ ---------------------------------------------------------------------------------------


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
                raise _no_exact(f"({q_short(x)})^({q_short(e)})")
            return (-1) ** int(to_fraction(e)) * rational_power(-as_q(x), e, max_exponent)
        return rational_power(x, e, max_exponent)

    def to_sympy(self, x: Any) -> Any:
        return _sym_rational(x)


# --- ℚ(e^{1/L}) -------------------------------------------------------------------------------


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

    def decimal(self, x: Any, digits: int) -> str:
        return x.decimal(digits)

    def bits(self, x: Any) -> int:
        return x.bits()

    def ball(self, x: Any, prec: int) -> Any:
        return x.ball(prec)

    def log(self, x: Any) -> Any:
        if x.sign() <= 0:
            raise InexactValueError(f"log of a non-positive number: log({q_short(x.text(), 40)})")
        return FieldLogs.value(Q(0), x)

    def power(self, x: Any, e: Any) -> Any:
        f = to_fraction(e)
        if f.denominator != 1:
            raise _no_exact(f"({q_short(x.text(), 40)})^({q_short(f)})")
        k = f.numerator
        check_exponent(k, _limits.current().max_exponent)
        check_power(x, abs(k))
        return x**k

    def to_sympy(self, x: Any) -> Any:
        sympy = _sympy()
        t = sympy.exp(sympy.Rational(1, x.L))

        def poly(p: Any) -> Any:
            return sum(int(c) * t**k for k, c in enumerate(p.coeffs()) if c != 0)

        return _sym_rational(x.c) * poly(x.n) / poly(x.d)


# --- linear forms in logarithms ---------------------------------------------------------------


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
            return self.single(sa + sb, ra * rb)
        return canonical(ll_add(_ll(a), _ll(b)), self._max_bits())

    def mul(self, a: Any, b: Any) -> Any:
        if is_rational(b):
            a, b = b, a
        if not is_rational(a):
            raise _no_exact(f"({self.text(a)}) * ({self.text(b)})")
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

    @staticmethod
    def single(s: Any, r: Any) -> Any:
        """s + ln r for rationals s and r > 0, in its canonical kind."""
        return as_q(s) if r == 1 else LogReal(as_q(s), as_q(r))

    def neg(self, x: Any) -> Any:
        if isinstance(x, LogReal):  # -(s + ln r) = -s + ln(1/r)
            return self.single(-x.s, 1 / x.r)
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

    def decimal(self, x: Any, digits: int) -> str:
        return ll_decimal(_ll(x), digits)

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
        raise InexactValueError(
            f"exp({ll_str(x)}) is an irrational algebraic number (a root of a rational): exactdp keeps "
            "e^eps exact only when it is rational or e^(rational) times a rational"
        )

    def to_sympy(self, x: Any) -> Any:
        sympy = _sympy()
        ll = _ll(x)
        return _sym_rational(ll.s) + sum(_sym_rational(c) * sympy.log(sympy.Integer(b)) for b, c in ll.terms)


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

    @staticmethod
    def value(s: Any, r: Any) -> Any:
        """s + ln r in its canonical kind (rational, LogReal or LogQt)."""
        s, r = log_parts(s, r)
        if is_rational(r):
            return LogLinearForms.single(s, r)
        return LogQt(s, r)

    def add(self, a: Any, b: Any) -> Any:
        return self.value(a[0] + b[0], a[1] * b[1])

    def mul(self, a: Any, b: Any) -> Any:
        if b[1] != 1:
            a, b = b, a
        if b[1] != 1:
            raise _no_exact(f"({text_log(*a)}) * ({text_log(*b)})")
        k = b[0]  # a rational
        if a[1] == 1:
            return as_q(a[0] * k)
        f = to_fraction(k)
        if f.denominator != 1:
            raise _no_exact(f"{q_short(k)} * ({text_log(*a)})")
        if isinstance(a[1], QtElement):
            check_power(a[1], abs(f.numerator))
        return self.value(a[0] * k, a[1] ** f.numerator)

    def cmp(self, a: Any, b: Any) -> int:
        s, r = a[0] - b[0], a[1] / b[1]
        if is_rational(r):
            return sign_r_exp_s_minus_q(r, s, 1) if r != 1 else (s > 0) - (s < 0)
        return sign_log(s, r)

    def neg(self, x: Any) -> Any:
        return self.value(-x.s, x.r.inverse())

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
        return _sym_rational(x.s) + _sympy().log(QT.to_sympy(x.r))


# --- r·e^s and a − b·r·e^s ---------------------------------------------------------------------


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
        raise _no_exact(f"({self._text(h1)}) + ({self._text(h2)})")

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
        raise _no_exact(f"({self._text(h1)}) * ({self._text(h2)})")

    def cmp(self, h1: tuple, h2: tuple) -> int:
        (a1, c1, s1), (a2, c2, s2) = h1, h2
        if c1 == 0 or c2 == 0 or s1 == s2:
            return self._sign((a1 - a2, c1 - c2, s1 if c1 != 0 else s2))
        l1, l2 = self.lower(h1), self.lower(h2)
        if l1 is not None and l2 is not None:
            return QT.cmp(l1, l2)
        raise _no_exact("a comparison of exponentials with different exponents")  # intervals decide

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
            raise _no_exact(f"1/({self.text(x)})")
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
            return FieldLogs.value(x.s, x.r)
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
        sympy = _sympy()
        return _field_sympy(a) + _field_sympy(c) * sympy.exp(_sym_rational(s))


def _field_text(x: Any) -> str:
    return x.text() if isinstance(x, QtElement) else q_str(x)


def _field_bits(x: Any) -> int:
    return x.bits() if isinstance(x, QtElement) else q_bits(x)


def _field_ball(x: Any, prec: int) -> Any:
    return x.ball(prec) if isinstance(x, QtElement) else arb_rational(x, prec)


def _field_sympy(x: Any) -> Any:
    return QT.to_sympy(x) if isinstance(x, QtElement) else _sym_rational(x)


# --- the roof, ∞ and symbols ------------------------------------------------------------------


class Reals(Domain):
    """Exact reals of different rungs met together (log(3) against e^{1/10}): no exact
    arithmetic, comparison by certified intervals.  Elements are pairs (domain, value)."""

    name, title = "RR", "ℝ (certified intervals)"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is OO or source is SYM:
            raise NotInDomain
        return (source, x)

    def cmp(self, a: Any, b: Any) -> int:
        (da, xa), (db, xb) = a, b
        return certified_sign(
            lambda prec: da.ball(xa, prec) - db.ball(xb, prec),
            lambda: f"{q_short(da.text(xa), 30)} - ({q_short(db.text(xb), 30)})",
        )

    def text(self, x: Any) -> str:  # pragma: no cover - RR holds no value of its own
        return x[0].text(x[1])


class Infinite(Domain):
    """+∞ (:data:`~exactdp.numbers.infinity.INF`): above every value, in no arithmetic."""

    name, title = "OO", "{+∞}"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is SYM:
            raise NotInDomain
        return x

    def cmp(self, a: Any, b: Any) -> int:
        if a is not INF and b is not INF:  # two finite values meet here only through RR
            raise NoOperation("OO compares inf only")
        return (a is INF) - (b is INF)

    def add(self, a: Any, b: Any) -> Any:
        if a is not INF and b is not INF:
            raise NoOperation("OO holds inf only")
        raise InexactValueError("inf can only stand alone as a privacy-loss value, not in arithmetic")

    mul = add

    def neg(self, x: Any) -> Any:
        return self.add(x, x)  # (refused: inf takes no part in arithmetic)

    inv = neg

    def sign(self, x: Any) -> int:
        return 1

    def text(self, x: Any) -> str:
        return "inf"

    def decimal(self, x: Any, digits: int) -> str:
        return "inf"

    def bits(self, x: Any) -> int:
        return 0

    def log(self, x: Any) -> Any:
        return INF  # ln ∞ = ∞: a privacy loss from λ* = ∞

    def exp(self, x: Any) -> Any:
        return INF

    def to_sympy(self, x: Any) -> Any:
        raise InexactValueError("inf cannot take part in a symbolic expression")


class Symbolic(Domain):
    """Rational functions of declared symbols (SymPy), allowed only where a case declares
    ``symbols:``; their signs are proved there from the symbols' bounds, never here."""

    name, title = "SYM", "ℚ(symbols) (SymPy)"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is self:
            return x
        try:
            return source.to_sympy(x)
        except InexactValueError:
            raise NotInDomain from None

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def cmp(self, a: Any, b: Any) -> int:
        return self.sign(a - b)

    def neg(self, x: Any) -> Any:
        return -x

    def inv(self, x: Any) -> Any:
        if x == 0:
            raise InexactValueError("division by zero")
        return 1 / x

    def sign(self, x: Any) -> int:
        v = _sympy().cancel(x) if x.free_symbols else x
        if v.is_Rational:
            return (v > 0) - (v < 0)
        names = ", ".join(sorted(str(s) for s in x.free_symbols)) or str(x)
        raise SymbolicValueError(
            f"{q_short(str(x), 40)} depends on {names}: its sign is proved from the symbols' bounds only where "
            "symbols are allowed (mechanism probabilities, rr's eps and delta, simulates_rr claims)"
        )

    def text(self, x: Any) -> str:
        return str(x)

    def decimal(self, x: Any, digits: int) -> str:
        self.sign(x)  # refuses a value that depends on symbols
        return ball_decimal(lambda prec: arb_rational(Q(int(x.p), int(x.q)), prec), digits)

    def bits(self, x: Any) -> int:
        sympy = _sympy()
        return max((max(abs(int(a.p)).bit_length(), int(a.q).bit_length()) for a in x.atoms(sympy.Rational)), default=0)

    def log(self, x: Any) -> Any:
        return _sympy().log(x)

    def exp(self, x: Any) -> Any:
        return _sympy().exp(x)

    def power(self, x: Any, e: Any) -> Any:
        return x ** _sym_rational(e)

    def to_sympy(self, x: Any) -> Any:
        return x


QQ = Rationals()
QT = ExpField()
LL = LogLinearForms()
LQT = FieldLogs()
EXP = Exponentials()
RR = Reals()
OO = Infinite()
SYM = Symbolic()
