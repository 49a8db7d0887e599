"""Generate the tables that say which module declares each mechanism form and claim kind.

A form or claim is declared once, by its class (:func:`exactdp.forms.form`,
:func:`exactdp.claims.claim`); the registries (:data:`exactdp.forms.FORMS`,
:data:`exactdp.claims.CLAIMS`) know every key from a generated table
(``exactdp/forms/index.py``, ``exactdp/claims/index.py``) and import a key's module when the key
is first used, so a case imports only the forms and claims it uses.  This tool imports every
module of the two packages, reads what their declarations registered, and writes the tables;
the order of the keys (which the case-format reference and the messages that list the kinds
follow) stays the table's order, with a new module's keys after the others.  Usage::

    python -m exactdp.tools.registryindex --write     # or: make docs
    python -m exactdp.tools.registryindex --check     # exit 1 when a table is stale

``tests/test_registryindex.py`` fails when a table and the declarations disagree.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..claims import CLAIMS
from ..forms import FORMS
from ..forms.registry import Registry

__all__ = ["Table", "TABLES", "declared", "render", "main"]

PACKAGE = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Table:
    """One generated table: the registry, its package, the table's file and variable, and what
    its docstring calls the keys."""

    registry: Registry[type]
    package: str
    name: str
    what: str

    @property
    def path(self) -> Path:
        return PACKAGE / self.package.split(".", 1)[1] / "index.py"


TABLES = (
    Table(FORMS, "exactdp.forms", "FORM_MODULES", "mechanism form"),
    Table(CLAIMS, "exactdp.claims", "CLAIM_MODULES", "claim kind"),
)


def declared(table: Table) -> dict[str, str]:
    """``{key: module}`` from the declarations: every module of the package imported, each
    registered class's module read; modules in the table's order, then new ones by name, and
    a module's keys in the order it declares them."""
    pkg = importlib.import_module(table.package)
    names = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__))
    for name in names:
        importlib.import_module(f"{table.package}.{name}")
    found = {key: cls.__module__.rsplit(".", 1)[1] for key, cls in table.registry.loaded().items()}
    order = list(dict.fromkeys([*table.registry.index.values(), *names]))
    return dict(sorted(found.items(), key=lambda kv: order.index(kv[1])))  # stable: a module's own order


def render(table: Table) -> str:
    """The text of the table's module."""
    rows = "".join(f'    "{key}": "{module}",\n' for key, module in declared(table).items())
    return (
        f'"""Which module of :mod:`{table.package}` declares each {table.what}, in the order the\n'
        "case-format reference lists them: generated from the declarations by\n"
        "``python -m exactdp.tools.registryindex --write`` (tests fail when it is stale).  The registry\n"
        'imports a module when one of its keys is first used."""\n\n'
        f'__all__ = ["{table.name}"]\n\n'
        f"{table.name}: dict[str, str] = {{\n{rows}}}\n"
    )


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m exactdp.tools.registryindex", description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help="rewrite the tables")
    ap.add_argument("--check", action="store_true", help="exit 1 when a table is stale")
    args = ap.parse_args(argv)
    stale = []
    for table in TABLES:
        text = render(table)
        if table.path.read_text(encoding="utf-8") != text:
            stale.append(table.path)
            if args.write:
                table.path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'wrote' if args.write else 'stale'}: {path}", file=sys.stderr)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
