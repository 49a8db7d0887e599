"""The JSON Schema of format version 1: valid, published, in sync with the reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

jsonschema = pytest.importorskip("jsonschema")

from exactdp.caseio import parse_case  # noqa: E402
from exactdp.caseio.schema import DOCS_COPY, PACKAGE_COPY, case_schema, schema_text  # noqa: E402
from exactdp.claims import CLAIMS  # noqa: E402
from exactdp.errors import CaseError  # noqa: E402
from exactdp.forms import FORMS  # noqa: E402
from exactdp.forms.fields import Kind, field_specs  # noqa: E402
from exactdp.verify import find_case_files  # noqa: E402

from .yamldata import case_docs, dump, yaml_text_to_data  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VALIDATOR = jsonschema.Draft202012Validator(case_schema())


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(case_schema())


def test_published_copies_are_up_to_date():
    """Regenerate with: python -m exactdp.caseio.schema --write"""
    assert PACKAGE_COPY.read_text() == schema_text()
    assert DOCS_COPY.read_text() == schema_text()


def test_every_form_and_claim_is_declared_with_kinds_and_docs():
    """The schema, the reader and the reference tables all come from these declarations."""
    schema = case_schema()
    assert set(schema["$defs"]["mechanism"]["oneOf"][1]["properties"]) == set(FORMS)
    for registry in (FORMS, CLAIMS):
        for key, cls in registry.items():
            assert (cls.__doc__ or "").strip(), f"{key} has no docstring"
            for spec in field_specs(cls):
                assert isinstance(spec.kind, Kind) and spec.kind.schema() and spec.kind.text(), f"{key}.{spec.name}"


@pytest.mark.parametrize("path", find_case_files([ROOT / "cases"]), ids=lambda p: p.name)
def test_library_is_schema_valid(path):
    errs = list(VALIDATOR.iter_errors(yaml_text_to_data(path.read_text())))
    assert not errs, [e.message for e in errs[:3]]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=case_docs())
def test_reader_and_schema_accept_generated_valid_documents(doc):
    text = dump(doc)
    parse_case(text, "gen.yaml")  # the reader accepts it
    assert not list(VALIDATOR.iter_errors(yaml_text_to_data(text)))


STRUCTURALLY_INVALID = [
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\n",  # no claims
    "exactdp: 2\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: X\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3), detla: 0}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {wat: 1}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}, compose: [a]}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {respond: {a: {p: [1, 1], then: null, q: 1}}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {respond: {}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dpp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}, privloss: {delta: 0, equals: 0}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {delta: 0}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: [1]}}]\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\nextra: 0\n",
    "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nmechanisms: {M: {rr: {eps: log(3)}}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nadjacent: [[x0]]\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
    "exactdp: 1\nname: x\nmechanism: {repeat: {mechanism: {rr: {eps: log(3)}}}}\nclaims: [{dp: {eps: 1}}]\n",
]


@pytest.mark.parametrize("text", STRUCTURALLY_INVALID)
def test_schema_and_reader_both_reject(text):
    assert list(VALIDATOR.iter_errors(yaml_text_to_data(text)))
    with pytest.raises(CaseError):
        parse_case(text, "bad.yaml")


def test_cli_prints_the_schema():
    from click.testing import CliRunner

    from exactdp.cli import main

    r = CliRunner().invoke(main, ["schema"])
    assert r.exit_code == 0 and json.loads(r.output)["title"].startswith("exactdp case file")


def _doc_examples() -> list[tuple[str, str]]:
    """Every whole case file shown in the docs (a ```yaml block starting ``exactdp: 1``)."""
    out = []
    for md in sorted((ROOT / "docs").glob("*.md")):
        for k, block in enumerate(md.read_text().split("```yaml\n")[1:]):
            text = block.split("```", 1)[0]
            if text.lstrip().startswith("exactdp: 1"):
                out.append((f"{md.name}#{k}", text))
    return out


@pytest.mark.parametrize("where, text", _doc_examples(), ids=[w for w, _ in _doc_examples()])
def test_the_docs_examples_the_reader_takes_are_schema_valid(where, text):
    """An editor using the schema must not flag a case the reader takes (a pmf noise's shorthand
    ``{pmf: {0: 1/2, 1: 1/2}}`` once was)."""
    try:
        parse_case(text, "doc.yaml")
    except CaseError:
        pytest.skip("an example of an invalid case")
    errs = list(VALIDATOR.iter_errors(yaml_text_to_data(text)))
    assert not errs, [e.message for e in errs[:3]]
