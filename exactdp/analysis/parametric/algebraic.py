r"""Real algebraic numbers, exactly: a minimal polynomial and an isolating interval.

A real algebraic number α is stored as an irreducible primitive integer polynomial m (its
minimal polynomial up to a constant) and an open interval (lo, hi) with rational ends that
contains exactly one root of m — the interval comes from
:func:`~exactdp.analysis.parametric.polys.isolate_real_roots`, certified by a Sturm count.  A
rational number is the special case of degree 1 (its value is kept).

* Equality is exact: two roots of different irreducible polynomials differ, and the roots of
  one polynomial are created once (:func:`roots_of` caches them), so equal numbers are the
  same object.
* Order and the sign of a polynomial at α are decided by refining the interval (bisection at
  rational points, exact signs of m there) until it separates what is compared; for a
  polynomial f, f(α) = 0 exactly when m divides f (m is irreducible).
* Decimals for display come from the refined interval with every printed digit proved.
"""

from __future__ import annotations

import re
from math import gcd, isqrt
from typing import Any

from ...lazy import flint
from .polys import descartes_bound, irreducible_factors, isolate_real_roots, sign_at

__all__ = [
    "Algebraic",
    "rational",
    "roots_of",
    "real_roots",
    "compare",
    "sign_of_poly_at",
    "decimal_text",
    "closed_form_text",
    "closed_form_latex",
]

_Q = flint.fmpq


class Algebraic:
    """A real algebraic number: ``poly`` (irreducible, primitive, positive leading
    coefficient), and either ``q`` (its value, when rational) or the open isolating interval
    (``lo``, ``hi``), refined in place as comparisons need it."""

    __slots__ = ("poly", "q", "lo", "hi", "_slo", "index", "interval")

    def __init__(self, poly: flint.fmpz_poly, lo: flint.fmpq, hi: flint.fmpq, index: int = 0):
        self.poly = poly
        self.index = index  # position among the real roots of poly (for display)
        self.interval = (lo, hi)  # the isolating interval as first found (for display: refinement moves lo, hi)
        if lo == hi:
            self.q: flint.fmpq | None = lo
            self.lo = self.hi = lo
            self._slo = 0
        else:
            self.q = None
            self.lo, self.hi = lo, hi
            self._slo = sign_at(poly, lo)

    @property
    def is_rational(self) -> bool:
        return self.q is not None

    @property
    def degree(self) -> int:
        return 1 if self.q is not None else self.poly.degree()

    def refine(self) -> None:
        """Halve the isolating interval (exactly; a no-op for a rational)."""
        if self.q is not None:
            return
        m = (self.lo + self.hi) / 2
        s = sign_at(self.poly, m)
        if s == 0:  # pragma: no cover - an irreducible polynomial of degree >= 2 has no rational root
            raise AssertionError("rational root of an irreducible polynomial")
        if s == self._slo:
            self.lo = m
        else:
            self.hi = m

    def refine_to(self, width: flint.fmpq) -> None:
        while self.q is None and self.hi - self.lo > width:
            self.refine()

    def __repr__(self) -> str:
        if self.q is not None:
            return f"Algebraic({self.q})"
        return f"Algebraic(root of {self.poly} in ({self.lo}, {self.hi}))"

    def __float__(self) -> float:  # display only
        if self.q is not None:
            return float(self.q.p) / float(self.q.q)
        self.refine_to(_Q(1, 1 << 60))
        m = (self.lo + self.hi) / 2
        return float(m.p) / float(m.q)

    # exact comparisons (with other Algebraic numbers and with rationals)
    def _cmp(self, other: Any) -> int:
        return compare(self, other if isinstance(other, Algebraic) else rational(other))

    def __lt__(self, other: Any) -> bool:
        return self._cmp(other) < 0

    def __le__(self, other: Any) -> bool:
        return self._cmp(other) <= 0

    def __gt__(self, other: Any) -> bool:
        return self._cmp(other) > 0

    def __ge__(self, other: Any) -> bool:
        return self._cmp(other) >= 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Algebraic):
            return self is other or (self.q is not None and other.q is not None and self.q == other.q)
        try:
            return self.q is not None and self.q == _Q(other)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            return NotImplemented

    def __hash__(self) -> int:
        return hash(self.q) if self.q is not None else hash((str(self.poly), self.index))


def rational(q: Any) -> Algebraic:
    """A rational number as an :class:`Algebraic` (degree 1)."""
    if not isinstance(q, flint.fmpq):
        q = _Q(int(q.numerator), int(q.denominator)) if hasattr(q, "numerator") else _Q(q)
    return Algebraic(flint.fmpz_poly([-q.p, q.q]), q, q)


_ROOTS: dict[str, list[Algebraic]] = {}
_MAX_CACHE = 20_000


