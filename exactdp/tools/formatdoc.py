"""Generate the per-form and per-claim tables of ``docs/case-format.md`` from the declarations.

Every mechanism form (:data:`exactdp.forms.FORMS`) and claim kind (:data:`exactdp.claims.CLAIMS`)
is one frozen dataclass whose fields are declared with their kind, default and meaning
(:func:`exactdp.forms.fields.arg`).  The reader and the JSON Schema come from the same
declarations, so the reference cannot drift from what the reader accepts.  The declarations
are first flattened into a plain list of :class:`Entry` (key, doc, fields) with
:class:`FieldDoc` (name, kind, required, default, doc); rendering sees only that list.

The generated text sits between ``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->``
markers; everything else in the page is written by hand.  Usage::

    python -m exactdp.tools.formatdoc --write     # or: make docs
    python -m exactdp.tools.formatdoc --check     # exit 1 when the page is stale

``tests/test_formatdoc.py`` fails when the committed page is stale.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..claims import CLAIMS
from ..forms import FORMS
from ..forms.fields import field_specs
from ..forms.registry import doc_line
from ..numbers import ladder

__all__ = ["FieldDoc", "Entry", "form_entries", "claim_entries", "render_entries", "render", "DOC_PATH", "main"]

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "case-format.md"


@dataclass(frozen=True)
class FieldDoc:
    """One key of a form or claim: its value kind (in words), whether it is required, its
    default (text, empty when there is none) and what it means."""

    name: str
    kind: str
    required: bool
    default: str = ""
    doc: str = ""


@dataclass(frozen=True)
class Entry:
    """A mechanism form or claim kind. ``value`` describes a value that is not a mapping of keys
    (``compose: [m1, m2]``); ``fields`` are the keys of a mapping value."""

    key: str
    doc: str
    fields: tuple[FieldDoc, ...] = ()
    value: str = ""
    shows: str = ""


def _default_text(v: Any) -> str:
    if v is None or v == ():
        return ""
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, str):
        return v
    try:
        return ladder.text(v)
    except Exception:  # a structured default (e.g. an empty tree): shown by its meaning instead
        return ""


def _fields(cls: type) -> tuple[FieldDoc, ...]:
    return tuple(FieldDoc(s.name, s.kind.text(), s.required, _default_text(s.default), s.doc) for s in field_specs(cls))


def form_entries() -> list[Entry]:
    """Every registered mechanism form, in registration order."""
    out = []
    for key, cls in FORMS.items():
        specs = field_specs(cls)
        short = getattr(cls, "shorthand", None)
        if short is not None and len(specs) == 1:
            out.append(Entry(key, doc_line(cls), (), specs[0].kind.text()))
            continue
        value = ""
        if short is not None:
            whole = next(s for s in specs if s.attr == short)
            value = f"{whole.kind.text()} (short for `{key}: {{{whole.name}: ...}}`), or a mapping with the keys below"
        out.append(Entry(key, doc_line(cls), _fields(cls), value))
    return out


def claim_entries() -> list[Entry]:
    """Every registered claim kind, in registration order, with the value its verdict shows."""
    return [Entry(kind, doc_line(cls), _fields(cls), shows=_shows(cls)) for kind, cls in CLAIMS.items()]


def _shows(cls: Any) -> str:
    """The value a claim kind's verdict shows (a sweep's table, CSV and plot; ``value`` in JSON)."""
    out: str = cls.shows.doc
    by_theorem = getattr(cls, "_shows_by_theorem", {})
    if by_theorem:  # a composition shows what its theorem compares
        out += "; " + "; ".join(f"with `theorem: {t}`, {s.doc}" for t, s in by_theorem.items())
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_entries(entries: Sequence[Entry], level: int = 3) -> str:
    """One heading per entry, its doc, the value it takes and a table of its keys (the default
    and meaning columns only when some key has one)."""
    parts = []
    for e in entries:
        lines = ["#" * level + f" `{e.key}`", "", _cell(e.doc)]
        if e.value:
            lines += ["", f"Value: {_cell(e.value)}."]
        if e.shows:
            lines += ["", f"Shows: {_cell(e.shows)}."]
        if e.fields:
            cols = ["key", "value", "required"] + [
                c for c in ("default", "meaning") if any(_column(f, c) for f in e.fields)
            ]
            lines += ["", "| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
            lines += ["| " + " | ".join(_column(f, c) for c in cols) + " |" for f in e.fields]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _column(f: FieldDoc, col: str) -> str:
    return {
        "key": f"`{f.name}`",
        "value": _cell(f.kind),
        "required": "yes" if f.required else "no",
        "default": f"`{_cell(f.default)}`" if f.default else "",
        "meaning": _cell(f.doc),
    }[col]


GENERATED = {"forms": lambda: render_entries(form_entries()), "claims": lambda: render_entries(claim_entries())}
_BLOCK = re.compile(r"(<!-- generated: (\w+) [^>]*-->\n)(.*?)(<!-- end generated: \2 -->)", re.S)


def render(text: str) -> str:
    """``text`` with every generated block replaced by its current content."""
    found = set()

    def sub(m: re.Match[str]) -> str:
        found.add(m.group(2))
        return m.group(1) + "\n" + GENERATED[m.group(2)]() + "\n\n" + m.group(4)

    out = _BLOCK.sub(sub, text)
    missing = set(GENERATED) - found
    if missing:
        raise ValueError(
            f"no generated block for {', '.join(sorted(missing))} (markers `<!-- generated: NAME ... -->`)"
        )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m exactdp.tools.formatdoc", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="rewrite the generated blocks of the page")
    ap.add_argument("--check", action="store_true", help="exit 1 when the page is stale")
    ap.add_argument("--path", type=Path, default=DOC_PATH)
    a = ap.parse_args(argv)
    text = a.path.read_text(encoding="utf-8")
    new = render(text)
    if a.write and new != text:
        a.path.write_text(new, encoding="utf-8")
    elif a.check and new != text:
        print(f"{a.path} is stale: run `make docs` (python -m exactdp.tools.formatdoc --write)", file=sys.stderr)
        return 1
    elif not a.write and not a.check:
        sys.stdout.write(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
