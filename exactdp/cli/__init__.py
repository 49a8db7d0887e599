"""The ``exactdp`` command line: one module per group of commands, registered on :data:`main`.

Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet);
2 invalid input (a case file, an option), a limit was hit, or a claim could not be decided
(undecided); 3 an internal cross-check failed.
"""

from importlib import import_module

from .app import main, run

# importing a command module registers its commands on `main`
COMMAND_MODULES = (
    "certify",
    "compose",
    "examples",
    "experiment",
    "export",
    "inspect",
    "parametric",
    "plot",
    "renyi_fdp",
    "simulate",
    "sweep",
    "verify",
)
for _module in COMMAND_MODULES:
    import_module(f"{__name__}.{_module}")

__all__ = ["main", "run", "COMMAND_MODULES"]
