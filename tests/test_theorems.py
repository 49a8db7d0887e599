"""Composition theorems (issue 4): exact values against brute force, the engine and the papers."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as engine
from exactdp.builders import compose, rr, rr_delta
from exactdp.numbers import INF, Q, eval_text, ladder
from exactdp.numbers.qt import QtElement
from exactdp.theorems import (
    advanced,
    basic,
    check_against_optimum,
    components,
    delta_at,
    improved_basic,
    kov_3_4,
    optimal,
    optimal_bruteforce,
    optimal_lambda,
    optimal_profile,
    smith_order,
    thm_1_8,
    thm_1_8_bruteforce,
)
from exactdp.theorems.advanced import slide_formula


def comps(eps_texts, deltas=None):
    return components([eval_text(e) for e in eps_texts], None if deltas is None else [eval_text(d) for d in deltas])


def test_basic_and_improved_basic_remark_5_12():
    # continual-mechanisms notes R8: RR_(ln2,1/4) x RR_(ln3,1/3): delta(6) = 1 - (3/4)(2/3) = 1/2 < 7/12
    c = comps(["log(2)", "log(3)"], ["1/4", "1/3"])
    assert ladder.text(basic(c).eps) == "log(6)" and basic(c).delta == Q(7, 12)
    assert improved_basic(c).delta == Q(1, 2)
    m = compose([rr_delta(exp_eps=2, delta=Q(1, 4)), rr_delta(exp_eps=3, delta=Q(1, 3))])
    assert engine.profile(m).delta_at_lambda(Q(6)) == Q(1, 2)  # tight


@pytest.mark.parametrize("seed", range(6))
def test_thm_1_8_smith_order_is_optimal_against_all_permutations(seed):
    rng = random.Random(seed)
    k = rng.randint(2, 6)
    eps = [rng.choice(["0", "log(2)", "log(3/2)", "log(5)", "0.1", "log(3)"]) for _ in range(k)]
    deltas = [rng.choice(["0", "1/10", "1/7", "1/100", "1/3"]) for _ in range(k)]
    c = comps(eps, deltas)
    best, _ = thm_1_8_bruteforce(c)
    b = thm_1_8(c)
    assert b.delta == best
    assert b.order == smith_order(c)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["0", "log(2)", "log(5/4)", "log(11/10)", "0.1"]), st.sampled_from(["0", "1/100", "1/7"])
        ),
        min_size=2,
        max_size=5,
    )
)
@example([("log(5/4)", "0"), ("0", "0"), ("log(11/10)", "1/100")])  # 1/80 was reported: the best is 1/100
def test_thm_1_8_order_is_optimal_with_components_of_eps_zero(pairs):
    """A component with eps = delta = 0 compared "equal" to every other under cross-multiplication,
    which is no order: the sort could put a delta > 0 after a factor e^eps > 1."""
    c = comps([e for e, _ in pairs], [d for _, d in pairs])
    assert thm_1_8(c).delta == thm_1_8_bruteforce(c)[0]


def test_thm_1_8_homogeneous_is_group_privacy_form():
    # Vadhan-Wang Thm 1.8: k copies of (eps, delta) give delta_g = (e^{k eps} - 1)/(e^eps - 1) delta
    c = comps(["log(2)"] * 4, ["1/100"])
    assert thm_1_8(c).delta == Q(2**4 - 1, 2 - 1) * Q(1, 100)


def _rand_eps(rng):
    return rng.choice(["log(2)", "log(3/2)", "log(3)", "log(11/10)", "log(4)"])


@pytest.mark.parametrize("seed", range(8))
def test_optimal_equals_the_2k_subset_sum_definition(seed):
    rng = random.Random(100 + seed)
    k = rng.randint(1, 7)
    c = comps([_rand_eps(rng) for _ in range(k)], [rng.choice(["0", "0", "1/50"]) for _ in range(k)])
    for dg in [Q(0), Q(1, 1000), Q(1, 20), Q(1, 5), Q(1, 2)]:
        assert optimal_lambda(c, dg) == optimal_bruteforce(c, dg), (seed, dg)


@pytest.mark.parametrize("seed", range(4))
def test_optimal_matches_the_engine_on_composed_rr(seed):
    rng = random.Random(200 + seed)
    k = rng.randint(1, 5)
    eps = [_rand_eps(rng) for _ in range(k)]
    deltas = [rng.choice(["0", "1/20"]) for _ in range(k)]
    c = comps(eps, deltas)
    m = compose([rr_delta(exp_eps=x.E, delta=x.delta) if x.delta else rr(exp_eps=x.E) for x in c])
    prof = engine.profile(m)
    for dg in [Q(0), Q(1, 100), Q(1, 7), Q(1, 3)]:
        assert optimal_lambda(c, dg) == prof.least_lambda(dg)
    for lam, d in optimal_profile(c):
        assert prof.delta_at_lambda(lam) == d
        assert delta_at(c, lam) == d


def test_homogeneous_binomial_scan_matches_generic_pld():
    from exactdp.theorems.optimal import _scan, _target, pld

    for k in (1, 2, 7, 64, 301):
        c = comps(["log(11/10)"] * k)
        g, D = pld(c)
        for dg in [Q(0), Q(1, 10**6), Q(1, 1000), Q(1, 3), Q(9, 10)]:
            assert optimal_lambda(c, dg) == _scan(g, D, _target(c, dg)), (k, dg)


def test_kov_pure_regression():  # notes §5 kov_pure_exact / mv_hetero
    assert optimal_lambda(comps(["log(2)"] * 3), Q(2, 9)) == 2
    c = comps(["log(2)", "log(3)"])
    assert delta_at(c, Q(1)) == Q(1, 2) and delta_at(c, Q(2)) == Q(1, 3) and delta_at(c, Q(3)) == Q(1, 4)


def test_infeasible_delta_gives_inf():
    c = comps(["log(2)", "log(3)"], ["0", "1/10"])
    assert optimal(c, Q(1, 1000)).eps is INF
    assert optimal(c, Q(1, 10)).lam == 6


KOV30 = {  # notes-exponential-mechanism-and-kov.md §4: eps~ for 30 x (0.1, 0.001), by slack delta~
    "1e-10": "2.97481189730611",
    "1e-8": "2.71393371279008",
    "1e-6": "2.34588769300804",
    "1e-5": "2.11015442224238",
    "1e-4": "1.79615015363267",
    "1e-3": "1.48114398053991",
    "1e-2": "1.01904860602035",
    "0.1": "0.35621782853595",
}


@pytest.mark.parametrize("slack", sorted(KOV30))
def test_kov_30_fold_decimal_eps_exact(slack):
    c = comps(["0.1"] * 30, ["0.001"])
    total = 1 - (1 - eval_text(slack)) * Q(999, 1000) ** 30
    r = optimal(c, total)
    assert isinstance(r.lam, QtElement)  # exact element of Q(e^(1/10)), never a float
    assert ladder.decimal(r.eps, 15) == KOV30[slack]


def test_kov_30_fold_staircase_thm_3_3():
    # KOV Thm 3.3 corner points ((k - 2i) eps, 1 - (1-delta)^k (1 - delta_i)); notes §4 list delta_i
    from exactdp.numbers import ladder

    c = comps(["0.1"] * 30, ["0.001"])
    stair = dict(optimal_profile(c))
    assert len(stair) == 16  # eps = 0, 0.2, ..., 3.0
    keep = Q(999, 1000) ** 30
    expect = {
        28: "7.28763682472512e-10",
        26: "2.11078043852433e-8",
        20: "1.80826513326779e-5",
        10: "0.01056167633863",
        0: "0.21401882559112",
    }
    for m, di in expect.items():
        d = stair[ladder.as_field(eval_text(f"exp({m}/10)"))]
        delta_i = (d - (1 - keep)) / keep
        assert ladder.decimal(delta_i, 12) == ladder.decimal(eval_text(di), 12)
    assert stair[ladder.as_field(eval_text("exp(3)"))] == 1 - keep


def test_kov_3_4_and_advanced_are_certified_and_valid():
    c = comps(["0.1"] * 30, ["0.001"])
    b = kov_3_4(c, Q(1, 10**6))
    assert b.text(11) == "[2.9655664203, 2.9655664203]"
    assert check_against_optimum(b, c)[0] == "valid"
    a = advanced(c, Q(1, 10**6))
    assert a.text(11) == "[3.1946283015, 3.1946283015]"
    assert check_against_optimum(a, c)[0] == "valid"


def test_slide_formula_is_caught_below_the_optimum():
    # notes §5 slide_formula_invalid: 2.33584232761 < optimum 2.34588769300804
    c = comps(["0.1"] * 30)
    s = slide_formula(c, Q(1, 10**6))
    status, opt = check_against_optimum(s, c)
    assert status == "below-optimum"
    assert ladder.decimal(opt.eps, 12) == "2.34588769301"


def test_heterogeneous_mix_against_bruteforce_and_speed():
    c = comps(["log(11/10)", "log(3/2)", "log(2)", "log(3)"] * 3)
    for dg in [Q(0), Q(1, 1000), Q(1, 10)]:
        assert optimal_lambda(c, dg) == optimal_bruteforce(c, dg)


def test_decimal_and_log_mix_is_exact():
    c = comps(["0.1", "log(2)", "0.25"])
    for dg in [Q(0), Q(1, 100), Q(1, 4)]:
        assert optimal_lambda(c, dg) == optimal_bruteforce(c, dg)
    assert ladder.text(optimal(c, Q(0)).eps) == "7/20 + log(2)"


def test_components_validation():
    from exactdp.errors import InexactValueError

    with pytest.raises(InexactValueError, match="2 eps values but 3 delta"):
        comps(["log(2)", "log(3)"], ["0", "0", "0"])
    with pytest.raises(InexactValueError, match="eps must be >= 0"):
        comps(["log(1/2)"])
