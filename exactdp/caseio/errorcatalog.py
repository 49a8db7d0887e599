"""The catalogue of case-file errors, each with a small example, for ``docs/errors.md``.

The document is generated from the reader's real output, so it cannot go stale silently: a
test regenerates it and compares.  Regenerate with ``python -m exactdp.caseio.errorcatalog --write``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import CaseError
from .case import parse_case

__all__ = ["CATALOGUE", "render", "DOC_PATH"]

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "errors.md"

_OK = "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(3)}}]\n"
_HEAD = "exactdp: 1\nname: demo\n"

# (section, title, explanation, example text)
CATALOGUE: list[tuple[str, str, str, str]] = [
    # --- reading the file -------------------------------------------------------------------
    ("File", "Not YAML", "The file does not parse as YAML; the message gives the place.", _HEAD + "mechanism: {rr: {eps: log(3)}\n"),
    ("File", "Empty file", "", ""),
    ("File", "Not a mapping", "A case file is a mapping at the top level.", "- exactdp: 1\n"),
    ("File", "Several documents", "A case file is one YAML document.", _HEAD + _OK + "---\n" + _HEAD + _OK),
    (
        "File",
        "Tags are refused",
        "Only plain data is read; a tag such as `!!python/object` is refused before anything is built, so nothing can run.",
        _HEAD + "mechanism: !!python/object/apply:os.system ['echo hi']\nclaims: [{dp: {eps: 1}}]\n",
    ),
    ("File", "Recursive alias", "Anchors may share sub-trees but not contain themselves.", _HEAD + "mechanism: &m {compose: [*m]}\nclaims: [{dp: {eps: 1}}]\n"),
    ("File", "Undefined alias", "", _HEAD + "mechanism: *nothing\nclaims: [{dp: {eps: 1}}]\n"),
    (
        "File",
        "Alias bomb",
        "Aliases are counted as if expanded; beyond `--max-yaml-nodes` (default 1,000,000) the file is refused, fast and in bounded memory.",
        _HEAD + "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 7)),
    ),
    ("File", "Duplicate key", "YAML would silently keep the last one; exactdp refuses.", _HEAD + _OK + "claims: []\n"),
    # --- top level --------------------------------------------------------------------------
    ("Top level", "Missing version", "", "name: demo\n" + _OK),
    ("Top level", "Unsupported version", "", "exactdp: 2\nname: demo\n" + _OK),
    ("Top level", "Missing or malformed name", "", "exactdp: 1\nname: My Case\n" + _OK),
    ("Top level", "Unknown key (a typo)", "Unknown keys are errors, with the closest known key suggested.", _HEAD + _OK + "refrence: Vadhan-Wang\n"),
    ("Top level", "No mechanism", "", _HEAD + "claims: [{dp: {eps: 1}}]\n"),
    ("Top level", "No claims", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\n"),
    # --- datasets ---------------------------------------------------------------------------
    ("Datasets", "Unknown dataset in adjacent", "", _HEAD + "datasets: [a, b]\nadjacent: [[a, c]]\n" + _OK),
    ("Datasets", "A dataset adjacent to itself", "", _HEAD + "adjacent: [[x0, x0]]\n" + _OK),
    ("Datasets", "Dataset listed twice", "", _HEAD + "datasets: [a, a]\n" + _OK),
    # --- mechanisms -------------------------------------------------------------------------
    ("Mechanisms", "Unknown form", "", _HEAD + "mechanism: {rrr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Mechanisms", "Unknown key in a form (a typo)", "", _HEAD + "mechanism: {rr: {eps: log(3), detla: 1/10}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Mechanisms", "Missing field", "", _HEAD + "mechanism: {repeat: {mechanism: {rr: {eps: log(3)}}}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Mechanisms", "Two forms in one mapping", "", _HEAD + "mechanism: {rr: {eps: log(3)}, choose: []}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Mechanisms", "Undefined mechanism", "", _HEAD + "mechanisms:\n  M: {compose: [A, B]}\n  A: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Mechanisms", "Cyclic reference", "A mechanism must be a finite game.", _HEAD + "mechanisms:\n  M: {compose: [N]}\n  N: {choose: [M]}\nclaims: [{dp: {eps: 1}}]\n"),
    (
        "Mechanisms",
        "RR on more than two datasets",
        "RR's input bit is known only for the first adjacent pair; give the others with `bits:`.",
        _HEAD + "datasets: [a, b, c]\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "Decimal eps too fine for exact arithmetic",
        "A decimal eps is exact: e^0.1 is kept in the field Q(e^(1/L)). A huge power of e^(1/L) is refused rather than approximated.",
        _HEAD + "mechanism: {rr: {eps: 1234.56789}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    # --- distributions ----------------------------------------------------------------------
    ("Distributions", "Does not sum to 1", "Every answer distribution sums to exactly 1 under every dataset.", _HEAD + "mechanism: {respond: {a: [1/2, 1/3], b: [1/2, 1/3]}}\nclaims: [{dp: {eps: 1}}]\n"),
    (
        "Distributions",
        "Rounded decimals",
        "Decimals are exact, so 0.333 is 333/1000; the hint suggests fractions.",
        _HEAD + "mechanism: {respond: {a: [0.333, 1/2], b: [0.333, 1/2], c: [0.333, 0]}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    ("Distributions", "Negative probability", "", _HEAD + "mechanism: {respond: {a: [-1/2, 1/2], b: [3/2, 1/2]}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Distributions", "Wrong number of probabilities", "One probability per dataset.", _HEAD + "mechanism: {respond: {a: [1, 1, 0], b: [0, 0, 1]}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Distributions", "Unknown or missing dataset in a map", "", _HEAD + "mechanism: {respond: {a: {p: {x0: 1, y: 1}}}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Distributions", "Empty distribution", "", _HEAD + "mechanism: {respond: {}}\nclaims: [{dp: {eps: 1}}]\n"),
    # --- numbers ----------------------------------------------------------------------------
    ("Numbers", "Log of a non-positive number", "", _HEAD + "mechanism: {rr: {eps: log(0)}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Numbers", "Division by zero", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1/0}}]\n"),
    ("Numbers", "No exact representation", "exactdp never rounds: an irrational value is refused.", _HEAD + "mechanism: {rr: {eps: log(2^(1/2))}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Numbers", "Unknown name", "Names are the case's `params`; the closest one is suggested.", _HEAD + "params: {eps: log(3)}\nmechanism: {rr: {eps: esp}}\nclaims: [{dp: {eps: 1}}]\n"),
    ("Numbers", "Code is not a number", "The grammar has numbers, + - * / ^, log, exp and names: nothing else, nothing runs.", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: \"__import__('os').system('ls')\"}}]\n"),
    ("Numbers", "Unknown function", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: sqrt(2)}}]\n"),
    ("Numbers", "Parameter defined in terms of itself", "", _HEAD + "params: {a: 2*b, b: a}\n" + _OK),
    ("Numbers", "Out of range", "", _HEAD + "mechanism: {rr: {eps: log(1/2)}}\nclaims: [{dp: {eps: 1, delta: 3/2}}]\n"),
    ("Numbers", "Exponent too large", "Powers are bounded (`--max-exponent`).", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(10^99999)}}]\n"),
    # --- claims -----------------------------------------------------------------------------
    ("Claims", "Unknown claim kind", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{privlos: {delta: 0, equals: log(3)}}]\n"),
    ("Claims", "Missing field", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{delta: {eps: 0}}]\n"),
    ("Claims", "equals or at_most", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{privloss: {delta: 0}}]\n"),
    ("Claims", "Several kinds in one claim", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}, not_dp: {eps: 0}}]\n"),
    ("Claims", "About an undefined mechanism", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1, of: N}}]\n"),
    (
        "Claims",
        "Renyi order that is not a whole number",
        "`renyi:` takes alpha = 1 (KL), 2, 3, ... or inf; the sum for a fractional order is irrational.",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{renyi: {alpha: 3/2, equals: log(2)}}]\n",
    ),
    (
        "Claims",
        "Renyi value that is not a divergence",
        "A claimed D_alpha is an exact real such as log(7/3), log(61/9)/2 or inf.",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{renyi: {alpha: 2, equals: exp(1/2)}}]\n",
    ),
    ("Claims", "f-DP against an undefined mechanism", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{fdp: {f: R}}]\n"),
    ("Claims", "Negative GDP parameter", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{gdp: {mu: -1}}]\n"),
    (
        "Claims",
        "alpha without theorem: renyi",
        "The Renyi composition theorem needs an order; other theorems take none.",
        _HEAD + "mechanisms: {A: {rr: {eps: log(2)}}}\nclaims: [{composition: {of: [A, A], theorem: fdp, alpha: 2}}]\n",
    ),
]

_LIMITS = """## Limits

