"""Gaussian DP with a symbol, decided by certified boxes on every cell
(exactdp.analysis.parametric.gdp_boxes, exactdp.claims.parametric_gdp).

Known answer (Dong, Roth & Su 2022, Def. 2.6, and the trade-off function of randomized
response): RR_E answers the true bit with probability E/(1 + E), so T(RR_E) has the one interior
vertex (1/(1 + E), 1/(1 + E)).  T ≥ G_μ there (and so everywhere: T − G_μ is concave on each
segment) iff Φ(Φ⁻¹(E/(1 + E)) − μ) ≤ 1/(1 + E) iff Φ⁻¹(E/(1 + E)) − μ ≤ Φ⁻¹(1/(1 + E)) =
−Φ⁻¹(E/(1 + E)), i.e. the least μ is

    μ*(E) = 2·Φ⁻¹(E/(1 + E)),  equivalently  RR_E is μ-GDP iff E ≤ Φ(μ/2)/Φ(−μ/2).

For μ = 1: Φ(1/2)/Φ(−1/2) = 0.691462.../0.308537... = 2.241096...; for μ = 2:
Φ(1)/Φ(−1) = 0.841344.../0.158655... = 5.302974....

Cross-check: at random rational values of the symbol, the exact concrete engine (the mechanism
with the symbol given the value) never contradicts a verdict for the whole range.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis.gdp import check_gdp
from exactdp.analysis.parametric.gdp_boxes import gaussian_lower, gaussian_upper, point_below
from exactdp.analysis.tradeoff import envelope_tradeoff
from exactdp.claims import Analysis
from exactdp.claims.fdp import GDPClaim, NotGDPClaim
from exactdp.claims.parametric import check_claim, numeric_mechanism
from exactdp.limits import DEFAULT
from exactdp.numbers.certified import arb_prec
from exactdp.numbers.rational import Q
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text

from .test_parametric import TABLE_CLOSED, sym_mechanisms

RR = """
exactdp: 1
name: gdp
symbols: {E: {gt: 1, DOMAIN}}
mechanisms:
  R: {rr: {eps: log(E)}}
  M: {compose: [R, R]}
claims: CLAIMS
"""

TWO_ROUND = """
exactdp: 1
name: gdp2
symbols: {p: {ge: LO, le: HI}}
mechanisms:
  T:
    tree:
      respond:
        c0: {p: [1/2, 1/2], then: {ask: {A: &a {0: [3/4, 1/4], 1: [1/4, 3/4]}, B: &b {0: [p, 1 - p], 1: [1 - p, p]}}}}
        c1: {p: [1/2, 1/2], then: {ask: {A: *b, B: *a}}}
