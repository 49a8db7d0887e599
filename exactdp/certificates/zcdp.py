r"""Certificates for ``zcdp`` and ``not_zcdp`` claims with a rational ρ (Bun & Steinke 2016,
Def. 1.1: D_α(M) ≤ ρα for every real α > 1).

K(α) = (α − 1)·D_α is convex in α with K(1) = 0 (Hölder's inequality; van Erven & Harremoës
2014 state it as the concavity of (1 − α)·D_α), and D_α is nondecreasing (their Thm 3).  So orders 1 < a₀ < … < a_N with upper bounds k_i ≥ K(a_i) cover
every α > 1 when on each [a_{i−1}, a_i] (a_{−1} = 1, k_{−1} = 0) the chord through the k's lies
below ρα(α − 1), and D_∞ ≤ ρ·a_N; the checker recomputes each bound (exactly at whole orders and
∞, by bounds elsewhere) and tests each chord exactly.  The orders are found here from certified
enclosures of D_α: from each order the longest step (halved down to 1/GRID) whose chord passes.
Where D_α/α comes close to ρ as α → 1 (sup D_α/α is the KL divergence, as for randomized
response) no finite cover exists and the claim gets no certificate, with that reason.  A failure
is one order where D_α > ρα.
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil, floor
from typing import Any

from ..analysis.renyi_real import certified_renyi, rational_probabilities
from ..numbers import ladder
from ..numbers.certified import arb_prec, ball_bounds
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, is_rational, to_fraction
from .base import NoCertificate, Source
from .build import _body, _game

__all__ = ["zcdp_certificate"]

GRID = 2**20  # the orders' least step, and their denominators (the most the checker takes)
MAX_ORDERS = 400
MAX_ORDER = 10_000  # the largest order the checker takes
SLACK = 2**32  # each bound k_i is exactdp's certified upper bound rounded up to a multiple of 1/SLACK


def zcdp_certificate(src: Source, of: Any, rho: Any, negated: bool, is_zcdp: bool, alpha: Any) -> dict:
    """``zcdp`` / ``not_zcdp: {rho: r}``: the game and the orders with their bounds covering α > 1
    (M is ρ-zCDP), or ``alpha``, an order where D_α > ρα (it is not); ``is_zcdp`` is exactdp's
    decision."""
    if not is_rational(rho):
        raise NoCertificate(
            "rho is not rational (it is written with log or exp): the checker compares D_alpha with rational multiples of alpha"
        )
    mech, r = src.mech(of), to_fraction(rho)
    g, prof = _game(src, of)
    if is_zcdp:
        orders, bounds = _cover(mech, r, prof.least_lambda(Q(0)))
        proof = {"orders": [Q(a) for a in orders], "bounds": [Q(k) for k in bounds]}
    else:
        a = Fraction(2) if alpha is None else to_fraction(alpha)  # (None: D_alpha = inf at every order)
        if a.denominator > GRID or a > MAX_ORDER:
            raise NoCertificate(
                f"the refuting order {a} is beyond what the checker takes (size 10,000, denominator 2^20)"
            )
        proof = {"alpha": Q(a)}
    claim = {"kind": "not_zcdp" if negated else "zcdp", "of": g.name, "rho": Q(r)}
    return _body(claim, is_zcdp != negated, [g], proof, "orders covering alpha > 1" if is_zcdp else f"D at {alpha}")


def below(a: Fraction, ka: Fraction, b: Fraction, kb: Fraction, rho: Fraction) -> bool:
    """The test the checker applies to each chord (the builder keeps to its layer and does not
    import the checker): ρx(x − 1) − k_a − s(x − a) ≥ 0 on [a, b], s the chord's slope, a convex
    quadratic least at x = (ρ + s)/(2ρ) or at the nearer end."""
    s = (kb - ka) / (b - a)
    x = min(max((rho + s) / (2 * rho), a), b)
    return rho * x * (x - 1) - ka - s * (x - a) >= 0


def _bound(mech: Any, a: Fraction) -> Fraction | None:
    """A short rational k ≥ (a − 1)·D_a(M) above exactdp's certified upper bound (∞: None)."""
    v = certified_renyi(mech, a).value
    return None if is_inf(v) else Fraction(ceil(v.hi * (a - 1) * SLACK) + 1, SLACK)


def _cover(mech: Any, rho: Fraction, lam: Any) -> tuple[list[Fraction], list[Fraction]]:
    """The orders a_0 < ... < a_N and bounds k_i of the module docstring, for e^(D_inf) = ``lam``."""
    if is_inf(lam):
        raise NoCertificate("D_inf is infinite: no finite set of orders covers every alpha")  # pragma: no cover
    with arb_prec(128):  # an upper bound on D_inf = log(lam)
        d_inf = ball_bounds(ladder.ball(lam, 128).log())[1]
    whole_ok = rational_probabilities(mech)  # (over Q(e^(1/L)) whole orders raise polynomials to powers)
    orders, bounds, a, ka, h = list[Fraction](), list[Fraction](), Fraction(1), Fraction(0), Fraction(1, 2)
    while not orders or d_inf >= rho * orders[-1]:
        while True:
            b = Fraction(floor(min(a + h, Fraction(MAX_ORDER)) * GRID), GRID)
            b -= Fraction(1, GRID) if b.denominator == 1 and not whole_ok else 0
            if b > a and (kb := _bound(mech, b)) is not None and below(a, ka, b, kb, rho):
                break
            if h * GRID <= 1 or b <= a:
                where = "near alpha = 1 (sup D_alpha/alpha is the KL divergence here, as for randomized response)"
                where = where if a == 1 else f"beyond alpha = {a}"
                raise NoCertificate(
                    f"D_alpha/alpha comes too close to rho {where}: no finite set of orders covers alpha > 1"
                )
            h /= 2
        orders, bounds, a, ka, h = orders + [b], bounds + [kb], b, kb, 2 * h
        if len(orders) >= MAX_ORDERS:
            raise NoCertificate(
                f"D_alpha/alpha comes too close to rho beyond alpha = {a}: the checker would need more than "
                f"{MAX_ORDERS} orders"
            )
    return orders, bounds
