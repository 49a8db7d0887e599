"""``exactdp export``: a case's exact values as LaTeX macros, for papers (``--latex FILE``)."""

from __future__ import annotations

import sys

import click

from ..limits import using
from ..report.latexvalues import DEFAULT_DIGITS, export_notes, render_values
from ..verify import check_file, sweep_size
from .helptext import command, fail
from .options import OPTION, Common, PathArg, case_options, emit, write_output

__all__ = ["export"]


@command()
@OPTION["case"]
@click.option(
    "--latex",
    "latex_file",
    required=True,
    type=PathArg(dir_okay=False, allow_dash=True),
    help="Write one \\newcommand per exact value of a claim, and its decimal, into FILE ('-': standard output).",
)
@click.option("--prefix", help="Macro names start with this (letters only) [default: exactdp + the case's name].")
@click.option(
    "--digits", type=click.IntRange(1, 60), default=DEFAULT_DIGITS, help="Significant digits of the decimal macros."
)
@case_options(json=False)  # its output is the LaTeX file
def export(case_path: str, latex_file: str, prefix: str | None, digits: int, common: Common) -> None:
    """Check CASE's claims like verify (a sweep: at its params: values), then write their exact
    values as LaTeX macros: a paper does \\input{FILE} and writes $\\varepsilon = \\exactdpRrDemoClaimOne$.
    Macro names are stable and documented (docs/papers.md).  Exit status as for verify: 1 when a
    claim does not hold (its value is still written), 2 for an invalid case (nothing written)."""
    with using(common.opts.effective_limits()):
        fr = check_file(case_path, common.opts)
    if fr.error is not None:
        fail(fr.error)
    body = render_values(fr, prefix=prefix, digits=digits, source=case_path)
    write_output(latex_file, body, reads=[case_path])
    shown = None if common.quiet or latex_file == "-" else latex_file
    for line in export_notes(fr, body, case_path, shown, sweep_size(case_path, common.opts)):
        emit(line, file=sys.stderr)
    sys.exit(fr.exit_code)
