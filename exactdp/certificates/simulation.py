r"""Simulation certificates: the post-processor T of Theorem 1.10 as a table, or the proof that
none exists (Farkas multipliers of the exact LP).

A T table has one row per round of M's history tree — the history so far as its labels — and,
for each randomized-response output c, T(c, round)'s probability of every answer.  The checker
multiplies T out along every history and compares Σ_c Pr[RR(b) = c]·T_c(h) with P_{x_b}(h).
The outputs are RR_ε's ``0, 1`` (Def. 1.9) or RR_(ε,δ)'s ``I0, 0, 1, I1`` (Def. 5.1); Lemma 5.6's
IRR outputs (z, y) are RR_(ε,δ)'s outputs renamed ((0,0) = I0, (0,1) = I1, (1,0) = 0, (1,1) = 1:
the same law), so its T is written in those names.

Farkas: :mod:`exactdp.simulation.approx` solves a reduced LP (path measures τ_0, τ_1 only,
the identities turned into T(I0), T(I1) ≥ 0 on the leaves).  Its multipliers carry over to the
full system the checker builds from the definition (variables τ_c(h) ≥ 0 for all four outputs,
consistency and mixture equalities): the row "T(I_b) ≥ 0 at h" *is* the mixture equality of b
at h with τ_{I_b}(h) ≥ 0 dropped, whose column then gets δ·y ≥ 0.

References
----------
Vadhan & Wang (TCC 2021), Thm 1.10 (= Thm 5.4), Def. 5.1, Section 6; Henzinger, Safavi &
Vadhan (2024), Lemma 5.6; Farkas' lemma.
"""

from __future__ import annotations

from ..model.game import label_str
from ..simulation.approx import ApproxCertificate
from ..simulation.common import PostProcessor
from .base import NoCertificate

__all__ = ["t_table", "farkas_entry", "IRR_AS_RR"]

IRR_AS_RR = {"(0,0)": "I0", "(0,1)": "I1", "(1,0)": "0", "(1,1)": "1"}
_RR_ORDER = ("I0", "0", "1", "I1")


def _history(path: tuple) -> list[str]:
    return [label_str(lab) for _, lab in path]


def t_table(pp: PostProcessor) -> dict:
    """The ``simulation`` entry of one adjacent pair: T's conditionals on every round."""
    if pp.hist.fld.symbolic:
        raise NoCertificate("T is symbolic; certificates cover numeric mechanisms")
    outputs = list(pp.outputs)
    order = list(range(len(outputs)))
    if set(outputs) == set(IRR_AS_RR):
        names = [IRR_AS_RR[o] for o in outputs]
        order = [names.index(o) for o in _RR_ORDER]
        outputs = list(_RR_ORDER)
    rounds = [
        {"history": _history(occ.prefix), "T": [list(pp.cond[c][occ.index]) for c in order]} for occ in pp.hist.occs
    ]
    return {"pair": list(pp.pair_names), "outputs": outputs, "rounds": rounds}


def farkas_entry(cert: ApproxCertificate) -> dict:
    """The ``farkas`` entry of one adjacent pair, in the checker's rows (see the module docstring)."""
    hist = cert.hist
    if hist is None or cert.point is not None:
        raise NoCertificate("the Farkas certificate was found at a sample point of the symbols")
    out = []
    for y, row in zip(cert.multipliers, cert.system.rows):
        if not y:
            continue
        label = row[3]
        if label[0] == "round":
            out.append({"row": ["consistency", label[1], _history(hist.occs[label[2]].prefix)], "y": y})
        elif label[0] in ("I0>=0", "I1>=0"):
            out.append(
                {"row": ["mixture", 0 if label[0] == "I0>=0" else 1, _history(hist.hists[label[1]].path)], "y": y}
            )
        else:
            raise NoCertificate(f"the LP row {label[0]} (Lemma 5.6's leak conditions) has no certificate form yet")
    return {"pair": list(cert.pair_names), "outputs": list(_RR_ORDER), "multipliers": out}
