"""``exactdp examples DIR``: write the example cases shipped with exactdp into DIR."""

from __future__ import annotations

import click

from ..caseio import load_case
from ..caseio.examples import write_examples
from ..errors import ExactDPError
from ..report.escape import text
from .helptext import command, fail
from .options import PathArg, emit, flag

__all__ = ["examples"]


@command()
@click.argument("directory", metavar="DIR", type=PathArg(file_okay=False))
@flag("--force", help="Replace example files that exist in DIR.")
def examples(directory: str, force: bool) -> None:
    """Write the example cases (randomized response, an adaptive adversary, concurrent
    composition, Renyi and f-DP, Theorem 1.10) into DIR, then: exactdp verify DIR."""
    try:
        written = write_examples(directory, force=force)
    except OSError as e:
        fail(ExactDPError(f"cannot write into {directory}: {e.strerror or e}"))
    for path in written:
        emit(text(f"{path}: {load_case(str(path)).title}"))
    emit(text(f"{len(written)} example cases; check them with: exactdp verify {directory}"))
