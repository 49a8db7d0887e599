"""The options that several commands share, each declared once, and the helpers that read them.

A command that reads case files takes :func:`case_options` and receives them as one :class:`Common`;
the limits' options are made from their declarations in :mod:`exactdp.limits`, and single options
of several commands (``CASE``, ``--of``, ``--json``, ...) are in :data:`OPTION`.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click

from ..analysis import ENGINE_NAMES
from ..caseio import load_case, output_clash
from ..errors import ExactDPError
from ..execution import Runner, jobs_from_env, parse_jobs
from ..limits import DEFAULT as DEFAULT_LIMITS
from ..limits import READING, Limits, Reading, Workers, flags, parse_seconds, parse_size, using
from ..numbers import kinds as quantity
from ..report import Marks
from ..report.escape import text
from ..report.terminal import EngineProgress, emit
from ..verify import Options
from .helptext import fail

__all__ = ["OPTION", "Common", "case_options", "limit_options", "runner_options", "parse_number"]
__all__ += ["Query", "query_options", "write_output", "emit", "progress_wanted", "flag"]


def flag(*decls: str, help: str) -> Callable:
    """An on/off option: ``click.option(*decls, is_flag=True, help=help)``."""
    return click.option(*decls, is_flag=True, help=help)


_PROGRESS_HELP = "Progress bar on stderr (default: when stderr is a terminal)."
_ENGINE_HELP = "profile: exact backward induction (fast); enumerator: brute force over every deterministic adversary (the reference). With symbols: cross-checks only."
_JOBS_HELP = "Run the work items (files, sweep points, samples) in N local worker processes; auto: one per core [default: EXACTDP_JOBS, else 1]."
_SCHEDULER_HELP = (
    "Run on a Dask cluster: tcp://HOST:8786, or local:N for a local cluster of N workers (needs exactdp[dask])."
)


class PathArg(click.Path):
    """A path; an empty one (an unset shell variable) is refused, not read as the current directory."""

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        if value == "":
            self.fail("an empty path (is a shell variable unset?)", param, ctx)
        return super().convert(value, param, ctx)


# single options of several commands: name -> decorator
OPTION: dict[str, Callable[[Callable], Callable]] = {
    "case": click.argument("case_path", metavar="CASE", type=PathArg()),
    "of": click.option("--of", help="Mechanism name (default M)."),
    "json": flag("--json", "as_json", help="Machine-readable output on stdout (stable key order)."),
    "latex": flag("--latex", "as_latex", help="With symbols: the piecewise closed form as a LaTeX cases environment."),
    "progress": click.option("--progress/--no-progress", default=None, help=_PROGRESS_HELP),
    "engine": click.option("--engine", type=click.Choice(ENGINE_NAMES), default="profile", help=_ENGINE_HELP),
}


def parse_number(text: str, what: str, *, kind: str) -> Any:
    """An option's number (:func:`exactdp.numbers.kinds.option_value`), or a usage error."""
    try:
        return quantity.option_value(text, what, kind)
    except quantity.QuantityError as e:
        raise click.BadParameter(e.text()) from None


class _Parsed(click.ParamType):
    """An option's value read by ``parse``, which returns ``None`` or raises ``ValueError`` for a
    wrong one (``wrong`` is then the message)."""

    def __init__(self, name: str, parse: Callable[[str], Any], wrong: str = "") -> None:
        self.name, self.parse, self.wrong = name, parse, wrong

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            got = value if isinstance(value, int) else self.parse(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)
        return got if got is not None else self.fail(self.wrong.format(value), param, ctx)


_SECONDS = _Parsed("SECONDS", parse_seconds)  # 2.5; 0: no limit
_SIZE = _Parsed("SIZE", parse_size)  # 800M, 4G, or a number of bytes (0: no limit)
_JOBS = _Parsed("N|auto", parse_jobs, "{!r} is not a positive number of worker processes or 'auto'")


def _limit_options(table: type) -> list[Callable]:
    """The click options of the limits of ``table`` (each declared once, in :mod:`exactdp.limits`);
    a limit not given is ``None``: the table's default."""
    options = []
    for f in flags(table):
        typ = {"size": _SIZE, "seconds": _SECONDS, "switch": None}.get(f.kind, click.IntRange(f.minimum))
        options.append(click.option(f.flag, f.field, is_flag=f.kind == "switch", type=typ, default=None, help=f.help))
    return options


