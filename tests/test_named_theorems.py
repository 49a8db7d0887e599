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


# --- zcdp-to-dp-cks: Canonne-Kamath-Steinke 2020, Prop. 12 at D_alpha = rho*alpha, the best order ---


def _cks_f(rho, delta, alpha):
    """f(alpha) = alpha*rho + (log(1/delta) - log(alpha))/(alpha - 1) + log(1 - 1/alpha), in mpmath at
    60 digits (the definition, written out independently of the certified code)."""
    import mpmath

    with mpmath.workdps(60):
        a, r, d = (mpmath.mpf(x.numerator) / x.denominator for x in (alpha, rho, delta))
        return a * r + (mpmath.log(1 / d) - mpmath.log(a)) / (a - 1) + mpmath.log(1 - 1 / a)


def _golden_minimum(rho, delta):
    """min f by golden-section search over alpha in (1, 2 + sqrt(log(1/delta)/rho)], 60 digits: an
    approximation from above, independent of the bisection on f' the certified code uses."""
    import mpmath

    from exactdp.theorems.named import zcdp_to_dp_cks  # noqa: F401 (the module under test stays apart)

    with mpmath.workdps(60):
        r, d = (mpmath.mpf(x.numerator) / x.denominator for x in (rho, delta))

        def f(a):
            return a * r + (mpmath.log(1 / d) - mpmath.log(a)) / (a - 1) + mpmath.log(1 - 1 / a)

        lo, hi = mpmath.mpf(1) + mpmath.mpf(10) ** -40, 2 + mpmath.sqrt(mpmath.log(1 / d) / r)
        g = (mpmath.sqrt(5) - 1) / 2
        for _ in range(400):
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(x1) < f(x2):
                hi = x2
            else:
                lo = x1
        return f((lo + hi) / 2)


@pytest.mark.parametrize(
    "rho, delta",
    [
        (Q(1, 8), Q(1, 10**6)),
        (Q(1, 2), Q(1, 10**5)),
        (Q(1, 10**6), Q(1, 10**9)),
        (Q(50), Q(1, 2)),
        (Q(3, 2), Q(9, 10)),
    ],
)
def test_zcdp_cks_encloses_the_minimum_and_beats_bun_steinke(rho, delta):
    import mpmath

    from exactdp.theorems.named import zcdp_to_dp_cks

    b = zcdp_to_dp_cks(rho, delta)
    assert 0 <= b.hi - b.lo < Q(1, 10**18)
    best = _golden_minimum(rho, delta)
    with mpmath.workdps(60):
        lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in (b.lo, b.hi))
        assert lo <= best <= hi + mpmath.mpf(10) ** -30  # golden section approaches from above
        for alpha in (Q(101, 100), Q(3, 2), Q(2), Q(7), Q(100), Q(10**4)):  # the minimum is below every f(alpha)
            assert lo <= _cks_f(rho, delta, alpha)
    assert b.hi < zcdp_to_dp(rho, delta).lo  # log(alpha) > 0 > log(1 - 1/alpha): below Mironov's at every alpha


@pytest.mark.parametrize(
    "rho, delta",
    [
        (Q(10**300), Q(1, 2)),
        (Q(1, 10**300), Q(1, 10**300)),
        (Q(1), Q(1, 10**5000)),
        (Q(10**6), Q(1, 10**12)),
        (Q(3), 1 - Q(1, 10**25)),  # delta within 2^-80 of 1: log(1/delta) needs more bits to be > 0
        (Q(2600), 1 - Q(1, 10**30)),
    ],
)
def test_zcdp_cks_at_extreme_orders(rho, delta):
    """alpha* - 1 = sqrt(log(1/delta)/rho) roughly, from 10^-150 to 10^151: the critical point by mpmath's
    findroot on g in u = log(alpha* - 1) (an independent route), f there at 400 digits, inside the
    certified interval, which is narrow relative to the value."""
    import mpmath

    from exactdp.theorems.named import zcdp_to_dp_cks

    b = zcdp_to_dp_cks(rho, delta)
    with mpmath.workdps(400):
        r, L = mpmath.mpf(rho.numerator) / rho.denominator, mpmath.log(mpmath.mpf(delta.denominator) / delta.numerator)

        def f_of_u(u):
            s = mpmath.exp(u)
            return (1 + s) * r + (L - mpmath.log1p(s)) / s + u - mpmath.log1p(s)

        start = min(mpmath.log(L / r) / 2, mpmath.log(mpmath.expm1(L)))  # (g scaled by 1/L: L may be 1e-30)
        u = mpmath.findroot(lambda u: (r * mpmath.exp(2 * u) + mpmath.log1p(mpmath.exp(u))) / L - 1, start)
        best = f_of_u(u)
        lo, hi = (mpmath.mpf(x.numerator) / x.denominator for x in (b.lo, b.hi))
        assert lo <= best <= hi
        assert hi - lo <= abs(best) * mpmath.mpf(10) ** -18 + mpmath.mpf(10) ** -20


