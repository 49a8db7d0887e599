"""Rendering post-processors T for people (text, LaTeX) and machines (JSON, YAML).

One table per adjacent pair: a row per (query history, answer history, answer a), a column
T(c, ·) per RR output c, every entry exact (a rational, or a factored rational function for a
symbolic mechanism).  Conditionals at rounds T never reaches under c are marked ``*`` (free;
set to M's own conditional).
"""

from __future__ import annotations

from typing import Any

from ..model.game import label_str
from ..numbers.rational import q_str
from ..simulation.common import PostProcessor, history_text
from ..simulation.simulate import Simulation
from .escape import csv_row, json_dumps, text, yaml_scalar

__all__ = [
    "table_rows",
    "simulation_to_dict",
    "render_simulation_text",
    "render_simulation_yaml",
    "render_simulation_csv",
    "dumps_json",
]


def _queries_answers(prefix: tuple) -> tuple[list[str], list[str]]:
    """Split a round's prefix into the per-round queries (``-`` when the mechanism spoke
    unasked; ``q1/q2`` for a compound query) and the answers so far."""
    queries, answers, cur = [], [], []
    for kind, lab in prefix:
        if kind == "q":
            cur.append(label_str(lab))
        else:
            queries.append("/".join(cur) or "-")
            answers.append(label_str(lab))
            cur = []
    queries.append("/".join(cur) or "-")
    return queries, answers


def table_rows(pp: PostProcessor) -> list[dict[str, Any]]:
    fld = pp.hist.fld
    out = []
    for occ in pp.hist.occs:
        qs, ans = _queries_answers(occ.prefix)
        for k, lab in enumerate(occ.node.labels):
            out.append(
                {
                    "round": len(ans) + 1,
                    "queries": qs,
                    "answers": ans,
                    "answer": label_str(lab),
                    "T": {c: fld.text(pp.cond[ci][occ.index][k]) for ci, c in enumerate(pp.outputs)},
                    "free": [c for ci, c in enumerate(pp.outputs) if (ci, occ.index) in pp.free],
                    "_occ": occ.index,
                    "_k": k,
                }
            )
    return out


def simulation_to_dict(sim: Simulation) -> dict[str, Any]:
    from ..claims.simulate import simulation_details, simulation_values

    vals = simulation_values(sim)
    pairs = []
    for pr, v in zip(sim.pairs, vals["pairs"]):
        d = dict(v)
        if pr.T is not None:
            pp = pr.T
            fld = pp.hist.fld
            d["outputs"] = list(pp.outputs)
            d["rr"] = {f"b={b}": {c: fld.text(pp.weights[b][ci]) for ci, c in enumerate(pp.outputs)} for b in (0, 1)}
            d["table"] = [{k: v for k, v in row.items() if not k.startswith("_")} for row in table_rows(pp)]
            d["notes"] = list(pp.notes)
        pairs.append(d)
    return {
        "mechanism": sim.mechanism,
        "eps": vals["eps"],
        "exp_eps": vals["exp_eps"],
        "delta": vals["delta"],
        "eps_is_default": sim.eps_is_default,
        "construction": sim.construction,
        "exists": sim.exists,
        "conditions": vals["conditions"],
        "pairs": pairs,
        "report": simulation_details(sim),
    }


def dumps_json(obj: Any) -> str:
    return json_dumps(obj)


def render_simulation_text(sim: Simulation) -> str:
    from ..claims.simulate import simulation_details

    d = simulation_to_dict(sim)
    rr = f"RR_({d['eps']}, {d['delta']})" if sim.construction != "pure" else f"RR_({d['eps']})"
    lines = [f"{sim.mechanism}: post-processor T of {rr}, e^eps = {d['exp_eps']} ({sim.construction})"]
    for pr, pd in zip(sim.pairs, d["pairs"]):
        a, b = pr.pair_names
        lines.append("")
        if pr.T is None:
            lines.append(f"pair ({a}, {b}): no T exists")
            continue
        lines.append(f"pair ({a}, {b}): b = 0 is {a}, b = 1 is {b}; columns T(c, .) for RR output c")
        head = ["round", "queries", "answers so far", "answer"] + [f"T({c},.)" for c in pd["outputs"]]
        body = []
        for row in pd["table"]:
            body.append(
                [
                    str(row["round"]),
                    "(" + ", ".join(row["queries"]) + ")",
                    "(" + ", ".join(row["answers"]) + ")",
                    row["answer"],
                ]
                + [row["T"][c] + ("*" if c in row["free"] else "") for c in pd["outputs"]]
            )
        widths = [max(len(x) for x in col) for col in zip(head, *body)]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
        for r in body:
            lines.append("  " + "  ".join(x.ljust(w) for x, w in zip(r, widths)).rstrip())
        if any(row["free"] for row in pd["table"]):
            lines.append("  * free: T never reaches this round under that RR output; set to M's own conditional")
    lines.append("")
    lines.extend(simulation_details(sim))
    return "\n".join(text(line) for line in lines)  # labels and names come from the case file


# --- a small YAML emitter (only caseio may import yaml; this writes our own plain data) ------------


def _scalar(v: Any) -> str:
    return yaml_scalar(v)


def _emit(v: Any, indent: int, out: list[str]) -> None:
    pad = "  " * indent
    if isinstance(v, dict):
        if not v:
            out[-1] += " {}"
            return
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{_scalar(k)}:")
                _emit(x, indent + 1, out)
            else:
                out.append(f"{pad}{_scalar(k)}: " + ("{}" if x == {} else "[]" if x == [] else _scalar(x)))
        return
    if isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                out.append(f"{pad}-")
                sub: list[str] = []
                _emit(x, indent + 1, sub)
                out[-1] += " " + sub[0].strip()
                out.extend(sub[1:])
            elif isinstance(x, list) and x:
                out.append(f"{pad}- [" + ", ".join(_scalar(y) for y in x) + "]")
            else:
                out.append(f"{pad}- " + ("[]" if x == [] else "{}" if x == {} else _scalar(x)))
        return
    out.append(pad + _scalar(v))


def render_simulation_csv(sim: Simulation) -> str:
    """T as CSV (RFC 4180), one record per (pair, round, answer): labels from the case file
    pass through :func:`.escape.csv_row` (quoting, visible control characters, no formulas)."""
    outputs: list[str] = []
    for pr in sim.pairs:
        if pr.T is not None:
            outputs += [c for c in pr.T.outputs if c not in outputs]
    head = ["x", "x_prime", "round", "queries", "answers_so_far", "answer"] + [f"T({c},a)" for c in outputs] + ["free"]
    lines = [csv_row((h, False) for h in head)]
    for pr in sim.pairs:
        if pr.T is None:
            continue
        a, b = pr.pair_names
        for row in table_rows(pr.T):
            cells: list = [
                a,
                b,
                (row["round"], False),
                " ".join(row["queries"]),
                " ".join(row["answers"]),
                row["answer"],
            ]
            cells += [(row["T"].get(c, ""), False) for c in outputs]
            cells.append(" ".join(row["free"]))
            lines.append(csv_row(cells))
    return "\n".join(lines) + "\n"  # LF line ends: every CSV reader accepts them, and no raw CR reaches a terminal


def render_simulation_yaml(sim: Simulation) -> str:
    out: list[str] = []
    _emit(simulation_to_dict(sim), 0, out)
    return "\n".join(out) + "\n"


__all__ += ["q_str", "history_text"]
