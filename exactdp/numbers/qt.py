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

from fractions import Fraction
from math import gcd

import mpmath

from ..errors import InexactValueError
from .rational import Q, as_q, is_rational, q_str, to_fraction

__all__ = ["QtElement", "qt_exp", "qt_t", "is_qt", "qt_sign", "as_field", "field_value"]

_MAX_PREC = 1 << 17
MAX_DEGREE = 4000
"""Largest exponent of t kept symbolically; beyond it values are refused (or, in comparisons,
decided by certified intervals instead)."""


# SymPy's dense integer polynomials, imported on first use so that rational-only runs (most
# cases) never load SymPy.
dup_add = dup_mul = dup_mul_ground = dup_neg = dup_primitive = dup_inner_gcd = ZZ = None


def _load() -> None:
    global dup_add, dup_mul, dup_mul_ground, dup_neg, dup_primitive, dup_inner_gcd, ZZ
    if ZZ is not None:
        return
    from sympy.polys.densearith import dup_add, dup_mul, dup_mul_ground, dup_neg  # noqa: F811
    from sympy.polys.densetools import dup_primitive  # noqa: F811
    from sympy.polys.domains import ZZ  # noqa: F811
    from sympy.polys.euclidtools import dup_inner_gcd  # noqa: F811


def _lcm(a: int, b: int) -> int:
    return a // gcd(a, b) * b


def _primitive(p: list) -> tuple[object, list]:
    """(content with the sign of the leading coefficient, primitive part with positive lead)."""
    c, prim = dup_primitive(p, ZZ)
    if prim and prim[0] < 0:
        return -c, dup_neg(prim, ZZ)
    return c, prim


def _lift(p: tuple, m: int) -> list:
    """p(t) -> p(t^m) (dense, highest degree first)."""
    if m == 1 or len(p) <= 1:
        return list(p)
    out = []
    last = len(p) - 1
    for k, a in enumerate(p):
        out.append(a)
        if k != last:
            out.extend([ZZ(0)] * (m - 1))
    return out


def _exponents_gcd(p: tuple, g: int) -> int:
    deg = len(p) - 1
    for k, a in enumerate(p):
        if a and g != 1:
            g = gcd(g, deg - k)
    return g


def _compress(p: tuple, g: int) -> tuple:
    if g == 1 or len(p) <= 1:
        return p
    return tuple(p[::g])


