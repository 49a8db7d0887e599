"""``delta`` claims at a rational eps with symbols: e^eps is transcendental, so delta(e^eps) is
compared through certified signs of rational functions of the symbol against e^q (Vadhan & Wang
2021, Def. 1.7).  Cross-checked against the concrete engine at the same rational values, and
against the closed form delta_RR2(lambda) = (E^2 - lambda)_+/(1 + E)^2 (Kairouz, Oh & Viswanath
2015, Thm 3.3 with k = 2)."""

from __future__ import annotations

import math
from fractions import Fraction

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis.parametric import ExpAffine, MaxOf, Undecided
from exactdp.analysis.parametric.queries import delta_of
from exactdp.claims.base import FAILS, HOLDS, Analysis
from exactdp.claims.core import DeltaClaim
from exactdp.claims.parametric import analysis_at, decide
from exactdp.cli import main
from exactdp.numbers import Q

from .test_parametric import TABLE_OPEN, _points, sym_mechanisms
from .test_parametric_transcendental import _check_delta_form

CASE = """exactdp: 1
name: delta-decimal
symbols:
  E: {{gt: 1, le: {hi}}}
mechanisms:
  R: {{rr: {{eps: log(E)}}}}
  RR2: {{compose: [R, R]}}
claims:
  - delta: {{of: RR2, eps: {q}, equals: 0}}
"""

CONCRETE = """exactdp: 1
name: delta-decimal-point
mechanisms:
  R: {{rr: {{eps: log({e})}}}}
  RR2: {{compose: [R, R]}}
claims:
  - delta: {{of: RR2, eps: {q}, equals: 0}}
"""


def _verify(tmp_path, name: str, text: str) -> int:
    path = tmp_path / name
    path.write_text(text)
    r = CliRunner().invoke(main, ["verify", str(path)], catch_exceptions=False)
    assert r.exit_code in (0, 1), r.output
    return r.exit_code


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    hi=st.fractions(min_value=Fraction(21, 20), max_value=Fraction(3), max_denominator=40),
    q=st.sampled_from([Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(3, 2)]),
)
def test_delta_zero_at_a_rational_eps_holds_exactly_where_the_closed_form_says(tmp_path, hi, q):
    """ "delta_RR2(e^q) = 0 for every 1 < E <= hi" holds iff hi^2 <= e^q (the largest ratio E^2 is
    at most lambda); the concrete engine at E = hi agrees, since the claim's truth on (1, hi] is
    decided by its right end."""
    gap = math.log(hi.numerator**2 / hi.denominator**2) - float(q)
    if abs(gap) < 1e-9:  # too close to tell in floats: the cross-check needs a margin
        return
    want = 0 if gap < 0 else 1
    assert _verify(tmp_path, "s.yaml", CASE.format(hi=hi, q=q)) == want
    assert _verify(tmp_path, "c.yaml", CONCRETE.format(e=hi, q=q)) == want


def test_a_nonzero_delta_at_a_rational_eps(tmp_path):
    """RR_(eps, 1/10) with eps = log E: delta(lambda) = 1/10 + (9/10)(E - lambda)_+/(1 + E), so at
    lambda = e^(3/2) > 4 it is 1/10 for every E <= 4, and at lambda = e^(1/100) it is not 1/10 once
    E > e^(1/100); the refutation names a rational E and the value there."""
    text = """exactdp: 1
name: d
symbols:
  E: {gt: 1, le: 4}
mechanisms:
  D: {rr: {eps: log(E), delta: 1/10}}
claims:
  - delta: {of: D, eps: 3/2, equals: 1/10}
  - delta: {of: D, eps: 1/100, equals: 1/10}
"""
    path = tmp_path / "d.yaml"
    path.write_text(text)
    r = CliRunner().invoke(main, ["verify", str(path)], catch_exceptions=False)
    assert r.exit_code == 1, r.output
    assert "(1 hold, 1 fail)" in r.output, r.output
    assert "✗ delta_D(e^(1/100)) = 1/10" in r.output and "fails at E = " in r.output, r.output


def test_calibrating_a_delta_target_at_a_rational_eps(tmp_path):
    """The exact sets, from the closed forms above: delta_RR2(e^(1/2)) = 0 iff E^2 <= e^(1/2), so
    1 < E <= e^(1/4); delta_D(e^(1/2)) = 1/5 iff 1/10 + (9/10)(E - e^(1/2))/(1 + E) = 1/5, one
    point: E = (1 + 9 e^(1/2))/8.  The printed digits are proved (certified enclosures); floats
    only cross-check them here."""
    path = tmp_path / "k.yaml"
    path.write_text(
        "exactdp: 1\nname: k\nsymbols: {E: {gt: 1}}\nmechanisms:\n  R: {rr: {eps: log(E)}}\n"
        "  RR2: {compose: [R, R]}\n  D: {rr: {eps: log(E), delta: 1/10}}\n"
        "claims:\n  - privloss: {of: R, delta: 0, equals: log(E)}\n"
    )
    runs = [("RR2", "delta: {eps: 1/2, equals: 0}"), ("D", "delta: {eps: 1/2, equals: 1/5}")]
    out = [
        CliRunner().invoke(main, ["calibrate", str(path), "--of", of, "--target", t], catch_exceptions=False)
        for of, t in runs
    ]
    assert all(r.exit_code == 0 for r in out), [r.output for r in out]
    assert f"1 < E <= {math.exp(1 / 4):.15f}"[:20] in out[0].output, out[0].output
    assert f"E = {(1 + 9 * math.exp(1 / 2)) / 8:.15f}"[:18] in out[1].output, out[1].output


SLOW = settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@SLOW
@given(st.data(), st.sampled_from([Q(1, 10), Q(7, 10), Q(3, 2)]))
def test_the_piecewise_delta_at_a_decimal_eps_is_the_concrete_engines(data, eps):
    """``exactdp delta`` at a decimal eps on a mechanism with a symbol: on every piece, at random
    rational points of its cells, the closed form shown (A - e^q B, or the largest of several) is
    exactly the concrete engine's delta in Q(e^(1/L))."""
    mech = data.draw(sym_mechanisms(TABLE_OPEN, max_depth=2))
    an = Analysis({"T": mech}, symbols=TABLE_OPEN)
    try:
        pw = delta_of(mech, TABLE_OPEN, eps, is_lambda=False)
    except Undecided:  # more than MAX_FORMS forms on a cell: said so, not shown
        return
    for piece in pw.pieces:
        assert isinstance(piece.value, (ExpAffine, MaxOf))
        for cell in piece.cells:
            for pt in _points(cell, data):
                _check_delta_form(piece.value, an, pt, eps)


@SLOW
@given(st.data(), st.sampled_from([Q(1, 10), Q(7, 10)]), st.sampled_from([Q(0), Q(1, 10), Q(1, 3)]))
def test_a_delta_claim_at_a_decimal_eps_agrees_with_the_concrete_engine(data, eps, d):
    """A refutation is the concrete engine's at its rational point; a claim that holds holds at
    random rational points of the domain."""
    mech = data.draw(sym_mechanisms(TABLE_OPEN, max_depth=2))
    an = Analysis({"T": mech}, symbols=TABLE_OPEN)
    claim = DeltaClaim(of="T", eps=eps, equals=d)
    v = decide(claim, an)
    if v.status == FAILS:
        assert claim.check(analysis_at(an, v.facts["refuted_at"])).status == FAILS
    elif v.status == HOLDS:
        for _ in range(3):
            t = data.draw(st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100))
            assert claim.check(analysis_at(an, {"p": Q(t.numerator, t.denominator)})).status == HOLDS
