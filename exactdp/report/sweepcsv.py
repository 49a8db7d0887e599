"""The CSV file of ``exactdp sweep --csv``: written through the CSV escaper, read back by ``--resume``.

Each row is one claim at one point (the columns of :data:`~exactdp.report.sweep.CSV_COLUMNS`
after the params), followed by two columns that say which inputs it was computed from:

* ``case``: the case's ``name:``, so that a CSV of another case is refused, not overwritten;
* ``inputs``: the SHA-256 digest of exactdp's version, the case file's text and the point's
  params (:func:`inputs_digests`).

Every cell passes through :func:`~exactdp.report.escape.csv_row`: text from the case file (the
mechanism names in ``of``, the ``found`` text) is made visible and never starts a spreadsheet
formula; exactdp's own exact numbers (params, values) are written as they are, so that they read
back.  Rows are appended point by point and flushed, so a killed sweep leaves at most one row
without its line end.

``--resume`` (:func:`read_resume`) reads back only rows that exactdp wrote for this case: the
header must be this sweep's, every complete row well formed and of this case, or the file is
refused and left as it is.  It reuses a point only when its digest is that of the current case
text and params and all its rows are there; a last row cut off, a point cut off between its
rows, and a point whose inputs changed (the case was edited) are dropped from the file and
checked again.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..claims import FAILS, HOLDS, UNDECIDED, UNSUPPORTED
from ..errors import ExactDPError
from ..numbers import ladder
from ..numbers.expr import ExprError, names_in, parse_expr
from ..verify import FileResult
from .escape import csv_field, csv_row, text
from .sweep import CSV_COLUMNS, csv_rows, point_texts

__all__ = [
    "INPUT_COLUMNS",
    "SweepCsvError",
    "Resumed",
    "csv_columns",
    "inputs_digests",
    "header_line",
    "row_line",
    "read_resume",
    "CsvAppender",
]

INPUT_COLUMNS = ("case", "inputs")
_STATUSES = frozenset({HOLDS, FAILS, UNSUPPORTED, UNDECIDED})
_DIGEST = re.compile(r"[0-9a-f]{64}")
# the columns whose text comes from the case file (every cell is escaped; these may also start
# with a formula character, which then gets its quote)
_FROM_CASE = frozenset({"of", "found", "case"})


class SweepCsvError(ExactDPError):
    """A ``--csv``/``--resume`` file that is not a sweep CSV of this case (it is left as it is)."""


def csv_columns(names: Sequence[str]) -> list[str]:
    """The columns of a sweep CSV: the swept params, then the fixed columns."""
    fixed = (*CSV_COLUMNS, *INPUT_COLUMNS)
    clash = [n for n in names if n in fixed]
    if clash:
        raise SweepCsvError(
            f"the swept param {clash[0]!r} has the name of a column of the sweep CSV "
            f"({', '.join(fixed)}); rename the param to write a CSV"
        )
    return [*names, *fixed]


def inputs_digests(case_text: str, points: Sequence[Sequence[tuple[str, Any]]]) -> list[str]:
    """The SHA-256 digest (hex) of what each point's rows are computed from: exactdp's version,
    the case file's text and the point's params (names and exact values).  The text is hashed
    once, so a large case with many points costs one pass over its text."""
    text_digest = hashlib.sha256(case_text.encode("utf-8", "surrogatepass")).hexdigest()
    return [
        hashlib.sha256(
            json.dumps(
                ["exactdp sweep point", __version__, text_digest, [[n, ladder.text(v)] for n, v in point]]
            ).encode()
        ).hexdigest()
        for point in points
    ]


def header_line(names: Sequence[str]) -> str:
    """The header record, with its line end."""
    return csv_row(csv_columns(names)) + "\n"


def _exact_number(text: str) -> bool:  # (shadows the escaper: this is our own grammar's parser)
    """Whether ``text`` is an exact number in exactdp's grammar, with no names (``-1/2``,
    ``log(3)/2``, ``inf``): exactdp's own output, harmless in a spreadsheet and read back as it is."""
    try:
        return bool(text) and not names_in(parse_expr(text))
    except ExprError:
        return False


