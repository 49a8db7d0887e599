"""Exact numbers: a ladder of domains — ℚ, the field ℚ(e^{1/L}) for decimal ε, linear forms in
logarithms, exponentials, ∞ and (where symbols are declared) SymPy — and the safe expression
grammar.

Every value behaves like a number (exact comparisons and arithmetic, ``float``, ``format``,
``round``); the operations are written once in :mod:`exactdp.numbers.ladder`, over the table of
rungs stated there.
"""

from . import ladder
from .element import ExactFraction
from .expr import ExprError, ExprLimits, eval_text, evaluate, exact, parse_expr
from .expreal import AffineInLambda, ExpReal
from .infinity import INF, Infinity
from .loglinear import LogLinear, LogReal
from .logqt import LogQt
from .logsum import LogSum
from .qt import QtElement, qt_exp, qt_t
from .rational import BACKEND, Q, as_q, is_rational, parse_decimal, q_str, to_fraction
from .real import real_cmp, real_decimal, real_exp, real_log, real_sign, real_str

__all__ = [
    "ladder",
    "BACKEND",
    "Q",
    "ExactFraction",
    "as_q",
    "is_rational",
    "parse_decimal",
    "q_str",
    "to_fraction",
    "QtElement",
    "qt_exp",
    "qt_t",
    "INF",
    "Infinity",
    "ExpReal",
    "AffineInLambda",
    "LogReal",
    "LogLinear",
    "LogQt",
    "LogSum",
    "real_cmp",
    "real_decimal",
    "real_exp",
    "real_log",
    "real_sign",
    "real_str",
    "ExprError",
    "ExprLimits",
    "eval_text",
    "evaluate",
    "exact",
    "parse_expr",
]
