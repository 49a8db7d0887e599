"""The named theorems (exactdp.theorems.named): values against the notes on the KOV slides and
closed forms, the slides' Theorem I below the exact optimum, exact Rényi conversions."""

from __future__ import annotations

import pytest

from exactdp.errors import ExactDPError
from exactdp.numbers import Q, eval_text
from exactdp.report.verdicts import shown
from exactdp.theorems import components, optimal
from exactdp.theorems.named import (
    NAMED,
    compare_bound,
    renyi_to_dp,
    renyi_to_dp_cks,
    slides_theorem_1,
    slides_theorem_2,
    theorem,
    zcdp_to_dp,
)
from exactdp.verify import verify_text

K30 = components([Q(1, 10)] * 30)
SLACK = Q(1, 10**6)


def _mid(b) -> float:
    return float((b.lo + b.hi) / 2)


def test_kov30_table():
    """The notes (KOV slides section): slide Thm I 2.33584232761 < optimum 2.34588769300804;
    KOV Thm 3.4 2.96556642031; DRV10 3.19462830154."""
    assert abs(_mid(slides_theorem_1(K30, SLACK)) - 2.33584232761) < 1e-9
    assert abs(_mid(NAMED["kov-3.4"].bound(K30, SLACK)) - 2.96556642031) < 1e-9
    assert abs(_mid(NAMED["advanced"].bound(K30, SLACK)) - 3.19462830154) < 1e-9
    opt = optimal(K30, SLACK).eps
    assert abs(float(eval_text("0") if opt == 0 else _f(opt)) - 2.34588769300804) < 1e-9
    assert compare_bound(slides_theorem_1(K30, SLACK), opt) == "invalid"
    for key in ("kov-3.4", "advanced", "kov-slides-2"):
        assert compare_bound(NAMED[key].bound(K30, SLACK), opt) == "valid"
    assert not NAMED["kov-slides-1"].valid_as_stated


def _f(x) -> float:
    from exactdp.numbers import ladder

    return ladder.to_float(x)


def test_slides_theorem_2_is_at_least_kov_3_5():
    """Theorem II as printed: sum eps^2 >= sum eps tanh(eps/2), so it is above KOV Thm 3.5's middle term."""
    comps = components([Q(1, 10), Q(1, 5), Q(3, 10)])
    assert slides_theorem_2(comps, SLACK).lo >= NAMED["kov-3.4"].bound(comps, SLACK).lo


def test_renyi_conversions_are_exact():
    """RR with e^eps = 3: D_2 = log(7/3); Mironov: log(7/3) + log(100) = log(700/3); CKS: log(175/3)."""
    d2 = eval_text("log(7/3)")
    assert renyi_to_dp(d2, 2, Q(1, 100)) == eval_text("log(700/3)")
    assert renyi_to_dp_cks(d2, 2, Q(1, 100)) == eval_text("log(175/3)")


def test_zcdp_conversion_interval():
    b = zcdp_to_dp(Q(1, 8), SLACK)  # 1/8 + 2 sqrt(log(1e6)/8) = 2.7532608848...
    assert abs(_mid(b) - 2.753260884881) < 1e-9 and b.delta == SLACK
    with pytest.raises(ExactDPError):
        zcdp_to_dp(Q(1, 8), 0)


def test_registry():
    assert theorem("kov-slides-1").kind == "composition" and theorem("zcdp-to-dp").kind == "conversion"
    with pytest.raises(ExactDPError, match="unknown theorem"):
        theorem("nope")


def test_one_claim_says_the_slide_is_invalid():
    fr = verify_text(
        "exactdp: 1\nname: s\nmechanism: {rr: {eps: 0.1}}\nclaims:\n"
        "  - composition: {components: [M], times: 30, interleave: sequential, theorem: kov-slides-1, slack: 1/1000000,"
        " valid: false}\n"
        "  - composition: {components: [M], times: 30, interleave: sequential, theorem: kov-slides-1, slack: 1/1000000}\n"
    )
    holds, fails = fr.verdicts
    assert holds.holds and not fails.holds
    note = shown(fails).note
    assert "BELOW PrivLoss" in note and "below the exact optimum" in note


def test_named_bound_needs_its_slack():
    fr = verify_text(
        "exactdp: 1\nname: s\nmechanism: {rr: {eps: 0.1}}\nclaims: [{composition: {components: [M], theorem: advanced}}]\n"
    )
    assert fr.exit_code == 2 and "needs `slack:`" in fr.error.problems[0].message
