r"""LaTeX tables of post-processors T, ready to paste into a paper.

Each adjacent pair becomes a ``table`` with a ``tabular`` (base LaTeX only: no packages needed),
rows (query history, answers so far, answer a) and a column T(c, ·) per RR output c; exact
values are typeset as fractions (SymPy's LaTeX printer for rational functions).
``standalone=True`` wraps the tables in a minimal ``article`` document.
"""

from __future__ import annotations

from ..constructions.simulate import Simulation
from .simulate import table_rows

__all__ = ["render_simulation_latex", "latex_escape"]

_ESC = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(s: str) -> str:
    return "".join(_ESC.get(ch, ch) for ch in s)


def _lab(s: str) -> str:
    return r"\mathrm{" + latex_escape(s) + "}" if s != "-" else r"\cdot"


def _seq(xs: list[str]) -> str:
    return "$(" + ", ".join(_lab(x) for x in xs) + ")$"


def _val(pp, ci: int, occ: int, k: int) -> str:
    import sympy

    v = pp.hist.fld.to_sympy(pp.cond[ci][occ][k])
    if v.free_symbols:
        v = sympy.factor(sympy.cancel(v))
    return "$" + sympy.latex(v) + "$"


def _out_name(c: str) -> str:
    return {"I0": r"\mathrm{I}_0", "I1": r"\mathrm{I}_1"}.get(c, latex_escape(c))


def render_simulation_latex(sim: Simulation, *, standalone: bool = False) -> str:
    """The tables of T for every pair that has one (and a sentence for pairs that have none)."""
    import sympy

    from ..numbers.symbolic import to_sympy

    E = sympy.latex(to_sympy(sim.E) if not isinstance(sim.E, sympy.Basic) else sim.E)
    d = sympy.latex(to_sympy(sim.delta) if not isinstance(sim.delta, sympy.Basic) else sim.delta)
    rr = r"\mathrm{RR}_{\varepsilon}" if sim.construction == "pure" else r"\mathrm{RR}_{(\varepsilon,\delta)}"
    parts = []
    for pr in sim.pairs:
        a, b = (latex_escape(x) for x in pr.pair_names)
        if pr.T is None:
            parts.append(f"% no post-processor T exists for the pair ({a}, {b}); see the text report for the certificate\n")
            continue
        pp = pr.T
        cols = "lll" + "c" * len(pp.outputs)
        head = " & ".join(["queries", "answers so far", "$a$"] + [f"$T({_out_name(c)}, a)$" for c in pp.outputs])
        rows = []
        for row in table_rows(pp):
            occ, kk = row["_occ"], row["_k"]
            cells = [_seq(row["queries"]), _seq(row["answers"]), f"${_lab(row['answer'])}$"]
            cells += [_val(pp, ci, occ, kk) + ("$^*$" if c in row["free"] else "") for ci, c in enumerate(pp.outputs)]
            rows.append(" & ".join(cells) + r" \\")
        delta_txt = "" if sim.construction == "pure" else rf", $\delta = {d}$"
        cap = (
            rf"Post-processor $T$ with $T({rr}(b)) \equiv M(x_b)$, $b = 0, 1$, for the adjacent pair "
            rf"({a}, {b}); $e^\varepsilon = {E}${delta_txt}. Entry: $\Pr[T(c, q^{{(t)}}) = a \mid a_0, \dots, a_{{t-2}}]$."
        )
        if pp.free:
            cap += r" $^*$: a round $T$ never reaches under $c$ (free; set to $M$'s own conditional)."
        parts.append(
            "\\begin{table}[ht]\n\\centering\n\\renewcommand{\\arraystretch}{1.35}\n"
            f"\\caption{{{cap}}}\n"
            f"\\begin{{tabular}}{{{cols}}}\n\\hline\n{head} \\\\\n\\hline\n" + "\n".join(rows) + "\n\\hline\n\\end{tabular}\n\\end{table}\n"
        )
    body = "\n".join(parts)
    if standalone:
        return "\\documentclass{article}\n\\begin{document}\n" + body + "\\end{document}\n"
    return body

