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
* ``LS`` — s + Σ c·ln r with s, c, r ∈ ℚ(e^{1/L}) (Rényi and KL divergences at a decimal ε);
  the field when the coefficients are rational, else certified intervals.
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

from .base import Domain, NoOperation
from .exponentials import EXP, Exponentials
from .field import QT, ExpField
from .logs import LL, LQT, LS, FieldLogs, LogLinearForms, LogSums
from .rationals import QQ, Rationals
from .roof import OO, RR, SYM, Infinite, Reals, Symbolic

__all__ = [
    "Domain",
    "NoOperation",
    "Rationals",
    "ExpField",
    "LogLinearForms",
    "FieldLogs",
    "LogSums",
    "Exponentials",
    "Reals",
    "Infinite",
    "Symbolic",
    "QQ",
    "QT",
    "LL",
    "LQT",
    "LS",
    "EXP",
    "RR",
    "OO",
    "SYM",
]
