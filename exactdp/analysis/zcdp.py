r"""Zero-concentrated DP decided by certified branch and bound over the order α.

M is ρ-zCDP when D_α(M(x) ‖ M(x')) ≤ ρα for every real α > 1 and every ordered adjacent pair
(Bun & Steinke 2016, Def. 1.1), here against every adaptive adversary (deterministic ones
suffice, as for each D_α).  With φ(α) = log S*(α), S*(α) the sup over pairs and adversaries of
the Rényi sum Σ_v P^α P'^{1−α} (:mod:`exactdp.analysis.renyi_certified`), the condition is

.. math::  g(\alpha) = \rho\,\alpha(\alpha - 1) - \varphi(\alpha) \ge 0 \quad (\alpha > 1).

Three facts make it decidable by finitely many certified evaluations of φ:

* **φ is convex on [1, ∞)**: each adversary's sum Σ_v P'(v) ρ_v^α is a sum of exponentials in
  α, so its logarithm is convex, and a max of convex functions is convex.  On a box [a, b] φ
  therefore lies below the chord through (a, φ(a)) and (b, φ(b)), and the chord built from
  *upper* bounds of φ(a), φ(b) is above it; g ≥ 0 on the box follows when the convex quadratic
  ρα(α−1) − chord(α) has a nonnegative minimum there — exact rational arithmetic on the
  endpoint bounds.  The chord's error shrinks with the square of the box width, so boxes around
  an interior maximum of D_α/α are verified quickly.
* **φ(1) = 0** when no view is possible under x alone (then S*(1) = 1); otherwise D_α = ∞ for
  every α > 1 and M is not ρ-zCDP for any ρ (decided exactly).
* **The tail**: D_α ≤ D_∞ = PrivLoss(M, 0) for every α (Rényi divergences increase with α,
  Mironov 2017, Prop. 1), so D_α ≤ ρα for every α ≥ D_∞/ρ; if D_∞ ≤ ρ the claim holds outright.

* **Next to α = 1**, where D_α/α may tend to ρ without reaching it (randomized response at
  ρ = its KL divergence, Steinke 2024), chords cannot prove the first box; when the adversary has
  no choices, a certified bound on the curvature of log S proves it instead
  (:mod:`exactdp.analysis.zcdp_edge`).

A box that is not verified is split at its midpoint, where φ is evaluated; when a lower bound
of φ there exceeds ρα(α−1) — confirmed by the attaining adversary's own sum, recomputed by an
independent forward walk — the claim fails at that α.  When the budget of boxes
(``--max-alpha-boxes``) runs out first, typically because D_α/α touches ρ, the verdict is
*undecided*, never a guess.

References
----------
M. Bun, T. Steinke, *Concentrated Differential Privacy: Simplifications, Extensions, and Lower
Bounds*, TCC 2016, Def. 1.1 (ρ-zCDP) and Prop. 1.3.
I. Mironov, *Rényi Differential Privacy*, CSF 2017, Prop. 1 (D_α nondecreasing in α).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import limits
from ..model.checks import takes_mechanism
from ..model.game import Mechanism
from ..numbers import ladder
from ..numbers.certified import ball_bounds
from ..numbers.ladder import is_inf
from ..numbers.rational import as_q, to_fraction
from ..numbers.symball import constant_bounds
from ..numbers.symbolic import is_sym
from .renyi_certified import (
    Enclosure,
    RenyiWitness,
    arb_prec,
    bounds,
    recheck_sum,
    renyi_balls,
)
from .zcdp_edge import near_one_holds

__all__ = ["HOLDS", "FAILS", "UNDECIDED", "ZCDPResult", "check_zcdp", "chord_verified", "rho_bounds", "PREC"]

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
PREC = 128


@dataclass(frozen=True)
class ZCDPResult:
    """The decision, and the evidence.

    ``alpha`` is the order where the claim fails (FAILS), or the evaluated order with the
    largest lower bound of D_α/α (HOLDS, UNDECIDED); ``divergence`` encloses D_α there;
    ``ratio`` is a certified lower bound on sup_α D_α/α (the smallest ρ possible is at least
    this); ``boxes`` counts the boxes examined."""

    status: str
    rho: Any
    alpha: Fraction | None
    divergence: Enclosure | None
    ratio: Fraction | None
    witness: RenyiWitness | None
    boxes: int
    reason: str


class _Phi:
    """φ(α) = log S*(α) by certified induction, cached per α, with the best ratio seen; ``rho``
    is the exact ρ (for the result) and ``rho_hi`` a rational upper bound of it (a failure is
    D_α > ρ_hi·α)."""

    def __init__(self, mech: Mechanism, rho: Any, rho_hi: Fraction):
        self.mech = mech
        self.rho = rho
        self.rho_hi = rho_hi
        self.cache: dict[Fraction, tuple[Fraction, Fraction, Any]] = {}
        self.best: tuple[Fraction, Fraction, Fraction, Fraction] | None = None  # ratio lo, alpha, D lo, D hi

    def __call__(self, a: Fraction) -> tuple[Fraction, Fraction, Any]:
        if a == 1:
            return Fraction(0), Fraction(0), None
        hit = self.cache.get(a)
        if hit is not None:
            return hit
        pairs = renyi_balls(self.mech, a, PREC)
        with arb_prec(PREC):
            top = pairs[0].ball
            for pb in pairs[1:]:
                top = top.max(pb.ball)
            lo, hi = bounds(top.log())
        worst = max(pairs, key=lambda pb: pb.ball.mid())
        self.cache[a] = (lo, hi, worst)
        ratio = lo / (a - 1) / a
        if self.best is None or ratio > self.best[0]:
            self.best = (ratio, a, lo / (a - 1), hi / (a - 1))
        return lo, hi, worst

    def fails_at(self, a: Fraction) -> RenyiWitness | None:
        """A re-checked adversary whose own sum exceeds e^{ρα(α−1)} at α = a, or None."""
        lo, _, worst = self(a)
        bound = self.rho_hi * a * (a - 1)
        if lo <= bound:
            return None
        again = recheck_sum(self.mech, worst.pair, worst.policy, a, PREC)
        with arb_prec(PREC):
            wlo, whi = bounds(again.log())
        if wlo <= bound:
            return None
        return RenyiWitness(self.mech, worst.pair, a, worst.policy, Enclosure(*bounds(again)))


def rho_bounds(rho: Any) -> tuple[Fraction, Fraction]:
    """Rational bounds (lower, upper) of ρ: ρ itself when it is rational, else a certified
    enclosure at :data:`PREC` bits of the exact real (:mod:`exactdp.numbers.symball`)."""
    if is_sym(rho):
        return constant_bounds(rho, PREC)
    r = to_fraction(as_q(rho))
    return r, r


def _at_most(d_inf: Any, rho: Any, rho_lo: Fraction) -> bool:
    """Whether D_∞ ≤ ρ: exactly for a rational ρ, else when D_∞'s enclosure lies below ρ_lo."""
    if not is_sym(rho):
        return ladder.cmp(d_inf, rho) <= 0
    return ball_bounds(ladder.ball(d_inf, PREC))[1] <= rho_lo


