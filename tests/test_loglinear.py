"""Rational multiples of logarithms: exact values of the grammar, exact equality, certified order.

Known answers are by hand; the property tests compare the exact decision with an independent
high-precision evaluation (mpmath at 200 digits, never used by the library for a decision) and
check identities that must give *equal* (a tie that intervals alone could never decide).
"""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.numbers import LogReal, Q, eval_text, ladder
from exactdp.numbers.loglinear import LogLinear, coprime_basis, ll_sign, log_linear


def E(t: str, **env):
    return eval_text(t, {k: Q(v) for k, v in env.items()})


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("log(61/9)/2", "log(61/9)/2"),
        ("log(61)/2 - log(3)", "log(61/9)/2"),
        ("2*log(3)/4", "log(3)/2"),
        ("log(9)/2", "log(3)"),  # collapses to s + ln r
        ("log(8)/3", "log(2)"),
        ("log(2)/2 - log(3)/3", "log(8/9)/6"),
        ("1/10 + log(3)/5", "1/10 + log(3)/5"),
        ("log(3)/2 + log(3)/2", "log(3)"),
        ("log(4)/6", "log(2)/3"),
    ],
)
def test_canonical_text(text, canonical):
    assert ladder.text(E(text)) == canonical


def test_params_in_multiples():
    assert ladder.text(E("k*log(3)/5", k=2)) == "log(9)/5"
    assert ladder.cmp(E("k*log(3)/5", k=5), E("log(3)")) == 0


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("log(61/9)/2", "log(61)/2 - log(3)", 0),
        ("log(2)/2", "log(3)/3", -1),  # 2^3 = 8 < 9 = 3^2
        ("log(3)/3", "log(5)/5", 1),  # 3^5 = 243 > 125 = 5^3
        ("log(7/3)", "log(49/9)/2", 0),
        ("log(6)/2", "log(2)/2 + log(3)/2", 0),
        ("1/2 + log(2)/2", "log(2)", 1),
        ("log(2)/3", "1/5", 1),
        ("log(2)/3", "inf", -1),
    ],
)
def test_exact_comparisons(a, b, expected):
    assert ladder.cmp(E(a), E(b)) == expected
    assert ladder.cmp(E(b), E(a)) == -expected


def test_coprime_basis():
    assert coprime_basis([12, 18]) == [2, 3]
    assert coprime_basis([2**40 * 3**7, 36, 5**6]) == [2, 3, 5]
    assert coprime_basis([8, 27]) == [2, 3]  # perfect powers reduced


def test_equality_across_types():
    assert E("log(3)/2") == E("log(9)/4")
    assert E("log(3)/2") != E("log(3)/3")
    assert LogLinear(Q(0), ((3, Q(1)),)) == LogReal(Q(0), Q(3))


def test_exp_of_an_algebraic_power_is_refused():
    from exactdp.numbers import ExprError

    with pytest.raises(ExprError, match="irrational algebraic"):
        E("exp(log(3)/2)")


_rats = st.fractions(min_value=Q(1, 50), max_value=50).filter(lambda f: f > 0)
_coefs = st.fractions(min_value=-5, max_value=5, max_denominator=7)


def _float(x) -> mpmath.mpf:
    with mpmath.workdps(200):
        v = mpmath.mpf(x.s.numerator) / x.s.denominator if hasattr(x.s, "numerator") else mpmath.mpf(0)
        for b, c in x.terms:
            v += mpmath.mpf(c.numerator) / c.denominator * mpmath.log(b)
        return v


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_rats, _coefs), max_size=4), st.fractions(min_value=-2, max_value=2, max_denominator=5))
def test_sign_matches_independent_evaluation(logs, s):
    x = log_linear(
        Q(s.numerator, s.denominator), [(Q(r.numerator, r.denominator), Q(c.numerator, c.denominator)) for r, c in logs]
    )
    sign = ll_sign(x)
    with mpmath.workdps(200):
        v = _float(x)
        if sign == 0:
            assert abs(v) < mpmath.mpf(10) ** -150
        else:
            assert (v > 0) == (sign > 0) and abs(v) > mpmath.mpf(10) ** -150


@settings(max_examples=150, deadline=None)
@given(_rats, _rats, _coefs)
def test_identities_decide_equal(r1, r2, c):
    """c·ln(r1·r2) = c·ln r1 + c·ln r2 and (c/2)·ln(r^2) = c·ln r, decided exactly equal."""
    q1, q2, k = Q(r1.numerator, r1.denominator), Q(r2.numerator, r2.denominator), Q(c.numerator, c.denominator)
    lhs = ladder.mul(k, LogReal(Q(0), q1 * q2)) if q1 * q2 != 1 else Q(0)
    rhs = ladder.add(
        ladder.mul(k, LogReal(Q(0), q1)) if q1 != 1 else Q(0), ladder.mul(k, LogReal(Q(0), q2)) if q2 != 1 else Q(0)
    )
    assert ladder.cmp(lhs, rhs) == 0
    assert ladder.cmp(ladder.add(lhs, ladder.neg(rhs)), Q(0)) == 0


