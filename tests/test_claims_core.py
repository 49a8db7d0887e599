"""Claim kinds of format version 1 (exactdp.claims.core): failing claims report, never crash."""

from __future__ import annotations

import textwrap
from fractions import Fraction

from hypothesis import HealthCheck, given, settings

from exactdp.caseio import parse_case
from exactdp.claims import Analysis
from exactdp.report.verdicts import shown

from .strategies import mechanisms


def test_failing_profile_le_reports_where_it_fails_with_a_witness():
    """RR_(log 3) is not dominated by RR_(log 2): the verdict names e^eps = 2 and carries a
    witness at eps = log 2 (this used to raise ModuleNotFoundError)."""
    c = parse_case(
        textwrap.dedent(
            """
            exactdp: 1
            name: le
            mechanisms:
              A: {rr: {eps: log(3)}}
              B: {rr: {eps: log(2)}}
            claims:
              - profile_le: {of: A, than: B}
            """
        ),
        "t.yaml",
    )
    v = c.claims[0].check(Analysis(c.mechanisms))
    assert v.status == "fails"
    assert "at e^eps = " in shown(v).found and v.witness is not None


def test_profile_comparisons_show_the_excess():
    """profile_le's value is sup over eps >= 0 of delta_A - delta_B, profile_eq's the largest
    |delta_A - delta_B|: for RR with e^eps = E (Vadhan-Wang Def. 1.9), delta(lambda) =
    (E - lambda)/(E + 1) for 1 <= lambda <= E, then 0; for A (E = 3) against B (E = 2) the
    difference is 1/2 - 1/3 = 1/6 at lambda = 1, (3 - 2)/4 - 0 = 1/4 at lambda = 2 (the largest),
    0 from lambda = 3 on; B is below A everywhere, so B's excess over A is 0 (in the limit)."""
    c = parse_case(
        "exactdp: 1\nname: ex\nmechanisms:\n  A: {rr: {eps: log(3)}}\n  B: {rr: {eps: log(2)}}\n"
        "claims:\n  - profile_le: {of: A, than: B}\n  - profile_le: {of: B, than: A}\n  - profile_eq: {of: B, as: A}\n",
        "t.yaml",
    )
    an = Analysis(c.mechanisms)
    assert [cl.check(an).value for cl in c.claims] == [Fraction(1, 4), 0, Fraction(1, 4)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mechanisms(max_depth=3, combinators=False), mechanisms(max_depth=3, combinators=False))
def test_excess_by_interpolation_equals_evaluation_at_every_breakpoint(m1, m2):
    """The one-pass excess (interpolating both breakpoint lists) equals the largest difference
    delta_a(lambda) - delta_b(lambda) evaluated directly at every breakpoint of either and in the
    limit; and no lambda in between does better."""
    from exactdp.analysis import make_engine
    from exactdp.claims.core import _excess

    eng = make_engine("profile")
    a, b = eng.profile(m1), eng.profile(m2)
    lams = [lam for lam, _ in a.breakpoints()] + [lam for lam, _ in b.breakpoints()]
    direct = max([a.delta_at_lambda(lam) - b.delta_at_lambda(lam) for lam in lams] + [a.limit() - b.limit()])
    assert _excess(a.breakpoints(), b.breakpoints()) == direct
    for lam in lams:  # a midpoint of two candidates, and beyond the last
        for probe in (lam + Fraction(1, 3), (lam + max(lams)) / 2):
            assert a.delta_at_lambda(probe) - b.delta_at_lambda(probe) <= direct
