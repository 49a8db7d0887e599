r"""Gaussian DP with one symbol, decided by certified enclosures on boxes of each cell.

M is μ-GDP when T(M(x), M(x′)) ≥ G_μ for every ordered adjacent pair, with
G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) (Dong, Roth & Su 2022, Def. 2.6).  For a finite mechanism T is
1 − U, U the concave chain of the pair's privacy region against every adaptive adversary
(:mod:`exactdp.analysis.tradeoff`); as G_μ is convex, T − G_μ is concave on each segment of T
and is least at a vertex, so T ≥ G_μ iff every vertex (α_k, β_k) has β_k ≥ G_μ(α_k) (the
concrete decision, :func:`exactdp.analysis.gdp.check_gdp`, is this test).  Checking every
ordered pair's chain is the same as checking the envelope: G_μ is convex, and a convex f is
below min_pairs T iff it is below the convex hull of that minimum.

On a cell of the parametric decomposition (:mod:`~exactdp.analysis.parametric.cells`) each
pair's chain has a fixed order of edges (r_i, w_i), rational functions of the symbol s, so its
vertices α_k = Σ_{i≤k} w_i, β_k = 1 − top − Σ_{i≤k} r_i·w_i (with α_0 = 0, β_0 = 1 − top) are
rational functions of s on the whole cell; so is μ.  On a rational box [a, b]:

* α_k, β_k and μ are enclosed in arb balls (Johansson 2017) with centred forms
  (:mod:`~exactdp.analysis.parametric.boxes`); G_μ(α) is decreasing in α and in μ, so
  G_μ(α) ≤ G_{μ_lo}(α_lo) for every s of the box, with α_lo, μ_lo the balls' rational lower
  ends (G ≤ 1 when α_lo ≤ 0, G = 0 when α = 1); ``gdp`` is proved on the box when
  β_lo ≥ that bound at every vertex (a vertex with α ≡ 1 has G_μ = 0 ≤ β);
* ``not_gdp`` is proved on the box when one vertex has β_hi < G_{μ_hi}(α_hi) (the least value
  of G_μ(α) on the box), with 0 < α_hi < 1, or α_hi ≤ 0 (so α = 0, G_μ(0) = 1) and β_hi < 1.

An open cell with algebraic ends is covered by boxes of the rational enclosure of the cell; a
box certified outside the cell is dropped, so the closed forms are only trusted on the cell.
A point cell needs no box: the chain depends continuously on s (every point of every
adversary's privacy region does), so the set of s where T ≥ G_μ is closed and a point cell
between, or at the end of, open cells where the claim was proved is covered by them (for
``not_gdp``, which is open, a point cell is decided by the exact concrete engine at a rational
point, and at an irrational one by a neighbouring cell's closed forms: :func:`not_gdp_at_limit`).

A box's midpoint inside the cell where the exact vertices (rational at a rational s) are
certified on the wrong side of G_μ is a candidate counterexample: the caller re-decides the
claim there with the exact concrete engine.  The number of boxes is the ``max_symbol_boxes``
limit; boxes narrower than 2^-60 (the claim touches G_μ) and tails beyond abs(s) = 2^64 are
undecided.  Nothing is decided from a float or a sample.

References
----------
Dong, Roth & Su, *Gaussian Differential Privacy*, JRSS-B 84 (2022), Def. 2.1, 2.6, Prop. 2.4.
Johansson, *Arb*, IEEE Trans. Computers 66(8), 2017.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ... import limits
from ...lazy import flint
from ...numbers import ladder
from ...numbers.certified import arb_prec, ball_bounds
from .algebraic import compare, rational
from .boxes import TAIL_CAP, Box, BoxResult, UniRat, _Eval, initial_boxes
from .cells import Ctx, Side
from .hull import PHull, sorted_edges
from .ratfun import RatFun

__all__ = [
    "GCell",
    "chain_vertices",
    "decide_gdp_cells",
    "not_gdp_at_limit",
    "gaussian_upper",
    "gaussian_lower",
    "point_below",
]

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
_PREC = 128
_MAX_POINT_PREC = 1 << 12
MU_CAP = Fraction(64)
"""G_μ is decreasing in μ: above this μ an upper bound of G_μ is read at μ = 64 (G_64 < 10^-800
for α ≥ 2^-64), as arb's erfc of a huge argument is costly, and the lower bound is 0."""


