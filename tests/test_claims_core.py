"""Claim kinds of format version 1 (exactdp.claims.core): failing claims report, never crash."""

from __future__ import annotations

import textwrap

from exactdp.caseio import parse_case
from exactdp.claims import Analysis
from exactdp.report.verdicts import shown


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
