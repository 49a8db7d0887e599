"""Exact numbers: the rational type, the field ℚ(e^{1/L}) for decimal ε, exact reals (log/exp/∞)
and the safe expression grammar."""

from .expr import ExprError, ExprLimits, eval_text, evaluate, parse_expr
from .qt import QtElement, qt_exp, qt_t
from .rational import BACKEND, Q, as_q, is_rational, parse_decimal, q_str, to_fraction
from .real import (
    INF,
    ExpReal,
    Infinity,
    LogLinear,
    LogReal,
    real_cmp,
    real_decimal,
    real_exp,
    real_log,
    real_sign,
    real_str,
)

__all__ = [
    "BACKEND",
    "Q",
    "as_q",
    "is_rational",
    "parse_decimal",
    "q_str",
    "to_fraction",
    "QtElement",
    "qt_exp",
    "qt_t",
    "INF",
    "ExpReal",
    "Infinity",
    "LogReal",
    "LogLinear",
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
    "parse_expr",
]
