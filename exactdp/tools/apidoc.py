"""Generate the module lists of the API reference (``docs/api/<package>.rst``) from the tree.

One page per subpackage of ``exactdp`` (the command line and these tools are documented in the
guides instead): the package docstring, then every module in name order, nested subpackages
(``analysis/parametric``) included.  The pages for the
public API (``exactdp.rst``) and for single modules are written by hand.  ``make docs`` runs
this; ``tests/test_docs_site.py`` fails when a committed page is stale.

Usage: ``python -m exactdp.tools.apidoc --write`` (or ``--check``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["PACKAGES", "page", "pages", "main"]

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "exactdp"
API = ROOT / "docs" / "api"
SKIP = {"cli", "tools", "schema"}  # documented in the guides / not Python


def packages() -> list[str]:
    """The subpackages of exactdp that get a page, in name order."""
    return sorted(p.name for p in PKG.iterdir() if (p / "__init__.py").exists() and p.name not in SKIP)


PACKAGES = packages()


def page(name: str) -> str:
    """The reST page of package ``exactdp.<name>``."""
    title = f"``exactdp.{name}``"
    lines = [title, "=" * len(title), "", f".. automodule:: exactdp.{name}", "", "Modules", "-------", ""]
    for f in sorted((PKG / name).rglob("*.py")):  # the modules of its subpackages too
        parts = f.relative_to(PKG / name).with_suffix("").parts
        if parts in (("__init__",), ("__main__",)):  # (running __main__ would start the program)
            continue
        dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        lines += [f".. automodule:: exactdp.{name}.{dotted}", "   :no-members:", "   :no-index:", ""]
    return "\n".join(lines)


def pages() -> dict[Path, str]:
    return {API / f"{name}.rst": page(name) for name in PACKAGES}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m exactdp.tools.apidoc", description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    stale = [p for p, text in pages().items() if not p.exists() or p.read_text(encoding="utf-8") != text]
    if a.write:
        for p in stale:
            p.write_text(pages()[p], encoding="utf-8")
        return 0
    if stale:
        print("stale API pages (run `make docs`): " + ", ".join(p.name for p in stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
