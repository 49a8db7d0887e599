r"""Rational functions of the declared symbols, with rational coefficients (python-flint).

A :class:`RatFun` is num/den with num, den ∈ ℚ[x₁, …, x_k] (flint ``fmpq_mpoly``) in lowest
terms, den monic: that normal form makes equality and hashing structural.  The parametric
engines compute with these in their hot loops; SymPy is used only to read the values of a case
file (:meth:`Ring.from_sympy`) — never to decide anything.

Degrees are bounded by the ``max_symbolic_degree`` limit (:func:`check_degree`, called by the
engines on what each node of a game produces).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...errors import InexactValueError, LimitExceededError
from ...lazy import flint
from ...limits import current as current_limits
from ...numbers.symbolic import sympy

__all__ = ["Ring", "RatFun", "poly_terms_text", "factored_text", "check_degree"]

_Q = flint.fmpq


class Ring:
    """The symbols of a parametric problem, in a fixed order, and their polynomial context."""

    __slots__ = ("names", "ctx", "_zero", "_one", "_gens")

    def __init__(self, names: Sequence[str]):
        if not names:
            raise ValueError("a ring of rational functions needs at least one symbol")
        self.names = tuple(names)
        self.ctx = flint.fmpq_mpoly_ctx.get(self.names, "lex")
        one = self.ctx.constant(1)
        self._zero = RatFun(self, self.ctx.constant(0), one, normal=True)
        self._one = RatFun(self, one, one, normal=True)
        self._gens = {n: RatFun(self, g, one, normal=True) for n, g in zip(self.names, self.ctx.gens())}

    def __reduce__(self) -> tuple:
        # python-flint's contexts do not pickle: a ring is its names (verdicts cross processes)
        return (Ring, (self.names,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ring) and other.names == self.names

    def __hash__(self) -> int:
        return hash(self.names)

    def __repr__(self) -> str:
        return f"Ring({', '.join(self.names)})"

    @property
    def zero(self) -> RatFun:
        return self._zero

    @property
    def one(self) -> RatFun:
        return self._one

    def gen(self, name: str) -> RatFun:
        return self._gens[name]

    def const(self, q: Any) -> RatFun:
        """A rational constant (int, Fraction, mpq or fmpq)."""
        if isinstance(q, RatFun):
            return q
        if not isinstance(q, flint.fmpq):
            q = _Q(int(q.numerator), int(q.denominator)) if hasattr(q, "numerator") else _Q(q)
        if q == 0:
            return self._zero
        if q == 1:
            return self._one
        return RatFun(self, self.ctx.constant(q), self.ctx.constant(1), normal=True)

    def lift(self, x: Any) -> RatFun:
        """A rational constant, a :class:`RatFun` of this ring, or a SymPy rational function."""
        if isinstance(x, RatFun):
            return x
        if hasattr(x, "free_symbols"):
            return self.from_sympy(x)
        return self.const(x)

    def from_sympy(self, e: Any) -> RatFun:
        """A SymPy rational function of (some of) the ring's symbols, converted exactly.

        Raises
        ------
        InexactValueError
            When ``e`` is not a rational function of the symbols (a log, a root, ...).
        """

        if e.is_Rational:
            return self.const(_Q(int(e.p), int(e.q)))
        unknown = {s.name for s in e.free_symbols} - set(self.names)
        if unknown:
            raise InexactValueError(f"{e} uses symbols {', '.join(sorted(unknown))} that are not declared here")
        gens = [sympy.Symbol(n) for n in self.names]
        subs = {s: sympy.Symbol(s.name) for s in e.free_symbols}  # assumptions do not matter here
        e = e.xreplace(subs)
        if not e.is_rational_function(*gens):
            raise InexactValueError(f"{e} is not a rational function of {', '.join(self.names)}")
        num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
        try:
            return RatFun.make(self, self._poly(num, gens), self._poly(den, gens))
        except sympy.polys.polyerrors.CoercionFailed:  # a coefficient such as 1 + exp(1/10)
            raise InexactValueError(f"{e} has a coefficient that is not rational") from None

    def _poly(self, e: Any, gens: list) -> flint.fmpq_mpoly:

        # only the symbols e uses: SymPy's dense polynomials recurse once per generator (a case
        # declaring thousands of symbols overflowed the stack)
        where = [i for i, g in enumerate(gens) if g in e.free_symbols] or [0]
        p = sympy.Poly(e, *(gens[i] for i in where), domain="QQ")
        terms = {}
        for monom, c in p.terms():
            c = sympy.Rational(c)
            full = [0] * len(gens)
            for i, k in zip(where, monom):
                full[i] = int(k)
            terms[tuple(full)] = _Q(int(c.p), int(c.q))
        return self.ctx.from_dict(terms)


def check_degree(r: RatFun, power: int = 1) -> None:
    """Refuse a rational function whose numerator or denominator has a degree beyond the
    ``max_symbolic_degree`` limit (the engines check what they build, node by node); with
    ``power``, refuse ``r**power`` before it is formed (FLINT aborts the process, uncatchably,
    when a power does not fit in memory)."""
    d = max(r.num.total_degree(), r.den.total_degree()) * abs(power)
    lim = current_limits().max_symbolic_degree
    if d > lim:
        raise LimitExceededError(
            f"a rational function of the symbols of degree {d}", lim, "raise it with --max-symbolic-degree N"
        )


class RatFun:
    """num/den in lowest terms with den monic (so ``==`` and ``hash`` are structural)."""

    __slots__ = ("ring", "num", "den", "_key")

    def __init__(self, ring: Ring, num: flint.fmpq_mpoly, den: flint.fmpq_mpoly, *, normal: bool = False):
        self.ring = ring
        self.num = num
        self.den = den
        self._key: str | None = None
        if not normal:
            self._normalise()

    def __reduce__(self) -> tuple:
        # python-flint's polynomials do not pickle: their terms do (verdicts cross processes)
        return (_ratfun_from_terms, (self.ring, self.num.to_dict(), self.den.to_dict()))

    @classmethod
    def make(cls, ring: Ring, num: flint.fmpq_mpoly, den: flint.fmpq_mpoly) -> RatFun:
        if den.is_zero():
            raise ZeroDivisionError("a rational function with denominator 0")
        return cls(ring, num, den)

    def _normalise(self) -> None:
        num, den = self.num, self.den
        if num.is_zero():
            self.den = self.ring.ctx.constant(1)
            return
        if not den.is_constant():
            g = num.gcd(den)
            if not g.is_one():
                num, den = num / g, den / g
        lc = den.leading_coefficient()
        if lc != 1:
            num, den = num / lc, den / lc
        self.num, self.den = num, den

    # --- structure ---------------------------------------------------------------------------

    @property
    def key(self) -> str:
        """A canonical text of the normal form (the hash key)."""
        if self._key is None:
            self._key = f"{self.num}|{self.den}"
        return self._key

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RatFun):
            return self.num == other.num and self.den == other.den
        return NotImplemented

    def __repr__(self) -> str:
        return f"RatFun({factored_text(self)})"

    def __str__(self) -> str:
        return factored_text(self)

    def is_zero(self) -> bool:
        return self.num.is_zero()

    def is_constant(self) -> bool:
        return self.num.is_constant() and self.den.is_constant()

    def constant(self) -> flint.fmpq:
        """The value of a constant function."""
        if not self.is_constant():
            raise ValueError(f"{self} is not constant")
        if self.num.is_zero():
            return _Q(0)
        return _Q(self.num.leading_coefficient()) / _Q(self.den.leading_coefficient())

    def variables(self) -> tuple[str, ...]:
        """The symbols the function depends on, in ring order."""
        dn, dd = self.num.degrees(), self.den.degrees()
        return tuple(n for n, a, b in zip(self.ring.names, dn, dd) if a > 0 or b > 0)

    # --- arithmetic -------------------------------------------------------------------------

    def _lift(self, other: Any) -> RatFun:
        return other if isinstance(other, RatFun) else self.ring.const(other)

    def __add__(self, other: Any) -> RatFun:
        o = self._lift(other)
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return o
        if self.den == o.den:
            return RatFun(self.ring, self.num + o.num, self.den)
        return RatFun(self.ring, self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self) -> RatFun:
        return RatFun(self.ring, -self.num, self.den, normal=True)

    def __sub__(self, other: Any) -> RatFun:
        o = self._lift(other)
        if o.num.is_zero():
            return self
        if self.num.is_zero():
            return -o
        if self.den == o.den:
            return RatFun(self.ring, self.num - o.num, self.den)
        return RatFun(self.ring, self.num * o.den - o.num * self.den, self.den * o.den)

    def __rsub__(self, other: Any) -> RatFun:
        return self._lift(other) + (-self)

    def __mul__(self, other: Any) -> RatFun:
        o = self._lift(other)
        if self.num.is_zero() or o.num.is_zero():
            return self.ring.zero
        if o.is_one():
            return self
        if self.is_one():
            return o
        return RatFun(self.ring, self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> RatFun:
        o = self._lift(other)
        if o.num.is_zero():
            raise ZeroDivisionError("division by the zero function")
        return RatFun(self.ring, self.num * o.den, self.den * o.num)

    def __rtruediv__(self, other: Any) -> RatFun:
        return self._lift(other) / self

    def __pow__(self, k: int) -> RatFun:
        check_degree(self, k)
        if k < 0:
            return self.ring.one / (self ** (-k))
        return RatFun(self.ring, self.num**k, self.den**k, normal=True) if k else self.ring.one

    def is_one(self) -> bool:
        return self.num == self.den

    # --- evaluation -------------------------------------------------------------------------

    def at(self, point: Mapping[str, Any]) -> flint.fmpq:
        """The exact value at a rational point {name: value} (every symbol it uses given)."""
        try:
            full = [point[n] for n in self.ring.names]
        except KeyError:
            full = None
        if full is not None:
            d = self.den(*full)
            if d == 0:
                raise ZeroDivisionError(f"{self} has a pole at {dict(point)}")
            return _Q(self.num(*full)) / _Q(d)
        vals = [_Q(point[n]) if n in point else None for n in self.ring.names]
        num = self.num
        den = self.den
        subs: dict[str | int, Any] = {n: v for n, v in zip(self.ring.names, vals) if v is not None}
        if subs:
            num, den = num.subs(subs), den.subs(subs)
        if not (num.is_constant() and den.is_constant()):
            raise ValueError(f"{self} needs values for {', '.join(self.variables())}")
        d = _Q(den.leading_coefficient()) if not den.is_zero() else _Q(0)
        if d == 0:
            raise ZeroDivisionError(f"{self} has a pole at {dict(point)}")
        n = _Q(num.leading_coefficient()) if not num.is_zero() else _Q(0)
        return n / d

    def substitute(self, point: Mapping[str, Any]) -> RatFun:
        """Some symbols given rational values (the others stay)."""
        subs: dict[str | int, Any] = {n: _Q(v) for n, v in point.items() if n in self.ring.names}
        if not subs:
            return self
        den = self.den.subs(subs)
        if den.is_zero():
            raise ZeroDivisionError(f"{self} has a pole at {dict(point)}")
        return RatFun(self.ring, self.num.subs(subs), den)

    def to_sympy(self) -> Any:

        syms = [sympy.Symbol(n) for n in self.ring.names]

        def conv(p: flint.fmpq_mpoly) -> Any:
            out = sympy.Integer(0)
            for monom, c in p.to_dict().items():
                term = sympy.Rational(int(c.p), int(c.q))
                for s, k in zip(syms, monom):
                    if k:
                        term *= s ** int(k)
                out += term
            return out

        return conv(self.num) / conv(self.den)


# --- text --------------------------------------------------------------------------------------


def _terms_in_order(p: flint.fmpq_mpoly) -> list:
    """Terms by decreasing degree; if the first coefficient is negative, a positive term is
    moved to the front (``1 - p`` rather than ``-p + 1``)."""
    items = sorted(p.to_dict().items(), key=lambda t: (-sum(t[0]), [-k for k in t[0]]))
    if items and _Q(items[0][1]) < 0:
        pos = next((i for i, t in enumerate(items) if _Q(t[1]) > 0), None)
        if pos is not None:
            items = [items[pos]] + items[:pos] + items[pos + 1 :]
    return items


def _negate_one(sign: str, fs: list) -> tuple[str, list]:
    """A minus sign absorbed into the first factor of multiplicity one with several terms
    (``-(p - 1)`` is written ``(1 - p)``)."""
    if sign != "-":
        return sign, fs
    for i, (f, m) in enumerate(fs):
        if m == 1 and len(f.to_dict()) > 1 and any(_Q(c) < 0 for c in f.to_dict().values()):
            return "", fs[:i] + [(-f, 1)] + fs[i + 1 :]
    return sign, fs


def poly_terms_text(p: flint.fmpq_mpoly, names: Sequence[str]) -> str:
    """An integer-coefficient polynomial as ``9*E^2 - 2*E - 21`` (terms by decreasing degree)."""
    items = _terms_in_order(p)
    parts: list[str] = []
    for monom, c in items:
        mono = "*".join(n if k == 1 else f"{n}^{k}" for n, k in zip(names, monom) if k)
        c = _Q(c)
        mag = -c if c < 0 else c
        cs = str(mag)
        body = (cs if not mono else mono if mag == 1 else f"{cs}*{mono}") if cs else mono
        if not parts:
            parts.append(("-" if c < 0 else "") + body)
        else:
            parts.append(("- " if c < 0 else "+ ") + body)
    return " ".join(parts) if parts else "0"


def _factors(p: flint.fmpq_mpoly) -> tuple[flint.fmpq, list[tuple[flint.fmpq_mpoly, int]]]:
    if p.is_constant():
        return (_Q(p.leading_coefficient()) if not p.is_zero() else _Q(0)), []
    c, fs = p.factor()
    fs = sorted(fs, key=lambda t: (t[0].total_degree(), str(t[0])))
    return _Q(c), fs


def _product_text(c: int, fs: Iterable[tuple[flint.fmpq_mpoly, int]], names: Sequence[str]) -> tuple[str, int]:
    """c·Π f^m as text, and the number of printed factors (for parenthesising)."""
    parts = []
    for f, m in fs:
        t = poly_terms_text(f, names)
        if len(f.to_dict()) > 1:
            t = f"({t})"
        parts.append(t if m == 1 else f"{t}^{m}")
    if c != 1 or not parts:
        parts.insert(0, str(c))
    return "*".join(parts), len(parts)


def factored_text(r: RatFun) -> str:
    """``(E^2 - 2)/(E + 1)^2``: numerator and denominator factored over ℚ, integer constants."""
    if r.num.is_zero():
        return "0"
    cn, fn = _factors(r.num)
    cd, fd = _factors(r.den)
    c = cn / cd
    sign = "-" if c < 0 else ""
    c = -c if c < 0 else c
    sign, fn = _negate_one(sign, fn)
    sign, fd = _negate_one(sign, fd)
    num, _ = _product_text(int(c.p), fn, r.ring.names)
    if not fd and c.q == 1:
        if not sign and c.p == 1 and len(fn) == 1 and fn[0][1] == 1:
            return poly_terms_text(fn[0][0], r.ring.names)
        return sign + num
    den, kd = _product_text(int(c.q), fd, r.ring.names)
    # a/b*c reads as (a/b)*c: only a denominator of several factors needs parentheses
    return f"{sign}{num}/({den})" if kd > 1 else f"{sign}{num}/{den}"


def _poly_latex(p: flint.fmpq_mpoly, names: Sequence[str]) -> str:
    items = _terms_in_order(p)
    parts: list[str] = []
    for monom, c in items:
        mono = " ".join(n if k == 1 else f"{n}^{{{k}}}" for n, k in zip(names, monom) if k)
        c = _Q(c)
        mag = -c if c < 0 else c
        cs = str(mag) if mag.q == 1 else rf"\frac{{{mag.p}}}{{{mag.q}}}"
        body = cs if not mono else mono if mag == 1 else f"{cs} {mono}"
        if not parts:
            parts.append(("-" if c < 0 else "") + body)
        else:
            parts.append(("- " if c < 0 else "+ ") + body)
    return " ".join(parts) if parts else "0"


def _product_latex(c: int, fs: Iterable[tuple[flint.fmpq_mpoly, int]], names: Sequence[str]) -> str:
    parts = []
    for f, m in fs:
        t = _poly_latex(f, names)
        if len(f.to_dict()) > 1 and (m > 1 or len(list(fs)) > 1 or c != 1):
            t = rf"\left({t}\right)"
        parts.append(t if m == 1 else f"{t}^{{{m}}}")
    if c != 1 or not parts:
        parts.insert(0, str(c))
    return " ".join(parts)


def factored_latex(r: RatFun, names: Sequence[str] | None = None) -> str:
    """The LaTeX of :func:`factored_text`; ``names`` replace the symbols' names (already
    escaped for LaTeX by the caller)."""
    names = list(names) if names is not None else list(r.ring.names)
    if r.num.is_zero():
        return "0"
    cn, fn = _factors(r.num)
    cd, fd = _factors(r.den)
    c = cn / cd
    sign = "-" if c < 0 else ""
    c = -c if c < 0 else c
    sign, fn = _negate_one(sign, fn)
    sign, fd = _negate_one(sign, fd)
    num = _product_latex(int(c.p), fn, names)
    if not fd and c.q == 1:
        return sign + num
    den = _product_latex(int(c.q), fd, names)
    return rf"{sign}\frac{{{num}}}{{{den}}}"


def extend(r: RatFun, ring: Ring) -> RatFun:
    """``r`` in a ring with the same first symbols and more after them."""
    k = len(ring.names) - len(r.ring.names)

    def up(p: flint.fmpq_mpoly) -> flint.fmpq_mpoly:
        return ring.ctx.from_dict({m + (0,) * k: c for m, c in p.to_dict().items()})

    return RatFun(ring, up(r.num), up(r.den), normal=True)


__all__ += ["factored_latex", "extend"]


def _ratfun_from_terms(ring: Ring, num: dict, den: dict) -> RatFun:
    """A pickled :class:`RatFun` (already in lowest terms), from its numerator's and
    denominator's terms."""
    return RatFun(ring, ring.ctx.from_dict(num), ring.ctx.from_dict(den), normal=True)
