r"""Concave chains whose slopes and widths are rational functions of the symbols.

The parametric twin of :mod:`exactdp.analysis.hull`: inside a cell every comparison the chain
operations make is a sign the cell's :class:`~exactdp.analysis.parametric.cells.Ctx` proves
constant, so a :class:`PHull` is, at every point of the cell, the exact concave chain of the
numeric engine (top, then edges (r, w) by decreasing likelihood ratio r):

.. math::  \delta(\lambda) = top + \sum_{r_i > \lambda} (r_i - \lambda)\, w_i .

A chain keeps its edges *unordered* until an operation needs their order: δ(λ) and the event
T = {v : P(v) > λP'(v)} need only each slope compared with λ, the reversed pair only the edges
themselves.  Only an adversary's choice (the upper hull of its options' chains) and the least λ
with δ(λ) ≤ δ sort slopes.  Every comparison may cut the cell, so comparing only what the answer
depends on keeps the decomposition small.  When edges are sorted, slopes equal on the cell are
merged and zero widths dropped by the oracle's verdict, not by the form of the functions, so at
an algebraic point where two ratios meet the chain is still the numeric one.

References
----------
Kairouz, Oh & Viswanath (2015) (the privacy region); Vadhan & Wang (2021), Lemma 2.2
(deterministic adversaries suffice, so a choice is the upper hull of the options' chains).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cmp_to_key
from typing import Any

from ...limits import check_hull_size
from .cells import Ctx, Split
from .ratfun import RatFun, Ring

__all__ = [
    "PHull",
    "leaf",
    "combine",
    "upper",
    "swap",
    "line_at",
    "value_at",
    "value_by_search",
    "least_lambda",
    "normalise",
    "sorted_edges",
    "order_desc",
    "vertices",
    "INF",
]


class _Inf:
    """+∞ (a λ that no δ reaches, so PrivLoss = ∞)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "INF"

    def __str__(self) -> str:
        return "inf"


INF = _Inf()


class PHull:
    """``top`` and edges ``(r, w)`` (in no particular order; :func:`sorted_edges` orders them on a
    cell); Σw = 1, top + Σ r·w = 1."""

    __slots__ = ("top", "edges", "_h", "sorted")

    def __init__(self, top: RatFun, edges: Sequence[tuple[RatFun, RatFun]], *, is_sorted: bool = False):
        self.top = top
        self.edges = tuple(edges)
        self._h: int | None = None
        # the edges by decreasing slope, once proved on a cell (valid on every piece of it)
        self.sorted: tuple[tuple[RatFun, RatFun], ...] | None = self.edges if is_sorted else None

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
        """The slopes r > 1 on the cell (where δ bends for λ ≥ 1), in no particular order."""
        one = ctx.ring.one
        return [r for r, _ in self.edges if ctx.cmp(r, one) > 0]


def leaf(ring: Ring) -> PHull:
    """The chain of the empty continuation: δ(λ) = (1 − λ)_+."""
    return PHull(ring.zero, ((ring.one, ring.one),), is_sorted=True)


def _values(xs: Sequence[RatFun], ctx: Ctx) -> list | None:
    """The values of ``xs`` at the cell's guide point (see :meth:`Ctx.guide`), or None."""
    pt = ctx.guide()
    if pt is None:
        return None
    try:
        return [x.at(pt) for x in xs]
    except ZeroDivisionError:
        return None


def order_desc(items: list, key: Any, ctx: Ctx) -> list:
    """``items`` by decreasing ``key`` on the cell (ties adjacent), *proved*: the order at the
    cell's guide point is taken as a guess and each adjacent pair is then compared on the cell
    (n − 1 signs, the only ones the order depends on); a pair found out of order (possible only
    at an algebraic point) falls back to a comparison sort."""
    if len(items) < 2:
        return list(items)
    vals = _values([key(x) for x in items], ctx)
    if vals is not None:
        guess = [x for _, x in sorted(zip(vals, range(len(items))), key=lambda t: t[0], reverse=True)]
        cand = [items[i] for i in guess]
        if all(ctx.cmp(key(a), key(b)) >= 0 for a, b in zip(cand, cand[1:])):
            return cand
    return sorted(items, key=cmp_to_key(lambda a, b: ctx.cmp(key(b), key(a))))


