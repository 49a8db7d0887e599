"""The profile of ``repeat(M, k)`` for an M without choices as a product of M's privacy loss
distribution (exactdp.analysis.product), against the backward induction over the k layers, and
against the optimal composition theorem's own privacy loss distribution (Kairouz, Oh &
Viswanath 2015, Thm 3.3: k-fold RR_eps is the worst k-fold composition of (eps, 0)-DP steps)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as engine
from exactdp.analysis.induction import pair_chains
from exactdp.analysis.product import commensurable, product_chain, repeated_parts, views_by_ratio
from exactdp.analysis.witness import HullPolicy, recheck, repeat_masses
from exactdp.builders import choose, repeat, rr
from exactdp.model import END, Chance, Mechanism
from exactdp.model.flat import flat_of
from exactdp.numbers import Q, exact
from exactdp.theorems.optimal import optimal_profile
from exactdp.theorems.params import repeated
from tests.strategies import adjacency, distributions


@st.composite
def choiceless(draw, depth: int, n: int):
    """A random game of answers only (no adversary choice), zero probabilities allowed."""
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return END
    k = draw(st.integers(1, 3))
    rows = draw(distributions(k, n))
    return Chance([f"a{i}" for i in range(k)], rows, [draw(choiceless(depth - 1, n)) for _ in range(k)])


@st.composite
def repeats(draw):
    n = draw(st.integers(2, 3))
    inner = Mechanism(draw(choiceless(2, n)), tuple(f"x{i}" for i in range(n)), draw(adjacency(n)))
    return inner, draw(st.integers(0, 7))


def _induction(mech: Mechanism, i: int, j: int) -> tuple:
    top, R, W = pair_chains(flat_of(mech), i, j)[-1]
    return top, list(R), list(W)


@settings(max_examples=150, deadline=None)
@given(rep=repeats())
def test_the_product_is_the_induction(rep):
    inner, k = rep
    outer = repeat(inner, k)
    assert repeated_parts(outer) == (inner, k)
    for i in range(len(inner.datasets)):
        for j in range(len(inner.datasets)):
            got = product_chain(inner, i, j, k) if i != j else None
            if got is not None:
                assert (got[0], list(got[1]), list(got[2])) == _induction(outer, i, j)


def test_decimal_eps_in_the_field_and_group_pairs():
    """RR at eps = 0.1 (Q(e^(1/10))) and a three-dataset mechanism checked on a group pair: the
    profile through the product is the induction's, pair by pair."""
    m = repeat(rr(eps="0.1"), 6)
    assert product_chain(rr(eps="0.1"), 0, 1, 6) is not None
    assert engine.profile(m).pairs[0].hull == engine.pair_hull(m, (0, 1))[0]
    rows = [(Q(1, 2), Q(1, 3), Q(1, 4)), (Q(1, 2), Q(2, 3), Q(3, 4))]
    three = Mechanism(Chance(["a", "b"], rows, [END, END]), ("x0", "x1", "x2"), ((0, 1), (1, 2)))
    group = repeat(three, 5).with_adjacent([(0, 2)])
    assert repeated_parts(group) == (three, 5)
    assert engine.profile(group).pairs[0].hull == engine.pair_hull(group, (0, 2))[0]


def test_mechanisms_with_choices_use_the_induction_and_others_a_product():
    asks = choose([rr(eps="log(2)"), rr(eps="log(3)")])
    assert repeated_parts(repeat(asks, 3)) is None
    for rows in (
        [(Q(1, 2), Q(1, 4)), (Q(1, 4), Q(1, 4)), (Q(1, 4), Q(1, 2))],  # ratios 2, 1, 1/2: a polynomial power
        [(Q(1, 2), Q(1, 6)), (Q(1, 4), Q(1, 4)), (Q(1, 4), Q(7, 12))],  # ratios 3, 1, 3/7: count vectors
    ):
        inner = Mechanism(Chance(["a", "b", "c"], rows, [END] * 3))
        got = product_chain(inner, 0, 1, 9)
        assert got is not None and (got[0], list(got[1]), list(got[2])) == _induction(repeat(inner, 9), 0, 1)


def test_count_vectors_are_refused_beyond_the_profile_size():
    """A four-ratio mechanism repeated 200 times has C(203, 3) = 1,373,701 count vectors: under a
    --max-profile-size of 10^6 the list is not built (the induction decides, within the limits)."""
    from exactdp.analysis.product import count_vectors
    from exactdp.limits import Limits, using

    ratios, masses = [Q(3), Q(1), Q(3, 7), Q(1, 5)], [[Q(1, 4)] * 4]
    with using(Limits(max_hull_edges=10**6)):
        assert count_vectors(ratios, masses, 200, None) is None
    got = count_vectors(ratios, masses, 3, None)
    assert got is not None and len(got[0]) == 20 and sum(got[1][0]) == 1


