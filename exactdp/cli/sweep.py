"""``exactdp sweep``: check a case at every point of its ``sweep:`` grid, one row per point."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import click

from ..errors import ExactDPError
from ..report import run_to_json
from ..report.plot import load_pyplot
from ..report.sweep import PlotUnavailable, PointLines, plot_sweep, sweep_head, sweep_summary
from ..report.sweepcsv import SweepCsvError
from ..report.terminal import ProgressLine
from ..sweeping import SweepPlan, SweepRun, plan_sweep, point_key, run_sweep
from ..verify import FileResult, RunResult
from .app import Common, case_options, fail, main
from .verify import marks_for

__all__ = ["sweep"]


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Append each point's results to this CSV file as soon as it is known.",
)
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Skip the points already in this CSV file (from an interrupted sweep) and append the others to it.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Draw a claim's value against a swept param to this image file (needs exactdp[plot]).",
)
@click.option(
    "--plot-claim",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Which claim --plot draws (its number in the case).",
)
@click.option("--plot-x", default=None, help="The swept param on the x axis of --plot [default: the first].")
@click.option(
    "--witness", is_flag=True, help="Also compute the tight adversary of privloss claims that hold (shown with -v)."
)
@case_options(parallel=True)
def sweep(
    case_path: str,
    csv_path: str | None,
    resume_path: str | None,
    plot_path: str | None,
    plot_claim: int,
    plot_x: str | None,
    witness: bool,
    common: Common,
) -> None:
    """Check CASE at every point of its `sweep:` grid (first key outermost): one row per point,
    the params then each claim's verdict and exact value.  -v adds each point's full report.

    Exit status as for verify (1 if a claim fails at some point, 2 if a point could not be
    checked, a claim is undecided at some point, or a file could not be read or written, 130
    when interrupted: the CSV keeps every finished point, and --resume FILE goes on from there).
    """
    opts = replace(common.opts, witness=witness)
    if resume_path is not None and csv_path is not None and os.path.abspath(csv_path) != os.path.abspath(resume_path):
        raise click.UsageError("--resume FILE appends to FILE: give --csv only with the same file, or not at all")
    if resume_path is None and csv_path is not None and os.path.exists(csv_path) and os.path.getsize(csv_path) > 0:
        raise click.UsageError(
            f"{csv_path} already has rows: --resume {csv_path} continues that sweep; remove the file to start again"
        )
    csv_path = resume_path or csv_path
    with _file_errors():
        try:
            plan = plan_sweep(case_path, opts, csv_path=csv_path)
        except ExactDPError as e:
            fail(e)
        if plot_path is not None:
            _check_plot(plan.names, plot_x, plot_path)
        if resume_path:
            plan.resume(resume_path)
        if not (common.as_json or common.quiet):
            skipped = len(plan.items) - len(plan.todo)
            click.echo(sweep_head(case_path, plan.names, len(plan.items), skipped, resume_path, plan.resumed.notes()))
        run = _run(plan, opts, csv_path, common)
        stopped = (len(plan.todo) - len(run.results), len(plan.todo)) if run.interrupted else None
        if common.as_json:
            click.echo(run_to_json(RunResult(tuple(run.results)), interrupted=stopped[1] if stopped else None))
        else:
            click.echo(sweep_summary(run.statuses(), len(plan.resumed.done), resume_path, stopped))
        if plot_path is not None and not run.interrupted:
            x = plot_x or plan.names[0]
            try:
                n = plot_sweep(run.rows, plan.names, x, plot_claim, plot_path)
            except PlotUnavailable as e:  # pragma: no cover - checked before the sweep
                fail(ExactDPError(str(e)))
            click.echo(f"plot: claim {plot_claim} against {x} ({n} points) written to {plot_path}", err=True)
    sys.exit(130 if run.interrupted else run.exit_code)


@contextmanager
def _file_errors() -> Iterator[None]:
    """A file that cannot be read or written (the CSV, the plot), or a CSV that is not this
    sweep's (left as it is), ends the command with one line: a clear error, never a traceback."""
    try:
        yield
    except OSError as e:
        fail(ExactDPError(f"cannot read or write {e.filename or 'a file'}: {e.strerror or e}"))
    except SweepCsvError as e:
        fail(e)


_PLOT_FORMATS = (".png", ".pdf", ".svg")


def _check_plot(names: list[str], plot_x: str | None, plot_path: str) -> None:
    if not plot_path.lower().endswith(_PLOT_FORMATS):
        raise click.UsageError(
            f"--plot writes {', '.join(f[1:].upper() for f in _PLOT_FORMATS)}: name the file *.png, *.pdf or *.svg"
        )
    if not names:
        raise click.UsageError("--plot needs a case with a `sweep:`")
    if plot_x is not None and plot_x not in names:
        raise click.UsageError(f"--plot-x {plot_x!r} is not a swept param; swept: {', '.join(names)}")
    try:
        load_pyplot()
    except PlotUnavailable as e:
        fail(ExactDPError(f"--plot: {e}"))


def _run(plan: SweepPlan, opts: Any, csv_path: str | None, common: Common) -> SweepRun:
    """The points still to do, each shown as it is known (and kept in the CSV)."""
    todo = plan.todo
    lines = PointLines(plan.names, [point_key(it) for it in todo], marks_for(common), verbose=common.verbose)
    bar = ProgressLine(len(todo), "sweep", common.progress)

    def show(fr: FileResult) -> None:
        if not (common.as_json or (common.quiet and fr.exit_code == 0)):
            bar.echo("\n".join(lines(fr)))

    try:
        with bar:
            return run_sweep(plan, opts, common.runner, csv_path=csv_path, on_point=show, progress=bar.update)
    except ExactDPError as e:
        fail(e)
        raise  # pragma: no cover - fail() exits
