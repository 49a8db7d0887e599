r"""Exact linear forms in logarithms: s + Σ c_b ln b (rational s and c_b, integers b > 1), and
s + ln r (:class:`LogReal`), the form with one logarithm of a rational.

Rational multiples of logarithms arise as Rényi divergences (log(r)/(α − 1)), in claims such as
``log(61/9)/2`` or ``k*log(3)/5``, and as KL divergences Σ p_v ln(p_v/p'_v).  A value is kept as

.. math::  s + \sum_b c_b \ln b ,

over a *coprime basis*: the integers b > 1 are pairwise coprime and none is a perfect power.
A form whose coefficients are all integers is s + ln r for one rational r, and is held as a
:class:`LogReal` (the value of ``log(3)``, ``1/10 + log(2)``, a privacy loss ``log(23/9)``);
every other form as a :class:`LogLinear` (``log(61/9)/2``).

**Equality is decidable exactly.**  Over such a basis the form is 0 only when s = 0 and every
c_b = 0: if s ≠ 0, e^{-s} = Π b^{c_b} would be algebraic, which Lindemann–Weierstrass forbids;
if s = 0, Π b^{D c_b} = 1 for a common denominator D, and coprimality forces every exponent to
0.  So two values are compared by writing their difference over one common coprime basis
(no factoring: gcd refinement), and a nonzero difference has its sign decided by certified
interval arithmetic (python-flint's arb), which terminates because the value is not 0.

References
----------
Bernstein, *Factoring into coprimes in essentially linear time*, J. Algorithms 54 (2005) (the
coprime base; here the simple quadratic refinement).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import gcd, isqrt
from typing import Any

from ..errors import InexactValueError
from .certified import arb_prec, ball_decimal, certified_sign
from .element import Element
from .rational import Q, Rational, as_q, int_str, is_rational, q_bits, q_short, q_str, to_fraction
from .roots import exact_root

__all__ = [
    "LogLinear",
    "LogReal",
    "coprime_basis",
    "exponents",
    "log_linear",
    "as_log_linear",
    "ll_add",
    "ll_neg",
    "ll_scale",
    "ll_sign",
    "ll_cmp",
    "ll_str",
    "ll_decimal",
    "ll_single_log",
    "power_bits",
    "ll_bits",
    "canonical",
    "single_log",
    "enclosure",
]


@dataclass(frozen=True, eq=False, repr=False)
class LogLinear(Element):
    """The real number s + Σ c·ln(b) over ``terms`` = ((b, c), ...) (see the module docstring).

    Build one with :func:`log_linear`; equality (``==``) is exact, by a common coprime basis.
    """

    s: Rational
    terms: tuple[tuple[int, Rational], ...]

    def __eq__(self, other: object) -> bool:
        o = as_log_linear(other)
        return o is not None and ll_sign(ll_add(self, ll_neg(o))) == 0

    def __hash__(self) -> int:
        # s is determined by the value (Lindemann–Weierstrass), so equal values hash alike
        return hash(("exactdp-loglinear", self.s))


@dataclass(frozen=True, repr=False)
class LogReal(Element):
    """The real number s + ln r (s rational, r > 0 rational, r ≠ 1): ``log(3)``,
    ``1/10 + log(2)``.

    Build one with the ladder (``exactdp.exact("log(3)")``, or :func:`canonical`); the ladder
    returns a plain rational when r = 1.  It is the linear form of one logarithm with an integer
    coefficient, so it compares equal to the :class:`LogLinear` of the same value."""

    s: Any
    r: Any

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LogReal):
            return self.s == other.s and self.r == other.r
        return isinstance(other, LogLinear) and other == self

    def __hash__(self) -> int:
        return hash(("exactdp-loglinear", self.s))  # as LogLinear: equal values hash alike


def as_log_linear(x: object) -> LogLinear | None:
    """x as a :class:`LogLinear` (a rational, a :class:`LogReal` or a :class:`LogLinear`), or
    None for any other value."""
    if isinstance(x, LogLinear):
        return x
    if isinstance(x, LogReal):
        return log_linear(as_q(x.s), [(as_q(x.r), Q(1))])
    if is_rational(x):
        return LogLinear(as_q(x), ())
    return None


def canonical(x: LogLinear, max_bits: int) -> Any:
    """The canonical kind of a linear form: a rational when it has no logarithm, s + ln r
    (:class:`LogReal`) when every coefficient over the coprime basis is an integer and r has
    at most ``max_bits`` bits, else the form itself."""
    if not x.terms:
        return x.s
    one = ll_single_log(x, max_bits)
    return LogReal(as_q(one[0]), as_q(one[1])) if one is not None else x


def single_log(s: Any, r: Any) -> Any:
    """s + ln r for rationals s and r > 0, in its canonical kind: a rational when r = 1, else a
    :class:`LogReal`."""
    return as_q(s) if r == 1 else LogReal(as_q(s), as_q(r))


def ll_bits(x: LogLinear) -> int:
    """Size in bits: the largest of s, the coefficients and the bases."""
    return max([q_bits(x.s)] + [max(b.bit_length(), q_bits(c)) for b, c in x.terms])


def _is_power(n: int) -> bool:
    try:
        import gmpy2

        return bool(gmpy2.is_power(n))
    except ImportError:  # pragma: no cover - gmpy2 is a dependency
        return True  # (then every exponent is tried)


def _gcd(a: int, b: int) -> int:
    """gcd(a, b), by GMP when the numbers are large (its gcd is subquadratic; Python's is not)."""
    if a.bit_length() < 3000 and b.bit_length() < 3000:
        return gcd(a, b)
    try:
        import gmpy2

        return int(gmpy2.gcd(a, b))
    except ImportError:  # pragma: no cover - gmpy2 is a dependency
        return gcd(a, b)


def _iroot_exact(n: int, k: int) -> int | None:
    try:
        import gmpy2

        root, exact = gmpy2.iroot(n, k)
        return int(root) if exact else None
    except ImportError:  # pragma: no cover - gmpy2 is a dependency
        r = exact_root(Q(n), k)
        return None if r is None else int(r)


def _perfect_power(n: int) -> tuple[int, int]:
    """(a, k) with n = a^k and k as large as possible (prime roots taken while they exist)."""
    k = 1
    p = 2
    # GMP's test first, and again after each root: most numbers are not powers, and trying
    # every exponent up to the bit length takes minutes for a number of a million bits.  Only
    # prime exponents: a q*r-th power is a q-th power, taken when q was tried.
    while _is_power(n) and p <= n.bit_length():
        root = _iroot_exact(n, p)
        if root is not None:
            n, k = root, k * p
            continue
        p = _next_prime(p)
    return n, k


def _next_prime(p: int) -> int:
    p += 1
    while any(p % d == 0 for d in range(2, isqrt(p) + 1)):
        p += 1
    return p


def coprime_basis(nums: Iterable[int]) -> list[int]:
    """Pairwise coprime integers > 1, none a perfect power, such that every n in ``nums`` is a
    product of their powers (gcd refinement; no factoring).

    >>> coprime_basis([12, 18])
    [2, 3]
    >>> coprime_basis([6, 10, 4])
    [2, 3, 5]
    """
    work = [n for n in nums if n > 1]
    basis: list[int] = []
    while work:
        n = work.pop()
        for i, b in enumerate(basis):
            g = _gcd(n, b)
            if g > 1:
                basis.pop(i)
                work.extend(x for x in (g, n // g, b // g) if x > 1)
                break
        else:
            if n not in basis:
                basis.append(n)
    return sorted({_perfect_power(b)[0] for b in basis})


def exponents(n: int, basis: list[int]) -> dict[int, int]:
    """{b: k} with n = Π b^k over a :func:`coprime_basis` that covers n."""
    out: dict[int, int] = {}
    for b in basis:
        k = 0
        while n % b == 0:
            n //= b
            k += 1
        if k:
            out[b] = k
    if n != 1:  # pragma: no cover - the basis covers n by construction
        raise AssertionError("coprime basis does not cover the number")
    return out


def log_linear(s: object, logs: Iterable[tuple[object, object]]) -> LogLinear:
    """s + Σ c·ln(r) for ``logs`` = [(r, c), ...] with rationals r > 0 and c, normalised over a
    coprime basis of the numerators and denominators."""
    pairs = [(to_fraction(r), as_q(c)) for r, c in logs if c != 0]
    for r, _ in pairs:
        if r <= 0:
            raise InexactValueError(f"log of a non-positive number: log({r})")
    basis = coprime_basis([x for r, _ in pairs for x in (r.numerator, r.denominator)])
    coef: dict[int, Rational] = {}
    for r, c in pairs:
        for sign, n in ((1, r.numerator), (-1, r.denominator)):
            for b, k in exponents(n, basis).items():
                coef[b] = coef.get(b, Q(0)) + sign * k * c
    return LogLinear(as_q(s), tuple((b, c) for b, c in sorted(coef.items()) if c != 0))


def ll_add(a: LogLinear, b: LogLinear) -> LogLinear:
    return log_linear(a.s + b.s, [(Q(x), c) for x, c in a.terms + b.terms])


def ll_neg(a: LogLinear) -> LogLinear:
    return LogLinear(-a.s, tuple((b, -c) for b, c in a.terms))


def ll_scale(a: LogLinear, k: object) -> LogLinear:
    k = as_q(k)
    if k == 0:
        return LogLinear(Q(0), ())
    return LogLinear(a.s * k, tuple((b, c * k) for b, c in a.terms))


def power_bits(a: LogLinear) -> int:
    """An upper bound on the bits of prod b^|c| over the terms (exact for powers of two: the bound
    that decides whether e^a, when rational, is small enough to hold)."""
    return sum(abs(int(c)) * (b.bit_length() - (b & (b - 1) == 0)) for b, c in a.terms)


def ll_single_log(a: LogLinear, max_bits: int) -> tuple[object, object] | None:
    """(s, r) with a = s + ln r for a rational r of at most ``max_bits`` bits, else None.

    Over the coprime basis this happens exactly when every coefficient is an integer."""
    if any(to_fraction(c).denominator != 1 for _, c in a.terms) or power_bits(a) > max_bits:
        return None
    r = Q(1)
    for b, c in a.terms:
        r *= Q(b) ** int(c)
    return a.s, r


_LOGS: dict[tuple[int, int], object] = {}  # (b, prec) -> arb ball of ln b (basis elements recur)


def _log_ball(b: int, prec: int):
    from flint import arb

    key = (b, prec)
    ball = _LOGS.get(key)
    if ball is None:
        if len(_LOGS) > 100_000:
            _LOGS.clear()
        ball = _LOGS[key] = arb(b).log()
    return ball


def enclosure(a: LogLinear, prec: int):
    """An arb ball containing the value of ``a`` at ``prec`` bits (python-flint)."""
    with arb_prec(prec) as flint:
        fs = to_fraction(a.s)
        v = flint.arb(flint.fmpq(fs.numerator, fs.denominator))
        for b, c in a.terms:
            fc = to_fraction(c)
            v += flint.arb(flint.fmpq(fc.numerator, fc.denominator)) * _log_ball(b, prec)
        return v


_MAX_POWER_BITS = 4096  # integer powers compared exactly up to this size; intervals beyond


def _sign_by_powers(a: LogLinear) -> int | None:
    """sign(Σ c_b ln b) for s = 0 by integers: with D the common denominator, compare
    Π_{c_b > 0} b^{D c_b} with Π_{c_b < 0} b^{−D c_b} exactly; None when s ≠ 0 or the powers
    would exceed :data:`_MAX_POWER_BITS` bits."""
    from math import lcm

    if a.s != 0:
        return None
    d = 1
    for _, c in a.terms:
        d = lcm(d, to_fraction(c).denominator)
    exps = [(b, int(to_fraction(c * d))) for b, c in a.terms]
    if sum(b.bit_length() * abs(e) for b, e in exps) > _MAX_POWER_BITS:
        return None
    pos, neg = 1, 1
    for b, e in exps:
        if e > 0:
            pos *= b**e
        else:
            neg *= b ** (-e)
    return (pos > neg) - (pos < neg)


def ll_sign(a: LogLinear) -> int:
    """The sign of ``a``, exactly: 0 iff it has no log terms and s = 0 (module docstring);
    otherwise, for s = 0 and moderate sizes, by comparing integer powers
    (c1 ln r1 < c2 ln r2 ⇔ r1^{D c1} < r2^{D c2}), else by certified intervals at doubling
    precision."""
    if not a.terms:
        return (a.s > 0) - (a.s < 0)
    exact = _sign_by_powers(a)
    if exact is not None:
        return exact
    return _sign_by_intervals(a)


def _sign_by_intervals(a: LogLinear) -> int:
    """sign(a) for a nonzero ``a`` by arb enclosures at doubling precision (terminates, within
    the ``--max-precision`` limit for values extremely close to 0)."""
    return certified_sign(lambda prec: enclosure(a, prec), lambda: q_short(ll_str(a), 40))


def ll_cmp(a: LogLinear, b: LogLinear) -> int:
    return ll_sign(ll_add(a, ll_neg(b)))


def _common_log_text(a: LogLinear, max_bits: int = 512) -> str | None:
    """``log(R)/D`` with D the least common denominator of the coefficients (canonical: over
    the coprime basis no smaller D makes e^{D·Σ} rational), when R is small enough to print."""
    from math import lcm

    d = 1
    for _, c in a.terms:
        d = lcm(d, to_fraction(c).denominator)
    if sum(b.bit_length() * abs(to_fraction(c * d).numerator) for b, c in a.terms) > max_bits:
        return None
    r = Q(1)
    for b, c in a.terms:
        r *= Q(b) ** int(to_fraction(c * d))
    lg = f"log({q_str(r)})"
    return lg if d == 1 else f"{lg}/{d}"


def ll_str(a: LogLinear) -> str:
    """Exact text in the number grammar: ``log(61/9)/2``, ``1/10 + log(3)/5``,
    ``3/4*log(2) - 1/4*log(3)`` (when one log would be too long)."""
    if not a.terms:
        return q_str(a.s)
    body = _common_log_text(a)
    if body is None:
        parts = []
        for b, c in a.terms:
            mag = abs(c)
            t = f"log({int_str(b)})" if mag == 1 else f"{q_str(mag)}*log({int_str(b)})"
            parts.append(("- " if c < 0 else "+ ") + t)
        body = " ".join(parts)
        body = body[2:] if body.startswith("+ ") else "-" + body[2:]
    return body if a.s == 0 else f"{q_str(a.s)} + {body}"


def ll_decimal(a: LogLinear, digits: int = 6) -> str:
    """A decimal reading (display only; verdicts never use it), from a ball refined until it is
    narrower than the digits shown (:func:`~exactdp.numbers.certified.ball_decimal`)."""
    return ball_decimal(lambda prec: enclosure(a, prec), digits)
