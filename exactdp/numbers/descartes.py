r"""Descartes' rule of signs on an interval: a bound on the number of real roots of an integer
polynomial in an open interval, exact when it is 0 or 1 and of the same parity as that number.

The interval (a, b) is mapped onto (0, inf) by x = (a + b y)/(1 + y) and the sign variations
of the coefficients of (1 + y)^n f((a + b y)/(1 + y)) are counted (Collins & Akritas 1976, the
Descartes method of real-root isolation).  All arithmetic is exact (FLINT).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..lazy import flint

__all__ = ["variations", "descartes_bound", "descartes_on"]

_Q = flint.fmpq


def variations(cs: Sequence) -> int:
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
    return variations(h.coeffs())


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
        return variations(pos) + variations(neg) + zero
    if a is not None:  # (0, inf) -> (a, inf)
        g = fq(flint.fmpq_poly([a, 1]))
    else:  # (0, inf) -> (-inf, b)
        assert b is not None
        g = fq(flint.fmpq_poly([b, -1]))
    return variations(g.coeffs())
