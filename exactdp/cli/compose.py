"""``exactdp compose``: composition theorems evaluated exactly for given (εᵢ, δᵢ)."""

from __future__ import annotations

from typing import Any

import click

from ..errors import ExactDPError
from ..limits import check_count, using
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..report.jsonout import dumps
from ..theorems import (
    THEOREMS,
    advanced,
    basic,
    check_against_optimum,
    components,
    improved_basic,
    kov_3_4,
    optimal,
    optimal_profile,
    thm_1_8,
)
from .app import fail, limit_options, limits_from, main, parse_number

__all__ = ["compose"]


def _split(text: str, what: str, kind: str) -> list:
    parts = [p.strip() for p in text.split(",")]
    if not all(parts):
        raise click.BadParameter(f"{what} {text!r}: empty item in the comma-separated list")
    return [parse_number(p, what, kind=kind) for p in parts]


_SHOW = [160]  # exact texts longer than this are summarised (``--exact`` prints them whole)


def _exact(s: str) -> str:
    if len(s) <= _SHOW[0]:
        return s
    return f"<exact, {len(s)} characters; --exact prints it>"


def _eps_text(v: Any) -> str:
    if is_inf(v):
        return "inf"
    s = ladder.text(v)
    return s if s == "0" else f"{_exact(s)} ≈ {ladder.decimal(v, 12)}"


def _delta_text(d: Any) -> str:
    s = q_str(d)
    return s if "/" not in s and "exp" not in s else f"{_exact(s)} ≈ {ladder.decimal(d, 12)}"


@main.command()
@click.option("--eps", "eps_text", required=True, help="Comma-separated eps_i: log(2),log(3) or 0.1 (exact decimals).")
@click.option("--delta", "delta_text", default="0", show_default=True, help="Comma-separated delta_i (or one for all).")
@click.option(
    "--delta-g",
    "delta_g_text",
    default="0",
    show_default=True,
    help="Target delta_g for the optimal theorem; the slack delta' for advanced and kov-3.4.",
)
@click.option(
    "--repeat",
    "times",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help="Repeat the list of components this many times (k-fold composition; at most --max-components components in all).",
)
@click.option("--theorem", type=click.Choice(THEOREMS + ("all",)), default="all", show_default=True)
@click.option(
    "--profile",
    "show_profile",
    is_flag=True,
    help="Also print the full exact delta(eps) staircase of the optimal composition.",
)
@click.option(
    "--exact",
    "show_exact",
    is_flag=True,
    help="Print long exact values in full (they are summarised otherwise; --json always has them).",
)
@click.option("--json", "as_json", is_flag=True)
@limit_options
def compose(eps_text, delta_text, delta_g_text, times, theorem, show_profile, show_exact, as_json, **limits):
    """Composition theorems for (eps_i, delta_i)-DP components, evaluated exactly.

    basic: (sum eps_i, sum delta_i) (Vadhan-Wang Thm 1.2; Thm 3.3 for pure concurrent);
    improved-basic: (sum eps_i, 1 - prod(1 - delta_i)) (continual mechanisms, Remark 5.12);
    thm-1.8: (sum eps_i, delta_g) minimised over orderings (Vadhan-Wang Thm 1.8/4.1);
    optimal: the least eps_g for delta_g (KOV/Murtagh-Vadhan, Vadhan-Wang Thm 1.4/5.6/5.7);
    advanced and kov-3.4: certified intervals, compared with the exact optimum.
    """
    _SHOW[0] = 10**12 if show_exact else 160
    lim = limits_from(**limits)
    try:
        with using(lim):
            eps1 = _split(eps_text, "--eps", "eps")
            deltas = _split(delta_text, "--delta", "delta")
            # refused before the repeated lists are built
            check_count("the number of components", len(eps1) * times, "max_components", "--max-components")
            eps = eps1 * times
            deltas = deltas * times if len(deltas) > 1 else deltas
            delta_g = parse_number(delta_g_text, "--delta-g", kind="delta")
            comps = components(eps, deltas)
            rows = _evaluate(comps, delta_g, theorem)
            stair = optimal_profile(comps) if show_profile else None
    except (ExactDPError, ValueError) as e:
        fail(e)
    if as_json:
        out = {
            "components": [{"eps": ladder.text(c.eps), "delta": q_str(c.delta)} for c in comps],
            "delta_g": q_str(delta_g),
            "theorems": rows,
        }
        if stair is not None:
            out["profile"] = [[ladder.text(l), ladder.text(d)] for l, d in stair]
        click.echo(dumps(out))
        return
    shown = ", ".join(str(c) for c in comps[:6]) + (f", ... ({len(comps)} components)" if len(comps) > 6 else "")
    click.echo(f"composition of {shown}; delta_g = {q_str(delta_g)}")
    for r in rows:
        click.echo(f"  {r['theorem']:<15} {r['text']}")
        click.echo(f"  {'':<15}   [{r['source']}]")
    if stair is not None:
        click.echo("  optimal composition, exact privacy profile (e^eps, delta), linear in e^eps between rows:")
        for lam, d in stair:
            click.echo(f"    eps = {_eps_text(_log(lam)):<40} delta = {_delta_text(d)}")