def _sort(edges: Iterable[tuple[RatFun, RatFun]], ctx: Ctx) -> tuple[tuple[RatFun, RatFun], ...]:
    """Edges by decreasing slope on the cell, equal slopes merged, zero widths dropped."""
    items = order_desc([(r, w) for r, w in edges if ctx.sign(w) != 0], lambda e: e[0], ctx)
    out: list[tuple[RatFun, RatFun]] = []
    for r, w in items:
        if out and ctx.cmp(out[-1][0], r) == 0:  # equal on this cell (an algebraic point)
            out[-1] = (out[-1][0], out[-1][1] + w)
        else:
            out.append((r, w))
    return tuple(out)


def sorted_edges(h: PHull, ctx: Ctx) -> tuple[tuple[RatFun, RatFun], ...]:
    """``h``'s edges by decreasing slope on the cell.

    A chain built sorted (an upper hull) carries its order, proved on the cell where it was
    built, an ancestor of every cell that sees it.  An order found later is kept with the
    cell's proofs (``ctx.memo``), never on the chain: the chain is shared with the cell's
    sibling pieces, where another order may hold."""
    if h.sorted is not None:
        return h.sorted
    key = ("sorted", id(h))
    hit = ctx.memo.get(key)
    if hit is not None and hit[0] is h:
        return hit[1]
    out = _sort(h.edges, ctx)
    ctx.memo[key] = (h, out)  # the chain is kept alive with its entry, so its id is not reused
    return out


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
    if len(acc) > 4096:
        check_hull_size(len(acc))
    return PHull(top, [(r, w) for r, w in acc.items() if not w.is_zero()])


def vertices(h: PHull, ctx: Ctx) -> list[tuple[RatFun, RatFun]]:
    """The chain's vertices (P'(T), P(T)) from (0, top) to (1, 1), in order on the cell."""
    zero = ctx.ring.zero
    b, a = zero, h.top
    out = [(b, a)]
    for r, w in sorted_edges(h, ctx):
        b = b + w
        a = a + r * w
        out.append((b, a))
    return out


def _edges_of(hull: list[tuple[RatFun, RatFun]]) -> PHull:
    edges = []
    for k in range(1, len(hull)):
        db = hull[k][0] - hull[k - 1][0]
        edges.append(((hull[k][1] - hull[k - 1][1]) / db, db))
    return PHull(hull[0][1], edges, is_sorted=True)


