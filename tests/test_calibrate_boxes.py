"""Calibration of targets that change at transcendental points: a dp target of a composed mechanism
whose delta crosses the bound at several such points of one cell (exactdp/analysis/parametric/
separate.py), and zCDP / Gaussian-DP targets found by certified boxes (exactdp/claims/
parametric_boxcal.py, exactdp/analysis/parametric/box_calibrate.py).

Known answers (derived by hand below and in cases/parametric/calibrate-boxes.yaml):

* RR_E x RR_E (Kairouz-Oh-Viswanath 2015, Thm 3.3) answers with probabilities (E^2, E, E, 1)/(1+E)^2
  under x0 and the reverse under x1, so delta(lambda) = max(0, (E^2 - lambda)/(1+E)^2,
  (E^2 + 2E - lambda(1 + 2E))/(1+E)^2).  At eps = 1, delta = 0: E^2 <= e and (E^2 + 2E)/(1 + 2E) <= e,
  i.e. E <= e^(1/2) (the second holds up to 4.10...).  At delta = 1/10: 9E^2 - 2E - 1 <= 10e, i.e.
  E <= (1 + sqrt(1 + 9(1 + 10e)))/9.
* RR_E is mu-GDP iff E <= Phi(mu/2)/Phi(-mu/2) (Dong, Roth & Su 2022, Def. 2.6: its one interior
  vertex of T is (1/(1+E), 1/(1+E))).
* RR_E is rho-zCDP iff rho >= sup_alpha D_alpha/alpha (Bun & Steinke 2016, Def. 1.1), and for RR_E
  that supremum is the limit alpha -> 1, KL(RR_E) = ((E - 1)/(E + 1)) log E.

mpmath is a cross-check only; the bisections use the exact engine at rational values.
"""

from __future__ import annotations

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
from exactdp.analysis.parametric import box_calibrate as bc
from exactdp.caseio import load_case
from exactdp.caseio.case import parse_claim_text
from exactdp.claims.base import HOLDS, Analysis
from exactdp.claims.parametric import analysis_at, claim_at
from exactdp.cli import main

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "cases/parametric/calibrate-boxes.yaml"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def calibrated(of: str, target: str, *extra: str, case: Path = CASE, status: int = 0) -> dict:
    """The calibration as JSON; ``status`` 2 when part of the range is to be left undecided."""
    r = run("calibrate", str(case), "--of", of, "--target", target, "--json", *extra)
    assert r.exit_code == status, r.output
    return json.loads(r.output)


def exact_holds(of: str, target: str, x: Fraction) -> bool:
    """The exact (numeric) engine's verdict on the target at the rational value E = x."""
    case = load_case(CASE)
    an = Analysis(case.mechanisms, symbols=case.symbols)
    claim = parse_claim_text(case, target, of=of)
    pt = {"E": flint.fmpq(x.numerator, x.denominator)}
    return claim_at(claim, an, pt).check(analysis_at(an, pt)).status == HOLDS


def bisect(of: str, target: str, lo: Fraction, hi: Fraction, steps: int) -> tuple[Fraction, Fraction]:
    """Where the exact engine's verdict changes from holding (at lo) to failing (at hi)."""
    assert exact_holds(of, target, lo) and not exact_holds(of, target, hi)
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if exact_holds(of, target, mid) else (lo, mid)
    return lo, hi


def mpf(text: str) -> mpmath.mpf:
    x = Fraction(text)
    return mpmath.mpf(x.numerator) / x.denominator


def enclosure(end: dict) -> tuple[mpmath.mpf, mpmath.mpf]:
    return tuple(mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in end["enclosure"])


@pytest.mark.parametrize(
    ("target", "exact"),
    [
        ("dp: {eps: 1, delta: 0}", lambda: mpmath.exp(mpmath.mpf(1) / 2)),
        ("dp: {eps: 1, delta: 1/10}", lambda: (1 + mpmath.sqrt(1 + 9 * (1 + 10 * mpmath.e))) / 9),
    ],
    ids=["KOV-3.3-eps1-delta0", "KOV-3.3-eps1-delta1/10"],
)
def test_a_dp_target_of_a_composed_mechanism_is_calibrated(target, exact):
    """Undecided before ("... several such functions ..."): delta crosses the bound at two
    transcendental points of the one cell E > 1 (the second inside the failing part)."""
    got = calibrated("RR2", target)
    (iv,) = got["holds_for"]
    assert iv["lo"]["exact"] == "1" and not iv["lo_closed"] and iv["hi_closed"]
    end = iv["hi"]
    assert end["kind"] == "enclosure" and len(end["decimal"].replace(".", "")) >= 15
    lo, hi = enclosure(end)
    with mpmath.workdps(50):
        assert lo < exact() < hi
    b_lo, b_hi = bisect("RR2", target, Fraction(1), Fraction(5), 30)  # the exact engine's boundary
    assert Fraction(end["enclosure"][0]) < b_hi and b_lo < Fraction(end["enclosure"][1])


