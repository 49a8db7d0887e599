"""Python API errors as good as the case reader's: the call, the label and the place in the
message, the number forms a case file accepts, and a clear TypeError for a name (or a node, or
a case) where a mechanism is expected."""

from __future__ import annotations

import inspect
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import exactdp
from exactdp import ask, mechanism, respond

ROOT = Path(__file__).resolve().parents[1]


def _takes_mechanism_first(fn) -> bool:
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    return bool(params) and str(params[0].annotation).startswith("Mechanism")


MECHANISM_FIRST = sorted(
    n
    for n in exactdp.__all__
    if inspect.isfunction(getattr(exactdp, n)) and _takes_mechanism_first(getattr(exactdp, n))
)
ENUMERATOR = ["profile", "privloss", "delta_at", "is_dp", "witness", "renyi"]


def test_the_table_of_functions_that_take_a_mechanism_is_not_empty():
    assert {"privloss", "profile", "delta_at", "is_dp", "witness", "renyi", "br_range", "simulate"} <= set(
        MECHANISM_FIRST
    )


@pytest.mark.parametrize("name", MECHANISM_FIRST)
def test_a_name_where_a_mechanism_is_expected(name: str):
    fn = getattr(exactdp, name)
    with pytest.raises(TypeError) as e:
        fn("M", 0) if len(inspect.signature(fn).parameters) > 1 else fn("M")
    msg = str(e.value)
    assert msg.startswith(f"{name}: ") and "'M' is a name, not a mechanism" in msg
    assert "case.mechanisms['M']" in msg and "load_case" in msg


@pytest.mark.parametrize("name", ENUMERATOR)
def test_the_reference_engine_checks_too(name: str):
    with pytest.raises(TypeError, match=rf"^{name}: mech='M' is a name"):
        getattr(exactdp.enumerator, name)("M", 0)


def test_a_node_a_case_and_other_values_where_a_mechanism_is_expected():
    node = respond({"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]})
    with pytest.raises(TypeError, match=r"is a game node, not a mechanism: wrap it as exactdp.mechanism\(node\)"):
        exactdp.privloss(node, 0)
    case = exactdp.load_case(str(ROOT / "cases/vadhan-wang/rr-pure.yaml"))
    with pytest.raises(TypeError, match=r"is a case, not a mechanism: pick one, case.mechanisms\[NAME\] \(names: M\)"):
        exactdp.delta_at(case, 0)
    with pytest.raises(TypeError, match=r"^profile: mech=3: expected a Mechanism, got int"):
        exactdp.profile(3)
    with pytest.raises(TypeError, match=r"^witness: mech='R'"):
        exactdp.witness(mech="R", eps=0)


@pytest.mark.parametrize("combinator", ["compose", "choose", "concomp", "concomp_ordered", "concomp_sequential"])
def test_combinators_name_the_component(combinator: str):
    good = exactdp.rr(eps="log(3)")
    with pytest.raises(TypeError, match=r": component #2='R' is a name, not a mechanism"):
        getattr(exactdp, combinator)([good, "R"])


def test_text_probabilities_in_trees_as_in_case_files():
    text = mechanism(ask({"q": {"0": ["3/4", "0.25"], "1": ["1/4", "75e-2"]}}))
    exact = mechanism(ask({"q": {"0": [Fraction(3, 4), Fraction(1, 4)], "1": [Fraction(1, 4), Fraction(3, 4)]}}))
    assert str(exactdp.privloss(text, 0)) == str(exactdp.privloss(exact, 0)) == "log(3)"
    assert str(exactdp.privloss(text, 0)) == str(exactdp.privloss(exactdp.rr(eps="log(3)"), 0))


@given(st.lists(st.integers(1, 30), min_size=2, max_size=4), st.lists(st.integers(1, 30), min_size=2, max_size=4))
def test_text_and_fraction_probabilities_build_the_same_distribution(w0: list[int], w1: list[int]):
    k = min(len(w0), len(w1))
    p0 = [Fraction(w, sum(w0[:k])) for w in w0[:k]]
    p1 = [Fraction(w, sum(w1[:k])) for w in w1[:k]]
    as_text = respond({str(i): [str(a), str(b)] for i, (a, b) in enumerate(zip(p0, p1))})
    as_frac = respond({str(i): [a, b] for i, (a, b) in enumerate(zip(p0, p1))})
    assert as_text.probs == as_frac.probs


def test_a_sum_that_is_not_one_names_the_dataset_the_answers_and_the_place():
    with pytest.raises(ValueError) as e:
        ask({"q0": {"0": ["3/4", "1/4"], "1": ["1/4", "1/2"]}})
    msg = str(e.value)
    assert msg.startswith("ask: option 'q0' → respond: the probabilities of dataset #2")
    assert "sum to 3/4, not 1" in msg and "answer '0': 1/4, answer '1': 1/2" in msg


def test_the_weights_mistake_is_explained():
    """[3, 1] read as weights of two answers: each entry is a probability under one dataset."""
    with pytest.raises(ValueError) as e:
        respond({"0": [3, 1], "1": [1, 3]})
    msg = str(e.value)
    assert msg.startswith("respond: answer '0', probability #1 must lie in [0, 1], found 3")
    assert "probability under one dataset" in msg


@pytest.mark.parametrize(
    "answers, error, phrase",
    [
        ({"0": ["3/4", "x"], "1": ["1/4", "1"]}, ValueError, "answer '0', probability #2='x' is not a number"),
        ({"0": ["log(3)", "0"], "1": ["0", "1"]}, ValueError, "answer '0', probability #1 must be an exact rational"),
        ({"0": "3/4"}, TypeError, "answer '0': expected a list with one probability per dataset"),
        (
            {"0": ["1", "1", "1"], "1": ["0", "0"]},
            ValueError,
            "answer '0' lists 3 probabilities but answer '1' lists 2",
        ),
        ({"0": (["1", "1"], "M")}, TypeError, "answer '0': the continuation must be a node"),
        ({}, ValueError, "needs at least one answer"),
    ],
)
def test_respond_names_the_answer(answers, error, phrase):
    with pytest.raises(error) as e:
        respond(answers)
    assert str(e.value).startswith("respond: ") and phrase in str(e.value)


def test_mechanism_checks_the_datasets_and_reads_adjacency_by_name():
    node = respond({"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]})
    with pytest.raises(ValueError, match=r"3 datasets are named, but the answers of .* list 2 probabilities"):
        mechanism(node, datasets=["a", "b", "c"])
    with pytest.raises(ValueError, match=r"names 'x9', which is not a dataset"):
        mechanism(node, adjacent=[("x0", "x9")])
    by_name = mechanism(node, adjacent=[("x1", "x0")])
    assert by_name.adjacent == ((1, 0),)
    with pytest.raises(TypeError, match=r"^mechanism: root='M' is a name"):
        mechanism("M")
    with pytest.raises(TypeError, match=r"^mechanism: root is a mapping; build the node first"):
        mechanism({"0": ["1", "1"]})
