"""Calibration with a transcendental end: where a target's truth changes at a root of G(s) = e^m
inside a cell (exactdp/analysis/parametric/transcendental.py), the calibrated set's end is a
certified rational enclosure refined to 16 proved digits.

Known answers (cases/parametric/calibrate-transcendental.yaml derives them): RR_E (Vadhan-Wang
2021, Def. 1.9) has delta(lambda) = (E - lambda)/(1 + E) for lambda < E and pure privacy loss
log(E), so "(0.7, 1/5)-DP" holds exactly for E <= (5e^0.7 + 1)/4 and "PrivLoss <= 1" exactly for
E <= e.  The enclosures are checked independently with mpmath at 50 digits; the sets against the
concrete engine at random rational values (hypothesis)."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import flint
import mpmath
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactdp import limits
from exactdp.analysis.parametric.ratfun import Ring
from exactdp.analysis.parametric.transcendental import Crossing
from exactdp.cli import main
from exactdp.errors import LimitExceededError
from exactdp.verify import verify_text

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases/parametric/calibrate-transcendental.yaml"
DP = "dp: {eps: 0.7, delta: 1/5}"
PL = "privloss: {delta: 0, at_most: 1}"
RENYI = "renyi: {alpha: 2, at_most: 1}"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def calibrated(target: str) -> dict:
    r = run("calibrate", str(CASE), "--of", "R", "--target", target, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def exact_ends() -> dict[str, mpmath.mpf]:
    with mpmath.workdps(50):
        e = +mpmath.e
        return {
            DP: (5 * mpmath.exp(mpmath.mpf(7) / 10) + 1) / 4,
            PL: e,
            RENYI: ((1 + e) + mpmath.sqrt((1 + e) ** 2 - 4)) / 2,
        }


def test_a_dp_target_at_a_decimal_eps_is_calibrated_with_a_certified_end():
    """Refused before ("the target changes between holding and failing inside ...")."""
    r = run("calibrate", str(CASE), "--of", "R", "--target", DP)
    assert r.exit_code == 0, r.output
    assert "holds exactly where: 1 < E <= 2.767190884338096..." in r.output
    assert "the root of (4*E - 1)/5 = exp(7/10) in [2.7671908843380955, 2.7671908843380965]" in r.output
    latex = run("calibrate", str(CASE), "--of", "R", "--target", DP, "--latex")
    assert latex.output.strip() == r"1 < E \le 2.767190884338096\ldots"


def test_each_enclosure_holds_the_crossing_checked_with_mpmath():
    for target, x in exact_ends().items():
        (iv,) = calibrated(target)["holds_for"]
        hi = iv["hi"]
        assert hi["kind"] == "enclosure" and hi["exact"] is None and iv["hi_closed"] is True
        lo, up = (Fraction(t) for t in hi["enclosure"])
        with mpmath.workdps(50):
            assert mpmath.mpf(lo.numerator) / lo.denominator < x < mpmath.mpf(up.numerator) / up.denominator
            assert hi["decimal"] == mpmath.nstr(x, 16)
        assert len(hi["decimal"].replace(".", "")) >= 15


def test_the_end_is_excluded_where_the_comparison_is_strict():
    """not (0.7, 1/5)-DP means delta(e^0.7) > 1/5, false where delta = 1/5 exactly."""
    (iv,) = calibrated("not_dp: {eps: 0.7, delta: 1/5}")["holds_for"]
    assert iv["lo"]["kind"] == "enclosure" and iv["lo_closed"] is False and iv["hi"] is None


def _concrete(target_claim: str, e: Fraction) -> str:
    text = (
        f"exactdp: 1\nname: at\nmechanisms:\n  R: {{rr: {{eps: log({e.numerator}/{e.denominator})}}}}\n"
        f"claims:\n  - {target_claim}\n"
    )
    (v,) = verify_text(text, "at.yaml").verdicts
    return v.status


ENDS = {DP: "dp: {of: R, eps: 0.7, delta: 1/5}", PL: "privloss: {of: R, delta: 0, at_most: 1}"}
_SETS = {}


def _enclosure(target: str) -> tuple[Fraction, Fraction]:
    if target not in _SETS:
        (iv,) = calibrated(target)["holds_for"]
        _SETS[target] = tuple(Fraction(t) for t in iv["hi"]["enclosure"])
    return _SETS[target]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([DP, PL]), st.fractions(min_value=Fraction(51, 50), max_value=4, max_denominator=100))
def test_the_concrete_engine_agrees_inside_and_outside_the_set(target, e):
    lo, hi = _enclosure(target)
    assume(not lo <= e <= hi)
    assert _concrete(ENDS[target], e) == ("holds" if e < lo else "fails")


CLAIM = """
  - calibrate:
      target: {{privloss: {{of: R, delta: 0, at_most: 1}}}}
      holds_for: [{{gt: 1, le: {end}}}]