claims: CLAIMS
"""


def _verdicts(claims: str, text: str = RR, domain: str = "le: 4", **limits):
    opts = Options(limits=DEFAULT.replace(**limits))
    return verify_text(text.replace("CLAIMS", claims).replace("DOMAIN", domain), "gdp.yaml", opts).verdicts


def test_rr_is_mu_gdp_exactly_below_the_closed_form_threshold():
    """E ≤ Φ(1/2)/Φ(−1/2) = 2.241096... for μ = 1 (module docstring): 2241/1000 holds, 22411/10000
    fails (at the closed end), an open end 22411/10000 fails at a value found by the search."""
    (a,) = _verdicts("[{gdp: {of: R, mu: 1}}]", domain="le: 2241/1000")
    assert a.status == "holds", a.reason
    assert "holds for every value: E > 1 and E <= 2241/1000" in shown(a).found
    (b,) = _verdicts("[{gdp: {of: R, mu: 1}}]", domain="le: 22411/10000")
    assert b.status == "fails"
    assert shown(b).values["refuted_at"] == {"E": "22411/10000"}
    assert b.facts["there"].status == "fails"
    (c,) = _verdicts("[{gdp: {of: R, mu: 1}}]", domain="lt: 22411/10000")
    assert c.status == "fails"
    e = Fraction(shown(c).values["refuted_at"]["E"])
    assert Fraction(2241096, 10**6) < e < Fraction(22411, 10000)


def test_mu_two_and_the_negation():
    """μ = 2: threshold 5.302974...; not_gdp with μ = 1 holds on E ≥ 3 and fails at E ≤ 2.24."""
    a, b, c = _verdicts("[{gdp: {of: R, mu: 2}}, {gdp: {of: M, mu: 2}}, {not_gdp: {of: R, mu: 1}}]", domain="le: 53/10")
    assert a.status == "holds", a.reason
    assert b.status == "fails"  # two-fold composition: tighter (μ* of the product is larger than 2 at E = 53/10)
    assert c.status == "fails"
    assert Fraction(shown(c).values["refuted_at"]["E"]) < Fraction(2241097, 10**6)
    (d,) = _verdicts("[{not_gdp: {of: R, mu: 1}}]", text=RR.replace("gt: 1", "ge: 3"))
    assert d.status == "holds", d.reason
    (e,) = _verdicts("[{gdp: {of: R, mu: 2}}]", domain="le: 27/5")
    assert e.status == "fails"


def test_mu_a_function_of_the_symbol():
    """μ = E ≥ 2Φ⁻¹(E/(1 + E)) on 1 < E ≤ 4 (at E = 4, 2Φ⁻¹(4/5) = 1.683...); μ = (E − 1)/2 fails
    near E = 1 where μ*(E) ~ 2·(E − 1)/(4·φ(0))·... > (E − 1)/2 (μ*'(1) = 1/φ(0)/2 = 1.2533...)."""
    a, b = _verdicts("[{gdp: {of: R, mu: E}}, {gdp: {of: R, mu: (E - 1)/2}}]")
    assert a.status == "holds", a.reason
    assert b.status == "fails"


def test_undecided_unbounded_range_and_several_symbols():
    (a,) = _verdicts("[{gdp: {of: R, mu: E}}]", text=RR.replace(", DOMAIN", ""))
    assert a.status not in ("holds", "fails")
    assert "unbounded range" in a.reason
    text = RR.replace("symbols: {E: {gt: 1, DOMAIN}}", "symbols: {E: {gt: 1, le: 4}, m: {ge: 1, le: 2}}")
    (b,) = _verdicts("[{gdp: {of: R, mu: m}}]", text=text)
    assert b.status not in ("holds", "fails")
    assert "several symbols" in b.reason


def test_box_limit_is_named():
    (a,) = _verdicts("[{gdp: {of: R, mu: 1}}]", domain="le: 22410/10000", max_symbol_boxes=1)
    if a.status != "holds":
        assert "--max-symbol-boxes" in a.reason


def test_two_round_mechanism_on_cells():
    """For 1/10 ≤ p ≤ 9/10 the adversary's most revealing query is RR with ratio max(3, p/(1−p), (1−p)/p)
    ≤ 9, whose least μ is 2Φ⁻¹(9/10) = 2.563...: 3-GDP holds, 5/2-GDP fails near p = 1/10 (at p = 1/10,
    2Φ⁻¹(9/10) > 5/2); not 1-GDP holds everywhere (μ* ≥ 2Φ⁻¹(3/4) = 1.349); not 2-GDP fails at p = 1/2."""
    text = TWO_ROUND.replace("LO", "1/10").replace("HI", "9/10")
    a, b, c, d = _verdicts(
        "[{gdp: {of: T, mu: 3}}, {gdp: {of: T, mu: 5/2}}, {not_gdp: {of: T, mu: 1}}, {not_gdp: {of: T, mu: 2}}]",
        text=text,
    )
    assert (a.status, b.status, c.status, d.status) == ("holds", "fails", "holds", "fails"), (a.reason, c.reason)
    p = Fraction(shown(b).values["refuted_at"]["p"])
    assert p < Fraction(11, 100) or p > Fraction(89, 100)


def test_gaussian_bounds_and_point_comparison():
    """The bounds enclose G_μ(α) (its known value G_1(1/2) = Φ(−1) = 0.1586552...) and are monotone."""
    with arb_prec(128):
        lo, hi = gaussian_lower(Fraction(1, 2), Fraction(1)), gaussian_upper(Fraction(1, 2), Fraction(1))
    assert Fraction(1586552, 10**7) <= lo <= hi <= Fraction(1586553, 10**7)
    assert point_below(Fraction(1, 2), Fraction(15865, 10**5), Fraction(1)) == -1
    assert point_below(Fraction(1, 2), Fraction(15866, 10**5), Fraction(1)) == 1
    assert point_below(Fraction(0), Fraction(1), Fraction(1)) == 0
    with arb_prec(128):
        assert gaussian_upper(Fraction(1, 3), Fraction(10**30)) >= 0  # a huge μ: read at the cap, no blow-up


def _concrete(text: str, claim: str, symbol: str, s: Fraction) -> str:
    one = text.replace("CLAIMS", f"[{{gdp: {{of: T, mu: {claim}}}}}]")
    from exactdp.caseio import parse_case

    case = parse_case(one, "c.yaml")
    mech = numeric_mechanism(
        case.mechanisms["T"], {case.symbols.symbols[symbol]: sympy.Rational(s.numerator, s.denominator)}
    )
    an = Analysis({"T": mech})
    return check_gdp(envelope_tradeoff(an.profile("T")), claim).status.value


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.fractions(min_value=Fraction(1, 20), max_value=Fraction(1, 2), max_denominator=20),
    st.fractions(min_value=Fraction(1, 2), max_value=Fraction(19, 20), max_denominator=20),
    st.fractions(min_value=1, max_value=4, max_denominator=8),
    st.fractions(min_value=0, max_value=1, max_denominator=64),
)
def test_verdict_for_the_range_agrees_with_the_exact_engine_at_a_value(lo, hi, mu, t):
    """Whatever the boxes decide on [lo, hi], the exact concrete engine at a random rational p
    of the range does not contradict it: holds ⇒ not fails at p; not_gdp holds ⇒ gdp not holds
    at p; a refutation value is in the range and fails there."""
    text = TWO_ROUND.replace("LO", str(lo)).replace("HI", str(hi))
    a, b = _verdicts(f"[{{gdp: {{of: T, mu: {mu}}}}}, {{not_gdp: {{of: T, mu: {mu}}}}}]", text=text)
    p = lo + (hi - lo) * t
    there = _concrete(text, mu, "p", p)
    if a.status == "holds":
        assert there != "fails"
        assert b.status != "holds"
    if b.status == "holds":
        assert there != "holds"
    for v in (a, b):
        if v.status == "fails":
            at = Fraction(shown(v).values["refuted_at"]["p"])
            assert lo <= at <= hi
            assert v.facts["there"].status == "fails"
    assert not (a.status == "holds" and b.status == "holds")


