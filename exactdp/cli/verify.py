"""``exactdp verify``: check every claim in case files, printing each file's result as soon as
it is known (in file order, whatever the number of workers)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import replace

import click

from ..errors import ExactDPError
from ..lazy import deferred
from ..report import NORMAL, QUIET, VERBOSE, TextReport, render_summary, run_to_json
from ..report.guard import Shown
from ..report.jsonout import file_json
from ..report.terminal import ProgressLine
from ..verify import FileResult, RunResult, stream_paths
from .helptext import command, fail
from .options import Common, PathArg, case_options, emit, flag

__all__ = ["verify"]

# start-up: only --html draws figures and writes pages
case_figures = deferred("exactdp.figures:case_figures")
write_html = deferred("exactdp.report.html:write_cli")


@command()
@click.argument("paths", nargs=-1, required=True, type=PathArg())
@flag("--witness", help="Also show the tight adversary for privloss claims that hold.")
@click.option(
    "--html",
    "html_dir",
    type=PathArg(file_okay=False),
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
    run = stream_paths(list(paths), opts, runner=common.runner, progress=lambda d, t: holder["bar"].update(d))
    if run.total == 0:
        fail(ExactDPError("no case files found under " + ", ".join(paths)))
    bar = holder["bar"] = ProgressLine(run.total, "verify", common.progress)
    verbosity = QUIET if common.quiet else VERBOSE if common.verbose else NORMAL
    report = TextReport(common.marks, verbosity=verbosity)

    shown: Shown = Shown(file_json if common.as_json else report.file)  # (each result rendered once: report.guard)

    def show(fr: FileResult) -> None:
        lines = shown(fr)
        if lines and not common.as_json:
            bar.echo("\n".join(lines))

    with bar:
        _, interrupted = run.collect(show)
    results = shown.results
    out = RunResult(tuple(results))
    written = html_dir is None or write_html(out, html_dir, [case_figures(fr, opts) for fr in results])
    stopped = run.total if interrupted else None
    emit(
        run_to_json(out, interrupted=stopped, entries=shown.renderings)
        if common.as_json
        else render_summary(results, interrupted=stopped)
    )
    code = out.exit_code if written or out.exit_code == 3 else 2  # a report asked for and not written
    sys.exit(130 if interrupted else code)
