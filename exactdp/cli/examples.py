"""``exactdp examples DIR``: write the example cases shipped with exactdp into DIR."""

from __future__ import annotations

import click

from ..caseio import load_case
from ..caseio.examples import write_examples
from ..report.escape import text
from .helptext import command

__all__ = ["examples"]


@command()
@click.argument("directory", metavar="DIR", type=click.Path(file_okay=False))
@click.option("--force", is_flag=True, help="Replace example files that exist in DIR.")
def examples(directory: str, force: bool) -> None:
    """Write the example cases (randomized response, an adaptive adversary, concurrent
    composition, Renyi and f-DP, Theorem 1.10) into DIR, then: exactdp verify DIR."""
    try:
        written = write_examples(directory, force=force)
    except OSError as e:
        click.echo(f"exactdp: cannot write into {text(directory)}: {text(e.strerror or e)}", err=True)
        raise SystemExit(2) from None
    for path in written:
        case = load_case(str(path))
        click.echo(text(f"{path}: {case.title}"))
    click.echo(text(f"{len(written)} example cases; check them with: exactdp verify {directory}"))
