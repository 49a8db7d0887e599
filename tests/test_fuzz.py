"""Fuzzing the case reader and the checker with generated valid and broken documents.

Properties: a valid document exits 0 or 1; a broken one exits 2 with a located message; nothing
else ever escapes (no traceback), and nothing runs longer than the limits allow.
Bounded here (make test); `make fuzz` runs many more examples (EXACTDP_FUZZ_EXAMPLES).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.errors import CaseError, ExactDPError
from exactdp.limits import DEFAULT as DEFAULT_LIMITS
from exactdp.report import render_file
from exactdp.verify import Options, verify_text

from .yamldata import case_docs, dump

N = int(os.environ.get("EXACTDP_FUZZ_EXAMPLES", "120"))
FUZZ = settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck))
OPTS = Options(limits=DEFAULT_LIMITS.replace(timeout=20, max_nodes=200_000, max_hull_edges=200_000))

INJECTIONS = [
    "__import__('os').system('touch PWNED')",
    "Lambda(x, x)",
    "().__class__",
    "{0.__class__}",
    "eval('1')",
    "1; import os",
    "$(touch PWNED)",
    "'; DROP TABLE",
]


def run(text: str):
    fr = verify_text(text, "fuzz.yaml", OPTS)  # any non-ExactDPError exception fails the test
    out = "\n".join(render_file(fr))
    assert "Traceback" not in out
    return fr, out


@FUZZ
@given(doc=case_docs())
def test_valid_documents_exit_0_or_1(doc):
    fr, out = run(dump(doc))
    assert fr.error is None, out
    assert fr.exit_code in (0, 1), out


def _probability_paths(obj, path=()):
    """Paths to probability lists inside a document (to corrupt one entry)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k == "p" and isinstance(v, list):
                yield path + (k,)
            elif isinstance(v, list) and v and all(isinstance(x, str) and "/" in x for x in v):
                yield path + (k,)
            else:
                yield from _probability_paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _probability_paths(v, path + (i,))


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


@st.composite
def broken_documents(draw):
    """A valid document with one change that makes it certainly invalid."""
    doc = draw(case_docs())
    kind = draw(
        st.sampled_from(
            [
                "version",
                "drop",
                "typo",
                "prob",
                "inject",
                "unknown-form",
                "dangling",
                "cycle",
                "claim-kind",
                "claim-field",
                "adjacent",
            ]
        )
    )
    if kind == "version":
        doc["exactdp"] = draw(st.sampled_from([2, "one", 0, None]))
    elif kind == "drop":
        del doc[draw(st.sampled_from(["exactdp", "name", "claims", "mechanisms"]))]
    elif kind == "typo":
        doc["claimz"] = doc.pop("claims")
    elif kind in ("prob", "inject"):
        paths = list(_probability_paths(doc["mechanisms"]))
        lst = _get(doc["mechanisms"], draw(st.sampled_from(paths)))
        i = draw(st.integers(0, len(lst) - 1))
        lst[i] = draw(st.sampled_from(["-1/2", "7/5", "1/0", "log(0)", "2"] if kind == "prob" else INJECTIONS))
    elif kind == "unknown-form":
        doc["mechanisms"]["Z"] = {draw(st.sampled_from(["rrr", "tre", "conncomp", "python"])): {}}
    elif kind == "dangling":
        doc["mechanisms"]["Z"] = {"compose": ["A", "Nowhere"]}
    elif kind == "cycle":
        doc["mechanisms"]["Z"] = {"compose": ["A", "Y"]}
        doc["mechanisms"]["Y"] = {"choose": ["Z"]}
    elif kind == "claim-kind":
        doc["claims"].append({draw(st.sampled_from(["privlos", "dpp", "notdp", "eval"])): {"eps": 1}})
    elif kind == "claim-field":
        doc["claims"].append({"delta": {"eps": "log(2)"}})
    else:
        doc["adjacent"] = [[doc["datasets"][0], "nobody"]]
    return dump(doc)


@FUZZ
@given(text=broken_documents())
def test_broken_documents_exit_2_with_a_located_message(text):
    fr, out = run(text)
    assert isinstance(fr.error, CaseError), out
    assert fr.exit_code == 2
    assert all(p.file == "fuzz.yaml" for p in fr.error.problems)
    assert any(p.line is not None for p in fr.error.problems), out
    assert not os.path.exists("PWNED")


@st.composite
def mangled_text(draw):
    """Raw text edits of a valid document: truncation, insertion, deletion, tags, aliases."""
    text = dump(draw(case_docs()))
    op = draw(st.sampled_from(["truncate", "insert", "delete", "tag", "alias", "tab", "bytes", "indent"]))
    i = draw(st.integers(0, len(text)))
    if op == "truncate":
        return text[:i]
    if op == "insert":
        return (
            text[:i]
            + draw(
                st.text(
                    alphabet=st.sampled_from(list("{}[]:,-&*!|>'\"#%@`?\t\n 0123456789/.^()loge")),
                    min_size=1,
                    max_size=6,
                )
            )
            + text[i:]
        )
    if op == "delete":
        return text[:i] + text[i + draw(st.integers(1, 20)) :]
    if op == "tag":
        return text.replace("log(", "!!python/object/apply:os.system ['touch PWNED'] #", 1)
    if op == "alias":
        return "x: &a [*a]\n" + text if draw(st.booleans()) else text + "\nzz: *undefined\n"
    if op == "tab":
        return text.replace("  ", "\t", 1)
    if op == "bytes":
        return text[:i] + draw(st.text(min_size=1, max_size=4)) + text[i:]
    return text.replace("\n  ", "\n   ", 1)


@FUZZ
@given(text=mangled_text())
def test_mangled_text_never_escapes(text):
    fr, out = run(text)
    assert fr.exit_code in (0, 1, 2), out
    if fr.exit_code == 2 and isinstance(fr.error, CaseError):
        assert fr.error.problems and all(p.message for p in fr.error.problems)
    assert not os.path.exists("PWNED")


def test_exactdp_errors_are_the_only_escape():
    """Sanity check of the harness: the error types raised are ExactDPError subclasses."""
    assert issubclass(CaseError, ExactDPError)
