"""The ``exactdp`` command group: its table of commands and its exit status (:data:`EXIT_STATUS`).

This module is all that ``exactdp --help`` imports: each command's module is imported when the
command runs (:class:`~exactdp.cli.helptext.Group`)."""

from __future__ import annotations

import click

from .. import __version__
from ..report.terminal import run_console
from .helptext import Group, fail

__all__ = ["EXIT_STATUS", "COMMANDS", "main", "run", "fail"]

EXIT_STATUS = (
    "Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet); 2 invalid input "
    "(a case file, an option), a limit was hit, or a claim could not be decided (undecided, ! in the report); "
    "3 an internal cross-check failed (a bug in exactdp: please report it)."
)

# every command, as "module:function" of exactdp.cli (imported when the command is used)
COMMANDS = {
    name: f"{__package__}.{module}:{name}"
    for module, names in {
        "certify": ["certify"],
        "compose": ["compose"],
        "examples": ["examples"],
        "experiment": ["experiment"],
        "export": ["export"],
        "inspect": ["privloss", "profile", "info", "schema"],
        "parametric": ["delta", "calibrate"],
        "plot": ["plot"],
        "renyi_fdp": ["renyi", "zcdp", "convert", "tradeoff"],
        "simulate": ["simulate"],
        "sweep": ["sweep"],
        "verify": ["verify"],
    }.items()
    for name in names
}


@click.group(
    cls=Group,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"], "show_default": True},
    epilog=EXIT_STATUS,
)
@click.version_option(__version__, prog_name="exactdp")
def main() -> None:
    """Exact differential-privacy verdicts for small finite interactive mechanisms."""


def run() -> None:
    """Console entry point: ``main`` run by :func:`exactdp.report.terminal.run_console` (an
    unexpected exception is an internal error, exit 3; output that cannot be written, or that
    the terminal's encoding cannot show faithfully, ends with one line on stderr and exit 2)."""
    run_console(lambda: main(standalone_mode=True))
