"""The pairs and adversaries of a calibration or a counterexample are its target's: written on
the enclosing claim they would scope nothing (the verdict was the unscoped target's while every
output showed the scope), so there they are refused with a located error saying where they go.

Known answer (derived by hand): M answers y with probability E/(1+E), 1/2, 1/(1+E) under x0, x1,
x2.  On the adjacent pairs (x0, x1), (x1, x2) the largest likelihood ratios are 2E/(1+E) < 2 and
(1+E)/2 (of n under x1 against x0, or of y under x1 against x2), so M is (log 2, 0)-DP there
exactly for E <= 3.  On the pair (x0, x2) the ratio is E, and
delta(e^eps = 2) = E/(1+E) - 2/(1+E) = (E - 2)/(1 + E) (both orders alike, by symmetry), which is
<= 1/10 exactly for E <= 7/3, and equals 1/4 at E = 3.
"""

from __future__ import annotations

import pytest

from exactdp.caseio import parse_case
from exactdp.errors import CaseError
from exactdp.verify import Options, verify_text

HEAD = """exactdp: 1
name: scope
datasets: [x0, x1, x2]
adjacent: [[x0, x1], [x1, x2]]
symbols:
  E: {gt: 1}
mechanisms:
  M: {respond: {y: [E/(1+E), 1/2, 1/(1+E)], n: [1/(1+E), 1/2, E/(1+E)]}}
claims:
"""


def statuses(claims: str) -> list[str]:
    return [v.status.value for v in verify_text(HEAD + claims, "scope.yaml", Options()).verdicts]


def test_the_scope_inside_the_target_decides_on_those_pairs():
    claims = """  - calibrate: {target: {dp: {eps: log(2), delta: 1/10, pairs: [[x0, x2]]}}, holds_for: [{gt: 1, le: 7/3}]}
  - calibrate: {target: {dp: {eps: log(2), delta: 1/10, group: 2}}, holds_for: [{gt: 1, le: 7/3}]}
  - calibrate: {target: {dp: {eps: log(2), delta: 0}}, holds_for: [{gt: 1, le: 3}]}
  - counterexample: {claim: {dp: {eps: log(2), pairs: [[x0, x2]]}}, at: {E: 3}}
  - counterexample: {claim: {delta: {eps: log(2), equals: 0, pairs: [[x0, x2]]}}, at: {E: 3}}
  - calibrate: {target: {dp: {eps: log(2), delta: 1/10, pairs: [[x0, x2]]}}, holds_for: [{gt: 1, le: 4}]}
"""
    assert statuses(claims) == ["holds"] * 5 + ["fails"]


@pytest.mark.parametrize("key", ["pairs: [[x0, x2]]", "group: 2", "adversaries: nonadaptive"])
@pytest.mark.parametrize(
    "claim, inner",
    [
        ("calibrate: {{{key}, target: {{dp: {{eps: log(2), delta: 1/10}}}}, holds_for: [{{gt: 1}}]}}", "target"),
        ("counterexample: {{{key}, claim: {{dp: {{eps: log(2)}}}}, at: {{E: 3}}}}", "claim"),
    ],
)
def test_a_scope_on_the_enclosing_claim_is_refused_saying_where_it_goes(key, claim, inner):
    with pytest.raises(CaseError) as e:
        parse_case(HEAD + "  - " + claim.format(key=key) + "\n", "scope.yaml")
    msg = str(e.value)
    assert "scope.yaml:10:" in msg and f"unknown key '{key.split(':')[0]}'" in msg
    assert f"write it inside `{inner}:`" in msg
