"""One contract suite for both engines, and the property cross-check profile == enumerator.

Known answers cite their source; the property tests draw hundreds of random small mechanisms
(zero probabilities, several datasets, concomp and choose) and require exact agreement.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator, profile
from exactdp.analysis.hull import from_views
from exactdp.builders import choose, compose, repeat, rr, rr_delta
from exactdp.model import count_strategies
from exactdp.numbers import INF, Q, eval_text, ladder

from .strategies import mechanisms

ENGINES = [pytest.param(profile, id="profile"), pytest.param(enumerator, id="enumerator")]


def E(text: str):
    return eval_text(text)


# --- known answers, both engines ---------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "mech, delta, expected",
    [
        pytest.param(rr(exp_eps=3), "0", "log(3)", id="VW-Def1.9-RR-log3"),
        pytest.param(rr(exp_eps=1), "0", "0", id="RR-eps0"),
        pytest.param(rr_delta(exp_eps=3, delta=Q(1, 10)), "1/5", "log(23/9)", id="notes-R1-PrivLoss-1/5"),
        pytest.param(rr_delta(exp_eps=3, delta=Q(1, 10)), "1/10", "log(3)", id="notes-R1-PrivLoss-1/10"),
        pytest.param(rr_delta(exp_eps=3, delta=Q(1, 10)), "99/1000", "inf", id="notes-R1-inf-below-delta"),
        pytest.param(repeat(rr_delta(exp_eps=2, delta=Q(1, 10)), 2), "19/100", "log(4)", id="KOV-approx-19/100"),
        pytest.param(repeat(rr_delta(exp_eps=2, delta=Q(1, 10)), 2), "23/50", "0", id="KOV-approx-23/50"),
        pytest.param(repeat(rr_delta(exp_eps=2, delta=Q(1, 10)), 2), "3/10", "log(25/9)", id="KOV-approx-3/10"),
        pytest.param(repeat(rr(exp_eps=2), 3), "0", "log(8)", id="KOV-pure-3fold"),
    ],
)
def test_privloss_known(engine, mech, delta, expected):
    assert ladder.text(engine.privloss(mech, E(delta))) == expected


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    "mech, eps, expected",
    [
        pytest.param(repeat(rr(exp_eps=2), 3), "log(2)", "2/9", id="KOV-pure-3fold-log2"),
        pytest.param(repeat(rr(exp_eps=2), 3), "0", "13/27", id="KOV-pure-3fold-0"),
        pytest.param(compose([rr(exp_eps=2), rr(exp_eps=3)]), "0", "1/2", id="MV-hetero-0"),
        pytest.param(compose([rr(exp_eps=2), rr(exp_eps=3)]), "log(2)", "1/3", id="MV-hetero-log2"),
        pytest.param(compose([rr(exp_eps=2), rr(exp_eps=3)]), "log(3)", "1/4", id="MV-hetero-log3"),
        pytest.param(rr_delta(exp_eps=3, delta=Q(1, 10)), "0", "11/20", id="notes-R1-delta-at-1"),
        pytest.param(rr_delta(exp_eps=3, delta=Q(1, 10)), "log(3)", "1/10", id="notes-R1-delta-at-3"),
    ],
)
def test_delta_known(engine, mech, eps, expected):
    assert ladder.text(engine.delta_at(mech, E(eps))) == expected


def _ddr_menu():
    """Dong-Durfee-Rogers B = 16 menu (notes §3): RR_(eps,t) with e^t in {2, 5/2, 4, 32/5, 8}."""
    from exactdp.builders import mechanism, respond

    B = Q(16)
    items = {}
    for u in [Q(2), Q(5, 2), Q(4), Q(32, 5), Q(8)]:
        q = (B - u) / (B - 1)
        p = q / u
        items[str(u)] = mechanism(respond({"0": [q, p], "1": [1 - q, 1 - p]}))
    return items


@pytest.mark.parametrize("engine", ENGINES)
def test_ddr_cost_of_adaptivity(engine):
    """notes-exponential §3: delta at eps_g = 0 is 53/75 adaptive vs 1701/2500 non-adaptive."""
    menu = _ddr_menu()
    adaptive = repeat(choose(menu), 2)
    nonadaptive = choose({f"{a},{b}": compose([menu[a], menu[b]]) for a in menu for b in menu})
    assert engine.delta_at(adaptive, Q(0)) == Q(53, 75)
    assert engine.delta_at(nonadaptive, Q(0)) == Q(1701, 2500)
    assert ladder.text(engine.privloss(adaptive, Q(7, 10))) == "log(23/22)"
    assert engine.privloss(nonadaptive, Q(7, 10)) == 0


def test_kov_formula_matches_engine_for_many_k():
    """Thm 1.4 (KOV / MV, homogeneous pure) evaluated independently vs the profile engine."""
    from fractions import Fraction
    from math import comb

    for Ek in [Fraction(3, 2), Fraction(2), Fraction(5)]:
        for k in range(1, 9):
            m = repeat(rr(exp_eps=Q(Ek.numerator, Ek.denominator)), k)
            prof = profile.profile(m)
            for j in range(-1, k + 1):
                C = Ek ** max(j, 0)
                formula = sum(comb(k, i) * max(Ek**i - C * Ek ** (k - i), 0) for i in range(k + 1)) / (1 + Ek) ** k
                got = prof.delta_at_lambda(Q(C.numerator, C.denominator))
                assert Fraction(int(got.numerator), int(got.denominator)) == formula


def test_repeat_is_a_shared_dag():
    """A 30-fold repeat of RR is a 31-level DAG, not 2^30 paths (issue: model sharing)."""
    from exactdp.model import stats

    m = repeat(rr(exp_eps=Q(11, 10)), 30)
    s = stats(m.root)
    assert s["chance_nodes"] == 30 and s["depth"] == 30
    assert count_strategies(m.root) == 1
    lam = profile.profile(m).least_lambda(Q(1, 1000))
    assert 1 < lam < Q(11, 10) ** 30


# --- property tests: the two engines agree -----------------------------------------------------


def _strategy_count_ok(m) -> bool:
    return count_strategies(m.root) <= 3000


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(m=mechanisms(), data=st.data())
def test_engines_agree(m, data):
    if not _strategy_count_ok(m):
        return
    p1 = profile.profile(m)
    p2 = enumerator.profile(m)
    # whole profiles agree on lambda >= 1, exactly
    assert p1.equals_on_eps_ge_0(p2)
    for pp1, pp2 in zip(p1.pairs, p2.pairs):
        assert pp1.pair == pp2.pair
        assert pp1.hull == pp2.hull  # per ordered pair, on all of lambda >= 0
    # PrivLoss at several deltas, by the enumerator's own definition-based solver
    for d in [Q(0), Q(1, 100), Q(1, 7), Q(1, 3), Q(1, 2), Q(1)]:
        assert profile.privloss(m, d) == enumerator.privloss(m, d)
    # delta at several eps, including each breakpoint
    lams = [Q(1), Q(3, 2), Q(2), Q(5)] + [lam for lam, _ in p1.breakpoints()][:4]
    for lam in lams:
        eps = eval_text(f"log({lam.numerator}/{lam.denominator})")
        assert profile.delta_at(m, eps) == enumerator.delta_at(m, eps)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=mechanisms())
def test_profile_matches_every_strategy_by_definition(m):
    """For every deterministic adversary, its own profile lies below the engine's, and the
    engine's value at each breakpoint is attained by some adversary."""
    if not _strategy_count_ok(m):
        return
    prof = profile.profile(m)
    pts = [lam for lam, _ in prof.breakpoints()]
    best = {lam: Q(0) for lam in pts}
    for _, views in enumerator.strategies(m):
        for i, j in m.ordered_pairs:
            h = from_views((pr[i], pr[j]) for _, pr in views)
            for lam in pts:
                v = h.value_at(lam)
                assert v <= prof.delta_at_lambda(lam)
                best[lam] = max(best[lam], v)
    for lam in pts:
        assert best[lam] == prof.delta_at_lambda(lam)


