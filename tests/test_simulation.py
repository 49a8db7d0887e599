"""Theorem 1.10's post-processor T, the approximate-DP LP, Lemma 5.6 and their exact checks."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp import Q, exact, mechanism, repeat, respond, rr, rr_delta
from exactdp.analysis import profile as profile_engine
from exactdp.builders import ask
from exactdp.errors import InexactValueError, VerificationError
from exactdp.numbers import ladder
from exactdp.simulation.approx import ApproxCertificate, approx_postprocessor
from exactdp.simulation.common import enumerator_check, expand, verify_postprocessor
from exactdp.simulation.lemma56 import lemma56_postprocessor
from exactdp.simulation.lp import Feasible, LinearSystem, certified, check_farkas, check_point, solve
from exactdp.simulation.pure import PureCertificate, pure_postprocessor
from exactdp.simulation.simulate import simulate

from .strategies import mechanisms

RR3 = {"0": [Q(3, 4), Q(1, 4)], "1": [Q(1, 4), Q(3, 4)]}
COIN = {"0": [Q(1, 2)] * 2, "1": [Q(1, 2)] * 2}


def figure1():
    """Vadhan-Wang Fig. 1 instance: a free coin a0, then q1 = a0 is answered by RR_(log 3)."""
    return mechanism(
        respond({"0": ([Q(1, 2)] * 2, ask({"0": RR3, "1": COIN})), "1": ([Q(1, 2)] * 2, ask({"0": COIN, "1": RR3}))})
    )


def three_round():
    """A 3-round interactive mechanism: RR_(log 2) answers, the adversary picks the next query."""
    leaf = ask(
        {
            "a": {"0": [Q(2, 3), Q(1, 3)], "1": [Q(1, 3), Q(2, 3)]},
            "b": {"0": [Q(1, 2), Q(1, 2)], "1": [Q(1, 2), Q(1, 2)]},
        }
    )
    mid = ask({"a": respond({"0": ([Q(2, 3), Q(1, 3)], leaf), "1": ([Q(1, 3), Q(2, 3)], leaf)})})
    return mechanism(respond({"0": ([Q(1, 2), Q(1, 2)], mid), "1": ([Q(1, 2), Q(1, 2)], mid)}))


# --- pure case: known answers -------------------------------------------------------------------


def test_notes_R10_two_rr_ln2_target_E4():
    """notes-continual-mechanisms §4 / R10: 2x RR_(ln 2), E = 4: Q0 = (5/9, 2/9, 2/9, 0),
    T-conditionals 7/9, 5/7, 1."""
    M = repeat(rr(exp_eps=Q(2)), 2)
    pp = pure_postprocessor(M, (0, 1), Q(4))
    assert [pp.paths[0][h.index] for h in pp.hist.hists if len(h.path) == 2] == [Q(5, 9), Q(2, 9), Q(2, 9), Q(0)]
    assert pp.cond[0][0][0] == Q(7, 9)
    assert pp.cond[0][1][0] == Q(5, 7)
    assert pp.cond[0][2][0] == Q(1)
    res = verify_postprocessor(pp)
    assert res.ok and res.n_histories == 6
    assert enumerator_check(pp) == ("ok", 1)


def test_vw_thm110_rr_simulates_itself_with_identity():
    pp = pure_postprocessor(rr(exp_eps=Q(3)), (0, 1), Q(3))
    assert pp.cond == [[(Q(1), Q(0))], [(Q(0), Q(1))]]


def test_vw_thm110_figure1_interactive_T_and_enumerator():
    pp = pure_postprocessor(figure1(), (0, 1), Q(3))
    res = verify_postprocessor(pp)
    assert res.ok and res.n_rounds == 5
    assert enumerator_check(pp) == ("ok", 4)


def test_three_round_mechanism():
    M = three_round()
    sim = simulate(M)
    assert sim.exists and sim.pairs[0].check.n_rounds == 1 + 2 + 2 * 4  # a0; (a0, q=a); (a0, a1, q in {a, b})
    assert sim.pairs[0].enumerator == "ok" and sim.pairs[0].adversaries == 16


def test_counter_certificate_first_history():
    """eps below PrivLoss(M, 0): the first history with e^eps P_x(h) < P_x'(h)."""
    M = repeat(rr(exp_eps=Q(2)), 2)
    cert = pure_postprocessor(M, (0, 1), Q(3))
    assert isinstance(cert, PureCertificate)
    assert [lab for _, lab in cert.path] == ["0", "0"]
    assert (cert.x, cert.x_prime, cert.p_x, cert.p_x_prime) == ("x1", "x0", Q(1, 9), Q(4, 9))
    assert cert.E * cert.p_x < cert.p_x_prime