def row_line(row: Mapping[str, str], names: Sequence[str]) -> str:
    """One row (a dict over :func:`csv_columns`) as a CSV record through the escaper, with its
    line end.  A ``value`` that is not an exact number (the text found, when a claim has no
    value) is treated as text from the case file."""
    cells = []
    for c in csv_columns(names):
        v = row[c]
        cells.append((v, c in _FROM_CASE or (c == "value" and not _exact_number(v))))
    return csv_row(cells) + "\n"


@dataclass(frozen=True)
class Resumed:
    """What ``--resume`` read back: the rows of each point reused (by the point's param texts),
    and how many points it dropped to check again."""

    done: dict[tuple[str, ...], list[dict[str, str]]] = field(default_factory=dict)
    changed: int = 0  # rows written for other inputs (the case file or the grid was edited)
    cut: int = 0  # rows cut off: the last row without its line end, or a point missing rows

    def notes(self) -> list[str]:
        """What was dropped, for the head line of the sweep."""
        out = []
        if self.cut:
            out.append(f"{self.cut} point{'s' if self.cut != 1 else ''} cut off, checked again")
        if self.changed:
            s = "s" if self.changed != 1 else ""
            out.append(f"{self.changed} point{s} changed since the file was written, checked again")
        return out


def read_resume(path: str, names: Sequence[str], case: str, digests: Mapping[tuple[str, ...], str]) -> Resumed:
    """Read the sweep CSV at ``path`` back for ``--resume``.

    Parameters
    ----------
    path : str
        The CSV (missing or empty: nothing to resume).
    names : sequence of str
        The swept params, in sweep order.
    case : str
        The case's ``name:``.
    digests : mapping
        The current :func:`inputs_digests` of every point of the sweep, by its param texts.

    Returns
    -------
    Resumed
        The points reused.  When points were dropped (cut off, or changed), the file has been
        rewritten (atomically) without their rows.

    Raises
    ------
    SweepCsvError
        The file is not text, its columns are not this sweep's, a complete row is not one that
        exactdp writes, or a row belongs to another case; the file is not changed.
    """
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return Resumed()
    with open(path, "rb") as fh:
        data = fh.read()
    end = data.rfind(b"\n") + 1
    body, tail = data[:end], data[end:]  # a killed sweep leaves at most a last row without its line end
    try:
        lines = body.decode("utf-8").split("\n")[:-1]
    except UnicodeDecodeError as e:
        raise SweepCsvError(f"{text(path)}: not a sweep CSV of exactdp (not UTF-8 text at byte {e.start})") from None
    head = header_line(names)
    if not lines:  # the header itself was cut off
        if not head.encode("utf-8").startswith(tail):
            raise SweepCsvError(f"{text(path)} is not a sweep CSV of this case: it does not start with its columns")
        _rewrite(path, head, [])
        return Resumed()
    _check_header(path, lines[0], names)
    rows = [_row(path, k + 2, line, names, case) for k, line in enumerate(lines[1:])]
    return _reuse(path, head, lines[1:], rows, names, digests, cut_tail=bool(tail))


def _records(line: str) -> list[str]:
    return next(csv.reader([line], strict=True), [])


def _check_header(path: str, line: str, names: Sequence[str]) -> None:
    expected = csv_columns(names)
    try:
        found = _records(line)
    except csv.Error:
        found = []
    if found == expected:
        return
    why = ""
    if found == [*names, *CSV_COLUMNS]:
        why = " (it has no input digests: written by hand or by an older exactdp; remove it to start again)"
    raise SweepCsvError(
        f"{text(path)} is not a sweep CSV of this case: its columns are [{text(', '.join(found))[:300]}]; "
        f"expected [{', '.join(expected)}]{why}"
    )


