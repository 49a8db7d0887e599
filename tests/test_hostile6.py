"""Hostile input, sixth round: case-file text through every output, file names, and known answers
from other projects' test suites.  Each attack below once reached a terminal raw, wrote a file
that does not open, named the wrong mechanism, or stopped a command with a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
import xml.dom.minidom
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.cli import main
from exactdp.report.escape import latex

from .system_tools import needs

CHECKER = Path(__file__).resolve().parents[1] / "exactdp" / "checker"

NAME = r'"M\e[2J\e]0;owned\a\u202e"'  # ESC [2J (clear), OSC 0 (the window title), BEL, U+202E
CASE = (
    "exactdp: 1\nname: term-inject\nmechanisms:\n  " + NAME + ": {rr: {eps: log(3)}}\nclaims:\n"
    "  - privloss: {delta: 0, equals: log(3)}\n"
    "  - composition: {components: [" + NAME + "], times: 2, theorem: advanced, slack: 1/1000}\n"
)

COMMANDS = [
    ["verify", "-v", "{case}"],
    ["privloss", "{case}", "--witness"],
    ["profile", "{case}"],
    ["profile", "{case}", "--dominating-pair"],
    ["delta", "{case}", "--eps", "0"],
    ["renyi", "{case}", "--alpha", "2", "--witness"],
    ["renyi", "{case}", "--alpha", "3/2"],
    ["tradeoff", "{case}", "--witness"],
    ["zcdp", "{case}", "--rho", "1"],
    ["simulate", "{case}"],
    ["info", "{case}"],
    ["certify", "{case}", "-o", "{out}", "--show-game"],
]


def _raw_controls(s: str) -> list[str]:
    return [hex(ord(c)) for c in s if unicodedata.category(c) in ("Cc", "Cf") and c != "\n"]


@pytest.mark.parametrize("args", COMMANDS, ids=[" ".join(a[:1] + a[2:3]) for a in COMMANDS])
def test_a_mechanism_name_never_reaches_the_terminal_raw(tmp_path, args):
    """renyi, tradeoff, profile --dominating-pair and certify's list of claims without a
    certificate (and its --show-game heading) printed the name with ESC, OSC 0 (the window
    title), BEL and U+202E raw, even into a CI log."""
    case = tmp_path / "c.yaml"
    case.write_text(CASE)
    argv = [a.format(case=case, out=tmp_path / "out") for a in args]
    r = CliRunner().invoke(main, argv)
    assert r.exit_code in (0, 1), r.output
    assert "M\\x1b[2J" in r.output and _raw_controls(r.output) == [], (argv, _raw_controls(r.output))


def test_export_of_a_missing_file_is_a_one_line_error(tmp_path):
    """exactdp export nope.yaml printed a traceback and exit status 3 (an internal error)."""
    r = CliRunner().invoke(main, ["export", str(tmp_path / "nope.yaml"), "--latex", str(tmp_path / "v.tex")])
    assert r.exit_code == 2 and "cannot read the file" in r.output and "Traceback" not in r.output, r.output
    assert not (tmp_path / "v.tex").exists()


@pytest.mark.skipif(os.name != "posix", reason="file names of raw bytes are a POSIX matter")
def test_a_case_file_whose_name_is_not_utf8_gets_its_certificates(tmp_path):
    """A file named with byte 0xFF: certify stopped with an internal error (exit 3; the name went
    into the certificate's JSON as a lone surrogate, which UTF-8 cannot write)."""
    body = "exactdp: 1\nname: fn\nmechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n  - privloss: {delta: 0, equals: log(3)}\n"
    folder = tmp_path / "cases"
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b"h\xff.yaml"), "w") as f:
        f.write(body)
    r = CliRunner().invoke(main, ["certify", str(folder), "-o", str(tmp_path / "out"), "--check"])
    assert r.exit_code == 0 and "all 1 certificate(s) accepted" in r.output, r.output
    (cert,) = (tmp_path / "out").rglob("*.json")
    assert '"file":"h\\\\xff.yaml"' in cert.read_text()


