"""Exact numbers: decimals read exactly, the safe grammar, exact reals and certified comparisons."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactdp.errors import InexactValueError
from exactdp.numbers import INF, ExpReal, LogReal, Q, eval_text, ladder, parse_decimal
from exactdp.numbers.certified import sign_r_exp_s_minus_q
from exactdp.numbers.expr import ExprError, ExprLimits, parse_expr


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0.1", Fraction(1, 10)),
        ("0.12345678901234567890", Fraction(12345678901234567890, 10**20)),
        ("1e-3", Fraction(1, 1000)),
        ("2.5E2", Fraction(250)),
        (".5", Fraction(1, 2)),
        ("7", Fraction(7)),
    ],
)
def test_decimals_are_exact(text, expected):
    assert parse_decimal(text) == expected
    assert eval_text(text) == expected


@given(st.integers(0, 10**30), st.integers(0, 40))
def test_decimal_roundtrip(n, scale):
    text = str(n) if scale == 0 else f"{n // 10**scale}.{n % 10**scale:0{scale}d}"
    assert eval_text(text) == Fraction(n, 10**scale)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1/3", "1/3"),
        ("log(3)", "log(3)"),
        ("log(4)/2", "log(2)"),
        ("2*log(3) - log(9)", "0"),
        ("exp(log(2))", "2"),
        ("exp(log(3)) / (1 + exp(log(3)))", "3/4"),
        ("2^10", "1024"),
        ("2**-2", "1/4"),
        ("(1/4)^(1/2)", "1/2"),
        ("-(1/2)", "-1/2"),
        ("log(3) + 1/10", "1/10 + log(3)"),
        ("exp(1/10)", "exp(1/10)"),
        ("exp(1/10) * exp(-1/10)", "1"),
        ("inf", "inf"),
    ],
)
def test_grammar_values(text, expected):
    assert ladder.text(eval_text(text)) == expected


def test_params_are_resolved():
    assert eval_text("E/(1+E)", {"E": Q(3)}) == Q(3, 4)
    assert ladder.text(eval_text("eps*2", {"eps": eval_text("log(3)")})) == "log(9)"


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("log(0)", "log of a non-positive number"),
        ("log(-1)", "log of a non-positive number"),
        ("1/0", "division by zero"),
        ("2^(1/2)", "irrational"),
        ("log(2)*log(3)", "no exact representation"),
        ("exp(1/10) + log(2)", "no exact representation"),
        ("inf + 1", "inf can only stand alone"),
        ("foo", "unknown name 'foo'"),
        ("sqrt(2)", "unknown function 'sqrt'"),
        ("2^100001", "limit"),
        ("1e99999", "limit"),
        ("(1", "expected ')'"),
        ("1 2", "unexpected '2'"),
        ("", "empty expression"),
    ],
)
def test_grammar_errors(text, phrase):
    with pytest.raises(ExprError) as e:
        eval_text(text)
    assert phrase in e.value.message


@pytest.mark.parametrize(
    "attack",
    [
        '__import__("os").system("echo PWNED")',
        "Lambda(x, x)",
        "().__class__.__bases__[0]",
        "{0.__class__}",
        "f'{1}'",
        "exec('1')",
        "eval('1')",
        "lambda: 1",
        "1; import os",
        "x.y",
        "'1'",
    ],
)
def test_injection_is_inert(attack, capsys):
    with pytest.raises(ExprError):
        eval_text(attack)
    assert "PWNED" not in capsys.readouterr().out


def test_expression_size_limit():
    with pytest.raises(ExprError, match="too large|characters long"):
        parse_expr("+".join(["1"] * 3000))
    with pytest.raises(ExprError, match="too large"):
        parse_expr("+".join(["1"] * 100), ExprLimits(max_nodes=50))
    with pytest.raises(ExprError, match="nested too deeply"):
        parse_expr("(" * 300 + "1" + ")" * 300)


def test_certified_comparisons_are_exact():
    # log(3) = 1.09861228866810969139...
    assert ladder.cmp(eval_text("log(3)"), Q(10986122886681096, 10**16)) == 1
    assert ladder.cmp(eval_text("log(3)"), Q(10986122886681097, 10**16)) == -1
    assert ladder.cmp(eval_text("exp(1/10)"), Q(11, 10)) == 1  # e^0.1 = 1.10517...
    assert ladder.cmp(eval_text("log(11/10)"), Q(1, 10)) == -1
    assert ladder.cmp(INF, eval_text("log(10^100)")) == 1
    assert ladder.cmp(eval_text("log(9)"), eval_text("2*log(3)")) == 0
    # the sign of r e^s - q for a q extremely close to e (needs more than double precision)
    e_approx = Q(2718281828459045235360287471352662497757, 10**39)
    assert sign_r_exp_s_minus_q(1, 1, e_approx) == 1
    assert sign_r_exp_s_minus_q(1, 1, e_approx + Q(1, 10**39)) == -1


def test_exact_real_types():
    v = eval_text("log(23/9)")
    assert isinstance(v, LogReal) and v.r == Q(23, 9) and v.s == 0
    assert isinstance(eval_text("exp(1/10)"), ExpReal)
    from exactdp.numbers import ladder

    # issue 4: sums of exponentials are exact elements of Q(e^(1/L)) now
    assert str(ladder.add(eval_text("exp(1/10)"), Q(1))) == "exp(1/10) + 1"
    with pytest.raises(InexactValueError):
        ladder.add(eval_text("exp(1/10)"), eval_text("log(2)"))


# --- hostile input: exponents, the size of every intermediate result, long values ---------------


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("2^(1/10^30)", "is irrational"),  # was: an attempt at 2^(10^30)
        ("(3/2)^(10^30/7)", "is larger than the limit 10000"),
        ("3^(10^9)", "exponent 1000000000 is larger than the limit 10000"),
        ("2^(10^(10^4))", "(10001 digits) is larger than the limit 10000"),
        ("(2^10000)^200", "bits exceeds the limit of 1000000 bits; raise it with --max-bits"),
        (
            "(2^9000*2^9000)*(2^9000*2^9000)*(2^9000*2^9000)*(2^9000*2^9000)*(2^9000*2^9000)*(2^9000*2^9000)*(2^9000*2^9000)",
            None,
        ),
        ("log((3^9999)^101)", "bits exceeds the limit"),
    ],
)
def test_exponents_and_sizes_are_bounded_promptly(text, phrase):
    import time

    t = time.monotonic()
    if phrase is None:
        assert eval_text(text) == Q(2) ** 126000
    else:
        with pytest.raises(ExprError) as e:
            eval_text(text)
        assert phrase in e.value.message and len(e.value.message) < 300
    assert time.monotonic() - t < 15


def test_every_intermediate_product_is_size_checked():
    """A squaring chain through params is refused at its first square over the limit (a GMP
    abort was possible before), with the place and the flag."""
    from exactdp.caseio import parse_case
    from exactdp.errors import CaseError
    from exactdp.limits import Limits, using

    params = ", ".join(["a0: 2^10000"] + [f"a{k}: a{k - 1}*a{k - 1}" for k in range(1, 12)])
    text = f"exactdp: 1\nname: sq\nparams: {{{params}}}\nmechanism: {{rr: {{eps: log(3)}}}}\nclaims: [{{dp: {{eps: log(a11)}}}}]\n"
    with pytest.raises(CaseError) as e:
        parse_case(text, "sq.yaml")
    msg = str(e.value)
    assert "sq.yaml:3:" in msg and "params.a7" in msg and "--max-bits" in msg and len(msg) < 2000
    with using(Limits(max_bits=10_000_000)):
        with pytest.raises(CaseError, match="params.a10"):
            parse_case(text, "sq.yaml")


def test_long_values_print_in_full_and_messages_stay_short():
    from exactdp.numbers.rational import int_str, q_short, q_str

    big = Q(3) ** 9999
    assert len(q_str(big)) == 4771 and q_str(big) == int_str(3**9999)  # past Python's 4,300-digit limit
    assert q_str(1 / big).startswith("1/5437833951") and ladder.text(eval_text("log(3^9999)")).startswith(
        "log(5437833951"
    )
    assert q_short(big) == "54378339511420862476…2184066667 (4771 digits)"
    assert q_short(Fraction(-(3**9999), 7)).startswith("-5437")
    assert q_str(Fraction(3**9999)) == q_str(big)
