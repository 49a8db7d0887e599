r"""Zero-concentrated DP for every value of one symbol: certified branch and bound over (α, s).

M is ρ-zCDP when D_α(M(x) ‖ M(x')) ≤ ρα for every real α > 1 and every ordered adjacent pair
(Bun & Steinke 2016, Def. 1.1).  With probabilities that are rational functions of a symbol s
and ρ = ρ(s) a rational function of it too (or a rational), the claim is that

.. math::  g(\alpha, s) = \rho(s)\,\alpha(\alpha - 1) - \varphi(\alpha, s) \ge 0
           \qquad (\alpha > 1,\ s \text{ in the domain}),

φ(α, s) = log S*(α, s), S* the largest Rényi sum Σ_v P^α P'^{1−α} over ordered pairs and
adaptive adversaries.  This module extends the concrete decision (:mod:`exactdp.analysis.zcdp`,
certified branch and bound over α) to boxes of s:

* **A box of s** is a closed interval [a, b] with rational ends covering part of the closure
  of the domain (or a tail [M, ∞), read in t = 1/s); every probability and every likelihood
  ratio p/p' (a rational function in lowest terms) is enclosed on it by python-flint's arb
  balls (:class:`ZGame`, with the centred forms of :mod:`~exactdp.analysis.parametric.boxes`).
* **An upper bound of φ(α, ·) on the box** at a rational α comes from the Rényi induction on
  these enclosures: an answer node gives Σ_a p'_a ρ_a^α S(child_a) (ρ_a^α ∈ [0, hi^α] when the
  ratio may vanish), an adversary choice the largest of its options, the end 1; the largest over
  ordered pairs is S*.  Enclosures of a maximum enclose the maximum, so the bound holds for
  every adaptive adversary and every s in the box.
* **Convexity in α** (each adversary's sum is a sum of exponentials in α, so φ(·, s) is convex,
  and φ(1, s) = 0 when no view is possible under x alone): on [α₁, α₂], φ(α, s) lies below the
  chord through (α₁, φ(α₁, s)) and (α₂, φ(α₂, s)), hence below the chord through the box's upper
  bounds U(α₁), U(α₂) (its weights are ≥ 0); with ρ_lo the lower end of ρ on the box, g ≥ 0 on
  [α₁, α₂] × box follows when ρ_lo·α(α − 1) − chord(α) has a nonnegative minimum there, decided
  exactly in rationals (:func:`exactdp.analysis.zcdp.chord_verified`).  Near α → 1 this is the
  chord from (1, 0): it proves the claim when the KL divergence stays below ρ on the box.
* **The tail in α**: D_α ≤ D_∞ = log sup P/P' (Mironov 2017, Prop. 1), enclosed on the box by
  the same induction with the largest ratio at each answer node; for α ≥ A = D_∞,hi/ρ_lo,
  D_α ≤ ρ_lo·α, so only (1, A] is covered by α-boxes; D_∞,hi ≤ ρ_lo proves the box outright.

A box of s that is not proved within :data:`ALPHA_BOXES` α-boxes is split at its midpoint, and
the midpoint is a candidate counterexample: the caller's ``refute(s, α)`` decides the claim at
the rational value s with the exact concrete engine (the mechanism with the symbol given that
value), using α — the order where the box came closest to failing — to screen cheaply first.
Nothing is decided from a sample: a box proves only by its enclosures, a refutation is the
exact engine's verdict at a rational value.  The number of boxes of s is the
``max_symbol_boxes`` limit; a box narrower than 2^-40 means that D_α/α touches ρ there
(typically at an open end of the domain where both tend to 0, such as ρ = (E − 1)²/2 for RR_E as
E → 1), and the claim is undecided.

References
----------
M. Bun, T. Steinke, *Concentrated Differential Privacy: Simplifications, Extensions, and Lower
Bounds*, TCC 2016, Def. 1.1.  I. Mironov, *Rényi Differential Privacy*, CSF 2017, Prop. 1.
F. Johansson, *Arb*, IEEE Trans. Computers 66(8), 2017.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ... import limits
from ...lazy import flint
from ...numbers import ladder
from ...numbers.certified import arb_prec, ball_bounds
from ..zcdp import chord_verified
from .boxes import TAIL_CAP, Box, KLGame, UniRat, Val, _Eval, _fmpq, _nonneg, _upper, _vmax, initial_boxes

__all__ = [
    "ZBoxResult",
    "ZGame",
    "Rho",
    "rho_ball",
    "decide_zcdp_boxes",
    "ALPHA_BOXES",
    "INFINITE",
    "HOLDS",
    "FAILS",
    "UNDECIDED",
]

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
ALPHA_BOXES = 1024
"""α-boxes tried on one box of the symbol before the box is split (at most ``max_alpha_boxes``);
the work is bounded by ``max_symbol_boxes`` times this.  Next to a boundary whose largest D_α/α
lies at an order close to 1, proving a box takes 300–450 of them (the chord from α = 1 needs
α-boxes about as narrow as the margin, reached by bisection): 256 left such boxes unproved at
every width of the symbol's box."""
_PREC = 128
_MIN_WIDTH = Fraction(1, 1 << 40)