def roots_of(g: flint.fmpz_poly) -> list[Algebraic]:
    """The real roots of an irreducible primitive ``g``, increasing, created once per ``g``."""
    key = str(g)
    hit = _ROOTS.get(key)
    if hit is None:
        if len(_ROOTS) > _MAX_CACHE:
            _ROOTS.clear()
        ivs = isolate_real_roots(g)
        hit = [Algebraic(g, lo, hi, k) for k, (lo, hi) in enumerate(ivs)]
        for a in hit:
            a.interval = _display_interval(a, hit)
        _ROOTS[key] = hit
    return hit


def _display_interval(a: Algebraic, roots: list[Algebraic]) -> tuple[flint.fmpq, flint.fmpq]:
    """A canonical isolating interval to show: (n, n + 1) for n = floor(α) when no other root
    of the polynomial lies in it, else the one isolation found."""
    if a.q is not None:
        return a.lo, a.hi
    first = a.interval
    while a.lo.floor() + 1 < a.hi:  # an integer inside: cut there (never a root: degree >= 2)
        n = _Q(((a.lo + a.hi) / 2).floor())
        if not a.lo < n < a.hi:
            n = _Q(a.lo.floor() + 1)
        if sign_at(a.poly, n) == a._slo:
            a.lo = n
        else:
            a.hi = n
    lo, hi = _Q(a.lo.floor()), _Q(a.lo.floor() + 1)
    if all(b is a or compare(b, rational(hi)) >= 0 or compare(b, rational(lo)) <= 0 for b in roots):
        return lo, hi
    return first


def real_roots(f: flint.fmpz_poly) -> list[tuple[Algebraic, int]]:
    """The distinct real roots of a non-zero integer polynomial with their multiplicities,
    increasing."""
    out: list[tuple[Algebraic, int]] = []
    for g, m in irreducible_factors(f):
        out.extend((r, m) for r in roots_of(g))
    out.sort(key=lambda t: _Key(t[0]))
    return out


class _Key:
    __slots__ = ("a",)

    def __init__(self, a: Algebraic):
        self.a = a

    def __lt__(self, other: _Key) -> bool:
        return compare(self.a, other.a) < 0


def compare(a: Algebraic, b: Algebraic) -> int:
    """−1, 0 or 1 as a < b, a = b, a > b, exactly."""
    if a is b:
        return 0
    if a.q is not None and b.q is not None:
        return (a.q > b.q) - (a.q < b.q)
    if a.q is not None:
        return -compare(b, a)
    # a is irrational
    if b.q is not None:
        q = b.q
        while True:
            if q <= a.lo:
                return 1
            if q >= a.hi:
                return -1
            s = sign_at(a.poly, q)
            # the root is in (lo, q) when the sign changes there
            if s == a._slo:
                a.lo = q
            else:
                a.hi = q
    if str(a.poly) == str(b.poly) and a.index == b.index:
        return 0
    while True:
        if a.hi <= b.lo:
            return -1
        if b.hi <= a.lo:
            return 1
        (a if a.hi - a.lo >= b.hi - b.lo else b).refine()


def sign_of_poly_at(f: flint.fmpz_poly, a: Algebraic) -> int:
    """The sign of f(α), exactly: 0 when α's minimal polynomial divides f, otherwise decided on
    an isolating interval of α refined until f has no root in it."""
    if f.is_zero():
        return 0
    if a.q is not None:
        return sign_at(f, a.q)
    if (f % a.poly).is_zero():
        return 0

    while True:
        slo, shi = sign_at(f, a.lo), sign_at(f, a.hi)
        if slo and shi and descartes_bound(f, a.lo, a.hi) == 0:
            return slo
        a.refine()


def decimal_text(a: Algebraic, digits: int = 16) -> str:
    """α as a decimal with ``digits`` significant digits, every one proved: the isolating
    interval is refined until both its ends round to the same text."""
    if a.q is not None:
        return _round(a.q, digits, strip=True)
    while True:
        lo, hi = _round(a.lo, digits), _round(a.hi, digits)
        if lo == hi:
            return lo
        a.refine()


def _round(q: flint.fmpq, digits: int, *, strip: bool = False) -> str:
    """q rounded half-up to ``digits`` significant digits (exact integer arithmetic); with
    ``strip``, trailing zeros after the point are dropped (an exact terminating decimal)."""
    if q == 0:
        return "0"
    neg = q < 0
    q = -q if neg else q
    e = 0
    while q >= _Q(10) ** (e + 1):
        e += 1
    while q < _Q(10) ** e:
        e -= 1
    scale = digits - 1 - e
    n = q * _Q(10) ** scale if scale >= 0 else q / _Q(10) ** (-scale)
    k = int((n + _Q(1, 2)).floor())
    if k >= 10**digits:  # rounding carried into a new digit
        k //= 10
        scale -= 1
    s = str(k)
    if scale > 0:
        s = s.rjust(scale + 1, "0")
        s = s[:-scale] + "." + s[-scale:]
        if strip:
            s = s.rstrip("0").rstrip(".")
    else:
        s = s + "0" * (-scale)
    return ("-" if neg else "") + s


