"""Symbols in the parameters of mechanism forms (docs/parametric.md, "What is decided").

The structural cross-check: a case whose form takes a symbol (``eps: 4*log(E)``) is read twice,
once with ``symbols:`` and once with the symbol written in as a number (``params: {E: 7/3}``).
At random rational points of the declared domain, the symbolic mechanism with the symbol
substituted (:func:`exactdp.claims.parametric.numeric_mechanism`, SymPy's own evaluation) must
be *exactly* the concrete mechanism built by the form's numeric builder: the same nodes, output
labels and probabilities.  Then closed forms derived by hand (Dong, Durfee & Rogers 2020 for
RR_(eps,t)), and hostile bounds: every refusal is a located case error, never an internal one.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from exactdp.analysis.parametric.queries import privloss_of
from exactdp.caseio import parse_case
from exactdp.claims.parametric import numeric_mechanism
from exactdp.errors import CaseError
from exactdp.model.game import Ask, Chance, End, postorder
from exactdp.numbers.symbolic import sympy
from exactdp.report.verdicts import shown
from exactdp.verify import verify_text

SETTINGS = settings(  # each example reads a case twice (about a second): no shrinking, the points are small anyway
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _case(mechanisms: str, decl: str):
    first = mechanisms.split(":")[0].strip()
    text = f"exactdp: 1\nname: t\n{decl}\nmechanisms:\n{mechanisms}\nclaims:\n  - privloss: {{of: {first}, delta: 0, equals: inf}}\n"
    return parse_case(text, "t.yaml")


def _canon(node) -> tuple:
    """A node as nested tuples: output labels and exact probabilities of answer distributions;
    an adversary choice as the multiset of its options (the symbolic menu keeps the order given,
    the numeric one sorts by value, and labels print e^t as an expression or its value)."""
    if isinstance(node, End):
        return ("end",)
    if isinstance(node, Ask):
        return ("ask", tuple(sorted((_canon(c) for c in node.children), key=repr)))
    assert isinstance(node, Chance)
    probs = tuple(tuple(Fraction(str(p)) for p in row) for row in node.probs)
    return ("chance", tuple(map(str, node.labels)), probs, tuple(_canon(c) for c in node.children))


def assert_same_at(mechanisms: str, symbols: str, point: dict[str, Fraction]) -> None:
    """The symbolic mechanisms at ``point`` equal the ones built with the numbers written in."""
    sym = _case(mechanisms, f"symbols: {symbols}")
    params = ", ".join(f"{k}: {v}" for k, v in point.items())
    num = _case(mechanisms, f"params: {{{params}}}")
    at = {sym.symbols.symbols[k]: sympy.Rational(v.numerator, v.denominator) for k, v in point.items()}
    for name, mech in sym.mechanisms.items():
        for node in postorder(mech.root):  # exact throughout: a float would mean a rounded probability
            assert not any(p.has(sympy.Float) for row in getattr(node, "sym", ()) for p in row), name
        assert _canon(numeric_mechanism(mech, at).root) == _canon(num.mechanisms[name].root), (name, point)


def _above(lo: int):
    """Rationals > lo with small numerators and denominators."""
    return st.builds(lambda n, d: Fraction(lo) + Fraction(n, d), st.integers(1, 40), st.integers(1, 9))


# --- generalized randomized response (DDR 2020, Def. 2.4) ----------------------------------------

GRR = """  G: {grr: {eps: 4*log(E), t: log(E)}}
  H: {grr: {eps: log(E), t: log(2)}}
  K: {grr: {eps: 3*log(E), t: 3*log(E)}}
  Menu: {grr_menu: {eps: 4*log(E), t: [0, log(E), 2*log(E)], symmetric: true}}
  U: {grr_menu: {eps: 2*log(E), u: [E, 3/2]}}
  NA: {nonadaptive: {menu: U, rounds: 2}}"""


@SETTINGS
@given(_above(2))
def test_grr_and_its_menu_at_random_points_are_the_numeric_mechanisms(E):
    assert_same_at(GRR, "{E: {gt: 2}}", {"E": E})


def test_grr_closed_forms_ddr_def_2_4():
    """RR_(eps,t) has losses t on output 0 and t - eps on output 1 (DDR Def. 2.4), so
    PrivLoss(RR_(eps,t), 0) = max(t, eps - t) over both orders of the pair: with e^eps = E^4,
    e^t = E it is 3*log(E); with e^t = 2 and E > 2 it is log(2) up to E = 4, then log(E/2)."""
    text = (
        "exactdp: 1\nname: g\nsymbols: {E: {gt: 2}}\nmechanisms:\n" + GRR + "\nclaims:\n"
        "  - privloss: {of: G, delta: 0, equals: 3*log(E)}\n"
        "  - bounded_range: {of: G, eps: 4*log(E)}\n"
        "  - privloss: {of: K, delta: 0, equals: 0}\n"
        "  - privloss: {of: Menu, delta: 0, equals: 3*log(E)}\n"
        "  - privloss: {of: U, delta: 0, at_most: 2*log(E)}\n"
        "  - privloss: {of: G, delta: 0, equals: 4*log(E)}\n"
    )
    verdicts = verify_text(text, "g.yaml").verdicts
    assert [v.status for v in verdicts] == ["holds"] * 5 + ["fails"], [shown(v).found for v in verdicts]


def test_grr_with_a_rational_t_breaks_where_eps_minus_t_overtakes_t():
    case = _case(GRR, "symbols: {E: {gt: 2}}")
    pw = privloss_of(case.mechanisms["H"], case.symbols, 0)
    assert [(p.text(), p.value_text()) for p in pw.pieces] == [("2 < E <= 4", "log(2)"), ("4 < E", "log(E/2)")]


@pytest.mark.parametrize(
    ("form", "bounds", "place", "phrase"),
    [
        ("{grr: {eps: log(E), t: log(E)/2}}", "{gt: 1}", "G.grr.t", "e^t = sqrt(E) is not a rational function"),
        ("{grr: {eps: log(E), t: 2*log(E)}}", "{gt: 1}", "G.grr.t", "could not prove t <= eps"),
        ("{grr: {eps: log(E), t: log(2)}}", "{gt: 1}", "G.grr.t", "could not prove t <= eps"),
        ("{grr: {eps: log(E), t: 0}}", "{ge: 1}", "G.grr.eps", "could not prove eps > 0"),
        ("{grr: {eps: log(E), t: 0}}", "{gt: 0}", "G.grr.eps", "could not prove e^eps >= 1"),
        ("{grr_menu: {eps: log(E), t: [log(E), log(E)]}}", "{gt: 1}", "G.grr_menu.t[1]", "listed twice"),
        ("{grr_menu: {eps: log(E), u: [E, E^2]}}", "{gt: 1}", "G.grr_menu.u[1]", "could not prove t <= eps"),
        ("{grr_menu: {eps: log(E), u: [1/E]}}", "{gt: 1}", "G.grr_menu.u[0]", "could not prove e^t >= 1"),
    ],
)
def test_hostile_symbols_are_located_errors(form, bounds, place, phrase):
    with pytest.raises(CaseError) as err:
        _case(f"  G: {form}", f"symbols: {{E: {bounds}}}")
    text = str(err.value)
    assert f"mechanisms.{place}" in text and phrase in text, text


# --- the discrete Laplace on a bounded range ---------------------------------------------------

LAPLACE = """  C: {discrete_laplace: {eps: log(E), bounds: [0, 3], data: [1, 2]}}
  F: {discrete_laplace: {eps: log(E), bounds: [-1/2, 5/2], data: [0, 2], truncation: fold}}
  R: {discrete_laplace: {eps: log(E), bounds: [0, 3], data: [0, 1], truncation: renormalize}}
  S: {discrete_laplace: {eps: 2*log(E), sensitivity: 2, bounds: [-1, 2], data: [-1, 1]}}
  A: {discrete_laplace: {alpha: E/(E + 1), bounds: [0, 2], data: [0, 1], truncation: fold}}"""


@SETTINGS
@given(_above(1))
def test_discrete_laplace_at_random_points_is_the_numeric_mechanism(E):
    assert_same_at(LAPLACE, "{E: {gt: 1}}", {"E": E})


def test_discrete_laplace_clamped_is_exactly_eps_dp_grs_2009():
    """Clamping c + Z to [lo, hi] with Pr[Z = z] ∝ α^|z| (Ghosh, Roughgarden & Sundararajan 2009)
    keeps the ratio of any output's probabilities under c and c + 1 within 1/α = E, and the
    output lo reaches it (α^(c-lo)/(1+α) against α^(c+1-lo)/(1+α)): PrivLoss = log(E) for
    every E > 1."""
    case = _case(LAPLACE, "symbols: {E: {gt: 1}}")
    pw = privloss_of(case.mechanisms["C"], case.symbols, 0)
    assert [(p.text(), p.value_text()) for p in pw.pieces] == [("1 < E", "log(E)")]


@pytest.mark.parametrize(
    ("form", "bounds", "place", "phrase"),
    [
        ("{discrete_laplace: {eps: log(E), bounds: [0, 3], data: [1, 2]}}", "{ge: 1}", "eps", "0 < alpha < 1"),
        ("{discrete_laplace: {eps: log(E), bounds: [0, 3], data: [1, 2]}}", "{gt: 0}", "eps", "e^eps >= 1"),
        ("{discrete_laplace: {alpha: 2/E, bounds: [0, 3], data: [1, 2]}}", "{gt: 1}", "alpha", "0 <= alpha <= 1"),
        (
            "{discrete_laplace: {eps: log(E), sensitivity: 2, bounds: [0, 3], data: [1, 2]}}",
            "{gt: 1}",
            "eps",
            "e^(eps/2) = sqrt(E) is not a rational function",
        ),
        ("{discrete_laplace: {scale: E, bounds: [0, 3], data: [1, 2]}}", "{gt: 1}", "scale", "not supported here"),
    ],
)
def test_hostile_laplace_parameters_are_located_errors(form, bounds, place, phrase):
    with pytest.raises(CaseError) as err:
        _case(f"  G: {form}", f"symbols: {{E: {bounds}}}")
    text = str(err.value)
    assert f"mechanisms.G.discrete_laplace.{place}" in text and phrase in text, text


@pytest.mark.parametrize(("param", "place"), [("eps: log(E)", "eps"), ("alpha: 1/E", "alpha")])
def test_truncated_geometric_needs_eps_positive_on_the_whole_domain_as_with_a_number(param, place):
    """E = 1 (eps = 0, alpha = 1) is refused with a symbol as it is with ``params: {E: 1}``:
    the form's domain is 0 < alpha < 1 whichever way the value is given."""
    form = f"{{truncated_geometric: {{{param}, n: 2, counts: {{x0: 0, x1: 1}}}}}}"
    with pytest.raises(CaseError) as err:
        _case(f"  T: {form}", "symbols: {E: {ge: 1, le: 3}}")
    text = str(err.value)
    assert f"mechanisms.T.truncated_geometric.{place}" in text and "0 < alpha < 1" in text, text
    _case(f"  T: {form}", "symbols: {E: {gt: 1, le: 3}}")  # strict bounds: accepted


