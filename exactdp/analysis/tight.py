"""Tightness witnesses for PrivLoss: an adversary showing that no smaller ε works."""

from __future__ import annotations

from typing import Any

from ..numbers import ladder
from ..numbers.certified import ball_bounds
from ..numbers.ladder import QQ, is_inf
from ..numbers.rational import Q, as_q
from ..numbers.types import FieldValue, Lambda, Rational
from .results import Profile

__all__ = ["tight_lambda"]


def tight_lambda(prof: Profile, delta: Any) -> Any | None:
    """A rational λ_w < λ* = e^{PrivLoss(M, δ)} on the last linear piece before λ*.

    On (r, λ*) — r the previous breakpoint, or 1 — one adversary/event is optimal, and it
    attains exactly δ at λ*; so a witness at λ_w shows that every ε < PrivLoss fails.
    Returns None when PrivLoss = 0 (nothing smaller to refute).  For PrivLoss = ∞ it returns a
    λ beyond every breakpoint, where the mass invisible under x' alone exceeds δ.  (δ may be an
    element of ℚ(e^{1/L}); λ* then is one too, and λ_w is a rational below it.)
    """
    lam_star = prof.least_lambda(delta)
    bps = prof.envelope.breakpoints(at_least=Q(1))
    if is_inf(lam_star):
        return (max(bps) if bps else Q(1)) + 1
    if ladder.cmp(lam_star, 1) == 0:
        return None
    below = max([r for r in bps if ladder.cmp(r, lam_star) < 0] + [Q(1)])
    return (below + _rational_below(lam_star, below)) / 2


def _rational_below(x: Lambda, lo: FieldValue) -> Rational:
    """A rational in (lo, x] for x > lo: x itself if rational, else the lower end of a
    certified enclosure of x fine enough to lie above lo (only *chooses* a point: the witness
    found there is re-checked exactly)."""
    if ladder.domain_of(x) is QQ:
        return as_q(x)
    prec = 64
    while True:
        a = _lower(x, prec)
        if a > lo:
            return a
        prec *= 2


def _lower(x: Lambda, prec: int) -> Rational:
    """The lower end of a certified enclosure of x, as an exact rational (a binary fraction)."""
    return as_q(ball_bounds(ladder.ball(x, prec))[0])
