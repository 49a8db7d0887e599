"""Builders: built-in mechanism families and combinators producing :class:`~exactdp.model.Mechanism`."""

from typing import TYPE_CHECKING

from ..lazy import attach

# imported now: each exports a function of its own module's name (``rr``, ``automaton``, ...),
# which a deferred import of the module would shadow
from .automaton import automaton, make_automaton
from .continual import (
    Continual,
    MenuItem,
    basic_filter,
    budgeted,
    budgeted_parallel,
    concurrent,
    continual,
    fixed_params,
    fpc_parallel,
    mixed_budgeted,
    sparse_parallel,
)
from .exponential import exponential, grr, grr_menu, nonadaptive, permute_and_flip
from .rr import rr, rr_delta

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from .classic import (
        discrete_laplace,
        finite_noise,
        gaussian_noise,
        geometric_noise,
        krr,
        report_noisy_max,
        truncated_geometric,
    )
    from .combinators import choose, compose, concomp, repeat
    from .discrete import bounded_discrete_laplace, discrete_gaussian
    from .svt import SVT, lyu_variant, sparse_vector
    from .tree import ask, mechanism, respond
    from .verifier import bounded_verifier, make_verifier

__all__ = [
    "ask",
    "choose",
    "compose",
    "concomp",
    "mechanism",
    "repeat",
    "respond",
    "rr",
    "rr_delta",
    # exponential and bounded-range mechanisms (Dong-Durfee-Rogers 2020)
    "exponential",
    "grr",
    "grr_menu",
    "nonadaptive",
    "permute_and_flip",
    "bounded_discrete_laplace",
    "discrete_gaussian",
    # classic finite-support mechanisms
    "krr",
    "truncated_geometric",
    "report_noisy_max",
    "finite_noise",
    "geometric_noise",
    "discrete_laplace",
    "gaussian_noise",
    # the sparse vector technique
    "SVT",
    "sparse_vector",
    "lyu_variant",
    # state machines and continual mechanisms (Henzinger-Safavi-Vadhan, arXiv 2411.03299)
    "automaton",
    "make_automaton",
    "Continual",
    "MenuItem",
    "make_verifier",
    "bounded_verifier",
    "continual",
    "concurrent",
    "fixed_params",
    "sparse_parallel",
    "fpc_parallel",
    "budgeted_parallel",
    "budgeted",
    "mixed_budgeted",
    "basic_filter",
]

__getattr__, __dir__ = attach(__name__, __file__)
