"""The sparse vector technique: history probabilities = brute force over the hidden noise; variants."""

from __future__ import annotations

import itertools
import textwrap
from fractions import Fraction as F

import pytest

import exactdp
from exactdp.analysis import profile as P
from exactdp.builders.classic import discrete_laplace, finite_noise, geometric_noise
from exactdp.builders.svt import ABOVE, BELOW, SVT, lyu_variant, sparse_vector
from exactdp.caseio import parse_case
from exactdp.errors import CaseError, InvalidMechanismError
from exactdp.model import Ask, Chance
from exactdp.numbers import INF, Q, ladder

MENU = (("up", (0, 1)), ("down", (1, 0)), ("low", (0, 0)), ("high", (1, 1)))


def fr(q) -> F:
    return F(int(q.numerator), int(q.denominator))


def dag_prob(m, d, history):
    """Probability under dataset d of a history [(query, answer), ...] by walking the DAG."""
    node, p = m.root, F(1)
    for q, a in history:
        assert isinstance(node, Ask)
        node = node.children[node.labels.index(q)]
        assert isinstance(node, Chance), node
        k = node.labels.index(a)
        p *= fr(node.probs[k][d])
        node = node.children[k]
    return p, node


def brute_prob(spec: SVT, d, history, rho_values, nu_values):
    """The same probability from the definition: sum over the threshold noise (and its resamples)
    and the query noise, given explicit (possibly truncated) value lists [(z, Pr)]."""
    T = F(spec.threshold)
    cache: dict = {}

    def answer_prob(rho, q, a):
        key = (rho, q, a)
        if key not in cache:
            cache[key] = _answer_prob(rho, q, a)
        return cache[key]

    def _answer_prob(rho, q, a):
        val = F(dict(spec.menu)[q][d])
        total = F(0)
        for z, pz in nu_values if spec.query_noise is not None else [(0, F(1))]:
            above = val + z >= T + rho
            if spec.release is None:
                ok = above if a == ABOVE else not above
            elif a == BELOW:
                ok = not above
            else:
                lo, hi = spec.release
                ok = above and int(a.split("=")[1]) == min(max(val + z, lo), hi)
            if ok:
                total += pz
        return total

    def rec(i, rho):
        if i == len(history):
            return F(1)
        q, a = history[i]
        p = answer_prob(rho, q, a)
        if not p:
            return F(0)
        if a != BELOW and spec.resample_noise is not None:
            return p * sum(pr * rec(i + 1, r2) for r2, pr in rho_values)
        return p * rec(i + 1, rho)

    return sum(pr * rec(0, r) for r, pr in rho_values)


def finite_values(noise):
    return [(z, fr(p)) for z, p in noise.pmf]


def histories(spec, length):
    answers = (
        [BELOW, ABOVE]
        if spec.release is None
        else [BELOW] + [f"{ABOVE}={v}" for v in range(spec.release[0], spec.release[1] + 1)]
    )
    for qs in itertools.product([q for q, _ in spec.menu], repeat=length):
        for ans in itertools.product(answers, repeat=length):
            yield list(zip(qs, ans))


def _consistent(spec, hist):
    """The mechanism has not halted before the last step of hist."""
    if spec.halt_after is None:
        return True
    ups = 0
    for _q, a in hist[:-1]:
        ups += a != BELOW
        if ups >= spec.halt_after:
            return False
    return True


@pytest.mark.parametrize(
    "name,spec",
    [
        ("alg1 finite", SVT(MENU, Q(0), geometric_noise(Q(1, 4), 2), geometric_noise(Q(1, 2), 3), 1, 3)),
        (
            "c=2 resample",
            SVT(
                MENU,
                Q(1),
                geometric_noise(Q(1, 3), 2),
                geometric_noise(Q(1, 2), 2),
                2,
                3,
                resample_noise=geometric_noise(Q(1, 3), 2),
            ),
        ),
        (
            "no query noise, never halts",
            SVT(MENU, Q(0), finite_noise({-1: Q(1, 4), 0: Q(1, 2), 1: Q(1, 4)}), None, None, 3),
        ),
        ("release", SVT(MENU, Q(0), geometric_noise(Q(1, 4), 2), geometric_noise(Q(1, 2), 2), 1, 2, release=(-1, 2))),
        (
            "rational threshold",
            SVT(MENU, Q(1, 2), geometric_noise(Q(1, 2), 1), finite_noise({0: Q(1, 3), 1: Q(2, 3)}), 2, 3),
        ),
    ],
)
def test_finite_noise_history_probabilities_equal_brute_force(name, spec):
    m = sparse_vector(spec)
    rho = finite_values(spec.threshold_noise)
    nu = finite_values(spec.query_noise) if spec.query_noise is not None else []
    for length in range(1, spec.horizon + 1):
        for hist in histories(spec, length):
            if not _consistent(spec, hist):
                continue
            for d in range(2):
                got, _ = dag_prob(m, d, hist)
                assert got == brute_prob(spec, d, hist, rho, nu), (name, hist, d)


