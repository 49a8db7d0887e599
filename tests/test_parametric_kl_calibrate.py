"""Calibrating a KL target: the set where KL(M) <= X (or > X) for one symbol, its ends certified
enclosures.  Cross-checks: the exact engine at random rational values inside and outside the
calibrated set, and at both ends of every enclosure; the ends against an independent bisection of
the closed form (2p - 1) log(p/(1 - p)) = X of a two-answer mechanism (Mironov 2017, Def. 3)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis.parametric.transcendental import TranscendentalEnd
from exactdp.caseio import parse_case
from exactdp.claims import Analysis
from exactdp.claims.calibrate import calibrate
from exactdp.claims.parametric import analysis_at, claim_at
from exactdp.report.verdicts import shown
from exactdp.verify import verify_text

CASE = """
exactdp: 1
name: kl
symbols:
  p: {ge: 1/100, le: 99/100}
mechanisms:
  M: {respond: {a: [p, 1 - p], b: [1 - p, p]}}
claims:
  - renyi: {of: M, alpha: 1, at_most: 1}
"""


def _root(x: Fraction, side: int) -> mpmath.mpf:
    """The root of (2p - 1) log(p/(1 - p)) = x on the side of 1/2, by bisection at 40 digits."""
    with mpmath.workdps(40):
        target = mpmath.mpf(x.numerator) / x.denominator
        lo, hi = (mpmath.mpf("0.01"), mpmath.mpf("0.5")) if side < 0 else (mpmath.mpf("0.5"), mpmath.mpf("0.99"))
        for _ in range(150):
            mid = (lo + hi) / 2
            up = (2 * mid - 1) * mpmath.log(mid / (1 - mid)) > target
            if up == (side < 0):
                lo = mid
            else:
                hi = mid
        return lo


def _frac(v) -> Fraction:
    return Fraction(int(v.p), int(v.q)) if hasattr(v, "p") else Fraction(v)


def _case_and_analysis(text: str):
    case = parse_case(text, "kl.yaml")
    return case, Analysis(case.mechanisms, symbols=case.symbols)


def _verdict(target, an, s: Fraction) -> str:
    pt = {"p": s}
    return claim_at(target, an, pt).check(analysis_at(an, pt)).status.value


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([Fraction(1, 10), Fraction(1, 3), Fraction(1)]),
    st.sampled_from(["at_most", "exceeds"]),
    st.integers(1, 99),
)
def test_kl_calibration_matches_the_closed_form_and_the_exact_engine(x, sense, k):
    _, an = _case_and_analysis(CASE)
    case, _ = _case_and_analysis(CASE.replace("at_most: 1}", f"{sense}: {x}}}"))
    target = case.claims[0]
    cal = calibrate(target, an)
    ends = sorted(
        (e for iv in cal.intervals for e in (iv.lo, iv.hi) if isinstance(e, TranscendentalEnd)),
        key=lambda e: _frac(e.lo),
    )
    assert len(ends) == 2
    for e, side in zip(ends, (-1, 1)):
        r = _root(x, side)  # an independent root of the closed form, inside the certified enclosure
        with mpmath.workdps(40):
            assert mpmath.mpf(_frac(e.lo).numerator) / _frac(e.lo).denominator < r
            assert r < mpmath.mpf(_frac(e.hi).numerator) / _frac(e.hi).denominator
        # the exact engine's verdicts at the two ends of the enclosure differ
        assert {_verdict(target, an, _frac(e.lo)), _verdict(target, an, _frac(e.hi))} == {"holds", "fails"}
    s = Fraction(k, 100)  # the exact engine agrees with the set at a random value
    inside = _frac(ends[0].lo) < s < _frac(ends[1].hi)
    if not (_frac(ends[0].lo) <= s <= _frac(ends[0].hi) or _frac(ends[1].lo) <= s <= _frac(ends[1].hi)):
        assert (_verdict(target, an, s) == "holds") == (inside == (sense == "at_most"))


def test_the_case_and_a_wrong_declared_set():
    from pathlib import Path

    from exactdp.verify import Options, verify_file

    res = verify_file(Path("cases/parametric/calibrate-kl.yaml"), Options())
    assert all(v.status == "holds" for v in res.verdicts)
    text = CASE + "  - calibrate:\n      target: {renyi: {of: M, alpha: 1, at_most: 1/10}}\n"
    text += "      holds_for: [{ge: 0.3891290414998433, le: 0.6108709585001566}]\n"
    v = verify_text(text, "c.yaml").verdicts[-1]
    assert v.status == "fails"


def test_undecided_with_the_reason():
    """KL(M) = 0 only at p = 1/2, where it touches the bound 0: no box separates them."""
    text = (
        CASE
        + "  - calibrate:\n      target: {renyi: {of: M, alpha: 1, at_most: 0}}\n      holds_for: [{ge: 0.5, le: 0.5}]\n"
    )
    v = verify_text(text, "c.yaml").verdicts[-1]
    assert v.status == "error" and "2^-60" in str(v.reason or v.facts)
    text = (
        CASE
        + "  - calibrate:\n      target: {renyi: {of: M, alpha: 1, equals: 1/10}}\n      holds_for: [{ge: 0.4, le: 0.6}]\n"
    )
    v = verify_text(text, "c.yaml").verdicts[-1]
    assert v.status == "error"


def test_a_calibration_crosses_processes_and_refines_after():
    """Results are pickled between worker processes: a KL end keeps what it needs to refine."""
    import pickle

    case, an = _case_and_analysis(CASE.replace("at_most: 1}", "at_most: 1/10}"))
    cal = pickle.loads(pickle.dumps(calibrate(case.claims[0], an)))
    end = cal.intervals[0].hi
    assert isinstance(end, TranscendentalEnd) and end.decimal == "0.6108709585001566"
    assert end.crossing.enclose(20).decimal.startswith("0.6108709585001566")


CHOICE = """
exactdp: 1
name: kl-choice
symbols:
  p: {ge: 1/4, le: 3/4}
