"""Tightness witnesses for PrivLoss: an adversary showing that no smaller ε works."""

from __future__ import annotations

from typing import Any

from ..numbers.rational import Q, as_q
from ..numbers.real import Infinity
from .results import Profile

__all__ = ["tight_lambda"]


def tight_lambda(prof: Profile, delta: Any) -> Any:
    """A λ_w < λ* = e^{PrivLoss(M, δ)} on the last linear piece before λ*.

    On (r, λ*) — r the previous breakpoint, or 1 — one adversary/event is optimal, and it
    attains exactly δ at λ*; so a witness at λ_w shows that every ε < PrivLoss fails.
    Returns None when PrivLoss = 0 (nothing smaller to refute).  For PrivLoss = ∞ it returns a
    λ beyond every breakpoint, where the mass invisible under x' alone exceeds δ.
    """
    lam_star = prof.least_lambda(as_q(delta))
    bps = prof.envelope.breakpoints(at_least=Q(1))
    if isinstance(lam_star, Infinity):
        return (max(bps) if bps else Q(1)) + 1
    if lam_star == 1:
        return None
    below = [r for r in bps if r < lam_star] + [Q(1)]
    return (max(below) + lam_star) / 2
