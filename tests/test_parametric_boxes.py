"""KL claims with a symbol, decided by certified branch and bound over the symbol's domain
(exactdp.analysis.parametric.boxes, exactdp.claims.parametric_boxes).

Cross-checks: the exact concrete KL (exactdp.analysis.renyi at a rational value of the symbol)
lies in the enclosure of every box containing that value (random games, random boxes); the
known closed form KL(RR_E) = ((E - 1)/(E + 1))·log E, derived from the definition (Mironov 2017,
Def. 3 at alpha = 1): with P = (E, 1)/(1 + E) and P' = (1, E)/(1 + E),
KL = E/(1 + E)·log E + 1/(1 + E)·log(1/E) = ((E - 1)/(E + 1))·log E.
"""

from __future__ import annotations

from fractions import Fraction

import flint
import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis.parametric import Ring, pgame
from exactdp.analysis.parametric.boxes import (
    Box,
    KLGame,
    Val,
    _Eval,
    _kl_term_floor,
    _upper,
    initial_boxes,
    kl_enclosure,
    kl_floor,
)
from exactdp.analysis.renyi import renyi as numeric_renyi
from exactdp.caseio import parse_case
from exactdp.claims.parametric import numeric_mechanism
from exactdp.limits import DEFAULT
from exactdp.numbers import ladder
from exactdp.numbers.certified import arb_prec, ball_bounds
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text

from .test_parametric import TABLE_CLOSED, sym_mechanisms

RR = """
exactdp: 1
name: kl
symbols: {E: {gt: 1, le: 4}}
mechanisms:
  R: {rr: {eps: log(E)}}
  M: {compose: [R, R]}
claims: CLAIMS
"""


def _verdicts(claims: str, text: str = RR, **limits):
    opts = Options(limits=DEFAULT.replace(**limits))
    return verify_text(text.replace("CLAIMS", claims), "kl.yaml", opts).verdicts


def _exact_kl(mech, symbol, s: Fraction):
    return numeric_renyi(numeric_mechanism(mech, {symbol: sympy.Rational(s.numerator, s.denominator)}), 1).value


def _random_box_and_kl(data):
    """A random parametric game, a box [a, b] of [0, 1] and the exact KL at a rational value in it."""
    mech = data.draw(sym_mechanisms(TABLE_CLOSED))
    kg = KLGame(pgame(mech, Ring(["p"])), 0)
    fr = st.fractions(min_value=0, max_value=1, max_denominator=64)
    a, b = sorted((data.draw(fr), data.draw(fr)))
    s = data.draw(st.fractions(min_value=a, max_value=b, max_denominator=256))
    return mech, kg, (a, b), _exact_kl(mech, TABLE_CLOSED.symbols["p"], s)


def _inside(value, enclosure_lo: Fraction, enclosure_hi: Fraction) -> bool:
    """Whether an exact value's ball meets [lo, hi] (disjoint: the enclosure misses the value)."""
    lo, hi = ball_bounds(ladder.ball(value, 200))
    return lo <= enclosure_hi and enclosure_lo <= hi


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_exact_kl_lies_in_the_enclosure_of_every_box_containing_the_value(data):
    mech, kg, (a, b), exact = _random_box_and_kl(data)
    box = Box(a, b)
    with arb_prec(128):
        for centre in (None, a, b):
            f = kl_enclosure(kg, box, centre)
            if ladder.is_inf(exact):
                assert not f.bounded  # a view possible under one dataset only: no finite enclosure
                continue
            if not f.bounded:
                continue
            lo, hi = ball_bounds(f.r)
            assert _inside(exact, lo, hi), (str(exact), float(lo), float(hi))
            c = box.point() if centre is None else centre
            up = _upper(f, box, c)  # the bound a proof of `at_most` uses
            down = _upper(Val(-f.c, -f.r, None if f.L is None else -f.L), box, c)  # and of `exceeds`
            elo, ehi = ball_bounds(ladder.ball(exact, 200))
            assert up is not None and down is not None
            assert elo <= up and -down <= ehi


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_the_floor_of_kl_on_a_box_is_below_the_exact_kl_at_every_value_of_the_box(data):
    """kl_floor is a lower bound where the enclosure may be unbounded (a probability under x' that
    vanishes at an end of the box): it is at most the exact KL at any rational value of the box, and
    +inf (None) only where the exact KL is infinite there."""
    mech, kg, (a, b), exact = _random_box_and_kl(data)
    with arb_prec(128):
        floor = kl_floor(kg, _Eval(Box(a, b), Box(a, b).point()))
    if floor is None:
        assert ladder.is_inf(exact)
    elif not ladder.is_inf(exact):
        assert floor <= ball_bounds(ladder.ball(exact, 200))[1], (float(floor), str(exact))


