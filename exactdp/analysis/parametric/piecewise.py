r"""Piecewise answers: the cells of a decomposition merged into intervals with one closed form.

Neighbouring cells whose answers agree are merged: two open cells and the point between them
are one piece when the point's answer equals the value of the neighbours' closed form there
(decided exactly at the point, an algebraic number).  Each piece is a box of intervals with
exact endpoints, open or closed, and one value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ...numbers.rational import Q, q_short
from .algebraic import Algebraic, closed_form_latex, closed_form_text, compare, decimal_text, poly_text, rational
from .cells import Cell, Ctx, Decomposition, Side, Split, Undecided
from .transcendental import TranscendentalEnd
from .values import same_value, value_text

__all__ = ["Interval", "Piece", "pieces", "interval_of", "endpoint_dict", "merge_box"]

T = TypeVar("T")


@dataclass(frozen=True)
class Interval:
    """One symbol's range in a piece: ends (``None`` = infinite) and whether each is included;
    ``whole`` when the piece does not restrict the symbol (its declared domain)."""

    name: str
    lo: Algebraic | None
    lo_closed: bool
    hi: Algebraic | None
    hi_closed: bool
    whole: bool = False
    # a calibrated set's end may also be a TranscendentalEnd (a point where G = e^q, transcendental.py)

    def is_point(self) -> bool:
        return self.lo is not None and self.hi is not None and self.lo is self.hi

    def text(self) -> str:
        """``1 < E <= (1 + sqrt(190))/9`` (a huge rational end printed short: the exact ends are
        in :func:`endpoint_dict`)."""
        n = self.name
        if self.is_point():
            assert self.lo is not None
            return f"{n} = {_end_text(self.lo, n)}"
        lo = "" if self.lo is None else f"{_end_text(self.lo, n)} {'<=' if self.lo_closed else '<'} "
        hi = "" if self.hi is None else f" {'<=' if self.hi_closed else '<'} {_end_text(self.hi, n)}"
        if not lo and not hi:
            return f"every real {n}"
        return f"{lo}{n}{hi}"

    def latex(self, name: str) -> str:
        """The interval in LaTeX, with ``name`` the symbol already escaped for LaTeX."""
        if self.is_point():
            assert self.lo is not None
            return f"{name} = {_end_latex(self.lo, name)}"
        le_lo = r"\le" if self.lo_closed else "<"
        le_hi = r"\le" if self.hi_closed else "<"
        lo = "" if self.lo is None else f"{_end_latex(self.lo, name)} {le_lo} "
        hi = "" if self.hi is None else f" {le_hi} {_end_latex(self.hi, name)}"
        if not lo and not hi:
            return rf"{name} \in \mathbb{{R}}"
        return f"{lo}{name}{hi}"


def _end_latex(a: Any, name: str) -> str:
    if isinstance(a, TranscendentalEnd):
        return rf"{a.decimal}\ldots"
    return closed_form_latex(a, name)


def _end_text(a: Algebraic, var: str) -> str:
    if isinstance(a, TranscendentalEnd):
        return a.text()
    if a.q is not None:
        return q_short(Q(int(a.q.p), int(a.q.q)))
    return closed_form_text(a, var)


def interval_of(side: Side) -> Interval:
    d = side.domain
    if side.kind == "domain":
        return Interval(
            d.name,
            None if d.lo is None else rational(d.lo),
            d.lo_closed,
            None if d.hi is None else rational(d.hi),
            d.hi_closed,
            whole=True,
        )
    if side.kind == "point":
        return Interval(d.name, side.at, True, side.at, True)
    return Interval(d.name, side.lo, False, side.hi, False)


def _join(a: Interval, b: Interval) -> Interval | None:
    """The union of two touching intervals of one symbol (a left of b), or None."""
    if a.whole or b.whole or a.hi is None or b.lo is None:
        return None
    if compare(a.hi, b.lo) != 0 or (a.hi_closed and b.lo_closed) or not (a.hi_closed or b.lo_closed):
        return None
    return Interval(a.name, a.lo, a.lo_closed, b.hi, b.hi_closed)


@dataclass
class Piece(Generic[T]):
    """A box of intervals (one per symbol) and the answer on all of it; ``cells`` are the cells
    it was merged from, ``open`` whether one of them is open (then ``value`` is the closed form
    found there, which also gives the answer at the piece's points)."""

    box: tuple[Interval, ...]
    value: T
    cells: list[Cell]
    open: bool = True

    def text(self, *, all_symbols: bool = False) -> str:
        """``1 < E <= (1 + sqrt(190))/9``; symbols the piece does not restrict are left out
        unless ``all_symbols``."""
        parts = [iv.text() for iv in self.box if all_symbols or not iv.whole]
        return ", ".join(parts) if parts else "every value of the symbols"

    def points(self) -> list[dict]:
        """One rational point of each of the piece's cells (each connected) that has one."""
        return [pt for pt in (c.point() for c in self.cells) if pt is not None]

    def value_text(self) -> str:
        """The closed form as text, read on this piece: ``2*log(E)``, ``2*log((1 - p)/p)`` (a
        logarithm's base is shown positive where it is read, see :meth:`LogOf.text`)."""
        return value_text(self.value, self.points())

    def sample(self) -> dict | None:
        """A rational point of the piece (of its first open cell, else any with one), or None."""
        for c in sorted(self.cells, key=lambda c: c.is_point()):
            p = c.point()
            if p is not None:
                return p
        return None


def _at_point(form: Any, val: Any, point: Cell, ring: Any, memo: dict) -> bool:
    """Whether the closed form ``form`` (found on a neighbouring cell) gives the answer ``val``
    at the point cell ``point``, exactly."""
    if form == val:
        return True
    try:
        return same_value(form, val, Ctx(ring, point, memo))
    except (Split, Undecided):
        return False


def pieces(dec: Decomposition[T], *, key: Callable[[T], Any] | None = None) -> list[Piece[T]]:
    """Merge neighbouring cells of ``dec`` whose answers agree, in order along the line.

    Open cells join only when their answers are the same closed form (``key`` picks what must
    agree, default the whole answer); a point joins a neighbour when the neighbour's closed
    form, evaluated exactly at the point, is the point's own answer."""
    out: list[Piece[T]] = []
    keyf = key or (lambda v: v)
    memo_of = {id(c): m for (c, _), m in zip(dec.cells, dec.memos)}
    for (cell, val), memo in zip(dec.cells, dec.memos):
        box = tuple(interval_of(s) for s in cell.sides)
        if out:
            last = out[-1]
            m = merge_box(last.box, box)
            if m is not None:
                joined, k = m
                if cell.sides[k].kind == "point":
                    ok = last.open and _at_point(keyf(last.value), keyf(val), cell, dec.ring, dict(memo))
                    if ok:
                        out[-1] = Piece(joined, last.value, last.cells + [cell], True)
                        continue
                elif last.open:
                    if keyf(last.value) == keyf(val):
                        out[-1] = Piece(joined, last.value, last.cells + [cell], True)
                        continue
                else:  # the piece so far is a point: does this open cell's form give its answer?
                    pt = last.cells[-1]
                    if _at_point(keyf(val), keyf(last.value), pt, dec.ring, dict(memo_of[id(pt)])):
                        out[-1] = Piece(joined, val, last.cells + [cell], True)
                        continue
        out.append(Piece(box, val, [cell], not any(s.kind == "point" for s in cell.sides)))
    return out


def merge_box(a: Sequence[Interval], b: Sequence[Interval]) -> tuple[tuple[Interval, ...], int] | None:
    """Two boxes that differ in one symbol, where they touch: their union and that symbol's
    index, else None."""
    diff = [k for k, (x, y) in enumerate(zip(a, b)) if not _same_interval(x, y)]
    if len(diff) != 1:
        return None
    k = diff[0]
    j = _join(a[k], b[k])
    if j is None:
        return None
    return tuple(a[:k]) + (j,) + tuple(a[k + 1 :]), k


def _same_interval(x: Interval, y: Interval) -> bool:
    def same_end(p: Algebraic | None, q: Algebraic | None) -> bool:
        return (p is None and q is None) or (p is not None and q is not None and compare(p, q) == 0)

    return (
        x.whole == y.whole
        and same_end(x.lo, y.lo)
        and same_end(x.hi, y.hi)
        and x.lo_closed == y.lo_closed
        and x.hi_closed == y.hi_closed
    )


def endpoint_dict(a: Algebraic | None, name: str, *, digits: int = 16) -> dict | None:
    """An endpoint for JSON: exact text, kind, minimal polynomial and isolating interval for an
    algebraic number, and a decimal with ``digits`` proved significant digits."""
    if a is None:
        return None
    if isinstance(a, TranscendentalEnd):  # no exact form: its equation and a rational enclosure
        e = a if digits <= a.digits else a.crossing.enclose(digits)
        return {
            "exact": None,
            "kind": "enclosure",
            "equation": a.crossing.equation(),
            "enclosure": list(e.bounds()),
            "decimal": e.decimal,
            **({} if getattr(a.crossing, "transcendental", True) else {"transcendental": False}),
        }
    if a.q is not None:
        return {"exact": str(a.q), "kind": "rational", "decimal": decimal_text(a, digits)}
    lo, hi = a.interval
    return {
        "exact": closed_form_text(a, name),
        "kind": "algebraic",
        "minimal_polynomial": poly_text(a.poly, name),
        "isolating_interval": [str(lo), str(hi)],
        "decimal": decimal_text(a, digits),
    }
