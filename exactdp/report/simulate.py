"""Rendering post-processors T for people (text, LaTeX) and machines (JSON, YAML).

One table per adjacent pair: a row per (query history, answer history, answer a), a column
T(c, ·) per RR output c, every entry exact (a rational, or a factored rational function for a
symbolic mechanism).  Conditionals at rounds T never reaches under c are marked ``*`` (free;
set to M's own conditional).
"""

from __future__ import annotations

from typing import Any

from ..model.game import label_str
from ..numbers import ladder
from ..numbers.ladder import SYM
from ..numbers.rational import q_str
from ..numbers.symbolic import expr_str
from ..simulation.common import PostProcessor, RationalField, history_text
from ..simulation.experiment import Section6Result
from ..simulation.pure import PureCertificate
from ..simulation.simulate import FarkasSummary, Simulation, SimulationOutcome, outcome_of
from .escape import csv_row, json_dumps, text, yaml_scalar

__all__ = [
    "outcome_details",
    "outcome_values",
    "table_rows",
    "simulation_to_dict",
    "render_simulation_text",
    "render_simulation_yaml",
    "render_simulation_csv",
    "dumps_json",
    "section6_doc",
    "section6_lines",
    "render_simulation",
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


def _text(x: Any) -> str:
    try:
        return q_str(x)
    except Exception:
        return str(x)


def _num(x: Any) -> str:
    if ladder.domain_of(x) is SYM:  # a rational function of the symbols: factored
        return expr_str(x)
    return ladder.text(x)


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def outcome_details(out: SimulationOutcome, *, limit: int = 8) -> list[str]:
    """Report lines: per pair, what was checked, or the certificate; then notes and conditions."""
    lines = []
    for pr in out.pairs:
        a, b = pr.pair_names
        if pr.exists:
            line = (
                f"({a}, {b}): T checked exactly: {_n(pr.rounds, 'round node')} (a round after one history of answers) x "
                f"{pr.outputs} RR outputs, each conditional >= 0 "
                f"and summing to 1, path measures consistent (no future dependence), mixture identity on {pr.histories} histories"
            )
            if pr.enumerator == "ok":
                line += f"; enumerator: {_n(pr.adversaries, 'deterministic adversary', 'deterministic adversaries')}, identical views"
            elif pr.enumerator.startswith("skipped"):
                line += f"; enumerator {pr.enumerator}"
            lines.append(line)
            if pr.spot_check:
                lines.append(f"  numeric spot check {pr.spot_check}")
            lines.extend(f"  {n}" for n in pr.notes)
        elif isinstance(pr.certificate, PureCertificate):
            lines.append(
                "  " + pr.certificate.describe(RationalField()) + " (re-checked by an independent forward walk)"
            )
        elif isinstance(pr.certificate, FarkasSummary):
            cert = pr.certificate
            at = " at " + ", ".join(f"{k} = {v}" for k, v in cert.point.items()) if cert.point else ""
            lines.append(
                f"  no T exists for ({a}, {b}){at}: the LP is infeasible; "
                f"Farkas certificate with {len(cert.nonzero)} nonzero multipliers (checked exactly)"
            )
            lines.extend(f"    multiplier {q_str(y)} on {label}" for label, y in cert.nonzero[:limit])
            if len(cert.nonzero) > limit:
                lines.append(f"    ... ({len(cert.nonzero) - limit} more)")
        else:
            lines.append(f"({a}, {b}): PrivLoss is infinite but no single history shows it")
    lines.extend(out.notes)
    if out.conditions:
        lines.append(
            "conditions that could not be proved under the declared bounds (T is valid exactly when they hold):"
        )
        for who, where, ans, cond in out.conditions[:limit]:
            lines.append(
                f"  {cond}" + (f"   [{who} at {where}{', answer ' + str(ans) if ans else ''}]" if where else "")
            )
        if len(out.conditions) > limit:
            lines.append(f"  ... ({len(out.conditions) - limit} more)")
    return lines


def outcome_values(out: SimulationOutcome) -> dict[str, Any]:
    """The machine-readable values of a simulation (``--json`` of verify and simulate)."""
    pairs = []
    for pr in out.pairs:
        d: dict[str, Any] = {"pair": list(pr.pair_names), "exists": pr.exists}
        if pr.exists:
            d["rounds"] = pr.rounds
            d["histories"] = pr.histories
            d["enumerator"] = pr.enumerator
            d["adversaries"] = pr.adversaries
        if isinstance(pr.certificate, PureCertificate):
            c = pr.certificate
            d["certificate"] = {
                "kind": "history",
                "history": history_text(c.path),
                "x": c.x,
                "x_prime": c.x_prime,
                "p_x": _text(c.p_x),
                "p_x_prime": _text(c.p_x_prime),
                "exp_eps": _text(c.E),
                "point": c.point,
            }
        elif isinstance(pr.certificate, FarkasSummary):
            d["certificate"] = {
                "kind": "farkas",
                "multipliers": [[label, q_str(y)] for label, y in pr.certificate.nonzero],
                "point": pr.certificate.point,
            }
        pairs.append(d)
    return {
        "eps": out.eps_text,
        "exp_eps": _num(out.E),
        "delta": _num(out.delta),
        "construction": out.construction,
        "pairs": pairs,
        "conditions": [c[3] for c in out.conditions],
    }


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
    out = outcome_of(sim)
    vals = outcome_values(out)
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
        "report": outcome_details(out),
    }


