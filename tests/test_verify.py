"""verify_file / verify_paths: what a Python caller gets for missing and invalid files."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactdp.errors import CaseError
from exactdp.verify import verify_file, verify_paths

ROOT = Path(__file__).resolve().parents[1]


def test_verify_file_on_a_missing_file_raises(tmp_path):
    missing = tmp_path / "typo.yaml"
    with pytest.raises(FileNotFoundError) as e:
        verify_file(missing)
    assert e.value.filename == str(missing)


def test_verify_paths_reports_a_missing_file_as_invalid(tmp_path):
    """The CLI's behaviour: every problem becomes a result (exit status 2), not a traceback."""
    run = verify_paths([tmp_path / "typo.yaml"])
    (fr,) = run.files
    assert isinstance(fr.error, CaseError) and fr.invalid and fr.exit_code == 2 and run.exit_code == 2
    assert "cannot read the file" in str(fr.error)


def test_an_invalid_file_is_a_result_with_exit_code_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("exactdp: 1\nmechanisms: {M: {rr: {eps: -1}}}\nclaims: []\n")
    fr = verify_file(bad)
    assert fr.verdicts == () and isinstance(fr.error, CaseError) and fr.exit_code == 2


def test_a_valid_file():
    fr = verify_file(ROOT / "cases" / "kov" / "kfold-rr-pure.yaml")
    assert fr.error is None and fr.exit_code == 0 and fr.verdicts
