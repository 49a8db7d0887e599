"""``exactdp sweep``: check a case at every point of its ``sweep:`` grid, one row per point."""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from functools import partial
from typing import Any

import click

from ..caseio.sweep import case_name
from ..claims import UNDECIDED
from ..errors import ExactDPError
from ..execution import run_ordered
from ..report import VERBOSE, TextReport, run_to_json
from ..report.plot import load_pyplot
from ..report.sweep import (
    PlotUnavailable,
    claims_legend,
    column_widths,
    csv_rows,
    plot_sweep,
    point_holds,
    point_texts,
    sweep_head,
    sweep_row,
    sweep_summary,
)
from ..report.sweepcsv import Resumed, SweepCsvError, header_line, inputs_digests, read_resume, row_line
from ..verify import FileResult, RunResult, WorkItem, check_item, lost_item, work_items
from .app import Common, ProgressLine, case_options, fail, main
from .verify import marks_for, stream_results

__all__ = ["sweep"]


def _item_key(item: WorkItem) -> tuple[str, ...]:
    return point_texts(FileResult(item.file, point=item.point or ()))


def _digests(items: list[WorkItem]) -> dict[tuple[str, ...], str]:
    """The digest of each point's inputs (the items of one sweep share the case text)."""
    points = [it for it in items if it.error is None]
    if not points:
        return {}
    return dict(zip(map(_item_key, points), inputs_digests(points[0].text, [it.point or () for it in points])))


def _case_name(items: list[WorkItem], opts: Any) -> str:
    text = next((it.text for it in items if it.error is None), "")
    try:
        return case_name(text, items[0].file, yaml_limits=opts.yaml_limits) if text else ""
    except ExactDPError:  # each point reports the case's problems itself
        return ""


class _CsvOut:
    """Appends each point's rows as soon as it is known (and flushes, so an interrupted sweep
    keeps every finished point), each row through the CSV escaper and stamped with the case's
    name and the digest of the point's inputs."""

    def __init__(self, path: str | None, names: list[str], case: str, digests: dict[tuple[str, ...], str]):
        self.fh = None
        self.names = names
        self.case = case
        self.digests = digests
        if path is None:
            return
        new = not os.path.exists(path) or os.path.getsize(path) == 0
        self.fh = open(path, "a", newline="", encoding="utf-8")
        if new:
            self.fh.write(header_line(names))
            self.fh.flush()

    def write(self, fr: FileResult) -> list[dict[str, str]]:
        digest = self.digests.get(point_texts(fr), "")
        rows = [{**r, "case": self.case, "inputs": digest} for r in csv_rows(fr, self.names)]
        if self.fh is not None:
            self.fh.write("".join(row_line(r, self.names) for r in rows))
            self.fh.flush()
        return rows

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()


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
    try:
        _sweep(case_path, csv_path, resume_path, plot_path, plot_claim, plot_x, witness, common)
    except OSError as e:  # the CSV or the plot file: a clear error, never a traceback
        fail(ExactDPError(f"cannot read or write {e.filename or 'a file'}: {e.strerror or e}"))
    except SweepCsvError as e:  # the file is left as it is
        fail(e)


def _sweep(
    case_path: str,
    csv_path: str | None,
    resume_path: str | None,
    plot_path: str | None,
    plot_claim: int,
    plot_x: str | None,
    witness: bool,
    common: Common,
) -> None:
    opts = replace(common.opts, witness=witness)
    if resume_path is not None and csv_path is not None and os.path.abspath(csv_path) != os.path.abspath(resume_path):
        raise click.UsageError("--resume FILE appends to FILE: give --csv only with the same file, or not at all")
    if resume_path is None and csv_path is not None and os.path.exists(csv_path) and os.path.getsize(csv_path) > 0:
        raise click.UsageError(
            f"{csv_path} already has rows: --resume {csv_path} continues that sweep; remove the file to start again"
        )
    csv_path = resume_path or csv_path
    try:
        items = work_items([case_path], opts)
    except ExactDPError as e:
        fail(e)
    if len(items) == 1 and items[0].error is not None:
        fail(items[0].error)
    names = [n for n, _ in (items[0].point or ())]
    if plot_path is not None:
        _check_plot(names, plot_x, plot_path)
    case = _case_name(items, opts) if csv_path is not None else ""
    digests = _digests(items) if csv_path is not None else {}
    resumed = read_resume(resume_path, names, case, digests) if resume_path else Resumed()
    done = resumed.done
    todo = [it for it in items if _item_key(it) not in done]
    if not (common.as_json or common.quiet):
        click.echo(sweep_head(case_path, names, len(items), len(items) - len(todo), resume_path, resumed.notes()))
    out = _CsvOut(csv_path, names, case, digests)
    results, rows, interrupted = _run(todo, opts, names, out, common)
    rows = [r for rs in done.values() for r in rs] + rows
    if common.as_json:
        click.echo(run_to_json(RunResult(tuple(results)), interrupted=len(todo) if interrupted else None))
    else:
        statuses = [point_holds(csv_rows(fr, [])) for fr in results] + [point_holds(rs) for rs in done.values()]
        stopped = (len(todo) - len(results), len(todo)) if interrupted else None
        click.echo(sweep_summary(statuses, len(done), resume_path, stopped))
    if plot_path is not None and not interrupted:
        try:
            n = plot_sweep(rows, names, plot_x or names[0], plot_claim, plot_path)
        except PlotUnavailable as e:  # pragma: no cover - checked before the sweep
            fail(ExactDPError(str(e)))
        click.echo(
            f"plot: claim {plot_claim} against {plot_x or names[0]} ({n} points) written to {plot_path}", err=True
        )
    sys.exit(130 if interrupted else _exit_code(results, done))


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


def _run(
    todo: list[WorkItem], opts: Any, names: list[str], out: _CsvOut, common: Common
) -> tuple[list[FileResult], list[dict[str, str]], bool]:
    widths = column_widths(names, [point_texts(FileResult(it.file, point=it.point or ())) for it in todo])
    marks = marks_for(common)
    report = TextReport(marks, verbosity=VERBOSE)
    rows: list[dict[str, str]] = []
    legend_done = [False]
    bar = ProgressLine(len(todo), "sweep", common.progress)

    def show(fr: FileResult) -> None:
        rows.extend(out.write(fr))
        if common.as_json or (common.quiet and fr.exit_code == 0):
            return
        lines = []
        if not legend_done[0] and fr.error is None:
            legend_done[0] = True
            lines += ["claims:"] + claims_legend(fr)
        lines.append(sweep_row(fr, widths, marks))
        if common.verbose:
            lines += ["    " + line for line in report.file(fr)]
        bar.echo("\n".join(lines))

    run = run_ordered(
        partial(check_item, opts=opts if not common.runner.parallel else replace(opts, progress=None)),
        todo,
        common.runner,
        lost=lost_item,
        progress=lambda d, t: bar.update(d),
    )
    try:
        results, interrupted = stream_results(run, bar, show)
    except ExactDPError as e:
        fail(e)
    finally:
        out.close()
    return results, rows, interrupted


def _exit_code(results: list[FileResult], done: dict) -> int:
    codes = [fr.exit_code for fr in results]
    for rows in done.values():
        st = point_holds(rows)
        codes.append(2 if st == UNDECIDED else 1 if st == "fails" else 0)
    for c in (3, 2, 1):
        if c in codes:
            return c
    return 0