# --- the exponential mechanism and permute-and-flip ------------------------------------------------

SELECTION = """  X: {exponential: {eps: 2*log(E), scores: {x0: [3, 1, 0], x1: [2, 2, 1]}}}
  Mono: {exponential: {eps: log(E), mode: monotone, scores: {x0: [3, 1, 0], x1: [2, 0, 0]}}}
  Rng: {exponential: {eps: 2*log(E), mode: range, scores: {x0: [1, 0], x1: [0, 1]}}}
  Half: {exponential: {eps: 4*log(E), sensitivity: 2, scores: [[1, 0, 0], [0, 1, 0]]}}
  P: {permute_and_flip: {eps: 2*log(E), scores: {x0: [2, 1, 0], x1: [1, 1, 1]}}}
  PM: {permute_and_flip: {eps: log(E), mode: monotone, scores: [[2, 1, 0], [2, 1, 1]]}}"""


@SETTINGS
@given(_above(1))
def test_exponential_and_permute_and_flip_at_random_points_are_the_numeric_mechanisms(E):
    assert_same_at(SELECTION, "{E: {gt: 1}}", {"E": E})


def test_exponential_mechanism_is_eps_dp_and_eps_bounded_range_ddr_2020():
    """The exponential mechanism with parameter eps and scale 2*sensitivity is eps-DP (McSherry &
    Talwar 2007; DDR 2020, Thm 1), and eps-BR (DDR 2020, Lemma 3.2: its log-ratios
    eps*(u(x, y) - u(x', y))/(2 sensitivity) span at most eps, minus the normaliser's shift).
    X with e^eps = E^2: weights E^(u - max u) (sensitivity 1).  Under x0 (3, 1, 0): 1, E^-2,
    E^-3; under x1 (2, 2, 1): 1, 1, E^-1.  Output 0 has ratio (1/Z0)/(1/Z1) = Z1/Z0 with
    Z0 = 1 + E^-2 + E^-3, Z1 = 2 + E^-1, so PrivLoss(X, 0) < 2*log(E) (it is not tight here)."""
    text = (
        "exactdp: 1\nname: s\nsymbols: {E: {gt: 1}}\nmechanisms:\n" + SELECTION + "\nclaims:\n"
        "  - dp: {of: X, eps: 2*log(E)}\n"
        "  - bounded_range: {of: X, eps: 2*log(E)}\n"
        "  - dp: {of: Mono, eps: log(E)}\n"
        "  - bounded_range: {of: Rng, eps: 2*log(E)}\n"
        "  - dp: {of: P, eps: 2*log(E)}\n"
        "  - dp: {of: PM, eps: log(E)}\n"
        "  - dp: {of: X, eps: log(E)}\n"
    )
    verdicts = verify_text(text, "s.yaml").verdicts
    assert [v.status for v in verdicts] == ["holds"] * 6 + ["fails"], [shown(v).found for v in verdicts]


