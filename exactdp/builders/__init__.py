"""Builders: built-in mechanism families and combinators producing :class:`~exactdp.model.Mechanism`."""

from .classic import (
    discrete_laplace,
    finite_noise,
    geometric_noise,
    krr,
    report_noisy_max,
    truncated_geometric,
)
from .combinators import choose, compose, concomp, repeat
from .exponential import exponential, grr, grr_menu, nonadaptive
from .rr import rr, rr_delta
from .svt import SVT, lyu_variant, sparse_vector
from .tree import ask, mechanism, respond

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
    # classic finite-support mechanisms
    "krr",
    "truncated_geometric",
    "report_noisy_max",
    "finite_noise",
    "geometric_noise",
    "discrete_laplace",
    # the sparse vector technique
    "SVT",
    "sparse_vector",
    "lyu_variant",
]
