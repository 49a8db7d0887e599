"""The ε-BR check (DDR Def. 2.2): frontier algorithm = brute force, Lemma 2.1, known values."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from exactdp.analysis import profile as P
from exactdp.analysis.bounded_range import br_range, br_range_bruteforce, recheck_views
from exactdp.builders import choose, compose, mechanism, respond, rr
from exactdp.builders.exponential import grr
from exactdp.model.ops import count_strategies
from exactdp.numbers import INF, Q, ladder

from .strategies import mechanisms


def _r(m, adv="deterministic"):
    return ladder.text(br_range(m, adversaries=adv).range())


@pytest.mark.parametrize(
    "B,u,expected",
    [(16, 4, "log(16)"), (16, 2, "log(16)"), (16, 1, "0"), (16, 16, "0"), (3, 2, "log(3)")],
    ids=["grr_def B=16 u=4", "u=2", "t=0 degenerate", "t=eps degenerate", "B=3 u=2"],
)
def test_grr_has_range_eps_unless_degenerate(B, u, expected):
    """DDR Def. 2.4: losses t and t - eps, so the range is eps (0 when t = 0 or t = eps)."""
    assert _r(grr(exp_eps=B, exp_t=u)) == expected


def test_rr_is_2eps_br_and_no_better():
    """Lemma 2.1 is tight: RR_eps is eps-DP and exactly 2eps-BR."""
    assert _r(rr(exp_eps=16)) == "log(256)"


def test_visible_coin_mixture_is_not_br():
    """notes §5 br_mixture_not_br: 1/2 RR_(ln16, ln2) + 1/2 RR_(ln16, ln8) with a visible coin
    has range ln 64 = 1.5 eps, PrivLoss(0) = ln 8."""
    a, b = grr(exp_eps=16, exp_t=2), grr(exp_eps=16, exp_t=8)
    mix = mechanism(respond({"h": ([Q(1, 2), Q(1, 2)], a), "t": ([Q(1, 2), Q(1, 2)], b)}))
    assert _r(mix) == "log(64)"
    assert str(P.privloss(mix, 0)) == "log(8)"
    # the adversary choosing between them is eps-BR per deterministic adversary, not per randomized one
    ch = choose({"a": a, "b": b})
    assert _r(ch) == "log(16)"
    assert _r(ch, "randomized") == "log(64)"


def test_impossible_output_gives_infinite_range():
    m = mechanism(respond({"a": [Q(1, 2), Q(0)], "b": [Q(1, 2), Q(1)]}))
    assert br_range(m).range() is INF
    assert not br_range(m).is_br(ladder.mul(Q(1000), br_range(rr(exp_eps=2)).range()))


def test_composition_adds_ranges():
    """Two eps-BR mechanisms in sequence: the range adds up (per deterministic adversary)."""
    assert _r(compose([grr(exp_eps=16, exp_t=4), grr(exp_eps=16, exp_t=2)])) == "log(256)"


def test_witness_views_are_rechecked():
    m = compose([grr(exp_eps=16, exp_t=4), choose({"a": grr(exp_eps=16, exp_t=2), "b": rr(exp_eps=3)})])
    res = br_range(m)
    w = res.worst.witness
    assert recheck_views(m, (0, 1), w.hi_view) == w.p_hi
    assert recheck_views(m, (0, 1), w.lo_view) == w.p_lo
    assert "largest loss" in "\n".join(w.render_lines())


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mechanisms(max_depth=3))
def test_frontier_equals_brute_force(m):
    """The Pareto-frontier backward induction agrees with the definition (every deterministic
    adversary's view distribution), for both readings."""
    if count_strategies(m.root) > 3000:
        return
    for adv in ("deterministic", "randomized"):
        fast, slow = br_range(m, adversaries=adv), br_range_bruteforce(m, adversaries=adv)
        for pf, ps in zip(fast.pairs, slow.pairs):
            assert pf.pair == ps.pair
            assert (pf.ratio is INF and ps.ratio is INF) or pf.ratio == ps.ratio, (adv, pf, ps)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mechanisms(max_depth=3))
def test_lemma_2_1_br_and_dp(m):
    """DDR Lemma 2.1 (per deterministic adversary): PrivLoss(M, 0) <= BR-range <= 2 PrivLoss(M, 0)."""
    rng = br_range(m).range()
    pl = P.privloss(m, 0)
    assert ladder.cmp(pl, rng) <= 0
    if pl is not INF:
        assert rng is not INF
        assert ladder.cmp(rng, ladder.mul(2, pl)) <= 0


MIX_CASE = """\
exactdp: 1
name: mix
mechanisms:
  Lo: {grr: {eps: log(16), t: log(2)}}
  Hi: {grr: {eps: log(16), t: log(8)}}
  M: {respond: {h: {p: [1/2, 1/2], then: Lo}, t: {p: [1/2, 1/2], then: Hi}}}
claims:
  - not_bounded_range: {eps: log(16)}
  - br_range: {equals: log(64)}
  - bounded_range: {eps: log(16)}
  - bounded_range: {eps: log(16), adversaries: sometimes}
"""


def test_claims_report_and_json(tmp_path):
    import json

    from click.testing import CliRunner

    from exactdp.cli import main

    f = tmp_path / "mix.yaml"
    f.write_text(MIX_CASE.replace("  - bounded_range: {eps: log(16), adversaries: sometimes}\n", ""))
    r = CliRunner().invoke(main, ["verify", "-v", str(f)])
    assert r.exit_code == 1, r.output  # the third claim fails, with two views as witness
    assert "✓ M is not log(16)-BR" in r.output
    assert "✗ M is log(16)-BR" in r.output
    assert "largest loss: t, 0" in r.output and "smallest loss: h, 1" in r.output
    r = CliRunner().invoke(main, ["verify", "--json", str(f)])
    data = json.loads(r.output)
    w = data["files"][0]["claims"][0]["witness"]
    assert w["kind"] == "bounded_range" and w["range"] == "log(64)"
    r = CliRunner().invoke(main, ["verify", "-v", "--engine", "enumerator", str(f)])
    assert r.exit_code == 1 and "BR-range = log(64)" in r.output


def test_bad_adversaries_value_is_located(tmp_path):
    from exactdp.caseio import parse_case
    from exactdp.errors import CaseError

    with pytest.raises(CaseError) as e:
        parse_case(MIX_CASE, "mix.yaml")
    msg = e.value.render()
    assert "mix.yaml:11:48:" in msg and "adversaries must be one of deterministic, randomized" in msg
