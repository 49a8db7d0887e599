"""Composition theorems evaluated exactly (rational e^εᵢ, or ℚ(e^{1/L}) for decimal εᵢ).

Plain functions over a list of :class:`~exactdp.theorems.params.Component` (build it with
:func:`components`): basic and improved basic composition, Vadhan–Wang Theorem 1.8/4.1 with the
best ordering, the optimal composition of Kairouz–Oh–Viswanath / Murtagh–Vadhan (exact, from
the privacy-loss distribution), and the closed forms with logarithms (advanced composition,
KOV Theorem 3.4) as certified intervals compared against the exact optimum.
"""

from .advanced import IntervalBound, advanced, check_against_optimum, kov_3_4
from .basic import Bound, basic, improved_basic, smith_order, thm_1_8, thm_1_8_bruteforce, thm_1_8_delta
from .named import COMPOSITION_BOUNDS, CONVERSIONS, NAMED, NamedTheorem, compare_bound, theorem
from .optimal import OptimalResult, delta_at, optimal, optimal_bruteforce, optimal_lambda, optimal_profile, pld
from .params import Component, components, exp_eps

THEOREMS = ("basic", "improved-basic", "thm-1.8", "optimal") + COMPOSITION_BOUNDS

__all__ = [
    "THEOREMS",
    "NAMED",
    "NamedTheorem",
    "COMPOSITION_BOUNDS",
    "CONVERSIONS",
    "compare_bound",
    "theorem",
    "Bound",
    "Component",
    "IntervalBound",
    "OptimalResult",
    "advanced",
    "basic",
    "check_against_optimum",
    "components",
    "delta_at",
    "exp_eps",
    "improved_basic",
    "kov_3_4",
    "optimal",
    "optimal_bruteforce",
    "optimal_lambda",
    "optimal_profile",
    "pld",
    "smith_order",
    "thm_1_8",
    "thm_1_8_bruteforce",
    "thm_1_8_delta",
]
