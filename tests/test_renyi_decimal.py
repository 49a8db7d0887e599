"""Rényi divergences of order >= 3 and KL for a decimal eps (values in Q(e^(1/L))), decided.

Before, D_alpha = log(S)/(alpha - 1) with S in Q(e^(1/L)) and the KL divergence had "no exact
form" and every such claim was undecided.  They are exact sums of logarithms now
(:mod:`exactdp.numbers.logsum`), compared exactly in the field where possible and by certified
intervals otherwise.  Cross-checks: closed forms for randomized response (Mironov 2017,
Prop. 5: S = (e^(alpha eps) + e^((1 - alpha) eps))/(1 + e^eps); KL = eps tanh(eps/2)),
evaluated independently with mpmath at 80 digits; additivity over concurrent composition of
non-interactive components (Mironov 2017, Prop. 1); and the enumerator engine.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from exactdp.analysis import make_engine
from exactdp.analysis.renyi import renyi
from exactdp.builders import concomp, rr
from exactdp.caseio import parse_case
from exactdp.errors import LimitExceededError
from exactdp.limits import DEFAULT, using
from exactdp.numbers import Q, ladder
from exactdp.numbers.certified import ball_bounds
from exactdp.numbers.logsum import log_sum, ls_sign
from exactdp.numbers.qt import qt_exp
from exactdp.report.verdicts import value_text
from exactdp.verify import verify_case

EPS = ["0.5", "0.3", "1.25"]


def _closed_form(eps: str, alpha: int) -> mpmath.mpf:
    e = mpmath.mpf(Fraction(eps).numerator) / Fraction(eps).denominator
    if alpha == 1:
        return e * mpmath.tanh(e / 2)
    s = (mpmath.exp(alpha * e) + mpmath.exp((1 - alpha) * e)) / (1 + mpmath.exp(e))
    return mpmath.log(s) / (alpha - 1)


def _rational_near(x: mpmath.mpf, side: int) -> str:
    """A rational 10^-12 above (side 1) or below (side -1) x, as text."""
    f = Fraction(str(mpmath.nstr(x + side * mpmath.mpf("1e-12"), 40))).limit_denominator(10**30)
    return f"{f.numerator}/{f.denominator}"


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("alpha", [1, 3, 4, 5])
def test_rr_matches_the_closed_form(eps, alpha):
    with mpmath.workdps(80):
        want = _closed_form(eps, alpha)
        lo, hi = ball_bounds(ladder.ball(renyi(rr(eps=eps), alpha).value, 300))
        assert abs(mpmath.mpf(lo.numerator) / lo.denominator - want) < mpmath.mpf(10) ** -70
        assert abs(mpmath.mpf(hi.numerator) / hi.denominator - want) < mpmath.mpf(10) ** -70


@pytest.mark.parametrize("eps", EPS)
@pytest.mark.parametrize("alpha", [1, 3, 4])
def test_claims_are_decided_on_both_sides(eps, alpha):
    """at_most a rational just above the value holds, just below it fails; exceeds the reverse
    (the first fails on the old code: undecided)."""
    with mpmath.workdps(60):
        want = _closed_form(eps, alpha)
        hi, lo = _rational_near(want, 1), _rational_near(want, -1)
    text = (
        f"exactdp: 1\nname: d\nmechanism: {{rr: {{eps: {eps}}}}}\nclaims:\n"
        f"  - renyi: {{alpha: {alpha}, at_most: {hi}}}\n"
        f"  - renyi: {{alpha: {alpha}, at_most: {lo}}}\n"
        f"  - renyi: {{alpha: {alpha}, exceeds: {lo}}}\n"
        f"  - renyi: {{alpha: {alpha}, exceeds: {hi}}}\n"
    )
    statuses = [v.status for v in verify_case(parse_case(text, "d.yaml"))]
    assert statuses == ["holds", "fails", "holds", "fails"]


def test_the_issue_example():
    """`renyi: {alpha: 3, at_most: 1/2}` on `rr: {eps: 0.5}`: D_3 = 0.3024... <= 1/2."""
    text = "exactdp: 1\nname: d\nmechanism: {rr: {eps: 0.5}}\nclaims: [{renyi: {alpha: 3, at_most: 1/2}}]\n"
    [v] = verify_case(parse_case(text, "d.yaml"))
    assert v.status == "holds"
    assert value_text(v) == "log((exp(2) - exp(3/2) + exp(1) - exp(1/2) + 1)/exp(1))/2"


def test_kl_of_rr_is_an_exact_field_element():
    """KL(RR_eps) = eps (e^eps - 1)/(e^eps + 1): for eps = 1/2 an element of Q(e^(1/2))."""
    t = qt_exp(1, Q(1, 2))
    assert ladder.cmp(renyi(rr(eps="0.5"), 1).value, Q(1, 2) * (t - 1) / (t + 1)) == 0


@pytest.mark.parametrize("alpha", [1, 3, 4])
def test_concurrent_composition_of_rrs_adds_exactly(alpha):
    """Non-interactive components: D_alpha of the composition is the sum, exactly (the
    difference is 0 as a sum of logarithms, decided without intervals)."""
    a, b = rr(eps="0.5"), rr(eps="0.3")
    total = ladder.add(renyi(a, alpha).value, renyi(b, alpha).value)
    assert ladder.cmp(renyi(concomp([a, b]), alpha).value, total) == 0


@pytest.mark.parametrize("alpha", [1, 3])
def test_engines_agree_with_decimal_eps(alpha):
    from exactdp.builders import ask, mechanism, respond

    t = qt_exp(1, Q(3, 10))
    p = t / (1 + t)
    m = mechanism(
        ask({"a": rr(eps="0.3").root, "b": respond({"0": [p, 1 - p], "1": [1 - p, p]}), "c": rr(eps="0.7").root})
    )
    prof, enum = make_engine("profile").renyi(m, alpha), make_engine("enumerator").renyi(m, alpha)
    assert ladder.cmp(prof.value, enum.value) == 0
    assert ladder.text(prof.value) == ladder.text(enum.value)


def test_an_undecidable_sign_is_refused_not_guessed():
    """A sum of logarithms with field coefficients that is 0 but not structurally so cannot be
    separated from 0 by intervals: refused (the claim would be undecided), never guessed."""
    t = qt_exp(1, Q(1, 2))
    # (t - 1) ln 4 - 2 (t - 1) ln 2 is zero term by term over the coprime basis: exactly 0
    assert log_sum(Q(0), ((Q(4), t - 1), (Q(2), -2 * (t - 1)))) == 0
    # (t - 1) ln((t + 1)^2) - 2 (t - 1) ln(t + 1) is 0 too, but not term by term: refused
    x = log_sum(Q(0), (((t + 1) * (t + 1), t - 1), (t + 1, -2 * (t - 1))))
    with using(DEFAULT.replace(max_precision=1024)), pytest.raises(LimitExceededError, match="--max-precision"):
        ls_sign(x)
