"""Case-file forms and claim of issue 4: reading, located errors, verdicts."""

from __future__ import annotations

import pytest

from exactdp.caseio import parse_case
from exactdp.errors import CaseError
from exactdp.report.verdicts import shown
from exactdp.verify import verify_case

HEAD = "exactdp: 1\nname: x\n"


def verdicts(body: str):
    case = parse_case(HEAD + body, "t.yaml")
    return verify_case(case)


def test_decimal_eps_in_mechanisms_works_end_to_end():
    v = verdicts(
        "mechanisms:\n  M: {rr: {eps: 0.1}}\n  K: {repeat: {mechanism: {rr: {eps: 0.1, delta: 1/100}}, times: 2}}\n"
        "claims:\n"
        "  - privloss: {delta: 0, equals: 0.1}\n"
        "  - dp: {eps: 0.1}\n"
        "  - not_dp: {eps: 0.05}\n"
        "  - privloss: {of: K, delta: 199/10000, equals: 0.2}\n"
        "  - delta: {of: K, eps: 0.2, equals: 199/10000}\n"
        # by hand: delta(C) = 1 - 0.99^2 (1 - (t^2 - C)/(1+t)^2) on [1, t^2], t = e^0.1
        "  - privloss: {of: K, delta: 1/20, equals: log((9500*exp(1/5) - 602*exp(1/10) - 301)/9801)}\n"
    )
    assert [x.status for x in v] == ["holds"] * 6, [(x.claim.describe(), shown(x).found, shown(x).note) for x in v]
    assert v[2].witness is not None


def test_composition_claim_reports_both_numbers_and_slack():
    v = verdicts(
        "mechanisms:\n  A: {rr: {eps: log(2)}}\n  B: {tree: {ask: {q: {0: [3/4, 1/4], 1: [1/4, 3/4]}}}}\n"
        "claims:\n"
        "  - composition: {components: [A, B], theorem: optimal, delta: 1/10}\n"
        "  - composition: {components: [A, B], theorem: basic}\n"
        "  - composition: {components: [A, B], theorem: thm-1.8, eps: [log(2), log(3)]}\n"
        "  - composition: {components: [A, B], eps: [log(2), log(2)]}\n"
    )
    assert [x.status for x in v] == ["holds", "holds", "holds", "fails"]
    assert "slack 0" in shown(v[0]).found and "optimal gives log(24/5)" in shown(v[0]).found
    assert shown(v[0]).values["bound"] == "log(24/5)" and shown(v[0]).values["privloss"] == "log(24/5)"
    assert "B is not (log(2), 0)-DP" in shown(v[3]).found


def test_forms_read_and_build():
    v = verdicts(
        "mechanisms:\n"
        "  A: {tree: {ask: {q: {0: [3/4, 1/4], 1: [1/4, 3/4]}}}}\n"
        "  B: {rr: {eps: log(2)}}\n"
        "  C: {concomp: [A, B]}\n"
        "  S: {concomp: {mechanisms: [A, B], interleave: sequential}}\n"
        "  O: {concomp: {mechanisms: [A, B], interleave: ordered}}\n"
        "  N: {concomp_ordered: [{null_extension: A}, {null_extension: {mechanism: B, nulls: 2}}]}\n"
        "  P: {postprocess: {mechanism: C, map: {0: same, 1: same}}}\n"
        "  P2: {postprocess: {mechanism: A, map: {0: zero}}}\n"
        "claims:\n"
        "  - profile_eq: {of: N, as: C}\n"
        "  - profile_le: {of: S, than: C}\n"
        "  - profile_le: {of: O, than: C}\n"
        "  - privloss: {of: P, delta: 0, equals: 0}\n"
        "  - profile_eq: {of: P2, as: A}\n"
    )
    assert all(x.holds for x in v), [(x.claim.describe(), shown(x).found) for x in v]


