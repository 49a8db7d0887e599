"""Returned values (LogReal, ExpReal, field elements, INF, AffineInLambda) compare exactly with
ints, Fractions, mpq's and floats, and support float() for display.

A float is an exact dyadic rational: comparisons use that rational, never the exact value
rounded to a float.  The references below are computed independently with mpmath at 200 bits.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as engine
from exactdp.analysis.results import AffineInLambda
from exactdp.builders import repeat, rr
from exactdp.numbers import INF, ExpReal, Q, eval_text
from exactdp.numbers.qt import qt_t

VALUES = {
    "log(3)": eval_text("log(3)"),
    "1/10 + log(2)": eval_text("1/10 + log(2)"),
    "exp(1/3)": eval_text("exp(1/3)"),
    "t/(1+t), t = exp(1/10)": qt_t(10) / (1 + qt_t(10)),
    "log(exp(1/10) + 1)": eval_text("log(exp(1/10) + 1)"),
}


def _reference(text: str) -> mpmath.mpf:
    with mpmath.workprec(200):
        t = mpmath.exp(mpmath.mpf(1) / 10)
        table = {
            "log(3)": mpmath.log(3),
            "1/10 + log(2)": mpmath.mpf(1) / 10 + mpmath.log(2),
            "exp(1/3)": mpmath.exp(mpmath.mpf(1) / 3),
            "t/(1+t), t = exp(1/10)": t / (1 + t),
            "log(exp(1/10) + 1)": mpmath.log(t + 1),
        }
        return table[text]


@pytest.mark.parametrize("name", list(VALUES))
def test_float_is_the_nearest_double(name):
    x, ref = VALUES[name], _reference(name)
    assert abs(float(x) - float(ref)) <= 2 * math.ulp(float(ref))


@pytest.mark.parametrize("name", list(VALUES))
def test_comparison_with_the_neighbouring_doubles_is_exact(name):
    x, ref = VALUES[name], _reference(name)
    f = float(ref)
    below, above = (f, math.nextafter(f, math.inf)) if mpmath.mpf(f) < ref else (math.nextafter(f, -math.inf), f)
    assert below < x < above and x > below and x < above
    assert below <= x <= above and not (x <= below) and not (x >= above)
    assert x != below and x != above and not (x == f)  # transcendental: never equal to a float
    assert x < math.inf and x > -math.inf and x < INF
    nan = float("nan")
    assert not (x < nan or x > nan or x <= nan or x >= nan or x == nan)


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=-5, max_value=5, max_denominator=10**6))
def test_comparison_with_rationals_matches_the_reference(q):
    for name, x in VALUES.items():
        ref = _reference(name)
        with mpmath.workprec(200):
            expected = ref > mpmath.mpf(q.numerator) / q.denominator
        assert (x > q) == expected and (x > Q(q.numerator, q.denominator)) == expected
        assert (q < x) == expected  # reflected operators
        assert (x < float(q)) == (not (x > float(q)))  # a float is exact: never equal


def test_inf_is_math_inf():
    assert INF == math.inf and math.inf == INF and hash(INF) == hash(math.inf)
    assert INF > 10**1000 and INF > 1e308 and INF > VALUES["log(3)"] and not (INF > math.inf)
    assert INF >= math.inf and not (INF < 1) and float(INF) == math.inf
    assert not (INF > float("nan")) and INF != -math.inf


def test_affine_in_lambda_compares_exactly():
    prof = engine.profile(repeat(rr(exp_eps=qt_t(10)), 3))
    d = prof.delta_at(eval_text("0.2999999999"))  # e^eps beyond the field's degree limit
    assert isinstance(d, AffineInLambda)
    f = float(d)
    assert d != f and (d < f) != (d > f)
    assert d > 0 and d < Fraction(1, 10**6)


def test_expreal_orders_with_everything():
    e = ExpReal(Q(1), Q(1, 3))
    assert VALUES["log(3)"] < e < 1.4 and e > Fraction(1395, 1000) and sorted([e, 1, VALUES["log(3)"]])[-1] is e
