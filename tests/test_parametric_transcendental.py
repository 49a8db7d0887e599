"""Claims with symbols that meet a transcendental number, and trade-off values with symbols.

Signs of G(s) - e^m on cells (exactdp.analysis.parametric.transcendental), bounds q + log(...)
with a rational part, dp at a decimal eps against a mechanism with symbols, and T(M)(alpha)
piecewise (Dong-Roth-Su 2022, Def. 2.1), each cross-checked against the exact concrete engine at
random rational points.
"""

from __future__ import annotations

import json
from fractions import Fraction

import flint
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as numeric_profile
from exactdp.analysis.parametric import ExpAffine, MaxOf, Ring, decompose, domain_of_table
from exactdp.analysis.parametric.queries import tradeoff_of
from exactdp.analysis.parametric.transcendental import exp_sign, exp_sign_at, exp_witness
from exactdp.analysis.tradeoff import envelope_tradeoff
from exactdp.claims.base import FAILS, HOLDS, Analysis
from exactdp.claims.core import DPClaim, NotDPClaim
from exactdp.claims.parametric import analysis_at, decide, numeric_mechanism
from exactdp.numbers import Q, ladder
from exactdp.numbers.certified import sign_r_exp_s_minus_q
from exactdp.numbers.symbolic import SymbolBounds, SymbolTable
from exactdp.report.verdicts import shown
from exactdp.verify import verify_text

from .test_parametric import TABLE_CLOSED, TABLE_OPEN, _points, _sympy_point, sym_mechanisms

SLOW = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _sign_at(G, m, pt) -> int:
    """sign(G(pt) - e^m), computed from sign_r_exp_s_minus_q (independent of transcendental.py)."""
    v = G.at(pt)
    return -sign_r_exp_s_minus_q(1, Fraction(int(m.p), int(m.q)), Fraction(int(v.p), int(v.q)))


# --- signs of G - e^m ----------------------------------------------------------------------------

small = st.integers(-6, 6)


@SLOW
@given(st.data(), st.lists(small, min_size=1, max_size=4), st.lists(small, min_size=1, max_size=3), small)
def test_exp_sign_is_the_sign_at_every_point_of_the_cell(data, num, den, m_num):
    """On each cell the sign proved is the sign at random rational points; where both signs are
    reported, rational points of each sign are found inside the cell."""
    m = flint.fmpq(m_num or 1, 3)
    ring = Ring(["p"])
    p = ring.gen("p")
    N = sum((c * p**k for k, c in enumerate(num)), ring.zero)
    D = sum((c * p ** (2 * k) for k, c in enumerate(den)), ring.zero)
    D = D * D + ring.one  # positive on the line: no pole
    G = N / D

    def run(ctx):
        s = exp_sign(ctx, G, m)
        return s, ({w: exp_witness(ctx, G, m, w) for w in (1, -1)} if s == 0 else {})

    dec = decompose(ring, domain_of_table(TABLE_CLOSED, ["p"]), run)
    for cell, (s, wits) in dec.cells:
        if s:
            for pt in _points(cell, data):
                assert _sign_at(G, m, pt) == s
        else:
            assert cell.sides[0].kind != "point"
            for want, pt in wits.items():
                assert _sign_at(G, m, pt) == want == exp_sign_at(G, m, pt)
                lo, hi = cell.sides[0].rational_bounds()
                assert lo <= pt["p"] <= hi


def test_exp_witness_reaches_a_narrow_region_next_to_an_algebraic_pole():
    """On 1 < E < sqrt(2), 1/(2 - E^2) > e^20 only within 1e-9 of the pole sqrt(2): the witness
    search refines the end's isolating interval as it goes (a fixed inner end would stall)."""
    ring = Ring(["E"])
    E = ring.gen("E")
    G = ring.one / (2 - E * E)
    m = flint.fmpq(20)
    table = SymbolTable.build([SymbolBounds("E", Q(1), False, Q(2), False)])

    def run(ctx):
        if ctx.cell.sides[0].kind == "point":
            return None, None
        s = exp_sign(ctx, G, m)
        return s, (exp_witness(ctx, G, m, 1) if s == 0 else None)

    dec = decompose(ring, domain_of_table(table, ["E"]), run)
    (pt,) = [w for _, (s, w) in dec.cells if s == 0]
    assert flint.fmpq(14142135, 10**7) < pt["E"] < flint.fmpq(14142136, 10**7)
    assert _sign_at(G, m, pt) == 1


