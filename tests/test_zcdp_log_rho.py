"""zCDP with a parameter written with logarithms: rho = eps^2/2 of Bun-Steinke 2016, Prop. 1.4
(``rho: log(2)^2/2``, ``rho: log(E)^2/2``).

Cross-checks: the concrete verdicts against an independent evaluation of sup_alpha D_alpha/alpha
for RR (Mironov 2017, Prop. 5, with mpmath, as a check only); the formal identity of the
logarithms (exactdp.analysis.parametric.logpoly) against the value of the expression at random
points; reading errors are located."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import flint
import mpmath
import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactdp import limits
from exactdp.analysis.parametric import Ring, pgame
from exactdp.analysis.parametric.algebraic import compare, rational, real_roots
from exactdp.analysis.parametric.boxes import UniRat
from exactdp.analysis.parametric.logpoly import LogBasis, even_nonnegative, formally_zero
from exactdp.analysis.parametric.zcdp_steps import step_sums, steps_prove
from exactdp.analysis.profile import privloss
from exactdp.analysis.zcdp import check_zcdp
from exactdp.claims.parametric import numeric_mechanism, sympy_point
from exactdp.numbers import Q
from exactdp.numbers.symball import constant_bounds, sym_ball
from exactdp.numbers.symbolic import SymbolBounds, SymbolTable, exact_constant
from exactdp.verify import Options, verify_file, verify_text

from .test_parametric import sym_mechanisms

E = sympy.Symbol("E", positive=True)


def _case(claims: str, symbols: str = "") -> str:
    head = "exactdp: 1\nname: z\n" + (f"symbols: {{{symbols}}}\n" if symbols else "")
    return head + "mechanisms:\n  R: {rr: {eps: EPS}}\nclaims:\n" + claims


def _statuses(text: str) -> list[str]:
    return [v.status.value for v in verify_text(text, "z.yaml", Options()).verdicts]


def test_the_case_holds():
    """Bun-Steinke 2016, Prop. 1.4 (derived in the case's comments)."""
    res = verify_file(Path("cases/parametric/zcdp-log-rho.yaml"), Options())
    assert [v.status.value for v in res.verdicts] == ["holds"] * len(res.verdicts)


def _sup_ratio(r: Fraction) -> float:
    """sup over alpha > 1 of D_alpha(RR_r)/alpha (Mironov 2017, Prop. 5), by mpmath at 30 digits
    on a grid plus the limit alpha -> 1 (the KL divergence): a cross-check, never a verdict."""
    with mpmath.workdps(30):
        e = mpmath.mpf(r.numerator) / r.denominator
        kl = (e - 1) / (e + 1) * mpmath.log(e)
        grid = [1 + mpmath.mpf(k) / 64 for k in range(1, 640)]
        vals = [mpmath.log((e**a + e ** (1 - a)) / (1 + e)) / (a - 1) / a for a in grid]
        return float(max([kl, *vals]))


@settings(max_examples=8, deadline=None)
@given(
    r=st.fractions(min_value=Fraction(11, 10), max_value=5, max_denominator=20),
    c=st.sampled_from([Fraction(1, 2), Fraction(1, 3), Fraction(1, 5), Fraction(2)]),
)
def test_concrete_rho_with_logarithms_agrees_with_the_formula(r, c):
    """zcdp of RR_r at rho = c*log(r)^2 against sup_alpha D_alpha/alpha computed independently."""
    rho = float(c) * float(mpmath.log(mpmath.mpf(r.numerator) / r.denominator)) ** 2
    sup = _sup_ratio(r)
    if abs(sup - rho) < 1e-6 * max(1.0, rho):
        return  # too close for a float cross-check
    text = _case(f"  - zcdp: {{of: R, rho: {c}*log({r})^2}}\n").replace("EPS", f"log({r})")
    (status,) = _statuses(text)
    assert status in ("holds", "fails", "error")
    if status != "error":  # a touching case may stay undecided, never wrong
        assert (status == "holds") == (sup < rho), (r, c, sup, rho)
    if c >= Fraction(1, 2):  # Bun-Steinke 2016, Prop. 1.4: never refuted
        assert status == "holds"


def test_rho_eps_squared_over_two_for_every_E():
    """Decided where boxes alone cannot (D_alpha/alpha and rho both tend to 0 as E -> 1): from the
    pure-DP closed form PrivLoss = log(E) and Bun-Steinke 2016, Prop. 1.4."""
    claims = "  - zcdp: {of: R, rho: log(E)^2/2}\n  - zcdp: {of: R, rho: log(E^2)^2/8}\n"
    text = _case(claims, "E: {gt: 1}").replace("EPS", "log(E)")
    assert _statuses(text) == ["holds", "holds"]


def test_a_false_rho_with_logarithms_is_refuted_at_a_rational_value():
    """KL(RR_E) = ((E - 1)/(E + 1)) log E > log(E)^2/3 for E near 1 (Mironov 2017, Prop. 5)."""
    text = _case("  - zcdp: {of: R, rho: log(E)^2/3}\n", "E: {gt: 1, le: 4}").replace("EPS", "log(E)")
    (v,) = verify_text(text, "z.yaml", Options()).verdicts
    assert v.status.value == "fails"
    at = v.facts["refuted_at"]["E"]
    assert v.facts["there"].status.value == "fails"
    e = mpmath.mpf(int(at.p)) / int(at.q)
    assert (e - 1) / (e + 1) * mpmath.log(e) > mpmath.log(e) ** 2 / 3  # the refutation is real


@pytest.mark.parametrize(
    ("rho", "message"),
    [
        ("log(1/2)^2 - 1", "must be at least 0"),
        ("log(2)^(1/2)", "no exact representation"),
        ("log(2 - 3)", "non-positive"),
        ("exp(exp(exp(100)))", "rho"),
    ],
)
def test_bad_rho_is_a_located_error(rho, message):
    text = _case(f"  - zcdp: {{of: R, rho: {rho}}}\n").replace("EPS", "log(2)")
    res = verify_text(text, "z.yaml", Options())
    assert res.invalid and message in str(res.error) and "claims[0].zcdp.rho" in str(res.error), str(res.error)


def test_enclosures_contain_the_value():
    lo, hi = constant_bounds(sympy.log(2) ** 2 / 2, 80)
    with mpmath.workdps(60):
        v = mpmath.log(2) ** 2 / 2
        assert mpmath.mpf(lo.numerator) / lo.denominator <= v <= mpmath.mpf(hi.numerator) / hi.denominator
    assert hi - lo < Fraction(1, 2**70)
    import flint

    ball = sym_ball(sympy.log(E) ** 2 / 2, {E: flint.arb(1).union(flint.arb(2))})
    assert ball.contains(0) and ball.contains(flint.arb(2).log() ** 2 / 2)


_LOGS = [sympy.log(E), sympy.log(E + 1), sympy.log(2), sympy.log(3), sympy.log((E**2 + 1) / (2 * E))]


@settings(max_examples=40, deadline=None)
@given(
    coeffs=st.lists(st.integers(-3, 3), min_size=len(_LOGS), max_size=len(_LOGS)),
    k=st.integers(1, 3),
    e=st.fractions(min_value=Fraction(11, 10), max_value=7, max_denominator=30),
)
def test_formal_identities_are_identities(coeffs, k, e):
    """log(prod R^c)^k equals (sum c log R)^k formally; a formally nonnegative expression is
    nonnegative at a random point (checked with mpmath)."""
    s = sum((c * t for c, t in zip(coeffs, _LOGS)), sympy.Integer(0))
    prod = sympy.Integer(1)
    for c, t in zip(coeffs, _LOGS):
        prod *= t.args[0] ** c
    assert formally_zero(sympy.log(prod) ** k - s**k)
    expr = s**2 - sympy.log(E) ** 2 / 2
    if even_nonnegative(expr):
        with mpmath.workdps(30):
            val = sympy.lambdify(E, expr, "mpmath")(mpmath.mpf(e.numerator) / e.denominator)
            assert val >= -(mpmath.mpf(10) ** -20)


def test_formal_checks_refuse_what_is_not_proved():
    assert not formally_zero(sympy.log(6) - sympy.log(2) - sympy.log(4))
    assert not even_nonnegative(sympy.log(E) ** 2 / 4 - sympy.log(E) ** 2 / 2)
    assert not even_nonnegative((E - 1) ** 2 / 2 - sympy.log(E) ** 2 / 2)  # true, but not formally


# --- the step-by-step bound against the concrete engine ---------------------------------------

TABLE_MID = SymbolTable.build([SymbolBounds("p", Q(1, 4), True, Q(3, 4), True)])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mech=sym_mechanisms(TABLE_MID, max_depth=2), data=st.data())
def test_the_step_bound_is_never_refuted_by_the_concrete_engine(mech, data):
    """rho = N * sum over the game's distinct likelihood ratios r of log(r)^2/2, N the number of
    chance nodes, is at least every step sum, and the step-by-step bound (Bun-Steinke 2016,
    Prop. 1.4 per step, Lemma 2.3 along a history) must prove it; the exact concrete engine must
    then not find the mechanism failing rho-zCDP at rational values of p."""
    ring = Ring(["p"])
    game = pgame(mech, ring)
    positive = _positive_on(Fraction(1, 4), Fraction(3, 4))
    ratios = {
        row[i] / row[j]
        for node in game.nodes
        if node[0] == "chance"
        for row in node[1]
        for i, j in game.ordered_pairs
        if not row[i].is_zero() and not row[j].is_zero()
    }
    assume(ratios and all(positive(r) for r in ratios))
    assume(step_sums(game, LogBasis(), positive) is not None)
    n = sum(1 for node in game.nodes if node[0] == "chance")
    rho = sum((n * sympy.log(r.to_sympy()) ** 2 / 2 for r in ratios), sympy.Integer(0))
    assert steps_prove(game, rho, positive)
    p = sympy.Symbol("p")
    x = data.draw(st.fractions(min_value=Fraction(1, 4), max_value=Fraction(3, 4), max_denominator=12))
    concrete = numeric_mechanism(mech, sympy_point(TABLE_MID, {"p": flint.fmpq(x.numerator, x.denominator)}))
    here = exact_constant(rho.xreplace({p: sympy.Rational(x.numerator, x.denominator)}))
    if here != 0:
        with limits.using(limits.DEFAULT.replace(max_alpha_boxes=300)):  # undecided is allowed, a failure is not
            assert check_zcdp(concrete, here, privloss(concrete, 0)).status != "fails", (x, rho)


