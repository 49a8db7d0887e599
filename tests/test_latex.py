"""exactdp.report.latex: longtable + booktabs tables of T that fit the page (the 42-row table of
Vadhan-Wang Thm 1.10 for the three-round mechanism breaks across pages), \\tfrac, \\label, and
--drop-trivial."""

from __future__ import annotations

import re
import subprocess

import pytest
from click.testing import CliRunner

from exactdp.cli import main

from .system_tools import needs

THREE = "cases/vadhan-wang/thm110-three-round.yaml"
FIG1 = "cases/vadhan-wang/thm110-figure1.yaml"


def latex(*args: str) -> str:
    r = CliRunner().invoke(main, ["simulate", *args, "--format", "latex"])
    assert r.exit_code == 0, r.output
    return r.output


def body_rows(tex: str) -> list[str]:
    body = tex.split("\\endlastfoot\n", 1)[1].split("\\end{longtable}", 1)[0]
    return [line for line in body.splitlines() if line.endswith("\\\\")]


def test_three_round_table_is_a_longtable_with_every_row():
    tex = latex(THREE)
    assert tex.count("\\begin{longtable}") == 1 and "\\toprule" in tex and "\\bottomrule" in tex
    assert "\\endhead" in tex and "\\endfoot" in tex  # the header repeats on every page
    assert len(body_rows(tex)) == 42
    assert "\\label{tab:T-M-x0-x1}" in tex
    assert "\\tfrac{7}{9}" in tex and "\\frac{" not in tex.replace("\\tfrac{", "")


def test_drop_trivial_rows():
    full, short = body_rows(latex(THREE)), body_rows(latex(THREE, "--drop-trivial"))
    # a row is trivial when T(c, a) is the same for both RR outputs (here 1/2, 1/2)
    trivial = [r for r in full if r.count("\\tfrac{1}{2}") == 2]
    assert len(short) == len(full) - len(trivial) and 0 < len(short) < len(full)
    assert f"{len(trivial)} rows where" in latex(THREE, "--drop-trivial")


def test_label_option_is_reduced_to_a_safe_key():
    tex = latex(THREE, "--label", "my table}\\x")
    assert "\\label{tab:my-table-x-x0-x1}" in tex


def _compile(tex: str, where) -> str:
    """The log of pdflatex on ``tex`` (which must compile)."""
    (where / "t.tex").write_text(tex, encoding="utf-8")
    p = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stdout[-2000:]
    return (where / "t.log").read_text(encoding="latin-1")


@needs("latex-tables")
@pytest.mark.parametrize(
    "args",
    [[THREE], [THREE, "--drop-trivial"], [FIG1, "--delta", "1/4"]],
    ids=["three-round", "three-round-drop", "fig1-approx"],
)
def test_tables_fit_the_page(tmp_path, args):
    log = _compile(latex(*args, "--standalone"), tmp_path)
    assert "Overfull" not in log and "Float too large" not in log
    pages = int(re.search(r"Output written on t\.pdf \((\d+) pages?", log).group(1))
    if args == [THREE]:
        assert pages == 2  # 42 rows: the table continues on a second page instead of running off


@needs("latex-tables", "pdftotext")
def test_a_long_table_continues_on_the_next_page_with_every_row(tmp_path):
    _compile(latex(THREE, "--standalone"), tmp_path)
    text = subprocess.run(["pdftotext", "-layout", "t.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert "(continued)" in text and text.count("(t, 1)") == 8  # the last rows are there


@needs("pdflatex")
def test_certificate_appendices_of_the_new_proof_shapes_compile(tmp_path):
    """certify --format latex: a composition with a symbol (its cells hold the components'
    e^eps_i), a zCDP cover (orders and bounds) and a game of non-adaptive adversaries, put in one
    document, compile with pdflatex without an error."""
    out = tmp_path / "certs"
    files = [
        "cases/parametric/composition-rr.yaml",
        "cases/libraries/tumult-core-discrete-gaussian.yaml",
        "cases/exponential/nonadaptive-adversaries.yaml",
    ]
    r = CliRunner().invoke(main, ["certify", *files, "-o", str(out), "--format", "latex", "-q"])
    assert r.exit_code == 0, r.output
    parts = sorted(out.rglob("*.tex"))
    assert len(parts) >= 25
    body = "\n".join(p.read_text() for p in parts)
    assert "the components' $e^{\\varepsilon_i}$" in body and "$(a_i, k_i)$" in body
    doc = "\\documentclass{article}\n\\usepackage{amsmath,amssymb}\n\\begin{document}\n" + body + "\\end{document}\n"
    assert "Error" not in _compile(doc, tmp_path)


@needs("pdflatex", "pdftotext")
@pytest.mark.parametrize("encoding", ["", r"\usepackage[T1]{fontenc}"], ids=["OT1", "T1"])
def test_quotes_in_case_text_print_as_written_in_either_font_encoding(tmp_path, encoding):
    """A dataset x'0 was written {\\ttfamily\\char13}: the upright quote in OT1's typewriter font,
    a low comma under T1, the encoding most papers load (the PDF showed x,0)."""
    from exactdp.report.escape import latex as escape

    doc = "\n".join(
        [r"\documentclass{article}", encoding, r"\begin{document}", escape("x'0 `q` a\\b"), r"\end{document}"]
    )
    (tmp_path / "q.tex").write_text(doc)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "q.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    shown = subprocess.run(["pdftotext", "q.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert shown.split("\n")[0] == "x'0 `q` a\\b", shown


@needs("pdflatex", "pdftotext")
def test_a_certificate_appendix_with_many_views_fits_its_pages(tmp_path):
    """RR_log 3 eight times: 256 views, of which the appendix lists 200.  They were one tabular
    that ran off the page (most rows lost in the PDF) and past the margin; they are now tabulars
    of a page each, with products that wrap."""
    case = tmp_path / "w.yaml"
    case.write_text(
        "exactdp: 1\nname: w\nmechanisms:\n  R: {rr: {eps: log(3)}}\n  M: {repeat: {mechanism: R, times: 8}}\n"
        "claims:\n  - not_dp: {eps: log(2)}\n"
    )
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "out"), "--format", "latex", "-q"])
    assert r.exit_code == 0, r.output
    doc = "\\documentclass{article}\n\\begin{document}\n\\input{out/w/1-not_dp.tex}\n\\end{document}\n"
    (tmp_path / "d.tex").write_text(doc)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "d.tex"], cwd=tmp_path, capture_output=True, timeout=120)
    log = (tmp_path / "d.log").read_text(encoding="latin-1")
    assert "Overfull" not in log and "Output written" in log
    text = subprocess.run(["pdftotext", "d.pdf", "-"], cwd=tmp_path, capture_output=True, text=True).stdout
    assert "1, 1, 0, 0, 0, 1," in text and "(more views)" in text  # the 200th view (binary 199) is there
