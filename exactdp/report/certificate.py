r"""A certificate as a LaTeX proof appendix (``exactdp certify --format latex``).

Rendered from the certificate's JSON alone: the claim, the case file's SHA-256, the values the
checker verifies (e^PrivLoss, a bracket of e^ε, the components' e^{ε_i}), the views of each game
with both probabilities for its first ordered pair (the sums the checker recomputes run over
these), T's conditionals per round, or the Farkas multipliers.  Labels from case files are
escaped; base LaTeX only (no packages).
"""

from __future__ import annotations

import re
from typing import Any

from ..analysis.witness import format_history
from .latex import latex_escape

__all__ = ["render_certificate_latex", "game_views"]

MAX_ROWS = 200
PAGE_LINES = 36  # lines of one tabular: a page holds one, and a page may end between two
_VAR = ["t"]  # the variable of the polynomials being rendered: t, or a certificate's symbol


def _poly(coeffs: str) -> str:
    """Integer coefficients of a polynomial in t (lowest degree first) as LaTeX."""
    terms = []
    for k, c in enumerate(coeffs.split(",")):
        if c.lstrip("-") != "0":
            power = "" if k == 0 else _VAR[0] if k == 1 else f"{_VAR[0]}^{{{k}}}"
            terms.append(f"{c}{power}" if k == 0 or c not in ("1", "-1") else f"{c[:-1]}{power}")
    return " + ".join(terms).replace("+ -", "- ") or "0"


def _frac(s: str) -> str:
    """An exact number of the certificate (a rational, or polynomials in t) in math mode."""
    if s in ("inf", "-inf") or s.startswith("exp("):
        return f"${s[:-3]}\\infty$" if s.endswith("inf") else f"$e^{{{latex_escape(s[4:-1])}}}$"
    n, _, d = s.partition("/")
    if not d or d == "1":
        return f"${_poly(n)}$"
    if "," not in s and n.startswith("-"):
        return f"$-\\frac{{{n[1:]}}}{{{d}}}$"
    return f"$\\frac{{{_poly(n)}}}{{{_poly(d)}}}$"


def _slash(s: str) -> str:
    """An exact number written n/d on one line (in a product that may wrap, stacked fractions
    would collide with the next line)."""
    if s in ("inf", "-inf") or s.startswith("exp("):
        return _frac(s)
    n, _, d = s.partition("/")
    wrap = "({})".format if "," in s else str
    return f"${wrap(_poly(n))}$" if not d or d == "1" else f"${wrap(_poly(n))}/{wrap(_poly(d))}$"


def _tt(s: str, run: int = 14) -> str:
    """Case-file text in typewriter: a line may break after a comma, ``_``, ``-``, ``.`` or ``/``,
    and inside any longer run every ``run`` characters (a typewriter word never breaks by itself:
    a long label in a table ran over the next columns)."""
    pieces = [p for p in re.split(r"(?<=[,_./-])", s) if p]
    parts = [p[k : k + run] for p in pieces for k in range(0, len(p), run)]
    return r"\texttt{" + r"\allowbreak{}".join(latex_escape(p) for p in parts) + "}"


def game_views(game: dict, limit: int = MAX_ROWS) -> tuple[list[tuple[list[str], str, str]], bool]:
    """The complete histories of the game (every option of every choice, as ("q", label) and
    answers as ("a", label), for :func:`format_history`), depth first, with the
    probabilities of their answers under the first ordered pair's two datasets as products of
    the certificate's texts; bool: the list was cut at ``limit``."""
    names = game["datasets"]
    i, j = (names.index(x) for x in game["pairs"][0])
    out: list = []
    stack: list = [(game["root"], [], [], [])]
    while stack:
        k, hist, px, pxp = stack.pop()
        node = game["nodes"][k]
        if "end" in node:
            out.append((hist, " ".join(px) or "1", " ".join(pxp) or "1"))
            if len(out) >= limit:
                return out, bool(stack)
        elif "ask" in node:
            stack.extend((c, hist + [("q", lab)], px, pxp) for lab, c in reversed(node["ask"]))
        else:
            stack.extend((c, hist + [("a", lab)], px + [p[i]], pxp + [p[j]]) for lab, p, c in reversed(node["answer"]))
    return out, False


