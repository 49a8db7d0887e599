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

import itertools
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import InexactValueError, LimitExceededError
from ..lazy import flint
from ..limits import check_bits
from ..limits import current as current_limits
from . import ladder
from .descartes import descartes_on
from .expr import ExprError, ExprLimits
from .rational import Q, q_short, to_fraction
from .roots import check_exponent

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
    "sym_size",
]


class _LazySympy:
    """SymPy, imported on first use: numeric cases never pay for importing it."""

    def __getattr__(self, name: str):
        import sympy as _sympy

        globals()["sympy"] = _sympy
        return getattr(_sympy, name)


if TYPE_CHECKING:  # pragma: no cover - the type checker sees the module itself
    import sympy
else:  # SymPy is imported lazily at run time (it is heavy)
    sympy = _LazySympy()


def is_sym(x: object) -> bool:
    """True for a SymPy object (the ladder's ``SYM`` rung), without importing SymPy."""
    mod = sys.modules.get("sympy")
    return mod is not None and isinstance(x, mod.Basic)


POS = frozenset({1})
NONNEG = frozenset({0, 1})
_ALL = frozenset({-1, 0, 1})
MAX_UNBOUNDED = 6  # unbounded symbols split by sign: 3^6 = 729 cases at most, else "unknown"


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
            parts.append(f"{self.name} {'>=' if self.lo_closed else '>'} {q_short(self.lo)}")
        if self.hi is not None:
            parts.append(f"{self.name} {'<=' if self.hi_closed else '<'} {q_short(self.hi)}")
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
    def build(bounds: list[SymbolBounds]) -> SymbolTable:
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
    """An exact exactdp value as a SymPy expression (rationals, log, exp kept exact); ∞ is an
    :class:`~exactdp.errors.InexactValueError` (see :func:`exactdp.numbers.ladder.to_sympy`)."""
    return ladder.to_sympy(x)


