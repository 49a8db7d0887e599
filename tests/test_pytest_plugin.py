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


class _Config:
    """What plugin_options reads of a pytest config: ini options and command-line options."""

    def __init__(self, ini: dict[str, str] | None = None, timeout: float | None = None):
        self.ini, self.timeout = ini or {}, timeout

    def getini(self, name: str) -> str:
        return self.ini.get(name, "")

    def getoption(self, name: str):
        return {"exactdp_timeout": self.timeout, "exactdp_engine": "profile"}[name]


def test_the_plugin_checks_under_the_command_lines_default_limits():
    """Without ini options the plugin's limits are exactly those of `exactdp verify` (300 s,
    800 MiB, ...), and each is set by an ini option named after its flag."""
    from dataclasses import fields

    from exactdp.caseio.yamlsafe import YamlLimits
    from exactdp.limits import DEFAULT, FLAGS, Limits
    from exactdp.pytest_plugin import plugin_options

    opts = plugin_options(_Config())
    assert opts.effective_limits() == DEFAULT and opts.yaml_limits == YamlLimits()
    assert set(FLAGS) == {f.name for f in fields(Limits) if f.init}
    opts = plugin_options(
        _Config(
            {
                "exactdp_max_memory": "2G",
                "exactdp_timeout": "600",
                "exactdp_max_profile_size": "7",
                "exactdp_follow_symlinks": "true",
                "exactdp_max_file_bytes": "1000",
            }
        )
    )
    lim = opts.effective_limits()
    assert (lim.max_memory, lim.timeout, lim.max_hull_edges, lim.follow_symlinks) == (2 << 30, 600.0, 7, True)
    assert opts.yaml_limits.max_bytes == 1000
    assert plugin_options(_Config({"exactdp_timeout": "600"}, timeout=5)).effective_limits().timeout == 5


def test_a_bad_ini_value_is_a_usage_error(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    (tmp_path / "pytest.ini").write_text("[pytest]\nexactdp_max_memory = lots\n")
    r = run_pytest(tmp_path, "--exactdp-cases", "good.yaml")
    assert r.returncode == 4 and "exactdp_max_memory = 'lots'" in r.stderr, r.stdout + r.stderr


def test_a_resource_bomb_is_refused_by_the_named_limit_under_pytest(tmp_path):
    """A 341-byte case that `exactdp verify` refuses with a named limit is refused the same way
    under pytest (it used to run for minutes, to 2 GB): here with exactdp_max_memory = 150M."""
    from .hostile_cases import concomp_bomb

    (tmp_path / "bomb.yaml").write_text(concomp_bomb())
    (tmp_path / "pytest.ini").write_text("[pytest]\nexactdp_max_memory = 150M\nexactdp_timeout = 20\n")
    r = run_pytest(tmp_path, "--exactdp-cases", "bomb.yaml")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "1 failed" in out, out
    assert "exceeds the limit of 150 MiB" in out and "exactdp_max_memory" in out, out
    assert "Traceback" not in out


def test_symbolic_links_are_reported_as_verify_reports_them(tmp_path):
    """A link to a case file (inside or outside the tree) and a linked directory are failing
    items naming the link, as `exactdp verify` reports them; never read, never skipped.  With
    exactdp_follow_symlinks = true the link inside the tree is followed, the others still refused."""
    cases, outside = tmp_path / "cases", tmp_path / "outside"
    cases.mkdir()
    outside.mkdir()
    (outside / "secret.yaml").write_text(GOOD)
    (cases / "real.yaml").write_text(GOOD)
    (cases / "out.yaml").symlink_to("../outside/secret.yaml")
    (cases / "in.yaml").symlink_to("real.yaml")
    (cases / "outdir").symlink_to("../outside", target_is_directory=True)
    r = run_pytest(tmp_path, "--exactdp-cases", "cases", "-rf")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "3 failed, 1 passed" in out, out
    for name in ("cases/in.yaml", "cases/out.yaml", "cases/outdir/secret.yaml"):
        assert f"FAILED {name}::invalid-case" in out, out
    assert out.count("it was not read") >= 3 and "exactdp_follow_symlinks" in out
    (tmp_path / "pytest.ini").write_text("[pytest]\nexactdp_follow_symlinks = true\n")
    r = run_pytest(tmp_path, "--exactdp-cases", "cases", "-rf")
    out = r.stdout + r.stderr
    assert r.returncode == 1 and "2 failed, 2 passed" in out, out
    assert "FAILED cases/in.yaml" not in out and "outside the tree being verified" in out
