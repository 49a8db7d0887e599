"""exactdp.report.escape: one escaping function per output format, and every output of a case
whose text fields hold control characters (title, reference, mechanism names, labels)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.cli import main
from exactdp.errors import CaseError, CaseProblem
from exactdp.report import escape

from .system_tools import needs

# every kind of character that must never reach an output raw
HOSTILE = "\x1b]0;title\x07\x1b[2J\x1b]52;c;ZXZpbA==\x07\r\n::error::x\t\x00\x7f\x85\x9b\u202e\u2066\u200b\ufeff\u2028"


def raw_controls(s: str, allow: str = "\n") -> list[str]:
    """The unsafe characters of ``s`` (line feeds of the output's own structure allowed)."""
    return [ch for ch in s if escape.is_unsafe_char(ch) and ch not in allow]


# --- the functions ------------------------------------------------------------------------------


def test_text_is_visible_and_one_line():
    out = escape.text("a" + HOSTILE)
    assert raw_controls(out, allow="") == []
    assert "\\x1b]0;title\\x07" in out and "\\n" in out and "\\u202e" in out and "\\x7f" in out and "\\x85" in out


@pytest.mark.parametrize("s", ["::error::pwned", "  ::warning file=a::x", "::set-output name=x::y"])
def test_text_defuses_github_workflow_commands(s):
    out = escape.text(s)
    assert not out.lstrip().startswith("::")
    assert "\\x3a" in out


def test_text_leaves_ordinary_text_alone():
    s = "Vadhan-Wang 2021, Thm 1.8 — ε ≥ 0, x0 → yes, ä"
    assert escape.text(s) == s


def test_error_text_escapes_each_problem_field():
    e = CaseError(
        [CaseProblem("found the scalar 'x\n::error::y\x1b[2J'", "mechanisms.M\x1b", "f\n.yaml", 3, 4, "hint\x07")]
    )
    lines = escape.error_text(e)
    assert len(lines) == 2 and all(raw_controls(l, allow="") == [] for l in lines)
    assert lines[0].startswith("f\\n.yaml:3:4: mechanisms.M\\x1b: found")


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_no_format_lets_an_unsafe_character_through(s):
    for fn in (escape.text, escape.html, escape.dot, escape.csv_field, escape.latex, escape.latex_math, escape.mpl):
        assert raw_controls(fn(s), allow="") == [], fn.__name__
    assert raw_controls(escape.yaml_scalar(s), allow="") == []
    assert raw_controls(escape.json_dumps({"k": s}), allow="\n") == []


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_yaml_scalar_round_trips_with_its_type(s):
    assert yaml.safe_load("v: " + escape.yaml_scalar(s) + "\n") == {"v": s}


@pytest.mark.parametrize(
    "v",
    [
        "Yes",
        "yes",
        "NO",
        "on",
        "Off",
        "y",
        "n",
        "NULL",
        "null",
        "~",
        "true",
        "False",
        "2024-01-01",
        "2024-01-01 10:00:00",
        "0",
        "-1",
        "1e3",
        "0x1F",
        "0o17",
        ".inf",
        "-.INF",
        ".nan",
        "1_000",
        "12:30:45",
        "1/2",
        "-3/4",
        "",
        " a",
        "a ",
        "- a",
        "? x",
        "a: b",
        "#c",
        "&a",
        "*a",
        "!t",
        "%x",
        "@x",
        "`x",
        "'q'",
        '"q"',
        "x\x7f",
        "\x85",
        "\u2028",
        "é",
        "日本",
    ],
)
def test_yaml_scalar_keeps_strings_strings(v):
    assert yaml.safe_load("v: " + escape.yaml_scalar(v)) == {"v": v}


def test_yaml_scalar_non_strings():
    for v in (None, True, False, 0, 12, -3):
        assert yaml.safe_load("v: " + escape.yaml_scalar(v)) == {"v": v}


@given(st.text())
@settings(max_examples=200, deadline=None)
def test_json_dumps_round_trips(s):
    assert json.loads(escape.json_dumps({"k": s, s: [s]})) == {"k": s, s: [s]}


@given(st.lists(st.text(), min_size=1, max_size=5))
@settings(max_examples=200, deadline=None)
def test_csv_row_reads_back_and_defuses_formulas(cells):
    row = escape.csv_row(cells)
    back = next(csv.reader(io.StringIO(row)))
    assert back == [escape.csv_field(c) for c in cells]
    for c in back:
        assert not c.startswith(("=", "+", "-", "@"))


def test_csv_keeps_exact_numbers():
    assert escape.csv_row([("-1/2", False), "=HYPERLINK(1)"]) == "-1/2,'=HYPERLINK(1)"


def test_dot_escapes_quotes_and_backslashes():
    # the text's own backslash before n is doubled by visible (not a newline), then every backslash
    # again for Graphviz: drawn as \\n (the text) next to \x1b (ESC)
    assert escape.dot('a"b\\n\x1b') == 'a\\"b\\\\\\\\n\\\\x1b'


def test_dot_escapes_ampersands_so_entities_are_drawn_as_written():
    assert escape.dot("&lt;b&gt; a&b <i>") == "&amp;lt;b&amp;gt; a&amp;b <i>"


def test_html_escapes_markup():
    assert escape.html("<script>\"&'\x1b") == "&lt;script&gt;&quot;&amp;&#x27;\\x1b"


def test_mpl_escapes_mathtext():
    assert escape.mpl("$x$ costs $5") == r"\$x\$ costs \$5"


LATEX_HOSTILE = "a^b~c_d ä ö ß é ł \\x \\textbackslash $m$ & % # { } < > | \" ' ` -- \x1b\x7f → 日"


@needs("pdflatex")
def test_latex_with_hostile_text_compiles_in_text_and_math_mode(tmp_path):
    s = LATEX_HOSTILE
    body = (
        escape.latex(s)
        + "\n\n$x_{"
        + escape.latex_math(s)
        + "}$ and $\\mathrm{A}"
        + escape.latex_math(s)
        + "$\n\n\\texttt{"
        + escape.latex(s)
        + "}\n"
    )
    (tmp_path / "t.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n" + body + "\\end{document}\n", encoding="utf-8"
    )
    p = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout[-2000:]
    # \texttt's straight quotes are TS1 glyphs (right under OT1 and T1 alike): with the Type 1
    # fonts of cm-super (.ci/run installs them) no bitmap font is drawn; without them TeX draws one
    if subprocess.run(["kpsewhich", "sftt1000.pfb"], capture_output=True, text=True).stdout.strip():
        assert "mktexpk" not in p.stdout + p.stderr


# --- every output of a hostile case -------------------------------------------------------------

HOSTILE_CASE = r"""exactdp: 1
name: hostile
title: "T\e]0;pwned\a\n  ✓ forged\r::error::x\x7f\x85\u202eevil\u2066"
reference: "::error file=x::ref\e[2J\e]52;c;ZXZpbA==\a ^~ä\\ $x$ --"
mechanisms:
  "M\e[31m":
    tree:
      ask:
        "q\n::error::":
          "a\e]52;c;ZXZpbA==\a": [3/4, 1/4]
          "b\x7f^~ä\\ \u202e": [1/4, 3/4]
        "Yes":
          "NULL": [1/2, 1/2]
          "2024-01-01": [1/2, 1/2]
claims:
  - privloss: {of: "M\e[31m", delta: 0, equals: log(3)}
  - not_dp: {of: "M\e[31m", eps: 0, delta: 0}
  - privloss: {of: "M\e[31m", delta: 0, equals: log(2)}
  - simulates_rr: {of: "M\e[31m", eps: log(3)}
"""
MECH = "M\x1b[31m"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("hostile") / "hostile.yaml"
    p.write_text(HOSTILE_CASE, encoding="utf-8")
    return p


def run(*args: str):
    return CliRunner().invoke(main, list(args))


OUTPUTS = [
    ("verify",),
    ("verify", "--json"),
    ("verify", "--witness"),
    ("privloss", "--of", MECH, "--witness", "--delta", "1/10"),
    ("privloss", "--of", MECH, "--json", "--witness"),
    ("profile", "--of", MECH),
    ("profile", "--of", MECH, "--json"),
    ("info", "--of", MECH),
    ("info", "--of", MECH, "--dot", "--witness", "0"),
    ("simulate", "--of", MECH),
    ("simulate", "--of", MECH, "--format", "json"),
    ("simulate", "--of", MECH, "--format", "yaml"),
    ("simulate", "--of", MECH, "--format", "latex", "--standalone"),
    ("simulate", "--of", MECH, "--format", "csv"),
    ("privloss", "--of", "nope\x1b]0;x\x07"),
]


@pytest.mark.parametrize("args", OUTPUTS, ids=lambda a: " ".join(x.replace(MECH, "M") for x in a)[:40])
def test_no_raw_control_character_in_any_output(hostile, args):
    r = run(args[0], str(hostile), *args[1:])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    out = r.output  # stdout and stderr together
    assert out.strip()
    assert raw_controls(out) == [], (args, out[:400])
    for line in out.splitlines():
        assert not line.lstrip().startswith("::"), line


def test_yaml_output_round_trips_labels(hostile):
    r = run("simulate", str(hostile), "--of", MECH, "--format", "yaml")
    d = yaml.safe_load(r.output)
    labels = {row["answer"] for p in d["pairs"] for row in p["table"]}
    assert {"a\x1b]52;c;ZXZpbA==\x07", "b\x7f^~ä\\ \u202e", "NULL", "2024-01-01"} <= labels
    assert d["mechanism"] == MECH


def test_json_output_round_trips_labels(hostile):
    d = json.loads(run("verify", str(hostile), "--json").output)
    assert d["files"][0]["case"]["title"].startswith("T\x1b]0;pwned\x07\n")


def test_csv_output_reads_back(hostile):
    rows = list(csv.reader(io.StringIO(run("simulate", str(hostile), "--of", MECH, "--format", "csv").output)))
    assert rows[0][:6] == ["x", "x_prime", "round", "queries", "answers_so_far", "answer"]
    assert "a\\x1b]52;c;ZXZpbA==\\x07" in {r[5] for r in rows[1:]}


@needs("pdflatex")
def test_latex_of_hostile_labels_compiles(hostile, tmp_path):
    tex = run("simulate", str(hostile), "--of", MECH, "--format", "latex", "--standalone").output
    (tmp_path / "t.tex").write_text(tex, encoding="utf-8")
    p = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout[-2000:]


def test_invalid_case_error_quotes_are_escaped(tmp_path):
    p = tmp_path / "bad.yaml"
    p.write_text(
        'exactdp: 1\nname: bad\nmechanisms:\n  M: {rr: {eps: "log(3)\\e]0;x\\a\\n::error::y"}}\nclaims: []\n',
        encoding="utf-8",
    )
    r = run("verify", str(p))
    assert r.exit_code == 2
    assert raw_controls(r.output) == []
    assert all(not line.lstrip().startswith("::") for line in r.output.splitlines())


def test_csv_is_written_only_through_the_escaper():
    """Every CSV exactdp writes (simulate --format csv, sweep --csv) is composed by
    escape.csv_row, so no cell from a case file can start a spreadsheet formula: no module
    writes CSV with the csv module's writers, which quote but do not neutralise formulas."""
    import re
    from pathlib import Path

    pkg = Path(escape.__file__).resolve().parents[1]
    writers = re.compile(r"\bcsv\.(writer|DictWriter)\b|\bDictWriter\(")
    found = [str(f.relative_to(pkg)) for f in pkg.rglob("*.py") if writers.search(f.read_text(encoding="utf-8"))]
    assert found == []


def _unescape(v: str) -> str:
    """The inverse of escape.visible, written from its rules: a backslash starts \\\\, \\xNN, \\uNNNN,
    \\UNNNNNNNN, \\n, \\r or \\t; any other backslash is itself."""
    out, k = [], 0
    named = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}
    while k < len(v):
        ch, nxt = v[k], v[k + 1 : k + 2]
        width = {"x": 2, "u": 4, "U": 8}.get(nxt, 0) if ch == "\\" else 0
        if ch == "\\" and nxt in named:
            out.append(named[nxt])
            k += 2
        elif width:
            out.append(chr(int(v[k + 2 : k + 2 + width], 16)))
            k += 2 + width
        else:
            out.append(ch)
            k += 1
    return "".join(out)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(["\\", "x", "u", "U", "1", "b", "n", "a", "\x1b", "\n", "\u202e", ":"])))
