"""The JSON Schema of case-format version 1, generated from the declared forms and claims.

Every mechanism form (:data:`exactdp.forms.FORMS`) and claim kind (:data:`exactdp.claims.CLAIMS`)
declares its fields once, with their kinds (:mod:`exactdp.forms.fields`); the reader and this
schema both come from that declaration, so they cannot drift apart.  A test checks that every
case the reader accepts is valid under the schema, and that the published copies are current.

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

from ..claims import CLAIMS
from ..forms import FORMS
from ..forms.fields import record_schema, value_schema
from ..forms.registry import doc_line
from .case import TOP_LEVEL_KEYS
from .sweep import SWEEP_SCHEMA

__all__ = ["case_schema", "schema_text", "form_schema", "PACKAGE_COPY", "DOCS_COPY"]

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
        "node": {
            "description": "a tree position: null ends the interaction",
            "oneOf": [{"type": "null"}, ref("mechanism")],
        },
        "mechanism": {
            "description": "a mechanism: a name, or a mapping with exactly one form key",
            "oneOf": [
                {"type": ["string", "number"]},
                {
                    "type": "object",
                    "minProperties": 1,
                    "maxProperties": 1,
                    "properties": {k: form_schema(FORMS[k]) for k in FORMS},
                    "additionalProperties": False,
                },
            ],
        },
        "claim": {
            "description": "a claim: a mapping with exactly one claim kind (and optionally `of:`)",
            "oneOf": [_claim_item(k) for k in CLAIMS],
        },
        "mechanisms": {
            "description": "a list of mechanisms, or a map {label: mechanism}",
            "oneOf": [
                {"type": "array", "minItems": 1, "items": ref("mechanism")},
                {"type": "object", "minProperties": 1, "additionalProperties": ref("mechanism")},
            ],
        },
    }


def form_schema(cls: type) -> dict[str, Any]:
    """The schema of a form's value: its record of fields, or the shorthand field's value."""
    return value_schema(cls)


def _claim_item(kind: str) -> dict[str, Any]:
    cls = CLAIMS[kind]
    body: dict[str, Any] = record_schema(cls)
    if "required" not in body:
        body = {"oneOf": [{"type": "null"}, body]}
    return {
        "description": doc_line(cls),
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
        "claims": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/claim"}},
        "sweep": SWEEP_SCHEMA,
    }
    missing = [k for k in TOP_LEVEL_KEYS if k not in top]
    for k in missing:  # keys added by later features without a fragment: allowed, unconstrained
        top[k] = {}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "exactdp case file, format version 1",
        "description": "See docs/case-format.md. Numbers are exact: "
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
