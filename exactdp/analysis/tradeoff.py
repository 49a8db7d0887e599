r"""f-DP: exact trade-off functions, dominating pairs, tensor products (Dong, Roth & Su 2022).

For distributions P, Q the trade-off function is T(P, Q)(α) = inf{β_φ : α_φ ≤ α} over
rejection rules φ, with type I error α_φ = E_P[φ] and type II error β_φ = 1 − E_Q[φ]
(Dong–Roth–Su 2022, Def. 2.1).  A mechanism is f-DP when T(M(x), M(x')) ≥ f for every ordered
adjacent pair (Def. 2.3).

The profile engine already computes, for every ordered pair (x, x'), the upper boundary U of the
privacy region {(P_{x'}(S), P_x(S))} as an exact concave chain (:mod:`exactdp.analysis.hull`).
Testing H0: x' against H1: x with rejection region S gives α = P_{x'}(S) and β = 1 − P_x(S), so

.. math::  T(M(x'), M(x))(\alpha) = 1 - U_{x,x'}(\alpha),

a convex piecewise-linear function with rational vertices, exact.  Against adaptive adversaries
(the sup over adversaries is the upper hull of the regions) this is the trade-off function of the
worst adversary's views; the envelope of all ordered pairs gives the largest f with M f-DP
(its lower convex hull: for convex f, f ≤ min_pairs T ⇔ f ≤ conv(min_pairs T)).

*Dominating pair* (Zhu, Dong & Wang 2022, Def. 7): the chain itself is a pair of finite
distributions (P, P'), one outcome per edge (r, w) with P = r·w and P' = w, plus one outcome with
P = top and P' = 0; its hockey-stick profile is exactly δ_M.  The *tensor product* f ⊗ g of
trade-off functions (Dong–Roth–Su 2022, Def. 3.1) is the trade-off function of the product of
dominating pairs: :func:`tensor` composes the chains exactly.

References
----------
Dong, Roth & Su, *Gaussian Differential Privacy*, JRSS-B 84 (2022), Def. 2.1–2.3, Prop. 2.12,
Def. 3.1, Thm 3.2.
Zhu, Dong & Wang, *Optimal Accounting of Differential Privacy via Characteristic Function*,
AISTATS 2022, Def. 7 (dominating pairs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..display import RichDisplay
from ..model.checks import instance_arg, list_arg, takes_instance
from ..numbers.element import public
from ..numbers.rational import Q
from ..numbers.types import FieldValue
from .hull import LEAF, Hull, combine
from .results import Profile

__all__ = [
    "Tradeoff",
    "tradeoff_of_hull",
    "pair_tradeoffs",
    "envelope_tradeoff",
    "dominating_pair",
    "tensor",
    "dominates",
    "max_gap",
    "min_gap",
    "Domination",
    "compare",
]

_ZERO, _ONE = Q(0), Q(1)
_PROFILE = dict(what="a profile", how="compute it with exactdp.profile(mech)")
_HULL = dict(
    what="the chain of a profile (a Hull)",
    how="take one from a profile: exactdp.profile(mech).envelope, or a pair's exactdp.profile(mech).pairs[k].hull",
)


@dataclass(frozen=True)
class Tradeoff(RichDisplay):
    """A piecewise-linear trade-off function by its vertices (α, β), α increasing from 0 to 1.

    ``label`` says which hypotheses it separates, e.g. ``T(M(x0), M(x1))``.
    """

    label: str
    vertices: tuple[tuple[FieldValue, FieldValue], ...]

    def __post_init__(self) -> None:  # (values as the API hands them out: an ExactFraction prints as 1/4)
        object.__setattr__(self, "vertices", tuple((public(a), public(b)) for a, b in self.vertices))

    def value_at(self, alpha: FieldValue) -> FieldValue:
        """T(α) for a rational α in [0, 1], exactly (linear between vertices)."""
        vs = self.vertices
        for (a0, b0), (a1, b1) in zip(vs, vs[1:]):
            if a0 <= alpha <= a1:
                return b0 if a1 == a0 else b0 + (b1 - b0) * (alpha - a0) / (a1 - a0)
        return vs[-1][1]


def tradeoff_of_hull(h: Hull, label: str = "T") -> Tradeoff:
    """β = 1 − U(α) at every vertex of the chain U (the first vertex at α = 0 is (0, 1 − top))."""
    pts: list[tuple[FieldValue, FieldValue]] = [(_ZERO, _ONE - h.top)]
    b, a = _ZERO, h.top
    for r, w in h.edges:
        b += w
        a += r * w
        pts.append((b, _ONE - a))
    return Tradeoff(label, tuple(pts))


@takes_instance(Profile, **_PROFILE)
def pair_tradeoffs(prof: Profile) -> list[Tradeoff]:
    """T(M(x), M(x')) for every ordered pair (x, x') of ``prof``, in the profile's pair order.

    The chain stored for the pair (x', x) bounds (P_x(S), P_{x'}(S)), which is the test of
    H0: x against H1: x' (module docstring)."""
    by_pair = {pp.pair: pp.hull for pp in prof.pairs}
    out = []
    for pp in prof.pairs:
        x, xp = pp.pair
        out.append(tradeoff_of_hull(by_pair[(xp, x)], f"T({prof.mechanism}({x}), {prof.mechanism}({xp}))"))
    return out


