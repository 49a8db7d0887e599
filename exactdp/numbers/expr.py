"""Evaluating exactdp's own grammar for exact numbers — a case file never executes code.

The grammar and its parser are in :mod:`exactdp.numbers.grammar` (re-exported here); this module
computes the exact value of a syntax tree with the ladder's operations
(:mod:`exactdp.numbers.ladder`): ``0.1`` is 1/10, ``log(3)`` stays a logarithm, ``exp(0.1)`` an
exponential.  Every intermediate result is bounded by the size limits, and a value with no exact
form is an error at the column of the operation, never a rounded number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ArgumentError, ArgumentTypeError, InexactValueError, LimitExceededError
from . import ladder
from .element import public
from .grammar import FUNCTIONS, ExprError, ExprLimits, _suggest, names_in, parse_expr
from .infinity import INF, Infinity
from .rational import as_q
from .roots import check_exponent
from .types import ExactReal

__all__ = [
    "ExprError",
    "ExprLimits",
    "parse_expr",
    "evaluate",
    "eval_text",
    "public_eval_text",
    "exact",
    "names_in",
    "FUNCTIONS",
]


def evaluate(
    ast: tuple,
    lookup: Callable[[str], Any] | Mapping[str, Any],
    limits: ExprLimits = ExprLimits(),
) -> Any:
    """Evaluate a parsed expression exactly; ``lookup`` resolves names.

    Raises :class:`ExprError` (with the column of the failing operation) for unknown names,
    division by zero, ``log`` of a non-positive number and values with no exact form.
    """
    if isinstance(lookup, Mapping):
        table = lookup

        def lookup(name: str) -> Any:  # type: ignore[misc]
            if name in table:
                return table[name]
            raise ExprError(f"unknown name {name!r}", None, _hint_names(name, table))

    def ev(node: tuple) -> Any:
        kind = node[0]
        if kind == "num":
            return node[1]
        if kind == "inf":
            return INF
        if kind == "name":
            try:
                return lookup(node[1])
            except ExprError as e:
                raise ExprError(e.message, e.column or node[2], e.hint) from None
        # every intermediate result is size-checked (check_size), not only the literals: a
        # squaring chain is refused at the first square over the limit
        if kind == "neg":
            arg = ev(node[1])
            return _guard(lambda: ladder.neg(arg), node[2])
        if kind == "call":
            arg = ev(node[2])
            if ladder.is_inf(arg):
                raise ExprError("inf can only stand alone (as in `equals: inf`), not inside a function", node[3])
            fn = ladder.log if node[1] == "log" else ladder.exp
            return _guard(lambda: ladder.check_size(fn(arg)), node[3])
        if kind == "bin":
            op, a, b, col = node[1], ev(node[2]), ev(node[3]), node[4]
            if ladder.is_inf(a) or ladder.is_inf(b):
                raise ExprError("inf can only stand alone (as in `equals: inf`), not inside arithmetic", col)
            if op == "^":
                return _guard(lambda: ladder.check_size(_power(a, b, limits)), col)
            return _guard(lambda: ladder.check_size(_BINARY[op](a, b)), col)
        raise AssertionError(kind)  # pragma: no cover

    return ev(ast)


def _hint_names(name: str, table: Mapping[str, Any]) -> str:
    if not table:
        return "define it under `params:` at the top level of the case"
    return "known names: " + ", ".join(sorted(table)) + _suggest(name, table)


_BINARY: dict[str, Callable[[Any, Any], Any]] = {"+": ladder.add, "-": ladder.sub, "*": ladder.mul, "/": ladder.div}


def _power(a: Any, b: Any, limits: ExprLimits) -> Any:
    """a^b under the grammar's exponent limit (the limits in force apply too)."""
    if ladder.domain_of(b) is ladder.QQ:
        check_exponent(int(as_q(b).numerator), limits.max_exponent)
    return ladder.power(a, b)


def _guard(fn: Callable[[], Any], col: int) -> Any:
    try:
        return fn()
    except (InexactValueError, LimitExceededError) as e:
        raise ExprError(str(e), col) from None
    except ZeroDivisionError:
        raise ExprError("division by zero", col) from None


def eval_text(
    text: str, env: Mapping[str, Any] | None = None, limits: ExprLimits = ExprLimits()
) -> ExactReal | Infinity:
    """Parse and evaluate in one step: ``eval_text("log(3)/2 + log(3)/2") == LogReal(0, 3)``."""
    return evaluate(parse_expr(text, limits), env or {}, limits)


def public_eval_text(
    text: str, env: Mapping[str, Any] | None = None, limits: ExprLimits = ExprLimits()
) -> ExactReal | Infinity:
    """Parse and evaluate in one step: ``eval_text("log(3)/2 + log(3)/2") == LogReal(0, 3)``.

    This is ``exactdp.eval_text``, for Python callers: text that is not in exactdp's number
    grammar is an :class:`~exactdp.errors.ArgumentError` (a ValueError), a value that is not
    text an :class:`~exactdp.errors.ArgumentTypeError` (a TypeError), as for :func:`exact`.
    (exactdp's own readers call :func:`eval_text`, which raises :class:`ExprError` with the
    column, for them to locate.)"""
    if not isinstance(text, str):
        raise ArgumentTypeError(
            f'eval_text: text must be a str in the number grammar of exactdp, e.g. "log(3)/2", got {type(text).__name__}: '
            f"{text!r:.60}"
        )
    try:
        return eval_text(text, env, limits)
    except ExprError as e:  # (a caller's mistake: an ExactDPError, and a ValueError)
        raise ArgumentError(f"eval_text({text[:60]!r}): {e.message}" + (f" ({e.hint})" if e.hint else "")) from None


def exact(x: Any) -> ExactReal | Infinity:
    """An exact value from what a Python caller has: text in the number grammar
    (``exact("log(3)")``), a float (the exact binary fraction it is: ``exact(0.5) == 1/2``,
    ``exact(0.1)`` is 3602879701896397/2^55), or an exact value; a rational comes back as an
    :class:`~exactdp.numbers.element.ExactFraction` (it formats and prints like the others)."""
    if isinstance(x, str):
        try:
            return public(eval_text(x))
        except ExprError as e:  # (a caller's mistake: an ExactDPError, and a ValueError)
            raise ArgumentError(f"exact({x[:60]!r}): {e.message}") from None
    if isinstance(x, float):
        return public(ladder.from_float(x))
    ladder.domain_of(x)  # refuses what is not an exact value (UnregisteredKindError)
    return public(x)
