"""exactdp verify --html: a static, self-contained report that holds every claim, failing
claims first and linked from the top, checked in a real browser (headless Chromium) when one is
installed."""

from __future__ import annotations

import html as htmllib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.cli import main
from exactdp.figures import case_figures
from exactdp.report.escape import is_unsafe_char
from exactdp.report.html import write_report
from exactdp.report.verdicts import shown
from exactdp.verify import verify_paths

from .system_tools import needs, path

FAILING = r"""exactdp: 1
name: mixed-results
title: "A case with a failing claim <b>&amp;</b> \e]0;x\a"
reference: Vadhan-Wang 2021, Def. 1.9
mechanisms:
  "M<i>": {rr: {eps: log(3)}}
claims:
  - privloss: {of: "M<i>", delta: 0, equals: log(3)}
  - privloss: {of: "M<i>", delta: 0, equals: log(2)}
  - not_dp: {of: "M<i>", eps: log(2), delta: 0}
"""
INVALID = "exactdp: 1\nname: broken\nmechanisms: {M: {rr: {eps: '<script>alert(1)</script>'}}}\nclaims:\n  - privloss: {equals: log(3)}\n"


@pytest.fixture(scope="module")
def small_report(tmp_path_factory) -> Path:
    """A report of three files: one failing (hostile text), one invalid, one passing."""
    d = tmp_path_factory.mktemp("small")
    (d / "a-failing.yaml").write_text(FAILING, encoding="utf-8")
    (d / "b-invalid.yaml").write_text(INVALID, encoding="utf-8")
    shutil.copy("cases/vadhan-wang/figure1-two-round.yaml", d / "c-figure1.yaml")
    shutil.copy("cases/vadhan-wang/thm-1-8-approx-concurrent.yaml", d / "d-thm18.yaml")
    out = d / "report"
    r = CliRunner().invoke(main, ["verify", str(d), "--html", str(out)])
    assert r.exit_code == 2, r.output  # an invalid file
    return out


@pytest.fixture(scope="module")
def cases_run():
    """The report of the whole case library, without figures (they are tested on the small
    report: drawing 43 pages of plots would cost more than the whole check)."""
    return verify_paths(["cases/"])


