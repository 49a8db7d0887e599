"""Checking case files: the pipeline case file → mechanisms → analysis → verdicts.

One work item (a case file, or one point of a case file's ``sweep:``) is checked by
:func:`check_item`, in this process or in a worker (:mod:`exactdp.execution`);
:func:`stream_paths` lists the items under some paths and yields their results in input
order, whatever runs them.  Used by the CLI, the Python API and the test helpers; renders
nothing (see :mod:`exactdp.report`).
"""

from __future__ import annotations

import errno
import os
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from .analysis.engine import Engine, make_engine
from .caseio import Case, YamlLimits, load_case, parse_case
from .caseio.case import path_arg, read_case_text
from .caseio.files import scan as scan_case_files
from .caseio.sweep import MAX_SWEEP_POINTS, Point, point_label, sweep_points
from .claims import FAILS, HOLDS, UNDECIDED, UNSUPPORTED, Analysis, PrivLossClaim, Verdict, Where
from .claims.core import PremiseClaim
from .claims.symbols import check_claim, involves_symbols
from .deprecation import ExactDPDeprecationWarning
from .display import RichDisplay
from .errors import CaseError, ExactDPError, InternalError, TimeLimitExceeded, VerificationError
from .execution import OrderedRun, Runner, run_ordered
from .limits import DEFAULT as DEFAULT_LIMITS
from .limits import READING, Limits, Reading, using
from .model.checks import instance_arg, list_arg

__all__ = [
    "Options",
    "FileResult",
    "RunResult",
    "verify_case",
    "verify_file",
    "verify_text",
    "verify_paths",
    "stream_paths",
    "WorkItem",
    "work_items",
    "sweep_size",
    "check_item",
    "full_case",
    "find_case_files",
    "verdict_hook",
    "reissue",
]

# observers of every verdict as (case, label, claim, verdict, analysis): `exactdp certify` writes
# certificates from the very run that `verify` does (see verdict_hook)
_HOOKS: ContextVar[tuple] = ContextVar("exactdp_verdict_hooks", default=())


@contextmanager
def verdict_hook(fn: Callable[[Case, str, object, Verdict, Analysis], None]):
    """Within the block, call ``fn(case, label, claim, verdict, analysis)`` after each claim is
    checked (``label``: the claim's number in the file, or ``premise-<n>`` for a premise) (in the claim's analysis, so its profiles are reused).  An exception it raises
    ends the file's check like any other error (a VerificationError is reported as a bug)."""
    token = _HOOKS.set(_HOOKS.get() + (fn,))
    try:
        yield
    finally:
        _HOOKS.reset(token)


@dataclass(frozen=True)
class Options:
    """How to check: engine, limits, witnesses.

    ``max_strategies`` and ``timeout`` override the corresponding fields of ``limits``.
    """

    engine: str = "profile"
    max_strategies: int | None = None
    witness: bool = False
    timeout: float | None = None
    yaml_limits: YamlLimits = YamlLimits()
    max_problems: int = READING.max_problems
    progress: Callable[[str, int, int], None] | None = None
    limits: Limits = DEFAULT_LIMITS
    max_sweep_points: int = MAX_SWEEP_POINTS

    @classmethod
    def under(cls, limits: Limits = DEFAULT_LIMITS, reading: Reading = READING, **kw: Any) -> Options:
        """Options that check under ``limits`` and read case files under ``reading`` (the
        command line's flags, the pytest plugin's ini options)."""
        yaml_limits = YamlLimits(max_bytes=reading.max_file_bytes, max_expanded_nodes=reading.max_yaml_nodes)
        return cls(
            limits=limits,
            yaml_limits=yaml_limits,
            max_problems=reading.max_problems,
            max_sweep_points=reading.max_sweep_points,
            **kw,
        )

    def effective_limits(self) -> Limits:
        return self.limits.replace(max_strategies=self.max_strategies, timeout=self.timeout)

    def make_engine(self, progress: Callable[[str, int, int], None] | None = None) -> Engine:
        """The engine these options name, with their cap on adversaries (and ``progress``, the
        profile engine's progress callback)."""
        return make_engine(self.engine, max_strategies=self.max_strategies, progress=progress)


@dataclass(frozen=True, eq=False)
class FileResult(RichDisplay):
    """The verdicts for one case file, or why it could not be read."""

    file: str
    case: Case | None = None
    verdicts: tuple[Verdict, ...] = ()
    error: ExactDPError | None = None
    seconds: float = 0.0
    point: Point = ()  # the sweep point checked: ((param, exact value), ...)
    warnings: tuple[str, ...] = ()  # deprecated spellings met in the file, each at its place

    @property
    def invalid(self) -> bool:
        return isinstance(self.error, CaseError)

    @property
    def exit_code(self) -> int:
        if isinstance(self.error, VerificationError):
            return 3
        if self.error is not None or any(v.status == UNDECIDED for v in self.verdicts):
            return 2
        return 0 if all(v.status == HOLDS for v in self.verdicts) else 1


