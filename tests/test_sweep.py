"""Sweeps: the `sweep:` key (points, order, located errors), per-point verdicts equal to separate
single-point files, and ``exactdp sweep`` (rows, CSV, resume, limits per point, plot)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.caseio import parse_case
from exactdp.caseio.sweep import point_label, sweep_points
from exactdp.cli import main
from exactdp.errors import CaseError
from exactdp.numbers import ladder
from exactdp.report.verdicts import shown
from exactdp.verify import verify_paths, verify_text

ROOT = Path(__file__).resolve().parents[1]
THM18 = ROOT / "cases/vadhan-wang/thm-1-8-sweep.yaml"

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
  - delta: {eps: 0, equals: (E - 1)/(E + 1)}
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_points_in_order_first_key_outermost():
    pts = sweep_points(SMALL, "s.yaml")
    assert [point_label(p) for p in pts] == [
        "k=1, eps=log(2)",
        "k=1, eps=log(3)",
        "k=2, eps=log(2)",
        "k=2, eps=log(3)",
        "k=3, eps=log(2)",
        "k=3, eps=log(3)",
    ]
    assert sweep_points("exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n") is None


def test_params_are_substituted_everywhere():
    """times:, mechanism parameters, expected values and derived params all see the point."""
    case = parse_case(SMALL, "s.yaml", params=dict(sweep_points(SMALL)[5]))
    assert ladder.text(case.params["E"]) == "3" and len(case.claims) == 2
    fr = verify_text(SMALL.replace("k: 1, eps: log(2)", "k: 3, eps: log(3)"))
    assert [v.status for v in fr.verdicts] == ["holds", "fails"]  # TV(3-fold RR_log3) != TV(RR_log3)


@pytest.mark.parametrize(
    "sweep, message",
    [
        ("{j: [1, 2]}", "'j' is not declared under `params:`"),
        ("{k: {from: 3, to: 1}}", "is empty"),
        ("{k: {from: 1, to: 2, step: 0}}", "step must be at least 1"),
        ("{k: [1, 1]}", "listed twice"),
        ("{k: [eps]}", "a sweep value is a constant"),
        ("{k: {from: 1/2, to: 3}}", "must be a whole number"),
        ("{k: []}", "empty list"),
        ("{k: 3}", "a list of values or a range"),
    ],
)
def test_bad_sweeps_are_located_errors(sweep, message):
    text = SMALL.split("sweep:")[0] + f"sweep: {sweep}\n" + "mechanisms:" + SMALL.split("mechanisms:")[1]
    with pytest.raises(CaseError) as e:
        sweep_points(text, "s.yaml")
    assert message in str(e.value) and "s.yaml:" in str(e.value)
    with pytest.raises(CaseError, match=re.escape(message)):  # the reader checks it too
        parse_case(text, "s.yaml")


def test_too_many_points_names_the_limit():
    text = SMALL.replace("k: {from: 1, to: 3}", "k: {from: 1, to: 60}")
    with pytest.raises(CaseError, match="--max-sweep-points"):
        sweep_points(text, "s.yaml", max_points=100)


def _single_point_file(text: str, point) -> str:
    """The same case with the point's values written under params: and no sweep."""
    head, rest = text.split("\nparams:\n", 1)
    params, rest = rest.split("\nsweep:\n", 1)
    rest = rest.split("\nmechanisms:\n", 1)[1]
    values = dict((n, ladder.text(v)) for n, v in point)
    lines = [
        re.sub(r"^(  (\w+): ).*$", lambda m: m.group(1) + values.get(m.group(2), m.group(0)[len(m.group(1)) :]), ln)
        for ln in params.splitlines()
    ]
    return head + "\nparams:\n" + "\n".join(lines) + "\nmechanisms:\n" + rest


def test_each_point_of_the_thm_1_8_sweep_equals_a_single_point_file():
    text = THM18.read_text()
    results = list(verify_paths([THM18]))
    points = sweep_points(text, str(THM18))
    assert len(results) == len(points) == 24
    for fr, point in zip(results, points):
        single = verify_text(_single_point_file(text, point), "single.yaml")
        assert single.error is None, single.error
        assert fr.case.name == f"vw-thm-1-8-sweep[{point_label(point)}]"
        assert [(v.status, shown(v).found) for v in fr.verdicts] == [
            (v.status, shown(v).found) for v in single.verdicts
        ]
        assert all(v.holds for v in fr.verdicts)