@dataclass(frozen=True)
class ZBoxResult:
    """The outcome: ``status``, the boxes of the symbol examined, the value ``at`` that refutes
    the claim with the caller's verdict ``there``, and ``reason`` when undecided."""

    status: str
    boxes: int
    at: Fraction | None = None
    there: Any = None
    reason: str = ""


class ZGame(KLGame):
    """A parametric game read for Rényi sums on boxes of its one symbol (at ``index`` of its
    ring), with :class:`KLGame`'s terms per ordered pair: ``(p, p', p/p', child)``, or
    ``("inf", p, child)`` for an answer with p' ≡ 0 < p (an answer with p ≡ 0 has no term)."""

    def infinite(self) -> bool:
        """Whether some ordered pair has, for some adversary, a view possible under x alone
        whose probability under x is a product of rational functions none of which is ≡ 0:
        then D_α = ∞ for every value of the symbol except the zeros of those functions."""
        for i, j in self.game.ordered_pairs:
            memo: list[bool] = []
            for node in self.nodes:
                if node[0] == "end":
                    memo.append(False)
                elif node[0] == "ask":
                    memo.append(any(memo[c] for c in node[1]))
                else:
                    memo.append(any(t[0] == "inf" or memo[t[-1]] for t in node[1][(i, j)]))
            if memo[-1]:
                return True
        return False

    def numerators(self) -> list[Any]:
        """The distinct numerators (integer polynomials) of the probabilities under every
        dataset: where none vanishes, every answer with p ≢ 0 has p > 0."""
        out: dict[str, Any] = {}
        for node in self.game.nodes:
            if node[0] == "chance":
                for row in node[1]:
                    for p in row:
                        if not p.is_zero():
                            u = UniRat.of(p, self.index)
                            out.setdefault(str(u.num), u.num)
        return list(out.values())

    def _walk(self, ev: _Eval, i: int, j: int, term: Callable[[Any, Any, Any], Any], join: Callable) -> Any:
        """The upper induction on pair (i, j): ends 1, choices the max, answer nodes ``join`` the
        ``term(P', ratio, child)`` of their answers; None when some value is unbounded."""
        memo: list[Any] = []
        for node in self.nodes:
            if node[0] == "end":
                memo.append(flint.arb(1))
            elif node[0] == "ask":
                opts = [memo[c] for c in node[1]]
                memo.append(None if any(o is None for o in opts) else _max(opts))
            else:
                vals: list[Any] = []
                for t in node[1][(i, j)]:
                    child = memo[t[-1]]
                    q = None if t[0] == "inf" or child is None else ev.val(t[2]).r
                    if q is None or not q.is_finite():
                        break  # a view possible under x alone, or an unbounded ratio
                    vals.append(term(_nonneg(ev.val(t[1]).r), _nonneg(q), child))
                else:
                    memo.append(join(vals))
                    continue
                memo.append(None)
        return memo[-1]

    def sum_upper(self, ev: _Eval, alpha: Fraction) -> Fraction | None:
        """An upper bound of log S*(α, s) for every s of the box (None: unbounded)."""
        a = flint.arb(_fmpq(alpha))
        top = None
        for i, j in self.game.ordered_pairs:
            s = self._walk(ev, i, j, lambda pp, q, child: pp * _power(q, a) * child, _total)
            if s is None:
                return None
            top = s if top is None else top.max(s)
        assert top is not None
        return _log_upper(top)

    def sum_centred(self, ev: _Eval, alpha: Fraction) -> Fraction | None:
        """Like :meth:`sum_upper`, by centred forms (values at the box's centre and slopes on the
        box, :class:`~exactdp.analysis.parametric.boxes.Val`): each term p'·(p/p')^α·S(child) has
        the slope p''·q^α·S + α·p'·q^(α−1)·q'·S + …, so near α = 1, where S* ≈ 1 for every s, the
        bound is not lost to the width of the box (calibration, next to a boundary)."""
        if self.box_is_tail(ev):
            return self.sum_upper(ev, alpha)
        top = self.sum_val(ev, alpha)
        if top is None:
            return None
        up = _upper(top, ev.box, ev.centre)
        if up is None or up <= 0:
            return None
        return ball_bounds(flint.arb(_fmpq(up)).log())[1]

    def sum_val(self, ev: _Eval, alpha: Fraction) -> Val | None:
        """S*(α, s) on a box that is not a tail, as a centred form (:meth:`sum_centred`); None
        when a view is possible under one dataset only."""
        a = flint.arb(_fmpq(alpha))
        top: Val | None = None
        for i, j in self.game.ordered_pairs:
            memo: list[Val] = []
            for node in self.nodes:
                if node[0] == "end":
                    one = flint.arb(1)
                    memo.append(Val(one, one, flint.arb(0)))
                elif node[0] == "ask":
                    memo.append(_vmax([memo[c] for c in node[1]]))
                else:
                    total = Val(flint.arb(0), flint.arb(0), flint.arb(0))
                    for t in node[1][(i, j)]:
                        if t[0] == "inf":
                            return None
                        total = total + ev.val(t[1]) * _val_power(ev.val(t[2]), a) * memo[t[-1]]
                    memo.append(total)
            top = memo[-1] if top is None else _vmax([top, memo[-1]])
        return top

    @staticmethod
    def box_is_tail(ev: _Eval) -> bool:
        return ev.box.tail

    def dinf_upper(self, ev: _Eval) -> Fraction | None:
        """An upper bound of D_∞ = log of the largest P/P' over adversaries and views, on the box."""
        top = None
        for i, j in self.game.ordered_pairs:
            r = self._walk(ev, i, j, lambda pp, q, child: q * child, lambda v: _max(v) if v else flint.arb(1))
            if r is None:
                return None
            top = r if top is None else top.max(r)
        assert top is not None
        return _log_upper(top)

    def sum_lower(self, ev: _Eval, alpha: Fraction) -> Fraction | str | None:
        """A lower bound of log S*(α, s) for every s of the box (the largest over ordered pairs
        of their lower bounds); :data:`INFINITE` when a view possible under x alone is reached
        with probability > 0 on the whole box (D_α = ∞ there); None when none is found."""
        a = flint.arb(_fmpq(alpha))
        best: Fraction | None = None
        for i, j in self.game.ordered_pairs:
            s = self._lower(ev, i, j, a)
            if s is INFINITE:
                return INFINITE
            if s is None or not s.is_finite():
                continue
            lo = ball_bounds(s)[0]
            if lo > 0:
                v = ball_bounds(flint.arb(_fmpq(lo)).log())[0]
                best = v if best is None or v > best else best
        return best

    def _lower(self, ev: _Eval, i: int, j: int, a: Any) -> Any:
        """Balls whose lower ends bound each node's largest Rényi sum from below (a term that
        cannot be bounded counts 0: every term is ≥ 0); :data:`INFINITE` as above."""
        memo: list[Any] = []
        for node in self.nodes:
            if node[0] == "end":
                memo.append(flint.arb(1))
            elif node[0] == "ask":
                opts = [memo[c] for c in node[1]]
                known = [o for o in opts if o is not None and o is not INFINITE]
                memo.append(INFINITE if INFINITE in opts else (_max(known) if known else None))
            else:
                acc: Any = flint.arb(0)
                for t in node[1][(i, j)]:
                    child = memo[t[-1]]
                    if t[0] == "inf" or child is INFINITE:
                        p_pos = t[0] == "inf" and ev.val(t[1]).r > 0
                        if p_pos or (child is INFINITE and ev.val(t[1]).r > 0 and ev.val(t[2]).r > 0):
                            acc = INFINITE  # the view under x has probability > 0 on the whole box
                            break
                        continue
                    q = ev.val(t[2]).r
                    if child is None or not q.is_finite():
                        continue
                    acc += _nonneg(ev.val(t[1]).r) * _power(_nonneg(q), a) * child
                memo.append(acc)
        return memo[-1]