@pytest.mark.parametrize(
    ("form", "bounds", "place", "phrase"),
    [
        (
            "{exponential: {eps: log(E), scores: [[1, 0], [0, 1]]}}",
            "{gt: 1}",
            "exponential",
            "e^(eps*(-1)/2) = 1/sqrt(E), which is not a rational function of the symbols",
        ),
        ("{exponential: {eps: log(E), scores: [[1, 0], [0, 1]]}}", "{gt: 0}", "exponential.eps", "e^eps >= 1"),
        (
            "{permute_and_flip: {eps: 2*log(E), scores: [[1, 0], [0, 1]], sensitivity: 3}}",
            "{gt: 1}",
            "permute_and_flip",
            "declare the symbol as e^(eps/6)",  # scale 2*3: exponents -1/6,
        ),
        ("{exponential: {eps: log(E), scores: [[1, 1], [1, 1]]}}", "{gt: 1}", "exponential", "scale"),
    ],
)
def test_hostile_selection_parameters_are_located_errors(form, bounds, place, phrase):
    with pytest.raises(CaseError) as err:
        _case(f"  G: {form}", f"symbols: {{E: {bounds}}}")
    text = str(err.value)
    assert f"mechanisms.G.{place}" in text and phrase in text, text


# --- report-noisy-max with geometric noise ---------------------------------------------------------

