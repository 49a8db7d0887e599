r"""Points of the exact trade-off function and the tests (adversary and rejection region) that
attain them.

Every vertex (α_k, β_k) of the trade-off function T(M(x'), M(x)) = 1 − U_{x,x'} is the image of
one vertex of the concave chain U (:mod:`exactdp.analysis.tradeoff`), which is the optimal
hockey-stick event at every λ strictly between the slopes of its two edges: with edges
(r_0, w_0), (r_1, w_1), … by decreasing slope, vertex k is optimal exactly for
λ ∈ (r_k, r_{k−1}).  The profile engine's witness at such a λ — an adversary and the event
T = {views v : P_x(v) > λ P_x'(v)}, re-checked by an independent forward walk — is therefore a
test with type I error α_k = P_x'(T) and type II error β_k = 1 − P_x(T): the attaining
adversary of that vertex.  For the envelope (the trade-off function of the whole mechanism)
the pair is the one whose chain is highest at that λ.  Between two vertices the trade-off
function is attained by mixing the two tests with a visible coin (Dong, Roth & Su 2022,
Prop. 2.2: trade-off functions are convex).

λ may be below 1 here (vertices with β < 1 − α): these are points of the region that no
(ε ≥ 0, δ)-statement mentions, but they are ordinary tests.

References
----------
Dong, Roth & Su, *Gaussian Differential Privacy*, JRSS-B 84 (2022), Def. 2.1, Prop. 2.2.
Kairouz, Oh & Viswanath, *The Composition Theorem for Differential Privacy*, ICML 2015
(privacy regions as sets of tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import ArgumentError, ArgumentTypeError, VerificationError
from ..model.checks import instance_arg, takes_mechanism
from ..model.game import Mechanism
from ..numbers import ladder
from ..numbers.rational import Q
from ..numbers.types import FieldValue
from .hull import Hull
from .profile import ENGINE, pair_hull
from .results import Profile
from .tradeoff import _PROFILE, Tradeoff, envelope_tradeoff
from .witness import HullPolicy, Witness, make_witness

__all__ = ["VertexTest", "TradeoffPoint", "vertex_lambdas", "vertex_ranges", "vertex_tests", "tradeoff_point"]

_ONE = Q(1)


@dataclass(frozen=True, eq=False)
class VertexTest:
    """The test attaining one vertex (α, β) of a trade-off function.

    ``witness`` is the adversary and rejection region (``None`` for the two trivial tests:
    reject only what H0 cannot produce when no such view exists, or reject everything);
    ``alpha`` = Pr[reject | H0] and ``beta`` = Pr[accept | H1], recomputed independently."""

    alpha: FieldValue
    beta: FieldValue
    witness: Witness | None
    lam: Any = None
    between: tuple[Any, Any] | None = None  # the thresholds lam that select this vertex: (lo, hi), hi None for inf

    def threshold_note(self) -> str:
        """Why the witness names an e^eps: the test rejects where the likelihood ratio exceeds a
        threshold, and every threshold between the slopes of the vertex's two edges selects it."""
        if self.between is None or self.witness is None:
            return ""
        lo, hi = (ladder.text(x) if x is not None else "inf" for x in self.between)
        return (
            f"(e^eps = {ladder.text(self.lam)} is a likelihood-ratio threshold: every e^eps in ({lo}, {hi}), "
            "the slopes of the edges at this vertex, selects this vertex)"
        )


@dataclass(frozen=True, eq=False)
class TradeoffPoint:
    """T(α) of a trade-off function at one α, with the vertices around it and their tests.

    ``theta`` is the weight of the right vertex: T(α) = (1 − θ)·β_left + θ·β_right, attained by
    the left test with probability 1 − θ and the right one with probability θ."""

    alpha: FieldValue
    value: FieldValue
    left: VertexTest
    right: VertexTest | None
    theta: FieldValue


def vertex_lambdas(h: Hull) -> list[Any]:
    """For each vertex of the chain (in the order of
    :func:`~exactdp.analysis.tradeoff.tradeoff_of_hull`), a λ at which it is the only optimal
    vertex, or ``None`` for a last vertex that only λ < 0 selects (reject everything): a point of
    its range (:func:`vertex_ranges`), the midpoint when the range is bounded."""
    if not h.edges:
        return [_ONE]
    return [None if r is None else r[0] + 1 if r[1] is None else (r[0] + r[1]) / 2 for r in vertex_ranges(h)]


