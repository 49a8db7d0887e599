"""The arithmetic of constructions that mix probabilities: exact rationals, or SymPy rational
functions of declared symbols.

Posterior-belief constructions (:func:`~exactdp.builders.composition.postprocess`, the
automata of :mod:`~exactdp.builders.automaton`) only add, multiply and divide probabilities and
test whether a weight is zero, so one construction serves both: :data:`NUMERIC` works in ``Q``,
:data:`SYMBOLIC` in SymPy throughout with every value cancelled (a gmpy2 rational mixed into a
SymPy expression would become a float), where *zero* means identically zero.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..numbers.rational import Q
from ..numbers.symbolic import is_sym, is_symbolic, substitute, sympy, to_sympy

__all__ = ["ProbField", "NUMERIC", "SYMBOLIC", "field_of"]


class ProbField:
    """Exact rationals (``symbolic=False``) or rational functions of the symbols."""

    def __init__(self, symbolic: bool):
        self.symbolic = symbolic

    @property
    def zero(self) -> Any:
        return sympy.Integer(0) if self.symbolic else Q(0)

    @property
    def one(self) -> Any:
        return sympy.Integer(1) if self.symbolic else Q(1)

    def lift(self, x: Any) -> Any:
        """A probability of the mechanism in this field."""
        return to_sympy(x) if self.symbolic and not is_sym(x) else x

    def norm(self, x: Any) -> Any:
        """A canonical form, so that equal states share one node."""
        return sympy.cancel(x) if self.symbolic else x

    def emit(self, x: Any) -> Any:
        """A probability of the built game: a constant as an exact rational (flat storage holds
        numbers), a rational function of the symbols as it is."""
        return substitute(x, {}) if self.symbolic and not x.free_symbols else x

    def is_zero(self, x: Any) -> bool:
        """Identically zero (a rational function that vanishes at some values only is not)."""
        return (sympy.cancel(x) == 0) if self.symbolic else x == 0

    def nonzero(self, x: Any) -> bool:
        """Not (identically) zero; for numbers, Python truth."""
        return (sympy.cancel(x) != 0) if self.symbolic else bool(x)

    def key(self, x: Any) -> Any:
        """A sort key (SymPy expressions have no order: their canonical sort key)."""
        return sympy.default_sort_key(x) if self.symbolic else x

    def total(self, xs: Iterable[Any]) -> Any:
        """The sum, in canonical form."""
        return self.norm(sum((self.lift(x) for x in xs), self.zero))


NUMERIC, SYMBOLIC = ProbField(False), ProbField(True)


def field_of(probs: Iterable[Any]) -> ProbField:
    """:data:`SYMBOLIC` when some probability depends on a symbol, else :data:`NUMERIC`."""
    return SYMBOLIC if any(is_symbolic(p) for p in probs) else NUMERIC