def sym_evaluate(ast: tuple, lookup: Callable[[str], Any], limits: ExprLimits = ExprLimits()) -> sympy.Expr:
    """Evaluate a parsed expression of our grammar into SymPy; names resolve through ``lookup``
    (declared symbols give SymPy symbols, params give their values).

    Every intermediate result is bounded: a power of plain numbers is computed by
    :func:`~exactdp.numbers.ladder.power` (the exponent and size limits, exact roots only), a
    symbol may only be raised to an integer power, and the degree and coefficient size of each
    result are bounded (``max_symbolic_degree``, ``max_bits``) before SymPy expands anything.

    Raises :class:`ExprError` (with the column) for division by an expression that is
    identically zero, ``inf`` inside arithmetic and values beyond the limits.
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
                return _bounded(sympy.log(arg), node[3])
            return _bounded(sympy.exp(arg), node[3])
        if kind == "bin":
            op, a, b, col = node[1], ev(node[2]), ev(node[3]), node[4]
            if op == "^":
                return _sym_pow(a, b, col, limits)
            if op == "/" and sympy.cancel(b) == 0:
                raise ExprError("division by zero", col)
            r = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a / b
            return _bounded(r, col)
        raise AssertionError(kind)  # pragma: no cover

    return ev(ast)


def _sym_pow(a: sympy.Expr, b: sympy.Expr, col: int, limits: ExprLimits) -> sympy.Expr:
    """a^b under the same limits as plain numbers; never a power SymPy would take long over."""
    if b.free_symbols:
        raise ExprError(
            "an exponent cannot contain a symbol (the value would not be a rational function of the symbols)", col
        )
    if not b.is_Rational:
        raise ExprError("an exponent must be a rational number here", col)
    if not a.free_symbols and a.is_Rational:  # plain numbers: exactly as in exactdp.numbers.expr
        try:
            check_exponent(int(b.p), limits.max_exponent)
            return to_sympy(ladder.power(Q(int(a.p), int(a.q)), Q(int(b.p), int(b.q))))
        except (InexactValueError, LimitExceededError) as e:
            raise ExprError(str(e), col) from None
    if not b.is_Integer:
        raise ExprError("a symbolic value raised to a non-integer power has no exact rational form here", col)
    cap = min(current_limits().max_symbolic_degree, limits.max_exponent) if a.free_symbols else limits.max_exponent
    if abs(int(b)) > cap:
        raise ExprError(
            f"exponent {q_short(int(b))} is too large for a symbolic expression (the limit is {cap}; "
            "raise it with --max-symbolic-degree)",
            col,
        )
    return _bounded(a**b, col)


def _bounded(e: sympy.Expr, col: int) -> sympy.Expr:
    """``e`` itself when its degree and coefficient size are within the limits."""
    degree, bits = sym_size(e)
    lim = current_limits()
    if degree > lim.max_symbolic_degree:
        raise ExprError(
            f"a rational function of the symbols of degree up to {degree} exceeds the limit of "
            f"{lim.max_symbolic_degree}; raise it with --max-symbolic-degree N",
            col,
        )
    try:
        check_bits(bits, "a symbolic expression whose coefficients have")
    except LimitExceededError as err:
        raise ExprError(str(err), col) from None
    return e


def check_sym_degree(e: sympy.Expr, what: str) -> sympy.Expr:
    """``e`` itself when its degree in the symbols (bounded as :func:`sym_size` does, without
    expanding) is within ``max_symbolic_degree``; else the named limit, before anything uses it."""
    degree = sym_size(e)[0]
    cap = current_limits().max_symbolic_degree
    if degree > cap:
        raise LimitExceededError(
            f"{what} of degree {degree} in the symbols", cap, "raise it with --max-symbolic-degree N"
        )
    return e


def sym_size(e: sympy.Expr) -> tuple[int, int]:
    """Upper bounds (degree, bits) of a SymPy expression, without expanding it: degrees add
    in products, multiply in integer powers, and take the max in sums; bits add in sums and
    products and multiply in powers.  Iterative, memoised on shared sub-expressions."""
    memo: dict = {}
    stack: list = [e]
    while stack:
        x = stack[-1]
        if x in memo:
            stack.pop()
            continue
        pending = [a for a in x.args if a not in memo]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        memo[x] = _size_of(x, [memo[a] for a in x.args])
    return memo[e]


def _size_of(x: sympy.Expr, kids: list) -> tuple[int, int]:
    if x.is_Rational:
        return 0, max(abs(int(x.p)).bit_length(), int(x.q).bit_length())
    if x.is_Symbol:
        return 1, 0
    if x.is_Add:
        return max(d for d, _ in kids), sum(b for _, b in kids) + len(kids)
    if x.is_Mul:
        return sum(d for d, _ in kids), sum(b for _, b in kids)
    if x.is_Pow and x.exp.is_Integer:
        k = abs(int(x.exp))
        return k * kids[0][0], k * kids[0][1]
    # log, exp, a non-integer power: an opaque value, of degree 1 if it depends on a symbol
    return (1 if x.free_symbols else 0), sum(b for _, b in kids)


def _sstr(e: sympy.Expr) -> str:
    """SymPy's text of ``e``, with e written exp(1): SymPy writes it E, which reads as the symbol
    E that case files usually declare (e^eps)."""

    class _Printer(sympy.printing.str.StrPrinter):  # (SymPy loads with the first symbolic value)
        def _print_Exp1(self, expr: Any) -> str:
            return "exp(1)"

    return _Printer().doprint(e)


def expr_str(e: sympy.Expr) -> str:
    """Readable text of a rational function: factored, ``^`` for powers, no floats."""
    e = sympy.factor(sympy.cancel(e)) if e.free_symbols else exact_constant(e)
    try:
        return _sstr(e).replace("**", "^")
    except ValueError:  # an integer beyond Python's 4300-digit limit for str(): shown cut
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            text = _sstr(e).replace("**", "^")
        finally:
            sys.set_int_max_str_digits(old)
        return re.sub(r"\d{41,}", lambda m: f"{m.group(0)[:20]}…{m.group(0)[-10:]} ({len(m.group(0))} digits)", text)


def is_transcendental(expr: Any) -> bool:
    """Whether a SymPy value mentions a logarithm, an exponential or e (so it is no rational
    function of the symbols, and no rational)."""
    return any(node is sympy.E or isinstance(node, (sympy.log, sympy.exp)) for node in sympy.preorder_traversal(expr))


def exact_constant(e: sympy.Expr) -> sympy.Expr:
    """A constant expression simplified *exactly*: a SymPy ``Rational`` when it is one.

    Rational arithmetic on rationals gives a rational already; ``cancel`` normalises what
    SymPy left unevaluated (e.g. a quotient of sums).  Never ``nsimplify``: it rounds through
    floating point and can turn an exact rational into an irrational expression.
    """
    if e.is_Rational:
        return e
    if e.is_rational_function() and not is_transcendental(e):  # log(2)^2/2 stays as written
        return sympy.cancel(sympy.together(e))
    return e


# --- sign proofs -----------------------------------------------------------------------------


def _const_sign(v: sympy.Expr) -> frozenset:
    """The sign of a constant, exactly: decided for rationals only, otherwise unknown (a
    transcendental constant would need certified arithmetic, and is never guessed)."""
    v = sympy.cancel(v) if not v.is_Rational else v
    if v.is_Rational:
        n = int(v.p)
        return frozenset({(n > 0) - (n < 0)})
    return _ALL


def _domain_rational(c: object) -> sympy.Expr:
    """A coefficient of a polynomial domain (ZZ/QQ element) as a SymPy Rational; anything else
    is left unknown (a NaN sign set)."""
    num, den = getattr(c, "numerator", None), getattr(c, "denominator", None)
    if num is None or den is None:
        return sympy.nan
    return sympy.Rational(int(num), int(den))


def _poly_sign(p: sympy.Poly) -> frozenset:
    """Signs a polynomial can take for positive values of its generators (sufficient test:
    all coefficients of one sign)."""
    if p.is_zero:
        return frozenset({0})
    signs: set[int] = set()
    for c in p.coeffs():
        cs = _const_sign(c)
        if cs == _ALL:
            return _ALL
        signs |= cs
    signs.discard(0)
    if signs == {1}:
        return POS
    if signs == {-1}:
        return frozenset({-1})
    return _ALL


def _factored_sign(expr: sympy.Expr, gens: list) -> frozenset:
    """Signs of a polynomial in the positive variables ``gens``: by coefficient signs, else
    factor by factor (a univariate factor by a Sturm count of its roots in t > 0, an even power
    is ≥ 0)."""
    if not gens:
        return _const_sign(expr)
    poly = sympy.Poly(expr, *gens)
    s = _poly_sign(poly)
    if s != _ALL:
        return s
    const, factors = sympy.factor_list(poly)
    out = _const_sign(const if isinstance(const, sympy.Basic) else _domain_rational(const))
    for f, m in factors:
        fp = sympy.Poly(f, *gens)
        fs = _poly_sign(fp)
        free = fp.free_symbols & set(gens)
        if fs == _ALL and len(free) == 1:  # univariate: Sturm count of roots in t > 0
            g = next(iter(free))
            up = sympy.Poly(fp.as_expr(), g)
            if up.domain.is_QQ or up.domain.is_ZZ:
                at0 = up(0)
                if up.count_roots(0) - (1 if at0 == 0 else 0) == 0:
                    fs = _const_sign(up(1))
        if fs == _ALL and m % 2 == 0:
            fs = NONNEG
        elif m % 2 == 0:
            fs = frozenset({x * x for x in fs})
        out = frozenset({a * b for a in out for b in fs})
    return out


def _orthant_sign(e: sympy.Expr, ts: list) -> frozenset:
    """Signs of a rational function of the positive variables ``ts``."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    present = num.free_symbols | den.free_symbols
    gens = [t for t in ts if t in present]
    if present - set(gens):  # a symbol left unsubstituted: no proof
        return _ALL
    ns = _factored_sign(num, gens)
    ds = _factored_sign(den, gens)
    if 0 in ds:
        return _ALL
    return frozenset({a * b for a in ns for b in ds})


