"""zCDP claims with a symbol (exactdp.analysis.parametric.zcdp_boxes, exactdp.claims.parametric_zcdp),
and claims whose eps mixes a rational and the log of the symbol.

Cross-checks: the box enclosures of the largest Rényi sum and of D_inf contain the exact values of
the concrete engine (exactdp.analysis.renyi at whole orders) at rational values inside the box, on
random games; for RR_E, whose D_alpha increases with E (RR_E' is a post-processing of RR_E for
E' < E: data processing, Mironov 2017, Prop. 2), "rho-zCDP on a <= E <= b" is the concrete verdict
at E = b, and "not rho-zCDP on a <= E <= b" the concrete verdict at E = a.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import flint
import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactdp.analysis.parametric import Ring, pgame
from exactdp.analysis.parametric.boxes import Box, _Eval
from exactdp.analysis.parametric.zcdp_boxes import INFINITE, ZGame
from exactdp.analysis.profile import privloss
from exactdp.analysis.renyi import renyi as numeric_renyi
from exactdp.claims.parametric import numeric_mechanism
from exactdp.limits import DEFAULT
from exactdp.numbers import Q, ladder
from exactdp.numbers.certified import arb_prec, ball_bounds
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_file, verify_text

from .test_parametric import TABLE_CLOSED, sym_mechanisms

RR = """
exactdp: 1
name: z
symbols: {E: {SYMBOL}}
mechanisms:
  R: {rr: {eps: log(E)}}
  M: {compose: [R, R]}
claims: CLAIMS
"""


def _verdicts(claims: str, symbol: str = "gt: 1, le: 4", **limits):
    opts = Options(limits=DEFAULT.replace(**limits))
    text = RR.replace("SYMBOL", symbol).replace("CLAIMS", claims)
    return verify_text(text, "z.yaml", opts).verdicts


@pytest.mark.parametrize("name", ["zcdp-rr", "mixed-eps"])
def test_the_cases_hold(name):
    """Bun-Steinke 2016, Prop. 1.4 and Lemma 1.7; Kairouz-Oh-Viswanath 2015, Thm 3.3 (derived in the cases)."""
    res = verify_file(Path("cases/parametric") / f"{name}.yaml", Options())
    assert [v.status.value for v in res.verdicts] == ["holds"] * len(res.verdicts)


def test_rr_is_one_zcdp_and_not_half_zcdp():
    """eps-DP implies eps^2/2-zCDP (Bun-Steinke 2016, Prop. 1.4): log(4)^2/2 = 0.961 <= 1; at E = 4 the
    KL divergence (3/5) log 4 = 0.832 exceeds 1/2, so D_alpha/alpha > 1/2 near alpha = 1."""
    ok, bad = _verdicts("\n  - zcdp: {of: R, rho: 1}\n  - zcdp: {of: R, rho: 1/2}")
    assert ok.status.value == "holds" and "certified enclosures" in shown(ok).found
    assert bad.status.value == "fails" and bad.facts["refuted_at"]["E"] == 4
    assert bad.facts["there"].status.value == "fails"  # the exact engine, at E = 4


def test_not_zcdp_for_every_value_and_its_refutation():
    """KL(RR_2) = log(2)/3 = 0.231 > 1/10 and KL increases with E: not 1/10-zCDP on [2, 4]; on (1, 4]
    it is refuted where eps^2/2 <= 1/10 (E <= e^(1/sqrt(5)) = 1.564), by the exact engine."""
    (v,) = _verdicts("\n  - not_zcdp: {of: R, rho: 1/10}", "ge: 2, le: 4")
    assert v.status.value == "holds"
    (w,) = _verdicts("\n  - not_zcdp: {of: R, rho: 1/10}")
    assert w.status.value == "fails" and w.facts["refuted_at"]["E"] < flint.fmpq(1564, 1000)


def test_a_view_under_one_dataset_only_is_never_zcdp():
    """RR_(eps, delta) answers I0 under x0 only: D_alpha = inf for every delta > 0 (Bun-Steinke 2016, Def. 1.1)."""
    text = """