"""


def _verdict(end: str):
    text = CASE.read_text().split("claims:")[0] + "claims:" + CLAIM.format(end=end)
    (v,) = verify_text(text, "cal.yaml").verdicts
    return v


def _claim(end: str) -> str:
    return _verdict(end).status


def test_a_wrong_decimal_end_is_refuted_at_a_value_outside_the_enclosure():
    """Declared e + 10^-15: at a rational value between the enclosure and the declared end the
    concrete engine says the target fails, though the declared set contains it."""
    v = _verdict("2.718281828459046")
    x = Fraction(str(v.facts["differs_at"]["E"]))
    with mpmath.workdps(50):
        assert mpmath.e < mpmath.mpf(x.numerator) / x.denominator <= mpmath.mpf("2.718281828459046")
    assert v.facts["there"].status == "fails"
    r = run("calibrate", str(CASE), "--of", "R", "--target", PL)
    assert "1 < E <= 2.718281828459045..." in r.output


def test_a_declared_decimal_end_must_round_match_the_enclosure():
    assert _claim("2.718281828459045") == "holds"
    assert _claim("2.71828182846") == "holds"  # e rounded to 12 digits
    assert _claim("2.718281828459046") == "fails"  # one off in the last place
    assert _claim("2.718281828") == "holds"  # 10 digits: e = 2.718281828|459...
    assert _claim("2.718281829") == "fails"
    assert _claim("2.71828") == "fails"  # fewer than 10 significant digits read as exact


def test_the_case_holds_and_certify_says_why_there_is_no_certificate(tmp_path):
    r = run("verify", str(CASE))
    assert r.exit_code == 0, r.output
    r = run("certify", str(CASE), "-o", str(tmp_path / "c.json"))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code in (0, 1), r.output
    assert "an end of the calibrated set is irrational (1 < E <= 2.767190884338096...)" in r.output


def test_the_refinement_is_bounded_by_max_precision():
    """Each bisection adds one bit: 30 proved digits need about 100 of them, more than
    ``max_precision`` = 64 allows; the error names the limit and its flag."""
    ring = Ring(["E"])
    E = ring.gen("E")
    c = Crossing(E, flint.fmpq(1), "E", flint.fmpq(2), flint.fmpq(3), -1, True)  # E = e
    assert c.enclose(16).decimal == "2.718281828459045"
    with limits.using(dataclasses.replace(limits.current(), max_precision=64)):
        with pytest.raises(LimitExceededError, match="--max-precision"):
            c.enclose(30)


def test_an_equality_true_at_a_transcendental_point_alone_is_a_one_point_set():
    """PrivLoss(R, 0) = 1 holds at E = e only: the set is that point, a certified enclosure
    (refused before; tests/test_calibrate_boxes.py checks it against mpmath and the exact engine)."""
    r = run("calibrate", str(CASE), "--of", "R", "--target", "privloss: {delta: 0, equals: 1}")
    assert r.exit_code == 0, r.output
    assert "holds exactly where: E = 2.718281828459045..." in r.output


def test_an_exact_end_inside_an_enclosure_is_undecided_not_false(tmp_path):
    """KL(RR_E) = ((E-1)/(E+1)) log E <= log(E)/2 exactly for E <= 3 (a rational crossing, found
    as a root of G = e^q with an enclosure around 3): the true claim (1, 3] is undecided, it was
    refuted; a wrong 16-digit decimal end is still refuted by rounding."""
    from click.testing import CliRunner

    from exactdp.cli import main

    case = tmp_path / "kl.yaml"
    case.write_text(
        "exactdp: 1\nname: kl\nsymbols:\n  E: {gt: 1, le: 4}\nmechanisms:\n  R: {rr: {eps: log(E)}}\nclaims:\n"
        "  - calibrate: {target: {renyi: {of: R, alpha: 1, at_most: log(E)/2}}, holds_for: [{gt: 1, le: 3}]}\n"
        "  - calibrate: {target: {dp: {of: R, eps: 1/2}}, holds_for: [{gt: 1, le: 1.648721270700129}]}\n"
    )
    out = CliRunner().invoke(main, ["verify", str(case)]).output
    assert "summary: 2 claims in 1 file: 0 hold, 1 fail, 1 undecided" in out, out