@pytest.fixture(scope="module")
def cases_report(cases_run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cases") / "report"
    write_report(cases_run, out)
    return out


def visible_text(page: str) -> str:
    """The page's text as a browser shows it (tags dropped, entities decoded), SVG excluded."""
    page = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
    page = re.sub(r"<style>.*?</style>", "", page, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]+>", "", page))


def test_report_of_cases_holds_every_claim(cases_run, cases_report):
    run = cases_run
    assert run.exit_code == 0
    index = (cases_report / "index.html").read_text(encoding="utf-8")
    pages = re.findall(r'<td><a href="([^"]+)">', index)
    assert len(pages) == len(run.files) == len(set(pages))
    for fr in run.files:
        page = cases_report / _page_for(index, fr.file, fr.case.name if fr.case is not None else "")
        text = visible_text(page.read_text(encoding="utf-8"))
        assert fr.case is not None and fr.case.name in text
        for v in fr.verdicts:
            assert v.claim.describe() in text, (fr.file, v.claim.describe())
            assert shown(v).found in text
    assert "326 hold" in visible_text(index) or "0 fail" in visible_text(index)


def _page_for(index: str, file: str, case_name: str) -> str:
    """The page linked from the index row of ``file`` (and, for a sweep point, its case name)."""
    m = re.search(
        r'<td><a href="([^"]+)">'
        + re.escape(htmllib.escape(file))
        + "</a></td><td>"
        + re.escape(htmllib.escape(case_name)),
        index,
    )
    assert m, file
    return m.group(1)


@pytest.mark.parametrize("which", ["cases", "small"])
def test_pages_are_self_contained(which, request):
    report = request.getfixturevalue(f"{which}_report")
    for page in report.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text and "<link" not in text and "@import" not in text
        assert not re.search(r"url\((?!#)", text), page  # only references inside the page
        assert not re.search(r'(src|href)="(https?:)?//', text), page
        assert not re.search(r"https?://(?!www\.w3\.org/)", text), page  # only XML namespace names
        for ref in re.findall(r'(?:src|href)="([^"#]+)', text):
            assert (report / ref).exists(), (page, ref)
        assert [ch for ch in text if is_unsafe_char(ch) and ch not in "\n"] == []


def test_case_pages_have_plots(small_report):
    fig1 = (small_report / "c-figure1.html").read_text(encoding="utf-8")
    assert fig1.count("<svg") >= 1
    assert "<!--" not in fig1 and "<?xml" not in fig1
    thm18 = (small_report / "d-thm18.html").read_text(encoding="utf-8")
    assert "Vadhan-Wang Thm 1.8" in thm18  # the composition bound's legend (as glyph paths) or caption
    assert "the composition found and the theorem" in thm18


@needs("dot")
def test_case_pages_have_game_drawings(small_report):
    fig1 = (small_report / "c-figure1.html").read_text(encoding="utf-8")
    assert "Game of M" in fig1 and "adversary" in fig1 and fig1.count("<svg") >= 2


def test_without_graphviz_a_case_page_says_why_it_has_no_drawing(tmp_path, monkeypatch):
    """No Graphviz: the page says so where the drawing would be, and the report is written."""
    monkeypatch.setattr(shutil, "which", lambda name: None)
    run = verify_paths(["cases/vadhan-wang/figure1-two-round.yaml"])
    write_report(run, tmp_path / "r", [case_figures(fr) for fr in run.files])
    (page,) = [p for p in (tmp_path / "r").glob("*.html") if p.name != "index.html"]
    text = page.read_text(encoding="utf-8")
    assert "No drawing:" in text and "Graphviz" in text and "Game of M" not in text


def test_failing_first_and_linked_from_the_top(small_report):
    index = (small_report / "index.html").read_text(encoding="utf-8")
    text = visible_text(index)
    assert "Some claims do not hold" in text
    top = index.index('id="failing"')
    table = index.index("<h2>Case files</h2>")
    assert top < table
    assert re.search(r'href="a-failing\.html#claim-2"', index[top:table])
    assert "b-invalid.html" in index[top:table]
    rows = re.findall(r'<td><a href="([^"]+)">', index[table:])
    assert rows[-2:] == ["c-figure1.html", "d-thm18.html"]  # the passing files last
    page = (small_report / "a-failing.html").read_text(encoding="utf-8")
    blocks = re.findall(r'<div class="claim c-(\w+)" id="claim-(\d+)">', page)
    assert blocks[0] == ("fails", "2") and [b[1] for b in blocks] == ["2", "1", "3"]


def test_case_text_is_escaped(small_report):
    page = (small_report / "a-failing.html").read_text(encoding="utf-8")
    assert "<b>" not in page and "<i>" not in page and "&lt;b&gt;&amp;amp;&lt;/b&gt;" in page
    assert "\\x1b]0;x\\x07" in page
    bad = (small_report / "b-invalid.html").read_text(encoding="utf-8")
    assert "<script>" not in bad and "&lt;script&gt;" in bad


CHROMIUM = path("chromium")


def chromium(args: list[str], tmp: Path) -> subprocess.CompletedProcess:
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
    ]
    return subprocess.run([CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=120)


@needs("chromium")
def test_every_page_loads_in_chromium_without_console_errors(small_report, tmp_path):
    pages = sorted(small_report.glob("*.html"))
    assert len(pages) == 5
    for page in pages:
        p = chromium(["--dump-dom", page.as_uri()], tmp_path)
        assert p.returncode == 0, p.stderr[-1000:]
        console = [line for line in p.stderr.splitlines() if ":CONSOLE" in line]
        assert console == [], (page.name, console)
        assert "</body>" in p.stdout
        dom = visible_text(p.stdout)
        if page.name == "a-failing.html":
            for claim in ("PrivLoss(M<i>, 0) = log(3)", "PrivLoss(M<i>, 0) = log(2)", "M<i> is not (log(2), 0)-DP"):
                assert claim in dom
    shot = tmp_path / "index.png"
    p = chromium(["--window-size=1200,900", f"--screenshot={shot}", (small_report / "index.html").as_uri()], tmp_path)
    assert shot.exists() and shot.read_bytes().startswith(b"\x89PNG"), p.stderr[-1000:]
    shot2 = tmp_path / "case.png"
    chromium(["--window-size=1200,2400", f"--screenshot={shot2}", (small_report / "c-figure1.html").as_uri()], tmp_path)
    assert shot2.exists() and shot2.stat().st_size > 20_000  # a page with content, not a blank one


def test_witness_lines_keep_their_line_breaks(small_report):
    page = (small_report / "a-failing.html").read_text(encoding="utf-8")
    pre = re.search(r"<p>witness:</p><pre>(.*?)</pre>", page, flags=re.S).group(1)
    assert "\\n" not in pre and len(pre.splitlines()) >= 4
    assert pre.splitlines()[0].startswith("witness (profile engine, re-checked independently): datasets (x0, x1)")


def test_a_report_that_cannot_be_written_makes_verify_exit_2(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    r = CliRunner().invoke(main, ["verify", "cases/kov/kfold-rr-pure.yaml", "--html", str(blocker / "report")])
    assert r.exit_code == 2 and "cannot write the HTML report" in r.output and "10 hold" in r.output


def test_values_read_as_text_not_as_python_records(cases_report):
    """Structured values (the pieces of a claim with symbols, a calibrated set, an exact
    endpoint) read as their text on the page: ``1/4 < p <= 3/4: log(3)``, not as a Python
    dict; the records themselves are in --json."""
    pages = [p for p in cases_report.glob("*parametric*.html")]
    assert len(pages) >= 10
    for page in pages:
        text = visible_text(page.read_text(encoding="utf-8"))
        assert "{'" not in text and "'exact':" not in text, page.name
    two = next(p for p in pages if "two-round-break-point" in p.name)
    assert "1/4 <= p <= 3/4" in visible_text(two.read_text(encoding="utf-8"))


def test_a_title_of_a_million_characters_is_cut_on_the_page_and_in_its_plot(tmp_path):
    """A valid case may have a huge title: the page shows its first 4,000 characters and its length,
    and a plot's title its first lines (wrapping the whole text would be quadratic in it)."""
    case = tmp_path / "big.yaml"
    title = "<&" * 500_000
    case.write_text(
        f"exactdp: 1\nname: big\ntitle: '{title}'\nmechanisms:\n  M: {{rr: {{eps: log(3)}}}}\n"
        "claims:\n  - dp: {eps: log(3)}\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["verify", "--html", str(tmp_path / "out"), str(case)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "big.html").read_text(encoding="utf-8")
    assert "(1000000 characters)" in page and len(page) < 200_000