def test_not_dp_is_the_complement():
    got = calibrated("RR2", "not_dp: {eps: 1, delta: 0}")
    (iv,) = got["holds_for"]
    assert iv["lo"]["kind"] == "enclosure" and not iv["lo_closed"] and iv["hi"]["exact"] == "5"


def test_verify_keeps_one_piece_for_the_dp_claim(tmp_path):
    """Cutting between crossings happens only when calibrating: a verdict keeps its pieces."""
    text = "exactdp: 1\nname: t\nsymbols: {E: {gt: 1}}\nmechanisms:\n  R: {rr: {eps: log(E)}}\n  M: {compose: [R, R]}\n"
    text += "claims:\n  - dp: {of: M, eps: 1, delta: 0}\n"
    case = tmp_path / "t.yaml"
    case.write_text(text)
    out = run("verify", "-v", str(case)).output
    assert "fails in part" in out and out.count("delta_M(e^eps) = max(") == 1


def test_gdp_of_rr_is_calibrated_to_16_digits():
    got = calibrated("R", "gdp: {mu: 1}")
    assert got["method"] == "certified boxes"
    (h,), (f,), (g,) = got["holds_on"], got["fails_on"], got["gaps"]
    assert g["narrow"] and g["digits"] == 16
    with mpmath.workdps(40):
        exact = mpmath.ncdf(mpmath.mpf(1) / 2) / mpmath.ncdf(-mpmath.mpf(1) / 2)  # cross-check only
        assert mpf(h["hi"]["exact"]) < exact < mpf(f["lo"]["exact"])
        assert mpmath.nstr(exact, 16, strip_zeros=False) == g["decimal"]
    assert Fraction(h["hi"]["exact"]) == Fraction(g["lo"]["exact"]) and h["hi_closed"] and f["lo_closed"]
    assert got["confirmed_failing_at"]  # each failing stretch re-decided by the exact engine
    for x in got["confirmed_failing_at"]:
        assert not exact_holds("R", "gdp: {mu: 1}", Fraction(x))
    b_lo, b_hi = bisect("R", "gdp: {mu: 1}", Fraction(1), Fraction(5), 20)
    assert b_lo <= Fraction(f["lo"]["exact"]) and Fraction(h["hi"]["exact"]) <= b_hi


def test_not_gdp_swaps_the_stretches():
    got = calibrated("R", "not_gdp: {mu: 1}")
    yes, no = calibrated("R", "gdp: {mu: 1}"), got
    assert [x["text"] for x in yes["holds_on"]] == [x["text"] for x in no["fails_on"]]
    assert [x["text"] for x in yes["fails_on"]] == [x["text"] for x in no["holds_on"]]


def test_text_says_what_is_proved_and_what_a_gap_means():
    r = run("calibrate", str(CASE), "--of", "R", "--target", "gdp: {mu: 1}")
    assert r.exit_code == 0, r.output
    assert "holds on: 1 < E <= 2.2410967045669699" in r.output
    assert "the boundary lies in" in r.output and "more than once" in r.output
    assert "the exact engine confirms" in r.output


ZCASE = (
    "exactdp: 1\nname: z\nsymbols: {E: {ge: 2, le: 3}}\nmechanisms:\n  R: {rr: {eps: log(E)}}\n"
    "claims:\n  - zcdp: {of: R, rho: 1/2}\n"
)


def kl_boundary() -> mpmath.mpf:
    """KL(RR_E) = ((E - 1)/(E + 1)) log E = 1/2 (mpmath: a cross-check only)."""
    return mpmath.findroot(lambda E: (E - 1) / (E + 1) * mpmath.log(E) - mpmath.mpf(1) / 2, 2.8)