@dataclass(frozen=True, eq=False)
class RunResult(RichDisplay):
    """The results of a run, one per work item (a case file or one point of its sweep), in
    input order; iterating over it gives them."""

    files: tuple[FileResult, ...] = ()

    def __iter__(self) -> Iterator[FileResult]:
        return iter(self.files)

    def __len__(self) -> int:
        return len(self.files)

    @property
    def exit_code(self) -> int:
        codes = [f.exit_code for f in self.files]
        for c in (3, 2, 1):
            if c in codes:
                return c
        return 0

    def counts(self) -> dict[str, int]:
        out = {HOLDS: 0, FAILS: 0, UNSUPPORTED: 0, UNDECIDED: 0, "files": len(self.files), "invalid_files": 0}
        for f in self.files:
            if f.error is not None:
                out["invalid_files"] += 1
            for v in f.verdicts:
                out[v.status] = out.get(v.status, 0) + 1
        return out


def find_case_files(paths: Iterable[str | Path], *, follow_symlinks: bool = False) -> list[Path]:
    """Files as given; directories searched recursively for ``*.yaml`` / ``*.yml``, sorted.

    Symbolic links are listed, not followed (reading one reports the refusal) unless
    ``follow_symlinks``: see :mod:`exactdp.caseio.files`."""
    return [f.path for f in scan_case_files(paths, follow_symlinks=follow_symlinks)]


def _deadline(opts: Options, start: float) -> float | None:
    timeout = opts.effective_limits().timeout
    return start + timeout if timeout else None


def verify_case(case: Case, opts: Options = Options(), *, deadline: float | None = None) -> tuple[Verdict, ...]:
    """Check every claim of ``case`` in order; a claim that hits a limit is undecided.

    The premises the case's mechanisms rely on (:attr:`Case.obligations`) are checked first,
    as verdicts of their own; if one does not hold, the claims are not checked."""
    engine = make_engine(opts.engine, max_strategies=opts.max_strategies, deadline=deadline, progress=opts.progress)
    premises, games = premise_claims(case)
    an = Analysis({**case.mechanisms, **games}, engine, symbols=case.symbols)
    out = _check_all(premises, an, opts, case, "premise-")
    if any(v.status != HOLDS for v in out):
        why = "a premise of this case does not hold (see above)"
        return tuple(out) + tuple(Verdict.undecided(c, why, checked=False) for c in case.claims)
    return tuple(out) + _check_all(list(case.claims), an, opts, case)


def premise_claims(case: Case) -> tuple[list[PremiseClaim], dict]:
    """The case's obligations as claims, with their games under names of their own."""
    claims, games = [], {}
    for owner, ob, where in case.obligations:
        key = f"{owner}.{ob.mechanism.name}"
        games[key] = ob.mechanism
        claims.append(
            PremiseClaim(
                of=key, eps=ob.eps, delta=ob.delta, text=ob.text, owner=owner, where=Where(case.file, None, where)
            )
        )
    return claims, games


def _check_all(
    claims: list, an: Analysis, opts: Options, case: Case | None = None, prefix: str = ""
) -> tuple[Verdict, ...]:
    """Check ``claims`` in order; with ``case`` the verdict hooks see each one with its label:
    its number in the file (``"3"``), or ``prefix`` and a number (``"premise-1"``)."""
    out: list[Verdict] = []
    for k, claim in enumerate(claims):
        try:
            v = _check_one(claim, an, opts)
        except VerificationError:
            raise
        except TimeLimitExceeded as e:  # the clock has run out for the whole file
            out.append(Verdict.undecided(claim, str(e)))
            out.extend(Verdict.undecided(c, "not checked: the time limit was reached") for c in claims[k + 1 :])
            break
        except ExactDPError as e:
            v = Verdict.undecided(claim, str(e))
        out.append(v)
        for hook in _HOOKS.get() if case is not None else ():
            hook(case, f"{prefix}{k + 1}", claim, v, an)
    return tuple(out)


def _check_one(claim, an: Analysis, opts: Options) -> Verdict:
    v = check_claim(claim, an)
    if (
        opts.witness
        and isinstance(claim, PrivLossClaim)
        and v.witness is None
        and v.status == HOLDS
        and not involves_symbols(claim, an)  # a piecewise verdict: no single witness
    ):
        w = an.engine.privloss_witness(an.mech(claim.subject), claim.delta, an.profile(claim.subject))
        if w is not None:
            v = replace(v, witness=w)  # the tight adversary: every smaller eps fails
    return v


