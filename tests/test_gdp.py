"""Gaussian DP decided by certified intervals (exactdp.analysis.gdp).

Known answer, by hand from Dong-Roth-Su 2022, Def. 2.6: RR with e^eps = 3 has trade-off
vertex (1/4, 1/4), so it is mu-GDP iff Phi(Phi^-1(3/4) - mu) <= 1/4, i.e. mu >= 2 Phi^-1(3/4)
= 1.34898... .  The interval enclosures are checked against mpmath at 50 digits (independent
library, display precision only).
"""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile
from exactdp.analysis.gdp import FAILS, HOLDS, UNDECIDED, check_gdp, gaussian_tradeoff_ball
from exactdp.analysis.tradeoff import Tradeoff, envelope_tradeoff
from exactdp.builders import rr
from exactdp.numbers import Q


@pytest.mark.parametrize(
    "mu, status",
    [
        (Q(27, 20), HOLDS),
        (Q(135, 100), HOLDS),
        (Q(1349, 1000), HOLDS),
        (Q(1348, 1000), FAILS),
        (Q(67, 50), FAILS),
        (Q(1), FAILS),
    ],
)
def test_rr3_threshold_is_two_phi_inverse_three_quarters(mu, status):
    assert check_gdp(envelope_tradeoff(profile.profile(rr(exp_eps=3))), mu).status == status


def test_mass_impossible_under_the_neighbour_is_never_gdp():
    """T(0) = 1 - delta < 1 = G_mu(0): RR_(eps, delta) with delta > 0 is not mu-GDP for any mu."""
    res = check_gdp(envelope_tradeoff(profile.profile(rr(exp_eps=3, delta=Q(1, 10)))), Q(100))
    assert res.status == FAILS and res.vertex == (0, Q(9, 10))


def test_a_vertex_on_g_mu_is_undecided_not_guessed():
    """G_0(alpha) = 1 - alpha: the vertex (1/2, 1/2) lies exactly on it; intervals never separate."""
    t = Tradeoff("T", ((Q(0), Q(1)), (Q(1, 2), Q(1, 2)), (Q(1), Q(0))))
    res = check_gdp(t, Q(0))
    assert res.status == UNDECIDED and res.vertex == (Q(1, 2), Q(1, 2))


def test_perfect_privacy_is_0_gdp():
    assert check_gdp(envelope_tradeoff(profile.profile(rr(exp_eps=1))), Q(0)).status == HOLDS


@settings(max_examples=60, deadline=None)
@given(
    a=st.fractions(min_value=Q(1, 1000), max_value=Q(999, 1000), max_denominator=1000),
    mu=st.fractions(min_value=0, max_value=5, max_denominator=100),
)
def test_ball_contains_the_value(a, mu):
    ball = gaussian_tradeoff_ball(Q(a.numerator, a.denominator), Q(mu.numerator, mu.denominator), 80)
    with mpmath.workdps(50):
        z = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(a.numerator) / a.denominator)  # Phi^-1(1 - a)
        g = mpmath.ncdf(z - mpmath.mpf(mu.numerator) / mu.denominator)
    lo, hi = ball.lower(), ball.upper()
    assert (
        mpmath.mpf(lo.str(30, radius=False)) - mpmath.mpf(10) ** -20
        <= g
        <= mpmath.mpf(hi.str(30, radius=False)) + mpmath.mpf(10) ** -20
    )


@pytest.mark.parametrize("mu, status", [(Q(6238, 10000), FAILS), (Q(6239, 10000), HOLDS), (Q(1), HOLDS)])
def test_decimal_eps_vertex_in_the_field_is_decided_by_balls(mu, status):
    """RR with eps = 0.5 (a decimal): T's kink alpha = beta = 1/(1 + e^(1/2)) lies in Q(e^(1/2)), not Q.
    As for RR3 above, mu-GDP iff mu >= 2 Phi^-1(e^(1/2)/(1 + e^(1/2))) = 0.6238925920... (mpmath below)."""
    with mpmath.workdps(30):
        e = mpmath.exp(mpmath.mpf(1) / 2)
        threshold = 2 * mpmath.sqrt(2) * mpmath.erfinv(2 * e / (1 + e) - 1)
    assert mpmath.mpf("0.6238") < threshold < mpmath.mpf("0.6239")
    res = check_gdp(envelope_tradeoff(profile.profile(rr(eps="0.5"))), mu)
    assert res.status == status and res.vertex is not None and res.vertex[0] == res.vertex[1]


def test_a_huge_mu_reads_as_a_bound_not_as_a_zero_mantissa():
    """G_mu(1/4) for mu = 10^6 is about 10^-217146946747: a ball around 0 at any useful
    precision; the verdict is certified, and the reading says what the ball shows."""
    from exactdp.analysis import profile as profile_engine
    from exactdp.analysis.gdp import HOLDS, check_gdp
    from exactdp.analysis.tradeoff import envelope_tradeoff

    res = check_gdp(envelope_tradeoff(profile_engine.profile(rr(eps="log(3)"))), Q(10**6))
    assert res.status == HOLDS and res.g.startswith("0 (below 4.8e-217146946747")
