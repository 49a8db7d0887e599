"""Machine-readable forms of Rényi divergences, trade-off functions and dominating pairs
(``exactdp renyi``, ``exactdp tradeoff``, ``exactdp profile --dominating-pair``).

Every number is exact text in the case-file grammar (``log(61/9)/2``, ``1/4``); a ``decimal``
entry is for reading only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.renyi import RenyiResult, alpha_str
from ..analysis.tradeoff import Tradeoff
from ..numbers import ladder
from ..numbers.rational import q_str
from ..numbers.types import FieldValue

__all__ = [
    "renyi_to_dict",
    "tradeoff_to_dict",
    "dominating_pair_to_dict",
    "renyi_lines",
    "tradeoff_lines",
    "dominating_pair_lines",
]


def renyi_to_dict(res: RenyiResult) -> dict[str, Any]:
    """D_α(M) exactly, with each ordered pair's sup of the Rényi sum (or of KL for α = 1)."""
    key = "kl" if res.alpha == 1 else "sum"
    return {
        "alpha": alpha_str(res.alpha),
        "renyi": ladder.text(res.value),
        "decimal": ladder.decimal(res.value),
        "pairs": [{"pair": list(p.pair), key: ladder.text(p.total)} for p in res.pairs],
    }


def _curve(t: Tradeoff) -> dict[str, Any]:
    return {"label": t.label, "vertices": [[q_str(a), q_str(b)] for a, b in t.vertices]}


def tradeoff_to_dict(mechanism: str, envelope: Tradeoff, pairs: Sequence[Tradeoff]) -> dict[str, Any]:
    """The exact trade-off function of the envelope and of every ordered pair, by vertices."""
    return {"mechanism": mechanism, "envelope": _curve(envelope), "pairs": [_curve(t) for t in pairs]}


def dominating_pair_to_dict(mechanism: str, p: Sequence[FieldValue], pp: Sequence[FieldValue]) -> dict[str, Any]:
    """The tight dominating pair (P, P') of the envelope (Zhu–Dong–Wang 2022, Def. 7)."""
    return {
        "mechanism": mechanism,
        "P": [q_str(x) for x in p],
        "P_prime": [q_str(x) for x in pp],
        "privacy_loss": [_loss_text(a, b) for a, b in zip(p, pp)],
    }


def _loss_text(a: FieldValue, b: FieldValue) -> str:
    """log(P/P') exactly; ``inf`` where P' = 0 and ``-inf`` where P = 0."""
    if not b:
        return "inf"
    if not a:
        return "-inf"
    return ladder.text(ladder.log(a / b))


def renyi_lines(mechanism: str, results: Sequence[RenyiResult]) -> list[str]:
    """``D_3(M) = log(61/9)/2 ≈ 0.956...``, one line per order."""
    lines = []
    for r in results:
        d = renyi_to_dict(r)
        shown = d["renyi"] if d["renyi"] in ("0", "inf") else f"{d['renyi']} ≈ {d['decimal']}"
        lines.append(f"D_{d['alpha']}({mechanism}) = {shown}")
    return lines


def tradeoff_lines(d: dict[str, Any]) -> list[str]:
    """The text of ``exactdp tradeoff``: the vertices of every trade-off function."""
    name = d["mechanism"]
    lines = [f"trade-off function of {name}: beta = T(alpha), exact, linear between vertices"]
    blocks = [(d["envelope"], f"{d['envelope']['label']} (largest f with {name} f-DP)")]
    for block, title in blocks + [(p, p["label"]) for p in d["pairs"]]:
        lines.append(f"  {title}:")
        lines.extend(f"    alpha = {a:<24} beta = {b}" for a, b in block["vertices"])
    return lines


def dominating_pair_lines(d: dict[str, Any]) -> list[str]:
    """The text of ``exactdp profile --dominating-pair``."""
    lines = [
        f"dominating pair of {d['mechanism']}: finite (P, P') whose profile delta(e^eps) equals the mechanism's for every eps",
        f"  {'outcome':<8} {'P':<24} {'P_prime':<24} privacy loss log(P/P')",
    ]
    for k, (p, pp, loss) in enumerate(zip(d["P"], d["P_prime"], d["privacy_loss"])):
        lines.append(f"  {'o' + str(k):<8} {p:<24} {pp:<24} {loss}")
    return lines
