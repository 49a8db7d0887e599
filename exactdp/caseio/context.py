"""Located problems, and exact values in a case's params and symbols.

Every reader reports problems through :class:`Reader` so that messages have one shape:
``file:line:col: path: what is wrong`` plus a hint, and keeps going where it can so that
several problems are reported at once (up to a limit).  :meth:`Reader.value` evaluates a
scalar with exactdp's own grammar, resolving ``params:`` (in any order, cycles refused) and
declared ``symbols:``; what kind of number is wanted is checked by the caller
(:mod:`exactdp.numbers.kinds`, through :mod:`exactdp.caseio.typed`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

import yaml

from ..errors import (
    CaseError,
    CaseProblem,
    ExactDPError,
    InvalidMechanismError,
    LimitExceededError,
    TimeLimitExceeded,
    excerpt_around,
    suggest,
)
from ..limits import current as current_limits
from ..numbers.expr import ExprError, ExprLimits, evaluate, parse_expr
from ..numbers.kinds import QuantityError
from ..numbers.rational import Q
from ..numbers.symbolic import (
    SymbolBounds,
    SymbolTable,
    exact_constant,
    is_sym,
    is_transcendental,
    sym_evaluate,
    sympy,
)
from .yamlsafe import is_null, kind_of, mark_of

__all__ = ["Reader", "Invalid", "INVALID", "suggest", "child_path"]

_SIMPLE_FRACTION = re.compile(r"^\s*([0-9]{1,60})\s*(?:/\s*([0-9]{1,60})\s*)?$")


class Invalid(enum.Enum):
    """Marker for a value that failed to read (its problem is already recorded).

    A one-member enum, so that ``if x is INVALID: return INVALID`` narrows ``T | Invalid`` to
    ``T`` for the type checker."""

    INVALID = "INVALID"

    def __repr__(self) -> str:
        return "INVALID"

    def __bool__(self) -> bool:
        return False


INVALID: Final = Invalid.INVALID


class _Abort(Exception):
    """Too many problems: stop reading."""


class _NeedsSymbols(Exception):
    """The expression mentions a declared symbol: evaluate it symbolically."""


def child_path(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    k = str(key)
    if not k.replace("_", "").replace("-", "").isalnum():
        k = repr(k)
    return f"{path}.{k}" if path else k


class Reader:
    """Located reading of one case file: problems, params, typed values."""

    def __init__(self, file: str, *, max_problems: int = 20, expr_limits: ExprLimits | None = None):
        self.file = file
        self.problems: list[CaseProblem] = []
        self.max_problems = max_problems
        self.expr_limits = expr_limits or ExprLimits(max_exponent=current_limits().max_exponent)
        self.params: dict[str, Any] = {}
        self.param_nodes: dict[str, yaml.Node] = {}
        self._param_state: dict[str, int] = {}
        self.symtab: SymbolTable = SymbolTable()

    # --- problems ---------------------------------------------------------------------------

    def error(self, node: yaml.Node | None, path: str, message: str, hint: str | None = None) -> Invalid:
        line, col = mark_of(node) if node is not None else (None, None)
        self.problems.append(CaseProblem(message, path, self.file, line, col, hint))
        if len(self.problems) >= self.max_problems:
            raise _Abort()
        return INVALID

    def raise_if_problems(self) -> None:
        if self.problems:
            raise CaseError(self.problems, truncated=len(self.problems) >= self.max_problems)

    def guard(self, fn: Callable[[], Any], node: yaml.Node, path: str) -> Any:
        """Run a builder; the errors the layers below raise about their own objects (an
        invalid mechanism or game, a quantity out of range, an inexact value, a limit) become
        problems located at ``node``, with their hint."""
        try:
            return fn()
        except CaseError as e:  # a nested reader's problems (a form that reads a sub-document)
            for p in e.problems:
                self.error(node, path, p.message, p.hint)
            return INVALID
        except (_Abort, TimeLimitExceeded):
            raise
        except (InvalidMechanismError, QuantityError) as e:
            return self.error(node, path, e.message, e.hint)
        except ExactDPError as e:
            return self.error(node, path, str(e))

    # --- structure --------------------------------------------------------------------------

    def mapping(self, node: yaml.Node, path: str, what: str) -> list[tuple[str, yaml.Node, yaml.Node]] | Invalid:
        if not isinstance(node, yaml.MappingNode):
            return self.error(node, path, f"{what} must be a mapping, found {kind_of(node)}")
        return [(k.value, k, v) for k, v in node.value]

    def sequence(self, node: yaml.Node, path: str, what: str) -> list[yaml.Node] | Invalid:
        if not isinstance(node, yaml.SequenceNode):
            return self.error(node, path, f"{what} must be a list, found {kind_of(node)}")
        return list(node.value)

    def choice(self, node: yaml.Node, path: str, what: str, options: Sequence[str]) -> str | Invalid:
        """One word from a fixed set (a mode, a variant, a theorem...); a typo gets the closest."""
        t = self.label(node, path, what)
        if t is INVALID or t in options:
            return t
        return self.error(
            node, path, f"unknown {what} {t!r}; {what} must be one of {', '.join(options)}", suggest(t, list(options))
        )

    def scalar_text(self, node: yaml.Node, path: str, what: str) -> str | Invalid:
        if not isinstance(node, yaml.ScalarNode):
            return self.error(node, path, f"{what} must be a single value, found {kind_of(node)}")
        return node.value

    def label(self, node: yaml.Node, path: str, what: str = "a label") -> str | Invalid:
        if not isinstance(node, yaml.ScalarNode) or is_null(node):
            return self.error(node, path, f"{what} must be a string or a number, found {kind_of(node)}")
        return node.value

    # --- numbers ----------------------------------------------------------------------------

    def define_symbols(self, bounds: list[SymbolBounds]) -> None:
        """Declare the case's symbols (``symbols:``), already read with their bounds."""
        self.symtab = SymbolTable.build(bounds)

    def define_params(self, items: list[tuple[str, yaml.Node, yaml.Node]], path: str) -> None:
        for name, knode, vnode in items:
            p = child_path(path, name)
            if not name.isidentifier() or name in ("log", "exp", "inf"):
                self.error(
                    knode, p, f"{name!r} cannot be a parameter name", "use letters, digits and _ (not log, exp, inf)"
                )
                continue
            if name in self.symtab.symbols:
                self.error(
                    knode, p, f"{name!r} is already declared under `symbols:`", "a name is either a symbol or a param"
                )
                continue
            self.param_nodes[name] = vnode
        for name in list(self.param_nodes):
            self._param(name, child_path(path, name))

    def _param(self, name: str, path: str) -> Any:
        st = self._param_state.get(name)
        if st == 2:
            return self.params[name]
        if st == 1:
            raise ExprError(f"parameter {name!r} is defined in terms of itself")
        self._param_state[name] = 1
        node = self.param_nodes[name]
        val = self.value(node, path, "a parameter value")
        self.params[name] = val
        self._param_state[name] = 2
        return val

    def _lookup(self, name: str) -> Any:
        if name in self.param_nodes:
            val = self._param(name, f"params.{name}")
            if val is INVALID:
                raise ExprError(f"parameter {name!r} has no valid value (see its own error)")
            if is_sym(val):
                raise _NeedsSymbols()
            return val
        if name in self.symtab.symbols:
            raise _NeedsSymbols()
        raise ExprError(
            f"unknown name {name!r}",
            None,
            (suggest(name, list(self.param_nodes)) if self.param_nodes else None)
            or "define it under `params:` at the top level of the case",
        )

    def value(self, node: yaml.Node, path: str, what: str, *, constants: bool = False) -> Any:
        """Evaluate a scalar with the safe grammar (params resolved); INVALID on error.

        With ``constants``, a value that no rung of the ladder holds exactly (``log(2)^2/2``)
        is kept as the exact SymPy expression of its syntax tree, for slots decided by certified
        enclosures (:mod:`exactdp.numbers.symball`)."""
        text = self.scalar_text(node, path, what)
        if text is INVALID:
            return INVALID
        if is_null(node):
            return self.error(node, path, f"{what} is missing (the value is empty)")
        m = _SIMPLE_FRACTION.match(text)
        if m:  # fast path for the common n or n/d (same result as the grammar)
            den = int(m.group(2) or 1)
            if den:
                return Q(int(m.group(1)), den)
        try:
            ast = parse_expr(text, self.expr_limits)
            try:
                return evaluate(ast, self._lookup, self.expr_limits)
            except _NeedsSymbols:
                return self._symbolic_value(ast, node, path, constants)
            except ExprError as first:
                if not constants:
                    raise
                try:
                    return self._symbolic_value(ast, node, path, constants)
                except ExprError:
                    raise first from None
        except ExprError as e:
            msg = e.message
            if e.column is not None and len(text) > 1:
                msg += f" (at character {e.column} of {excerpt_around(text, e.column)})"
            return self.error(node, path, msg, e.hint)
        except RecursionError:
            return self.error(node, path, "expression is nested too deeply")
        except TimeLimitExceeded:
            raise  # the clock ran out for the whole file: not a problem of this value
        except LimitExceededError as e:
            return self.error(node, path, str(e))

    def _symbolic_value(self, ast: tuple, node: yaml.Node, path: str, constants: bool = False) -> Any:
        def look(name: str) -> Any:
            if name in self.symtab.symbols:
                return self.symtab.symbols[name]
            if name in self.param_nodes:
                val = self._param(name, f"params.{name}")
                if val is INVALID:
                    raise ExprError(f"parameter {name!r} has no valid value (see its own error)")
                return val
            return self._lookup(name)

        v = sym_evaluate(ast, look, self.expr_limits)
        if v.is_rational_function() and not is_transcendental(v):  # (E^2 - 1)/(E - 1) - E is the constant 1
            v = sympy.cancel(sympy.together(v))
        if not v.free_symbols:
            v = exact_constant(v)
            if v.is_Rational:
                return Q(int(v.p), int(v.q))
            if constants:
                return v
            raise ExprError(f"{v} has no exact representation here", None, "write the value without symbols")
        return v
