"""Builders: built-in mechanism families and combinators producing :class:`~exactdp.model.Mechanism`."""

from .automaton import automaton, make_automaton
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
from .discrete import bounded_discrete_laplace, discrete_gaussian
from .exponential import exponential, grr, grr_menu, nonadaptive, permute_and_flip
from .rr import rr, rr_delta
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
