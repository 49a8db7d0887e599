"""Claims with symbols whose verdict for every value stops at a limit: a rational value of the
symbols where the exact numeric engine refutes the claim still decides it (a claim about every
value is false when it is false at one); a true claim stays undecided, with the limit."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from exactdp.analysis.parametric.cells import Domain
from exactdp.claims.sampled import sample_values
from exactdp.cli.app import main
from exactdp.lazy import flint
from exactdp.limits import DEFAULT
from exactdp.verify import Options, verify_file

# R = RR_E, so M = R (x) R is exactly (2 log E)-DP: (log 9, 0)-DP iff E <= 3.  At e^eps = 9 its delta
# is 0 up to E = 3 and (E^2 - 9)/(E + 1)^2 beyond (the view (a, a)), below 4/9 < 1/2 on the domain.
CASE = """exactdp: 1
name: sampled
symbols:
  E: {gt: 2, lt: 5}
mechanisms:
  R: {respond: {a: [E/(1 + E), 1/(1 + E)], b: [1/(1 + E), E/(1 + E)]}}
  M: {compose: [R, R]}
claims:
  - dp: {of: M, eps: log(9), delta: %s}
"""


def _run(tmp_path, delta: str, cells: int):
    f = tmp_path / "c.yaml"
    f.write_text(CASE % delta)
    return verify_file(f, Options.under(DEFAULT.replace(max_cells=cells)))


def test_a_false_claim_is_refuted_at_a_sampled_value_when_the_cells_run_out(tmp_path):
    whole = _run(tmp_path, "0", 5_000).verdicts[0]  # (every value: fails exactly where E > 3)
    assert whole.status.value == "fails" and "pieces" in whole.facts
    v = _run(tmp_path, "0", 1).verdicts[0]
    assert v.status.value == "fails" and "pieces" not in v.facts
    # the values tried: 3 (the simplest in (2, 5): holds), 11/4 (holds), 7/2 (fails)
    assert v.facts["refuted_at"] == {"E": flint.fmpq(7, 2)}
    assert v.facts["there"].status.value == "fails"  # the numeric engine's verdict there
    assert "--max-cells" in v.facts["sampled"]


def test_a_true_claim_stays_undecided_with_the_limit(tmp_path):
    assert _run(tmp_path, "1/2", 5_000).verdicts[0].status.value == "holds"  # (on 2 cells or more)
    r = _run(tmp_path, "1/2", 1)
    (v,) = r.verdicts
    assert (
        r.exit_code == 2 and v.status.value == "error" and "--max-cells" in v.reason
    )  # (shown "could not be decided")


def test_the_json_report_names_the_value_and_the_limit(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text(CASE % "0")
    r = CliRunner().invoke(main, ["verify", "--json", "--max-cells", "1", str(f)])
    assert r.exit_code == 1, r.output
    (claim,) = json.loads(r.output)["files"][0]["claims"]
    assert claim["values"]["refuted_at"] == {"E": "7/2"} and "--max-cells" in claim["note"]


_END = st.fractions(min_value=-20, max_value=20, max_denominator=50)


@given(st.one_of(st.none(), _END), st.one_of(st.none(), _END), st.booleans(), st.booleans())
def test_sampled_values_lie_in_the_domain(lo, hi, lo_closed, hi_closed):
    if lo is not None and hi is not None and lo >= hi:
        lo, hi = hi, lo
        if lo == hi:
            lo_closed = hi_closed = True
    q = lambda x: None if x is None else flint.fmpq(x.numerator, x.denominator)  # noqa: E731
    d = Domain("s", q(lo), lo_closed and lo is not None, q(hi), hi_closed and hi is not None)
    values = sample_values(d)
    assert values and len(values) == len(set(values))
    for v in values:
        assert lo is None or v > q(lo) or (d.lo_closed and v == q(lo))
        assert hi is None or v < q(hi) or (d.hi_closed and v == q(hi))
