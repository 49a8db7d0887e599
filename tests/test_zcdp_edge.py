"""zCDP next to alpha = 1 (exactdp.analysis.zcdp_edge): the tight rho = KL of randomized response
(Steinke 2024) is decided, a curvature too large for rho is not waved through, adversary choices are
left to the chords, and every pair the bound accepts satisfies D_alpha <= rho*alpha on a fine grid."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import sympy
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as engine
from exactdp.analysis.zcdp import FAILS, HOLDS, check_zcdp
from exactdp.analysis.zcdp_edge import near_one_holds
from exactdp.builders import rr
from exactdp.builders.tree import ask, mechanism, respond
from exactdp.numbers import Q


def _binary(p: F, q: F):
    return mechanism(respond({"a": [Q(p.numerator, p.denominator), Q(q.numerator, q.denominator)],
                              "b": [Q(1 - p), Q(1 - q)]}))  # fmt: skip


def _kl(p: F, q: F) -> sympy.Expr:
    """KL of (p, 1 - p) from (q, 1 - q), exactly."""
    return sympy.Rational(p) * sympy.log(sympy.Rational(p / q)) + sympy.Rational(1 - p) * sympy.log(
        sympy.Rational((1 - p) / (1 - q))
    )


def test_rr_is_exactly_its_kl_zcdp():
    """Steinke 2024: RR_eps is eps*tanh(eps/2)-zCDP, the limit of D_alpha/alpha at alpha -> 1
    (never attained); for eps = log 3 that is log(3)/2.  Before the curvature bound: undecided."""
    m = rr(exp_eps=3)
    res = check_zcdp(m, sympy.log(3) / 2, engine.privloss(m, 0))
    assert res.status == HOLDS and "curvature" in res.reason
    two = mechanism(respond({"a": [Q(3, 4), Q(1, 4)], "b": [Q(1, 4), Q(3, 4)]}))
    assert near_one_holds(two, sympy.log(3) / 2, F(549, 1000), F(9, 8))


def test_curvature_above_rho_is_not_accepted():
    """(1/2, 1/2) against (1/4, 3/4): KL = log(4/3)/2 = 0.1438 but Var(loss)/2 = (log 3)^2/8 = 0.1509,
    so D_alpha/alpha rises above the KL just after 1: the claim fails there."""
    m = _binary(F(1, 2), F(1, 4))
    rho = sympy.log(sympy.Rational(4, 3)) / 2
    assert not near_one_holds(m, rho, F(1438, 10000), F(9, 8))
    assert check_zcdp(m, rho, engine.privloss(m, 0)).status == FAILS


def test_adversary_choices_are_left_to_the_chords():
    m = mechanism(ask({"q1": rr(exp_eps=3), "q2": rr(exp_eps=3)}))
    assert not near_one_holds(m, sympy.log(3) / 2, F(549, 1000), F(9, 8))


def _kl_mp(p: F, q: F) -> mpmath.mpf:
    pm, qm = mpmath.mpf(p.numerator) / p.denominator, mpmath.mpf(q.numerator) / q.denominator
    return pm * mpmath.log(pm / qm) + (1 - pm) * mpmath.log((1 - pm) / (1 - qm))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 19), st.integers(1, 19))
def test_accepted_pairs_hold_on_a_grid(a, b):
    """Whenever the bound accepts rho = D_1 for a binary pair, D_alpha <= rho*alpha at every alpha of
    a fine grid in (1, 9/8] (mpmath, 40 digits), and the variance at alpha = 1 is at most 2*rho."""
    assume(a != b)
    p, q = F(a, 20), F(b, 20)
    m = _binary(p, q)
    with mpmath.workdps(40):
        kls = {(x, y): _kl_mp(x, y) for x, y in ((p, q), (q, p))}
        (x0, y0), rho_mp = max(kls.items(), key=lambda kv: kv[1])  # the sup over the two ordered pairs
        rho = _kl(x0, y0)
        lo = F(int(rho_mp * 10**30) - 1, 10**30)
        if not near_one_holds(m, rho, lo, F(9, 8)):
            return
        for x, y in ((p, q), (q, p)):
            xs = [mpmath.mpf(x.numerator) / x.denominator, 1 - mpmath.mpf(x.numerator) / x.denominator]
            ys = [mpmath.mpf(y.numerator) / y.denominator, 1 - mpmath.mpf(y.numerator) / y.denominator]
            loss = [mpmath.log(u / v) for u, v in zip(xs, ys)]
            mean = sum(u * l for u, l in zip(xs, loss))
            assert sum(u * (l - mean) ** 2 for u, l in zip(xs, loss)) <= 2 * rho_mp + mpmath.mpf(10) ** -30
            for k in range(1, 101):
                al = 1 + mpmath.mpf(k) / 800
                d = mpmath.log(sum(u**al * v ** (1 - al) for u, v in zip(xs, ys))) / (al - 1)
                assert d <= rho_mp * al + mpmath.mpf(10) ** -30