PLACEHOLDERS = """\
exactdp: 1
name: placeholder-m
mechanisms:
  M: {rr: {eps: log(4)}}
  N: {rr: {eps: log(9)}}
  A: {rr: {eps: log(2)}}
claims:
  - privloss: {of: A, delta: 0, equals: log(2)}
  - profile_le: {of: A, than: M}
  - fdp: {of: A, f: N}
"""


def test_a_claims_value_is_described_with_its_own_mechanisms():
    """The HTML report said "PrivLoss(M, delta): log(2)" for a claim about A, in a case whose own
    M has PrivLoss log(4); a profile comparison of A with M read "delta_M - delta_N"."""
    from exactdp.verify import verify_text

    fr = verify_text(PLACEHOLDERS)
    docs = [v.claim.shown().doc for v in fr.verdicts]
    assert docs[0] == "PrivLoss(A, delta)"
    assert docs[1].startswith("max over eps >= 0 of delta_A(e^eps) - delta_M(e^eps)")
    assert docs[2] == "min over alpha of T(A)(alpha) - T(N)(alpha) (>= 0 when A is T(N)-DP)"


def test_a_name_starting_with_an_underscore_keeps_its_legend_entry():
    """matplotlib leaves a label starting with "_" out of the legend: mechanisms _weak and
    _strong were drawn without one."""
    from exactdp.report.escape import mpl

    assert mpl("_weak") == " _weak" and mpl("M") == "M"


@needs("dot")
def test_a_noncharacter_in_a_label_leaves_the_svg_valid_xml(tmp_path):
    """U+FFFE, U+FFFF and U+FDD0 in labels made info --svg write an SVG that is not XML (a
    browser shows an error page instead of the drawing)."""
    case = tmp_path / "n.yaml"
    case.write_text(
        'exactdp: 1\nname: nonchar\nmechanisms:\n  "M\\uFFFF":\n    ask:\n'
        '      "q\\uFFFE": {"a\\uFDD0": [3/4, 1/4], b: [1/4, 3/4]}\nclaims:\n  - not_dp: {eps: log(2)}\n'
    )
    r = CliRunner().invoke(main, ["info", str(case), "--svg", str(tmp_path / "n.svg")])
    assert r.exit_code == 0, r.output
    xml.dom.minidom.parse(str(tmp_path / "n.svg"))


@needs("pdflatex")
def test_every_latin_letter_of_a_label_compiles_with_the_documented_preamble(tmp_path):
    """Þ, ð, Ę, Ħ, ſ, ... stopped pdflatex under the default font encoding (OT1) that the
    documented preamble keeps; each is written [U+00DE] now, the others typeset as letters."""
    from .test_latex import _compile

    letters = "".join(chr(n) for n in range(0xC0, 0x180))
    doc = "\\documentclass{article}\\usepackage{amsmath,booktabs,longtable}\\begin{document}"
    _compile(doc + latex(letters) + "\\end{document}\n", tmp_path)
    assert "[U+00DE]" in latex("Þ") and latex("ä") == "ä"


@pytest.mark.parametrize("as_json", [False, True])
def test_two_names_that_print_alike_are_one_name(tmp_path, as_json):
    """Mechanisms "é" (U+00E9) and "é" (e + U+0301) were two mechanisms, printed alike: the
    report said both PrivLoss(é, 0) = log(3) and PrivLoss(é, 0) = inf.  Keys equal in Unicode's
    NFC form are duplicate keys, also among the answers of a tree read by the fast JSON road."""
    import json

    if as_json:
        tree = {"ask": {"q": {"\u00e9": ["3/4", "1/4"], "e\u0301": ["1/4", "3/4"]}}}
        doc = {
            "exactdp": 1,
            "name": "j",
            "mechanisms": {"M": {"tree": tree}},
            "claims": [{"not_dp": {"eps": "log(2)"}}],
        }
        text = json.dumps(doc)
    else:
        text = (
            'exactdp: 1\nname: dup\nmechanisms:\n  "\\u00e9": {rr: {eps: log(3)}}\n'
            '  "e\\u0301": {respond: {a: [1, 0], b: [0, 1]}}\nclaims:\n  - privloss: {of: "\\u00e9", delta: 0, equals: log(3)}\n'
        )
    (tmp_path / "c.yaml").write_text(text)
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "c.yaml")])
    assert r.exit_code == 2 and "the same in Unicode's NFC form" in r.output, r.output


