r"""Exact arithmetic in the field ℚ(t), t = e^{1/L}: e^ε for a decimal ε, kept exact.

A practitioner's ε = 0.1 makes e^ε transcendental.  Every e^{εᵢ} with rational εᵢ = mᵢ/L is
a power of t = e^{1/L} (L a common denominator), so probabilities such as
e^{0.1}/(1 + e^{0.1}), sums, products and quotients of them all live in ℚ(t): rational
functions of t with rational coefficients.  Because t is transcendental
(Lindemann–Weierstrass), a rational function that is not identically zero does not vanish at
t, so

* equality is equality of rational functions (exact, symbolic);
* the sign of a nonzero element is decided by certified interval evaluation
  (:mod:`mpmath` ``iv``) at increasing precision, which always terminates.

:class:`QtElement` is the number type.  Values with different L are combined in the field of
L = lcm(L₁, L₂) (t₁ = t^{L/L₁}), and every result is stored in a canonical form with the
smallest possible L; a result that does not depend on t at all is returned as a plain
rational :data:`~exactdp.numbers.rational.Q`, so rational computations never pay for the field.

Canonical form: c · n(t)/d(t) with c ∈ ℚ nonzero, n, d ∈ ℤ[t] primitive with positive leading
coefficients and gcd(n, d) = 1, and gcd(L, every exponent present) = 1.  It is unique, so
``==`` and ``hash`` are exact.

References
----------
Lindemann–Weierstrass theorem (e^a is transcendental for algebraic a ≠ 0).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from math import gcd
from typing import TYPE_CHECKING, Any

from .. import limits as _limits
from ..lazy import mpmath
from .certified import ball_decimal, certified_sign
from .element import Element
from .rational import Q, as_q, int_str, is_rational, q_bits, q_short, q_str, to_fraction

if TYPE_CHECKING:  # pragma: no cover
    from flint import fmpz_poly

__all__ = ["QtElement", "qt_exp", "qt_t", "qt_sign", "qt_sum", "field_value", "monomial", "check_power"]
"""Largest exponent of t kept symbolically; beyond it values are refused (or, in comparisons,
decided by certified intervals instead)."""


# python-flint (FLINT's fmpz_poly for ℤ[t], Arb balls for certified signs), imported on first
# use so that rational-only runs (most cases) never load it.
_flint: Any = None


def _load() -> Any:
    global _flint
    if _flint is None:
        import flint

        _flint = flint
    return _flint


def _poly(coeffs: list[int]) -> fmpz_poly:
    """The integer polynomial Σ coeffs[k] t^k (lowest degree first, FLINT's order)."""
    return _load().fmpz_poly(coeffs)


def _coeffs_desc(p: fmpz_poly) -> list[int]:
    """Coefficients as Python ints, highest degree first (the order exactdp prints in)."""
    return [int(a) for a in reversed(p.coeffs())]


_QTYPE = type(Q(1))
_FAST_RATIONAL = (_QTYPE, int, Fraction)


def _is_rat(x: object) -> bool:
    """:func:`is_rational`, with a fast path for the exact types seen in hot loops."""
    return type(x) in _FAST_RATIONAL or is_rational(x)


def _num_den(c: Any) -> tuple[int, int]:
    """(numerator, denominator) of an exact rational as Python ints (FLINT takes ints)."""
    return int(c.numerator), int(c.denominator)


def _lcm(a: int, b: int) -> int:
    return a // gcd(a, b) * b


def _primitive(p: fmpz_poly) -> tuple[int, fmpz_poly]:
    """(content with the sign of the leading coefficient, primitive part with positive lead)."""
    k = int(p.content())
    if p.leading_coefficient() < 0:
        k = -k
    return k, (p if k == 1 else p / k)  # exact division (FLINT raises if it is not)


def _exponents_gcd(p: fmpz_poly, g: int) -> int:
    """gcd of g and every exponent with a nonzero coefficient in p (a constant adds nothing)."""
    if g == 1 or p.degree() <= 0:
        return g
    return gcd(g, int(p.deflation()[1]))


def _lift(p: fmpz_poly, m: int) -> fmpz_poly:
    """p(t) -> p(t^m)."""
    return p if m == 1 or p.degree() <= 0 else p.inflate(m)


def _compress(p: fmpz_poly, g: int) -> fmpz_poly:
    """p(t^g) -> p(t) (g divides every exponent present)."""
    return p if g == 1 or p.degree() <= 0 else p.deflate(g)


# Products of denominators, keyed by the operands' identities (each entry holds its operands, so
# an id is not reused while its entry lives).  Why: a chain of answers scales every edge of a
# child's chain by the same probability, so one denominator product recurs once per edge; the
# cache returns one shared result, so the next layer's products (and == on them) hit as well.
_PRODUCTS: dict[tuple[int, int], tuple[fmpz_poly, fmpz_poly, fmpz_poly]] = {}


_SMALL: dict[tuple, fmpz_poly] = {}  # small polynomials by value: equal ones become one object


def _interned(p: fmpz_poly) -> fmpz_poly:
    if p.degree() > 8:
        return p
    if len(_SMALL) >= 4096:
        _SMALL.clear()
    return _SMALL.setdefault(tuple(p.coeffs()), p)


def _product(a: fmpz_poly, b: fmpz_poly) -> fmpz_poly:
    """a·b, one shared object for the same two polynomial objects (see _PRODUCTS)."""
    if b.is_one():
        return a
    if a.is_one():
        return b
    if not (a[0] and b[0]):  # (a factor t^k: e^(k/L) powers, each met once, would flush the cache)
        return a * b
    a, b = _interned(a), _interned(b)
    key = (id(a), id(b)) if id(a) <= id(b) else (id(b), id(a))
    hit = _PRODUCTS.get(key)
    if hit is None:
        if len(_PRODUCTS) >= 32:  # (a few per layer are live; each entry keeps its operands alive)
            _PRODUCTS.clear()
        hit = _PRODUCTS[key] = (a, b, a * b)
    return hit[2]


def _coprime_parts(a: fmpz_poly, b: fmpz_poly) -> tuple[fmpz_poly, fmpz_poly]:
    """a/g, b/g with g = gcd(a, b) (a common constant is left to :func:`_primitive`)."""
    if a.degree() <= 0 or b.degree() <= 0:
        return a, b
    g = a.gcd(b)
    if g.degree() <= 0:
        return a, b
    return a / g, b / g


class QtElement(Element):
    """An element of ℚ(e^{1/L}) that is not rational (see the module docstring).

    Build values with :func:`qt_exp` (r·e^s) and ordinary arithmetic; never call the
    constructor with a non-canonical representation.  ``n`` and ``d`` are FLINT integer
    polynomials (``flint.fmpz_poly``) in t = e^{1/L}.  Arithmetic with rationals and other
    field elements is done here (the engines' hot loops); everything else is the ladder's
    (:class:`~exactdp.numbers.element.Element`).
    """

    __slots__ = ("L", "c", "n", "d", "_hash", "_enc", "_ball")

    def __init__(self, L: int, c: Any, n: fmpz_poly, d: fmpz_poly):
        self.L = L
        self.c = c
        self.n = n
        self.d = d
        self._hash: int | None = None
        self._enc: Any = None
        self._ball: Any = None

    # --- construction -----------------------------------------------------------------------

    @staticmethod
    def _make(L: int, c: Any, n: fmpz_poly, d: fmpz_poly, *, coprime: bool = False) -> Any:
        """Canonicalise c·n/d (n, d integer polynomials, d ≠ 0) over t = e^{1/L}
        (``coprime``: the caller knows gcd(n, d) = 1)."""
        if n.is_zero():
            return Q(0)
        if not coprime:
            n, d = _coprime_parts(n, d)
        kn, pn = _primitive(n)
        kd, pd = _primitive(d)
        if type(c) is not _QTYPE:
            c = as_q(c)
        if kn != 1 or kd != 1:
            c = c * Q(kn, kd)
        if not c:
            return Q(0)
        if pn.degree() == 0 and pd.degree() == 0:  # both primitive constants, i.e. 1
            return c
        # the smallest field holding the value: t^g = e^{g/L} when g divides every exponent
        gl = _exponents_gcd(pd, _exponents_gcd(pn, L))
        return QtElement(L // gl, c, _compress(pn, gl), _compress(pd, gl))

    @staticmethod
    def _parts(x: Any, L: int) -> tuple[Any, fmpz_poly, fmpz_poly]:
        """(c, n, d) of x in the field of t = e^{1/L} (L a multiple of x.L)."""
        if isinstance(x, QtElement):
            m = L // x.L
            size = max(x.n.length(), x.d.length()) * m
            if m > 1 and size > _limits.current().max_field_degree:  # (decimal eps's with a smaller L: lower degrees)
                _limits.check_field_degree(
                    size,
                    f"a number of Q(exp(1/{q_short(x.L)})) written in Q(exp(1/{q_short(L)})), t = exp(1/{q_short(L)}),",
                )
            return x.c, _lift(x.n, m), _lift(x.d, m)
        one = _poly([1])
        return as_q(x), one, one

    # --- arithmetic -------------------------------------------------------------------------
    # The hot paths (profile engine and witness re-checks on decimal-eps mechanisms) test for a
    # QtElement or the exact rational type first: plain type checks are much cheaper there.

    def _common(self, other: QtElement) -> tuple[int, fmpz_poly, fmpz_poly, fmpz_poly, fmpz_poly]:
        """(L, n1, d1, n2, d2): both operands over t = e^{1/L}, L = lcm of their L's."""
        if self.L == other.L:
            return self.L, self.n, self.d, other.n, other.d
        L = _lcm(self.L, other.L)
        _, n1, d1 = self._parts(self, L)
        _, n2, d2 = self._parts(other, L)
        return L, n1, d1, n2, d2

    def __add__(self, other: Any) -> Any:
        if isinstance(other, QtElement):
            L, n1, d1, n2, d2 = self._common(other)
            c2 = other.c
        elif _is_rat(other):
            L, n1, d1 = self.L, self.n, self.d
            n2 = d2 = _poly([1])
            c2 = as_q(other)
        else:
            return Element.__add__(self, other)
        # c1 n1/d1 + c2 n2/d2 = (a1 n1 d2 + a2 n2 d1) / (den d1 d2), a_k = c_k·den integers
        p1, q1 = _num_den(self.c)
        p2, q2 = _num_den(c2)
        den = _lcm(q1, q2)
        a1, a2 = p1 * (den // q1), p2 * (den // q2)
        if d1 == d2:
            num, dd = n1 * a1 + n2 * a2, d1
        else:
            num, dd = n1 * d2 * a1 + n2 * d1 * a2, d1 * d2
        return QtElement._make(L, Q(1, den), num, dd)

    def __radd__(self, other: Any) -> Any:
        if isinstance(other, QtElement) or _is_rat(other):
            return self.__add__(other)
        return Element.__radd__(self, other)

    def __neg__(self) -> QtElement:
        return QtElement(self.L, -self.c, self.n, self.d)

    def __pos__(self) -> QtElement:
        return self

    def __sub__(self, other: Any) -> Any:
        if not (isinstance(other, QtElement) or _is_rat(other)):
            return Element.__sub__(self, other)
        return self + (-other)  # type: ignore[operator]

    def __rsub__(self, other: Any) -> Any:
        if not _is_rat(other):
            return Element.__rsub__(self, other)
        return (-self) + other

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, QtElement):
            L, n1, d1, n2, d2 = self._common(other)
            # cross-cancel: n1 ⊥ d1 and n2 ⊥ d2 (coprimality survives t -> t^m), so after
            # removing gcd(n1, d2) and gcd(n2, d1) the product is already in lowest terms
            n1, d2 = _coprime_parts(n1, d2)
            n2, d1 = _coprime_parts(n2, d1)
            return QtElement._make(L, self.c * other.c, n1 * n2, _product(d1, d2), coprime=True)
        if _is_rat(other):
            if not other:
                return Q(0)
            return QtElement(self.L, self.c * as_q(other), self.n, self.d)
        return Element.__mul__(self, other)

    def __rmul__(self, other: Any) -> Any:
        if isinstance(other, QtElement) or _is_rat(other):
            return self.__mul__(other)
        return Element.__rmul__(self, other)

    def inverse(self) -> QtElement:
        return QtElement(self.L, 1 / self.c, self.d, self.n)

    def __truediv__(self, other: Any) -> Any:
        if _is_rat(other):
            if other == 0:
                raise ZeroDivisionError("division by zero")
            return QtElement(self.L, self.c / as_q(other), self.n, self.d)
        if not isinstance(other, QtElement):
            return Element.__truediv__(self, other)
        return self * other.inverse()

    def __rtruediv__(self, other: Any) -> Any:
        if not _is_rat(other):
            return Element.__rtruediv__(self, other)
        return self.inverse() * other

    def __pow__(self, k: Any) -> Any:
        if not (isinstance(k, int) or (is_rational(k) and to_fraction(k).denominator == 1)):
            return Element.__pow__(self, k)
        k = int(k)  # type: ignore[call-overload]
        if k < 0:
            return self.inverse() ** (-k)
        if k > 1:  # (bounded before FLINT is asked: an allocation it cannot make aborts the process)
            check_power(self, k)
        out: Any = Q(1)
        base: Any = self
        while k:
            if k & 1:
                out = out * base
            k >>= 1
            if k:
                base = base * base
        return out

    # --- equality, hashing ------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if isinstance(other, QtElement):
            return self.L == other.L and self.c == other.c and self.n == other.n and self.d == other.d
        if isinstance(other, Element):
            return NotImplemented  # r·e^s of the same value answers (it knows how to lower itself)
        return False  # canonical: a QtElement is never rational (nor a float: it is transcendental)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:  # (the form is canonical: its degrees and end coefficients are enough, and cheap)
            n, d = self.n, self.d
            h = self._hash = hash(
                ("qt", self.L, self.c, n.degree(), d.degree(), n[0], n[n.degree()], d[0], d[d.degree()])
            )
        return h

    def __bool__(self) -> bool:
        return True  # canonical zero is Q(0)

    # --- order (certified) ------------------------------------------------------------------

    def enclosure(self, prec: int = 64) -> Any:
        """An mpmath interval containing the value, at ``prec`` bits (for mixing with other
        mpmath intervals; sign decisions use :meth:`ball`)."""
        if prec == 64 and self._enc is not None:
            return self._enc
        old = mpmath.iv.prec
        mpmath.iv.prec = prec
        try:
            t = mpmath.iv.exp(mpmath.iv.mpf(1) / self.L)
            v = _horner(self.n, t) / _horner(self.d, t)
            f = to_fraction(self.c)
            v = v * mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator)
        finally:
            mpmath.iv.prec = old
        if prec == 64:
            self._enc = v
        return v

    def ball(self, prec: int = 64) -> Any:
        """An Arb ball (``flint.arb``) containing the value, computed at ``prec`` bits.

        Arb's arithmetic is rigorous: the true value lies in the ball, so a ball that excludes
        0 certifies the sign (Johansson 2017, *Arb: efficient arbitrary-precision midpoint-radius
        interval arithmetic*, IEEE Trans. Computers 66(8))."""
        if prec == 64 and self._ball is not None:
            return self._ball
        v = _arb_value(self.L, self.c, self.n, self.d, prec)
        if prec == 64:
            self._ball = v
        return v

    def sign(self) -> int:
        """+1 or −1, certified (a QtElement is never 0; the precision is bounded by
        ``--max-precision``)."""
        v = self.ball()
        if v > 0:
            return 1
        if v < 0:
            return -1
        return certified_sign(self.ball, lambda: q_short(self.text(), 40))

    def _order(self, other: Any) -> Any:
        """−1, 0, +1 against a rational or a QtElement, here (the engines compare field
        elements in their loops); anything else through the ladder."""
        if not (isinstance(other, QtElement) or _is_rat(other)):
            return Element._order(self, other)
        a = self.ball()
        b = other.ball() if isinstance(other, QtElement) else _arb_rational(other, 64)
        if a < b:
            return -1
        if a > b:
            return 1
        if self == other:
            return 0
        return qt_sign(self - other)

    def bits(self) -> int:
        """Size in bits: of the rational factor plus every coefficient of n and d."""
        return q_bits(self.c) + sum(int(abs(v)).bit_length() for v in (*self.n.coeffs(), *self.d.coeffs()))

    # --- text -------------------------------------------------------------------------------

    def text(self) -> str:
        """The exact text in the number grammar: ``(exp(1/10) - 1)/(exp(1/10) + 1)``."""
        num = _poly_str(self.n, self.L)
        den = _poly_str(self.d, self.L)
        f = to_fraction(self.c)
        if abs(f.numerator) != 1:
            num = _scale_str(abs(f.numerator), num)
        if f.denominator != 1:
            den = _scale_str(f.denominator, den)
        sign = "-" if f.numerator < 0 else ""
        if den == "1":
            return sign + (_paren(num) if sign else num)
        return f"{sign}{_paren(num)}/{_paren(den, denominator=True)}"

    def decimal(self, digits: int = 6) -> str:
        """A decimal reading (display only), from a ball refined until it is narrower than the
        digits shown (:func:`~exactdp.numbers.certified.ball_decimal`)."""
        return ball_decimal(self.ball, digits)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # FLINT polynomials do not pickle: send the coefficients (lowest degree first)
        return (_rebuild, (self.L, self.c, [int(a) for a in self.n.coeffs()], [int(a) for a in self.d.coeffs()]))


def qt_sum(values: Iterable[Any]) -> Any:
    """The sum of rationals and elements of Q(e^(1/L)): those of one field over one denominator
    are added as numerators and reduced once (a sum term by term reduces, a gcd with the whole
    denominator, at every step).  Any other kind of number: Python's sum."""
    values = list(values)
    if not all(isinstance(x, QtElement) or _is_rat(x) for x in values):
        return sum(values, Q(0))
    out: Any = Q(0)
    groups: list[tuple[int, fmpz_poly, list[QtElement]]] = []
    for x in values:
        if not isinstance(x, QtElement):
            out = out + x
            continue
        group = next((g for g in groups if g[0] == x.L and (g[1] is x.d or g[1] == x.d)), None)
        if group is None:
            groups.append((x.L, x.d, [x]))
        else:
            group[2].append(x)
    for L, d, terms in groups:
        den = 1
        for x in terms:
            den = _lcm(den, _num_den(x.c)[1])
        num = _poly([0])
        for x in terms:
            p, q = _num_den(x.c)
            num += x.n * (p * (den // q))
        out = out + QtElement._make(L, Q(1, den), num, d)
    return out


def check_power(a: QtElement, k: int) -> None:
    """Refuse a^k before computing it when its degree or size would be too large: the degree
    multiplies by k, and so, about, does the size of the coefficients."""
    degree, L = max(a.n.degree(), a.d.degree()), q_short(a.L)  # (L may have thousands of digits)
    _limits.check_field_degree(degree * k, f"a power in Q(exp(1/{L})), t = exp(1/{L}),")
    _limits.check_bits(a.bits() * k, "a power in the field Q(e^(1/L))")


def _rebuild(L: int, c: Any, n: list[int], d: list[int]) -> QtElement:
    """Unpickle a :class:`QtElement` (see ``__reduce__``)."""
    return QtElement(L, c, _poly(n), _poly(d))


def _arb_rational(x: Any, prec: int) -> Any:
    """An Arb ball containing the rational x, at ``prec`` bits."""
    flint = _load()
    f = to_fraction(x)
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        return flint.arb(flint.fmpq(f.numerator, f.denominator))
    finally:
        flint.ctx.prec = old


_T_BALLS: dict[tuple[int, int], Any] = {}  # (L, prec) -> a ball for t = e^(1/L): exp is the costly part


def _arb_value(L: int, c: Any, n: fmpz_poly, d: fmpz_poly, prec: int) -> Any:
    """c·n(t)/d(t) at t = e^{1/L} in Arb ball arithmetic at ``prec`` bits (rigorous)."""
    flint = _load()
    f = to_fraction(c)
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        t = _T_BALLS.get((L, prec))
        if t is None:
            t = _T_BALLS[L, prec] = flint.arb(flint.fmpq(1, L)).exp()
        return flint.arb(flint.fmpq(f.numerator, f.denominator)) * n(t) / d(t)
    finally:
        flint.ctx.prec = old


def _horner(p: fmpz_poly, t: Any) -> Any:
    v = mpmath.iv.mpf(0)
    for a in _coeffs_desc(p):
        v = v * t + mpmath.iv.mpf(a)
    return v


def _poly_str(p: fmpz_poly, L: int) -> str:
    """Σ a_e t^e with t^e printed as ``exp(e/L)`` (re-readable by the number grammar)."""
    coeffs = _coeffs_desc(p)
    deg = len(coeffs) - 1
    parts: list[str] = []
    for k, a in enumerate(coeffs):
        if not a:
            continue
        e = deg - k
        mono = "" if e == 0 else f"exp({q_str(Q(e, L))})"
        coef = abs(a)
        if mono:
            term = mono if coef == 1 else f"{int_str(coef)}*{mono}"
        else:
            term = int_str(coef)
        if not parts:
            parts.append(term if a > 0 else f"-{term}")
        else:
            parts.append((" + " if a > 0 else " - ") + term)
    return "".join(parts) or "0"


def _paren(s: str, *, denominator: bool = False) -> str:
    needs = " " in s or (denominator and "*" in s)
    return f"({s})" if needs else s


def _scale_str(k: int, s: str) -> str:
    if s == "1":
        return int_str(k)
    return f"{int_str(k)}*{_paren(s)}"


def _is_monomial(p: fmpz_poly) -> bool:
    """p = a·t^k (a single nonzero coefficient)."""
    return sum(1 for a in p.coeffs() if a != 0) == 1


def monomial(x: QtElement) -> tuple[Any, Any] | None:
    """(c, m/L) when x = c·t^m with t = e^{1/L} (c rational, m ≠ 0 an integer), else None."""
    if x.d.degree() == 0 and _is_monomial(x.n):
        return x.c * Q(int(x.n.leading_coefficient()), int(x.d.leading_coefficient())), Q(x.n.degree(), x.L)
    if x.n.degree() == 0 and _is_monomial(x.d):
        return x.c * Q(int(x.n.leading_coefficient()), int(x.d.leading_coefficient())), -Q(x.d.degree(), x.L)
    return None


def qt_sign(x: Any) -> int:
    """Sign of a rational or a :class:`QtElement`, exactly (certified for the latter)."""
    if isinstance(x, QtElement):
        return x.sign()
    return (x > 0) - (x < 0)


def qt_t(L: int) -> QtElement:
    """t = e^{1/L}."""
    if L < 1:
        raise ValueError("L must be a positive integer")
    return QtElement(L, Q(1), _poly([0, 1]), _poly([1]))


def qt_exp(r: Any, s: Any) -> Any:
    """r·e^s for rationals r and s, as an element of ℚ(e^{1/den(s)}) (or a rational if s = 0)."""
    r, fs = as_q(r), to_fraction(s)
    if fs == 0 or r == 0:
        return r
    L, m = fs.denominator, fs.numerator
    _limits.check_field_degree(abs(m), f"exp({q_short(s)}) = t^{q_short(abs(m))} with t = exp(1/{q_short(L)})")
    if m > 0:
        return QtElement(L, r, _poly([0] * m + [1]), _poly([1]))
    return QtElement(L, r, _poly([1]), _poly([0] * (-m) + [1]))


def field_value(x: Any) -> Fraction | None:
    """The rational value of x if it is rational, else None."""
    return to_fraction(x) if is_rational(x) else None
