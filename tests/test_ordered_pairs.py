"""Claims about one order of a pair (`ordered: true`): delta(lam) = sup_A sum_v (P_x(v) - lam P_x'(v))_+
and D_alpha(M(x) || M(x')) for the listed (x, x') only, as a privacy-loss accountant reports the
"remove" and "add" directions separately.  Cross-checks: the two engines on the directed game, the
symmetric profile as the maximum of its two directions, and a known answer worked out by hand."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis.engine import EnumeratorEngine, ProfileEngine
from exactdp.caseio import parse_case
from exactdp.certifying import certify_paths
from exactdp.cli import main
from exactdp.errors import CaseError
from exactdp.numbers import Q, ladder
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text

from .strategies import mechanisms

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pr[v | x0], Pr[v | x1]: "4" is impossible under x1 and "3" under x0, with masses 1/10 and 3/5.
# The privacy-loss-distribution tests of Google's dp_accounting library (test_hockey_stick_unequal_support)
# use these two distributions: the "remove" direction has infinite privacy loss with mass 0.1, the
# "add" direction with mass 0.6.  By hand: delta_(x0,x1)(lam) = 1/10 + (1/2 - lam/5)_+ + (2/5 - lam/5)_+,
# so delta(e^20) = 1/10 and the least lam with delta(lam) <= 1/10 is 5/2; the reverse direction
# has delta(lam) = 3/5 + (1/5 - lam/2)_+ + (1/5 - 2 lam/5)_+, which is 3/5 from lam = 1/2 on.
CASE = """\
exactdp: 1
name: one-direction
mechanisms:
  M: {respond: {"1": [1/2, 1/5], "2": [2/5, 1/5], "3": [0, 3/5], "4": [1/10, 0]}}
claims:
  - delta: {pairs: [[x0, x1]], ordered: true, eps: 20, equals: 1/10}
  - delta: {pairs: [[x1, x0]], ordered: true, eps: 20, equals: 3/5}
  - delta: {eps: 20, equals: 3/5}
  - privloss: {pairs: [[x0, x1]], ordered: true, delta: 1/10, equals: log(5/2)}
  - privloss: {pairs: [[x1, x0]], ordered: true, delta: 3/5, equals: 0}
  - not_dp: {pairs: [[x1, x0]], ordered: true, eps: log(5/2), delta: 1/10}
  - renyi: {pairs: [[x0, x1]], ordered: true, alpha: inf, equals: inf}
"""


@pytest.mark.parametrize("engine", ["profile", "enumerator"])
def test_known_answer_each_direction_apart(engine):
    verdicts = verify_text(CASE, "one.yaml", Options(engine=engine)).verdicts
    assert [v.status for v in verdicts] == ["holds"] * 7, [shown(v).found for v in verdicts]
    assert "[ordered pairs (x0, x1)]" in verdicts[0].claim.describe()
    witness = verdicts[5].witness
    assert witness is not None and witness.pair_names == ("x1", "x0")


def _directions(mech):
    """The game checked on each order of each adjacent pair apart."""
    return [mech.with_adjacent([p], directed=True) for p in mech.ordered_pairs]


@SETTINGS
@given(mechanisms(max_depth=3, combinators=False), st.fractions(Fraction(0), Fraction(5), max_denominator=7))
def test_the_engines_agree_on_each_direction_and_the_profile_is_their_maximum(mech, lam):
    """On one order of a pair the backward induction and the enumerator of deterministic adversaries
    give the same profile; over both orders of every pair, the maximum is the symmetric profile."""
    whole, lam = ProfileEngine().profile(mech), Q(lam.numerator, lam.denominator)
    values = []
    for d in _directions(mech):
        prof, brute = ProfileEngine().profile(d), EnumeratorEngine().profile(d)
        assert len(prof.pairs) == 1 and prof.pairs[0].pair == d.pair_names(d.adjacent[0])
        assert prof.delta_at_lambda(lam) == brute.delta_at_lambda(lam)
        assert ProfileEngine().pure_lambda(d) == EnumeratorEngine().pure_lambda(d)
        values.append(prof.delta_at_lambda(lam))
    assert max(values) == whole.delta_at_lambda(lam)


@SETTINGS
@given(mechanisms(max_depth=3, combinators=False))
def test_renyi_of_each_direction_is_the_enumerators_and_the_symmetric_one_is_their_maximum(mech):
    whole = ProfileEngine().renyi(mech, 2).value
    found = []
    for d in _directions(mech):
        value = ProfileEngine().renyi(d, 2).value
        assert ladder.cmp(value, EnumeratorEngine().renyi(d, 2).value) == 0
        found.append(value)
    assert any(ladder.cmp(v, whole) == 0 for v in found) and all(ladder.cmp(v, whole) <= 0 for v in found)


# Pr[1 | x1] = 1/(2E): the ratio x0 over x1 is at most E, x1 over x0 at most 2 - 1/E.
SYMBOLIC = """\
exactdp: 1
name: sym
symbols: {E: {gt: 1, lt: 4}}
mechanisms:
  M: {respond: {"1": [1/2, 1/(2*E)], "2": [1/2, 1 - 1/(2*E)]}}
