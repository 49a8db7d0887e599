"""exactdp export CASE --latex FILE (exactdp.report.latexvalues): stable, letters-only macro names,
exact values typeset from exactdp's number grammar with certified decimals, a file that compiles
under pdflatex with amsmath (skipped visibly without pdflatex), and hostile case-file text that
stays inside comments."""

from __future__ import annotations

import re
import subprocess
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from click.testing import CliRunner
from hypothesis import example, given
from hypothesis import strategies as st

from exactdp.claims import CLAIMS
from exactdp.cli import main
from exactdp.numbers import ladder
from exactdp.numbers.expr import eval_text
from exactdp.report.latexvalues import (
    MacroError,
    camel,
    claim_part,
    decimal_latex,
    expr_latex,
    macro_prefix,
    number_words,
)

from .system_tools import needs

ROOT = Path(__file__).resolve().parents[1]
RR = """\
exactdp: 1
name: rr-demo
mechanisms:
  M: {rr: {eps: log(3)}}
  R: {rr: {eps: log(3), delta: 1/10}}
claims:
  - privloss: {delta: 0, equals: log(3), name: rr-loss}
  - privloss: {of: R, delta: 1/5, equals: log(23/9)}
  - not_dp: {eps: log(2), delta: 0}
"""
# a library subset covering the claim kinds with values: rationals, logs, field elements
# (decimal eps), Renyi (log(r)/k), f-DP, bounded range, Theorem 1.10, composition
LIBRARY = [
    "cases/vadhan-wang/figure1-two-round.yaml",
    "cases/vadhan-wang/thm110-figure1.yaml",
    "cases/kov/staircase-decimal.yaml",
    "cases/renyi/rr-renyi.yaml",
    "cases/fdp/rr-tradeoff.yaml",
    "cases/exponential/br-mixture.yaml",
    "cases/vadhan-wang/thm-1-8-approx-concurrent.yaml",
]
MACRO_LINE = re.compile(r"^\\newcommand\{\\[A-Za-z]+\}\{\\ensuremath\{.*\}\} % [a-z_]+( \(decimal\))?$")


def export(tmp_path: Path, case_text: str, *args: str, name: str = "case.yaml"):
    case = tmp_path / name
    case.write_text(case_text, encoding="utf-8")
    out = tmp_path / "values.tex"
    r = CliRunner().invoke(main, ["export", str(case), "--latex", str(out), *args])
    return r, out


def macros(tex: str) -> dict[str, str]:
    return dict(re.findall(r"^\\newcommand\{\\([A-Za-z]+)\}\{(.*)\} % ", tex, re.M))


def compile_using(tmp_path: Path, files: list[Path]) -> str:
    """A document that inputs ``files`` and uses every macro in math and in text mode."""
    names = [n for f in files for n in macros(f.read_text(encoding="utf-8"))]
    body = "\n\n".join(f"{n}: $x = \\{n}$ and \\{n}{{}} in text." for n in names)
    inputs = "\n".join(f"\\input{{{f.name}}}" for f in files)
    doc = tmp_path / "paper.tex"
    doc.write_text(
        f"\\documentclass{{article}}\n\\usepackage{{amsmath}}\n{inputs}\n\\begin{{document}}\n{body}\n\\end{{document}}\n"
    )
    p = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", doc.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout[-3000:]
    return p.stdout


def test_every_claim_kind_declares_what_it_exports():
    """What a claim exports is what its kind declares it shows (one declaration: the sweep
    table, the CSV and the macros agree), so a new claim kind cannot be forgotten.  A kind may
    declare that it shows no value (an empty fact, with a doc saying why: zcdp is decided by
    certified enclosures of D_alpha/alpha, no exact number, and exports nothing; calibrate answers
    with a set of values of a symbol, exported as the set and its ends)."""
    assert [k for k, cls in CLAIMS.items() if not cls.shows.fact and not cls.shows.doc] == []
    assert sorted(k for k, cls in CLAIMS.items() if not cls.shows.fact) == ["calibrate", "not_zcdp", "zcdp"]


GDP = """\
exactdp: 1
name: gdp-demo
mechanisms:
  M: {rr: {eps: log(3)}}
claims:
  - gdp: {mu: 1.4, name: rr-gdp}
  - not_gdp: {mu: 1.3}
"""


