"""Exponential mechanism, RR_(eps,t) and menus (DDR 2020): builders, forms, refusals, known answers."""

from __future__ import annotations

import itertools
import textwrap
from fractions import Fraction as F
from math import comb

import pytest
from click.testing import CliRunner

import exactdp
from exactdp.analysis import profile as P
from exactdp.builders.exponential import (
    exponential,
    exponential_rows,
    grr,
    grr_menu,
    grr_probs,
    monotone_violation,
    nonadaptive,
    score_range,
    score_sensitivity,
)
from exactdp.caseio import parse_case
from exactdp.cli import main
from exactdp.errors import CaseError, InvalidMechanismError, LimitExceededError
from exactdp.numbers import Q, ladder

# --- independent formulas (Fractions, no exactdp code) ------------------------------------------


def _qp(B, u):
    q = (F(B) - F(u)) / (F(B) - 1)
    return q, q / F(u)


def thm3(B, C, k, u):
    """DDR Thm 3 at a fixed rational e^t = u: max over l of f_l(t) (notes section 2, T3)."""
    q, p = _qp(B, u)
    best = F(0)
    for ell in range(k + 1):
        f = sum(comb(k, i) * (q ** (k - i) * (1 - q) ** i - F(C) * p ** (k - i) * (1 - p) ** i) for i in range(ell + 1))
        best = max(best, f)
    return best


def hockey(views, lam):
    """sum (P - lam P')_+ over a list of (P, P') pairs."""
    return sum((max(a - F(lam) * b, F(0)) for a, b in views), F(0))


def na_delta(B, us, k, lam):
    """Non-adaptive optimum over a menu by brute force: every sequence, every order of the pair."""
    best = F(0)
    for seq in itertools.product(us, repeat=k):
        views = [(F(1), F(1))]
        for u in seq:
            q, p = _qp(B, u)
            views = [(a * x, b * y) for a, b in views for x, y in ((q, p), (1 - q, 1 - p))]
        best = max(best, hockey(views, lam), hockey([(b, a) for a, b in views], lam))
    return best


THM3 = [  # (B, C, k) -> delta_NA, notes section 5 thm3_exact; u = the optimal e^(t_l)
    ((8, 1, 2), F(27, 49), [2, 4]),
    ((27, 1, 2), F(128, 169), [3, 9]),
    ((16, 1, 3), F(99, 125), [2, 4, 8]),
    ((8, 8, 2), F(8, 49), [2, 4]),
    ((16, 16, 3), F(48, 125), [2, 4, 8]),
    ((F(243, 32), 1, 4), F(1384660625, 1982119441), [F(3, 2), F(9, 4), F(27, 8), F(81, 16)]),
    ((4, 1, 1), F(1, 3), [2]),
    ((8, F(27, 8), 2), F(125, 392), [3, 6, F(8, 3), F(4, 3)]),
]


@pytest.mark.parametrize("bck,expected,us", THM3, ids=[f"thm3_exact B={b} C={c} k={k}" for (b, c, k), _, _ in THM3])
def test_thm3_closed_form_and_engine(bck, expected, us):
    """DDR Thm 3 evaluated from its formula at the best menu point = the notes' value = the engine's
    delta over choose-of-compose of the menu."""
    B, C, k = bck
    assert max(thm3(B, C, k, u) for u in us) == expected
    menu = grr_menu(
        exp_eps=Q(B.numerator, B.denominator) if isinstance(B, F) else B,
        exp_ts=[Q(F(u).numerator, F(u).denominator) for u in us],
    )
    got = P.delta_at(nonadaptive(menu, k), exactdp.exact(f"log({C})") if C != 1 else 0)
    assert got == Q(expected.numerator, expected.denominator)


