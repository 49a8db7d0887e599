r"""Calibrating a zCDP, Gaussian-DP or fractional-order Rényi target: where it is proved to hold, to fail, and the gaps between.

``exactdp calibrate CASE --target "zcdp: {rho: 1/2}"`` (``not_zcdp``, ``gdp: {mu: 1}``,
``not_gdp``, ``renyi: {alpha: 3/2, at_most: X}``) and the ``calibrate`` claim with such a target:
the claim is decided by certified boxes of the symbol (Bun & Steinke 2016, Def. 1.1, for zCDP;
Dong, Roth & Su 2022, Def. 2.6, for Gaussian DP; Mironov 2017, Def. 3, for the Rényi
divergence), which prove a claim — or its negation — on a whole box, so the set where it holds
is found as proved stretches and narrow gaps between them
(:func:`~exactdp.analysis.parametric.box_calibrate.scan`):

* a stretch where the target **holds** is proved on every box of it;
* a stretch where it **fails** is proved on every box of it (the negated claim's box proof), and
  the exact engine re-decides the target at a rational value inside it: it must fail there (a
  disagreement is a bug);
* a **gap** lies between: it is bisected until both of its ends round to the same 16 significant
  digits, so the boundary — wherever in the gap the set switches, once or several times — has
  those digits; nothing else is claimed of a gap.

Gaussian DP is scanned on each cell of the parametric decomposition (the trade-off function's
vertices are rational functions of the symbol there, :mod:`~exactdp.analysis.parametric.gdp_boxes`);
at a point cell, a rational value is decided by the exact engine, an irrational one is in the
set of ``gdp`` when a proved stretch where it holds ends there (the set where T ≥ G_μ is closed:
the trade-off function depends continuously on the symbol), else it is a gap.  zCDP is scanned
on the whole range (:mod:`~exactdp.analysis.parametric.zcdp_boxes`), with α-boxes refined next to
the boundary; a box where the target fails is proved by a certified lower bound of D_α above ρα
at one order (the order where the proof that it holds came closest first), or of the KL
divergence above ρ (D_α ≥ KL: for RR_E the largest D_α/α is the limit α → 1, the KL
divergence, so this is the proof that reaches the boundary).

References
----------
Bun & Steinke 2016 (Def. 1.1); Dong, Roth & Su 2022 (Def. 2.6); Mironov 2017 (Prop. 1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import limits
from ..analysis.parametric import Undecided, rational_of
from ..analysis.parametric.algebraic import Algebraic, compare, rational
from ..analysis.parametric.box_calibrate import FAILS as S_FAILS
from ..analysis.parametric.box_calibrate import GAP, OUTSIDE, fraction, gap_decimal, scan
from ..analysis.parametric.box_calibrate import HOLDS as S_HOLDS
from ..analysis.parametric.boxes import Box, UniRat, Val, _Eval, _upper, _vmax
from ..analysis.parametric.gdp_boxes import GCell, _outside, _proved, chain_vertices
from ..analysis.parametric.piecewise import Interval
from ..analysis.parametric.polys import simplest_between
from ..analysis.parametric.zcdp_boxes import _GRID, Rho, ZGame, _check_box, _check_box_not, peak_alpha, rho_val
from ..errors import VerificationError
from ..lazy import flint
from ..numbers.certified import arb_prec
from ..numbers.ladder import is_inf
from .base import FAILS, HOLDS, Analysis, Claim
from .parametric import Parametric, verdict_at
from .parametric_boxes import ONE_AT_A_TIME, one_symbol
from .parametric_gdp import not_gdp_proved_at
from .parametric_renyi_boxes import by_fraction_boxes, fraction_problem, fraction_side, one_crossing
from .parametric_zcdp import rho_of, rho_symbols

__all__ = ["Gap", "BoxSet", "calibrate_by_boxes", "by_calibration_boxes", "BOX_TARGETS", "DIGITS"]

BOX_TARGETS = ("zcdp", "not_zcdp", "gdp", "not_gdp")
"""Target kinds calibrated here."""
DIGITS = 16
"""Significant digits every narrow gap is refined to."""
_PREC = 128


@dataclass(frozen=True)
class Gap:
    """An open interval (lo, hi) of the symbol where nothing is proved; ``decimal`` (``digits``
    significant digits) is what every point of it rounds to, None when ``narrow`` is False
    (a gap left by a limit: undecided there); ``switch`` when it lies between a stretch where
    the target holds and one where it fails (else it is a sliver the boxes did not settle, such
    as next to an open end where the bound is touched)."""

    name: str
    lo: Algebraic | None
    hi: Algebraic | None
    decimal: str | None
    digits: int
    narrow: bool
    switch: bool = True  # between a stretch where the target holds and one where it fails
    point: bool = False
    """The target holds at exactly one value in the gap (proved: an ``equals`` target whose two
    sides differ in sign at the gap's ends and whose difference is strictly monotone on it)."""

    def text(self) -> str:
        return Interval(self.name, self.lo, False, self.hi, False).text()


@dataclass(frozen=True)
class BoxSet:
    """What the boxes proved: ``holds``/``fails`` intervals, the ``gaps`` between, the boxes
    examined, the values where the exact engine confirmed a failure, and why a gap is wide."""

    holds: tuple[Interval, ...]
    fails: tuple[Interval, ...]
    gaps: tuple[Gap, ...]
    boxes: int
    confirmed: tuple[Any, ...]
    reason: str = ""


@dataclass
class _Part:
    lo: Algebraic | None
    lo_closed: bool
    hi: Algebraic | None
    hi_closed: bool
    status: str
    narrow: bool = True
    point: bool = False


def _prec(box: Box) -> int:
    if box.tail:
        return _PREC
    assert box.lo is not None and box.hi is not None
    w = box.hi - box.lo
    return min(
        _PREC + 2 * max(0, w.denominator.bit_length() - w.numerator.bit_length()), limits.current().max_precision
    )


def _q(x: Fraction) -> Algebraic:
    return rational(flint.fmpq(x.numerator, x.denominator))


def _parts(
    classify: Callable[[Box], str | None],
    side_lo: Any,
    lo_closed: bool,
    side_hi: Any,
    hi_closed: bool,
    bounds: tuple,
    name: str,
) -> tuple[list[_Part], int, str]:
    """Scan one range (ends ``side_lo``/``side_hi``, Algebraic or None; ``bounds`` its rational
    enclosure) and clip the stretches to it."""
    lo, hi = (None if x is None else fraction(x) for x in bounds)
    sc = scan(classify, lo, hi, digits=DIGITS, name=name)
    out = []
    for k, s in enumerate(sc.stretches):
        first, last = k == 0, k == len(sc.stretches) - 1
        a = side_lo if first else (None if s.lo is None else _q(s.lo))
        b = side_hi if last else (None if s.hi is None else _q(s.hi))
        gap = s.status == GAP
        out.append(_Part(a, (lo_closed if first else not gap), b, (hi_closed if last else not gap), s.status, s.narrow))
    return out, sc.boxes, sc.reason


def _sample(p: _Part) -> Any:
    """A rational value inside the part (or the part's point)."""
    if p.lo is not None and p.hi is not None and compare(p.lo, p.hi) == 0:
        return p.lo.q
    lo = None if p.lo is None else (p.lo.q if p.lo.q is not None else p.lo.hi)
    hi = None if p.hi is None else (p.hi.q if p.hi.q is not None else p.hi.lo)
    if lo is not None and hi is not None and not lo < hi:
        return None
    return simplest_between(lo, hi)


def _closed_ends(target: Claim, an: Analysis, name: str, parts: list[_Part]) -> list[_Part]:
    """A closed rational end of the range inside a gap (the boxes next to it proved nothing, as
    where a divergence grows without bound towards it) is decided by the exact engine there: the
    end becomes a one-point stretch and the gap stops short of it."""
    out = list(parts)
    for at_lo in (False, True):  # the high end first: splitting the low end shifts the parts
        k = 0 if at_lo else len(out) - 1
        p = out[k]
        end, closed = (p.lo, p.lo_closed) if at_lo else (p.hi, p.hi_closed)
        if p.status != GAP or not closed or end is None or end.q is None or p.point:
            continue
        there = verdict_at(target, an, {name: end.q})
        if there.status not in (HOLDS, FAILS):
            continue
        point = _Part(end, True, end, True, S_HOLDS if there.status == HOLDS else S_FAILS)
        if at_lo:
            out[k : k + 1] = [point, _Part(p.lo, False, p.hi, p.hi_closed, GAP, p.narrow)]
        else:
            out[k : k + 1] = [_Part(p.lo, p.lo_closed, p.hi, False, GAP, p.narrow), point]
    return out


def _finish(target: Claim, an: Analysis, name: str, parts: list[_Part], boxes: int, reason: str) -> BoxSet:
    """Merge the parts; re-decide the target with the exact engine at a rational value of each
    stretch where it fails (it must fail there) and of each where it holds (it must not fail)."""
    parts = _closed_ends(target, an, name, parts) if parts else parts
    merged: list[_Part] = []
    for p in parts:
        if merged and merged[-1].status == p.status:
            last = merged[-1]
            merged[-1] = _Part(last.lo, last.lo_closed, p.hi, p.hi_closed, p.status, last.narrow and p.narrow)
        else:
            merged.append(p)
    confirmed = []
    for p in merged:
        if p.status == GAP:
            continue
        x = _sample(p)
        if x is None:
            continue
        pt = {name: x}
        there = verdict_at(target, an, pt)
        if (p.status == S_FAILS and there.status == HOLDS) or (p.status == S_HOLDS and there.status == FAILS):
            raise VerificationError(
                f"calibration by boxes: the target {p.status} on a stretch proved by enclosures, but at {name} = {x} "
                f"the exact engine says it {there.status.value}"
            )
        if p.status == S_FAILS:
            if there.status != FAILS:
                raise Undecided(f"at {name} = {x} the exact engine does not confirm the failure: {there.reason}")
            confirmed.append(x)
    gaps = []
    for k, p in enumerate(merged):
        if p.status != GAP:
            continue
        near = {merged[j].status for j in (k - 1, k + 1) if 0 <= j < len(merged)}
        lo, hi = (
            None if e is None else fraction(e.q if e.q is not None else (e.lo if e is p.lo else e.hi))
            for e in (p.lo, p.hi)
        )
        dec = gap_decimal(lo, hi, DIGITS) if p.narrow and lo is not None and hi is not None else None
        gaps.append(
            Gap(
                name,
                p.lo,
                p.hi,
                None if dec is None else dec[0],
                0 if dec is None else dec[1],
                p.narrow,
                len(near) == 2,
                p.point,
            )
        )

    def ivs(status: str) -> tuple[Interval, ...]:
        return tuple(Interval(name, p.lo, p.lo_closed, p.hi, p.hi_closed) for p in merged if p.status == status)

    return BoxSet(ivs(S_HOLDS), ivs(S_FAILS), tuple(gaps), boxes, tuple(confirmed), reason)


# --- zCDP --------------------------------------------------------------------------------------


def _zcdp(target: Any, an: Analysis, P: Parametric) -> tuple[str, int, BoxSet]:
    game = P.game(target.subject)
    name, index = one_symbol(P, game.variables() | rho_symbols(target.rho, P), "zCDP", ONE_AT_A_TIME)
    dom = P.domains[index]
    zg = ZGame(game, index)
    negated = target.kind == "not_zcdp"
    if zg.infinite():
        raise Undecided(
            "a view is possible under one dataset only (D_alpha = inf where its probability is positive): the set is "
            "decided point by point, not calibrated"
        )
    rho_u = rho_of(target.rho, P, index)

    def classify(box: Box) -> str | None:
        with arb_prec(_prec(box)):
            yes = _check_box(zg, rho_u, box, Fraction(1, 1 << 200), centred=True)
            if yes.proved:
                return S_FAILS if negated else S_HOLDS
            if (
                _kl_exceeds(zg, rho_u, box)
                or _check_box_not(zg, rho_u, box, ([yes.alpha] if yes.alpha is not None else []) + _GRID).proved
                or ((a := peak_alpha(zg, rho_u, box)) is not None and _check_box_not(zg, rho_u, box, [a]).proved)
            ):
                return S_HOLDS if negated else S_FAILS
        return None

    lo, hi = (None if x is None else rational(x) for x in (dom.lo, dom.hi))
    parts, boxes, reason = _parts(classify, lo, dom.lo_closed, hi, dom.hi_closed, (dom.lo, dom.hi), name)
    return name, index, _finish(target, an, name, parts, boxes, reason)


def _kl_exceeds(zg: ZGame, rho: Rho, box: Box) -> bool:
    """Whether KL(M) > ρ on the whole box (centred forms, as for the KL divergence,
    :mod:`~exactdp.analysis.parametric.boxes`): then D_α ≥ KL > ρα for α > 1 near 1 (D_α is
    nondecreasing in α, Mironov 2017, Prop. 1, and D_1 is the KL divergence), so M is not ρ-zCDP
    anywhere in the box."""
    if box.tail:
        return False
    ev = _Eval(box, box.point())
    f = _vmax([zg.kl(ev, i, j) for i, j in zg.game.ordered_pairs]) - rho_val(rho, ev, box)
    down = _upper(Val(-f.c, -f.r, None if f.L is None else -f.L), box, box.point())
    return down is not None and down < 0


# --- Gaussian DP -------------------------------------------------------------------------------


def _gdp(target: Any, an: Analysis, P: Parametric) -> tuple[str, int, BoxSet]:
    game = P.game(target.subject)
    mu = rational_of(target.mu, P.ring)
    name, index = one_symbol(P, game.variables() | set(mu.variables()), "Gaussian DP", ONE_AT_A_TIME)
    negated = target.kind == "not_gdp"
    yes, no = (S_FAILS, S_HOLDS) if negated else (S_HOLDS, S_FAILS)

    def run(ctx: Any) -> list:
        return [chain_vertices(h, ctx) for h in P.profile(target.subject, ctx).hulls()]

    dec = P.decide(run)
    mu_u = UniRat.of(mu, index)
    parts: list[_Part] = []
    boxes, reason = 0, ""
    points: list[tuple[int, int]] = []  # (the point's part, the open cells before it)
    gcells: list[GCell] = []
    for cell, vs in dec.cells:
        side = cell.sides[index]
        if side.kind == "point":
            points.append((len(parts), len(gcells)))
            parts.append(_Part(side.at, True, side.at, True, GAP, False))
            continue
        gc = GCell(side, tuple((UniRat.of(a, index), UniRat.of(b, index)) for hv in vs for a, b in hv), mu_u)
        gcells.append(gc)

        def classify(box: Box, gc: GCell = gc) -> str | None:
            if _outside(gc.side, box):
                return OUTSIDE
            if _proved(gc, box, False):
                return yes
            return no if _proved(gc, box, True) else None

        lo, hi = side._ends()
        lo_c, hi_c = side.closed_bounds() if side.kind == "domain" else (False, False)
        got, n, why = _parts(classify, lo, lo_c, hi, hi_c, side.rational_bounds(), name)
        parts += got
        boxes, reason = boxes + n, reason or why
    for k, g in points:
        parts[k].status, parts[k].narrow = _point_status(target, an, name, parts, k, yes)
        at = parts[k].lo
        if parts[k].status == GAP and at is not None and not_gdp_proved_at(gcells[max(0, g - 1) : g + 1], at):
            parts[k].status, parts[k].narrow = no, True  # T < G_mu at the point: a neighbour's closed forms
    return name, index, _finish(target, an, name, parts, boxes, reason)


def _point_status(target: Claim, an: Analysis, name: str, parts: list[_Part], k: int, yes: str) -> tuple[str, bool]:
    """A point cell: the exact engine at a rational value; at an irrational one, T ≥ G_μ holds when
    a neighbouring stretch where it holds ends there (a closed set), else nothing is proved here
    (the caller then tries the neighbouring cells' closed forms, as ``not_gdp`` is proved there)."""
    at = parts[k].lo
    assert at is not None
    if at.q is not None:
        there = verdict_at(target, an, {name: at.q})
        if there.status in (HOLDS, FAILS):
            return (S_HOLDS if there.status == HOLDS else S_FAILS), True
        return GAP, False
    near = [parts[j] for j in (k - 1, k + 1) if 0 <= j < len(parts)]
    if any(p.status == yes and p.narrow for p in near):  # gdp holds on a stretch ending at the point
        return yes, True
    return GAP, False


# --- Rényi divergence at a fractional order ----------------------------------------------------


def _renyi_fraction(target: Any, an: Analysis, P: Parametric) -> tuple[str, int, BoxSet]:
    """``renyi: {alpha: 3/2, at_most: X}`` (``exceeds``, ``equals``): each box is proved one way
    by the upper and lower bounds of D_α on it against the enclosure of X
    (:func:`~exactdp.claims.parametric_renyi_boxes.fraction_side`).  An ``equals`` target is
    never proved on a box, only refuted, so its set lies in the gaps; a gap where D_α − X changes
    sign and is strictly monotone holds it at exactly one value
    (:func:`~exactdp.claims.parametric_renyi_boxes.one_crossing`)."""
    sense = next(k for k in ("equals", "at_most", "exceeds") if getattr(target, k) is not None)
    if is_inf(getattr(target, sense)):
        raise Undecided(f"a {sense} bound of inf: compare the Renyi divergence with a finite bound")
    pb = fraction_problem(target, P, ONE_AT_A_TIME)
    dom = pb.dom

    def classify(box: Box) -> str | None:
        side = fraction_side(pb, box, _prec(box))
        return None if side is None else (S_HOLDS if side == "holds" else S_FAILS)

    lo, hi = (None if x is None else rational(x) for x in (dom.lo, dom.hi))
    parts, boxes, reason = _parts(classify, lo, dom.lo_closed, hi, dom.hi_closed, (dom.lo, dom.hi), pb.name)
    for k, p in enumerate(parts):
        if sense == "equals" and p.status == GAP and p.narrow and 0 < k < len(parts) - 1:
            a, b = p.lo, p.hi  # rational: the ends of the proved stretches on either side
            if a is not None and b is not None and a.q is not None and b.q is not None:
                ends = fraction(a.q), fraction(b.q)
                p.point = one_crossing(pb, *ends, _prec(Box(*ends)))
    return pb.name, pb.index, _finish(target, an, pb.name, parts, boxes, reason)


def by_calibration_boxes(target: Claim) -> bool:
    """Whether ``calibrate`` finds the target's set by certified boxes (:func:`calibrate_by_boxes`):
    zCDP, Gaussian DP, and Rényi divergences at a fractional order."""
    return target.kind in BOX_TARGETS or by_fraction_boxes(target)


def calibrate_by_boxes(target: Claim, an: Analysis, symbol: str | None) -> tuple[str, int, BoxSet]:
    """The symbol's name and index, and what the boxes prove of the set where ``target`` holds."""
    P = Parametric(an)
    how = _renyi_fraction if by_fraction_boxes(target) else _zcdp if target.kind in ("zcdp", "not_zcdp") else _gdp
    name, index, got = how(target, an, P)
    if symbol is not None and symbol != name:
        raise Undecided(f"the answer depends on {name}, not on {symbol}")
    return name, index, got
