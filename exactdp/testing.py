"""Run exactdp case files from another project's test suite.

Two ways, both without making pytest a dependency of exactdp:

* :func:`verify_cases` — call it from any test (pytest, unittest, a script)::

      from exactdp.testing import verify_cases

      def test_privacy_claims():
          verify_cases("privacy_cases/")        # raises CaseVerificationFailed on any failure

* the pytest plugin :mod:`exactdp.pytest_plugin` (registered through the ``pytest11`` entry
  point when exactdp is installed): ``pytest --exactdp-cases privacy_cases/`` adds one test item
  per claim.

A failing claim's report names the file, the claim and the exact value found, with its witness.
An invalid case file (exit status 2 of ``exactdp verify``) fails too, with its located problems.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .caseio import parse_case
from .caseio.case import read_case_text
from .caseio.sweep import point_label, sweep_points
from .errors import CaseError
from .report.text import Marks, render_file
from .verify import Options, RunResult, find_case_files, verify_paths

__all__ = ["verify_cases", "CaseVerificationFailed", "ClaimRef", "list_claims", "item_id"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.=+-]+")


def item_id(text: str, limit: int = 80) -> str:
    """``PrivLoss(M, 0) = log(3)`` → ``PrivLoss-M-0-=-log-3``: a test-id part with no spaces,
    brackets or parentheses, so that an id pastes back into ``pytest`` (and a shell) as it is."""
    return re.sub("-+", "-", _UNSAFE.sub("-", text)).strip("-")[:limit].rstrip("-") or "claim"


class CaseVerificationFailed(AssertionError):
    """Some claim in the case files does not hold, or a file is not a valid case.

    ``result`` is the :class:`~exactdp.verify.RunResult`; the message is the text report of
    the files that did not pass.
    """

    def __init__(self, message: str, result: RunResult):
        super().__init__(message)
        self.result = result


def verify_cases(
    *paths: str | Path,
    engine: str = "profile",
    timeout: float | None = None,
    max_strategies: int | None = None,
    ascii: bool = True,
) -> RunResult:
    """Check every claim in the case files under ``paths``; raise if anything does not hold.

    Parameters
    ----------
    *paths : str or Path
        Case files or directories (searched recursively for ``*.yaml``/``*.yml``).
    engine : {"profile", "enumerator"}, optional (default = "profile")
    timeout : float, optional
        Seconds per case file.
    max_strategies : int, optional
        Enumerator limit.
    ascii : bool, optional (default = True)
        ASCII marks in the failure report.

    Returns
    -------
    RunResult
        When every claim holds.

    Raises
    ------
    CaseVerificationFailed
        A claim fails or is undecided, a file is invalid, or no case file was found.
    """
    if not paths:
        raise ValueError("verify_cases needs at least one path")
    run = verify_paths(list(paths), Options(engine=engine, timeout=timeout, max_strategies=max_strategies))
    if not run.files:
        raise CaseVerificationFailed(f"no case files found under {', '.join(map(str, paths))}", run)
    if run.exit_code != 0:
        lines: list[str] = []
        marks = Marks(ascii_only=ascii)
        for fr in run.files:
            if fr.exit_code != 0:
                lines.extend(render_file(fr, marks, quiet=True))
        c = run.counts()
        lines.append(
            f"{c['fails']} failing and {c.get('error', 0)} undecided claims, {c['invalid_files']} invalid files"
        )
        raise CaseVerificationFailed("\n".join(lines), run)
    return run


@dataclass(frozen=True)
class ClaimRef:
    """One claim of one case file, for parametrising tests (see :func:`list_claims`)."""

    file: str
    index: int
    description: str
    point: str = ""  # the sweep point, ``k=3, eps=log(2)`` (empty without a sweep)

    @property
    def test_id(self) -> str:
        """``bad.yaml::1-PrivLoss-M-0-=-log-3``: the claim's number in the file, counted from 1 as
        every report and certificate counts it (``index`` counts from 0; see :func:`item_id`)."""
        head = f"{item_id(self.point)}-" if self.point else ""
        return f"{Path(self.file).name}::{head}{self.index + 1}-{item_id(self.description)}"


def list_claims(paths: Sequence[str | Path]) -> list[ClaimRef]:
    """Every claim of every valid case file under ``paths``, at every point of a sweep
    (invalid files are skipped here; :func:`verify_cases` reports them)."""

    out: list[ClaimRef] = []
    for f in find_case_files(paths):
        try:
            text = read_case_text(f)
            for point in sweep_points(text, str(f)) or [()]:
                case = parse_case(text, str(f), params=dict(point))
                out.extend(ClaimRef(str(f), i, c.describe(), point_label(point)) for i, c in enumerate(case.claims))
        except CaseError:
            continue
    return out
