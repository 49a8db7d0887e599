"""Exact real-root isolation, real algebraic numbers and rational functions of the parametric
engine, cross-checked against independent implementations (SymPy's own exact root isolation,
brute force) and definitions."""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis.parametric.algebraic import (
    closed_form_text,
    compare,
    decimal_text,
    rational,
    real_roots,
    root_in,
    sign_of_poly_at,
)
from exactdp.analysis.parametric.polys import (
    _certify,
    _from_balls,
    _isolate_squarefree,
    cauchy_bound,
    descartes_bound,
    isolate_real_roots,
    sign_at,
    simplest_between,
    sturm_count,
    sturm_sequence,
)
from exactdp.analysis.parametric.ratfun import Ring, factored_text

X = flint.fmpz_poly([0, 1])
x = sympy.Symbol("x")
Q = flint.fmpq


def to_sympy(f: flint.fmpz_poly) -> sympy.Poly:
    return sympy.Poly([int(c) for c in reversed(f.coeffs())], x)


small_polys = st.lists(st.integers(-6, 6), min_size=2, max_size=7).filter(lambda cs: any(cs[1:]))


@settings(max_examples=150, deadline=None)
@given(small_polys)
def test_roots_agree_with_sympy_exact_isolation(cs):
    """The distinct real roots (with multiplicities) equal SymPy's, which isolates them with its
    own exact algorithm (continued fractions)."""
    f = flint.fmpz_poly(cs)
    if f.degree() < 1:
        return
    ours = real_roots(f)
    theirs = sympy.real_roots(to_sympy(f), multiple=False)  # increasing, exact
    assert len(ours) == len(theirs)
    for (a, m), (r, k) in zip(ours, theirs):
        assert m == k
        if a.q is not None:
            assert sympy.Rational(int(a.q.p), int(a.q.q)) == r
        else:  # the exact root lies in the isolating interval (SymPy decides the comparison exactly)
            assert sympy.Rational(int(a.lo.p), int(a.lo.q)) < r < sympy.Rational(int(a.hi.p), int(a.hi.q))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=7), min_size=1, max_size=5, unique=True))
def test_known_rational_roots_are_found_exactly(rs):
    f = flint.fmpz_poly([1])
    for r in rs:
        f *= flint.fmpz_poly([-r.numerator, r.denominator])
    f *= X**2 - 3  # and two irrational roots
    found = [a for a, _ in real_roots(f)]
    assert [Fraction(int(a.q.p), int(a.q.q)) for a in found if a.q is not None] == sorted(rs)
    assert sum(a.q is None for a in found) == 2


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=3, max_size=6).filter(lambda cs: cs[-1] != 0))
def test_isolating_intervals_are_certified_by_sturm(cs):
    f = flint.fmpz_poly(cs)
    for g, _ in f.factor()[1]:
        if g.degree() < 2:
            continue
        seq, ivs = sturm_sequence(g), isolate_real_roots(g)
        for lo, hi in ivs:
            assert sturm_count(seq, lo, hi) == 1
            assert descartes_bound(g, lo, hi) == 1
        bound = cauchy_bound(g)
        assert sturm_count(seq, -bound, bound) == len(ivs)  # and no root outside them


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-(10**6), 10**6), min_size=20, max_size=41).filter(lambda cs: cs[-1] != 0))
def test_both_isolations_agree_with_sturm_at_higher_degree(cs):
    """The intervals read off FLINT's root balls and those of Descartes bisection (the fallback,
    checked against the balls' count) each hold one root, and they count every real root."""
    for g, _ in flint.fmpz_poly(cs).factor()[1]:
        if g.degree() < 2:
            continue
        seq, bound = sturm_sequence(g), cauchy_bound(g)
        balls = _from_balls(g)
        bisected = _isolate_squarefree(g, -bound, bound)
        _certify(g, bisected)
        for ivs in [bisected] + ([balls] if balls is not None else []):
            assert [sturm_count(seq, lo, hi) for lo, hi in ivs] == [1] * len(ivs)
            assert sturm_count(seq, -bound, bound) == len(ivs)


