"""The ``exactdp`` command group, shared options and helpers.

The command line.

Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet);
2 invalid input (a case file, an option) or a limit was hit; 3 an internal cross-check failed
(a bug in exactdp: please report it).
"""

from __future__ import annotations

import sys
import time
import traceback
from typing import Any

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


def run() -> None:
    """Console entry point: like ``main`` but an unexpected exception is reported as an
    internal error (exit 3) instead of escaping."""
    try:
        main(standalone_mode=True)
    except SystemExit:
        raise
    except Exception:
        click.echo("exactdp: internal error (please report it with the case file):", err=True)
        traceback.print_exc()
        sys.exit(3)

