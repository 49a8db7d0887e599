r"""A certificate as a LaTeX proof appendix (``exactdp certify --format latex``).

Rendered from the certificate's JSON alone: the claim, the case file's SHA-256, and per proof
object a table — the adversary's views with both probabilities and membership in the event
(the witness table), the root chains of the upper bounds, T's conditionals per round, or the
Farkas multipliers.  Labels from case files are escaped; base LaTeX only (no packages).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .latex import latex_escape

__all__ = ["render_certificate_latex", "event_views"]

MAX_ROWS = 200


def _frac(s: str) -> str:
    n, _, d = s.partition("/")
    return f"${n}$" if not d else (f"$-\\frac{{{n[1:]}}}{{{d}}}$" if n.startswith("-") else f"$\\frac{{{n}}}{{{d}}}$")


def _tt(s: str) -> str:
    return r"\texttt{" + latex_escape(s) + "}"


def event_views(
    game: dict, ev: dict, limit: int = MAX_ROWS
) -> tuple[list[tuple[list[str], Fraction, Fraction, bool]], bool]:
    """The views of the event's adversary: (history, P_x, P_x', in T), depth first; bool: cut."""
    names = game["datasets"]
    i, j = names.index(ev["pair"][0]), names.index(ev["pair"][1])
    choice = {(n, r): opt for n, r, opt in ev["strategy"]}
    members = set(ev["event"])
    out: list = []
    stack: list[tuple[int, list[str], Fraction, Fraction]] = [(game["root"], [], Fraction(1), Fraction(1))]
    while stack:
        k, hist, p, pp = stack.pop()
        node = game["nodes"][k]
        r = "inf" if not pp else _text(p / pp)
        if "end" in node:
            out.append((hist, p, pp, r in members))
            if len(out) >= limit:
                return out, bool(stack)
        elif "ask" in node:
            opt = choice[(k, r)]
            child = next(c for lab, c in node["ask"] if lab == opt)
            stack.append((child, hist + [opt], p, pp))
        else:
            for lab, probs, c in reversed(node["answer"]):
                a, b = p * Fraction(probs[i]), pp * Fraction(probs[j])
                if a or b:
                    stack.append((c, hist + [lab], a, b))
    return out, False


def _text(f: Fraction) -> str:
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _event_table(cert: dict, ev: dict) -> list[str]:
    game = cert["games"][ev["game"]]
    x, xp = ev["pair"]
    views, cut = event_views(game, ev)
    out = [
        r"\paragraph{Adversary and event.} "
        + f"Mechanism {_tt(ev['game'])}, datasets ({_tt(x)}, {_tt(xp)}); "
        + f"$P_x(T) = ${_frac(ev['p'])}, $P_{{x'}}(T) = ${_frac(ev['p_prime'])}.",
        r"\begin{tabular}{lccc}",
        r"view (choices and answers) & $P_x$ & $P_{x'}$ & in $T$ \\ \hline",
    ]
    for hist, p, pp, in_t in views:
        out.append(
            f"{_tt(', '.join(hist) or '(empty)')} & {_frac(_text(p))} & {_frac(_text(pp))} & {'yes' if in_t else 'no'} \\\\"
        )
    if cut:
        out.append(r"\multicolumn{4}{l}{\dots (more views)} \\")
    return out + [r"\end{tabular}", ""]


def _upper_table(cert: dict, up: dict) -> list[str]:
    game = cert["games"][up["game"]]
    root = up["chains"][game["root"]]
    x, xp = up["pair"]
    out = [
        r"\paragraph{Upper bound.} "
        + f"Mechanism {_tt(up['game'])}, ordered pair ({_tt(x)}, {_tt(xp)}): "
        + f"a concave chain at each of the {len(game['nodes'])} nodes; at the root, "
        + r"$U(\lambda) = \max_i (a_i - \lambda b_i)$ over the vertices",
        r"\begin{tabular}{cc}",
        r"$b_i = P_{x'}(T)$ & $a_i = P_x(T)$ \\ \hline",
    ]
    out += [f"{_frac(b)} & {_frac(a)} \\\\" for b, a in root[:MAX_ROWS]]
    return out + [r"\end{tabular}", ""]


def _t_table(sim: dict) -> list[str]:
    outs = sim["outputs"]
    out = [
        r"\paragraph{Post-processor $T$.} "
        + f"Pair ({_tt(sim['pair'][0])}, {_tt(sim['pair'][1])}); "
        + "each row: the history so far, then $T(c)$'s probabilities of the answers.",
        r"\begin{tabular}{l" + "l" * len(outs) + "}",
        "history & " + " & ".join(f"$T({latex_escape(c)})$" for c in outs) + r" \\ \hline",
    ]
    for rd in sim["rounds"][:MAX_ROWS]:
        cells = [", ".join(_frac(v) for v in row) for row in rd["T"]]
        out.append(_tt(", ".join(rd["history"]) or "(start)") + " & " + " & ".join(cells) + r" \\")
    if len(sim["rounds"]) > MAX_ROWS:
        out.append(r"\multicolumn{2}{l}{\dots (more rounds)} \\")
    return out + [r"\end{tabular}", ""]


def _farkas(f: dict) -> list[str]:
    out = [
        r"\paragraph{No post-processor exists (Farkas).} " + f"Pair ({_tt(f['pair'][0])}, {_tt(f['pair'][1])}).",
        r"\begin{tabular}{lll}",
        r"row & history & multiplier \\ \hline",
    ]
    for m in f["multipliers"][:MAX_ROWS]:
        kind, who, hist = m["row"]
        out.append(f"{kind} ({_tt(str(who))}) & {_tt(', '.join(hist) or '(start)')} & {_frac(m['y'])} \\\\")
    return out + [r"\end{tabular}", ""]


def render_certificate_latex(cert: dict[str, Any]) -> str:
    """The certificate as a LaTeX fragment: claim, source, and one table per proof object."""
    case = cert["case"]
    proof = cert["proof"]
    out = [
        f"% exactdp certificate: {latex_escape(case['file'])}, claim {case['claim']}; check it with: python checker.py FILE.json",
        r"\subsection*{Claim " + str(case["claim"]) + ": " + latex_escape(cert["exactdp"]["claim"]) + "}",
        f"Case {_tt(case['name'])} (file {_tt(case['file'])}, SHA-256 {_tt(case['sha256'][:16])}\\dots); "
        f"the claim {cert['verdict']}.",
        "",
    ]
    for ev in proof.get("lower", []):
        out += _event_table(cert, ev)
    for up in proof.get("upper", []):
        out += _upper_table(cert, up)
    for sim in proof.get("simulation", []):
        out += _t_table(sim)
    for f in proof.get("farkas", []):
        out += _farkas(f)
    return "\n".join(out) + "\n"
