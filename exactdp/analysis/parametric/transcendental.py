r"""Signs of G(s) − e^m on a cell: a rational function of one symbol against a transcendental constant.

A bound that mixes a rational with logarithms of the symbol (PrivLoss ≤ log(E) + 1), or a decimal
ε next to a mechanism with symbols (λ = e^{0.7}), makes the engines compare a rational function
G(s) with C = e^m for a rational m ≠ 0.  C is transcendental (Lindemann 1882), so the points
where G = C are in general not algebraic and the cell decomposition cannot cut there.  They are
not needed to decide a claim:

* G is first made **monotone** on the cell: the sign of G′ is asked of the cell, which cuts it at
  the (algebraic) zeros and poles of G′ — an exact cut like any other.
* The image of a cell under a monotone G lies between its limits at the cell's two ends: G at
  an algebraic end (an algebraic number, so ≠ C; or ±∞ at a pole), the ratio of leading
  coefficients (or 0, or ±∞) at an infinite end.  Each limit is compared with C by certified
  interval arithmetic (python-flint's arb balls, the end's isolating interval refined as needed):
  they always differ, so the comparison ends unless the ``max_precision`` limit stops it.
* Both limits on one side of C: G − C has that sign on the whole cell, proved.  On both sides:
  G − C takes **both signs** on the cell (0 is returned), and :func:`exp_witness` finds a
  rational point of the cell with a wanted sign, approaching the end whose limit has it (the
  sign at that rational point is again certified).  No value is ever decided from a float.

* Calibration needs the point itself: a :class:`Crossing` keeps two rational points of the cell
  with opposite certified signs, and :meth:`Crossing.enclose` bisects between them (G is
  monotone there) until both ends round to the same decimal — a :class:`TranscendentalEnd`
  with every digit proved, bounded by the ``max_precision`` limit (one bit per bisection).

G − C never has a double zero: G(s) = C and G′(s) = 0 would make C = G(s) algebraic, s being a
root of G′.

References
----------
Lindemann, *Über die Zahl π*, Math. Ann. 20 (1882) (e^m is transcendental for rational m ≠ 0);
Johansson, *Arb: efficient arbitrary-precision midpoint-radius interval arithmetic*, IEEE Trans.
Computers 66(8), 2017.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ... import limits
from ...lazy import flint
from ...numbers.certified import arb_prec, sign_r_exp_s_minus_q
from .algebraic import Algebraic, _round, sign_of_poly_at
from .cells import Ctx, Side, Undecided, _univariate
from .ratfun import RatFun

__all__ = [
    "exp_sign",
    "exp_sign_at",
    "exp_witness",
    "Crossing",
    "TranscendentalEnd",
    "crossing_of",
    "exact_text",
    "significant_digits",
]

_Q = flint.fmpq
_STEPS = 400
"""Rational points tried on the way to a cell's end by :func:`exp_witness` (each halves the
distance to the end, or doubles the distance from 0 on a tail)."""


def _sign_vs_rational(v: Any, m: Any) -> int:
    """The sign of v − e^m for a rational v (certified; never 0 for m ≠ 0)."""
    return -sign_r_exp_s_minus_q(1, Fraction(int(m.p), int(m.q)), Fraction(int(v.p), int(v.q)))


def exp_sign_at(G: RatFun, m: Any, point: dict[str, Any]) -> int:
    """The sign of G − e^m at a rational point (certified; never 0)."""
    return _sign_vs_rational(G.at(point), m)


def _symbol(G: RatFun, ctx: Ctx) -> int:
    names = G.variables()
    if len(names) > 1:
        raise Undecided(
            f"comparing {G} with a transcendental number involves several symbols ({', '.join(names)}); "
            "only one symbol at a time is decided"
        )
    return ctx.ring.names.index(names[0])


def _derivative(G: RatFun, index: int) -> RatFun:
    n, d = G.num, G.den
    return RatFun.make(G.ring, n.derivative(index) * d - n * d.derivative(index), d * d)


def _coeffs(p: Any, index: int) -> list[Any]:
    """The rational coefficients of a polynomial in one symbol, constant term first."""
    d = p.to_dict()
    out = [_Q(0)] * (max(mono[index] for mono in d) + 1)
    for mono, c in d.items():
        out[mono[index]] = _Q(c)
    return out


def _horner(cs: list[Any], x: Any) -> Any:
    v = flint.arb(0)
    for c in reversed(cs):
        v = v * x + flint.arb(c)
    return v


def _at_algebraic(G: RatFun, index: int, a: Algebraic, m: Any) -> int:
    """The sign of G(a) − e^m at an algebraic a that is no pole of G: a's isolating interval
    and the working precision are refined together until the enclosure excludes 0."""
    if a.q is not None:
        return _sign_vs_rational(G.at({G.ring.names[index]: a.q}), m)
    N, D = _coeffs(G.num, index), _coeffs(G.den, index)
    cap = limits.current().max_precision
    prec = 64
    while True:
        with arb_prec(prec):
            lo, hi = flint.arb(a.lo), flint.arb(a.hi)
            x = (lo + hi) / 2 + flint.arb(0, 1) * ((hi - lo) / 2)  # a ball holding [lo, hi]
            v = _horner(N, x) / _horner(D, x) - flint.arb(_Q(int(m.p), int(m.q))).exp()
            if v > 0:
                return 1
            if v < 0:
                return -1
        if prec >= cap:
            raise limits.precision_limit_error(f"{G} - exp({m}) at a root of {a.poly}")
        prec = min(2 * prec, cap)
        for _ in range(16):
            a.refine()


def _limit_sign(G: RatFun, index: int, end: Algebraic | None, upper: bool, rising: int, m: Any) -> int:
    """The sign of lim G − e^m at one end of a cell on which G is monotone (``rising`` = the sign
    of G′ there): ``end`` is None for an infinite end, ``upper`` says which end it is."""
    toward = rising if upper else -rising  # the sign of G's change on the way to this end
    if end is None:
        N, D = _coeffs(G.num, index), _coeffs(G.den, index)
        if len(N) > len(D):
            return toward  # G tends to ±∞ there
        return _sign_vs_rational(N[-1] / D[-1] if len(N) == len(D) else _Q(0), m)
    if sign_of_poly_at(_univariate(G.den, index), end) == 0:
        return toward  # a pole: G tends to ±∞, the way it moves
    return _at_algebraic(G, index, end, m)


def _ends(side: Side) -> tuple[Algebraic | None, Algebraic | None]:
    return side._ends()


def exp_sign(ctx: Ctx, G: RatFun | Any, m: Any) -> int:
    """The sign of G − e^m on the whole cell (+1 or −1, proved), or 0 when it takes both signs
    there; ``m`` is a rational ≠ 0 (module docstring).  May cut the cell (where G′ changes
    sign), like every question to the cell.

    Raises
    ------
    Undecided
        When G involves several symbols.
    """
    if not isinstance(G, RatFun):
        return _sign_vs_rational(_Q(G), m)
    if G.is_constant():
        return _sign_vs_rational(G.constant(), m)
    index = _symbol(G, ctx)
    side = ctx.cell.sides[index]
    if side.kind == "point":
        assert side.at is not None
        if sign_of_poly_at(_univariate(G.den, index), side.at) == 0:
            raise Undecided(f"{G} has a pole at {ctx.cell.text()}, where it is compared with exp({m})")
        return _at_algebraic(G, index, side.at, m)
    rising = ctx.sign(_derivative(G, index))
    if rising == 0:  # G is constant on the cell
        return _sign_vs_rational(G.at({G.ring.names[index]: side.sample()}), m)
    lo, hi = _ends(side)
    s_lo = _limit_sign(G, index, lo, False, rising, m)
    s_hi = _limit_sign(G, index, hi, True, rising, m)
    return s_lo if s_lo == s_hi else 0


def exp_witness(ctx: Ctx, G: RatFun, m: Any, want: int) -> dict[str, Any]:
    """A rational point of the cell where G − e^m has the sign ``want`` (certified there), for a
    cell where :func:`exp_sign` found both signs (G is monotone on it, so the points with that
    sign lie next to one end: rational points are tried on the way to it).

    Raises
    ------
    Undecided
        When no such point is found in :data:`_STEPS` steps.
    """
    index = _symbol(G, ctx)
    side = ctx.cell.sides[index]
    name = ctx.ring.names[index]
    rising = ctx.sign(_derivative(G, index))
    upper = rising == want  # G rises toward the upper end: the larger values lie there
    t = side.sample()
    lo, hi = _ends(side)
    end = hi if upper else lo
    closed = side.closed_bounds()[1 if upper else 0] if side.kind == "domain" else False
    if closed and end is not None and end.q is not None:
        if _sign_vs_rational(G.at({name: end.q}), m) == want:
            return {name: end.q}
    for _ in range(_STEPS):
        if end is None:
            t = t + (1 if upper else -1) * (abs(t) + 1)
        else:
            if end.q is not None:
                target = end.q
            else:  # the inner end of the isolating interval, refined every step so that t tends to the end
                end.refine()
                target = end.lo if upper else end.hi
                while (target <= t) if upper else (target >= t):
                    end.refine()
                    target = end.lo if upper else end.hi
            t = (t + target) / 2
        if _sign_vs_rational(G.at({name: t}), m) == want:
            return {name: t}
    raise Undecided(f"no rational value of {name} with the wanted sign of {G} - exp({m}) was found in {_STEPS} steps")


# --- where G = e^m inside a cell: a certified enclosure ------------------------------------------


@dataclass(frozen=True)
class Crossing:
    """The one point s* of a cell where G(s*) = e^m, G monotone on the cell: ``below`` and
    ``above`` are rational values of the symbol ``name`` in the cell where G − e^m < 0 and > 0
    (certified), so s* lies strictly between them.  A claim on the cell that holds where
    G − e^m has the sign ``holds`` holds at s* itself iff ``closed`` (its comparison there is an
    equality: ``<=`` includes it, ``<`` does not); ``holds`` 0: an equality, true at s* alone."""

    G: RatFun
    m: Any
    name: str
    below: Any
    above: Any
    holds: int
    closed: bool

    def holds_left(self) -> bool:
        """Whether the claim holds on the part of the cell left of s* (smaller values)."""
        left = -1 if self.below < self.above else 1  # the sign of G − e^m left of s*
        return left == self.holds

    def enclose(self, digits: int = 16) -> TranscendentalEnd:
        """A rational interval [lo, hi] holding s*, bisected until both ends round to the same
        ``digits`` significant digits (so every digit of that decimal is proved).

        Raises
        ------
        LimitExceededError
            When more bisections than the ``max_precision`` limit (in bits) would be needed.
        """
        lo, hi = first = sorted((self.below, self.above))
        s_lo = exp_sign_at(self.G, self.m, {self.name: lo})
        cap = limits.current().max_precision
        for _ in range(cap):
            if _round(lo, digits) == _round(hi, digits):
                text = _round(lo, digits)
                a, b = _rounding_cell(text, digits)  # short decimal ends, when inside the first bracket
                if first[0] <= a and b <= first[1] and exp_sign_at(self.G, self.m, {self.name: a}) == s_lo:
                    if exp_sign_at(self.G, self.m, {self.name: b}) == -s_lo:
                        lo, hi = a, b
                return TranscendentalEnd(self, lo, hi, text, digits)
            mid = (lo + hi) / 2
            if exp_sign_at(self.G, self.m, {self.name: mid}) == s_lo:
                lo = mid
            else:
                hi = mid
        raise limits.precision_limit_error(f"where {self.G} = exp({self.m}) (bisected {cap} times)")

    def equation(self) -> str:
        return f"{self.G} = exp({self.m})"


def crossing_of(ctx: Ctx, G: RatFun, m: Any, holds: int, closed: bool) -> Crossing:
    """The :class:`Crossing` of G and e^m on a cell where :func:`exp_sign` found both signs."""
    below, above = exp_witness(ctx, G, m, -1), exp_witness(ctx, G, m, 1)
    name = ctx.ring.names[_symbol(G, ctx)]
    return Crossing(G, m, name, below[name], above[name], holds, closed)


@dataclass(frozen=True)
class TranscendentalEnd:
    """An end of a calibrated set that is not algebraic: the root of G(s) = e^m inside
    [``lo``, ``hi``] (rationals; G − e^m has opposite certified signs at them and G is monotone
    between), with ``decimal`` its value to ``digits`` significant digits, every one proved."""

    crossing: Crossing
    lo: Any
    hi: Any
    decimal: str
    digits: int
    q: None = None  # never rational (e^m is transcendental for rational m ≠ 0, Lindemann 1882)

    def text(self) -> str:
        return f"{self.decimal}..."

    def bounds(self) -> tuple[str, str]:
        """``lo`` and ``hi`` exactly, as decimals when they terminate (else as fractions)."""
        return exact_text(self.lo), exact_text(self.hi)

    def rounds_to(self, value: Any) -> bool:
        """Whether a rational ``value``, read as the shortest decimal that writes it, is the
        enclosed point rounded to that decimal's number of significant digits (proved: both
        ends of a refined enclosure round to it)."""
        n = significant_digits(value)
        if n is None:
            return False
        e = self if n == self.digits else self.crossing.enclose(n)
        return _strip(e.decimal) == _round(value, n, strip=True)


def _strip(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def exact_text(q: Any) -> str:
    """A rational exactly: its terminating decimal, or p/q."""
    n = significant_digits(q)
    return str(q) if n is None else _round(q, n, strip=True)


def _rounding_cell(text: str, digits: int) -> tuple[Any, Any]:
    """The rationals D ∓ half a unit in the last place of the decimal ``text`` (``digits``
    significant digits): every value between them rounds (half-up) to ``text``."""
    neg = text.startswith("-")
    body = text.lstrip("-")
    intpart, _, frac = body.partition(".")
    value = _Q(int(intpart + frac), 10 ** len(frac)) * (-1 if neg else 1)
    ulp = _Q(1, 10 ** len(frac)) if frac else _Q(10) ** max(0, len(intpart) - digits)
    return value - ulp / 2, value + ulp / 2


def significant_digits(q: Any) -> int | None:
    """The number of significant digits of the shortest decimal equal to the rational q ≠ 0
    (None when q is 0 or not a terminating decimal)."""
    num, den = abs(int(q.p)), int(q.q)
    if num == 0:
        return None
    twos = fives = 0
    rest = den
    while rest % 2 == 0:
        rest, twos = rest // 2, twos + 1
    while rest % 5 == 0:
        rest, fives = rest // 5, fives + 1
    if rest != 1:
        return None
    k = max(twos, fives)  # q·10^k is the integer of q's digits
    return len(str(num * 10**k // den).rstrip("0"))