def test_sweep_rows_csv_and_resume(tmp_path):
    case = tmp_path / "s.yaml"
    case.write_text(SMALL)
    out = tmp_path / "s.csv"
    r = run("sweep", str(case), "--csv", str(out))
    assert r.exit_code == 1, r.output  # the TV claim fails for k >= 2
    rows = [ln for ln in r.output.splitlines() if ln.startswith("k=")]
    assert len(rows) == 6 and rows[0].split() == ["k=1", "eps=log(2)", "✓", "log(2)", "✓", "1/3"]
    table = list(csv.DictReader(out.open()))
    assert len(table) == 12 and re.fullmatch("[0-9a-f]{64}", table[0].pop("inputs"))
    assert table[0] == {
        "k": "1",
        "eps": "log(2)",
        "claim": "1",
        "kind": "privloss",
        "of": "M",
        "status": "holds",
        "value": "log(2)",
        "found": "log(2) ≈ 0.693147",
        "case": "small-sweep",
    }
    # an interrupted sweep: keep the first two points (and half of the third), resume
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:6]))
    assert run("sweep", str(case), "--csv", str(out)).exit_code == 2  # no silent appending
    r2 = run("sweep", str(case), "--resume", str(out), "-q")
    assert r2.exit_code == 1 and "2 read from" in r2.output
    assert sorted(out.read_text().splitlines()) == sorted("".join(lines).splitlines())


def test_resume_refuses_a_csv_of_another_sweep(tmp_path):
    case = tmp_path / "s.yaml"
    case.write_text(SMALL)
    other = tmp_path / "o.csv"
    other.write_text("a,b\n1,2\n")
    r = run("sweep", str(case), "--resume", str(other))
    assert r.exit_code == 2 and "not a sweep CSV of this case" in r.output


def test_a_point_over_a_limit_is_that_points_error_and_the_sweep_goes_on():
    r = run("sweep", str(THM18), "--max-exponent", "5", "--json")
    assert r.exit_code == 2
    doc = json.loads(r.output)
    statuses = [(f["params"]["k"], f["status"]) for f in doc["files"]]
    assert len(statuses) == 24
    assert {s for k, s in statuses if int(k) <= 5} == {"ok"} and {s for k, s in statuses if int(k) > 5} == {"invalid"}
    assert "--max-exponent" in doc["files"][-1]["problems"][0]["message"]


SLOW = """exactdp: 1
name: slow-at-large-k
params: {k: 2}
sweep: {k: [2, 40]}
mechanisms:
  A: {rr: {eps: log(2)}}
  B: {rr: {eps: log(4), delta: 1/100}}
  C: {rr: {eps: log(8), delta: 1/1000}}
  M: {repeat: {mechanism: {choose: [A, B, C]}, times: k}}
claims:
  - privloss: {delta: 1/100, at_most: 3*k*log(2)}
"""


def test_a_point_over_its_timeout_is_undecided_and_the_next_points_run(tmp_path):
    case = tmp_path / "slow.yaml"
    case.write_text(SLOW.replace("[2, 40]", "[2, 40, 3]"))
    r = run("sweep", str(case), "--timeout", "0.5", "--json")
    doc = json.loads(r.output)
    assert r.exit_code == 2
    decided = [f["claims"][0]["status"] != "error" for f in doc["files"]]
    assert decided == [True, False, True]
    assert "time" in doc["files"][1]["claims"][0]["note"]


def test_plot(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "p.png"
    r = run("sweep", str(THM18), "-q", "--plot", str(out), "--plot-claim", "3", "--plot-x", "k")
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:4] == b"\x89PNG"
    assert run("sweep", str(THM18), "--plot", str(out), "--plot-x", "j").exit_code == 2


@pytest.mark.parametrize("flag", ["--csv", "--resume", "--plot"])
def test_files_that_cannot_be_written_are_clear_errors(tmp_path: Path, flag: str):
    """A CSV or plot path that cannot be written, or a resume file that is not a sweep CSV, ends
    with one line and exit 2 (never a traceback)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    r = CliRunner().invoke(main, ["sweep", str(THM18), flag, str(blocker / "out.png")])
    assert r.exit_code == 2 and "cannot read or write" in r.output and "Traceback" not in r.output
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\x9c\xff\x00 not text")
    r = CliRunner().invoke(main, ["sweep", str(THM18), "--resume", str(bad)])
    assert r.exit_code == 2 and "not a sweep CSV" in r.output
    r = CliRunner().invoke(main, ["sweep", str(THM18), "--plot", str(tmp_path / "plot.xyz")])
    assert r.exit_code == 2 and "name the file" in r.output


VALUES = """\
exactdp: 1
name: values-sweep
params: {e: log(3)}
sweep:
  e: [log(2), log(3), log(4)]
