"""zCDP by certified branch and bound (exactdp.analysis.zcdp): known answers, the shortcut through
D_inf, infinite divergences, undecided at the box limit, and agreement with a fine grid."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from exactdp import limits
from exactdp.analysis import profile as engine
from exactdp.analysis.zcdp import FAILS, HOLDS, UNDECIDED, check_zcdp, chord_verified
from exactdp.builders import rr
from exactdp.builders.discrete import discrete_gaussian
from exactdp.builders.tree import mechanism, respond
from exactdp.numbers import Q


def _mp(x: F) -> mpmath.mpf:
    return mpmath.mpf(x.numerator) / x.denominator


def _check(m, rho):
    return check_zcdp(m, Q(rho.numerator, rho.denominator) if isinstance(rho, F) else rho, engine.privloss(m, 0))


def test_rr_is_eps_squared_over_two_zcdp_and_not_below_kl():
    """Bun-Steinke 2016, Prop. 1.4: eps-DP implies eps^2/2-zCDP; RR(log 3) has KL = log(3)/2 = 0.549."""
    m = rr(exp_eps=3)
    eps2 = F(6035, 10000)  # (log 3)^2/2 = 0.60347...
    assert _check(m, eps2).status == HOLDS
    res = _check(m, F(1, 2))
    assert res.status == FAILS and res.witness is not None and res.alpha is not None
    assert res.divergence.lo > F(1, 2) * res.alpha


def test_shortcut_infinite_and_trivial():
    m = rr(exp_eps=3)
    assert _check(m, F(2)).status == HOLDS and _check(m, F(2)).boxes == 0  # D_inf = log 3 <= 2
    leak = mechanism(respond({"a": [Q(1, 2), Q(0)], "b": [Q(1, 2), Q(1)]}))
    res = check_zcdp(leak, Q(100), engine.privloss(leak, 0))
    assert res.status == FAILS and res.witness is not None and "inf" in res.reason


def test_interior_maximum_decided_against_a_grid():
    """The discrete Gaussian sigma^2 = 4 conditioned on [-8, 8]: sup D_a/a = 0.124945... at a ~ 1.51."""
    m = discrete_gaussian([0, 1], (-8, 8), sigma2=4)
    assert _check(m, F(1, 8)).status == HOLDS
    res = _check(m, F(1249, 10000))
    assert res.status == FAILS
    with mpmath.workdps(30):
        a = mpmath.mpf(res.alpha.numerator) / res.alpha.denominator
        assert a > 1 and float(res.divergence.lo) / float(a) > 0.1249


def test_undecided_when_the_box_budget_runs_out():
    m = discrete_gaussian([0, 1], (-8, 8), sigma2=4)
    with limits.using(limits.DEFAULT.replace(max_alpha_boxes=3)):
        res = _check(m, F(2499, 20000))  # 0.12495, just above the supremum 0.1249450...
    assert res.status == UNDECIDED and "--max-alpha-boxes" in res.reason


def test_chord_rule():
    """On [a, b] the chord of phi's upper ends must stay below rho a (a - 1) (exact arithmetic)."""
    rho = F(1, 2)
    assert chord_verified(rho, F(1), F(2), F(0), F(1, 2))  # s = 1/2 <= rho: holds on [1, 2]
    assert not chord_verified(rho, F(1), F(2), F(0), F(3, 2))
    assert not chord_verified(rho, F(2), F(3), F(1), F(3))  # the secant of rho a(a - 1) itself: below inside
    assert chord_verified(rho, F(2), F(3), F(1, 2), F(2))


@pytest.mark.parametrize("rho", [F(1, 3), F(2, 5)])
def test_verdict_agrees_with_a_fine_grid(rho):
    """A grid of alpha (mpmath, 30 digits) never contradicts a certified verdict."""
    p, q = [F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)]
    m = mechanism(respond({"a": [Q(3, 5), Q(2, 5)], "b": [Q(2, 5), Q(3, 5)]}))
    res = _check(m, rho)
    with mpmath.workdps(30):
        worst = max(
            mpmath.log(sum(_mp(x) ** a * _mp(y) ** (1 - a) for x, y in zip(p, q))) / (a - 1) / a
            for a in [1 + mpmath.mpf(k) / 50 for k in range(1, 500)]
        )
    if res.status == HOLDS:
        assert worst <= _mp(rho)
    elif res.status == FAILS:
        assert res.ratio > rho
