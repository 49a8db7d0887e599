"""numbers/kinds.py is the one home of the checks on eps, delta and e^eps: the builders'
parameters (builders/params.py) only read text and pick the Python exception, and report
exactly the kinds wording (Vadhan & Wang 2021, Def. 1.7 and Def. 1.9)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.builders import params
from exactdp.errors import CaseError, InexactValueError, InvalidMechanismError
from exactdp.numbers import Q, eval_text, ladder
from exactdp.numbers import kinds as K
from exactdp.numbers.qt import QtElement
from exactdp.verify import verify_text


def test_exp_eps_value_takes_e_to_the_eps_itself():
    assert K.exp_eps_value(Q(3)) == 3 and K.exp_eps_value(1) == 1
    lam = K.exp_eps_value(eval_text("exp(1/10)"))
    assert isinstance(lam, QtElement) and lam == ladder.as_field(eval_text("exp(1/10)"))
    assert K.exp_eps_value(eval_text("2*exp(1/10)"), what="grr: u") == ladder.as_field(eval_text("2*exp(1/10)"))


@pytest.mark.parametrize(
    "text, rational_only, match",
    [
        pytest.param("1/2", False, r"e\^eps must be at least 1 \(eps >= 0\), found 1/2", id="below-1"),
        pytest.param("exp(-1/10)", False, "must be at least 1", id="field-below-1"),
        pytest.param("exp(1/10)", True, "is transcendental; this mechanism needs e\\^eps rational", id="rational-only"),
        pytest.param("log(3)", False, "is e\\^eps itself, such as 3 or 3/2, found log\\(3\\)", id="an-eps"),
        pytest.param("inf", False, "is e\\^eps itself", id="inf"),
    ],
)
def test_exp_eps_value_refusals(text, rational_only, match):
    with pytest.raises(K.QuantityError, match=match):
        K.exp_eps_value(eval_text(text), rational_only=rational_only)


def test_eps_positive():
    assert K.eps(eval_text("log(2)"), positive=True) == eval_text("log(2)")
    for bad in ("0", "-1/2", "log(1/2)"):
        with pytest.raises(K.QuantityError, match="eps must be positive, found"):
            K.eps(eval_text(bad), positive=True)
    with pytest.raises(K.QuantityError, match="eps must be >= 0, found -1/2"):
        K.eps(Q(-1, 2))


def test_rational_only_exp_eps_refuses_every_field_element():
    # log(1 + exp(1/10)) has e^eps = 1 + exp(1/10): in the field, not rational
    e = eval_text("log(1 + exp(1/10))")
    assert isinstance(K.exp_eps(e, form="rr"), QtElement)
    with pytest.raises(K.QuantityError, match="krr: eps = .* makes e\\^eps transcendental; krr needs e\\^eps rational"):
        K.exp_eps(e, form="krr", rational_only=True)


def test_rational_only_form_locates_the_refusal_at_its_field():
    fr = verify_text(
        "exactdp: 1\nname: k\n"
        "mechanism: {krr: {eps: log(1 + exp(1/10)), values: [a, b], data: {x0: a, x1: b}}}\n"
        "claims: [{dp: {eps: log(3), delta: 0}}]\n"
    )
    assert fr.exit_code == 2 and isinstance(fr.error, CaseError)
    (problem,) = fr.error.problems
    assert problem.path == "mechanism.krr.eps"
    assert "krr needs e^eps rational" in problem.message


def test_error_text_joins_message_and_hint():
    assert K.QuantityError("a", "b").text() == "a (b)"
    assert K.QuantityError("a").text() == "a"


# --- the builders' parameters report the kinds wording, and nothing else --------------------------

_VALUES = [
    "0", "3", "1/2", "-1/2", "3/2", "log(3)", "log(1/2)", "1/10", "exp(1/10)", "2*exp(-1/10)",
    "inf", "log(61/9)/2", "log(1 + exp(1/10))", "1/10 + log(2)",
]  # fmt: skip


def _outcome(f, *args, **kw):
    try:
        return ("ok", f(*args, **kw))
    except (K.QuantityError, ValueError, TypeError, InexactValueError) as e:
        return ("error", e.text() if isinstance(e, K.QuantityError) else str(e))


@settings(max_examples=60, deadline=None)
@given(text=st.sampled_from(_VALUES), as_text=st.booleans())
def test_params_delegate_every_check_to_kinds(text, as_text):
    v = eval_text(text)
    arg = text if as_text else v
    pairs = [
        (_outcome(params.read_eps, arg, call="f"), _outcome(K.eps, v, what="f: eps")),
        (_outcome(params.read_eps, arg, call="f", positive=True), _outcome(K.eps, v, what="f: eps", positive=True)),
        (_outcome(params.read_rational, arg, call="f", name="delta"), _outcome(K.rational, v, what="f: delta")),
        (_outcome(params.read_exp_eps, arg, call="f"), _outcome(K.exp_eps_value, v, what="f: exp_eps")),
    ]
    for mine, theirs in pairs:
        assert mine == theirs


def test_node_builders_check_with_kinds_wording():
    from exactdp.builders.classic import krr_rows
    from exactdp.builders.exponential import grr_probs
    from exactdp.builders.rr import rr_delta_node, rr_node

    with pytest.raises(InvalidMechanismError, match=r"rr: e\^eps must be at least 1 \(eps >= 0\), found 1/2"):
        rr_node(Q(1, 2), (0, 1))
    with pytest.raises(InvalidMechanismError, match=r"rr: delta must lie in \[0, 1\], found 2"):
        rr_delta_node(3, 2, (0, 1))
    with pytest.raises(InvalidMechanismError, match=r"krr: e\^eps = exp\(1/10\) is transcendental"):
        krr_rows(eval_text("exp(1/10)"), ["a", "b"], ["a", "b"])
    with pytest.raises(InvalidMechanismError, match=r"grr: e\^eps must be at least 1"):
        grr_probs(Q(1, 2), 1)
    assert rr_node(3, (0, 1)).probs == ((Q(3, 4), Q(1, 4)), (Q(1, 4), Q(3, 4)))
