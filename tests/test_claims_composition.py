"""The ``composition`` claim composes every list item, repeated names included.

Regression for the claim that keyed components by name (``of: [R, R]`` composed one copy), and
the property that its printed PrivLoss is that of the explicit ``concomp`` of the same list.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.caseio import parse_case
from exactdp.report.verdicts import shown
from exactdp.verify import verify_case

HEAD = "exactdp: 1\nname: x\n"


def verdicts(body: str):
    return verify_case(parse_case(HEAD + body, "t.yaml"))


def test_repeated_name_is_two_copies():
    """RR with e^eps = 2, composed with itself: PrivLoss(ConComp(R, R), 0) = log 4 (two copies;
    Vadhan–Wang Thm 3.3 is tight for noninteractive pure components), not log 2 (one copy)."""
    v = verdicts(
        "mechanisms:\n  R: {rr: {eps: log(2)}}\nclaims:\n  - composition: {components: [R, R], theorem: optimal}\n"
    )[0]
    assert shown(v).values["privloss"] == "log(4)", shown(v).found
    assert shown(v).values["bound"] == "log(4)" and shown(v).values["slack"] == "0"
    assert v.status == "holds"


def test_repeated_name_three_copies_with_basic():
    v = verdicts(
        "mechanisms:\n  R: {rr: {eps: log(2)}}\n  S: {rr: {eps: log(3)}}\n"
        "claims:\n  - composition: {components: [R, S, R], theorem: basic}\n"
    )[0]
    assert shown(v).values["privloss"] == "log(12)" and shown(v).values["bound"] == "log(12)"


_MECHS = {
    "A": "{rr: {eps: log(2)}}",
    "B": "{rr: {eps: log(3), delta: 1/10}}",
    "C": "{tree: {ask: {q: {0: [3/4, 1/4], 1: [1/4, 3/4]}, c: {0: [1/2, 1/2], 1: [1/2, 1/2]}}}}",
    "D": "{tree: {respond: {0: {p: [2/3, 1/3]}, 1: {p: [1/3, 2/3]}}}}",
}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    names=st.lists(st.sampled_from(sorted(_MECHS)), min_size=1, max_size=3),
    delta=st.sampled_from(["0", "1/10", "1/4"]),
)
def test_claim_privloss_equals_explicit_concomp(names, delta):
    """The claim's printed PrivLoss equals PrivLoss of ``concomp:`` over the same list."""
    lst = "[" + ", ".join(names) + "]"
    mechs = "".join(f"  {k}: {v}\n" for k, v in _MECHS.items())
    v = verdicts(
        f"mechanisms:\n{mechs}  K: {{concomp: {lst}}}\n"
        f"claims:\n  - composition: {{components: {lst}, theorem: thm-1.8, deltas: [{', '.join('1/10' if n == 'B' else '0' for n in names)}], delta: {delta}}}\n"
        f"  - privloss: {{of: K, delta: {delta}, at_most: inf}}\n"
    )
    assert shown(v[0]).values["privloss"] == shown(v[1]).values["privloss"], (
        names,
        delta,
        shown(v[0]).found,
        shown(v[1]).found,
    )


def test_approximate_components_are_a_theorem_not_an_open_question():
    """Vadhan & Zhang 2023 and Lyu 2022: basic composition holds for concurrent composition
    of approximate-DP components; the note cites them and never calls it open."""
    v = verdicts(
        "mechanisms:\n  P: {rr: {eps: log(2), delta: 1/10}}\n  Q: {rr: {eps: log(3), delta: 1/20}}\n"
        "claims:\n  - composition: {components: [P, Q], theorem: basic, deltas: [1/10, 1/20]}\n"
        "  - composition: {components: [P, P], theorem: optimal, deltas: [1/10, 1/10], delta: 1/5}\n"
    )
    for x in v:
        assert x.holds, shown(x).found
        assert (
            "open question" not in shown(x).note
            and "Vadhan-Zhang 2023" in shown(x).note
            and "Lyu 2022" in shown(x).note
        )


def test_components_is_the_key_and_a_list_under_of_still_works():
    """`components:` names a composition's components; the first spelling, a list under `of:`,
    keeps its meaning (case-format 1 never changes meaning) and warns, with the place in the file
    and what to write instead."""
    import pytest

    from exactdp.deprecation import ExactDPDeprecationWarning
    from exactdp.verify import verify_text

    head = "exactdp: 1\nname: c\nmechanisms:\n  A: {rr: {eps: log(2)}}\n  B: {rr: {eps: log(3)}}\nclaims:\n"
    new = verify_text(head + "  - composition: {components: [A, B], theorem: basic}\n", "new.yaml")
    with pytest.warns(
        ExactDPDeprecationWarning, match=r"old\.yaml:7: claims\[0\]\.composition\.of: .*components: \[A, B\]"
    ):
        old = verify_text(head + "  - composition: {of: [A, B], theorem: basic}\n", "old.yaml")
    assert new.exit_code == old.exit_code == 0 and not new.warnings and len(old.warnings) == 1
    assert [shown(v).found for v in new.verdicts] == [shown(v).found for v in old.verdicts]
    assert new.verdicts[0].claim == old.verdicts[0].claim and old.verdicts[0].claim.of == ("A", "B")


def test_a_composition_names_its_components_once():
    from exactdp.verify import verify_text

    head = "exactdp: 1\nname: c\nmechanisms:\n  A: {rr: {eps: log(2)}}\nclaims:\n"
    for body, message in [
        ("{theorem: basic}", "composition needs `components:`"),
        ("{of: A, theorem: basic}", "composition needs `components:`"),
        ("{components: [A], of: [A, A]}", "give the components once, under `components:`"),
    ]:
        fr = verify_text(head + f"  - composition: {body}\n", "c.yaml")
        assert fr.exit_code == 2 and fr.error is not None, body
        assert any(message in p.message for p in fr.error.problems), (body, str(fr.error))