RNM = """  N: {report_noisy_max: {values: {x0: [1, 0], x1: [2, 0]}, noise: {geometric: {eps: log(E), width: 3}}}}
  R: {report_noisy_max: {values: [[1, 0, 1], [0, 1, 1]], noise: {geometric: {alpha: 1/E, width: 2, truncation: renormalize}}}}"""


@SETTINGS
@given(_above(1))
def test_report_noisy_max_with_symbolic_geometric_noise_is_the_numeric_mechanism(E):
    assert_same_at(RNM, "{E: {gt: 1}}", {"E": E})


def test_report_noisy_max_closed_form_meets_the_numeric_doctest_at_e_2():
    """report_noisy_max([[1, 0], [2, 0]], geometric_noise(eps=log(2), width=3)) loses log(9/5)
    (the builder's doctest, numeric engine); the closed form for every E > 1 gives the same at E = 2."""
    case = _case(RNM, "symbols: {E: {gt: 1}}")
    pieces = privloss_of(case.mechanisms["N"], case.symbols, 0).pieces
    texts = {p.value_text() for p in pieces}
    assert texts == {"log((3*E^3 - 2*E^2 + 2*E - 2)/((4*E - 3)*E))"}
    E = sympy.Symbol("E")
    assert ((3 * E**3 - 2 * E**2 + 2 * E - 2) / ((4 * E - 3) * E)).subs(E, 2) == sympy.Rational(9, 5)


@pytest.mark.parametrize(
    ("form", "bounds", "place", "phrase"),
    [
        (  # svt takes symbolic noise (tests/test_forms_symbolic_pp.py), with 0 < alpha < 1 proved
            "{svt: {menu: {q: [0, 1]}, horizon: 2, query_noise: none, threshold_noise: {geometric: {alpha: 1/E}}}}",
            "{ge: 1}",
            "svt.threshold_noise.geometric.alpha",
            "0 < alpha < 1",
        ),
        (
            "{report_noisy_max: {values: [[1, 0], [2, 0]], noise: {geometric: {alpha: 1/E, width: 1}}}}",
            "{ge: 1}",
            "report_noisy_max.noise.geometric.alpha",
            "0 < alpha < 1",
        ),
        (
            "{report_noisy_max: {values: [[1, 0], [2, 0]], noise: {geometric: {eps: log(E)}}}}",
            "{gt: 1}",
            "report_noisy_max.noise.geometric",
            "needs finite noise",
        ),
    ],
)
def test_hostile_noise_parameters_are_located_errors(form, bounds, place, phrase):
    with pytest.raises(CaseError) as err:
        _case(f"  G: {form}", f"symbols: {{E: {bounds}}}")
    text = str(err.value)
    assert f"mechanisms.G.{place}" in text and phrase in text, text
