"""f-DP trade-off functions, dominating pairs and tensor products (exactdp.analysis.tradeoff).

Known answers: Dong-Roth-Su 2022, Prop. 2.5 (the trade-off function f_{eps,delta} of
(eps, delta)-DP, attained by RR_(eps,delta)).  Property tests compare with independent
computations: the Neyman-Pearson brute force over every deterministic test of every
deterministic adversary (construction vs definition), explicit product distributions (tensor),
and profile domination on every lambda >= 0 (Prop. 2.12).
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings

from exactdp.analysis import enumerator, profile
from exactdp.analysis.hull import from_views
from exactdp.analysis.tradeoff import (
    dominates,
    dominating_pair,
    envelope_tradeoff,
    max_gap,
    min_gap,
    pair_tradeoffs,
    tensor,
    tradeoff_of_hull,
)
from exactdp.builders import compose, mechanism, respond, rr
from exactdp.model import count_strategies
from exactdp.numbers import Q

from .strategies import distributions, mechanisms


def _pts(t):
    return [(a, b) for a, b in t.vertices]


@pytest.mark.parametrize("E", [Q(3), Q(2), Q(5, 4)])
def test_rr_is_f_eps_0(E):
    """DRS Prop. 2.5 with delta = 0: f(alpha) = max(0, 1 - e^eps alpha, e^-eps (1 - alpha)); its
    kink is at alpha = beta = 1/(1 + e^eps)."""
    k = 1 / (1 + E)
    assert _pts(envelope_tradeoff(profile.profile(rr(exp_eps=E)))) == [(0, 1), (k, k), (1, 0)]


def test_rr_delta_is_f_eps_delta():
    """DRS Prop. 2.5: f_{eps,delta}(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)),
    vertices (0, 1 - delta), ((1 - delta)/(1 + e^eps), same), (1 - delta, 0), (1, 0)."""
    E, d = Q(3), Q(1, 10)
    k = (1 - d) / (1 + E)
    assert _pts(envelope_tradeoff(profile.profile(rr(exp_eps=E, delta=d)))) == [(0, 1 - d), (k, k), (1 - d, 0), (1, 0)]


def _tests_of(views, i, j):
    """(alpha, beta) of every deterministic test S of H0: x_i vs H1: x_j over the views."""
    n = len(views)
    for k in range(n + 1):
        for S in combinations(range(n), k):
            yield sum((views[v][1][i] for v in S), Q(0)), 1 - sum((views[v][1][j] for v in S), Q(0))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(m=mechanisms(max_depth=3))
def test_tradeoff_is_the_neyman_pearson_bound_over_adversaries(m):
    """Every test of every deterministic adversary lies on or above T (T is a valid lower bound),
    and every vertex of T is attained by one (T is the best)."""
    if count_strategies(m.root) > 200:
        return
    curves = {t.label: t for t in pair_tradeoffs(profile.profile(m))}
    attained = {label: set() for label in curves}
    for _, views in enumerator.strategies(m):
        if len(views) > 10:
            return
        for i, j in m.ordered_pairs:
            x, xp = m.datasets[i], m.datasets[j]
            label = f"T({m.name}({x}), {m.name}({xp}))"
            t = curves[label]
            for a, b in _tests_of(views, i, j):
                assert t.value_at(a) <= b
                attained[label].add((a, b))
    for label, t in curves.items():
        for v in t.vertices:
            assert v in attained[label], (label, v)


@settings(max_examples=80, deadline=None)
@given(d1=distributions(3, 2), d2=distributions(2, 2))
def test_tensor_is_the_product_distribution(d1, d2):
    """T(P1, P1') (x) T(P2, P2') = T(P1 x P2, P1' x P2') (DRS Def. 3.1), by explicit products."""
    h1 = from_views((r[0], r[1]) for r in d1)
    h2 = from_views((r[0], r[1]) for r in d2)
    prod = from_views((a[0] * b[0], a[1] * b[1]) for a in d1 for b in d2)
    assert tensor([h1, h2]) == prod


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(m=mechanisms(max_depth=3))
def test_dominating_pair_has_the_same_profile(m):
    """The chain's own (P, P') has exactly the envelope's profile for every lambda >= 0."""
    env = profile.profile(m).envelope
    p, pp = dominating_pair(env)
    assert sum(p) == 1 and sum(pp) == 1
    assert from_views(zip(p, pp)) == env


def _delta_le_everywhere(h1, h2) -> bool:
    """delta_1(lambda) <= delta_2(lambda) for every lambda >= 0 (breakpoints of both, 0, and the limit)."""
    lams = {Q(0)} | {r for r, _ in h1.edges} | {r for r, _ in h2.edges}
    return all(h1.value_at(x) <= h2.value_at(x) for x in lams) and h1.top <= h2.top


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(a=mechanisms(max_depth=3, combinators=False), b=mechanisms(max_depth=3, combinators=False))
def test_tradeoff_domination_is_profile_domination(a, b):
    """DRS Prop. 2.12: T(M) >= T(R) pointwise iff delta_M <= delta_R on every lambda >= 0."""
    ha, hb = profile.profile(a).envelope, profile.profile(b).envelope
    ok, alpha = dominates(ha, hb)
    assert ok == _delta_le_everywhere(ha, hb)
    if not ok:
        ta, tb = tradeoff_of_hull(ha), tradeoff_of_hull(hb)
        assert ta.value_at(alpha) < tb.value_at(alpha)
    else:
        assert max_gap(ha, hb) >= 0
        assert (max_gap(ha, hb) == 0) == (ha == hb)
    # the gaps against the trade-off functions' own values at every vertex of either
    ta, tb = tradeoff_of_hull(ha), tradeoff_of_hull(hb)
    gaps = [ta.value_at(x) - tb.value_at(x) for x in {v[0] for v in ta.vertices + tb.vertices}]
    assert min_gap(ha, hb) == min(gaps) and max_gap(ha, hb) == max(gaps)


def test_noninteractive_composition_is_the_tensor_product():
    """DRS Thm 3.2 is exact for products of symmetric components: T(RR(2) then RR(3)) = T(RR(2)) (x) T(RR(3))."""
    e2, e3 = profile.profile(rr(exp_eps=2)).envelope, profile.profile(rr(exp_eps=3)).envelope
    assert profile.profile(compose([rr(exp_eps=2), rr(exp_eps=3)])).envelope == tensor([e2, e3])


def test_tensor_of_envelopes_is_only_a_bound_for_asymmetric_components():
    """The envelope of an asymmetric component contains both orders of its pair; the tensor of
    envelopes then combines orders no single pair of datasets realises, so it bounds the
    composition strictly (still a valid bound: DRS Thm 3.2)."""
    m = mechanism(respond({"a": [Q(1, 2), Q(1, 3)], "b": [Q(1, 2), Q(2, 3)]}))
    em, e3 = profile.profile(m).envelope, profile.profile(rr(exp_eps=3)).envelope
    found = profile.profile(compose([m, rr(exp_eps=3), m])).envelope
    bound = tensor([em, e3, em])
    assert dominates(found, bound)[0] and max_gap(found, bound) > 0
