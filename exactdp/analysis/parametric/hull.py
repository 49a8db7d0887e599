r"""Concave chains whose slopes and widths are rational functions of the symbols.

The parametric twin of :mod:`exactdp.analysis.hull`: inside a cell every comparison the chain
operations make is a sign the cell's :class:`~exactdp.analysis.parametric.cells.Ctx` proves
constant, so a :class:`PHull` is, at every point of the cell, the exact concave chain of the
numeric engine (top, then edges (r, w) by decreasing likelihood ratio r):

.. math::  \delta(\lambda) = top + \sum_{r_i > \lambda} (r_i - \lambda)\, w_i .

Equal slopes are merged and zero widths dropped by the oracle's verdict, not by the form of the
functions, so at an algebraic point where two ratios meet the chain is still the numeric one.

References
----------
Kairouz, Oh & Viswanath (2015) (the privacy region); Vadhan & Wang (2021), Lemma 2.2
(deterministic adversaries suffice, so a choice is the upper hull of the options' chains).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cmp_to_key
from typing import Any

from ...limits import check_hull_size
from .cells import Ctx
from .ratfun import RatFun, Ring

__all__ = ["PHull", "leaf", "combine", "upper", "swap", "line_at", "value_at", "least_lambda", "normalise", "INF"]


class _Inf:
    """+∞ (a λ that no δ reaches, so PrivLoss = ∞)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "INF"

    def __str__(self) -> str:
        return "inf"


INF = _Inf()


class PHull:
    """``top`` then edges ``(r, w)`` by decreasing r on the cell; Σw = 1, top + Σ r·w = 1."""

    __slots__ = ("top", "edges", "_h")

    def __init__(self, top: RatFun, edges: Sequence[tuple[RatFun, RatFun]]):
        self.top = top
        self.edges = tuple(edges)
        self._h: int | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PHull) and self.top == other.top and self.edges == other.edges

    def __hash__(self) -> int:
        if self._h is None:
            self._h = hash((self.top, self.edges))
        return self._h

    def __repr__(self) -> str:
        es = ", ".join(f"({r}, {w})" for r, w in self.edges)
        return f"PHull(top={self.top}, edges=[{es}])"

    def breakpoints(self, ctx: Ctx) -> list[RatFun]:
        """The slopes r > 1 on the cell (where δ bends for λ ≥ 1), decreasing."""
        one = ctx.ring.one
        return [r for r, _ in self.edges if ctx.cmp(r, one) > 0]


def leaf(ring: Ring) -> PHull:
    """The chain of the empty continuation: δ(λ) = (1 − λ)_+."""
    return PHull(ring.zero, ((ring.one, ring.one),))


def _merge(top: RatFun, acc: dict[RatFun, RatFun], ctx: Ctx) -> PHull:
    items = [(r, w) for r, w in acc.items() if ctx.sign(w) != 0]
    if len(items) > 4096:
        check_hull_size(len(items))
    items.sort(key=cmp_to_key(lambda a, b: ctx.cmp(b[0], a[0])))
    out: list[tuple[RatFun, RatFun]] = []
    for r, w in items:
        if out and ctx.cmp(out[-1][0], r) == 0:  # equal on this cell (an algebraic point)
            out[-1] = (out[-1][0], out[-1][1] + w)
        else:
            out.append((r, w))
    return PHull(top, out)


def combine(items: Iterable[tuple[RatFun, RatFun, PHull]], ctx: Ctx) -> PHull:
    """The chain of an answer distribution: items ``(p, p', child)`` as in
    :func:`exactdp.analysis.hull.combine` (an answer impossible under the second dataset adds
    p to ``top``; one impossible under the first adds a flat edge of width p')."""
    ring = ctx.ring
    top = ring.zero
    acc: dict[RatFun, RatFun] = {}
    zero = ring.zero
    for p, pp, child in items:
        if ctx.sign(p) == 0:
            if ctx.sign(pp) != 0:
                acc[zero] = acc.get(zero, zero) + pp
            continue
        if ctx.sign(pp) == 0:
            top = top + p
            continue
        if not child.top.is_zero():
            top = top + p * child.top
        k = p / pp
        for r, w in child.edges:
            r2 = r * k
            acc[r2] = acc.get(r2, zero) + w * pp
    return _merge(top, acc, ctx)