def test_eps_zero_identical_distributions():
    M = mechanism(respond({"a": [Q(1, 3), Q(1, 3)], "b": [Q(2, 3), Q(2, 3)]}))
    pp = pure_postprocessor(M, (0, 1), Q(1))
    assert pp.cond[0] == pp.cond[1] == [(Q(1, 3), Q(2, 3))]
    assert verify_postprocessor(pp).ok
    cert = pure_postprocessor(rr(exp_eps=Q(2)), (0, 1), Q(1))
    assert isinstance(cert, PureCertificate) and cert.p_x < cert.p_x_prime


def test_unreached_rounds_are_free_and_said_so():
    """RR_E with E = PrivLoss: T(0) never answers 1, so the rounds after it are free."""
    inner = ask({"q": {"0": [Q(1, 2), Q(1, 2)], "1": [Q(1, 2), Q(1, 2)]}})
    M = mechanism(respond({"0": ([Q(3, 4), Q(1, 4)], inner), "1": ([Q(1, 4), Q(3, 4)], inner)}))
    pp = pure_postprocessor(M, (0, 1), Q(3))
    assert pp.free and any("free" in n for n in pp.notes)
    assert verify_postprocessor(pp).ok


def test_transcendental_eps_is_refused():
    with pytest.raises(InexactValueError, match="log"):
        simulate(rr(exp_eps=Q(3)), eps=Q(1, 10))


# --- the checks can fail ---------------------------------------------------------------------------


def test_tampered_T_fails_validity_and_mixture():
    pp = pure_postprocessor(repeat(rr(exp_eps=Q(2)), 2), (0, 1), Q(4))
    pp.cond[0][1] = (Q(6, 7), Q(1, 7))  # still a distribution, wrong T
    res = verify_postprocessor(pp)
    assert res.valid and not res.mixture
    pp.cond[0][1] = (Q(8, 7), Q(-1, 7))
    assert not verify_postprocessor(pp).valid


def test_inconsistent_path_measures_are_caught():
    pp = pure_postprocessor(figure1(), (0, 1), Q(3))
    pp.paths[0][pp.hist.occs[1].answers[0]] += Q(1, 10)
    res = verify_postprocessor(pp)
    assert not res.consistent


def test_enumerator_check_catches_a_wrong_T():
    pp = pure_postprocessor(figure1(), (0, 1), Q(3))
    pp.cond[1][1] = (Q(1, 2), Q(1, 2))
    with pytest.raises(VerificationError):
        enumerator_check(pp)


# --- the LP solver and its certificates --------------------------------------------------------


@st.composite
def small_systems(draw):
    s = LinearSystem()
    n = draw(st.integers(1, 4))
    xs = [s.var(k) for k in range(n)]
    for _ in range(draw(st.integers(1, 5))):
        coefs = {x: Q(draw(st.integers(-3, 3))) for x in xs}
        s.add(coefs, draw(st.sampled_from(["=", "<="])), Q(draw(st.integers(-4, 4)), draw(st.integers(1, 3))))
    return s


@settings(max_examples=150, deadline=None)
@given(small_systems())
def test_lp_answers_come_with_valid_certificates(s):
    ans = solve(s)
    if isinstance(ans, Feasible):
        assert check_point(s, ans.x) == []
    else:
        assert check_farkas(s, ans.multipliers) == []


