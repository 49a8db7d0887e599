"""The ``exactdp`` command group, shared options and helpers.

The command line.

Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet);
2 invalid input (a case file, an option) or a limit was hit; 3 an internal cross-check failed
(a bug in exactdp: please report it).
"""

from __future__ import annotations

import codecs
import errno
import os
import sys
import time
import traceback
from typing import Any, NoReturn

import click

from .. import __version__
from ..analysis import ENGINE_NAMES
from ..caseio import load_case
from ..errors import VerificationError
from ..limits import DEFAULT as DEFAULT_LIMITS
from ..limits import Limits, parse_size, size_text
from ..numbers.expr import ExprError, eval_text
from ..numbers.rational import as_q, is_rational
from ..numbers.real import Infinity, LogReal, real_sign, real_str

__all__ = [
    "main",
    "run",
    "engine_option",
    "max_strategies_option",
    "limit_options",
    "limits_from",
    "parse_number",
    "fail",
    "load_mechanism",
]


def _stderr_progress(enabled: bool):
    if not enabled:
        return None, None
    last = [0.0]

    def on_file(k: int, n: int, f) -> None:
        click.echo(f"[{k + 1}/{n}] {f}", err=True)

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] > 0.5:
            last[0] = now
            click.echo(f"\r  {stage}: {100 * done // max(total, 1)}% of {total} nodes", err=True, nl=False)

    return on_file, progress


def parse_number(text: str, what: str, *, kind: str) -> Any:
    try:
        v = eval_text(text)
    except ExprError as e:
        raise click.BadParameter(f"{what} {text!r}: {e.message}") from None
    if kind == "delta":
        if not is_rational(v) or not (0 <= v <= 1):
            raise click.BadParameter(f"{what} must be an exact rational in [0, 1], got {real_str(v)}")
        return as_q(v)
    if isinstance(v, Infinity) or not (is_rational(v) or isinstance(v, LogReal)) or real_sign(v) < 0:
        raise click.BadParameter(f"{what} must be an eps >= 0 such as log(3) or 1/10, got {real_str(v)}")
    return as_q(v) if is_rational(v) else v


def fail(e: Exception) -> None:
    code = 3 if isinstance(e, VerificationError) else 2
    click.echo(f"exactdp: {e}", err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
    "--max-strategies", type=click.IntRange(1), default=None, help=f"Enumerator limit on the number of adversaries [default: {DEFAULT_LIMITS.max_strategies}]."
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
    ("--timeout", "timeout", click.FloatRange(0), f"Wall-clock limit per case file (or command), in seconds; 0: none [default: {_D.timeout:g}]."),
    ("--max-memory", "max_memory", _Size(), f"Memory a case file (or command) may add, e.g. 800M, 4G; 0: none [default: {size_text(_D.max_memory)}]."),
    ("--max-nodes", "max_nodes", click.IntRange(1), f"Most game nodes built for one case [default: {_D.max_nodes}]."),
    ("--max-profile-size", "max_hull_edges", click.IntRange(1), f"Largest exact privacy profile, in pieces [default: {_D.max_hull_edges}]."),
    ("--max-exponent", "max_exponent", click.IntRange(1), f"Largest exponent in a number [default: {_D.max_exponent}]."),
    ("--max-bits", "max_bits", click.IntRange(1), f"Most bits of any number computed from the case's numbers [default: {_D.max_bits}, or 100 x --max-exponent]."),
    ("--max-symbolic-degree", "max_symbolic_degree", click.IntRange(1), f"Highest degree of a rational function of symbols [default: {_D.max_symbolic_degree}]."),
    ("--max-datasets", "max_datasets", click.IntRange(2), f"Most datasets in a case [default: {_D.max_datasets}]."),
    ("--max-pairs", "max_pairs", click.IntRange(1), f"Most adjacent pairs in a case [default: {_D.max_pairs}]."),
    ("--max-components", "max_components", click.IntRange(1), f"Most components of a composition (compose --repeat) [default: {_D.max_components}]."),
    ("--max-samples", "max_samples", click.IntRange(1), f"Most samples of an experiment [default: {_D.max_samples}]."),
]


def limit_options(f):
    """Every resource limit as a flag (see exactdp.limits), and --follow-symlinks."""
    f = click.option(
        "--follow-symlinks", is_flag=True, default=None,
        help="Follow symbolic links to case files and directories, if their target stays inside the tree being verified (default: refuse them).",
    )(f)
    for flag, field, typ, text in reversed(_LIMIT_FLAGS):
        f = click.option(flag, field, type=typ, default=None, help=text)(f)
    return f


def limits_from(max_nodes=None, max_profile_size=None, max_exponent=None, timeout=None, max_strategies=None, **more) -> Limits:
    """The :class:`~exactdp.limits.Limits` for the flags of :func:`limit_options` (``None``:
    the default); accepts both the flag names and the field names."""
    given = {"max_nodes": max_nodes, "max_hull_edges": more.pop("max_hull_edges", max_profile_size),
             "max_exponent": max_exponent, "timeout": timeout, "max_strategies": max_strategies, **more}
    if given.get("max_bits") is None and max_exponent is not None:
        given["max_bits"] = max(_D.max_bits, 100 * max_exponent)
    return _D.replace(**given)


def load_mechanism(case_path: str, of: str | None):
    case = load_case(case_path)
    name = of or ("M" if "M" in case.mechanisms else next(iter(case.mechanisms)))
    if name not in case.mechanisms:
        raise click.BadParameter(f"no mechanism named {name!r} in {case_path}; defined: {', '.join(case.mechanisms)}")
    return case, name, case.mechanisms[name]


_ESCAPED = [0]  # characters of the output the terminal's encoding could not show


def _escape_unencodable(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler for stdout: write a character the encoding cannot show as a
    visible ``\\uXXXX`` escape, and remember that the output is not faithful."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    _ESCAPED[0] += err.end - err.start
    return "".join(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}" for c in err.object[err.start : err.end]), err.end


codecs.register_error("exactdp-escape", _escape_unencodable)
_OUTPUT_ERRNOS = {errno.EPIPE, errno.ENOSPC, errno.EBADF, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}


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
    sys.exit(code)


def _internal_error() -> NoReturn:
    click.echo("exactdp: internal error (please report it with the case file):", err=True)
    traceback.print_exc()
    sys.exit(3)
