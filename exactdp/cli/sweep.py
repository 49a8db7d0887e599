"""``exactdp sweep``: check a case at every point of its ``sweep:`` grid, one row per point."""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from ..errors import ExactDPError
from ..report import run_to_json
from ..report.sweep import PointLines, plot_sweep, sweep_head, sweep_summary
from ..report.terminal import ProgressLine
from ..sweeping import SweepOptionError, csv_target, plan_sweep, plot_axis, point_key, run_sweep
from ..verify import FileResult, RunResult
from .helptext import command, fail
from .options import OPTION, Common, PathArg, case_options, emit, flag

__all__ = ["sweep"]

_FILE = PathArg(dir_okay=False)


@command()
@OPTION["case"]
@click.option(
    "--csv", "csv_path", type=_FILE, help="Append each point's results to this CSV file as soon as it is known."
)
@click.option(
    "--resume",
    "resume_path",
    type=_FILE,
    help="Skip the points already in this CSV file (from an interrupted sweep) and append the others to it.",
)
@click.option(
    "--plot",
    "plot_path",
    type=_FILE,
    help="Draw a claim's value against a swept param to this image file (needs exactdp[plot]).",
)
@click.option(
    "--plot-claim", type=click.IntRange(1), default=1, help="Which claim --plot draws (its number in the case)."
)
@click.option("--plot-x", help="The swept param on the x axis of --plot [default: the first].")
@flag("--witness", help="Also compute the tight adversary of privloss claims that hold (shown with -v).")
@case_options(parallel=True)
def sweep(case_path, csv_path, resume_path, plot_path, plot_claim, plot_x, witness, common: Common) -> None:
    """Check CASE at every point of its `sweep:` grid (first key outermost): one row per point,
    the params then each claim's verdict and exact value.  -v adds each point's full report.

    Exit status as for verify (1 if a claim fails at some point, 2 if a point could not be
    checked, a claim is undecided at some point, or a file could not be read or written, 130
    when interrupted: the CSV keeps every finished point, and --resume FILE goes on from there).
    """
    opts = replace(common.opts, witness=witness)
    try:
        csv_path = csv_target(csv_path, resume_path)
        plan = plan_sweep(case_path, opts, csv_path=csv_path)
        x = plot_axis(plan.names, plot_x, plot_path) if plot_path is not None else None
        if resume_path:
            plan.resume(resume_path)
        if not (common.as_json or common.quiet):
            skipped = len(plan.items) - len(plan.todo)
            emit(sweep_head(case_path, plan.names, len(plan.items), skipped, resume_path, plan.resumed.notes()))
        lines = PointLines(plan.names, [point_key(it) for it in plan.todo], common.marks, verbose=common.verbose)
        with ProgressLine(len(plan.todo), "sweep", common.progress) as bar:

            def show(fr: FileResult) -> None:  # each point as soon as it is known
                if not (common.as_json or (common.quiet and fr.exit_code == 0)):
                    bar.echo("\n".join(lines(fr)))

            run = run_sweep(plan, opts, common.runner, csv_path=csv_path, on_point=show, progress=bar.update)
        stopped = (len(plan.todo) - len(run.results), len(plan.todo)) if run.interrupted else None
        if common.as_json:
            emit(run_to_json(RunResult(tuple(run.results)), interrupted=stopped[1] if stopped else None))
        else:
            emit(sweep_summary(run.statuses(), len(plan.resumed.done), resume_path, stopped))
        if x is not None and not run.interrupted:
            n = plot_sweep(run.rows, plan.names, x, plot_claim, plot_path)
            emit(f"plot: claim {plot_claim} against {x} ({n} points) written to {plot_path}", file=sys.stderr)
    except SweepOptionError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:  # the CSV or the plot cannot be read or written
        fail(ExactDPError(f"cannot read or write {e.filename or 'a file'}: {e.strerror or e}"))
    sys.exit(130 if run.interrupted else run.exit_code)
