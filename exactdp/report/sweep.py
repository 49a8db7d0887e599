"""Reports of a sweep (a case checked at every point of its ``sweep:`` grid).

One row per point: the params, then each claim's verdict mark and exact value; CSV rows in
long form (one row per point and claim: the params, the claim's number, kind, mechanism,
status and exact value), which is what ``--csv`` appends point by point and ``--resume`` reads
back; and a minimal plot of one claim's value against one swept param (matplotlib, optional).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..claims import HOLDS, UNDECIDED
from ..errors import CaseError, ExactDPError
from ..numbers import ladder
from ..numbers.expr import ExprError, eval_text
from ..verify import FileResult
from .escape import mpl, text
from .plot import MissingExtraError, load_pyplot
from .text import VERBOSE, Marks, TextReport
from .verdicts import shown, value_text

__all__ = [
    "CSV_COLUMNS",
    "point_texts",
    "sweep_row",
    "claims_legend",
    "csv_rows",
    "plot_sweep",
    "PlotUnavailable",
    "sweep_head",
    "sweep_summary",
    "column_widths",
    "PointLines",
]

# after the params' own columns
CSV_COLUMNS = ("claim", "kind", "of", "status", "value", "found")


PlotUnavailable = MissingExtraError  # matplotlib is not installed (the ``exactdp[plot]`` extra)


def point_texts(fr: FileResult) -> tuple[str, ...]:
    """The point's param values as text, in sweep order (the key of a CSV row)."""
    return tuple(ladder.text(v) for _, v in fr.point)


def claims_legend(fr: FileResult) -> list[str]:
    """``[1] renyi of M: D_alpha(M), the Renyi divergence of order alpha``: what each column of
    the rows is (the claim kind's declared value, and its own pairs or adversaries if it has them).  Mechanism names come from the case file:
    escaped for the terminal."""
    return [
        f"  [{k + 1}] {v.claim.kind} of {_of(v.claim.of)}{text(v.claim.scope())}: {text(v.claim.shown().doc)}"
        for k, v in enumerate(fr.verdicts)
    ]


def _of(of: Any) -> str:
    return text(", ".join(of) if isinstance(of, (tuple, list)) else str(of))


def sweep_row(fr: FileResult, widths: Sequence[int], marks: Marks) -> str:
    """``k=1  eps=log(2)   ✓ log(2)  ✓ 1/100``: a point and its verdicts."""
    params = "  ".join(f"{name}={ladder.text(v)}".ljust(w) for (name, v), w in zip(fr.point, widths))
    if fr.error is not None:
        kind = "invalid case" if isinstance(fr.error, CaseError) else "error"
        first = str(fr.error).splitlines()[0] if str(fr.error) else kind
        return f"{params}   {marks.sym[UNDECIDED]} {kind}: {text(first)}".lstrip()
    cells = [f"{marks.sym[v.status]} {text(value_text(v) or shown(v).found)}" for v in fr.verdicts]
    return (params + "   " + "  ".join(cells)).lstrip()


def sweep_head(
    case_path: str,
    names: Sequence[str],
    total: int,
    skipped: int,
    resume_path: str | None,
    notes: Sequence[str] = (),
) -> str:
    """``sweep CASE: 24 points, params k, eps (first outermost)``; with ``--resume``, the points
    already in the CSV and ``notes`` on what it checks again and why."""
    order = f"params {', '.join(names)} (first outermost)" if names else "no sweep: the case's own params"
    line = f"sweep {text(case_path)}: {total} point{'s' if total != 1 else ''}, {order}"
    if skipped:
        line += f"; {skipped} already in {text(resume_path)}"
    if notes:
        line += f"; in {text(resume_path)}: " + "; ".join(notes)
    return line


def column_widths(names: Sequence[str], points: Sequence[Sequence[str]]) -> list[int]:
    """The width of each param's column (``k=3``) over the points' texts."""
    return [max((len(f"{n}={p[k]}") for p in points), default=0) for k, n in enumerate(names)]


def sweep_summary(
    statuses: Sequence[str], read_back: int, resume_path: str | None, interrupted: tuple[int, int] | None = None
) -> str:
    """``summary: 24 points: 24 where every claim holds, 0 where some claim does not``; with the
    points read back from ``resume_path`` and, after an interruption, how many of the points to
    check were not (``interrupted``: not checked, to check)."""
    n = len(statuses)
    parts = [
        f"{statuses.count(HOLDS)} where every claim holds",
        f"{statuses.count('fails')} where some claim does not",
    ]
    if statuses.count(UNDECIDED):
        parts.append(f"{statuses.count(UNDECIDED)} not checked (an error or a limit)")
    line = f"summary: {n} point{'s' if n != 1 else ''}: " + ", ".join(parts)
    if read_back:
        line += f" ({read_back} read from {resume_path})"
    if interrupted is not None:
        line += f"; interrupted: {interrupted[0]} of {interrupted[1]} not checked"
    return line


