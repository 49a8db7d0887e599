"""Machine-readable forms of Rényi divergences, trade-off functions and dominating pairs
(``exactdp renyi``, ``exactdp tradeoff``, ``exactdp profile --dominating-pair``).

Every number is exact text in the case-file grammar (``log(61/9)/2``, ``1/4``); a ``decimal``
entry is for reading only.
"""

from __future__ import annotations

from typing import Any

from ..analysis.renyi import RenyiResult, alpha_str
from ..analysis.results import Profile
from ..analysis.tradeoff import Tradeoff, dominating_pair, envelope_tradeoff, pair_tradeoffs
from ..numbers import ladder
from ..numbers.rational import q_str
from ..numbers.types import FieldValue

__all__ = ["renyi_to_dict", "tradeoff_to_dict", "dominating_pair_to_dict"]


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


def tradeoff_to_dict(prof: Profile) -> dict[str, Any]:
    """The exact trade-off function of the envelope and of every ordered pair, by vertices."""
    return {
        "mechanism": prof.mechanism,
        "envelope": _curve(envelope_tradeoff(prof)),
        "pairs": [_curve(t) for t in pair_tradeoffs(prof)],
    }


def dominating_pair_to_dict(prof: Profile) -> dict[str, Any]:
    """The tight dominating pair (P, P') of the envelope (Zhu–Dong–Wang 2022, Def. 7)."""
    p, pp = dominating_pair(prof.envelope)
    return {
        "mechanism": prof.mechanism,
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
