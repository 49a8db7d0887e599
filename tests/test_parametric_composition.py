"""The ``composition`` claim with symbols: the theorem's bound and PrivLoss of the composition as
piecewise closed forms, compared exactly on each cell; the closed forms cross-checked at random
rational points of every cell against the numeric optimal-composition theorem (its own exact
computation through the privacy-loss distribution)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.numbers import Q, ladder
from exactdp.report.verdicts import shown
from exactdp.theorems import components, optimal
from exactdp.verify import verify_text

from .test_parametric import _points

CASE = """
exactdp: 1
name: comp
symbols: {p: {gt: 1}}
mechanisms:
  R: {rr: {eps: log(p)}}
  S: {rr: {eps: log(p^2)}}
claims:
"""


def _one(claim: str):
    (v,) = verify_text(CASE + "  - " + claim + "\n", "c.yaml").verdicts
    return v


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from([Q(0), Q(1, 10), Q(1, 3)]), st.sampled_from(["R, R, R", "R, S", "S, R, R"]))
def test_privloss_of_concomp_is_the_optimal_bound_at_random_points(data, delta, comps):
    """For pure RR components the optimal bound is attained (Vadhan-Wang Thm 1.4 and 5.7;
    Kairouz-Oh-Viswanath 2015): the piecewise PrivLoss of ConComp equals the numeric optimal
    theorem at rational points of every cell."""
    v = _one(f"composition: {{components: [{comps}], theorem: optimal, delta: {delta}}}")
    assert v.status == "holds", shown(v).note
    ratio = {"R": 1, "S": 2}
    for piece in v.facts["pieces"]:
        for cell in piece.cells:
            for pt in _points(cell, data):
                p = Q(int(pt["p"].p), int(pt["p"].q))
                want = optimal(components([ladder.log(p ** ratio[c.strip()]) for c in comps.split(",")]), delta).eps
                found = piece.value.found
                got = found if str(found) == "inf" else ladder.log(Q(str(found.R.at(pt))))
                assert ladder.cmp(got, want) == 0 or (str(got) == "inf" and str(want) == "inf"), (pt, found, want)


def test_basic_improved_basic_and_renyi_hold_for_every_value():
    for claim in (
        "composition: {components: [R, S], theorem: basic}",
        "composition: {components: [R, S], theorem: improved-basic}",
        "composition: {components: [R, R], theorem: thm-1.8}",
        "composition: {components: [R, S], theorem: renyi, alpha: 2}",
        "composition: {components: [R, S], theorem: renyi, alpha: inf}",
        "composition: {components: [R, S], theorem: basic, eps: [log(p), log(p^2)]}",
        "composition: {components: [R, R], theorem: basic, times: 2, interleave: sequential}",
    ):
        v = _one(claim)
        assert v.status == "holds", (claim, shown(v).note)


def test_a_wrong_claimed_eps_is_refuted_at_a_rational_value():
    """RR_(p^2) is not (log(p), 0)-DP: at p = 2 its delta at e^eps = 2 is 2/5."""
    v = _one("composition: {components: [S, R], theorem: basic, eps: [log(p), log(p)]}")
    assert v.status == "fails" and shown(v).values["refuted_at"] == {"p": "2"}
    assert "2/5" in shown(v).note


def test_undecided_with_the_reason():
    v = _one("composition: {components: [R, R], theorem: renyi, alpha: 1}")
    assert v.status == "error" and "KL divergence" in shown(v).note
    text = CASE.replace("  S: {rr: {eps: log(p^2)}}", "  T: {rr: {eps: log(p), delta: 1/10}}")
    (v,) = verify_text(text + "  - composition: {components: [T, R], theorem: basic}\n", "c.yaml").verdicts
    assert v.status == "error" and "PrivLoss(T, 0) is infinite" in shown(v).note


def test_the_case_holds_with_both_engines():
    from pathlib import Path

    from exactdp.verify import Options, verify_file

    for engine in ("profile", "enumerator"):
        res = verify_file(Path("cases/parametric/composition-rr.yaml"), Options(engine=engine))
        assert all(v.status == "holds" for v in res.verdicts), engine
