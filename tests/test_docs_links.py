"""Every link in README.md, CHANGELOG.md and docs/ stays inside the repository.

Users read these files in a clone, an sdist or the offline docs site: a link to a sibling
directory of the repository, or to the web, is dead for them.  Relative links must resolve to a
file of the repository (and a ``#fragment`` to a heading of the target Markdown file); there are
no http(s) links.  Text inside code blocks is not a link and is not checked.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]
PAGES = [p for p in PAGES if p.exists() and "_build" not in p.parts]

_FENCE = re.compile(r"^( *)(```|~~~).*?^\1\2[ \t]*$", re.S | re.M)
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_AUTOLINK = re.compile(r"<((?:https?|ftp|file)://[^>]+)>|\b(https?://\S+)")


def prose(text: str) -> str:
    """The text outside fenced code blocks and inline code."""
    text = _FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def slug(heading: str) -> str:
    """The anchor of a Markdown heading (GitHub's and MyST's rule)."""
    h = re.sub(r"`", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", h).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M)}


def problems(path: Path, text: str | None = None) -> list[str]:
    """What is wrong with the links of one page (``text`` overrides its content)."""
    out = []
    body = prose(path.read_text(encoding="utf-8") if text is None else text)
    for m in _AUTOLINK.finditer(body):
        out.append(f"a web link {m.group(0)!r}")
    for target in _LINK.findall(body):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            out.append(f"a link outside the repository: {target!r}")
            continue
        file_part, _, frag = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        try:
            dest.relative_to(ROOT)
        except ValueError:
            out.append(f"a link outside the repository: {target!r}")
            continue
        if not dest.exists():
            out.append(f"a link to a missing file: {target!r}")
        elif frag and dest.suffix == ".md" and frag not in anchors(dest):
            out.append(f"a link to a missing heading: {target!r}")
    return [f"{path.relative_to(ROOT)}: {p}" for p in out]


def test_pages_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in PAGES}
    assert {"README.md", "docs/case-format.md", "docs/architecture.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_stay_in_the_repository(page):
    assert not problems(page)


@pytest.mark.parametrize(
    "text,bad",
    [
        ("see [the spec](../shared/spec/case-format.md)", "outside the repository"),
        ("see [docs](https://example.org/docs)", "outside the repository"),
        ("see https://example.org", "web link"),
        ("see [x](docs/nothing-here.md)", "missing file"),
        ("see [x](docs/case-format.md#no-such-heading)", "missing heading"),
    ],
)
def test_bad_links_are_caught(text, bad):
    probs = problems(ROOT / "README.md", text)  # resolved from the top, as README's links are
    assert any(bad in p for p in probs)


def test_good_links_and_code_pass():
    text = "see [format](docs/case-format.md#numbers), [top](README.md#exactdp)\n```text\nhttps://x.org ../shared\n```\n`http://y`\n"
    assert problems(ROOT / "README.md", text) == []


def test_slug():
    assert slug("Bounded range (ε-BR)") == "bounded-range-ε-br"
    assert slug("Symbolic parameters: `symbols:`") == "symbolic-parameters-symbols"
    assert slug("The `composition` claim") == "the-composition-claim"