@takes_instance(Profile, **_PROFILE)
def envelope_tradeoff(prof: Profile) -> Tradeoff:
    r"""The largest trade-off function :math:`f` such that :math:`M` is :math:`f`-DP,
    :math:`f(\alpha) = \min_{(x, x')} T(M(x), M(x'))(\alpha)` over every adaptive adversary: one minus
    the envelope chain (the envelope contains both orders of every pair, so it is symmetric,
    Dong–Roth–Su Prop. 2.4)."""
    return tradeoff_of_hull(prof.envelope, f"T({prof.mechanism})")


@takes_instance(Hull, **_HULL)
def dominating_pair(h: Hull) -> tuple[list[FieldValue], list[FieldValue]]:
    """Finite distributions (P, P') whose hockey-stick profile equals the chain ``h`` for every
    λ ≥ 0 (Zhu–Dong–Wang 2022, Def. 7; tight): one outcome per edge, plus the outcome of mass
    ``top`` impossible under P'.  Outcomes are listed by decreasing likelihood ratio."""
    p: list[FieldValue] = []
    pp: list[FieldValue] = []
    if h.top:
        p.append(h.top)
        pp.append(_ZERO)
    for r, w in h.edges:
        p.append(r * w)
        pp.append(w)
    return p, pp


def tensor(hulls: Sequence[Hull]) -> Hull:
    """The chain of the product of the dominating pairs of ``hulls``: its trade-off function is
    the tensor product T_1 ⊗ T_2 ⊗ … (Dong–Roth–Su 2022, Def. 3.1), computed exactly.

    Composing one chain after another is :func:`~exactdp.analysis.hull.combine` with the
    same continuation after every outcome (a product distribution)."""
    hulls = list(
        list_arg(hulls, "tensor", "hulls", "chains, e.g. [P.envelope, Q.envelope] of two profiles", single=Hull)
    )
    for k, h in enumerate(hulls):
        instance_arg(h, Hull, "tensor", f"hulls[{k}]", **_HULL)
    out = LEAF
    for h in reversed(hulls):
        p, pp = dominating_pair(h)
        out = combine(zip(p, pp, [out] * len(p)))
    return out


def _chain_values(h: Hull, bs: Sequence[FieldValue]) -> list[FieldValue]:
    """U(b) for each b of an increasing list in [0, 1]: the chain's height (the largest P(S) with
    P'(S) = b), in one walk along its edges."""
    out: list[FieldValue] = []
    x, y, k, edges = _ZERO, h.top, 0, h.edges
    for b in bs:
        while k < len(edges) and b > x + edges[k][1]:
            x, y, k = x + edges[k][1], y + edges[k][0] * edges[k][1], k + 1
        out.append(y + edges[k][0] * (b - x) if k < len(edges) else y)
    return out


