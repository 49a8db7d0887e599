r"""Certificates for ``renyi`` claims (every order: α = 1, the KL divergence; whole α ≥ 2; α = ∞).

The checker recomputes the value from the game — D_α(M) = log(r*)/(α − 1) with r* the largest,
over ordered adjacent pairs, of the sup over deterministic adversaries of Σ_v P(v)^α P'(v)^(1−α)
(Mironov 2017, Def. 3; views contain the adversary's coins), D_∞ the log of the largest
likelihood ratio, D_1 the sup of Σ_v P(v) log(P(v)/P'(v)) — so the certificate is the explicit
game and the claim, with the claimed value X = s + Σ c_i·log(b_i) written as terms ``[b, c]``
(and ``["e", s]`` for the rational part).  The checker compares exactly: a sum of logarithms of
multiplicatively independent integers is 0 only when every coefficient is, else its sign is
decided from rigorous bounds.
"""

from __future__ import annotations

from typing import Any

from ..analysis.renyi import RenyiResult
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.loglinear import as_log_linear
from ..numbers.rational import Q
from .base import NoCertificate, Source
from .build import _body, _game

__all__ = ["renyi_certificate"]

MAX_ORDER = 10_000  # the largest alpha the checker accepts
MAX_BITS = 1_000_000  # the checker's default --max-bits


def renyi_certificate(
    src: Source, of: Any, alpha: Any, relation: str, target: Any, holds: bool, res: RenyiResult
) -> dict:
    """``renyi: {alpha: a, equals|at_most|exceeds: X}`` as the checker states it; ``holds`` is
    exactdp's verdict, which the checker re-derives from the game."""
    if not is_inf(alpha) and int(alpha) > MAX_ORDER:
        raise NoCertificate(f"orders above {MAX_ORDER} have no certificate: the checker bounds the powers it computes")
    worst = res.worst_pair()
    if worst is not None and not is_inf(worst.total) and ladder.bits(worst.total) * 4 > MAX_BITS:
        raise NoCertificate(
            f"the Renyi sum has about {ladder.bits(worst.total)} bits: more than the checker's --max-bits allows"
        )
    g, _ = _game(src, of)
    if any(not hasattr(p, "numerator") for nd in g.doc["nodes"] for _, row, _ in nd.get("answer", []) for p in row):
        raise NoCertificate("Renyi certificates need rational probabilities (a decimal eps makes them transcendental)")
    claim = {
        "kind": "renyi",
        "of": g.name,
        "alpha": "inf" if is_inf(alpha) else str(int(alpha)),
        "relation": relation,
        "bound": _bound(target),
    }
    return _body(claim, holds, [g], {}, f"D = {res.value}")


def _bound(target: Any) -> Any:
    """X as "inf" or its terms [[b, c], ...] for X = Σ c·log(b) (b = "e" for the rational part)."""
    if is_inf(target):
        return "inf"
    ll = as_log_linear(target)
    if ll is None:
        raise NoCertificate(f"the value {target} is not a rational plus rational multiples of logarithms")
    terms: list = [[Q(b), Q(c)] for b, c in ll.terms]
    return terms + ([["e", Q(ll.s)]] if ll.s != 0 else [])