def test_zcdp_of_rr_is_calibrated_to_16_digits(tmp_path):
    """RR_E is 1/2-zCDP iff KL(RR_E) <= 1/2 (the largest D_alpha/alpha is the limit alpha -> 1):
    the boxes prove it up to the boundary and refute it beyond, to 16 digits."""
    case = tmp_path / "z.yaml"
    case.write_text(ZCASE)
    got = calibrated("R", "zcdp: {rho: 1/2}", case=case)
    (h,), (f,), (g,) = got["holds_on"], got["fails_on"], got["gaps"]
    with mpmath.workdps(40):
        kl = kl_boundary()
        assert mpf(h["hi"]["exact"]) < kl < mpf(f["lo"]["exact"])
        assert g["narrow"] and g["digits"] == 16 and mpmath.nstr(kl, 16, strip_zeros=False) == g["decimal"]
    assert h["lo"]["exact"] == "2" and h["lo_closed"] and f["hi"]["exact"] == "3" and f["hi_closed"]


def test_zcdp_gap_left_by_the_box_limit_is_said_undecided(tmp_path):
    case = tmp_path / "z.yaml"
    case.write_text(ZCASE)
    got = calibrated("R", "zcdp: {rho: 1/2}", "--max-symbol-boxes", "20", case=case, status=2)
    with mpmath.workdps(40):
        kl = kl_boundary()
        for x in got["holds_on"]:
            assert mpf(x["hi"]["exact"]) < kl
        for x in got["fails_on"]:
            assert kl < mpf(x["lo"]["exact"])
    assert any(not g["narrow"] and g["decimal"] is None for g in got["gaps"])
    assert "max-symbol-boxes" in got["undecided_because"]
    r = run("calibrate", str(case), "--of", "R", "--target", "zcdp: {rho: 1/2}", "--max-symbol-boxes", "20")
    assert "not decided:" in r.output and "--max-symbol-boxes" in r.output and r.exit_code == 2


PEAK = """exactdp: 1
name: interior-order
symbols:
  p: {ge: 3/20, le: 1/5}
mechanisms:
  M: {respond: {a: [p, 1/3], b: [(1 - p)/2, 1/3], c: [(1 - p)/2, 1/3]}}
claims:
  - zcdp: {rho: 1/10}
"""


def sup_d_over_alpha(p: mpmath.mpf) -> mpmath.mpf:
    """sup over alpha > 1 of D_alpha/alpha for the answers (p, (1-p)/2, (1-p)/2) against uniform,
    both orders, by golden-section search (mpmath, a cross-check only; each order's D_alpha/alpha
    is unimodal here, largest near alpha = 2.95 for p near the boundary)."""
    P, U = [p, (1 - p) / 2, (1 - p) / 2], [mpmath.mpf(1) / 3] * 3
    best = mpmath.mpf(0)
    for A, B in ((P, U), (U, P)):

        def d(a, A=A, B=B):
            return mpmath.log(sum(y * (x / y) ** a for x, y in zip(A, B))) / (a - 1) / a

        lo, hi = mpmath.mpf(1) + mpmath.mpf(10) ** -12, mpmath.mpf(20)
        for _ in range(160):
            m1, m2 = lo + (hi - lo) * mpmath.mpf("0.382"), lo + (hi - lo) * mpmath.mpf("0.618")
            lo, hi = (m1, hi) if d(m1) < d(m2) else (lo, m2)
        best = max(best, d((lo + hi) / 2))
    return best


def test_zcdp_calibrated_where_the_largest_ratio_is_at_an_interior_order(tmp_path):
    """sup D_alpha/alpha is reached near alpha = 2.95, not as alpha -> 1: the orders where
    D_alpha > rho*alpha next to the boundary form a narrow band, which fixed grids of orders missed
    (the fails side stopped 5e-6 short); the boxes now search that order, and close the boundary."""
    case = tmp_path / "peak.yaml"
    case.write_text(PEAK)
    got = calibrated("M", "zcdp: {rho: 1/10}", "--max-symbol-boxes", "400", case=case)
    (h,), (f,), (g,) = got["holds_on"], got["fails_on"], got["gaps"]
    with mpmath.workdps(40):
        lo, hi = mpmath.mpf("0.16"), mpmath.mpf("0.17")  # (sup D_alpha/alpha decreases in p here)
        for _ in range(60):
            lo, hi = (
                ((lo + hi) / 2, hi) if sup_d_over_alpha((lo + hi) / 2) > mpmath.mpf(1) / 10 else (lo, (lo + hi) / 2)
            )
        edge = (lo + hi) / 2
        assert mpf(f["hi"]["exact"]) < edge < mpf(h["lo"]["exact"])
        assert g["narrow"] and g["digits"] >= 14