class PointLines:
    """The lines that show each point of a sweep as it is known: the claims' legend before the
    first valid point, the point's row (:func:`sweep_row`) and, with ``verbose``, the point's
    full report indented."""

    def __init__(self, names: Sequence[str], points: Sequence[Sequence[str]], marks: Marks, *, verbose: bool = False):
        self.widths = column_widths(names, points)
        self.marks = marks
        self.verbose = verbose
        self.report = TextReport(marks, verbosity=VERBOSE)
        self.legend_done = False

    def __call__(self, fr: FileResult) -> list[str]:
        lines = []
        if not self.legend_done and fr.error is None:
            self.legend_done = True
            lines += ["claims:"] + claims_legend(fr)
        lines.append(sweep_row(fr, self.widths, self.marks))
        if self.verbose:
            lines += ["    " + line for line in self.report.file(fr)]
        return lines


def csv_rows(fr: FileResult, names: Sequence[str]) -> list[dict[str, str]]:
    """The long-form CSV rows of one point (one row with claim 0 for a point that failed)."""
    base = dict(zip(names, point_texts(fr)))
    if fr.error is not None:
        return [
            {
                **base,
                "claim": "0",
                "kind": "",
                "of": "",
                "status": UNDECIDED,
                "value": "",
                "found": str(fr.error).splitlines()[0],
            }
        ]
    return [
        {
            **base,
            "claim": str(k + 1),
            "kind": v.claim.kind,
            "of": _of(v.claim.of),
            "status": v.status,
            "value": value_text(v),
            "found": shown(v).found,
        }
        for k, v in enumerate(fr.verdicts)
    ]


def point_holds(rows: Iterable[Mapping[str, str]]) -> str:
    """The status of a point from its CSV rows: holds, fails (or not supported) or error."""
    statuses = {r["status"] for r in rows}
    if UNDECIDED in statuses:
        return UNDECIDED
    return HOLDS if statuses <= {HOLDS} else "fails"


def plot_sweep(rows: Sequence[Mapping[str, str]], names: Sequence[str], x: str, claim: int, out: str) -> int:
    """Draw claim number ``claim``'s value against the swept param ``x``, one line per value of
    the other params, to the file ``out`` (PNG, PDF, SVG by its suffix); returns the number of
    points drawn.  Values are exact in the rows; the plot shows their decimal approximations.
    Points where the claim could not be decided, or whose value is inf, are left out."""
    plt = load_pyplot()
    numbers = sorted({int(r["claim"]) for r in rows if r["claim"].isdigit()})
    if claim not in numbers:  # (a plot with no line would say nothing)
        raise ExactDPError(f"--plot-claim {claim}: the case's claims are numbered 1 to {max(numbers, default=0)}")
    others = [n for n in names if n != x]
    series: dict[tuple[str, ...], list[tuple[float, float, str]]] = {}
    for r in rows:
        if r["claim"] != str(claim) or r["status"] == UNDECIDED:
            continue
        try:
            xv, yv = eval_text(r[x]), eval_text(r["value"])
        except ExprError:
            continue
        if ladder.is_inf(yv):
            continue
        key = tuple(f"{n}={r[n]}" for n in others)
        series.setdefault(key, []).append((ladder.to_float(xv), ladder.to_float(yv), r[x]))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    drawn = 0
    for key, pts in series.items():
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=mpl(", ".join(key)) or None)
        drawn += len(pts)
    kinds = {r["kind"] for r in rows if r["claim"] == str(claim)}
    if not drawn:
        plt.close(fig)
        raise ExactDPError(
            f"--plot-claim {claim}: claim {claim} ({', '.join(sorted(kinds))}) has no number to draw at any point "
            "(its value is a set, a formula in the symbols, inf, or undecided); the CSV and the report have its results"
        )
    ax.set_xlabel(mpl(x))
    ax.set_ylabel(mpl(f"claim {claim} ({', '.join(sorted(kinds))}): exact value, shown as a decimal"))
    if any(series):
        ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return drawn
