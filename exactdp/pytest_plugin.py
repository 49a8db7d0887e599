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
``--exactdp-timeout SECONDS`` (per case file, or per point of a sweep).

**The same limits as** ``exactdp verify``: each case file (each point of a sweep) is read and
checked under the command line's default limits (300 s, 800 MiB, ...; see
:mod:`exactdp.limits`), and every limit is set with an ini option named after its flag:
``exactdp_timeout``, ``exactdp_max_memory`` (``4G``; 0: none), ``exactdp_max_nodes``,
``exactdp_max_profile_size``, ... and ``exactdp_follow_symlinks``, ``exactdp_max_file_bytes``,
``exactdp_max_yaml_nodes``, ``exactdp_max_problems``, ``exactdp_max_sweep_points``, e.g.::

    [pytest]
    exactdp_max_memory = 2G
    exactdp_timeout = 600

Symbolic links are treated as by ``exactdp verify``: a link (a file, or a directory on the way
to one) is reported as a failing item naming it, not read and not skipped; with
``exactdp_follow_symlinks = true`` links whose target stays inside the ``--exactdp-cases`` tree
are followed.  The claims of a file (of a point) are checked together, like ``verify`` does,
with the premises of its mechanisms first.

pytest is imported here only: exactdp itself does not depend on it.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from .analysis.engine import ENGINE_NAMES
from .caseio import parse_case
from .caseio.case import read_case_text
from .caseio.sweep import point_label, sweep_points
from .claims import HOLDS, Verdict
from .errors import ExactDPError, VerificationError
from .limits import DEFAULT, FLAGS, READING, Reading, flags, parse_size, using
from .report.escape import error_text, text
from .report.text import Marks, render_file
from .testing import item_id
from .verify import FileResult, Options, premise_claims, verify_case

__all__ = [
    "pytest_addoption",
    "pytest_configure",
    "pytest_collect_file",
    "plugin_options",
    "CaseFile",
    "ClaimItem",
    "InvalidCaseItem",
    "ClaimFailed",
    "item_id",
]

# every limit of the command line that reads case files, field -> flag (exactdp.limits declares them)
_FLAGS = {**FLAGS, **{f.field: f.flag for f in flags(Reading)}}
_DEFAULTS = {**vars(READING), **{name: getattr(DEFAULT, name) for name in FLAGS}}


def _ini_name(field: str) -> str:
    return "exactdp_" + _FLAGS[field].lstrip("-").replace("-", "_")


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
    group.addoption(
        "--exactdp-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help=f"limit per case file (default: the ini option exactdp_timeout, else {DEFAULT.timeout:g}; 0: none)",
    )
    for name, flag in _FLAGS.items():
        shown = "false" if _DEFAULTS[name] is False else _DEFAULTS[name]
        parser.addini(_ini_name(name), f"exactdp: as {flag} of exactdp verify [default: {shown}]")


def plugin_options(config: Any) -> Options:
    """The :class:`~exactdp.verify.Options` the plugin checks with: the engine, and the limits
    of ``exactdp verify`` with the ini options (and ``--exactdp-timeout``) applied."""
    given: dict[str, Any] = {}
    for name in _FLAGS:
        raw = str(config.getini(_ini_name(name)) or "").strip()
        if raw:
            given[name] = _ini_value(_ini_name(name), raw, _DEFAULTS[name], size=name == "max_memory")
    if config.getoption("exactdp_timeout") is not None:
        given["timeout"] = config.getoption("exactdp_timeout")
    reading = {name: given.pop(name) for name in vars(READING) if name in given}
    return Options.under(
        DEFAULT.replace(**given), replace(READING, **reading), engine=config.getoption("exactdp_engine")
    )


def _ini_value(name: str, raw: str, default: Any, *, size: bool = False) -> Any:
    try:
        if isinstance(default, bool):
            if raw.lower() not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
                raise ValueError("write true or false")
            return raw.lower() in ("true", "yes", "1", "on")
        if size:
            return parse_size(raw)
        value = float(raw) if isinstance(default, float) else int(raw)
        if value < 0 or (value == 0 and not isinstance(default, float)):
            raise ValueError("must be positive" if not isinstance(default, float) else "must be at least 0")
        return value
    except ValueError as e:
        raise pytest.UsageError(f"ini option {name} = {raw!r}: {e}") from None


def _roots(config: Any) -> list[Path]:
    # not resolved: a link on the way to a case file is reported, as by `exactdp verify`
    return [Path(os.path.abspath(p)) for p in config.getoption("exactdp_cases") or []]