_TRIAL = 10**5  # square factors of primes up to here are taken out of a discriminant


def _sqrt_parts(d: int) -> tuple[int, int]:
    """d = s^2 * r: (s, r), with r free of the squares of primes up to :data:`_TRIAL` and not
    itself a square other than 1 (so squarefree for every discriminant below 10^10).  Trial
    division is bounded: a discriminant with 20-digit coefficients took it 10^10 steps."""
    s, r, p = 1, d, 2
    while p * p <= r and p <= _TRIAL:
        while r % (p * p) == 0:
            r //= p * p
            s *= p
        p += 1
    if r > 1 and isqrt(r) ** 2 == r:
        s, r = s * isqrt(r), 1
    return s, r


def _quadratic(a: Algebraic) -> tuple[int, int, int, int, int] | None:
    """α = (u + v·sqrt(r))/w with integers, for a quadratic α: (u, v, r, w, sign of v)."""
    if a.q is not None or a.poly.degree() != 2:
        return None
    c0, c1, c2 = (int(c) for c in a.poly.coeffs())
    disc = c1 * c1 - 4 * c2 * c0
    s, r = _sqrt_parts(disc)
    u, w = -c1, 2 * c2
    sign = 1 if a.index == 1 else -1  # the larger root takes +sqrt

    g = gcd(gcd(abs(u), s), abs(w))
    return u // g, sign * (s // g), r, w // g, sign


def closed_form_text(a: Algebraic, var: str = "x") -> str:
    """``(1 + sqrt(190))/9`` for a quadratic, the rational for a rational, else ``root of
    <poly> in (lo, hi)`` with the polynomial written in ``var``."""
    if a.q is not None:
        return str(a.q)
    quad = _quadratic(a)
    if quad is not None:
        u, v, r, w, _ = quad
        root = f"sqrt({r})" if abs(v) == 1 else f"{abs(v)}*sqrt({r})"
        num = root if u == 0 else f"{u} {'+' if v > 0 else '-'} {root}"
        if u == 0 and v < 0:
            num = "-" + root
        return num if w == 1 else f"({num})/{w}"
    lo, hi = a.interval
    return f"root of {poly_text(a.poly, var)} in ({lo}, {hi})"


def closed_form_latex(a: Algebraic, var: str = "x") -> str:
    """The LaTeX of :func:`closed_form_text`; ``var`` is the symbol already typeset in LaTeX
    (a name such as ``my_E`` must come escaped, or its ``_`` would make a subscript)."""
    if a.q is not None:
        return _q_latex(a.q)
    quad = _quadratic(a)
    if quad is not None:
        u, v, r, w, _ = quad
        root = rf"\sqrt{{{r}}}" if abs(v) == 1 else rf"{abs(v)}\sqrt{{{r}}}"
        num = root if u == 0 else f"{u} {'+' if v > 0 else '-'} {root}"
        if u == 0 and v < 0:
            num = "-" + root
        return num if w == 1 else rf"\frac{{{num}}}{{{w}}}"
    lo, hi = a.interval
    poly = re.sub(r"\^([0-9]+)", r"^{\1}", poly_text(a.poly, "\0")).replace("*", " ").replace("\0", "{" + var + "}")
    return rf"\text{{root of }} {poly} \in ({_q_latex(lo)}, {_q_latex(hi)})"


def _q_latex(q: flint.fmpq) -> str:
    if q.q == 1:
        return str(q.p)
    sign = "-" if q < 0 else ""
    return rf"{sign}\frac{{{abs(q.p)}}}{{{q.q}}}"


def poly_text(f: flint.fmpz_poly, var: str) -> str:
    """An integer polynomial written in ``var``: ``9*E^2 - 2*E - 21``."""
    terms: list[str] = []
    for k in range(f.degree(), -1, -1):
        c = int(f.coeffs()[k])
        if c == 0:
            continue
        mono = "" if k == 0 else var if k == 1 else f"{var}^{k}"
        mag = abs(c)
        body = str(mag) if not mono else (mono if mag == 1 else f"{mag}*{mono}")
        if not terms:
            terms.append(("-" if c < 0 else "") + body)
        else:
            terms.append(("- " if c < 0 else "+ ") + body)
    return " ".join(terms) if terms else "0"


__all__.append("poly_text")


def root_in(f: flint.fmpz_poly, lo: flint.fmpq, hi: flint.fmpq) -> list[Algebraic]:
    """The distinct real roots of ``f`` in the closed interval [lo, hi], increasing (exact)."""
    out = [r for r, _ in real_roots(f) if compare(rational(lo), r) <= 0 and compare(r, rational(hi)) <= 0]
    return out


__all__.append("root_in")