class QtElement:
    """An element of ℚ(e^{1/L}) that is not rational (see the module docstring).

    Build values with :func:`qt_exp` (r·e^s) and ordinary arithmetic; never call the
    constructor with a non-canonical representation.
    """

    __slots__ = ("L", "c", "n", "d", "_hash", "_enc")

    def __init__(self, L: int, c: object, n: tuple, d: tuple):
        _load()
        self.L = L
        self.c = c
        self.n = n
        self.d = d
        self._hash = None
        self._enc = None

    # --- construction -----------------------------------------------------------------------

    @staticmethod
    def _make(L: int, c: object, n: list, d: list, *, coprime: bool = False) -> object:
        """Canonicalise c·n/d (n, d integer polynomials, d ≠ 0) over t = e^{1/L}
        (``coprime``: the caller knows gcd(n, d) = 1)."""
        if not n:
            return Q(0)
        if coprime or len(d) == 1 or len(n) == 1 and len(d) == 1:
            cn, cd = n, d
        else:
            g, cn, cd = dup_inner_gcd(n, d, ZZ)
        kn, pn = _primitive(cn)
        kd, pd = _primitive(cd)
        c = as_q(c) * Q(int(kn), int(kd))
        if c == 0:
            return Q(0)
        # strip a common power of t (keeps polynomials short): n/d = t^(a-b) n'/d'
        if len(pn) == 1 and len(pd) == 1:
            return c * Q(int(pn[0]), int(pd[0]))
        gl = _exponents_gcd(tuple(pd), _exponents_gcd(tuple(pn), L))
        tn, td = _compress(tuple(pn), gl), _compress(tuple(pd), gl)
        if len(tn) == 1 and len(td) == 1:
            return c * Q(int(tn[0]), int(td[0]))
        return QtElement(L // gl, c, tn, td)

    @staticmethod
    def _parts(x: object, L: int) -> tuple[object, list, list]:
        """(c, n, d) of x in the field of t = e^{1/L} (L a multiple of x.L)."""
        if isinstance(x, QtElement):
            m = L // x.L
            if m > 1 and max(len(x.n), len(x.d)) * m > MAX_DEGREE:
                raise InexactValueError(
                    f"combining values of Q(exp(1/{x.L})) in Q(exp(1/{L})) needs polynomials of degree "
                    f"{max(len(x.n), len(x.d)) * m}, beyond the limit {MAX_DEGREE}; use decimal eps's with a "
                    "smaller common denominator"
                )
            return x.c, _lift(x.n, m), _lift(x.d, m)
        return as_q(x), [ZZ(1)], [ZZ(1)]

    # --- arithmetic -------------------------------------------------------------------------

    def _binop_L(self, other: object) -> int | None:
        if isinstance(other, QtElement):
            return _lcm(self.L, other.L)
        if is_rational(other):
            return self.L
        return None

    def __add__(self, other: object) -> object:
        L = self._binop_L(other)
        if L is None:
            return NotImplemented
        c1, n1, d1 = self._parts(self, L)
        c2, n2, d2 = self._parts(other, L)
        f1, f2 = to_fraction(c1), to_fraction(c2)
        den = f1.denominator * f2.denominator // gcd(f1.denominator, f2.denominator)
        a1, a2 = ZZ(f1.numerator * (den // f1.denominator)), ZZ(f2.numerator * (den // f2.denominator))
        if d1 == d2:
            num = dup_add(dup_mul_ground(n1, a1, ZZ), dup_mul_ground(n2, a2, ZZ), ZZ)
            dd = d1
        else:
            num = dup_add(dup_mul_ground(dup_mul(n1, d2, ZZ), a1, ZZ), dup_mul_ground(dup_mul(n2, d1, ZZ), a2, ZZ), ZZ)
            dd = dup_mul(d1, d2, ZZ)
        return QtElement._make(L, Q(1, den), num, dd)

    __radd__ = __add__

    def __neg__(self) -> "QtElement":
        return QtElement(self.L, -self.c, self.n, self.d)

    def __pos__(self) -> "QtElement":
        return self

    def __sub__(self, other: object) -> object:
        if not (isinstance(other, QtElement) or is_rational(other)):
            return NotImplemented
        return self + (-other)

    def __rsub__(self, other: object) -> object:
        if not is_rational(other):
            return NotImplemented
        return (-self) + other

    def __mul__(self, other: object) -> object:
        if is_rational(other):
            if other == 0:
                return Q(0)
            return QtElement(self.L, self.c * as_q(other), self.n, self.d)
        if not isinstance(other, QtElement):
            return NotImplemented
        L = _lcm(self.L, other.L)
        c1, n1, d1 = self._parts(self, L)
        c2, n2, d2 = self._parts(other, L)
        # cross-cancel: n1 ⊥ d1 and n2 ⊥ d2, so after removing gcd(n1, d2) and gcd(n2, d1)
        # the product is already in lowest terms
        if len(n1) > 1 and len(d2) > 1:
            _, n1, d2 = dup_inner_gcd(n1, d2, ZZ)
        if len(n2) > 1 and len(d1) > 1:
            _, n2, d1 = dup_inner_gcd(n2, d1, ZZ)
        return QtElement._make(L, c1 * c2, dup_mul(n1, n2, ZZ), dup_mul(d1, d2, ZZ), coprime=True)

    __rmul__ = __mul__

    def inverse(self) -> "QtElement":
        return QtElement(self.L, 1 / self.c, self.d, self.n)

    def __truediv__(self, other: object) -> object:
        if is_rational(other):
            if other == 0:
                raise ZeroDivisionError("division by zero")
            return QtElement(self.L, self.c / as_q(other), self.n, self.d)
        if not isinstance(other, QtElement):
            return NotImplemented
        return self * other.inverse()

    def __rtruediv__(self, other: object) -> object:
        if not is_rational(other):
            return NotImplemented
        return self.inverse() * other

    def __pow__(self, k: object) -> object:
        if not (isinstance(k, int) or (is_rational(k) and to_fraction(k).denominator == 1)):
            return NotImplemented
        k = int(k)
        if k < 0:
            return self.inverse() ** (-k)
        out: object = Q(1)
        base: object = self
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
        return False  # canonical: a QtElement is never rational

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(("qt", self.L, self.c, self.n, self.d))
        return h

    def __bool__(self) -> bool:
        return True  # canonical zero is Q(0)

    # --- order (certified) ------------------------------------------------------------------

    def enclosure(self, prec: int = 64):
        """An mpmath interval containing the value, at ``prec`` bits."""
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

    def sign(self) -> int:
        """+1 or −1, certified (a QtElement is never 0)."""
        prec = 64
        while prec <= _MAX_PREC:
            v = self.enclosure(prec)
            if v.a > 0:
                return 1
            if v.b < 0:
                return -1
            prec *= 2
        raise ArithmeticError(f"could not decide the sign of {self} within {_MAX_PREC} bits")  # pragma: no cover

    def _cmp(self, other: object) -> int:
        if not (isinstance(other, QtElement) or is_rational(other)):
            return NotImplemented  # type: ignore[return-value]
        a = self.enclosure()
        b = other.enclosure() if isinstance(other, QtElement) else None
        if b is None:
            f = to_fraction(other)
            old = mpmath.iv.prec
            mpmath.iv.prec = 64
            b = mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator)
            mpmath.iv.prec = old
        if a.b < b.a:
            return -1
        if a.a > b.b:
            return 1
        if self == other:
            return 0
        return qt_sign(self - other)

    def __lt__(self, other: object) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c < 0

    def __le__(self, other: object) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c <= 0

    def __gt__(self, other: object) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c > 0

    def __ge__(self, other: object) -> bool:
        c = self._cmp(other)
        return NotImplemented if c is NotImplemented else c >= 0

    # --- text -------------------------------------------------------------------------------

    def __str__(self) -> str:
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

    def __repr__(self) -> str:
        return f"QtElement({self})"

    def decimal(self, digits: int = 6) -> str:
        """A certified decimal reading (display only)."""
        v = self.enclosure(max(64, int(digits * 3.33) + 40))
        with mpmath.workdps(digits + 5):
            mid = (mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2
            return mpmath.nstr(mid, digits)

    def __reduce__(self):
        return (QtElement, (self.L, self.c, self.n, self.d))


def _horner(p: tuple, t):
    v = mpmath.iv.mpf(0)
    for a in p:
        v = v * t + mpmath.iv.mpf(int(a))
    return v


def _poly_str(p: tuple, L: int) -> str:
    """Σ a_e t^e with t^e printed as ``exp(e/L)`` (re-readable by the number grammar)."""
    deg = len(p) - 1
    parts = []
    for k, a in enumerate(p):
        a = int(a)
        if not a:
            continue
        e = deg - k
        mono = "" if e == 0 else f"exp({q_str(Q(e, L))})"
        coef = abs(a)
        if mono:
            term = mono if coef == 1 else f"{coef}*{mono}"
        else:
            term = str(coef)
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
        return str(k)
    return f"{k}*{_paren(s)}"


def is_qt(x: object) -> bool:
    return isinstance(x, QtElement)


def qt_sign(x: object) -> int:
    """Sign of a rational or a :class:`QtElement`, exactly (certified for the latter)."""
    if isinstance(x, QtElement):
        return x.sign()
    return (x > 0) - (x < 0)


def qt_t(L: int) -> QtElement:
    """t = e^{1/L}."""
    _load()
    if L < 1:
        raise ValueError("L must be a positive integer")
    return QtElement(L, Q(1), (ZZ(1), ZZ(0)), (ZZ(1),))


def qt_exp(r: object, s: object) -> object:
    """r·e^s for rationals r and s, as an element of ℚ(e^{1/den(s)}) (or a rational if s = 0)."""
    _load()
    r, fs = as_q(r), to_fraction(s)
    if fs == 0 or r == 0:
        return r
    L, m = fs.denominator, fs.numerator
    if abs(m) > MAX_DEGREE:
        raise InexactValueError(
            f"exp({q_str(s)}) = t^{abs(m)} with t = exp(1/{L}) is beyond the field-degree limit {MAX_DEGREE}; "
            "write eps with fewer decimal digits (or as log(r))"
        )
    if m > 0:
        return QtElement(L, r, tuple([ZZ(1)] + [ZZ(0)] * m), (ZZ(1),))
    return QtElement(L, r, (ZZ(1),), tuple([ZZ(1)] + [ZZ(0)] * (-m)))


def as_field(x: object) -> object:
    """A rational as ``Q``; a :class:`QtElement` as is; an ``ExpReal`` r·e^s as r·t^{sL}."""
    if isinstance(x, QtElement):
        return x
    if is_rational(x):
        return as_q(x)
    r, s = getattr(x, "r", None), getattr(x, "s", None)
    if r is not None and s is not None and is_rational(r) and is_rational(s):
        return qt_exp(r, s)
    if isinstance(r, QtElement) and is_rational(s):
        return r * qt_exp(1, s)
    raise TypeError(f"not an element of Q(e^(1/L)): {x!r}")


def field_value(x: object) -> Fraction | None:
    """The rational value of x if it is rational, else None."""
    return to_fraction(x) if is_rational(x) else None