def test_two_adjacent_pairs_never_share_a_table_label(tmp_path):
    """Dataset names a and a' both reduce to the key "a": simulate --format latex gave the pairs
    (a, b) and (a', b) the same \\label, so \\ref pointed at the wrong table."""
    case = (
        'exactdp: 1\nname: lc\ndatasets: [a, "a\'", b]\nadjacent: [[a, b], ["a\'", b]]\n'
        'mechanisms:\n  M: {respond: {"0": [3/4, 2/3, 1/4], "1": [1/4, 1/3, 3/4]}}\nclaims:\n  - simulates_rr: {eps: log(3)}\n'
    )
    import re

    (tmp_path / "c.yaml").write_text(case)
    r = CliRunner().invoke(main, ["simulate", str(tmp_path / "c.yaml"), "--format", "latex"])
    labels = re.findall(r"\\label\{([^}]*)\}", r.output)
    assert r.exit_code == 0 and labels == ["tab:T-M-a-b", "tab:T-M-a-b-2"], (labels, r.output[-500:])


@needs("dot")
def test_the_figures_of_one_page_never_share_an_element_id(tmp_path):
    """Two inline plots (the profile and a composition) repeated matplotlib's element ids on one
    page (an invalid HTML document), among them the shipped Theorem 1.8 case."""
    import re
    from collections import Counter

    pytest.importorskip("matplotlib")
    case = "cases/vadhan-wang/thm-1-8-approx-concurrent.yaml"
    r = CliRunner().invoke(main, ["verify", case, "--html", str(tmp_path / "h"), "-q"])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "h" / "thm-1-8-approx-concurrent.html").read_text()
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert ids and max(ids.values()) == 1, [k for k, v in ids.items() if v > 1][:5]
    refs = {a or b for a, b in re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"', page)}
    assert refs and refs <= set(ids), sorted(refs - set(ids))[:5]


FORGED = """\
exactdp: 1
name: forged-vs-real
mechanisms:
  Forged:
    ask:
      q:
        "0, strong→1": [3/4, 1/4]
        "1": [1/4, 3/4]
  Real:
    ask:
      q:
        "0": {p: [3/4, 1/4], then: {ask: {strong: {"1": [1, 1]}}}}
        "1": [1/4, 3/4]
claims:
  - not_dp: {of: Forged, eps: log(2)}
  - not_dp: {of: Real, eps: log(2)}
"""


def test_a_label_holding_the_witness_notation_cannot_forge_another_view(tmp_path):
    """A one-round view answered "0, strong→1" printed exactly like the two-round view q→0,
    strong→1 (text and --json); it is quoted now, and so is a blank label."""
    import json

    (tmp_path / "f.yaml").write_text(FORGED)
    r = CliRunner().invoke(main, ["verify", "--json", str(tmp_path / "f.yaml")])
    claims = json.loads(r.output)["files"][0]["claims"]
    views = [[e["view"] for e in c["witness"]["event"]] for c in claims]
    assert views == [['q→"0, strong→1"'], ["q→0, strong→1"]], views


def test_a_raw_control_character_is_located_and_long_keys_and_ascii_rules_are_said(tmp_path):
    """A raw ESC in a comment was "position 138" with no line or column; 'été' was refused as
    not "letters"; a 1,025-character key read as a misplaced colon with no word of YAML's limit."""
    head = "exactdp: 1\nname: m\nmechanisms:\n"
    cases = {
        "esc.yaml": (head + "  M: {rr: {eps: log(3)}}\n# a raw \x1b here\nclaims: [{dp: {eps: log(3)}}]\n", ":5:9:"),
        "ds.yaml": ("exactdp: 1\nname: d\ndatasets: [été, hiver]\n", "ASCII letters"),
        "key.yaml": (head + "  " + "M" * 1025 + ": {rr: {eps: log(3)}}\n", "at most 1024 characters"),
    }
    for name, (text, said) in cases.items():
        (tmp_path / name).write_text(text)
        r = CliRunner().invoke(main, ["verify", str(tmp_path / name)])
        assert r.exit_code == 2 and said in r.output and "<unicode string>" not in r.output, r.output


def test_the_field_degree_is_a_limit_with_its_option():
    """The degree limit of Q(e^(1/L)) was a constant (4000) no option raised, against the rule
    that every limit names the option that raises it: a 20-fold discrete Laplace at eps 0.073
    beside eps 1 (from dp_accounting's noise-calibration tests) needs degree 4020."""
    from fractions import Fraction

    from exactdp import limits
    from exactdp.errors import FieldDegreeLimit, InexactValueError, LimitExceededError
    from exactdp.numbers.qt import qt_exp

    with pytest.raises(FieldDegreeLimit, match="--max-field-degree") as e:
        qt_exp(1, Fraction(4001, 1000))
    assert isinstance(e.value, LimitExceededError) and isinstance(e.value, InexactValueError)
    with limits.using(limits.Limits(max_field_degree=5000)):
        assert qt_exp(1, Fraction(4001, 1000)) is not None


def test_delta_below_eps_zero_is_the_hockey_stick_divergence_there(tmp_path):
    """dp_accounting's privacy-loss distribution tests ask the hockey-stick divergence at
    e^eps < 1 (test_hockey_stick_basic); eps below 0 was refused.  For RR with e^eps = 3 (P =
    (3/4, 1/4), P' = (1/4, 3/4)): delta(1/2) = (3/4 - 1/8) + (1/4 - 3/8)_+ = 5/8 and delta(1/3) =
    (3/4 - 1/12) + 0 = 2/3; both engines agree, and the certificates are accepted."""
    case = tmp_path / "n.yaml"
    case.write_text(
        "exactdp: 1\nname: n\nmechanisms:\n  R: {rr: {eps: log(3)}}\nclaims:\n"
        "  - delta: {of: R, eps: log(1/3), equals: 2/3}\n  - delta: {of: R, eps: log(1/2), equals: 5/8}\n"
        "  - delta: {of: R, eps: log(1/2), equals: 1/2}\n"
    )
    for engine in ("profile", "enumerator"):
        r = CliRunner().invoke(main, ["verify", "--engine", engine, str(case)])
        assert r.exit_code == 1 and "2 hold, 1 fail" in r.output, r.output
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "c"), "--check"])
    assert "all 3 certificate(s) accepted" in r.output, r.output
    r = CliRunner().invoke(main, ["delta", str(case), "--eps", "log(1/2)"])
    assert r.exit_code == 0 and "= 5/8" in r.output, r.output