def _guide_hull(vals: list) -> list[int]:
    """The indices of the upper hull's vertices of the points with coordinates ``vals``
    (exact rationals: the points at the cell's guide point), left to right, by the monotone
    chain; collinear points dropped, the highest of equal abscissae kept."""
    order = sorted(range(len(vals)), key=lambda i: (vals[i][0], vals[i][1]))
    hull: list[int] = []
    for i in order:
        b, a = vals[i]
        if hull and vals[hull[-1]][0] == b:
            hull.pop()  # sorted by height too: this one is the highest so far at b
        while len(hull) >= 2:
            (b0, a0), (b1, a1) = vals[hull[-2]], vals[hull[-1]]
            if (b1 - b0) * (a - a0) - (a1 - a0) * (b - b0) >= 0:
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def _wrapped(pts: list[tuple[RatFun, RatFun]], ctx: Ctx) -> PHull | None:
    """The upper hull of ``pts`` guessed at the cell's guide point and proved on the cell, or
    None when the guess does not survive (the caller then sorts every point).

    The proof: the guessed vertices H_0, …, H_m run from b = 0 to b = 1 with abscissae
    increasing and slopes strictly decreasing on the cell (a concave chain, no collinear
    vertex), and every other point u lies below the chain: below the line of the edge
    H_j→H_{j+1} whose abscissae enclose u's (the chain is that line there), or, when where u
    lies is not one fact on the whole cell, between b = 0 and 1 and below the line of every
    edge (there a concave chain is the minimum of its edges' lines).  The chain's vertices are
    points, so it is their upper hull, the one the monotone chain finds.  No sign compares two
    points below the hull, so a cell is cut where the hull changes, not where two of its inner
    points swap places."""
    one = ctx.ring.one
    vals = _values([x for u in pts for x in u], ctx)
    if vals is None:
        return None
    at = [(vals[2 * i], vals[2 * i + 1]) for i in range(len(pts))]
    idx = _guide_hull(at)
    hull = [pts[i] for i in idx]
    if len(hull) < 2 or not hull[0][0].is_zero() or hull[-1][0] != one:
        return None
    sides = [(w[0] - v[0], w[1] - v[1]) for v, w in zip(hull, hull[1:])]
    for k in range(len(sides)):
        if ctx.sign(sides[k][0]) <= 0:
            return None
        if k and ctx.sign(_turn(sides[k - 1], sides[k])) >= 0:  # no strict right turn at H_k
            return None
    on_hull = {id(u) for u in hull}
    cuts = [at[i][0] for i in idx]
    for i, u in enumerate(pts):
        if id(u) in on_hull:
            continue
        j = max(0, min(len(sides) - 1, bisect_right(cuts, at[i][0]) - 1))
        if _within(u[0], hull[j][0], hull[j + 1][0], ctx):
            lines = range(j, j + 1)
        elif _within(u[0], hull[0][0], hull[-1][0], ctx):
            lines = range(len(sides))
        else:
            return None
        for k in lines:
            c = ctx.sign(_turn(sides[k], (u[0] - hull[k][0], u[1] - hull[k][1])))
            if c > 0 or (c == 0 and ctx.cmp(u[0], hull[k + 1][0]) > 0):
                return None
    return _edges_of(hull)


def _turn(d: tuple[RatFun, RatFun], e: tuple[RatFun, RatFun]) -> RatFun:
    """d × e for displacements (Δb, Δa): positive when e turns left of d (lies above its line)."""
    return d[0] * e[1] - d[1] * e[0]


def _within(b: RatFun, lo: RatFun, hi: RatFun, ctx: Ctx) -> bool:
    """Whether lo ≤ b ≤ hi on the whole cell; False when that is not one fact there (a sign
    that changes inside the cell is not asked to cut it: the caller then proves more)."""
    try:
        return ctx.cmp(b, lo) >= 0 and ctx.cmp(b, hi) <= 0
    except Split:
        return False


def upper(hulls: Sequence[PHull], ctx: Ctx) -> PHull:
    """The upper concave hull of several chains (an adversary's choice: the max of their
    profiles for every λ).  The hull at the cell's guide point, proved on the cell
    (:func:`_wrapped`); the monotone chain over all vertices sorted by abscissa otherwise."""
    distinct = list(dict.fromkeys(hulls))
    if len(distinct) == 1:
        return distinct[0]
    pts: list[tuple[RatFun, RatFun]] = []
    for h in distinct:
        pts.extend(vertices(h, ctx))
    if len(pts) > 4096:
        check_hull_size(len(pts))
    wrapped = _wrapped(pts, ctx)
    if wrapped is not None:
        return wrapped
    pts = list(reversed(order_desc(pts, lambda u: u[0], ctx)))
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
    return _edges_of(list(zip(sb, sa)))


def swap(h: PHull, ctx: Ctx) -> PHull:
    """The chain of the reversed pair: edge (r, w) becomes (1/r, r·w); the edges of slope 0
    become ``top`` and ``top`` an edge of slope 0 (the region reflected)."""
    ring = ctx.ring
    edges = []
    new_top = ring.zero
    for r, w in h.edges:
        if ctx.sign(r) == 0:
            new_top = new_top + w
        else:
            edges.append((1 / r, r * w))
    if ctx.sign(h.top) != 0:
        edges.append((ring.zero, h.top))
    out = PHull(new_top, edges)
    if h.sorted is not None:  # the reversed order of a chain built sorted is sorted (on this cell too)
        out.sorted = tuple((1 / r, r * w) for r, w in reversed(h.sorted) if ctx.sign(r) != 0) + (
            ((ring.zero, h.top),) if ctx.sign(h.top) != 0 else ()
        )
    return out