mechanisms:
  M: {ask: {q1: {a0: [3/8 + 3*p/56, 1/2 - 3*p/10], a1: [3/8 - 5*p/56, 2*p/5], a2: [1/4 + p/28, 1/2 - p/10]}, q2: {a: [1, 1]}}}
  M1: {respond: {a0: [3/8 + 3*p/56, 1/2 - 3*p/10], a1: [3/8 - 5*p/56, 2*p/5], a2: [1/4 + p/28, 1/2 - p/10]}}
claims:
  - calibrate: {of: M1, target: {renyi: {alpha: 1, at_most: 19/250}}, holds_for: [{ge: 0.5369897973987600, le: 3/4}]}
  - calibrate: {of: M, target: {renyi: {alpha: 1, at_most: 19/250}}, holds_for: [{ge: 0.5369897973987600, le: 3/4}]}
  - profile_eq: {of: M, as: M1}
"""


def test_a_choice_with_a_constant_option_calibrates_as_the_other_option():
    """KL(M) = max(KL(M1), 0) = KL(M1): the query q2 answers the same under both datasets.  The
    crossing of 19/250 is transversal (mpmath: KL - 0.076 is +1.9e-5 at p = 0.5369, -2.2e-6 at
    p = 0.537); the slope of the max was the hull of both options' slopes, which holds the constant
    option's 0, so no box was ever proved and M's calibration was undecided while M1's was not."""
    r = verify_text(CHOICE)
    assert r.exit_code == 0, [v.reason for v in r.verdicts]


def test_on_the_open_unit_interval_the_infinite_ends_are_no_obstacle():
    """On 0 < p < 1, KL(M) -> inf at both ends: the lower bounds settle the boxes next to them, and
    the set is the one found on [1/100, 99/100] (the claim's narrower set fails)."""
    text = CASE.replace("{ge: 1/100, le: 99/100}", "{gt: 0, lt: 1}")
    text += "  - calibrate:\n      target: {renyi: {of: M, alpha: 1, at_most: 1/10}}\n      holds_for: [{ge: 0.4, le: 0.6}]\n"
    v = verify_text(text, "c.yaml").verdicts[-1]
    assert v.status == "fails" and "0.3891290414998434... <= p <= 0.6108709585001566..." in shown(v).found


def test_a_calibration_whose_kl_is_infinite_at_both_closed_ends():
    """M = (2p - 1/2, 3/2 - 2p) against (1/3, 2/3) on [1/4, 3/4]: KL = inf at both ends (a view
    impossible under one dataset), so boxes next to them have no finite enclosure; their lower
    bounds settle them.  The two certified crossings bracket roots of max(KL(P||Q), KL(Q||P)) = 1/10
    found here independently with mpmath (40 digits, bisection on the definition)."""
    text = CASE.replace("{ge: 1/100, le: 99/100}", "{ge: 1/4, le: 3/4}").replace(
        "{a: [p, 1 - p], b: [1 - p, p]}", "{a: [2*p - 1/2, 1/3], b: [3/2 - 2*p, 2/3]}"
    )
    case, an = _case_and_analysis(text.replace("at_most: 1}", "at_most: 1/10}"))
    cal = calibrate(case.claims[0], an)
    ends = sorted((e for iv in cal.intervals for e in (iv.lo, iv.hi)), key=lambda e: _frac(e.lo))
    assert len(cal.intervals) == 1 and len(ends) == 2 and all(isinstance(e, TranscendentalEnd) for e in ends)

    def excess(p: mpmath.mpf) -> mpmath.mpf:
        P, Q = [2 * p - mpmath.mpf(1) / 2, mpmath.mpf(3) / 2 - 2 * p], [mpmath.mpf(1) / 3, mpmath.mpf(2) / 3]
        kl = [sum(x * mpmath.log(x / y) for x, y in zip(A, B)) for A, B in ((P, Q), (Q, P))]
        return max(kl) - mpmath.mpf(1) / 10

    with mpmath.workdps(40):
        for e in ends:
            lo, hi = (mpmath.mpf(_frac(x).numerator) / _frac(x).denominator for x in (e.lo, e.hi))
            assert excess(lo) * excess(hi) < 0  # a root of the definition inside each certified bracket
