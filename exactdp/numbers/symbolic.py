r"""Symbolic exact numbers: declared real symbols with bounds, our grammar evaluated into SymPy,
and sign proofs for rational functions on the box the bounds describe.

A case may declare ``symbols: {E: {gt: 1}, p: {gt: 0, lt: 1}}``.  A number that mentions a
symbol is then evaluated from the syntax tree of *our own* grammar (:mod:`exactdp.numbers.expr`)
into SymPy objects — never through ``sympify`` or SymPy's parser.

Sign proofs (:func:`sign_set`) are sufficient, never heuristic: every symbol is replaced by a
positive variable t (``x = lo + t``, ``x = hi - t`` or ``x = (lo + hi t)/(1 + t)``), so that the
question becomes the sign of a rational function of positive variables; a polynomial factor
whose coefficients all have one sign has that sign, an even power is ≥ 0, and anything else is
reported as unknown (the caller then states the condition that remains).  Closed bounds are
handled by also proving the statement on the boundary (the symbol set to its bound).

References
----------
Pólya's sufficient condition for positivity on the orthant (coefficient signs).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

if TYPE_CHECKING:  # pragma: no cover - SymPy is imported lazily at run time (it is heavy)
    import sympy

from ..errors import InexactValueError
from .expr import ExprError, ExprLimits
from .rational import Q, is_rational, q_str, to_fraction
from .real import ExpReal, Infinity, LogReal

__all__ = [
    "SymbolBounds",
    "SymbolTable",
    "is_symbolic",
    "to_sympy",
    "sym_evaluate",
    "sign_set",
    "prove_nonneg",
    "prove_nonzero",
    "expr_str",
    "POS",
    "NONNEG",
    "is_sym",
    "exact_constant",
]

class _LazySympy:
    """SymPy, imported on first use: numeric cases never pay for importing it."""

    def __getattr__(self, name: str):
        import sympy as _sympy

        globals()["sympy"] = _sympy
        return getattr(_sympy, name)


sympy = _LazySympy()


def is_sym(x: object) -> bool:
    """True for a SymPy object, without importing SymPy (none exists before it is imported)."""
    mod = sys.modules.get("sympy")
    return mod is not None and isinstance(x, mod.Basic)


POS = frozenset({1})
NONNEG = frozenset({0, 1})
_ALL = frozenset({-1, 0, 1})
MAX_SYMBOLIC_EXPONENT = 200


@dataclass(frozen=True)
class SymbolBounds:
    """A declared real symbol and its optional bounds (rationals; ``*_closed`` for ge/le)."""

    name: str
    lo: Any = None
    lo_closed: bool = False
    hi: Any = None
    hi_closed: bool = False

    def describe(self) -> str:
        parts = []
        if self.lo is not None:
            parts.append(f"{self.name} {'>=' if self.lo_closed else '>'} {q_str(self.lo)}")
        if self.hi is not None:
            parts.append(f"{self.name} {'<=' if self.hi_closed else '<'} {q_str(self.hi)}")
        return " and ".join(parts) if parts else f"{self.name} real"

    def contains(self, v: Any) -> bool:
        if self.lo is not None and (v < self.lo or (v == self.lo and not self.lo_closed)):
            return False
        if self.hi is not None and (v > self.hi or (v == self.hi and not self.hi_closed)):
            return False
        return True

    def sample(self) -> Any:
        """An interior rational, deliberately not a 'round' number (avoids degenerate points)."""
        if self.lo is not None and self.hi is not None:
            return Q(self.lo) + (Q(self.hi) - Q(self.lo)) * Q(37, 100)
        if self.lo is not None:
            return Q(self.lo) + Q(17, 10)
        if self.hi is not None:
            return Q(self.hi) - Q(17, 10)
        return Q(3, 7)


@dataclass(frozen=True)
class SymbolTable:
    """The symbols a case declares, in declaration order."""

    bounds: tuple[SymbolBounds, ...] = ()
    symbols: dict = field(default_factory=dict, compare=False)

    @staticmethod
    def build(bounds: list[SymbolBounds]) -> "SymbolTable":
        syms = {}
        for b in bounds:
            kw = {"real": True}
            if b.lo is not None and (b.lo > 0 or (b.lo == 0 and not b.lo_closed)):
                kw["positive"] = True
            syms[b.name] = sympy.Symbol(b.name, **kw)
        return SymbolTable(tuple(bounds), syms)

    def __bool__(self) -> bool:
        return bool(self.bounds)

    def bound_of(self, sym: sympy.Symbol) -> SymbolBounds:
        for b in self.bounds:
            if self.symbols[b.name] == sym:
                return b
        return SymbolBounds(str(sym))

    def sample_point(self) -> dict:
        return {self.symbols[b.name]: sympy.Rational(*_nd(b.sample())) for b in self.bounds}

    def describe(self) -> str:
        return ", ".join(b.describe() for b in self.bounds)


def _nd(q: Any) -> tuple[int, int]:
    f = to_fraction(q)
    return f.numerator, f.denominator


def is_symbolic(x: Any) -> bool:
    """True for a SymPy expression that still contains a free symbol."""
    return is_sym(x) and bool(x.free_symbols)


def to_sympy(x: Any) -> sympy.Expr:
    """An exact exactdp value as a SymPy expression (rationals, log, exp kept exact)."""
    if is_sym(x):
        return x
    if is_rational(x):
        return sympy.Rational(*_nd(x))
    if isinstance(x, LogReal):
        return sympy.Rational(*_nd(x.s)) + sympy.log(sympy.Rational(*_nd(x.r)))
    if isinstance(x, ExpReal):
        return sympy.Rational(*_nd(x.r)) * sympy.exp(sympy.Rational(*_nd(x.s)))
    if isinstance(x, Infinity):
        raise InexactValueError("inf cannot take part in a symbolic expression")
    raise TypeError(f"not an exact value: {x!r}")


def sym_evaluate(ast: tuple, lookup: Callable[[str], Any], limits: ExprLimits = ExprLimits()) -> sympy.Expr:
    """Evaluate a parsed expression of our grammar into SymPy; names resolve through ``lookup``
    (declared symbols give SymPy symbols, params give their values).

    Raises :class:`ExprError` (with the column) for division by an expression that is
    identically zero, ``inf`` inside arithmetic and over-large exponents.
    """

    def ev(node: tuple) -> sympy.Expr:
        kind = node[0]
        if kind == "num":
            return to_sympy(node[1])
        if kind == "inf":
            raise ExprError("inf cannot appear in an expression with symbols", node[1])
        if kind == "name":
            try:
                v = lookup(node[1])
            except ExprError as e:
                raise ExprError(e.message, e.column or node[2], e.hint) from None
            try:
                return to_sympy(v)
            except InexactValueError as e:
                raise ExprError(str(e), node[2]) from None
        if kind == "neg":
            return -ev(node[1])
        if kind == "call":
            arg = ev(node[2])
            if node[1] == "log":
                if arg.is_nonpositive:
                    raise ExprError("log of a non-positive number", node[3])
                return sympy.log(arg)
            return sympy.exp(arg)
        if kind == "bin":
            op, a, b, col = node[1], ev(node[2]), ev(node[3]), node[4]
            if op == "+":
                return a + b
            if op == "-":
                return a - b
            if op == "*":
                return a * b
            if op == "/":
                if sympy.cancel(b) == 0:
                    raise ExprError("division by zero", col)
                return a / b
            if b.is_Integer and abs(int(b)) > min(MAX_SYMBOLIC_EXPONENT, limits.max_exponent) and a.free_symbols:
                raise ExprError(f"exponent {b} is too large for a symbolic expression", col)
            return a**b
        raise AssertionError(kind)  # pragma: no cover

    return ev(ast)


def expr_str(e: sympy.Expr) -> str:
    """Readable text of a rational function: factored, ``^`` for powers, no floats."""
    e = sympy.factor(sympy.cancel(e)) if e.free_symbols else exact_constant(e)
    return sympy.sstr(e).replace("**", "^")


def exact_constant(e: sympy.Expr) -> sympy.Expr:
    """A constant expression simplified *exactly*: a SymPy ``Rational`` when it is one.

    Rational arithmetic on rationals gives a rational already; ``cancel`` normalises what
    SymPy left unevaluated (e.g. a quotient of sums).  Never ``nsimplify``: it rounds through
    floating point and can turn an exact rational into an irrational expression.
    """
    if e.is_Rational:
        return e
    if e.is_rational_function():
        return sympy.cancel(sympy.together(e))
    return e


# --- sign proofs -----------------------------------------------------------------------------


def _sgn(v) -> int:
    """The sign of an exact rational constant (never decided through floating point)."""
    v = exact_constant(v)
    if not v.is_Rational:
        raise InexactValueError(f"the sign of {v} is not a rational sign decision")
    return (v.p > 0) - (v.p < 0)


def _poly_sign(p: sympy.Poly) -> frozenset:
    """Signs a polynomial can take for positive values of its generators."""
    if p.is_zero:
        return frozenset({0})
    cs = [c for c in p.coeffs() if c != 0]
    if all(bool(c > 0) for c in cs):
        return POS
    if all(bool(c < 0) for c in cs):
        return frozenset({-1})
    return _ALL


def _assumed_sign(expr: sympy.Expr) -> frozenset:
    """Signs of an expression with no generator to expand in: an exact rational's own sign, or
    what SymPy's assumptions prove about its (positive) symbols; unknown otherwise."""
    v = exact_constant(expr)
    if v.is_Rational:
        return frozenset({_sgn(v)})
    if not v.free_symbols:
        return _ALL  # an irrational constant: no float-based sign decision here
    for sign, holds in ((1, v.is_positive), (-1, v.is_negative), (0, v.is_zero)):
        if holds:
            return frozenset({sign})
    return _ALL


