r"""Certificates for ``zcdp`` and ``not_zcdp`` claims with a rational ρ (Bun & Steinke 2016,
Def. 1.1: D_α(M) ≤ ρα for every real α > 1).

D_α is nondecreasing in α (van Erven & Harremoës 2014, Thm 3), so finitely many orders
1 < a₀ < … < a_N with D_{a₀} ≤ ρ, D_{a_{i+1}} ≤ ρ·a_i and D_∞ ≤ ρ·a_N cover every α > 1; the
checker recomputes each of these comparisons (exactly at whole orders and ∞, by bounds at
fractions).  The orders are found here from certified enclosures of D_α: a₀ = 1 + 2^-j, each next
order the largest of a_i·(1 + 2^-j) (on a grid of 1/64) whose D is below ρ·a_i.  Where D_α/α
comes close to ρ (near α → 1 when sup D_α/α is the KL divergence, as for randomized response)
no finite cover exists and the claim gets no certificate, with that reason.  A failure is one
order where D_α > ρα.
"""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Any

from ..analysis.renyi_real import certified_renyi, rational_probabilities
from ..numbers.certified import arb_rational, ball_bounds
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, is_rational, to_fraction
from .base import NoCertificate, Source
from .build import _body, _game

__all__ = ["zcdp_certificate"]

GRID = 64  # the orders' denominators: the checker's cost grows with them (v-th roots at alpha = 1 + u/v)
MAX_ORDERS = 100
MAX_ORDER = 10_000  # the largest order the checker takes


def zcdp_certificate(src: Source, of: Any, rho: Any, negated: bool, is_zcdp: bool, alpha: Any) -> dict:
    """``zcdp`` / ``not_zcdp: {rho: r}``: the game and the orders covering α > 1 (M is ρ-zCDP), or
    ``alpha``, an order where D_α > ρα (it is not); ``is_zcdp`` is exactdp's decision."""
    if not is_rational(rho):
        raise NoCertificate(
            "rho is not rational (it is written with log or exp): the checker compares D_alpha with rational multiples of alpha"
        )
    mech, r = src.mech(of), to_fraction(rho)
    if not rational_probabilities(mech):
        raise NoCertificate(
            "zCDP certificates need rational probabilities (the checker bounds D_alpha at fraction orders over Q only)"
        )
    g, prof = _game(src, of)
    if is_zcdp:
        proof = {"orders": [Q(a) for a in _orders(mech, r, prof.least_lambda(Q(0)))]}
    else:
        a = Fraction(2) if alpha is None else to_fraction(alpha)  # (None: D_alpha = inf at every order)
        if a.denominator > MAX_ORDER or a > MAX_ORDER:
            raise NoCertificate(
                f"the refuting order {a} is beyond what the checker takes (denominator and size 10,000)"
            )
        proof = {"alpha": Q(a)}
    claim = {"kind": "not_zcdp" if negated else "zcdp", "of": g.name, "rho": Q(r)}
    return _body(claim, is_zcdp != negated, [g], proof, "orders covering alpha > 1" if is_zcdp else f"D at {alpha}")


def _upper(mech: Any, a: Fraction) -> Fraction | None:
    """A certified upper bound on D_a(M) (∞ as None)."""
    v = certified_renyi(mech, a).value
    return None if is_inf(v) else v.hi


def _orders(mech: Any, rho: Fraction, lam: Any) -> list[Fraction]:
    """1 < a_0 < ... < a_N as in the module docstring, for e^(D_inf) = ``lam``."""
    if is_inf(lam):
        raise NoCertificate("D_inf is infinite: no finite set of orders covers every alpha")  # pragma: no cover
    d_inf = ball_bounds(arb_rational(lam, 128).log())[1]  # an upper bound on D_inf = log(lam)
    first = [1 + Fraction(1, 2**j) for j in range(1, 7)]
    a = next((x for x in first if (u := _upper(mech, x)) is not None and u < rho), None)
    if a is None:
        raise NoCertificate(
            "D_alpha/alpha comes too close to rho near alpha = 1 (sup D_alpha/alpha is the KL divergence here, as "
            "for randomized response): no finite set of orders covers alpha > 1"
        )
    orders = [a]
    while d_inf >= rho * orders[-1]:
        a = orders[-1]
        steps = (Fraction(floor(min(a * (1 + Fraction(1, 2**j)), Fraction(MAX_ORDER)) * GRID), GRID) for j in range(7))
        nxt = next((b for b in steps if b > a and (u := _upper(mech, b)) is not None and u < rho * a), None)
        if nxt is None or len(orders) >= MAX_ORDERS:
            raise NoCertificate(
                f"D_alpha/alpha comes too close to rho beyond alpha = {a}: the checker would need more than "
                f"{MAX_ORDERS} orders, or finer ones"
            )
        orders.append(nxt)
    return orders
