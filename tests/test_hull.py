"""The exact hull algebra against definitions (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis.hull import LEAF, combine, from_views, swap, upper
from exactdp.numbers import Q


@st.composite
def dist_pairs(draw):
    n = draw(st.integers(1, 6))
    den = draw(st.sampled_from([2, 3, 5, 7, 12]))
    w1 = [draw(st.integers(0, den)) for _ in range(n)]
    w2 = [draw(st.integers(0, den)) for _ in range(n)]
    if not sum(w1):
        w1[0] = 1
    if not sum(w2):
        w2[-1] = 1
    return [(Q(a, sum(w1)), Q(b, sum(w2))) for a, b in zip(w1, w2)]


def hockey(pairs, lam):
    return sum((max(p - lam * q, 0) for p, q in pairs), Q(0))


LAMS = [Q(0), Q(1, 3), Q(1), Q(3, 2), Q(2), Q(7, 2), Q(100)]


@given(dist_pairs())
def test_from_views_is_the_hockey_stick(pairs):
    h = from_views(pairs)
    for lam in LAMS:
        assert h.value_at(lam) == hockey(pairs, lam)
    assert sum((w for _, w in h.edges), Q(0)) == 1
    assert h.top + sum((r * w for r, w in h.edges), Q(0)) == 1


@given(dist_pairs())
def test_swap_is_the_reverse_pair(pairs):
    h = from_views(pairs)
    rev = from_views([(q, p) for p, q in pairs])
    assert swap(h) == rev
    assert swap(swap(h)) == h


@given(st.lists(dist_pairs(), min_size=1, max_size=4))
def test_upper_is_the_pointwise_max(ps):
    hs = [from_views(p) for p in ps]
    u = upper(hs)
    cands = set(LAMS) | {r for h in hs for r, _ in h.edges}
    for lam in cands:
        assert u.value_at(lam) == max(h.value_at(lam) for h in hs)


@settings(max_examples=50)
@given(dist_pairs(), dist_pairs(), dist_pairs())
def test_combine_is_a_product_distribution(outer, a, b):
    """An answer distribution followed by fixed continuations: chains compose like products."""
    outer = outer[:2] if len(outer) >= 2 else outer
    kids = [from_views(a), from_views(b)][: len(outer)]
    h = combine([(p, q, k) for (p, q), k in zip(outer, kids)])
    views = []
    for (p, q), child in zip(outer, [a, b][: len(outer)]):
        views += [(p * x, q * y) for x, y in child]
    for lam in LAMS:
        assert h.value_at(lam) == hockey(views, lam)


def test_least_lambda():
    h = from_views([(Q(3, 4), Q(1, 4)), (Q(1, 4), Q(3, 4))])  # RR with e^eps = 3
    assert h.least_lambda(Q(0)) == 3
    assert h.least_lambda(Q(1, 4)) == 2
    assert h.least_lambda(Q(1, 2)) == 1
    assert LEAF.least_lambda(Q(0)) == 1


@given(dist_pairs(), st.sampled_from([Q(0), Q(1), Q(3, 2)]))
def test_bends_are_the_hockey_stick_at_every_slope(pairs, above):
    """The one-sweep values at the bends (what profile output prints) against the definition."""
    h = from_views(pairs)
    got = h.bends(above)
    assert [r for r, _ in got] == sorted(r for r in h.breakpoints(at_least=above) if r > above)
    assert all(v == hockey(pairs, r) for r, v in got)
