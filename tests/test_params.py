"""The builders' privacy parameters read like case files (eps=, exp_eps=, delta= as text or
exact values); the old positional e^eps still works, with a deprecation warning."""

from __future__ import annotations

import warnings
from fractions import Fraction

import pytest

import exactdp
from exactdp.analysis import enumerator
from exactdp.analysis import profile as engine
from exactdp.builders import (
    discrete_laplace,
    exponential,
    geometric_noise,
    grr,
    grr_menu,
    krr,
    lyu_variant,
    rr,
    rr_delta,
    sparse_vector,
    truncated_geometric,
)
from exactdp.deprecation import ExactDPDeprecationWarning
from exactdp.errors import InexactValueError
from exactdp.numbers import Q, eval_text, ladder
from exactdp.report.verdicts import shown
from exactdp.verify import verify_text

CASE = """\
exactdp: 1
name: api-vs-case
mechanisms:
  M: {{{form}}}
claims:
  - privloss: {{delta: {delta}, equals: {expected}}}
"""


def _case_privloss(form: str, delta: str = "0", expected: str = "0") -> str:
    """PrivLoss of the same mechanism read from a case file (the reference for the API)."""
    fr = verify_text(CASE.format(form=form, delta=delta, expected=expected))
    assert fr.error is None, fr.error
    return shown(fr.verdicts[0]).found


@pytest.mark.parametrize(
    "build, form",
    [
        pytest.param(lambda: rr(eps="log(3)"), "rr: {eps: log(3)}", id="VW-Def1.9-rr-eps-text"),
        pytest.param(lambda: rr(eps=exactdp.exact("log(3)")), "rr: {eps: log(3)}", id="rr-eps-LogReal"),
        pytest.param(lambda: rr(exp_eps=3), "rr: {eps: log(3)}", id="rr-exp_eps"),
        pytest.param(lambda: rr(eps="0.1"), "rr: {eps: 0.1}", id="rr-decimal-eps"),
        pytest.param(lambda: rr(eps=Fraction(1, 10)), "rr: {eps: 0.1}", id="rr-eps-Fraction"),
        pytest.param(lambda: rr(eps="log(3)", delta="1/10"), "rr: {eps: log(3), delta: 1/10}", id="VW-Def5.1-rr-delta"),
        pytest.param(
            lambda: rr_delta(eps="log(3)", delta=Q(1, 10)), "rr: {eps: log(3), delta: 1/10}", id="rr_delta-keywords"
        ),
        pytest.param(lambda: grr(eps="log(16)", t="log(4)"), "grr: {eps: log(16), t: log(4)}", id="DDR-Def2.4-grr"),
        pytest.param(
            lambda: krr(eps="log(3)", values=["a", "b", "c"], data=["a", "b"]),
            "krr: {eps: log(3), values: [a, b, c], data: {x0: a, x1: b}}",
            id="krr",
        ),
        pytest.param(
            lambda: truncated_geometric(eps="log(2)", n=3, counts=[0, 1]),
            "truncated_geometric: {eps: log(2), n: 3, counts: {x0: 0, x1: 1}}",
            id="GRS-truncated-geometric",
        ),
        pytest.param(
            lambda: exponential([[1, 0, 0], [0, 0, 1]], eps="log(16)"),
            "exponential: {eps: log(16), scores: {x0: [1, 0, 0], x1: [0, 0, 1]}}",
            id="DDR-Def2.3-exponential",
        ),
    ],
)
def test_keyword_forms_match_the_case_file(build, form):
    m = build()
    for delta in ("0", "1/5"):
        found = engine.privloss(m, delta)
        assert found == enumerator.privloss(m, Q(1, 5) if delta == "1/5" else 0)
        ref = verify_text(CASE.format(form=form, delta=delta, expected=ladder.text(found)))
        assert ref.error is None and ref.exit_code == 0, (ref.error, [shown(v).found for v in ref.verdicts])


def test_positional_exp_eps_still_means_exp_eps_and_warns():
    with pytest.warns(ExactDPDeprecationWarning, match=r'rr\(exp_eps=3, \.\.\.\) or rr\(eps="log\(3\)"') as rec:
        old = rr(3)
    assert rec[0].filename == __file__  # the warning points at the caller
    assert engine.privloss(old, 0) == engine.privloss(rr(exp_eps=3), 0) == eval_text("log(3)")
    with pytest.warns(ExactDPDeprecationWarning, match="a positional 1 means eps = 0"):
        assert engine.privloss(rr(1), 0) == 0
    cases = [
        (lambda: rr_delta(3, Q(1, 10)), lambda: rr_delta(exp_eps=3, delta=Q(1, 10))),
        (lambda: grr(16, 4), lambda: grr(exp_eps=16, exp_t=4)),
        (lambda: grr_menu(16, [2, 4]), lambda: grr_menu(exp_eps=16, exp_ts=[2, 4])),
        (lambda: krr(3, ["a", "b"], ["a", "b"]), lambda: krr(exp_eps=3, values=["a", "b"], data=["a", "b"])),
        (lambda: exponential([[1, 0], [0, 1]], 4), lambda: exponential([[1, 0], [0, 1]], exp_eps=4)),
    ]
    for old_call, new_call in cases:
        with pytest.warns(ExactDPDeprecationWarning, match="is e\\^eps, not eps"):
            old = old_call()
        new = new_call()
        assert engine.profile(old).equals_on_eps_ge_0(engine.profile(new))


