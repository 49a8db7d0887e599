r"""The reference engine: the profile engine and the Rényi induction as they were before the
flat-storage hot loops (:mod:`exactdp.analysis.induction`), kept unchanged and callable.

Tests compare every fast path with these functions exactly, on random games and on every case
file, and ``make bench`` reports each speed-up as a ratio against them, measured in the same
run.  They walk the game's node objects (:func:`~exactdp.model.game.postorder`), memoise on
``node.uid`` and use :func:`~exactdp.analysis.hull.combine` and
:func:`~exactdp.analysis.hull.upper`; nothing here is used to answer a claim.

References
----------
Vadhan & Wang, Concurrent Composition of Differential Privacy (TCC 2021), Def. 1.7, Lemma 2.2;
Mironov, Rényi Differential Privacy (CSF 2017), Def. 3.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .. import limits
from ..errors import TimeLimitExceeded
from ..model.game import Ask, Chance, End, Mechanism, Node, postorder
from ..numbers import ladder
from .hull import LEAF, Hull, combine, swap, upper
from .renyi import renyi_sums_generic
from .results import PairProfile, Profile

__all__ = ["reference_profile", "reference_pair_hull", "reference_privloss", "reference_renyi_sums"]

Progress = Callable[[str, int, int], None]


def _induction(
    order: list[Node],
    i: int,
    j: int,
    *,
    keep: bool = False,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> tuple[Hull, dict[int, Hull]]:
    """Chains of every node for the ordered pair (i, j); frees children's chains once their
    last parent is done unless ``keep``."""
    remaining: dict[int, int] = {}
    if not keep:
        for node in order:
            for c in node.children_nodes():
                remaining[c.uid] = remaining.get(c.uid, 0) + 1
    memo: dict[int, Hull] = {}
    total = len(order)
    max_bits = limits.current().max_bits
    for n, node in enumerate(order):
        if isinstance(node, Chance):
            h = combine([(row[i], row[j], memo[c.uid]) for row, c in zip(node.probs, node.children)])
            _check_sizes(h, max_bits)
        elif isinstance(node, Ask):
            h = upper([memo[c.uid] for c in node.children])
        elif isinstance(node, End):
            h = LEAF
        else:  # pragma: no cover
            raise TypeError(node)
        memo[node.uid] = h
        if not keep:
            for c in node.children_nodes():
                left = remaining[c.uid] - 1
                if left:
                    remaining[c.uid] = left
                else:
                    del remaining[c.uid]
                    memo.pop(c.uid, None)
        if n & 0x3FFF == 0:
            if progress is not None:
                progress("profile", n, total)
            if deadline is not None and time.monotonic() > deadline:
                raise TimeLimitExceeded("the --timeout")
    return memo[order[-1].uid], memo


def _check_sizes(h: Hull, max_bits: int) -> None:
    """Refuse numbers beyond ``max_bits`` as they appear (checked at O(1) cost per node)."""
    if not h.edges:
        return
    (r0, w0), (r1, w1) = h.edges[0], h.edges[-1]
    bits = max(_bits(h.top), _bits(r0), _bits(w0), _bits(r1), _bits(w1))
    if bits > max_bits:
        limits.check_bits(bits, "a probability computed by the profile engine")


def _bits(x: Any) -> int:
    try:
        return max(x.numerator.bit_length(), x.denominator.bit_length())
    except AttributeError:  # an element of Q(e^(1/L)), or another exact value
        return ladder.bits(x)


def reference_pair_hull(mech: Mechanism, pair: tuple[int, int], *, keep: bool = False) -> tuple[Hull, dict[int, Hull]]:
    """The chain of one ordered pair (and, with ``keep``, of every node for that pair)."""
    order = postorder(mech.root)
    return _induction(order, pair[0], pair[1], keep=keep)


def reference_profile(mech: Mechanism, *, progress: Progress | None = None, deadline: float | None = None) -> Profile:
    """The exact privacy profile of every ordered adjacent pair, by the reference induction."""
    order = postorder(mech.root)
    hulls: dict[tuple[int, int], Hull] = {}
    for a, b in mech.unordered_pairs:
        h, _ = _induction(order, a, b, progress=progress, deadline=deadline)
        hulls[(a, b)] = h
        hulls[(b, a)] = swap(h)
    pairs = [PairProfile(mech.pair_names(p), hulls[p]) for p in mech.ordered_pairs]
    return Profile.from_pairs(mech.name, pairs)


def reference_privloss(mech: Mechanism, delta: Any) -> Any:
    """PrivLoss(M, δ) from the reference profile (δ exact)."""
    return reference_profile(mech).privloss(delta)


def reference_renyi_sums(mech: Mechanism, alpha: int) -> list[Any]:
    """The per-pair Rényi sums (α ≥ 2) or KL values (α = 1) by the generic induction over node
    objects (:func:`exactdp.analysis.renyi.renyi_sums_generic`)."""
    return renyi_sums_generic(mech, alpha)
