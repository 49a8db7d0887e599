"""Composition theorems evaluated exactly (rational e^εᵢ, or ℚ(e^{1/L}) for decimal εᵢ).

Plain functions over a list of :class:`~exactdp.theorems.params.Component` (build it with
:func:`components`): basic and improved basic composition, Vadhan–Wang Theorem 1.8/4.1 with the
best ordering, the optimal composition of Kairouz–Oh–Viswanath / Murtagh–Vadhan (exact, from
the privacy-loss distribution), and the closed forms with logarithms (advanced composition,
KOV Theorem 3.4) as certified intervals compared against the exact optimum.  Every theorem
is registered once in :mod:`exactdp.theorems.registry`, which the command line, the
``composition`` claim and the plots read.
"""

from .advanced import IntervalBound, advanced, check_against_optimum, kov_3_4
from .basic import Bound, basic, improved_basic, smith_order, thm_1_8, thm_1_8_bruteforce, thm_1_8_delta
from .optimal import OptimalResult, delta_at, optimal, optimal_bruteforce, optimal_lambda, optimal_profile, pld
from .params import Component, components, exp_eps
from .registry import THEOREMS as REGISTRY
from .registry import Guarantee, Theorem, evaluate, guarantee, register, theorem
from .registry import names as theorem_names

THEOREMS = theorem_names(command=True)  # what `exactdp compose --theorem` evaluates

__all__ = [
    "THEOREMS",
    "REGISTRY",
    "Theorem",
    "Guarantee",
    "register",
    "theorem",
    "theorem_names",
    "guarantee",
    "evaluate",
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
