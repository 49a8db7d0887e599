r"""Basic composition (Σεᵢ, Σδᵢ), its improved form (Σεᵢ, 1 − Π(1 − δᵢ)), and Theorem 1.8/4.1.

All three give (ε_g, δ_g) with ε_g = Σεᵢ, exactly.

* Basic composition (Dwork–Kenthapadi–McSherry–Mironov–Naor 2006; Vadhan–Wang Thm 1.2):
  δ_g = Σδᵢ — for noninteractive (or sequentially composed) mechanisms, and by Vadhan–Wang
  Thm 3.3 for the concurrent composition of *pure* interactive mechanisms (δᵢ = 0).
* Improved basic composition (Henzinger–Safavi–Vadhan, continual mechanisms, Remark 5.12):
  δ_g = 1 − Π(1 − δᵢ), which is exact and tight for ⊗RR_(εᵢ,δᵢ).
* Vadhan–Wang Theorem 1.8 / 4.1 (concurrent composition of approximate interactive DP):
  δ_g = min over orderings σ of Σᵢ e^{ε_σ(0) + … + ε_σ(i−1)} δ_σ(i).

The minimising order is found by an exchange argument (Smith's rule): swapping two adjacent
components i, j changes only their two terms, prefix·(δᵢ + e^{εᵢ}δⱼ) against
prefix·(δⱼ + e^{εⱼ}δᵢ), so i should precede j iff δᵢ(e^{εⱼ} − 1) ≥ δⱼ(e^{εᵢ} − 1), i.e. iff
δᵢ/(e^{εᵢ} − 1) ≥ δⱼ/(e^{εⱼ} − 1) (components with εᵢ = 0 first).  Any order that is not sorted
by this key has an adjacent inversion whose swap does not increase δ_g, so the sorted order
is optimal; :func:`thm_1_8_bruteforce` checks it against all k! orders in the tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

from ..numbers import ladder
from ..numbers.rational import Q
from .params import Component

__all__ = ["Bound", "basic", "improved_basic", "thm_1_8", "thm_1_8_delta", "thm_1_8_bruteforce", "smith_order"]


@dataclass(frozen=True)
class Bound:
    """A composition theorem's guarantee (ε_g, δ_g), exact; ``order`` for Theorem 1.8."""

    theorem: str
    eps: Any
    delta: Any
    source: str
    order: tuple[int, ...] | None = None


def _sum_eps(comps: Sequence[Component]) -> Any:
    total: Any = Q(0)
    for c in comps:
        total = ladder.add(total, c.eps)
    return total


def basic(comps: Sequence[Component]) -> Bound:
    """Basic composition: (Σεᵢ, Σδᵢ).

    References
    ----------
    Vadhan & Wang (TCC 2021), Thm 1.2 (noninteractive) and Thm 3.3 (concurrent, pure).
    """
    return Bound(
        "basic",
        _sum_eps(comps),
        sum((c.delta for c in comps), Q(0)),
        "Vadhan-Wang Thm 1.2; Thm 3.3 for pure concurrent",
    )


def improved_basic(comps: Sequence[Component]) -> Bound:
    """Improved basic composition: (Σεᵢ, 1 − Π(1 − δᵢ)).

    References
    ----------
    Henzinger, Safavi & Vadhan, Concurrent Composition for DP Continual Mechanisms, Remark 5.12.
    """
    keep = Q(1)
    for c in comps:
        keep *= 1 - c.delta
    return Bound("improved-basic", _sum_eps(comps), 1 - keep, "Henzinger-Safavi-Vadhan Remark 5.12")


def thm_1_8_delta(comps: Sequence[Component], order: Sequence[int]) -> Any:
    """δ_g = Σᵢ e^{Σ_{j<i} ε_σ(j)} δ_σ(i) for the order σ (Vadhan–Wang Thm 4.1), exactly."""
    total: Any = Q(0)
    prefix: Any = Q(1)
    for i in order:
        c = comps[i]
        total = total + prefix * c.delta
        prefix = prefix * c.E
    return total


def _smith_cmp(a: Component, b: Component) -> int:
    """a before b iff δa/(Ea − 1) ≥ δb/(Eb − 1), a component with ε = 0 counting as ∞ (first; its
    term is δ times the smallest prefix).  Cross-multiplying is exact only when both Ea − 1 and
    Eb − 1 are positive: with ε = δ = 0 on one side it says "equal" to everything, which is no
    order, and the sort could put a component with δ > 0 after large factors e^ε."""
    za, zb = ladder.cmp(a.E, 1) == 0, ladder.cmp(b.E, 1) == 0
    if za or zb:
        return int(zb) - int(za)
    return -ladder.cmp(a.delta * (b.E - 1), b.delta * (a.E - 1))


def smith_order(comps: Sequence[Component]) -> tuple[int, ...]:
    """Indices sorted by δᵢ/(e^{εᵢ} − 1), largest first (the exchange argument above)."""
    idx = list(range(len(comps)))

    def cmp(i: int, j: int) -> int:
        return _smith_cmp(comps[i], comps[j])

    key = cmp_to_key(cmp)
    return tuple(sorted(idx, key=key))


def thm_1_8(comps: Sequence[Component]) -> Bound:
    """Vadhan–Wang Theorem 1.8 / 4.1 with δ_g minimised over orderings (exactly).

    Returns
    -------
    Bound
        ε_g = Σεᵢ, δ_g the minimum over all k! orderings, and the minimising order.

    References
    ----------
    Vadhan & Wang (TCC 2021), Thm 1.8 and its restatement Thm 4.1.
    """
    order = smith_order(comps)
    return Bound("thm-1.8", _sum_eps(comps), thm_1_8_delta(comps, order), "Vadhan-Wang Thm 1.8 / 4.1", order)


def thm_1_8_bruteforce(comps: Sequence[Component]) -> tuple[Any, tuple[int, ...]]:
    """min over all k! orderings of the Theorem 4.1 δ_g, by enumeration (reference, k ≤ 8)."""
    best, best_order = None, None
    for perm in itertools.permutations(range(len(comps))):
        d = thm_1_8_delta(comps, perm)
        if best is None or ladder.cmp(d, best) < 0:
            best, best_order = d, perm
    assert best_order is not None
    return best, best_order