def test_b16_gap_matches_closed_forms_and_brute_force():
    """notes section 3: delta_A(0) = (x-1)(x^4+2x^3+4x^2+2x+1)/((x^2+1)^2 (x+1)) with x = e^(eps/4) = 2;
    the non-adaptive menu optimum by brute force over the 25 sequences is 1701/2500."""
    x = F(2)
    closed = (x - 1) * (x**4 + 2 * x**3 + 4 * x**2 + 2 * x + 1) / ((x**2 + 1) ** 2 * (x + 1))
    assert closed == F(53, 75)
    us = [2, F(5, 2), 4, F(32, 5), 8]
    assert na_delta(16, us, 2, 1) == F(1701, 2500)
    menu = grr_menu(exp_eps=16, exp_ts=[Q(2), Q(5, 2), Q(4), Q(32, 5), Q(8)])
    assert P.delta_at(exactdp.repeat(menu, 2), 0) == Q(53, 75)
    assert P.delta_at(nonadaptive(menu, 2), 0) == Q(1701, 2500)
    assert ladder.text(P.privloss(exactdp.repeat(menu, 2), Q(7, 10))) == "log(23/22)"


def test_grr_definition():
    """grr_def: B = 16, u = 4 gives q = 4/5, p = 1/5; t = 0 and t = eps are degenerate."""
    assert grr_probs(16, 4) == (Q(4, 5), Q(1, 5))
    assert grr_probs(16, 1) == (Q(1), Q(1))
    assert grr_probs(16, 16) == (Q(0), Q(0))
    m = grr(exp_eps=16, exp_t=4)
    assert m.root.probs == ((Q(4, 5), Q(1, 5)), (Q(1, 5), Q(4, 5)))
    with pytest.raises(InvalidMechanismError, match="t must lie in"):
        grr(exp_eps=16, exp_t=17)


def test_counting_em_weights():
    m = exponential([[1, 1, 1, 1, 1], [0, 0, 0, 0, 1]], exp_eps=16, mode="monotone")
    assert [r[0] for r in m.root.probs] == [Q(1, 5)] * 5
    assert [r[1] for r in m.root.probs] == [Q(1, 20)] * 4 + [Q(4, 5)]


def test_sensitivity_and_range():
    s = [[1, 0, 0], [0, 1, 1]]
    assert score_sensitivity(s, [(0, 1)]) == 1
    assert score_range(s, [(0, 1)]) == 2
    assert monotone_violation(s, [(0, 1)]) == ((0, 1), 0, 1)
    shifted = [[1, 0, 0], [5, 6, 6]]  # u + f(x): Range unchanged (Prop. 1), sensitivity grows
    assert score_range(shifted, [(0, 1)]) == 2
    assert score_sensitivity(shifted, [(0, 1)]) == 6


def test_range_mode_equals_sensitivity_mode_when_range_is_twice_the_sensitivity():
    s = [[1, 0], [0, 1]]
    a = exponential_rows(s, 16, [(0, 1)])
    b = exponential_rows(s, 16, [(0, 1)], mode="range")
    assert a == b == [(Q(4, 5), Q(1, 5)), (Q(1, 5), Q(4, 5))]


@pytest.mark.parametrize(
    "kw,msg",
    [
        ({"scores": [[1, 0], [0, 1]], "E": 2}, "irrational"),  # 2^(1/2)
        ({"scores": [[1, 0], [0, 1]], "E": 16, "mode": "monotone"}, "monotone scores"),
        ({"scores": [[1, 0], [1, 0]], "E": 16}, "undefined"),
        ({"scores": [[1, 0], [0, 1]], "E": 16, "mode": "range", "sensitivity": 1}, "range"),
        ({"scores": [[1, 0], [0]], "E": 16}, "scores"),
    ],
    ids=["irrational weight", "non-monotone", "zero scale", "sensitivity in range mode", "ragged"],
)
def test_refusals(kw, msg):
    with pytest.raises(InvalidMechanismError, match=msg):
        exponential_rows(kw.pop("scores"), kw.pop("E"), [(0, 1)], **kw)


def test_zero_eps_is_uniform_even_with_constant_scores():
    assert exponential_rows([[1, 0], [1, 0]], 1, [(0, 1)]) == [(Q(1, 2), Q(1, 2))] * 2


