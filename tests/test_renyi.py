"""Rényi divergences of interactive mechanisms (exactdp.analysis.renyi).

Engine agreement (backward induction = brute force) is in tests/test_engines.py; here: known
answers by hand, properties from the literature (monotone in the order: van Erven & Harremoës
2014, Thm 3; additivity for products: Mironov 2017, Prop. 1; D_inf = PrivLoss(M, 0)), decimal
eps, and the refusals.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from exactdp.analysis import make_engine, profile
from exactdp.analysis.renyi import parse_alpha, renyi
from exactdp.builders import compose, concomp, rr
from exactdp.claims import UNDECIDED
from exactdp.errors import ExactDPError
from exactdp.numbers import INF, Q, ladder
from exactdp.numbers.qt import qt_exp
from exactdp.report.verdicts import shown

from .strategies import mechanisms


def test_known_values_rr3():
    """RR with e^eps = 3 (Vadhan-Wang Def. 1.9): P = (3/4, 1/4), P' = (1/4, 3/4).
    alpha = 4: (81/256)/(1/64) + (1/256)/(27/64) = 81/4 + 1/108 = 547/27."""
    assert ladder.text(renyi(rr(exp_eps=3), 4).value) == "log(547/27)/3"


def test_asymmetric_pair_takes_the_worse_order():
    """P = (1/2, 1/2) under x0, (1/4, 3/4) under x1: sum for (x0, x1) at alpha 2 is
    (1/4)/(1/4) + (1/4)/(3/4) = 4/3; for (x1, x0): (1/16)/(1/2) + (9/16)/(1/2) = 5/4."""
    from exactdp.builders import mechanism, respond

    m = mechanism(respond({"a": [Q(1, 2), Q(1, 4)], "b": [Q(1, 2), Q(3, 4)]}))
    res = renyi(m, 2)
    assert [p.total for p in res.pairs] == [Q(4, 3), Q(5, 4)]
    assert ladder.text(res.value) == "log(4/3)" and res.worst_pair().pair == ("x0", "x1")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(m=mechanisms(max_depth=3))
def test_monotone_in_the_order_and_inf_is_privloss(m):
    values = [renyi(m, a).value for a in (1, 2, 3, 4)] + [renyi(m, "inf").value]
    for lo, hi in zip(values, values[1:]):
        assert hi is INF or (lo is not INF and ladder.cmp(lo, hi) <= 0)
    assert values[-1] == profile.privloss(m, Q(0))


@pytest.mark.parametrize("alpha", [1, 2, 3])
def test_products_add(alpha):
    """Mironov 2017, Prop. 1: for noninteractive components with the same worst pair the
    divergence of the composition is the sum (sequential and concurrent alike)."""
    parts = ladder.add(renyi(rr(exp_eps=2), alpha).value, renyi(rr(exp_eps=3), alpha).value)
    assert ladder.cmp(renyi(compose([rr(exp_eps=2), rr(exp_eps=3)]), alpha).value, parts) == 0
    assert ladder.cmp(renyi(concomp([rr(exp_eps=2), rr(exp_eps=3)]), alpha).value, parts) == 0


def test_decimal_eps():
    """RR with e^eps = t = e^(1/10) in Q(e^(1/10)): sum at alpha 2 is (t^3 + 1)/(t(t + 1)) =
    (t^2 - t + 1)/t, exact in the field; alpha 3 is log((t^4 - t^3 + t^2 - t + 1)/t^2)/2 and KL
    is (1/10)(t - 1)/(t + 1), both exact (tests/test_renyi_decimal.py checks them further)."""
    t = qt_exp(1, Q(1, 10))
    m = rr(exp_eps=t)
    s = renyi(m, 2).pairs[0].total
    assert s == (t * t - t + 1) / t
    assert renyi(m, 3).pairs[0].total == (t**4 - t**3 + t**2 - t + 1) / t**2
    assert ladder.cmp(renyi(m, 1).value, Q(1, 10) * (t - 1) / (t + 1)) == 0


@pytest.mark.parametrize("bad", [Q(3, 2), Q(0), Q(-2), "two"])
def test_orders_refused(bad):
    with pytest.raises(ExactDPError, match="alpha"):
        parse_alpha(bad)


def test_engine_protocol_has_renyi():
    for name in ("profile", "enumerator"):
        assert ladder.text(make_engine(name).renyi(rr(exp_eps=3), 2).value) == "log(7/3)"


def test_a_huge_order_is_refused_by_the_size_limit_not_computed():
    """p^alpha for alpha = 10^6 would be a number of millions of bits (and its log basis minutes
    of gcds): refused before it is built, naming --max-bits."""
    from exactdp.limits import DEFAULT
    from exactdp.verify import Options, verify_text

    text = (
        "exactdp: 1\nname: big\nmechanism: {rr: {eps: log(3)}}\nclaims:\n  - renyi: {alpha: 1000000, at_most: log(3)}\n"
    )
    fr = verify_text(text, "big.yaml", Options(limits=DEFAULT.replace(timeout=60)))
    (v,) = fr.verdicts
    assert v.status == UNDECIDED and "--max-bits" in shown(v).note and "Renyi sum" in shown(v).note, shown(v).note


def test_a_large_order_prints_its_value():
    """alpha = 10^4: the value log(S)/9999 has a base of thousands of digits, printed exactly
    (it raised Python's 4,300-digit limit for int-to-text)."""
    res = renyi(rr(eps="log(3)"), 10_000)
    text = ladder.text(res.value)
    assert text.startswith("-log(3) + 1/9999*log(") and len(text) > 4300
