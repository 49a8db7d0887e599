"""``exactdp certify``: the verify report and exit status unchanged, one certificate per decided
claim at DIR/<case file stem>/<claim number>-<kind>.json, "no certificate" listed, --show-game,
--format latex, --check."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner

from exactdp import checker
from exactdp.cli import main

CHECKER = Path(checker.__file__).parent

CASE = textwrap.dedent(
    """
    exactdp: 1
    name: cli-demo
    reference: Vadhan-Wang 2021, Def. 1.9 and Def. 5.1
    mechanisms:
      M: {rr: {eps: log(3)}}
      R: {rr: {eps: log(3), delta: 1/10}}
    claims:
      - privloss: {delta: 0, equals: log(3)}
      - privloss: {of: R, delta: 1/5, equals: log(23/9)}
      - not_dp: {eps: log(2), delta: 0}
      - dp: {eps: 1/10, delta: 0}
      - composition: {components: [M, M], theorem: basic}
      - privloss: {delta: 0, equals: log(2)}
    """
)


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_certify_prints_verify_report_and_writes_certificates(tmp_path: Path):
    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    out = tmp_path / "certs"
    v = run("verify", str(case))
    c = run("certify", str(case), "-o", str(out))
    assert c.exit_code == v.exit_code == 1  # the decimal-eps dp claim fails: e^(1/10) < 3
    assert c.output.startswith(v.output)
    written = sorted(p.name for p in (out / "demo").iterdir() if not p.name.startswith("."))
    assert written == [
        f"{k}-{kind}.json"
        for k, kind in enumerate(["privloss", "privloss", "not_dp", "dp", "composition", "privloss"], 1)
    ]
    assert "certificates: 6 written" in c.output and "no certificate" not in c.output
    decimal = json.loads((out / "demo" / "4-dp.json").read_text())
    assert decimal["field"] == "exp(1/10)" and decimal["verdict"] == "fails"
    cert = json.loads((out / "demo" / "2-privloss.json").read_text())
    assert cert["case"]["name"] == "cli-demo" and cert["case"]["claim"] == 2
    assert "PrivLoss(R, 1/5) = log(23/9)" in checker.check_certificate(cert)
    assert checker.main([str(out), "--case", str(case)]) == 0
    failed = json.loads((out / "demo" / "6-privloss.json").read_text())
    said = checker.check_certificate(failed)
    assert failed["verdict"] == "fails" and "claim: PrivLoss(M, 0) = log(2) -- FALSE" in said


def test_certificates_do_not_depend_on_the_engine(tmp_path: Path):
    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    a, b = tmp_path / "a", tmp_path / "b"
    run("certify", str(case), "-o", str(a))
    run("certify", str(case), "-o", str(b), "--engine", "enumerator")
    for f in (a / "demo").iterdir():
        assert f.read_text() == (b / "demo" / f.name).read_text()


def test_rerun_replaces_stale_certificates(tmp_path: Path):
    """A certificate an earlier run wrote for a claim that is gone is removed by the rerun."""
    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    out = tmp_path / "certs"
    run("certify", str(case), "-o", str(out))
    stale = out / "demo" / "6-privloss.json"
    assert stale.exists()
    case.write_text(CASE.replace("  - privloss: {delta: 0, equals: log(2)}\n", ""))
    run("certify", str(case), "-o", str(out))
    assert not stale.exists() and (out / "demo" / "1-privloss.json").exists()


def test_show_game_latex_json_and_self_check(tmp_path: Path):
    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    out = tmp_path / "certs"
    c = run("certify", str(case), "-o", str(out), "--show-game", "--format", "latex", "--check")
    assert "mechanism R" in c.output and "I0 (1/10, 0) -> end" in c.output
    assert "checker: all 6 certificate(s) accepted" in c.output
    tex = (out / "demo" / "3-not_dp.tex").read_text()
    assert r"\begin{tabular}" in tex and r"$3/4$" in tex
    j = run("certify", str(case), "-o", str(out), "--json")
    assert json.loads(j.stdout)["summary"]["holds"] == 4  # stdout stays the verify report, pure JSON
    assert "certificates: 6 written" in j.stderr


def test_labels_reaching_latex_are_escaped(tmp_path: Path):
    case = tmp_path / "esc.yaml"
    case.write_text(
        CASE.replace("name: cli-demo", "name: esc").replace(
            "M: {rr: {eps: log(3)}}", "M: {respond: {'a&b_%': [3/4, 1/4], '$x': [1/4, 3/4]}}"
        )
    )
    out = tmp_path / "certs"
    run("certify", str(case), "-o", str(out), "--format", "latex")
    tex = (out / "esc" / "3-not_dp.tex").read_text().replace("\\allowbreak{}", "")  # (where long labels may break)
    from exactdp.report.escape import latex

    # labels go through the one LaTeX escaping function (no raw &, _, %, $ reach the document)
    assert latex("a&b_%") in tex and latex("$x") in tex and "a&b_%" not in tex


def test_an_output_directory_that_cannot_be_made_is_a_clear_error(tmp_path: Path):
    """Certificates that cannot be written end with one line and exit 2, never a traceback."""
    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(blocker / "certs")])
    assert r.exit_code == 2 and (r.exception is None or isinstance(r.exception, SystemExit))
    assert "cannot create the output directory" in r.output and "Traceback" not in r.output


def _tree(root: Path) -> dict:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_dot_named_case_files_stay_inside_the_output_folder(tmp_path: Path):
    """A case file named ``...yaml`` has the stem ``..`` and ``..yaml`` the stem ``.``: their
    certificates go to a sanitised folder inside OUTPUT, and nothing outside it is removed or
    written (before the fix ``...yaml`` emptied the parent of OUTPUT of its *.json and *.tex)."""
    work = tmp_path / "work"
    cases = work / "cases"
    cases.mkdir(parents=True)
    for name in ("...yaml", "..yaml"):
        (cases / name).write_text(CASE.replace("  - dp: {eps: 1/10, delta: 0}\n", ""))
    keep = {"mine.json": b"{}", "notes.tex": b"x", "certs/own.json": b"{}", "certs/own.tex": b"y"}
    for rel, data in keep.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_bytes(data)
    before = _tree(work)
    r = run("certify", str(cases), "-o", str(work / "certs"))
    assert r.exit_code == 1, r.output  # as verify: the sixth claim of CASE fails
    after = _tree(work)
    for rel, data in before.items():
        assert after.get(rel) == data, rel  # nothing that certify did not write is touched
    new = [rel for rel in after if rel not in before]
    assert new and all(rel.startswith("certs/") and rel.count("/") == 2 for rel in new), new
    folders = {Path(rel).parts[1] for rel in new}
    assert len(folders) == 2 and not folders & {".", ".."}, folders


def test_rerun_removes_only_files_certify_wrote(tmp_path: Path):
    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    out = tmp_path / "certs"
    run("certify", str(case), "-o", str(out))
    mine = out / "demo" / "notes.json"
    mine.write_text("{}")
    (out / "demo" / "1-privloss.json").unlink()  # a certificate the user removed
    run("certify", str(case), "-o", str(out))
    assert mine.read_text() == "{}" and (out / "demo" / "1-privloss.json").exists()


def test_certificates_are_written_whole_or_not_at_all(tmp_path: Path, monkeypatch):
    """A write that fails half way (a full disk) leaves no empty or partial certificate."""
    import os

    case = tmp_path / "demo.yaml"
    case.write_text(CASE)
    out = tmp_path / "certs"
    real_replace = os.replace

    def full_disk(src, dst, *a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(out)])
    monkeypatch.setattr(os, "replace", real_replace)
    assert r.exit_code == 2 and "No space left on device" in r.output
    assert not [p for p in out.rglob("*") if p.is_file() and p.name != ".exactdp-written"]


def test_info_fingerprints_are_the_checkers(tmp_path: Path):
    """`exactdp info CASE --fingerprint` prints, for every game exactdp builds from the case (and
    for claims with their own pairs or about non-adaptive adversaries), the SHA-256 the checker
    prints for the game it checked."""
    import re

    case = tmp_path / "demo.yaml"
    claims = "claims:\n  - dp: {of: R, eps: log(3), delta: 1/10, pairs: [[x1, x0]]}\n"
    claims += "  - dp: {of: M, eps: log(3), delta: 0, adversaries: nonadaptive}\n"
    case.write_text(CASE.replace("claims:\n", claims))
    out = tmp_path / "certs"
    run("certify", str(case), "-o", str(out))
    info = run("info", str(case), "--fingerprint")
    printed = dict(re.findall(r"^  (.+): sha256 ([0-9a-f]{64})$", info.output, re.M))
    # (names with spaces or parentheses are quoted, as the checker prints them)
    assert set(printed) == {"M", "R", '"R (the claim\'s pairs)"', '"M (non-adaptive adversaries)"'}
    seen = {}
    for f in sorted((out / "demo").glob("*.json")):
        said = checker.check_certificate(json.loads(f.read_text()))
        seen.update(re.findall(r"^game (.+?): sha256 ([0-9a-f]{64});", said, re.M))
    for name, digest in seen.items():
        if not name.startswith("ConComp"):
            assert printed[name] == digest, name
    assert {"M", '"R (the claim\'s pairs)"', '"M (non-adaptive adversaries)"'} <= set(seen)


def test_safe_names_never_leave_the_folder():
    from exactdp.certifying import safe_name

    for raw in ("..", ".", "...", "a/../b", "x[eps=../../etc]", "", "/abs", "a\\\\b", ".hidden"):
        name = safe_name(raw)
        assert name and name not in (".", "..") and not name.startswith(".") and "/" not in name and "\\\\" not in name


def test_claims_the_checker_cannot_recompute_are_listed_with_their_reason(tmp_path: Path):
    """Every claim the checker has no check for is listed with why, never certified nor lost:
    zCDP with a rho written with log; the exact D_2 gets its certificate, as do 10-zCDP, the
    conversion, the trade-off point, the claim about non-adaptive adversaries (on the game whose
    root fixes every query), the KL divergence on probabilities in Q(e^(1/L)) (by bounds) and
    D_3/2 (D_3/2 = 2 log(5 sqrt(3)/6) ~ 0.73397 > 0.7339: the checker bounds it).
    (Values: RR with e^eps = 3, see cases/libraries/autodp-rr.yaml; its trade-off function is
    max(0, 1 - 3a, (1 - a)/3), 1/4 at a = 1/4; any RR with eps > 0 has KL > 0; log(3)-zCDP holds,
    sup D_alpha/alpha being KL = log(3)/2.)"""
    case = tmp_path / "why.yaml"
    case.write_text(
        textwrap.dedent(
            """
            exactdp: 1
            name: why
            reference: Mironov 2017, Def. 3; Bun-Steinke 2016, Def. 1.1; Dong-Roth-Su 2022, Def. 2.1
            mechanisms:
              M: {respond: {"0": [3/4, 1/4], "1": [1/4, 3/4]}}
              F: {rr: {eps: 0.5}}
            claims:
              - renyi: {alpha: 3/2, exceeds: 0.7339}
              - zcdp: {rho: log(3)}
              - zcdp: {rho: 10}
              - conversion: {theorem: renyi-to-dp-cks, alpha: 2, delta: 1/100}
              - tradeoff: {alpha: 1/4, equals: 1/4}
              - dp: {eps: log(3), delta: 0, adversaries: nonadaptive}
              - renyi: {alpha: 2, equals: log(7/3)}
              - renyi: {of: F, alpha: 1, exceeds: 0}
            """
        )
    )
    c = run("certify", str(case), "-o", str(tmp_path / "certs"))
    assert c.exit_code == 0, c.output
    reasons = {2: "rho is not rational (it is written with log or exp)"}
    missing = [line for line in c.output.splitlines() if ": claim " in line]
    assert len(missing) == len(reasons), c.output
    for k, why in reasons.items():
        assert any(f": claim {k} (" in line and why in line for line in missing), (k, c.output)
    assert "certificates: 7 written" in c.output
    checked = subprocess.run(
        [sys.executable, "-I", "-S", str(CHECKER), str(tmp_path / "certs")], capture_output=True, text=True
    )
    assert checked.returncode == 0 and "7 accepted" in checked.stdout, checked.stdout + checked.stderr


ONE_POINT = """\
exactdp: 1
name: cp
symbols:
  E: {gt: 1, le: 8}
