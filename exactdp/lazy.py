"""Deferred imports: a module is imported when one of its names is first used, not at start-up.

exactdp's engines, claim kinds and renderers import SymPy, python-flint, mpmath and NetworkX,
which together cost most of a second; a command such as ``exactdp --help`` or ``exactdp verify``
of a small rational case needs few of them.  This is the one way exactdp defers an import (the
other imports are at the top of their module):

- :func:`attach` gives a package face (``exactdp/__init__.py``) the PEP 562 module
  ``__getattr__`` and ``__dir__``.  The names it exports are declared once, as the ordinary
  imports of an ``if TYPE_CHECKING:`` block, so type checkers see them with their types;
  :func:`attach` reads that block (statically, with :mod:`ast`) and imports each name's module
  when the name is first used.
- :func:`load` imports ``"package.module:name"``: the command line's table of subcommands and
  the renderers a notebook asks for are named that way, and imported when used;
  :func:`deferred` is such a function, imported on its first call, and :func:`docstring` its
  docstring, read without importing it.
- :func:`module` is a third-party module whose code runs when one of its attributes is first
  read (:class:`importlib.util.LazyLoader`).  The heavy ones that only some cases need are
  deferred here, once: ``from ..lazy import flint`` (python-flint: algebraic numbers, arb
  balls), ``mpmath`` (certified intervals), ``networkx`` (graphs of datasets and drawings).

Only names are deferred, never a check: an import that fails fails where the name is used, with
Python's own error.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

__all__ = ["attach", "load", "deferred", "docstring", "declared_names", "module"]


def module(name: str) -> ModuleType:
    """The top-level module ``name``, whose code runs when one of its attributes is first read
    (the recipe of :class:`importlib.util.LazyLoader`); an import already done is reused."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


if TYPE_CHECKING:
    import flint
    import mpmath
    import networkx
else:
    flint, mpmath, networkx = module("flint"), module("mpmath"), module("networkx")


def load(target: str) -> Any:
    """The object ``"package.module:name"`` (or the module ``"package.module"``), imported now."""
    module, _, name = target.partition(":")
    mod = import_module(module)
    return getattr(mod, name) if name else mod


def deferred(target: str) -> Callable[..., Any]:
    """The function ``"package.module:name"``, imported on its first call."""

    def call(*args: Any, **kw: Any) -> Any:
        return load(target)(*args, **kw)

    return call


def docstring(target: str) -> str:
    """The docstring of the function ``"package.module:name"``, read from the module's source
    without importing it (``exactdp --help`` lists every command with its first sentence)."""
    module, _, name = target.partition(":")
    spec = importlib.util.find_spec(module)
    tree = ast.parse(Path(str(spec.origin if spec else "")).read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
    return ast.get_docstring(node, clean=False) or ""


def declared_names(path: str | Path, package: str) -> dict[str, str]:
    """``{exported name: "module:name"}`` from the imports of the ``if TYPE_CHECKING:`` block of
    the package face at ``path`` (``from .x import a as b`` exports ``b`` as ``package.x:a``;
    ``from . import sub`` exports the submodule ``package.sub``)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    block = next(
        n for n in tree.body if isinstance(n, ast.If) and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING"
    )
    out: dict[str, str] = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom):
            base = ".".join([package, *(node.module.split(".") if node.module else [])])
            for alias in node.names:
                name = alias.asname or alias.name
                out[name] = f"{base}.{alias.name}" if node.module is None else f"{base}:{alias.name}"
    return out


def attach(package: str, path: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for the package face ``package`` (its ``__init__.py`` at
    ``path``): a name of the ``if TYPE_CHECKING:`` block is imported on first use, then cached
    in the package's namespace (later uses are plain attribute reads)."""
    names = declared_names(path, package)

    def __getattr__(name: str) -> Any:
        target = names.get(name)
        if target is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = load(target)
        setattr(import_module(package), name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(names) | set(vars(import_module(package))))

    return __getattr__, __dir__
