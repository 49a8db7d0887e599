"""Every test that runs a system tool (Graphviz, Chromium, pdflatex, poppler) is skipped visibly
on a machine without it: it is marked with ``needs`` from tests/system_tools.py, the one place
that looks the tools up.  Checked on the source of the tests, so that a new test cannot run a
tool unmarked (and fail where the tool is missing) or guard it with a silent ``if``."""

from __future__ import annotations

import ast
from pathlib import Path

from .system_tools import TOOLS

TESTS = Path(__file__).resolve().parent
PROGRAMS = {p for _, _, progs in TOOLS.values() for p in progs} | {"chromium-browser", "pdftoppm"}
# calls that run a tool: the helpers of the test modules that wrap one
RUNNERS = {"chromium", "render_graphviz", "need"}
OPTIONS = {"--png", "--svg", "--pdf"}  # exactdp options that run Graphviz or pdflatex


def _modules() -> list[Path]:
    return [p for p in sorted(TESTS.glob("*.py")) if p.name not in ("system_tools.py", "test_system_tools.py")]


def _called_name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _runs_directly(fn: ast.AST) -> bool:
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            if _called_name(node) in RUNNERS - {"need"}:
                return True
            first = node.args[0] if node.args else None
            if isinstance(first, ast.List) and first.elts:
                head = first.elts[0]
                if isinstance(head, ast.Constant) and head.value in PROGRAMS:
                    return True
                if any(isinstance(e, ast.Constant) and e.value in OPTIONS for e in first.elts):
                    return True
    return False


def _tool_runners(tree: ast.Module) -> set[str]:
    """The module's functions that run a tool, directly or through another one (a fixpoint)."""
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out = {name for name, fn in funcs.items() if _runs_directly(fn)}
    grew = True
    while grew:
        grew = False
        for name, fn in funcs.items():
            if name not in out and any(
                isinstance(c, ast.Call) and _called_name(c) in out for c in ast.walk(fn) if c is not fn
            ):
                out.add(name)
                grew = True
    return out


def _marked(fn: ast.FunctionDef) -> bool:
    """Marked ``@needs(...)``, or calling ``need(...)``, or simulating a machine without the
    tools (``monkeypatch.setattr(shutil, "which", ...)``)."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and _called_name(d) == "needs":
            return True
    for c in ast.walk(fn):
        if isinstance(c, ast.Call) and _called_name(c) == "need":
            return True
        if isinstance(c, ast.Call) and _called_name(c) == "setattr" and len(c.args) >= 2:
            if isinstance(c.args[1], ast.Constant) and c.args[1].value == "which":
                return True
    return False


def test_every_test_that_runs_a_system_tool_is_marked():
    unmarked = []
    for f in _modules():
        tree = ast.parse(f.read_text(encoding="utf-8"))
        runners = _tool_runners(tree)
        for fn in tree.body:
            if isinstance(fn, ast.FunctionDef) and fn.name.startswith("test_") and fn.name in runners:
                if not _marked(fn):
                    unmarked.append(f"{f.name}::{fn.name}")
    assert unmarked == [], f"these tests run a system tool without @needs(...) (tests/system_tools.py): {unmarked}"


def test_no_test_looks_a_system_tool_up_by_itself():
    """``shutil.which("dot")`` in a test would be a place to skip silently (an ``if``) or to
    forget the reason; tests/system_tools.py is the one place."""
    found = []
    for f in _modules():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called_name(node) == "which" and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and arg.value in PROGRAMS:
                    found.append(f"{f.name}:{node.lineno}")
    assert found == [], found


def test_the_checks_see_a_test_that_runs_a_tool_unmarked():
    """The checks above find what they look for (they cannot pass by seeing nothing)."""
    src = (
        "import subprocess, shutil\n"
        "def _build(t):\n    subprocess.run(['pdflatex', 't.tex'], cwd=t)\n"
        "def test_a(tmp_path):\n    _build(tmp_path)\n"
        "def test_b():\n    invoke(['info', 'c.yaml', '--png', 'g.png'])\n"
        "@needs('pdflatex')\ndef test_c(tmp_path):\n    _build(tmp_path)\n"
    )
    tree = ast.parse(src)
    runners = _tool_runners(tree)
    fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert {"_build", "test_a", "test_b", "test_c"} <= runners
    assert [name for name in ("test_a", "test_b", "test_c") if not _marked(fns[name])] == ["test_a", "test_b"]
