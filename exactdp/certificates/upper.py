r"""Upper-bound certificates: one concave chain per node and ordered pair, on a domain of λ.

For an ordered pair (x, x') the profile engine's backward induction gives every node v the
exact chain of δ_v(λ) = sup_A Σ_w (P_x(w) − λ P_x'(w))_+ (:mod:`exactdp.analysis.hull`).  Its
vertices (b, a) = (P_x'(T), P_x(T)) describe U_v(λ) = max (a − λ b), and these functions
satisfy the local inequalities the checker verifies (at the end U ≥ (1 − λ)_+, at a choice
U ≥ U_child, at an answer distribution U(λ) ≥ Σ_a p_a U_a(λ p'_a / p_a), answers impossible
under x' adding p_a) — with equality at answers, since the chains are exact.  Each ordered pair
is computed directly (no use of the swap symmetry).

A claim at one e^ε needs the root's bound at λ = e^ε only; a node is then evaluated only at λ
times the likelihood ratios of the histories that reach it.  So each node gets a *domain*
[lo, hi] — the smallest interval containing what its parents evaluate it on (a choice passes its
domain on, an answer with probabilities (p, p') scales it by p'/p) — and its chain keeps only the
vertices active there.  The checker verifies the inequalities on the domains and that every
child's domain contains what its parents need.  For a tree and one λ every domain is a point and
every chain one or two vertices; profile claims use the root domain [1, ∞).

References
----------
Vadhan & Wang (TCC 2021), Def. 1.7 and Lemma 2.2; Kairouz, Oh & Viswanath (2015), privacy
regions.
"""

from __future__ import annotations

from typing import Any

from ..analysis.hull import Hull
from ..model.game import Ask, Chance
from ..numbers import INF
from ..numbers.ladder import is_inf
from .base import lam_text, num
from .game import ExportedGame

__all__ = ["chain_vertices", "domains", "upper_bounds"]


def chain_vertices(h: Hull, lo: Any = 0, hi: Any = INF) -> list[list[str]]:
    """The chain's vertices [b, a] (b = P_x'(T) increasing, from (0, top)) that are active
    somewhere on [lo, hi]: vertex k is the maximiser where exactly k edges have slope > λ."""
    first = 0 if is_inf(hi) else sum(1 for r, _ in h.edges if r > hi)
    last = sum(1 for r, _ in h.edges if r > lo)
    b: Any = 0
    a: Any = h.top
    out = [[num(b), num(a)]] if first == 0 else []
    edges: Any = h.edges
    for k, (r, w) in enumerate(edges, 1):
        if k > last:
            break
        b += w
        a += r * w
        if k >= first:
            out.append([num(b), num(a)])
    return out


def domains(g: ExportedGame, pair: tuple[int, int], root: tuple) -> dict:
    """uid → [lo, hi]: where each node's bound is needed when the root's is needed on ``root``."""
    i, j = pair
    dom: dict = {g.mech.root.uid: root}

    def need(child, lo, hi) -> None:
        old = dom.get(child.uid)
        if old is not None:
            lo = min(lo, old[0])
            hi = INF if is_inf(hi) or is_inf(old[1]) else max(hi, old[1])
        dom[child.uid] = (lo, hi)

    for node in reversed(g.order):  # parents first
        d = dom.get(node.uid)
        if d is None:
            continue
        if isinstance(node, Ask):
            for c in node.children:
                need(c, *d)
        elif isinstance(node, Chance):
            for row, c in zip(node.probs, node.children):
                if row[i] and row[j]:
                    q = row[j] / row[i]
                    need(c, d[0] * q, d[1] if is_inf(d[1]) else d[1] * q)
    return dom


def upper_bounds(g: ExportedGame, root: tuple = (0, INF)) -> list[dict]:
    """One ``upper`` proof entry per ordered adjacent pair of the game: every node's chain on its
    domain, for a root bound needed on ``root`` = (lo, hi) (hi may be INF)."""
    mech = g.mech
    out = []
    for pair in mech.ordered_pairs:
        memo = g.chains(pair)
        dom = domains(g, pair, root)
        chains, doms = [], []
        for node in g.order:
            d = dom.get(node.uid)
            chains.append(None if d is None else chain_vertices(memo[node.uid], *d))
            doms.append(None if d is None else [num(d[0]), lam_text(d[1])])
        out.append({"game": g.name, "pair": list(mech.pair_names(pair)), "domains": doms, "chains": chains})
    return out