def test_claimed_privloss_may_be_a_multiple_of_a_log():
    """privloss: {at_most: log(61/9)/2} is compared exactly (log 3 > log(61/9)/2: fails, no
    witness since e^eps is irrational); dp: {eps: log(3)/2} is refused with a clear message."""
    from exactdp.caseio import parse_case
    from exactdp.errors import CaseError
    from exactdp.verify import verify_case

    head = "exactdp: 1\nname: x\nmechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n"
    v = verify_case(
        parse_case(
            head + "  - privloss: {at_most: log(61/9)/2 + 1/5}\n  - privloss: {at_most: log(61/9)/2}\n", "t.yaml"
        )
    )
    assert [x.status for x in v] == ["holds", "fails"]
    with pytest.raises(CaseError, match="irrational"):
        parse_case(head + "  - dp: {eps: log(3)/2}\n", "t.yaml")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_rats, _coefs), min_size=1, max_size=3))
def test_integer_powers_and_intervals_agree(logs):
    """For s = 0 the exact power comparison and the certified intervals give the same sign."""
    from exactdp.numbers.loglinear import _sign_by_intervals, _sign_by_powers

    x = log_linear(Q(0), [(Q(r.numerator, r.denominator), Q(c.numerator, c.denominator)) for r, c in logs])
    exact = _sign_by_powers(x)
    if not x.terms or exact is None:
        return
    assert exact == _sign_by_intervals(x) and exact != 0


def test_a_log_of_a_number_of_a_million_bits_is_quick():
    """The basis of log(r) for a huge r: GMP's perfect-power test rejects it at once (trying
    every exponent up to the bit length took minutes), and its gcds are subquadratic."""
    from exactdp.limits import DEFAULT, using

    n = 3**600_000 + 2  # about 950,000 bits
    with using(DEFAULT.replace(timeout=30)):
        v = log_linear(Q(0), [(Q(n, 7**1000), Q(1, 2))])
    assert dict(v.terms) == {7: Q(-500), n: Q(1, 2)}  # (n = 3 mod 7: coprime to 7)
    assert coprime_basis([n * 5, 5**3]) == [5, n]


def test_exp_of_a_log_linear_form_with_whole_coefficients_is_exact():
    """e^(s + sum c log b) = e^s * prod b^c: with whole c the product is rational, so the value
    is a rational (s = 0) or r*e^s; with a fractional c it is refused, and the message says
    whether it is algebraic (s = 0) or transcendental."""
    from fractions import Fraction

    import pytest

    from exactdp.errors import InexactValueError
    from exactdp.numbers import ladder
    from exactdp.numbers.expreal import ExpReal
    from exactdp.numbers.loglinear import log_linear

    assert ladder.exp(log_linear(0, [(2, 1), (3, -2)])) == Fraction(2, 9)
    y = ladder.exp(log_linear(1, [(2, 1)]))
    assert isinstance(y, ExpReal) and y.r == 2 and y.s == 1
    assert (
        ladder.cmp(ladder.log(ladder.exp(log_linear(Fraction(1, 2), [(6, 3)]))), log_linear(Fraction(1, 2), [(6, 3)]))
        == 0
    )
    with pytest.raises(InexactValueError, match="transcendental"):
        ladder.exp(log_linear(1, [(2, Fraction(1, 2))]))
    with pytest.raises(InexactValueError, match="irrational algebraic number \\(a root"):
        ladder.exp(log_linear(0, [(2, Fraction(1, 2))]))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 40), st.integers(1, 400), st.integers(1, 60))
def test_perfect_power_finds_the_largest_exponent(base, k, m):
    """n = base^k * 7^m taken apart as a^e with e as large as possible: e is the gcd of the
    exponents of its prime factors (the search tries prime exponents only, and stops once GMP
    says what is left is no power)."""
    from math import gcd

    from exactdp.numbers.loglinear import _perfect_power

    n = base**k * 7**m
    a, e = _perfect_power(n)
    assert a**e == n
    factors: dict[int, int] = {}
    x = n
    for p in range(2, 41):
        while x % p == 0:
            factors[p] = factors.get(p, 0) + 1
            x //= p
    g = 0
    for v in factors.values():
        g = gcd(g, v)
    assert e == g
