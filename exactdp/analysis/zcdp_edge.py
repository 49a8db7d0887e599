r"""zCDP next to α = 1, where D_α/α may tend to ρ without reaching it.

For randomized response RR_ε the supremum of D_α/α over α > 1 is the limit at α → 1, the KL
divergence ε·tanh(ε/2), and it is never attained (Steinke 2024, sharp conversion of pure DP to
zCDP): with ρ equal to that limit, g(α) = ρα(α − 1) − φ(α) of :mod:`exactdp.analysis.zcdp` and its
first derivative vanish at α = 1, so no chord over a box [1, b] can prove g ≥ 0 there.  A second
derivative can.  For one ordered pair, let f(α) = log S(α) with S(α) = Σ_v P'(v) ρ_v^α.  Then
f(1) = 0 (no view is possible under x alone: D_∞ is finite), f′(1) = KL(P ‖ P′), and f″(ξ) is the
variance of the privacy loss ℓ_v = log ρ_v under the tilted distribution π_ξ(v) ∝ P′(v) ρ_v^ξ.
Taylor's theorem with the Lagrange remainder gives, for α in [1, b],

.. math::  f(\alpha) \le \mathrm{KL}\,(\alpha - 1) + \tfrac{C}{2}(\alpha - 1)^2,
           \qquad C \ge \sup_{\xi \in [1, b]} \operatorname{Var}_{\pi_\xi}(\ell),

so f(α) ≤ ρα(α − 1) = ρ(α − 1) + ρ(α − 1)² on [1, b] whenever KL ≤ ρ and C ≤ 2ρ.  The variance is
bounded by E_{π_ξ}[(ℓ − c)²] for any constant c (the mean minimises it), enclosed in Arb with ξ a
ball on each of :data:`PIECES` pieces of [1, b]: a sum of balls over a ratio of balls, an upper
bound that is sound whatever c is.  KL ≤ ρ is decided exactly (KL is exact, from
:func:`exactdp.analysis.renyi.renyi` at α = 1; ρ equal to it is recognised by exact symbolic
subtraction) or by disjoint enclosures.

This only applies when the adversary has no choice to make (a noninteractive mechanism, or an
interaction whose queries are fixed): with choices, φ is a maximum over adversaries and its
curvature is not bounded by one pair's views.  Otherwise, or when the bound does not hold, the
box [1, b] is left to the chords (and the claim may stay undecided, as before).

References
----------
M. Bun, T. Steinke, *Concentrated Differential Privacy*, TCC 2016, Def. 1.1.
T. Steinke, *Sharp RDP & zCDP from pure DP*, 2024 (RR_ε is exactly ε·tanh(ε/2)-zCDP).
I. Mironov, *Rényi Differential Privacy*, CSF 2017, Def. 3.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..model.game import Ask, Mechanism, postorder
from ..numbers import ladder
from ..numbers.certified import ball_bounds
from ..numbers.symball import constant_bounds
from ..numbers.symbolic import is_sym, is_symbolic, to_sympy
from .renyi import renyi
from .renyi_certified import RenyiPolicy, arb_prec, attained_views, bounds, to_arb

__all__ = ["PIECES", "MAX_VIEWS", "near_one_holds"]

PIECES = 64
"""Pieces of [1, b] on which the variance is enclosed (narrow balls keep the enclosure tight)."""

MAX_VIEWS = 4096
"""Views per ordered pair beyond which the bound is not tried (the chords still run)."""

_PREC = 128


def near_one_holds(mech: Mechanism, rho: Any, rho_lo: Fraction, b: Fraction) -> bool:
    """Whether D_α ≤ ρα for every α in (1, b] follows from KL ≤ ρ and the curvature bound
    (module docstring).  False means "not shown", never "fails"."""
    if is_symbolic(rho) or _has_choices(mech):
        return False
    if not _kl_at_most(mech, rho):
        return False
    policy = RenyiPolicy({})
    for pair in mech.ordered_pairs:
        views = attained_views(mech, pair, policy)
        if views is None or len(views) > MAX_VIEWS:
            return False
        if _variance_bound(views, b) > 2 * rho_lo:
            return False
    return True


def _has_choices(mech: Mechanism) -> bool:
    return any(isinstance(n, Ask) and len(n.children) > 1 for n in postorder(mech.root))


def _kl_at_most(mech: Mechanism, rho: Any) -> bool:
    """D_1(M) ≤ ρ: exactly when the difference simplifies to 0 or is rational, else by enclosures."""
    d1 = renyi(mech, 1).value
    if ladder.is_inf(d1):
        return False
    if not is_sym(rho):
        return ladder.cmp(d1, rho) <= 0
    if (rho - to_sympy(d1)).expand() == 0:
        return True
    return ball_bounds(ladder.ball(d1, _PREC))[1] <= constant_bounds(rho, _PREC)[0]


def _variance_bound(views: list[tuple[Any, Any]], b: Fraction) -> Fraction:
    """A rational C ≥ sup over ξ in [1, b] of Var_{π_ξ}(ℓ) for the views (P_x, P_x') of one pair."""
    with arb_prec(_PREC) as flint:
        terms = [(to_arb(pxp, _PREC), to_arb(px / pxp, _PREC).log()) for px, pxp in views if px]
        worst = Fraction(0)
        step = (b - 1) / PIECES
        for k in range(PIECES):
            lo, hi = 1 + k * step, 1 + (k + 1) * step
            xi = _exact(flint, lo).union(_exact(flint, hi))  # a ball holding all of [lo, hi]
            c = _mean_at(flint, terms, _exact(flint, (lo + hi) / 2))
            s, s2 = flint.arb(0), flint.arb(0)
            for w0, lg in terms:
                w = w0 * (xi * lg).exp()
                s += w
                s2 += w * (lg - c) ** 2
            s_lo = bounds(s)[0]
            if s_lo <= 0:
                return Fraction(1 << 64)  # (cannot happen for positive weights; then "not shown")
            worst = max(worst, bounds(s2)[1] / s_lo)
        return worst


def _exact(flint: Any, q: Fraction) -> Any:
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


def _mean_at(flint: Any, terms: list[tuple[Any, Any]], xi: Any) -> Any:
    """E_{π_ξ}[ℓ] at one point ξ, rounded to its midpoint: any constant c is sound in
    Var ≤ E[(ℓ − c)²], the mean only makes the bound tight."""
    s, s1 = flint.arb(0), flint.arb(0)
    for w0, lg in terms:
        w = w0 * (xi * lg).exp()
        s += w
        s1 += w * lg
    return (s1 / s).mid()
