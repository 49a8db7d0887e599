r"""Exact real-root isolation of integer polynomials, certified by Sturm sequences.

A polynomial with integer coefficients is split into its irreducible factors (exact
factorisation, python-flint).  Each factor of degree ≥ 2 is squarefree, and its real roots are
isolated by the Descartes method (Collins–Akritas): the number of sign variations of the
coefficients of

.. math::  (1 + x)^n \, f\!\left(\frac{a + b x}{1 + x}\right)

bounds the number of roots of f in (a, b) and has its parity; 0 and 1 are exact answers, and
bisection at rational midpoints reaches them for a squarefree f (Vincent's theorem).  The
search starts on (−B, B) with :math:`B = 1 + \max_i |c_i / c_n|` (Cauchy's bound), which contains every
real root.

Every answer is then *certified* independently: on each isolating interval (a, b) the Sturm
sequence of f counts exactly one root in (a, b] and f(a), f(b) are non-zero with opposite
signs; the Sturm count on (−B, B] equals the number of intervals.  A disagreement raises
:class:`~exactdp.errors.VerificationError` (a bug), never a guess.

All arithmetic is exact (flint ``fmpz_poly``, ``fmpq_poly`` and ``fmpq``).

References
----------
G. E. Collins and A. G. Akritas, *Polynomial real root isolation using Descartes' rule of
signs*, SYMSAC 1976.  C. Sturm, 1835 (the Sturm sequence and its count of real roots).
"""

from __future__ import annotations

import copyreg
from collections.abc import Sequence

from ...errors import VerificationError
from ...lazy import flint

__all__ = [
    "ZPoly",
    "primitive",
    "irreducible_factors",
    "isolate_real_roots",
    "descartes_bound",
    "descartes_on",
    "sturm_sequence",
    "sturm_count",
    "sign_at",
    "cauchy_bound",
    "simplest_between",
]

ZPoly = flint.fmpz_poly
_Q = flint.fmpq


def _reduce_fmpz_poly(p: flint.fmpz_poly) -> tuple:
    return (flint.fmpz_poly, ([int(c) for c in p.coeffs()],))


def _reduce_fmpq_poly(p: flint.fmpq_poly) -> tuple:
    return (flint.fmpq_poly, ([int(c) for c in p.numer().coeffs()], int(p.denom())))


# python-flint's polynomials do not pickle; verdicts holding them (algebraic endpoints) cross
# process boundaries (``--jobs``), so teach pickle their coefficients
copyreg.pickle(flint.fmpz_poly, _reduce_fmpz_poly)
copyreg.pickle(flint.fmpq_poly, _reduce_fmpq_poly)