# --- T(M)(alpha) with symbols --------------------------------------------------------------------


@SLOW
@given(st.data(), st.sampled_from([Q(0), Q(1, 5), Q(1, 2), Q(3, 4), Q(1)]))
def test_tradeoff_closed_form_at_random_points(data, alpha):
    """T(M)(alpha) on every piece equals the concrete trade-off function at rational points
    (Dong-Roth-Su 2022, Def. 2.1: one minus the envelope chain)."""
    mech = data.draw(sym_mechanisms(TABLE_CLOSED))
    pw = tradeoff_of(mech, TABLE_CLOSED, alpha)
    for piece in pw.pieces:
        for cell in piece.cells:
            for pt in _points(cell, data):
                num = numeric_mechanism(mech, _sympy_point(TABLE_CLOSED, pt))
                want = envelope_tradeoff(numeric_profile.profile(num)).value_at(alpha)
                assert Fraction(str(piece.value.at(pt))) == Fraction(str(want))


TRADEOFF = """
exactdp: 1
name: t
symbols: {E: {gt: 1, le: 3}}
mechanisms: {R: {rr: {eps: log(E)}}, M: {compose: [R, R]}}
claims:
CLAIMS
"""


def _verdicts(claims: str, text: str = TRADEOFF):
    return verify_text(text.replace("CLAIMS", claims), "t.yaml").verdicts


def test_tradeoff_of_rr_with_symbols_in_alpha_and_value():
    """T(RR_E)(alpha) = 1 - E*alpha up to the vertex 1/(1 + E), (1 - alpha)/E after it (DRS 2022, Def. 2.1)."""
    vs = _verdicts(
        "  - tradeoff: {of: R, alpha: 1/(E + 1), equals: 1/(E + 1)}\n"
        "  - tradeoff: {of: R, alpha: 1/2, equals: 1/(2*E)}\n"
        "  - tradeoff: {of: R, alpha: 1/2, equals: 1/(E + 1)}\n"
    )
    assert [v.status for v in vs] == [HOLDS, HOLDS, FAILS]
    assert "fails at E = " in shown(vs[2]).found


def test_tradeoff_with_symbols_was_refused_before():
    """Before, a value in the symbols was a reader error and the kind was undecided with symbols."""
    (v,) = _verdicts("  - tradeoff: {of: M, alpha: 1/4, at_least: 1/10}\n")
    assert v.status == HOLDS


# --- bounds with a rational part -----------------------------------------------------------------

RR = """
exactdp: 1
name: rr
symbols: {E: {gt: 1, le: 3}}
mechanisms: {R: {rr: {eps: log(E)}}}
claims:
CLAIMS
"""


def test_privloss_and_renyi_bounds_with_a_rational_part():
    """PrivLoss(RR_E, 0) = log(E) (Vadhan-Wang 2021, Sec. 5) and D_2(RR_E) = log((E^2 - E + 1)/E)
    (Mironov 2017, Prop. 5's sum for alpha = 2): compared with q + log(...) by certified signs."""
    vs = _verdicts(
        "  - privloss: {of: R, delta: 0, at_most: log(E) + 1}\n"
        "  - privloss: {of: R, delta: 0, at_most: 1}\n"  # e < 3: fails for E > e
        "  - renyi: {of: R, alpha: 2, at_most: log(E) + 1/2}\n"
        "  - renyi: {of: R, alpha: 2, at_most: log(E) - 1/2}\n"
        "  - renyi: {of: R, alpha: 1, at_most: log(E) - 1/2}\n",
        RR,
    )
    assert [v.status for v in vs] == [HOLDS, FAILS, HOLDS, FAILS, FAILS]
    at = vs[1].facts["refuted_at"]["E"]
    assert at > flint.fmpq(2718, 1000)  # a rational E > e, where log(E) > 1


