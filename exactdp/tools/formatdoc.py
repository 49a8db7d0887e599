"""Generate the per-form and per-claim tables of ``docs/case-format.md`` from the registries.

The tables come from the same registries as the JSON Schema (:mod:`exactdp.caseio.schema`):
the mechanism forms (``FORMS``, ``FORM_SCHEMAS``) and the claim kinds (``CLAIM_KINDS`` with
their :class:`~exactdp.caseio.context.Field` specs), so the reference cannot drift from what
the reader accepts.  The registries are first flattened into a plain list of
:class:`Entry` (key, doc, fields) with :class:`FieldDoc` (name, kind, required, default, doc);
rendering sees only that list.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..caseio import CLAIM_KINDS, FORMS
from ..caseio.forms import FORM_SCHEMAS
from ..numbers.rational import is_rational, q_str

__all__ = ["FieldDoc", "Entry", "form_entries", "claim_entries", "describe", "render_entries", "render", "DOC_PATH", "main"]

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "case-format.md"

_REFS = {
    "number": "number",
    "name": "mechanism name",
    "mechanism": "mechanism",
    "mechanisms": "list or map of mechanisms",
    "node": "mechanism or null",
    "answers": "answer distribution",
    "probs": "probabilities",
}


@dataclass(frozen=True)
class FieldDoc:
    """One key of a form or claim: its value kind (in words), whether it is required, its
    default (text, empty when none is recorded) and what it means."""

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


def describe(schema: Any) -> str:
    """A JSON-Schema fragment in words: ``{"type": "array", "items": number}`` -> "list of number"."""
    if not isinstance(schema, dict) or not schema:
        return "any value"
    if "$ref" in schema:
        return _REFS.get(schema["$ref"].rsplit("/", 1)[-1], schema["$ref"])
    if "oneOf" in schema:
        return " or ".join(describe(s) for s in schema["oneOf"])
    if "const" in schema:
        return f"`{schema['const']}`"
    if "enum" in schema:
        return "one of " + ", ".join("`null`" if v is None else f"`{v}`" for v in dict.fromkeys(map(_enum_text, schema["enum"])))
    types = schema.get("type")
    if isinstance(types, list):
        return " or ".join(_TYPE_WORDS.get(t, t) for t in types)
    if types == "array":
        what = describe(schema["items"]) if "items" in schema else ""
        if schema.get("minItems") == schema.get("maxItems") == 2:
            return f"pair of {what}" if what else "pair"
        return f"list of {what}" if what else "list"
    if types == "object":
        if "properties" in schema:
            req = set(schema.get("required", ()))
            return "mapping {" + ", ".join(k if k in req else k + "?" for k in schema["properties"]) + "}"
        if isinstance(schema.get("additionalProperties"), dict) and schema["additionalProperties"]:
            return "map to " + describe(schema["additionalProperties"])
        return "mapping"
    return _TYPE_WORDS.get(types, str(types))


_TYPE_WORDS = {"string": "text", "number": "number", "boolean": "true/false", "object": "mapping", "array": "list", "null": "null"}


def _enum_text(v: Any) -> Any:
    return None if v is None else str(v)


def _schema_fields(schema: dict) -> tuple[FieldDoc, ...]:
    req = set(schema.get("required", ()))
    return tuple(
        FieldDoc(k, describe(s), k in req, _default_text(s.get("default")) if isinstance(s, dict) else "", (s or {}).get("description", ""))
        for k, s in schema["properties"].items()
    )


def _default_text(v: Any) -> str:
    if v is None:
        return ""
    if is_rational(v):
        return q_str(v)
    return str(v)


def form_entries() -> list[Entry]:
    """Every registered mechanism form, in registration order."""
    out = []
    for key, (_reader, doc) in FORMS.items():
        schema = FORM_SCHEMAS.get(key, {})
        alts = schema.get("oneOf", [schema])
        tables = [a for a in alts if isinstance(a, dict) and "properties" in a]
        others = [describe(a) for a in alts if a not in tables]
        fields = _schema_fields(tables[0]) if tables else ()
        value = " or ".join(others + (["a mapping with the keys below"] if tables and others else []))
        out.append(Entry(key, doc, fields, value))
    return out


def claim_entries() -> list[Entry]:
    """Every registered claim kind, in registration order."""
    out = []
    for kind, (spec, _make, doc) in CLAIM_KINDS.items():
        fields = tuple(FieldDoc(n, describe(f.schema), f.required, _default_text(f.default), f.doc) for n, f in spec.items())
        out.append(Entry(kind, doc, fields))
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
        if e.fields:
            cols = ["key", "value", "required"] + [c for c in ("default", "meaning") if any(_column(f, c) for f in e.fields)]
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
        raise ValueError(f"no generated block for {', '.join(sorted(missing))} (markers `<!-- generated: NAME ... -->`)")
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