def _open_box_sign(expr: sympy.Expr, table: SymbolTable, syms: list) -> frozenset:
    """Signs of ``expr`` on the open box of the declared bounds.

    Each symbol becomes a positive variable t: x = lo + t, x = hi − t, x = (lo + hi·t)/(1 + t),
    each a bijection of t > 0 onto the symbol's open range.  An unbounded symbol ranges over
    x > 0, x < 0 and x = 0: x = t, x = −t and x = 0, and *every* combination of these cases
    over *all* unbounded symbols is proved (3^k cases for k of them; beyond
    :data:`MAX_UNBOUNDED` the answer is "unknown").  The union of the cases' sign sets is
    therefore a sound answer on the whole box.
    """
    subs: dict = {}
    ts: list = []
    free: list = []
    for i, sym in enumerate(syms):
        b = table.bound_of(sym)
        t = sympy.Symbol(f"_t{i}", positive=True)
        ts.append(t)
        if b.lo is not None and b.hi is not None:
            lo, hi = sympy.Rational(*_nd(b.lo)), sympy.Rational(*_nd(b.hi))
            subs[sym] = (lo + hi * t) / (1 + t)
        elif b.lo is not None:
            subs[sym] = sympy.Rational(*_nd(b.lo)) + t
        elif b.hi is not None:
            subs[sym] = sympy.Rational(*_nd(b.hi)) - t
        else:
            free.append((sym, t))
    if len(free) > MAX_UNBOUNDED:
        return _ALL
    out: frozenset = frozenset()
    for signs in itertools.product((1, -1, 0), repeat=len(free)):
        case = dict(subs)
        for (sym, t), sg in zip(free, signs):
            case[sym] = sg * t if sg else sympy.Integer(0)
        out |= _orthant_sign(expr.subs(case, simultaneous=True), ts)
        if out == _ALL:
            return _ALL
    return out


