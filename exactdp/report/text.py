"""Readable text reports, one file (or sweep point) at a time so they can stream.

Three levels of detail (:class:`TextReport`): ``quiet`` shows only what does not hold and the
summary; the default shows one line per file plus every claim that does not hold, with its
witness; ``verbose`` shows every claim.  The first witness of a report is followed by
:data:`WITNESS_LEGEND`, which explains how histories are written.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

from ..analysis.witness import Witness
from ..caseio.sweep import point_label
from ..claims import FAILS, HOLDS, UNDECIDED, UNSUPPORTED, Verdict
from ..errors import CaseError, TimeLimitExceeded, cut
from ..numbers import Infinity, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..numbers.types import FieldValue
from ..verify import FileResult, RunResult
from .escape import error_text, safe_line, text
from .verdicts import shown

__all__ = [
    "render_run",
    "render_file",
    "render_witness",
    "render_any_witness",
    "short",
    "render_summary",
    "run_scope",
    "Marks",
    "TextReport",
    "WITNESS_LEGEND",
    "QUIET",
    "NORMAL",
    "VERBOSE",
]

QUIET, NORMAL, VERBOSE = 0, 1, 2

WITNESS_LEGEND = (
    "how to read a witness: a history lists what happened, in order, separated by commas; "
    "`q→a` is the adversary's query q answered a by the mechanism, a label alone is an answer "
    "given without a query (the mechanism spoke first) or a choice nobody answered (such as "
    "picking a mechanism), a label that holds a comma, → or a quote, or is blank, is quoted "
    '("a, b"), and (start) is the empty history; so `0, strong→0` reads: the '
    "mechanism said 0, the adversary asked strong, the mechanism answered 0. `after H: choose q` "
    "is the adversary's strategy; the event T lists the views it counts with Pr[view | x] vs "
    "Pr[view | x']."
)


class Marks:
    def __init__(self, ascii_only: bool = False):
        if ascii_only:
            self.sym = {HOLDS: "[ok]  ", FAILS: "[FAIL]", UNSUPPORTED: "[n/a] ", UNDECIDED: "[ERR] "}
        else:
            self.sym = {HOLDS: "✓", FAILS: "✗", UNSUPPORTED: "?", UNDECIDED: "!"}

    @classmethod
    def for_stream(cls, stream: Any, ascii_only: bool = False) -> Marks:
        """The marks for output to ``stream``: ASCII when asked for, or when its encoding is not
        a Unicode one."""
        return cls(ascii_only or "utf" not in (getattr(stream, "encoding", None) or "").lower())


def render_witness(w: Witness, indent: str = "      ", *, lines_limit: int = 12) -> list[str]:
    """The pair, the adversary's strategy, the event and both probabilities (lines escaped
    by :func:`.escape.text`: dataset names and labels come from the case file)."""
    return [text(line) for line in _witness_lines(w, indent, lines_limit)]


def render_any_witness(w: Any, indent: str = "      ", *, lines_limit: int = 12) -> list[str]:
    """A verdict's witness of any kind: an adversary-and-event :class:`Witness`; a group of them
    with a title each (``parts``, e.g. the tests attaining a trade-off point); or a witness type
    that renders itself (``render_lines``, e.g. bounded range and Rényi)."""
    if isinstance(w, Witness):
        return render_witness(w, indent, lines_limit=lines_limit)
    if hasattr(w, "parts"):
        out = [text(f"{indent}{w.intro()}")]
        for title, part in w.parts:
            out.append(text(f"{indent}  {title}:"))
            out.extend(render_any_witness(part, indent + "  ", lines_limit=lines_limit))
        return out
    return [text(line) for line in w.render_lines(indent)]


def short(v: Any, limit: int = 60) -> str:
    """An exact value for reading: its exact text, or — when that is longer than ``limit``
    characters (an element of Q(e^(1/L)) with many terms) — a decimal reading and the length of
    the exact text, which ``--json`` prints in full."""
    s = ladder.text(v)
    if len(s) <= limit:
        return s
    return f"≈ {ladder.decimal(v)} (exact value: {len(s)} characters, in --json)"


def _witness_lines(w: Witness, indent: str, lines_limit: int) -> list[str]:
    x, xp = w.pair_names
    shown = w.lam if w.tight is None or is_inf(w.tight[0]) else w.tight[0]
    lam = ladder.text(shown)
    eps = ladder.text(ladder.log(shown))
    at = " = e^PrivLoss" if w.tight is not None and shown is not w.lam else ""
    out = [
        f"{indent}witness ({w.source} engine, re-checked independently): datasets ({x}, {xp}), eps = {eps} (e^eps = {lam}{at})"
    ]
    tree, cut = w.decision_tree(limit=lines_limit)
    if tree:
        out.append(f"{indent}  adversary:")
        out.extend(f"{indent}    {t}" for t in tree)
        if cut:
            out.append(f"{indent}    ... (strategy continues)")
    else:
        out.append(f"{indent}  adversary: no choices to make")
    views, cut = w.event(limit=lines_limit)
    rel = ">=" if at else ">"  # tight: T was chosen just below e^PrivLoss, so it holds the ties
    out.append(f"{indent}  event T = views with Pr[.|{x}] {rel} e^eps Pr[.|{xp}]:")
    for h, p, pp in views:
        out.append(f"{indent}    {h}   ({short(p)} vs {short(pp)})")
    if cut:  # (views longer than the lines allowed for listing them leave none listed: not an empty T)
        out.append(f"{indent}    ... (more views)" if views else f"{indent}    (its views are too long to list here)")
    elif not views:
        out.append(f"{indent}    (empty)")
    if w.tight is not None:
        out.extend(_tight_lines(w, w.tight, indent))
        return out
    exc = w.excess()
    exc_s = short(exc)
    out.append(
        f"{indent}  Pr[T | {x}] = {short(w.p)}, Pr[T | {xp}] = {short(w.p_prime)}; "
        f"Pr[T | {x}] - e^eps Pr[T | {xp}] = {exc_s}"
    )
    return out


def _tight_lines(w: Witness, tight: tuple[FieldValue | Infinity, FieldValue], indent: str) -> list[str]:
    """The tightness certificate: the event's probabilities stated at λ* = e^PrivLoss."""
    x, xp = w.pair_names
    lam_star, delta = tight
    head = f"{indent}  Pr[T | {x}] = {q_str(w.p)}, Pr[T | {xp}] = {q_str(w.p_prime)}"
    if is_inf(lam_star):
        return [
            head,
            f"{indent}  tight: Pr[T | {xp}] = 0 and Pr[T | {x}] > delta = {q_str(delta)}, so no finite eps works",
        ]
    exc = w.p - lam_star * w.p_prime
    return [
        head,
        f"{indent}  at e^PrivLoss = {q_str(lam_star)}: Pr[T | {x}] - {q_str(lam_star)} Pr[T | {xp}] = {q_str(exc)} >= delta = {q_str(delta)}"
        f" with Pr[T | {xp}] > 0",
        f"{indent}  tight: for every eps < {ladder.text(ladder.log(lam_star))} this event exceeds delta, so no smaller eps works",
    ]


