r"""Rényi claims at a fractional order with a symbol, decided by certified boxes of the symbol.

``renyi: {alpha: 3/2, at_most: X}`` for a mechanism whose probabilities are rational functions
of one declared symbol s: D_α(M) = log S*(α, s)/(α − 1), S* the largest Rényi sum
Σ_v P^α P'^{1−α} over ordered pairs and adaptive adversaries (Mironov 2017, Def. 3; Vadhan &
Wang 2021, Lemma 2.2 for the adversaries).  At a fractional α the sum has fractional powers of
the probabilities, so the cell decomposition does not decide it; here it is decided for every
value of s by boxes of s covering the domain:

* on a box, python-flint's arb balls give an upper and a lower bound of log S* that hold for
  every s of the box (:class:`~exactdp.analysis.parametric.zcdp_boxes.ZGame`: the Rényi
  induction on enclosures of each probability and likelihood ratio), and X(s) is enclosed;
* the claim **holds** on the box when the upper bound of D_α is at most the lower end of X
  (``exceeds``: the lower bound of D_α above the upper end of X); it **fails** on the box when
  the bounds are on the wrong side, and the exact concrete engine, at the box's rational midpoint,
  must then find the claim false: its verdict and witness are the refutation;
* otherwise the box is split; ``--max-symbol-boxes`` bounds the boxes, and a box narrower than
  2^-40 means D_α touches X there (undecided, said so, never guessed).

``equals`` is refuted by a value or undecided (an equality for every value is not proved by
enclosures).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import limits
from ..analysis.parametric import Undecided
from ..analysis.parametric.boxes import TAIL_CAP, Box, Target, UniRat, Val, _Eval, _fmpq, _log, _upper, initial_boxes
from ..analysis.parametric.zcdp_boxes import INFINITE, ZGame
from ..errors import LimitExceededError
from ..lazy import flint
from ..numbers.certified import arb_prec, ball_bounds
from ..numbers.ladder import is_inf
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Verdict
from .parametric import DECIDERS, Parametric, refuted_at
from .parametric_boxes import _fraction, _key, _target, one_symbol

__all__ = [
    "by_fraction_boxes",
    "decide_fraction_boxes",
    "FractionProblem",
    "fraction_problem",
    "fraction_side",
    "one_crossing",
]

_PREC = 96
_NARROW = Fraction(1, 2**40)


def by_fraction_boxes(claim: Any) -> bool:
    """Whether the claim is decided here: ``renyi`` at a fractional order α > 1."""
    alpha = getattr(claim, "alpha", None)
    if claim.kind != "renyi" or alpha is None or is_inf(alpha):
        return False
    return int(alpha.denominator) != 1


@dataclass(frozen=True)
class FractionProblem:
    """A Rényi claim at a fractional order, read for boxes: its ``sense`` (``at_most``,
    ``exceeds``, ``equals``), the order, the symbol (``name``, ``index`` in the ring, domain
    ``dom``), the game read for Rényi sums and the bound X(s)."""

    sense: str
    alpha: Fraction
    name: str
    index: int
    dom: Any
    zg: ZGame
    target: Target


def fraction_problem(claim: Any, P: Parametric, why: str) -> FractionProblem:
    """The claim read for boxes of its one symbol (``why``: what several symbols are not, for
    :func:`~exactdp.claims.parametric_boxes.one_symbol`); the bound must be finite."""
    sense, raw = _key(claim)
    alpha = Fraction(int(claim.alpha.numerator), int(claim.alpha.denominator))
    cap = limits.current().max_exponent
    if alpha > cap:  # each box raises probabilities to the power alpha: its cost grows with alpha
        raise LimitExceededError(
            f"the Renyi order {alpha} of a claim with a symbol (an exponent of every box's enclosures)",
            cap,
            "raise it with --max-exponent N",
        )
    game = P.game(claim.subject)
    q, logs, used = _target(raw, P)
    name, index = one_symbol(P, used | game.variables(), f"the Renyi divergence of order {alpha}", why)
    target = Target(q, tuple((c, UniRat.of(R, index)) for c, R in logs))
    return FractionProblem(sense, alpha, name, index, P.domains[index], ZGame(game, index), target)


def fraction_side(pb: FractionProblem, box: Box, prec: int = _PREC) -> str | None:
    """``holds``/``fails`` when the enclosures on ``box`` (at ``prec`` bits) prove the claim or
    its negation for every value of the closed box; None when they prove neither."""
    with arb_prec(prec):  # the box's balls too: at 53 bits a box narrower than 2^-50 is lost
        ev = _Eval(box, None if box.tail else box.point())
        x = pb.target.val(ev)
        if not x.r.is_finite():  # the bound is not enclosed on this box (a tail, or a log near 0)
            return None
        lo, hi = _excess(pb, ev, x)
    above = lo is not None and lo > 0  # D_α > X on the box
    if pb.sense == "at_most":
        return "holds" if hi is not None and hi <= 0 else "fails" if above else None
    if pb.sense == "exceeds":
        return "holds" if above else "fails" if hi is not None and hi <= 0 else None
    return "fails" if above or (hi is not None and hi < 0) else None  # equals: never proved on a box


def _excess(pb: FractionProblem, ev: _Eval, x: Val) -> tuple[Fraction | None, Fraction | None]:
    """Rational bounds (None: none found) of D_α − X on the box: by the bounds of D_α and of X
    apart, and (a box that is not a tail) by the centred form of D_α − X, whose slope is far
    narrower where both move together (next to a boundary where X depends on the symbol); a view
    possible under one dataset only gives the lower bound 1 (D_α = ∞ on the box)."""
    k = pb.alpha - 1
    x_lo, x_hi = ball_bounds(x.r)
    up, low = pb.zg.sum_upper(ev, pb.alpha), pb.zg.sum_lower(ev, pb.alpha)
    lo = Fraction(1) if low is INFINITE else None if low is None else low / k - x_hi  # type: ignore[operator]
    hi = None if up is None else up / k - x_lo
    f = None if ev.box.tail or low is INFINITE else _difference(pb, ev)
    if f is not None:
        f_hi = _upper(f, ev.box, ev.centre)
        f_lo = _upper(Val(-f.c, -f.r, None if f.L is None else -f.L), ev.box, ev.centre)
        hi = f_hi if hi is None or (f_hi is not None and f_hi < hi) else hi
        lo = -f_lo if f_lo is not None and (lo is None or -f_lo > lo) else lo
    return lo, hi


def one_crossing(pb: FractionProblem, lo: Fraction, hi: Fraction, prec: int) -> bool:
    """Whether D_α − X vanishes at exactly one value of [lo, hi]: it has opposite certified signs
    at lo and at hi (so a zero, by continuity: its derivative is enclosed, below) and an enclosure
    of its derivative on the whole interval that excludes 0 (so at most one zero)."""
    with arb_prec(prec):
        ends = [_difference(pb, _Eval(Box(x, x), x)) for x in (lo, hi)]
        ev = _Eval(Box(lo, hi), (lo + hi) / 2)
        ev.x_c = ev.x_r  # a centre ball that is the whole box: each slope is then a derivative enclosure
        mid = _difference(pb, ev)
    if None in ends or mid is None or mid.L is None:
        return False
    a, b = (e.r for e in ends)  # type: ignore[union-attr]
    crosses = (a < 0 and b > 0) or (a > 0 and b < 0)
    return bool(crosses and mid.L.is_finite() and (mid.L > 0 or mid.L < 0))


def _difference(pb: FractionProblem, ev: _Eval) -> Val | None:
    """D_α − X on a box that is not a tail, as a centred form; None when not enclosed."""
    s = pb.zg.sum_val(ev, pb.alpha)
    x = pb.target.val(ev)
    if s is None or not s.bounded or not s.r > 0 or not x.bounded:
        return None
    return _log(s).scale(flint.arb(_fmpq(1 / (pb.alpha - 1)))) - x


def decide_fraction_boxes(claim: Any, an: Analysis) -> Verdict:
    """Decide a Rényi claim at a fractional order with one symbol (module docstring)."""
    P = Parametric(an)
    sense, raw = _key(claim)
    if is_inf(raw):
        if sense == "at_most":
            return Verdict(claim, HOLDS, {"domains": tuple(P.domains), "symbol_boxes": 0})
        raise Undecided(
            f"D_{claim.alpha} {'equal to' if sense == 'equals' else 'above'} inf for every value is not decided"
        )
    pb = fraction_problem(claim, P, "decided")
    name, dom, alpha = pb.name, pb.dom, pb.alpha
    lo = None if dom.lo is None else _fraction(dom.lo)
    hi = None if dom.hi is None else _fraction(dom.hi)
    queue, boxes, why = deque(initial_boxes(lo, hi)), 0, ""
    cap = limits.current().max_symbol_boxes
    while queue:
        box = queue.popleft()
        if boxes >= cap:
            why = (
                f"the --max-symbol-boxes limit ({cap} boxes of {name}) was reached; raise it with --max-symbol-boxes N"
            )
            break
        boxes += 1
        side = fraction_side(pb, box)
        if side == "fails":
            return _refuted(claim, an, name, dom, box, boxes)
        if side == "holds":
            continue
        if box.tail and abs(box.point()) > TAIL_CAP:
            why = f"boxes prove nothing as {name} grows without bound (beyond |{name}| = 2^64)"
            break
        if not box.tail and box.hi - box.lo < _NARROW:  # type: ignore[operator]
            why = f"D_{alpha} touches the bound near {name} = {box.point()} (boxes narrower than 2^-40 prove neither side)"
            break
        queue.extend(box.split())
    facts: dict[str, Any] = {"domains": (dom,), "symbol_boxes": boxes}
    if not why:
        return Verdict(claim, HOLDS, facts)
    if sense == "equals":
        why = f"an equality for every value of {name} is not proved by enclosures, and no rational value refuted it ({why})"
    return Verdict(claim, UNDECIDED, facts, reason=why)


def _refuted(claim: Any, an: Analysis, name: str, dom: Any, box: Box, boxes: int) -> Verdict:
    """The exact engine's verdict at the rational midpoint of a box where the claim is proved false."""
    s = box.point()
    evidence = f"certified enclosures say the claim fails for every {name} in {box.text(name)}"
    there = refuted_at(claim, an, name, s, evidence)
    facts = {
        "domains": (dom,),
        "refuted_at": {name: flint.fmpq(s.numerator, s.denominator)},
        "there": there,
        "symbol_boxes": boxes,
    }
    return Verdict(claim, FAILS, facts, there.witness)


DECIDERS.append((by_fraction_boxes, decide_fraction_boxes))