def test_visible_is_one_to_one(s):
    """Two different texts never print alike: the name \\x1b (four characters) and ESC differ, as
    do a backslash at the end and one before an escape's letter."""
    assert _unescape(escape.visible(s)) == s


def test_csv_cells_of_quote_and_formula_stay_apart():
    assert escape.csv_field("-x") == "'-x" and escape.csv_field("'-x") == "''-x"
    assert escape.visible("\\x1b") != escape.visible("\x1b")


def test_a_long_title_and_reference_are_cut_visibly_in_the_verbose_heading(tmp_path):
    """``verify -v`` prints a case's heading on one line: a 10,000-character title (or reference)
    is cut at 1,000 characters with its full length, escaped like any text from a case file."""
    case = tmp_path / "long.yaml"
    title, ref = "T\x1b" + "t" * 10_000, "R" * 5_000
    body = {"exactdp": 1, "name": "long", "title": title, "reference": ref}
    body |= {"mechanisms": {"M": {"rr": {"eps": "log(2)"}}}, "claims": [{"privloss": {"delta": 0, "equals": "log(2)"}}]}
    case.write_text(yaml.safe_dump(body), encoding="utf-8")
    out = CliRunner().invoke(main, ["verify", "-v", str(case)]).output
    heading = out.splitlines()[0]
    assert "(10002 characters)" in heading and "(5000 characters)" in heading, heading
    assert len(heading) < 2_200 and "\x1b" not in heading


