"""Every complete case example in docs/mechanisms.md is valid and all its claims hold."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exactdp.caseio import parse_case
from exactdp.claims import Analysis

DOC = Path(__file__).resolve().parents[1] / "docs" / "mechanisms.md"
BLOCKS = [b for b in re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S) if b.startswith("exactdp: 1")]


def test_the_page_has_examples():
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize("text", BLOCKS, ids=[re.search(r"name: (\S+)", b).group(1) for b in BLOCKS])
def test_example_holds(text):
    case = parse_case(text, "docs/mechanisms.md")
    an = Analysis(case.mechanisms)
    bad = [(c.describe(), v.found) for c in case.claims if not (v := c.check(an)).holds]
    assert not bad
