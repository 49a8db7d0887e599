"""Builders: built-in mechanism families and combinators producing :class:`~exactdp.model.Mechanism`."""

from .automaton import automaton, make_automaton
from .combinators import choose, compose, concomp, repeat
from .continual import (
    Continual,
    MenuItem,
    basic_filter,
    bounded_verifier,
    budgeted,
    budgeted_parallel,
    concurrent,
    continual,
    fixed_params,
    fpc_parallel,
    make_verifier,
    mixed_budgeted,
    sparse_parallel,
)
from .rr import rr, rr_delta
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