def line_at(h: PHull, lam: Any, ctx: Ctx) -> tuple[RatFun, RatFun]:
    """(A, B) with δ(λ) = A − λ·B on the cell: A = P(T), B = P'(T) for the optimal event
    T = {v : P(v) > λ P'(v)}; λ is a rational function or a rational.  Each slope is compared
    with λ, not with the others."""
    a, b = h.top, ctx.ring.zero
    for r, w in h.edges:
        if ctx.cmp(r, lam) > 0:
            a = a + r * w
            b = b + w
    return a, b


def value_at(h: PHull, lam: Any, ctx: Ctx) -> RatFun:
    """δ(λ) on the cell, a rational function."""
    a, b = line_at(h, lam, ctx)
    return a - b * lam


def _prefix_lines(h: PHull, ctx: Ctx) -> tuple[tuple[tuple[RatFun, RatFun], ...], list[tuple[RatFun, RatFun]]]:
    """``h``'s edges by decreasing slope and, for each k, (A_k, B_k) = (top + Σ_{i<k} r_i·w_i,
    Σ_{i<k} w_i): δ(λ) = A_k − λ·B_k when exactly the first k slopes exceed λ.  Kept with the
    cell's proofs (like :func:`sorted_edges`), so each chain's sums are formed once per cell."""
    key = ("prefix", id(h))
    hit = ctx.memo.get(key)
    if hit is not None and hit[0] is h:
        return hit[1], hit[2]
    edges = sorted_edges(h, ctx)
    a, b = h.top, ctx.ring.zero
    lines = [(a, b)]
    for r, w in edges:
        a, b = a + r * w, b + w
        lines.append((a, b))
    ctx.memo[key] = (h, edges, lines)  # the chain is kept alive with its entry (its id is not reused)
    return edges, lines


def value_by_search(h: PHull, lam: Any, ctx: Ctx) -> RatFun:
    """δ(λ) on the cell, as :func:`value_at`, by a binary search for the number k of slopes
    above λ among the edges sorted on the cell: O(log n) comparisons with λ instead of n.

    The edges are sorted by decreasing slope (proved on the cell or an ancestor of it, see
    :func:`sorted_edges`), so "r_i > λ" holds for a prefix of them; δ(λ) = A_k − λ·B_k (see
    :func:`_prefix_lines`).  Slopes equal to λ add (r − λ)·w = 0 either way."""
    edges, lines = _prefix_lines(h, ctx)
    lo, hi = 0, len(edges)
    while lo < hi:
        mid = (lo + hi) // 2
        if ctx.cmp(edges[mid][0], lam) > 0:
            lo = mid + 1
        else:
            hi = mid
    a, b = lines[lo]
    return a - b * lam


def least_lambda(h: PHull, delta: Any, ctx: Ctx) -> RatFun | _Inf:
    """The least λ ≥ 1 with δ(λ) ≤ ``delta`` on the cell, or :data:`INF`
    (PrivLoss = log of it; Vadhan–Wang 2021, §5)."""
    ring = ctx.ring
    if ctx.cmp(h.top, delta) > 0:
        return INF
    if ctx.cmp(value_at(h, ring.one, ctx), delta) <= 0:
        return ring.one
    # only the slopes above 1 are sorted: δ on λ >= 1 depends on them alone
    steep = _sort([(r, w) for r, w in h.edges if ctx.cmp(r, ring.one) > 0], ctx)
    a, b = h.top, ring.zero
    for r, w in steep:
        if ctx.sign(a - r * b - delta) > 0:
            return (a - delta) / b
        a = a + r * w
        b = b + w
    return (a - delta) / b


def normalise(h: PHull, ctx: Ctx) -> PHull:
    """The same chain sorted on the cell, slopes equal there merged and zero widths dropped
    (for comparing chains found on different cells at a common point)."""
    return PHull(h.top, _sort(h.edges, ctx), is_sorted=True)