def test_e_is_written_exp_1_never_as_the_usual_symbol_name():
    """rho: (exp(1) - 1)/(exp(1) + 1) was echoed "(-1 + E)/(1 + E)-zCDP": E is the name case
    files give their symbol (e^eps), so the claim read as one about a symbol."""
    from exactdp.numbers.symbolic import expr_str, sympy

    assert expr_str((sympy.E - 1) / (sympy.E + 1)) == "(-1 + exp(1))/(1 + exp(1))"
    assert expr_str(sympy.Symbol("E") + 1) == "E + 1"


def test_a_renyi_value_over_a_decimal_eps_is_written_as_exactdp_prints_it(tmp_path):
    """D_2 of RR_1 is log((e^2 + e^-1)/(1 + e)) (autodp's RDP_pureDP at eps = 1), which exactdp
    prints; a renyi claim refused that value although privloss claims accept such logarithms.  By
    hand, S_2 = p^2/p' + p'^2/p with p = e/(1 + e), p' = 1/(1 + e): (e^3 + 1)/(e (1 + e))."""
    case = tmp_path / "r.yaml"
    case.write_text(
        "exactdp: 1\nname: r\nmechanisms:\n  R: {rr: {eps: 1}}\nclaims:\n"
        "  - renyi: {of: R, alpha: 2, equals: log((exp(2) + exp(-1))/(1 + exp(1)))}\n"
        "  - renyi: {of: R, alpha: 3, equals: log((exp(3) + exp(-2))/(1 + exp(1)))/2}\n"
        "  - renyi: {of: R, alpha: 2, exceeds: log((exp(2) + exp(-1))/(1 + exp(1))) - 1/1000}\n"
        "  - renyi: {of: R, alpha: 2, equals: log(exp(3) + 1) - 1 - log(1 + exp(1)) + 1/1000}\n"
    )
    r = CliRunner().invoke(main, ["verify", str(case)])
    assert r.exit_code == 1 and "3 hold, 1 fail" in r.output, r.output


