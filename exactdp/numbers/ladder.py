"""The ladder of exact number domains, stated once: ℚ ⊂ ℚ(e^{1/L}) ⊂ exact reals ∪ {∞}.

* ``QQ`` — rationals (:data:`~exactdp.numbers.rational.Q`): probabilities, δ, e^ε for ε = log r;
* ``QT`` — the field ℚ(e^{1/L}) (:class:`~exactdp.numbers.qt.QtElement`, and r·e^s with
  rational r, s): e^ε for a decimal ε, and everything computed from it;
* ``RR`` — other exact reals (``log(r)``, r·e^s beyond the field-degree limit): compared by
  certified interval arithmetic;
* ``OO`` — +∞ (a privacy loss only).

As in SymPy's ``polys.domains``, an operation on two values first :func:`unify`-s their domains
and :func:`lift`-s both into the result, so call sites never tell number types apart
themselves.  Exact arithmetic happens in the lowest domain that holds every operand; only
when no field of moderate degree does (``InexactValueError`` from the field) is a sign decided
by certified intervals.
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any

from ..errors import InexactValueError
from .qt import QtElement, as_field, qt_sign
from .rational import is_rational
from .real import ExpReal, Infinity, LogReal, LogSum, real_cmp

if TYPE_CHECKING:  # pragma: no cover - TypeIs is in typing from Python 3.13 on; only mypy needs it
    from typing_extensions import TypeIs

__all__ = ["Domain", "QQ", "QT", "RR", "OO", "domain_of", "unify", "lift", "is_inf", "affine_sign", "divide"]


class Domain(IntEnum):
    """A rung of the ladder; a smaller domain is contained in every larger one."""

    QQ = 0
    QT = 1
    RR = 2
    OO = 3


QQ, QT, RR, OO = Domain.QQ, Domain.QT, Domain.RR, Domain.OO


def domain_of(x: Any) -> Domain:
    """The smallest rung holding ``x``."""
    if is_rational(x):
        return QQ
    if isinstance(x, QtElement) or (isinstance(x, ExpReal) and is_rational(x.s)):
        return QT
    if isinstance(x, Infinity):
        return OO
    if isinstance(x, (LogReal, ExpReal, LogSum)):
        return RR
    raise TypeError(f"not an exact number: {x!r}")


def unify(*xs: Any) -> Domain:
    """The smallest rung holding every one of ``xs``."""
    return max((domain_of(x) for x in xs), default=QQ)


def lift(x: Any, d: Domain) -> Any:
    """``x`` as a value of domain ``d`` (the field ℚ(e^{1/L}) for ``QT``; otherwise as is).

    Raises ``InexactValueError`` when ``x`` would need a field beyond the degree limit."""
    return as_field(x) if d == QT else x


def is_inf(x: object) -> TypeIs[Infinity]:
    """Whether ``x`` is +∞ (the top of the ladder); narrows ``x`` for type checkers."""
    return isinstance(x, Infinity)


def affine_sign(a: Any, b: Any, lam: Any) -> int:
    """The sign of a − b·λ, exactly: in ℚ or ℚ(e^{1/L}) when every operand fits there, else
    (λ = r·e^s of huge degree, a and b rational) by certified comparison of a with b·λ."""
    d = unify(a, b, lam)
    if d == QQ:
        v = a - b * lam
        return (v > 0) - (v < 0)
    if d == QT:
        try:
            return qt_sign(lift(a, QT) - lift(lam, QT) * lift(b, QT))
        except InexactValueError:  # e^s of huge degree over the field: certified intervals decide
            pass
    if b == 0:
        return (a > 0) - (a < 0)
    if b > 0:
        return real_cmp(a, ExpReal(b * lam.r, lam.s))
    return -real_cmp(-a, ExpReal(-b * lam.r, lam.s))


def divide(lam: Any, ratio: Any) -> Any:
    """λ / ratio for a rational ratio > 0, in the lowest domain that holds it."""
    d = unify(lam, ratio)
    if d == QQ:
        return lam / ratio
    if isinstance(lam, ExpReal) and is_rational(lam.r) and is_rational(ratio):
        return ExpReal(lam.r / ratio, lam.s)
    try:
        return lift(lam, QT) / ratio
    except InexactValueError:  # e^eps of huge degree: keep it as (field value)·e^s
        return ExpReal(lam.r / ratio, lam.s)
