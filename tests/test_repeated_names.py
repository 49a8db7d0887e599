"""Every place where a list of mechanism names becomes components keeps every list item.

A list such as ``[R, R]`` means two copies of R.  Turning it into a map keyed by name would
silently keep one copy; these tests pin, for each such place, that the numbers are those of
all the items (or that the input is refused with a clear message where a repeat is
meaningless).
"""

from __future__ import annotations

import pytest

from exactdp.builders import compose, concomp, rr
from exactdp.builders.combinators import distinct_labels
from exactdp.caseio import parse_case
from exactdp.errors import CaseError
from exactdp.numbers import Q, ladder
from exactdp.report.verdicts import shown
from exactdp.verify import verify_case

HEAD = "exactdp: 1\nname: x\n"


def check(body: str):
    return verify_case(parse_case(HEAD + body, "t.yaml"))


def test_distinct_labels():
    assert distinct_labels(["R", "R", None, "R"]) == ["R", "R#2", "2", "R#3"]
    assert distinct_labels(["A", "2", None]) == ["A", "2", "2#2"]  # an index never overwrites a name
    assert distinct_labels(["R#2", "R", "R"]) == ["R#2", "R", "R#3"]


@pytest.mark.parametrize(
    "form, expected",
    [
        # k-fold RR with e^eps = 2: PrivLoss(M, 0) = k log 2 (Vadhan-Wang Thm 3.3 / basic composition, tight)
        pytest.param("concomp: [R, R]", "log(4)", id="concomp-two-copies"),
        pytest.param("compose: [R, R, R]", "log(8)", id="compose-three-copies"),
        pytest.param("concomp: {mechanisms: [R, R], interleave: sequential}", "log(4)", id="concomp-sequential"),
        pytest.param("concomp: {mechanisms: [R, R], interleave: ordered}", "log(4)", id="concomp-ordered"),
        pytest.param("concomp_ordered: [R, R]", "log(4)", id="concomp_ordered"),
        # choose between two copies: the same as one copy
        pytest.param("choose: [R, R]", "log(2)", id="choose-two-copies"),
    ],
)
def test_forms_keep_every_item(form, expected):
    v = check(
        f"mechanisms:\n  R: {{rr: {{eps: log(2)}}}}\n  K: {{{form}}}\nclaims:\n  - privloss: {{of: K, equals: {expected}}}\n"
    )
    assert v[0].holds, (shown(v[0]).found, form)


def test_index_label_does_not_overwrite_a_named_item():
    """``[A, "2", {rr: ...}]``: the third item (label = its index 2) used to replace the
    mechanism named "2"; all three are composed (log 2 + log 3 + log 5 = log 30)."""
    v = check(
        "mechanisms:\n  A: {rr: {eps: log(2)}}\n  '2': {rr: {eps: log(3)}}\n"
        "  K: {concomp: [A, '2', {rr: {eps: log(5)}}]}\n"
        "claims:\n  - privloss: {of: K, equals: log(30)}\n"
    )
    assert v[0].holds, shown(v[0]).found


def test_builders_take_sequences_with_repeats():
    r = rr(exp_eps=Q(2))
    from exactdp.analysis import profile

    assert ladder.text(profile.privloss(concomp([r, r]), Q(0))) == "log(4)"
    assert ladder.text(profile.privloss(compose([r, r]), Q(0))) == "log(4)"


def test_composition_claim_lists_align_with_repeats():
    """``eps:`` gives one value per list item, repeated names included."""
    v = check(
        "mechanisms:\n  R: {rr: {eps: log(2)}}\n"
        "claims:\n  - composition: {components: [R, R], theorem: basic, eps: [log(2), log(2)]}\n"
        "  - composition: {components: [R, R], theorem: basic, eps: [log(2), log(3)]}\n"
    )
    assert [shown(x).values["bound"] for x in v] == ["log(4)", "log(6)"]
    assert [shown(x).values["privloss"] for x in v] == ["log(4)", "log(4)"]


def test_menus_refuse_repeats_with_a_clear_message():
    """A repeated item of a choice menu is refused (never silently merged)."""
    with pytest.raises(CaseError, match="listed twice"):
        parse_case(
            HEAD + "mechanisms:\n  M: {grr_menu: {eps: log(16), u: [2, 2]}}\nclaims:\n  - dp: {eps: 1}\n", "t.yaml"
        )


def test_continual_menu_list_refuses_a_repeated_item():
    """A continual menu written as a list names items by their mechanism; a repeat is refused
    (a menu offering the same item twice would silently lose one item's claimed (eps, delta))."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "cases/continual/counterexample-parallel.yaml").read_text()
    anchor = "  P2: {sparse_parallel:"
    assert anchor in text
    extra = "  PX: {sparse_parallel: {menu: [{mechanism: C, eps: 0, delta: d}, {mechanism: C, eps: 0, delta: d}], params: [[0, d]], cap: 1}}\n"
    with pytest.raises(CaseError, match="menu item 'C' appears twice"):
        parse_case(text.replace(anchor, extra + anchor, 1), "t.yaml")


def test_exponential_output_listed_twice_is_refused():
    with pytest.raises(CaseError, match="listed twice"):
        parse_case(
            HEAD
            + "mechanisms:\n  M: {exponential: {eps: log(16), outputs: [a, a], scores: {x0: [1, 0], x1: [0, 1]}}}\n"
            "claims:\n  - dp: {eps: 1}\n",
            "t.yaml",
        )


def test_plot_of_a_composition_with_a_repeated_name_draws_every_copy():
    """The composition curve of a plot (figures.py) is ConComp of every listed item."""
    from exactdp.analysis.engine import make_engine
    from exactdp.builders import concomp, rr
    from exactdp.caseio import parse_case
    from exactdp.figures import case_plot_data

    case = parse_case(
        "exactdp: 1\nname: rep\nmechanisms: {R: {rr: {eps: log(2)}}}\n"
        "claims: [{composition: {components: [R, R], theorem: basic}}]\n"
    )
    data = case_plot_data(case, make_engine("profile"))
    drawn = next(c for c in data.curves if "exact" in c.label)
    two = make_engine("profile").profile(concomp({"a": rr(eps="log(2)"), "b": rr(eps="log(2)")}))
    one = make_engine("profile").profile(rr(eps="log(2)"))
    assert [tuple(p) for p in drawn.points] == [tuple(p) for p in _points(two)] != [tuple(p) for p in _points(one)]


def _points(prof):
    from exactdp.figures import profile_curve

    return profile_curve("x", prof).points