def test_a_bound_with_a_rational_part_that_cannot_be_proved_nonnegative_is_a_located_error():
    fr = verify_text(RR.replace("CLAIMS", "  - privloss: {of: R, delta: 0, at_most: log(E) - 1}\n"), "t.yaml")
    assert fr.exit_code == 2
    assert "t.yaml:7:42: claims[0].privloss.at_most" in str(
        fr.error
    ) and "could not prove eps = log(E) - 1 >= 0" in str(fr.error)


# --- dp at a decimal eps ------------------------------------------------------------------------


def test_dp_at_a_decimal_eps_against_a_symbol():
    """delta_RR_E(e^0.7) = (E - e^0.7)/(1 + E) for E > e^0.7 (Kairouz-Oh-Viswanath 2015, Thm 3.3
    with k = 1): <= 1/5 iff E <= (5 e^0.7 + 1)/4 = 2.7638..., so it fails on (2.76.., 3]; <= 1/3
    iff E <= (3 e^0.7 + 1)/2 = 3.52.. > 3, so it holds."""
    vs = _verdicts(
        "  - dp: {of: R, eps: 0.7, delta: 1/5}\n"
        "  - dp: {of: R, eps: 0.7, delta: 1/3}\n"
        "  - not_dp: {of: R, eps: 0.1, delta: 0}\n"
        "  - dp: {of: R, eps: 1.2, delta: 0}\n",  # e^1.2 = 3.32 > 3 >= E
        RR,
    )
    assert [v.status for v in vs] == [FAILS, HOLDS, FAILS, HOLDS]
    at = vs[0].facts["refuted_at"]["E"]
    assert flint.fmpq(2763, 1000) < at <= 3
    assert vs[2].facts["refuted_at"]["E"] < flint.fmpq(1106, 1000)  # e^0.1 = 1.10517...
    details = "\n".join(shown(vs[0]).details)
    assert "fails in part" in details and "max(0, (E - exp(7/10))/(E + 1))" in details


def test_delta_at_a_decimal_eps_is_decided():
    """delta_R(e^0.7) = 0 iff E <= e^0.7 = 2.0137...: on 1 < E <= 3 it fails in part, refuted at a
    rational E above e^0.7 (Vadhan & Wang 2021, Def. 1.9: RR's largest ratio is E)."""
    (v,) = _verdicts("  - delta: {of: R, eps: 0.7, equals: 0}\n", RR)
    assert v.status == "fails", shown(v)
    (piece,) = [p for p in json.loads(json.dumps(shown(v).values))["pieces"] if "fails_at" in p]
    assert Fraction(piece["fails_at"]["E"]) > Fraction(20137, 10000)


def test_a_decimal_eps_verdict_in_json():
    text = RR.replace("CLAIMS", "  - dp: {of: R, eps: 0.7, delta: 1/5}\n")
    (v,) = verify_text(text, "rr.yaml").verdicts
    d = json.loads(json.dumps(shown(v).values))
    (piece,) = [p for p in d["pieces"] if "fails_at" in p]
    assert Fraction(piece["fails_at"]["E"]) > Fraction(2763, 1000)


def _check_delta_form(form, an, pt, eps) -> None:
    """The closed form shown for delta(e^eps) on a cell (A - e^q B, or the largest of several) is
    the concrete engine's delta at the point, exactly in Q(e^(1/L))."""
    if not isinstance(form, (ExpAffine, MaxOf)):
        return
    parts = form.parts if isinstance(form, MaxOf) else (form,)
    lam = ladder.exp(Q(eps))
    vals = [ladder.sub(Q(str(f.A.at(pt))), ladder.mul(Q(str(f.B.at(pt))), lam)) for f in parts]
    best = vals[0]
    for x in vals[1:]:
        if ladder.cmp(x, best) > 0:
            best = x
    assert ladder.cmp(best, analysis_at(an, pt).delta_at("T", eps)) == 0