def chord_verified(rho: Fraction, a: Fraction, b: Fraction, ua: Fraction, ub: Fraction) -> bool:
    """min over [a, b] of ρα(α−1) − chord(α) ≥ 0, chord through (a, ua), (b, ub); exact."""
    s = (ub - ua) / (b - a)
    c0 = ua - s * a
    star = (rho + s) / (2 * rho)
    t = min(max(star, a), b)
    return rho * t * t - rho * t - c0 - s * t >= 0


def _tail(mech: Mechanism, d_inf: Any, rho: Fraction) -> Fraction:
    """A rational A ≥ max(2, D_∞/ρ) (certified upper bound of D_∞)."""
    hi = ball_bounds(ladder.ball(d_inf, 80))[1]
    return max(Fraction(2), hi / rho + 1)


@takes_mechanism
def check_zcdp(mech: Mechanism, rho: Any, d_inf: Any) -> ZCDPResult:
    """Whether ``mech`` is ρ-zCDP against every adaptive adversary (module docstring).

    ``d_inf`` is PrivLoss(M, 0) = D_∞, exact (from the profile engine).  ``rho`` is a rational
    or an exact real written with logarithms (``log(2)^2/2``, the ε²/2 of Bun & Steinke 2016,
    Prop. 1.4); the boxes are then proved with a rational lower bound of ρ and a failure is
    certified against a rational upper bound of it."""
    r, r_hi = rho_bounds(rho)
    phi = _Phi(mech, rho, r_hi)
    cap = limits.current().max_alpha_boxes
    if is_inf(d_inf):
        pairs = renyi_balls(mech, Fraction(2), 64)
        worst = next(pb for pb in pairs if pb.ball is None)
        w = RenyiWitness(mech, worst.pair, Fraction(2), worst.policy, None)
        return ZCDPResult(FAILS, rho, None, None, None, w, 0, "a view possible under one dataset only: D_alpha = inf")
    if _at_most(d_inf, rho, r):
        why = f"D_alpha <= D_inf = {ladder.text(d_inf)} <= rho < rho*alpha for every alpha > 1"
        return ZCDPResult(HOLDS, rho, None, None, None, None, 0, why)
    top = _tail(mech, d_inf, r)
    # boxes on a geometric grid first: 1, 1 + 1/8, 1 + 1/4, 1 + 1/2, 2, 3, 5, 9, ...
    cuts = [Fraction(1), Fraction(9, 8), Fraction(5, 4), Fraction(3, 2), Fraction(2)]
    while cuts[-1] < top:
        cuts.append(min(top, 2 * cuts[-1] - 1))
    stack = [(cuts[k], cuts[k + 1]) for k in reversed(range(len(cuts) - 1))]
    boxes = 0
    near_one: bool | None = None  # the box at alpha = 1 proved by curvature (zcdp_edge), once
    for a in cuts[1:]:
        found = phi.fails_at(a)
        if found is not None:
            return _failed(phi, a, found, boxes)
    while stack:
        a, b = stack.pop()
        boxes += 1
        if boxes > cap:
            return _result(
                phi,
                UNDECIDED,
                boxes - 1,
                f"not decided within --max-alpha-boxes {cap} boxes of alpha (D_alpha/alpha may touch rho); "
                "raise it with --max-alpha-boxes N",
            )
        ua, ub = phi(a)[1], phi(b)[1]
        if chord_verified(r, a, b, ua, ub):
            continue
        if a == 1 and near_one is None:
            near_one = near_one_holds(mech, rho, r, b)
            if near_one:
                continue
        m = (a + b) / 2
        found = phi.fails_at(m)
        if found is not None:
            return _failed(phi, m, found, boxes)
        if b - a < Fraction(1, 1 << 40):
            return _result(phi, UNDECIDED, boxes, f"D_alpha/alpha touches rho near alpha = {ladder.decimal(m, 12)}")
        stack.append((m, b))
        stack.append((a, m))
    return _result(
        phi,
        HOLDS,
        boxes,
        f"D_alpha <= rho*alpha on (1, {_dec(top)}] by {boxes} certified boxes"
        + (" (the first by KL <= rho and a bound on the curvature of log S)" if near_one else "")
        + f"; beyond, D_alpha <= D_inf = {ladder.decimal(d_inf)}",
    )


def _dec(x: Fraction) -> str:
    return ladder.decimal(x, 6)  # (not float(): x may be beyond a float's range)


def _failed(phi: _Phi, a: Fraction, w: RenyiWitness, boxes: int) -> ZCDPResult:
    lo, hi, _ = phi(a)
    d = Enclosure(lo / (a - 1), hi / (a - 1))
    return ZCDPResult(FAILS, phi.rho, a, d, lo / (a - 1) / a, w, boxes, f"D_alpha > rho*alpha at alpha = {a}")


def _result(phi: _Phi, status: str, boxes: int, reason: str) -> ZCDPResult:
    if phi.best is None:
        return ZCDPResult(status, phi.rho, None, None, None, None, boxes, reason)
    ratio, a, dlo, dhi = phi.best
    return ZCDPResult(status, phi.rho, a, Enclosure(dlo, dhi), ratio, None, boxes, reason)
