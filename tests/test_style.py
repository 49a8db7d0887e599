"""One formatter and one linter for the whole tree: ruff (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TREE = ["exactdp", "tests", "bench", "docs/conf.py"]


@pytest.mark.parametrize("command", [["format", "--check"], ["check"]], ids=["format", "lint"])
def test_ruff_is_clean(command):
    p = subprocess.run(
        [sys.executable, "-m", "ruff", *command, *TREE], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, (
        f"ruff {' '.join(command)} (fix with `ruff format` / `ruff check --fix`):\n{p.stdout}{p.stderr}"
    )