def upper(hulls: Sequence[PHull], ctx: Ctx) -> PHull:
    """The upper concave hull of several chains (an adversary's choice: the max of their
    profiles for every λ)."""
    distinct = list(dict.fromkeys(hulls))
    if len(distinct) == 1:
        return distinct[0]
    zero = ctx.ring.zero
    pts: list[tuple[RatFun, RatFun]] = []
    for h in distinct:
        b, a = zero, h.top
        pts.append((b, a))
        for r, w in h.edges:
            b = b + w
            a = a + r * w
            pts.append((b, a))
    if len(pts) > 4096:
        check_hull_size(len(pts))
    pts.sort(key=cmp_to_key(lambda u, v: ctx.cmp(u[0], v[0])))
    sb: list[RatFun] = []
    sa: list[RatFun] = []
    for b, a in pts:
        if sb and ctx.cmp(sb[-1], b) == 0:
            if ctx.cmp(a, sa[-1]) <= 0:
                continue
            sb.pop()
            sa.pop()
        while len(sb) >= 2:
            b0, a0 = sb[-2], sa[-2]
            # drop the last vertex if it is on or below the segment (b0, a0) -> (b, a)
            if ctx.sign((sb[-1] - b0) * (a - a0) - (sa[-1] - a0) * (b - b0)) >= 0:
                sb.pop()
                sa.pop()
            else:
                break
        sb.append(b)
        sa.append(a)
    edges = []
    for k in range(1, len(sb)):
        db = sb[k] - sb[k - 1]
        edges.append(((sa[k] - sa[k - 1]) / db, db))
    return PHull(sa[0], edges)


def swap(h: PHull, ctx: Ctx) -> PHull:
    """The chain of the reversed pair (edge (r, w) becomes (1/r, r·w), in reverse order)."""
    ring = ctx.ring
    edges = []
    new_top = ring.zero
    for r, w in reversed(h.edges):
        if ctx.sign(r) == 0:
            new_top = new_top + w
        else:
            edges.append((1 / r, r * w))
    if ctx.sign(h.top) != 0:
        edges.append((ring.zero, h.top))
    return PHull(new_top, edges)


def line_at(h: PHull, lam: Any, ctx: Ctx) -> tuple[RatFun, RatFun]:
    """(A, B) with δ(λ) = A − λ·B on the cell: A = P(T), B = P'(T) for the optimal event
    T = {v : P(v) > λ P'(v)}; λ is a rational function or a rational."""
    a, b = h.top, ctx.ring.zero
    for r, w in h.edges:
        if ctx.cmp(r, lam) <= 0:
            break
        a = a + r * w
        b = b + w
    return a, b


def value_at(h: PHull, lam: Any, ctx: Ctx) -> RatFun:
    """δ(λ) on the cell, a rational function."""
    a, b = line_at(h, lam, ctx)
    return a - b * lam


def least_lambda(h: PHull, delta: Any, ctx: Ctx) -> RatFun | _Inf:
    """The least λ ≥ 1 with δ(λ) ≤ ``delta`` on the cell, or :data:`INF`
    (PrivLoss = log of it; Vadhan–Wang 2021, §5)."""
    ring = ctx.ring
    if ctx.cmp(h.top, delta) > 0:
        return INF
    if ctx.cmp(value_at(h, ring.one, ctx), delta) <= 0:
        return ring.one
    a, b = h.top, ring.zero
    for r, w in h.edges:
        if ctx.cmp(r, ring.one) <= 0 or ctx.sign(a - r * b - delta) > 0:
            return (a - delta) / b
        a = a + r * w
        b = b + w
    return (a - delta) / b  # pragma: no cover - the chain always ends with a slope <= 1


def normalise(h: PHull, ctx: Ctx) -> PHull:
    """The same chain with slopes equal on the cell merged and zero widths dropped (for
    comparing chains found on different cells at a common point)."""
    acc: dict[RatFun, RatFun] = {}
    zero = ctx.ring.zero
    for r, w in h.edges:
        acc[r] = acc.get(r, zero) + w
    return _merge(h.top, acc, ctx)
