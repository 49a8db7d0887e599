"""The interface every domain of the ladder implements, and the refusals they share."""

from __future__ import annotations

from typing import Any

from ...errors import InexactValueError
from ..certified import ball_decimal
from ..element import NotInDomain
from ..rational import q_short, q_str, to_fraction

__all__ = ["Domain", "NoOperation", "no_exact", "sympy_module", "sym_rational"]


def no_exact(what: str) -> InexactValueError:
    return InexactValueError(f"{what} has no exact representation in exactdp's number types")


class NoOperation(InexactValueError):
    """A domain without the operation asked for (the ladder then words the refusal itself)."""


def sympy_module() -> Any:
    import sympy  # heavy: imported only when a value meets a symbol

    return sympy


def sym_rational(x: Any) -> Any:
    f = to_fraction(x)
    return sympy_module().Rational(f.numerator, f.denominator)


class Domain:
    """A rung of the ladder (see the module docstring).

    ``hold(x, source)`` converts a value of the domain ``source`` into an element of this one;
    ``add``, ``mul``, ``cmp`` take elements and return values (of the canonical kind);
    ``neg``, ``inv``, ``sign``, ``text``, ``latex``, ``decimal``, ``bits``, ``ball``, ``log``,
    ``exp``, ``power`` and ``to_sympy`` take values of this domain's own kinds."""

    name = ""
    title = ""

    def __repr__(self) -> str:
        return self.name

    # --- holding ------------------------------------------------------------------------------

    def hold(self, x: Any, source: Domain) -> Any:
        if source is self:
            return x
        raise NotInDomain

    # --- arithmetic on elements -----------------------------------------------------------------

    def add(self, a: Any, b: Any) -> Any:
        raise NoOperation(f"{self.name} has no sums")

    def mul(self, a: Any, b: Any) -> Any:
        raise NoOperation(f"{self.name} has no products")

    def cmp(self, a: Any, b: Any) -> int:
        raise NoOperation(f"{self.name} has no comparisons")

    # --- one value of the domain's kinds --------------------------------------------------------

    def neg(self, x: Any) -> Any:
        raise no_exact(f"-({self.text(x)})")

    def inv(self, x: Any) -> Any:
        raise no_exact(f"1/({self.text(x)})")

    def sign(self, x: Any) -> int:
        raise NotImplementedError

    def text(self, x: Any) -> str:
        raise NotImplementedError

    def decimal(self, x: Any, digits: int) -> str:
        return ball_decimal(lambda prec: self.ball(x, prec), digits)

    def bits(self, x: Any) -> int:
        raise NotImplementedError

    def ball(self, x: Any, prec: int) -> Any:
        """An Arb ball containing x at ``prec`` bits."""
        raise NotImplementedError

    def log(self, x: Any) -> Any:
        raise no_exact(f"log({self.text(x)})")

    def exp(self, x: Any) -> Any:
        raise no_exact(f"exp({self.text(x)})")

    def power(self, x: Any, e: Any) -> Any:
        raise no_exact(f"({self.text(x)})^({q_str(e)})")

    def to_sympy(self, x: Any) -> Any:
        raise InexactValueError(f"{q_short(self.text(x), 40)} cannot take part in a symbolic expression")


# --- ℚ ---------------------------------------------------------------------------------------
