r"""Upper-bound certificates: one concave chain per node and ordered pair.

For an ordered pair (x, x') the profile engine's backward induction gives every node v the
exact chain of δ_v(λ) = sup_A Σ_w (P_x(w) − λ P_x'(w))_+ (:mod:`exactdp.analysis.hull`).  Its
vertices (b, a) = (P_x'(T), P_x(T)) describe U_v(λ) = max (a − λ b), and these functions
satisfy the local inequalities the checker verifies (at the end U ≥ (1 − λ)_+, at a choice
U ≥ U_child, at an answer distribution U(λ) ≥ Σ_a p_a U_a(λ p'_a / p_a), answers impossible
under x' adding p_a) — with equality at answers, since the chains are exact.  Each ordered pair
is computed directly (no use of the swap symmetry), so the checker's acceptance of one order
does not rest on the other.

References
----------
Vadhan & Wang (TCC 2021), Def. 1.7 and Lemma 2.2; Kairouz, Oh & Viswanath (2015), privacy
regions.
"""

from __future__ import annotations

from typing import Any

from ..analysis.hull import Hull
from .base import num
from .game import ExportedGame

__all__ = ["chain_vertices", "upper_bounds"]


def chain_vertices(h: Hull) -> list[list[str]]:
    """The chain's vertices [b, a] with b = P_x'(T) strictly increasing (from (0, top))."""
    b: Any = 0
    a: Any = h.top
    out = [[num(b), num(a)]]
    edges: Any = h.edges
    for r, w in edges:
        b += w
        a += r * w
        out.append([num(b), num(a)])
    return out


def upper_bounds(g: ExportedGame) -> list[dict]:
    """One ``upper`` proof entry per ordered adjacent pair of the game: every node's chain."""
    mech = g.mech
    out = []
    for pair in mech.ordered_pairs:
        memo = g.chains(pair)
        chains = [chain_vertices(memo[node.uid]) for node in g.order]
        out.append({"game": g.name, "pair": list(mech.pair_names(pair)), "chains": chains})
    return out
