"""A Python caller's wrong argument raises exactdp's own error, naming the function and the
argument (exactdp/errors.py): ArgumentError (a ValueError) for a wrong value, ArgumentTypeError
(a TypeError) for a wrong type, never a KeyError, an AttributeError or a bare TypeError from
deep inside.  The calls are those a hostile tester found (findings-hostile4/03) and the same
mistakes in the other public functions."""

from __future__ import annotations

import pytest

import exactdp
from exactdp.errors import ArgumentError, ArgumentTypeError, ExactDPError

M = exactdp.rr(eps="log(3)")


def test_the_argument_errors_are_exactdp_errors_and_python_ones():
    assert issubclass(ArgumentError, ExactDPError) and issubclass(ArgumentError, ValueError)
    assert issubclass(ArgumentTypeError, ExactDPError) and issubclass(ArgumentTypeError, TypeError)


def _prof():
    return exactdp.profile(M)


# (label, call, error class, words the message must hold: the function and the argument first)
CASES = [
    (
        "krr data missing a dataset",
        lambda: exactdp.krr(eps="log(3)", values=["a", "b"], data={"x0": "a"}),
        ArgumentError,
        ["krr: data", "no entry for dataset(s) x1"],
    ),
    (
        "krr data naming an unknown dataset",
        lambda: exactdp.krr(eps="log(3)", values=["a", "b"], data={"x0": "a", "x1": "b", "x2": "a"}),
        ArgumentError,
        ["krr: data", "unknown dataset 'x2'"],
    ),
    (
        "krr data of the wrong length",
        lambda: exactdp.krr(eps="log(3)", values=["a", "b"], data=["a"]),
        ArgumentError,
        ["krr: data", "one per dataset"],
    ),
    (
        "truncated_geometric counts missing a dataset",
        lambda: exactdp.truncated_geometric(eps="log(2)", n=2, counts={"x0": 0}),
        ArgumentError,
        ["truncated_geometric: counts", "no entry for dataset(s) x1"],
    ),
    (
        "exponential scores not a table",
        lambda: exactdp.exponential(eps="log(2)", outputs=["a"], scores=[1]),
        ArgumentError,
        ["exponential: scores"],
    ),
    (
        "exponential scores row not a list",
        lambda: exactdp.exponential(eps="log(2)", outputs=["a"], scores=[1, 2]),
        ArgumentTypeError,
        ["exponential: scores['x0']", "must be a list"],
    ),
    (
        "permute_and_flip scores missing a dataset",
        lambda: exactdp.permute_and_flip({"x0": [1, 0]}, eps="log(2)"),
        ArgumentError,
        ["permute_and_flip: scores", "no entry for dataset(s) x1"],
    ),
    (
        "report_noisy_max noise not a noise",
        lambda: exactdp.report_noisy_max(values={"x0": [1], "x1": [0]}, noise={}),
        ArgumentTypeError,
        ["report_noisy_max: noise", "expected a noise distribution"],
    ),
    (
        "report_noisy_max values missing a dataset",
        lambda: exactdp.report_noisy_max({"x0": [1, 0]}, exactdp.geometric_noise(eps="log(2)", width=2)),
        ArgumentError,
        ["report_noisy_max: values", "no entry for dataset(s) x1"],
    ),
    ("finite_noise pmf not a mapping", lambda: exactdp.finite_noise(None), ArgumentTypeError, ["finite_noise: pmf"]),
    ("sparse_vector spec", lambda: exactdp.sparse_vector(None), ArgumentTypeError, ["sparse_vector: spec"]),
    ("postprocess mapping None", lambda: exactdp.postprocess(M, None), ArgumentTypeError, ["postprocess: mapping"]),
    (
        "postprocess mapping of an answer M does not have",
        lambda: exactdp.postprocess(M, {"zz": "0"}),
        ArgumentError,
        ["postprocess: mapping", "zz is not an answer of the mechanism", "its answers: 0, 1"],
    ),
    ("null_extension nulls", lambda: exactdp.null_extension(M, "2"), ArgumentTypeError, ["null_extension: nulls"]),
    ("concomp None", lambda: exactdp.concomp(None), ArgumentTypeError, ["concomp: components"]),
    ("compose one mechanism", lambda: exactdp.compose(M), ArgumentTypeError, ["compose: mechs", "[M]"]),
    ("choose None", lambda: exactdp.choose(None), ArgumentTypeError, ["choose: options"]),
    (
        "concomp_ordered None",
        lambda: exactdp.concomp_ordered(None),
        ArgumentTypeError,
        ["concomp_ordered: components"],
    ),
    (
        "concomp_sequential None",
        lambda: exactdp.concomp_sequential(None),
        ArgumentTypeError,
        ["concomp_sequential: components"],
    ),
    ("eval_text None", lambda: exactdp.eval_text(None), ArgumentTypeError, ["eval_text: text"]),
    ("eval_text unreadable", lambda: exactdp.eval_text("log("), ArgumentError, ["eval_text('log(')"]),
    ("verify_file None", lambda: exactdp.verify_file(None), ArgumentTypeError, ["verify_file", "a path"]),
    ("verify_paths [None]", lambda: exactdp.verify_paths([None]), ArgumentTypeError, ["verify_paths: paths[0]"]),
    ("verify_paths None", lambda: exactdp.verify_paths(None), ArgumentTypeError, ["verify_paths: paths"]),
    (
        "envelope_tradeoff name",
        lambda: exactdp.envelope_tradeoff("M"),
        ArgumentTypeError,
        ["envelope_tradeoff: prof='M'", "exactdp.profile(mech)"],
    ),
    (
        "envelope_tradeoff mechanism",
        lambda: exactdp.envelope_tradeoff(M),
        ArgumentTypeError,
        ["envelope_tradeoff: prof=", "is a mechanism, not a profile"],
    ),
    ("pair_tradeoffs", lambda: exactdp.pair_tradeoffs(None), ArgumentTypeError, ["pair_tradeoffs: prof=None"]),
    ("dominating_pair", lambda: exactdp.dominating_pair("M"), ArgumentTypeError, ["dominating_pair: h='M'"]),
    ("tensor", lambda: exactdp.tensor([None]), ArgumentTypeError, ["tensor: hulls[0]=None"]),
    ("check_gdp", lambda: exactdp.check_gdp(M, 1), ArgumentTypeError, ["check_gdp: t=", "envelope_tradeoff"]),
    ("renyi_witness", lambda: exactdp.renyi_witness(M, None), ArgumentTypeError, ["renyi_witness: res=None"]),
    ("renyi_curve", lambda: exactdp.renyi_curve(M, None), ArgumentTypeError, ["renyi_curve: alphas"]),
    ("certified_renyi", lambda: exactdp.certified_renyi(M, None), ArgumentTypeError, ["certified_renyi: alpha"]),
    ("renyi_any", lambda: exactdp.renyi_any(None, M, 2), ArgumentTypeError, ["renyi_any: engine"]),
    ("vertex_tests", lambda: exactdp.vertex_tests(M, None), ArgumentTypeError, ["vertex_tests: prof=None"]),
    ("tradeoff_point prof", lambda: exactdp.tradeoff_point(M, None, 0), ArgumentTypeError, ["tradeoff_point: prof"]),
    (
        "tradeoff_point alpha",
        lambda: exactdp.tradeoff_point(M, _prof(), "x"),
        ArgumentTypeError,
        ["tradeoff_point: alpha"],
    ),
    (
        "tradeoff_point alpha out of range",
        lambda: exactdp.tradeoff_point(M, _prof(), 2),
        ArgumentError,
        ["tradeoff_point: alpha", "[0, 1]"],
    ),
    # good messages that were bare TypeErrors (missed by `except exactdp.ExactDPError`)
    ("privloss name", lambda: exactdp.privloss("M", 0), ArgumentTypeError, ["privloss: mech='M' is a name"]),
    ("profile None", lambda: exactdp.profile(None), ArgumentTypeError, ["profile: mech=None"]),
    ("repeat name", lambda: exactdp.repeat("rr", 2), ArgumentTypeError, ["repeat: mech='rr' is a name"]),
    ("simulate name", lambda: exactdp.simulate("M"), ArgumentTypeError, ["simulate: mech='M'"]),
    ("br_range name", lambda: exactdp.br_range("x"), ArgumentTypeError, ["br_range: mech='x'"]),
    ("mechanism None", lambda: exactdp.mechanism(None), ArgumentTypeError, ["mechanism: root=None"]),
    ("renyi order not a number", lambda: exactdp.renyi(M, "x"), ArgumentError, ["renyi: alpha='x'", "not an order"]),
    ("renyi fractional order", lambda: exactdp.renyi(M, "3/2"), ArgumentError, ["renyi: alpha='3/2'", "whole orders"]),
    ("renyi_curve order", lambda: exactdp.renyi_curve(M, [1, None]), ArgumentError, ["renyi_curve: alpha=None"]),
    (
        "concomp component",
        lambda: exactdp.concomp([M, "R"]),
        ArgumentTypeError,
        ["concomp: component #2='R' is a name"],
    ),
]