def _factored_sign(expr: sympy.Expr, gens: list) -> frozenset:
    if not gens:
        return _assumed_sign(expr)
    poly = sympy.Poly(expr, *gens)
    s = _poly_sign(poly)
    if s != _ALL:
        return s
    const, factors = sympy.factor_list(poly)
    out = frozenset({_sgn(const)})
    for f, m in factors:
        fp = sympy.Poly(f, *gens)
        fs = _poly_sign(fp)
        if fs == _ALL and len(f.free_symbols) == 1:  # univariate: Sturm count of roots in t > 0
            g = next(iter(f.free_symbols))
            up = sympy.Poly(f, g)
            if up.count_roots(0) - (1 if up(0) == 0 else 0) == 0:
                fs = frozenset({_sgn(up(1))})
        if fs == _ALL and m % 2 == 0:
            fs = NONNEG
        elif m % 2 == 0:
            fs = frozenset({x * x for x in fs})
        out = frozenset({a * b for a in out for b in fs})
    return out


def _open_box_sign(expr: sympy.Expr, table: SymbolTable, syms: list) -> frozenset:
    subs, ts, splits = {}, [], []
    for i, s in enumerate(syms):
        b = table.bound_of(s)
        t = sympy.Symbol(f"_t{i}", positive=True)
        if b.lo is not None and b.hi is not None:
            lo, hi = sympy.Rational(*_nd(b.lo)), sympy.Rational(*_nd(b.hi))
            subs[s] = (lo + hi * t) / (1 + t)
        elif b.lo is not None:
            subs[s] = sympy.Rational(*_nd(b.lo)) + t
        elif b.hi is not None:
            subs[s] = sympy.Rational(*_nd(b.hi)) - t
        else:
            splits.append((s, t))
            subs[s] = t
        ts.append(t)
    if splits:  # an unbounded symbol: x > 0, x < 0 and x = 0 separately
        s, t = splits[0]
        out: frozenset = frozenset()
        for val in (t, -t, sympy.Integer(0)):
            out |= _open_box_sign(expr.subs(s, val).subs({k: v for k, v in subs.items() if k != s}), table, [])
            if out == _ALL:
                return out
        rest = [x for x in syms if x != s]
        return out if not rest else _ALL if out == _ALL else out  # conservative for several unbounded
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr.subs(subs))))
    gens = [t for t in ts if t in num.free_symbols | den.free_symbols]
    ns = _factored_sign(num, gens)
    ds = _factored_sign(den, gens)
    if 0 in ds:
        return _ALL
    return frozenset({a * b for a in ns for b in ds})


