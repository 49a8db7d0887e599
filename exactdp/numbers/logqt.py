r"""Logarithms of field elements: s + ln r with rational s and r in ℚ(e^{1/L}), r > 0.

The privacy loss of a mechanism with a decimal ε is ln λ* for a breakpoint λ* of its profile,
an element of the field ℚ(e^{1/L}) (:mod:`exactdp.numbers.qt`); such a value is held exactly as
:class:`LogQt`.  The set is closed under addition (ln r₁ + ln r₂ = ln r₁r₂), negation and
integer multiples, and its sign is decided exactly:

.. math::  \operatorname{sign}(s + \ln r) = \operatorname{sign}(r e^s - 1),

where r·e^s − 1 is formed in the field when e^s lies in one of moderate degree (its zero test
is exact there), and is otherwise decided by certified intervals (then it is not 0: r·e^s = 1
would make e^s algebraic over ℚ(e^{1/L}) of small degree).

Canonical form: powers of t are moved into s (ln(c·t^m·u) = m/L + ln(c·u)), so r has no factor
t in its numerator or denominator; a rational r is the linear form of one logarithm
(:class:`~exactdp.numbers.loglinear.LogReal`) instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd
from typing import Any

from ..errors import InexactValueError
from .certified import arb_rational, certified_sign
from .element import Element
from .loglinear import single_log
from .qt import QtElement, qt_exp, qt_sign
from .rational import Q, as_q, is_rational, q_short, q_str, to_fraction

__all__ = ["LogQt", "log_parts", "log_value", "sign_log", "text_log"]

_FIELD_EXPONENT = 20_000  # e^s is formed in the field when its exponent over t stays this small


@dataclass(frozen=True, repr=False)
class LogQt(Element):
    """The real number s + ln r for rational s and r ∈ ℚ(e^{1/L}) irrational, r > 0, held in the
    canonical form of the module docstring (build it with :func:`log_parts` and the ladder)."""

    s: Any
    r: QtElement

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogQt) and self.s == other.s and self.r == other.r

    def __hash__(self) -> int:
        return hash(("exactdp-logqt", self.s, self.r))


def _valuation(p: Any) -> int:
    """The exponent of the lowest nonzero term of an integer polynomial."""
    return next(i for i, c in enumerate(p.coeffs()) if c != 0)


def log_parts(s: Any, r: Any) -> tuple[Any, Any]:
    """(s', r') with s + ln r = s' + ln r' and r' free of factors t = e^{1/L} (a rational r'
    when r is c·t^m); r must be positive."""
    s = as_q(s)
    if not isinstance(r, QtElement):
        return s, as_q(r)
    m = _valuation(r.n) - _valuation(r.d)
    if m == 0:
        return s, r
    shift = Q(m, r.L)
    return s + shift, r * qt_exp(1, -shift)


def log_value(s: Any, r: Any) -> Any:
    """s + ln r (r > 0 rational or in ℚ(e^{1/L})) in its canonical kind: a rational, a
    :class:`~exactdp.numbers.loglinear.LogReal` or a :class:`LogQt`."""
    s, r = log_parts(s, r)
    return single_log(s, r) if is_rational(r) else LogQt(s, r)


def sign_log(s: Any, r: Any) -> int:
    """sign(s + ln r) for rational s and r ∈ ℚ(e^{1/L}) with r > 0, exactly (module
    docstring); a rational r is decided as r·e^s − 1 too."""
    fs = to_fraction(s)
    L = r.L * fs.denominator // gcd(r.L, fs.denominator) if isinstance(r, QtElement) else fs.denominator
    if fs == 0:
        return qt_sign(r - 1)
    if abs(fs.numerator * (L // fs.denominator)) <= _FIELD_EXPONENT:
        try:
            return qt_sign(r * qt_exp(1, s) - 1)
        except InexactValueError:  # the common field is beyond the degree limit: intervals decide
            pass

    def ball(prec: int) -> Any:
        v = r.ball(prec) if isinstance(r, QtElement) else arb_rational(r, prec)
        return v.log() + arb_rational(fs, prec)

    return certified_sign(ball, lambda: q_short(text_log(s, r), 40))


def text_log(s: Any, r: Any) -> str:
    """``log(r)`` or ``s + log(r)``, in the number grammar."""
    lg = f"log({r.text() if isinstance(r, QtElement) else q_str(r)})"
    return lg if s == 0 else f"{q_str(s)} + {lg}"