def test_the_case_holds_and_a_wrong_digit_fails(tmp_path):
    assert "7 claims hold" in run("verify", str(CASE)).output
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text(CASE.read_text().replace("le: 2.241096704566970}", "le: 2.241096704566971}"))
    assert "6 hold, 1 fail" in run("verify", str(wrong)).output


@pytest.mark.parametrize(
    ("target", "exact"),
    [
        ("privloss: {delta: 0, equals: 1}", lambda: mpmath.e),
        ("renyi: {alpha: 2, equals: 1}", lambda: ((1 + mpmath.e) + mpmath.sqrt((1 + mpmath.e) ** 2 - 4)) / 2),
    ],
    ids=["privloss-log(E)=1", "renyi-D2=1"],
)
def test_an_equals_target_true_at_one_transcendental_point(target, exact):
    """Undecided before ("... an equality that holds at that point alone"): the set is one point,
    given by a certified enclosure; on both sides of it the exact engine says the target fails."""
    (iv,) = calibrated("R", target)["holds_for"]
    assert iv["lo"] == iv["hi"] and iv["lo_closed"] and iv["hi_closed"] and iv["lo"]["kind"] == "enclosure"
    lo, hi = (Fraction(x) for x in iv["lo"]["enclosure"])
    with mpmath.workdps(50):
        assert mpf(str(lo)) < exact() < mpf(str(hi))
    assert not exact_holds("R", target, lo) and not exact_holds("R", target, hi)


_SETS: dict[tuple[str, str], dict] = {}


def _calibrated_once(of: str, target: str) -> dict:
    if (of, target) not in _SETS:
        _SETS[(of, target)] = calibrated(of, target)
    return _SETS[(of, target)]


def _side(x: Fraction, end: dict) -> int:
    """-1/+1: x left/right of an end (an enclosure or an exact rational); 0 inside the enclosure."""
    if end["kind"] == "enclosure":
        lo, hi = (Fraction(v) for v in end["enclosure"])
        return -1 if x < lo else 1 if x > hi else 0
    e = Fraction(end["exact"])
    return (x > e) - (x < e)


def _in(x: Fraction, iv: dict) -> bool | None:
    """Whether x is in the interval (None: too close to an enclosed end to say)."""
    out = True
    for key, sense in (("lo", 1), ("hi", -1)):
        end = iv[key]
        if end is None:
            continue
        s = _side(x, end) * sense
        if s == 0 and (end["kind"] == "enclosure" or not iv[f"{key}_closed"]):
            return None if end["kind"] == "enclosure" else False
        out = out and s >= 0
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fractions(min_value=Fraction(101, 100), max_value=5, max_denominator=1000))
def test_calibrated_dp_sets_agree_with_the_exact_engine_at_random_values(x):
    """Membership in the calibrated set = the exact engine's verdict at a random rational E."""
    for target in ("dp: {eps: 1, delta: 0}", "dp: {eps: 1, delta: 1/10}"):
        ivs = _calibrated_once("RR2", target)["holds_for"]
        inside = [_in(x, iv) for iv in ivs]
        assume(None not in inside)
        assert any(inside) == exact_holds("RR2", target, x)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fractions(min_value=Fraction(101, 100), max_value=5, max_denominator=1000))
def test_gdp_stretches_agree_with_the_exact_engine_at_random_values(x):
    """A value in a stretch proved to hold (fail) holds (fails) by the exact engine; a value in a
    gap is not asked."""
    got = _calibrated_once("R", "gdp: {mu: 1}")
    holds = [iv for iv in got["holds_on"] if _in(x, iv)]
    fails = [iv for iv in got["fails_on"] if _in(x, iv)]
    assume(holds or fails)
    assert not (holds and fails)
    assert exact_holds("R", "gdp: {mu: 1}", x) == bool(holds)


def test_latex_of_a_point_set_and_of_a_set_found_by_boxes(tmp_path):
    r = run("calibrate", str(CASE), "--of", "R", "--target", "privloss: {delta: 0, equals: 1}", "--latex")
    assert r.exit_code == 0 and r.output.strip() == r"E = 2.718281828459045\ldots"
    r = run("calibrate", str(CASE), "--of", "R", "--target", "gdp: {mu: 1}", "--latex")
    assert r.exit_code == 0 and r"E \approx 2.241096704566970\ldots" in r.output
    out = tmp_path / "v.tex"
    r = run("export", str(CASE), "--latex", str(out))
    assert r.exit_code == 0, r.output
    assert r"{\ensuremath{2.241096704566970\ldots}} % boundary" in out.read_text()