mechanisms:
  M: {rr: {eps: e}}
claims:
  - renyi: {alpha: 2, at_most: e}
  - gdp: {mu: 3}
  - fdp: {f: M}
"""


def test_a_sweep_shows_each_claims_declared_value(tmp_path: Path):
    """The table, the CSV (which --plot draws) and --json show each claim's declared value:
    D_2 for renyi (not the order 2: the plot was a flat line), the least mu for gdp (not the
    word "holds"), the margin min(T(M) - T(f)) for fdp.

    RR with e^eps = E has P = (E, 1)/(1 + E), P' = (1, E)/(1 + E), so
    D_2 = log(sum P^2/P') = log(E^2/(1 + E) + 1/(E(1 + E))) = log((E^2 - E + 1)/E) (Mironov 2017,
    Def. 3): log(3/2), log(7/3), log(13/4) for E = 2, 3, 4.  Its trade-off function has one
    vertex, alpha = beta = 1/(1 + E), so the least mu with G_mu below it is 2 Phi^-1(E/(1 + E))
    (Dong-Roth-Su 2022, Def. 2.6), computed here with the standard library's NormalDist."""
    from statistics import NormalDist

    case = tmp_path / "values.yaml"
    case.write_text(VALUES)
    out = tmp_path / "values.csv"
    r = run("sweep", str(case), "--csv", str(out))
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    renyi = [row["value"] for row in rows if row["kind"] == "renyi"]
    assert renyi == ["log(3/2)", "log(7/3)", "log(13/4)"]
    mus = [float(row["value"]) for row in rows if row["kind"] == "gdp"]
    expected = [2 * NormalDist().inv_cdf(E / (1 + E)) for E in (2, 3, 4)]
    assert all(abs(m - x) < 1e-8 for m, x in zip(mus, expected, strict=True)), (mus, expected)
    assert [row["value"] for row in rows if row["kind"] == "fdp"] == ["0", "0", "0"]
    assert "[1] renyi of M: D_alpha(M)" in r.output and "[2] gdp of M: the least mu" in r.output
    assert "✓ log(7/3)" in r.output and "holds  " not in r.output
    js = json.loads(run("sweep", str(case), "--json").output)
    assert [f["claims"][0]["value"] for f in js["files"]] == renyi
    assert js["files"][1]["claims"][1]["values"]["mu_star"][0].startswith("1.348979500")


def test_the_sweep_plot_draws_the_declared_value(tmp_path: Path):
    """--plot draws the value column: for renyi, D_2 rises with eps (it was a flat line at 2)."""
    pytest.importorskip("matplotlib")
    from exactdp.report import sweep as report_sweep

    case = tmp_path / "values.yaml"
    case.write_text(VALUES)
    drawn: list = []
    real_plot = report_sweep.plot_sweep

    def spy(rows, names, x, claim, out):
        drawn.extend(r["value"] for r in rows if r["claim"] == str(claim))
        return real_plot(rows, names, x, claim, out)

    report_sweep_plot = "exactdp.cli.sweep.plot_sweep"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(report_sweep_plot, spy)
        r = run("sweep", str(case), "-q", "--plot", str(tmp_path / "p.png"), "--plot-claim", "1")
    assert r.exit_code == 0, r.output
    assert drawn == ["log(3/2)", "log(7/3)", "log(13/4)"]


def test_plotting_a_claim_the_case_does_not_have_is_refused(tmp_path):
    """--plot-claim 99 on a case with 3 claims drew an empty figure and exited 0."""
    r = run("sweep", str(THM18), "-q", "--plot", str(tmp_path / "p.png"), "--plot-claim", "99", "--plot-x", "k")
    assert r.exit_code == 2 and "--plot-claim 99: the case's claims are numbered 1 to" in r.output, r.output
    assert not (tmp_path / "p.png").exists()


# --- the CSV from hostile case files, and resuming only what is still current -----------------

