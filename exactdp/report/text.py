"""Readable text reports: one line per claim, witnesses indented under failing claims."""

from __future__ import annotations

from ..analysis.witness import Witness
from ..claims import FAILS, HOLDS, UNSUPPORTED, Verdict
from ..errors import CaseError, TimeLimitExceeded
from ..numbers.rational import is_rational, q_str
from ..numbers.real import real_log, real_str
from ..verify import ERROR, FileResult, RunResult
from ..numbers.ladder import is_inf
from .escape import error_text, text

__all__ = ["render_run", "render_file", "render_witness", "Marks"]


class Marks:
    def __init__(self, ascii_only: bool = False):
        if ascii_only:
            self.sym = {HOLDS: "[ok]  ", FAILS: "[FAIL]", UNSUPPORTED: "[n/a] ", ERROR: "[ERR] "}
        else:
            self.sym = {HOLDS: "✓", FAILS: "✗", UNSUPPORTED: "?", ERROR: "!"}


def render_witness(w: Witness, indent: str = "      ", *, lines_limit: int = 12) -> list[str]:
    """The pair, the adversary's strategy, the event and both probabilities (lines escaped
    by :func:`.escape.text`: dataset names and labels come from the case file)."""
    return [text(line) for line in _witness_lines(w, indent, lines_limit)]


def _witness_lines(w: Witness, indent: str, lines_limit: int) -> list[str]:
    x, xp = w.pair_names
    shown = w.lam if w.tight is None or is_inf(w.tight[0]) else w.tight[0]
    lam = real_str(shown)
    eps = real_str(real_log(shown))
    at = " = e^PrivLoss" if w.tight is not None and shown is not w.lam else ""
    out = [f"{indent}witness ({w.source} engine, re-checked independently): datasets ({x}, {xp}), eps = {eps} (e^eps = {lam}{at})"]
    tree, cut = w.decision_tree(limit=lines_limit)
    if tree:
        out.append(f"{indent}  adversary:")
        out.extend(f"{indent}    {t}" for t in tree)
        if cut:
            out.append(f"{indent}    ... (strategy continues)")
    else:
        out.append(f"{indent}  adversary: no choices to make")
    views, cut = w.event(limit=lines_limit)
    rel = ">=" if at else ">"  # tight: T was chosen just below e^PrivLoss, so it holds the ties
    out.append(f"{indent}  event T = views with Pr[.|{x}] {rel} e^eps Pr[.|{xp}]:")
    for h, p, pp in views:
        out.append(f"{indent}    {h}   ({q_str(p)} vs {q_str(pp)})")
    if cut:
        out.append(f"{indent}    ... (more views)")
    if not views:
        out.append(f"{indent}    (empty)")
    if w.tight is not None:
        out.extend(_tight_lines(w, indent))
        return out
    exc = w.excess()
    exc_s = q_str(exc) if is_rational(exc) else str(exc)
    out.append(
        f"{indent}  Pr[T | {x}] = {q_str(w.p)}, Pr[T | {xp}] = {q_str(w.p_prime)}; "
        f"Pr[T | {x}] - e^eps Pr[T | {xp}] = {exc_s}"
    )
    return out


def _tight_lines(w: Witness, indent: str) -> list[str]:
    """The tightness certificate: the event's probabilities stated at λ* = e^PrivLoss."""
    x, xp = w.pair_names
    lam_star, delta = w.tight
    head = f"{indent}  Pr[T | {x}] = {q_str(w.p)}, Pr[T | {xp}] = {q_str(w.p_prime)}"
    if is_inf(lam_star):
        return [head, f"{indent}  tight: Pr[T | {xp}] = 0 and Pr[T | {x}] > delta = {q_str(delta)}, so no finite eps works"]
    exc = w.p - lam_star * w.p_prime
    return [
        head,
        f"{indent}  at e^PrivLoss = {q_str(lam_star)}: Pr[T | {x}] - {q_str(lam_star)} Pr[T | {xp}] = {q_str(exc)} >= delta = {q_str(delta)}"
        f" with Pr[T | {xp}] > 0",
        f"{indent}  tight: for every eps < {real_str(real_log(lam_star))} this event exceeds delta, so no smaller eps works",
    ]


def _claim_line(v: Verdict, marks: Marks) -> str:
    c = v.claim
    found = v.found + (f"; {v.note}" if v.note else "")
    return f"  {marks.sym[v.status]} {c.describe():<44} {found}"


def render_file(fr: FileResult, marks: Marks = Marks(), *, quiet: bool = False) -> list[str]:
    """The lines for one case file.  Every line passes through :func:`.escape.text`: names,
    titles, references, labels and quoted values come from the case file."""
    return [text(line) for line in _file_lines(fr, marks, quiet=quiet)]


def _file_lines(fr: FileResult, marks: Marks, *, quiet: bool) -> list[str]:
    out: list[str] = []
    if fr.error is not None:
        kind = "invalid case" if isinstance(fr.error, CaseError) else (
            "not checked (time limit)" if isinstance(fr.error, TimeLimitExceeded) else "error"
        )
        out.append(f"{text(fr.file)}: {kind}")
        out.extend("  " + line for line in error_text(fr.error))
        return out
    case = fr.case
    assert case is not None
    head = f"{text(fr.file)}: {text(case.name)}"
    if case.title:
        head += f" — {text(case.title)}"
    if case.reference:
        head += f" [{text(case.reference)}]"
    out.append(head)
    for v in fr.verdicts:
        if quiet and v.status == HOLDS:
            continue
        out.append(_claim_line(v, marks))
        out.extend("      " + d for d in v.details)
        if v.witness is not None:
            # claim kinds with their own witness type (e.g. bounded range) render themselves
            out.extend(render_witness(v.witness) if isinstance(v.witness, Witness) else v.witness.render_lines())
    return out


def render_run(run: RunResult, marks: Marks = Marks(), *, quiet: bool = False) -> str:
    lines: list[str] = []
    for fr in run.files:
        lines.extend(render_file(fr, marks, quiet=quiet))
    c = run.counts()
    total = c[HOLDS] + c[FAILS] + c[UNSUPPORTED] + c[ERROR]
    parts = [f"{c[HOLDS]} hold", f"{c[FAILS]} fail"]
    if c[UNSUPPORTED]:
        parts.append(f"{c[UNSUPPORTED]} not supported yet")
    if c[ERROR]:
        parts.append(f"{c[ERROR]} undecided")
    files = f"{c['files']} file" + ("" if c["files"] == 1 else "s")
    if c["invalid_files"]:
        files += f", {c['invalid_files']} not valid"
    lines.append(f"summary: {total} claim{'s' if total != 1 else ''} in {files}: " + ", ".join(parts))
    return "\n".join(lines)

