"""The pytest plugin (``pytest --exactdp-cases PATH``), run in a subprocess like a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from .test_testing import BAD, BROKEN, GOOD


def run_pytest(cwd: Path, *args: str, autoload: bool = True) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    if not autoload:
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        cmd[3:3] = ["-p", "exactdp.pytest_plugin"]
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_entry_point_is_declared():
    eps = [e for e in metadata.entry_points(group="pytest11") if e.name == "exactdp"]
    assert eps and eps[0].value == "exactdp.pytest_plugin"


def test_one_item_per_claim_and_failures_show_the_witness(tmp_path):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "good.yaml").write_text(GOOD)
    (cases / "bad.yaml").write_text(BAD)
    (cases / "broken.yaml").write_text(BROKEN)
    (tmp_path / "test_nothing.py").write_text("def test_ok():\n    pass\n")
    for autoload in (True, False):
        r = run_pytest(tmp_path, "test_nothing.py", "--exactdp-cases", "cases", "-rf", autoload=autoload)
        out = r.stdout + r.stderr
        assert r.returncode == 1, out
        assert "2 failed, 3 passed" in out, out  # test_ok + 2 good claims; a failing claim; an invalid file
        assert "[FAIL] M is (log(2), 0)-DP" in out and "Pr[T | x0] = 3/4" in out
        assert "broken.yaml:3:22" in out and "sum to 3/4" in out
        assert "Traceback" not in out


def test_without_the_option_case_files_are_ignored(tmp_path):
    (tmp_path / "bad.yaml").write_text(BAD)
    (tmp_path / "test_nothing.py").write_text("def test_ok():\n    pass\n")
    r = run_pytest(tmp_path)
    assert r.returncode == 0 and "1 passed" in r.stdout, r.stdout + r.stderr


def test_missing_path_is_a_usage_error(tmp_path):
    r = run_pytest(tmp_path, "--exactdp-cases", "nowhere")
    assert r.returncode == 4 and "no such file or directory: nowhere" in r.stderr, r.stdout + r.stderr