INJECT = """\
exactdp: 1
name: inject
params: {k: 1}
sweep: {k: [1, 2]}
mechanisms:
  "=cmd|' /C calc'!A0": {rr: {eps: log(3)}}
  "@SUM(1+1)": {rr: {eps: log(3)}}
  "-2+3+cmd|' /C calc'!A0": {rr: {eps: log(3)}}
claims:
  - privloss: {of: "=cmd|' /C calc'!A0", delta: 0, equals: log(3)}
  - privloss: {of: "@SUM(1+1)", delta: 0, equals: log(3)}
  - privloss: {of: "-2+3+cmd|' /C calc'!A0", delta: 0, equals: k*log(3)}
"""


def test_csv_cells_from_the_case_never_start_a_formula(tmp_path):
    """OWASP CSV injection: a cell a spreadsheet would run as a formula (= + - @ | % at its
    start) comes from the case file only in the `of` and `found` columns; the CSV escaper
    (report.escape.csv_field) puts a quote before it.  exactdp's own exact numbers stay as they
    are, so the CSV still reads back (resume, plot)."""
    case = tmp_path / "inject.yaml"
    case.write_text(INJECT)
    out = tmp_path / "s.csv"
    r = run("sweep", str(case), "--csv", str(out))
    assert r.exit_code == 1, r.output  # claim 3 fails at k = 2
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 6
    assert {r["of"] for r in rows} == {"'=cmd|' /C calc'!A0", "'@SUM(1+1)", "'-2+3+cmd|' /C calc'!A0"}
    for row in rows:
        for col, cell in row.items():
            assert not cell.startswith(("=", "+", "@", "|", "%", "\t", "\r")), (col, cell)
    assert [r["value"] for r in rows] == ["log(3)"] * 6
    r2 = run("sweep", str(case), "--resume", str(out))
    assert r2.exit_code == 1 and "2 read from" in r2.output


ALL_HOLD = """\
exactdp: 1
name: resume-me
params: {k: 1, eps: log(2)}
sweep:
  k: {from: 1, to: 3}
  eps: [log(2), log(3)]
mechanisms:
  R: {rr: {eps: eps}}
  M: {repeat: {mechanism: R, times: k}}
claims:
  - privloss: {delta: 0, equals: k*eps}
"""


def _csv_rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open(encoding="utf-8")))


def test_resume_rechecks_every_point_whose_case_changed(tmp_path):
    """Resuming after the case was edited (a claim made false, a claim added) checks every point
    again: the verdicts and the exit status are those of `verify`, never the stale rows."""
    case = tmp_path / "s.yaml"
    case.write_text(ALL_HOLD)
    out = tmp_path / "s.csv"
    assert run("sweep", str(case), "--csv", str(out)).exit_code == 0
    assert {r["inputs"] for r in _csv_rows(out)} and len({r["inputs"] for r in _csv_rows(out)}) == 6
    case.write_text(ALL_HOLD.replace("equals: k*eps", "equals: k*eps + 1/10"))
    r = run("sweep", str(case), "--resume", str(out))
    assert run("verify", str(case)).exit_code == 1
    assert r.exit_code == 1, r.output
    assert "every claim holds" not in r.output.splitlines()[-1] or "0 where every claim holds" in r.output
    assert "6 points changed" in r.output and "read from" not in r.output
    assert [row["status"] for row in _csv_rows(out)] == ["fails"] * 6  # the stale rows are gone
    case.write_text(ALL_HOLD + "  - delta: {eps: k*eps, equals: 0}\n")
    r = run("sweep", str(case), "--resume", str(out), "-q")
    assert r.exit_code == 0, r.output
    assert [(row["claim"], row["status"]) for row in _csv_rows(out)] == [("1", "holds"), ("2", "holds")] * 6


def test_resume_keeps_points_whose_inputs_are_unchanged(tmp_path):
    """A grid extended by one value: the points already written are read back, the new ones
    are checked; their rows carry the digest of the case text and the point's params."""
    case = tmp_path / "s.yaml"
    case.write_text(ALL_HOLD.replace("to: 3", "to: 2"))
    out = tmp_path / "s.csv"
    assert run("sweep", str(case), "--csv", str(out)).exit_code == 0
    before = out.read_text(encoding="utf-8")
    # the same case file text gives the same digests: resuming with nothing to do changes nothing
    r = run("sweep", str(case), "--resume", str(out))
    assert r.exit_code == 0 and "4 read from" in r.output and out.read_text(encoding="utf-8") == before
    case.write_text(ALL_HOLD)  # k up to 3: the case text changed, so every point is checked again
    r = run("sweep", str(case), "--resume", str(out))
    assert r.exit_code == 0 and "4 points changed" in r.output
    assert len(_csv_rows(out)) == 6