Limits are never silent truncations: reaching one stops the check with an error naming the
limit and the flag that raises it (exit status 2). A limit reached while checking a claim marks
that claim *undecided* (`!` in the report); the time limit marks every remaining claim of the
file undecided.

| limit | default | flag | message (example) |
|---|---|---|---|
| file size | 5,000,000 bytes | `--max-file-bytes` | `file is 6000000 bytes; the limit is 5000000` |
| alias-expanded YAML size | 1,000,000 nodes | `--max-yaml-nodes` | `this value expands to more than 1000000 YAML nodes through aliases` |
| nesting depth | 500 levels | — | `nesting deeper than 500 levels` |
| problems reported per file | 20 | `--max-problems` | `(more problems were found; fix these first)` |
| game nodes per case | 5,000,000 | `--max-nodes` | `the number of game nodes exceeds the limit of 5000000; raise it with --max-nodes N` |
| size of an exact profile | 2,000,000 pieces | `--max-profile-size` | `an exact privacy profile with 2000001 pieces exceeds the limit of 2000000; raise it with --max-profile-size N` |
| enumerated adversaries | 200,000 | `--max-strategies` | `the number of deterministic adversaries of M (...) exceeds the limit of 200000; ... raise --max-strategies` |
| exponents in numbers | 10,000 (and 1,000,000 bits) | `--max-exponent` | `exponent 99999 is larger than the limit 10000 (raise it with --max-exponent)` |
| wall-clock time per case file | none | `--timeout SECONDS` | `the running time exceeds the limit of 5 s; raise it with --timeout SECONDS` |
"""


def _message(text: str) -> str:
    try:
        parse_case(text, "demo.yaml")
    except CaseError as e:
        return str(e)
    raise AssertionError(f"catalogue example is valid:\n{text}")


def render() -> str:
    out = [
        "# Errors in case files",
        "",
        "Every problem in a case file is reported with the file, the line and column, the place in",
        "the document (`mechanisms.M.tree.ask.q0.yes.p[1]`), what was expected and what was found,",
        "and usually a hint. Several problems are reported at once (up to `--max-problems`).",
        "`exactdp verify` then exits with status 2; no traceback is ever printed for a mistake in a",
        "case file. This page is generated from the reader's real output",
        "(`python -m exactdp.caseio.errorcatalog --write`).",
        "",
    ]
    section = None
    for sec, title, why, text in CATALOGUE:
        if sec != section:
            out += [f"## {sec}", ""]
            section = sec
        out += [f"### {title}", ""]
        if why:
            out += [why, ""]
        out += ["```yaml", text.rstrip("\n") if text else "# (an empty file)", "```", "", "```text", _message(text), "```", ""]
    out.append(_LIMITS)
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        DOC_PATH.write_text(render())
    else:
        sys.stdout.write(render())
