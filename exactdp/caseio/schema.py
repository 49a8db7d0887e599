"""The JSON Schema of case-format version 1, generated from the reader's own registries.

Every mechanism form and claim kind registers its schema fragment next to its reader
(:func:`~exactdp.caseio.forms.register_form`, :class:`~exactdp.caseio.context.Field`), so the
schema and the reader cannot drift apart; a test checks that every case the reader accepts is
valid under the schema, and that the published copies are up to date.

The schema describes the *structure* (keys, nesting, which values are numbers or names).
What it cannot express is checked by the reader with located messages: distributions summing
to exactly 1, lengths matching the datasets, names that exist, no cycles, exact arithmetic.

Regenerate the published copies with ``python -m exactdp.caseio.schema --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .case import TOP_LEVEL_KEYS
from .sweep import SWEEP_SCHEMA
from .claims import CLAIM_KINDS
from .forms import FORM_SCHEMAS, FORMS

__all__ = ["case_schema", "schema_text", "PACKAGE_COPY", "DOCS_COPY"]

SCHEMA_ID = "https://exactdp.invalid/schema/case-v1.json"
PACKAGE_COPY = Path(__file__).resolve().parents[1] / "schema" / "case-v1.json"
DOCS_COPY = Path(__file__).resolve().parents[2] / "docs" / "case-format.schema.json"

# A number is written as YAML number or as text in exactdp's grammar (``1/3``, ``log(3)``...).
_NUMBER_TEXT = r"^[0-9A-Za-z_+\-*/^().\s]+$"


def _defs() -> dict[str, Any]:
    ref = lambda name: {"$ref": f"#/$defs/{name}"}  # noqa: E731
    return {
        "number": {
            "description": "an exact number: 3, 1/3, 0.25, log(3), exp(log(2)), a param name, inf",
            "oneOf": [{"type": "number"}, {"type": "string", "pattern": _NUMBER_TEXT}],
        },
        "name": {"type": ["string", "number"], "description": "a mechanism name"},
        "probs": {
            "description": "one probability per dataset: a list in dataset order, or {dataset: p}",
            "oneOf": [
                {"type": "array", "minItems": 1, "items": ref("number")},
                {"type": "object", "minProperties": 1, "additionalProperties": ref("number")},
            ],
        },
        "answer": {
            "oneOf": [
                ref("probs"),
                {
                    "type": "object",
                    "properties": {"p": ref("probs"), "then": ref("node")},
                    "required": ["p"],
                    "additionalProperties": False,
                },
            ]
        },
        "answers": {
            "description": "an answer distribution {answer: p-list | {p, then}}",
            "type": "object",
            "minProperties": 1,
            "additionalProperties": ref("answer"),
        },
        "node": {"description": "a tree position: null ends the interaction", "oneOf": [{"type": "null"}, ref("mechanism")]},
        "mechanism": {
            "description": "a mechanism: a name, or a mapping with exactly one form key",
            "oneOf": [
                {"type": ["string", "number"]},
                {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1,
                    "properties": {k: FORM_SCHEMAS.get(k, {}) for k in FORMS},
                    "additionalProperties": False,
                },
            ],
        },
        "mechanisms": {
            "description": "a list of mechanisms, or a map {label: mechanism}",
            "oneOf": [
                {"type": "array", "minItems": 1, "items": ref("mechanism")},
                {"type": "object", "minProperties": 1, "additionalProperties": ref("mechanism")},
            ],
        },
    }


def _claim_item(kind: str) -> dict[str, Any]:
    spec, _make, doc = CLAIM_KINDS[kind]
    props = {name: (f.schema or {}) for name, f in spec.items()}
    required = [name for name, f in spec.items() if f.required]
    body: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        body["required"] = required
    else:
        body = {"oneOf": [{"type": "null"}, body]}
    return {
        "description": doc,
        "type": "object",
        "properties": {kind: body, "of": {"$ref": "#/$defs/name"}},
        "required": [kind],
        "additionalProperties": False,
    }


def case_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a case file, from the registered forms and claims."""
    top: dict[str, Any] = {
        "exactdp": {"const": 1, "description": "case-format version"},
        "name": {"type": "string", "pattern": "^[a-z0-9._-]+$"},
        "title": {"type": "string"},
        "reference": {"type": "string"},
        "datasets": {"type": "array", "minItems": 2, "uniqueItems": True, "items": {"type": ["string", "number"]}},
        "adjacent": {
            "type": "array",
            "minItems": 1,
            "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": ["string", "number"]}},
        },
        "params": {"type": "object", "additionalProperties": {"$ref": "#/$defs/number"}},
        "symbols": {
            "description": "real symbols with optional bounds, e.g. {E: {gt: 1}, p: {gt: 0, lt: 1}}",
            "type": "object",
            "additionalProperties": {
                "oneOf": [
                    {"type": "null"},
                    {
                        "type": "object",
                        "properties": {b: {"$ref": "#/$defs/number"} for b in ("gt", "ge", "lt", "le")},
                        "additionalProperties": False,
                    },
                ]
            },
        },
        "mechanisms": {"type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#/$defs/mechanism"}},
        "mechanism": {"$ref": "#/$defs/mechanism"},
        "claims": {"type": "array", "minItems": 1, "items": {"oneOf": [_claim_item(k) for k in CLAIM_KINDS]}},
        "sweep": SWEEP_SCHEMA,
    }
    missing = [k for k in TOP_LEVEL_KEYS if k not in top]
    for k in missing:  # keys added by later features without a fragment: allowed, unconstrained
        top[k] = {}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "exactdp case file, format version 1",
        "description": "See the case-format spec and docs/architecture.md. Numbers are exact: "
        "written as YAML numbers or as text in exactdp's grammar.",
        "type": "object",
        "properties": top,
        "required": ["exactdp", "name", "claims"],
        "oneOf": [{"required": ["mechanisms"]}, {"required": ["mechanism"]}],
        "additionalProperties": False,
        "$defs": _defs(),
    }


def schema_text() -> str:
    return json.dumps(case_schema(), indent=2, sort_keys=False) + "\n"


def _main(argv: list[str]) -> int:
    text = schema_text()
    if argv and argv[0] == "--write":
        for p in (PACKAGE_COPY, DOCS_COPY):
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