def _tables(spec: str, header: str, rows: list[str], more: str | None, lines: list[int] | None = None) -> list[str]:
    """Rows as tabulars of at most :data:`PAGE_LINES` lines (``lines``: each row's, estimated;
    default 1), each with the header, so that a long table continues on the next page (base
    LaTeX has no table that breaks across pages); cells are paragraph columns of ``spec``'s
    widths, so long products wrap at their spaces."""
    cols = "".join(f"p{{{w}\\linewidth}}" for w in spec.split())
    chunks: list[list[str]] = [[]]
    used = 0
    for row, n in zip(rows, lines or [1] * len(rows)):
        if chunks[-1] and used + n > PAGE_LINES:
            chunks.append([])
            used = 0
        chunks[-1].append(row)
        used += n
    out: list[str] = []
    for k, chunk in enumerate(chunks):
        last = k == len(chunks) - 1
        tail = [f"\\multicolumn{{{len(spec.split())}}}{{l}}{{\\dots {more}}} \\\\"] if more and last else []
        out += [r"\noindent\begin{tabular}{" + cols + "}", header + r" \\ \hline", *chunk, *tail, r"\end{tabular}", ""]
    return out


def _views_table(name: str, game: dict) -> list[str]:
    views, cut = game_views(game)
    x, xp = game["pairs"][0]
    out = [
        r"\paragraph{Game "
        + _tt(name)
        + ".} "
        + f"Datasets {', '.join(map(_tt, game['datasets']))}; its views under ({_tt(x)}, {_tt(xp)}), "
        + "each probability the product of the answers' probabilities along it.",
        "",
    ]
    rows, lines = [], []
    for hist, p, pp in views:
        cells = [r" $\cdot$ ".join(_slash(f) for f in prod.split(" ")) for prod in (p, pp)]
        view = format_history(tuple(hist))  # (the text report's notation: q→a, then the next round)
        rows.append(f"{_tt(view)} & {cells[0]} & {cells[1]} \\\\")
        # (about 4 short factors, or 22 characters of a history, fit on a line of a column)
        lines.append(max(1, -(-len(view) // 22), *(-(-len(prod.split(" ")) // 4) for prod in (p, pp))))
    header = r"view (choices and answers) & $P_x$ & $P_{x'}$"
    return out + _tables(".3 .27 .27", header, rows, "(more views)" if cut else None, lines)


def _t_table(sim: dict) -> list[str]:
    outs = sim["outputs"]
    out = [
        r"\paragraph{Post-processor $T$.} "
        + f"Pair ({_tt(sim['pair'][0])}, {_tt(sim['pair'][1])}); "
        + "each row: the history so far, then $T(c)$'s probabilities of the answers.",
        "",
    ]
    rows = []
    for rd in sim["rounds"][:MAX_ROWS]:
        cells = [", ".join(_frac(v) for v in row) for row in rd["T"]]
        rows.append(_tt(", ".join(rd["history"]) or "(start)") + " & " + " & ".join(cells) + r" \\")
    header = "history & " + " & ".join(f"$T({latex_escape(c)})$" for c in outs)
    width = f"{0.54 / max(len(outs), 1):.2f}"
    more = "(more rounds)" if len(sim["rounds"]) > MAX_ROWS else None
    return out + _tables(" ".join([".3"] + [width] * len(outs)), header, rows, more)


def _farkas(f: dict) -> list[str]:
    out = [
        r"\paragraph{No post-processor exists (Farkas).} " + f"Pair ({_tt(f['pair'][0])}, {_tt(f['pair'][1])}).",
        "",
    ]
    rows = []
    for m in f["multipliers"][:MAX_ROWS]:
        kind, who, hist = m["row"]
        rows.append(f"{kind} ({_tt(str(who))}) & {_tt(', '.join(hist) or '(start)')} & {_frac(m['y'])} \\\\")
    return out + _tables(".25 .35 .25", r"row & history & multiplier", rows, None)


_VALUES = {
    "exp_privloss": r"$e^{\mathrm{PrivLoss}}$, which the checker verifies",
    "bracket": r"a value of $e^\varepsilon$ on the side of the claim's",
    "alpha": r"an order $\alpha$ with $D_\alpha > \rho\alpha$",
}


_CELL_VALUES = {**_VALUES, "exp_eps": r"the components' $e^{\varepsilon_i}$"}


def _values(v: Any) -> str:
    """One value of a proof, or a list of them (a composition's e^eps_i)."""
    return ", ".join(map(_frac, v)) if isinstance(v, list) else _frac(v)


def render_certificate_latex(cert: dict[str, Any]) -> str:
    """The certificate as a LaTeX fragment: claim, source, the proof's values and tables."""
    _VAR[0] = latex_escape(cert["symbol"]["name"]) if "symbol" in cert else "t"
    try:
        return _render(cert)
    finally:
        _VAR[0] = "t"


def _verdict_text(cert: dict[str, Any]) -> str:
    """The verdict of the claim in the heading.  A certificate with ``at`` (a counterexample)
    proves its *target* claim at that value: the counterexample holds when the target fails there."""
    if "at" not in cert:
        return f"the claim {cert['verdict']}"
    ours = "holds" if cert["verdict"] == "fails" else "fails"
    return f"the claim {ours}: the certificate proves that its target claim {cert['verdict']} at that value"


def _render(cert: dict[str, Any]) -> str:
    case = cert["case"]
    proof = cert["proof"]
    field = f" Numbers are in $\\mathbb{{Q}}(t)$, $t = e^{{{cert['field'][4:-1]}}}$." if "field" in cert else ""
    out = [
        f"% exactdp certificate: {latex_escape(case['file'])}, claim {case['claim']}; check it with: python checker FILE.json (the folder exactdp/checker)",
        r"\subsection*{Claim " + latex_escape(str(case["claim"])) + ": " + latex_escape(cert["exactdp"]["claim"]) + "}",
        f"Case {_tt(case['name'])} (file {_tt(case['file'])}, SHA-256 {_tt(case['sha256'][:16])}\\dots); "
        f"{_verdict_text(cert)}.{field}",
        "",
    ]
    for key, what in _VALUES.items():
        if key in proof:
            out += [f"Proof: {what}: {_frac(proof[key])}.", ""]
    if "orders" in proof:  # zCDP: K(alpha) = (alpha - 1) D_alpha is convex, below its chords
        pairs = ", ".join(f"({_frac(a)}, {_frac(k)})" for a, k in zip(proof["orders"], proof.get("bounds", [])))
        pairs = "{\\small " + pairs.replace("\\frac", "\\tfrac") + "}"
        said = (
            r"$K(\alpha) = (\alpha - 1) D_\alpha$ is convex with $K(1) = 0$; the orders and bounds"
            r" $(a_i, k_i)$ with $k_i \ge K(a_i)$, whose chords lie below $\rho\,\alpha(\alpha - 1)$,"
            r" and $D_\infty \le \rho\, a_N$ cover every $\alpha > 1$:"
        )
        out += [f"Proof: {said} {pairs}; the checker verifies each.", ""]
    if "exp_eps" in proof:
        out += [f"Proof: {_CELL_VALUES['exp_eps']}: {_values(proof['exp_eps'])}.", ""]
    if "symbol" in cert:
        where = f" at ${_VAR[0]} = $ {_frac(cert['at'])}" if isinstance(cert.get("at"), str) else ""
        out += [f"Numbers are rational functions of ${_VAR[0]}$; the checker checks the claim{where}.", ""]
    for c in cert.get("cells", []):
        said = (
            "; ".join(f"{_CELL_VALUES.get(k, latex_escape(k))}: {_values(v)}" for k, v in c["proof"].items())
            or "the checks alone"
        )
        out += [f"On the cell ({_frac(c['from'])}, {_frac(c['to'])}): {said}.", ""]
    for name, game in cert["games"].items():
        out += _views_table(name, game)
    for sim in proof.get("simulation", []):
        out += _t_table(sim)
    for f in proof.get("farkas", []):
        out += _farkas(f)
    return "\n".join(out) + "\n"
