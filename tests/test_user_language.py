"""User-facing text speaks the papers' language, never the project's internal one.

README.md, docs/, cases/ (titles, ``reference:`` fields, comments), bench/, the Makefile and the
comments and strings of exactdp/ reach users.  They cite papers (author, year, result number);
they never mention issue numbers, the project's private notes (``notes-*.md``, their regression
tags such as "R10" and status tags such as "[V]"), the ``../shared`` directory, or an issue's
"part A/B".  Python files are checked in their comments and string literals only (via
:mod:`tokenize`), so an index such as ``rows[r]`` in code is not mistaken for a tag.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ["README.md", "CHANGELOG.md", "Makefile", "pyproject.toml", "docs", "cases", "exactdp", "bench"]
SUFFIXES = {".md", ".py", ".yaml", ".yml", ".json", ".toml", ".txt", ".rst", ".cfg", ""}
SKIP_DIRS = {"_build", "__pycache__", ".hypothesis"}

# The regression-case names of the private notes: identifiers users have never seen.
NOTE_CASE_IDS = (
    "kov30 kov_pure_exact kov_approx_exact kov_04_01 mv_hetero thm3_exact thm3_no_gap_edge adapt_gap_B16 "
    "adapt_gap_s11 adapt_gap_curve adapt_k3 br_mixture_not_br grr_def br_single_opt dp_vs_br_single em_is_grr "
    "det_adversary_suffices slide_formula_invalid kl_br fig1_standin rr_nim irr_im cex_single cex_parallel_n "
    "cex_fpc flag_im_fpc thm54_tight vw_pure lemma56_lp pure_parallel hss_mini"
).split()

PATTERNS = [
    ("an issue number", re.compile(r"\b[Ii]ssues?[ -]?#?\d")),
    ("a private notes file", re.compile(r"notes-[\w-]+(?:\.md)?")),
    (
        "a reference to the private notes",
        re.compile(r"\b[Nn]otes?'?\s*(?:§|sec\b|sec\.|section|R\d|\[)|\bthe notes\b|\bnotes'"),
    ),
    ("a regression tag of the notes", re.compile(r"\bR\d{1,2}\b['′]?")),
    # "[V]", "[R,V]", "[R: ...]", "[V, exact]" - but not a YAML list of names such as "[P, Q]"
    ("a status tag of the notes", re.compile(r"\[[PRVC](?:,[PRVC])*\]|\[[PRVC](?::|, ?[a-z])")),
    ("the shared directory", re.compile(r"\.\./shared|\bshared/(?:spec|papers|style)")),
    ("an issue's part", re.compile(r"\b[Pp]art [AB]\b")),
    ("a regression-case name of the notes", re.compile(r"\b(?:" + "|".join(NOTE_CASE_IDS) + r")\b")),
]


def _files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        p = ROOT / name
        if p.is_file():
            out.append(p)
        elif p.is_dir():
            out += [
                f
                for f in sorted(p.rglob("*"))
                if f.is_file() and f.suffix in SUFFIXES and not SKIP_DIRS & set(f.relative_to(ROOT).parts)
            ]
    return out


def _python_text(text: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and string literal of a Python source."""
    kinds = {tokenize.COMMENT, tokenize.STRING}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in kinds:
            out.append((tok.start[0], tok.string))
    return out


def _chunks(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return _python_text(text)
    return list(enumerate(text.splitlines(), 1))


def offending(path: Path) -> list[str]:
    """Every internal phrase in one file, as ``file:line: what: 'text'``."""
    found = []
    for line, chunk in _chunks(path):
        for what, rx in PATTERNS:
            for m in rx.finditer(chunk):
                at = line + chunk.count("\n", 0, m.start())
                found.append(f"{path.relative_to(ROOT)}:{at}: {what}: {m.group(0)!r}")
    return found


def test_the_scan_covers_the_user_facing_files():
    names = {f.relative_to(ROOT).as_posix() for f in _files()}
    assert "README.md" in names and "exactdp/verify.py" in names
    assert any(n.startswith("cases/") and n.endswith(".yaml") for n in names)
    assert any(n.startswith("docs/") and n.endswith(".md") for n in names)


def test_user_facing_text_has_no_internal_language():
    found = [hit for f in _files() for hit in offending(f)]
    assert not found, "internal language in user-facing text (cite the paper instead):\n" + "\n".join(found)


@pytest.mark.parametrize(
    "text",
    [
        "# Composition (issue 4)",
        "see notes-continual-mechanisms.md",
        "Expected (notes R10 [V]): 1/4",
        "(notes section 5, em_is_grr)",
        "the notes' table",
        "format: ../shared/spec/case-format.md",
        "added for issue 5 (part B)",
        "Thm 5.2 Steps 1-2, R3",
        "[R: reconstructed]",
        "kov30",
        "[V, exact]",
        "[R,C]",
    ],
)
def test_the_scan_catches_each_kind_of_phrase(text):
    assert any(rx.search(text) for _, rx in PATTERNS)


@pytest.mark.parametrize(
    "text",
    [
        "Vadhan-Wang 2021, Thm 1.10",
        "T(c, round)(a) for each RR output c; pp.notes",
        "report notes and conditions",
        "V1 (Step 1): at most 2 pairs",
        "R_b(h) <= E R_{1-b}(h)",
        "composition: {components: [P, Q], deltas: [1/10, 1/20]}",
    ],
)
def test_ordinary_text_passes(text):
    assert not any(rx.search(text) for _, rx in PATTERNS)


def test_python_code_outside_strings_and_comments_is_not_read():
    src = 'x = rows[R1]  # fine\ny = "see notes R10"\n'
    assert [s for _, s in _python_text(src)] == ["# fine", '"see notes R10"']
