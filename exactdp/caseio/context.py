"""Shared helpers for reading a case: located problems, typed numbers, field maps.

Every reader reports problems through :class:`Reader` so that messages have one shape:
``file:line:col: path: what is wrong`` plus a hint, and keeps going where it can so that
several problems are reported at once (up to a limit).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import yaml

from ..errors import CaseError, CaseProblem, ExactDPError, InexactValueError, LimitExceededError, excerpt_around
from ..limits import current as current_limits
from ..numbers.expr import ExprError, ExprLimits, evaluate, parse_expr
from ..numbers.qt import as_field
from ..numbers.rational import Q, as_q, is_rational, q_str
from ..numbers.real import ExpReal, Infinity, LogReal, real_exp, real_sign, real_str
from ..numbers.symbolic import (
    SymbolBounds,
    SymbolTable,
    is_sym,
    prove_nonneg,
    sym_evaluate,
    sympy,
    to_sympy,
)
from .yamlsafe import is_null, kind_of, mark_of

__all__ = ["Reader", "Invalid", "INVALID", "Field", "suggest", "child_path", "schema_object", "NUMBER", "NAME"]

NUMBER = {"$ref": "#/$defs/number"}
NAME = {"$ref": "#/$defs/name"}


def schema_object(props: dict, required: tuple = ()) -> dict:
    """A JSON-Schema fragment for a mapping form with known keys (see caseio/schema.py)."""
    out = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out

_SIMPLE_FRACTION = re.compile(r"^\s*([0-9]{1,60})\s*(?:/\s*([0-9]{1,60})\s*)?$")


class Invalid:
    """Marker for a value that failed to read (its problem is already recorded)."""

    _inst: "Invalid | None" = None

    def __new__(cls) -> "Invalid":
        if cls._inst is None:
            cls._inst = super().__new__(cls)
        return cls._inst

    def __repr__(self) -> str:
        return "INVALID"

    def __bool__(self) -> bool:
        return False


INVALID = Invalid()


class _Abort(Exception):
    """Too many problems: stop reading."""


class _NeedsSymbols(Exception):
    """The expression mentions a declared symbol: evaluate it symbolically."""


def suggest(word: str, options: Sequence[str]) -> str | None:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None


def child_path(path: str, key: object) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    k = str(key)
    if not k.replace("_", "").replace("-", "").isalnum():
        k = repr(k)
    return f"{path}.{k}" if path else k


@dataclass(frozen=True)
class Field:
    """One key of a mapping form: how to read it and whether it must be present."""

    read: Callable[["Reader", yaml.Node, str], Any]
    required: bool = False
    default: Any = None
    doc: str = ""
    schema: dict | None = None  # JSON-Schema fragment of the value (see caseio/schema.py)


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
        """Run a builder; turn model-level errors into located problems."""
        try:
            return fn()
        except CaseError as e:
            for p in e.problems:
                self.error(node, path, p.message, p.hint)
            return INVALID
        except _Abort:
            raise
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

    def fields(self, node: yaml.Node, path: str, spec: Mapping[str, Field], what: str) -> dict[str, Any] | Invalid:
        """Read a mapping with known keys: unknown keys, missing required keys and bad values
        are reported (with a suggestion for near-miss keys)."""
        items = self.mapping(node, path, what)
        if items is INVALID:
            return INVALID
        out: dict[str, Any] = {}
        bad = False
        for key, knode, vnode in items:
            if key not in spec:
                hint = suggest(key, list(spec)) or f"allowed keys: {', '.join(spec)}"
                self.error(knode, child_path(path, key), f"unknown key {key!r} in {what}", hint)
                bad = True
                continue
            val = spec[key].read(self, vnode, child_path(path, key))
            if val is INVALID:
                bad = True
            out[key] = val
        for key, f in spec.items():
            if key not in out:
                if f.required:
                    self.error(node, path, f"{what} needs `{key}:`" + (f" ({f.doc})" if f.doc else ""))
                    bad = True
                else:
                    out[key] = f.default
        return INVALID if bad else out

    def list_of(self, node: yaml.Node, path: str, what: str, read: Callable[[yaml.Node, str], Any]) -> list | Invalid:
        """A list whose items are read by ``read(item_node, item_path)``; INVALID (with every
        item's problem recorded) if the node is not a list or any item is invalid."""
        items = self.sequence(node, path, what)
        if items is INVALID:
            return INVALID
        out = [read(it, child_path(path, i)) for i, it in enumerate(items)]
        return INVALID if any(v is INVALID for v in out) else out

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

    def define_symbols(self, items: list[tuple[str, yaml.Node, yaml.Node]], path: str) -> None:
        """``symbols: {E: {gt: 1}, p: {gt: 0, lt: 1}}``: real symbols with optional rational
        bounds gt/ge (lower, strict/non-strict) and lt/le (upper)."""
        out: list[SymbolBounds] = []
        for name, knode, vnode in items:
            p = child_path(path, name)
            if not name.isidentifier() or name in ("log", "exp", "inf") or name.startswith("_"):
                self.error(knode, p, f"{name!r} cannot be a symbol name", "use letters, digits and _ (not log, exp, inf)")
                continue
            if is_null(vnode):
                out.append(SymbolBounds(name))
                continue
            spec = {k: Field(lambda r, n, pp: r.rational(n, pp, "a bound")) for k in ("gt", "ge", "lt", "le")}
            f = self.fields(vnode, p, spec, f"the bounds of symbol {name!r}")
            if f is INVALID:
                continue
            if f["gt"] is not None and f["ge"] is not None or f["lt"] is not None and f["le"] is not None:
                self.error(vnode, p, "give at most one lower bound (gt or ge) and one upper bound (lt or le)")
                continue
            lo, lo_c = (f["gt"], False) if f["gt"] is not None else (f["ge"], True)
            hi, hi_c = (f["lt"], False) if f["lt"] is not None else (f["le"], True)
            if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_c and hi_c))):
                self.error(vnode, p, f"the bounds of {name!r} leave no value", "the lower bound must be below the upper bound")
                continue
            out.append(SymbolBounds(name, lo, lo_c, hi, hi_c))
        self.symtab = SymbolTable.build(out)

    def define_params(self, items: list[tuple[str, yaml.Node, yaml.Node]], path: str) -> None:
        for name, knode, vnode in items:
            p = child_path(path, name)
            if not name.isidentifier() or name in ("log", "exp", "inf"):
                self.error(knode, p, f"{name!r} cannot be a parameter name", "use letters, digits and _ (not log, exp, inf)")
                continue
            if name in self.symtab.symbols:
                self.error(knode, p, f"{name!r} is already declared under `symbols:`", "a name is either a symbol or a param")
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

    def value(self, node: yaml.Node, path: str, what: str) -> Any:
        """Evaluate a scalar with the safe grammar (params resolved); INVALID on error."""
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
                return self._symbolic_value(ast, node, path)
        except ExprError as e:
            msg = e.message
            if e.column is not None and len(text) > 1:
                msg += f" (at character {e.column} of {excerpt_around(text, e.column)})"
            return self.error(node, path, msg, e.hint)
        except RecursionError:
            return self.error(node, path, "expression is nested too deeply")
        except LimitExceededError as e:
            return self.error(node, path, str(e))

    def _symbolic_value(self, ast: tuple, node: yaml.Node, path: str) -> Any:
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
        if not v.free_symbols:
            v = sympy.nsimplify(v)
            if v.is_Rational:
                return Q(int(v.p), int(v.q))
            raise ExprError(f"{v} has no exact representation here", None, "write the value without symbols")
        return v

    def _symbolic_ok(self, node: yaml.Node, path: str, what: str, v: Any, symbolic: bool, lo=None, hi=None) -> Any:
        """A symbolic value where one is allowed, with its bounds proved for every value of the
        symbols that ``symbols:`` allows."""
        names = ", ".join(sorted(s.name for s in v.free_symbols))
        if not symbolic:
            return self.error(
                node, path, f"{what} depends on the symbols {names}, which is not supported here",
                "symbols may appear in mechanism probabilities, rr's eps and delta, and simulates_rr claims",
            )
        for bound, expr, rel in ((lo, v - to_sympy(lo) if lo is not None else None, ">="), (hi, to_sympy(hi) - v if hi is not None else None, "<=")):
            if expr is not None and not prove_nonneg(expr, self.symtab):
                return self.error(
                    node, path, f"could not prove {what} {rel} {real_str(bound)} for every value the bounds allow ({self.symtab.describe()})",
                    "tighten the bounds under `symbols:` so that this follows from them",
                )
        return v

    def rational(self, node: yaml.Node, path: str, what: str, lo=None, hi=None, *, symbolic: bool = False) -> Any:
        v = self.value(node, path, what)
        if v is INVALID:
            return INVALID
        if is_sym(v):
            return self._symbolic_ok(node, path, what, v, symbolic, lo, hi)
        if not is_rational(v):
            return self.error(
                node, path, f"{what} must be an exact rational, found {real_str(v)}", _rational_hint(v)
            )
        v = as_q(v)
        if lo is not None and v < lo:
            return self.error(node, path, f"{what} must be at least {q_str(lo)}, found {q_str(v)}")
        if hi is not None and v > hi:
            return self.error(node, path, f"{what} must be at most {q_str(hi)}, found {q_str(v)}")
        return v

    def probability(self, node: yaml.Node, path: str, *, symbolic: bool = False) -> Any:
        return self.rational(node, path, "a probability", 0, 1, symbolic=symbolic)

    def delta(self, node: yaml.Node, path: str, *, symbolic: bool = False) -> Any:
        return self.rational(node, path, "delta", 0, 1, symbolic=symbolic)

    def eps(self, node: yaml.Node, path: str, *, allow_inf: bool = False, symbolic: bool = False) -> Any:
        """An ε-type value ≥ 0: a rational, ``log(r)`` (r ≥ 1), a sum of both, or ``inf``;
        with ``symbolic``, also an expression in the declared symbols such as ``log(E)``."""
        v = self.value(node, path, "eps")
        if v is INVALID:
            return INVALID
        if is_sym(v):
            lam = sympy.exp(v)
            if lam.is_rational_function(*lam.free_symbols):  # eps = log(E): prove E >= 1 instead
                ok = self._symbolic_ok(node, path, "e^eps", lam, symbolic, Q(1))
                return v if ok is not INVALID else INVALID
            return self._symbolic_ok(node, path, "eps", v, symbolic, Q(0))
        if isinstance(v, Infinity):
            return v if allow_inf else self.error(node, path, "eps = inf is not allowed here")
        if not (is_rational(v) or isinstance(v, LogReal)):
            return self.error(
                node,
                path,
                f"eps must be a real number such as log(3) or 1/10, found {real_str(v)}",
                "eps is the exponent: write eps: log(3) for e^eps = 3",
            )
        if real_sign(v) < 0:
            return self.error(node, path, f"eps must be >= 0, found {real_str(v)}")
        return as_q(v) if is_rational(v) else v

    def exp_eps_rational(self, node: yaml.Node, path: str, eps: Any, form: str) -> Any:
        """e^ε for a mechanism's parameter: a rational for ``log(r)``; for a decimal ε an exact
        element of ℚ(e^{1/L}) (see :mod:`exactdp.numbers.qt`), which the engines accept; for a
        symbolic ε such as ``log(E)``, a rational function of the symbols that is ≥ 1.

        Decimal ε's of one case share one field: values with denominators L₁, L₂ combine in
        ℚ(e^{1/lcm(L₁, L₂)}), so the common L of a case is the lcm of its ε denominators."""
        if is_sym(eps):
            lam = sympy.exp(eps)
            if not lam.is_rational_function(*self.symtab.symbols.values()):
                return self.error(
                    node, path, f"{form}: e^eps = {lam} is not a rational function of the symbols",
                    "declare E = e^eps as the symbol (`symbols: {E: {gt: 1}}`) and write eps: log(E)",
                )
            if not prove_nonneg(lam - 1, self.symtab):
                return self.error(node, path, f"{form}: could not prove e^eps = {lam} >= 1 under the declared bounds",
                                  "tighten the bounds under `symbols:`")
            return lam
        lam = real_exp(eps)
        if isinstance(lam, ExpReal):
            try:
                return as_field(lam)
            except InexactValueError as e:
                return self.error(node, path, f"{form}: eps = {real_str(eps)}: {e}", "write eps as log(r), e.g. eps: log(11/10)")
        return lam

    def exp_eps_strictly_rational(self, node: yaml.Node, path: str, eps: Any, form: str) -> Any:
        """e^ε as an exact rational, for forms whose builders need rational weights; a decimal ε
        (e^ε transcendental) is refused with a clear message instead of being approximated."""
        lam = self.exp_eps_rational(node, path, eps, form)
        if lam is INVALID or is_rational(lam):
            return lam
        return self.error(
            node,
            path,
            f"{form}: eps = {real_str(eps)} makes e^eps transcendental; {form} needs e^eps rational",
            "write eps as log(r), e.g. eps: log(16); exact decimal eps is supported by rr and the engines, not yet here",
        )

    def count(self, node: yaml.Node, path: str, what: str, lo: int = 0, hi: int | None = None) -> Any:
        v = self.value(node, path, what)
        if v is INVALID:
            return INVALID
        if is_sym(v):
            return self._symbolic_ok(node, path, what, v, False)
        if not is_rational(v) or as_q(v).denominator != 1:
            return self.error(node, path, f"{what} must be a whole number, found {real_str(v)}")
        n = int(as_q(v))
        if n < lo or (hi is not None and n > hi):
            rng = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            return self.error(node, path, f"{what} must be {rng}, found {n}")
        return n

    def privloss_value(self, node: yaml.Node, path: str) -> Any:
        return self.eps(node, path, allow_inf=True)


def _rational_hint(v: Any) -> str | None:
    if isinstance(v, LogReal):
        return "log(...) is an eps-type value; probabilities and delta are plain fractions such as 1/4"
    if isinstance(v, ExpReal):
        return "exp of a rational is transcendental; use exp(log(r)) or a fraction"
    if isinstance(v, Infinity):
        return "inf is only allowed as a claimed privacy loss"
    return None