@pytest.mark.parametrize(
    "body, phrases",
    [
        ("mechanism: {concomp_ordered: 3}\nclaims: [{dp: {eps: 1}}]\n", ["concomp_ordered takes a list"]),
        (
            "mechanism: {postprocess: {mechanism: {rr: {eps: log(2)}}}}\nclaims: [{dp: {eps: 1}}]\n",
            ["postprocess needs `map:`"],
        ),
        (
            "mechanism: {concomp: {mechanisms: [{rr: {eps: log(2)}}], interleave: sideways}}\nclaims: [{dp: {eps: 1}}]\n",
            ["unknown interleaving 'sideways'"],
        ),
        (
            "mechanism: {null_extension: {mechanism: {rr: {eps: log(2)}}, nulls: -1}}\nclaims: [{dp: {eps: 1}}]\n",
            ["nulls must be"],
        ),
        ("mechanism: {rr: {eps: log(2)}}\nclaims: [{composition: {components: [M, Z]}}]\n", ["no mechanism named 'Z'"]),
        (
            "mechanism: {rr: {eps: log(2)}}\nclaims: [{composition: {components: [M], theorem: best}}]\n",
            ["unknown theorem 'best'"],
        ),
        (
            "mechanism: {rr: {eps: log(2)}}\nclaims: [{composition: {components: [M, M], deltas: [0]}}]\n",
            ["has 1 values for 2 components"],
        ),
        (
            "mechanism: {rr: {eps: 1234.56789}}\nclaims: [{dp: {eps: 1}}]\n",
            ["--max-field-degree", "fewer decimal digits"],
        ),
        (
            "mechanism: {postprocess: {mechanism: {respond: {a: {p: [1/2, 1/3]}, b: {p: [1/2, 2/3], then: {ask: {q: {0: [1, 1]}}}}}}, map: {a: x, b: x}}}\nclaims: [{dp: {eps: 1}}]\n",
            ["differ in kind"],
        ),
    ],
)
def test_errors_are_located_and_teach(body, phrases):
    with pytest.raises(CaseError) as e:
        case = parse_case(HEAD + body, "t.yaml")
        for x in verify_case(case):  # some problems surface when the DAG is built lazily
            assert x.status != "error", shown(x).note
    text = str(e.value)
    assert "t.yaml:" in text
    for ph in phrases:
        assert ph in text


@pytest.mark.parametrize("theorem", ["advanced", "kov-3.4", "kov-slides-1", "kov-slides-2"])
@pytest.mark.parametrize("slack", ["0", "-(0)", "1"])
def test_a_named_bound_refuses_a_slack_outside_its_range(theorem, slack):
    """Each named bound has log(1/slack) or 1/slack in it: slack 0 was an internal error (a
    logarithm of an interval through 0); advanced (Dwork-Rothblum-Vadhan 2010, Thm III.3) also
    needs slack < 1.  A slack outside the range is a located error in the case file."""
    body = (
        "mechanisms: {RR: {rr: {eps: 0.1}}}\n"
        f"claims:\n  - composition: {{components: [RR], times: 3, interleave: sequential, theorem: {theorem}, slack: {slack}}}\n"
    )
    if slack == "1" and theorem != "advanced":
        assert verdicts(body)[0].status in ("holds", "fails")
        return
    with pytest.raises(CaseError, match=r"t\.yaml:5:.*slack delta~ of .* must lie in \(0, 1"):
        verdicts(body)


def test_the_theorems_refuse_a_slack_outside_their_range():
    from exactdp import exact
    from exactdp.theorems.advanced import advanced, kov_3_4, slide_formula
    from exactdp.theorems.named import slides_theorem_2
    from exactdp.theorems.params import SlackError, components

    comps = components([exact("log(2)"), exact("log(2)")])
    for f in (advanced, kov_3_4, slide_formula, slides_theorem_2):
        with pytest.raises(SlackError):
            f(comps, 0)
