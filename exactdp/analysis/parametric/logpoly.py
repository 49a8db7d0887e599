r"""Expressions in logarithms of rational functions, as polynomials in independent generators.

A value such as ρ(E) − ε(E)²/2 with ε = log(E²/(E + 1)) mixes logarithms of rational functions.
Every log R with R > 0 (R a rational function of the symbols in lowest terms, or a rational) is

.. math::  \log R = \sum_p e_p \log p + \sum_f k_f \log |f| ,

over the primes p of R's constant factor and the irreducible factors f of its numerator and
denominator (f normalised to a positive leading coefficient, so f and −f are one factor): an
identity of real numbers wherever R is finite and positive, since |R| = |c| ∏ |f|^{k_f}.  With
each log p and log |f| replaced by a new indeterminate, the expression is a polynomial in those
indeterminates with rational-function coefficients (:func:`log_polynomial`).  If that polynomial
is identically zero, so is the expression — whatever relations the logarithms may have — so
:func:`formally_zero` proves an identity without deciding anything about transcendental numbers;
when it is not zero it proves nothing (log 2 and log 3 may not be algebraically independent, as
far as anyone has proved).  :func:`even_nonnegative` proves ≥ 0 in the same way: every monomial
a square with a nonnegative rational coefficient.
"""

from __future__ import annotations

from typing import Any

from ...numbers.symbolic import is_transcendental, sympy

__all__ = ["log_polynomial", "formally_zero", "even_nonnegative"]

_FACTOR_BITS = 64  # larger constants are kept whole (no factoring of big integers)


def log_polynomial(expr: Any) -> tuple[Any, list[Any]]:
    """``expr`` with every logarithm rewritten over its factors, each log p and log |f| a new
    indeterminate; the expanded result and the indeterminates."""
    gens: dict[tuple, Any] = {}

    def gen(key: tuple) -> Any:
        return gens.setdefault(key, sympy.Dummy(f"g{len(gens)}"))

    def integer(n: int, sign: int) -> Any:
        if n.bit_length() > _FACTOR_BITS:
            return sign * gen(("n", n))
        return sum((sign * e * gen(("p", int(p))) for p, e in sympy.factorint(n).items()), sympy.Integer(0))

    def factors(poly: Any, sign: int) -> Any:
        c, fs = sympy.factor_list(poly)
        c = sympy.Rational(c)
        out = integer(abs(int(c.p)), sign) + integer(int(c.q), -sign)
        for f, k in fs:
            syms = sorted(f.free_symbols, key=str)
            if syms and sympy.Poly(f, *syms).LC() < 0:
                f = -f
            out += sign * int(k) * gen(("f", sympy.srepr(sympy.expand(f))))
        return out

    def rewrite(arg: Any) -> Any:
        if is_transcendental(arg):  # a logarithm of something else stays one indeterminate
            return gen(("x", sympy.srepr(arg)))
        num, den = sympy.fraction(sympy.cancel(sympy.together(arg)))
        return factors(num, 1) + factors(den, -1)

    done = expr.replace(lambda x: isinstance(x, sympy.log), lambda x: rewrite(x.args[0]))
    return sympy.expand(done), list(gens.values())


def formally_zero(expr: Any) -> bool:
    """Whether ``expr`` is zero as a polynomial in the logarithms' indeterminates (module
    docstring): then it is zero as a real function wherever its logarithms are defined."""
    poly, _ = log_polynomial(expr)
    return sympy.cancel(sympy.together(poly)) == 0


def even_nonnegative(expr: Any) -> bool:
    """Whether ``expr``, rewritten over the logarithms' indeterminates, is a sum of terms c·m²
    with rational c ≥ 0 and no symbol outside the logarithms: then it is ≥ 0 wherever its
    logarithms are defined."""
    poly, gens = log_polynomial(expr)
    poly = sympy.cancel(sympy.together(poly))
    if poly == 0:
        return True
    if not gens or poly.free_symbols - set(gens):
        return False
    p = sympy.Poly(poly, *gens)
    return all(c >= 0 and all(e % 2 == 0 for e in m) for m, c in p.terms())
