r"""Rational points that separate the points where several rational functions meet e^m on a cell.

A ``dp`` target at a decimal ε (or at ε = q + log of the symbol) compares δ(λ) with the bound
prefix by prefix: δ(e^m·L) ≤ d iff G_k ≤ e^m for every prefix k of every pair's chain
(:mod:`exactdp.claims.parametric`).  When several G_k cross e^m inside one cell — RR_E ⊗ RR_E at
ε = 1, δ = 0: G₁ = E² crosses e at E = e^{1/2}, G₂ = (E² + 2E)/(1 + 2E) at E ≈ 4.10 — the set
where the claim holds has several transcendental ends in that cell.  To give each its own cell,
the cell is cut at rational points between them (a :class:`~exactdp.analysis.parametric.cells.Split`
at rational roots): each piece then has one crossing, which calibration bisects into a certified
enclosure (:class:`~exactdp.analysis.parametric.transcendental.Crossing`).

Two different G_i, G_j never meet e^m at the same point: there G_i − G_j = 0 makes the point
algebraic, and then G_i(s) = e^m would be algebraic, which it is not for rational m ≠ 0
(Lindemann 1882).  So bisecting the brackets (rational points with certified opposite signs of
G_k − e^m, G_k monotone between) separates them after finitely many steps; the ``max_precision``
limit bounds the steps.

References
----------
Lindemann, *Über die Zahl π*, Math. Ann. 20 (1882).
"""

from __future__ import annotations

from typing import Any

from ... import limits
from .algebraic import Algebraic, rational
from .cells import Ctx
from .polys import simplest_between
from .ratfun import RatFun
from .transcendental import crossing_of, exp_sign_at

__all__ = ["separating_points"]


class _Bracket:
    """[lo, hi] holding the one point of the cell where G = e^m; ``s_lo`` is the sign of
    G − e^m at lo (certified; the opposite at hi)."""

    def __init__(self, ctx: Ctx, G: RatFun, m: Any):
        cr = crossing_of(ctx, G, m, -1, True)
        self.G, self.m, self.name = G, m, cr.name
        self.lo, self.hi = sorted((cr.below, cr.above))
        self.s_lo = -1 if self.lo == cr.below else 1

    def halve(self) -> None:
        mid = (self.lo + self.hi) / 2
        if exp_sign_at(self.G, self.m, {self.name: mid}) == self.s_lo:
            self.lo = mid
        else:
            self.hi = mid


def _distinct(Gs: list[RatFun]) -> list[RatFun]:
    out: list[RatFun] = []
    for G in Gs:
        if not any((G - H).is_zero() for H in out):
            out.append(G)
    return out


def separating_points(ctx: Ctx, Gs: list[RatFun], m: Any) -> list[Algebraic]:
    """Rational points of the cell, increasing, with exactly one point where some G = e^m between
    consecutive ones (and before the first, after the last), for functions G of one symbol that
    are monotone on the cell and each meet e^m inside it (:func:`~.transcendental.exp_sign` gave
    0 for each).

    Raises
    ------
    LimitExceededError
        When the brackets are not separated within ``max_precision`` halvings each.
    """
    brackets = sorted((_Bracket(ctx, G, m) for G in _distinct(Gs)), key=lambda b: b.lo)
    cap = limits.current().max_precision
    for _ in range(cap * len(brackets)):
        brackets.sort(key=lambda b: b.lo)
        clash = next((i for i in range(1, len(brackets)) if not brackets[i - 1].hi < brackets[i].lo), None)
        if clash is None:
            return [rational(simplest_between(a.hi, b.lo)) for a, b in zip(brackets, brackets[1:])]
        a, b = brackets[clash - 1], brackets[clash]
        (a if a.hi - a.lo >= b.hi - b.lo else b).halve()
    raise limits.precision_limit_error(f"separating the points where {', '.join(map(str, Gs))} meet exp({m})")
