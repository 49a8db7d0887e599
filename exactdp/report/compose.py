"""Composition theorems evaluated for given (εᵢ, δᵢ), as ``exactdp compose`` prints them.

One row per theorem (:func:`theorem_row`): its exact value (or certified interval, compared with
the exact optimum), for people (``text``) and machines (the other keys); long exact values are
summarised in the text unless asked for in full (``--exact``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ExactDPError
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..theorems import Component, theorem
from ..theorems.basic import Bound
from ..theorems.optimal import OptimalResult
from ..theorems.registry import IntervalResult
from .jsonout import dumps

__all__ = ["theorem_row", "not_applicable_row", "theorem_rows", "compose_lines", "compose_json", "compose_output"]
__all__ += ["SHOW_CHARS"]

SHOW_CHARS = 160  # exact texts longer than this are summarised in the text (unless shown in full)

_VERDICT = {
    "valid": "valid (>= the exact optimum)",
    "below-optimum": "BELOW the exact optimum: not a valid bound",
    "undecided": "undecided",
}


def _exact(s: str, show: int) -> str:
    return s if len(s) <= show else f"<exact, {len(s)} characters; --exact prints it>"


def _eps_text(v: Any, show: int) -> str:
    if is_inf(v):
        return "inf"
    s = ladder.text(v)
    return s if s == "0" else f"{_exact(s, show)} ≈ {ladder.decimal(v, 12)}"


def _delta_text(d: Any, show: int) -> str:
    s = q_str(d)
    return s if "/" not in s and "exp" not in s else f"{_exact(s, show)} ≈ {ladder.decimal(d, 12)}"


def theorem_row(name: str, result: Bound | OptimalResult | IntervalResult | None, delta_g: Any, show: int) -> dict:
    """One theorem's row: ``theorem``, the exact values, ``source`` and ``text``."""
    if isinstance(result, Bound):
        row: dict[str, Any] = {
            "theorem": name,
            "eps": ladder.text(result.eps),
            "delta": ladder.text(result.delta),
            "source": result.source,
            "text": f"eps_g = {_eps_text(result.eps, show)}   delta_g = {_delta_text(result.delta, show)}",
        }
        if result.order is not None:
            row["order"] = list(result.order)
            shown = ", ".join(map(str, result.order[:12])) + (", ..." if len(result.order) > 12 else "")
            row["text"] += f"   (order {shown}: Smith's rule, delta_i/(e^eps_i - 1) decreasing)"
        return row
    if isinstance(result, OptimalResult):
        text = f"eps_g = {_eps_text(result.eps, show)}   at delta_g = {q_str(delta_g)}"
        if is_inf(result.eps):
            text += "   (delta_g < 1 - prod(1 - delta_i): no finite eps)"
        return {
            "theorem": name,
            "eps": ladder.text(result.eps),
            "exp_eps": ladder.text(result.lam),
            "delta": q_str(delta_g),
            "source": theorem(name).reference,
            "text": text,
        }
    if result is None:
        return {"theorem": name, "eps": None, "source": "", "text": "needs --delta-g > 0 (the slack delta')"}
    ib, opt = result.bound, result.optimum
    text = (
        f"eps in {ib.text()}   delta = {_delta_text(ib.delta, show)}\n"
        f"  {'':<15}   exact optimum at that delta: {_eps_text(opt.eps, show)}: {_VERDICT[result.status]}"
    )
    return {
        "theorem": name,
        "eps_interval": [str(ib.lo), str(ib.hi)],
        "delta": q_str(ib.delta),
        "optimum": ladder.text(opt.eps),
        "status": result.status,
        "source": ib.source,
        "text": text,
    }


def not_applicable_row(name: str, why: str) -> dict:
    """The row of a theorem that does not apply to these components (a bound stated for
    homogeneous components only, given heterogeneous ones)."""
    return {"theorem": name, "eps": None, "source": theorem(name).title, "text": f"not applicable: {why}"}


def theorem_rows(results: Sequence[tuple[str, Any]], delta_g: Any, show: int = SHOW_CHARS) -> list[dict]:
    """The rows of theorems evaluated by :func:`exactdp.theorems.registry.evaluate_each` (an
    error in place of a result: the theorem does not apply)."""
    return [
        not_applicable_row(name, str(r)) if isinstance(r, ExactDPError) else theorem_row(name, r, delta_g, show)
        for name, r in results
    ]


def compose_lines(
    comps: Sequence[Component], delta_g: Any, rows: Sequence[dict], stair: Sequence | None, show: int
) -> list[str]:
    """The text of ``exactdp compose``: the components, one row per theorem, the staircase."""
    shown = ", ".join(str(c) for c in comps[:6]) + (f", ... ({len(comps)} components)" if len(comps) > 6 else "")
    lines = [f"composition of {shown}; delta_g = {q_str(delta_g)}"]
    for r in rows:
        lines.append(f"  {r['theorem']:<15} {r['text']}")
        lines.append(f"  {'':<15}   [{r['source']}]")
    if stair is not None:
        lines.append("  optimal composition, exact privacy profile (e^eps, delta), linear in e^eps between rows:")
        for lam, d in stair:
            lines.append(f"    eps = {_eps_text(ladder.log(lam), show):<40} delta = {_delta_text(d, show)}")
    return lines


def compose_json(comps: Sequence[Component], delta_g: Any, rows: Sequence[dict], stair: Sequence | None) -> dict:
    """The ``--json`` document of ``exactdp compose``."""
    out: dict[str, Any] = {
        "components": [{"eps": ladder.text(c.eps), "delta": q_str(c.delta)} for c in comps],
        "delta_g": q_str(delta_g),
        "theorems": list(rows),
    }
    if stair is not None:
        out["profile"] = [[ladder.text(lam), ladder.text(d)] for lam, d in stair]
    return out


def compose_output(
    comps: Sequence[Component], delta_g: Any, rows: Sequence[dict], stair: Sequence | None, show: int, as_json: bool
) -> str:
    """What ``exactdp compose`` prints: :func:`compose_json` as JSON, else :func:`compose_lines`."""
    if as_json:
        return dumps(compose_json(comps, delta_g, rows, stair))
    return "\n".join(compose_lines(comps, delta_g, rows, stair, show))