def test_gdp_claims_export_the_least_mu(tmp_path):
    """A gdp claim exports its declared value, the least mu with M mu-GDP (it exported nothing).
    RR_(log 3)'s trade-off function has the one vertex (1/4, 1/4), and G_mu(1/4) <= 1/4 iff
    mu >= 2 Phi^-1(3/4) (Dong-Roth-Su 2022, Def. 2.6), 1.3489795003921634...: transcendental, so
    both macros give the decimal that the whole certified enclosure rounds to."""
    from statistics import NormalDist

    r, out = export(tmp_path, GDP)
    assert r.exit_code == 0, r.output
    m = macros(out.read_text())
    mu_star = 2 * NormalDist().inv_cdf(3 / 4)
    assert m["exactdpGdpDemoRrGdp"] == m["exactdpGdpDemoRrGdpDecimal"] == r"\ensuremath{1.34898}"
    assert abs(float(m["exactdpGdpDemoClaimTwoDecimal"][len("\\ensuremath{") : -1]) - mu_star) < 1e-5
    assert "% mu_star" in out.read_text()


def test_the_documented_names(tmp_path):
    r, out = export(tmp_path, RR)
    assert r.exit_code == 0, r.output
    m = macros(out.read_text())
    assert m["exactdpRrDemoRrLoss"] == r"\ensuremath{\log 3}"
    assert m["exactdpRrDemoRrLossDecimal"] == r"\ensuremath{1.09861}"
    assert m["exactdpRrDemoRrLossExpPrivloss"] == r"\ensuremath{3}"
    assert m["exactdpRrDemoClaimTwo"] == r"\ensuremath{\log \frac{23}{9}}"  # Vadhan-Wang 2021 Def. 5.1
    assert m["exactdpRrDemoClaimTwoExpPrivlossDecimal"] == r"\ensuremath{2.55556}"
    assert m["exactdpRrDemoClaimThree"] == r"\ensuremath{\frac{1}{4}}"  # delta_M(2) of RR_(log 3)
    r, out = export(tmp_path, RR, "--prefix", "vw", "--digits", "3")
    assert macros(out.read_text())["vwRrLossDecimal"] == r"\ensuremath{1.1}"


def test_names_are_stable_when_claims_are_added_before_a_named_one(tmp_path):
    _r, before = export(tmp_path, RR)
    first = macros(before.read_text())["exactdpRrDemoRrLoss"]
    more = RR.replace("claims:\n", "claims:\n  - dp: {eps: log(3), delta: 0}\n")
    _r, after = export(tmp_path, more)
    m = macros(after.read_text())
    assert m["exactdpRrDemoRrLoss"] == first and "exactdpRrDemoClaimOne" in m  # the new claim is ClaimOne


@given(st.integers(0, 10**7))
def test_number_words_are_letters(n):
    assert re.fullmatch(r"[A-Za-z]+", number_words(n))


def test_number_words_are_distinct():
    words = [number_words(n) for n in range(0, 3000)]
    assert len(set(words)) == len(words)


@given(st.text(max_size=30))
def test_camel_is_letters_only(text):
    assert re.fullmatch(r"[A-Za-z]*", camel(text))


def test_bad_prefix_and_empty_names():
    with pytest.raises(MacroError, match="letters only"):
        macro_prefix("x", "my_prefix1")
    with pytest.raises(MacroError, match="no letter or digit"):
        claim_part(2, "---")


def test_two_claims_with_the_same_macros_are_an_error(tmp_path):
    text = RR.replace("{of: R, delta: 1/5, equals: log(23/9)}", "{of: R, delta: 1/5, equals: log(23/9), name: rr_loss}")
    r, out = export(tmp_path, text)
    assert r.exit_code == 2 and "claims 1 and 2 both give the macro \\exactdpRrDemoRrLoss" in r.output
    assert not out.exists()


def test_a_failing_claim_is_exported_as_found_with_exit_1(tmp_path):
    r, out = export(tmp_path, RR.replace("equals: log(23/9)", "equals: log(2)"))
    assert r.exit_code == 1 and "claim 2" in r.output
    tex = out.read_text()
    assert "does not hold (the value found is exported)" in tex
    assert macros(tex)["exactdpRrDemoClaimTwo"] == r"\ensuremath{\log \frac{23}{9}}"


def test_an_invalid_case_writes_nothing(tmp_path):
    r, out = export(tmp_path, RR.replace("delta: 0, equals", "delta: -1, equals"))
    assert r.exit_code == 2 and "case.yaml" in r.output and not out.exists()


@pytest.mark.parametrize(
    "text, tex",
    [
        ("log(3)", r"\log 3"),
        ("log(61/9)/2", r"\frac{\log \frac{61}{9}}{2}"),
        ("inf", r"\infty"),
        ("-1/2", r"-\frac{1}{2}"),
        ("2*log(3) - log(2)", r"2\,\log 3 - \log 2"),
        ("log(2*exp(1/10) - 1)", r"\log\left(2\,e^{\frac{1}{10}} - 1\right)"),
        ("(1 + 2)^3", r"{\left(1 + 2\right)}^{3}"),
        ("1 - (2 - 3)", r"1 - \left(2 - 3\right)"),
    ],
)
def test_expr_latex(text, tex):
    assert expr_latex(text) == tex


