"""The profile of ``repeat(M, k)`` for an M without choices as a product of M's privacy loss
distribution (exactdp.analysis.product), against the backward induction over the k layers, and
against the optimal composition theorem's own privacy loss distribution (Kairouz, Oh &
Viswanath 2015, Thm 3.3: k-fold RR_eps is the worst k-fold composition of (eps, 0)-DP steps)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as engine
from exactdp.analysis.induction import pair_chains
from exactdp.analysis.product import product_chain, repeated_parts
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


def test_mechanisms_with_choices_or_many_ratios_use_the_induction():
    asks = choose([rr(eps="log(2)"), rr(eps="log(3)")])
    assert repeated_parts(repeat(asks, 3)) is None
    rows = [(Q(1, 2), Q(1, 6)), (Q(1, 3), Q(1, 3)), (Q(1, 6), Q(1, 2))]  # ratios 3, 1, 1/3
    assert product_chain(Mechanism(Chance(["a", "b", "c"], rows, [END] * 3)), 0, 1, 4) is None


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
