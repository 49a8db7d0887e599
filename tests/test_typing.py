"""mypy over exactdp/ (configuration in pyproject.toml: check_untyped_defs, no ignore_errors on
exactdp's own packages; only third-party modules without stubs are ignored).

Public functions carry real type hints (the number aliases of :mod:`exactdp.numbers.types`),
and the shipped ``py.typed`` marker promises them to users' type checkers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes_on_exactdp():
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra: pip install -e '.[test]'")
    cwd = os.getcwd()
    os.chdir(ROOT)  # the configuration and `files = ["exactdp"]` are relative to the repository
    try:
        out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml")])
    finally:
        os.chdir(cwd)
    assert status == 0, f"mypy found problems:\n{out}{err}"


def test_no_ignore_errors_for_exactdp():
    text = (ROOT / "pyproject.toml").read_text()
    assert "ignore_errors" not in text and "check_untyped_defs = true" in text


def test_public_builders_have_real_hints():
    import inspect

    import exactdp

    for name in ("rr", "rr_delta", "exponential", "grr", "grr_menu", "krr", "privloss", "delta_at", "is_dp", "witness"):
        sig = inspect.signature(getattr(exactdp, name))
        for p in sig.parameters.values():
            assert p.annotation not in (inspect.Parameter.empty, "object"), (name, p.name)
        assert sig.return_annotation not in (inspect.Signature.empty, "object", "Any"), name