def _abscissae(h: Hull) -> list[FieldValue]:
    out, x = [_ZERO], _ZERO
    for _, w in h.edges:
        x += w
        out.append(x)
    return out


def _union(a: list[FieldValue], b: list[FieldValue]) -> list[FieldValue]:
    """Two increasing lists merged, each value once."""
    out: list[FieldValue] = []
    i = j = 0
    while i < len(a) or j < len(b):
        x = a[i] if j == len(b) or (i < len(a) and a[i] <= b[j]) else b[j]
        i, j = i + (i < len(a) and a[i] == x), j + (j < len(b) and b[j] == x)
        out.append(x)
    return out


def dominates(h_m: Hull, h_r: Hull) -> tuple[bool, FieldValue | None]:
    """Whether T(M) ≥ T(R) pointwise, i.e. the chain U_M ≤ U_R everywhere, with an α where it
    fails (or None).  U_R − U_M is concave on every segment of U_M, so U_M's vertices decide;
    this is profile domination δ_M(λ) ≤ δ_R(λ) for *every* λ ≥ 0 (Dong–Roth–Su Prop. 2.12)."""
    bs = _abscissae(h_m)
    for b, um, ur in zip(bs, _chain_values(h_m, bs), _chain_values(h_r, bs)):
        if um > ur:
            return False, b
    return True, None


def _gaps(h_m: Hull, h_r: Hull) -> list[FieldValue]:
    """U_R − U_M at the union of both chains' vertices (the difference is piecewise linear
    between them, so its extremes are among these)."""
    bs = _union(_abscissae(h_m), _abscissae(h_r))
    return [ur - um for um, ur in zip(_chain_values(h_m, bs), _chain_values(h_r, bs))]


def max_gap(h_m: Hull, h_r: Hull) -> FieldValue:
    """max over α of T(M)(α) − T(R)(α) = U_R − U_M (:func:`_gaps`): 0 exactly when the two
    trade-off functions are equal."""
    return max(_gaps(h_m, h_r))


def min_gap(h_m: Hull, h_r: Hull) -> FieldValue:
    """min over α of T(M)(α) − T(R)(α) = U_R − U_M (:func:`_gaps`): ≥ 0 exactly when M is
    T(R)-DP (:func:`dominates`), and its size says by how much T(M) lies above (or below) T(R)
    at the closest point."""
    return min(_gaps(h_m, h_r))


@dataclass(frozen=True)
class Domination:
    """T(M) against T(R), exactly: whether T(M) ≥ T(R) everywhere (``holds``), the number of
    vertices of each, the margin min_α (T(M) − T(R))(α), and the largest gap when it holds, or
    an α where it fails with both values there."""

    holds: bool
    vertices: int
    bound_vertices: int
    margin: FieldValue
    max_gap: FieldValue | None = None
    alpha: FieldValue | None = None
    at_alpha: tuple[FieldValue, FieldValue] | None = None

    def facts(self) -> dict:
        """The fields as a mapping (the facts of a verdict), without those that are None."""
        return {k: v for k, v in vars(self).items() if v is not None and k != "holds"}


def compare(h_m: Hull, h_r: Hull) -> Domination:
    """T(M) ≥ T(R) decided at the vertices (:func:`dominates`), with the numbers a report shows."""
    ok, alpha = dominates(h_m, h_r)
    tm, tr = tradeoff_of_hull(h_m), tradeoff_of_hull(h_r)
    gaps = _gaps(h_m, h_r)
    nm, nr, margin = len(tm.vertices), len(tr.vertices), min(gaps)
    if ok:
        return Domination(True, nm, nr, margin, max_gap=max(gaps))
    assert alpha is not None
    return Domination(False, nm, nr, margin, alpha=alpha, at_alpha=(tm.value_at(alpha), tr.value_at(alpha)))