def _log(lam):
    return ladder.log(lam)


def _evaluate(comps, delta_g, which) -> list[dict]:
    rows: list[dict] = []
    want = THEOREMS if which == "all" else (which,)
    for name in want:
        if name in ("basic", "improved-basic", "thm-1.8"):
            b = {"basic": basic, "improved-basic": improved_basic, "thm-1.8": thm_1_8}[name](comps)
            text = f"eps_g = {_eps_text(b.eps)}   delta_g = {_delta_text(b.delta)}"
            row = {
                "theorem": name,
                "eps": ladder.text(b.eps),
                "delta": ladder.text(b.delta),
                "source": b.source,
                "text": text,
            }
            if b.order is not None:
                row["order"] = list(b.order)
                shown = ", ".join(map(str, b.order[:12])) + (", ..." if len(b.order) > 12 else "")
                row["text"] += f"   (order {shown}: Smith's rule, delta_i/(e^eps_i - 1) decreasing)"
            rows.append(row)
        elif name == "optimal":
            o = optimal(comps, delta_g)
            text = f"eps_g = {_eps_text(o.eps)}   at delta_g = {q_str(delta_g)}"
            if is_inf(o.eps):
                text += "   (delta_g < 1 - prod(1 - delta_i): no finite eps)"
            src = "Vadhan-Wang Thm 1.4/5.6/5.7 (Kairouz-Oh-Viswanath 2015, Murtagh-Vadhan 2016); exact PLD"
            rows.append(
                {
                    "theorem": name,
                    "eps": ladder.text(o.eps),
                    "exp_eps": ladder.text(o.lam),
                    "delta": q_str(delta_g),
                    "source": src,
                    "text": text,
                }
            )
        else:
            if delta_g <= 0:
                rows.append(
                    {"theorem": name, "eps": None, "source": "", "text": "needs --delta-g > 0 (the slack delta')"}
                )
                continue
            ib = (advanced if name == "advanced" else kov_3_4)(comps, delta_g)
            status, opt = check_against_optimum(ib, comps)
            verdict = {
                "valid": "valid (>= the exact optimum)",
                "below-optimum": "BELOW the exact optimum: not a valid bound",
                "undecided": "undecided",
            }[status]
            text = (
                f"eps in {ib.text()}   delta = {_delta_text(ib.delta)}\n"
                f"  {'':<15}   exact optimum at that delta: {_eps_text(opt.eps)}: {verdict}"
            )
            rows.append(
                {
                    "theorem": name,
                    "eps_interval": [str(ib.lo), str(ib.hi)],
                    "delta": q_str(ib.delta),
                    "optimum": ladder.text(opt.eps),
                    "status": status,
                    "source": ib.source,
                    "text": text,
                }
            )
    return rows