def _given(kw: dict[str, Any], table: type) -> dict[str, Any]:
    """The values of ``table``'s limit options given (taken out of ``kw``)."""
    return {f.field: v for f in flags(table) if (v := kw.pop(f.field)) is not None}


def _passing(name: str, options: list[Callable], read: Callable[[dict[str, Any]], Any]) -> Callable:
    """A decorator adding ``options`` to a command, which receives what ``read`` makes of their
    values (taken out of the keyword arguments) as its one argument ``name``."""

    def deco(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args: Any, **kw: Any) -> Any:
            return f(*args, **{name: read(kw)}, **kw)

        for option in reversed(options):  # the first listed comes first in the help
            wrapper = option(wrapper)
        return wrapper

    return deco


def limit_options(f: Callable) -> Callable:
    """Every limit of :class:`~exactdp.limits.Limits` as a flag (``--timeout``, ``--max-nodes``,
    ..., ``--follow-symlinks``), passed to the command as ``limits``."""
    return _passing("limits", _limit_options(Limits), lambda kw: DEFAULT_LIMITS.replace(**_given(kw, Limits)))(f)


@dataclass(frozen=True)
class Common:
    """What the options shared by every command that reads case files asked for
    (see :func:`case_options`)."""

    opts: Options
    as_json: bool = False
    quiet: bool = False
    verbose: bool = False
    progress: bool = False
    ascii_only: bool = False
    runner: Runner = Runner()

    @property
    def marks(self) -> Marks:
        """The report's marks: ASCII with ``--ascii`` or when stdout cannot show ✓ and ✗."""
        return Marks.for_stream(sys.stdout, self.ascii_only)


_OUTPUT: list[Callable] = [
    OPTION["json"],
    flag("-q", "--quiet", help="Only what does not hold, and the summary."),
    OPTION["progress"],
    flag("--ascii", "ascii_only", help="ASCII marks instead of ✓/✗."),
]
_VERBOSE = flag("-v", "--verbose", help="Every claim of every file, not only those that do not hold.")
_RUNNER: list[Callable] = [
    click.option("--jobs", "-j", type=_JOBS, help=_JOBS_HELP),
    click.option("--scheduler", metavar="ADDRESS", help=_SCHEDULER_HELP),
    *_limit_options(Workers),
]


def _case_list(parallel: bool, json: bool = True) -> list[Callable]:
    output = _OUTPUT if json else _OUTPUT[1:]
    options = [OPTION["engine"], *_limit_options(Reading), *output, *([_VERBOSE, *_RUNNER] if parallel else [])]
    return options + _limit_options(Limits)


def case_options(*, parallel: bool = False, json: bool = True) -> Callable:
    """The options of every command that reads case files: ``--engine``, the limits, ``--json``
    (unless ``json`` is false), ``-q``, ``--progress``, ``--ascii``; with ``parallel`` also ``-v``,
    ``--jobs``, ``--scheduler`` and ``--max-workers``; received as one :class:`Common` argument ``common``."""
    return _passing("common", _case_list(parallel, json), lambda kw: _common_from(kw, parallel))


