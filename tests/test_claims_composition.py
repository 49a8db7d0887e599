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
    v = verdicts("mechanisms:\n  R: {rr: {eps: log(2)}}\nclaims:\n  - composition: {of: [R, R], theorem: optimal}\n")[0]
    assert shown(v).values["privloss"] == "log(4)", shown(v).found
    assert shown(v).values["bound"] == "log(4)" and shown(v).values["slack"] == "0"
    assert v.status == "holds"


def test_repeated_name_three_copies_with_basic():
    v = verdicts(
        "mechanisms:\n  R: {rr: {eps: log(2)}}\n  S: {rr: {eps: log(3)}}\n"
        "claims:\n  - composition: {of: [R, S, R], theorem: basic}\n"
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
        f"claims:\n  - composition: {{of: {lst}, theorem: thm-1.8, deltas: [{', '.join('1/10' if n == 'B' else '0' for n in names)}], delta: {delta}}}\n"
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
        "claims:\n  - composition: {of: [P, Q], theorem: basic, deltas: [1/10, 1/20]}\n"
        "  - composition: {of: [P, P], theorem: optimal, deltas: [1/10, 1/10], delta: 1/5}\n"
    )
    for x in v:
        assert x.holds, shown(x).found
        assert (
            "open question" not in shown(x).note
            and "Vadhan-Zhang 2023" in shown(x).note
            and "Lyu 2022" in shown(x).note
        )
