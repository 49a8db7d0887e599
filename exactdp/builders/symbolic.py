"""Randomized response with symbolic parameters (e^ε = E and δ as SymPy expressions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model.game import END
from ..model.symbolic import SymChance
from ..numbers.symbolic import to_sympy
from .rr import rr_delta_rows, rr_rows

__all__ = ["rr_sym_node", "rr_delta_sym_node"]


def rr_sym_node(E: Any, bits: Sequence[int]) -> SymChance:
    """RR_ε (Vadhan–Wang Def. 1.9) with symbolic e^ε = E: b w.p. E/(1+E), 1−b w.p. 1/(1+E)."""
    return SymChance(("0", "1"), rr_rows(to_sympy(E), bits), (END, END))


def rr_delta_sym_node(E: Any, delta: Any, bits: Sequence[int]) -> SymChance:
    """RR_(ε,δ) (Def. 5.1) with symbolic E and/or δ; answers I0, 0, 1, I1."""
    rows = rr_delta_rows(to_sympy(E), to_sympy(delta), to_sympy(0), bits)
    return SymChance(tuple(rows), tuple(rows.values()), (END,) * 4)
