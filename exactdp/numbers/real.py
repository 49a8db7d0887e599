"""The number functions of earlier releases (``real_add``, ``real_cmp``, ``real_str``, ...), kept
for one release as deprecated aliases of the ladder's operations.

Every exact value now behaves like a number (``a + b``, ``a < b``, ``str(a)``, ``float(a)``), and
the operations are written once in :mod:`exactdp.numbers.ladder` (``ladder.add``,
``ladder.cmp``, ``ladder.text``, ...).  Each name here still works and warns with an
:class:`~exactdp.deprecation.ExactDPDeprecationWarning` saying what to write instead.  The value
types are re-exported from their own modules, without a warning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..deprecation import warn_deprecated
from . import ladder
from .expreal import ExpReal
from .infinity import INF, Infinity
from .loglinear import LogLinear, LogReal
from .logsum import LogSum
from .roots import exact_root as _exact_root

__all__ = [
    "LogReal",
    "LogLinear",
    "LogSum",
    "ExpReal",
    "Infinity",
    "INF",
    "real_add",
    "real_neg",
    "real_sub",
    "real_mul",
    "real_div",
    "real_pow",
    "real_log",
    "real_exp",
    "real_cmp",
    "real_sign",
    "real_str",
    "real_decimal",
    "real_float",
    "exact_root",
    "is_real",
    "value_bits",
    "check_size",
]

DEPRECATED_SINCE = "0.2.0"


def _alias(old: str, new: Callable[..., Any], instead: str) -> Callable[..., Any]:
    def alias(*args: Any, **kwargs: Any) -> Any:
        warn_deprecated(f"exactdp.numbers.real.{old} is deprecated; use {instead}", since=DEPRECATED_SINCE)
        kwargs.pop("max_exponent", None)  # the limit in force (exactdp.limits) now applies
        return new(*args, **kwargs)

    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated: use {instead}."
    return alias


real_add = _alias("real_add", ladder.add, "a + b or exactdp.numbers.ladder.add(a, b)")
real_neg = _alias("real_neg", ladder.neg, "-a or exactdp.numbers.ladder.neg(a)")
real_sub = _alias("real_sub", ladder.sub, "a - b or exactdp.numbers.ladder.sub(a, b)")
real_mul = _alias("real_mul", ladder.mul, "a * b or exactdp.numbers.ladder.mul(a, b)")
real_div = _alias("real_div", ladder.div, "a / b or exactdp.numbers.ladder.div(a, b)")
real_pow = _alias("real_pow", ladder.power, "exactdp.numbers.ladder.power(a, e)")
real_log = _alias("real_log", ladder.log, "exactdp.numbers.ladder.log(a)")
real_exp = _alias("real_exp", ladder.exp, "exactdp.numbers.ladder.exp(a)")
real_cmp = _alias("real_cmp", ladder.cmp, "a < b (exact), or exactdp.numbers.ladder.cmp(a, b)")
real_sign = _alias("real_sign", ladder.sign, "exactdp.numbers.ladder.sign(a)")
real_str = _alias("real_str", ladder.text, "str(a) or exactdp.numbers.ladder.text(a)")
real_decimal = _alias("real_decimal", ladder.decimal, "exactdp.numbers.ladder.decimal(a, digits)")
real_float = _alias("real_float", ladder.to_float, "float(a)")
exact_root = _alias("exact_root", _exact_root, "exactdp.numbers.roots.exact_root(q, n)")
is_real = _alias("is_real", ladder.is_exact, "exactdp.numbers.ladder.is_exact(x)")
value_bits = _alias("value_bits", ladder.bits, "exactdp.numbers.ladder.bits(x)")
check_size = _alias("check_size", ladder.check_size, "exactdp.numbers.ladder.check_size(x, what)")