def _classify_sqrt2(box):
    """A known set for :func:`scan`: holds where E^2 < 2, fails where E^2 > 2 (exact rationals)."""
    if box.hi is not None and box.hi * box.hi < 2:
        return bc.HOLDS
    if box.lo is not None and box.lo * box.lo > 2:
        return bc.FAILS
    return None


def test_scan_brackets_a_known_boundary_to_the_digits_asked():
    sc = bc.scan(_classify_sqrt2, Fraction(1), Fraction(2), digits=16, name="E")
    statuses = [s.status for s in sc.stretches]
    assert statuses == [bc.HOLDS, bc.GAP, bc.FAILS] and not sc.reason
    gap = sc.stretches[1]
    assert gap.lo * gap.lo < 2 < gap.hi * gap.hi
    assert bc.gap_decimal(gap.lo, gap.hi, 16) == ("1.414213562373095", 16)
    assert sc.stretches[0].hi == gap.lo and sc.stretches[2].lo == gap.hi  # stretches meet the gap


def test_scan_leaves_a_wide_gap_at_the_box_limit():
    with limits.using(limits.current().replace(max_symbol_boxes=5)):
        sc = bc.scan(_classify_sqrt2, Fraction(1), Fraction(2), digits=16, name="E")
    assert any(s.status == bc.GAP and not s.narrow for s in sc.stretches) and "max-symbol-boxes" in sc.reason


def test_gaps_with_slivers_between_within_one_rounding_become_one_gap():
    F = Fraction
    base = F(2258106472784338, 10**15)
    u = F(1, 10**18)
    parts = [
        bc.Stretch(F(2), base + 10 * u, bc.HOLDS),
        bc.Stretch(base + 10 * u, base + 20 * u, bc.GAP),
        bc.Stretch(base + 20 * u, base + 30 * u, bc.HOLDS),  # a sliver: given up
        bc.Stretch(base + 30 * u, base + 40 * u, bc.GAP),
        bc.Stretch(base + 40 * u, F(3), bc.FAILS),
    ]
    got = bc._absorb(parts, 16)
    assert [s.status for s in got] == [bc.HOLDS, bc.GAP, bc.FAILS]
    assert got[1].lo == base + 10 * u and got[1].hi == base + 40 * u
    far = [*parts[:3], bc.Stretch(base + 30 * u, base + 10**4 * u, bc.GAP), parts[4]]
    assert len(bc._absorb(far, 16)) == 5  # not within one rounding: kept apart


GDP_POINTS = """exactdp: 1
name: not-gdp-points
symbols:
  p: {gt: 0, le: 1/2}
mechanisms:
  M: {ask: {q0: {a0: [(1/2)*(1 - 2*p), 1/3 + (-1/3)*(1 - 2*p)], a1: [1 + (-1/2)*(1 - 2*p), 2/3 + (1/3)*(1 - 2*p)]}, q1: {a0: [(3/4)*(p^2), 2/3 + (-5/21)*(p^2)], a1: {p: [1 + (-3/4)*(p^2), 1/3 + (5/21)*(p^2)], then: {respond: {a0: [1/4 + (-1/4)*(p^2), 1], a1: [3/4 + (1/4)*(p^2), 0]}}}}}}
claims:
  - not_gdp: {mu: 1/2}
"""


@pytest.mark.parametrize("target", ["not_gdp: {mu: 1/2}", "gdp: {mu: 1/2}"])
def test_gdp_at_irrational_point_cells_follows_the_neighbouring_cells(tmp_path, target):
    """After q1→a1 the answer a1 is impossible under x1, so T(M)(0) < 1 = G_mu(0): M is not
    mu-GDP for any mu and any p, which `verify` proves for every p.  The calibration left the two
    irrational points where the profile's cells meet "not decided"; as `verify` does, they are
    decided from a neighbouring cell's closed forms."""
    case = tmp_path / "g.yaml"
    case.write_text(GDP_POINTS)
    assert run("verify", str(case)).exit_code == 0
    got = calibrated("M", target, case=case)
    assert not got["gaps"], got["gaps"]
    (whole,) = got["holds_on" if target.startswith("not") else "fails_on"]
    assert (
        whole["lo"]["exact"] == "0" and not whole["lo_closed"] and whole["hi"]["exact"] == "1/2" and whole["hi_closed"]
    )