claims:
"""


def test_a_symbol_is_decided_on_each_direction():
    text = SYMBOLIC + textwrap.dedent("""\
          - privloss: {pairs: [[x0, x1]], ordered: true, delta: 0, equals: log(E)}
          - privloss: {pairs: [[x1, x0]], ordered: true, delta: 0, equals: log(2 - 1/E)}
          - dp: {pairs: [[x1, x0]], ordered: true, eps: log(2), delta: 0}
        """)
    verdicts = verify_text(text, "sym.yaml").verdicts
    assert [v.status for v in verdicts] == ["holds"] * 3, [shown(v).found for v in verdicts]


@pytest.mark.parametrize(
    ("claim", "phrase"),
    [
        ("privloss: {ordered: true, delta: 0, equals: inf}", "`ordered: true` needs `pairs:`"),
        ("profile_le: {pairs: [[x0, x1]], ordered: true, than: M}", "unknown key 'ordered'"),
        ("bounded_range: {pairs: [[x0, x1]], ordered: true, eps: log(2)}", "unknown key 'ordered'"),
    ],
)
def test_ordered_is_refused_where_it_has_no_meaning(claim, phrase):
    text = f"exactdp: 1\nname: t\nmechanisms:\n  M: {{rr: {{eps: log(2)}}}}\nclaims:\n  - {claim}\n"
    with pytest.raises(CaseError) as err:
        parse_case(text, "t.yaml")
    assert phrase in str(err.value) and "claims[0]" in str(err.value), str(err.value)


def test_certify_names_the_reason_it_writes_no_certificate(tmp_path):
    (tmp_path / "one.yaml").write_text(CASE, encoding="utf-8")
    _, writer = certify_paths([tmp_path / "one.yaml"], tmp_path / "out")
    reasons = [reason for _, reason in writer.missing]
    assert len(writer.written) == 1 and len(reasons) == 6, reasons
    assert all("one order of a pair" in r for r in reasons), reasons


def test_the_json_report_says_which_order_a_claim_checks(tmp_path):
    (tmp_path / "one.yaml").write_text(CASE, encoding="utf-8")
    out = CliRunner().invoke(main, ["verify", "--json", str(tmp_path / "one.yaml")]).output
    claims = json.loads(out)["files"][0]["claims"]
    assert claims[0]["scope"] == {"pairs": [["x0", "x1"]], "ordered": True}
    assert "scope" not in claims[2]  # the case's adjacency, both orders


def test_a_calibration_says_which_order_its_target_checks():
    """x1 over x0 is at most 2 - 1/E <= 3/2 iff E <= 2; x0 over x1 is E <= 3/2 iff E <= 3/2."""
    text = SYMBOLIC + textwrap.dedent("""\
          - calibrate: {target: {dp: {pairs: [[x1, x0]], ordered: true, eps: log(3/2)}}, holds_for: [{gt: 1, le: 2}]}
          - calibrate: {target: {dp: {pairs: [[x0, x1]], ordered: true, eps: log(3/2)}}, holds_for: [{gt: 1, le: 3/2}]}
        """)
    verdicts = verify_text(text, "cal.yaml").verdicts
    assert [v.status for v in verdicts] == ["holds"] * 2, [shown(v).found for v in verdicts]
    said = [v.claim.describe() for v in verdicts]
    assert "[ordered pairs (x1, x0)]" in said[0] and "[ordered pairs (x0, x1)]" in said[1], said