def test_nonadaptive_shares_suffixes_and_refuses_huge_menus():
    menu = grr_menu(exp_eps=16, exp_ts=[2, 4, 8])
    na = nonadaptive(menu, 3)
    assert len(na.root.labels) == 27 and na.root.labels[0] == "u=2,u=2,u=2"
    assert len(na.nodes()) < 27 * 4
    with pytest.raises(LimitExceededError):
        nonadaptive(menu, 20)
    with pytest.raises(InvalidMechanismError, match="must begin with an adversary choice"):
        nonadaptive(grr(exp_eps=16, exp_t=4), 2)


# --- case-file forms --------------------------------------------------------------------------


def case(body: str):
    return parse_case(textwrap.dedent(body), "t.yaml")


def problems(body: str) -> list[str]:
    with pytest.raises(CaseError) as e:
        case(body)
    return [p.render() for p in e.value.problems]


def test_forms_read_lists_and_maps():
    c = case(
        """
        exactdp: 1
        name: em
        mechanisms:
          A: {exponential: {eps: log(16), outputs: [p, q], scores: {x0: [1, 0], x1: [0, 1]}}}
          B: {exponential: {eps: 2*log(4), scores: {x1: {q: 1, p: 0}, x0: {p: 1, q: 0}}}}
          G: {grr: {eps: log(16), t: log(16)/2}}
          Menu: {grr_menu: {eps: log(16), t: [log(2), log(4)], symmetric: true}}
          NA: {nonadaptive: {menu: Menu, rounds: 2}}
        claims:
          - profile_eq: {of: A, as: B}
        """
    )
    assert c.mechanisms["A"].root.labels == ("p", "q")
    assert c.mechanisms["A"].root.probs == c.mechanisms["B"].root.probs
    assert c.mechanisms["Menu"].root.labels == ("u=2", "u=4", "u=8")
    assert len(c.mechanisms["NA"].root.labels) == 9


@pytest.mark.parametrize(
    "mech,phrase",
    [
        ("{exponential: {eps: 1/10, scores: {x0: [1, 0], x1: [0, 1]}}}", "transcendental"),
        ("{exponential: {eps: log(2), scores: {x0: [1, 0], x1: [0, 1]}}}", "irrational"),
        ("{exponential: {eps: log(16), scores: {x0: [1, 0], x2: [0, 1]}}}", "unknown dataset 'x2'"),
        ("{exponential: {eps: log(16), scores: {x0: [1, 0]}}}", "no entry for dataset(s) x1"),
        ("{exponential: {eps: log(16), scores: {x0: {a: 1}, x1: {b: 1}}}}", "differ"),
        ("{exponential: {eps: log(16), mode: monotonic, scores: {x0: [1], x1: [0]}}}", "did you mean 'monotone'"),
        ("{exponential: {eps: log(16), scores: {x0: [a, 0], x1: [0, 1]}}}", "scores.x0[0]"),
        ("{grr: {eps: log(16), t: log(32)}}", "t must lie in [0, eps]"),
        ("{grr: {eps: 1/10, t: 0}}", "transcendental"),
        ("{grr_menu: {eps: log(16), t: [log(2)], u: [2]}}", "exactly one of"),
        ("{grr_menu: {eps: log(16), u: [32]}}", "exceeds"),
        ("{grr_menu: {eps: log(16), u: [2, 4, 2]}}", "e^t = 2 is listed twice"),
        ("{nonadaptive: {menu: {grr: {eps: log(16), t: log(2)}}, rounds: 2}}", "must begin with an adversary choice"),
        ("{nonadaptive: {menu: {grr_menu: {eps: log(16), u: [2]}}, rounds: 0}}", "rounds must be between"),
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


def test_cli_refuses_inexact_em_with_exit_2(tmp_path):
    f = tmp_path / "em.yaml"
    f.write_text(
        "exactdp: 1\nname: em\nmechanism: {exponential: {eps: log(3), scores: {x0: [1, 0], x1: [0, 1]}}}\nclaims: [{dp: {eps: log(3)}}]\n"
    )
    r = CliRunner().invoke(main, ["verify", str(f)])
    assert r.exit_code == 2
    assert "irrational" in r.output and "Traceback" not in r.output
