"""+∞, the top of the ladder: a privacy loss no finite ε reaches (Vadhan–Wang 2021, Def. 1.7).

:data:`INF` stands alone: it is above every exact value and every finite float, equal to
``math.inf``, and takes no part in arithmetic (the ladder refuses ``inf + 1``); e^∞ and ln ∞
are ∞.
"""

from __future__ import annotations

import math
from typing import Any

from .element import Element, _is_exact_operand

__all__ = ["Infinity", "INF"]


class Infinity(Element):
    """+∞ (the singleton :data:`INF`)."""

    __slots__ = ()
    _instance: Infinity | None = None

    def __new__(cls) -> Infinity:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, float) and other == math.inf)

    def __hash__(self) -> int:
        return hash(math.inf)  # equal to math.inf, so hashed like it

    def __bool__(self) -> bool:
        return True

    def __float__(self) -> float:
        return math.inf

    def _order(self, other: object) -> Any:
        """Above everything but itself and ``math.inf``; NaN is unordered."""
        if other is self:
            return 0
        if isinstance(other, float):
            return None if math.isnan(other) else (0 if other == math.inf else 1)
        if _is_exact_operand(other):
            return 1
        return NotImplemented

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (Infinity, ())


INF = Infinity()