@pytest.mark.parametrize(
    ("ratios", "base"),
    [
        ([Q(3), Q(1), Q(1, 3)], (Q(3), [1, 0, -1])),
        ([Q(8), Q(1, 4), Q(2)], (Q(2), [3, -2, 1])),
        ([Q(4, 9), Q(27, 8), Q(1)], (Q(3, 2), [-2, 3, 0])),
        ([Q(36), Q(1, 6)], (Q(6), [2, -1])),
        ([Q(2), Q(3)], None),  # (log 3 / log 2 is irrational)
        ([Q(12), Q(18)], None),  # (2^2 3 and 2 3^2: not multiples of one vector)
        ([Q(1), Q(1)], None),
    ],
)
def test_commensurable_ratios(ratios, base):
    assert commensurable(ratios) == base


@st.composite
def commensurable_repeats(draw):
    """A game of answers only whose likelihood ratios are powers of one base s (three or more at
    an answer, some below 1 and some above; two levels multiply them), with an optional pair of
    views impossible under one dataset each; and a number of rounds."""
    s = draw(st.sampled_from([Q(2), Q(3), Q(3, 2), Q(5, 4)]))

    def level(depth: int):
        m = draw(st.integers(3, 4))
        exps = draw(st.lists(st.integers(-3, 3), min_size=m, max_size=m).filter(lambda e: min(e) < 0 < max(e)))
        r, x = [s**e for e in exps], draw(st.lists(st.integers(1, 5), min_size=m, max_size=m))
        above = sum((ri - 1) * xi for ri, xi in zip(r, x) if ri > 1)  # (sum (r - 1) w = 0: P sums to 1)
        below = sum((1 - ri) * xi for ri, xi in zip(r, x) if ri < 1)
        w = [xi * (below if ri > 1 else above if ri < 1 else 1) for ri, xi in zip(r, x)]
        z = draw(st.sampled_from([Q(0), Q(1, 10)]))
        w = [wi * (1 - z) / sum(w) for wi in w]
        rows = [(ri * wi, wi) for ri, wi in zip(r, w)] + ([(z, Q(0)), (Q(0), z)] if z else [])
        kids = [level(depth - 1) if depth and draw(st.booleans()) else END for _ in rows]
        return Chance([f"a{i}" for i in range(len(rows))], rows, kids)

    return Mechanism(level(1), ("x0", "x1"), ((0, 1),)), draw(st.integers(0, 6))


@settings(max_examples=100, deadline=None)
@given(rep=commensurable_repeats(), at=st.integers(0, 8), shift=st.sampled_from([Q(0), Q(1, 7), Q(-1, 9)]))
def test_commensurable_ratios_are_a_polynomial_power(rep, at, shift):
    """Many commensurable ratios: the product's chain (a polynomial power) against the induction
    over the k rounds, and the witness re-check against the forward walk over the rounds."""
    inner, k = rep
    outer = repeat(inner, k)
    plain = outer.with_root(outer.root)
    for i, j in ((0, 1), (1, 0)):
        got = product_chain(inner, i, j, k)
        assert got is not None
        chain = _induction(outer, i, j)
        assert (got[0], list(got[1]), list(got[2])) == chain
        lam = max(chain[1][min(at, len(chain[1]) - 1)] + shift, Q(0)) if chain[1] else Q(1)
        fast = repeat_masses(outer, (i, j), lam)
        assert fast == recheck(plain, (i, j), lam, HullPolicy({}, lam)) if k else fast is None  # (k = 0: no repeat)


def test_a_thousand_rounds_of_rr_are_the_optimal_composition():
    """1000-fold RR_(log 2): the product's profile at every bend is the optimal composition
    theorem's (Kairouz, Oh & Viswanath 2015, Thm 3.3), computed by exactdp.theorems on its own."""
    m = repeat(rr(eps="log(2)"), 1000)
    prof = engine.profile(m)
    comps = repeated([exact("log(2)")], [Q(0)], 1000)
    bends = optimal_profile(comps)
    assert len(bends) > 500
    for lam, delta in bends[::50]:
        assert prof.delta_at_lambda(lam) == delta


@settings(max_examples=150, deadline=None)
@given(rep=repeats(), at=st.integers(0, 8), shift=st.sampled_from([Q(0), Q(1, 7), Q(-1, 9)]))
def test_the_witness_recheck_of_a_repeat_is_the_forward_walks(rep, at, shift):
    """The witness re-check's product (M's views found by walking M forward) against the forward
    walk over the k rounds, at lambda on a bend of the profile (an equality) and off it."""
    inner, k = rep
    outer = repeat(inner, k)
    plain = outer.with_root(outer.root)  # (the same game, not known as a repeat: walked round by round)
    assert repeated_parts(plain) is None
    for i, j in outer.ordered_pairs:
        R = _induction(outer, i, j)[1]
        lam = max(R[min(at, len(R) - 1)] + shift, Q(0)) if R else Q(1)
        fast = repeat_masses(outer, (i, j), lam)
        if fast is not None:
            assert fast == recheck(plain, (i, j), lam, HullPolicy({}, lam))


