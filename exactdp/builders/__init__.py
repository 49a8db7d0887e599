"""Builders: built-in mechanism families and combinators producing :class:`~exactdp.model.Mechanism`."""

from .combinators import choose, compose, concomp, repeat
from .rr import rr, rr_delta
from .tree import ask, mechanism, respond

__all__ = ["ask", "choose", "compose", "concomp", "mechanism", "repeat", "respond", "rr", "rr_delta"]
