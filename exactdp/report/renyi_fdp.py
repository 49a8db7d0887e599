"""Machine-readable forms and text of Rényi divergences (exact or certified), zCDP decisions,
conversions to (ε, δ)-DP, trade-off functions and dominating pairs (``exactdp renyi``,
``exactdp zcdp``, ``exactdp convert``, ``exactdp tradeoff``, ``exactdp profile
--dominating-pair``).

Every number is exact text in the case-file grammar (``log(61/9)/2``, ``1/4``); a certified
enclosure is given by its exact binary-rational ends; a ``decimal`` entry is for reading only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.renyi import RenyiResult, alpha_str
from ..analysis.renyi_certified import Enclosure, enclosure_text
from ..analysis.renyi_real import CertifiedRenyi
from ..analysis.tradeoff import Tradeoff
from ..analysis.tradeoff_points import VertexTest
from ..analysis.zcdp import ZCDPResult
from ..claims import Verdict
from ..claims.renyi import rho_str
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..numbers.types import FieldValue
from .escape import text
from .jsonout import any_witness_to_dict, dumps, witness_to_dict
from .text import render_any_witness, render_witness
from .verdicts import shown, status_text

__all__ = [
    "renyi_to_dict",
    "certified_renyi_to_dict",
    "renyi_any_to_dict",
    "renyi_any_doc",
    "zcdp_to_dict",
    "conversion_to_dict",
    "tradeoff_to_dict",
    "dominating_pair_to_dict",
    "renyi_lines",
    "renyi_any_lines",
    "zcdp_lines",
    "verdict_to_dict",
    "verdict_lines",
    "verdict_output",
    "tradeoff_lines",
    "dominating_pair_lines",
    "zcdp_output",
    "conversion_output",
    "tradeoff_output",
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


def renyi_any_to_dict(res: RenyiResult | CertifiedRenyi, witness: Any = None) -> dict[str, Any]:
    """D_α(M), exact or certified, with the attaining adversary when given."""
    d = certified_renyi_to_dict(res) if isinstance(res, CertifiedRenyi) else renyi_to_dict(res)
    if witness is not None:
        d["witness"] = witness.to_dict()
    return d


def renyi_lines(mechanism: str, results: Sequence[RenyiResult]) -> list[str]:
    """``D_3(M) = log(61/9)/2 ≈ 0.956...``, one line per order."""
    return renyi_any_lines(mechanism, results, [None] * len(results))


def renyi_any_doc(mechanism: str, engine: str, results: Sequence[Any], witnesses: Sequence[Any]) -> dict[str, Any]:
    """``exactdp renyi --json``: D_α(M) at each order asked for (:func:`renyi_any_to_dict`)."""
    values = [renyi_any_to_dict(r, w) for r, w in zip(results, witnesses)]
    return {"mechanism": mechanism, "engine": engine, "values": values}


def renyi_any_lines(mechanism: str, results: Sequence[Any], witnesses: Sequence[Any]) -> list[str]:
    """One line per order (``= exact ≈ decimal``, or ``in [lo, hi]`` for a certified enclosure),
    each followed by its attaining adversary when given."""
    lines = []
    for r, w in zip(results, witnesses):
        d = renyi_any_to_dict(r)
        if "renyi_interval" in d:
            value = f"in {d['enclosure']} (certified enclosure)"
        else:
            value = "= " + (d["renyi"] if d["renyi"] in ("0", "inf") else f"{d['renyi']} ≈ {d['decimal']}")
        lines.append(text(f"D_{d['alpha']}({mechanism}) {value}"))
        if w is not None:
            lines.extend(render_any_witness(w, "  "))
    return lines


def zcdp_to_dict(name: str, res: ZCDPResult) -> dict[str, Any]:
    """The zCDP decision with its evidence (see :class:`~exactdp.analysis.zcdp.ZCDPResult`)."""
    d: dict[str, Any] = {"mechanism": name, "rho": rho_str(res.rho), "status": res.status, "reason": res.reason}
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


def zcdp_lines(d: dict[str, Any], rho_text: str, witness: Any) -> list[str]:
    """The text of ``exactdp zcdp``: the decision, the order where it fails (or the closest
    evaluated one), and the attaining adversary."""
    lines = [text(f"{d['mechanism']} is {rho_text}-zCDP: {d['status']} ({d['reason']})")]
    if "alpha" in d:
        label = "fails at" if d["status"] == "fails" else "closest evaluated order"
        lines.append(f"  {label}: alpha = {d['alpha']}, D_alpha in {d['divergence']}")
    if witness is not None:
        lines.extend(render_any_witness(witness, "  "))
    return lines


def verdict_to_dict(name: str, v: Verdict) -> dict[str, Any]:
    """One decided claim as JSON (``exactdp convert``; ``exactdp zcdp`` with symbols): its
    status, what was found, its exact values, the details (the pieces of a piecewise answer)
    and the witness."""
    sh = shown(v)
    out: dict[str, Any] = {"mechanism": name, "status": v.status.value, "found": sh.found, "values": dict(sh.values)}
    if sh.details:
        out["details"] = list(sh.details)
    if v.witness is not None:
        out["witness"] = any_witness_to_dict(v.witness)
    return out


def verdict_lines(v: Verdict) -> list[str]:
    """One decided claim as text: the claim and its status, what was found, the note, the
    details and the witness."""
    sh = shown(v)
    lines = [text(f"{v.claim.describe()}: {status_text(v.status)}"), text(f"  {sh.found}")]
    if sh.note:
        lines.append(text(f"  [{sh.note}]"))
    lines.extend(text(f"  {d}") for d in sh.details)
    if v.witness is not None:
        lines.extend(render_any_witness(v.witness, "  "))
    return lines


def conversion_to_dict(name: str, v: Verdict) -> dict[str, Any]:
    """``exactdp convert --json``: :func:`verdict_to_dict` with the theorem's name."""
    return {"mechanism": name, "theorem": v.claim.theorem, **verdict_to_dict(name, v)}  # type: ignore[attr-defined]


