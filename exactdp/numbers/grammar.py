"""exactdp's own grammar for exact numbers, as syntax: tokens, a parser into small syntax trees,
and a LaTeX printer — a case file never executes code.

Grammar (``^`` and ``**`` are both powers, right-associative)::

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "/") unary)*
    unary  := ("+" | "-") unary | power
    power  := atom (("^" | "**") unary)?
    atom   := NUMBER | "inf" | NAME | FUNC "(" expr ")" | "(" expr ")"
    FUNC   := "log" | "exp"
    NUMBER := decimal literal, read exactly (``0.1`` is 1/10, ``1e-3`` is 1/1000)

Names are the case's ``params`` (and declared symbols).  Nothing else is accepted: no
attribute access, no calls other than ``log``/``exp``, no strings.  The text length, the number
of syntax nodes and the size of integer exponents are bounded.  The values of the trees are
computed by :mod:`exactdp.numbers.expr`; every exact value prints as text in this grammar, so
:func:`latex` renders any value through its text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from .rational import int_str, parse_decimal
from .roots import DEFAULT_MAX_EXPONENT

__all__ = ["ExprError", "ExprLimits", "parse_expr", "names_in", "latex", "FUNCTIONS"]


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
    def __init__(self, text: str, limits: ExprLimits, *, literal: bool = False):
        self.literal = literal  # keep number literals as their text (for printing)
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
            if self.literal:
                return self.node("num", val, col)
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


# --- LaTeX ---------------------------------------------------------------------------------

_SUM, _PRODUCT, _UNARY, _ATOM = 1, 2, 3, 4


def latex(text: str) -> str:
    r"""The LaTeX of an exact value's text (``log(61/9)/2`` gives
    ``\frac{\log\left(\frac{61}{9}\right)}{2}``), for ``_repr_latex_`` and papers; the text comes
    from exactdp's own printer, so it parses.

    >>> print(latex("1/10 + log(2)"))
    \frac{1}{10} + \log\left(2\right)
    >>> print(latex("3*exp(1/10)"))
    3 \cdot e^{\frac{1}{10}}
    """
    if text == "inf":
        return r"\infty"
    limits = ExprLimits(max_length=len(text) + 1, max_nodes=4 * len(text) + 8)
    return _tex(_Parser(text, limits, literal=True).parse())[0]


def _paren(part: tuple[str, int], at_least: int) -> str:
    tex, level = part
    return tex if level >= at_least else rf"\left({tex}\right)"


def _tex(node: tuple) -> tuple[str, int]:
    """(LaTeX, binding level) of a syntax tree parsed with literal numbers."""
    kind = node[0]
    if kind == "num":
        return _number(node[1]), _ATOM
    if kind == "inf":
        return r"\infty", _ATOM
    if kind == "name":
        return rf"\mathrm{{{node[1]}}}", _ATOM
    if kind == "neg":
        return "-" + _paren(_tex(node[1]), _PRODUCT), _UNARY
    if kind == "call":
        arg = _tex(node[2])[0]
        return (rf"\log\left({arg}\right)", _ATOM) if node[1] == "log" else (f"e^{{{arg}}}", _ATOM)
    op, a, b = node[1], _tex(node[2]), _tex(node[3])
    if op in "+-":
        return f"{a[0]} {op} {_paren(b, _PRODUCT if op == '-' else _SUM)}", _SUM
    if op == "/":
        return rf"\frac{{{a[0]}}}{{{b[0]}}}", _ATOM
    if op == "*":
        return rf"{_paren(a, _PRODUCT)} \cdot {_paren(b, _UNARY)}", _PRODUCT
    return f"{{{_paren(a, _ATOM)}}}^{{{b[0]}}}", _ATOM


def _number(literal: str) -> str:
    """A decimal literal as LaTeX (``1e-3`` → ``1 \\cdot 10^{-3}``); integers as they are."""
    mantissa, _, exponent = literal.lower().partition("e")
    return mantissa if not exponent else rf"{mantissa} \cdot 10^{{{int_str(int(exponent))}}}"