def dumps_json(obj: Any) -> str:
    return json_dumps(obj)


def render_simulation_text(sim: Simulation) -> str:
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
    lines.extend(d["report"])
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


def section6_doc(res: Section6Result) -> dict[str, Any]:
    """The ``--json`` document of ``exactdp experiment section6``."""
    return {
        "samples": res.samples,
        "delta": q_str(res.delta),
        "seed": res.seed,
        "denominator": res.denominator,
        "feasible": res.feasible,
        "infeasible": res.infeasible,
        "errors": res.errors,
        "infinite_eps": res.infinite_eps,
        "zero_eps": res.zero_eps,
        "enumerator_checked": res.enumerator_checked,
        "seconds": round(res.seconds, 3),
        "failures": [{"sample": k, "p": p, "why": w} for k, p, w in res.failures[:50]],
    }


def section6_lines(res: Section6Result) -> list[str]:
    """The counts of Vadhan–Wang's Section 6 experiment, for people."""
    checked = " + enumerator" if res.enumerator_checked else ""
    lines = [
        f"Section 6 (Vadhan-Wang): {res.samples} random 2-round 1-bit mechanisms M_p, delta = {q_str(res.delta)}, "
        f"seed = {res.seed}, parameters in {{1..{res.denominator - 1}}}/{res.denominator}",
        "  eps = PrivLoss(M_p, delta): enumerator over all 4 deterministic adversaries, cross-checked by the profile engine",
        f"  feasible (T found, checked exactly{checked}): {res.feasible}",
        f"  infeasible (Farkas certificate checked):  {res.infeasible}",
        f"  errors:                                    {res.errors}",
    ]
    if res.infinite_eps:
        lines.append(f"  eps = inf (no finite eps):                 {res.infinite_eps}")
    lines.append(f"  of which eps = 0:                          {res.zero_eps}")
    lines.append(f"  time: {res.seconds:.1f} s ({1000 * res.seconds / res.samples:.2f} ms per sample)")
    lines.extend(f"  sample {k}: p = {p}: {w}" for k, p, w in res.failures[:10])
    return lines


def render_simulation(sim: Simulation, fmt: str = "text", *, quiet: bool = False) -> str:
    """The post-processor T as text, JSON, YAML or CSV (LaTeX: :mod:`exactdp.report.latex`),
    ending with a newline, as ``exactdp simulate`` prints it; ``quiet`` text has the checks
    without the tables."""
    if quiet and fmt == "text":
        return render_simulation_text(sim).splitlines()[0] + "\n" + "\n".join(outcome_details(outcome_of(sim))) + "\n"
    if fmt == "json":
        return dumps_json(simulation_to_dict(sim)) + "\n"
    if fmt == "yaml":
        return render_simulation_yaml(sim)
    return render_simulation_csv(sim) if fmt == "csv" else render_simulation_text(sim) + "\n"