def _claim_line(v: Verdict, marks: Marks) -> str:
    sh = shown(v)
    found = sh.found + (f"; {sh.note}" if sh.note else "")
    return f"  {marks.sym[v.status]} {text(v.claim.describe()):<44} {text(found)}"


def _heading(fr: FileResult) -> str:
    case = fr.case
    assert case is not None
    head = f"{text(fr.file)}: {text(case.name)}"
    if case.title:  # (a heading is one line: a long title or reference is cut, visibly)
        head += f" — {text(cut(case.title, 1000))}"  # (escaped once, by text())
    if case.reference:
        head += f" [{text(cut(case.reference, 1000))}]"
    return head


def _one_line(fr: FileResult, marks: Marks) -> str:
    """``✓ file: name (n claims hold)``: a file's verdict in one line."""
    if fr.error is not None:
        return f"{marks.sym[UNDECIDED]} {text(fr.file)}: {_error_kind(fr)}" + (
            f" (point {text(_point(fr))})" if fr.point else ""
        )
    assert fr.case is not None
    n = {s: sum(v.status == s for v in fr.verdicts) for s in (HOLDS, FAILS, UNSUPPORTED, UNDECIDED)}
    worst = next((s for s in (UNDECIDED, FAILS, UNSUPPORTED) if n[s]), HOLDS)
    if worst == HOLDS:
        what = "1 claim holds" if n[HOLDS] == 1 else f"{n[HOLDS]} claims hold"
    else:
        what = ", ".join(
            f"{n[s]} {w}"
            for s, w in ((HOLDS, "hold"), (FAILS, "fail"), (UNSUPPORTED, "not supported"), (UNDECIDED, "undecided"))
            if n[s]
        )
    return f"{marks.sym[worst]} {text(fr.file)}: {text(fr.case.name)} ({what})"


def _error_kind(fr: FileResult) -> str:
    if isinstance(fr.error, CaseError):
        return "invalid case"
    return "not checked (time limit)" if isinstance(fr.error, TimeLimitExceeded) else "error"


def _point(fr: FileResult) -> str:

    return point_label(fr.point)


def _verdict_lines(v: Verdict, marks: Marks, after_witness: Callable[[], list[str]] | None = None) -> list[str]:
    out = [_claim_line(v, marks)]
    out.extend("      " + text(d) for d in shown(v).details)
    if v.witness is not None:
        out.extend(render_any_witness(v.witness))
        if after_witness is not None:
            out.extend(after_witness())
    return out


