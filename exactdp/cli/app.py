"""The ``exactdp`` command group, shared options and helpers.

The command line.

Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet);
2 invalid input (a case file, an option) or a limit was hit; 3 an internal cross-check failed
(a bug in exactdp: please report it).
"""

from __future__ import annotations

import codecs
import errno
import functools
import gc
import os
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

import click

from .. import __version__
from ..analysis import ENGINE_NAMES
from ..caseio import YamlLimits, load_case
from ..caseio.sweep import MAX_SWEEP_POINTS
from ..errors import ExactDPError, VerificationError
from ..execution import Runner, available_cores, jobs_from_env
from ..limits import DEFAULT as DEFAULT_LIMITS
from ..limits import Limits, default_max_workers, parse_size, size_text
from ..numbers import kinds as quantity
from ..numbers.expr import ExprError, eval_text
from ..report.escape import error_text, text
from ..verify import Options
from .helptext import Group

__all__ = [
    "main",
    "run",
    "engine_option",
    "max_strategies_option",
    "limit_options",
    "limits_from",
    "case_options",
    "Common",
    "ProgressLine",
    "EngineProgress",
    "runner_options",
    "runner_from",
    "parse_number",
    "fail",
    "load_mechanism",
]


class ProgressLine:
    """A progress bar (click's) on stderr that moves and clears itself.

    Output lines go through :meth:`echo`, which takes the bar off the screen, prints the line on
    stdout and draws the bar again, so results and the bar never mix.  Drawn only when enabled
    (``--progress``, default: stderr is a terminal); :meth:`close` erases it.
    """

    def __init__(self, total: int, label: str, enabled: bool):
        self.enabled = enabled and total > 0
        self.total = max(total, 1)
        self.bar = click.progressbar(
            length=max(total, 1), label=label, show_pos=True, show_eta=True, width=30, file=sys.stderr
        )
        self.done = 0
        self.shown = False
        self._last = 0.0

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
            self.shown = False

    def draw(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + self.bar.format_progress_line() + "\x1b[K")
            sys.stderr.flush()
            self.shown = True
            self._last = time.monotonic()

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` items finished so far."""
        if done > self.done:
            self.bar.make_step(done - self.done)
            self.done = done
        if self.enabled and (done >= self.total or time.monotonic() - self._last > 0.1):
            self.draw()

    def echo(self, text: str) -> None:
        was = self.shown
        self.clear()
        click.echo(text)
        if was:
            sys.stdout.flush()
            self.draw()

    def close(self) -> None:
        self.clear()


class EngineProgress:
    """The profile engine's progress (``progress(stage, done, total)`` over game nodes) as a
    :class:`ProgressLine`, created at the first report; use as a context manager."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.line: ProgressLine | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.line is None or self.line.total != max(total, 1):
            if self.line is not None:
                self.line.close()
            self.line = ProgressLine(total, f"{stage} (game nodes)", self.enabled)
        self.line.update(done)

    @property
    def callback(self) -> Callable[[str, int, int], None] | None:
        return self if self.enabled else None

    def __enter__(self) -> EngineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.line is not None:
            self.line.close()


def parse_number(text: str, what: str, *, kind: str) -> Any:
    """An exact eps (``kind="eps"``) or delta from the command line, checked by
    :mod:`exactdp.numbers.kinds` like every eps and delta in a case file."""
    try:
        v = eval_text(text)
        return quantity.delta(v, what=what) if kind == "delta" else quantity.eps(v, what=what)
    except ExprError as e:
        raise click.BadParameter(f"{what} {text!r}: {e.message}") from None
    except quantity.QuantityError as e:
        raise click.BadParameter(e.message + (f" ({e.hint})" if e.hint else "")) from None


def fail(e: Exception) -> None:
    code = 3 if isinstance(e, VerificationError) else 2
    lines = error_text(e)  # the message may quote the case file: escaped line by line
    click.echo("exactdp: " + "\n".join(lines), err=True)
    sys.exit(code)


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="exactdp")
def main() -> None:
    """Exact differential-privacy verdicts for small finite interactive mechanisms."""


engine_option = click.option(
    "--engine",
    type=click.Choice(ENGINE_NAMES),
    default="profile",
    show_default=True,
    help="profile: exact backward induction (fast); enumerator: brute force over every deterministic adversary (the reference).",
)
max_strategies_option = click.option(
    "--max-strategies",
    type=click.IntRange(1),
    default=None,
    help=f"Enumerator limit on the number of adversaries [default: {DEFAULT_LIMITS.max_strategies}].",
)


class _Size(click.ParamType):
    """A memory size: 800M, 4G, or a number of bytes (0: no limit)."""

    name = "SIZE"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            return value
        try:
            return parse_size(str(value))
        except ValueError as e:
            self.fail(str(e), param, ctx)


_D = DEFAULT_LIMITS
# (option, Limits field, type, help): every command accepts every limit (see exactdp.limits)
_LIMIT_FLAGS = [
    (
        "--timeout",
        "timeout",
        click.FloatRange(0),
        f"Wall-clock limit per case file (or command), in seconds; 0: none [default: {_D.timeout:g}].",
    ),
    (
        "--max-memory",
        "max_memory",
        _Size(),
        f"Memory a case file (or command) may add, e.g. 800M, 4G; 0: none [default: {size_text(_D.max_memory)}].",
    ),
    ("--max-nodes", "max_nodes", click.IntRange(1), f"Most game nodes built for one case [default: {_D.max_nodes}]."),
    (
        "--max-profile-size",
        "max_hull_edges",
        click.IntRange(1),
        f"Largest exact privacy profile, in pieces [default: {_D.max_hull_edges}].",
    ),
    (
        "--max-exponent",
        "max_exponent",
        click.IntRange(1),
        f"Largest exponent in a number [default: {_D.max_exponent}].",
    ),
    (
        "--max-bits",
        "max_bits",
        click.IntRange(1),
        f"Most bits of any number computed from the case's numbers [default: {_D.max_bits}, or 100 x --max-exponent].",
    ),
    (
        "--max-symbolic-degree",
        "max_symbolic_degree",
        click.IntRange(1),
        f"Highest degree of a rational function of symbols [default: {_D.max_symbolic_degree}].",
    ),
    (
        "--max-cells",
        "max_cells",
        click.IntRange(1),
        f"Most cells of the decomposition of the symbols' domain [default: {_D.max_cells}].",
    ),
    (
        "--max-precision",
        "max_precision",
        click.IntRange(64),
        f"Most bits of precision of one certified sign decision [default: {_D.max_precision}].",
    ),
    ("--max-datasets", "max_datasets", click.IntRange(2), f"Most datasets in a case [default: {_D.max_datasets}]."),
    ("--max-pairs", "max_pairs", click.IntRange(1), f"Most adjacent pairs in a case [default: {_D.max_pairs}]."),
    (
        "--max-components",
        "max_components",
        click.IntRange(1),
        f"Most components of a composition (compose --repeat) [default: {_D.max_components}].",
    ),
    ("--max-samples", "max_samples", click.IntRange(1), f"Most samples of an experiment [default: {_D.max_samples}]."),
    (
        "--max-automaton-work",
        "max_automaton_work",
        click.IntRange(1),
        f"Most profile pieces an automaton is predicted to need (reachable states x horizon^2 / 2) [default: {_D.max_automaton_work}].",
    ),
    (
        "--max-orders",
        "max_orders",
        click.IntRange(1),
        f"Most Renyi orders in one --alpha list [default: {_D.max_orders}].",
    ),
]


def limit_options(f):
    """Every resource limit as a flag (see exactdp.limits), and --follow-symlinks."""
    f = click.option(
        "--follow-symlinks",
        is_flag=True,
        default=None,
        help="Follow symbolic links to case files and directories, if their target stays inside the tree being verified (default: refuse them).",
    )(f)
    for flag, field, typ, help_text in reversed(_LIMIT_FLAGS):
        f = click.option(flag, field, type=typ, default=None, help=help_text)(f)
    return f


def limits_from(
    max_nodes=None, max_profile_size=None, max_exponent=None, timeout=None, max_strategies=None, **more
) -> Limits:
    """The :class:`~exactdp.limits.Limits` for the flags of :func:`limit_options` (``None``:
    the default); accepts both the flag names and the field names."""
    given = {
        "max_nodes": max_nodes,
        "max_hull_edges": more.pop("max_hull_edges", max_profile_size),
        "max_exponent": max_exponent,
        "timeout": timeout,
        "max_strategies": max_strategies,
        **more,
    }
    if given.get("max_bits") is None and max_exponent is not None:
        given["max_bits"] = max(_D.max_bits, 100 * max_exponent)
    return _D.replace(**given)


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


class _Jobs(click.ParamType):
    name = "N|auto"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().lower()
        if text == "auto":
            return available_cores()
        if text.isdigit() and int(text) >= 1:
            return int(text)
        self.fail(f"{value!r} is not a positive number of worker processes or 'auto'", param, ctx)


def _option_names(decorator: Callable) -> set[str]:
    """The parameter names a click option decorator adds (so options added to
    :func:`limit_options` flow into :func:`limits_from` without being listed twice)."""

    def probe() -> None:  # pragma: no cover - never called
        pass

    decorator(probe)
    return {p.name for p in getattr(probe, "__click_params__", [])}


def case_options(*, parallel: bool = False) -> Callable:
    """The options of every command that reads case files, in one place: the limits
    (:func:`limit_options`), reading limits (``--max-file-bytes``, ``--max-yaml-nodes``,
    ``--max-problems``, ``--max-sweep-points``), ``--engine``, ``--max-strategies``, ``--json``,
    ``-q``, ``--progress``, ``--ascii``; with ``parallel`` also ``-v``, ``--jobs`` and
    ``--scheduler``.  The command receives them as one :class:`Common` argument ``common``."""
    limit_names = _option_names(limit_options)

    def deco(f: Callable) -> Callable:
        @functools.wraps(f)
        def wrapper(*args: Any, **kw: Any) -> Any:
            return f(*args, common=_common_from(kw, limit_names, parallel), **kw)

        opts = [
            engine_option,
            max_strategies_option,
            click.option(
                "--max-problems",
                type=click.IntRange(1),
                default=20,
                show_default=True,
                help="Stop reading a case after this many problems.",
            ),
            click.option(
                "--max-file-bytes",
                type=click.IntRange(1),
                default=YamlLimits.max_bytes,
                show_default=True,
                help="Largest case file read.",
            ),
            click.option(
                "--max-yaml-nodes",
                type=click.IntRange(1),
                default=YamlLimits.max_expanded_nodes,
                show_default=True,
                help="Limit on the alias-expanded size of a YAML document.",
            ),
            click.option(
                "--max-sweep-points",
                type=click.IntRange(1),
                default=MAX_SWEEP_POINTS,
                show_default=True,
                help="Most points in one case file's sweep.",
            ),
            click.option(
                "--json", "as_json", is_flag=True, help="Machine-readable output on stdout (stable key order)."
            ),
            click.option("-q", "--quiet", is_flag=True, help="Only what does not hold, and the summary."),
            click.option(
                "--progress/--no-progress",
                default=None,
                help="Progress bar on stderr (default: when stderr is a terminal).",
            ),
            click.option("--ascii", "ascii_only", is_flag=True, help="ASCII marks instead of ✓/✗."),
        ]
        if parallel:
            opts += [
                click.option(
                    "-v", "--verbose", is_flag=True, help="Every claim of every file, not only those that do not hold."
                ),
                *_RUNNER_OPTIONS,
            ]
        out: Callable = limit_options(wrapper)
        for o in reversed(opts):
            name = o(lambda: None).__click_params__[0].name  # type: ignore[attr-defined]
            if name not in limit_names:  # a limit moved into limit_options is not added twice
                out = o(out)
        return out

    return deco


_RUNNER_OPTIONS = [
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


def runner_options(f: Callable) -> Callable:
    """``--jobs N`` and ``--scheduler ADDRESS`` (read them with :func:`runner_from`); for any
    command whose work splits into independent items (see :mod:`exactdp.execution`)."""
    for o in reversed(_RUNNER_OPTIONS):
        f = o(f)
    return f


def runner_from(jobs: int | None, scheduler: str | None, max_workers: int | None = None) -> Runner:
    """Where to run: ``--scheduler`` if given, else ``--jobs`` (default ``EXACTDP_JOBS``, else 1),
    at most ``--max-workers`` local worker processes; a bad value ends in one line (exit 2)."""
    try:
        return Runner(jobs=jobs if jobs is not None else jobs_from_env(), scheduler=scheduler, max_workers=max_workers)
    except ExactDPError as e:
        fail(e)
        raise  # pragma: no cover - fail() exits


def _common_from(kw: dict[str, Any], limit_names: set[str], parallel: bool) -> Common:
    lim = {k: kw.pop(k) for k in list(kw) if k in limit_names}
    get = lambda k, d=None: lim.get(k, kw.pop(k, d))  # noqa: E731
    max_strategies = get("max_strategies")
    yaml_limits = YamlLimits(
        max_bytes=get("max_file_bytes", YamlLimits.max_bytes),
        max_expanded_nodes=get("max_yaml_nodes", YamlLimits.max_expanded_nodes),
    )
    opts = Options(
        engine=get("engine", "profile"),
        max_strategies=max_strategies,
        yaml_limits=yaml_limits,
        max_problems=get("max_problems", 20),
        max_sweep_points=get("max_sweep_points", MAX_SWEEP_POINTS),
        limits=limits_from(
            **{
                k: v
                for k, v in lim.items()
                if k not in ("max_file_bytes", "max_yaml_nodes", "max_problems", "max_sweep_points")
            },
            max_strategies=max_strategies,
        ),
    )
    progress = get("progress")
    runner = runner_from(get("jobs"), get("scheduler"), get("max_workers")) if parallel else Runner()
    return Common(
        opts=opts,
        as_json=bool(get("as_json", False)),
        quiet=bool(get("quiet", False)),
        verbose=bool(get("verbose", False)),
        progress=sys.stderr.isatty() if progress is None else progress,
        ascii_only=bool(get("ascii_only", False)),
        runner=runner,
    )


def load_mechanism(case_path: str, of: str | None, opts: Options = Options()):
    """The case at ``case_path`` and its mechanism ``of`` (default ``M``, else the only one)."""
    case = load_case(case_path, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems)
    name = of or ("M" if "M" in case.mechanisms else next(iter(case.mechanisms)))
    if name not in case.mechanisms:
        raise click.BadParameter(
            f"no mechanism named {text(repr(name))} in {text(case_path)}; defined: {text(', '.join(case.mechanisms))}"
        )
    return case, name, case.mechanisms[name]


_ESCAPED = [0]  # characters of the output the terminal's encoding could not show

# exactdp's own symbols have faithful ASCII spellings; only other text (from case files) is
# escaped and makes the output unfaithful
_ASCII = {
    "≈": "~",
    "✓": "ok",
    "✗": "FAIL",
    "—": "-",
    "–": "-",
    "→": "->",
    "←": "<-",
    "≤": "<=",
    "≥": ">=",
    "…": "...",
    "·": "*",
    "×": "x",
    "−": "-",
    "ε": "eps",
    "δ": "delta",
    "λ": "lambda",
    "∞": "inf",
    "′": "'",
}


def _escape_unencodable(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler for stdout: write one of exactdp's own symbols in ASCII, and any other
    character the encoding cannot show as a visible ``\\uXXXX`` escape, remembering that the
    output is then not faithful."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = []
    for c in err.object[err.start : err.end]:
        if c in _ASCII:
            out.append(_ASCII[c])
        else:
            _ESCAPED[0] += 1
            out.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
    return "".join(out), err.end


codecs.register_error("exactdp-escape", _escape_unencodable)
_OUTPUT_ERRNOS = {
    errno.EPIPE,
    errno.ENOSPC,
    errno.EBADF,
    errno.EIO,
    errno.EFBIG,
    getattr(errno, "EDQUOT", errno.ENOSPC),
}


def _output_failed(why: str) -> NoReturn:
    """Stop: one line on stderr, exit status 2 (the output could not be written)."""
    try:
        sys.stderr.write(f"exactdp: cannot write the output: {why}\n")
        sys.stderr.flush()
    except Exception:  # stderr is gone too: nothing more can be said
        pass
    try:  # nothing left in stdout's buffer may fail again at interpreter exit
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
    except OSError:
        pass
    sys.exit(2)


def run() -> None:
    """Console entry point: like ``main`` but an unexpected exception is reported as an
    internal error (exit 3) instead of escaping, and output that cannot be written (standard
    output closed, a full disk, a broken pipe) ends with one line on stderr and exit status 2.
    Characters the terminal's encoding cannot show (a Latin-1 terminal) are written as visible
    ``\\uXXXX`` escapes, and the run then also exits with status 2, saying so."""
    out = sys.stdout
    if out is None:
        _output_failed("standard output is closed")
    try:
        out.reconfigure(errors="exactdp-escape")  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        pass
    code: int | str | None = 0
    try:
        main(standalone_mode=True)
    except SystemExit as e:
        code = e.code if isinstance(e.code, (int, str)) or e.code is None else 1
    except OSError as e:
        if e.errno not in _OUTPUT_ERRNOS:
            _internal_error()
        _output_failed(e.strerror or str(e))
    except Exception:
        _internal_error()
    if sys.stdout is not out:  # click replaced it after a broken pipe
        _output_failed("standard output was closed while writing (broken pipe)")
    try:
        out.flush()
    except OSError as e:
        _output_failed(e.strerror or str(e))
    if _ESCAPED[0]:
        enc = getattr(out, "encoding", "?")
        _output_failed(
            f"{_ESCAPED[0]} character(s) cannot be shown in the terminal's encoding ({enc}) and were written as \\u escapes; "
            "use a UTF-8 terminal (e.g. PYTHONIOENCODING=utf-8)"
        )
    # Nothing is left to collect: without this, the collector's passes at exit walk every
    # object a big case made (millions of them) before the process can end.
    gc.disable()
    gc.freeze()
    sys.exit(code)


def _internal_error() -> NoReturn:
    click.echo("exactdp: internal error (please report it with the case file):", err=True)
    traceback.print_exc()
    sys.exit(3)