def test_a_declared_end_with_more_digits_than_the_boxes_fix_is_undecided_not_false(tmp_path):
    """RR_E is 1-GDP iff E <= Phi(1/2)/Phi(-1/2) = 2.2410967045669699439987... (mpmath below): the
    boxes fix 16 digits.  Declared with 18 correct digits the claim is true but not provable from
    the boxes (some values of the gap round to it, some do not): undecided, not false as it was;
    with a wrong digit inside the fixed ones it fails; with the fixed digits it holds."""
    with mpmath.workdps(40):
        end = mpmath.ncdf(mpmath.mpf(1) / 2) / mpmath.ncdf(-mpmath.mpf(1) / 2)
        assert mpmath.nstr(end, 18) == "2.24109670456696994"
    head = "exactdp: 1\nname: g\nsymbols:\n  E: {gt: 1, le: 5}\nmechanisms:\n  R: {rr: {eps: log(E)}}\nclaims:\n"
    claims = "".join(
        f"  - calibrate: {{target: {{gdp: {{of: R, mu: 1}}}}, holds_for: [{{gt: 1, le: {d}}}]}}\n"
        for d in ("2.24109670456696994", "2.241096704566970", "2.241096704566971")
    )
    case = tmp_path / "g.yaml"
    case.write_text(head + claims)
    out = run("verify", str(case)).output
    assert "summary: 3 claims in 1 file: 1 hold, 1 fail, 1 undecided" in out
    assert "a declared end lies where the boxes prove nothing" in out


def test_a_box_across_a_rounding_boundary_is_narrow_once_below_a_unit_of_the_last_digit():
    """Bisecting a box that straddles 1.25 at 3 significant digits never makes its ends round alike;
    below a unit of the last digit it is narrow (else such chains spent the whole box limit)."""
    assert bc._narrow(bc.Box(Fraction(1249999, 10**6), Fraction(1250001, 10**6)), 2)
    assert not bc._narrow(bc.Box(Fraction(124, 100), Fraction(126, 100)), 2)


GDP_HEAD = "exactdp: 1\nname: g\nsymbols:\n  E: {gt: 1, le: 5}\nmechanisms:\n  R: {rr: {eps: log(E)}}\nclaims:\n"


def _gdp_calibrations(tmp_path, *sets: str) -> str:
    claims = "".join(f"  - calibrate: {{target: {{gdp: {{of: R, mu: 1}}}}, holds_for: [{s}]}}\n" for s in sets)
    case = tmp_path / "g.yaml"
    case.write_text(GDP_HEAD + claims)
    return run("verify", str(case)).output


def test_a_declared_set_is_probed_everywhere_in_the_proved_stretches(tmp_path):
    """RR_E is 1-GDP exactly for E <= 2.2410967045669699...: an extra interval where it fails
    ([4, 9/2]) or a hole where it holds ((3/2, 8/5]) makes the declared set false, although one
    rational point per stretch agreed with it (the check held both)."""
    out = _gdp_calibrations(
        tmp_path,
        "{gt: 1, le: 2.241096704566970}",
        "{gt: 1, le: 2.241096704566970}, {ge: 4, le: 9/2}",
        "{gt: 1, lt: 3/2}, {gt: 8/5, le: 2.241096704566970}",
    )
    assert "summary: 3 claims in 1 file: 1 hold, 2 fail" in out


def test_an_exact_end_where_the_boxes_prove_nothing_is_undecided_not_false(tmp_path):
    """RR_E is log(E)/2-zCDP exactly on [2, 3] (KL(RR_E) = ((E-1)/(E+1)) log E <= log(E)/2 iff
    E <= 3, and the largest D_alpha/alpha of RR is the limit alpha -> 1, Bun & Steinke 2016): the
    boxes cannot reach the rational boundary 3, so the true claim is undecided (it was refuted)."""
    case = tmp_path / "z.yaml"
    case.write_text(
        "exactdp: 1\nname: z\nsymbols:\n  E: {ge: 2, le: 4}\nmechanisms:\n  R: {rr: {eps: log(E)}}\nclaims:\n"
        "  - calibrate: {target: {zcdp: {of: R, rho: log(E)/2}}, holds_for: [{ge: 2, le: 3}]}\n"
    )
    out = run("verify", str(case)).output
    assert "1 undecided" in out and "a declared end lies where the boxes prove nothing" in out
