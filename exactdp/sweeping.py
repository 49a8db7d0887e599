"""Sweeps: a case checked at every point of its ``sweep:`` grid, each point's CSV rows appended as
soon as the point is known, and an interrupted sweep resumed from its CSV file.

This is what ``exactdp sweep`` runs, as plain functions::

    plan = plan_sweep("cases/vadhan-wang/thm-1-8-sweep.yaml", csv_path="out.csv")
    plan.resume("out.csv")                    # optional: skip the points already in out.csv
    run = run_sweep(plan, csv_path="out.csv")
    run.exit_code                             # as for verify: 0, 1, 2 or 3

The points are the work items of :func:`exactdp.verify.work_items`; each is checked by
:func:`exactdp.verify.check_item`, in this process or on workers (:mod:`exactdp.execution`).  The
CSV file's format, and how ``--resume`` decides which rows it reuses, are
:mod:`exactdp.report.sweepcsv`'s.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from .caseio.files import file_kind
from .caseio.sweep import case_name
from .claims import UNDECIDED
from .errors import ExactDPError
from .execution import Runner, run_ordered
from .report.escape import text
from .report.guard import contained
from .report.plot import load_pyplot
from .report.sweep import PlotUnavailable, csv_rows, point_holds, point_texts
from .report.sweepcsv import CsvAppender, Resumed, inputs_digests, read_resume
from .verify import FileResult, Options, WorkItem, check_item, lost_item, work_items

__all__ = [
    "SweepPlan",
    "SweepRun",
    "plan_sweep",
    "run_sweep",
    "point_key",
    "SweepOptionError",
    "csv_target",
    "plot_axis",
]

PLOT_FORMATS = (".png", ".pdf", ".svg")


class SweepOptionError(ExactDPError):
    """Options of a sweep that do not go together (the command line shows it as a usage error)."""


def csv_target(csv_path: str | None, resume_path: str | None) -> str | None:
    """The CSV file a sweep appends to: ``resume_path``, whose sweep it continues (``csv_path``
    may only name the same file), else ``csv_path``, which must be new or empty."""
    if resume_path is not None and csv_path is not None and os.path.abspath(csv_path) != os.path.abspath(resume_path):
        raise SweepOptionError("--resume FILE appends to FILE: give --csv only with the same file, or not at all")
    if resume_path is None and csv_path is not None and os.path.exists(csv_path) and os.path.getsize(csv_path) > 0:
        raise SweepOptionError(
            f"{csv_path} already has rows: --resume {csv_path} continues that sweep; remove the file to start again"
        )
    target = resume_path or csv_path
    if target is not None and os.path.exists(target) and not stat.S_ISREG(mode := os.stat(target).st_mode):
        raise SweepOptionError(f"{text(target)} is {file_kind(mode)}, not a regular file: a sweep's CSV must be one")
    return target


def plot_axis(names: list[str], plot_x: str | None, plot_path: str) -> str:
    """The swept param on the x axis of the sweep's plot (``plot_x``, default the first), checked
    before the sweep runs, with the plot's file format and the optional extra 'plot'."""
    if not plot_path.lower().endswith(PLOT_FORMATS):
        raise SweepOptionError(
            f"--plot writes {', '.join(f[1:].upper() for f in PLOT_FORMATS)}: name the file *.png, *.pdf or *.svg"
        )
    if not names:
        raise SweepOptionError("--plot needs a case with a `sweep:`")
    if plot_x is not None and plot_x not in names:
        raise SweepOptionError(f"--plot-x {plot_x!r} is not a swept param; swept: {', '.join(names)}")
    try:
        load_pyplot()
    except PlotUnavailable as e:
        raise ExactDPError(f"--plot: {e}") from None
    return plot_x or names[0]


Rows = list[dict[str, str]]


def point_key(item: WorkItem) -> tuple[str, ...]:
    """A point's param values as text, in sweep order: the key of its rows in the CSV."""
    return point_texts(FileResult(item.file, point=item.point or ()))


@dataclass
class SweepPlan:
    """The points of a sweep, what identifies them in its CSV file, and those already done.

    Attributes
    ----------
    case_path : str
        The case file.
    items : list of WorkItem
        Every point, in sweep order (first param outermost).
    names : list of str
        The swept params (empty for a case without ``sweep:``).
    case : str
        The case's ``name:``, written in every CSV row (empty when no CSV is kept).
    digests : dict
        The digest of each point's inputs, by :func:`point_key` (empty when no CSV is kept).
    resumed : Resumed
        What :meth:`resume` read back from an earlier run's CSV.
    todo : list of WorkItem
        The points still to check (all of them, until :meth:`resume`).
    """

    case_path: str
    items: list[WorkItem]
    names: list[str]
    case: str = ""
    digests: dict[tuple[str, ...], str] = field(default_factory=dict)
    resumed: Resumed = field(default_factory=Resumed)
    todo: list[WorkItem] = field(init=False)  # the points still to check

    def __post_init__(self) -> None:
        self.todo = list(self.items)

    def resume(self, path: str) -> None:
        """Reuse the points already in the sweep CSV at ``path`` (see
        :func:`exactdp.report.sweepcsv.read_resume`: a file that is not this sweep's is refused
        with a :class:`~exactdp.report.sweepcsv.SweepCsvError` and left as it is); only the
        others remain in :attr:`todo`."""
        self.resumed = read_resume(path, self.names, self.case, self.digests)
        self.todo = [it for it in self.items if point_key(it) not in self.resumed.done]


