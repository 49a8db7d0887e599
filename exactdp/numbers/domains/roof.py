"""The top of the ladder: values of different rungs compared by certified intervals, +∞, and
rational functions of declared symbols."""

from __future__ import annotations

from typing import Any

from ...errors import InexactValueError
from ..certified import arb_rational, ball_decimal, certified_sign
from ..element import NotInDomain, SymbolicValueError
from ..infinity import INF
from ..rational import Q, q_short
from .base import Domain, NoOperation, sym_rational, sympy_module

__all__ = ["Reals", "Infinite", "Symbolic", "RR", "OO", "SYM"]


class Reals(Domain):
    """Exact reals of different rungs met together (log(3) against e^{1/10}): no exact
    arithmetic, comparison by certified intervals.  Elements are pairs (domain, value)."""

    name, title = "RR", "ℝ (certified intervals)"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is OO or source is SYM:
            raise NotInDomain
        return (source, x)

    def cmp(self, a: Any, b: Any) -> int:
        (da, xa), (db, xb) = a, b
        return certified_sign(
            lambda prec: da.ball(xa, prec) - db.ball(xb, prec),
            lambda: f"{q_short(da.text(xa), 30)} - ({q_short(db.text(xb), 30)})",
        )

    def text(self, x: Any) -> str:  # pragma: no cover - RR holds no value of its own
        return x[0].text(x[1])


class Infinite(Domain):
    """+∞ (:data:`~exactdp.numbers.infinity.INF`): above every value, in no arithmetic."""

    name, title = "OO", "{+∞}"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is SYM:
            raise NotInDomain
        return x

    def cmp(self, a: Any, b: Any) -> int:
        if a is not INF and b is not INF:  # two finite values meet here only through RR
            raise NoOperation("OO compares inf only")
        return (a is INF) - (b is INF)

    def add(self, a: Any, b: Any) -> Any:
        if a is not INF and b is not INF:
            raise NoOperation("OO holds inf only")
        raise InexactValueError("inf can only stand alone as a privacy-loss value, not in arithmetic")

    mul = add

    def neg(self, x: Any) -> Any:
        return self.add(x, x)  # (refused: inf takes no part in arithmetic)

    inv = neg

    def sign(self, x: Any) -> int:
        return 1

    def text(self, x: Any) -> str:
        return "inf"

    def decimal(self, x: Any, digits: int) -> str:
        return "inf"

    def bits(self, x: Any) -> int:
        return 0

    def log(self, x: Any) -> Any:
        return INF  # ln ∞ = ∞: a privacy loss from λ* = ∞

    def exp(self, x: Any) -> Any:
        return INF

    def to_sympy(self, x: Any) -> Any:
        raise InexactValueError("inf cannot take part in a symbolic expression")


class Symbolic(Domain):
    """Rational functions of declared symbols (SymPy), allowed only where a case declares
    ``symbols:``; their signs are proved there from the symbols' bounds, never here."""

    name, title = "SYM", "ℚ(symbols) (SymPy)"

    def hold(self, x: Any, source: Domain) -> Any:
        if source is self:
            return x
        try:
            return source.to_sympy(x)
        except InexactValueError:
            raise NotInDomain from None

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def cmp(self, a: Any, b: Any) -> int:
        return self.sign(a - b)

    def neg(self, x: Any) -> Any:
        return -x

    def inv(self, x: Any) -> Any:
        if x == 0:
            raise InexactValueError("division by zero")
        return 1 / x

    def sign(self, x: Any) -> int:
        v = sympy_module().cancel(x) if x.free_symbols else x
        if v.is_Rational:
            return (v > 0) - (v < 0)
        names = ", ".join(sorted(str(s) for s in x.free_symbols)) or str(x)
        raise SymbolicValueError(
            f"{q_short(str(x), 40)} depends on {names}: its sign is proved from the symbols' bounds only where "
            "symbols are allowed (mechanism probabilities, rr's eps and delta, simulates_rr claims)"
        )

    def text(self, x: Any) -> str:
        return str(x)

    def decimal(self, x: Any, digits: int) -> str:
        self.sign(x)  # refuses a value that depends on symbols
        return ball_decimal(lambda prec: arb_rational(Q(int(x.p), int(x.q)), prec), digits)

    def bits(self, x: Any) -> int:
        sympy = sympy_module()
        return max((max(abs(int(a.p)).bit_length(), int(a.q).bit_length()) for a in x.atoms(sympy.Rational)), default=0)

    def log(self, x: Any) -> Any:
        return sympy_module().log(x)

    def exp(self, x: Any) -> Any:
        return sympy_module().exp(x)

    def power(self, x: Any, e: Any) -> Any:
        return x ** sym_rational(e)

    def to_sympy(self, x: Any) -> Any:
        return x


RR = Reals()
OO = Infinite()
SYM = Symbolic()