def test_bad_certificates_are_rejected():
    s = LinearSystem()
    x = s.var("x")
    s.add({x: 1}, "<=", 1)
    assert check_point(s, [Q(2)]) and check_farkas(s, [Q(1)])
    assert isinstance(certified(s), Feasible)


# --- approximate case ------------------------------------------------------------------------------


def test_rr_delta_simulates_itself():
    pp = approx_postprocessor(rr_delta(exp_eps=Q(3), delta=Q(1, 10)), (0, 1), Q(3), Q(1, 10))
    assert [row[0] for row in pp.cond] == [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)]
    assert verify_postprocessor(pp).ok and enumerator_check(pp)[0] == "ok"


def test_lp_at_delta_zero_equals_the_unique_pure_T():
    M = figure1()
    pure = pure_postprocessor(M, (0, 1), Q(3))
    s = simulate(M, eps=exact("log(3)"), delta=Q(0), construction="lp")
    assert s.pairs[0].T.cond[1:3] == pure.cond


def test_vw_section6_figure1_approximate():
    M = figure1()
    assert simulate(M, eps=exact("log(2)"), delta=Q(1, 4)).exists
    s = simulate(M, eps=exact("log(2)"), delta=Q(1, 5))
    cert = s.pairs[0].certificate
    assert isinstance(cert, ApproxCertificate) and check_farkas(cert.system, cert.multipliers) == []


def _pair_dp(M, pair, E, delta) -> bool:
    prof = profile_engine.profile(M)
    a, b = M.pair_names(pair)
    hulls = {pp.pair: pp.hull for pp in prof.pairs}
    return max(hulls[(a, b)].value_at(E), hulls[(b, a)].value_at(E)) <= delta


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mechanisms(max_depth=3, combinators=False),
    st.sampled_from([Q(1), Q(3, 2), Q(2), Q(4)]),
    st.sampled_from([Q(0), Q(1, 10), Q(1, 4), Q(1, 2), Q(1)]),
)
def test_feasible_iff_eps_delta_dp(M, E, delta):
    """Lyu 2022 / Vadhan-Zhang 2023: T exists iff the pair is (eps, delta)-DP; every T found
    passes the exact checks and every 'no' carries a checked certificate."""
    sim = simulate(M, eps=ladder.log(E) if E != 1 else Q(0), delta=delta, cross_check=False)
    for pr in sim.pairs:
        assert pr.exists == _pair_dp(M, pr.pair, E, delta)
        if pr.exists:
            assert pr.check.ok
        else:
            assert pr.certificate is not None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mechanisms(max_depth=3, combinators=False),
    st.sampled_from([Q(3, 2), Q(2), Q(4)]),
    st.sampled_from([Q(1, 10), Q(1, 4), Q(1, 2)]),
)
def test_lemma56_succeeds_iff_dp(M, E, delta):
    """Henzinger-Safavi-Vadhan Lemma 5.6 (reconstructed): the leak LP is feasible whenever the
    pair is (eps, delta)-DP, T checks, and adversaries with identical views trigger one IRR call."""
    pair = M.adjacent[0]
    out = lemma56_postprocessor(M, pair, E, delta)
    assert (not isinstance(out, ApproxCertificate)) == _pair_dp(M, pair, E, delta)
    if not isinstance(out, ApproxCertificate):
        assert verify_postprocessor(out).ok
        assert out.extra["one_call_violations"] == []


def test_pure_certificate_is_rechecked_independently():
    from exactdp.simulation.common import RationalField
    from exactdp.simulation.pure import check_pure_certificate

    M = repeat(rr(exp_eps=Q(2)), 2)
    cert = pure_postprocessor(M, (0, 1), Q(3))
    check_pure_certificate(M, cert, RationalField())
    cert.p_x = Q(1, 3)
    with pytest.raises(VerificationError):
        check_pure_certificate(M, cert, RationalField())


def test_history_limit():
    from exactdp.errors import LimitExceededError

    with pytest.raises(LimitExceededError, match="max-histories"):
        expand(repeat(rr(exp_eps=Q(2)), 12), max_histories=1000)
