"""The number types of exactdp's public API, named once.

exactdp never lets a float into a verdict.  The values it takes and returns form a small
ladder of exact number types:

* :data:`Rational` – an exact rational: ``int``, :class:`fractions.Fraction` or gmpy2's
  ``mpq`` (the fast type :data:`~exactdp.numbers.rational.Q` is one of the latter two);
* :data:`FieldValue` – an element of ℚ(e^{1/L}): a rational, or a
  :class:`~exactdp.numbers.qt.QtElement` (probabilities of mechanisms with a decimal ε);
* :data:`ExactReal` – any exact real exactdp represents: a field value, a
  :class:`~exactdp.numbers.loglinear.LogReal` s + ln r, a
  :class:`~exactdp.numbers.loglinear.LogLinear` s + Σ c·ln b, a
  :class:`~exactdp.numbers.logqt.LogQt` s + ln r with r in the field, or an
  :class:`~exactdp.numbers.expreal.ExpReal` r·e^s (the rungs of :mod:`exactdp.numbers.ladder`);
* :data:`Eps` – an ε ≥ 0 (a rational, ``log(r)``, or s + ``log(r)``); :data:`PrivLossValue` adds
  ``log(r)/k`` and the logarithms of field elements (the privacy loss of a mechanism with a decimal
  ε), and :data:`~exactdp.numbers.infinity.INF`;
* :data:`Lambda` – λ = e^ε ≥ 1: a field value or an ``ExpReal``;
* :data:`Delta` – a δ ∈ [0, 1], always rational.

The ``...Like`` aliases are what the Python API accepts as input: the exact values above, or
text in exactdp's number grammar (``"log(3)"``, ``"0.1"``, ``"1/10"``; see
:mod:`exactdp.numbers.expr`), which reads exactly like a case file.  A float is taken as the
exact binary fraction it is (``0.1`` is 3602879701896397/2^55, not 1/10: write ``"0.1"`` for
1/10); comparisons of returned values with floats are exact (see
:mod:`exactdp.numbers.element`).

References
----------
Vadhan & Wang 2021, Def. 1.7 (the privacy profile δ(e^ε)) and Def. 1.9 (RR_ε with e^ε).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias, Union

from .rational import Rational

if TYPE_CHECKING:  # pragma: no cover - names for the type checker only
    from gmpy2 import mpq

    from .expreal import ExpReal
    from .infinity import Infinity
    from .loglinear import LogLinear, LogReal
    from .logqt import LogQt
    from .qt import QtElement

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

FieldValue: TypeAlias = Union[int, Fraction, "mpq", "QtElement"]
"""An element of ℚ(e^{1/L}): a rational or a :class:`QtElement`."""

ExactReal: TypeAlias = Union[int, Fraction, "mpq", "QtElement", "LogReal", "LogLinear", "LogQt", "ExpReal"]
"""Any exact real number exactdp represents (∞ excluded)."""

Eps: TypeAlias = Union[int, Fraction, "mpq", "LogReal"]
"""An ε ≥ 0: rational, ``log(r)`` or s + ``log(r)`` (a :class:`LogReal`)."""

PrivLossValue: TypeAlias = Union[int, Fraction, "mpq", "LogReal", "LogLinear", "LogQt", "Infinity"]
"""A privacy loss: an :data:`Eps`, ``log(r)/k``, the logarithm of a field element, or ``INF``."""

Lambda: TypeAlias = Union[int, Fraction, "mpq", "QtElement", "ExpReal"]
"""λ = e^ε ≥ 1: rational for ε = log(r), a field element or r·e^s for a decimal ε."""

Delta: TypeAlias = Union[int, Fraction, "mpq"]
"""A δ ∈ [0, 1] (always rational)."""

RationalLike: TypeAlias = Union[int, Fraction, "mpq", float, str]
"""A rational, its text (``"1/10"``, ``"0.1"``, ``"1e-3"``), or a float (its exact binary fraction)."""

EpsLike: TypeAlias = Union[int, Fraction, "mpq", "LogReal", float, str]
"""An ε as the API takes it: an exact value or text such as ``"log(3)"`` or ``"0.1"``."""

LambdaLike: TypeAlias = Union[int, Fraction, "mpq", "QtElement", "ExpReal", float, str]
"""e^ε as the API takes it (``exp_eps=``): an exact value ≥ 1 or text such as ``"3"``."""

DeltaLike: TypeAlias = Union[int, Fraction, "mpq", float, str]
"""A δ as the API takes it: an exact rational or text such as ``"1/10"`` or ``"1e-6"``."""