def test_names_that_differ_only_by_case_stay_apart_where_file_names_ignore_case(tmp_path):
    """A.yaml and a.yaml got the folders A/ and a/ (certify) and the pages A.html and a.html, one
    and the same file on macOS or Windows: the later replaced the earlier there."""
    body = "exactdp: 1\nname: {}\nmechanisms:\n  M: {{rr: {{eps: log(3)}}}}\nclaims:\n  - dp: {{eps: log(3)}}\n"
    (tmp_path / "c").mkdir()
    for n in ("A", "a"):
        (tmp_path / "c" / f"{n}.yaml").write_text(body.format(n.lower() + ("1" if n == "A" else "2")))
    r = CliRunner().invoke(main, ["certify", str(tmp_path / "c"), "-o", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    folders = sorted(p.name.casefold() for p in (tmp_path / "out").iterdir() if p.is_dir())
    assert len(folders) == 2 and len(set(folders)) == 2, folders
    from exactdp.report.html import page_name

    used: set[str] = set()
    names = [page_name(f, used) for f in ("A.yaml", "a.yaml", "INDEX.yaml")]
    assert len({n.casefold() for n in names}) == 3 and "index.html" not in {n.casefold() for n in names}, names


def test_a_conversion_at_a_delta_of_e_to_a_power(tmp_path):
    """Tumult Core's TestRhoZCDPToApproxDP states conversions at delta = e^-1, e^-4, ...: a
    conversion's delta was refused unless rational.  RR with e^eps = 3 at delta = e^-1: delta(l) =
    (3 - l)/4 gives PrivLoss = log(3 - 4/e); renyi-to-dp adds log(e)/(2 - 1) = 1 to D_2 = log(7/3);
    zcdp-to-dp at rho = 1 gives 1 + 2 sqrt(1) = 3.  No certificate: the checker's conversion bounds
    take logarithms of rationals (listed with that reason)."""
    case = tmp_path / "c.yaml"
    case.write_text(
        "exactdp: 1\nname: c\nmechanisms:\n  R: {rr: {eps: log(3)}}\nclaims:\n"
        "  - conversion: {of: R, theorem: renyi-to-dp, alpha: 2, delta: exp(-1)}\n"
        "  - conversion: {of: R, theorem: zcdp-to-dp, rho: 1, delta: exp(-1)}\n"
    )
    r = CliRunner().invoke(main, ["verify", "-v", str(case)])
    assert r.exit_code == 0 and "-1 + log(3*exp(1) - 4)" in r.output and "1 + log(7/3)" in r.output, r.output
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "out"), "--check"])
    assert r.exit_code == 0 and "lies in Q(e^(1/L))" in r.output, r.output
    r = CliRunner().invoke(
        main, ["convert", str(case), "--of", "R", "--theorem", "zcdp-to-dp", "--rho", "1", "--delta", "exp(-1)"]
    )
    assert r.exit_code == 0 and "holds" in r.output, r.output


