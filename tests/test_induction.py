"""The lean inductions on flat storage against the reference engine, exactly.

Every fast path (chains, the largest likelihood ratio for δ = 0, Rényi power sums, the
two-chain upper hull, flat storage and its node views) is compared with the engine it replaced
(:mod:`exactdp.analysis.reference`) on random games: the answers must be equal as exact
numbers, not close.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as P
from exactdp.analysis.hull import from_views, swap, upper
from exactdp.analysis.induction import _upper2, as_hull, max_ratios, power_sums, upper_chain
from exactdp.analysis.reference import reference_pair_hull, reference_profile, reference_renyi_sums
from exactdp.analysis.renyi import renyi, renyi_sums
from exactdp.builders import rr
from exactdp.model import END, Ask, Chance, Mechanism
from exactdp.model.flat import FlatBuilder, flat_of, flatten
from exactdp.model.game import postorder
from exactdp.numbers import INF, Q

from .strategies import mechanisms


def _chain(h):
    return (h.top, [r for r, _ in h.edges], [w for _, w in h.edges])


@st.composite
def hulls(draw):
    k = draw(st.integers(1, 6))
    ps = [draw(st.integers(0, 6)) for _ in range(k)]
    qs = [draw(st.integers(0, 6)) for _ in range(k)]
    if not sum(ps):
        ps[0] = 1
    if not sum(qs):
        qs[-1] = 1
    return from_views([(Q(p, sum(ps)), Q(q, sum(qs))) for p, q in zip(ps, qs)])


@settings(max_examples=400, deadline=None)
@given(st.lists(hulls(), min_size=2, max_size=6))
def test_upper_chain_is_the_upper_hull(hs):
    """The walk down the slopes (two chains) and the vertex scan (more) give the reference's
    upper concave hull exactly."""
    assert as_hull(upper_chain([_chain(h) for h in hs])) == upper(hs)
    assert as_hull(_upper2(_chain(hs[0]), _chain(hs[1]))) == upper(hs[:2])


def test_upper_chain_of_equal_chains_by_identity():
    c = _chain(from_views([(Q(1, 4), Q(3, 4)), (Q(3, 4), Q(1, 4))]))
    assert upper_chain([c, c, c]) is c


@settings(max_examples=150, deadline=None)
@given(mechanisms())
def test_profile_matches_the_reference(m):
    new, ref = P.profile(m), reference_profile(m)
    assert [p.hull for p in new.pairs] == [p.hull for p in ref.pairs]
    assert new.envelope == ref.envelope
    for pair in m.ordered_pairs:
        assert P.pair_hull(m, pair)[0] == reference_pair_hull(m, pair)[0]


@settings(max_examples=150, deadline=None)
@given(mechanisms(), st.sampled_from([Q(0), Q(1, 10), Q(1, 3)]))
def test_privloss_matches_the_reference(m, delta):
    """δ = 0 takes the largest-likelihood-ratio pass; other δ the chains."""
    assert P.privloss(m, delta) == reference_profile(m).privloss(delta)


@settings(max_examples=150, deadline=None)
@given(mechanisms())
def test_pure_lambda_is_the_least_lambda_at_delta_zero(m):
    assert P.pure_lambda(m) == reference_profile(m).least_lambda(Q(0))


@settings(max_examples=100, deadline=None)
@given(mechanisms(), st.sampled_from(["log(2)", "log(3)", "1/2", "0"]))
def test_is_dp_at_delta_zero_matches_the_reference(m, eps):
    from exactdp.analysis.results import eps_arg, value_cmp

    e = eps_arg(eps, "test")
    assert P.is_dp(m, e, 0) == (value_cmp(reference_profile(m).delta_at(e), 0) <= 0)


@settings(max_examples=150, deadline=None)
@given(mechanisms(), st.integers(2, 4))
def test_renyi_sums_match_the_reference(m, alpha):
    assert renyi_sums(m, alpha) == reference_renyi_sums(m, alpha)


@settings(max_examples=60, deadline=None)
@given(mechanisms())
def test_renyi_infinity_is_privloss_zero(m):
    assert renyi(m, "inf").value == reference_profile(m).privloss(Q(0))


@settings(max_examples=100, deadline=None)
@given(mechanisms())
def test_kept_chains_match_the_reference_node_by_node(m):
    """``keep=True`` (witnesses and certificates) gives the chain of the root and of every option
    of a choice, by uid (what an adversary compares), and keeps no other."""
    options = {c.uid for n in postorder(m.root) if isinstance(n, Ask) for c in n.children}
    for pair in m.ordered_pairs:
        _, memo = P.pair_hull(m, pair, keep=True)
        _, ref = reference_pair_hull(m, pair, keep=True)
        for node in postorder(m.root):
            if node is m.root or node.uid in options:
                assert memo[node.uid] == ref[node.uid]
            else:
                with pytest.raises(KeyError):
                    memo[node.uid]


def _rebuild_flat(m: Mechanism) -> Mechanism:
    """The same game stored by :class:`FlatBuilder` (as the case reader stores big trees)."""
    b = FlatBuilder(len(m.datasets))
    index: dict[int, int] = {}
    for node in postorder(m.root):
        if node is END:
            index[node.uid] = b.end()
        elif isinstance(node, Ask):
            index[node.uid] = b.ask(node.labels, [index[c.uid] for c in node.children])
        else:
            index[node.uid] = b.chance(node.labels, node.probs, [index[c.uid] for c in node.children])
    return Mechanism(b.finish().root, m.datasets, m.adjacent, m.name)


@settings(max_examples=100, deadline=None)
@given(mechanisms())
def test_flat_storage_views_are_the_same_game(m):
    """Node views on flat storage show the same labels, probabilities and structure, and every
    engine (the reference included, through the views) answers alike."""
    f = _rebuild_flat(m)
    old, new = postorder(m.root), postorder(f.root)
    assert len(old) == len(new)
    for a, b in zip(old, new):
        assert type(a) is END.__class__ or a.kind == b.kind
        if a is not END:
            assert a.labels == b.labels
            assert len(a.children) == len(b.children)
            if isinstance(a, Chance):
                assert a.probs == b.probs
    assert P.profile(f).envelope == reference_profile(m).envelope
    assert reference_profile(f).envelope == reference_profile(m).envelope
    if f.root is not END:
        assert flat_of(f) is f.root._g
    assert renyi_sums(f, 2) == reference_renyi_sums(m, 2)


def test_views_keep_their_uids():
    f = _rebuild_flat(rr(eps="log(3)").with_root(Ask(["a", "b"], [rr(eps="log(3)").root, END])))
    g = f.root._g
    assert g.node_at(len(g) - 1) is f.root
    kids = f.root.children
    assert kids[0].uid == f.root.children[0].uid


def test_flatten_refuses_rows_of_the_wrong_width():
    node = Chance(["a", "b"], [(Q(1, 2), Q(1, 2), Q(1, 2)), (Q(1, 2), Q(1, 2), Q(1, 2))], [END, END])
    with pytest.raises(ValueError, match="probabilities per answer"):
        flatten(node, 2)


def test_max_ratios_known_answer():
    """RR with e^eps = 3 (Vadhan-Wang Def. 1.9): the ratios are 3 in both directions."""
    g = flat_of(rr(exp_eps=3))
    assert max_ratios(g, 0, 1) == (Q(3), Q(3))


def test_max_ratio_infinite_when_a_view_is_impossible_under_one_dataset():
    m = Mechanism(Chance(["a", "b"], [(Q(1, 2), Q(0)), (Q(1, 2), Q(1))], [END, END]))
    assert max_ratios(flat_of(m), 0, 1)[0] is None
    assert P.pure_lambda(m) is INF
    assert P.privloss(m, 0) is INF


def test_power_sums_known_answer():
    """RR with e^eps = 3, alpha = 2: (3/4)^2/(1/4) + (1/4)^2/(3/4) = 7/3 (Mironov 2017, Def. 3)."""
    assert power_sums(flat_of(rr(exp_eps=3)), [(0, 1)], 2) == [Q(7, 3)]


def test_deep_random_tree_matches_the_reference():
    """A larger tree than hypothesis draws (depth 5, 2 queries x 3 answers)."""
    rng = random.Random(7)

    def build(d):
        if d == 0:
            return END
        kids = []
        for _ in range(2):
            rows = []
            for _d in range(2):
                w = [rng.randint(1, 9) for _ in range(3)]
                rows.append([Q(x, sum(w)) for x in w])
            kids.append(Chance(["0", "1", "2"], list(zip(*rows)), [build(d - 1) for _ in range(3)]))
        return Ask(["q0", "q1"], kids)

    m = Mechanism(build(5))
    ref = reference_profile(m)
    assert P.profile(m).envelope == ref.envelope
    assert P.pure_lambda(m) == ref.least_lambda(Q(0))
    assert renyi_sums(m, 3) == reference_renyi_sums(m, 3)
    assert P.pair_hull(m, (1, 0))[0] == swap(ref.pairs[0].hull)


def test_renyi_sum_size_is_refused_past_max_bits_on_a_shared_chain():
    """The bound on the sums' sizes in ``power_sums`` skips the exact size only while it is below
    --max-bits: 200 composed copies of RR_3 share their subtrees, and the Rényi sum of order 2 is
    (7/3)^200 (one copy: (3/4)^2/(1/4) + (1/4)^2/(3/4) = 7/3, and the sums of a composition
    multiply, Mironov 2017, Prop. 1), a numerator of 562 bits, so a 300-bit limit refuses it and the
    default limit gives it exactly."""
    from exactdp.builders.combinators import repeat
    from exactdp.errors import LimitExceededError
    from exactdp.limits import Limits, using

    mech = repeat(rr(exp_eps=3), 200)
    assert renyi_sums(mech, 2) == [Q(7, 3) ** 200] * 2
    with using(Limits(max_bits=300)), pytest.raises(LimitExceededError, match="Renyi sum"):
        renyi_sums(mech, 2)