def sign_set(expr: sympy.Expr, table: SymbolTable, _after: str | None = None) -> frozenset:
    """The set of signs (−1, 0, +1) that ``expr`` may take on the declared domain; a superset
    of the truth (a sign not in the set is proved impossible at every point of the domain).
    ``{-1, 0, 1}`` means unknown ("undecided").

    The open box, then each face of the closed bounds once: a face fixes symbols in name order
    (``_after``: the last one fixed), so k symbols with two closed ends have 3^k faces, not the
    2^k·k! of every order; beyond the ``max_cells`` limit the faces are refused before any is
    examined."""
    if not expr.is_rational_function(*expr.free_symbols):
        return _log_sum_sign(expr, table)
    expr = sympy.cancel(sympy.together(expr))
    syms = sorted(expr.free_symbols, key=lambda s: s.name)
    if not syms:
        return _const_sign(expr)
    if _after is None:
        _check_faces(syms, table)
    if len(syms) == 1 and (fast := _univariate_signs(expr, syms[0], table, _after)) is not None:
        return fast
    out = _open_box_sign(expr, table, syms)
    for s in syms:  # closed bounds: the boundary faces, recursively
        if _after is not None and s.name <= _after:
            continue
        b = table.bound_of(s)
        for val, closed in ((b.lo, b.lo_closed), (b.hi, b.hi_closed)):
            if val is None or not closed:
                continue
            num, den = sympy.fraction(sympy.cancel(expr))
            r = sympy.Rational(*_nd(val))
            face = sympy.expand(den.subs(s, r))
            # undefined somewhere on the face (s2/(s0 + s2) at s0 = s2 = 0): no sign is proved;
            # the face's own expression would cancel the common factor and hide that point
            if face == 0 or 0 in sign_set(face, table):
                return _ALL
            out |= sign_set(expr.subs(s, r), table, s.name)
    return out