def test_resume_refuses_a_csv_that_does_not_belong_to_the_case(tmp_path):
    """A CSV written by hand (or by an older exactdp: no input digests) with this sweep's
    columns, and a CSV of another case, are refused: nothing is read back, nothing rewritten."""
    case = tmp_path / "s.yaml"
    case.write_text(ALL_HOLD)
    hand = tmp_path / "hand.csv"
    hand.write_text(
        "k,eps,claim,kind,of,status,value,found\n"
        + "".join(f"{k},{e},1,privloss,M,holds,x,x\n" for k in (1, 2, 3) for e in ("log(2)", "log(3)"))
    )
    r = run("sweep", str(case), "--resume", str(hand))
    assert r.exit_code == 2 and "not a sweep CSV of this case" in r.output, r.output
    other = tmp_path / "other.yaml"
    other.write_text(ALL_HOLD.replace("name: resume-me", "name: another-case"))
    out = tmp_path / "o.csv"
    assert run("sweep", str(other), "--csv", str(out)).exit_code == 0
    before = out.read_bytes()
    r = run("sweep", str(case), "--resume", str(out))
    assert r.exit_code == 2 and "another-case" in r.output and "resume-me" in r.output, r.output
    assert out.read_bytes() == before
    # a row whose digest was edited by hand is not exactdp's
    lines = before.decode().splitlines(keepends=True)
    lines[1] = lines[1].rstrip("\n")[:-64] + "0" * 63 + "g\n"
    out.write_text("".join(lines))
    r = run("sweep", str(other), "--resume", str(out))
    assert r.exit_code == 2 and "line 2" in r.output, r.output


@pytest.mark.parametrize("where", ["params", "status", "found-multibyte", "digest", "before-newline"])
def test_a_cut_off_last_row_is_detected_and_its_point_checked_again(tmp_path, where):
    """A sweep killed while writing leaves a last row without its line end, cut anywhere: in the
    params, inside the status word (`hol` must not become a failing point), inside a multi-byte
    character, in the digest, or just before the line end.  Resuming drops it, checks the point
    again and leaves the CSV exactly as a run that was never cut off."""
    case = tmp_path / "s.yaml"
    case.write_text(ALL_HOLD)
    full = tmp_path / "full.csv"
    assert run("sweep", str(case), "--csv", str(full)).exit_code == 0
    data = full.read_bytes()
    last = data.rstrip(b"\n").rfind(b"\n") + 1  # start of the last row
    row = data[last:]
    cut = {
        "params": 2,
        "status": row.index(b",holds,") + 4,
        "found-multibyte": row.index("≈".encode()) + 1,
        "digest": len(row) - 20,
        "before-newline": len(row) - 1,
    }[where]
    out = tmp_path / "cut.csv"
    out.write_bytes(data[: last + cut])
    r = run("sweep", str(case), "--resume", str(out))
    assert r.exit_code == 0, r.output
    assert "5 read from" in r.output
    assert out.read_bytes() == data


BIDI = """\
exactdp: 1
name: bidi
params: {e: log(3)}
sweep:
  e: [log(2), log(3)]
mechanisms:
  "A\\u202eB": {rr: {eps: e}}
claims:
  - privloss: {of: "A\\u202eB", delta: 0, at_most: 1/2}
  - dp: {of: "A\\u202eB", eps: log(3)}
"""


def test_the_sweep_legend_and_rows_escape_case_text(tmp_path: Path):
    """A mechanism name from the case file reaches the terminal through the claims legend (and a
    row's text): a right-to-left override (U+202E) or an escape sequence in it is written as a
    visible escape, as verify writes it, never as the character itself."""
    case = tmp_path / "bidi.yaml"
    case.write_text(BIDI, encoding="utf-8")
    r = run("sweep", str(case))
    assert r.exit_code == 1, r.output
    assert "\u202e" not in r.output, r.output
    assert "[1] privloss of A\\u202eB:" in r.output and "[2] dp of A\\u202eB:" in r.output
    bad = tmp_path / "bad.yaml"  # a row with the error of a point: its text is escaped too
    bad.write_text(BIDI.replace('dp: {of: "A\\u202eB"', 'dp: {of: "A\\u202eB\\x1b[2J"'), encoding="utf-8")
    r = run("sweep", str(bad))
    assert r.exit_code == 2 and "\u202e" not in r.output and "\x1b" not in r.output, r.output