@dataclass(frozen=True, kw_only=True)
class Query(Common):
    """A command about one mechanism: the options of :func:`case_options`, its ``CASE`` and
    ``--of`` (read by :meth:`load`) and ``--latex`` (see :func:`query_options`)."""

    case_path: str
    of: str | None = None
    as_latex: bool = False

    def load(self) -> tuple[Any, str, Any]:
        """The case, and the name and mechanism of ``--of`` (default ``M``, else the only one)."""
        case = load_case(self.case_path, yaml_limits=self.opts.yaml_limits, max_problems=self.opts.max_problems)
        name = self.of if self.of is not None else ("M" if "M" in case.mechanisms else next(iter(case.mechanisms)))
        if name not in case.mechanisms:
            defined, shown = text(", ".join(case.mechanisms)), text(repr(name))
            raise click.BadParameter(f"no mechanism named {shown} in {text(self.case_path)}; defined: {defined}")
        return case, name, case.mechanisms[name]

    @contextmanager
    def loaded(self) -> Iterator[tuple[Any, str, Any, EngineProgress]]:
        """The body of the command: within the block its limits are in force and the engine
        reports its progress (``--progress``); yields :meth:`load` and the progress."""
        with using(self.opts.effective_limits()), EngineProgress(self.progress) as prog:
            yield (*self.load(), prog)

    @property
    def fmt(self) -> str:
        """``json`` (``--json``), ``latex`` (``--latex``) or ``text``."""
        return "json" if self.as_json else "latex" if self.as_latex else "text"

    def latex_if(self, piecewise: bool) -> None:
        """``--latex`` prints piecewise closed forms: refused unless the answer is ``piecewise``."""
        if self.as_latex and not piecewise:
            raise click.UsageError("--latex prints a piecewise closed form: it needs a mechanism with symbols")


def query_options(*, latex: bool = False) -> Callable:
    """``CASE``, ``--of``, with ``latex`` also ``--latex``, and :func:`case_options`: the command
    receives them as one :class:`Query` argument ``q``."""
    own = [OPTION["case"], OPTION["of"], *([OPTION["latex"]] if latex else [])]

    def read(kw: dict[str, Any]) -> Query:
        case = {"case_path": kw.pop("case_path"), "of": kw.pop("of"), "as_latex": kw.pop("as_latex", False)}
        return _common_from(kw, False, Query, **case)

    return _passing("q", own + _case_list(False), read)


def runner_options(f: Callable) -> Callable:
    """``--jobs N``, ``--scheduler ADDRESS`` and ``--max-workers``, passed to the command as
    ``runner``; for any command whose work splits into independent items."""
    return _passing("runner", _RUNNER, _runner_read)(f)


def _runner_read(kw: dict[str, Any]) -> Runner:
    """Where to run: ``--scheduler`` if given, else ``--jobs`` (default ``EXACTDP_JOBS``, else 1),
    at most ``--max-workers`` local worker processes."""
    jobs = kw.pop("jobs")
    return Runner(jobs=jobs or jobs_from_env(), scheduler=kw.pop("scheduler"), max_workers=kw.pop("max_workers"))


def _common_from(kw: dict[str, Any], parallel: bool, cls: type = Common, **own: Any) -> Any:
    limits = DEFAULT_LIMITS.replace(**_given(kw, Limits))
    custom = limits.max_strategies if limits.max_strategies != DEFAULT_LIMITS.max_strategies else None
    reading = replace(READING, **_given(kw, Reading))
    opts = Options.under(limits, reading, engine=kw.pop("engine", "profile"), max_strategies=custom)
    switches: dict[str, Any] = {k: bool(kw.pop(k, False)) for k in ("as_json", "quiet", "verbose", "ascii_only")}
    runner = _runner_read(kw) if parallel else Runner()
    return cls(opts, progress=progress_wanted(kw.pop("progress", None)), runner=runner, **switches, **own)


def progress_wanted(progress: bool | None) -> bool:
    """``--progress/--no-progress``; neither: a progress bar when stderr is a terminal."""
    return sys.stderr.isatty() if progress is None else progress


def write_output(path: str, data: bytes | str, what: str | None = None, reads: Sequence[str] = ()) -> None:
    """Write ``data`` to ``path`` (``-``: standard output) and, given ``what``, say so on stderr; a
    file that cannot be written, or one of ``reads`` (:func:`output_clash`), ends the command with one line (exit 2)."""
    if (clash := output_clash(path, reads)) is not None:
        fail(ExactDPError(clash))
    try:
        if path == "-":
            emit(data, nl=False) if isinstance(data, str) else click.echo(data, nl=False)
        elif isinstance(data, bytes):
            Path(path).write_bytes(data)
        else:
            Path(path).write_text(data, encoding="utf-8")
    except OSError as e:
        fail(ExactDPError(f"cannot write {path}: {e.strerror or e}"))
    if what is not None:
        emit(f"exactdp: {text(what)} written to {text(path)}", file=sys.stderr)
