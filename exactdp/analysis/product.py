r"""The privacy profile of ``repeat(M, k)`` for an M without adversary choices, as a product.

Without choices, the k-fold composition's views are k independent views of M, so its privacy loss
distribution is the k-fold product of M's (Dong, Roth & Su 2022, Thm 3.2 for trade-off
functions; Koskela, Jälkö & Honkela 2020 for the privacy loss distribution).  M's chain for an
ordered pair lists its views grouped by likelihood ratio: edges (r, w) with P_x'-mass w and
P_x-mass r w, and ``top``, the P_x-mass of the views impossible under x'.  A view of the product
has ratio Π r_a^{n_a} for the counts n_a of M's edges it is made of, and P_x'-mass
multinomial(k; n) Π w_a^{n_a}; it is impossible under x' when one of its k parts is.

With m edges of positive ratio there are C(k + m − 1, m − 1) count vectors: for m ≤ 2 (randomized
response and every mechanism with two outputs) k + 1 of them, where the backward induction over
the k layers walks about k²/2 (layer, ratio) states.  With more edges the induction is used: it
merges equal ratios layer by layer, which a list of count vectors cannot.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..limits import check_bits
from ..model.flat import ASK_KIND, flat_of
from ..model.game import Mechanism
from ..numbers.rational import Q
from .induction import Chain, _bits, _tick, pair_chains

__all__ = ["repeated_parts", "product_chain", "power", "terms"]

_ONE = Q(1)


def repeated_parts(mech: Mechanism) -> tuple[Mechanism, int] | None:
    """(M, k) when ``mech`` was built as ``repeat(M, k)`` and M has no adversary choice, else None."""
    parts = mech.__dict__.get("_repeat")
    if parts is None:
        return None
    inner, times = parts
    return None if ASK_KIND in flat_of(inner).kind else (inner, times)


def product_chain(inner: Mechanism, i: int, j: int, times: int, deadline: float | None = None) -> Chain | None:
    """The chain of ``repeat(inner, times)`` for the ordered pair (i, j) from inner's, or None
    when inner has more than two edges of positive ratio (the induction is then no slower)."""
    top, R, W = pair_chains(flat_of(inner), i, j)[-1]  # type: ignore[misc]
    zero = W[-1] if R and not R[-1] else Q(0)  # P_x'-mass of the views impossible under x
    edges = [(r, w) for r, w in zip(R, W) if r]
    if len(edges) > 2:
        return None
    ratios, widths = _counts(edges, times, deadline)
    flat = _ONE - power(_ONE - zero, times, deadline) if zero else 0
    if flat:
        ratios.append(Q(0))
        widths.append(flat)
    return (_ONE - power(_ONE - top, times, deadline) if top else top, ratios, widths)


def _counts(edges: list, k: int, deadline: float | None) -> tuple[list, list]:
    """Ratios (decreasing) and P_x'-masses of the product's views made only of ``edges`` (at most
    two, ratios decreasing): n parts of the first and k − n of the second, n = k, ..., 0."""
    if k == 0:
        return [_ONE], [_ONE]
    if len(edges) < 2:
        return ([power(edges[0][0], k, deadline)], [power(edges[0][1], k, deadline)]) if edges else ([], [])
    (r1, w1), (r2, w2) = edges
    return list(terms(r1, r2, k, deadline, binomial=False)), list(terms(w1, w2, k, deadline))


def terms(a1: Any, a2: Any, k: int, deadline: float | None, binomial: bool = True) -> Iterator[Any]:
    """C(k, n) a1^n a2^(k − n) for n = k, k − 1, ..., 0 (without C(k, n) unless ``binomial``), a1 > 0:
    each from the last times a2/a1, so that only one power is held at a time."""
    x, step, c = power(a1, k, deadline), a2 / a1, 1
    for n in range(k, -1, -1):
        yield c * x if binomial else x
        x, c = x * step, c * n // (k - n + 1)
        if not n & 63:
            check_bits(_bits(x), "a probability computed by the profile engine")
            _tick("profile", k - n, k, None, deadline)


def power(x: Any, k: int, deadline: float | None) -> Any:
    """x^k, within --max-bits and the deadline (checked every 64 products, as the induction checks
    its numbers at every answer and the clock every 16,384 nodes)."""
    out = _ONE
    for n in range(1, k + 1):
        out = out * x
        if not n & 63 or n == k:
            check_bits(_bits(out), "a probability computed by the profile engine")
            _tick("profile", n, k, None, deadline)
    return out