def sign_set(expr: sympy.Expr, table: SymbolTable) -> frozenset:
    """The set of signs (−1, 0, +1) that ``expr`` may take on the declared domain; a subset
    of the truth (a sign not in the set is proved impossible).  ``{-1, 0, 1}`` means unknown."""
    if not expr.is_rational_function(*expr.free_symbols):
        return _ALL
    expr = sympy.cancel(sympy.together(expr))
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    if not syms:
        v = exact_constant(expr)
        return frozenset({_sgn(v)}) if v.is_Rational else _ALL
    out = _open_box_sign(expr, table, syms)
    for s in syms:  # closed bounds: the boundary faces, recursively
        b = table.bound_of(s)
        for val, closed in ((b.lo, b.lo_closed), (b.hi, b.hi_closed)):
            if val is None or not closed:
                continue
            num, den = sympy.fraction(sympy.cancel(expr))
            r = sympy.Rational(*_nd(val))
            if sympy.cancel(den.subs(s, r)) == 0:
                return _ALL
            out |= sign_set(expr.subs(s, r), table)
    return out


def prove_nonneg(expr: sympy.Expr, table: SymbolTable) -> bool:
    """True when ``expr`` ≥ 0 is proved for every value of the symbols allowed by the bounds."""
    return -1 not in sign_set(expr, table)


def prove_nonzero(expr: sympy.Expr, table: SymbolTable) -> bool:
    return 0 not in sign_set(expr, table)


def substitute(expr: Any, point: Mapping) -> Any:
    """The exact rational value of ``expr`` at ``point`` ({symbol: Rational}) as ``Q``.

    A rational function at a rational point is a rational: substitution and ``cancel`` give it
    exactly (no rounding anywhere)."""
    v = exact_constant(expr.subs(point)) if is_sym(expr) else expr
    if is_sym(v):
        if not v.is_Rational:
            raise InexactValueError(f"{v} is not rational at {point}")
        return Q(int(v.p), int(v.q))
    return v


__all__.append("substitute")