mechanisms:
  R: {rr: {eps: log(E)}}
claims:
  - calibrate:
      target: {privloss: {of: R, delta: 0, equals: log(2)}}
      holds_for: [{ge: 2, le: 2}]
"""


def test_a_calibrated_single_point_is_listed_without_a_certificate(tmp_path):
    """PrivLoss(RR_E, 0) = log(E) equals log(2) at E = 2 only (Vadhan-Wang 2021, Def. 1.9): the
    claim holds, and certify lists it without a certificate with the reason (it used to stop with
    an internal error: the checker's sets are intervals with two different ends)."""
    case = tmp_path / "cp.yaml"
    case.write_text(ONE_POINT)
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "certs")])
    assert r.exit_code == 0, r.output
    assert "the calibrated set has a single point (2 <= E <= 2)" in r.output


def test_three_case_files_whose_folder_names_collide_keep_their_own_certificates(tmp_path):
    """p/x.yaml takes x/, p-x.yaml takes p-x/, and q/p/x.yaml's fallback <parent>-<stem> was p-x/
    again: p-x.yaml's certificate was removed and replaced, while the run said "3 written" and
    the checker "all 3 accepted" (it read one file twice).  A counter now keeps the names apart."""
    rr = "exactdp: 1\nname: n{}\nmechanism: {{rr: {{eps: log(3)}}}}\nclaims: [{{privloss: {{delta: 0, equals: log(3)}}}}]\n"
    for k, rel in enumerate(("p/x.yaml", "p-x.yaml", "q/p/x.yaml")):
        (tmp_path / "cases" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "cases" / rel).write_text(rr.format(k))
    out = tmp_path / "out"
    r = CliRunner().invoke(main, ["certify", str(tmp_path / "cases"), "-o", str(out), "--check"])
    assert r.exit_code == 0 and "certificates: 3 written" in r.output, r.output
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.json"))
    assert len(written) == 3 and len({Path(w).parent for w in written}) == 3, written
    names = {json.loads((out / w).read_text())["case"]["name"] for w in written}
    assert names == {"n0", "n1", "n2"}, names


