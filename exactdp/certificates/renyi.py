r"""Certificates for ``renyi`` claims of integer order α ≥ 2 and α = ∞.

D_α(M) = log(r*)/(α − 1), where r* is the largest, over ordered adjacent pairs, of the sup over
deterministic adversaries of Σ_v P(v)^α P'(v)^(1−α) (Mironov 2017, Def. 3; views contain the
adversary's coins, so deterministic adversaries suffice); D_∞(M) = log of the largest likelihood
ratio of a view.  Both sups are one backward induction over the game (a max at a choice, a sum
or a max over answers), which the checker recomputes from the game itself: the certificate is
the explicit game and the claim, with the claimed value written as X = Σ c_i·log(b_i), so that
D_α ≤ X reads r* ≤ Π b_i^((α−1)·c_i), an exact comparison of rationals after raising both
sides to a common denominator of the exponents.

No certificate: α = 1 (the KL divergence is a linear form in logarithms with the views'
probabilities as coefficients; comparing those exactly needs certified logarithms), and values
X with a rational part (e^X is then transcendental).
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm
from typing import Any

from ..analysis.renyi import RenyiResult
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.loglinear import as_log_linear
from .base import NoCertificate, Source, exact_lambda, num
from .build import _body, _game

__all__ = ["renyi_certificate"]

MAX_ORDER = 10_000  # the largest alpha the checker accepts
MAX_BITS = 4_000_000  # the largest number the checker builds (checker.MAX_BITS)


def renyi_certificate(
    src: Source, of: Any, alpha: Any, relation: str, target: Any, holds: bool, res: RenyiResult
) -> dict:
    """``renyi: {alpha: a, equals|at_most|exceeds: X}`` as the checker states it; ``holds`` is
    exactdp's verdict and ``res`` its value, whose sum the checker recomputes."""
    if not is_inf(alpha) and int(alpha) < 2:
        raise NoCertificate(
            "the KL divergence (alpha = 1) has no certificate form yet: comparing it needs certified logarithms"
        )
    if not is_inf(alpha) and int(alpha) > MAX_ORDER:
        raise NoCertificate(f"orders above {MAX_ORDER} have no certificate: the checker bounds the powers it computes")
    g, _ = _game(src, of)
    bound = _bound(target)
    _fits_the_checker(_sum_of(res), 1 if is_inf(alpha) else int(alpha) - 1, bound)
    claim = {
        "kind": "renyi",
        "of": g.name,
        "alpha": "inf" if is_inf(alpha) else str(int(alpha)),
        "relation": relation,
        "bound": bound,
    }
    return _body(claim, holds, [g], {}, "recomputed by the checker from the game")


def _sum_of(res: RenyiResult) -> Any:
    """r with D_α = log(r)/(α − 1): the worst pair's sum, or for α = ∞ the largest likelihood
    ratio e^(D_∞) (D_∞ = PrivLoss(M, 0) = log r)."""
    worst = res.worst_pair()
    return worst.total if worst is not None else exact_lambda(res.value)


def _fits_the_checker(total: Any, k: int, bound: Any) -> None:
    """The checker compares r^d with prod b^(k c d), d the common denominator of the k c, and
    refuses numbers of more than MAX_BITS bits: say "no certificate" rather than write one it
    would refuse."""
    if is_inf(total) or bound == "inf":
        return
    exps = [(Fraction(b), k * Fraction(c)) for b, c in bound]
    d = lcm(*(e.denominator for _, e in exps))
    size_r = ladder.bits(total) * d
    size_x = sum(max(b.numerator.bit_length(), b.denominator.bit_length()) * abs(e * d) for b, e in exps)
    if max(size_r, size_x) > MAX_BITS:
        raise NoCertificate(
            f"comparing the Renyi sum with the value exactly needs numbers of about {max(size_r, size_x)} bits, more than the checker computes ({MAX_BITS})"
        )


def _bound(target: Any) -> Any:
    """X as "inf" or its terms [[b, c], ...] for X = Σ c·log(b)."""
    if is_inf(target):
        return "inf"
    ll = as_log_linear(target)
    if ll is None or ll.s != 0:
        raise NoCertificate(
            f"the value {target} has a rational part, so e^X is transcendental; no certificate form yet"
        )
    return [[num(b), num(c)] for b, c in ll.terms]