def chain_vertices(h: PHull, ctx: Ctx) -> list[tuple[RatFun, RatFun]]:
    """The vertices (α_k, β_k) of T = 1 − U for the chain ``h`` on the cell (module docstring)."""
    ring = ctx.ring
    a, b = ring.zero, ring.one - h.top
    out = [(a, b)]
    for r, w in sorted_edges(h, ctx):
        a = a + w
        b = b - r * w
        out.append((a, b))
    return out


@dataclass(frozen=True)
class GCell:
    """An open cell of the symbol (``side``) with the vertices of every pair's T on it and μ,
    each a :class:`UniRat` of the symbol."""

    side: Side
    vertices: tuple[tuple[UniRat, UniRat], ...]
    mu: UniRat


def _q(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def _g(alpha: Fraction, mu: Fraction) -> flint.arb:
    """An arb ball containing G_μ(α) = ½·erfc(μ/√2 − erfcinv(2α)), 0 < α < 1 (working precision)."""
    z = flint.arb(_q(mu)) / flint.arb(2).sqrt() - (flint.arb(_q(alpha)) * 2).erfcinv()
    return z.erfc() / 2


def gaussian_upper(alpha: Fraction, mu: Fraction) -> Fraction:
    """A rational upper bound of G_μ(α) (1 for α ≤ 0, 0 for α ≥ 1); with the working precision."""
    if alpha <= 0:
        return Fraction(1)
    if alpha >= 1:
        return Fraction(0)
    return ball_bounds(_g(alpha, min(mu, MU_CAP)))[1]


def gaussian_lower(alpha: Fraction, mu: Fraction) -> Fraction:
    """A rational lower bound of G_μ(α) (1 for α ≤ 0, 0 for α ≥ 1); with the working precision."""
    if alpha <= 0:
        return Fraction(1)
    if alpha >= 1 or mu > MU_CAP:
        return Fraction(0)
    return max(Fraction(0), ball_bounds(_g(alpha, mu))[0])


def point_below(alpha: Fraction, beta: Fraction, mu: Fraction) -> int | None:
    """sign(β − G_μ(α)) at exact rationals, certified, or None (they touch within the precision limit)."""
    if alpha <= 0:
        return (beta > 1) - (beta < 1)
    if alpha >= 1:
        return (beta > 0) - (beta < 0)
    prec = 64
    while prec <= _MAX_POINT_PREC:
        with arb_prec(prec):
            lo, hi = gaussian_lower(alpha, mu), gaussian_upper(alpha, mu)
        if beta > hi:
            return 1
        if beta < lo:
            return -1
        prec *= 2
    return None


def _exact(u: UniRat, s: Fraction) -> Fraction | None:
    q = _q(s)
    d = u.den(q)
    if d == 0:
        return None
    v = u.num(q) / d
    return Fraction(int(v.p), int(v.q))


def _outside(side: Side, box: Box) -> bool:
    """Whether the box is certified to miss the open cell (it meets it at most at an end)."""
    if side.kind != "open":
        return False
    if box.hi is not None and side.lo is not None and compare(rational(_q(box.hi)), side.lo) <= 0:
        return True
    return box.lo is not None and side.hi is not None and compare(rational(_q(box.lo)), side.hi) >= 0


def _inside(side: Side, s: Fraction) -> bool:
    """Whether the rational s lies in the cell (a whole-domain cell with its closed ends)."""
    if side.kind == "domain":
        d = side.domain
        q = _q(s)
        above = d.lo is None or q > d.lo or (d.lo_closed and q == d.lo)
        return above and (d.hi is None or q < d.hi or (d.hi_closed and q == d.hi))
    return side.inside(rational(_q(s)))


def _range(ev: _Eval, u: UniRat) -> tuple[Fraction, Fraction] | None:
    v = ev.val(u)
    if not (v.bounded and v.r.is_finite()):
        return None
    return ball_bounds(v.r)


def _proved(cell: GCell, box: Box, negated: bool) -> bool:
    """Whether the box proves the claim on its part of the cell (module docstring)."""
    if box.tail:
        return False
    assert box.lo is not None and box.hi is not None
    width = box.hi - box.lo
    prec = _PREC + 2 * max(0, width.denominator.bit_length() - width.numerator.bit_length())
    with arb_prec(min(prec, limits.current().max_precision)):
        ev = _Eval(box, box.point())
        mu = _range(ev, cell.mu)
        if mu is None:
            return False
        for ua, ub in cell.vertices:
            a, b = _range(ev, ua), _range(ev, ub)
            if a is None or b is None:
                if negated:
                    continue
                return False
            if negated:
                if a[1] <= 0 < 1 - b[1] or (0 < a[1] < 1 and b[1] < gaussian_lower(a[1], mu[1])):
                    return True  # (α = 0 with β < 1 = G_μ(0), or below the least G_μ on the box)
            elif not _vertex_proved(ua, a, b, mu):
                return False
        return not negated


def _vertex_proved(ua: UniRat, a: tuple[Fraction, Fraction], b: tuple[Fraction, Fraction], mu: tuple) -> bool:
    if ua.num == ua.den:  # α ≡ 1: G_μ(1) = 0 ≤ β
        return True
    return b[0] >= gaussian_upper(a[0], mu[0])


def _wrong_at(cell: GCell, s: Fraction, negated: bool) -> bool:
    """Whether the exact vertices at the rational s (inside the cell) are certified on the wrong side."""
    mu = _exact(cell.mu, s)
    if mu is None:
        return False
    signs = []
    for ua, ub in cell.vertices:
        a, b = _exact(ua, s), _exact(ub, s)
        if a is None or b is None:
            return False
        signs.append(point_below(a, b, mu))
    if negated:
        return all(x is not None and x >= 0 for x in signs)
    return any(x is not None and x < 0 for x in signs)


def not_gdp_at_limit(cell: GCell, lo: Fraction, hi: Fraction) -> bool:
    """Whether ``not_gdp`` is proved at the point cell s0 in [lo, hi] next to the open ``cell``.

    The chain at s0 is the limit of the chains on the neighbouring open cell (it depends
    continuously on s), so it is the polygon through the limits of that cell's vertices, which
    are its closed forms at s0 (bounded, hence continuous there); a box [lo, hi] around s0
    encloses them, and one vertex certified below G_μ on the box is below it at s0."""
    return _proved(cell, Box(lo, hi), True)


def decide_gdp_cells(
    cells: Sequence[GCell],
    negated: bool,
    refute: Callable[[Fraction], Any],
    name: str,
) -> BoxResult:
    """Decide ``gdp`` (or, ``negated``, ``not_gdp``) on every open cell by branch and bound.

    ``refute(s)`` re-decides the claim at a rational s inside a cell with the exact concrete
    engine; it returns its verdict when it fails there, else None (the enclosure was on the
    wrong side but the exact engine could not separate the vertex from G_μ)."""
    cap = limits.current().max_symbol_boxes
    boxes = 0
    for cell in cells:
        lo, hi = (None if x is None else Fraction(int(x.p), int(x.q)) for x in cell.side.rational_bounds())
        queue = deque(initial_boxes(lo, hi) if lo != hi else [Box(lo, hi)])
        while queue:
            box = queue.popleft()
            if _outside(cell.side, box):
                continue
            boxes += 1
            if boxes > cap:
                return BoxResult(
                    UNDECIDED,
                    boxes - 1,
                    reason=f"not decided within --max-symbol-boxes {cap} boxes of {name} (the trade-off function "
                    f"may touch G_mu near {cell.side.text()}); raise it with --max-symbol-boxes N",
                )
            if _proved(cell, box, negated):
                continue
            s = box.point()
            if _inside(cell.side, s) and _wrong_at(cell, s, negated):
                there = refute(s)
                if there is not None:
                    return BoxResult(FAILS, boxes, s, there)
            if box.tail:
                if abs(s) > TAIL_CAP:
                    return BoxResult(
                        UNDECIDED,
                        boxes,
                        reason=f"Gaussian DP is not proved on an unbounded range of {name} by enclosures (the "
                        f"trade-off function and G_mu are compared on boxes up to |{name}| = 2^64)",
                    )
            elif box.hi - box.lo < Fraction(1, 1 << 60):  # type: ignore[operator]
                return BoxResult(
                    UNDECIDED,
                    boxes,
                    reason=f"not separated near {name} = {ladder.decimal(s, 12)}: enclosures on boxes narrower "
                    "than 2^-60 do not decide it (the trade-off function touches G_mu there, or the claim's margin "
                    "vanishes at an open end of the range)",
                )
            queue.extend(box.split())
    return BoxResult(HOLDS, boxes)
