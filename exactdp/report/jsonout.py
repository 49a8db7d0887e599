"""JSON reports for CI: exact values as strings, keys in a fixed order, byte-for-byte stable."""

from __future__ import annotations

from typing import Any

from ..analysis.results import Profile
from ..analysis.witness import Witness
from ..claims.base import NONADAPTIVE
from ..errors import CaseError
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..verify import FileResult, RunResult
from .escape import json_dumps
from .verdicts import claim_labels, shown, value_text

__all__ = ["run_to_json", "file_json", "witness_to_dict", "any_witness_to_dict", "profile_to_dict", "dumps"]

SCHEMA_VERSION = 1


def dumps(obj: Any) -> str:
    """JSON text (see :func:`.escape.json_dumps`: no raw control or bidi character)."""
    return json_dumps(obj)


def witness_to_dict(w: Witness, *, limit: int = 200) -> dict[str, Any]:
    x, xp = w.pair_names
    tree, tree_cut = w.decision_tree(limit=limit)
    views, views_cut = w.event(limit=limit)
    exc = w.excess()
    return {
        "engine": w.source,
        "pair": [x, xp],
        "eps": ladder.text(ladder.log(w.lam)),
        "exp_eps": ladder.text(w.lam),
        "strategy": tree,
        "strategy_truncated": tree_cut,
        "event": [{"view": h, "p": q_str(p), "p_prime": q_str(pp)} for h, p, pp in views],
        "event_truncated": views_cut,
        "p": q_str(w.p),
        "p_prime": q_str(w.p_prime),
        "excess": ladder.text(exc),
        "rechecked": True,
        "tight": _tight_dict(w),
    }


def any_witness_to_dict(w: Any) -> dict[str, Any]:
    """A verdict's witness of any kind (see :func:`exactdp.report.text.render_any_witness`)."""
    if isinstance(w, Witness):
        return witness_to_dict(w)
    if hasattr(w, "parts"):
        return {
            "kind": "tests",
            "intro": w.intro(),
            "parts": [{"title": t, **any_witness_to_dict(p)} for t, p in w.parts],
        }
    return w.to_dict()


def _tight_dict(w: Witness) -> dict[str, Any] | None:
    """The tightness statement at λ* (None for an ordinary witness)."""
    if w.tight is None:
        return None
    lam_star, delta = w.tight
    # PrivLoss = inf: Pr[T | x'] = 0, so the excess is Pr[T | x] at every e^eps
    excess = w.p if is_inf(lam_star) else w.p - lam_star * w.p_prime
    return {
        "exp_privloss": ladder.text(lam_star),
        "delta": q_str(delta),
        "excess_at_exp_privloss": ladder.text(excess),
    }


def profile_to_dict(prof: Profile) -> dict[str, Any]:
    def pts(h) -> list[list[str]]:
        return [["1", q_str(h.value_at(1))]] + [[q_str(r), q_str(v)] for r, v in h.bends()]

    return {
        "mechanism": prof.mechanism,
        "envelope": {"breakpoints": pts(prof.envelope), "limit": q_str(prof.envelope.top)},
        "pairs": [
            {"pair": list(pp.pair), "breakpoints": pts(pp.hull), "limit": q_str(pp.hull.top)} for pp in prof.pairs
        ],
    }


def file_json(fr: FileResult) -> dict[str, Any]:
    """One file's (or sweep point's) entry of the report."""
    d: dict[str, Any] = {"file": fr.file, "exit": fr.exit_code}
    if fr.point:
        d["params"] = {name: ladder.text(v) for name, v in fr.point}
    if fr.warnings:
        d["warnings"] = list(fr.warnings)
    if fr.error is not None:
        if isinstance(fr.error, CaseError):
            d["status"] = "invalid"
            d["problems"] = [
                {
                    "file": p.file,
                    "line": p.line,
                    "column": p.column,
                    "path": p.path,
                    "message": p.message,
                    "hint": p.hint,
                }
                for p in fr.error.problems
            ]
        else:
            d["status"] = "error"
            d["message"] = str(fr.error)
        return d
    case = fr.case
    assert case is not None
    d["status"] = "ok" if fr.exit_code == 0 else "failed"
    d["case"] = {"name": case.name, "title": case.title, "reference": case.reference}
    claims = []
    for label, v in zip(claim_labels(fr.verdicts), fr.verdicts):
        c = v.claim
        sh = shown(v)
        item: dict[str, Any] = {
            "kind": c.kind,
            "label": label,
            "of": c.of,
            "line": c.where.line,
            "params": c.params(),
            **({"scope": scope} if (scope := _scope(c)) else {}),
            "status": v.status,
            "value": value_text(v) or None,
            "found": sh.found,
            "values": dict(sh.values),
        }
        if sh.note:
            item["note"] = sh.note
        if sh.details:
            item["details"] = list(sh.details)
        if v.witness is not None:
            w = v.witness
            item["witness"] = any_witness_to_dict(w)
        claims.append(item)
    d["claims"] = claims
    return d


def _scope(c: Any) -> dict:
    """The claim's own pairs and adversaries (docs/report.schema.json, ``scope``), when it has them."""
    pairs = [list(p) for p in c.pairs] if getattr(c, "pairs", None) else None
    nonadaptive = getattr(c, "adversaries", None) == NONADAPTIVE  # (bounded range's own field is another)
    items: list[tuple[str, Any]] = [("group", getattr(c, "group", None)), ("pairs", pairs)]
    items += [("ordered", getattr(c, "ordered", False) or None), ("adversaries", NONADAPTIVE if nonadaptive else None)]
    return {k: v for k, v in items if v is not None}


def run_to_json(run: RunResult, *, interrupted: int | None = None, entries: list | None = None) -> str:
    """The report of a run (format: docs/report.schema.json); ``interrupted`` is the number of
    items the run had when it was stopped before checking them all; ``entries``, the files'
    :func:`file_json` when they were made already (``verify`` makes each as its result comes)."""
    c = run.counts()
    doc: dict[str, Any] = {
        "exactdp_report": SCHEMA_VERSION,
        "exit": run.exit_code,
        "summary": c,
        "files": entries if entries is not None else [file_json(f) for f in run.files],
    }
    if interrupted is not None:
        doc["interrupted"] = {"items": interrupted, "checked": len(run.files)}
    return dumps(doc)