@given(st.fractions(min_value=1, max_value=10**6).filter(lambda q: q != 1), st.integers(1, 20))
@example(Fraction(277694921878779153553684690088, 277694921878779140164635449817), 20)
def test_decimals_are_certified(q, digits):
    """The decimal of log(q) agrees with a 60-digit evaluation to the digits shown (for q near
    1, log q is tiny and a ball of fixed precision has few correct digits: it is refined)."""
    text = ladder.text(eval_text(f"log({q.numerator}/{q.denominator})"))
    shown = decimal_latex(text, digits)
    with mpmath.workdps(60):
        ref = mpmath.log(mpmath.mpf(q.numerator) / q.denominator)
        assert abs(mpmath.mpf(shown.replace(r"\times 10^{", "e").rstrip("}")) - ref) <= abs(ref) * 10 ** (1 - digits)


def _hostile_export(tmp_path):
    hostile = "M}\\\\def\\\\x{\\\\input{/etc/passwd}}%\\n\\\\newcommand\\\\boom{}"  # YAML double-quoted
    text = (
        "exactdp: 1\n"
        "name: hostile-case\n"
        f'title: "{hostile}"\n'
        "mechanisms:\n"
        f'  "{hostile}": {{rr: {{eps: log(3)}}}}\n'
        "claims:\n"
        f'  - privloss: {{of: "{hostile}", delta: 0, equals: log(3), name: "x}}\\\\y\\n%z"}}\n'
    )
    r, out = export(tmp_path, text, name="ev}il%.yaml")
    assert r.exit_code == 0, r.output
    return out


def test_hostile_text_stays_in_comments(tmp_path):
    tex = _hostile_export(tmp_path).read_text()
    assert "\\input{/etc/passwd}" in tex  # shown, in a comment
    for line in tex.splitlines():
        assert line.startswith("%") or MACRO_LINE.match(line), line
    assert "exactdpHostileCaseXYZ" in macros(tex)  # the line break in the name separates words


@needs("pdflatex")
def test_hostile_text_compiles(tmp_path):
    compile_using(tmp_path, [_hostile_export(tmp_path)])


@needs("pdflatex")
def test_the_library_exports_compile(tmp_path):
    files = []
    for k, case in enumerate(LIBRARY):
        out = tmp_path / f"values{k}.tex"
        r = CliRunner().invoke(main, ["export", str(ROOT / case), "--latex", str(out)])
        assert r.exit_code == 0, (case, r.output)
        files.append(out)
    log = compile_using(tmp_path, files)
    assert "Output written" in log
    total = sum(len(macros(f.read_text())) for f in files)
    assert total >= 60


# --- claims with symbols ----------------------------------------------------------------------

BREAK = """\
exactdp: 1
name: sym-export
reference: Vadhan-Wang 2021, Fig. 1 (a Figure 1 mechanism with a parameter p)
symbols:
  p: {gt: 0, lt: 1}
mechanisms:
  M:
    tree:
      respond:
        c0: {p: [1/2, 1/2], then: {ask: {A: &a {0: [3/4, 1/4], 1: [1/4, 3/4]}, B: &b {0: [p, 1 - p], 1: [1 - p, p]}}}}
        c1: {p: [1/2, 1/2], then: {ask: {A: *b, B: *a}}}
claims:
  - privloss: {delta: 0, at_most: log(100)}
  - delta: {eps: 0, equals: 1/2, name: half}
  - calibrate:
      target: {privloss: {delta: 0, at_most: log(4)}}
      holds_for: [{ge: 1/5, le: 4/5}]
"""


def test_a_claim_with_symbols_exports_its_closed_form(tmp_path):
    """PrivLoss(M, 0) of the two-round mechanism is log((1-p)/p) for p <= 1/4, log 3 between,
    log(p/(1-p)) from 3/4: the worst adversary asks the query whose answer is most telling,
    A (ratio 3) or B (ratio (1-p)/p).  The claim fails near 0 and 1 (the verdict splits those
    pieces), but the exported closed form has one row per formula; no decimal macro, since the
    value depends on p."""
    r, out = export(tmp_path, BREAK)
    assert r.exit_code == 1, r.output  # claims 1 and 2 fail near the ends
    m = macros(out.read_text())
    loss = m["exactdpSymExportClaimOne"]
    assert loss.count("&") == 3 and loss.count(r"\log") == 3
    assert r"\log\left(3\right) & \text{if } \frac{1}{4} < p \le \frac{3}{4}" in loss
    assert "exactdpSymExportClaimOneDecimal" not in m
    half = m["exactdpSymExportHalf"]
    assert r"1 - 2 p & \text{if } 0 < p" in half and r"2 p - 1 & \text{if } \frac{3}{4} < p < 1" in half


