r"""The piecewise privacy profile as formulas: δ(e^ε) = A − B·e^ε between breakpoints.

On a cell, a chain with slopes r₁ > r₂ > … gives, for λ = e^ε ≥ 1,

.. math::  \delta(\lambda) = A_k - \lambda B_k \quad\text{for } r_{k+1} \le \lambda \le r_k,

with A_k = top + Σ_{i ≤ k} r_i w_i and B_k = Σ_{i ≤ k} w_i (Kairouz–Oh–Viswanath's privacy
region read as a support function).  :func:`segments` lists these pieces for the breakpoints
above 1, proved so on the cell; :class:`ProfileView` is what a piecewise profile shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cells import Ctx
from .engine import PProfile
from .hull import INF, PHull, sorted_edges
from .ratfun import RatFun, Ring, extend, factored_latex, factored_text

__all__ = ["Segment", "segments", "ProfileView", "profile_view", "affine_text", "affine_latex", "LAMBDA"]

LAMBDA = "_lam"  # the name of e^eps in formulas (not a possible symbol name: symbols cannot start with _)


@dataclass(frozen=True)
class Segment:
    """δ(λ) = A − λ·B for ``lo`` ≤ λ ≤ ``hi`` (``hi`` is :data:`INF` for the last one)."""

    lo: RatFun
    hi: RatFun | Any
    A: RatFun
    B: RatFun


def segments(h: PHull, ctx: Ctx) -> tuple[Segment, ...]:
    """The pieces of δ(λ) for λ ≥ 1 on the cell, by increasing λ."""
    ring = ctx.ring
    bends = [(r, w) for r, w in sorted_edges(h, ctx) if ctx.cmp(r, ring.one) > 0]
    out = []
    a, b = h.top, ring.zero
    hi: Any = INF
    for r, w in bends:
        out.append(Segment(r, hi, a, b))
        a = a + r * w
        b = b + w
        hi = r
    out.append(Segment(ring.one, hi, a, b))
    return tuple(reversed(out))


@dataclass(frozen=True)
class ProfileView:
    """A profile on a cell with the segments of the envelope and of each ordered pair."""

    profile: PProfile
    envelope: tuple[Segment, ...]
    pairs: tuple[tuple[tuple[str, str], tuple[Segment, ...]], ...]

    def key(self) -> tuple:
        return (self.envelope, self.pairs)

    def __str__(self) -> str:
        """The envelope: ``delta = A - B*e^eps for lo <= e^eps <= hi``, segment after segment."""
        parts = []
        for s in self.envelope:
            rng = (
                f"e^eps >= {factored_text(s.lo)}"
                if s.hi is INF
                else f"{factored_text(s.lo)} <= e^eps <= {factored_text(s.hi)}"
            )
            parts.append(f"delta = {affine_text(s.A, s.B)} for {rng}")
        return "; ".join(parts)


def profile_view(p: PProfile, ctx: Ctx) -> ProfileView:
    return ProfileView(p, segments(p.envelope(ctx), ctx), tuple((names, segments(h, ctx)) for names, h in p.pairs))


def _lam_ring(ring: Ring) -> Ring:
    return Ring(ring.names + (LAMBDA,))


def _affine(A: RatFun, B: RatFun) -> RatFun:
    r2 = _lam_ring(A.ring)
    return extend(A, r2) - r2.gen(LAMBDA) * extend(B, r2)


def affine_text(A: RatFun, B: RatFun, lam: str = "e^eps") -> str:
    """A − λ·B as one factored rational function in the symbols and ``lam``."""
    if B.is_zero():
        return factored_text(A)
    return factored_text(_affine(A, B)).replace(LAMBDA, lam)


def affine_latex(A: RatFun, B: RatFun, names: list[str], lam: str = r"e^{\varepsilon}") -> str:
    """The LaTeX of :func:`affine_text` (``names``: the symbols, escaped for LaTeX)."""
    if B.is_zero():
        return factored_latex(A, names)
    return factored_latex(_affine(A, B), names + [lam])
