"""The field Q(e^(1/L)) for decimal eps (issue 4): exact arithmetic, canonical forms, certified
signs, and the engines working on it end to end."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator
from exactdp.analysis import profile as engine
from exactdp.builders import compose, concomp, repeat, rr, rr_delta
from exactdp.errors import InexactValueError
from exactdp.numbers import Q, eval_text, ladder
from exactdp.numbers.qt import QtElement, qt_exp, qt_t

t = qt_t(10)


def test_rational_results_come_back_as_q():
    p, q = t / (1 + t), 1 / (1 + t)
    assert p + q == 1 and type(p + q) is type(Q(1))
    assert p / q == t
    assert (t**10) == qt_exp(1, 1) and (t**10).L == 1  # canonical smallest L
    assert qt_exp(1, Q(1, 2)) == t**5


def test_different_denominators_share_one_field():
    a = qt_exp(1, Q(1, 4))  # L = 4
    b = qt_exp(1, Q(1, 10))  # L = 10
    assert (a * b) == qt_exp(1, Q(7, 20))
    assert (a + b) - b == a
    assert hash(ladder.as_field(eval_text("exp(7/20)"))) == hash(a * b)


def test_text_round_trips_through_the_grammar():
    x = (t**3 - 2 * t + Q(1, 3)) / (5 * t + 7)
    assert eval_text(str(x)) == x


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=4), st.lists(st.integers(-5, 5), min_size=1, max_size=4))
def test_certified_sign_matches_high_precision(nums, dens):
    def poly(cs):
        out = Q(0)
        for k, c in enumerate(cs):
            out = out + c * t**k if k else out + c
        return out

    n, d = poly(nums), poly(dens)
    if d == 0 or n == 0:
        return
    x = n / d
    with mpmath.workdps(60):
        tv = mpmath.exp(mpmath.mpf(1) / 10)
        val = sum(c * tv**k for k, c in enumerate(nums)) / sum(c * tv**k for k, c in enumerate(dens))
    sign = (x > 0) - (x < 0) if not isinstance(x, QtElement) else x.sign()
    assert sign == (1 if val > 0 else -1)


def test_log_of_field_elements_and_comparisons():
    v = ladder.log(9 * t - 1)
    assert "log(9*exp(1/10) - 1)" == ladder.text(v)
    assert ladder.cmp(v, Q(3)) < 0 < ladder.cmp(v, Q(2))  # log(8.946...) = 2.19...
    assert ladder.log(3 * t) == eval_text("1/10 + log(3)")  # monomials fold into s + log(r)


def test_degree_limit_is_a_clear_refusal():
    with pytest.raises(InexactValueError, match="--max-field-degree"):
        qt_exp(1, Fraction(123456789, 1000))


def test_engines_agree_on_decimal_eps():
    m = concomp(
        [
            rr(exp_eps=ladder.as_field(eval_text("exp(1/10)"))),
            rr_delta(exp_eps=ladder.as_field(eval_text("exp(1/4)")), delta=Q(1, 100)),
        ]
    )
    for d in [Q(0), Q(1, 100), Q(1, 10)]:
        assert engine.privloss(m, d) == enumerator.privloss(m, d)
    lam = ladder.as_field(eval_text("exp(1/5)"))
    assert engine.profile(m).delta_at_lambda(lam) == enumerator.profile(m).delta_at_lambda(lam)


def test_witness_on_decimal_eps_is_rechecked():
    m = compose([rr(exp_eps=t), rr(exp_eps=t)])
    w = engine.witness(m, Q(1, 10))
    assert w.excess() == engine.profile(m).delta_at(Q(1, 10))


def test_privloss_with_long_decimal_uses_certified_intervals():
    m = repeat(rr(exp_eps=t), 3)
    prof = engine.profile(m)
    d = prof.delta_at(eval_text("0.2999999999"))  # e^eps beyond the degree limit: kept as a - b*lambda
    assert ladder.decimal(prof.privloss(0), 6) == "0.3"
    assert str(d) and prof.delta_at(eval_text("0.3")) == 0


# --- the FLINT-backed arithmetic against an independent model (SymPy polynomials over QQ) ------

_ELEMENT_STEPS = st.lists(
    st.tuples(st.sampled_from("+-*/"), st.integers(-3, 3), st.integers(0, 4), st.sampled_from([2, 4, 5, 10])),
    min_size=1,
    max_size=6,
)


def _model_value(steps):
    """Apply the steps to QtElement values and, independently, to sympy rational functions of
    T = e^(1/20) (every L used divides 20); return both."""
    import sympy

    T = sympy.Symbol("T")
    x, ref = Q(1), sympy.Integer(1)
    for op, a, k, L in steps:
        y = a + qt_exp(1, Q(k, L))  # a + e^(k/L) = a + T^(20k/L)
        yref = a + T ** (20 * k // L)
        if op == "/" and (yref == 0 or y == 0):
            continue
        x = {"+": lambda u, v: u + v, "-": lambda u, v: u - v, "*": lambda u, v: u * v, "/": lambda u, v: u / v}[op](
            x, y
        )
        ref = sympy.cancel({"+": ref + yref, "-": ref - yref, "*": ref * yref, "/": ref / yref}[op])
    return x, ref, T


def _as_sympy(x, T):
    import sympy

    if not isinstance(x, QtElement):
        return sympy.Rational(int(x.numerator), int(x.denominator))
    m = 20 // x.L
    num = sum(int(a) * T ** (m * k) for k, a in enumerate(x.n.coeffs()))
    den = sum(int(a) * T ** (m * k) for k, a in enumerate(x.d.coeffs()))
    return sympy.Rational(int(x.c.numerator), int(x.c.denominator)) * num / den


@settings(max_examples=80, deadline=None)
@given(_ELEMENT_STEPS)
def test_field_arithmetic_matches_sympy_rational_functions(steps):
    import sympy

    x, ref, T = _model_value(steps)
    assert sympy.cancel(_as_sympy(x, T) - ref) == 0
    if isinstance(x, QtElement):  # the canonical form: coprime, primitive, positive leads, smallest L
        n, d = x.n, x.d
        assert n.gcd(d).degree() == 0 and n.content() == 1 and d.content() == 1
        assert n.leading_coefficient() > 0 and d.leading_coefficient() > 0 and x.c != 0
        exps = [k for k, a in enumerate(n.coeffs()) if a] + [k for k, a in enumerate(d.coeffs()) if a]
        from math import gcd

        g = x.L
        for e in exps:
            g = gcd(g, e)
        assert g == 1
    else:
        assert sympy.Poly(ref, T).is_ground  # rational results come back as Q


def test_pickle_and_hash_survive_the_polynomial_backend():
    import pickle

    x = (t**3 - 2 * t + Q(1, 3)) / (5 * t + 7)
    y = pickle.loads(pickle.dumps(x))
    assert y == x and hash(y) == hash(x) and str(y) == str(x)
    assert str(x) == "(3*exp(3/10) - 6*exp(1/10) + 1)/(3*(5*exp(1/10) + 7))"
    # the same value built another way (a common factor cancelled) hashes alike: the form is canonical
    z = (t**3 - 2 * t + Q(1, 3)) * (t + 1) / ((5 * t + 7) * (t + 1))
    assert z == x and hash(z) == hash(x) and {x: 1}[z] == 1


def test_ball_and_interval_enclosures_agree():
    x = (t**3 - 2 * t + Q(1, 3)) / (5 * t + 7)
    b, iv = x.ball(128), x.enclosure(128)
    assert b.lower() <= mpmath.mpf(iv.b) and mpmath.mpf(iv.a) <= b.upper()


_POLY = st.lists(st.integers(-4, 4), min_size=2, max_size=5).filter(lambda c: c[0] and c[-1])


@settings(max_examples=60, deadline=None)
@given(st.lists(_POLY, min_size=2, max_size=6), st.integers(1, 40))
def test_shared_denominator_products_agree_with_products_from_fresh_polynomials(dens, rounds):
    """Denominator products are shared between calls on the same polynomial objects (and small
    polynomials by value).  Many rounds that build and drop objects (ids are reused) give the same
    values as FLINT's product of the denominators: a stale or mixed-up product would differ."""
    from exactdp.numbers.qt import _poly

    def fresh(coeffs: list) -> QtElement:
        return QtElement._make(10, Q(1), _poly([1]), _poly(list(coeffs)))

    for _ in range(rounds):
        shared = [fresh(c) for c in dens]
        acc: object = Q(1)
        for x in shared * 2:  # (the same objects twice: the second pass hits the cache)
            acc = acc * x
        den = _poly([1])
        for c in dens * 2:  # (FLINT's product directly: no QtElement arithmetic)
            den = den * _poly(list(c))
        expected = QtElement._make(10, Q(1), _poly([1]), den)
        assert acc == expected and hash(acc) == hash(expected)
        lo, hi = acc.ball(128), expected.ball(128)  # type: ignore[union-attr]
        assert lo.overlaps(hi)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(0, 4), st.integers(1, 3)), min_size=1, max_size=8))
def test_qt_sum_is_the_sum_term_by_term(terms):
    """qt_sum adds the elements of one field over one denominator as numerators and reduces once:
    the same value as adding them one at a time (rationals, several fields and denominators mixed)."""
    from exactdp.numbers.qt import qt_sum

    def element(c: int, k: int, which: int) -> object:
        base = [t, qt_exp(1, Fraction(1, 4)), Q(1)][which - 1]
        return Q(c, 3) * base**k / (1 + t) ** (which % 2)

    xs = [element(*term) for term in terms]
    total: object = Q(0)
    for x in xs:
        total = total + x
    assert qt_sum(xs) == total
