"""The ``exactdp`` command line: one module per group of commands, each imported when one of its
commands runs (:data:`exactdp.cli.app.COMMANDS`; the exit status: :data:`exactdp.cli.app.EXIT_STATUS`)."""

from .app import COMMANDS, main, run

__all__ = ["main", "run", "COMMANDS"]
