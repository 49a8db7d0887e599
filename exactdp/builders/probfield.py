"""The arithmetic of constructions that mix probabilities: exact rationals, or rational
functions of declared symbols.

Posterior-belief constructions (:func:`~exactdp.builders.composition.postprocess`, the
automata of :mod:`~exactdp.builders.automaton`, the hidden threshold of
:mod:`~exactdp.builders.svt`) only add, multiply and divide probabilities and test whether a
weight is zero, so one construction serves both: :data:`NUMERIC` works in ``Q``; a symbolic
field works in SymPy's field of rational functions ℚ(symbols) (``sympy.field``: every element
kept reduced, so equal values are equal objects and *zero* means identically zero), and gives
the built game SymPy expressions (:meth:`ProbField.emit`).  Nothing is ever a float: a gmpy2
rational mixed into a SymPy *expression* would become one, which is why values are lifted into
the field before they meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..numbers.qt import qt_sum
from ..numbers.rational import Q
from ..numbers.symbolic import is_sym, is_symbolic, substitute, sympy, to_sympy

__all__ = ["ProbField", "NUMERIC", "field_of", "symbolic_field"]


class ProbField:
    """Exact rationals (no ``gens``) or rational functions of the SymPy symbols ``gens``."""

    def __init__(self, gens: Sequence[Any] = ()):
        self.gens = tuple(gens)
        self.symbolic = bool(self.gens)
        self.K: Any = sympy.field(list(self.gens), sympy.QQ)[0] if self.symbolic else None

    @property
    def zero(self) -> Any:
        return self.K.zero if self.symbolic else Q(0)

    @property
    def one(self) -> Any:
        return self.K.one if self.symbolic else Q(1)

    def lift(self, x: Any) -> Any:
        """A probability of the mechanism (a number or a SymPy expression) in this field."""
        if not self.symbolic or getattr(x, "field", None) is self.K:
            return x
        if hasattr(x, "field"):  # an element of another field of rational functions
            x = x.as_expr()
        return self.K.from_expr(x if is_sym(x) else to_sympy(x))

    def norm(self, x: Any) -> Any:
        """A canonical form (field elements are kept reduced already)."""
        return x

    def emit(self, x: Any) -> Any:
        """A probability of the built game: an exact rational when constant (flat storage holds
        numbers), else a SymPy expression in the symbols."""
        if not self.symbolic:
            return x
        e = self.lift(x).as_expr()
        return substitute(e, {}) if not e.free_symbols else e

    def is_zero(self, x: Any) -> bool:
        """Identically zero (a rational function that vanishes at some values only is not)."""
        return self.lift(x) == 0 if self.symbolic else x == 0

    def nonzero(self, x: Any) -> bool:
        """Not (identically) zero; for numbers, Python truth."""
        return not self.is_zero(x) if self.symbolic else bool(x)

    def key(self, x: Any) -> Any:
        """A sort key (rational functions have no order: their canonical SymPy sort key)."""
        return sympy.default_sort_key(self.lift(x).as_expr()) if self.symbolic else x

    def total(self, xs: Iterable[Any]) -> Any:
        """The sum (of numbers: over common denominators, reduced once, :func:`~exactdp.numbers.qt.qt_sum`)."""
        return sum((self.lift(x) for x in xs), self.zero) if self.symbolic else qt_sum(xs)


NUMERIC = ProbField()


def symbolic_field(symbols: Iterable[Any]) -> ProbField:
    """The rational functions of ``symbols`` (SymPy symbols), in a canonical order."""
    return ProbField(sorted(set(symbols), key=lambda s: s.name))


def field_of(probs: Iterable[Any]) -> ProbField:
    """The rational functions of every symbol in ``probs``, or :data:`NUMERIC` when no
    probability depends on a symbol."""
    names: set = set()
    for p in probs:
        if is_symbolic(p):
            names |= p.free_symbols
    return symbolic_field(names) if names else NUMERIC