def test_zcdp_cks_zero_at_opendps_delta():
    """OpenDP's test of its CKS conversion (``cdp_epsilon``, after Steinke's cdp2adp.py):
    cdp_delta(0.5, 0) = 0.5588356393474351, and cdp_epsilon(0.5, that delta) = 0: the best eps is 0
    there, so it is above 0 for a smaller delta and below for a larger one."""
    from exactdp.theorems.named import zcdp_to_dp_cks

    above, below = zcdp_to_dp_cks(Q(1, 2), Q(5588, 10**4)), zcdp_to_dp_cks(Q(1, 2), Q(5589, 10**4))
    assert above.lo > 0 > below.hi
    assert above.hi < Q(1, 1000) and below.lo > -Q(1, 1000)


def test_zcdp_cks_conversion_claims():
    """RR with eps = log 3 is eps^2/2 = 0.603...-zCDP (Bun-Steinke 2016, Prop. 1.4), so 1-zCDP, and the CKS
    bound holds beside PrivLoss; it is not 1/100-zCDP (its KL divergence is (1/2) log 3 = 0.549... > 1/100,
    the limit of D_alpha/alpha at alpha -> 1), so the premise fails.  At delta near 1 the bound is below 0
    and says (0, delta)-DP, which PrivLoss = 0 is: the conversion holds."""
    text = """exactdp: 1
name: cks
mechanisms:
  M: {rr: {eps: log(3)}}
claims:
  - conversion: {theorem: zcdp-to-dp-cks, rho: 1, delta: 1/1000000}
  - conversion: {theorem: zcdp-to-dp-cks, rho: 1, delta: 999999/1000000}
  - conversion: {theorem: renyi-to-dp-cks, alpha: 2, delta: 999999/1000000}
  - conversion: {theorem: zcdp-to-dp-cks, rho: 1/100, delta: 1/1000000}
"""
    fr = verify_text(text)
    assert [v.status for v in fr.verdicts] == ["holds", "holds", "holds", "fails"]
    first = shown(fr.verdicts[0])
    assert "zcdp-to-dp-cks gives eps in [7.7662166" in first.found
    assert "[-12.81550955" in shown(fr.verdicts[1]).found
    assert "the premise: M is 0.01-zCDP fails" in shown(fr.verdicts[3]).found


def test_a_conversion_below_zero_is_certified_as_holding(tmp_path):
    """The checker states what it proved, PrivLoss(M, delta) <= max(0, the bound): RR_log3's D_2 =
    log(7/3) makes renyi-to-dp-cks at alpha = 2, delta = 999999/1000000 give log(7/3) + log(1/delta)
    + log(1/2) - log(2) = log(250000/428571) < 0, and PrivLoss = 0 (TV = 1/2 <= delta).  The same
    certificate saying the claim fails is rejected."""
    import json

    from click.testing import CliRunner

    from exactdp import checker
    from exactdp.cli.app import main

    case = tmp_path / "c.yaml"
    case.write_text(
        "exactdp: 1\nname: c\nmechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n"
        "  - conversion: {theorem: renyi-to-dp-cks, alpha: 2, delta: 999999/1000000}\n"
    )
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "out"), "--check"])
    assert r.exit_code == 0, r.output
    (cert,) = (tmp_path / "out").rglob("*.json")
    doc = json.loads(cert.read_text())
    assert doc["verdict"] == "holds"
    result = checker.check_certificate(doc)
    assert "<= max(0, the renyi-to-dp-cks bound at alpha = 2)" in str(result)
    doc["verdict"] = "fails"
    with pytest.raises(checker.Rejected):
        checker.check_certificate(doc)


def test_zcdp_cks_holds_with_delta_within_2_to_the_80_of_1():
    """M: RR with p = 1 - 10^-31 (TV = 1 - 2*10^-31 > delta = 1 - 10^-30), so PrivLoss(M, delta) = log 9
    (p - 9 (1 - p) = delta); M is log(10^31 - 1)^2/2 ~ 2547.6-zCDP (Bun-Steinke 2016, Prop. 1.4), and the
    CKS minimum there is 2530.9224472101786... (mpmath at 60 digits): the conversion holds.  At 80 bits
    log(1/delta) was not bounded away from 0, and the whole line's infinite ends were read as 0."""
    text = """exactdp: 1
name: near-one
mechanisms:
  M: {respond: {"0": [1 - 1/10**31, 1/10**31], "1": [1/10**31, 1 - 1/10**31]}}
claims:
  - conversion: {of: M, theorem: zcdp-to-dp-cks, rho: 2600, delta: 1 - 1/10**30}
"""
    (v,) = verify_text(text).verdicts
    assert v.status == "holds" and "[2530.92244721, 2530.92244721]" in shown(v).found
    from exactdp.claims.renyi import readable

    assert readable(v.claim.delta) == "0.999999999999999999999999999999"  # exact: 30 digits
    assert readable(1 - Q(1, 10**60)) == "≈ 1.0" and readable(Q(1, 10**300)) == "1.0e-300"  # rounded; exact


def test_an_infinite_interval_end_is_never_read_as_zero():
    import mpmath

    from exactdp.errors import InexactValueError
    from exactdp.theorems.advanced import _mpf_frac

    with pytest.raises(InexactValueError):
        _mpf_frac(mpmath.iv.mpf(["-inf", "inf"]).a)