def test_the_step_bound_refuses_a_smaller_rho():
    """RR_E (x) RR_E: the steps give log(E)^2; log(E)^2/2 is not proved by them (and is false)."""
    text = _case("  - zcdp: {of: RR, rho: log(E)^2/2}\n", "E: {gt: 1, le: 4}").replace("EPS", "log(E)")
    text = text.replace("claims:", "  RR: {compose: [R, R]}\nclaims:")
    (v,) = verify_text(text, "z.yaml", Options()).verdicts
    assert v.status.value == "fails" and v.facts["there"].status.value == "fails"


def _positive_on(lo: Fraction, hi: Fraction):
    """Whether a ratio (a RatFun of p) is positive and finite on [lo, hi]: no root of its numerator
    or denominator there."""

    def positive(r):
        if not r.variables():
            return bool(r.to_sympy() > 0)
        u = UniRat.of(r, 0)
        for f in (u.num, u.den):
            for root, _ in real_roots(f.numer()) if f.degree() > 0 else []:
                a, b = (
                    rational(flint.fmpq(lo.numerator, lo.denominator)),
                    rational(flint.fmpq(hi.numerator, hi.denominator)),
                )
                if compare(root, a) >= 0 and compare(root, b) <= 0:
                    return False
        return True

    return positive
