r"""Where a KL target holds: the set of values of one symbol where KL(M) ≤ X (or > X), with
certified transcendental ends.

KL(M)(s) − X(s) = F(s) is transcendental in s (a sum of p·log(p/p′) over views, Kullback &
Leibler 1951), so the points where it changes sign are not algebraic and no cell of the parametric
decomposition ends there.  On a cell they are found by certified boxes
(:mod:`~exactdp.analysis.parametric.boxes`, arb balls: Johansson 2017):

* a box where the enclosure of F is ≤ 0 (or > 0) everywhere has one verdict;
* a box where the enclosure of **F′** excludes 0 — F strictly monotone there — and F has
  certified opposite signs at its two rational ends holds **exactly one** crossing: a
  :class:`KLCrossing`, bisected (by certified signs of F at rational points) into a
  :class:`~exactdp.analysis.parametric.transcendental.TranscendentalEnd` whose printed digits are
  all proved; F′ is enclosed by evaluating the centred forms of :mod:`boxes` with the whole box as
  the centre (each slope then encloses the derivative on the box);
* with the same certified sign at both ends of such a box, F has that sign on it;
* otherwise the box is split; boxes narrower than 2^-60 are undecided (F touches 0, or its
  derivative vanishes where it does).

A cell with several crossings is cut at rational points between them (:class:`Split`), so each
cell has at most one; a rational point cell is decided by the exact engine (the caller's ``exact``).
Tails of an unbounded range are settled by the branch and bound of :mod:`boxes` in each direction.

References
----------
Kullback & Leibler, *On Information and Sufficiency*, Ann. Math. Statist. 22 (1951);
Mironov, *Rényi Differential Privacy*, CSF 2017 (D_1 is the KL divergence);
Johansson, *Arb*, IEEE Trans. Computers 66(8), 2017.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ... import limits
from ...lazy import flint
from ...numbers import ladder
from ...numbers.certified import arb_prec, ball_bounds
from .algebraic import _round, rational
from .box_calibrate import fraction
from .boxes import HOLDS as B_HOLDS
from .boxes import (
    TAIL_CAP,
    Box,
    KLGame,
    Target,
    UniRat,
    Val,
    _Eval,
    _upper,
    _vmax,
    above_target,
    branch_and_bound,
    initial_boxes,
)
from .cells import Ctx, Split, Undecided
from .transcendental import TranscendentalEnd, _rounding_cell

__all__ = ["KLCrossing", "kl_cell", "KLCell"]

_PREC = 128
_NARROW = Fraction(1, 1 << 60)


def _excess(kg: KLGame, target: Target, box: Box, whole: bool, centre: Fraction | None = None) -> Val:
    """F = KL − X on the box: centred at its midpoint (or ``centre``), or (``whole``) with the whole
    box as the centre, so that the slope encloses F′ on the box."""
    ev = _Eval(box, box.point() if centre is None else centre)
    if whole:
        ev.x_c = ev.x_r
    return _vmax([kg.kl(ev, i, j) for i, j in kg.game.ordered_pairs]) - target.val(ev)


def sign_at(kg: KLGame, target: Target, s: Fraction) -> int:
    """The certified sign of F at a rational s (0: not separated from 0 within ``max_precision``)."""
    prec = _PREC
    cap = limits.current().max_precision
    while prec <= cap:
        with arb_prec(prec):
            f = _excess(kg, target, Box(s, s), False)
        if f.bounded:
            lo, hi = ball_bounds(f.c)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
        prec *= 2
    return 0


@dataclass(eq=False)
class KLCrossing:
    """The one point s* of a cell where KL(M) = X: ``below``/``above`` are rationals of the cell
    with F < 0 and F > 0 (certified), F strictly monotone between; the claim holds where F has the
    sign ``holds``, and at s* iff ``closed`` (same interface as
    :class:`~exactdp.analysis.parametric.transcendental.Crossing`).  ``spec`` is (the parametric
    game, the symbol's index, q, ((c, R), ...)) for X = q + Σ c·log R: what the boxes are rebuilt
    from after pickling (a result crosses processes; arb polynomials do not pickle)."""

    spec: tuple
    name: str
    below: Any
    above: Any
    holds: int
    closed: bool
    what: str
    transcendental = False  # KL(M) = X may hold at an algebraic point (E = 3 for RR_E and log(E)/2)

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "_boxes"}

    def _parts(self) -> tuple[KLGame, Target]:
        hit = self.__dict__.get("_boxes")
        if hit is None:
            game, index, q, logs = self.spec
            target = Target(q, tuple((c, UniRat.of(R, index)) for c, R in logs))
            hit = self.__dict__["_boxes"] = (KLGame(game, index), target)
        return hit

    def holds_left(self) -> bool:
        left = -1 if self.below < self.above else 1
        return left == self.holds

    def enclose(self, digits: int = 16) -> TranscendentalEnd:
        """[lo, hi] around s*, bisected until both ends round to ``digits`` significant digits."""
        lo, hi = first = sorted((fraction(self.below), fraction(self.above)))
        s_lo = -1 if lo == fraction(self.below) else 1
        cap = limits.current().max_precision
        for _ in range(cap):
            if _round(_q(lo), digits) == _round(_q(hi), digits):
                text = _round(_q(lo), digits)
                a, b = (fraction(x) for x in _rounding_cell(text, digits))
                if first[0] <= a and b <= first[1] and self._sign(a) == s_lo and self._sign(b) == -s_lo:
                    lo, hi = a, b
                return TranscendentalEnd(self, _q(lo), _q(hi), text, digits)  # type: ignore[arg-type]
            mid = (lo + hi) / 2
            s = self._sign(mid)
            if s == 0:
                raise limits.precision_limit_error(f"where {self.equation()} (the sign at {mid} is not separated)")
            if s == s_lo:
                lo = mid
            else:
                hi = mid
        raise limits.precision_limit_error(f"where {self.equation()} (bisected {cap} times)")

    def _sign(self, s: Fraction) -> int:
        return sign_at(*self._parts(), s)

    def equation(self) -> str:
        return self.what


def _q(x: Fraction) -> Any:
    return flint.fmpq(x.numerator, x.denominator)


@dataclass(frozen=True)
class KLCell:
    """The verdict on a cell: ``holds`` everywhere, or not (``at``: a rational value where it fails),
    with the ``crossing`` where it changes (None: it fails on the whole cell)."""

    holds: bool
    at: Fraction | None = None
    crossing: KLCrossing | None = None


def _classify(kg: KLGame, target: Target, box: Box, ends: set) -> str:
    """``neg`` (F ≤ 0 on the box), ``pos`` (F > 0), ``cross`` (exactly one sign change), or ``?``.
    A box at an end of the domain is also centred there (where KL and the bound may both tend to
    the same value, such as 0 as e^eps → 1)."""
    width = box.hi - box.lo  # type: ignore[operator]
    prec = min(_PREC + 2 * max(0, width.denominator.bit_length() - width.numerator.bit_length()), 1 << 14)
    with arb_prec(min(prec, limits.current().max_precision)):
        for c in [box.point(), *(e for e in (box.lo, box.hi) if e in ends)]:
            f = _excess(kg, target, box, False, c)
            up = _upper(f, box, c)
            if up is not None and up <= 0:
                return "neg"
            neg = Val(-f.c, -f.r, None if f.L is None else -f.L)
            down = _upper(neg, box, c)
            if down is not None and down < 0:
                return "pos"
        d = _excess(kg, target, box, True).L
    if not f.bounded and above_target(kg, target, box):  # KL unbounded on the box, but certainly above X
        return "pos"
    if d is None or not d.is_finite() or not (d > 0 or d < 0):
        return "?"
    sa, sb = sign_at(kg, target, box.lo), sign_at(kg, target, box.hi)  # type: ignore[arg-type]
    if sa == 0 or sb == 0:
        return "?"
    if sa == sb:
        return "neg" if sa < 0 else "pos"
    return "cross"


def _tail(kg: KLGame, target: Target, box: Box, name: str) -> str:
    """A tail [M, ∞) (or (−∞, M]) settled by the branch and bound of :mod:`boxes`: ``neg``, ``pos`` or ``?``."""
    dom = (box.lo, True, None, False) if box.hi is None else (None, False, box.hi, True)
    for sense, st in (("at_most", "neg"), ("exceeds", "pos")):
        if branch_and_bound(kg, target, sense, dom, lambda s: None, name).status == B_HOLDS:
            return st
    return "?"


def kl_cell(
    ctx: Ctx,
    spec: tuple,
    kg: KLGame,
    target: Target,
    holds: int,
    what: str,
    exact: Callable[[Any], bool],
) -> KLCell:
    """Where the claim (F = KL − X with the sign ``holds``: −1 for ``at_most``, +1 for
    ``exceeds``) holds on the cell (module docstring); ``spec`` as for :class:`KLCrossing`, its
    second item the symbol's index.  ``exact(s)`` decides the
    claim at a rational s with the exact engine (for a rational point cell)."""
    index = spec[1]
    side = ctx.cell.sides[index]
    name = side.domain.name
    if side.kind == "point":
        if side.at is None or side.at.q is None:
            raise Undecided(f"the KL target at the irrational point {side.text()} is not decided")
        return KLCell(exact(side.at.q))
    lo, hi = (None if x is None else fraction(x) for x in side.rational_bounds())
    boxes = _scan(kg, target, lo, hi, side, name)
    changes = [k for k in range(len(boxes)) if boxes[k][1] == "cross"]
    direct = [k for k in range(1, len(boxes)) if {boxes[k - 1][1], boxes[k][1]} == {"neg", "pos"}]
    cuts = sorted(changes + direct)
    if len(cuts) > 1:  # several changes: cut between them at rational points (each then has one)
        pts = []
        for k in cuts[1:]:
            b = boxes[k][0]
            pts.append(b.lo if boxes[k][1] == "cross" else b.lo)
        raise Split(index, [rational(_q(x)) for x in dict.fromkeys(pts) if x is not None])
    want = "neg" if holds < 0 else "pos"
    if direct:
        raise Split(index, [rational(_q(boxes[direct[0]][0].lo))])  # type: ignore[arg-type]
    if not changes:
        ok = all(st == want for _, st in boxes)
        bad = None if ok else next(b for b, st in boxes if st != want).point()
        return KLCell(ok, bad, None)
    box = boxes[changes[0]][0]
    assert box.lo is not None and box.hi is not None
    sa = sign_at(kg, target, box.lo)
    below, above = (box.lo, box.hi) if sa < 0 else (box.hi, box.lo)
    wrong = above if holds < 0 else below
    cr = KLCrossing(spec, name, _q(below), _q(above), holds, holds < 0, what)
    return KLCell(False, wrong, cr)


def _scan(kg: KLGame, target: Target, lo: Fraction | None, hi: Fraction | None, side: Any, name: str) -> list:
    """The boxes covering the cell, in order, each classified (:func:`_classify`)."""
    cap = limits.current().max_symbol_boxes
    d = side.domain
    ends = {fraction(x) for x in (d.lo, d.hi) if x is not None}
    done: list[tuple[Box, str]] = []
    stack = list(reversed(initial_boxes(lo, hi)))
    count = 0
    while stack:
        box = stack.pop()
        count += 1
        if count > cap:
            raise Undecided(
                f"the KL target is not calibrated within --max-symbol-boxes {cap} boxes of {name} on {side.text()}; "
                "raise it with --max-symbol-boxes N"
            )
        st = _tail(kg, target, box, name) if box.tail else _classify(kg, target, box, ends)
        if st != "?":
            done.append((box, st))
            continue
        s = box.point()
        if box.tail and abs(s) > TAIL_CAP:
            raise Undecided(f"the KL target is not settled as {name} grows without bound (beyond |{name}| = 2^64)")
        if not box.tail and box.hi - box.lo < _NARROW:  # type: ignore[operator]
            end = next((e for e in (box.lo, box.hi) if e in ends), None)
            if end is not None:
                raise Undecided(
                    f"boxes of {name} next to the end {name} = {ladder.decimal(end, 12)} of the range prove nothing, even "
                    "narrower than 2^-60 (the KL divergence may be unbounded there, or meet the bound there); calibrate "
                    "on a range that stops short of it"
                )
            raise Undecided(
                f"the KL divergence meets the bound near {name} = {ladder.decimal(s, 12)} where enclosures on boxes "
                "narrower than 2^-60 do not separate them (a touching point, or a crossing where its slope vanishes)"
            )
        a, b = box.split()
        stack += [b, a]
    done.sort(key=lambda t: (t[0].lo is not None, t[0].lo if t[0].lo is not None else 0))
    return done
