"""Classic finite-support mechanisms: k-RR, truncated geometric, report-noisy-max, noise; forms."""

from __future__ import annotations

import itertools
import textwrap
from fractions import Fraction as F

import pytest

from exactdp.analysis import profile as P
from exactdp.builders.classic import (
    discrete_laplace,
    finite_noise,
    geometric_noise,
    krr,
    krr_rows,
    report_noisy_max_rows,
    truncated_geometric_rows,
)
from exactdp.caseio import parse_case
from exactdp.errors import CaseError, InvalidMechanismError
from exactdp.numbers import Q, ladder


def test_krr_rows_and_privloss():
    rows = krr_rows(3, ["a", "b", "c"], ["a", "b"])
    assert rows == [(Q(3, 5), Q(1, 5)), (Q(1, 5), Q(3, 5)), (Q(1, 5), Q(1, 5))]
    assert ladder.text(P.privloss(krr(exp_eps=3, values=["a", "b", "c"], data=["a", "b"]), 0)) == "log(3)"
    assert P.privloss(krr(exp_eps=3, values=["a", "b", "c"], data=["a", "a"]), 0) == 0  # same value: nothing to hide
    with pytest.raises(InvalidMechanismError, match="not among the values"):
        krr_rows(3, ["a", "b"], ["a", "z"])


def test_truncated_geometric_matches_the_grs_formula():
    """GRS 2009: interior (1-a)/(1+a) a^|j-c|, ends a^|j-c|/(1+a); columns sum to 1."""
    a = Q(1, 3)
    rows = truncated_geometric_rows(a, 4, [0, 2, 4])
    for d in range(3):
        assert sum(r[d] for r in rows) == 1
    assert rows[0][1] == a**2 / (1 + a) and rows[2][1] == (1 - a) / (1 + a)
    # neighbouring counts: every ratio within 1/a, attained
    m = P.privloss(_chance(truncated_geometric_rows(a, 4, [1, 2])), 0)
    assert ladder.text(m) == "log(3)"


def test_renormalized_truncation_is_worse():
    rows = truncated_geometric_rows(Q(1, 2), 2, [0, 1], truncation="renormalize")
    assert rows[0] == (Q(4, 7), Q(1, 4))
    assert ladder.text(P.privloss(_chance(rows), 0)) == "log(16/7)"


def _chance(rows):
    from exactdp.builders import mechanism
    from exactdp.model import END, Chance

    return mechanism(Chance([str(i) for i in range(len(rows))], rows, [END] * len(rows)))


def test_noise_distributions():
    g = geometric_noise(Q(1, 2), 3)
    assert sum(p for _, p in g.pmf) == 1 and g.prob(3) == Q(1, 8) / Q(3, 2)
    r = geometric_noise(Q(1, 2), 1, truncation="renormalize")
    assert [p for _, p in r.pmf] == [Q(1, 4), Q(1, 2), Q(1, 4)]
    lap = discrete_laplace(Q(1, 3))
    # survival function in closed form = the (truncated) sum of the pmf, up to the truncated mass
    for z in range(-4, 5):
        approx = sum((lap.prob(k) for k in range(z, 200)), Q(0))
        assert abs(lap.survival(z) - approx) < Q(1, 3) ** 190
    with pytest.raises(InvalidMechanismError, match="sum to"):
        finite_noise({0: Q(1, 2)})
    with pytest.raises(InvalidMechanismError, match="0 < alpha < 1"):
        discrete_laplace(1)


def _rnm_brute(values, pmf):
    """Pr[argmax = i] by enumerating every noise vector (ties: first index)."""
    k = len(values)
    out = [F(0)] * k
    for zs in itertools.product(pmf, repeat=k):
        p = F(1)
        for z in zs:
            p *= F(int(pmf[z].numerator), int(pmf[z].denominator))
        noisy = [values[i] + zs[i] for i in range(k)]
        out[noisy.index(max(noisy))] += p
    return out


@pytest.mark.parametrize(
    "vals",
    [[1, 0, 0], [2, 1, 0], [0, 1, 1], [3, 0], [0, 0, 0, 1]],
)
def test_report_noisy_max_equals_brute_force(vals):
    noise = geometric_noise(Q(1, 2), 3)
    pmf = dict(noise.pmf)
    rows = report_noisy_max_rows([vals], noise)
    assert [F(int(r[0].numerator), int(r[0].denominator)) for r in rows] == _rnm_brute(vals, pmf)


def test_rnm_needs_finite_noise():
    with pytest.raises(InvalidMechanismError, match="finite noise"):
        report_noisy_max_rows([[1, 0]], discrete_laplace(Q(1, 2)))


def problems(body: str) -> list[str]:
    with pytest.raises(CaseError) as e:
        parse_case(textwrap.dedent(body), "t.yaml")
    return [p.render() for p in e.value.problems]


@pytest.mark.parametrize(
    "mech,phrase",
    [
        ("{krr: {eps: log(3), values: [a, b], data: {x0: a, x1: z}}}", "x1 holds 'z'"),
        ("{krr: {eps: log(3), values: [a, b], data: {x0: a}}}", "no entry for dataset(s) x1"),
        ("{truncated_geometric: {eps: log(2), alpha: 1/2, n: 2, counts: {x0: 0, x1: 1}}}", "exactly one of"),
        ("{truncated_geometric: {eps: log(2), n: 2, counts: {x0: 0, x1: 3}}}", "between 0 and 2"),
        ("{truncated_geometric: {eps: log(2), n: 2, counts: {x0: 0, x1: 1}, truncation: clip}}", "unknown truncation"),
        ("{truncated_geometric: {alpha: 2, n: 2, counts: {x0: 0, x1: 1}}}", "strictly between 0 and 1"),
        ("{report_noisy_max: {values: {x0: [1, 0], x1: [0, 1]}, noise: {geometric: {eps: log(2)}}}}", "give `width:`"),
        ("{report_noisy_max: {values: {x0: [1, 0], x1: [0, 1]}, noise: {pmf: {0: 1/2, 1: 1/4}}}}", "sum to 3/4"),
        (
            "{report_noisy_max: {values: {x0: [1, 0], x1: [0, 1]}, noise: {pmf: {a: 1}}}}",
            "noise.pmf.a: a noise value must be a whole number, found 'a'",
        ),
        (
            "{report_noisy_max: {values: {x0: [1, 0], x1: [0, 1]}, noise: {gaussian: {eps: 1}}}}",
            "unknown noise 'gaussian'",
        ),
        (
            "{report_noisy_max: {values: {x0: [1, 0], x1: [0]}, noise: {pmf: {0: 1}}}}",
            "1 values but there are 2 outputs",
        ),
    ],
)
def test_form_errors_are_located(mech, phrase):
    out = problems(
        f"""
        exactdp: 1
        name: bad
        mechanism: {mech}
        claims: [{{dp: {{eps: log(2)}}}}]
        """
    )
    assert any(phrase in p for p in out), out
    assert all(p.startswith("t.yaml:") for p in out), out