@SLOW
@given(
    st.data(),
    st.sampled_from([Q(1, 10), Q(7, 10), Q(3, 2)]),
    st.sampled_from([Q(0), Q(1, 10), Q(1, 3)]),
    st.booleans(),
)
def test_dp_at_a_decimal_eps_agrees_with_the_concrete_engine(data, eps, delta, negated):
    """The verdict for every value of p agrees with the exact concrete engine (which computes in
    Q(e^(1/L))): a refutation is the concrete engine's, and a claim that holds holds at random
    rational points."""
    mech = data.draw(sym_mechanisms(TABLE_OPEN, max_depth=2))
    an = Analysis({"T": mech}, symbols=TABLE_OPEN)
    cls = NotDPClaim if negated else DPClaim
    claim = cls(of="T", eps=eps, delta=delta)
    v = decide(claim, an)
    for piece in v.facts.get("pieces", ()):
        for cell in piece.cells:
            for pt in _points(cell, data):
                _check_delta_form(piece.value.found, an, pt, eps)
    if v.status == FAILS:
        pt = v.facts["refuted_at"]
        assert claim.check(analysis_at(an, pt)).status == FAILS
    elif v.status == HOLDS:
        for _ in range(3):
            t = data.draw(st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100))
            pt = {"p": flint.fmpq(t.numerator, t.denominator)}
            assert claim.check(analysis_at(an, pt)).status == HOLDS
    else:  # only not_dp may be left undecided (a crossing it cannot place)
        assert negated, shown(v).note


# --- conversions with symbols -------------------------------------------------------------------


def test_conversions_with_a_symbol_are_decided_at_whole_orders():
    """Mironov 2017, Prop. 3 and Canonne-Kamath-Steinke 2020, Prop. 12 hold for RR_E (theorems);
    a fractional order and zcdp-to-dp stay undecided with the reason."""
    vs = _verdicts(
        "  - conversion: {of: R, theorem: renyi-to-dp, alpha: 2, delta: 1/10}\n"
        "  - conversion: {of: M, theorem: renyi-to-dp-cks, alpha: 3, delta: 1/10}\n"
        "  - conversion: {of: R, theorem: renyi-to-dp, alpha: 3/2, delta: 1/10}\n"
        "  - conversion: {of: R, theorem: zcdp-to-dp, rho: 1/2, delta: 1/10}\n",
    )
    assert [v.status for v in vs] == [HOLDS, HOLDS, "error", "error"]
    assert "fractional order" in shown(vs[2]).note and "a square root, or a minimum over the order" in shown(vs[3]).note


@SLOW
@given(st.data(), st.sampled_from([2, 3]), st.sampled_from([Q(1, 10), Q(1, 3)]), st.booleans())
def test_conversions_agree_with_the_concrete_engine(data, alpha, delta, cks):
    """The parametric verdict (cross-checked inside against the concrete claim at a point of every
    cell) is the concrete verdict: at random rational points when it holds, at the refuting value
    when it fails."""
    from exactdp.claims.renyi import ConversionClaim

    mech = data.draw(sym_mechanisms(TABLE_OPEN, max_depth=2))
    an = Analysis({"T": mech}, symbols=TABLE_OPEN)
    claim = ConversionClaim(of="T", theorem="renyi-to-dp-cks" if cks else "renyi-to-dp", alpha=alpha, delta=delta)
    v = decide(claim, an)
    assert v.status == HOLDS  # theorems: a bound below 0 (CKS at a large delta) still says (0, delta)-DP
    t = data.draw(st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100))
    assert claim.check(analysis_at(an, {"p": flint.fmpq(t.numerator, t.denominator)})).status == HOLDS


def test_a_bound_with_a_transcendental_inside_a_log_is_undecided_not_an_internal_error():
    """log(1 + e^0.1) is no log of a rational function (its argument is transcendental); it used to
    reach SymPy's polynomial conversion and stop with an internal error."""
    (v,) = _verdicts("  - privloss: {of: R, delta: 0, at_most: log(1 + exp(0.1))}\n", RR)
    assert v.status == "error" and "is not the log of a rational function" in shown(v).note