@pytest.mark.parametrize("engine", ENGINES)
def test_zero_mass_gives_infinite_privloss(engine):
    from exactdp.builders import mechanism, respond

    m = mechanism(respond({"a": [Q(1, 4), 0], "b": [Q(3, 4), 1]}))
    assert engine.privloss(m, Q(1, 5)) is INF
    assert engine.privloss(m, Q(1, 4)) == 0


def test_enumerator_refuses_beyond_limit():
    from exactdp.errors import LimitExceededError

    m = repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 12)  # 2^(2^12 - 1) strategies
    with pytest.raises(LimitExceededError, match="max-strategies"):
        enumerator.privloss(m, Q(0))
    with pytest.raises(LimitExceededError):
        enumerator.privloss(repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 4), Q(0), max_strategies=10)


def test_fraction_backend_gives_the_same_answers():
    """Without gmpy2 (EXACTDP_NO_GMPY=1) the engines run on fractions.Fraction, same results."""
    import os
    import subprocess
    import sys

    code = (
        "from exactdp.numbers import BACKEND, Q, ladder\n"
        "from exactdp.builders import rr_delta, repeat, compose, choose, rr\n"
        "from exactdp.analysis import profile, enumerator\n"
        "assert BACKEND == 'fractions'\n"
        "m = compose([rr(exp_eps=2, delta=Q(1, 10)), choose([rr(exp_eps=3), rr(exp_eps=5)])])\n"
        "print(ladder.text(profile.privloss(m, Q(1, 5))), ladder.text(enumerator.privloss(m, Q(1, 5))))\n"
    )
    env = dict(os.environ, EXACTDP_NO_GMPY="1")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    m = compose([rr_delta(exp_eps=2, delta=Q(1, 10)), choose([rr(exp_eps=3), rr(exp_eps=5)])])
    assert out == [ladder.text(profile.privloss(m, Q(1, 5)))] * 2