def vertex_ranges(h: Hull) -> list[tuple[Any, Any] | None]:
    """For each vertex of :func:`vertex_lambdas`, the open interval of λ that select it alone: the
    slopes of its two edges (``None`` as the upper end: ∞; ``None`` for the reject-everything vertex)."""
    rs = [r for r, _ in h.edges]
    out: list[tuple[Any, Any] | None] = [(rs[0], None)] if rs else [None]
    out += [(rs[k], rs[k - 1]) for k in range(1, len(rs))]
    if rs:
        out.append((Q(0), rs[-1]) if rs[-1] else None)
    return out


def _test(mech: Mechanism, prof: Profile, lam: Any, alpha: Any, beta: Any, between: Any = None) -> VertexTest:
    if lam is None or (alpha == 1 and beta == 0):  # reject everything
        return VertexTest(alpha, beta, None)
    names = prof.worst_pair(lam).pair
    pair = (mech.datasets.index(names[0]), mech.datasets.index(names[1]))
    _, memo = pair_hull(mech, pair, keep=True)
    target = next(pp.hull.line_at(lam) for pp in prof.pairs if pp.pair == names)
    w = make_witness(mech, pair, lam, HullPolicy(memo, lam), ENGINE, expected_line=target)
    if w.p_prime != alpha or 1 - w.p != beta:  # pragma: no cover - make_witness re-checked the line
        raise VerificationError(f"the test of the trade-off vertex ({alpha}, {beta}) gives ({w.p_prime}, {1 - w.p})")
    return VertexTest(alpha, beta, w if (w.p or w.p_prime) else None, lam, between)


@takes_mechanism
def vertex_tests(mech: Mechanism, prof: Profile) -> list[VertexTest]:
    """The attaining test of every vertex of the envelope's trade-off function T(M)."""
    instance_arg(prof, Profile, "vertex_tests", "prof", **_PROFILE)
    t = envelope_tradeoff(prof)
    lams, ranges = vertex_lambdas(prof.envelope), vertex_ranges(prof.envelope)
    return [_test(mech, prof, lam, a, b, r) for lam, r, (a, b) in zip(lams, ranges, t.vertices)]


def _segment(t: Tradeoff, alpha: Any) -> tuple[int, int]:
    vs = t.vertices
    for k in range(len(vs)):
        if vs[k][0] == alpha:
            return k, k
        if k + 1 < len(vs) and vs[k][0] < alpha < vs[k + 1][0]:
            return k, k + 1
    return len(vs) - 1, len(vs) - 1


@takes_mechanism
def tradeoff_point(mech: Mechanism, prof: Profile, alpha: Any) -> TradeoffPoint:
    """T(M)(α) of the envelope's trade-off function, exactly, with the test(s) attaining it."""
    instance_arg(prof, Profile, "tradeoff_point", "prof", **_PROFILE)
    if isinstance(alpha, bool) or not ladder.is_exact(alpha):
        raise ArgumentTypeError(
            f"tradeoff_point: alpha must be an exact number in [0, 1], got {type(alpha).__name__}: {alpha!r:.60}"
        )
    if not 0 <= alpha <= 1:
        raise ArgumentError(f"tradeoff_point: alpha must lie in [0, 1], got {ladder.short(alpha)}")
    t = envelope_tradeoff(prof)
    value = t.value_at(alpha)
    i, j = _segment(t, alpha)
    lams, ranges = vertex_lambdas(prof.envelope), vertex_ranges(prof.envelope)
    left = _test(mech, prof, lams[i], *t.vertices[i], ranges[i])
    if i == j:
        return TradeoffPoint(alpha, value, left, None, Q(0))
    right = _test(mech, prof, lams[j], *t.vertices[j], ranges[j])
    theta = (alpha - left.alpha) / (right.alpha - left.alpha)
    return TradeoffPoint(alpha, value, left, right, theta)