def test_kl_unbounded_at_a_closed_end_is_calibrated_and_proved_above_a_bound_next_to_it():
    """P_x0(a) = 2p - 1/2 vanishes at p = 1/4 where P_x1(a) = 1/3: KL -> inf there, so no box next
    to the end has a finite enclosure; the floor proves KL > 1/10 on them (KL = 1/10 first at
    p = 0.3265: tests/test_parametric_kl_calibrate.py)."""
    text = (
        "exactdp: 1\nname: f\nsymbols: {p: {ge: 1/4, le: 3/10}}\n"
        "mechanisms:\n  M: {respond: {a: [2*p - 1/2, 1/3], b: [3/2 - 2*p, 2/3]}}\nCLAIMS"
    )
    (v,) = verify_text(text.replace("CLAIMS", "claims: [{renyi: {alpha: 1, exceeds: 1/10}}]"), "f.yaml").verdicts
    assert v.status == "holds", shown(v).found


@settings(max_examples=25, deadline=None)
@given(st.fractions(min_value=1, max_value=20, max_denominator=40), st.fractions(min_value=0, max_value=1))
def test_kl_of_randomized_response_is_tanh_eps_over_2_times_eps(a, t):
    """The enclosure on [a, a + 1/8] contains ((E - 1)/(E + 1))·log E at every E of the box
    (module docstring), computed here independently by arb at the point."""
    case = parse_case(
        RR.replace("CLAIMS", "[{renyi: {of: R, alpha: 1, at_most: 1}}]").replace("le: 4", "le: 100"), "r.yaml"
    )
    kg = KLGame(pgame(case.mechanisms["R"], Ring(["E"])), 0)
    b = a + Fraction(1, 8)
    e = a + (b - a) * t
    with arb_prec(128):
        f = kl_enclosure(kg, Box(a, b))
        x = flint.arb(flint.fmpq(e.numerator, e.denominator))
        known = (x - 1) / (x + 1) * x.log()
        lo, hi = ball_bounds(f.r)
        klo, khi = ball_bounds(known)
        assert lo <= khi and klo <= hi  # the enclosure meets the known value's ball
        assert hi - lo < Fraction(1, 2)  # and is a useful enclosure, not everything


def test_kl_claims_with_a_symbol_are_decided():
    """On 1 < E <= 4: (E - 1)/(E + 1) <= 3/5, so KL(RR_E) <= (3/5) log E <= (2/3) log E; KL of
    the two-fold composition doubles; (1/2) log E fails at E = 4 (3/5 > 1/2).  These were
    'undecided' before boxes existed."""
    a, b, c, d = _verdicts(
        "\n  - renyi: {of: R, alpha: 1, at_most: 2*log(E)/3}"
        "\n  - renyi: {of: R, alpha: 1, at_most: log(E)}"
        "\n  - renyi: {of: M, alpha: 1, at_most: 4*log(E)/3}"
        "\n  - renyi: {of: R, alpha: 1, at_most: log(E)/2}"
    )
    for v in (a, b, c):
        assert v.status == "holds", shown(v).note
        assert "certified enclosures on" in shown(v).found
        assert v.facts["symbol_boxes"] >= 1
    assert d.status == "fails"
    values = shown(d).values
    assert values["refuted_at"] == {"E": "4"}
    assert d.witness is not None  # the exact engine's witness at E = 4
    assert "log(" in shown(d).found and "fails at E = 4" in shown(d).found


