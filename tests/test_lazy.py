"""Deferred imports (exactdp/lazy.py): start-up loads only what a command uses, and nothing the
package faces or the command table name is missing."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import click
import pytest

import exactdp
import exactdp.report
from exactdp import lazy
from exactdp.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("exactdp.analysis", "exactdp.claims", "exactdp.caseio", "exactdp.verify", "exactdp.theorems")


def _loaded_after(code: str) -> set[str]:
    """The modules of ``ENGINES`` and the heavy libraries in ``sys.modules`` after ``code``, run
    in a fresh interpreter (a deferred third-party module counts once its code has run)."""
    probe = (
        f"{code}\nimport sys\n"
        f"names = {ENGINES!r} + ('flint', 'mpmath', 'networkx', 'sympy')\n"
        "loaded = [n for n in names if n in sys.modules and type(sys.modules[n]).__name__ == 'module']\n"
        "print(' '.join(loaded), file=sys.stderr)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(out.stderr.splitlines()[-1].split()) if out.stderr.strip() else set()


def test_the_command_line_starts_without_the_engines():
    """``import exactdp.cli`` and ``exactdp --help`` load no engine, claim, reader or heavy library."""
    assert _loaded_after("import exactdp.cli") == set()
    help_run = "import sys\nsys.argv = ['exactdp', '--help']\nfrom exactdp.cli import run\ntry:\n    run()\nexcept SystemExit:\n    pass"
    assert _loaded_after(help_run) == set()


def test_a_rational_case_does_not_load_mpmath_networkx_or_sympy():
    loaded = _loaded_after("from exactdp.verify import verify_file\nverify_file('cases/vadhan-wang/rr-pure.yaml')")
    assert {"exactdp.claims", "exactdp.analysis"} <= loaded
    assert not loaded & {"mpmath", "networkx", "sympy"}, loaded


@pytest.mark.parametrize("package", [exactdp, exactdp.report], ids=lambda p: p.__name__)
def test_every_name_of_a_package_face_resolves(package):
    """The names of the ``if TYPE_CHECKING:`` block are the package's ``__all__`` (besides
    ``__version__``), and each is importable."""
    declared = lazy.declared_names(package.__file__, package.__name__)
    assert set(declared) == set(package.__all__) - {"__version__"}
    for name in declared:
        assert getattr(package, name) is not None
    assert set(declared) <= set(dir(package))
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_every_command_of_the_table_is_a_command_of_its_name():
    ctx = main.make_context("exactdp", ["--help"], resilient_parsing=True)
    assert main.list_commands(ctx) == sorted(COMMANDS)
    for name in COMMANDS:
        cmd = main.get_command(ctx, name)
        assert isinstance(cmd, click.Command) and cmd.name == name


def test_the_short_help_read_from_the_source_is_the_commands_own():
    """``exactdp --help`` shortens each docstring read from the source as click shortens the
    imported command's help."""
    from click.testing import CliRunner

    out = CliRunner().invoke(main, ["--help"], terminal_width=80).output
    ctx = main.make_context("exactdp", ["--help"], resilient_parsing=True)
    limit = 80 - 6 - max(map(len, COMMANDS))
    for name in COMMANDS:
        short = main.get_command(ctx, name).get_short_help_str(limit)
        assert f"  {name}" in out and short.split()[0] in out


def test_a_deferred_module_runs_on_first_use():
    with pytest.raises(ModuleNotFoundError):
        lazy.module("exactdp_no_such_module")
    assert lazy.load("exactdp.cli.app:COMMANDS") is COMMANDS
    assert lazy.deferred("exactdp.report.escape:text")("a") == "a"


DEFERRED_FACES = (
    "exactdp.analysis",
    "exactdp.analysis.parametric",
    "exactdp.builders",
    "exactdp.certificates",
    "exactdp.claims",
    "exactdp.simulation",
)


@pytest.mark.parametrize("name", DEFERRED_FACES)
def test_every_name_of_a_deferred_package_face_resolves(name):
    """Every name of a package face whose names are partly deferred (``if TYPE_CHECKING:`` +
    attach) resolves, declared or in ``__all__``; a deferred name never shares its name with a
    submodule (the import system would overwrite it with the module)."""
    package = importlib.import_module(name)
    declared = lazy.declared_names(package.__file__, name)
    for export in {*package.__all__, *declared}:
        assert getattr(package, export) is not None, export
    clash = {
        n for n, target in declared.items() if ":" in target and importlib.util.find_spec(f"{name}.{n}") is not None
    }
    assert clash == set()
