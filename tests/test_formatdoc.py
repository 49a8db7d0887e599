"""docs/case-format.md: its generated tables are current and every form and claim has an example."""

from __future__ import annotations

import re

import pytest
import yaml

from exactdp.claims import CLAIMS
from exactdp.forms import FORMS
from exactdp.tools.formatdoc import (
    DOC_PATH,
    Entry,
    FieldDoc,
    claim_entries,
    form_entries,
    main,
    render,
    render_entries,
)

TEXT = DOC_PATH.read_text(encoding="utf-8")


def test_committed_page_is_up_to_date():
    assert render(TEXT) == TEXT, (
        "docs/case-format.md is stale: run `make docs` (python -m exactdp.tools.formatdoc --write)"
    )


def test_check_mode_reports_a_stale_page(tmp_path, capsys):
    stale = tmp_path / "page.md"
    stale.write_text(TEXT.replace("### `rr`", "### `rr-old`"), encoding="utf-8")
    assert main(["--check", "--path", str(stale)]) == 1
    assert "stale" in capsys.readouterr().err
    assert main(["--write", "--path", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == TEXT


def test_every_registered_form_and_claim_has_a_generated_section():
    assert [e.key for e in form_entries()] == list(FORMS)
    assert [e.key for e in claim_entries()] == list(CLAIMS)
    for key in list(FORMS) + list(CLAIMS):
        assert f"### `{key}`" in TEXT


def _keys(node, out):
    if isinstance(node, dict):
        for k, v in node.items():
            out.add(str(k))
            _keys(v, out)
    elif isinstance(node, list):
        for v in node:
            _keys(v, out)
    return out


def test_every_form_and_claim_has_a_complete_example_on_the_page():
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", TEXT, re.S) if b.startswith("exactdp: 1")]
    used: set[str] = set()
    for b in blocks:
        doc = yaml.safe_load(b)
        _keys(doc.get("mechanisms", {}), used)
        for c in doc["claims"]:
            used |= set(c)
    missing = [k for k in list(FORMS) + list(CLAIMS) if k not in used]
    assert not missing, f"no complete example of {missing} in docs/case-format.md"


def test_a_missing_marker_is_an_error():
    with pytest.raises(ValueError, match="claims"):
        render("<!-- generated: forms x -->\n<!-- end generated: forms -->\n")


def test_field_kinds_describe_themselves_in_the_tables():
    """The value column is the declared kind's own words, e.g. an eps, a delta, a list."""
    rr = next(e for e in form_entries() if e.key == "rr")
    kinds = {f.name: f.kind for f in rr.fields}
    assert kinds["eps"].startswith("eps >= 0") and kinds["delta"].startswith("delta in [0, 1]")
    compose = next(e for e in form_entries() if e.key == "compose")
    assert compose.value == "a list (or map) of mechanisms" and not compose.fields
    privloss = next(e for e in claim_entries() if e.key == "privloss")
    assert {f.name: f.default for f in privloss.fields}["delta"] == "0"


def test_render_leaves_out_empty_columns():
    text = render_entries([Entry("k", "a doc", (FieldDoc("a", "number", True), FieldDoc("b", "text", False, "x", "")))])
    assert "| key | value | required | default |" in text and "meaning" not in text
    assert "| `b` | text | no | `x` |" in text