INFINITE = "inf"


def _val_power(q: Val, a: Any) -> Val:
    """q^α with its slope α·q^(α−1)·q' (q > 0 on the box; else unbounded)."""
    if not (q.bounded and q.r > 0):
        return Val(flint.arb("nan"), flint.arb("nan"), None)
    L = None if q.L is None else a * (((a - 1) * q.r.log()).exp()) * q.L
    return Val((a * q.c.log()).exp(), (a * q.r.log()).exp(), L)


def _power(q: Any, a: Any) -> Any:
    """q^α for a ball q ≥ 0 (α > 1): exp(α log q), or [0, hi^α] when q may vanish."""
    if q > 0:
        return (a * q.log()).exp()
    hi = flint.arb(_fmpq(ball_bounds(q)[1]))
    return flint.arb(0).union((a * hi.log()).exp()) if hi > 0 else flint.arb(0)


def _max(balls: list[Any]) -> Any:
    m = balls[0]
    for b in balls[1:]:
        m = m.max(b)
    return m


def _total(vals: list[Any]) -> Any:
    acc = flint.arb(0)
    for v in vals:
        acc += v
    return acc


def _log_upper(x: Any) -> Fraction | None:
    """A rational upper bound of log of the largest value of the ball x (> 0)."""
    if not x.is_finite():
        return None
    hi = ball_bounds(x)[1]
    if hi <= 0:
        return None
    return ball_bounds(flint.arb(_fmpq(hi)).log())[1]