def render_file(
    fr: FileResult,
    marks: Marks = Marks(),
    *,
    quiet: bool = False,
    verbosity: int | None = None,
    after_witness: Callable[[], list[str]] | None = None,
) -> list[str]:
    """The report of one file: with the default ``verbosity`` (``VERBOSE``, or ``QUIET`` when
    ``quiet``) a heading and its claims, as :class:`TextReport` prints them; ``after_witness()``
    gives lines to print after each witness shown.  Names, titles, references, labels and quoted
    values come from the case file: each is escaped where the line is built (:func:`.escape.text`),
    and every line passes through :func:`.escape.safe_line` once more."""
    lines = _file_lines(fr, marks, quiet=quiet, verbosity=verbosity, after_witness=after_witness)
    return [safe_line(line) for line in lines]


def _file_lines(
    fr: FileResult, marks: Marks, *, quiet: bool, verbosity: int | None, after_witness: Callable[[], list[str]] | None
) -> list[str]:
    level = verbosity if verbosity is not None else (QUIET if quiet else VERBOSE)
    warned = [f"  warning: {text(w)}" for w in fr.warnings]  # a deprecated spelling, at its place in the file
    if fr.error is not None:
        head = f"{text(fr.file)}: {_error_kind(fr)}" + (f" (point {text(_point(fr))})" if fr.point else "")
        out = [head if level == VERBOSE else _one_line(fr, marks), *warned]
        out.extend("  " + line for line in error_text(fr.error))
        return out
    failing = any(v.status != HOLDS for v in fr.verdicts)
    if level == VERBOSE:
        out = [_heading(fr), *warned]
    elif level == QUIET and not (failing or warned):
        return []
    else:
        out = [_one_line(fr, marks), *warned]
    for v in fr.verdicts:
        if level != VERBOSE and v.status == HOLDS:
            continue
        out.extend(("  " if level != VERBOSE else "") + line for line in _verdict_lines(v, marks, after_witness))
    return out


def run_scope(files: list[FileResult] | tuple[FileResult, ...]) -> str:
    """``3 files``, ``1 file (12 sweep points)``, ``2 files, 1 not valid``: what a run covered.
    A sweep point is one entry of the run, but not one more file."""
    names = {fr.file for fr in files}
    points = sum(1 for fr in files if fr.point)
    out = f"{len(names)} file" + ("" if len(names) == 1 else "s")
    if points:
        out += f" ({points} sweep point{'s' if points != 1 else ''})"
    invalid = sum(1 for fr in files if fr.error is not None and not fr.point)
    unchecked = sum(1 for fr in files if fr.error is not None and fr.point)
    if invalid:
        out += f", {invalid} not valid"
    if unchecked:
        out += f", {unchecked} point{'s' if unchecked != 1 else ''} not checked"
    return out


def render_summary(files: list[FileResult] | tuple[FileResult, ...], *, interrupted: int | None = None) -> str:
    """``summary: 326 claims in 43 files: ...``; with ``interrupted`` (the number of items the
    run had), says how many were left unchecked."""
    c = RunResult(tuple(files)).counts()
    total = c[HOLDS] + c[FAILS] + c[UNSUPPORTED] + c[UNDECIDED]
    parts = [f"{c[HOLDS]} hold", f"{c[FAILS]} fail"]
    if c[UNSUPPORTED]:
        parts.append(f"{c[UNSUPPORTED]} not supported yet")
    if c[UNDECIDED]:
        parts.append(f"{c[UNDECIDED]} undecided")
    line = f"summary: {total} claim{'s' if total != 1 else ''} in {run_scope(files)}: " + ", ".join(parts)
    if interrupted is not None:
        line += f"; interrupted: {interrupted - c['files']} of {interrupted} not checked"
    return line


class TextReport:
    """A text report built one file at a time (for streaming), the witness legend shown once
    per report, after its first witness, and never at ``QUIET``."""

    def __init__(self, marks: Marks = Marks(), *, verbosity: int = NORMAL):
        self.marks = marks
        self.verbosity = verbosity
        self.legend_shown = False

    def file(self, fr: FileResult) -> list[str]:
        return render_file(fr, self.marks, verbosity=self.verbosity, after_witness=self._legend)

    def _legend(self) -> list[str]:
        """The legend, right after the first witness of the report (never in a quiet report)."""
        if self.legend_shown or self.verbosity == QUIET:
            return []
        self.legend_shown = True
        return _wrap(WITNESS_LEGEND, "      ")


def _wrap(paragraph: str, indent: str, width: int = 100) -> list[str]:
    """The legend as a parenthesised paragraph."""

    return textwrap.wrap(f"({paragraph})", width=width, initial_indent=indent, subsequent_indent=indent + " ")


def render_run(run: RunResult, marks: Marks = Marks(), *, quiet: bool = False, verbosity: int | None = None) -> str:
    """A whole run (default: every claim, as ``verify -v`` prints it) and its summary line."""
    report = TextReport(marks, verbosity=verbosity if verbosity is not None else (QUIET if quiet else VERBOSE))
    lines: list[str] = []
    for fr in run.files:
        lines.extend(report.file(fr))
    lines.append(render_summary(run.files))
    return "\n".join(lines)
