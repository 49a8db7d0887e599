"""Machine-readable forms of Rényi divergences, trade-off functions and dominating pairs
(``exactdp renyi``, ``exactdp tradeoff``, ``exactdp profile --dominating-pair``).

Every number is exact text in the case-file grammar (``log(61/9)/2``, ``1/4``); a ``decimal``
entry is for reading only.
"""

from __future__ import annotations

from typing import Any

from ..analysis.renyi import RenyiResult, alpha_str
from ..analysis.renyi_certified import Enclosure, enclosure_text
from ..analysis.renyi_real import CertifiedRenyi
from ..analysis.results import Profile
from ..analysis.tradeoff import Tradeoff, dominating_pair, envelope_tradeoff, pair_tradeoffs
from ..analysis.tradeoff_points import VertexTest
from ..analysis.zcdp import ZCDPResult
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..numbers.types import FieldValue
from .jsonout import witness_to_dict

__all__ = ["renyi_to_dict", "certified_renyi_to_dict", "zcdp_to_dict", "tradeoff_to_dict", "dominating_pair_to_dict"]


def renyi_to_dict(res: RenyiResult) -> dict[str, Any]:
    """D_α(M) exactly, with each ordered pair's sup of the Rényi sum (or of KL for α = 1)."""
    key = "kl" if res.alpha == 1 else "sum"
    return {
        "alpha": alpha_str(res.alpha),
        "renyi": ladder.text(res.value),
        "decimal": ladder.decimal(res.value),
        "pairs": [{"pair": list(p.pair), key: ladder.text(p.total)} for p in res.pairs],
    }


def certified_renyi_to_dict(res: CertifiedRenyi) -> dict[str, Any]:
    """D_α(M) as a certified enclosure: exact binary-rational ends, and a rounded-outward reading."""
    d: dict[str, Any] = {"alpha": str(res.alpha)}
    if is_inf(res.value):
        d["renyi"] = "inf"
        return d
    assert isinstance(res.value, Enclosure)
    d["renyi_interval"] = [q_str(res.value.lo), q_str(res.value.hi)]
    d["enclosure"] = enclosure_text(res.value)
    d["precision_bits"] = res.prec
    if res.witness is not None:
        d["pair"] = list(res.witness.pair_names)
    return d


def zcdp_to_dict(name: str, res: ZCDPResult) -> dict[str, Any]:
    """The zCDP decision with its evidence (see :class:`~exactdp.analysis.zcdp.ZCDPResult`)."""
    d: dict[str, Any] = {"mechanism": name, "rho": q_str(res.rho), "status": res.status, "reason": res.reason}
    d["boxes"] = res.boxes
    if res.alpha is not None:
        d["alpha"] = str(res.alpha)
    if res.divergence is not None:
        d["divergence_interval"] = [q_str(res.divergence.lo), q_str(res.divergence.hi)]
        d["divergence"] = enclosure_text(res.divergence)
    if res.ratio is not None:
        d["ratio_lower_bound"] = str(res.ratio)
    if res.witness is not None:
        d["witness"] = res.witness.to_dict()
    return d


def _curve(t: Tradeoff) -> dict[str, Any]:
    return {"label": t.label, "vertices": [[ladder.text(a), ladder.text(b)] for a, b in t.vertices]}


def tradeoff_to_dict(prof: Profile, tests: list[VertexTest] | None = None) -> dict[str, Any]:
    """The exact trade-off function of the envelope and of every ordered pair, by vertices;
    with ``tests`` (:func:`~exactdp.analysis.tradeoff_points.vertex_tests`), the adversary and
    rejection region attaining each vertex of the envelope."""
    out: dict[str, Any] = {
        "mechanism": prof.mechanism,
        "envelope": _curve(envelope_tradeoff(prof)),
        "pairs": [_curve(t) for t in pair_tradeoffs(prof)],
    }
    if tests is not None:
        out["envelope"]["tests"] = [_test_dict(vt) for vt in tests]
    return out


def _test_dict(vt: VertexTest) -> dict[str, Any]:
    d: dict[str, Any] = {"alpha": ladder.text(vt.alpha), "beta": ladder.text(vt.beta)}
    if vt.witness is None:
        d["test"] = "reject never" if vt.alpha == 0 else "reject always"
        return d
    x, xp = vt.witness.pair_names
    d.update({"h0": xp, "h1": x, "witness": witness_to_dict(vt.witness)})
    return d


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