def test_a_backslash_of_the_case_file_is_doubled_once_in_the_text_report(tmp_path):
    r"""docs/reports.md: the four characters ``\x1b`` of a case file print ``\\x1b`` (never like
    ESC), once: in the heading, in a claim's line and in its value, not doubled a second time."""
    case = tmp_path / "bs.yaml"
    body = {"exactdp": 1, "name": "bs", "title": "t\\x1b", "mechanisms": {"M\\x1b": {"rr": {"eps": "log(3)"}}}}
    body["claims"] = [{"dp": {"eps": "log(2)"}}]
    case.write_text(yaml.safe_dump(body), encoding="utf-8")
    out = CliRunner().invoke(main, ["verify", "-v", str(case)]).output
    heading, claim = out.splitlines()[:2]
    assert heading.endswith("bs — t\\\\x1b"), heading
    assert "M\\\\x1b is (log(2), 0)-DP" in claim and "delta_M\\\\x1b(e^eps)" in claim, claim
    assert "\\\\\\" not in out


def test_the_hint_for_a_control_character_can_be_typed_as_printed(tmp_path):
    """exactdp's own hint names YAML escapes that print as they are typed (no backslash doubled)."""
    case = tmp_path / "ctl.yaml"
    case.write_bytes(
        b"exactdp: 1\nname: ctl\ntitle: a\x01b\nmechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: log(3)}\n"
    )
    result = CliRunner().invoke(main, ["verify", str(case)])
    assert result.exit_code == 2
    assert '("\\0" is NUL, "\\a" BEL, "\\e" ESC)' in result.output, result.output