def pytest_configure(config: Any) -> None:
    roots = _roots(config)
    if roots:
        missing = [p for p in config.getoption("exactdp_cases") if not os.path.lexists(p)]
        if missing:
            raise pytest.UsageError(f"--exactdp-cases: no such file or directory: {', '.join(missing)}")
        config.stash[_OPTIONS] = plugin_options(config)
        args = list(config.args)
        for p in config.getoption("exactdp_cases"):
            # a node id pasted back (``file.yaml::1-PrivLoss-M-0``) selects within the path
            if p not in args and not any(
                str(a).startswith(p.rstrip("/") + "/") or str(a).startswith(p + "::") for a in args
            ):
                args.append(p)
        config.args[:] = args


_OPTIONS = pytest.StashKey[Options]()


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    fp = Path(os.path.abspath(file_path))
    for r in _roots(parent.config):
        if fp == r or r in fp.parents:
            return CaseFile.from_parent(parent, path=file_path, tree=r if r != fp else r.parent)
    return None


def _with_ini_hint(message: str) -> str:
    """``message``, and the ini options that set the limits or flags it names (a message of
    exactdp names the command line's flags)."""
    named = [f for f in _FLAGS.values() if f in message]
    if not named:
        return message
    ini = ", ".join("exactdp_" + f.lstrip("-").replace("-", "_") for f in named)
    return message + f"\n(under pytest: set {', '.join(named)} with the ini option {ini})"


class ClaimFailed(Exception):
    """A claim did not hold (or could not be decided); the message is exactdp's report."""


class CaseFile(pytest.File):
    """One case file: its claims (at each point of its sweep) are the test items."""

    def __init__(self, *, tree: Path, **kw: Any):
        super().__init__(**kw)
        self.tree = tree

    def collect(self):
        opts: Options = self.config.stash[_OPTIONS]
        lim = opts.effective_limits()
        self._cases: list[Any] = []
        self._verdicts: dict[int, Any] = {}
        try:
            with using(lim):
                text = read_case_text(self.path, yaml_limits=opts.yaml_limits, tree=self.tree)
                points = sweep_points(
                    text,
                    str(self.path),
                    yaml_limits=opts.yaml_limits,
                    max_points=opts.max_sweep_points,
                    max_problems=opts.max_problems,
                ) or [()]
            for point in points:
                with using(lim):
                    self._cases.append(
                        parse_case(
                            text,
                            str(self.path),
                            yaml_limits=opts.yaml_limits,
                            max_problems=opts.max_problems,
                            params=dict(point),
                        )
                    )
        except ExactDPError as e:
            yield InvalidCaseItem.from_parent(self, name="invalid-case", error="\n".join(error_text(e)))
            return
        for k, (point, case) in enumerate(zip(points, self._cases)):
            # item names reach the terminal and CI logs: made of safe characters by item_id
            prefix = item_id(point_label(point)) + "-" if point else ""
            for i, claim in enumerate(case.claims):
                yield ClaimItem.from_parent(
                    self, name=f"{prefix}{i + 1}-{item_id(claim.describe())}", claim=claim, point=k, index=i
                )

    def verdicts(self, point: int = 0) -> tuple[Any, Any]:
        """(premise verdicts, claim verdicts) of one point: its claims checked together under
        the limits, like ``exactdp verify`` checks a file (the first item of a point pays)."""
        if point not in self._verdicts:
            self._verdicts[point] = self._check(point)
        return self._verdicts[point]

    def _check(self, point: int) -> tuple[Any, Any]:
        opts: Options = self.config.stash[_OPTIONS]
        lim = opts.effective_limits()
        case = self._cases[point]
        n_premises = len(premise_claims(case)[0])
        start = time.monotonic()
        try:
            with using(lim):
                out = verify_case(case, opts, deadline=start + lim.timeout if lim.timeout else None)
        except VerificationError:
            raise
        except ExactDPError as e:  # a limit hit outside any one claim (the memory watch, the clock)
            return (), tuple(Verdict.undecided(c, str(e)) for c in case.claims)
        return out[:n_premises], out[n_premises:]


class ClaimItem(pytest.Item):
    """One claim of a case file."""

    def __init__(self, *, claim: Any, point: int = 0, index: int = 0, **kw: Any):
        super().__init__(**kw)
        self.claim = claim
        self.point = point
        self.index = index

    def runtest(self) -> None:
        case_file = self._case_file()
        premises, verdicts = case_file.verdicts(self.point)
        verdict = verdicts[self.index]
        if verdict.status != HOLDS:
            shown = tuple(p for p in premises if p.status != HOLDS) + (verdict,)
            fr = FileResult(str(self.path), case_file._cases[self.point], shown)
            raise ClaimFailed(_with_ini_hint("\n".join(render_file(fr, Marks(ascii_only=True)))))

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
        raise ClaimFailed(_with_ini_hint(self.error))

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        return str(excinfo.value)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}: invalid case"
