"""The documentation site builds with warnings as errors, works offline, and covers every module.

The build needs the ``docs`` extra (``pip install -e '.[docs]'``; ``make test`` installs it).
Without it the build test is skipped with a message that says so; the coverage tests always run.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PKG = ROOT / "exactdp"
NEEDED = ("sphinx", "numpydoc", "myst_parser", "myst_nb", "ipykernel", "sphinx-mathjax-offline")
MISSING = [m for m in NEEDED if importlib.util.find_spec(m) is None]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if MISSING:
        pytest.skip(f"the docs extra is not installed (missing {', '.join(MISSING)}): pip install -e '.[docs]'")
    out = tmp_path_factory.mktemp("site")
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-W",
            "--keep-going",
            "-q",
            "-d",
            str(out / "doctrees"),
            str(DOCS),
            str(out / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert res.returncode == 0, f"sphinx-build -W failed:\n{res.stderr[-6000:]}"
    return out / "html"


def test_the_site_builds_with_every_page(site):
    for page in [
        "index",
        "install",
        "quickstart",
        "tutorial",
        "papers",
        "case-format",
        "composition",
        "mechanisms",
        "automata-and-continual",
        "simulate",
        "errors",
        "cases",
        "architecture",
        "project/changelog",
        "api/index",
        "api/exactdp",
    ]:
        assert (site / f"{page}.html").exists(), page
    api = (site / "api" / "exactdp.html").read_text(encoding="utf-8")
    assert "exactdp.privloss" in api and "Vadhan" in api
    fmt = (site / "case-format.html").read_text(encoding="utf-8")
    assert "Form reference" in fmt and "sparse_parallel" in fmt


def test_the_site_loads_nothing_from_the_network(site):
    pages = list(site.rglob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        remote = re.findall(r"<(?:script|link|img|iframe)\b[^>]*(?:src|href)=\"(?:https?:)?//[^\"]*\"", text)
        assert not remote, f"{page.relative_to(site)} loads {remote[0]}"
        links = re.findall(r"<a\b[^>]*href=\"(https?://[^\"]*)\"", text)
        assert not links, f"{page.relative_to(site)} links to {links[0]}"


def test_math_is_rendered_by_a_local_mathjax(site):
    math_pages = [p for p in site.rglob("*.html") if 'class="math' in p.read_text(encoding="utf-8")]
    assert math_pages, "no page has math: the module docstrings' formulas went missing"
    for p in math_pages:
        scripts = re.findall(r"<script[^>]*src=\"([^\"]*mathjax[^\"]*)\"", p.read_text(encoding="utf-8"))
        assert scripts and all(not s.startswith(("http", "//")) for s in scripts), p
        assert (p.parent / scripts[0].split("?")[0]).resolve().exists()


def _api_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((DOCS / "api").glob("*.rst")))


def test_every_module_has_a_place_in_the_api_reference():
    api = _api_text()
    missing = []
    for f in sorted(PKG.rglob("*.py")):
        rel = f.relative_to(PKG).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        if not parts or parts[0] in {"cli", "tools"} or rel.name in {"__main__", "pytest_plugin"}:
            continue  # the command line and developer tools are documented in the guides
        mod = ".".join(("exactdp", *parts))
        if not re.search(rf"\.\. automodule:: {re.escape(mod)}\s*$", api, re.M):
            missing.append(mod)
    assert not missing, f"modules without an automodule entry in docs/api/*.rst: {missing}"


def test_generated_api_pages_are_current():
    from exactdp.tools.apidoc import main

    assert main(["--check"]) == 0, "docs/api/*.rst are stale: run `make docs` (python -m exactdp.tools.apidoc --write)"


def test_every_guide_is_in_the_table_of_contents(site):
    """docs/index.md lists the main guides and globs the rest, so a new docs/*.md is on the site."""
    index = (site / "index.html").read_text(encoding="utf-8")
    for p in DOCS.glob("*.md"):
        if p.stem != "index":
            assert f'href="{p.stem}.html"' in index, p.name


def test_the_tutorial_is_rendered_with_its_outputs(site):
    """The notebook is executed by the build: its drawings, tables and plots are on the page."""
    page = (site / "tutorial.html").read_text(encoding="utf-8")
    assert "Tutorial: exact privacy verdicts in a notebook" in page
    assert "datasets x0, x1; adjacent (x0, x1)" in page  # a mechanism's rich display
    assert "<table>" in page and "✗ fails" in page  # verify_file's claims table
    assert page.count("<img") >= 4  # the plots
    assert "3 certificate(s): 3 accepted, 0 rejected, 0 other case, 0 malformed" in page
    assert "Traceback" not in page and "Error" not in re.sub(r"<[^>]+>", "", page).split("Numbers for a paper")[0]


def test_the_api_page(site):
    """__version__ has its own description (not str's), the examples run as shown (the doctests
    of exactdp's modules), formulas are MathJax, and the display mixin is not shown as a base."""
    api = (site / "api" / "exactdp.html").read_text(encoding="utf-8")
    version = api.split('id="exactdp.__version__"', 1)[1][:1500]
    assert "The version of exactdp" in version and "str(object=" not in api
    assert "RichDisplay" not in api
    for fn in ("privloss", "delta_at", "is_dp", "rr", "plot_profile"):
        section = api.split(f'id="exactdp.{fn}"', 1)[1][:3000]
        assert 'class="math' in section, f"{fn}: no formula rendered by MathJax"
    import html

    text = html.unescape(re.sub(r"<[^>]+>", "", api))
    assert 'respond({"0": (["3/4", "1/4"], None), "1": ["1/4", "3/4"]})' in text  # it runs (a doctest)
