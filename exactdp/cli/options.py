"""The options that several commands share, each declared once, and the helpers that read them.

A command that reads case files takes :func:`case_options` (engine, resource limits, reading
limits, output switches; with ``parallel`` also ``-v`` and where to run) and receives them as one
:class:`Common`; the single options used by several commands (``CASE``, ``--of``, ``--json``,
``--latex``, ``--progress``) are the decorators of :data:`OPTION`.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..analysis import ENGINE_NAMES
from ..caseio import YamlLimits, load_case
from ..caseio.sweep import MAX_SWEEP_POINTS
from ..errors import ExactDPError
from ..execution import Runner, available_cores, jobs_from_env
from ..limits import DEFAULT as DEFAULT_LIMITS
from ..limits import Limits, default_max_workers, flags, parse_size, using
from ..numbers import kinds as quantity
from ..numbers.expr import ExprError, eval_text
from ..report.escape import text
from ..report.jsonout import dumps
from ..report.terminal import EngineProgress
from ..verify import Options
from .app import fail

__all__ = [
    "OPTION",
    "Common",
    "case_options",
    "limit_options",
    "limits_from",
    "runner_options",
    "runner_from",
    "parse_number",
    "running",
    "Query",
    "query_options",
    "echo_result",
    "write_output",
]

_PROGRESS_HELP = "Progress bar on stderr (default: when stderr is a terminal)."
# single options of several commands: name -> decorator
OPTION: dict[str, Callable[[Callable], Callable]] = {
    "case": click.argument("case_path", metavar="CASE", type=click.Path()),
    "of": click.option("--of", default=None, help="Mechanism name (default M)."),
    "json": click.option(
        "--json", "as_json", is_flag=True, help="Machine-readable output on stdout (stable key order)."
    ),
    "latex": click.option(
        "--latex",
        "as_latex",
        is_flag=True,
        help="With symbols: the piecewise closed form as a LaTeX cases environment.",
    ),
    "progress": click.option("--progress/--no-progress", default=None, help=_PROGRESS_HELP),
    "engine": click.option(
        "--engine",
        type=click.Choice(ENGINE_NAMES),
        default="profile",
        show_default=True,
        help="profile: exact backward induction (fast); enumerator: brute force over every deterministic adversary (the reference).",
    ),
}


def parse_number(text: str, what: str, *, kind: str) -> Any:
    """An exact eps (``kind="eps"``), delta or positive rational (``kind="positive"``) from the
    command line, checked by :mod:`exactdp.numbers.kinds` like every number in a case file."""
    try:
        v = eval_text(text)
        if kind == "positive":
            return quantity.rational(v, what=what, positive=True)
        return quantity.delta(v, what=what) if kind == "delta" else quantity.eps(v, what=what)
    except ExprError as e:
        raise click.BadParameter(f"{what} {text!r}: {e.message}") from None
    except quantity.QuantityError as e:
        raise click.BadParameter(e.message + (f" ({e.hint})" if e.hint else "")) from None


class _Size(click.ParamType):
    """A memory size: 800M, 4G, or a number of bytes (0: no limit)."""

    name = "SIZE"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        try:
            return value if isinstance(value, int) else parse_size(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)


class _Jobs(click.ParamType):
    name = "N|auto"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        text = str(value).strip().lower()
        if isinstance(value, int) or text == "auto" or (text.isdigit() and int(text) >= 1):
            return value if isinstance(value, int) else available_cores() if text == "auto" else int(text)
        self.fail(f"{value!r} is not a positive number of worker processes or 'auto'", param, ctx)


def _limit_option(f: Any) -> Callable:
    """The click option of one limit (declared once, in :class:`exactdp.limits.Limits`)."""
    if f.kind == "switch":
        return click.option(f.flag, f.field, is_flag=True, default=None, help=f.help)
    typ = {"size": _Size(), "seconds": click.FloatRange(f.minimum)}.get(f.kind, click.IntRange(f.minimum))
    return click.option(f.flag, f.field, type=typ, default=None, help=f.help)


def _stack(options: list[Callable], f: Callable) -> Callable:
    """``f`` decorated with ``options``, the first listed first in the help."""
    for o in reversed(options):
        f = o(f)
    return f


def _passing(name: str, options: list[Callable], read: Callable[[dict[str, Any]], Any]) -> Callable:
    """A decorator adding ``options`` to a command, which receives what ``read`` makes of their
    values (taken out of the keyword arguments) as its one argument ``name``."""

    def deco(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args: Any, **kw: Any) -> Any:
            return f(*args, **{name: read(kw)}, **kw)

        return _stack(options, wrapper)

    return deco


def limit_options(f: Callable) -> Callable:
    """Every resource limit as a flag (:func:`exactdp.limits.flags`: ``--timeout``,
    ``--max-nodes``, ..., ``--follow-symlinks``), passed to the command as ``limits``, a
    :class:`~exactdp.limits.Limits`."""
    return _passing("limits", [_limit_option(flag) for flag in flags()], _limits_read)(f)


def _limits_read(kw: dict[str, Any]) -> Limits:
    return limits_from(**{f.field: kw.pop(f.field) for f in flags()})


def limits_from(max_profile_size: int | None = None, **given: Any) -> Limits:
    """The :class:`~exactdp.limits.Limits` for the flags of :func:`limit_options` (``None``:
    the default); takes the limits' field names (and ``max_profile_size``, the flag's name)."""
    return DEFAULT_LIMITS.replace(max_hull_edges=given.pop("max_hull_edges", max_profile_size), **given)


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


# the reading limits: (flag, parameter, default, help)
_READING = [
    ("--max-problems", "max_problems", 20, "Stop reading a case after this many problems."),
    ("--max-file-bytes", "max_file_bytes", YamlLimits.max_bytes, "Largest case file read."),
    (
        "--max-yaml-nodes",
        "max_yaml_nodes",
        YamlLimits.max_expanded_nodes,
        "Limit on the alias-expanded size of a YAML document.",
    ),
    ("--max-sweep-points", "max_sweep_points", MAX_SWEEP_POINTS, "Most points in one case file's sweep."),
]
_OUTPUT: list[Callable] = [
    OPTION["json"],
    click.option("-q", "--quiet", is_flag=True, help="Only what does not hold, and the summary."),
    OPTION["progress"],
    click.option("--ascii", "ascii_only", is_flag=True, help="ASCII marks instead of ✓/✗."),
]
_VERBOSE = click.option(
    "-v", "--verbose", is_flag=True, help="Every claim of every file, not only those that do not hold."
)
_RUNNER: list[Callable] = [
    click.option(
        "--jobs",
        "-j",
        type=_Jobs(),
        default=None,
        help="Run the work items (files, sweep points, samples) in N local worker processes; auto: one per core [default: EXACTDP_JOBS, else 1].",
    ),
    click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Run on a Dask cluster: tcp://HOST:8786, or local:N for a local cluster of N workers (needs exactdp[dask]).",
    ),
    click.option(
        "--max-workers",
        type=click.IntRange(1),
        default=None,
        help=f"Most local worker processes (--jobs N, --scheduler local:N) [default: 4 per core, {default_max_workers()} here].",
    ),
]


def _case_list(parallel: bool) -> list[Callable]:
    reading: list[Callable] = [
        click.option(fl, n, type=click.IntRange(1), default=d, show_default=True, help=h) for fl, n, d, h in _READING
    ]
    options: list[Callable] = [OPTION["engine"], *reading, *_OUTPUT, *([_VERBOSE, *_RUNNER] if parallel else [])]
    return options + [_limit_option(flag) for flag in flags()]


def case_options(*, parallel: bool = False) -> Callable:
    """The options of every command that reads case files, in one place: ``--engine``, the
    limits (:func:`limit_options`), reading limits (``--max-file-bytes``, ``--max-yaml-nodes``,
    ``--max-problems``, ``--max-sweep-points``), ``--json``, ``-q``, ``--progress``, ``--ascii``;
    with ``parallel`` also ``-v``, ``--jobs`` and ``--scheduler``.  The command receives them as
    one :class:`Common` argument ``common``."""
    return _passing("common", _case_list(parallel), lambda kw: _common_from(kw, parallel))


@dataclass(frozen=True)
class Query:
    """A command about one mechanism: its ``CASE`` and ``--of`` (read by :meth:`load`), the
    options of :func:`case_options` (``common``) and ``--latex`` (see :func:`query_options`)."""

    case_path: str
    of: str | None
    common: Common
    as_latex: bool = False

    def load(self) -> tuple[Any, str, Any]:
        """The case, and the name and mechanism of ``--of`` (default ``M``, else the only one)."""
        opts = self.common.opts
        case = load_case(self.case_path, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems)
        name = self.of or ("M" if "M" in case.mechanisms else next(iter(case.mechanisms)))
        if name not in case.mechanisms:
            defined = text(", ".join(case.mechanisms))
            raise click.BadParameter(
                f"no mechanism named {text(repr(name))} in {text(self.case_path)}; defined: {defined}"
            )
        return case, name, case.mechanisms[name]

    @property
    def fmt(self) -> str:
        """``json`` (``--json``), ``latex`` (``--latex``) or ``text``."""
        return "json" if self.common.as_json else "latex" if self.as_latex else "text"

    def no_latex(self) -> None:
        """``--latex`` is for piecewise closed forms: refused for a mechanism without symbols."""
        if self.as_latex:
            raise click.UsageError("--latex prints a piecewise closed form: it needs a mechanism with symbols")


def query_options(*, latex: bool = False) -> Callable:
    """``CASE``, ``--of``, with ``latex`` also ``--latex``, and :func:`case_options`: the command
    receives them as one :class:`Query` argument ``q``."""
    own = [OPTION["case"], OPTION["of"], *([OPTION["latex"]] if latex else [])]

    def read(kw: dict[str, Any]) -> Query:
        return Query(kw.pop("case_path"), kw.pop("of"), _common_from(kw, False), kw.pop("as_latex", False))

    return _passing("q", own + _case_list(False), read)


def runner_options(f: Callable) -> Callable:
    """``--jobs N``, ``--scheduler ADDRESS`` and ``--max-workers``, passed to the command as
    ``runner`` (:func:`runner_from`); for any command whose work splits into independent items."""
    return _passing(
        "runner", _RUNNER, lambda kw: runner_from(kw.pop("jobs"), kw.pop("scheduler"), kw.pop("max_workers"))
    )(f)


def runner_from(jobs: int | None, scheduler: str | None, max_workers: int | None = None) -> Runner:
    """Where to run: ``--scheduler`` if given, else ``--jobs`` (default ``EXACTDP_JOBS``, else 1),
    at most ``--max-workers`` local worker processes; a bad value ends in one line (exit 2)."""
    try:
        return Runner(jobs=jobs if jobs is not None else jobs_from_env(), scheduler=scheduler, max_workers=max_workers)
    except ExactDPError as e:
        fail(e)


def _common_from(kw: dict[str, Any], parallel: bool) -> Common:
    limits = _limits_read(kw)
    progress = kw.pop("progress", None)
    opts = Options(
        engine=kw.pop("engine", "profile"),
        max_strategies=limits.max_strategies if limits.max_strategies != DEFAULT_LIMITS.max_strategies else None,
        yaml_limits=YamlLimits(max_bytes=kw.pop("max_file_bytes"), max_expanded_nodes=kw.pop("max_yaml_nodes")),
        max_problems=kw.pop("max_problems"),
        max_sweep_points=kw.pop("max_sweep_points"),
        limits=limits,
    )
    return Common(
        opts=opts,
        as_json=bool(kw.pop("as_json", False)),
        quiet=bool(kw.pop("quiet", False)),
        verbose=bool(kw.pop("verbose", False)),
        progress=sys.stderr.isatty() if progress is None else progress,
        ascii_only=bool(kw.pop("ascii_only", False)),
        runner=runner_from(kw.pop("jobs"), kw.pop("scheduler"), kw.pop("max_workers")) if parallel else Runner(),
    )


@contextmanager
def running(common: Common) -> Iterator[EngineProgress]:
    """The body of a command that reads a case: within the block the command's limits are in
    force and the engine reports its progress (``--progress``); an :class:`ExactDPError` ends
    the command with its message (:func:`~exactdp.cli.app.fail`)."""
    try:
        with using(common.opts.effective_limits()), EngineProgress(common.progress) as prog:
            yield prog
    except ExactDPError as e:
        fail(e)


def echo_result(as_json: bool, doc: Callable[[], Any], lines: Callable[[], list[str]]) -> None:
    """Print a command's result: the document ``doc()`` as JSON with ``--json``, else the text
    ``lines()`` (only the one asked for is made)."""
    click.echo(dumps(doc()) if as_json else "\n".join(lines()))


def write_output(path: str, data: bytes | str, what: str | None = None) -> None:
    """Write ``data`` to ``path`` (``-``: standard output) and, given ``what``, say so on stderr; a
    file that cannot be written ends the command with one line (exit 2)."""
    try:
        if path == "-":
            click.echo(data, nl=False)
        elif isinstance(data, bytes):
            Path(path).write_bytes(data)
        else:
            Path(path).write_text(data, encoding="utf-8")
    except OSError as e:
        click.echo(f"exactdp: cannot write {text(path)}: {text(e.strerror or e)}", err=True)
        sys.exit(2)
    if what is not None:
        click.echo(f"exactdp: {text(what)} written to {text(path)}", err=True)
