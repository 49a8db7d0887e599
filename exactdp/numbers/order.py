"""Exact comparisons of exactdp's number types with ints, Fractions, mpq's and floats.

A float is an exact dyadic rational (``0.1`` is 3602879701896397/2^55, not 1/10), so a value
such as ``log(3)`` compared with a float is compared with that rational, exactly (certified
for transcendental values); it is never rounded to a float first.  NaN is unordered (every
comparison with it is false), and ±∞ compare as the infinities they are.  ``float(x)`` is for
display only.
"""

from __future__ import annotations

import math
from typing import Any

from .rational import Q

__all__ = ["ExactOrder", "float_operand"]

_UNORDERED = None


def float_operand(x: float) -> Any:
    """The exact rational value of a finite float; ``math.inf``/``-math.inf`` as they are;
    ``None`` for NaN."""
    if math.isnan(x):
        return _UNORDERED
    if math.isinf(x):
        return x
    n, d = x.as_integer_ratio()
    return Q(n, d)


class ExactOrder:
    """Mixin: ``<``, ``<=``, ``>``, ``>=`` decided exactly by :meth:`_cmp_exact`.

    Subclasses implement ``_cmp_exact(other)``, returning −1, 0 or +1 for a rational or an
    exact value of exactdp (``NotImplemented`` for anything else); floats are converted here.
    A finite value is below ``math.inf`` and above ``-math.inf``.
    """

    __slots__ = ()

    def _cmp_exact(self, other: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _order(self, other: object) -> Any:
        if isinstance(other, float):
            v = float_operand(other)
            if v is _UNORDERED:
                return _UNORDERED
            if isinstance(v, float):  # ±inf; exactdp's INF overrides this method
                return -1 if v > 0 else 1
            other = v
        return self._cmp_exact(other)

    def __lt__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c < 0)

    def __le__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c <= 0)

    def __gt__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c > 0)

    def __ge__(self, other: object) -> bool:
        c = self._order(other)
        return c if c is NotImplemented else (c is not None and c >= 0)
