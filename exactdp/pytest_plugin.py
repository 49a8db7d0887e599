"""A pytest plugin: ``pytest --exactdp-cases PATH`` runs exactdp case files as tests.

Registered through the ``pytest11`` entry point, so it is active wherever exactdp is installed;
it does nothing unless ``--exactdp-cases`` is given.  Every claim of every case file under the
given paths (files or directories, searched for ``*.yaml``/``*.yml``) becomes one test item,
named ``<file>::<index>-<claim>`` with the claim's description reduced to letters, digits and
``_ . = + -`` (so a node id pastes back into ``pytest`` as it is); a case with a ``sweep:`` has
one item per point and claim, ``<file>::<params>-<index>-<claim>``.  The mechanisms of a file
(of a point) are analysed once and shared by its claims.  A failing claim reports the exact value found and the witness; a file that is not a
valid case gives one failing item with its located problems.

Options: ``--exactdp-cases PATH`` (repeatable), ``--exactdp-engine profile|enumerator``,
``--exactdp-timeout SECONDS`` (per case file).

pytest is imported here only: exactdp itself does not depend on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .analysis.engine import ENGINE_NAMES
from .report.escape import text
from .testing import item_id

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "pytest_collect_file",
    "CaseFile",
    "ClaimItem",
    "InvalidCaseItem",
    "ClaimFailed",
    "item_id",
]


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("exactdp", "exact differential-privacy case files")
    group.addoption(
        "--exactdp-cases",
        action="append",
        default=[],
        metavar="PATH",
        help="check the exactdp case files under PATH, one test item per claim (repeatable)",
    )
    group.addoption("--exactdp-engine", default="profile", choices=ENGINE_NAMES, help="analysis engine")
    group.addoption("--exactdp-timeout", type=float, default=None, metavar="SECONDS", help="limit per case file")


def _roots(config: Any) -> list[Path]:
    return [Path(p).resolve() for p in config.getoption("exactdp_cases") or []]


def pytest_configure(config: Any) -> None:
    roots = _roots(config)
    if roots:
        missing = [p for p in config.getoption("exactdp_cases") if not Path(p).exists()]
        if missing:
            raise pytest.UsageError(f"--exactdp-cases: no such file or directory: {', '.join(missing)}")
        args = list(config.args)
        for p in config.getoption("exactdp_cases"):
            # a node id pasted back (``file.yaml::0-PrivLoss-M-0``) selects within the path
            if p not in args and not any(
                str(a).startswith(p.rstrip("/") + "/") or str(a).startswith(p + "::") for a in args
            ):
                args.append(p)
        config.args[:] = args


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    roots = _roots(parent.config)
    if not roots:
        return None
    fp = file_path.resolve()
    if any(fp == r or r in fp.parents for r in roots):
        return CaseFile.from_parent(parent, path=file_path)
    return None


class ClaimFailed(Exception):
    """A claim did not hold (or could not be decided); the message is exactdp's report."""


class CaseFile(pytest.File):
    """One case file: its claims (at each point of its sweep) are the test items."""

    def collect(self):
        from .caseio import parse_case
        from .caseio.case import read_case_text
        from .caseio.sweep import point_label, sweep_points
        from .errors import ExactDPError

        self._cases: list[Any] = []
        self._analyses: dict[int, Any] = {}
        try:
            text = read_case_text(self.path)
            points = sweep_points(text, str(self.path)) or [()]
            for point in points:
                self._cases.append(parse_case(text, str(self.path), params=dict(point)))
        except ExactDPError as e:
            from .report.escape import error_text

            yield InvalidCaseItem.from_parent(self, name="invalid-case", error="\n".join(error_text(e)))
            return
        for k, (point, case) in enumerate(zip(points, self._cases)):
            # item names reach the terminal and CI logs: made of safe characters by item_id
            prefix = item_id(point_label(point)) + "-" if point else ""
            for i, claim in enumerate(case.claims):
                yield ClaimItem.from_parent(self, name=f"{prefix}{i}-{item_id(claim.describe())}", claim=claim, point=k)

    def analysis(self, point: int = 0) -> Any:
        if point not in self._analyses:
            import time

            from .analysis import make_engine
            from .claims import Analysis

            cfg = self.config
            timeout = cfg.getoption("exactdp_timeout")
            deadline = None if timeout is None else time.monotonic() + timeout
            case = self._cases[point]
            self._analyses[point] = Analysis(
                case.mechanisms,
                make_engine(cfg.getoption("exactdp_engine"), deadline=deadline),
                symbols=case.symbols,
            )
        return self._analyses[point]


class ClaimItem(pytest.Item):
    """One claim of a case file."""

    def __init__(self, *, claim: Any, point: int = 0, **kw: Any):
        super().__init__(**kw)
        self.claim = claim
        self.point = point

    def runtest(self) -> None:
        from .claims import HOLDS
        from .errors import VerificationError
        from .report.text import Marks, render_file
        from .verify import ERROR, FileResult

        from .claims.parametric import check_claim

        try:
            verdict = check_claim(self.claim, self._case_file().analysis(self.point))
        except VerificationError:
            raise
        except Exception as e:  # a limit or an inexact value: undecided, reported as failure
            from .errors import ExactDPError

            if not isinstance(e, ExactDPError):
                raise
            from .claims import Verdict

            verdict = Verdict(self.claim, ERROR, "could not be decided", str(e))
        if verdict.status != HOLDS:
            fr = FileResult(str(self.path), self._case_file()._cases[self.point], (verdict,))
            raise ClaimFailed("\n".join(render_file(fr, Marks(ascii_only=True))))

    def _case_file(self) -> CaseFile:
        assert isinstance(self.parent, CaseFile)
        return self.parent

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, ClaimFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        line = self.claim.where.line
        return self.path, (line - 1 if line else None), text(f"{self.path.name}: {self.claim.describe()}")


class InvalidCaseItem(pytest.Item):
    """A case file that could not be read: one failing item with exactdp's message."""

    def __init__(self, *, error: str, **kw: Any):
        super().__init__(**kw)
        self.error = error

    def runtest(self) -> None:
        raise ClaimFailed(self.error)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: invalid case"
