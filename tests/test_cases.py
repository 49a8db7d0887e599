"""The shipped case library: every case is documented and every claim holds, on both engines."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactdp.caseio import load_case
from exactdp.report.verdicts import shown
from exactdp.verify import Options, find_case_files, verify_file

ROOT = Path(__file__).resolve().parents[1]
CASES = find_case_files([ROOT / "cases"])


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(ROOT / "cases")) for p in CASES])
def test_case_holds(path):
    fr = verify_file(path)
    assert fr.error is None, str(fr.error)
    bad = [(v.claim.describe(), shown(v).found, shown(v).note) for v in fr.verdicts if not v.holds]
    assert not bad


@pytest.mark.parametrize("path", CASES, ids=[str(p.relative_to(ROOT / "cases")) for p in CASES])
def test_case_states_source_and_purpose(path):
    case = load_case(path)
    assert case.reference, f"{path} needs `reference:`"
    assert case.title, f"{path} needs a one-line `title:`"


def test_enumerator_agrees_on_the_library():
    """Every case small enough for brute force gives the same verdicts under the enumerator."""
    checked = 0
    for path in CASES:
        fr = verify_file(path, Options(engine="enumerator", max_strategies=20_000))
        if fr.error is not None or any(v.status == "error" for v in fr.verdicts):
            continue  # too large for the reference engine
        assert all(v.holds for v in fr.verdicts), path
        checked += 1
    assert checked >= 5