def _univariate_signs(expr: sympy.Expr, sym: sympy.Symbol, table: SymbolTable, after: str | None) -> frozenset | None:
    """The signs of a rational function of one symbol on its declared range, when neither its
    numerator nor its denominator has a root inside (Descartes' rule of signs, on FLINT
    polynomials: fast at high degree), from one inner point and the closed ends not fixed
    before (``after``, see :func:`sign_set`); None when that does not settle it."""
    num, den = sympy.fraction(expr)
    try:
        polys = [sympy.Poly(x, sym) for x in (num, den)]
    except sympy.PolynomialError:
        return None
    if not all(p.domain.is_ZZ or p.domain.is_QQ for p in polys):
        return None
    fs = [flint.fmpq_poly([flint.fmpq(int(c.p), int(c.q)) for c in reversed(p.all_coeffs())]) for p in polys]
    zs = [f.numer() for f in fs]  # (a positive multiple: the same roots and signs)
    b = table.bound_of(sym)
    lo, hi = (None if v is None else flint.fmpq(*_nd(v)) for v in (b.lo, b.hi))
    if lo is not None and hi is not None and not lo < hi:
        return None
    if any(z.degree() > 0 and descartes_on(z, lo, hi) != 0 for z in zs):
        return None
    inner = flint.fmpq(*_nd(b.sample()))  # (inside the range; no root of either is there)
    points = [inner] + [
        v
        for v, closed in ((lo, b.lo_closed), (hi, b.hi_closed))
        if v is not None and closed and (after is None or sym.name > after)
    ]
    out = set()
    for x in points:
        n, d = (f(x) for f in fs)
        if d == 0:
            return None
        out.add(((n > 0) - (n < 0)) * ((d > 0) - (d < 0)))
    return frozenset(out)


def _check_faces(syms: list, table: SymbolTable) -> None:
    """Refuse, under the ``max_cells`` limit, a closed box with too many faces to examine."""
    faces = 1
    for s in syms:
        b = table.bound_of(s)
        faces *= 1 + (b.lo is not None and b.lo_closed) + (b.hi is not None and b.hi_closed)
    cap = current_limits().max_cells
    if faces > cap:
        raise LimitExceededError(
            f"proving a sign on the closed bounds of {len(syms)} symbols: {faces} faces",
            cap,
            "raise it with --max-cells N",
        )


def _log_sum_sign(expr: sympy.Expr, table: SymbolTable) -> frozenset:
    """Signs of q + Σ cᵢ·log(Rᵢ) (rational q and cᵢ, rational functions Rᵢ): where every Rᵢ > 0 is
    proved, the term cᵢ·log(Rᵢ) has the sign of cᵢ·(Rᵢ − 1), and a sum whose terms all have
    one sign has it too (``3*log(E)/2 >= 0`` for E > 1).  Terms of both signs, or any other
    transcendental expression: unknown."""
    terms = []
    for t in sympy.Add.make_args(sympy.expand(expr)):
        c, rest = t.as_coeff_Mul()
        if rest == 1:
            terms.append(_const_sign(c))
            continue
        if not (c.is_Rational and isinstance(rest, sympy.log)):
            return _ALL
        R = rest.args[0]
        if not R.is_rational_function(*R.free_symbols) or sign_set(R, table) != frozenset({1}):
            return _ALL
        side = sign_set(R - 1, table)
        terms.append(frozenset(int(sympy.sign(c)) * x for x in side))
    for sg in (1, -1):
        if all(t <= {0, sg} for t in terms):
            return frozenset({sg}) if any(t == {sg} for t in terms) else frozenset({0}).union(*terms)
    return _ALL


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
