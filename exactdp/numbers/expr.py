"""exactdp's own grammar for exact numbers — a case file never executes code.

Grammar (``^`` and ``**`` are both powers, right-associative)::

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "/") unary)*
    unary  := ("+" | "-") unary | power
    power  := atom (("^" | "**") unary)?
    atom   := NUMBER | "inf" | NAME | FUNC "(" expr ")" | "(" expr ")"
    FUNC   := "log" | "exp"
    NUMBER := decimal literal, read exactly (``0.1`` is 1/10, ``1e-3`` is 1/1000)

Names are the case's ``params`` (and, later, declared symbols).  Nothing else is accepted:
no attribute access, no calls other than ``log``/``exp``, no strings.  The text length, the
number of syntax nodes and the size of integer exponents are bounded.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import InexactValueError, LimitExceededError
from .rational import parse_decimal
from .real import (
    DEFAULT_MAX_EXPONENT,
    INF,
    Infinity,
    check_size,
    real_add,
    real_div,
    real_exp,
    real_log,
    real_mul,
    real_neg,
    real_pow,
    real_sub,
)
from .types import ExactReal

__all__ = ["ExprError", "ExprLimits", "parse_expr", "evaluate", "eval_text", "names_in", "FUNCTIONS"]

FUNCTIONS = ("log", "exp")


class ExprError(Exception):
    """A syntax or evaluation problem in one expression; ``column`` is 1-based within it."""

    def __init__(self, message: str, column: int | None = None, hint: str | None = None):
        self.message = message
        self.column = column
        self.hint = hint
        super().__init__(message)


@dataclass(frozen=True)
class ExprLimits:
    """Bounds that keep hostile expressions cheap."""

    max_length: int = 2000
    max_nodes: int = 1000
    max_exponent: int = DEFAULT_MAX_EXPONENT


_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<num>(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\*\*|[-+*/^()])"
    r")"
)


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            bad = text[pos:].lstrip()
            col = n - len(bad) + 1
            raise ExprError(
                f"unexpected character {bad[0]!r} in expression",
                col,
                "numbers are written as 3, 1/3, 0.25, log(3), exp(log(2)), with + - * / ^ and parameter names",
            )
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    out.append(("end", "", n + 1))
    return out


class _Parser:
    def __init__(self, text: str, limits: ExprLimits):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.nodes = 0
        self.limits = limits

    def peek(self) -> tuple[str, str, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, str, int]:
        t = self.toks[self.i]
        self.i += 1
        return t

    def node(self, *parts: Any) -> tuple:
        self.nodes += 1
        if self.nodes > self.limits.max_nodes:
            raise ExprError(f"expression is too large (more than {self.limits.max_nodes} parts)")
        return tuple(parts)

    def expect(self, op: str) -> None:
        kind, val, col = self.take()
        if not (kind == "op" and val == op):
            found = "the end of the expression" if kind == "end" else repr(val)
            raise ExprError(f"expected {op!r} but found {found}", col)

    def parse(self) -> tuple:
        e = self.expr(0)
        kind, val, col = self.peek()
        if kind != "end":
            raise ExprError(f"unexpected {val!r} after a complete expression", col)
        return e

    def expr(self, depth: int) -> tuple:
        self._depth(depth)
        left = self.term(depth + 1)
        while self.peek()[0] == "op" and self.peek()[1] in "+-":
            _, op, col = self.take()
            left = self.node("bin", op, left, self.term(depth + 1), col)
        return left

    def term(self, depth: int) -> tuple:
        left = self.unary(depth + 1)
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "/"):
            _, op, col = self.take()
            left = self.node("bin", op, left, self.unary(depth + 1), col)
        return left

    def unary(self, depth: int) -> tuple:
        self._depth(depth)
        kind, val, col = self.peek()
        if kind == "op" and val in "+-":
            self.take()
            inner = self.unary(depth + 1)
            return inner if val == "+" else self.node("neg", inner, col)
        return self.power(depth + 1)

    def power(self, depth: int) -> tuple:
        base = self.atom(depth + 1)
        kind, val, col = self.peek()
        if kind == "op" and val in ("^", "**"):
            self.take()
            return self.node("bin", "^", base, self.unary(depth + 1), col)
        return base

    def atom(self, depth: int) -> tuple:
        self._depth(depth)
        kind, val, col = self.take()
        if kind == "num":
            try:
                return self.node("num", parse_decimal(val, max_exponent=self.limits.max_exponent), col)
            except ValueError as e:
                raise ExprError(str(e), col) from None
        if kind == "name":
            if val in FUNCTIONS:
                self.expect("(")
                arg = self.expr(depth + 1)
                self.expect(")")
                return self.node("call", val, arg, col)
            if val == "inf":
                return self.node("inf", col)
            if self.peek()[0] == "op" and self.peek()[1] == "(":
                raise ExprError(
                    f"unknown function {val!r}",
                    col,
                    "only log(...) and exp(...) are available" + _suggest(val, FUNCTIONS),
                )
            return self.node("name", val, col)
        if kind == "op" and val == "(":
            inner = self.expr(depth + 1)
            self.expect(")")
            return inner
        found = "the end of the expression" if kind == "end" else repr(val)
        raise ExprError(f"expected a number, a name or '(' but found {found}", col)

    def _depth(self, depth: int) -> None:
        if depth > 3 * 64:
            raise ExprError("expression is nested too deeply")


_CALL = re.compile(r"([A-Za-z_][A-Za-z0-9_.]*)\s*\(")


def _suggest(name: str, options) -> str:
    close = difflib.get_close_matches(name, list(options), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def parse_expr(text: str, limits: ExprLimits = ExprLimits()) -> tuple:
    """Parse ``text`` into a small syntax tree (nested tuples); raises :class:`ExprError`."""
    if len(text) > limits.max_length:
        raise ExprError(f"expression is {len(text)} characters long; the limit is {limits.max_length}")
    if not text.strip():
        raise ExprError("empty expression where a number was expected")
    try:
        return _Parser(text, limits).parse()
    except ExprError as e:
        # code-like text fails in the tokenizer (quotes, brackets...); name the culprit instead
        call = _CALL.search(text)
        if call and call.group(1) not in FUNCTIONS and "unexpected character" in e.message:
            raise ExprError(
                f"unknown function {call.group(1)!r}: this is not a number (a case file never executes code)",
                call.start(1) + 1,
                "numbers are written as 3, 1/3, 0.25, log(3), exp(log(2)), with + - * / ^ and parameter names",
            ) from None
        raise


def names_in(ast: tuple) -> set[str]:
    """Names referenced by a parsed expression."""
    kind = ast[0]
    if kind == "name":
        return {ast[1]}
    if kind == "bin":
        return names_in(ast[2]) | names_in(ast[3])
    if kind in ("neg",):
        return names_in(ast[1])
    if kind == "call":
        return names_in(ast[2])
    return set()


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
            return _guard(lambda: real_neg(arg), node[2])
        if kind == "call":
            arg = ev(node[2])
            fn = real_log if node[1] == "log" else real_exp
            return _guard(lambda: check_size(fn(arg)), node[3])
        if kind == "bin":
            op, a, b, col = node[1], ev(node[2]), ev(node[3]), node[4]
            if isinstance(a, Infinity) or isinstance(b, Infinity):
                raise ExprError("inf can only stand alone (as in `equals: inf`), not inside arithmetic", col)
            if op == "+":
                return _guard(lambda: check_size(real_add(a, b)), col)
            if op == "-":
                return _guard(lambda: check_size(real_sub(a, b)), col)
            if op == "*":
                return _guard(lambda: check_size(real_mul(a, b, max_exponent=limits.max_exponent)), col)
            if op == "/":
                return _guard(lambda: check_size(real_div(a, b, max_exponent=limits.max_exponent)), col)
            return _guard(lambda: check_size(real_pow(a, b, max_exponent=limits.max_exponent)), col)
        raise AssertionError(kind)  # pragma: no cover

    return ev(ast)


def _hint_names(name: str, table: Mapping[str, Any]) -> str:
    if not table:
        return "define it under `params:` at the top level of the case"
    return "known names: " + ", ".join(sorted(table)) + _suggest(name, table)


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