exactdp: 1
name: z
symbols: {d: {gt: 0, lt: 1/2}}
mechanisms:
  R: {rr: {eps: log(2), delta: d}}
claims:
  - not_zcdp: {of: R, rho: 5}
  - zcdp: {of: R, rho: 5}
"""
    v, w = verify_text(text, "z.yaml", Options()).verdicts
    assert v.status.value == "holds" and "D_alpha = inf" in shown(v).found
    assert w.status.value == "fails" and w.facts["there"].status.value == "fails"


def test_what_stays_undecided_says_why():
    """rho = (E - 1)^2/2 is above eps^2/2 for every E > 1, but both behave as eps^2/2 as E -> 1 (they
    touch at the open end); a tail E -> inf; and two symbols."""
    (v,) = _verdicts("\n  - zcdp: {of: R, rho: (E - 1)^2/2}", max_symbol_boxes=40)
    assert v.status.value == "error" and "--max-symbol-boxes 40" in v.reason
    (w,) = _verdicts("\n  - zcdp: {of: R, rho: E}", "gt: 1")
    assert w.status.value == "error" and "E -> inf" in w.reason
    text = RR.replace("SYMBOL", "gt: 1, le: 4}, F: {gt: 1, le: 2").replace("CLAIMS", "\n  - zcdp: {of: R, rho: F}")
    (x,) = verify_text(text, "z.yaml", Options()).verdicts
    assert x.status.value == "error" and "several symbols" in x.reason


def test_a_mixed_eps_is_re_decided_at_a_rational_value():
    """Regression: eps = log(E) + 1/10 at E = 2 is eps = 1/10 + log(2), e^eps = 2 e^(1/10) (exact in
    Q(e^(1/10))); the exact engine's witness there used to stop with an internal error.
    delta_{RR_E (x) RR_E}(E e^(1/10)) = E (E - e^(1/10))/(1 + E)^2 (KOV 2015, Thm 3.3) = 0.1988 at E = 2."""
    (v,) = _verdicts("\n  - dp: {of: M, eps: log(E) + 1/10, delta: 1/10}")
    assert v.status.value == "fails" and v.facts["there"].status.value == "fails"
    assert v.witness is not None
    (w,) = _verdicts("\n  - dp: {of: M, eps: log(E) + 1/10, delta: 1/2}")
    assert w.status.value == "holds"


def _concrete(claim: str, e: Fraction):
    """The claim for RR with e^eps = e, no symbols: the concrete engine alone."""
    text = f"exactdp: 1\nname: c\nmechanisms:\n  R: {{rr: {{eps: log({e})}}}}\nclaims:\n  - {claim}\n"
    (v,) = verify_text(text, "c.yaml", Options()).verdicts
    return v


def _rat(data, lo: Fraction, hi: Fraction) -> Fraction:
    k = data.draw(st.integers(0, 64))
    return lo + (hi - lo) * Fraction(k, 64)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_box_enclosures_contain_the_exact_values(data):
    """On random games with a parameter p, the upper and lower bounds of log S*(alpha) and of D_inf
    on a box contain the exact concrete values at a rational p inside it (alpha = 2, 3)."""
    mech = data.draw(sym_mechanisms(TABLE_CLOSED, max_depth=2))
    game = pgame(mech, Ring(["p"]))
    zg = ZGame(game, 0)
    a = _rat(data, Fraction(1, 8), Fraction(7, 8))
    b = a + Fraction(1, data.draw(st.sampled_from([8, 32, 256])))
    s = _rat(data, a, b)
    alpha = data.draw(st.sampled_from([2, 3]))
    num = numeric_mechanism(mech, {TABLE_CLOSED.symbols["p"]: sympy.Rational(s.numerator, s.denominator)})
    with arb_prec(128):
        ev = _Eval(Box(a, b), (a + b) / 2)
        up, low, dinf = zg.sum_upper(ev, Fraction(alpha)), zg.sum_lower(ev, Fraction(alpha)), zg.dinf_upper(ev)
    exact = numeric_renyi(num, alpha).value
    if ladder.is_inf(exact):
        # no finite upper bound may cover an infinite value; any lower bound is still a lower
        # bound (the value may be infinite at this point alone, e.g. where P' vanishes on the box's
        # edge, and finite elsewhere on the box)
        assert up is None
        return
    assume(up is not None)
    lo_x, hi_x = ball_bounds(ladder.ball(exact, 200))  # D_alpha = log(S)/(alpha - 1)
    assert lo_x * (alpha - 1) <= up
    if low is not None:
        assert low is not INFINITE and low <= hi_x * (alpha - 1)
    d = privloss(num, Q(0))
    assert dinf is not None and ball_bounds(ladder.ball(d, 200))[0] <= dinf


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(1, 12).map(lambda k: Fraction(8 + k, 8)),
    st.integers(1, 8).map(lambda k: Fraction(k, 8)),
    st.sampled_from([Fraction(1, 10), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)]),
)
def test_rr_verdict_over_a_range_is_the_exact_verdict_at_its_worst_end(a, width, rho):
    """D_alpha(RR_E) increases with E, so rho-zCDP on [a, a + w] iff at E = a + w, and not rho-zCDP on
    the range iff at E = a; the concrete engine decides the ends exactly (when it decides them)."""
    b = a + width
    claims = f"\n  - zcdp: {{of: R, rho: {rho}}}\n  - not_zcdp: {{of: R, rho: {rho}}}"
    z, nz = _verdicts(claims, f"ge: {a}, le: {b}")
    at_b, at_a = (_concrete(f"{k}: {{of: R, rho: {rho}}}", e) for k, e in (("zcdp", b), ("not_zcdp", a)))
    if "error" not in (z.status.value, at_b.status.value):
        assert z.status == at_b.status
    if "error" not in (nz.status.value, at_a.status.value):
        assert nz.status == at_a.status


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(9, 40).map(lambda k: Fraction(k, 8)),
    st.sampled_from([Fraction(1, 10), Fraction(1, 3), Fraction(1, 2)]),
    st.sampled_from([Fraction(1, 100), Fraction(1, 10), Fraction(1, 4)]),
    st.sampled_from(["dp", "not_dp"]),
)
def test_a_mixed_eps_verdict_at_a_value_is_the_concrete_one(e, q, d, kind):
    """At a rational E (a one-point range), the parametric verdict for RR_E (x) RR_E at
    eps = log(E) + q is the concrete engine's at eps = q + log(E), e^eps = E e^q in Q(e^q)."""
    claim = f"{kind}: {{of: M, eps: log(E) + {q}, delta: {d}}}"
    (v,) = _verdicts("\n  - " + claim, f"ge: {e}, le: {e}")
    text = (
        f"exactdp: 1\nname: c\nmechanisms:\n  R: {{rr: {{eps: log({e})}}}}\n  M: {{compose: [R, R]}}\n"
        f"claims:\n  - {kind}: {{of: M, eps: {q} + log({e}), delta: {d}}}\n"
    )
    (w,) = verify_text(text, "c.yaml", Options()).verdicts
    assert v.status == w.status


def test_rho_in_log_of_the_symbol_is_decided_from_pure_dp():
    """The Bun-Steinke bound eps^2/2 = log(E)^2/2 (Prop. 1.4) is no rational function of E, and
    D_alpha/alpha touches it as E -> 1; it is proved from PrivLoss(R, 0) = log(E) (it used to be
    refused when the case was read)."""
    text = RR.replace("SYMBOL", "gt: 1, le: 4").replace("CLAIMS", "\n  - zcdp: {of: R, rho: log(E)^2/2}")
    (v,) = verify_text(text, "z.yaml", Options()).verdicts
    assert v.status.value == "holds" and "Prop. 1.4" in shown(v).found
