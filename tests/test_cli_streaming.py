"""The command line as it streams: the same output for any number of workers or a Dask cluster,
a worker killed mid-run, Ctrl-C, the progress bar, -q/-v, the witness legend, the JSON report
format, the options shared by every command that reads case files, Section 6 on 2 workers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.cli import main
from exactdp.report import WITNESS_LEGEND
from exactdp.report.text import _wrap

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}
EXACTDP = [sys.executable, "-m", "exactdp"]

GOOD = """\
exactdp: 1
name: good
mechanism: {rr: {eps: log(3)}}
claims:
  - privloss: {delta: 0, equals: log(3)}
"""
FAILING = """\
exactdp: 1
name: failing
mechanism: {rr: {eps: log(3)}}
claims:
  - privloss: {delta: 0, equals: log(3)}
  - dp: {eps: log(2), delta: 0}
"""
INVALID = "exactdp: 1\nname: bad\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: -1}}]\n"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*EXACTDP, *args], cwd=ROOT, capture_output=True, text=True, env=ENV)


@pytest.fixture(scope="module")
def serial_library() -> str:
    p = _cli("verify", "-v", "--jobs", "1", "cases/")
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_two_workers_and_a_dask_cluster_print_what_one_process_prints(serial_library):
    """Byte for byte (the text report has no timings), sweep points included."""
    pytest.importorskip("distributed")
    assert "vw-thm-1-8-sweep[k=8, eps=log(3)]" in serial_library
    two = _cli("verify", "-v", "--jobs", "2", "cases/")
    assert (two.returncode, two.stdout) == (0, serial_library), two.stderr
    dask = _cli("verify", "-v", "--scheduler", "local:2", "cases/")
    assert (dask.returncode, dask.stdout) == (0, serial_library), dask.stderr


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _start(*args: str) -> tuple[subprocess.Popen, str]:
    """Start exactdp and wait for its first result line."""
    p = subprocess.Popen(
        [*EXACTDP, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV
    )
    assert p.stdout is not None
    first = p.stdout.readline()
    return p, first


def _finish(p: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """The rest of stdout and stderr (read through the same buffered files as the first line)."""
    assert p.stdout is not None and p.stderr is not None
    out = p.stdout.read()  # until exactdp closes it (reading first: a full pipe would block it)
    err = p.stderr.read()
    p.wait(timeout=timeout)
    return out, err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds worker processes through /proc")
def test_a_worker_killed_in_the_middle_of_a_run_loses_nothing(serial_library):
    """cases/vadhan-wang/ (17 files and the 24 points of the sweep) on 2 workers, one of them
    killed after the first result: every result is there, as in the serial run."""
    p, first = _start("verify", "-v", "--jobs", "2", "cases/vadhan-wang/")
    workers = [w for c in _children(p.pid) for w in _children(c)]  # forkserver -> workers
    assert workers, "no worker processes found"
    os.kill(workers[0], signal.SIGKILL)
    out, err = _finish(p, 600)
    assert p.returncode == 0, err
    legend = "\n".join(_wrap(WITNESS_LEGEND, "      ")) + "\n"  # shown once per run: elsewhere in a subset
    lines = (first + out).replace(legend, "").splitlines()
    expected = serial_library.replace(legend, "")
    expected_lines = expected[expected.index("cases/vadhan-wang/") :].splitlines()[:-1]
    assert lines[:-1] == expected_lines
    assert lines[-1] == "summary: 258 claims in 17 files (24 sweep points): 258 hold, 0 fail"


SLOW = """\
exactdp: 1
name: slow
mechanisms:
  A: {rr: {eps: log(2)}}
  B: {rr: {eps: log(4), delta: 1/100}}
  C: {rr: {eps: log(8), delta: 1/1000}}
  M: {repeat: {mechanism: {choose: [A, B, C]}, times: 40}}
claims:
  - privloss: {delta: 1/100, at_most: 120*log(2)}
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_prints_finished_results_and_a_summary_and_exits_130(jobs, tmp_path):
    """A fast file, then one that runs for minutes: Ctrl-C after the first result always lands
    mid-run (with the whole library it could come after the last claim on a fast machine).
    --timeout bounds the slow claim, so a lost Ctrl-C fails the test instead of hanging it."""
    (tmp_path / "a-fast.yaml").write_text(GOOD)
    (tmp_path / "b-slow.yaml").write_text(SLOW)
    p, first = _start("verify", "--jobs", jobs, "--timeout", "90", str(tmp_path))
    assert first.startswith("✓ ") and "a-fast.yaml" in first
    kids = _children(p.pid)
    p.send_signal(signal.SIGINT)
    out, err = _finish(p, 120)
    assert p.returncode == 130, (out, err)
    lines = (first + out).splitlines()
    assert lines[-1].startswith("summary: ") and "interrupted:" in lines[-1] and "not checked" in lines[-1]
    assert len(lines) >= 2 and "Traceback" not in err
    time.sleep(0.5)
    assert not [
        k for k in kids if Path(f"/proc/{k}").exists() and "zombie" not in Path(f"/proc/{k}/status").read_text()
    ]