@pytest.mark.parametrize("call, error, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_wrong_argument_raises_exactdps_error_naming_function_and_argument(call, error, words):
    with pytest.raises(error) as e:
        call()
    msg = str(e.value)
    for w in words:
        assert w in msg, msg
    assert msg.startswith(words[0].split(":")[0].split("(")[0])


def test_valid_per_dataset_arguments_still_build_the_same_mechanism():
    by_list = exactdp.krr(eps="log(3)", values=["a", "b"], data=["a", "b"])
    by_map = exactdp.krr(eps="log(3)", values=["a", "b"], data={"x1": "b", "x0": "a"})
    assert by_list.root.probs == by_map.root.probs
    t_list = exactdp.truncated_geometric(eps="log(2)", n=2, counts=[0, 1])
    t_map = exactdp.truncated_geometric(eps="log(2)", n=2, counts={"x0": 0, "x1": 1})
    assert t_list.root.probs == t_map.root.probs
    e_list = exactdp.exponential([[1, 0], [0, 1]], eps="log(4)")
    e_map = exactdp.exponential({"x0": [1, 0], "x1": [0, 1]}, eps="log(4)")
    assert e_list.root.probs == e_map.root.probs


def test_postprocess_of_the_answers_the_mechanism_has_is_accepted():
    assert str(exactdp.privloss(exactdp.postprocess(M, {"0": "a", "1": "b"}), 0)) == "log(3)"
    assert exactdp.privloss(exactdp.postprocess(M, {"0": "c", "1": "c"}), 0) == 0
    assert str(exactdp.privloss(exactdp.postprocess(M, {}), 0)) == "log(3)"


def test_eval_text_reads_what_it_read_before():
    assert str(exactdp.eval_text("log(3)/2 + log(3)/2")) == "log(3)"


def test_renyi_reads_an_order_as_the_other_functions_read_numbers():
    """Text in the number grammar and floats (their exact binary value) are orders too."""
    assert str(exactdp.renyi(M, "2").value) == str(exactdp.renyi(M, 2.0).value) == "log(7/3)"
    assert str(exactdp.renyi(M, "inf").value) == str(exactdp.renyi(M, float("inf")).value) == "log(3)"


def test_a_tradeoff_functions_vertices_read_as_their_values():
    """The API hands out rationals as ExactFractions (their repr reads as the value): a trade-off
    function's vertices too, not gmpy2's mpq(1,4).  RR with e^eps = 3: T = (0, 1), (1/4, 1/4), (1, 0)."""
    t = exactdp.envelope_tradeoff(exactdp.profile(exactdp.rr(exp_eps=3)))
    assert repr(t.vertices) == "((0, 1), (1/4, 1/4), (1, 0))"
