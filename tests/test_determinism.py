"""Same input, same output, byte for byte: every shipped case, twice, in separate processes
with different hash seeds, in text and JSON."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], seed: str) -> str:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    p = subprocess.run([sys.executable, "-m", "exactdp", *args], capture_output=True, text=True, env=env, cwd=ROOT)
    assert p.returncode in (0, 1), p.stderr
    return p.stdout


# one test per output form (each verifies the whole library twice): pytest-xdist runs them side by side
@pytest.mark.parametrize(
    "args",
    [
        ["verify", "-v", "cases", "--no-progress"],
        ["verify", "cases", "--json", "--no-progress"],
        ["verify", "-v", "cases", "--witness", "--no-progress"],
    ],
    ids=["text", "json", "witness"],
)
def test_verify_output_is_reproducible(args):
    a = run(args, "1")
    b = run(args, "12345")
    assert a == b
    assert a.strip()


def test_profile_output_is_reproducible():
    for case in sorted((ROOT / "cases").rglob("*.yaml"))[:4]:
        args = ["profile", str(case.relative_to(ROOT)), "--json"]
        assert run(args, "7") == run(args, "99")
