"""Checking case files: the pipeline case file → mechanisms → analysis → verdicts.

Used by the CLI, the Python API and the test helpers; renders nothing (see :mod:`exactdp.report`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from .analysis.engine import make_engine
from .caseio import Case, YamlLimits, load_case, parse_case
from .caseio.files import scan as scan_case_files
from .claims import FAILS, HOLDS, UNSUPPORTED, Analysis, PrivLossClaim, Verdict
from .errors import CaseError, ExactDPError, LimitExceededError, VerificationError
from .limits import DEFAULT as DEFAULT_LIMITS
from .limits import Limits, using

__all__ = [
    "Options",
    "FileResult",
    "RunResult",
    "verify_case",
    "verify_file",
    "verify_text",
    "verify_paths",
    "find_case_files",
    "ERROR",
]

ERROR = "error"  # a claim that could not be decided (a limit was hit, an inexact value)


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
    max_problems: int = 20
    progress: Callable[[str, int, int], None] | None = None
    limits: Limits = DEFAULT_LIMITS

    def effective_limits(self) -> Limits:
        return self.limits.replace(max_strategies=self.max_strategies, timeout=self.timeout)


@dataclass(frozen=True, eq=False)
class FileResult:
    """The verdicts for one case file, or why it could not be read."""

    file: str
    case: Case | None = None
    verdicts: tuple[Verdict, ...] = ()
    error: ExactDPError | None = None
    seconds: float = 0.0

    @property
    def invalid(self) -> bool:
        return isinstance(self.error, CaseError)

    @property
    def exit_code(self) -> int:
        if isinstance(self.error, VerificationError):
            return 3
        if self.error is not None or any(v.status == ERROR for v in self.verdicts):
            return 2
        return 0 if all(v.status == HOLDS for v in self.verdicts) else 1


@dataclass(frozen=True, eq=False)
class RunResult:
    files: tuple[FileResult, ...] = ()

    @property
    def exit_code(self) -> int:
        codes = [f.exit_code for f in self.files]
        for c in (3, 2, 1):
            if c in codes:
                return c
        return 0

    def counts(self) -> dict[str, int]:
        out = {HOLDS: 0, FAILS: 0, UNSUPPORTED: 0, ERROR: 0, "files": len(self.files), "invalid_files": 0}
        for f in self.files:
            if f.error is not None:
                out["invalid_files"] += 1
            for v in f.verdicts:
                out[v.status] = out.get(v.status, 0) + 1
        return out


def find_case_files(paths: Iterable[str | Path], *, follow_symlinks: bool = False) -> list[Path]:
    """Files as given; directories searched recursively for *.yaml / *.yml, sorted.

    Symbolic links are listed, not followed (reading one reports the refusal) unless
    ``follow_symlinks``: see :mod:`exactdp.caseio.files`."""
    return [f.path for f in scan_case_files(paths, follow_symlinks=follow_symlinks)]


def _deadline(opts: Options, start: float) -> float | None:
    timeout = opts.effective_limits().timeout
    return start + timeout if timeout else None


def verify_case(case: Case, opts: Options = Options(), *, deadline: float | None = None) -> tuple[Verdict, ...]:
    """Check every claim of ``case`` in order; a claim that hits a limit gets status ``error``."""
    engine = make_engine(opts.engine, max_strategies=opts.max_strategies, deadline=deadline, progress=opts.progress)
    an = Analysis(case.mechanisms, engine)
    out: list[Verdict] = []
    claims = list(case.claims)
    for k, claim in enumerate(claims):
        try:
            v = claim.check(an)
            if opts.witness and isinstance(claim, PrivLossClaim) and v.witness is None and v.status == HOLDS:
                w = an.engine.privloss_witness(an.mech(claim.of), claim.delta, an.profile(claim.of))
                if w is not None:
                    v = Verdict(v.claim, v.status, v.found, v.note or "tight: every smaller eps fails", w, v.values)
        except VerificationError:
            raise
        except LimitExceededError as e:
            out.append(Verdict(claim, ERROR, "could not be decided", str(e)))
            if e.what == "the running time":  # the clock has run out for the whole file
                out.extend(Verdict(c, ERROR, "could not be decided", "not checked: the time limit was reached") for c in claims[k + 1 :])
                break
            continue
        except ExactDPError as e:
            v = Verdict(claim, ERROR, "could not be decided", str(e))
        out.append(v)
    return tuple(out)


def verify_file(path: str | Path, opts: Options = Options(), *, tree: str | Path | None = None) -> FileResult:
    """Read one case file and check its claims under the limits of ``opts``; problems become
    the result's ``error`` (a case that cannot be read) or claims with status ``error`` (a
    limit was hit while checking).  ``tree``: the tree a followed symbolic link must stay in
    (default: the directory holding ``path``)."""
    return _verify(str(path), lambda: load_case(path, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems, tree=tree), opts)


def verify_text(text: str, file: str = "<text>", opts: Options = Options()) -> FileResult:
    """Like :func:`verify_file` for case-file text held in memory (``file`` names it in messages)."""
    return _verify(file, lambda: parse_case(text, file, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems), opts)


def _verify(file: str, read, opts: Options) -> FileResult:
    start = time.monotonic()
    lim = opts.effective_limits()
    case = None
    try:
        with using(lim):
            case = read()
            verdicts = verify_case(case, opts, deadline=_deadline(opts, start))
    except ExactDPError as e:
        return FileResult(file, case, error=e, seconds=time.monotonic() - start)
    return FileResult(file, case, verdicts, seconds=time.monotonic() - start)


def verify_paths(paths: Sequence[str | Path], opts: Options = Options(), *, on_file=None) -> RunResult:
    """Verify every case file under ``paths`` (see :func:`find_case_files`)."""
    files = scan_case_files(paths, follow_symlinks=opts.effective_limits().follow_symlinks)
    results = []
    for k, f in enumerate(files):
        if on_file is not None:
            on_file(k, len(files), f.path)
        results.append(verify_file(f.path, opts, tree=f.tree))
    return RunResult(tuple(results))
