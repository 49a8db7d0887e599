r"""Composition theorems whose bound is not the log of a rational function, on a cell of one symbol.

On a cell of the parametric decomposition each component's e^{εᵢ} is a rational function λᵢ(s) of
the symbol, and PrivLoss of the composition at the theorem's δ is log(Λ(s))/k (or ∞).  Two kinds
of theorem remain:

* **Theorem 1.8 of Vadhan & Wang (2021)** (concurrent composition of approximate interactive DP):
  ε_g = Σεᵢ and δ_g = min over orders σ of Σᵢ e^{ε_σ(0) + … + ε_σ(i−1)} δ_σ(i), reached by sorting
  by δᵢ/(e^{εᵢ} − 1) (the exchange argument of :mod:`exactdp.theorems.basic`).  With
  e^{εᵢ} = λᵢ(s), each comparison of the sort is a sign the cell proves, so δ_g is **one rational
  function** of s on the cell (:func:`thm18_delta`), and the claim is decided exactly.
* **Bounds with logarithms and square roots** — ``advanced`` (Dwork, Rothblum & Vadhan 2010,
  Thm III.3), ``kov-3.4`` (Kairouz, Oh & Viswanath 2015, Thm 3.4/3.5) and the KOV slides' two
  theorems as printed — are transcendental in s.  Each is the least of some *terms*, every one
  **increasing in each εᵢ ≥ 0** (sums and products of increasing non-negative functions: εe^ε,
  ε(e^ε − 1)/(e^ε + 1), sqrt(c·Σε²), log(e + sqrt(Σε²)/δ̃)), and some include Σεᵢ itself (compared
  exactly).  On a rational box [a, b] of s, λᵢ and Λ are enclosed by arb balls (Johansson 2017),
  so εᵢ ∈ [log λᵢ⁻, log λᵢ⁺] and a term lies between its values at the two ends of that range.
  A box is *valid* when every term's lower end is ≥ the upper end of PrivLoss there, *invalid*
  when some term's upper end is below PrivLoss's lower end; otherwise it is split
  (:func:`decide_on_cell`).

On a tail [M, ∞) the enclosures are read in t = 1/s (:meth:`UniRat.at_tail`); where some λᵢ grows
without bound (on a tail, or near a pole at an end of the range), the box is valid when PrivLoss ≤ Σεᵢ
on the cell (exactly), each unbounded λᵢ is ≥ 15/2 > e² on the box, and every term minus Σεᵢ is
certified ≥ 0 with those εᵢ at the lower ends of their ranges and the others anywhere in theirs:
for εᵢ ≥ 2 every term minus Σεᵢ is increasing in εᵢ, whatever the other εⱼ (the parts in εᵢ,
ε(e^ε − 2), −2ε/(e^ε + 1) and ε(ε − 1), are increasing there, and the square roots are), so every
term is ≥ Σεᵢ ≥ PrivLoss.

Nothing is decided from a float: a box proves only by its enclosures; an invalid box's midpoint is
a *candidate* that the caller re-decides with the exact concrete engine.

References
----------
Vadhan & Wang, *Concurrent Composition of Differential Privacy*, TCC 2021, Thm 1.8 / 4.1.
Dwork, Rothblum & Vadhan, *Boosting and Differential Privacy*, FOCS 2010, Thm III.3.
Kairouz, Oh & Viswanath, *The Composition Theorem for Differential Privacy*, ICML 2015, Thm 3.4, 3.5.
Johansson, *Arb*, IEEE Trans. Computers 66(8), 2017.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cmp_to_key
from typing import Any

from ... import limits
from ...lazy import flint
from ...numbers import ladder
from ...numbers.certified import arb_prec, ball_bounds
from .algebraic import compare, rational
from .boxes import TAIL_CAP, Box, UniRat, _ball, initial_boxes
from .cells import Ctx, Side, Undecided
from .ratfun import RatFun

__all__ = ["thm18_delta", "TERMS", "EXACT_SUM", "BoxStatus", "decide_on_cell", "terms_at"]

_PREC = 128
_NARROW = Fraction(1, 1 << 60)
_AFTER = 256  # boxes examined after a wrong point, to learn whether the claim fails on the whole cell
_BIG = Fraction(15, 2)  # > e^2: on a tail with every lambda_i >= 15/2, every eps_i >= 2


def thm18_delta(lams: Sequence[RatFun], deltas: Sequence[Any], ctx: Ctx) -> RatFun:
    """δ_g of Vadhan–Wang Theorem 1.8 on the cell: Σᵢ (Π_{j<i} λ_σ(j))·δ_σ(i) for σ sorting the
    components by δᵢ/(λᵢ − 1), largest first (i before j iff δᵢ(λⱼ − 1) ≥ δⱼ(λᵢ − 1); a component
    with λᵢ = 1 first, where cross-multiplying would call it equal to every other); each
    comparison is a sign proved on the cell, so this is the minimum over all orders there."""
    ring = ctx.ring
    ds = [ring.lift(d) for d in deltas]

    def cmp(i: int, j: int) -> int:  # (a component with λ = 1 first: as theorems.basic._smith_cmp)
        zi, zj = ctx.sign(lams[i] - 1) == 0, ctx.sign(lams[j] - 1) == 0
        if zi or zj:
            return int(zj) - int(zi)
        return -ctx.cmp(ds[i] * (lams[j] - 1), ds[j] * (lams[i] - 1))

    total, prefix = ring.zero, ring.one
    for i in sorted(range(len(lams)), key=cmp_to_key(cmp)):
        total, prefix = total + prefix * ds[i], prefix * lams[i]
    return total


# --- the named bounds as functions of (eps_1, ..., eps_k) on balls --------------------------------


def _sum(xs: Sequence[Any]) -> Any:
    out = flint.arb(0)
    for x in xs:
        out += x
    return out


def _sq(x: Any) -> Any:
    return x * x


def _advanced(eps: Sequence[Any], slack: Any) -> list:
    s2 = _sum([_sq(e) for e in eps])
    return [(2 * (1 / slack).log() * s2).sqrt() + _sum([e * (e.exp() - 1) for e in eps])]


def _kov(eps: Sequence[Any], slack: Any) -> list:
    s2 = _sum([_sq(e) for e in eps])
    mean = _sum([e * (e.exp() - 1) / (e.exp() + 1) for e in eps])
    t2 = mean + (2 * s2 * (flint.arb.const_e() + s2.sqrt() / slack).log()).sqrt()
    t3 = mean + (2 * s2 * (1 / slack).log()).sqrt()
    return [t2, t3]


def _slides_1(eps: Sequence[Any], slack: Any) -> list:
    k, e = len(eps), eps[0]
    return [k * _sq(e) + (k * _sq(e) * (flint.arb.const_e() + 1 / slack).log()).sqrt()]


def _slides_2(eps: Sequence[Any], slack: Any) -> list:
    s2 = _sum([_sq(e) for e in eps])
    return [s2 + (2 * s2 * (flint.arb.const_e() + s2.sqrt() / slack).log()).sqrt()]


TERMS: dict[str, Callable[[Sequence[Any], Any], list]] = {
    "advanced": _advanced,
    "kov-3.4": _kov,
    "kov-slides-1": _slides_1,
    "kov-slides-2": _slides_2,
}
"""Each named bound's terms other than Σεᵢ (the bound is the least of them), as functions of balls
εᵢ ≥ 0 and the slack δ̃ (the formulas of :mod:`exactdp.theorems.advanced` and
:mod:`exactdp.theorems.named`); every one is increasing in each εᵢ ≥ 0."""
EXACT_SUM = frozenset({"kov-3.4", "kov-slides-1", "kov-slides-2"})
"""The bounds whose minimum also includes Σεᵢ itself (compared exactly by the caller)."""


def terms_at(theorem: str, eps: Sequence[Fraction], slack: Fraction, prec: int = _PREC) -> list[tuple[Any, Any]]:
    """The terms of ``theorem`` at rational εᵢ, as exact (lower, upper) ends of certified balls
    (for the tests' comparison with :mod:`exactdp.theorems`)."""
    with arb_prec(prec):
        vals = TERMS[theorem]([flint.arb(flint.fmpq(e.numerator, e.denominator)) for e in eps], _arb(slack))
        return [ball_bounds(v) for v in vals]


def _arb(q: Fraction) -> Any:
    return flint.arb(flint.fmpq(q.numerator, q.denominator))


# --- one cell ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoxStatus:
    """The outcome on one cell: ``holds`` (every value of the cell: PrivLoss ≤ the bound, or with
    ``negated`` PrivLoss above it), or not at ``at`` (a rational point of the cell where the
    enclosures say the opposite, for the caller to re-decide exactly), with the ``boxes`` examined."""

    holds: bool
    at: Fraction | None
    boxes: int
    whole: bool = False
    """The claim fails on the whole cell (every box proved the opposite), not just at ``at``."""


@dataclass
class _Cell:
    theorem: str
    lams: list[UniRat]
    found: UniRat  # Λ, PrivLoss = log(Λ)/k
    k: int
    slack: Any
    sum_ok: bool  # PrivLoss <= sum of eps_i on the cell (exact)


def _eps_range(v: Any) -> tuple[Any, Any] | None:
    """[log max(1, λ⁻), log λ⁺] as balls, from an enclosure of λ ≥ 1 (None: unbounded)."""
    if not v.is_finite():
        return None
    lo, hi = ball_bounds(v)
    lo = max(lo, Fraction(1))
    if hi < 1:
        hi = Fraction(1)
    return _arb(lo).log(), _arb(hi).log()


def _enclose(u: UniRat, box: Box) -> Any:
    """λ on the box: the better of the naive and the centred (mean-value) enclosure."""
    if box.tail:
        assert box.lo is not None and box.hi is None
        t = _ball(Fraction(0), 1 / box.lo)
        return u.at_tail(t, 1)
    assert box.lo is not None and box.hi is not None
    x = _ball(box.lo, box.hi)
    naive = u.at(x)
    m = _arb(box.point())
    centred = u.at(m) + u.slope(x) * (x - m)
    if not centred.is_finite():
        return naive
    if not naive.is_finite():
        return centred
    return centred if centred.rad() < naive.rad() else naive


def _status(c: _Cell, box: Box) -> str:
    """``valid``, ``invalid`` or ``unknown`` on the box (module docstring)."""
    ranges = [_eps_range(_enclose(u, box)) for u in c.lams]
    f = _eps_range(_enclose(c.found, box))
    if f is None or any(r is None for r in ranges):  # near a pole, or a tail where λᵢ grows
        return "valid" if _large_lemma(c, box) else "unknown"
    f_lo, f_hi = (ball_bounds(x / c.k) for x in f)
    lows = c_terms(c, [r[0] for r in ranges])  # type: ignore[index]
    highs = c_terms(c, [r[1] for r in ranges])  # type: ignore[index]
    if any(ball_bounds(h)[1] < f_lo[0] for h in highs):
        return "invalid"
    if all(ball_bounds(lo)[0] >= f_hi[1] for lo in lows):
        return "valid"
    return "unknown"


def c_terms(c: _Cell, eps: list) -> list:
    return TERMS[c.theorem](eps, c.slack)


def _large_lemma(c: _Cell, box: Box) -> bool:
    """Where some λᵢ is unbounded on the box (a tail, or near a pole): PrivLoss ≤ Σεᵢ on the cell
    (exact), and every term − Σεᵢ ≥ 0 on the box.  Each such λᵢ must be ≥ 15/2 there, so εᵢ ≥ 2,
    where term − Σεᵢ is increasing in εᵢ (module docstring): it is at least its value with εᵢ at
    the lower end of its range, and the other εⱼ anywhere in theirs."""
    if not c.sum_ok:
        return False
    lows, sums = [], flint.arb(0)
    for u in c.lams:
        r = _eps_range(_enclose(u, box))
        if r is None:
            inv = _enclose(UniRat(u.den, u.num), box)
            if not inv.is_finite() or ball_bounds(inv)[1] > 1 / _BIG:
                return False
            r = (_arb(1 / ball_bounds(inv)[1]).log(),) * 2
        lows.append(r[0])
        sums += r[1]
    top = ball_bounds(sums)[1]
    return all(ball_bounds(t)[0] >= top for t in c_terms(c, lows))


def _inside(side: Side, s: Fraction) -> bool:
    if side.kind == "point":
        return side.at is not None and side.at.q == flint.fmpq(s.numerator, s.denominator)
    if side.kind == "domain":
        d = side.domain
        q = flint.fmpq(s.numerator, s.denominator)
        above = d.lo is None or q > d.lo or (d.lo_closed and q == d.lo)
        return above and (d.hi is None or q < d.hi or (d.hi_closed and q == d.hi))
    return side.inside(rational(flint.fmpq(s.numerator, s.denominator)))


def _outside(side: Side, box: Box) -> bool:
    if side.kind != "open":
        return False
    q = lambda x: rational(flint.fmpq(x.numerator, x.denominator))  # noqa: E731
    if box.hi is not None and side.lo is not None and compare(q(box.hi), side.lo) <= 0:
        return True
    return box.lo is not None and side.hi is not None and compare(q(box.lo), side.hi) >= 0


def _examine(c: _Cell, box: Box, budget: list[int], side: Side) -> str:
    """The box's status (:func:`_status`) at a precision that grows as boxes narrow, counted
    against the ``max_symbol_boxes`` limit."""
    cap = limits.current().max_symbol_boxes
    budget[0] += 1
    if budget[0] > cap:
        raise Undecided(
            f"not decided within --max-symbol-boxes {cap} boxes of {side.domain.name} (the theorem's bound may meet "
            f"PrivLoss near {side.text()}); raise it with --max-symbol-boxes N"
        )
    width = None if box.tail else box.hi - box.lo  # type: ignore[operator]
    prec = _PREC if not width else _PREC + 2 * max(0, width.denominator.bit_length() - width.numerator.bit_length())
    with arb_prec(min(prec, limits.current().max_precision)):
        return _status(c, box)


def _at_point(c: _Cell, side: Side, want: str, budget: list[int]) -> BoxStatus:
    """A point cell: the closed forms enclosed on the point's isolating interval (refined until
    the status is known); an irrational point where the claim fails has no rational ``at``."""
    a = side.at
    assert a is not None
    for _ in range(64):
        st = _examine(c, Box(_frac(a.lo), _frac(a.hi)), budget, side)
        if st != "unknown":
            return BoxStatus(st == want, _frac(a.q) if st != want else None, 1, whole=st != want)
        if a.q is not None:
            break
        for _ in range(8):
            a.refine()
    raise Undecided(f"at {side.text()} the enclosures do not separate the theorem's bound from PrivLoss")


def _frac(x: Any) -> Fraction | None:
    return None if x is None else Fraction(int(x.p), int(x.q))


def decide_on_cell(
    ctx: Ctx,
    index: int,
    theorem: str,
    lams: Sequence[RatFun],
    found: Any,
    slack: Any,
    sum_ok: bool,
    budget: list[int],
    negated: bool = False,
) -> BoxStatus:
    """Whether PrivLoss = log(``found``.R)/``found``.k is at most every term of ``theorem`` on the
    cell (symbol ``index``) — with ``negated``, above one of them — by branch and bound over
    rational boxes covering it; ``budget`` is the
    claim's count of boxes so far (the ``max_symbol_boxes`` limit).  Raises :class:`Undecided` when
    boxes narrower than 2^-60, or tails beyond 2^64, do not decide it."""
    side = ctx.cell.sides[index]
    c = _Cell(theorem, [UniRat.of(r, index) for r in lams], UniRat.of(found.R, index), found.k, _arb(slack), sum_ok)
    want = "invalid" if negated else "valid"
    if side.kind == "point":
        return _at_point(c, side, want, budget)
    lo, hi = (_frac(x) for x in side.rational_bounds())
    queue = deque(initial_boxes(lo, hi))
    boxes, right, wrong = 0, False, None  # a box proved, and a rational point of the cell proved wrong
    while queue:
        box = queue.popleft()
        if _outside(side, box):
            continue
        boxes += 1
        if wrong is not None and (right or boxes > _AFTER):  # the claim fails in part of the cell, at `wrong`
            return BoxStatus(False, wrong, boxes)
        st = _examine(c, box, budget, side)
        if st == want:
            right = True
            continue
        s = box.point()
        if st != "unknown" and (wrong is not None or _inside(side, s)):
            wrong = s if wrong is None else wrong
            continue
        if box.tail and abs(s) > TAIL_CAP or not box.tail and box.hi - box.lo < _NARROW:  # type: ignore[operator]
            if wrong is not None:
                return BoxStatus(False, wrong, boxes)
            raise Undecided(_why(side, box, s))
        queue.extend(box.split())
    return BoxStatus(wrong is None, wrong, boxes, whole=wrong is not None and not right)


def _why(side: Side, box: Box, s: Fraction) -> str:
    name = side.domain.name
    if box.tail:
        return (
            f"on the unbounded range of {name} the bound is compared with PrivLoss on boxes up to |{name}| = 2^64 and "
            f"not decided beyond (near {side.text()})"
        )
    return (
        f"not separated near {name} = {ladder.decimal(s, 12)}: enclosures on boxes narrower than 2^-60 do not decide "
        "it (the bound meets PrivLoss there, or both vanish at an open end of the range)"
    )
