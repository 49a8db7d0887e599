"""The library functions behind the commands, each checked against an independent path: PrivLoss
with its λ and witness by both engines against the engine modules' own ``privloss``; the Section 6
experiment in blocks (on a runner) against the in-process run; the composition theorems
evaluated in one call against one by one."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from exactdp.analysis import enumerator, make_engine, profile
from exactdp.analysis.engine import exact_privloss
from exactdp.analysis.witness import Witness
from exactdp.builders import rr
from exactdp.errors import ExactDPError
from exactdp.experiments import run_blocks
from exactdp.model.ops import count_strategies
from exactdp.numbers import Q, eval_text, ladder
from exactdp.simulation.experiment import blocks, run_section6
from exactdp.theorems import components, evaluate
from exactdp.theorems.registry import evaluate_each

from .strategies import mechanisms


@pytest.mark.parametrize("engine", ["profile", "enumerator"])
@pytest.mark.parametrize("delta", [Q(0), Q(1, 10)])
def test_exact_privloss_is_the_engines_privloss(engine, delta):
    # RR_(log 3, 1/10) of Vadhan-Wang 2021, Def. 5.1 (PrivLoss at 1/5 is log(23/9), README)
    mech = rr(exp_eps=Q(3), delta=Q(1, 10))
    value, lam, w = exact_privloss(make_engine(engine), mech, delta, witness=True)
    assert ladder.cmp(value, profile.privloss(mech, delta)) == 0
    assert ladder.cmp(ladder.log(lam), value) == 0
    assert w is None or isinstance(w, Witness)  # engines re-check their witnesses themselves


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(mechanisms())
def test_the_pure_path_equals_the_profile_path(mech):
    """At δ = 0 without a witness the largest likelihood ratio is used (no profile): it must give
    the profile's value, and the enumerator's."""
    value, lam, _ = exact_privloss(make_engine("profile"), mech, Q(0))
    via_profile, _, _ = exact_privloss(make_engine("profile"), mech, Q(0), witness=True)
    assert ladder.cmp(value, via_profile) == 0
    if count_strategies(mech.root) <= 20_000:  # the brute force on games it can enumerate quickly
        assert ladder.cmp(value, enumerator.privloss(mech, Q(0))) == 0


def test_section6_in_blocks_counts_what_the_single_run_counts():
    delta = Q(1, 10)
    whole = run_section6(12, delta, 5, check_enumerator=False)
    split, interrupted = run_blocks(blocks(12, delta, 5, check_enumerator=False, size=5))
    assert not interrupted
    for name in ("samples", "feasible", "infeasible", "errors", "infinite_eps", "zero_eps"):
        assert getattr(split, name) == getattr(whole, name), name


def test_progress_counts_samples_not_blocks():
    seen: list[int] = []
    run_blocks(blocks(7, Q(1, 10), 1, check_enumerator=False, size=3), progress=seen.append)
    assert seen == [3, 6, 7]


def test_evaluate_each_is_evaluate_one_by_one():
    comps = components([eval_text("log(2)"), eval_text("log(3)")], [Q(0), Q(1, 100)])
    names = ("basic", "improved-basic", "thm-1.8", "optimal")
    got = evaluate_each(names, comps, Q(1, 10))
    assert [n for n, _ in got] == list(names)
    for name, result in got:
        assert repr(result) == repr(evaluate(name, comps, Q(1, 10)))


def test_a_theorem_that_does_not_apply_gives_its_reason():
    comps = components([eval_text("log(2)"), eval_text("log(3)")], [Q(0)])  # not homogeneous
    got = dict(evaluate_each(("kov-3.4",), comps, Q(1, 10)))
    try:
        evaluate("kov-3.4", comps, Q(1, 10))
    except ExactDPError as e:
        assert isinstance(got["kov-3.4"], ExactDPError) and str(got["kov-3.4"]) == str(e)
    else:
        assert not isinstance(got["kov-3.4"], ExactDPError)


def test_rr_pure_privloss_known_answer():
    # Dwork-Roth 2014, randomized response with e^eps = 3: PrivLoss(RR, 0) = log(3)
    value, lam, w = exact_privloss(make_engine("profile"), rr(exp_eps=Q(3)), Q(0))
    assert ladder.text(value) == "log(3)" and lam == 3 and w is None