def test_lyu_variant_keywords_and_positional():
    menu = [("up", (0, 1)), ("down", (1, 0))]
    new = sparse_vector(lyu_variant("alg1", eps="log(16)", menu=menu, horizon=2))
    with pytest.warns(ExactDPDeprecationWarning, match="lyu_variant"):
        old = sparse_vector(lyu_variant("alg1", 16, menu, horizon=2))
    assert engine.profile(old).equals_on_eps_ge_0(engine.profile(new))
    assert engine.privloss(new, 0) <= eval_text("log(16)")  # Lyu-Su-Li 2017, Thm 2: Alg. 1 is eps-DP


def test_noise_takes_eps_or_alpha():
    assert (
        geometric_noise(eps="log(2)", width=2) == geometric_noise(alpha=Q(1, 2), width=2) == geometric_noise(Q(1, 2), 2)
    )
    assert discrete_laplace(eps="log(3)") == discrete_laplace(alpha="1/3")
    with pytest.raises(TypeError, match="exactly one of eps= .* or alpha="):
        discrete_laplace(eps="log(3)", alpha="1/3")
    with pytest.raises(ValueError, match="eps must be positive"):
        discrete_laplace(eps=0)


@pytest.mark.parametrize(
    "call, err, match",
    [
        (
            lambda: rr(eps=0.1),
            InexactValueError,
            r'the float 0.1 is the binary fraction 3602879701896397/.*write eps="0.1"',
        ),
        (lambda: rr(), TypeError, "give eps exactly once"),
        (lambda: rr(eps="log(3)", exp_eps=3), TypeError, "got eps and exp_eps"),
        (lambda: rr(eps="-1/2"), ValueError, "eps must be >= 0"),
        (lambda: rr(eps="inf"), ValueError, "inf is not allowed"),
        (lambda: rr(eps="log(3"), ValueError, "not a number exactdp can read"),
        (lambda: rr(eps="exp(1)"), ValueError, r"eps must be a real number such as log\(3\).*eps is the exponent"),
        (lambda: rr(exp_eps="log(3)"), ValueError, r"exp_eps is e\^eps itself.*e\^eps = 3 is eps = log\(3\)"),
        (lambda: rr(exp_eps="1/2"), ValueError, r"rr: exp_eps must be at least 1 \(eps >= 0\), found 1/2"),
        (lambda: rr(eps=[1]), TypeError, "eps must be an exact number or text"),
        (lambda: rr(eps="log(3)", delta="log(2)"), ValueError, "rr: delta must be an exact rational, found log\\(2\\)"),
        (lambda: rr(eps="log(3)", delta=float("nan")), ValueError, "delta=nan: nan is not a number"),
        (lambda: krr(eps="0.1", values=["a", "b"], data=["a", "b"]), InexactValueError, "needs e\\^eps rational"),
        (lambda: krr(["a", "b"], ["a", "b"], eps="log(3)"), TypeError, "deprecated \\(e\\^eps, values, data\\)"),
        (lambda: rr_delta(eps="log(3)"), TypeError, "delta= is required"),
        (lambda: grr_menu(eps="log(16)"), TypeError, "exactly one of ts="),
    ],
)
def test_bad_parameters_are_explained(call, err, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ExactDPDeprecationWarning)
        with pytest.raises(err, match=match):
            call()


def test_analysis_functions_take_text_like_case_files():
    m = rr(eps="log(3)", delta="1/10")
    assert exactdp.privloss(m, "1/5") == exactdp.privloss(m, Q(1, 5)) == eval_text("log(23/9)")
    assert exactdp.is_dp(m, "log(23/9)", "1/5") and not exactdp.is_dp(m, "log(2)", "1/5")
    assert exactdp.is_dp(m, "inf", 0) and exactdp.is_dp(m, exactdp.INF, 0)
    assert exactdp.delta_at(m, "log(3)") == enumerator.delta_at(m, "log(3)") == Q(1, 10)
    assert exactdp.witness(m, "log(2)").excess() == exactdp.delta_at(m, "log(2)")
    with pytest.raises(ValueError, match="delta must lie in"):
        exactdp.privloss(m, "3/2")


def test_a_float_is_the_exact_binary_fraction_it_is():
    """A float where an exact number is expected is taken exactly (0.5 is 1/2; 0.1 is
    3602879701896397/2^55, not 1/10), never rounded to a nearby decimal."""
    from fractions import Fraction

    assert exactdp.privloss(rr(eps="log(3)", delta=0.5), 0.5) == exactdp.privloss(rr(eps="log(3)", delta="1/2"), "1/2")
    m = rr(eps="log(3)", delta=0.1)
    assert exactdp.delta_at(m, 0) == exactdp.delta_at(rr(eps="log(3)", delta=Fraction(0.1)), 0)
    assert exactdp.delta_at(m, 0) != exactdp.delta_at(rr(eps="log(3)", delta="0.1"), 0)
    assert exactdp.exact(0.1) == Fraction(3602879701896397, 2**55)
    assert exactdp.is_dp(rr(eps="log(3)"), 1.0986123, 0) and not exactdp.is_dp(rr(eps="log(3)"), 1.0986122, 0)
