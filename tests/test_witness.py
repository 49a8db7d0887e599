"""Witnesses: both engines' adversaries achieve the profile; the re-check is independent and strict."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator, make_engine, profile
from exactdp.analysis.witness import HistoryPolicy, make_witness, recheck
from exactdp.builders import choose, repeat, rr
from exactdp.errors import VerificationError
from exactdp.model import count_strategies
from exactdp.numbers import Infinity, Q, eval_text, ladder

from .strategies import mechanisms


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=mechanisms())
def test_witnesses_attain_the_profile(m):
    if count_strategies(m.root) > 2000:
        return
    prof = profile.profile(m)
    for lam in [Q(1), Q(2)] + [l for l, _ in prof.breakpoints()][:3]:
        eps = ladder.log(lam)
        target = prof.delta_at_lambda(lam)
        w1 = profile.witness(m, eps, prof=prof)
        w2 = enumerator.witness(m, eps)
        assert w1.excess() == target == w2.excess()
        # the printed probabilities are the forward re-computation
        assert recheck(m, w1.pair, lam, w1.policy)[:2] == (w1.p, w1.p_prime)


def test_witness_for_rr():
    w = profile.witness(rr(exp_eps=3), eval_text("log(2)"))
    assert (w.p, w.p_prime) == (Q(3, 4), Q(1, 4))
    assert w.excess() == Q(1, 4)
    views, cut = w.event()
    assert [v for v, _, _ in views] == ["0"] and not cut


def test_adaptive_witness_strategy_is_readable():
    m = repeat(choose({"a": rr(exp_eps=2), "b": rr(exp_eps=4)}), 2)
    w = profile.witness(m, eval_text("log(2)"))  # at e^eps = 2 the stronger RR wins strictly
    lines, _ = w.decision_tree()
    assert lines[0] == "after (start): choose b"
    assert any(l.startswith("after b→0:") for l in lines)


def test_tampered_witness_is_rejected():
    m = repeat(choose({"a": rr(exp_eps=2), "b": rr(exp_eps=4)}), 2)
    bad_policy = HistoryPolicy({(): 0})  # always the weaker option
    with pytest.raises(VerificationError, match="re-check failed"):
        make_witness(m, (0, 1), Q(1), bad_policy, "test", expected_line=(Q(1), Q(0)))


def test_irrational_lambda_witness():
    """A decimal eps gives a transcendental e^eps; the witness comparison stays exact."""
    w = profile.witness(rr(exp_eps=3), eval_text("1/10"))
    assert (w.p, w.p_prime) == (Q(3, 4), Q(1, 4))
    assert str(w.excess()) == "-(exp(1/10) - 3)/4"  # 3/4 - e^(1/10)/4, an element of Q(e^(1/10))


def test_history_text():
    from exactdp.analysis.witness import format_history

    assert format_history(()) == "(start)"
    assert format_history((("q", "q0"), ("a", "yes"), ("q", "q1"))) == "q0→yes, q1"
    assert format_history((("a", "k0"), ("q", "g0"), ("a", "x"))) == "k0, g0→x"
    assert format_history((("q", "create"), ("q", "create"), ("q", "1"), ("a", "0"))) == "create, create, 1→0"


# --- tightness certificates (PrivLoss = log λ*: every smaller eps fails) --------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    m=mechanisms(max_depth=3),
    delta=st.sampled_from([Q(0), Q(1, 100), Q(1, 7), Q(1, 3)]),
    engine=st.sampled_from(["profile", "enumerator"]),
)
def test_privloss_witness_is_stated_at_lambda_star(m, delta, engine):
    """The --witness of PrivLoss(M, δ) = log λ* is an adversary and event with
    P(T) − λ*·P'(T) ≥ δ and P'(T) > 0 (or P'(T) = 0 < δ < P(T) for λ* = ∞), re-checked."""
    from exactdp.analysis.witness import recheck

    eng = make_engine(engine, max_strategies=2000)
    if not eng.supports(m):
        eng = make_engine("profile")
    prof = eng.profile(m)
    lam_star = prof.least_lambda(delta)
    w = eng.privloss_witness(m, delta, prof)
    if lam_star == 1:
        assert w is None
        return
    lam_star_w, delta_w = w.tight
    assert lam_star_w == lam_star and delta_w == delta
    p, pp, _ = recheck(m, w.pair, w.lam, w.policy)  # independent forward walk
    assert (p, pp) == (w.p, w.p_prime)
    if isinstance(lam_star, Infinity):
        assert pp == 0 and p > delta
    else:
        assert pp > 0 and p - lam_star * pp >= delta
        # hence strictly more than delta for every smaller lambda, e.g. halfway down to 1
        lam = (lam_star + 1) / 2
        assert p - lam * pp > delta