def plan_sweep(case_path: str, opts: Options = Options(), *, csv_path: str | None = None) -> SweepPlan:
    """The points of the sweep of the case at ``case_path``; with ``csv_path``, also the case's
    name and the digests of the points' inputs that stamp each CSV row.

    Raises
    ------
    ExactDPError
        The case file cannot be read, or (a case without points) is not a valid case.
    """
    items = work_items([case_path], opts)
    if len(items) == 1 and items[0].error is not None:
        raise items[0].error
    names = [n for n, _ in (items[0].point or ())]
    if csv_path is None:
        return SweepPlan(case_path, items, names)
    return SweepPlan(case_path, items, names, _case_name(items, opts), _digests(items))


def _digests(items: list[WorkItem]) -> dict[tuple[str, ...], str]:
    """The digest of each point's inputs (the items of one sweep share the case text)."""
    points = [it for it in items if it.error is None]
    if not points:
        return {}
    return dict(zip(map(point_key, points), inputs_digests(points[0].text, [it.point or () for it in points])))


def _case_name(items: list[WorkItem], opts: Options) -> str:
    text = next((it.text for it in items if it.error is None), "")
    try:
        return case_name(text, items[0].file, yaml_limits=opts.yaml_limits) if text else ""
    except ExactDPError:  # each point reports the case's problems itself
        return ""


@dataclass
class SweepRun:
    """The outcome of :func:`run_sweep`: the points checked now (in sweep order), the CSV rows of
    every point (read back, then checked now), and whether the run was interrupted."""

    results: list[FileResult]
    rows: Rows
    interrupted: bool
    resumed: Resumed = field(default_factory=Resumed)

    def statuses(self) -> list[str]:
        """Each point's status (holds, fails or undecided): the points checked now, then those
        read back."""
        now = [point_holds(csv_rows(fr, [])) for fr in self.results]
        return now + [point_holds(rows) for rows in self.resumed.done.values()]

    @property
    def exit_code(self) -> int:
        """As for verify, over every point: 3, 2 (an error or undecided), 1 (a claim fails) or 0."""
        codes = [fr.exit_code for fr in self.results]
        for rows in self.resumed.done.values():
            st = point_holds(rows)
            codes.append(2 if st == UNDECIDED else 1 if st == "fails" else 0)
        return next((c for c in (3, 2, 1) if c in codes), 0)


def run_sweep(
    plan: SweepPlan,
    opts: Options = Options(),
    runner: Runner = Runner(),
    *,
    csv_path: str | None = None,
    on_point: Callable[[FileResult], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SweepRun:
    """Check the points of ``plan`` still to do on ``runner``, appending each point's rows to the
    CSV at ``csv_path`` (when given) as soon as it is known, then calling ``on_point`` with it;
    ``progress(done, total)`` as points finish.  On Ctrl-C, the points finished so far.

    Returns
    -------
    SweepRun
        The rows read back come first in :attr:`SweepRun.rows`.
    """
    todo = plan.todo
    out = CsvAppender(csv_path, plan.names, plan.case, plan.digests)
    rows: Rows = []
    results: list[FileResult] = []  # each point as it could be written and shown (report.guard)

    def each(fr: FileResult) -> None:
        fr, written = contained(fr, out.write)
        if on_point is not None:
            fr, _ = contained(fr, on_point)
        rows.extend(written)
        results.append(fr)

    run = run_ordered(_checker(opts, runner.parallel), todo, runner, lost=lost_item, progress=progress)
    try:
        _, interrupted = run.collect(each)
    finally:
        out.close()
    earlier: Sequence[dict[str, str]] = [r for rs in plan.resumed.done.values() for r in rs]
    return SweepRun(results, [*earlier, *rows], interrupted, plan.resumed)


def _checker(opts: Options, parallel: bool) -> Callable[[WorkItem], FileResult]:
    """The function that checks one point (picklable; on workers without a progress callback)."""
    return partial(check_item, opts=replace(opts, progress=None) if parallel else opts)
