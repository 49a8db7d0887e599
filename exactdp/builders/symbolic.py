"""Randomized response with symbolic parameters (e^ε = E and δ as SymPy expressions)."""

from __future__ import annotations

from typing import Any, Sequence

from ..model.game import END
from ..model.symbolic import SymChance
from ..numbers.symbolic import to_sympy

__all__ = ["rr_sym_node", "rr_delta_sym_node"]


def rr_sym_node(E: Any, bits: Sequence[int]) -> SymChance:
    """RR_ε (Vadhan–Wang Def. 1.9) with symbolic e^ε = E: b w.p. E/(1+E), 1−b w.p. 1/(1+E)."""
    E = to_sympy(E)
    keep, flip = E / (1 + E), 1 / (1 + E)
    p0 = tuple(keep if b == 0 else flip for b in bits)
    p1 = tuple(flip if b == 0 else keep for b in bits)
    return SymChance(("0", "1"), (p0, p1), (END, END))


def rr_delta_sym_node(E: Any, delta: Any, bits: Sequence[int]) -> SymChance:
    """RR_(ε,δ) (Def. 5.1) with symbolic E and/or δ; answers I0, 0, 1, I1."""
    E, delta = to_sympy(E), to_sympy(delta)
    keep, flip = (1 - delta) * E / (1 + E), (1 - delta) / (1 + E)
    zero = to_sympy(0)
    rows = {
        "I0": tuple(delta if b == 0 else zero for b in bits),
        "0": tuple(keep if b == 0 else flip for b in bits),
        "1": tuple(flip if b == 0 else keep for b in bits),
        "I1": tuple(zero if b == 0 else delta for b in bits),
    }
    return SymChance(tuple(rows), tuple(rows.values()), (END,) * 4)