def _curve(t: Tradeoff) -> dict[str, Any]:
    return {"label": t.label, "vertices": [[ladder.text(a), ladder.text(b)] for a, b in t.vertices]}


def tradeoff_to_dict(
    mechanism: str, envelope: Tradeoff, pairs: Sequence[Tradeoff], tests: Sequence[VertexTest] | None = None
) -> dict[str, Any]:
    """The exact trade-off function of the envelope and of every ordered pair, by vertices;
    with ``tests`` (:func:`~exactdp.analysis.tradeoff_points.vertex_tests`), the adversary and
    rejection region attaining each vertex of the envelope."""
    out: dict[str, Any] = {"mechanism": mechanism, "envelope": _curve(envelope), "pairs": [_curve(t) for t in pairs]}
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


def tradeoff_lines(d: dict[str, Any], tests: Sequence[VertexTest] | None = None) -> list[str]:
    """The text of ``exactdp tradeoff``: the vertices of every trade-off function, and with
    ``tests`` the test attaining each vertex of the envelope."""
    name = d["mechanism"]
    lines = [f"trade-off function of {name}: beta = T(alpha), exact, linear between vertices"]
    blocks = [(d["envelope"], f"{d['envelope']['label']} (largest f with {name} f-DP)")]
    for block, title in blocks + [(p, p["label"]) for p in d["pairs"]]:
        lines.append(f"  {title}:")
        lines.extend(f"    alpha = {a:<24} beta = {b}" for a, b in block["vertices"])
    if tests is not None:
        lines.append(f"  tests attaining the vertices of {d['envelope']['label']}:")
        for vt in tests:
            lines.append(f"    vertex ({ladder.text(vt.alpha)}, {ladder.text(vt.beta)}):")
            if vt.witness is None:
                lines.append(f"      {'reject never' if vt.alpha == 0 else 'reject always'}")
                continue
            x, xp = vt.witness.pair_names
            lines.append(f"      the test of H0: {xp} against H1: {x} rejects on the event T {vt.threshold_note()}:")
            lines.extend(render_witness(vt.witness, indent="      "))
    return [text(line) for line in lines]  # (names and labels come from the case file)


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


def dominating_pair_lines(d: dict[str, Any]) -> list[str]:
    """The text of ``exactdp profile --dominating-pair``."""
    lines = [
        f"dominating pair of {d['mechanism']}: finite (P, P') whose profile delta(e^eps) equals the mechanism's for every eps",
        f"  {'outcome':<8} {'P':<24} {'P_prime':<24} privacy loss log(P/P')",
    ]
    for k, (p, pp, loss) in enumerate(zip(d["P"], d["P_prime"], d["privacy_loss"])):
        lines.append(f"  {'o' + str(k):<8} {p:<24} {pp:<24} {loss}")
    return [text(line) for line in lines]  # (the mechanism's name comes from the case file)


def zcdp_output(name: str, res: ZCDPResult, rho_text: str, as_json: bool) -> str:
    """What ``exactdp zcdp`` prints: :func:`zcdp_to_dict` as JSON, else :func:`zcdp_lines`."""
    d = zcdp_to_dict(name, res)
    return dumps(d) if as_json else "\n".join(zcdp_lines(d, rho_text, res.witness))


def conversion_output(name: str, v: Verdict, as_json: bool) -> str:
    """What ``exactdp convert`` prints: :func:`conversion_to_dict` as JSON, else :func:`verdict_lines`."""
    return dumps(conversion_to_dict(name, v)) if as_json else "\n".join(verdict_lines(v))


def verdict_output(name: str, v: Verdict, as_json: bool) -> str:
    """What ``exactdp zcdp`` prints for a mechanism with symbols: :func:`verdict_to_dict` as
    JSON, else :func:`verdict_lines`."""
    return dumps(verdict_to_dict(name, v)) if as_json else "\n".join(verdict_lines(v))


def tradeoff_output(
    name: str, envelope: Tradeoff, pairs: Sequence[Tradeoff], tests: Sequence[VertexTest] | None, as_json: bool
) -> str:
    """What ``exactdp tradeoff`` prints: :func:`tradeoff_to_dict` as JSON, else :func:`tradeoff_lines`."""
    d = tradeoff_to_dict(name, envelope, pairs, tests)
    return dumps(d) if as_json else "\n".join(tradeoff_lines(d, tests))