def test_high_degree_roots_are_isolated_from_the_balls_quickly():
    """x^199 - 3 (1 - x)^199 (a symbolic case's boundary): bisection from Cauchy's bound took
    about 7 s a polynomial and the Sturm certificate 30 s; the balls give the one root at once."""
    g = X**199 - 3 * (1 - X) ** 199
    ((h, _),) = [(h, m) for h, m in g.factor()[1] if h.degree() > 1]
    ivs = _from_balls(h)
    assert ivs is not None and len(ivs) == 1
    lo, hi = ivs[0]
    assert sign_at(h, lo) * sign_at(h, hi) < 0 and descartes_bound(h, lo, hi) == 1


@settings(max_examples=200, deadline=None)
@given(
    st.fractions(min_value=-20, max_value=20, max_denominator=30),
    st.fractions(min_value=Fraction(1, 30), max_value=10, max_denominator=30),
)
def test_simplest_between_is_inside_and_simplest(lo, width):
    hi = lo + width
    q = simplest_between(Q(lo.numerator, lo.denominator), Q(hi.numerator, hi.denominator))
    f = Fraction(int(q.p), int(q.q))
    assert lo < f < hi
    for den in range(1, f.denominator):  # no rational with a smaller denominator is inside
        n = (lo * den).__floor__() + 1
        assert not (Fraction(n, den) < hi)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.fractions(min_value=-10, max_value=10, max_denominator=20))
def test_order_of_square_roots_against_exact_squares(a, b, q):
    """sqrt(a) vs sqrt(b) vs q, decided by isolating intervals, against exact integer squares."""
    ra = next(r for r, _ in real_roots(X**2 - a) if r > 0)
    rb = next(r for r, _ in real_roots(X**2 - b) if r > 0)
    assert (compare(ra, rb) < 0) == (a < b) and (compare(ra, rb) == 0) == (a == b)
    rq = rational(Q(q.numerator, q.denominator))
    assert (compare(ra, rq) > 0) == (q < 0 or q * q < a)


def test_sign_of_a_polynomial_at_an_algebraic_point():
    s2 = next(r for r, _ in real_roots(X**2 - 2) if r > 0)
    assert sign_of_poly_at(X**2 - 2, s2) == 0
    assert sign_of_poly_at((X**2 - 2) * (X + 5), s2) == 0
    assert sign_of_poly_at(X - 1, s2) == 1
    assert sign_of_poly_at(2 * X**3 - 5 * X, s2) == -1  # 2*2*sqrt2 - 5*sqrt2 < 0


def test_worked_example_endpoint():
    """The root of 9E^2 - 2E - 21 in (1, 2) is (1 + sqrt(190))/9 (quadratic formula)."""
    (r,) = root_in(9 * X**2 - 2 * X - 21, Q(1), Q(2))
    assert closed_form_text(r, "E") == "(1 + sqrt(190))/9"
    assert decimal_text(r, 14) == "1.6426720835656"
    assert r.interval == (Q(1), Q(2))


@pytest.mark.parametrize(
    "q, digits, text",
    [(Q(1, 3), 5, "0.33333"), (Q(2, 3), 3, "0.667"), (Q(-99999, 100000), 3, "-1"), (Q(12345), 2, "12000")],
)
def test_decimal_rounding(q, digits, text):
    assert decimal_text(rational(q), digits) == text


def test_decimal_digits_are_all_proved():
    """Every printed digit of sqrt(2) to 30 digits (the interval is refined until both ends agree)."""
    r = next(r for r, _ in real_roots(X**2 - 2) if r > 0)
    assert decimal_text(r, 30) == "1.41421356237309504880168872421"


def test_rational_functions_are_in_lowest_terms():
    R = Ring(["E"])
    E = R.gen("E")
    a = (E**2 - 1) / (E - 1)
    assert a == E + 1 and hash(a) == hash(E + 1)
    assert factored_text((E**2 - E) / (1 + E) ** 2) == "E*(E - 1)/(E + 1)^2"
    assert factored_text(-(E * R.gen("E")) / (2 * (E + 1))) == "-E^2/(2*(E + 1))"
    assert (a * 0).is_zero() and (E / E).is_one()
    v = R.from_sympy(sympy.Symbol("E") / (1 + sympy.Symbol("E"))).at({"E": Q(2)})
    assert v == Q(2, 3)