Rho = UniRat | Callable[[Box], Any]
"""ρ(s): a rational function of the symbol, or a function giving a certified enclosure of ρ on a
box (an expression with logarithms, :func:`exactdp.numbers.symball.sym_ball`; a ball that is not
finite where it cannot be bounded, as on a tail)."""


def rho_ball(rho: Rho, ev: _Eval, box: Box) -> Any:
    """An Arb ball containing ρ(s) for every s of the box."""
    return ev.val(rho).r if isinstance(rho, UniRat) else rho(box)


def rho_val(rho: Rho, ev: _Eval, box: Box) -> Val:
    """ρ on the box as a :class:`~exactdp.analysis.parametric.boxes.Val` (centred form for a
    rational function; for an expression with logarithms, its enclosures at the centre and on the
    box, slope unknown)."""
    if isinstance(rho, UniRat):
        return ev.val(rho)
    centre = box.point() if not box.tail else None
    return Val(rho(Box(centre, centre)) if centre is not None else flint.arb("nan"), rho(box), None)


@dataclass
class _BoxCheck:
    """Whether g ≥ 0 on (1, ∞) × box, and the order where it came closest to failing."""

    proved: bool
    alpha: Fraction | None = None
    why: str = ""


def _check_box(
    zg: ZGame, rho: Rho, box: Box, min_alpha_width: Fraction = Fraction(1, 1 << 20), centred: bool = False
) -> _BoxCheck:
    """Whether g ≥ 0 on (1, ∞) × box (module docstring); α-boxes narrower than ``min_alpha_width``
    are not split, and ``centred`` bounds the Rényi sums by centred forms too (calibration asks
    for both, next to where the claim changes)."""
    ev = _Eval(box, None if box.tail else box.point())
    r = rho_ball(rho, ev, box)
    if not r.is_finite():
        return _BoxCheck(False, None, "rho or a likelihood ratio is unbounded there")
    if not r > 0:
        return _BoxCheck(False, None, "rho is not proved positive there")
    rho_lo = ball_bounds(r)[0]
    dinf = zg.dinf_upper(ev)
    if dinf is None:
        return _BoxCheck(False, None, "a likelihood ratio is unbounded there")
    if dinf <= rho_lo:
        return _BoxCheck(True)
    top = max(Fraction(2), dinf / rho_lo + 1)
    cache: dict[Fraction, Fraction | None] = {Fraction(1): Fraction(0)}

    def phi(a: Fraction) -> Fraction | None:
        if a not in cache:
            u = zg.sum_upper(ev, a)
            v = zg.sum_centred(ev, a) if centred else None
            cache[a] = v if u is None else (u if v is None else min(u, v))
        return cache[a]

    cuts = [Fraction(1), Fraction(9, 8), Fraction(5, 4), Fraction(3, 2), Fraction(2)]
    while cuts[-1] < top:
        cuts.append(min(top, 2 * cuts[-1] - 1))
    stack = [(cuts[k], cuts[k + 1]) for k in reversed(range(len(cuts) - 1))]
    tried = 0
    while stack:
        a, b = stack.pop()
        tried += 1
        ua, ub = phi(a), phi(b)
        if ua is None or ub is None:
            return _BoxCheck(False, None, "a Renyi sum is unbounded there")
        if chord_verified(rho_lo, a, b, ua, ub):
            continue
        m = (a + b) / 2
        if tried >= min(ALPHA_BOXES, limits.current().max_alpha_boxes) or b - a < min_alpha_width:
            return _BoxCheck(False, m)
        stack.append((m, b))
        stack.append((a, m))
    return _BoxCheck(True)