def primitive(f: flint.fmpz_poly) -> flint.fmpz_poly:
    """``f`` divided by its content, with a positive leading coefficient (same real roots)."""
    c = f.content()
    if c != 1 and c != 0:
        f = flint.fmpz_poly([x // c for x in f.coeffs()])
    return -f if f.leading_coefficient() < 0 else f


def irreducible_factors(f: flint.fmpz_poly) -> list[tuple[flint.fmpz_poly, int]]:
    """The irreducible factors of ``f`` of degree ≥ 1 with their multiplicities, each primitive
    with a positive leading coefficient (the constant factor is dropped)."""
    _, facs = f.factor()
    return [(primitive(g), m) for g, m in facs if g.degree() >= 1]


def sign_at(f: flint.fmpz_poly, x: flint.fmpq) -> int:
    """The sign of f(x) at a rational x, exactly."""
    v = f(x)
    return (v > 0) - (v < 0)


def cauchy_bound(f: flint.fmpz_poly) -> flint.fmpq:
    """An integer B with every complex root of f strictly inside |z| < B."""
    cs = f.coeffs()
    lead = abs(cs[-1])
    m = max((abs(c) for c in cs[:-1]), default=0)
    return _Q(1 + (m + lead - 1) // lead + 1)


def _variations(cs: Sequence) -> int:
    last = 0
    n = 0
    for c in cs:
        if c == 0:
            continue
        s = 1 if c > 0 else -1
        if last and s != last:
            n += 1
        last = s
    return n


def descartes_bound(f: flint.fmpz_poly, a: flint.fmpq, b: flint.fmpq) -> int:
    """The Descartes bound on the number of roots of f in the open interval (a, b), a < b,
    for f(a), f(b) ≠ 0: exact when it is 0 or 1, and of the same parity as that number."""
    n = f.degree()
    g = flint.fmpq_poly(f.coeffs())(flint.fmpq_poly([a, b - a]))  # (0, 1) -> (a, b)
    cs = g.coeffs()
    cs = cs + [_Q(0)] * (n + 1 - len(cs))
    rev = flint.fmpq_poly(list(reversed(cs)))  # x^n g(1/x): (1, inf) -> (0, 1)
    h = rev(flint.fmpq_poly([1, 1]))  # (0, inf) -> (1, inf)
    return _variations(h.coeffs())


def descartes_on(f: flint.fmpz_poly, a: flint.fmpq | None, b: flint.fmpq | None) -> int:
    """The Descartes bound on the number of roots of f (counted with multiplicity) in the open
    interval (a, b), ``None`` an infinite end; 0 proves there is none.  Roots at a or b do not
    count (they are not in the open interval)."""
    if a is not None and b is not None:
        return descartes_bound(f, a, b)
    fq = flint.fmpq_poly(f.coeffs())
    if a is None and b is None:
        pos = fq.coeffs()
        neg = fq(flint.fmpq_poly([0, -1])).coeffs()
        zero = 1 if f.coeffs() and f.coeffs()[0] == 0 else 0
        return _variations(pos) + _variations(neg) + zero
    if a is not None:  # (0, inf) -> (a, inf)
        g = fq(flint.fmpq_poly([a, 1]))
    else:  # (0, inf) -> (-inf, b)
        assert b is not None
        g = fq(flint.fmpq_poly([b, -1]))
    return _variations(g.coeffs())


def _isolate_squarefree(f: flint.fmpz_poly, a: flint.fmpq, b: flint.fmpq) -> list[tuple[flint.fmpq, flint.fmpq]]:
    """Isolating open intervals of the roots of a squarefree ``f`` in (a, b), f(a), f(b) ≠ 0;
    a rational root found at a midpoint is returned as the degenerate interval (m, m)."""
    out: list[tuple[flint.fmpq, flint.fmpq]] = []
    stack = [(a, b)]
    while stack:
        lo, hi = stack.pop()
        v = descartes_bound(f, lo, hi)
        if v == 0:
            continue
        if v == 1:
            out.append((lo, hi))
            continue
        m = (lo + hi) / 2
        if f(m) == 0:
            out.append((m, m))
            # move the split points off the root so that both halves have non-root ends
            d = (hi - lo) / 4
            while f(m - d) == 0 or f(m + d) == 0 or descartes_bound(f, m - d, m + d) != 1:
                d /= 2
            stack.append((lo, m - d))
            stack.append((m + d, hi))
            continue
        stack.append((lo, m))
        stack.append((m, hi))
    return sorted(out, key=lambda iv: iv[0])


def sturm_sequence(f: flint.fmpz_poly) -> list[flint.fmpq_poly]:
    """The Sturm sequence f, f', −rem(f, f'), … (exact, over ℚ)."""
    seq = [flint.fmpq_poly(f.coeffs()), flint.fmpq_poly(f.derivative().coeffs())]
    while not seq[-1].is_zero() and seq[-1].degree() > 0:
        r = seq[-2] % seq[-1]
        if r.is_zero():
            break
        seq.append(-r)
    return seq


def _sturm_variations(seq: list[flint.fmpq_poly], x: flint.fmpq) -> int:
    return _variations([p(x) for p in seq])


def sturm_count(seq: list[flint.fmpq_poly], a: flint.fmpq, b: flint.fmpq) -> int:
    """The number of distinct real roots in (a, b] of the squarefree polynomial whose Sturm
    sequence is ``seq`` (Sturm's theorem)."""
    return _sturm_variations(seq, a) - _sturm_variations(seq, b)


def isolate_real_roots(f: flint.fmpz_poly) -> list[tuple[flint.fmpq, flint.fmpq]]:
    """Disjoint isolating intervals of the real roots of a *squarefree* ``f`` of degree ≥ 1, in
    increasing order: (a, b) open with exactly one root inside, or (r, r) for a rational root r.

    Certified by Sturm sequences (module docstring); raises
    :class:`~exactdp.errors.VerificationError` if the certification fails.
    """
    if f.degree() < 1:
        return []
    if f.degree() == 1:
        c0, c1 = f.coeffs()
        r = _Q(-c0, c1)
        return [(r, r)]
    B = cauchy_bound(f)
    ivs = _isolate_squarefree(f, -B, B)
    _certify(f, B, ivs)
    return ivs


def _certify(f: flint.fmpz_poly, B: flint.fmpq, ivs: list[tuple[flint.fmpq, flint.fmpq]]) -> None:
    seq = sturm_sequence(f)
    if seq[-1].degree() > 0:
        raise VerificationError(f"root isolation: {f} is not squarefree")
    total = sturm_count(seq, -B, B)
    if total != len(ivs):
        raise VerificationError(f"root isolation of {f}: {len(ivs)} intervals but Sturm counts {total} roots")
    prev = None
    for lo, hi in ivs:
        if prev is not None and not prev <= lo:
            raise VerificationError(f"root isolation of {f}: intervals overlap")
        if lo == hi:
            if f(lo) != 0:
                raise VerificationError(f"root isolation of {f}: {lo} is not a root")
        elif sign_at(f, lo) * sign_at(f, hi) >= 0 or sturm_count(seq, lo, hi) != 1:
            raise VerificationError(f"root isolation of {f}: ({lo}, {hi}) does not isolate one root")
        prev = hi


def simplest_between(lo: flint.fmpq | None, hi: flint.fmpq | None) -> flint.fmpq:
    """The rational with the smallest denominator (then the smallest absolute value) in the
    open interval (lo, hi); ``None`` is an infinite end."""
    if lo is None and hi is None:
        return _Q(0)
    if lo is None:
        assert hi is not None
        return _Q(min(0, int(hi.ceil()) - 1))
    if hi is None:
        return _Q(max(0, int(lo.floor()) + 1))
    if not lo < hi:
        raise ValueError("empty interval")
    if lo < 0 < hi:
        return _Q(0)
    if hi <= 0:
        return -simplest_between(-hi, -lo)
    fl = lo.floor()
    if fl + 1 < hi:
        return _Q(fl + 1)
    # no integer in (lo, hi): x = fl + 1/y with y in (1/(hi - fl), 1/(lo - fl))
    y = simplest_between(1 / (hi - fl), None if lo == fl else 1 / (lo - fl))
    return fl + 1 / y