def test_a_certificate_beyond_a_limit_of_the_checker_is_not_checked_not_a_bug(tmp_path, monkeypatch):
    """certify --check on a certificate past the checker's --max-states said MALFORMED and exit
    status 3 (a bug in exactdp); it is a limit: NOT CHECKED, exit status 2."""
    monkeypatch.setitem(checker.LIMITS, "max_states", 3)
    (tmp_path / "c.yaml").write_text(CASE)
    r = CliRunner().invoke(main, ["certify", str(tmp_path / "c.yaml"), "-o", str(tmp_path / "out"), "--check"])
    assert r.exit_code == 2 and "NOT CHECKED:" in r.output and "--max-states" in r.output, r.output
    assert "MALFORMED" not in r.output


SUITES = """\
exactdp: 1
name: suites
reference: diffprivlib's geometric mechanism with sensitivity 2 (tests/mechanisms/test_Geometric.py)
mechanisms:
  G: {discrete_laplace: {eps: 1, sensitivity: 2, bounds: [-5, 7], data: [0, 2]}}
  H: {discrete_laplace: {eps: 0.999, sensitivity: 1, bounds: [-2, 2], data: [0, 1]}}
  U: {respond: {a: [1/2, 1/2], b: [1/2, 1/2]}}
  M: {respond: {a: [4/5, 1/5], b: [1/5, 4/5]}}
claims:
  - not_dp: {of: H, eps: 1/2}
  - renyi: {of: U, alpha: 1.1, equals: 0}
  - renyi: {of: M, alpha: 2, equals: log(13/4)}
  - not_dp: {of: G, eps: 0.999}
"""


