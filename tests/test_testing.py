"""exactdp.testing.verify_cases: another project's tests can check their own case files."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactdp.testing import CaseVerificationFailed, list_claims, verify_cases

ROOT = Path(__file__).resolve().parents[1]

GOOD = "exactdp: 1\nname: good\nmechanism: {rr: {eps: log(3)}}\nclaims:\n  - privloss: {delta: 0, equals: log(3)}\n"
BAD = "exactdp: 1\nname: bad\nmechanism: {rr: {eps: log(3)}}\nclaims:\n  - privloss: {delta: 0, equals: log(3)}\n  - dp: {eps: log(2)}\n"
BROKEN = "exactdp: 1\nname: broken\nmechanism: {respond: {a: [1/2, 1/4], b: [1/2, 1/2]}}\nclaims: [{dp: {eps: 1}}]\n"


def test_passing_cases_return_the_run(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    run = verify_cases(tmp_path)
    assert run.exit_code == 0 and run.counts()["holds"] == 1


def test_a_failing_claim_raises_with_the_witness(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    (tmp_path / "bad.yaml").write_text(BAD)
    with pytest.raises(CaseVerificationFailed) as e:
        verify_cases(tmp_path)
    msg = str(e.value)
    assert "[FAIL] M is (log(2), 0)-DP" in msg and "witness" in msg
    assert "good.yaml" not in msg  # only what failed
    assert isinstance(e.value, AssertionError) and e.value.result.exit_code == 1


def test_an_invalid_file_raises_with_its_location(tmp_path):
    (tmp_path / "broken.yaml").write_text(BROKEN)
    with pytest.raises(CaseVerificationFailed, match=r"broken.yaml:3:22: .*sum to 3/4"):
        verify_cases(tmp_path / "broken.yaml")


def test_no_case_files_is_a_failure(tmp_path):
    with pytest.raises(CaseVerificationFailed, match="no case files"):
        verify_cases(tmp_path)


def test_list_claims_for_parametrisation(tmp_path):
    (tmp_path / "bad.yaml").write_text(BAD)
    (tmp_path / "broken.yaml").write_text(BROKEN)
    refs = list_claims([tmp_path])
    assert [r.test_id for r in refs] == ["bad.yaml::1-PrivLoss-M-0-=-log-3", "bad.yaml::2-M-is-log-2-0-DP"]


def test_the_shipped_library_passes():
    verify_cases(ROOT / "cases" / "vadhan-wang")