def _truncated(noise, R):
    return [(z, fr(noise.prob(z))) for z in range(-R, R + 1)]


@pytest.mark.parametrize("variant,kw", [("alg1", {}), ("alg4", {}), ("alg3", {"release": (-2, 3)}), ("alg6", {})])
def test_infinite_noise_closed_form_equals_truncated_sums(variant, kw):
    """Infinite-support noise: the closed-form tail sums agree with plain summation over |z| <= R up
    to the probability mass outside [-R, R] (an explicit bound, far below any difference that matters)."""
    spec = lyu_variant(variant, exp_eps=16, menu=MENU[:2], horizon=2, **kw)
    m = sparse_vector(spec)
    R = 30
    rho, nu = _truncated(spec.threshold_noise, R), _truncated(spec.query_noise, R)
    a_max = max(spec.threshold_noise.alpha, spec.query_noise.alpha)
    bound = 10 * fr(a_max) ** R  # (1 + horizon) variables, each with outside mass < 2 a^R/(1-a) <= 4 a^R
    for hist in histories(spec, 2):
        if not _consistent(spec, hist):
            continue
        for d in range(2):
            got, _ = dag_prob(m, d, hist)
            assert abs(got - brute_prob(spec, d, hist, rho, nu)) <= bound, (hist, d)


def test_lyu_parameters():
    s1 = lyu_variant("alg1", exp_eps=16, menu=MENU)
    assert (s1.threshold_noise.alpha, s1.query_noise.alpha, s1.halt_after) == (Q(1, 4), Q(1, 2), 1)
    s4 = lyu_variant("alg4", exp_eps=16, menu=MENU)
    assert (s4.threshold_noise.alpha, s4.query_noise.alpha) == (Q(1, 2), Q(1, 8))
    s2 = lyu_variant("alg2", exp_eps=256, menu=MENU, c=2)
    assert s2.resample_noise == s2.threshold_noise and s2.query_noise.alpha == Q(1, 2)
    s5 = lyu_variant("alg5", exp_eps=16, menu=MENU)
    assert s5.query_noise is None and s5.halt_after is None
    w = lyu_variant("alg1", exp_eps=16, menu=MENU, width=3)
    assert w.threshold_noise.finite and w.threshold_noise.support() == (-3, 3)
    with pytest.raises(InvalidMechanismError, match="irrational"):
        lyu_variant("alg1", exp_eps=2, menu=MENU)
    with pytest.raises(InvalidMechanismError, match="release"):
        lyu_variant("alg3", exp_eps=16, menu=MENU)


def test_verdicts_match_the_literature_on_short_horizons():
    """Lyu et al.: Alg1 eps-DP; Alg4 ((1+6c)/4)eps-DP but not eps-DP; Alg5 not DP at all."""
    lam16 = exactdp.exact("log(16)")
    a1 = sparse_vector(lyu_variant("alg1", exp_eps=16, menu=MENU, horizon=3))
    assert P.is_dp(a1, lam16, 0)
    a4 = sparse_vector(lyu_variant("alg4", exp_eps=16, menu=MENU, horizon=2))
    assert not P.is_dp(a4, lam16, 0) and P.is_dp(a4, exactdp.exact("log(128)"), 0)
    a5 = sparse_vector(lyu_variant("alg5", exp_eps=16, menu=MENU, horizon=2))
    assert P.privloss(a5, 0) is INF


def test_states_are_shared_by_posterior():
    """Histories with the same multiset of (query, answer) pairs reach one node."""
    m = sparse_vector(lyu_variant("alg6", exp_eps=16, menu=MENU, horizon=2))
    _, n1 = dag_prob(m, 0, [("up", BELOW), ("down", BELOW)])
    _, n2 = dag_prob(m, 0, [("down", BELOW), ("up", BELOW)])
    assert n1 is n2


