"""The system tools some tests need, declared once: Graphviz, Chromium, pdflatex (with the LaTeX
packages of ``simulate --format latex``) and poppler.

A test that runs one is marked ``@needs("dot")`` (or calls :func:`need` inside): on a machine
without the tool it is skipped *visibly*, the reason naming the tool and the package that
installs it (``pytest -ra``, the default here, lists every skip with its reason).  No test looks
a tool up by itself: ``tests/test_system_tools.py`` checks that, so a test cannot pass silently
by leaving out what it could not run.
"""

from __future__ import annotations

import shutil
import subprocess
from functools import cache

import pytest

__all__ = ["TOOLS", "path", "available", "needs", "need", "reason"]

# name -> (what it is, the Debian/Ubuntu package that installs it, the programs it needs)
TOOLS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "dot": ("Graphviz", "graphviz", ("dot",)),
    "chromium": ("Chromium", "chromium", ("chromium",)),
    "pdflatex": ("pdflatex", "texlive-latex-base", ("pdflatex",)),
    "latex-tables": (
        "pdflatex with the booktabs and longtable packages",
        "texlive-latex-recommended",
        ("pdflatex", "kpsewhich"),
    ),
    "pdftotext": ("poppler's pdftotext", "poppler-utils", ("pdftotext",)),
    "pdftoppm": ("poppler's pdftoppm", "poppler-utils", ("pdftoppm",)),
}


def path(tool: str) -> str | None:
    """The program of ``tool`` on this machine (Chromium also as ``chromium-browser``), or None."""
    if tool == "chromium":
        return shutil.which("chromium") or shutil.which("chromium-browser")
    return shutil.which(TOOLS[tool][2][0])


@cache
def _latex_packages() -> bool:
    return all(
        subprocess.run(["kpsewhich", f], capture_output=True).returncode == 0 for f in ("booktabs.sty", "longtable.sty")
    )


def available(tool: str) -> bool:
    """Whether every program (and, for ``latex-tables``, every LaTeX package) of ``tool`` is here."""
    if tool == "chromium":
        return path("chromium") is not None
    if any(shutil.which(p) is None for p in TOOLS[tool][2]):
        return False
    return tool != "latex-tables" or _latex_packages()


def reason(tool: str) -> str:
    what, package, _ = TOOLS[tool]
    return f"{what} is not installed (apt-get install {package})"


def needs(*tools: str) -> pytest.MarkDecorator:
    """Skip the test, visibly, unless every one of ``tools`` is installed."""
    missing = [t for t in tools if not available(t)]
    return pytest.mark.skipif(bool(missing), reason="; ".join(reason(t) for t in missing))


def need(tool: str) -> str:
    """Inside a test: the program of ``tool``, or skip the test visibly."""
    if not available(tool):
        pytest.skip(reason(tool))
    p = path(tool)
    assert p is not None
    return p