def verify_file(path: str | Path, opts: Options = Options(), *, tree: str | Path | None = None) -> FileResult:
    """Read one case file and check its claims under the limits of ``opts``.  A ``sweep:`` is
    not expanded here: the file is checked at its ``params:`` values (see :func:`verify_paths`).

    Parameters
    ----------
    path : str or Path
        The case file.
    opts : Options, optional
    tree : str or Path, optional
        The tree a followed symbolic link must stay in (default: the directory holding
        ``path``); links are followed only with ``follow_symlinks`` in the limits.

    Returns
    -------
    FileResult
        Its ``verdicts``, one per claim, and ``exit_code`` as for ``exactdp verify``.  A file
        that exists but is not a valid case (unreadable, not UTF-8, too large, invalid YAML or
        case format) gives a result with ``error`` set to the :class:`CaseError`, no verdicts
        and ``exit_code`` 2; a claim that hits a limit while being checked gets status
        ``error``.  Check ``exit_code == 0`` rather than looking at the verdicts alone.

    Raises
    ------
    FileNotFoundError
        ``path`` does not exist: a typo is not a verdict.  (``exactdp verify`` and
        :func:`verify_paths` report a missing file as an invalid case instead.)
    """
    path_arg(path, "verify_file")
    options_arg(opts, "verify_file")
    if not os.path.lexists(path):
        raise FileNotFoundError(errno.ENOENT, "no such case file", str(path))
    return check_file(path, opts, tree=tree)


def check_file(path: str | Path, opts: Options = Options(), *, tree: str | Path | None = None) -> FileResult:
    """:func:`verify_file` as the command line wants it: a missing file is an invalid case (its
    :class:`CaseError` in ``error``, exit code 2), as :func:`verify_paths` reports it."""
    load = lambda: load_case(path, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems, tree=tree)  # noqa: E731
    return reissue(_verify(str(path), load, opts))


def verify_text(text: str, file: str = "<text>", opts: Options = Options()) -> FileResult:
    """Like :func:`verify_file` for case-file text held in memory (``file`` names it in messages)."""
    return reissue(
        _verify(
            file, lambda: parse_case(text, file, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems), opts
        )
    )


def _verify(file: str, read: Callable[[], Case], opts: Options, point: Point = ()) -> FileResult:
    start = time.monotonic()
    lim = opts.effective_limits()
    case = None
    with warnings.catch_warnings(record=True) as caught:  # the reader's deprecation warnings travel
        warnings.simplefilter("always", ExactDPDeprecationWarning)  # with the result (from workers too)
        verdicts: tuple[Verdict, ...] = ()
        error: ExactDPError | None = None
        try:
            with using(lim):
                case = read()
                verdicts = verify_case(case, opts, deadline=_deadline(opts, start))
        except ExactDPError as e:
            error = e
        except Exception as e:  # a bug: reported with this file (exit status 3); the other files go on
            error = InternalError.from_exception(e)
    notes = []
    for w in caught:
        if issubclass(w.category, ExactDPDeprecationWarning):
            notes.append(str(w.message))
        else:  # not ours to keep: warned as it would have been
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    return FileResult(
        file, case, verdicts, error, seconds=time.monotonic() - start, point=point, warnings=tuple(dict.fromkeys(notes))
    )


def reissue(fr: FileResult) -> FileResult:
    """Warn, in this process, about the deprecated spellings ``fr``'s file was written with (for
    Python callers: the CLI reports them with the file)."""
    for msg in fr.warnings:
        warnings.warn(msg, ExactDPDeprecationWarning, stacklevel=3)
    return fr


@dataclass(frozen=True)
class WorkItem:
    """One unit of work: a case file's text, or one point of its sweep; or why the file could
    not even be listed (``error``).  Carries the text so that workers need no shared files."""

    file: str
    text: str = ""
    point: Point | None = None
    error: ExactDPError | None = field(default=None, compare=False)

    @property
    def weight(self) -> int:
        """A guess at the item's cost, for the order in which workers take items (the results
        keep the input order): a case with symbols (the parametric engine, often seconds) goes
        before the others, so that it does not run alone at the end of a parallel run."""
        return 1 if "\nsymbols:" in self.text else 0


def paths_arg(paths: Any, call: str) -> Sequence[str | Path]:
    """A list of paths (each a str or a Path), or an
    :class:`~exactdp.errors.ArgumentTypeError` naming the call and the first item that is not."""
    paths = list(list_arg(paths, call, "paths", "case files or directories (str or Path)"))
    for k, p in enumerate(paths):
        path_arg(p, call, f"paths[{k}]")
    return paths


def options_arg(opts: Any, call: str) -> Options:
    """``opts`` if it is an :class:`Options`; an :class:`~exactdp.errors.ArgumentTypeError` otherwise."""
    return instance_arg(opts, Options, call, "opts", what="Options", how="build them with exactdp.Options(...)")


