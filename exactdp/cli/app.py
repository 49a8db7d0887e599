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
from ..limits import Limits
from ..numbers import kinds as quantity
from ..numbers.expr import ExprError, eval_text
from ..report.escape import error_text, text

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
        click.echo(f"[{k + 1}/{n}] {text(f)}", err=True)

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] > 0.5:
            last[0] = now
            click.echo(f"\r  {stage}: {100 * done // max(total, 1)}% of {total} nodes", err=True, nl=False)

    return on_file, progress


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


def limit_options(f):
    """--max-nodes, --max-profile-size, --max-exponent, --timeout (see exactdp.limits)."""
    f = click.option("--timeout", type=click.FloatRange(0, min_open=True), default=None, help="Wall-clock limit per case file, in seconds.")(f)
    f = click.option("--max-exponent", type=click.IntRange(1), default=None, help=f"Largest integer exponent in a number [default: {DEFAULT_LIMITS.max_exponent}].")(f)
    f = click.option("--max-profile-size", type=click.IntRange(1), default=None, help=f"Largest exact privacy profile, in pieces [default: {DEFAULT_LIMITS.max_hull_edges}].")(f)
    f = click.option("--max-nodes", type=click.IntRange(1), default=None, help=f"Most game nodes built for one case [default: {DEFAULT_LIMITS.max_nodes}].")(f)
    return f


def limits_from(max_nodes=None, max_profile_size=None, max_exponent=None, timeout=None, max_strategies=None) -> Limits:
    bits = None if max_exponent is None else max(DEFAULT_LIMITS.max_bits, 100 * max_exponent)
    return DEFAULT_LIMITS.replace(
        max_nodes=max_nodes,
        max_hull_edges=max_profile_size,
        max_exponent=max_exponent,
        max_bits=bits,
        timeout=timeout,
        max_strategies=max_strategies,
    )


def load_mechanism(case_path: str, of: str | None):
    case = load_case(case_path)
    name = of or ("M" if "M" in case.mechanisms else next(iter(case.mechanisms)))
    if name not in case.mechanisms:
        raise click.BadParameter(f"no mechanism named {text(repr(name))} in {text(case_path)}; defined: {text(', '.join(case.mechanisms))}")
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

