"""Words that mislead: what exactdp prints says what happened, and what to do.

Each test reproduces a message that misled a reader: a composition whose component needs its
delta under ``deltas:``, a delta in Q(e^(1/L)) where the composition theorems take rationals,
exit status 2 that also means "undecided", one sweep file counted as many files, "1
breakpoints", mu as a 46-digit fraction, and a drawing written without saying where.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from exactdp.cli import main
from exactdp.report.verdicts import shown
from exactdp.verify import verify_text

from .system_tools import needs

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


COMPONENT_WITH_DELTA = """\
exactdp: 1
name: needs-deltas
mechanisms:
  R: {rr: {eps: log(3), delta: 1/10}}
  A: {rr: {eps: log(2)}}
claims:
  - composition: {components: [R, A], theorem: optimal, delta: 1/5}
  - composition: {components: [R, A], theorem: thm-1.8}
"""


def test_a_component_with_a_delta_asks_for_deltas():
    """RR_(log 3, 1/10) has PrivLoss(R, 0) = inf (an answer possible under x0 only, Vadhan-Wang
    Def. 5.1), so with delta_i = 0 no theorem gives a bound: the claim is undecided (exit 2, not
    "not supported yet", exit 1) and the note says to give deltas:, with the least delta_i
    that makes PrivLoss finite, delta_R(inf) = 1/10 and delta_A(inf) = 0."""
    fr = verify_text(COMPONENT_WITH_DELTA, "c.yaml")
    assert fr.exit_code == 2
    for v in fr.verdicts:
        assert v.status == "error"
        sh = shown(v)
        assert "PrivLoss(R, 0) = inf" in sh.found
        assert "`deltas:`" in sh.note and "deltas: [1/10, 0]" in sh.note


def test_a_delta_in_the_field_says_why_composition_takes_rationals(tmp_path: Path):
    text = COMPONENT_WITH_DELTA.replace("delta: 1/5}", 'delta: "1 - exp(-1/10)"}')
    fr = verify_text(text, "c.yaml")
    assert fr.exit_code == 2 and fr.error is not None
    (p,) = fr.error.problems
    assert p.path == "claims[0].composition.delta"
    assert "composition theorems are evaluated for rational deltas" in (p.hint or "")


def test_exit_status_2_also_means_undecided():
    for args in (["--help"], ["verify", "--help"], ["sweep", "--help"]):
        assert "undecided" in " ".join(run(*args).output.split()), args
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "or a claim could not be decided (*undecided*" in readme
    errors = " ".join((ROOT / "docs/errors.md").read_text().split())
    assert "Exit status 2 also means that a claim could not be decided" in errors


def test_one_sweep_file_is_summarised_as_points():
    r = run("verify", "cases/vadhan-wang/thm-1-8-sweep.yaml")
    assert r.output.splitlines()[-1].startswith("summary: 120 claims in 1 file (24 sweep points):"), r.output


def test_one_breakpoint_is_singular():
    text = "exactdp: 1\nname: one\nmechanisms:\n  M: {rr: {eps: 0}}\nclaims:\n  - profile_eq: {as: M}\n"
    (v,) = verify_text(text, "one.yaml").verdicts
    assert shown(v).found == "1 breakpoint, identical"


def test_mu_is_printed_as_written():
    """A decimal mu is printed as the decimal written (it was a 46-digit fraction); a long
    fraction is shortened in the statement, and stays exact in the JSON params."""
    long_decimal = "1.348979500392163444444444444"
    long_fraction = "123456789012345678901234567/98765432109876543210987654"
    text = (
        "exactdp: 1\nname: mu\nmechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n"
        f"  - not_gdp: {{mu: {long_decimal}}}\n  - not_gdp: {{mu: {long_fraction}}}\n"
    )
    fr = verify_text(text, "mu.yaml")
    assert [v.claim.describe() for v in fr.verdicts] == [
        f"M is not {long_decimal}-GDP",
        "M is not ≈1.249999989-GDP",  # 10 significant digits, as decimal.Decimal gives them
    ]
    from exactdp.report import run_to_json
    from exactdp.verify import RunResult

    params = [c["params"]["mu"] for c in json.loads(run_to_json(RunResult((fr,))))["files"][0]["claims"]]
    assert params == [long_decimal, long_fraction]


@needs("dot")
def test_info_says_where_it_wrote_the_drawing(tmp_path: Path):
    out = tmp_path / "game.png"
    r = run("info", "cases/vadhan-wang/figure1-two-round.yaml", "--png", str(out))
    assert r.exit_code == 0 and out.exists()
    assert f"the drawing of M (PNG) written to {out}" in r.output