_GRID = [Fraction(1) + Fraction(1, 2**k) for k in (8, 6, 4, 2)] + [Fraction(k) for k in (2, 3, 5, 9, 17, 33)]
"""Orders tried first to prove a box of ``not_zcdp`` (D_α > ρα at one of them on the whole box)."""


def _check_box_not(zg: ZGame, rho: Rho, box: Box, alphas: list[Fraction]) -> _BoxCheck:
    """Whether D_α > ρα at one order α of ``alphas`` for every s of the box (not ρ-zCDP there)."""
    ev = _Eval(box, None if box.tail else box.point())
    r = rho_ball(rho, ev, box)
    if not r.is_finite():
        return _BoxCheck(False, None, "rho is unbounded there")
    rho_hi = ball_bounds(r)[1]
    for a in alphas:
        low = zg.sum_lower(ev, a)
        if low is INFINITE or (low is not None and low > rho_hi * a * (a - 1)):  # type: ignore[operator]
            return _BoxCheck(True, a)
    return _BoxCheck(False)


def peak_alpha(zg: ZGame, rho: Rho, box: Box, steps: int = 40) -> Fraction | None:
    """A candidate order for :func:`_check_box_not`: where D_α − ρα is largest at the box's
    centre, by a coarse scan (α − 1 = 2^-j, and 16 steps up to where D_∞ ≤ ρα) and a bracketing
    search (each step keeps 5/8 of the bracket) on lower bounds of log S* there.  Only a candidate: the refutation is proved
    on the whole box at this order.  Next to where the claim changes, the orders at which
    D_α > ρα form a narrow band around the maximum, which fixed grids miss (the maximum can lie
    at α ≈ 1.04 or at α ≈ 2.95 for the same mechanism); None on a tail or where nothing is
    bounded."""
    if box.tail:
        return None
    c = box.point()
    ev = _Eval(Box(c, c), c)
    r = rho_ball(rho, ev, Box(c, c))
    dinf = zg.dinf_upper(ev)
    if dinf is None or not (r.is_finite() and r > 0):
        return None
    rho_c = ball_bounds(r)[0]
    top = max(Fraction(2), dinf / rho_c + 1)

    def excess(a: Fraction) -> Fraction | None:  # a lower bound of D_α − ρα at the centre
        low = zg.sum_lower(ev, a)
        return None if low is None or low is INFINITE else low / (a - 1) - rho_c * a  # type: ignore[operator]

    grid = [Fraction(1) + Fraction(1, 2**j) for j in range(1, 13)]
    grid += [Fraction(1) + (top - 1) * Fraction(j, 16) for j in range(1, 17)]
    scored = sorted((a, e) for a in set(grid) if (e := excess(a)) is not None)
    if not scored:
        return None
    k = max(range(len(scored)), key=lambda i: scored[i][1])
    lo, hi = scored[max(k - 1, 0)][0], scored[min(k + 1, len(scored) - 1)][0]
    for _ in range(steps):  # (D_α − ρα is unimodal near its maximum: keep the better side)
        m1, m2 = lo + (hi - lo) * Fraction(3, 8), lo + (hi - lo) * Fraction(5, 8)
        e1, e2 = excess(m1), excess(m2)
        if e1 is None or e2 is None:
            break
        lo, hi = (lo, m2) if e1 >= e2 else (m1, hi)
    return Fraction(round((lo + hi) / 2 * 2**48), 2**48)  # (a short dyadic: the bracket's denominators grow as 8^k)


