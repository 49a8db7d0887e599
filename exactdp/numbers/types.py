"""The number types of exactdp's public API, named once.

exactdp never lets a float into a verdict.  The values it takes and returns form a small
ladder of exact number types:

* :data:`Rational` – an exact rational: ``int``, :class:`fractions.Fraction` or gmpy2's
  ``mpq`` (the fast type :data:`~exactdp.numbers.rational.Q` is one of the latter two);
* :data:`FieldValue` – an element of ℚ(e^{1/L}): a rational, or a
  :class:`~exactdp.numbers.qt.QtElement` (probabilities of mechanisms with a decimal ε);
* :data:`ExactReal` – any exact real exactdp represents: a field value, a
  :class:`~exactdp.numbers.real.LogReal` s + ln r, or an :class:`~exactdp.numbers.real.ExpReal`
  r·e^s;
* :data:`Eps` – an ε ≥ 0 (a rational, ``log(r)``, or s + ``log(r)``); :data:`PrivLossValue` adds
  :data:`~exactdp.numbers.real.INF`;
* :data:`Lambda` – λ = e^ε ≥ 1: a field value or an ``ExpReal``;
* :data:`Delta` – a δ ∈ [0, 1], always rational.

The ``...Like`` aliases are what the Python API accepts as input: the exact values above, or
text in exactdp's number grammar (``"log(3)"``, ``"0.1"``, ``"1/10"``; see
:mod:`exactdp.numbers.expr`), which reads exactly like a case file.  Floats are refused by the
constructors (``0.1`` is not 1/10 in binary); comparisons of returned values with floats are
exact (see :mod:`exactdp.numbers.order`).

References
----------
Vadhan & Wang 2021, Def. 1.7 (the privacy profile δ(e^ε)) and Def. 1.9 (RR_ε with e^ε).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias, Union

if TYPE_CHECKING:  # pragma: no cover - names for the type checker only (no import cycles)
    from gmpy2 import mpq

    from .qt import QtElement
    from .real import ExpReal, Infinity, LogReal

__all__ = [
    "Rational",
    "FieldValue",
    "ExactReal",
    "Eps",
    "PrivLossValue",
    "Lambda",
    "Delta",
    "RationalLike",
    "EpsLike",
    "LambdaLike",
    "DeltaLike",
]

Rational: TypeAlias = Union[int, Fraction, "mpq"]
"""An exact rational number."""

FieldValue: TypeAlias = Union[int, Fraction, "mpq", "QtElement"]
"""An element of ℚ(e^{1/L}): a rational or a :class:`QtElement`."""

ExactReal: TypeAlias = Union[int, Fraction, "mpq", "QtElement", "LogReal", "ExpReal"]
"""Any exact real number exactdp represents (∞ excluded)."""

Eps: TypeAlias = Union[int, Fraction, "mpq", "LogReal"]
"""An ε ≥ 0: rational, ``log(r)`` or s + ``log(r)`` (a :class:`LogReal`)."""

PrivLossValue: TypeAlias = Union[int, Fraction, "mpq", "LogReal", "Infinity"]
"""A privacy loss: an :data:`Eps` or ``INF``."""

Lambda: TypeAlias = Union[int, Fraction, "mpq", "QtElement", "ExpReal"]
"""λ = e^ε ≥ 1: rational for ε = log(r), a field element or r·e^s for a decimal ε."""

Delta: TypeAlias = Union[int, Fraction, "mpq"]
"""A δ ∈ [0, 1] (always rational)."""

RationalLike: TypeAlias = Union[int, Fraction, "mpq", str]
"""A rational, or its text (``"1/10"``, ``"0.1"``, ``"1e-3"``)."""

EpsLike: TypeAlias = Union[int, Fraction, "mpq", "LogReal", str]
"""An ε as the API takes it: an exact value or text such as ``"log(3)"`` or ``"0.1"``."""

LambdaLike: TypeAlias = Union[int, Fraction, "mpq", "QtElement", "ExpReal", str]
"""e^ε as the API takes it (``exp_eps=``): an exact value ≥ 1 or text such as ``"3"``."""

DeltaLike: TypeAlias = Union[int, Fraction, "mpq", str]
"""A δ as the API takes it: an exact rational or text such as ``"1/10"`` or ``"1e-6"``."""
