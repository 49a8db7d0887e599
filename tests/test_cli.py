"""The command line: exit statuses 0/1/2, text and JSON reports, privloss/profile/info."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner

from exactdp.cli import main

from .system_tools import need

ROOT = Path(__file__).resolve().parents[1]


def write(tmp_path: Path, name: str, body: str) -> str:
    p = tmp_path / name
    p.write_text(textwrap.dedent(body))
    return str(p)


GOOD = """
exactdp: 1
name: good
mechanism: {rr: {eps: log(3)}}
claims:
  - privloss: {delta: 0, equals: log(3)}
  - not_dp: {eps: log(2), delta: 0}
"""
FAILING = """
exactdp: 1
name: failing
mechanism: {rr: {eps: log(3)}}
claims:
  - dp: {eps: log(2), delta: 0}
"""
INVALID = """
exactdp: 1
name: invalid
mechanism: {respond: {a: [1/2, 1/4], b: [1/2, 1/2]}}
claims: [{dp: {eps: 1}}]
"""


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_exit_0_when_all_claims_hold(tmp_path):
    r = run("verify", "-v", write(tmp_path, "g.yaml", GOOD))
    assert r.exit_code == 0, r.output
    assert "✓ PrivLoss(M, 0) = log(3)" in r.output
    assert "witness" in r.output  # not_dp shows its witness
    assert "summary: 2 claims in 1 file: 2 hold, 0 fail" in r.output


def test_exit_1_with_witness_when_a_claim_fails(tmp_path):
    r = run("verify", write(tmp_path, "f.yaml", FAILING))
    assert r.exit_code == 1
    assert "✗ M is (log(2), 0)-DP" in r.output
    assert "Pr[T | x0] = 3/4, Pr[T | x1] = 1/4" in r.output


def test_exit_2_for_invalid_input_with_location(tmp_path):
    f = write(tmp_path, "i.yaml", INVALID)
    r = run("verify", f)
    assert r.exit_code == 2
    assert f"{f}:4:22: mechanism.respond: probabilities under x1 sum to 3/4, not 1" in r.output
    assert "Traceback" not in r.output


def test_directory_and_worst_status_wins(tmp_path):
    write(tmp_path, "a.yaml", GOOD)
    write(tmp_path, "b.yaml", FAILING)
    assert run("verify", str(tmp_path)).exit_code == 1
    write(tmp_path, "c.yaml", INVALID)
    assert run("verify", str(tmp_path)).exit_code == 2


def test_json_report(tmp_path):
    r = run("verify", "--json", write(tmp_path, "f.yaml", FAILING))
    d = json.loads(r.output)
    assert d["exit"] == 1 and d["summary"]["fails"] == 1
    claim = d["files"][0]["claims"][0]
    assert claim["kind"] == "dp" and claim["status"] == "fails"
    w = claim["witness"]
    assert w["pair"] == ["x0", "x1"] and w["p"] == "3/4" and w["p_prime"] == "1/4" and w["rechecked"]


def test_json_invalid(tmp_path):
    r = run("verify", "--json", write(tmp_path, "i.yaml", INVALID))
    d = json.loads(r.output)
    assert d["exit"] == 2
    p = d["files"][0]["problems"][0]
    assert (p["line"], p["column"], p["path"]) == (4, 22, "mechanism.respond")


def test_enumerator_engine_option(tmp_path):
    r = run("verify", "--engine", "enumerator", write(tmp_path, "g.yaml", GOOD))
    assert r.exit_code == 0


def test_privloss_command(tmp_path):
    f = write(
        tmp_path,
        "g.yaml",
        "exactdp: 1\nname: r\nmechanism: {rr: {eps: log(3), delta: 1/10}}\nclaims: [{dp: {eps: 1}}]\n",
    )
    r = run("privloss", f, "--delta", "1/5")
    assert r.exit_code == 0 and "PrivLoss(M, 1/5) = log(23/9) ≈ 0.93827" in r.output
    r = run("privloss", f, "--delta", "1/5", "--json", "--witness")
    d = json.loads(r.output)
    assert d["privloss"] == "log(23/9)" and d["witness"]["pair"] in (["x0", "x1"], ["x1", "x0"])
    assert run("privloss", f, "--delta", "2").exit_code == 2
    assert run("privloss", f, "--delta", "__import__('os')").exit_code == 2


def test_privloss_delta_may_name_a_param(tmp_path):
    """``--delta d`` with a param d of the case is that number: the exact engine answers (the
    piecewise engine, which needs symbols, used to refuse it)."""
    body = (
        "exactdp: 1\nname: r\nparams: {d: 1/5}\nmechanism: {rr: {eps: log(3), delta: 1/10}}\nclaims: [{dp: {eps: 1}}]\n"
    )
    r = run("privloss", write(tmp_path, "p.yaml", body), "--delta", "d")
    assert r.exit_code == 0 and "PrivLoss(M, 1/5) = log(23/9)" in r.output, r.output


def test_profile_command(tmp_path):
    f = write(
        tmp_path,
        "g.yaml",
        "exactdp: 1\nname: r\nmechanism: {rr: {eps: log(3), delta: 1/10}}\nclaims: [{dp: {eps: 1}}]\n",
    )
    r = run("profile", f, "--json")
    d = json.loads(r.output)
    assert d["envelope"]["breakpoints"] == [["1", "11/20"], ["3", "1/10"]]
    assert {tuple(p["pair"]) for p in d["pairs"]} == {("x0", "x1"), ("x1", "x0")}
    r = run("profile", f)
    assert "e^eps = 3" in r.output


def test_info_command(tmp_path):
    r = run("info", write(tmp_path, "g.yaml", GOOD))
    assert r.exit_code == 0 and "deterministic adversaries: 1" in r.output


def test_console_script_has_no_traceback(tmp_path):
    """The installed entry point, in a separate process, on broken input."""
    f = write(
        tmp_path,
        "i.yaml",
        "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: !!python/object:os.system 'echo PWNED'}}]\n",
    )
    p = subprocess.run([sys.executable, "-m", "exactdp", "verify", f], capture_output=True, text=True)
    assert p.returncode == 2
    assert "Traceback" not in p.stdout + p.stderr and "PWNED" not in p.stdout + p.stderr
    assert "is not allowed" in p.stdout


def test_info_on_a_mechanism_with_symbols_says_what_decides_it():
    """A mechanism whose probabilities depend on a symbol is not 'beyond the engine': the numeric
    engines need numbers, the parametric engine decides it for every value (docs/parametric.md)."""
    case = str(ROOT / "cases/parametric/two-round-break-point.yaml")
    r = run("info", case)
    assert r.exit_code == 0, r.output
    assert "cannot analyse it" not in r.output
    assert "depend on the symbols p" in r.output and "for every value of the symbols" in r.output
    doc = json.loads(run("info", case, "--json").output)
    assert doc["symbols"] == ["p"] and doc["engine_supports"] is False
    assert json.loads(run("info", str(ROOT / "cases/classic/krr.yaml"), "--json").output)["symbols"] == []


def test_privloss_witness_of_a_mechanism_with_symbols_is_refused_saying_why(tmp_path):
    """A witness is an adversary at one value: with symbols, --witness printed nothing, silently."""
    case = tmp_path / "s.yaml"
    case.write_text(
        "exactdp: 1\nname: s\nsymbols: {E: {gt: 1}}\nmechanism: {rr: {eps: log(E)}}\nclaims: [{dp: {eps: log(E)}}]\n"
    )
    r = run("privloss", str(case), "--witness")
    assert r.exit_code == 2 and "a witness (--witness) needs a mechanism without symbols" in r.output
    assert run("privloss", str(case)).exit_code == 0


def test_orders_too_long_to_print_are_refused_by_their_size(tmp_path):
    """--alpha=-10^5000 and 1/10^5000 (renyi and convert) were internal errors (a message quoted
    the 5,001-digit number); they are refused, the number shown by its size."""
    case = tmp_path / "r.yaml"
    case.write_text("exactdp: 1\nname: r\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(3)}}]\n")
    for args in (
        ["renyi", "--alpha=-10^5000"],
        ["convert", "--theorem", "renyi-to-dp", "--delta", "1/100", "--alpha=1/10^5000"],
    ):
        r = run(args[0], str(case), *args[1:])
        assert r.exit_code == 2 and "(5001 digits)" in r.output and "Traceback" not in r.output, r.output


def test_info_fingerprint_json_and_an_image_on_stdout_alone(tmp_path):
    """--fingerprint --json printed text; --svg - wrote the summary after the SVG (invalid XML)."""
    case = tmp_path / "r.yaml"
    case.write_text("exactdp: 1\nname: r\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(3)}}]\n")
    doc = json.loads(run("info", str(case), "--fingerprint", "--json").output)
    assert set(doc) == {"case", "fingerprints", "missing"} and len(doc["fingerprints"]["M"]) == 64
    need("dot")
    out = run("info", str(case), "--svg", "-").output
    assert out.rstrip().endswith("</svg>"), out[-200:]
