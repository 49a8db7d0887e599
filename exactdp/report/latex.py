r"""LaTeX tables of post-processors T (Vadhan–Wang Thm 1.10), ready to paste into a paper.

Each adjacent pair becomes a ``longtable`` (it breaks across pages, with its header repeated)
ruled with ``booktabs``; rows are (round, query history, answers so far, answer a) and there is a
column T(c, a) per RR output c.  Exact values are typeset by SymPy's LaTeX printer with
``\tfrac`` (a factored rational function for a symbolic mechanism).  Every table has a
``\label`` (``tab:<prefix>-<x>-<x'>``).  ``drop_trivial`` leaves out the rows where T(c, a) is
the same for every RR output c (T does not look at RR's answer there) and says how many in the
caption.  The preamble needs ``\usepackage{amsmath,booktabs,longtable}``; ``standalone=True``
wraps the tables in a complete ``article`` document.  Labels from the case file pass through
:func:`.escape.latex_math` (math mode) or :func:`.escape.latex` (text).
"""

from __future__ import annotations

import re
from typing import Any

from ..numbers.ladder import is_inf
from ..numbers.symbolic import (
    sympy,  # start-up: SymPy loads on first use (symbolic cases only)
    to_sympy,
)
from ..simulation.simulate import Simulation
from .escape import latex, latex_math
from .simulate import table_rows

__all__ = ["render_simulation_latex", "latex_escape", "PREAMBLE"]

PREAMBLE = "\\usepackage{amsmath,booktabs,longtable}\n"


def latex_escape(s: str) -> str:
    """Text-mode escaping (kept for callers; the same as :func:`.escape.latex`)."""
    return latex(s)


def _lab(s: str) -> str:
    return latex_math(s) if s != "-" else r"\cdot"


def _seq(xs: list[str]) -> str:
    return "$(" + ", ".join(_lab(x) for x in xs) + ")$"


def _val(pp: Any, ci: int, occ: int, k: int) -> str:
    v = pp.hist.fld.to_sympy(pp.cond[ci][occ][k])
    if v.free_symbols:
        v = sympy.factor(sympy.cancel(v))
    return "$" + sympy.latex(v).replace(r"\frac", r"\tfrac") + "$"


def _out_name(c: str) -> str:
    return {"I0": r"\mathrm{I}_0", "I1": r"\mathrm{I}_1"}.get(c, latex_math(c))


def _label_key(s: str) -> str:
    """A ``\\label`` key: ASCII letters, digits and ``-`` only (any case-file text is reduced)."""
    return re.sub(r"[^A-Za-z0-9]+", "-", s).strip("-") or "x"


def _trivial(row: dict[str, Any], outputs: list[str]) -> bool:
    vals = [row["T"][c] for c in outputs]
    return all(v == vals[0] for v in vals) and not row["free"]


def _head_rows(pp: Any) -> tuple[str, int]:
    head = " & ".join(["round", "queries", "answers so far", "$a$"] + [f"$T({_out_name(c)}, a)$" for c in pp.outputs])
    return head + r" \\", 4 + len(pp.outputs)


def _table(pp: Any, cap: str, key: str, drop_trivial: bool) -> str:
    head, ncols = _head_rows(pp)
    rows, dropped = [], 0
    for row in table_rows(pp):
        if drop_trivial and _trivial(row, list(pp.outputs)):
            dropped += 1
            continue
        occ, kk = row["_occ"], row["_k"]
        cells = [str(row["round"]), _seq(row["queries"]), _seq(row["answers"]), f"${_lab(row['answer'])}$"]
        cells += [_val(pp, ci, occ, kk) + ("$^*$" if c in row["free"] else "") for ci, c in enumerate(pp.outputs)]
        rows.append(" & ".join(cells) + r" \\")
    if dropped:
        cap += f" {dropped} rows where $T(c, a)$ is the same for every $c$ are omitted."
    cols = "@{}rlll" + "c" * len(pp.outputs) + "@{}"
    return (
        "\\begingroup\n\\small\n\\setlength{\\tabcolsep}{4pt}\n\\renewcommand{\\arraystretch}{1.2}\n"
        f"\\begin{{longtable}}{{{cols}}}\n\\caption{{{cap}}}\\label{{{key}}}\\\\\n"
        f"\\toprule\n{head}\n\\midrule\n\\endfirsthead\n"
        f"\\multicolumn{{{ncols}}}{{@{{}}l}}{{\\itshape Table~\\thetable{{}} (continued)}}\\\\\n"
        f"\\toprule\n{head}\n\\midrule\n\\endhead\n"
        f"\\midrule\n\\multicolumn{{{ncols}}}{{r@{{}}}}{{\\itshape continued on the next page}}\\\\\n\\endfoot\n"
        "\\bottomrule\n\\endlastfoot\n" + "\n".join(rows) + "\n\\end{longtable}\n\\endgroup\n"
    )


def render_simulation_latex(
    sim: Simulation, *, standalone: bool = False, drop_trivial: bool = False, label: str | None = None
) -> str:
    """The tables of T for every pair that has one (and a comment for pairs that have none).

    Parameters
    ----------
    standalone : bool
        A complete document (for ``pdflatex``) instead of the tables alone.
    drop_trivial : bool
        Leave out rows where T(c, a) does not depend on the RR output c.
    label : str, optional
        Prefix of the ``\\label`` keys (default: ``T-`` and the mechanism's name).
    """
    E, d = (
        r"\infty" if is_inf(x) else sympy.latex(to_sympy(x)).replace(r"\frac", r"\tfrac") for x in (sim.E, sim.delta)
    )
    rr = r"\mathrm{RR}_{\varepsilon}" if sim.construction == "pure" else r"\mathrm{RR}_{(\varepsilon,\delta)}"
    prefix = _label_key(label if label is not None else f"T-{sim.mechanism}")
    parts, keys = [], set[str]()
    for pr in sim.pairs:
        a, b = (latex(x) for x in pr.pair_names)
        if pr.T is None:
            parts.append(
                f"% no post-processor T exists for the pair ({a}, {b}); see the text report for the certificate\n"
            )
            continue
        pp = pr.T
        delta_txt = "" if sim.construction == "pure" else rf", $\delta = {d}$"
        cap = (
            rf"Post-processor $T$ with $T({rr}(b)) \equiv M(x_b)$, $b = 0, 1$, for the adjacent pair "
            rf"({a}, {b}); $e^\varepsilon = {E}${delta_txt}. Entry: $\Pr[T(c, q^{{(t)}}) = a \mid a_0, \dots, a_{{t-2}}]$."
        )
        if pp.free:
            cap += r" $^*$: a round $T$ never reaches under $c$ (free; set to $M$'s own conditional)."
        key = f"tab:{prefix}-{_label_key(pr.pair_names[0])}-{_label_key(pr.pair_names[1])}"
        key = next(k for n in range(1, len(keys) + 2) if (k := key + f"-{n}" * (n > 1)) not in keys)  # (a' and a)
        keys.add(key)
        parts.append(_table(pp, cap, key, drop_trivial))
    body = "\n".join(parts)
    if standalone:
        return "\\documentclass{article}\n" + PREAMBLE + "\\begin{document}\n" + body + "\\end{document}\n"
    return "% needs \\usepackage{amsmath,booktabs,longtable} in the preamble\n" + body