def test_the_net_over_a_report_line_defuses_a_workflow_command_and_keeps_backslashes():
    """safe_line: a line of the text report that starts with ``::`` (a GitHub Actions workflow
    command) gets its first colon escaped; a control character its escape; a backslash stays."""
    assert escape.safe_line("  ::error file=x::boom") == "  \\x3a:error file=x::boom"
    assert escape.safe_line("a\x1bb \\x1b") == "a\\x1bb \\x1b"


def test_a_heading_with_a_control_character_is_escaped_once(tmp_path):
    """A title holding a real ESC and a reference holding the four characters backslash-x-1-b:
    the text and HTML reports show ESC as \\x1b and the typed text as \\\\x1b (docs/reports.md),
    never alike; the whole title was repr-escaped, then escaped again."""
    from click.testing import CliRunner

    from exactdp.cli import main

    case = tmp_path / "t.yaml"
    case.write_text(
        'exactdp: 1\nname: t\ntitle: "T \\e[2J \\\\input"\nreference: "R \\\\x1b[2J"\n'
        "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(3)}}]\n"
    )
    r = CliRunner().invoke(main, ["verify", "-v", str(case)])
    head = r.output.splitlines()[0]
    assert head.endswith("T \\x1b[2J \\input [R \\\\x1b[2J]"), head  # (\\i starts no escape: kept)
    r = CliRunner().invoke(main, ["verify", str(case), "--html", str(tmp_path / "h")])
    page = (tmp_path / "h" / "t.html").read_text(encoding="utf-8")
    assert "<strong>T \\x1b[2J \\input</strong>" in page and "Reference: R \\\\x1b[2J<" in page
