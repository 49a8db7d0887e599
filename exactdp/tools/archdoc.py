"""Generate the module table of ``docs/architecture.md`` from the modules' own docstrings.

Every module of the package states its job in the first paragraph of its docstring; the table
lists every module, in the order of the layers (the one-way flow case file → model → analysis →
verdict → rendering that ``tests/test_architecture.py`` enforces), with that paragraph and its
public names (``__all__``).  The table sits between ``<!-- generated: modules -->`` and
``<!-- end generated: modules -->``; the rest of the page is written by hand.  Usage::

    python -m exactdp.tools.archdoc --write     # or: make docs
    python -m exactdp.tools.archdoc --check     # exit 1 when the page is stale

``tests/test_archdoc.py`` fails when the committed page is stale or misses a module.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LAYERS", "ModuleDoc", "modules", "render_table", "render", "DOC_PATH", "main"]

PACKAGE = Path(__file__).resolve().parents[1]
DOC_PATH = PACKAGE.parent / "docs" / "architecture.md"
BEGIN, END = "<!-- generated: modules -->", "<!-- end generated: modules -->"

# The layers, lowest first: a module may import only from its own layer and the ones before it.
LAYERS: tuple[str, ...] = (
    "lazy",
    "errors",
    "deprecation",
    "limits",
    "display",
    "numbers",
    "model",
    "builders",
    "forms",
    "analysis",
    "simulation",
    "theorems",
    "certificates",
    "interop",
    "claims",
    "caseio",
    "execution",
    "verify",
    "experiments",
    "figures",
    "report",
    "checker",
    "sweeping",
    "certifying",
    "testing",
    "pytest_plugin",
    "tools",
    "cli",
    "__init__",
    "__main__",
)
_MAX_NAMES = 8


@dataclass(frozen=True)
class ModuleDoc:
    """One row of the table: the module's path in the package, its job, its public names."""

    path: str
    job: str
    names: tuple[str, ...]

    @property
    def layer(self) -> str:
        return self.path.split("/")[0].removesuffix(".py")


def _job(doc: str | None) -> str:
    """The first paragraph of a docstring on one line, with Sphinx roles as plain code."""
    first = (doc or "").strip().split("\n\n")[0]
    first = re.sub(r":[a-z]+:`~?(?:[\w.]*\.)?([^`]+)`", r"`\1`", first)
    return " ".join(first.split()).replace("``", "`").replace("|", "\\|")


def _names(tree: ast.Module) -> tuple[str, ...]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            if isinstance(node.value, (ast.List, ast.Tuple)):
                return tuple(
                    e.value for e in node.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
    return ()


def modules(root: Path = PACKAGE) -> list[ModuleDoc]:
    """Every module below ``root``, in layer order (then by path)."""
    out = []
    for f in root.rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        out.append(ModuleDoc(f.relative_to(root).as_posix(), _job(ast.get_docstring(tree)), _names(tree)))
    rank = {name: k for k, name in enumerate(LAYERS)}
    return sorted(out, key=lambda m: (rank.get(m.layer, len(LAYERS)), m.path != f"{m.layer}/__init__.py", m.path))


def _names_text(names: Sequence[str]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:_MAX_NAMES])
    return shown + (f", … ({len(names)} names)" if len(names) > _MAX_NAMES else "")


def render_table(mods: Sequence[ModuleDoc]) -> str:
    rows = ["| module | job | public names |", "|---|---|---|"]
    rows += [f"| `{m.path}` | {m.job} | {_names_text(m.names)} |" for m in mods]
    return "\n".join(rows)


def render(page: str, mods: Sequence[ModuleDoc] | None = None) -> str:
    """``page`` with the generated table replaced by the current one."""
    table = render_table(modules() if mods is None else mods)
    start, stop = page.index(BEGIN) + len(BEGIN), page.index(END)
    return page[:start] + "\n" + table + "\n" + page[stop:]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m exactdp.tools.archdoc", description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite docs/architecture.md")
    ap.add_argument("--check", action="store_true", help="exit 1 when docs/architecture.md is stale")
    args = ap.parse_args(argv)
    page = DOC_PATH.read_text(encoding="utf-8")
    new = render(page)
    if args.write:
        DOC_PATH.write_text(new, encoding="utf-8")
        return 0
    if args.check:
        return 0 if new == page else 1
    sys.stdout.write(render_table(modules()) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
