"""The ``exactdp`` command line: one module per group of commands, each imported when one of its
commands runs (:data:`exactdp.cli.app.COMMANDS`).

Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet);
2 invalid input (a case file, an option), a limit was hit, or a claim could not be decided
(undecided); 3 an internal cross-check failed.
"""

from .app import COMMANDS, main, run

__all__ = ["main", "run", "COMMANDS"]
