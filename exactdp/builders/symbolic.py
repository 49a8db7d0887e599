"""Mechanisms with symbolic parameters (e^ε = E, δ, α as SymPy expressions): randomized
response, k-ary randomized response, the truncated geometric mechanism, and the two-sided
geometric noise on [−w, w] that report-noisy-max adds.  The ranges the formulas need
(E ≥ 1, 0 < α < 1) are proved on the declared domain by the forms that call these builders."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import ArgumentError
from ..model.game import END
from ..model.symbolic import SymChance
from ..numbers.symbolic import expr_str, sympy, to_sympy
from .classic import TRUNCATIONS, Noise
from .rr import rr_delta_rows, rr_rows

__all__ = ["rr_sym_node", "rr_delta_sym_node", "krr_sym_node", "truncated_geometric_sym_node", "geometric_sym_noise"]


def rr_sym_node(E: Any, bits: Sequence[int]) -> SymChance:
    """RR_ε (Vadhan–Wang Def. 1.9) with symbolic e^ε = E: b w.p. E/(1+E), 1−b w.p. 1/(1+E)."""
    return SymChance(("0", "1"), rr_rows(to_sympy(E), bits), (END, END))


def rr_delta_sym_node(E: Any, delta: Any, bits: Sequence[int]) -> SymChance:
    """RR_(ε,δ) (Def. 5.1) with symbolic E and/or δ; answers I0, 0, 1, I1."""
    rows = rr_delta_rows(to_sympy(E), to_sympy(delta), to_sympy(0), bits)
    return SymChance(tuple(rows), tuple(rows.values()), (END,) * 4)


def krr_sym_node(E: Any, values: Sequence[str], data: Sequence[str]) -> SymChance:
    """k-ary randomized response with symbolic e^ε = E: the true value w.p. E/(E + k − 1),
    each other value w.p. 1/(E + k − 1) (Kairouz, Oh & Viswanath 2016)."""
    E = to_sympy(E)
    k = len(values)
    keep, other = E / (E + k - 1), 1 / (E + k - 1)
    rows = [tuple(keep if v == out else other for v in data) for out in values]
    return SymChance(tuple(values), rows, (END,) * k)


def truncated_geometric_sym_node(alpha: Any, n: int, counts: Sequence[int], *, truncation: str = "clamp") -> SymChance:
    """The truncated α-geometric mechanism on 0..n with symbolic α (Ghosh, Roughgarden &
    Sundararajan 2009): the formulas of :func:`~exactdp.builders.classic.truncated_geometric_rows`
    as rational functions of the symbols."""
    a = to_sympy(alpha)
    cols = []
    for c in counts:
        if truncation == "clamp":
            col = [
                a ** abs(j - c) / (1 + a) if j in (0, n) else (1 - a) / (1 + a) * a ** abs(j - c) for j in range(n + 1)
            ]
        else:
            w = [a ** abs(j - c) for j in range(n + 1)]
            total = sum(w)
            col = [x / total for x in w]
        cols.append(col)
    rows = [tuple(col[j] for col in cols) for j in range(n + 1)]
    return SymChance(tuple(str(j) for j in range(n + 1)), rows, (END,) * (n + 1))


def geometric_sym_noise(alpha: Any, width: int, *, truncation: str = "clamp") -> Noise:
    """The two-sided geometric noise Pr[Z = z] ∝ α^|z| on [−width, width] with symbolic α (the
    formulas of :func:`~exactdp.builders.classic.geometric_noise`, each reduced to lowest terms):
    clamped (the mass beyond ±width at ±width) or renormalized."""
    a = to_sympy(alpha)
    if truncation not in TRUNCATIONS:  # pragma: no cover - the form reads one of TRUNCATIONS
        raise ArgumentError(f"unknown truncation {truncation!r}")
    zs = range(-width, width + 1)
    if truncation == "clamp":
        raw = {z: (1 - a) / (1 + a) * a ** abs(z) if abs(z) < width else a**width / (1 + a) for z in zs}
        if width == 0:
            raw = {0: sympy.Integer(1)}
    else:
        total = sympy.Add(*(a ** abs(z) for z in zs))
        raw = {z: a ** abs(z) / total for z in zs}
    pmf = tuple((z, sympy.cancel(p)) for z, p in sorted(raw.items()))
    return Noise(pmf=pmf, name=f"geometric(alpha={expr_str(a)}, |z|<={width}, {truncation})")