@pytest.mark.parametrize("mu", ["1", "3/2", "2"])
def test_rr_threshold_matches_the_closed_form(mu):
    """On 1 < E ≤ 4 RR_E is μ-GDP iff 4 ≤ Φ(μ/2)/Φ(−μ/2): 1 and 3/2 fail (2.24, 3.31), 2 holds (5.30)."""
    (v,) = _verdicts(f"[{{gdp: {{of: R, mu: {mu}}}}}]")
    assert v.status == ("holds" if mu == "2" else "fails"), v.reason


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_games_verdicts_agree_with_the_exact_engine(data):
    """Random games with a parameter p in [0, 1] (tests/test_parametric.py) and a random μ: a
    `gdp` that holds for every p is not refuted by the exact engine at a random rational p, a
    `not_gdp` that holds is not contradicted either, and a refutation fails there exactly."""
    mech = data.draw(sym_mechanisms(TABLE_CLOSED, max_depth=2))
    mu = data.draw(st.fractions(min_value=Fraction(1, 4), max_value=6, max_denominator=8))
    s = data.draw(st.fractions(min_value=0, max_value=1, max_denominator=64))
    an = Analysis({"T": mech}, symbols=TABLE_CLOSED)
    q = Q(mu.numerator, mu.denominator)
    g, ng = check_claim(GDPClaim(of="T", mu=q), an), check_claim(NotGDPClaim(of="T", mu=q), an)
    at = numeric_mechanism(mech, {TABLE_CLOSED.symbols["p"]: sympy.Rational(s.numerator, s.denominator)})
    there = check_gdp(envelope_tradeoff(Analysis({"T": at}).profile("T")), q).status.value
    if g.status == "holds":
        assert there != "fails"
    if ng.status == "holds":
        assert there != "holds"
    assert not (g.status == "holds" and ng.status == "holds")
    for v in (g, ng):
        if v.status == "fails" and "refuted_at" in v.facts:  # (a game without p is decided concretely)
            assert v.facts["there"].status == "fails"


ENDS = """
exactdp: 1
name: gdp-ends
symbols:
  p: {ge: 1/3, le: 1/3}
  q: {QDOMAIN}
mechanisms:
  B: {tree: {respond: {0: [p, 1 - p], 1: [1 - p, p]}}}
  D: {tree: {respond: {a: [q, 0], b: [1 - q, 1]}}}
claims: CLAIMS
"""


def test_a_domain_of_one_point_and_a_vertex_at_alpha_zero():
    """B at p = 1/3 is RR with ratio 2: μ* = 2Φ⁻¹(2/3) = 0.8615, so 2-GDP holds and 1/2-GDP fails at
    p = 1/3.  D has an answer impossible under x1 (probability q under x0): T(D)(0) = 1 − q < 1 =
    G_μ(0), so D is not μ-GDP for any μ when q > 0 (the vertex α = 0), and is when q = 0."""
    text = ENDS.replace("QDOMAIN", "ge: 1/10, le: 1/2")
    a, b, c = _verdicts("[{gdp: {of: B, mu: 2}}, {gdp: {of: B, mu: 1/2}}, {not_gdp: {of: D, mu: 3}}]", text=text)
    assert (a.status, b.status, c.status) == ("holds", "fails", "holds"), (a.reason, b.reason, c.reason)
    assert shown(b).values["refuted_at"] == {"p": "1/3"}
    (d,) = _verdicts("[{not_gdp: {of: D, mu: 3}}]", text=ENDS.replace("QDOMAIN", "ge: 0, le: 1/2"))
    assert d.status == "fails" and shown(d).values["refuted_at"] == {"q": "0"}
    (e,) = _verdicts("[{not_gdp: {of: D, mu: 3}}]", text=ENDS.replace("QDOMAIN", "gt: 0, le: 1/2"))
    assert e.status not in ("holds", "fails")  # true, but its margin 1 - (1 - q) vanishes as q -> 0
    assert "open end" in e.reason