def _row(path: str, lineno: int, line: str, names: Sequence[str], case: str) -> dict[str, str]:
    """One complete row, checked to be one that exactdp writes for this case."""
    cols = csv_columns(names)
    problem: str | None
    try:
        cells = _records(line)
    except csv.Error as e:
        cells, problem = [], f"not CSV ({e})"
    else:
        problem = f"{len(cells)} cells, not {len(cols)}"
    if len(cells) == len(cols):
        row = dict(zip(cols, cells))
        problem = _row_problem(row)
        if problem is None:
            if row["case"] != csv_field(case):
                raise SweepCsvError(
                    f"{text(path)} holds rows of the case {text(row['case'])[:80]!r}, not of {case!r}: "
                    "give another file, or remove it to start again"
                )
            return row
    raise SweepCsvError(
        f"{text(path)}, line {lineno}: not a row that exactdp sweep writes ({problem}); "
        "the file was not changed: remove it to start again"
    )


def _row_problem(row: Mapping[str, str]) -> str | None:
    if not row["claim"].isdigit():
        return f"claim {text(row['claim'])[:40]!r} is not a number"
    if row["status"] not in _STATUSES:
        return f"unknown status {text(row['status'])[:40]!r}"
    if not _DIGEST.fullmatch(row["inputs"]):
        return "the inputs column is not a SHA-256 digest"
    return None


def _reuse(
    path: str,
    head: str,
    lines: list[str],
    rows: list[dict[str, str]],
    names: Sequence[str],
    digests: Mapping[tuple[str, ...], str],
    *,
    cut_tail: bool,
) -> Resumed:
    by_point: dict[tuple[str, ...], list[int]] = {}
    for k, row in enumerate(rows):
        by_point.setdefault(tuple(row[n] for n in names), []).append(k)
    current = {
        key: ks for key, ks in by_point.items() if key in digests and all(rows[k]["inputs"] == digests[key] for k in ks)
    }
    # a point's claims are counted from the other points: the last one written may have been cut
    # after any of its rows, so alone it cannot show how many it has (it is checked again)
    last = tuple(rows[-1][n] for n in names) if rows else None
    n_claims = max((int(rows[k]["claim"]) for key, ks in current.items() if key != last for k in ks), default=0)
    whole = (["0"], [str(c) for c in range(1, n_claims + 1)])
    known = len(current) > (last in current)
    done = {
        key: ks
        for key, ks in current.items()
        if (key != last or known) and sorted((rows[k]["claim"] for k in ks), key=int) in whole
    }
    changed = len(by_point) - len(current)
    # rows are appended point by point: a row cut off belongs to the last point, which either
    # has complete rows too (so it is incomplete, counted here) or none
    cut = max(len(current) - len(done), int(cut_tail))
    if changed or cut or cut_tail:
        _rewrite(path, head, [lines[k] + "\n" for ks in done.values() for k in ks])
    return Resumed({key: [rows[k] for k in ks] for key, ks in done.items()}, changed, cut)


def _rewrite(path: str, head: str, lines: list[str]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write(head)
        fh.writelines(lines)
    os.replace(tmp, path)


class CsvAppender:
    """Appends each point's rows to the sweep CSV at ``path`` as soon as the point is known, and
    flushes, so that an interrupted sweep keeps every finished point; each row goes through the
    CSV escaper (:func:`row_line`), stamped with the case's name and the digest of the point's
    inputs (:func:`inputs_digests`).  With ``path`` ``None`` the rows are only returned.  A new
    or empty file gets the header first."""

    def __init__(self, path: str | None, names: list[str], case: str, digests: Mapping[tuple[str, ...], str]):
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
        """Append the rows of the point ``fr`` (a :class:`~exactdp.verify.FileResult`) and return them."""
        digest = self.digests.get(point_texts(fr), "")
        rows = [{**r, "case": self.case, "inputs": digest} for r in csv_rows(fr, self.names)]
        if self.fh is not None:
            self.fh.write("".join(row_line(r, self.names) for r in rows))
            self.fh.flush()
        return rows

    def close(self) -> None:
        """Close the file (the rows written so far stay)."""
        if self.fh is not None:
            self.fh.close()