def test_refutation_at_an_interior_rational_value():
    """KL(RR_E) <= 1 fails where ((E - 1)/(E + 1)) log E > 1 (E > 4.68...): on E > 1 the
    refutation is a rational value found by the search, re-decided by the exact engine."""
    (v,) = _verdicts("\n  - renyi: {of: R, alpha: 1, at_most: 1}", RR.replace("le: 4", "le: 100"))
    assert v.status == "fails"
    e = Fraction(shown(v).values["refuted_at"]["E"])
    assert e > Fraction(468, 100)


def test_exceeds_and_equals():
    """KL(RR_E) > 0 for every 1 < E <= 4 is true but tight as E -> 1 (KL ~ (E - 1)^2/2):
    undecided, never guessed.  KL(RR_E) > log(E)/4 fails where (E - 1)/(E + 1) <= 1/4, i.e.
    E <= 5/3; `equals: log(E)` is refuted at a value."""
    a, b, c = _verdicts(
        "\n  - renyi: {of: R, alpha: 1, exceeds: 0}"
        "\n  - renyi: {of: R, alpha: 1, equals: log(E)}"
        "\n  - renyi: {of: R, alpha: 1, exceeds: log(E)/4}",
    )
    assert a.status == "error" and "touches the bound near E = 1" in a.reason
    assert b.status == "fails"
    assert c.status == "fails" and Fraction(shown(c).values["refuted_at"]["E"]) <= Fraction(5, 3)


def test_a_probability_vanishing_at_an_end_of_the_domain():
    """B: answer 0 with probability p under x0, p/2 under x1, on 0 <= p <= 1/2.  KL(x0||x1) =
    p log 2 + (1 - p) log((1 - p)/(1 - p/2)) and KL(x1||x0) = (p/2) log(1/2) + (1 - p/2)
    log((1 - p/2)/(1 - p)) are increasing; at p = 1/2 they are log(4/3)/2 ... the first is
    (1/2) log 2 + (1/2) log(2/3) = (1/2) log(4/3) ≈ 0.1438, the second (1/4) log(1/2) + (3/4)
    log(3/2) ≈ 0.1308.  So KL <= 3/20 holds and KL <= 1/7 fails at p = 1/2 (1/7 ≈ 0.1429).
    At p = 0 both probabilities of answer 0 vanish (their ratio stays 2)."""
    text = """
exactdp: 1
name: b
symbols: {p: {ge: 0, le: 1/2}}
mechanisms:
  B: {tree: {respond: {0: [p, p/2], 1: [1 - p, 1 - p/2]}}}
claims: CLAIMS
"""
    a, b = _verdicts("\n  - renyi: {of: B, alpha: 1, at_most: 3/20}\n  - renyi: {of: B, alpha: 1, at_most: 1/7}", text)
    assert a.status == "holds", shown(a).note
    assert b.status == "fails" and shown(b).values["refuted_at"] == {"p": "1/2"}


def test_unbounded_domain_with_a_bounded_divergence_holds():
    """S: answer 1 with probability 1/(E + 1) under x0 and 1/(2E + 1) under x1: both tend to 0
    and their ratio to 2 as E -> inf, so KL -> 0; at E = 1 (the largest), KL(x0||x1) =
    (1/2) log(3/4) + (1/2) log(3/2) = (1/2) log(9/8) ≈ 0.0589 and KL(x1||x0) = (2/3) log(4/3) +
    (1/3) log(2/3) ≈ 0.0566: KL <= 1/10 holds on E >= 1 (the tail [M, inf) is enclosed in
    t = 1/E), and KL <= 1/20 fails at E = 1."""
    text = """
exactdp: 1
name: s
symbols: {E: {ge: 1}}
mechanisms:
  S: {tree: {respond: {0: [E/(E + 1), 2*E/(2*E + 1)], 1: [1/(E + 1), 1/(2*E + 1)]}}}
claims: CLAIMS
"""
    a, b = _verdicts("\n  - renyi: {of: S, alpha: 1, at_most: 1/10}\n  - renyi: {of: S, alpha: 1, at_most: 1/20}", text)
    assert a.status == "holds", shown(a).note
    assert b.status == "fails" and shown(b).values["refuted_at"] == {"E": "1"}


