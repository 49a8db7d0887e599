"""Sweeps as a library (exactdp/sweeping.py): the CSV grows point by point, a resumed sweep checks
only the points not yet in it, and the verdicts are those of verify_paths (an independent path
through the same case)."""

from __future__ import annotations

import csv

import pytest

from exactdp.report.sweepcsv import SweepCsvError
from exactdp.sweeping import plan_sweep, point_key, run_sweep
from exactdp.verify import verify_paths

SMALL = """\
exactdp: 1
name: small-sweep
params: {k: 1, eps: log(2), E: exp(eps)}
sweep:
  k: {from: 1, to: 3}
  eps: [log(2), log(3)]
mechanisms:
  R: {rr: {eps: eps}}
  M: {repeat: {mechanism: R, times: k}}
claims:
  - privloss: {delta: 0, equals: k*eps}
"""
# delta_M(1) of the k-fold RR is TV(RR_eps) = (E - 1)/(E + 1) for k <= 2 only (k = 3: 13/27 at E = 2)
TV = "  - delta: {eps: 0, equals: (E - 1)/(E + 1)}\n"


@pytest.fixture
def case(tmp_path):
    p = tmp_path / "small.yaml"
    p.write_text(SMALL)
    return str(p)


def test_a_sweep_checks_every_point_like_verify(case, tmp_path):
    out = str(tmp_path / "out.csv")
    plan = plan_sweep(case, csv_path=out)
    assert plan.names == ["k", "eps"] and len(plan.items) == 6 and plan.case == "small-sweep"
    run = run_sweep(plan, csv_path=out)
    assert not run.interrupted and run.exit_code == 0
    reference = verify_paths([case])  # the same points, checked by the verification pipeline
    assert [fr.point for fr in run.results] == [fr.point for fr in reference]
    assert [[v.status for v in fr.verdicts] for fr in run.results] == [
        [v.status for v in fr.verdicts] for fr in reference
    ]
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows == run.rows and len(rows) == 6  # one claim at six points
    assert {r["value"] for r in rows if r["k"] == "3" and r["eps"] == "log(3)" and r["claim"] == "1"} == {"log(27)"}
    assert run.statuses() == ["holds"] * 6


def test_a_resumed_sweep_checks_only_the_points_not_in_the_csv(case, tmp_path):
    out = tmp_path / "out.csv"
    run_sweep(plan_sweep(case, csv_path=str(out)), csv_path=str(out))
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:3]), encoding="utf-8")  # the header and the first two points
    plan = plan_sweep(case, csv_path=str(out))
    plan.resume(str(out))
    assert len(plan.resumed.done) == 2
    assert [point_key(it) for it in plan.todo] == [point_key(it) for it in plan.items[2:]]
    run = run_sweep(plan, csv_path=str(out))
    assert len(run.results) == 4 and len(run.rows) == 6 and run.exit_code == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 7


def test_a_first_point_cut_after_some_of_its_rows_is_checked_again(tmp_path):
    """Two claims a point; the CSV holds the header and the first point's first row only.  Alone,
    that point's rows looked complete (its claims were counted from the rows found: one), so the
    resumed sweep never checked its second claim."""
    p = tmp_path / "two.yaml"
    p.write_text(SMALL + TV)
    out = tmp_path / "out.csv"
    run_sweep(plan_sweep(str(p), csv_path=str(out)), csv_path=str(out))
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines[:2]), encoding="utf-8")
    plan = plan_sweep(str(p), csv_path=str(out))
    plan.resume(str(out))
    assert not plan.resumed.done and len(plan.todo) == 6
    out.write_text("".join(lines[:4]), encoding="utf-8")  # a whole point, then one row of the next
    plan.resume(str(out))
    assert len(plan.resumed.done) == 1 and len(plan.todo) == 5


def test_a_csv_of_another_case_is_refused_and_left_as_it_is(case, tmp_path):
    out = tmp_path / "other.csv"
    out.write_text("a,b\n1,2\n", encoding="utf-8")
    plan = plan_sweep(case, csv_path=str(out))
    with pytest.raises(SweepCsvError):
        plan.resume(str(out))
    assert out.read_text(encoding="utf-8") == "a,b\n1,2\n"


def test_a_failing_point_sets_the_exit_code(tmp_path):
    p = tmp_path / "fails.yaml"
    p.write_text(SMALL + TV)
    run = run_sweep(plan_sweep(str(p)))
    assert run.exit_code == 1
    assert run.statuses() == ["holds"] * 4 + ["fails"] * 2