def test_forty_rounds_of_a_three_answer_mechanism_by_the_multinomial_sum():
    """40-fold composition of a three-answer mechanism with likelihood ratios 3, 1 and 1/3 (its
    three views as three outcomes): delta(lam) = sum over the counts (a, b, c) of the views of
    multinomial(40; a, b, c) (P^a - lam P'^a ...)_+, summed by hand in Fractions here (Vadhan &
    Wang 2021, Def. 1.7, for a mechanism without choices), against the profile of the repeat."""
    from fractions import Fraction
    from math import factorial

    rows = [(Q(1, 2), Q(1, 6)), (Q(1, 3), Q(1, 3)), (Q(1, 6), Q(1, 2))]
    m = repeat(Mechanism(Chance(["a", "b", "c"], rows, [END] * 3), ("x0", "x1"), ((0, 1),)), 40)
    assert product_chain(repeated_parts(m)[0], 0, 1, 40) is not None
    prof = engine.profile(m)
    (p1, q1), (p2, q2), (p3, q3) = [tuple(Fraction(int(x.numerator), int(x.denominator)) for x in r) for r in rows]
    for lam in (Fraction(1), Fraction(3) ** 5, Fraction(3) ** 12 + Fraction(1, 2), Fraction(3) ** 40):
        total = Fraction(0)
        for a in range(41):
            for b in range(41 - a):
                c = 40 - a - b
                mult = factorial(40) // (factorial(a) * factorial(b) * factorial(c))
                total += mult * max(Fraction(0), p1**a * p2**b * p3**c - lam * q1**a * q2**b * q3**c)
        assert prof.delta_at_lambda(Q(lam.numerator, lam.denominator)) == total


def test_count_vectors_only_where_they_are_fewer_than_the_inductions_states():
    """Ratios 2, 3, 6, 1/6, 1: their logarithms span a plane (rank 2), so the 5-fold products
    coincide often (about k^2 distinct, k^3 states for the induction) while the count vectors
    number C(k + 4, 4): the list is not built.  Ratios 3, 1, 3/7 (rank 2 = m - 1) are listed."""
    from exactdp.analysis.product import _rank, count_vectors

    assert _rank([[1, 0], [0, 1], [1, 1], [-1, -1], [0, 0]]) == 2 and _rank([[2, 4], [1, 2]]) == 1
    masses = [[Q(1, 5)] * 5]
    assert count_vectors([Q(2), Q(3), Q(6), Q(1, 6), Q(1)], masses, 6, None) is None
    assert count_vectors([Q(3), Q(1), Q(3, 7)], [[Q(1, 3)] * 3], 6, None) is not None


def test_three_ratios_in_the_field_use_the_induction():
    """k-RR at eps = 0.1 has three ratios in Q(e^(1/10)): neither product applies (they need
    rational numbers), and a number of the field once reached a rational-only size function."""
    from exactdp.builders.classic import krr

    inner = krr(eps="0.1", values=["a", "b", "c"], data={"x0": "a", "x1": "b"})
    assert product_chain(inner, 0, 1, 3) is None
    assert views_by_ratio([Q(2), Q(1), Q(1, 2)], [[exact("exp(-1)/4")] * 3], 3, None) is None


def test_a_polynomial_power_is_refused_by_its_distinct_ratios_not_its_length():
    """Ratios 2^100, 1 and 1/2: the 10-fold power has 1,011 coefficients but 66 nonzero ones, the
    profile's pieces; a --max-profile-size of 500 takes it (by the count vectors), and of 1,100
    by the power."""
    from exactdp.analysis.product import ratio_powers
    from exactdp.limits import Limits, using

    ratios, masses = [Q(2) ** 100, Q(1), Q(1, 2)], [[Q(1, 3)] * 3]
    with using(Limits(max_hull_edges=500)):
        assert ratio_powers(ratios, masses, 10, None) is None
        got = views_by_ratio(ratios, masses, 10, None)
    with using(Limits(max_hull_edges=1100)):
        assert ratio_powers(ratios, masses, 10, None) == got
    assert got is not None and len(got[0]) == 66


def test_more_than_64_ratios_use_the_induction():
    """200 views with 200 ratios: their coprime basis would take 40,000 gcds and the count
    vectors a recursion 200 deep, so neither product is tried."""
    n = 200
    rows = [(Q(1, n), Q(i + 1, n * (n + 1) // 2)) for i in range(n)]
    inner = Mechanism(Chance([f"a{i}" for i in range(n)], rows, [END] * n))
    assert product_chain(inner, 0, 1, 3) is None
    assert views_by_ratio([Q(i + 2) for i in range(65)], [[Q(1, 65)] * 65], 2, None) is None