Refute = Callable[[Fraction, Fraction | None], tuple[Any, Fraction | None]]


def decide_zcdp_boxes(
    zg: ZGame,
    rho: Rho,
    domain: tuple[Fraction | None, bool, Fraction | None, bool],
    refute: Refute,
    name: str,
    *,
    negated: bool = False,
) -> ZBoxResult:
    """Decide "M is ρ(s)-zCDP for every s of the domain" (``negated``: "M is not ρ(s)-zCDP
    for every s") by boxes of the symbol (module docstring).

    ``domain`` is (lo, lo_closed, hi, hi_closed) with None for an infinite end.  ``refute(s, α)``
    decides the claim at the rational value s with the exact engine and returns (its verdict when
    the claim fails there, else None; an order where the mechanism is not ρ(s)-zCDP, when the exact
    engine found one, to try on the boxes of ``not_zcdp``); α is an order to screen with, or None."""
    lo, lo_closed, hi, hi_closed = domain
    cap = limits.current().max_symbol_boxes
    hints: list[Fraction] = []
    for s in (e for e, closed in ((lo, lo_closed), (hi, hi_closed)) if e is not None and closed):
        there, hint = refute(s, None)
        if there is not None:
            return ZBoxResult(FAILS, 0, s, there)
        hints += [hint] if hint is not None else []
    queue = deque(initial_boxes(lo, hi))
    boxes = 0
    while queue:
        box = queue.popleft()
        boxes += 1
        if boxes > cap:
            return ZBoxResult(
                UNDECIDED,
                boxes - 1,
                reason=f"not decided within --max-symbol-boxes {cap} boxes of {name}: near {box.text(name)} "
                f"the enclosures neither prove nor refute D_alpha {'>' if negated else '<='} rho*alpha (D_alpha/alpha "
                "may touch rho); raise it with --max-symbol-boxes N",
            )
        prec = _PREC if box.tail else _PREC + 2 * max(0, -_log2(box.hi - box.lo))  # type: ignore[operator]
        with arb_prec(min(prec, limits.current().max_precision)):
            res = _check_box_not(zg, rho, box, hints + _GRID) if negated else _check_box(zg, rho, box)
            if negated and not res.proved and (a := peak_alpha(zg, rho, box)) is not None:
                res = _check_box_not(zg, rho, box, [a])
        if res.proved:
            continue
        s = box.point()
        there, hint = refute(s, None if negated else res.alpha)
        if there is not None:
            return ZBoxResult(FAILS, boxes, s, there)
        if hint is not None and hint not in hints:
            hints.insert(0, hint)
        if box.tail and abs(s) > TAIL_CAP:
            return ZBoxResult(
                UNDECIDED,
                boxes,
                reason=f"the Renyi divergences are not bounded soundly as {name} -> "
                f"{'inf' if box.hi is None else '-inf'} (enclosures beyond |{name}| = 2^64 do not prove the claim"
                f"{'; ' + res.why if res.why else ''})",
            )
        if not box.tail and box.hi - box.lo < _MIN_WIDTH:  # type: ignore[operator]
            return ZBoxResult(
                UNDECIDED,
                boxes,
                reason=f"D_alpha/alpha touches rho near {name} = {ladder.decimal(s, 12)}: enclosures on boxes "
                f"narrower than 2^-40 do not separate them{' (' + res.why + ')' if res.why else ''}",
            )
        queue.extend(box.split())
    return ZBoxResult(HOLDS, boxes)


def _log2(x: Fraction) -> int:
    return x.numerator.bit_length() - x.denominator.bit_length()
