r"""Exact privacy profiles as concave chains (the upper boundary of the privacy region).

For an ordered pair of view distributions (P, P') the privacy profile is the hockey-stick
divergence as a function of λ = e^ε,

.. math::  \delta(\lambda) = \sup_S \; P(S) - \lambda P'(S) = \sum_v (P(v) - \lambda P'(v))_+ ,

a convex, non-increasing, piecewise-linear function.  It is the support function of the
*privacy region* {(P'(S), P(S))} of Kairouz–Oh–Viswanath, whose upper boundary is a concave
chain from (0, 0) to (1, 1).  A :class:`Hull` stores that chain by its edges: a vertical
first edge of height ``top`` (the P-mass where P' = 0) and edges ``(r, w)`` of slope r (a
likelihood ratio P/P') and width w (P'-mass), sorted by decreasing r.  Then

.. math::  \delta(\lambda) = top + \sum_{r_i > \lambda} (r_i - \lambda)\, w_i .

Three operations give the exact sup over adaptive adversaries by backward induction
(Vadhan–Wang Lemma 2.2: deterministic adversaries suffice):

* an answer with probabilities (p, p') scales a continuation's chain by (p', p), and the
  answers of one distribution add (Minkowski sum of chains = merge of edges by slope);
* an adversary choice takes the upper concave hull of the options' chains (the max of their
  support functions);
* the reverse order (P', P) is the same region reflected: :func:`swap`.

All arithmetic is exact rational; breakpoints are likelihood ratios.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

from ..limits import check_hull_size
from ..numbers import INF, is_rational, ladder
from ..numbers.ladder import affine_sign
from ..numbers.rational import Q, q_str

__all__ = ["Hull", "LEAF", "combine", "upper", "swap", "from_views", "line_gt"]

_ZERO = Q(0)
_ONE = Q(1)
_key_r = itemgetter(0)


class Hull:
    """A concave chain from (0, 0) to (1, 1): ``top`` then edges ``(r, w)`` by decreasing r.

    Invariants: r ≥ 0 distinct and decreasing, w > 0, Σ w = 1 and top + Σ r·w = 1.
    """

    __slots__ = ("top", "edges")

    def __init__(self, top: Any, edges: Sequence[tuple[Any, Any]]):
        self.top = top
        self.edges = tuple(edges)

    def __repr__(self) -> str:
        es = ", ".join(f"({q_str(r)}, {q_str(w)})" for r, w in self.edges)
        return f"Hull(top={q_str(self.top)}, edges=[{es}])"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hull) and self.top == other.top and self.edges == other.edges

    def __hash__(self) -> int:
        return hash((self.top, self.edges))

    # --- evaluation -------------------------------------------------------------------------

    def value_at(self, lam: Any) -> Any:
        """δ(λ) for a rational λ ≥ 0, exactly."""
        v = self.top
        for r, w in self.edges:
            if r <= lam:
                break
            v += (r - lam) * w
        return v

    def line_at(self, lam: Any) -> tuple[Any, Any]:
        """(A, B) with δ(λ) = A − λ·B, where A = P(T) and B = P'(T) for the optimal event
        T = {v : P(v) > λ P'(v)}.  Works for any exact λ (certified comparisons)."""
        a, b = self.top, _ZERO
        rational = is_rational(lam)
        for r, w in self.edges:
            if (r <= lam) if rational else (ladder.cmp(r, lam) <= 0):
                break
            a += r * w
            b += w
        return a, b

    def least_lambda(self, delta: Any) -> Any:
        """The least λ ≥ 1 with δ(λ) ≤ ``delta`` (a rational), or ``INF`` if none exists.

        PrivLoss = log of this value (Vadhan–Wang §5: PrivLoss(M, δ) = inf{ε ≥ 0 : (ε, δ)-DP}).
        """
        if self.top > delta:
            return INF
        if self.value_at(_ONE) <= delta:
            return _ONE
        a, b = self.top, _ZERO
        for r, w in self.edges:
            # on [r, previous r] the profile is a − λ·b
            if r <= 1 or a - r * b > delta:
                return (a - delta) / b
            a += r * w
            b += w
        return (a - delta) / b  # pragma: no cover - the chain always ends with a slope <= 1

    def breakpoints(self, *, at_least: Any = _ONE) -> list[Any]:
        """The slopes r ≥ ``at_least`` where δ(λ) bends (in decreasing order)."""
        return [r for r, _ in self.edges if r >= at_least]

    def bends(self, above: Any = _ONE) -> list[tuple[Any, Any]]:
        """(r, δ(r)) at every slope r > ``above``, increasing, in one sweep from the largest
        (δ(r) = top + Σ over the edges r' > r of (r' − r)·w': a value at a time would be
        quadratic in the edges)."""
        out, a, b = [], self.top, _ZERO
        for r, w in self.edges:
            if r <= above:
                break
            out.append((r, a - r * b))
            a += r * w
            b += w
        return out[::-1]

    def vertices(self) -> list[tuple[Any, Any]]:
        """The chain's vertices (P'(T), P(T)) from (0, 0) to (1, 1)."""
        b, a = _ZERO, self.top
        out = [(_ZERO, _ZERO)] if a else []
        out.append((b, a))
        for r, w in self.edges:
            b += w
            a += r * w
            out.append((b, a))
        return out

    def restricted(self, at_least: Any = _ONE) -> tuple[Any, tuple]:
        """What determines δ(λ) on λ ≥ ``at_least``: (top, edges with r > at_least)."""
        return self.top, tuple((r, w) for r, w in self.edges if r > at_least)


LEAF = Hull(_ZERO, ((_ONE, _ONE),))
"""The chain of the empty continuation: one view with P = P' = 1, δ(λ) = (1 − λ)_+."""


def combine(items: Iterable[tuple[Any, Any, Hull]]) -> Hull:
    """Chain of an answer distribution: Σ_a of child chains scaled by (p'_a, p_a).

    ``items`` are ``(p, p', child)`` with p = Pr[a] under the first dataset of the pair and
    p' under the second.  An answer impossible under the second dataset adds p to ``top``;
    one impossible under the first adds a flat edge of width p'.
    """
    top = _ZERO
    acc: dict = {}
    get = acc.get
    for p, pp, child in items:
        if not p:
            if pp:
                acc[_ZERO] = get(_ZERO, _ZERO) + pp
            continue
        if not pp:
            top += p
            continue
        if child.top:
            top += p * child.top
        if child is LEAF:
            k = p / pp
            acc[k] = get(k, _ZERO) + pp
            continue
        k = p / pp
        for r, w in child.edges:
            r2 = r * k
            acc[r2] = get(r2, _ZERO) + w * pp
    if len(acc) > 4096:
        check_hull_size(len(acc))
    return Hull(top, sorted(acc.items(), key=_key_r, reverse=True))


def upper(hulls: Sequence[Hull]) -> Hull:
    """Upper concave hull of several chains: the max of their profiles, pointwise in λ.

    This is the adversary's choice at a node: for every λ it takes the best option.
    """
    distinct = list(dict.fromkeys(hulls))  # equal chains once (hashing: linear, not quadratic)
    if len(distinct) == 1:
        return distinct[0]
    pts: list[tuple[Any, Any]] = []
    append = pts.append
    for h in distinct:
        b, a = _ZERO, h.top
        append((b, a))
        for r, w in h.edges:
            b += w
            a += r * w
            append((b, a))
    if len(pts) > 4096:
        check_hull_size(len(pts))
    pts.sort(key=_key_r)  # by abscissa; equal abscissae are resolved below
    sb: list = []
    sa: list = []
    for b, a in pts:
        if sb and sb[-1] == b:
            if a <= sa[-1]:
                continue
            sb.pop()
            sa.pop()
        while len(sb) >= 2:
            b0, a0 = sb[-2], sa[-2]
            # drop the last vertex if it is on or below the segment (b0, a0) -> (b, a)
            if (sb[-1] - b0) * (a - a0) >= (sa[-1] - a0) * (b - b0):
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
    return Hull(sa[0], edges)


def swap(h: Hull) -> Hull:
    """The chain of the reversed pair (P', P).

    The privacy region is symmetric under (x, y) ↦ (1 − x, 1 − y), so the reversed pair's
    chain is the same polygon read with the axes exchanged: edge (r, w) becomes (1/r, r·w),
    in reverse order; ``top`` and the flat final edge trade places.  Equivalently
    δ_{P',P}(λ) = 1 − λ + λ·δ_{P,P'}(1/λ).
    """
    edges = []
    new_top = _ZERO
    for r, w in reversed(h.edges):
        if not r:
            new_top += w
        else:
            edges.append((1 / r, r * w))
    if h.top:
        edges.append((_ZERO, h.top))
    return Hull(new_top, edges)


def from_views(pairs: Iterable[tuple[Any, Any]]) -> Hull:
    """The chain of one fixed pair of distributions, given as (P(v), P'(v)) per view."""
    return combine((p, pp, LEAF) for p, pp in pairs)


def line_gt(l1: tuple[Any, Any], l2: tuple[Any, Any], lam: Any) -> bool:
    """Whether a1 − λ·b1 > a2 − λ·b2 for lines (A, B) = (P(T), P'(T)), exactly (λ may be
    e^ε for a decimal ε: see :func:`exactdp.numbers.ladder.affine_sign`)."""
    return affine_sign(l1[0] - l2[0], l1[1] - l2[1], lam) > 0