def test_progress_bar_moves_and_clears_itself(tmp_path):
    for k in range(3):
        (tmp_path / f"g{k}.yaml").write_text(GOOD)
    r = run("verify", "--progress", str(tmp_path))
    assert r.exit_code == 0
    assert "\x1b" not in r.stdout and r.stdout.count("✓") == 3
    err = r.stderr
    assert err.count("\r") >= 3 and "verify" in err and "3/3" in err  # drawn, moved to the end
    assert err.endswith("\r\x1b[K")  # and erased
    assert run("verify", "--no-progress", str(tmp_path)).stderr == ""


def test_quiet_normal_verbose_and_the_legend_once(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(FAILING)
    (tmp_path / "c.yaml").write_text(FAILING.replace("name: failing", "name: failing-too"))
    normal = run("verify", str(tmp_path)).output.splitlines()
    assert normal[0].startswith("✓ ") and normal[0].endswith("a.yaml: good (1 claim holds)")
    assert normal[1].endswith("b.yaml: failing (1 hold, 1 fail)")
    assert any(line.startswith("    ✗ M is (log(2), 0)-DP") for line in normal)
    assert sum("how to read a witness" in line for line in normal) == 1
    quiet = run("verify", "-q", str(tmp_path)).output
    assert "a.yaml" not in quiet and "b.yaml" in quiet and "✓" not in quiet
    verbose = run("verify", "-v", str(tmp_path)).output
    assert "✓ PrivLoss(M, 0) = log(3)" in verbose and verbose.count("how to read a witness") == 1


def test_the_json_report_follows_its_schema(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs/report.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    (tmp_path / "a.yaml").write_text(FAILING)
    (tmp_path / "b.yaml").write_text(INVALID)
    for args in (
        [
            "verify",
            "--json",
            "--witness",
            str(tmp_path),
            str(ROOT / "cases/vadhan-wang/thm-1-8-sweep.yaml"),
            str(ROOT / "cases/exponential/br-mixture.yaml"),
        ],
        ["sweep", "--json", str(ROOT / "cases/vadhan-wang/thm-1-8-sweep.yaml")],
    ):
        doc = json.loads(run(*args).output)
        errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)]
        assert not errors, errors[:3]


@pytest.mark.parametrize(
    "command",
    [["verify"], ["sweep"], ["privloss"], ["profile"], ["info"], ["simulate"]],
)
def test_every_command_reading_cases_takes_the_same_options(command):
    case = str(ROOT / "cases/vadhan-wang/rr-pure.yaml")
    r = run(*command, "--max-file-bytes", "10", case)
    assert r.exit_code == 2 and "--max-file-bytes" in r.output
    for opt in (
        ["-q"],
        ["--json"],
        ["--no-progress"],
        ["--engine", "enumerator"],
        ["--max-nodes", "1000"],
        ["--max-yaml-nodes", "100000"],
        ["--ascii"],
    ):
        r = run(*command, *opt, case)
        assert r.exit_code in (0, 1), (opt, r.output)


def test_section6_counts_do_not_depend_on_the_number_of_workers():
    def counts(*extra: str) -> dict:
        r = run("experiment", "section6", "--samples", "30", "--seed", "11", "--delta", "1/10", "--json", *extra)
        assert r.exit_code == 0, r.output
        d = json.loads(r.output)
        d.pop("seconds")
        return d

    one = counts("--jobs", "1")
    assert one["feasible"] == 30
    assert counts("--jobs", "2", "--block", "4") == one


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_section6_limits_apply_on_the_workers_too(jobs):
    """A limit is the same whether a block runs here or on a worker (there, it ran under the
    defaults)."""
    p = _cli("experiment", "section6", "--samples", "8", "--block", "2", "--jobs", jobs, "--max-nodes", "5")
    assert p.returncode == 2, p.stdout
    assert "the number of game nodes exceeds the limit of 5" in p.stderr + p.stdout and "Traceback" not in p.stderr


def test_the_json_report_of_the_whole_case_library_follows_its_schema():
    """Every witness kind the library shows (events, Renyi strategies, trade-off tests, bounded
    range) and every claim kind's values: the schema once missed the Renyi and trade-off witnesses,
    and 117 places of this report did not validate."""
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs/report.schema.json").read_text())
    doc = json.loads(run("verify", "--json", "--witness", str(ROOT / "cases")).output)
    assert doc["exit"] == 0 and doc["summary"]["files"] >= 100
    errors = [
        f"{list(e.absolute_path)}: {e.message[:200]}" for e in jsonschema.Draft202012Validator(schema).iter_errors(doc)
    ]
    assert not errors, errors[:3]
