r"""Expressions in logarithms of rational functions, as polynomials in independent generators.

A value such as ρ(E) − ε(E)²/2 with ε = log(E²/(E + 1)) mixes logarithms of rational functions.
Every log R with R > 0 (R a rational function of the symbols in lowest terms, or a rational) is

.. math::  \log R = \sum_p e_p \log p + \sum_f k_f \log |f| ,

over the primes p of R's constant factor and the irreducible factors f of its numerator and
denominator (f normalised to a positive leading coefficient, so f and −f are one factor): an
identity of real numbers wherever R is finite and positive, since R = abs(R) is abs(c) times the
product of the abs(f)^{k_f}.  With each log p and log abs(f) replaced by a new indeterminate, the
expression is a polynomial in those indeterminates with rational-function coefficients
(:func:`log_polynomial`).  If that polynomial is identically zero, so is the expression,
whatever relations the logarithms may have, so :func:`formally_zero` proves an identity without deciding anything about transcendental numbers;
when it is not zero it proves nothing (log 2 and log 3 may not be algebraically independent, as
far as anyone has proved).  :func:`even_nonnegative` proves ≥ 0 in the same way: the polynomial
is ≥ 0 for every real value of the indeterminates (a positive semidefinite quadratic part, and
other terms that are monomial squares with nonnegative coefficients).
"""

from __future__ import annotations

from typing import Any

from ...numbers.symbolic import is_transcendental, sympy

__all__ = ["LogBasis", "log_polynomial", "formally_zero", "even_nonnegative", "psd"]

_FACTOR_BITS = 64  # larger constants are kept whole (no factoring of big integers)


class LogBasis:
    """The indeterminates of the logarithms met so far (one per prime and per irreducible factor),
    shared by every expression rewritten with the same basis, so that their polynomials compare."""

    def __init__(self) -> None:
        self.gens: dict[tuple, Any] = {}

    def gen(self, key: tuple) -> Any:
        return self.gens.setdefault(key, sympy.Dummy(f"g{len(self.gens)}"))

    def _integer(self, n: int, sign: int) -> Any:
        if n.bit_length() > _FACTOR_BITS:
            return sign * self.gen(("n", n))
        return sum((sign * e * self.gen(("p", int(p))) for p, e in sympy.factorint(n).items()), sympy.Integer(0))

    def _factors(self, poly: Any, sign: int) -> Any:
        c, fs = sympy.factor_list(poly)
        c = sympy.Rational(c)
        out = self._integer(abs(int(c.p)), sign) + self._integer(int(c.q), -sign)
        for f, k in fs:
            syms = sorted(f.free_symbols, key=str)
            if syms and sympy.Poly(f, *syms).LC() < 0:
                f = -f
            out += sign * int(k) * self.gen(("f", sympy.srepr(sympy.expand(f))))
        return out

    def log(self, arg: Any) -> Any:
        """log(arg) as a linear form in the indeterminates (module docstring)."""
        if is_transcendental(arg) or not arg.is_rational_function():  # stays one indeterminate
            return self.gen(("x", sympy.srepr(arg)))
        num, den = sympy.fraction(sympy.cancel(sympy.together(arg)))
        return self._factors(num, 1) + self._factors(den, -1)

    def poly(self, expr: Any) -> Any:
        """``expr`` with every logarithm rewritten, expanded (and in lowest terms when a symbol
        stays outside the logarithms)."""
        done = sympy.expand(expr.replace(lambda x: isinstance(x, sympy.log), lambda x: self.log(x.args[0])))
        if done.free_symbols - set(self.gens.values()):
            return sympy.cancel(sympy.together(done))
        return done

    def as_poly(self, expr: Any) -> Any:
        """A polynomial of :meth:`poly` as a SymPy ``Poly`` over ℚ in every indeterminate so far, or
        None when a symbol stays outside the logarithms."""
        gens = list(self.gens.values())
        if expr.free_symbols - set(gens):
            return None
        return sympy.Poly(expr, *gens, domain="QQ") if gens else sympy.Poly(expr, sympy.Dummy(), domain="QQ")

    def nonnegative(self, poly: Any) -> bool:
        """Whether a polynomial of :meth:`poly` (or a ``Poly`` of :meth:`as_poly`) is ≥ 0 for
        *every* real value of the indeterminates, by an exact sufficient test: its homogeneous
        quadratic part is a positive semidefinite form (:func:`psd`) and every other term is c·m²
        with rational c ≥ 0 and m a monomial of the indeterminates.  Then it is ≥ 0 wherever its
        logarithms are defined, whatever their values."""
        p = poly if isinstance(poly, sympy.Poly) else self.as_poly(poly)
        if p is None:
            return False
        if p.is_zero:
            return True
        quad: dict[tuple[int, int], Any] = {}
        for m, c in p.terms():
            if sum(m) == 2:
                idx = [k for k, e in enumerate(m) for _ in range(e)]
                quad[(idx[0], idx[1])] = sympy.Rational(c)
            elif not (c >= 0 and all(e % 2 == 0 for e in m)):
                return False
        n = len(p.gens)
        a = [[sympy.Rational(0)] * n for _ in range(n)]
        for (i, j), c in quad.items():
            if i == j:
                a[i][i] += c
            else:
                a[i][j] += c / 2
                a[j][i] += c / 2
        return psd(a)


def psd(a: list[list[Any]]) -> bool:
    """Whether a symmetric matrix of rationals is positive semidefinite, exactly: symmetric
    Gaussian elimination on the diagonal; a negative pivot, or a zero pivot with a nonzero row,
    refutes it (Horn & Johnson 2013, Thm 7.2.5: the Schur complement of a positive pivot is PSD
    iff the matrix is)."""
    a = [row[:] for row in a]
    n = len(a)
    for k in range(n):
        if a[k][k] < 0:
            return False
        if a[k][k] == 0:
            if any(a[k][j] != 0 for j in range(k, n)):
                return False
            continue
        for i in range(k + 1, n):
            f = a[i][k] / a[k][k]
            for j in range(k, n):
                a[i][j] -= f * a[k][j]
    return True


def log_polynomial(expr: Any) -> tuple[Any, list[Any]]:
    """``expr`` with every logarithm rewritten over its factors, each log p and log abs(f) a new
    indeterminate; the result and the indeterminates."""
    basis = LogBasis()
    poly = basis.poly(expr)
    return poly, list(basis.gens.values())


def formally_zero(expr: Any) -> bool:
    """Whether ``expr`` is zero as a polynomial in the logarithms' indeterminates (module
    docstring): then it is zero as a real function wherever its logarithms are defined."""
    return log_polynomial(expr)[0] == 0


def even_nonnegative(expr: Any) -> bool:
    """Whether ``expr``, rewritten over the logarithms' indeterminates, is a sum of terms c·m²
    with rational c ≥ 0 and no symbol outside the logarithms: then it is ≥ 0 wherever its
    logarithms are defined."""
    basis = LogBasis()
    return basis.nonnegative(basis.poly(expr))