def test_divergence_and_bound_growing_without_bound_on_a_tail():
    """KL(RR_E) <= log(E) for every E > 1 (both sides tend to inf): on the tail E >= M,
    KL - log(E) = A(t) + B(t) log(E) with t = 1/E, B = (1 - t)/(1 + t) - 1 = -2t/(1 + t) <= 0 and
    A = 0 (module docstring of exactdp.analysis.parametric.boxes), so the tail is proved.
    KL(RR_E) <= log(E)/2 fails at a finite value (E > 3); KL(RR_E) <= 2 fails too (KL -> inf)."""
    text = RR.replace("gt: 1, le: 4", "gt: 1")
    a, b, c, d = _verdicts(
        "\n  - renyi: {of: R, alpha: 1, at_most: log(E)}"
        "\n  - renyi: {of: M, alpha: 1, at_most: 2*log(E)}"
        "\n  - renyi: {of: R, alpha: 1, at_most: log(E)/2}"
        "\n  - renyi: {of: R, alpha: 1, at_most: 2}",
        text,
    )
    assert a.status == "holds" and b.status == "holds", (a.reason, b.reason)
    assert c.status == "fails" and Fraction(shown(c).values["refuted_at"]["E"]) > 3
    assert d.status == "fails"


def test_a_tail_that_no_enclosure_bounds_is_undecided_with_the_reason():
    """KL(RR_E) > log(E/3) for every E > 1 is true (KL - log(E) + log(3) = log(3) - 2 log(E)/(E + 1)
    and 2 log(E)/(E + 1) < 0.56), but on the tail X - KL = A + B log(E) with B = 2t/(1 + t) >= 0,
    a term 2 log(E)/(E + 1) that tends to 0 only because t log(1/t) does: the tails are not
    proved, and the verdict is undecided naming the limit and where the boxes left lie."""
    claim = "\n  - renyi: {of: R, alpha: 1, exceeds: log(E/3)}"
    (v,) = _verdicts(claim, RR.replace("gt: 1, le: 4", "gt: 1"), max_symbol_boxes=100)
    assert v.status == "error"
    assert "--max-symbol-boxes 100 boxes" in v.reason and "<= E <= inf" in v.reason


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from(["R", "M", "S"]),
    st.integers(0, 20),
    st.fractions(min_value=0, max_value=1, max_denominator=1000),
    st.booleans(),
)
def test_tail_forms_bound_the_exact_kl(name, j, t, upper):
    """On a tail E >= M = 2^j, the form A(t) + B(t)·log(E) is at least (upper) or at most the
    exact KL of the pair at every E of the tail (here at E = M·2^(20 t), exact engine)."""
    from exactdp.analysis.parametric.boxes import _Eval, _kl_tail

    text = RR.replace("gt: 1, le: 4", "ge: 1").replace(
        "claims:", "  S: {tree: {respond: {0: [E/(E + 1), 2*E/(2*E + 1)], 1: [1/(E + 1), 1/(2*E + 1)]}}}\nclaims:"
    )
    case = parse_case(text.replace("CLAIMS", "[{renyi: {of: R, alpha: 1, at_most: 1}}]"), "t.yaml")
    mech = case.mechanisms[name]
    game = pgame(mech, Ring(["E"]))
    kg = KLGame(game, 0)
    M = Fraction(2) ** j
    e = M * (1 + 99 * t)
    tb = Box(Fraction(0), 1 / M)
    res = numeric_renyi(
        numeric_mechanism(mech, {case.symbols.symbols["E"]: sympy.Rational(e.numerator, e.denominator)}), 1
    )
    with arb_prec(128):
        ev = _Eval(tb, Fraction(0))
        for (i, k), pair in zip(game.ordered_pairs, res.pairs):
            form = _kl_tail(kg, ev, 1, i, k, upper)
            assert form is not None
            A, B = form
            lo_a, hi_a = ball_bounds(A.r)
            lo_b, hi_b = ball_bounds(B.r)
            lam = ball_bounds(flint.arb(flint.fmpq(e.numerator, e.denominator)).log())
            exact = ball_bounds(ladder.ball(pair.total, 200))
            if upper:  # A + B log(E) >= KL: its largest reading is at least KL's least
                assert hi_a + max(hi_b * lam[0], hi_b * lam[1]) >= exact[0]
            else:
                assert lo_a + min(lo_b * lam[0], lo_b * lam[1]) <= exact[1]


