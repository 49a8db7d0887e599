"""docs/cases.md is generated from the case files and must be up to date."""

from __future__ import annotations

from pathlib import Path

from exactdp.tools import casedoc
from exactdp.tools.casedoc import leading_comments, main, render

ROOT = Path(__file__).resolve().parents[1]


def test_committed_docs_cases_md_is_up_to_date(monkeypatch):
    monkeypatch.chdir(ROOT)
    expected = render(["cases"])
    committed = (ROOT / "docs" / "cases.md").read_text(encoding="utf-8")
    assert committed == expected, (
        "docs/cases.md is stale: run `make docs` (python -m exactdp.tools.casedoc cases/ > docs/cases.md)"
    )


def test_every_case_and_claim_is_listed(monkeypatch):
    monkeypatch.chdir(ROOT)
    from exactdp.caseio import load_case
    from exactdp.verify import find_case_files

    text = render(["cases"])
    for f in find_case_files(["cases"]):
        case = load_case(f)
        assert f"[`{f.name}`](../{f.as_posix()})" in text
        assert case.reference in text
        for c in case.claims:
            assert casedoc._cell(c.describe()) in text


def test_invalid_files_and_comments(tmp_path, capsys):
    (tmp_path / "a.yaml").write_text(
        "# explains\n#   indented\nexactdp: 1\nname: a\nmechanism: {rr: {eps: log(3)}}\n# not this one\nclaims: [{dp: {eps: log(3)}}]\n"
    )
    (tmp_path / "b.yaml").write_text("exactdp: 1\nname: b\nmechanism: {rr: {eps: log(3)}}\n")
    assert leading_comments((tmp_path / "a.yaml").read_text()) == ["explains", "  indented"]
    assert main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2 case files, 1 claims, 1 invalid files" in out
    assert "`b.yaml` (not a valid case)" in out and "missing `claims:`" in out


def test_a_very_long_claim_is_cut_in_the_table():
    """A claim written out with 90-digit coefficients (the KOV known-answer case) is cut in the
    table, with its length; the case file linked above it has it whole."""
    long = "x" * (casedoc.CELL_CHARS + 500)
    cell = casedoc._cell(long)
    assert len(cell) <= casedoc.CELL_CHARS and f"cut: {len(long)} characters" in cell
    assert casedoc._cell("a | b") == "a \\| b"