def test_enumerator_agrees_on_a_small_svt():
    m = sparse_vector(
        SVT((("a", (0, 1)), ("b", (1, 1))), Q(0), geometric_noise(Q(1, 2), 1), discrete_laplace(Q(1, 2)), 1, 2)
    )
    assert exactdp.enumerator.privloss(m, 0) == P.privloss(m, 0)
    assert exactdp.enumerator.privloss(m, Q(1, 10)) == P.privloss(m, Q(1, 10))


def test_sensitivity_is_checked():
    with pytest.raises(InvalidMechanismError, match="more than the sensitivity 1"):
        sparse_vector(SVT((("far", (0, 2)),), Q(0), discrete_laplace(Q(1, 2)), discrete_laplace(Q(1, 2)), 1, 2))


def problems(body: str) -> list[str]:
    with pytest.raises(CaseError) as e:
        parse_case(textwrap.dedent(body), "t.yaml")
    return [p.render() for p in e.value.problems]


@pytest.mark.parametrize(
    "fields,phrase",
    [
        ("variant: alg1, eps: log(16), horizon: 2, halt_after: 1", "remove `halt_after:`"),
        ("variant: alg1, horizon: 2", "needs `eps:`"),
        ("variant: alg9, eps: log(16), horizon: 2", "unknown variant 'alg9'"),
        ("variant: alg1, eps: log(2), horizon: 2", "irrational"),
        ("variant: alg1, eps: 1/10, horizon: 2", "transcendental"),
        (
            "width: 3, horizon: 2, threshold_noise: {geometric: {eps: log(4)}}, query_noise: none",
            "belongs to the `variant:` form",
        ),
        ("horizon: 2, threshold_noise: {geometric: {eps: log(4)}}", "needs `query_noise:`"),
        ("horizon: 2", "needs `variant:`"),
        ("horizon: 0, variant: alg1, eps: log(16)", "horizon must be between 1 and 64"),
        ("variant: alg3, eps: log(16), horizon: 2, release: {lo: 3, hi: 1}", "lo = 3 is larger than hi = 1"),
        ("variant: alg1, eps: log(16), horizon: 2, sensitivity: 0", "sensitivity must be positive"),
        ("variant: alg1, eps: log(16), horizon: 2, release: {lo: 0, hi: 1}", "does not release values"),
    ],
)
def test_form_errors(fields, phrase):
    out = problems(
        f"""
        exactdp: 1
        name: bad
        mechanism: {{svt: {{menu: {{up: [0, 1], down: [1, 0]}}, {fields}}}}}
        claims: [{{dp: {{eps: log(16)}}}}]
        """
    )
    assert any(phrase in p for p in out), out


def test_form_reads_explicit_parameters_and_menu_maps():
    c = parse_case(
        textwrap.dedent(
            """
            exactdp: 1
            name: svt
            mechanisms:
              A: {svt: {menu: {up: {x1: 1, x0: 0}, down: [1, 0]}, horizon: 2, threshold: 1,
                        threshold_noise: {geometric: {alpha: 1/4}}, query_noise: {pmf: {-1: 1/4, 0: 1/2, 1: 1/4}},
                        halt_after: never}}
              B: {svt: {variant: alg1, eps: log(16), horizon: 2, menu: {up: [0, 1], down: [1, 0]}}}
            claims: [{dp: {of: B, eps: log(16)}}]
            """
        ),
        "t.yaml",
    )
    a = c.mechanisms["A"]
    assert a.root.labels == ("up", "down")
    assert ladder.text(P.privloss(c.mechanisms["B"], 0)) == ladder.text(
        P.privloss(sparse_vector(lyu_variant("alg1", exp_eps=16, menu=MENU[:2], horizon=2)), 0)
    )


@pytest.mark.parametrize(
    "variant,h,kw", [("alg6", 3, {}), ("alg3", 3, {"release": (-2, 3)}), ("alg1", 4, {}), ("alg5", 3, {})]
)
def test_enumerator_agrees_on_the_variants(variant, h, kw):
    """The brute-force engine (every deterministic adversary) gives the same verdicts on the SVT DAGs."""
    m = sparse_vector(lyu_variant(variant, exp_eps=16, menu=MENU[:2], horizon=h, **kw))
    for d in (Q(0), Q(1, 20)):
        assert exactdp.enumerator.privloss(m, d) == P.privloss(m, d)