def work_items(paths: Sequence[str | Path], opts: Options = Options()) -> list[WorkItem]:
    """The work items under ``paths`` in order: files as :func:`find_case_files` lists them,
    and a file with a ``sweep:`` as one item per point (first key outermost).  One path given
    alone (a str or a Path, not a list) is that path, not a sequence of one-letter paths."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    paths = paths_arg(paths, "verify_paths")
    options_arg(opts, "verify_paths")
    out: list[WorkItem] = []
    for f in scan_case_files(paths, follow_symlinks=opts.effective_limits().follow_symlinks):
        file = str(f.path)
        try:
            with using(opts.effective_limits()):
                text = read_case_text(f.path, yaml_limits=opts.yaml_limits, tree=f.tree)
                # a cheap test first: most files have no sweep and are parsed only by their worker
                points = (
                    sweep_points(
                        text,
                        file,
                        yaml_limits=opts.yaml_limits,
                        max_points=opts.max_sweep_points,
                        max_problems=opts.max_problems,
                    )
                    if "sweep" in text
                    else None
                )
        except ExactDPError as e:  # unreadable, a bad sweep, a limit: that file's error
            out.append(WorkItem(file, error=e))
            continue
        if points is None:
            out.append(WorkItem(file, text))
        else:
            out.extend(WorkItem(file, text, p) for p in points)
    return out


def sweep_size(path: str | Path, opts: Options = Options()) -> int:
    """How many points the ``sweep:`` of the case file at ``path`` has (0 without one, or when
    the file cannot be read: :func:`verify_file` reports that)."""
    return sum(1 for item in work_items([path], opts) if item.point is not None)


def check_item(item: WorkItem, opts: Options = Options()) -> FileResult:
    """Check one work item under the limits of ``opts`` (in this process or in a worker).

    The result names a sweep point's case ``name[k=3, eps=log(2)]`` and carries the case
    without its mechanisms (game DAGs stay where they were built; reports need only the name,
    title, reference, params and claims), so it is small and picklable.
    """
    if item.error is not None:
        return FileResult(item.file, error=item.error)
    point = item.point or ()

    def read() -> Case:  # named after its point before checking, so verdict hooks see the name
        case = parse_case(
            item.text, item.file, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems, params=dict(point)
        )
        return replace(case, name=case.name + f"[{point_label(point)}]") if point else case

    fr = _verify(item.file, read, opts, point)
    if fr.case is None:
        return fr
    return replace(fr, case=replace(fr.case, mechanisms={}))


def full_case(fr: FileResult, opts: Options = Options()) -> Case | None:
    """``fr``'s case with its mechanisms: :func:`check_item` leaves them out of its results, so a
    report that draws them reads the file again (at ``fr``'s sweep point).  None when the file
    cannot be read now."""
    if fr.case is None or fr.case.mechanisms:
        return fr.case
    try:
        with using(opts.effective_limits()):
            text = read_case_text(fr.file, yaml_limits=opts.yaml_limits)
            full = parse_case(
                text, fr.file, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems, params=dict(fr.point)
            )
    except ExactDPError:
        return None
    return replace(full, name=fr.case.name)


def lost_item(item: WorkItem, message: str) -> FileResult:
    """The result of an item whose worker process kept dying (see :mod:`exactdp.execution`)."""
    return FileResult(item.file, error=ExactDPError(message), point=item.point or ())


def verify_paths(
    paths: Sequence[str | Path],
    opts: Options = Options(),
    *,
    runner: Runner = Runner(),
    progress: Callable[[int, int], None] | None = None,
) -> RunResult:
    """Verify every case file under ``paths`` (a sweep: every point) and collect the results in
    input order; :func:`stream_paths` yields them as they become available instead.  A missing
    or unreadable file is a result with ``error`` set (exit status 2), not an exception."""
    return RunResult(tuple(reissue(fr) for fr in stream_paths(paths, opts, runner=runner, progress=progress)))


def stream_paths(
    paths: Sequence[str | Path],
    opts: Options = Options(),
    *,
    runner: Runner = Runner(),
    progress: Callable[[int, int], None] | None = None,
) -> OrderedRun[FileResult]:
    """Verify every case file under ``paths`` (a sweep: every point), yielding each
    :class:`FileResult` in input order as soon as it is available.

    ``runner`` says where items run (this process, local worker processes, a Dask cluster);
    the results, and so any report of them, are the same.  ``progress(done, total)`` is called
    as items finish.
    """
    items = work_items(paths, opts)
    if _HOOKS.get():
        runner = Runner()  # verdict hooks (certificates) run where the analysis is: in this process
    if runner.parallel:
        opts = replace(opts, progress=None)  # a callback cannot cross processes
    return run_ordered(partial(check_item, opts=opts), items, runner, lost=lost_item, progress=progress)
