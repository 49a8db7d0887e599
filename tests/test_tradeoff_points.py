"""Trade-off points and the tests attaining every vertex (exactdp.analysis.tradeoff_points)."""

from __future__ import annotations

from hypothesis import given, settings

from exactdp.analysis import profile as engine
from exactdp.analysis.tradeoff import envelope_tradeoff
from exactdp.analysis.tradeoff_points import tradeoff_point, vertex_tests
from exactdp.builders import rr
from exactdp.numbers import Q, eval_text
from exactdp.verify import verify_text

from .strategies import mechanisms


@settings(max_examples=40, deadline=None)
@given(mechanisms(max_depth=3))
def test_every_vertex_is_attained_by_its_test(mech):
    """The recomputed (P_x'(T), 1 - P_x(T)) of each vertex's witness is the vertex (two
    computations: the chain and the forward walk)."""
    prof = engine.profile(mech)
    t = envelope_tradeoff(prof)
    tests = vertex_tests(mech, prof)
    assert [(v.alpha, v.beta) for v in tests] == list(t.vertices)
    for vt in tests:
        if vt.witness is not None:
            assert vt.witness.p_prime == vt.alpha and 1 - vt.witness.p == vt.beta


@settings(max_examples=40, deadline=None)
@given(mechanisms(max_depth=3))
def test_every_threshold_in_a_vertex_range_selects_it(mech):
    """The note on a vertex's witness says every e^eps between the slopes of its edges selects
    it: at such a lam the envelope's delta(lam) is the vertex's (1 - beta) - lam alpha (the line
    through the vertex), checked at points inside the range against the profile's own delta."""
    prof = engine.profile(mech)
    for vt in vertex_tests(mech, prof):
        if vt.between is None or vt.witness is None:
            continue
        lo, hi = vt.between
        assert lo < vt.lam and (hi is None or vt.lam < hi)
        inside = [lo + 1, 2 * lo + 3] if hi is None else [lo + (hi - lo) / 3, lo + 2 * (hi - lo) / 3]
        for lam in inside:
            assert prof.delta_at_lambda(lam) == (1 - vt.beta) - lam * vt.alpha
        assert "selects this vertex" in vt.threshold_note()


@settings(max_examples=30, deadline=None)
@given(mechanisms(max_depth=3))
def test_points_interpolate(mech):
    prof = engine.profile(mech)
    t = envelope_tradeoff(prof)
    for a in (Q(0), Q(1, 7), Q(1, 2), Q(1)):
        pt = tradeoff_point(mech, prof, a)
        assert pt.value == t.value_at(a)
        right = pt.right.beta if pt.right is not None else pt.left.beta
        assert pt.value == (1 - pt.theta) * pt.left.beta + pt.theta * right


def test_rr_point_and_claim():
    """RR with e^eps = 3: T(alpha) = 1 - 3 alpha for alpha <= 1/4 (Dong-Roth-Su 2022, Eq. of f_eps,0)."""
    m = rr(exp_eps=3)
    assert tradeoff_point(m, engine.profile(m), Q(1, 8)).value == Q(5, 8)
    fr = verify_text(
        "exactdp: 1\nname: t\nmechanism: {rr: {eps: log(3)}}\nclaims:\n"
        "  - tradeoff: {alpha: 1/8, equals: 5/8}\n  - tradeoff: {alpha: 1/8, at_least: 0.6}\n"
        "  - tradeoff: {alpha: 1/8, at_most: 0.6}\n"
    )
    assert [v.status for v in fr.verdicts] == ["holds", "holds", "fails"]
    assert fr.verdicts[0].witness.parts  # the test attaining it is shown


def test_field_point():
    m = rr(eps="1/2")
    a = eval_text("1/(1 + exp(1/2))")
    assert tradeoff_point(m, engine.profile(m), a).value == a