def test_calibration_exports_the_set_and_its_ends(tmp_path):
    """PrivLoss(M, 0) <= log 4 exactly where (1-p)/p <= 4 and p/(1-p) <= 4: 1/5 <= p <= 4/5."""
    r, out = export(tmp_path, BREAK)
    m = macros(out.read_text())
    assert m["exactdpSymExportClaimThree"] == r"\ensuremath{\frac{1}{5} \le p \le \frac{4}{5}}"
    assert m["exactdpSymExportClaimThreeLo"] == r"\ensuremath{\frac{1}{5}}"
    assert m["exactdpSymExportClaimThreeHiDecimal"] == r"\ensuremath{0.8}"


def test_an_algebraic_calibrated_end_is_exported_with_a_certified_decimal(tmp_path):
    """RR_E (x) RR_E is (log 2, 1/10)-DP exactly for 1 < E <= (1 + sqrt(190))/9 (the root of
    9E^2 - 2E - 21, cases/parametric/calibrate-rr2.yaml); its decimal is checked here with
    integer square roots, independently of the exporter."""
    from math import isqrt

    case = (ROOT / "cases/parametric/calibrate-rr2.yaml").read_text()
    r, out = export(tmp_path, case, "--digits", "12")
    m = macros(out.read_text())
    hi = [v for k, v in m.items() if k.endswith("ClaimOneHi")][0]
    assert hi == r"\ensuremath{\frac{1 + \sqrt{190}}{9}}"
    dec = [v for k, v in m.items() if k.endswith("ClaimOneHiDecimal")][0]
    scale = 10**11  # 12 significant digits of a number in [1, 10)
    root = isqrt(190 * scale * scale)  # floor(sqrt(190) * 10^11)
    digits = (scale + root + 4) // 9  # (1 + sqrt(190))/9 * 10^11, rounded half up
    assert dec == r"\ensuremath{" + f"{digits // scale}.{digits % scale:011d}" + "}"


@needs("pdflatex")
def test_symbolic_exports_compile(tmp_path):
    r, out = export(tmp_path, BREAK)
    files = [out]
    for k, case in enumerate(["cases/parametric/kfold-rr.yaml", "cases/parametric/calibrate-rr2.yaml"]):
        f = tmp_path / f"sym{k}.tex"
        r = CliRunner().invoke(main, ["export", str(ROOT / case), "--latex", str(f)])
        assert r.exit_code == 0, (case, r.output)
        files.append(f)
    compile_using(tmp_path, files)


def test_a_root_of_a_cubic_names_its_symbol_in_latex(tmp_path):
    """delta of 3-fold RR_E at eps = 0 is (E - 1)(E^2 + 4E + 1)/(E + 1)^3 (Kairouz-Oh-Viswanath
    2015, Thm 3.3 at i = 0); it equals 1/2 at the root of E^3 + 3E^2 - 9E - 3 in (2, 3), so the
    calibrated set ends at an algebraic number of degree 3, written with the polynomial.  A
    symbol named my_E must be typeset whole there, not as 'my' with a subscript E."""
    case = """\
exactdp: 1
name: cubic-end
reference: Kairouz-Oh-Viswanath 2015, Thm 3.3
symbols:
  my_E: {gt: 1, lt: 5}
mechanisms:
  R: {rr: {eps: log(my_E)}}
  M: {repeat: {mechanism: R, times: 3}}
claims:
  - calibrate:
      target: {dp: {eps: 0, delta: 1/2}}
      holds_for: [{gt: 1, le: 2}]
"""
    r, out = export(tmp_path, case)
    m = macros(out.read_text())
    hi = m["exactdpCubicEndClaimOneHi"]
    assert r"\text{root of } {\textrm{my\_E}}^{3} + 3 {\textrm{my\_E}}^{2} - 9 {\textrm{my\_E}} - 3 \in (2, 3)" in hi
    assert "my_E" not in hi.replace(r"my\_E", "")


def test_an_enclosure_decimal_with_an_exponent_is_typeset_as_a_power_of_ten(tmp_path):
    """D_3/2 of RR at eps = log(1 + 10^-400) is about 7.5e-801 (D_alpha ~ alpha eps^2 / 8 for
    small eps, Mironov 2017): known by a certified enclosure only, its macros write
    7.5\\times 10^{-801}, not 7.5e-801 (which LaTeX sets as 7.5 e minus 801)."""
    case = (
        "exactdp: 1\nname: tiny\nmechanisms:\n  S: {rr: {eps: log(1 + 10^-400)}}\n"
        "claims:\n  - renyi: {of: S, alpha: 3/2, at_most: 1/10**800}\n"
    )
    r, out = export(tmp_path, case)
    assert r.exit_code == 0, r.output
    found = macros(out.read_text(encoding="utf-8"))
    assert found["exactdpTinyClaimOne"] == found["exactdpTinyClaimOneDecimal"] == r"\ensuremath{7.5\times 10^{-801}}"
