"""Probabilities in Q(e^{1/L}) in trees, respond and noise: read exactly, sums decided exactly,
[0, 1] membership certified, and the two engines agree on such mechanisms."""

from __future__ import annotations

import pytest

from exactdp.analysis import enumerator
from exactdp.analysis import profile as engine
from exactdp.builders import finite_noise, report_noisy_max
from exactdp.builders.tree import mechanism, respond
from exactdp.errors import InvalidMechanismError
from exactdp.numbers import Q, eval_text
from exactdp.numbers import kinds as K
from exactdp.numbers.ladder import LL, domain_of
from exactdp.verify import verify_text

HEAD = "exactdp: 1\nname: f\n"


def test_domain_of_knows_linear_forms_in_logs():
    """Regression: a delta written log(3)/2 reached domain_of as a LogLinear and crashed the reader
    with a TypeError (exit 3) instead of a located error."""
    assert domain_of(eval_text("log(3)/2")) is LL
    fr = verify_text(HEAD + "mechanism: {rr: {eps: 0.1}}\nclaims: [{delta: {eps: 0, equals: log(3)/2}}]\n")
    assert fr.exit_code == 1  # compared exactly: delta(1) = (e^0.1 - 1)/(e^0.1 + 1) ~ 0.025, not ~ 0.549
    fr = verify_text(HEAD + "mechanism: {rr: {eps: 0.1}}\nclaims: [{delta: {eps: 0, equals: log(3)}}]\n")
    assert fr.exit_code == 2 and "must lie in [0, 1]" in fr.error.problems[0].message


def test_probability_kind_accepts_the_field_and_checks_the_range():
    p = K.probability(eval_text("exp(-1/2)/(1 + exp(-1/2))"), field=True)
    assert str(p) == "1/(exp(1/2) + 1)"
    with pytest.raises(K.QuantityError, match=r"must lie in \[0, 1\]"):
        K.probability(eval_text("exp(1)/2"), field=True)
    with pytest.raises(K.QuantityError, match="must be an exact rational"):
        K.probability(eval_text("exp(-1)"))
    with pytest.raises(K.QuantityError, match="element of Q"):
        K.probability(eval_text("log(2)/2"), field=True)


def test_a_field_tree_is_read_and_analysed_exactly():
    fr = verify_text(
        HEAD + "params: {p: 4/(3 + exp(1))}\n"
        "mechanism: {respond: {a: [1 - 3/4*p, p/4], b: [p/4, 1 - 3/4*p], c: [p/4, p/4], d: [p/4, p/4]}}\n"
        "claims: [{privloss: {delta: 0, equals: 1}}, {delta: {eps: 1, equals: 0}}]\n"
    )
    assert fr.exit_code == 0, fr


def test_sums_are_exact_in_the_field():
    fr = verify_text(
        HEAD + "mechanism: {respond: {a: [exp(-1/2)/(1 + exp(-1/2)), 1/2], b: [1/(1 + exp(-1/3)), 1/2]}}\n"
        "claims: [{dp: {eps: 1}}]\n"
    )
    assert fr.exit_code == 2
    (p,) = fr.error.problems
    assert "sum to" in p.message and "≈" in p.message and p.path == "mechanism.respond"


def test_python_respond_takes_text_and_field_values():
    m = mechanism(respond({"a": ["exp(-1/2)/(1 + exp(-1/2))", "1/2"], "b": ["1/(1 + exp(-1/2))", "1/2"]}))
    assert engine.privloss(m, 0) == enumerator.privloss(m, 0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        respond({"a": ["exp(1)", "1"]})


def test_field_noise_and_both_engines_agree():
    from exactdp.numbers.qt import qt_exp

    a = qt_exp(1, Q(-1, 2))
    one = Q(1)
    noise = finite_noise({-1: a / (1 + a) / 2, 0: one / (1 + a), 1: a / (1 + a) / 2})
    m = report_noisy_max([[1, 0], [0, 1]], noise)
    assert engine.profile(m).envelope == enumerator.profile(m).envelope
    with pytest.raises(InvalidMechanismError, match="sum to"):
        finite_noise({0: a, 1: a})