# --- Renyi divergence: both engines through the Engine protocol ---------------------------------

ENGINE_OBJECTS = [pytest.param("profile", id="profile"), pytest.param("enumerator", id="enumerator")]


@pytest.mark.parametrize("engine", ENGINE_OBJECTS)
@pytest.mark.parametrize(
    "mech, alpha, expected",
    [
        # RR with e^eps = 3: P = (3/4, 1/4), P' = (1/4, 3/4) (Def. 1.9); by hand from Mironov 2017, Def. 3:
        # alpha = 2: (9/16)/(1/4) + (1/16)/(3/4) = 7/3; alpha = 3: (27/64)/(1/16) + (1/64)/(9/16) = 61/9
        pytest.param(rr(exp_eps=3), 2, "log(7/3)", id="RR3-alpha2"),
        pytest.param(rr(exp_eps=3), 3, "log(61/9)/2", id="RR3-alpha3"),
        # KL: 3/4 log 3 + 1/4 log(1/3) = log(3)/2
        pytest.param(rr(exp_eps=3), 1, "log(3)/2", id="RR3-KL"),
        pytest.param(rr(exp_eps=3), "inf", "log(3)", id="RR3-inf-is-PrivLoss0"),
        # two-fold composition: sums multiply, (7/3)^2 = 49/9 (Mironov 2017, Prop. 1 is tight here)
        pytest.param(repeat(rr(exp_eps=3), 2), 2, "log(49/9)", id="RR3-twice-alpha2"),
        # an answer possible under x0 only: infinite divergence of every order
        pytest.param(rr(exp_eps=3, delta=Q(1, 10)), 2, "inf", id="RRdelta-inf"),
        # the adversary picks the better of RR(2) (sum 3/2) and RR(3) (sum 7/3)
        pytest.param(choose([rr(exp_eps=2), rr(exp_eps=3)]), 2, "log(7/3)", id="choose-max"),
    ],
)
def test_renyi_known(engine, mech, alpha, expected):
    from exactdp.analysis import make_engine

    assert ladder.text(make_engine(engine).renyi(mech, alpha).value) == expected


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(m=mechanisms(), alpha=st.sampled_from([1, 2, 3, "inf"]))
def test_engines_agree_on_renyi(m, alpha):
    """The backward induction equals the brute force over every deterministic adversary's view
    distribution, per ordered pair and in total, exactly."""
    from exactdp.analysis import make_engine
    from exactdp.numbers import ladder

    if not _strategy_count_ok(m):
        return
    r1 = make_engine("profile").renyi(m, alpha)
    r2 = make_engine("enumerator").renyi(m, alpha)
    assert ladder.cmp(r1.value, r2.value) == 0 if r1.value is not INF else r2.value is INF
    for a, b in zip(r1.pairs, r2.pairs):
        assert a.pair == b.pair
        assert (a.total is INF and b.total is INF) or ladder.cmp(a.total, b.total) == 0


def test_renyi_refuses_fractional_orders():
    from exactdp.analysis import make_engine
    from exactdp.errors import ExactDPError

    for a in [Q(3, 2), Q(1, 2), 0]:
        with pytest.raises(ExactDPError, match="alpha"):
            make_engine("profile").renyi(rr(exp_eps=3), a)