def test_a_claim_whose_numbers_outgrow_the_checker_is_listed_and_the_others_certified(tmp_path):
    """Claim 1's probabilities lie in Q(e^(1/1000)) (eps 0.999): e^(2997/1000) is t^2997, beyond
    the checker's --max-degree.  Writing it stopped the whole file ("error", exit 2, its other
    claims lost); it is listed with its reason now.  Claim 4's game lies in Q(e^(1/2)) (eps 1,
    sensitivity 2) and its claimed e^0.999 outside it: written exp(999/1000), the game stays in its
    own field (in Q(e^(1/1000)) it had degree 2500, beyond --max-degree).  Claim 2, D_11/10 between identical
    distributions (0: every term is exactly 1, and bounds that meet decide an equality), was
    written but the checker spent --max-steps on it, NOT CHECKED; it is accepted at once.  (From
    dp_accounting's and diffprivlib's test suites; D_2(M) = log((4/5)^2 5 + (1/5)^2 5/4) =
    log(13/4).)"""
    (tmp_path / "s.yaml").write_text(SUITES)
    r = CliRunner().invoke(main, ["certify", str(tmp_path / "s.yaml"), "-o", str(tmp_path / "out"), "--check"])
    assert r.exit_code == 0 and "certificates: 3 written" in r.output, r.output
    assert "claim 1 (not_dp" in r.output and "the checker's default --max-degree" in r.output
    assert "all 3 certificate(s) accepted" in r.output
    cert = json.loads(next((tmp_path / "out").rglob("4-not_dp.json")).read_text())
    assert cert["field"] == "exp(1/2)" and cert["claim"]["exp_eps"] == "exp(999/1000)" and "bracket" in cert["proof"]
