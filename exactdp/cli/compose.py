"""``exactdp compose``: composition theorems evaluated exactly for given (εᵢ, δᵢ)."""

from __future__ import annotations

import click

from ..limits import using
from ..report.compose import SHOW_CHARS, compose_output, theorem_rows
from ..theorems import THEOREMS, optimal_profile
from ..theorems.params import repeated
from ..theorems.registry import evaluate_each
from .helptext import command, fail
from .options import OPTION, emit, flag, limit_options, parse_number

__all__ = ["compose"]


def _split(text: str, what: str, kind: str) -> list:
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):
        raise click.BadParameter(f"{what} {text!r}: empty item in the comma-separated list")
    return [parse_number(p, what, kind=kind) for p in parts]


@command()
@click.option("--eps", "eps_text", required=True, help="Comma-separated eps_i: log(2),log(3) or 0.1 (exact decimals).")
@click.option("--delta", "delta_text", default="0", help="Comma-separated delta_i (or one for all).")
@click.option(
    "--delta-g",
    "delta_g_text",
    default="0",
    help="Target delta_g for the optimal theorem; the slack delta' for advanced and kov-3.4.",
)
@click.option(
    "--repeat",
    "times",
    type=click.IntRange(1),
    default=1,
    help="Repeat the list of components this many times (k-fold composition; at most --max-components components in all).",
)
@click.option("--theorem", type=click.Choice(THEOREMS + ("all",)), default="all")
@flag("--profile", help="Also print the full exact delta(eps) staircase of the optimal composition.")
@flag("--exact", help="Print long exact values in full (they are summarised otherwise; --json always has them).")
@OPTION["json"]
@limit_options
def compose(eps_text, delta_text, delta_g_text, times, theorem, profile, exact, as_json, limits):
    """Composition theorems for (eps_i, delta_i)-DP components, evaluated exactly.

    basic: (sum eps_i, sum delta_i) (Vadhan-Wang Thm 1.2; Thm 3.3 for pure concurrent);
    improved-basic: (sum eps_i, 1 - prod(1 - delta_i)) (continual mechanisms, Remark 5.12);
    thm-1.8: (sum eps_i, delta_g) minimised over orderings (Vadhan-Wang Thm 1.8/4.1);
    optimal: the least eps_g for delta_g (KOV/Murtagh-Vadhan, Vadhan-Wang Thm 1.4/5.6/5.7);
    advanced, kov-3.4 and the KOV slides' Theorems I and II as printed (kov-slides-1, kov-slides-2):
    certified intervals, compared with the exact optimum.
    """
    show = 10**12 if exact else SHOW_CHARS
    try:
        with using(limits):
            eps, deltas = _split(eps_text, "--eps", "eps"), _split(delta_text, "--delta", "delta")
            delta_g = parse_number(delta_g_text, "--delta-g", kind="delta")
            comps = repeated(eps, deltas, times)
            names = THEOREMS if theorem == "all" else (theorem,)
            rows = theorem_rows(evaluate_each(names, comps, delta_g), delta_g, show)
            stair = optimal_profile(comps) if profile else None
    except ValueError as e:
        fail(e)
    emit(compose_output(comps, delta_g, rows, stair, show, as_json))
