"""Symbols in ``postprocess`` (deterministic relabelling of answers; post-processing,
Dwork & Roth 2014, Prop. 2.1; the adversary's view after relabelling, Vadhan & Wang 2021, Def. 1.6).

The structural cross-check: each case is read twice, once with ``symbols:`` and once with the
symbol written in (``params:``).  At random rational points the relabelled symbolic mechanism
with the symbol substituted (:func:`exactdp.claims.parametric.numeric_mechanism`) must be,
node by node, the mechanism the numeric builder makes: the same answers, probabilities and
continuations, for interactive mechanisms whose relabelled answers lead to *different*
continuations (the adversary then acts on a posterior mixture of them).  Then closed forms
derived by hand, and a posterior that could be 0/0 refused with a located error.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile
from exactdp.analysis.parametric.queries import privloss_of
from exactdp.errors import CaseError
from exactdp.model.symbolic import is_symbolic_mechanism
from exactdp.report.verdicts import shown
from exactdp.verify import verify_text

from .test_forms_symbolic import SETTINGS, _case, assert_same_at

# Figure-1 style (Vadhan & Wang 2021, Fig. 1, with a parameter p): a coin c, then the adversary
# asks A or B; hiding c (c0, c1 -> c) leaves it a mixture of RR_(3/4) and RR_p whichever it asks.
# W: a first answer u, v or w whose probabilities depend on p; v and w are merged, and their
# continuations (numeric and symbolic answers mixed) have posterior weights 1 - p and p.
# K: k-ary randomized response with two values merged (non-interactive: answers add up).
# C: two rounds of RR composed, then relabelled: every answer 1 becomes "yes", 0 stays.
PP = """  M:
    tree:
      respond:
        c0: {p: [1/2, 1/2], then: {ask: {A: &a {0: [3/4, 1/4], 1: [1/4, 3/4]}, B: &b {0: [p, 1 - p], 1: [1 - p, p]}}}}
        c1: {p: [1/2, 1/2], then: {ask: {A: *b, B: *a}}}
  P: {postprocess: {mechanism: M, map: {c0: c, c1: c}}}
  W:
    tree:
      respond:
        u: {p: [p, 1 - p], then: {ask: {A: *b}}}
        v: {p: ["(1 - p)^2", "p^2"], then: {ask: {A: *a, B: *b}}}
        w: {p: [p*(1 - p), p*(1 - p)], then: {ask: {A: {0: [p^2, 1 - p^2], 1: [1 - p^2, p^2]}, B: *a}}}
  PW: {postprocess: {mechanism: W, map: {v: vw, w: vw, "1": one}}}
  K: {krr: {eps: log(1 + 3*p), values: [a, b, c], data: {x0: a, x1: b}}}
  PK: {postprocess: {mechanism: K, map: {b: bc, c: bc}}}
  R: {rr: {eps: log(1 + p)}}
  C: {compose: [R, R]}
  PC: {postprocess: {mechanism: C, map: {"1": "yes"}}}"""

UNIT = "{p: {gt: 0, lt: 1}}"


def _above_one():
    """Rationals > 1 with small numerators and denominators."""
    return st.builds(lambda n, d: 1 + Fraction(n, d), st.integers(1, 20), st.integers(1, 9))


def _unit():
    """Rationals strictly between 0 and 1."""
    return st.builds(lambda n, d: Fraction(n, n + d), st.integers(1, 30), st.integers(1, 30))


@SETTINGS
@given(_unit())
def test_postprocess_at_random_points_is_the_numeric_mechanism(p):
    assert_same_at(PP, UNIT, {"p": p})


def test_the_relabelled_mechanisms_keep_their_symbols():
    """A relabelling that leaves symbolic probabilities builds a symbolic mechanism (not a
    numeric one evaluated somewhere)."""
    case = _case(PP, f"symbols: {UNIT}")
    assert all(is_symbolic_mechanism(case.mechanisms[n]) for n in ("P", "PW", "PK", "PC"))


def test_hiding_the_coin_gives_rr_with_the_averaged_keep_probability():
    """Hiding c, asking A or B answers the true bit w.p. k = (3/4 + p)/2 = (3 + 4p)/8 under both
    datasets: RR with keep probability k, so PrivLoss = log(k/(1 - k)) = log((3 + 4p)/(5 - 4p))
    for p >= 1/4 (k >= 1/2), and log((5 - 4p)/(3 + 4p)) below; M itself loses
    max(log 3, |log(p/(1 - p))|) (cases/parametric/two-round-break-point.yaml)."""
    case = _case(PP, f"symbols: {UNIT}")
    pieces = privloss_of(case.mechanisms["P"], case.symbols, 0).pieces
    assert [(pc.text(), pc.value_text()) for pc in pieces] == [
        ("0 < p <= 1/4", "log((5 - 4*p)/(4*p + 3))"),
        ("1/4 < p < 1", "log((4*p + 3)/(5 - 4*p))"),
    ]


def test_merging_the_two_true_values_of_krr_hides_everything_and_the_other_merge_does_not():
    """k-RR with e^eps = 1 + 3p on {a, b, c}, datasets holding a and b (Kairouz, Oh & Viswanath
    2014): merging b and c leaves the answer a, whose ratio is e^eps, so PrivLoss stays log(1 + 3p);
    the composed RR relabelled one answer at a time is still two rounds of RR: 2*log(1 + p)."""
    text = (
        f"exactdp: 1\nname: k\nsymbols: {UNIT}\nmechanisms:\n{PP}\n"
        "  AB: {postprocess: {mechanism: K, map: {a: ab, b: ab}}}\nclaims:\n"
        "  - privloss: {of: PK, delta: 0, equals: log(1 + 3*p)}\n"
        "  - privloss: {of: AB, delta: 0, equals: 0}\n"
        "  - privloss: {of: PC, delta: 0, equals: 2*log(1 + p)}\n"
        "  - profile_le: {of: P, than: M}\n"
        "  - privloss: {of: AB, delta: 0, equals: log(1 + 3*p)}\n"
    )
    verdicts = verify_text(text, "k.yaml").verdicts
    assert [v.status for v in verdicts] == ["holds"] * 4 + ["fails"], [shown(v).found for v in verdicts]


# W with p replaced by two symbols: after "vw" the posterior of v is a/(a + b), 0/0 at a = b = 0.
TWO = """  W:
    tree:
      respond:
        u: {p: [1 - a/2 - b/2, 1 - a/2 - b/2], then: {ask: {A: {0: [3/4, 1/4], 1: [1/4, 3/4]}}}}
        v: {p: [a/2, a/2], then: {ask: {A: {0: [1/2, 1/2], 1: [1/2, 1/2]}}}}
        w: {p: [b/2, b/2], then: {ask: {A: {0: [3/4, 1/4], 1: [1/4, 3/4]}}}}
  PW: {postprocess: {mechanism: W, map: {v: vw, w: vw}}}"""


def test_a_posterior_that_may_be_zero_over_zero_is_a_located_error():
    with pytest.raises(CaseError) as err:
        _case(TWO, "symbols: {a: {ge: 0, le: 1}, b: {ge: 0, le: 1}}")
    text = str(err.value)
    assert "mechanisms.PW.postprocess.map" in text and "its denominator 4*(a + b) may vanish" in text, text


def test_the_same_posterior_is_defined_when_the_bounds_exclude_zero():
    case = _case(TWO, "symbols: {a: {gt: 0, le: 1}, b: {gt: 0, le: 1}}")
    assert is_symbolic_mechanism(case.mechanisms["PW"])


@SETTINGS
@given(_unit(), _unit())
def test_two_symbol_posteriors_at_random_points_are_the_numeric_mechanism(a, b):
    assert_same_at(TWO, "{a: {gt: 0, le: 1}, b: {gt: 0, le: 1}}", {"a": a, "b": b})


# --- automata and continual mechanisms (Henzinger, Safavi & Vadhan 2024, Def. 2.6, 3.1, 5.1) -------

# H: the answer a hides whether the state moved to lo or hi (drawn with probabilities in p), so
# the later answers are posterior mixtures.  C and IM: the Cor. 3.8 pair of
# cases/continual/cor38-cm-vs-im.yaml with the flip probability d = p a symbol.  P: sparse parallel
# composition (Def. 5.1) of a continual RR keeping the message w.p. (2 + p)/4 (ratio at most 3:
# log(3)-DP, the menu's premise, for every p in (0, 1)).  I: an initial distribution in p per
# dataset, then a hidden walk between a and b.
AUTOMATA = """  H:
    automaton:
      states: [s0, lo, hi, done]
      initial: s0
      horizon: 3
      final: [done]
      transitions:
        s0:
          q: {a: [{p: [p, 1 - p], next: lo}, {p: [1 - p, p], next: hi}]}
        lo:
          q: {"0": {p: [3/4, 1/4]}, "1": {p: [1/4, 3/4], next: done}}
        hi:
          q: {"0": {p: [p^2, 1 - p^2], next: lo}, "1": {p: [1 - p^2, p^2]}}
  Md:
    automaton:
      states: [s0, s1]
      initial: s0
      horizon: 2
      transitions:
        s0:
          "0": &flip {"0": {p: 1 - p, next: s0}, "1": {p: p, next: s1}}
          "1": *flip
        s1:
          "0": {"0": {p: 1}}
          "1": {"1": {p: 1}}
  C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
  Step:
    automaton:
      states: [s]
      initial: s
      horizon: 2
      transitions:
        s:
          "0": {"0": {p: (2 + p)/4}, "1": {p: (2 - p)/4}}
          "1": {"0": {p: (2 - p)/4}, "1": {p: (2 + p)/4}}
  B: {continual: {mechanism: Step, verifier: {max_differing: 1}}}
  P: {sparse_parallel: {menu: {B: {mechanism: B, eps: log(3), delta: 0}}, params: [[log(3), 0]], cap: 2}}
  I:
    automaton:
      states: [a, b]
      initial: {x0: {a: p, b: 1 - p}, x1: {a: "(1 - p)^2", b: p*(2 - p)}}
      horizon: 2
      transitions:
        a:
          q: {"0": {p: 3/4}, "1": {p: 1/4, next: b}}
        b:
          q: {"1": {p: p}, "0": {p: 1 - p, next: a}}"""


@SETTINGS
@given(_unit())
def test_automata_and_continual_mechanisms_at_random_points_are_the_numeric_mechanisms(p):
    assert_same_at(AUTOMATA, UNIT, {"p": p})


def test_continual_cor_3_8_for_every_flip_probability():
    """Cor. 3.8 of Henzinger-Safavi-Vadhan for every flip probability d: the continual mechanism
    (flip to s1 w.p. d, then echo the message) has the profile of RR_(0, d), whose delta at eps = 0
    is d; with a fixed d = 1/4 this is cases/continual/cor38-cm-vs-im.yaml."""
    text = (
        f"exactdp: 1\nname: c\nsymbols: {UNIT}\nmechanisms:\n{AUTOMATA}\n  RR0: {{rr: {{eps: 0, delta: p}}}}\nclaims:\n"
        "  - profile_eq: {of: C, as: RR0}\n"
        "  - delta: {of: C, eps: 0, equals: p}\n"
        "  - delta: {of: C, eps: 0, equals: p^2}\n"
    )
    verdicts = verify_text(text, "c.yaml").verdicts
    # first the premise of P (its menu item B is log(3)-DP: ratio (2 + p)/(2 - p) <= 3), checked too
    assert "premise" in verdicts[0].claim.describe(), verdicts[0].claim.describe()
    assert [v.status for v in verdicts] == ["holds"] * 3 + ["fails"], [shown(v).found for v in verdicts]


HIDDEN_TWO = """  H:
    automaton:
      states: [s0, A, B]
      initial: s0
      horizon: 2
      transitions:
        s0:
          q: {m: [{p: a/2, next: A}, {p: b/2, next: B}], n: {p: 1 - a/2 - b/2}}
        A:
          q: {"0": {p: [3/4, 1/4]}, "1": {p: [1/4, 3/4]}}
        B:
          q: {"0": {p: [1/2, 1/2]}, "1": {p: [1/2, 1/2]}}"""


def test_a_hidden_state_posterior_that_may_be_zero_over_zero_is_a_located_error():
    """After m the state is A w.p. a/(a + b): 0/0 at a = b = 0, allowed by the bounds."""
    with pytest.raises(CaseError) as err:
        _case(HIDDEN_TWO, "symbols: {a: {ge: 0, le: 1}, b: {ge: 0, le: 1}}")
    text = str(err.value)
    assert "mechanisms.H.automaton.transitions" in text and "may vanish" in text and "a + b" in text, text
    assert is_symbolic_mechanism(_case(HIDDEN_TWO, "symbols: {a: {gt: 0, le: 1}, b: {gt: 0, le: 1}}").mechanisms["H"])


def test_symbolic_transition_sums_must_be_identically_one():
    bad = HIDDEN_TWO.replace("n: {p: 1 - a/2 - b/2}", "n: {p: 1 - a/2}")
    with pytest.raises(CaseError) as err:
        _case(bad, "symbols: {a: {gt: 0, le: 1}, b: {gt: 0, le: 1}}")
    text = str(err.value)
    assert "mechanisms.H.automaton.transitions.s0.q" in text and "not identically 1" in text, text


# --- null_extension and concomp_ordered (Vadhan & Wang 2021, Def. 2.3, 2.4), which move
# probabilities without arithmetic and so took symbols already: the same cross-check ---------------

ORDERED = """  R: {rr: {eps: log(1 + p)}}
  T:
    tree:
      respond:
        c0: {p: [p, 1 - p], then: {ask: {A: {0: [3/4, 1/4], 1: [1/4, 3/4]}}}}
        c1: {p: [1 - p, p]}
  N: {null_extension: {mechanism: T, nulls: 2}}
  O: {concomp_ordered: [T, R]}
  ON: {concomp_ordered: [N, R]}"""


@SETTINGS
@given(_unit())
def test_null_extension_and_ordered_composition_at_random_points_are_the_numeric_mechanisms(p):
    assert_same_at(ORDERED, UNIT, {"p": p})


# --- the sparse vector technique with symbolic noise (Lyu, Su & Li 2017; Dwork & Roth 2014, §3.6) --

# H: AboveThreshold with a hidden threshold noise of width 2 whose alpha is 1/E, and query noise
# alpha = 1/2.  I: the two-sided geometric on all of Z (alpha = 1/E and 1/E^2): the tails of the
# threshold's posterior are geometric series, rational functions of E.  R: alg3-style release of
# the noisy value clamped to [-1, 2], threshold resampled after each above.
SVT = """  H:
    svt:
      menu: {up: [0, 1], down: [1, 0]}
      horizon: 2
      threshold_noise: {geometric: {eps: log(E), width: 2}}
      query_noise: {geometric: {eps: log(2), width: 2}}
      halt_after: 1
  I:
    svt:
      menu: {up: [0, 1], down: [1, 0]}
      horizon: 2
      threshold_noise: {geometric: {eps: log(E)}}
      query_noise: {geometric: {eps: 2*log(E)}}
      halt_after: 1
  R:
    svt:
      menu: {up: [0, 1], flat: [1, 1]}
      horizon: 2
      threshold_noise: {geometric: {alpha: 1/E}}
      query_noise: {geometric: {alpha: 1/(E + 1), width: 3}}
      halt_after: 2
      resample: true
      release: {lo: -1, hi: 2}"""


@settings(SETTINGS, max_examples=3)  # each example builds three SVTs twice (about 7 s)
@given(_above_one())
def test_svt_with_symbolic_noise_at_random_points_is_the_numeric_mechanism(E):
    assert_same_at(SVT, "{E: {gt: 1}}", {"E": E})


def test_svt_closed_form_meets_the_numeric_engine_at_e_2():
    """PrivLoss(I, 0) at E = 2 is log(536/71) by the numeric engine on the case with params E: 2;
    the closed form for every E > 1 gives E^3 (E^5 + E^4 + E^3 + 2E^2 + E + 1)/(E^5 + E^4 + 2E^3 +
    E^2 + E + 1) = 8 * 67/568 = 536/71 there."""
    case = _case(SVT, "symbols: {E: {gt: 1}}")
    (piece,) = privloss_of(case.mechanisms["I"], case.symbols, 0).pieces
    assert piece.value_text() == "log(E^3*(E^5 + E^4 + E^3 + 2*E^2 + E + 1)/(E^5 + E^4 + 2*E^3 + E^2 + E + 1))"
    num = _case(SVT, "params: {E: 2}")
    assert str(profile.privloss(num.mechanisms["I"], 0)) == "log(536/71)"


# Lyu-Su-Li variants with e^eps = E^4: alg1's noises have alpha = e^(-eps/2) = E^-2 and
# e^(-eps/4) = 1/E; alg3 (Roth 2011) releases the noisy value, clamped; alg6 never halts.
VARIANTS = """  A1: {svt: {variant: alg1, eps: 4*log(E), horizon: 2, menu: {up: [0, 1], down: [1, 0]}}}
  A3: {svt: {variant: alg3, eps: 4*log(E), horizon: 1, menu: {up: [0, 1]}, release: {lo: -1, hi: 1}}}
  A6: {svt: {variant: alg6, eps: 4*log(E), horizon: 2, width: 2, menu: {up: [0, 1], down: [1, 0]}}}"""


@settings(SETTINGS, max_examples=3)
@given(_above_one())
def test_svt_variants_with_a_symbolic_eps_at_random_points_are_the_numeric_mechanisms(E):
    assert_same_at(VARIANTS, "{E: {gt: 1}}", {"E": E})


def test_alg1_is_eps_dp_for_every_eps_lyu_su_li_2017():
    """Lyu, Su & Li 2017 prove their Alg. 1 eps-DP; with e^eps = E^4 it holds for every E > 1 at once."""
    text = f"exactdp: 1\nname: a\nsymbols: {{E: {{gt: 1}}}}\nmechanisms:\n{VARIANTS}\nclaims:\n  - dp: {{of: A1, eps: 4*log(E)}}\n"
    assert [v.status for v in verify_text(text, "a.yaml").verdicts] == ["holds"]


@pytest.mark.parametrize(
    ("eps", "bounds", "place", "phrase"),
    [
        ("log(E)", "{gt: 1}", "A1.svt", "alpha = e^(-eps/2) = 1/sqrt(E), which is not a rational function"),
        ("4*log(E)", "{ge: 1}", "A1.svt.eps", "could not prove eps > 0"),
    ],
)
def test_hostile_svt_symbols_are_located_errors(eps, bounds, place, phrase):
    with pytest.raises(CaseError) as err:
        _case(VARIANTS.replace("4*log(E)", eps), f"symbols: {{E: {bounds}}}")
    text = str(err.value)
    assert f"mechanisms.{place}:" in text and phrase in text, text


# --- a pmf noise whose probabilities are rational functions of the symbols -----------------------

PMF = """  P: {report_noisy_max: {values: [[1, 0], [0, 1]], noise: {pmf: {"0": 1/2, "1": E/(2*E + 2), "-1": 1/(2*E + 2)}}}}
  S:
    svt:
      menu: {up: [0, 1], down: [1, 0]}
      horizon: 2
      threshold_noise: {pmf: {"0": E/(E + 1), "1": 1/(E + 1)}}
      query_noise: {pmf: {"0": 1/2, "1": 1/4, "-1": 1/4}}
      halt_after: 1"""


@settings(SETTINGS, max_examples=3)
@given(_above_one())
def test_pmf_noises_with_symbols_at_random_points_are_the_numeric_mechanisms(E):
    assert_same_at(PMF, "{E: {gt: 1}}", {"E": E})


def test_a_symbolic_pmf_must_sum_to_one_identically():
    with pytest.raises(CaseError) as err:
        _case(PMF.replace('"-1": 1/(2*E + 2)', '"-1": 1/(E + 2)'), "symbols: {E: {gt: 1}}")
    text = str(err.value)
    assert "mechanisms.P.report_noisy_max.noise.pmf:" in text and "not identically 1" in text, text


@pytest.mark.parametrize(
    ("form", "place"),
    [
        ("{discrete_gaussian: {sigma2: E, bounds: [0, 2], data: [0, 1]}}", "G.discrete_gaussian.sigma2"),
        ("{discrete_gaussian: {scale: E, bounds: [0, 2], data: [0, 1]}}", "G.discrete_gaussian.scale"),
        (
            "{report_noisy_max: {values: [[1, 0], [0, 1]], noise: {gaussian: {sigma2: E, width: 2}}}}",
            "G.report_noisy_max.noise.gaussian.sigma2",
        ),
    ],
)
def test_a_symbolic_gaussian_variance_is_refused_saying_why(form, place):
    """The discrete Gaussian's weights e^(-z^2/(2 sigma^2)) are transcendental in sigma^2: no
    rational function of the symbols, so no closed form for the parametric engine."""
    with pytest.raises(CaseError) as err:
        _case(f"  G: {form}", "symbols: {E: {gt: 1}}")
    text = str(err.value)
    assert f"mechanisms.{place}:" in text and "transcendental in sigma^2" in text, text
