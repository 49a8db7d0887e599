r"""Calibration: the exact set of values of a symbol where a claim holds.

"The least noise that achieves a target guarantee": for a mechanism whose probabilities depend
on a symbol (e^ε = E, a coin's bias p, ...), :func:`calibrate` decides a target claim — any
claim kind the parametric engine decides — on every cell of the symbol's domain
(:mod:`exactdp.claims.parametric`) and returns the union of the intervals where it holds, with
exact endpoints (rationals, or algebraic numbers: a minimal polynomial and an isolating
interval).  For RR_E ⊗ RR_E and the target "(log 2, 1/10)-DP", δ(2) = (E² − 2)/(1 + E)² for
E² > 2, so the target holds exactly for 1 < E ≤ (1 + √190)/9, the root of 9E² − 2E − 21.

Every cell is cross-checked against the numeric engine at a rational point, and at every
endpoint where the verdict changes the change is re-checked: the numeric engine's verdicts at
rational points on both sides, inside the neighbouring cells, differ as the answer says.

The claim kind ``calibrate`` puts a calibrated constant under regression:

.. code-block:: yaml

    - calibrate:
        target: {dp: {eps: log(2), delta: 1/10}}
        holds_for:
          - {gt: 1, le: {root: 9*E^2 - 2*E - 21, in: [1, 2]}}

It holds when the set where the target holds is exactly the union of the listed intervals
(each intersected with the symbol's declared domain).

A target compared with e^q (q rational ≠ 0: a decimal ε, a bound with a rational part) may change
inside a cell, where a monotone rational function G of the symbol meets e^q: a transcendental
point (Lindemann 1882).  The set's end there is a :class:`TranscendentalEnd`, a rational
enclosure with certified signs of G − e^q at both ends, bisected until 16 significant digits are
proved; it is included for a ``≤``-type target (at the point G = e^q, so the compared values are
equal) and excluded for a strict one.  Declared in a case file as a decimal of at least
:data:`MIN_DIGITS` significant digits, it matches when the end rounds to that decimal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cmp_to_key
from typing import Any

from ..analysis.parametric import Algebraic, Decomposition, Interval, Undecided
from ..analysis.parametric.algebraic import _round, compare, rational, root_in
from ..analysis.parametric.cells import Domain
from ..analysis.parametric.piecewise import _end_text as interval_end_text
from ..analysis.parametric.piecewise import endpoint_dict, interval_of
from ..analysis.parametric.polys import simplest_between
from ..analysis.parametric.transcendental import TranscendentalEnd, _rounding_cell, exact_text, significant_digits
from ..errors import ArgumentError, VerificationError
from ..forms.fields import ClaimSpec, Either, FieldProblem, Label, ListOf, Pair, Rational, Record, arg
from ..lazy import flint
from ..numbers.rational import q_str
from ..numbers.symbolic import SymbolTable, expr_str, sympy
from .base import ABOUT_CLAIMS, FAILS, HOLDS, Analysis, Claim, Shows, Verdict, claim
from .parametric import (
    HANDLERS,
    Parametric,
    _cross_check,
    _point_text,
    involves_symbols,
    load_deciders,
    verdict_at,
)
from .parametric_boxcal import by_calibration_boxes, calibrate_by_boxes

__all__ = ["Calibration", "calibrate", "CalibrateClaim", "RootOf", "Range", "set_text"]


@dataclass(frozen=True)
class Calibration:
    """Where ``target`` holds: ``intervals`` of ``symbol`` (ordered, disjoint, maximal) within
    its declared ``domain``; ``cells`` counts the cells decided."""

    target: Claim
    symbol: str
    domain: Domain
    intervals: tuple[Interval, ...]
    cells: int
    boxes: Any = None
    """For a target decided by certified boxes (zCDP, Gaussian DP), what they proved: a
    :class:`~exactdp.claims.parametric_boxcal.BoxSet` (then ``intervals`` are its stretches where
    the target is proved to hold, and the set is known up to its gaps)."""

    def gaps(self) -> tuple:
        """The gaps where nothing is proved (none for a set decided on exact cells)."""
        return () if self.boxes is None else self.boxes.gaps

    def undecided(self) -> str | None:
        """Why the set is not known up to enclosures of its boundaries, or None when it is: a gap
        the boxes left wide (a limit), or a narrow stretch where they prove neither holding nor
        failing (a set decided on exact cells is always known)."""
        if self.boxes is None:
            return None
        if not all(g.narrow for g in self.boxes.gaps):
            return f"the set is not decided everywhere: {self.boxes.reason}"
        sliver = next((g for g in self.boxes.gaps if not g.switch and not g.point), None)
        return None if sliver is None else f"the boxes prove neither holding nor failing on {sliver.text()}"


def set_text(intervals: tuple[Interval, ...] | list[Interval], symbol: str) -> str:
    """``1 < E <= (1 + sqrt(190))/9`` (joined by ``or``), or ``no value of E``; a declared end
    that is a decimal of at least :data:`MIN_DIGITS` digits (standing for a transcendental end)
    is written as that decimal."""
    if not intervals:
        return f"no value of {symbol}"
    return " or ".join(_as_written(iv) for iv in intervals)


def _as_written(iv: Interval) -> str:
    def long_decimal(e: Any) -> str | None:
        if e is None or isinstance(e, TranscendentalEnd) or e.q is None:
            return None
        n = significant_digits(e.q)
        return exact_text(e.q) if n is not None and n >= MIN_DIGITS else None

    lo, hi = long_decimal(iv.lo), long_decimal(iv.hi)
    if lo is None and hi is None:
        return iv.text()
    text = iv.name
    if iv.lo is not None:
        text = f"{lo or interval_end_text(iv.lo, iv.name)} {'<=' if iv.lo_closed else '<'} {text}"
    if iv.hi is not None:
        text = f"{text} {'<=' if iv.hi_closed else '<'} {hi or interval_end_text(iv.hi, iv.name)}"
    return text


def calibrate(target: Claim, an: Analysis, *, symbol: str | None = None) -> Calibration:
    """The exact set of values of one symbol where ``target`` holds (module docstring).

    Raises
    ------
    ArgumentError
        When the case declares no symbol, ``symbol`` is not one of them, or ``target`` is itself
        a claim about a claim (a calibration or a counterexample): a mistake in the question.
    Undecided
        When the claim kind is not decided with symbols, the answer depends on several symbols
        at once, or a comparison cannot be decided exactly.
    """
    names = [b.name for b in an.symbols.bounds] if an.symbols else []
    if not names:
        raise ArgumentError("calibration needs a symbol, but the case declares none under `symbols:`")
    if symbol is not None and symbol not in names:
        raise ArgumentError(f"no symbol named {symbol!r} to calibrate; the case declares {', '.join(names)}")
    if target.kind in ABOUT_CLAIMS:
        raise ArgumentError(
            f"the target is a {target.kind} claim; give a claim about a mechanism, e.g. dp: {{eps: log(2)}}"
        )
    P = Parametric(an, calibrating=True)
    load_deciders()
    if by_calibration_boxes(target):
        name, k, got = calibrate_by_boxes(target, an, symbol)
        return Calibration(target, name, P.domains[k], got.holds, 0, got)
    make = HANDLERS.get(target.kind)
    if make is None:
        raise Undecided(f"claims of kind {target.kind!r} are not decided with symbols, so they cannot be calibrated")
    dec = P.decide(make(target, P))
    k = _the_symbol(P, dec, symbol)
    intervals = _holding(dec, k)
    _cross_check(target, an, P, dec)
    _recheck_ends(target, an, dec, k)
    return Calibration(target, P.ring.names[k], P.domains[k], tuple(intervals), len(dec.cells))


def _the_symbol(P: Parametric, dec: Decomposition, symbol: str | None) -> int:
    split = sorted({k for cell, _ in dec.cells for k, s in enumerate(cell.sides) if s.kind != "domain"})
    if len(split) > 1:
        names = " and ".join(P.ring.names[k] for k in split)
        raise Undecided(f"the answer depends on {names} together; calibration is over one symbol at a time")
    if symbol is not None:
        k = P.ring.names.index(symbol)
        if split and split[0] != k:
            raise Undecided(f"the answer depends on {P.ring.names[split[0]]}, not on {symbol}")
        return k
    if split:
        return split[0]
    if len(P.ring.names) == 1:
        return 0
    raise Undecided("the answer does not depend on the symbols; name the symbol to calibrate with --symbol")


def _holding(dec: Decomposition, k: int) -> list[Interval]:
    """The maximal runs of cells where the claim holds, as intervals of symbol ``k``; a cell
    where it holds on one side of a transcendental point only (a :class:`Crossing`) ends or
    starts a run there, the point given by a certified :class:`TranscendentalEnd`."""
    out: list[Interval] = []
    run: list[Interval] = []

    def close(hi: Any = None, hi_closed: bool = False) -> None:
        first, last = run[0], run[-1]
        end, end_closed = (last.hi, last.hi_closed) if hi is None else (hi, hi_closed)
        out.append(Interval(first.name, first.lo, first.lo_closed, end, end_closed, first.whole and hi is None))
        run.clear()

    for cell, outcome in [*dec.cells, (None, None)]:
        if cell is not None and outcome is not None and getattr(outcome, "at", None) is not None:
            cr = getattr(outcome, "crossing", None)
            if cr is None:
                raise Undecided(
                    f"the target changes between holding and failing inside {cell.text()}, at a value where a "
                    "rational function of the symbol meets a transcendental number, and not at one point only; "
                    "it is not calibrated"
                )
            iv, end = interval_of(cell.sides[k]), cr.enclose()
            if cr.holds == 0:  # an equality that holds at the crossing alone: a set of one point
                if run:
                    close()
                out.append(Interval(iv.name, end, True, end, True))
            elif cr.holds_left():
                run.append(Interval(iv.name, iv.lo, iv.lo_closed, end, cr.closed))
                close(end, cr.closed)
            else:
                if run:
                    close()
                run.append(Interval(iv.name, end, cr.closed, iv.hi, iv.hi_closed))
            continue
        if cell is not None and outcome is not None and outcome.holds:
            run.append(interval_of(cell.sides[k]))
            continue
        if run:
            close()
    return out


def _recheck_ends(target: Claim, an: Analysis, dec: Decomposition, k: int) -> None:
    """Where the verdict changes between neighbouring cells, the numeric engine's verdicts at
    rational points on both sides (within those cells) must change the same way."""
    cells = dec.cells
    for _, outcome in cells:
        cr = getattr(outcome, "crossing", None)
        if cr is not None:  # the two certified sides of a transcendental end
            for x in (cr.below, cr.above):
                v = verdict_at(target, an, {cr.name: x})
                if (v.status == HOLDS) != ((-1 if x == cr.below else 1) == cr.holds):
                    raise VerificationError(
                        f"calibration: at {cr.name} = {x}, beside where {cr.equation()}, the numeric engine says "
                        f"{v.status}, the parametric engine the opposite"
                    )
    for i in range(1, len(cells)):
        (c0, o0), (c1, o1) = cells[i - 1], cells[i]
        if o0.holds == o1.holds or getattr(o0, "crossing", None) or getattr(o1, "crossing", None):
            continue
        for cell, outcome in ((c0, o0), (c1, o1)):
            pt = _near_point(cell, c1 if cell is c0 else c0, k)
            if pt is None:
                continue
            v = verdict_at(target, an, pt)
            if (v.status == HOLDS) != outcome.holds:
                raise VerificationError(
                    f"calibration: at {_point_text(pt)}, next to where the verdict changes, the numeric engine "
                    f"says {v.status}, the parametric engine {'holds' if outcome.holds else 'fails'}"
                )


def _near_point(cell: Any, other: Any, k: int) -> dict | None:
    """A rational point of ``cell`` close to the end it shares with ``other`` (refining an
    algebraic end until a point of its isolating interval falls inside the cell)."""
    side = cell.sides[k]
    base = cell.point()
    if base is None:
        return None
    if side.kind != "open":
        return base
    left = other.sides[k].kind != "domain" and _is_left(other.sides[k], side)
    end = side.lo if left else side.hi
    if end is None:
        return base
    if end.q is not None:
        s = side.sample()
        x = (end.q + s) / 2
        return {**base, side.domain.name: x}
    for _ in range(200):
        x = end.hi if left else end.lo
        if side.inside(rational(x)):
            return {**base, side.domain.name: x}
        end.refine()
    return base  # pragma: no cover - 200 halvings always land inside a cell of positive width


def _is_left(a: Any, b: Any) -> bool:
    pa, pb = a.position(), b.position()
    return pa is not None and pb is not None and compare(pa, pb) < 0


# --- the claim ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RootOf:
    """An algebraic endpoint: the one root of a polynomial in the symbol in a rational interval."""

    root: Any = arg(Rational("a polynomial in the symbol", symbolic=True), doc="e.g. 9*E^2 - 2*E - 21")
    interval: tuple = arg(
        Pair(Rational("an end"), Rational("an end"), "an isolating interval", ("lo", "hi")),
        key="in",
        doc="[lo, hi] containing exactly one root",
    )

    def validate(self) -> None:
        lo, hi = self.interval
        if not lo < hi:
            raise FieldProblem("in", "the interval must have lo < hi", "e.g. in: [1, 2]")
        self.value()  # the root exists and is unique

    def value(self, symbol: str | None = None) -> Algebraic:

        e = self.root
        free = sorted(getattr(e, "free_symbols", ()), key=str)
        if len(free) != 1 or (symbol is not None and free[0].name != symbol):
            raise FieldProblem("root", f"{e} must be a polynomial in one symbol" + (f" ({symbol})" if symbol else ""))
        x = free[0]
        if not e.is_polynomial(x):
            raise FieldProblem("root", f"{e} is not a polynomial in {x}")
        coeffs = sympy.Poly(e, x).all_coeffs()[::-1]
        den = 1
        for c in coeffs:
            den = sympy.ilcm(den, sympy.Rational(c).q)
        f = flint.fmpz_poly([int(sympy.Rational(c) * den) for c in coeffs])
        lo, hi = (flint.fmpq(int(v.numerator), int(v.denominator)) for v in self.interval)
        roots = root_in(f, lo, hi)
        if len(roots) != 1:
            raise FieldProblem(
                "in",
                f"{e} has {len(roots)} roots in [{lo}, {hi}], not exactly one",
                "give an interval that contains exactly one root",
            )
        return roots[0]


_END = Either((Rational("an endpoint"), Record(RootOf, "an algebraic endpoint")))


@dataclass(frozen=True, kw_only=True)
class Range:
    """An interval of the symbol: optional bounds gt/ge and lt/le (rational or algebraic)."""

    gt: Any = arg(_END, default=None, doc="lower bound, excluded")
    ge: Any = arg(_END, default=None, doc="lower bound, included")
    lt: Any = arg(_END, default=None, doc="upper bound, excluded")
    le: Any = arg(_END, default=None, doc="upper bound, included")

    def validate(self) -> None:
        if (self.gt is not None and self.ge is not None) or (self.lt is not None and self.le is not None):
            raise FieldProblem((), "give at most one lower bound (gt or ge) and one upper bound (lt or le)")

    def interval(self, domain: Domain) -> Interval | None:
        """This range within the domain (None if empty)."""
        lo_raw, lo_c = (self.gt, False) if self.gt is not None else (self.ge, True)
        hi_raw, hi_c = (self.lt, False) if self.lt is not None else (self.le, True)
        lo = None if lo_raw is None else _end(lo_raw, domain.name)
        hi = None if hi_raw is None else _end(hi_raw, domain.name)
        dlo = None if domain.lo is None else rational(domain.lo)
        dhi = None if domain.hi is None else rational(domain.hi)
        lo, lo_c = _tighter((lo, lo_c), (dlo, domain.lo_closed), 1)
        hi, hi_c = _tighter((hi, hi_c), (dhi, domain.hi_closed), -1)
        if lo is not None and hi is not None:
            c = compare(lo, hi)
            if c > 0 or (c == 0 and not (lo_c and hi_c)):
                return None
        return Interval(domain.name, lo, lo_c, hi, hi_c)


def _tighter(a: tuple, b: tuple, sense: int) -> tuple:
    """Of two bounds (value or None, closed), the tighter: the larger lower bound (``sense``
    1) or the smaller upper bound (-1); at a tie, closed only if both are."""
    if a[0] is None:
        return b
    if b[0] is None:
        return a
    c = compare(a[0], b[0]) * sense
    if c > 0:
        return a
    if c < 0:
        return b
    return a[0], a[1] and b[1]


def _end(v: Any, symbol: str) -> Algebraic:
    if isinstance(v, RootOf):
        return v.value(symbol)
    return rational(v)


def normalise(intervals: list[Interval]) -> list[Interval]:
    """Sorted, with touching or overlapping intervals joined."""

    def lo_key(a: Interval, b: Interval) -> int:
        if a.lo is None or b.lo is None:
            return (a.lo is not None) - (b.lo is not None)
        c = compare(a.lo, b.lo)
        return c if c else (not a.lo_closed) - (not b.lo_closed)

    out: list[Interval] = []
    for iv in sorted(intervals, key=cmp_to_key(lo_key)):
        if out:
            last = out[-1]
            if last.hi is None:
                continue
            if (
                iv.lo is None
                or compare(iv.lo, last.hi) < 0
                or (compare(iv.lo, last.hi) == 0 and (iv.lo_closed or last.hi_closed))
            ):
                if iv.hi is None or compare(iv.hi, last.hi) > 0 or (compare(iv.hi, last.hi) == 0 and iv.hi_closed):
                    out[-1] = Interval(last.name, last.lo, last.lo_closed, iv.hi, iv.hi_closed)
                continue
        out.append(iv)
    return out


def _contains(ivs: list[Interval], x: Algebraic) -> bool:
    for iv in ivs:
        lo_ok = iv.lo is None or compare(iv.lo, x) < 0 or (compare(iv.lo, x) == 0 and iv.lo_closed)
        hi_ok = iv.hi is None or compare(x, iv.hi) < 0 or (compare(x, iv.hi) == 0 and iv.hi_closed)
        if lo_ok and hi_ok:
            return True
    return False


def _difference_point(a: list[Interval], b: list[Interval], symbol: str) -> dict | None:
    """A rational value in one set and not the other (the ends themselves when rational, else a
    rational between consecutive ends), or None if they differ only at irrational points."""

    ends = [e for iv in a + b for e in (iv.lo, iv.hi) if e is not None]
    ends = sorted(dict.fromkeys(ends), key=cmp_to_key(compare))
    probes: list[Any] = []
    bounds: list[Any] = [None] + ends + [None]
    for lo, hi in zip(bounds, bounds[1:]):
        if lo is not None and hi is not None and compare(lo, hi) == 0:
            continue
        lq = None if lo is None else (lo.q if lo.q is not None else lo.hi)
        hq = None if hi is None else (hi.q if hi.q is not None else hi.lo)
        while lq is not None and hq is not None and not lq < hq:
            for e in (lo, hi):
                e.refine()
            lq, hq = (lo.q if lo.q is not None else lo.hi), (hi.q if hi.q is not None else hi.lo)
        probes.append(simplest_between(lq, hq))
    probes += [e.q for e in ends if e.q is not None]
    for q in probes:
        x = rational(q)
        if _contains(a, x) != _contains(b, x):
            return {symbol: q}
    return None


def same_sets(a: list[Interval] | tuple[Interval, ...], b: list[Interval] | tuple[Interval, ...]) -> bool:
    """Whether two sets are the same; a transcendental end (an :class:`TranscendentalEnd`) matches a
    declared decimal end that it rounds to at the decimal's own number of significant digits,
    if that is at least :data:`MIN_DIGITS`."""

    def same_end(p: Any, q: Any) -> bool:
        if (p is None) != (q is None):
            return False
        if p is None:
            return True
        if isinstance(p, TranscendentalEnd) or isinstance(q, TranscendentalEnd):
            enc, other = (p, q) if isinstance(p, TranscendentalEnd) else (q, p)
            return not isinstance(other, TranscendentalEnd) and _matches(enc, other)
        return compare(p, q) == 0

    return len(a) == len(b) and all(
        same_end(x.lo, y.lo)
        and same_end(x.hi, y.hi)
        and (x.lo is None or x.lo_closed == y.lo_closed)  # an infinite end's flag means nothing
        and (x.hi is None or x.hi_closed == y.hi_closed)
        for x, y in zip(a, b)
    )


MIN_DIGITS = 10
"""A declared decimal stands for a transcendental end of a calibrated set only with at least
this many significant digits (a short one such as 2.77 reads as an exact value)."""


def _matches(enc: TranscendentalEnd, declared: Algebraic) -> bool:
    n = significant_digits(declared.q) if declared.q is not None else None
    return n is not None and n >= MIN_DIGITS and enc.rounds_to(declared.q)


def _surrogate(ivs: Any) -> list[Interval]:
    """The set with each transcendental end replaced by the middle of its enclosure: the same
    membership for every value outside the enclosures."""

    def end(e: Any) -> Any:
        return rational((e.lo + e.hi) / 2) if isinstance(e, TranscendentalEnd) else e

    return [Interval(iv.name, end(iv.lo), iv.lo_closed, end(iv.hi), iv.hi_closed, iv.whole) for iv in ivs]


def _in_an_enclosure(ivs: Any, x: Any) -> bool:
    q = flint.fmpq(int(x.p), int(x.q)) if hasattr(x, "p") else flint.fmpq(x.numerator, x.denominator)
    return any(isinstance(e, TranscendentalEnd) and e.lo <= q <= e.hi for iv in ivs for e in (iv.lo, iv.hi))


def _exact_end_in_enclosure(declared: Any, found: Any) -> bool:
    """Whether an end of the declared set that is not a decimal of :data:`MIN_DIGITS` digits or
    more (a rational such as 3, or an algebraic root) lies inside, or meets, an enclosure of the
    found set's ends: the enclosure's end may be that very number (a crossing at a rational point
    found as a root of G = e^q), so the comparison cannot decide."""
    encs = [e for iv in found for e in (iv.lo, iv.hi) if isinstance(e, TranscendentalEnd)]
    for e in (x for iv in declared for x in (iv.lo, iv.hi) if x is not None):
        n = significant_digits(e.q) if e.q is not None else None
        if n is not None and n >= MIN_DIGITS:
            continue
        lo, hi = (e.q, e.q) if e.q is not None else (e.lo, e.hi)
        if any(enc.lo <= hi and lo <= enc.hi for enc in encs):
            return True
    return False


def _has_enclosure(ivs: Any) -> bool:
    return any(isinstance(e, TranscendentalEnd) for iv in ivs for e in (iv.lo, iv.hi))


@claim("calibrate")
@dataclass(frozen=True, kw_only=True)
class CalibrateClaim(Claim):
    """The values of a symbol where the target claim holds are exactly the listed intervals
    (each intersected with the symbol's declared domain); endpoints are exact: rationals, or
    {root: polynomial, in: [lo, hi]} for an algebraic number; a transcendental end (where the
    target meets e^q) is a decimal of at least 10 significant digits that the end rounds to (the
    value's digits: trailing zeros after the point do not count, 2.2410967045669700 is the
    15-digit 2.24109670456697)."""

    # (the pairs and adversaries are the target's: written here they would scope nothing)
    hidden_fields = ("group", "pairs", "ordered", "adversaries")
    moved_fields = {
        k: f"write it inside `target:`, whose claim it scopes (e.g. `target: {{dp: {{..., {k}: ...}}}}`)"
        for k in hidden_fields
    }
    target: Any = arg(ClaimSpec(), doc="the claim to calibrate, e.g. {dp: {eps: log(2), delta: 1/10}}")
    holds_for: tuple = arg(ListOf(Record(Range, "an interval"), what="holds_for"), doc="the exact set: intervals")
    symbol: Any = arg(Label("a symbol"), default=None, doc="the symbol (default: the one the answer depends on)")
    symbols: SymbolTable = field(default_factory=SymbolTable, compare=False)
    # a union of intervals, not one number: nothing for a sweep's column or a LaTeX macro
    shows = Shows(
        "",
        "the set of values of the symbol where the target holds (fact `calibration`): no single value; "
        "`exactdp export` writes the set and each end of its intervals",
    )

    def validate(self) -> None:
        super().validate()
        self.validate_target(self.target, "target")
        declared = [b.name for b in self.symbols.bounds] if self.symbols else []
        if self.symbol is not None and self.symbol not in declared:
            hint = f"declared: {', '.join(declared)}" if declared else "declare it under `symbols:`"
            raise FieldProblem("symbol", f"{self.symbol!r} is not a declared symbol", hint)

    def statement(self) -> str:
        return f"{self.target.describe()} exactly where {self._declared_text()}"  # (the target's pairs too)

    def _declared_text(self) -> str:
        declared = [b.name for b in self.symbols.bounds] if self.symbols else []
        name = self.symbol or next(
            (str(next(iter(v.root.free_symbols))) for r in self.holds_for for v in _ends(r) if isinstance(v, RootOf)),
            declared[0] if len(declared) == 1 else "the symbol",
        )
        parts = []
        for r in self.holds_for:
            lo = r.gt if r.gt is not None else r.ge
            hi = r.lt if r.lt is not None else r.le
            text = name
            if lo is not None:
                text = f"{_end_text(lo)} {'<' if r.gt is not None else '<='} {text}"
            if hi is not None:
                text = f"{text} {'<' if r.lt is not None else '<='} {_end_text(hi)}"
            parts.append(text if lo is not None or hi is not None else f"every {name}")
        return " or ".join(parts) if parts else "nowhere"

    def params(self) -> dict[str, str]:
        return {"target": self.target.describe(), "holds_for": self._declared_text()}

    def check(self, an: Analysis) -> Verdict:

        if not involves_symbols(self.target, an) and not (an.symbols and an.symbols.bounds):
            return Verdict.undecided(self, "calibration needs a case with symbols (`symbols:`)")
        try:
            cal = calibrate(self.target, an, symbol=self.symbol)
        except Undecided as e:
            return Verdict.undecided(self, str(e))
        declared = tuple(normalise([iv for r in self.holds_for if (iv := r.interval(cal.domain)) is not None]))
        facts: dict[str, Any] = {"calibration": cal, "declared": declared}
        if cal.boxes is not None:
            why = cal.undecided()
            if why is not None:
                return Verdict.undecided(self, why)
            match = box_matches(list(declared), cal)
            if match is None:
                return Verdict.undecided(
                    self,
                    "a declared end lies where the boxes prove nothing: an exact end the boxes cannot reach, or a "
                    "decimal with more digits than they fixed (some values of the gap round to it and some do not; "
                    "give the digits the gap fixes, as exactdp calibrate prints them)",
                )
            return Verdict(self, HOLDS if match else FAILS, facts)
        if same_sets(declared, cal.intervals):
            if _has_enclosure(cal.intervals):  # the declared decimals stand for the certified ends
                facts["declared"] = cal.intervals
            return Verdict(self, HOLDS, facts)
        pt = _difference_point(list(declared), _surrogate(cal.intervals), cal.symbol)
        if _exact_end_in_enclosure(declared, cal.intervals) and (
            pt is None or _in_an_enclosure(cal.intervals, pt[cal.symbol])
        ):  # an exact end (3, or a root) where a root was found by certified signs: maybe that root
            return Verdict.undecided(
                self,
                "a declared exact end lies inside the enclosure of an end found by certified signs, which cannot "
                "tell whether they are equal (a decimal of at least 10 digits is compared by rounding instead)",
            )
        if pt is not None and _in_an_enclosure(cal.intervals, pt[cal.symbol]):
            pt = None  # too close to a transcendental end to tell by the surrogate
        if pt is None:
            return Verdict(self, FAILS, facts)
        there = verdict_at(self.target, an, pt)
        facts.update(differs_at=dict(pt), there=there)
        return Verdict(self, FAILS, facts, there.witness)


def _ends(r: Range) -> list[Any]:
    return [v for v in (r.gt, r.ge, r.lt, r.le) if v is not None]


def _end_text(v: Any) -> str:

    if isinstance(v, RootOf):
        lo, hi = v.interval
        return f"(root of {expr_str(v.root)} in [{q_str(lo)}, {q_str(hi)}])"
    q = flint.fmpq(int(v.numerator), int(v.denominator))
    n = significant_digits(q)
    if n is not None and n >= MIN_DIGITS:  # a decimal standing for a transcendental end: as written
        return exact_text(q)
    return q_str(v)


# --- a set found by certified boxes (zCDP, Gaussian DP targets) ---------------------------------


def box_iv_text(iv: Interval) -> str:
    """An interval with each terminating rational end as its decimal."""

    def end(e: Any) -> str:
        if e.q is not None and significant_digits(e.q) is not None:
            return exact_text(e.q)
        return interval_end_text(e, iv.name)

    lo = "" if iv.lo is None else f"{end(iv.lo)} {'<=' if iv.lo_closed else '<'} "
    hi = "" if iv.hi is None else f" {'<=' if iv.hi_closed else '<'} {end(iv.hi)}"
    if iv.lo is not None and iv.hi is not None and compare(iv.lo, iv.hi) == 0:
        return f"{iv.name} = {end(iv.lo)}"
    return f"{lo}{iv.name}{hi}" if lo or hi else f"every real {iv.name}"


def box_lines(cal: Calibration, target: str) -> list[str]:
    """What the boxes proved, in words: where the target holds, where it fails (confirmed by the
    exact engine), and each gap with the digits every value in it shares."""
    b = cal.boxes
    n = cal.symbol
    boxes = f"{b.boxes} box{'' if b.boxes == 1 else 'es'}"
    lines = [f"{target}: by certified boxes of {n} ({boxes}; over {cal.domain.describe()})"]
    lines.append(f"  holds on: {' or '.join(box_iv_text(iv) for iv in b.holds) or 'no stretch proved'}")
    fails = " or ".join(box_iv_text(iv) for iv in b.fails) or "no stretch proved"
    at = ", ".join(f"{n} = {q_str(x)}" for x in b.confirmed)
    lines.append(f"  fails on: {fails}" + (f" (the exact engine confirms: it fails at {at})" if at else ""))
    for g in b.gaps:
        where = box_iv_text(Interval(n, g.lo, False, g.hi, False))
        if g.point and g.decimal is not None:
            lines.append(
                f"  holds at exactly one value of {n}, which lies in: {where}, every value of which is {g.decimal} to "
                f"{g.digits} significant digits (proved: the two sides differ in sign at its ends, and their "
                "difference is strictly monotone on it)"
            )
        elif g.narrow and g.decimal is not None and not g.switch:
            lines.append(f"  not proved either way: {where}, every value of which is {g.decimal} to {g.digits} digits")
        elif g.narrow and g.decimal is not None:
            lines.append(
                f"  the boundary lies in: {where}, every value of which is {g.decimal} to {g.digits} significant "
                "digits (the set may switch there more than once: boxes do not tell how often)"
            )
        else:
            lines.append(f"  not decided: {where}" + (f" ({b.reason})" if b.reason else ""))
    return lines


def box_dict(cal: Calibration) -> dict[str, Any]:
    """The same for JSON: ``holds_on``, ``fails_on`` (intervals with exact ends), ``gaps``."""

    def iv(x: Interval) -> dict[str, Any]:
        return {
            "lo": endpoint_dict(x.lo, x.name),
            "lo_closed": x.lo_closed,
            "hi": endpoint_dict(x.hi, x.name),
            "hi_closed": x.hi_closed,
            "text": box_iv_text(x),
        }

    b = cal.boxes
    gaps = [
        {
            **iv(Interval(cal.symbol, g.lo, False, g.hi, False)),
            "narrow": g.narrow,
            "decimal": g.decimal,
            "digits": g.digits,
            "holds_at_one_point": g.point,
        }
        for g in b.gaps
    ]
    return {
        "method": "certified boxes",
        "boxes": b.boxes,
        "holds_on": [iv(x) for x in b.holds],
        "fails_on": [iv(x) for x in b.fails],
        "confirmed_failing_at": [q_str(x) for x in b.confirmed],
        "gaps": gaps,
        **({"undecided_because": b.reason} if b.reason else {}),
    }


def box_matches(declared: list[Interval], cal: Calibration) -> bool | None:
    """Whether a declared set agrees with what the boxes proved: it contains every stretch where
    the target holds and misses every stretch where it fails (probed at each stretch's ends, at
    every end of the declared set inside it and between them: the set changes only at its ends),
    and each gap that is a boundary has exactly one end of it that every value of the gap rounds
    to, at that end's own number (at least :data:`MIN_DIGITS`) of significant digits (that end
    stands for the boundary, in the gap).  None (undecided) when a gap holds an end that it can
    neither confirm nor rule out: an exact end such as 3, or a decimal with more digits than the
    gap fixes (some values of the gap round to it and some do not)."""
    b = cal.boxes
    unsure, moved = False, dict[int, Algebraic]()
    ends = [(e, iv) for iv in declared for e in (iv.lo, iv.hi) if e is not None]
    for g in b.gaps:
        gap = [x.q for x in (g.lo, g.hi) if x is not None]
        if g.decimal is None or len(gap) != 2 or None in gap:
            return False
        mine = [(e, iv) for e, iv in ends if e.q is not None and _rounds_alike(e.q, gap)]
        near = [(e, iv) for e, iv in ends if (e.q is not None and _rounds_somewhere(e.q, gap)) or _in_gap(e, gap)]
        middle = rational(simplest_between(*gap))
        moved.update((id(e), middle) for e, _ in near)  # (each stands for a point of the gap)
        if g.point:  # one declared point, {ge: x, le: x}, and no other end in the gap
            if not _one_point(mine) or len(near) != 2:
                if not _one_point(near):
                    return False
                unsure = True
        elif len(mine) != 1 or len(near) != 1:
            if not near:
                return False
            unsure = True
    shifted = [
        Interval(iv.name, moved.get(id(iv.lo), iv.lo), iv.lo_closed, moved.get(id(iv.hi), iv.hi), iv.hi_closed)
        for iv in declared
    ]
    for ivs, want in ((b.holds, True), (b.fails, False)):
        if any(_contains(shifted, x) != want for iv in ivs for x in _probes(iv, shifted)):
            return False
    return None if unsure else True


def _in_gap(e: Algebraic, gap: list[Any]) -> bool:
    """Whether the end e may lie in the open gap (its isolating interval meets it, when irrational)."""
    lo, hi = gap
    if e.q is not None:
        return bool(lo < e.q < hi)
    return bool(e.lo < hi and lo < e.hi)


def _probes(stretch: Interval, declared: list[Interval]) -> list[Algebraic]:
    """Points of a proved stretch where the declared set can change: its closed ends, every end of
    the declared set inside it (each side of an irrational one), and a point between each two."""
    lo, hi = (
        None if e is None else (e.q if e.q is not None else (e.hi if e is stretch.lo else e.lo))
        for e in (stretch.lo, stretch.hi)
    )
    if lo is not None and lo == hi:  # (a stretch of one point)
        return [rational(lo)]
    cuts = set()
    for e in (x for iv in declared for x in (iv.lo, iv.hi) if x is not None):
        for c in (e.q,) if e.q is not None else (e.lo, e.hi):
            if (lo is None or lo < c) and (hi is None or c < hi):
                cuts.add(c)
    points = sorted(cuts)
    bounds = [lo, *points, hi]
    between = [simplest_between(a, b) for a, b in zip(bounds, bounds[1:])]
    ends = [x for x, closed in ((lo, stretch.lo_closed), (hi, stretch.hi_closed)) if x is not None and closed]
    return [rational(x) for x in (*ends, *points, *between)]


def _one_point(ends: list) -> bool:
    """Whether ``ends`` are the two ends of one closed interval {ge: x, le: x}."""
    return len(ends) == 2 and ends[0][1] is ends[1][1] and ends[0][1].lo_closed and ends[0][1].hi_closed


def _rounds_alike(q: Any, gap: list[Any]) -> bool:
    """Whether the decimal q (at least :data:`MIN_DIGITS` significant digits) is what both ends of
    the gap, hence every value in it, round to at q's own number of digits."""
    n = significant_digits(q)
    return n is not None and n >= MIN_DIGITS and len({_round_str(x, n) for x in (*gap, q)}) == 1


def _rounds_somewhere(q: Any, gap: list[Any]) -> bool:
    """Whether some value of the open gap (lo, hi) rounds to the decimal q (at least
    :data:`MIN_DIGITS` digits) at q's own number of digits: the values that do form the interval
    of half a unit of q's last digit on either side of q, which must meet the gap."""
    n = significant_digits(q)
    if n is None or n < MIN_DIGITS:
        return False
    cell_lo, cell_hi = _rounding_cell(exact_text(q), n)
    lo, hi = gap
    return bool(lo < cell_hi and cell_lo < hi)


def _round_str(q: Any, n: int) -> str:
    return _round(q, n)