def test_a_field_beyond_the_checkers_degree_is_not_certified_and_not_checked(tmp_path):
    """Probabilities in Q(e^(1/10^20)) (from Google's C++ partition-selection test at eps = 1e-20)
    got certificates the checker called MALFORMED (certify --check: exit 3, a bug); certify lists
    them with the reason now, and the checker says NOT CHECKED (a limit) for such a field, also for
    a 5,000-digit L that Python refuses to convert (it was an internal error)."""
    import json

    from exactdp import checker

    case = tmp_path / "t.yaml"
    case.write_text(
        "exactdp: 1\nname: t\nparams:\n  t: exp(1e-20)\nmechanisms:\n  M:\n    respond:\n"
        "      keep: [0, (t - 1)/(t^2 - 1)]\n      drop: [1, 1 - (t - 1)/(t^2 - 1)]\nclaims:\n"
        "  - dp: {eps: 0, delta: 0.51}\n"
    )
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "out"), "--check"])
    assert r.exit_code == 0 and "beyond the checker's default --max-degree" in r.output, r.output
    case.write_text("exactdp: 1\nname: t\nmechanism: {rr: {eps: 1e-5000}}\nclaims:\n  - dp: {eps: 1, delta: 0}\n")
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "out2")])  # (L has 5,001 digits)
    assert r.exit_code == 0 and "(5001 digits))) is beyond the checker's default --max-degree" in r.output, r.output
    game = {"datasets": ["a", "b"], "pairs": [["a", "b"], ["b", "a"]], "root": 0, "nodes": [{"id": 0, "end": True}]}
    claim = {"kind": "delta", "of": "M", "exp_eps": "1", "equals": "0"}
    for L in ("100000000000000000000", "9" * 5000):
        cert = {"format": "exactdp-certificate", "version": 2, "field": f"exp(1/{L})", "games": {"M": game}}
        with pytest.raises(checker.TooLarge, match="--max-degree"):
            checker.check_certificate({**cert, "claim": claim, "verdict": "holds", "proof": {}})
    (tmp_path / "c.json").write_text(json.dumps({**cert, "claim": claim, "verdict": "holds", "proof": {}}))
    out = subprocess.run(
        [sys.executable, "-I", "-S", str(CHECKER), str(tmp_path / "c.json")], capture_output=True, text=True
    )
    assert out.returncode == 2 and "1 not checked" in out.stdout and "0 malformed" in out.stdout, out.stdout


def test_a_tiny_decimal_delta_is_echoed_as_it_was_written():
    """delta: 1e-200 was echoed as a 201-digit fraction in the claim's statement."""
    from exactdp.verify import verify_text

    fr = verify_text(
        "exactdp: 1\nname: d\nmechanism: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: log(3), delta: 1e-200}\n"
    )
    assert fr.verdicts[0].claim.statement() == "M is (log(3), 1e-200)-DP"
    fr = verify_text(
        "exactdp: 1\nname: d\nmechanism: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: log(3), delta: 1e-5000}\n"
    )
    assert fr.verdicts[0].claim.statement() == "M is (log(3), 1e-5000)-DP"  # (5,001 digits: no str() of them)


@pytest.mark.parametrize(
    "labels, apart",
    [
        (("x\\\\ty", "x\\ty"), ('"x\\\\ty"', '"x\\ty"')),  # a backslash and t, and a tab
        (("a: choose b", "a"), ('"a: choose b"', "a")),  # the strategy's own words
    ],
)
def test_labels_that_printed_alike_in_a_witness_print_apart(labels, apart):
    """A tab printed as the escape \\t, exactly like the label written backslash-t; a label with
    ": choose " forged another strategy line.  Both are quoted now (JSON's escapes)."""
    from exactdp.analysis.witness import show_label

    assert tuple(show_label(x.encode().decode("unicode_escape")) for x in labels) == apart


def test_a_certificate_view_writes_the_arrow_latex_can_typeset():
    """The views of a certificate's appendix wrote q→a's arrow as [U+2192]."""
    assert latex("q→a") == "q$\\rightarrow$a"
