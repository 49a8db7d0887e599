"""``exactdp verify``: check every claim in case files, printing each file's result as soon as
it is known (in file order, whatever the number of workers)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

import click

from ..errors import ExactDPError
from ..execution import OrderedRun
from ..figures import case_figures
from ..report import NORMAL, QUIET, VERBOSE, Marks, TextReport, render_summary, run_to_json
from ..report.escape import text
from ..report.html import write_cli as write_html
from ..verify import FileResult, RunResult, stream_paths
from .app import Common, ProgressLine, case_options, fail, main

__all__ = ["verify", "stream_results", "marks_for", "verbosity_of"]

T = TypeVar("T")


def marks_for(common: Common) -> Marks:
    enc = (sys.stdout.encoding or "").lower()
    return Marks(common.ascii_only or "utf" not in enc)


def verbosity_of(common: Common) -> int:
    return QUIET if common.quiet else VERBOSE if common.verbose else NORMAL


def stream_results(run: OrderedRun[T], bar: ProgressLine, on_result: Callable[[T], None]) -> tuple[list[T], bool]:
    """``run.collect(on_result)`` (in order; on Ctrl-C the results finished so far), then the
    progress bar cleared."""
    try:
        return run.collect(on_result)
    finally:
        bar.close()


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--witness", is_flag=True, help="Also show the tight adversary for privloss claims that hold.")
@click.option(
    "--html",
    "html_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Also write a self-contained HTML report into this directory.",
)
@case_options(parallel=True)
def verify(paths: Iterable[str], witness: bool, html_dir: str | None, common: Common) -> None:
    """Check every claim in the case files (directories are searched for *.yaml).

    One line per file (a sweep: per point), plus every claim that does not hold with its
    witness; -v shows every claim, -q only what does not hold.  Results print as soon as they
    are known, in file order whatever --jobs or --scheduler.  Ctrl-C prints the results
    finished so far and the summary, and exits with 130.

    Exit 0 when every claim holds, 1 when some claim does not, 2 when a file is not a valid
    case (the message names the file, the place in it and what is wrong), a limit was hit, or a
    claim could not be decided (undecided, ! in the report), 3 when an internal cross-check
    failed.
    """
    opts = replace(common.opts, witness=witness)
    holder: dict[str, ProgressLine] = {}
    try:
        run = stream_paths(list(paths), opts, runner=common.runner, progress=lambda d, t: holder["bar"].update(d))
    except ExactDPError as e:
        fail(e)
    if run.total == 0:
        click.echo("exactdp: no case files found under " + text(", ".join(paths)), err=True)
        sys.exit(2)
    bar = holder["bar"] = ProgressLine(run.total, "verify", common.progress)
    report = TextReport(marks_for(common), verbosity=verbosity_of(common))

    def show(fr: FileResult) -> None:
        lines = report.file(fr)
        if lines and not common.as_json:
            bar.echo("\n".join(lines))

    try:
        results, interrupted = stream_results(run, bar, show)
    except ExactDPError as e:
        fail(e)
    _finish(results, interrupted, run.total, common, html_dir, opts)


def _finish(
    results: list[FileResult], interrupted: bool, total: int, common: Common, html_dir: str | None, opts: Any
) -> Any:
    out = RunResult(tuple(results))
    written = True
    if html_dir is not None:
        written = write_html(out, html_dir, [case_figures(fr, opts) for fr in results])
    if common.as_json:
        click.echo(run_to_json(out, interrupted=total if interrupted else None))
    else:
        click.echo(render_summary(results, interrupted=total if interrupted else None))
    code = out.exit_code if written or out.exit_code == 3 else 2  # a report asked for and not written
    sys.exit(130 if interrupted else code)