def test_the_box_limit_names_its_flag():
    (v,) = _verdicts("\n  - renyi: {of: R, alpha: 1, at_most: 2*log(E)/3}", max_symbol_boxes=1)
    assert v.status == "error" and "raise it with --max-symbol-boxes N" in v.reason


def test_several_symbols_are_undecided_with_the_reason():
    text = """
exactdp: 1
name: pq
symbols: {p: {gt: 0, lt: 1}, q: {gt: 0, lt: 1}}
mechanism:
  respond: {"0": [p, q], "1": [1 - p, 1 - q]}
claims:
  - renyi: {alpha: 1, at_most: 1}
"""
    (v,) = verify_text(text, "pq.yaml").verdicts
    assert v.status == "error" and "several symbols (p, q)" in v.reason


def test_initial_boxes_cover_the_domain():
    assert initial_boxes(Fraction(1), None) == [Box(Fraction(1), Fraction(2)), Box(Fraction(2), None)]
    assert initial_boxes(None, None)[1] == Box(Fraction(-1), Fraction(1))
    assert Box(Fraction(2), None).split() == (Box(Fraction(2), Fraction(4)), Box(Fraction(4), None))
    assert Box(None, Fraction(-3)).split() == (Box(None, Fraction(-6)), Box(Fraction(-6), Fraction(-3)))


def test_json_report_of_a_refutation():
    from exactdp.report.verdicts import shown as sh

    (v,) = _verdicts("\n  - renyi: {of: R, alpha: 1, at_most: log(E)/2}")
    vals = sh(v).values
    assert vals["symbols"] == "E > 1 and E <= 4" and vals["refuted_at"] == {"E": "4"}
    assert "concrete" in vals


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])


def test_a_domain_far_beyond_a_float_is_reported_not_an_internal_error():
    """The message naming where the undecided boxes lie converted their ends with float() and
    crashed (OverflowError, exit 3) on ``E <= 10^5000``; a refutation there prints E short."""
    text = RR.replace("gt: 1, le: 4", "gt: 1, le: 10^5000")
    claims = "\n  - renyi: {of: R, alpha: 1, at_most: log(E)}\n  - renyi: {of: R, alpha: 1, at_most: 1/10^5000}"
    held, refuted = _verdicts(claims, text, max_symbol_boxes=50)
    assert held.status.name == "UNDECIDED" and "1.0e+5000" in shown(held).note
    found = shown(refuted).found
    assert refuted.status.name == "FAILS" and "E = 1.0e+5000 (" in found and "digits)" in found and len(found) < 400


def test_a_kl_term_without_finite_enclosures_has_the_bound_that_holds_for_every_probability():
    """p·(log(p/p') + KL) ≥ p − p' ≥ −1 for probabilities: the floor of a term whose enclosures
    overflowed is −1 (neither 0 nor +inf, which a term can undercut where p is small)."""

    class Unbounded:
        def val(self, _u):
            nan = flint.arb("nan")
            return Val(nan, nan, None)

    assert _kl_term_floor(Unbounded(), ("p", "p'", "p/p'", 0), Fraction(5)) == -1
    assert _kl_term_floor(Unbounded(), ("p", "p'", "p/p'", 0), None) == -1
    assert _kl_term_floor(Unbounded(), ("inf", "p", 0), Fraction(0)) == 0
