"""A fault in the display of one file's result is that file's internal error (exit status 3):
the other files are shown, the summary and the JSON report are written, the sweep's CSV keeps its
other points (as checking contains a fault in one file's check)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import exactdp.report.jsonout as jsonout
import exactdp.report.text as text_report
from exactdp.cli.app import main
from exactdp.report.guard import contained, display_failure
from exactdp.verify import verify_paths, verify_text

CASE = """exactdp: 1
name: {name}
mechanisms:
  M: {{rr: {{eps: log(3)}}}}
claims:
  - privloss: {{delta: 0, equals: log(3)}}
  - privloss: {{delta: 0, equals: log(2)}}
"""

SWEEP = """exactdp: 1
name: swept
params: {{k: 1}}
sweep: {{k: [1, 2, 3]}}
mechanisms:
  M: {{rr: {{eps: log(k + 1)}}}}
claims:
  - privloss: {{delta: 0, equals: log(k + 1)}}
"""


@pytest.fixture
def three(tmp_path):
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.yaml").write_text(CASE.format(name=name))
    return tmp_path


def _faulty(original, bad):
    """``original`` that raises on the result of the file (or sweep point) ``bad`` picks out."""

    def render(fr, *args, **kw):
        if fr.error is None and bad(fr):
            raise RuntimeError("a display fault")
        return original(fr, *args, **kw)

    return render


def _is_b(fr):
    return fr.file.endswith("b.yaml")


def test_display_failure_keeps_the_count_of_the_checked_claims(three):
    (fr,) = verify_paths([three / "a.yaml"]).files
    failed = display_failure(fr, RuntimeError("boom"))
    assert failed.exit_code == 3 and failed.verdicts == () and failed.case is None
    message = str(failed.error)
    assert "RuntimeError: boom" in message and "1 holds, 1 fails" in message
    same, shown = contained(fr, lambda f: f.file)
    assert same is fr and shown == fr.file


def test_verify_shows_the_other_files_when_one_cannot_be_shown(three, monkeypatch):
    monkeypatch.setattr(text_report, "_file_lines", _faulty(text_report._file_lines, _is_b))
    r = CliRunner().invoke(main, ["verify", str(three)])
    assert r.exit_code == 3, r.output
    assert "a.yaml" in r.output and "c.yaml" in r.output
    assert "b.yaml: error" in r.output and "internal error" in r.output and "a display fault" in r.output
    assert "while showing the result (its claims were checked: 1 holds, 1 fails)" in r.output
    assert "summary" in r.output and "Traceback" not in r.output


def test_json_report_is_written_when_one_file_cannot_be_shown(three, monkeypatch):
    original = jsonout.file_json

    def faulty(fr):
        if fr.error is None and _is_b(fr):
            raise RuntimeError("a display fault")
        return original(fr)

    monkeypatch.setattr(jsonout, "file_json", faulty)
    monkeypatch.setattr("exactdp.cli.verify.file_json", faulty)
    r = CliRunner().invoke(main, ["verify", "--json", str(three)])
    assert r.exit_code == 3, r.output
    doc = json.loads(r.output)
    assert doc["exit"] == 3
    by_file = {f["file"].rsplit("/", 1)[-1]: f for f in doc["files"]}
    assert by_file["a.yaml"]["status"] == "failed" and by_file["c.yaml"]["status"] == "failed"
    assert by_file["b.yaml"]["status"] == "error" and "a display fault" in by_file["b.yaml"]["message"]


def test_sweep_keeps_its_other_points_when_one_cannot_be_written(tmp_path, monkeypatch):
    import exactdp.report.sweepcsv as sweepcsv

    case = tmp_path / "s.yaml"
    case.write_text(SWEEP.format())
    original = sweepcsv.csv_rows

    def faulty(fr, names):
        if fr.error is None and "2" in str(fr.point):
            raise RuntimeError("a display fault")
        return original(fr, names)

    monkeypatch.setattr(sweepcsv, "csv_rows", faulty)
    out = tmp_path / "s.csv"
    r = CliRunner().invoke(main, ["sweep", str(case), "--csv", str(out)])
    assert r.exit_code == 3, r.output
    assert "internal error" in r.output and "summary: 3 points" in r.output
    rows = out.read_text().splitlines()
    assert len(rows) == 4  # the header, and one row for each point (the faulty one as an error)
    assert sum("a display fault" in row for row in rows) == 1


def test_a_wide_enclosure_is_shown_as_itself_not_its_midpoint():
    """D_alpha of RR_log3 at alpha = 1 + 10^-30 when a claim is decided at the first, wide enclosure:
    its midpoint (about -5e10, though D_alpha >= 0) has no correct digit; the interval is shown."""
    from exactdp.analysis.gdp import Enclosure
    from exactdp.numbers import Q
    from exactdp.report.verdicts import enclosure_text

    assert enclosure_text(Enclosure(Q(-4 * 10**11), Q(3 * 10**11))) == "[-4.0e+11, 3.0e+11]"
    assert enclosure_text(Enclosure(Q(54930614433, 10**11), Q(54930614434, 10**11))) == "0.5493061443"
    text = (
        'exactdp: 1\nname: near1\nmechanisms:\n  M: {respond: {"0": [3/4, 1/4], "1": [1/4, 3/4]}}\n'
        "claims:\n  - renyi: {alpha: 1 + 1/10**30, at_most: 10**30}\n"
    )
    (v,) = verify_text(text).verdicts
    assert v.status == "holds"
    from exactdp.report.verdicts import value_text

    shown_value = value_text(v)
    assert not shown_value.startswith("-") or shown_value.startswith("[")
