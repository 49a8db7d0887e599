r"""Certified branch and bound over one symbol's domain, for quantities transcendental in it.

The KL divergence (Rényi order α = 1) of a mechanism whose probabilities are rational functions
of a symbol s is a sum of terms p(s)·log(p(s)/p'(s)): it is not a rational function of s, so the
cell decomposition (:mod:`~exactdp.analysis.parametric.cells`) cannot compare it with a bound.
This module decides ``KL(M)(s) ≤ X(s)`` (or ``>``) for every s in the declared domain by
**certified enclosures on boxes**:

* a box is a closed interval [a, b] with rational ends inside the closure of the domain (or a
  tail [M, ∞), (−∞, −M]); every probability — a rational function of s held exactly by the
  parametric engine — is enclosed on the box by python-flint's arb balls (Johansson 2017), with
  the ball of its derivative;
* the KL backward induction (as in :mod:`exactdp.analysis.renyi`: an answer node gives
  Σ_a p_a (log(p_a/p'_a) + KL(child_a)), answers with p_a ≡ 0 skipped; an adversary choice
  takes the largest of its options; the end gives 0) runs on these enclosures.  Every value
  carries three balls: at the box's centre c, on the whole box, and a *slope* ℓ with
  v(s) − v(c) = ℓ·(s − c) for every s of the box (mean-value form; Neumaier 1990, §2.3).
  Slopes of sums add; of products, u(B)·ℓ_w + w(c)·ℓ_u; of log u, ℓ_u/u(B); and of a maximum,
  the hull of the options' slopes (for s > c, max(u, w)(s) − max(u, w)(c) lies between the
  least and the largest of ℓ_u·(s − c), ℓ_w·(s − c)).  The maximum of enclosures encloses the
  maximum, so the enclosure holds against every adaptive adversary;
* a term whose p may vanish on the box (no slope then) uses the enclosure of log(p/p') when the
  ratio p/p' (a rational function, in lowest terms) is bounded away from 0 and ∞ on the box,
  else x·log x ∈ [−1/e, max(0, X·log X)] for x ∈ [0, X] with p' > 0 on the box; otherwise it is
  unbounded (the box is split);
* a box **proves** the claim when the upper end of KL − X on it is ≤ 0 (``at_most``; for
  ``exceeds`` the lower end > 0), with the centre at the midpoint, or — for a box touching an
  end of the domain, where KL − X may tend to 0 — at that end; the final bound is computed in
  exact rationals from the balls' rational ends;
* otherwise the box is split at its rational midpoint, and the midpoint is a candidate
  counterexample: when the enclosure *at that point* is certified on the wrong side, the caller
  re-decides the claim there with the exact concrete engine (which must agree);
* a tail s ≥ M (or s ≤ −M) is read in t = σ/s ∈ [0, 1/M]: every p and p/p' is t^(−k)·g(t) with
  g rational in t and g(0) ≠ 0, so log(p/p') = log g(t) + k·log|s| and the KL is bounded by
  A(t) + B(t)·log|s| with A, B enclosed (with slopes, centred at t = 0) on [0, 1/M]; for an
  upper bound an adversary's choice takes the largest A and the largest B (log|s| ≥ 0).  With
  the bound X = A_X(t) + B_X·log|s| likewise, the tail is proved when B − B_X ≤ 0 on the box
  and A − A_X + (B − B_X)·λ ≤ 0 for a rational λ ≤ log M: KL(RR_E) ≤ log E on E > 1, where
  B − B_X = −2t/(1 + t), is proved this way.  A tail where everything stays bounded is also
  enclosed directly in t.

Nothing is decided from a float or a sample: a box proves only by its enclosure, and a
refutation is the exact engine's verdict at a rational value.  The number of boxes is the
``max_symbol_boxes`` limit (``--max-symbol-boxes``); the tails of an unbounded domain are
split up to abs(s) = 2^64, beyond which the answer is undecided.

References
----------
Johansson, *Arb: efficient arbitrary-precision midpoint-radius interval arithmetic*, IEEE Trans.
Computers 66(8), 2017.  Neumaier, *Interval Methods for Systems of Equations*, Cambridge 1990,
§2.3 (centred forms and slopes).  Moore, Kearfott & Cloud, *Introduction to Interval Analysis*,
SIAM 2009, Ch. 6 (branch and bound).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ... import limits
from ...lazy import flint
from ...numbers import ladder
from ...numbers.certified import arb_prec, ball_bounds
from ...numbers.rational import q_short
from .engine import PGame
from .ratfun import RatFun

__all__ = [
    "Box",
    "Target",
    "BoxResult",
    "UniRat",
    "KLGame",
    "Val",
    "kl_enclosure",
    "branch_and_bound",
    "initial_boxes",
    "HOLDS",
    "FAILS",
    "UNDECIDED",
    "TAIL_CAP",
    "EQUALS_POINTS",
]

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"
TAIL_CAP = Fraction(2) ** 64
"""Tails of an unbounded domain are split up to abs(s) = 2^64; beyond, the claim is undecided."""
_PREC = 128
EQUALS_POINTS = 64
"""An ``equals`` claim (never proved by enclosures) is tried at this many rational values."""


@dataclass(frozen=True)
class Box:
    """A closed interval of the symbol: ``lo``/``hi`` rational, ``None`` for −∞/+∞ (a tail:
    exactly one end infinite, the other of the tail's sign)."""

    lo: Fraction | None
    hi: Fraction | None

    @property
    def tail(self) -> bool:
        return self.lo is None or self.hi is None

    def split(self) -> tuple[Box, Box]:
        """Two boxes covering this one: at the rational midpoint, or a tail [M, ∞) as [M, 2M] and [2M, ∞)."""
        if self.hi is None:
            assert self.lo is not None
            return Box(self.lo, 2 * self.lo), Box(2 * self.lo, None)
        if self.lo is None:
            return Box(None, 2 * self.hi), Box(2 * self.hi, self.hi)
        m = (self.lo + self.hi) / 2
        return Box(self.lo, m), Box(m, self.hi)

    def point(self) -> Fraction:
        """A rational point inside the box (its midpoint; for a tail, twice its finite end)."""
        if self.hi is None:
            assert self.lo is not None
            return 2 * self.lo
        if self.lo is None:
            return 2 * self.hi
        return (self.lo + self.hi) / 2

    def text(self, name: str) -> str:
        lo = "-inf" if self.lo is None else q_short(self.lo)
        hi = "inf" if self.hi is None else q_short(self.hi)
        return f"{name} in [{lo}, {hi}]"


def initial_boxes(lo: Fraction | None, hi: Fraction | None) -> list[Box]:
    """Boxes covering the closure of the domain (lo, hi) (``None``: unbounded): the tails start
    at abs(s) ≥ 1 so that splitting them doubles their finite end."""
    if lo is not None and hi is not None:
        return [Box(lo, hi)]
    if lo is not None:
        a = max(lo + 1, Fraction(1))
        return [Box(lo, a), Box(a, None)]
    if hi is not None:
        b = min(hi - 1, Fraction(-1))
        return [Box(None, b), Box(b, hi)]
    return [Box(None, Fraction(-1)), Box(Fraction(-1), Fraction(1)), Box(Fraction(1), None)]


# --- rational functions of one symbol, on balls ----------------------------------------------


def _fmpq(x: Fraction) -> flint.fmpq:
    return flint.fmpq(x.numerator, x.denominator)


def _ball(lo: Fraction, hi: Fraction) -> flint.arb:
    """An arb ball containing [lo, hi] (at the working precision)."""
    return flint.arb(_fmpq(lo)).union(flint.arb(_fmpq(hi)))


def _apoly(p: flint.fmpq_poly) -> flint.arb_poly:
    return flint.arb_poly([flint.arb(c) for c in p.coeffs()])


def _reversed(p: flint.fmpq_poly, n: int, sigma: int) -> flint.fmpq_poly:
    """x^n·p(σ/x) as a polynomial in x (n ≥ deg p)."""
    cs = p.coeffs()
    out = [flint.fmpq(0)] * (n + 1)
    for k, c in enumerate(cs):
        out[n - k] = c * (sigma**k)
    return flint.fmpq_poly(out)


class UniRat:
    """A rational function of one variable, n/d with n, d ∈ ℚ[x], with its derivative, evaluated
    on balls.  :meth:`of` reads a :class:`~exactdp.analysis.parametric.ratfun.RatFun` whose only
    variable is the symbol at ``index`` of its ring; :meth:`at_infinity` gives it in t = σ/s."""

    __slots__ = ("num", "den", "dnum", "dden", "zero", "_cache", "_tails")

    def __init__(self, num: flint.fmpq_poly, den: flint.fmpq_poly):
        self.num, self.den = num, den
        self.zero = num.degree() < 0  # the zero polynomial
        self.dnum = num.derivative() * den - num * den.derivative()
        self.dden = den * den
        self._cache: dict = {}
        self._tails: dict = {}

    @staticmethod
    def of(r: RatFun, index: int) -> UniRat:
        return UniRat(_univariate(r.num, index), _univariate(r.den, index))

    def at_infinity(self, sigma: int) -> tuple[UniRat, int] | None:
        """(g, k) with n/d = g(t)·t^(−k) at s = σ/t (t > 0), g a rational function of t with
        g(0) ≠ 0 (k = deg n − deg d), so that log(n/d) = log g(t) + k·log|s|; None for 0."""
        hit = self._tails.get(sigma)
        if hit is None and not self.zero:
            dn, dd = self.num.degree(), self.den.degree()
            hit = self._tails[sigma] = (UniRat(_reversed(self.num, dn, sigma), _reversed(self.den, dd, sigma)), dn - dd)
        return hit

    def power_at_infinity(self, sigma: int) -> UniRat | None:
        """n/d at s = σ/t as a rational function of t, when it stays bounded as t → 0 (deg n ≤ deg d)."""
        tail = self.at_infinity(sigma)
        if tail is None:
            return self
        g, k = tail
        if k > 0:
            return None
        return UniRat(g.num * flint.fmpq_poly([0, 1]) ** (-k), g.den)

    def _ap(self, which: str) -> flint.arb_poly:
        hit = self._cache.get((which, flint.ctx.prec))
        if hit is None:
            hit = self._cache[(which, flint.ctx.prec)] = _apoly(getattr(self, which))
        return hit

    def at(self, x: flint.arb) -> flint.arb:
        """An enclosure of n/d on the ball x (not finite when d may vanish there)."""
        return self._ap("num")(x) / self._ap("den")(x)

    def slope(self, x: flint.arb) -> flint.arb:
        """An enclosure of the derivative on the ball x."""
        return self._ap("dnum")(x) / self._ap("dden")(x)

    def at_tail(self, t: flint.arb, sigma: int) -> flint.arb:
        """An enclosure of n/d at s = σ/t for t in the ball t ⊂ [0, τ] (not finite when n/d is
        unbounded as abs(s) → ∞)."""
        if self.zero:
            return flint.arb(0)
        g = self.power_at_infinity(sigma)
        return flint.arb("nan") if g is None else g.at(t)


def _univariate(p: flint.fmpq_mpoly, index: int) -> flint.fmpq_poly:
    terms = p.to_dict()
    deg = max((e[index] for e in terms), default=0)
    cs = [flint.fmpq(0)] * (deg + 1)
    for e, c in terms.items():
        cs[e[index]] += c
    return flint.fmpq_poly(cs)


# --- values with a centre, a range and a slope ---------------------------------------------------


@dataclass(frozen=True)
class Val:
    """A function of s on a box: ``c`` encloses it at the centre, ``r`` on the box, ``L`` its
    slope with respect to the centre (``None``: not known); ``r`` not finite: unbounded."""

    c: flint.arb
    r: flint.arb
    L: flint.arb | None

    @property
    def bounded(self) -> bool:
        return bool(self.r.is_finite() and self.c.is_finite())

    def __add__(self, o: Val) -> Val:
        L = None if self.L is None or o.L is None else self.L + o.L
        return Val(self.c + o.c, self.r + o.r, L)

    def __sub__(self, o: Val) -> Val:
        L = None if self.L is None or o.L is None else self.L - o.L
        return Val(self.c - o.c, self.r - o.r, L)

    def __mul__(self, o: Val) -> Val:
        L = None if self.L is None or o.L is None else self.r * o.L + o.c * self.L
        return Val(self.c * o.c, self.r * o.r, L)

    def scale(self, q: flint.arb) -> Val:
        return Val(self.c * q, self.r * q, None if self.L is None else self.L * q)


_UNBOUNDED = Val(flint.arb("nan"), flint.arb("nan"), None)


def _zero() -> Val:
    z = flint.arb(0)
    return Val(z, z, z)


def _vmax(vals: Sequence[Val]) -> Val:
    """The largest of some values (slopes: their hull).  A value below another one on the whole
    box is never the largest there, so its slope is left out (the max of an adversary's options
    then has the slope of the option that wins, not the hull with a constant loser's 0)."""
    if any(not v.bounded for v in vals):
        return _UNBOUNDED
    if len(vals) > 1:
        vals = [v for v in vals if not any(v.r < w.r for w in vals)]  # arb: certainly below on the box
    c, r, L = vals[0].c, vals[0].r, vals[0].L
    for v in vals[1:]:
        c, r = c.max(v.c), r.max(v.r)
        L = None if L is None or v.L is None else L.union(v.L)
    return Val(c, r, L)


def _nonneg(b: flint.arb) -> flint.arb:
    """The ball intersected with [0, ∞) (a probability is ≥ 0 at every point of the domain's
    closure); its upper end when the intersection is empty.  A ball that is not finite (an
    overflow at this precision) is returned as it is: it proves nothing, so its box is split."""
    if b >= 0 or not b.is_finite():
        return b
    hi = ball_bounds(b)[1]
    if hi <= 0:
        return flint.arb(0)
    return _ball(Fraction(0), hi)


def _xlogx(x: flint.arb) -> flint.arb:
    """An enclosure of x·log x over x in [0, hi], hi the upper end of the ball x (0 at 0): it is
    convex, largest at an end (0 or hi·log hi) and least at 1/e (−1/e) or, when hi < 1/e, at hi."""
    hi = ball_bounds(x)[1]
    if hi <= 0:
        return flint.arb(0)
    top = flint.arb(_fmpq(hi))
    tl = top * top.log()
    e1 = flint.arb(-1).exp()
    low = tl if top < e1 else -e1
    return low.union(tl.max(flint.arb(0)))


@dataclass
class _Eval:
    """The balls of one box: the centre, the box, and for a tail the variable t = σ/s."""

    box: Box
    centre: Fraction | None
    x_c: flint.arb | None = None
    x_r: flint.arb | None = None
    t: flint.arb | None = None
    sigma: int = 1
    memo: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        b = self.box
        if b.tail:
            fin = b.lo if b.hi is None else b.hi
            assert fin is not None
            self.sigma = 1 if b.hi is None else -1
            self.t = _ball(Fraction(0), 1 / abs(fin))
        else:
            assert b.lo is not None and b.hi is not None and self.centre is not None
            self.x_c = flint.arb(_fmpq(self.centre))
            self.x_r = _ball(b.lo, b.hi)

    def val(self, u: UniRat) -> Val:
        hit = self.memo.get(id(u))
        if hit is not None:
            return hit[1]
        if self.t is not None:
            r = u.at_tail(self.t, self.sigma)
            v = Val(r, r, None)
        else:
            assert self.x_c is not None and self.x_r is not None and self.centre is not None and self.box.lo is not None
            c, r, L = u.at(self.x_c), u.at(self.x_r), u.slope(self.x_r)
            if L.is_finite() and c.is_finite():  # the centred form may be tighter than the range
                assert self.box.hi is not None
                d = _ball(self.box.lo - self.centre, self.box.hi - self.centre)
                alt = c + L * d
                if r.is_finite():
                    both = r.intersection(alt) if r.overlaps(alt) else r
                    r = both
                else:
                    r = alt
            v = Val(c, r, L if L.is_finite() else None)
        self.memo[id(u)] = (u, v)
        return v


def _log(v: Val) -> Val:
    """log of a value that is > 0 on the box (else unbounded)."""
    if not (v.bounded and v.r > 0):
        return _UNBOUNDED
    L = None if v.L is None else v.L / v.r
    return Val(v.c.log(), v.r.log(), L)


# --- the KL induction on a box -------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """X(s) = q + Σ c·log R(s): ``q`` and each c rational, each R a :class:`UniRat` (> 0 on the domain)."""

    q: Fraction
    logs: tuple[tuple[Fraction, UniRat], ...]

    def val(self, ev: _Eval) -> Val:
        out = _const(self.q)
        for c, R in self.logs:
            out = out + _log(ev.val(R)).scale(flint.arb(_fmpq(c)))
        return out


def _target_tail(target: Target, ev: _Eval, sigma: int) -> tuple[Val, Val] | None:
    """X on a tail s = σ/t as A(t) + B·log|s| (B = Σ c·k, exact), or None."""
    A, B = _const(target.q), Fraction(0)
    for c, R in target.logs:
        tail = R.at_infinity(sigma)
        if tail is None:
            return None
        g, k = tail
        A = A + _log(ev.val(g)).scale(flint.arb(_fmpq(c)))
        B += c * k
    return A, _const(B)


def _const(q: Fraction) -> Val:
    a = flint.arb(_fmpq(q))
    return Val(a, a, flint.arb(0))


class KLGame:
    """A parametric game read for boxes: each probability and each likelihood ratio p/p' as a
    :class:`UniRat` of the one symbol (at ``index`` of the game's ring).  Per ordered pair, an
    answer's term is ``(p, p', p/p', child)``, or ``("inf", p, child)`` when p' ≡ 0 < p; an answer
    with p ≡ 0 has none."""

    def __init__(self, game: PGame, index: int):
        self.game = game
        self.index = index
        conv: dict[Any, UniRat] = {}

        def uni(r: RatFun) -> UniRat:
            hit = conv.get(r)
            if hit is None:
                hit = conv[r] = UniRat.of(r, index)
            return hit

        self.nodes: list[tuple] = []
        for node in game.nodes:
            if node[0] != "chance":
                self.nodes.append(node)
                continue
            rows, kids = node[1], node[2]
            pairs: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
            for i, j in game.ordered_pairs:
                terms: list[tuple[Any, ...]] = []
                for row, c in zip(rows, kids):
                    p, pp = row[i], row[j]
                    if p.is_zero():
                        continue  # an answer impossible under x for every value: no term
                    if pp.is_zero():
                        terms.append(("inf", uni(p), c))
                    else:
                        terms.append((uni(p), uni(pp), uni(p / pp), c))
                pairs[(i, j)] = terms
            self.nodes.append(("chance", pairs))

    def kl_low(self, ev: _Eval, i: int, j: int) -> Fraction | None:
        """A rational lower bound on the box of the sup over adversaries of KL(x_i ‖ x_j) (None: +∞):
        at a choice the largest option's bound (the sup is at least each option), at an answer the
        sum of its terms' bounds (:func:`_kl_term_floor`)."""
        memo: list[Fraction | None] = []
        for node in self.nodes:
            if node[0] == "end":
                memo.append(Fraction(0))
            elif node[0] == "ask":
                opts = [memo[c] for c in node[1]]
                memo.append(None if None in opts else max(opts))  # type: ignore[type-var]
            else:
                total: Fraction | None = Fraction(0)
                for term in node[1][(i, j)]:
                    low = _kl_term_floor(ev, term, memo[term[-1]])
                    total = None if low is None or total is None else total + low
                memo.append(total)
        return memo[-1]

    def kl(self, ev: _Eval, i: int, j: int) -> Val:
        """An enclosure of the sup over adversaries of KL(view under x_i ‖ view under x_j) on the box."""
        memo: list[Val] = []
        for node in self.nodes:
            kind = node[0]
            if kind == "end":
                memo.append(_zero())
            elif kind == "ask":
                memo.append(_vmax([memo[c] for c in node[1]]))
            else:
                total = _zero()
                for term in node[1][(i, j)]:
                    if term[0] == "inf":
                        total = _UNBOUNDED
                        break
                    total = total + _kl_term(ev, term, memo[term[3]])
                    if not total.bounded:
                        break
                memo.append(total)
        return memo[-1]


def above_target(kg: KLGame, target: Target, box: Box) -> bool:
    """Whether KL(M) > X on the whole (finite) box is certain from :func:`kl_floor` and the upper
    end of X's enclosure: the test for boxes where KL's enclosure is unbounded."""
    with arb_prec(_PREC):
        ev = _Eval(box, box.point())
        x = target.val(ev).r
        if not x.is_finite():
            return False
        floor = kl_floor(kg, ev)
        return floor is None or floor > ball_bounds(x)[1]


def kl_floor(kg: KLGame, ev: _Eval) -> Fraction | None:
    """A rational lower bound on the box of KL(M), the max over ordered pairs (None: +∞, KL = ∞ at
    every point of the box), for boxes where the enclosure is unbounded: next to a value of the
    symbol where some p' vanishes under p > 0, KL is unbounded above but not below (module docstring)."""
    lows = [kg.kl_low(ev, i, j) for i, j in kg.game.ordered_pairs]
    return None if None in lows else max(lows)  # type: ignore[type-var]


def _xlog_floor(p_lo: Fraction, p_hi: Fraction, c: Fraction) -> Fraction:
    """A lower bound of x·log(x/c) over x in [p_lo, p_hi] (c > 0): convex, least at c/e, so at an end
    of the range when it lies on one side of c/e, else −c/e."""
    with arb_prec(_PREC):
        m_lo, m_hi = ball_bounds(flint.arb(_fmpq(c)) * flint.arb(-1).exp())
        x = p_lo if p_lo > m_hi else p_hi if p_hi < m_lo else None
        if x is None:
            return -m_hi
        if x == 0:
            return Fraction(0)
        return ball_bounds(flint.arb(_fmpq(x)) * (flint.arb(_fmpq(x)) / flint.arb(_fmpq(c))).log())[0]


def _kl_tail(kg: KLGame, ev: _Eval, sigma: int, i: int, j: int, upper: bool) -> tuple[Val, Val] | None:
    """On a tail s = σ/t, t in [0, τ] (``ev`` is the box of t, centred at 0): (A, B) with
    A(t) + B(t)·log|s| at least (``upper``) or at most the KL of the pair at every t of the box,
    or None (not bounded so).  log(p/p') = log g(t) + k·log|s| with g(0) ≠ 0 (:meth:`UniRat.at_infinity`),
    so every term p·(log(p/p') + KL(child)) is of this form; an adversary's choice takes, for an
    upper bound, the largest A and the largest B (log|s| ≥ 0), for a lower bound its first option."""
    memo: list[tuple[Val, Val] | None] = []
    for node in kg.nodes:
        kind = node[0]
        if kind == "end":
            memo.append((_zero(), _zero()))
        elif kind == "ask":
            opts = [memo[c] for c in node[1]]
            if any(o is None for o in opts):
                memo.append(None)
            elif upper:
                memo.append((_vmax([o[0] for o in opts]), _vmax([o[1] for o in opts])))  # type: ignore[index]
            else:
                memo.append(opts[0])
        else:
            total: tuple[Val, Val] | None = (_zero(), _zero())
            for term in node[1][(i, j)]:
                child = memo[term[-1]]
                if term[0] == "inf" or child is None or total is None:
                    total = None
                    break
                up, _, uq, _ = term
                pt, qt = up.power_at_infinity(sigma), uq.at_infinity(sigma)
                if pt is None or qt is None:
                    total = None
                    break
                P, (g, k) = ev.val(pt), qt
                a = P * (_log(ev.val(g)) + child[0])
                b = P * (_const(Fraction(k)) + child[1])
                total = (total[0] + a, total[1] + b)
                if not (total[0].bounded and total[1].bounded):
                    total = None
                    break
            memo.append(total)
    return memo[-1]


def _kl_term_floor(ev: _Eval, term: tuple, child: Fraction | None) -> Fraction | None:
    """A lower bound on the box of p·(log(p/p') + KL(child)) (None: +∞): p·log(p/p') ≥ p·log(p/c)
    for c ≥ p' on the box (:func:`_xlog_floor`), and p·KL(child) ≥ p_lo·max(child's bound, 0), KL ≥ 0."""
    if term[0] == "inf":  # p' ≡ 0: infinite wherever p > 0, else 0
        P = ev.val(term[1]).r
        p_lo = max(ball_bounds(P)[0], Fraction(0)) if P.is_finite() else Fraction(0)
        return None if p_lo > 0 else Fraction(0)
    up, upp, _, _ = term
    P, PP = ev.val(up).r, ev.val(upp).r
    if not (P.is_finite() and PP.is_finite()):  # no bounds at this precision: p·log(p/p') ≥ p − p' ≥ −1
        return Fraction(-1)
    (p_lo, p_hi), c = ball_bounds(P), ball_bounds(PP)[1]
    p_lo = max(p_lo, Fraction(0))
    if c <= 0:  # (p' = 0 on the whole box)
        return None if p_lo > 0 else Fraction(0)
    if child is None:
        return None if p_lo > 0 else _xlog_floor(p_lo, p_hi, c)
    return _xlog_floor(p_lo, p_hi, c) + p_lo * max(child, Fraction(0))


def _kl_term(ev: _Eval, term: tuple, child: Val) -> Val:
    """p·(log(p/p') + KL(child)) on the box (module docstring)."""
    up, upp, uq, _ = term
    if not child.bounded:
        return _UNBOUNDED
    P, Q = ev.val(up), ev.val(uq)
    if not P.bounded:
        return _UNBOUNDED
    if Q.bounded and Q.r > 0:  # the likelihood ratio is bounded away from 0 and ∞ on the box
        if P.r > 0:
            return P * (_log(Q) + child)
        x_r, x_c = _nonneg(P.r), _nonneg(P.c)  # p may vanish on the box: no slope
        return Val(x_c * (Q.c.log() + child.c), x_r * (Q.r.log() + child.r), None)
    PP = ev.val(upp)
    if not (PP.bounded and PP.r > 0):
        return _UNBOUNDED
    # p may vanish on the box where p/p' is unbounded: x·log x − x·log p' + x·KL(child), no slope
    x_r, x_c = _nonneg(P.r), _nonneg(P.c)
    r = _xlogx(x_r) - x_r * PP.r.log() + x_r * child.r
    c = _xlogx(x_c) - x_c * PP.c.log() + x_c * child.c if PP.c > 0 else r
    return Val(c, r, None)


def kl_enclosure(kg: KLGame, box: Box, centre: Fraction | None = None) -> Val:
    """An enclosure of KL(M) = max over ordered pairs on ``box`` (centre: its midpoint by default)."""
    ev = _Eval(box, None if box.tail else (box.point() if centre is None else centre))
    return _vmax([kg.kl(ev, i, j) for i, j in kg.game.ordered_pairs])


# --- branch and bound ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BoxResult:
    """The outcome: ``status`` (holds, fails, undecided), the boxes examined, the value that
    refutes the claim (``at``, with the caller's ``there``), and ``reason`` for undecided."""

    status: str
    boxes: int
    at: Fraction | None = None
    there: Any = None
    reason: str = ""


def _upper(f: Val, box: Box, centre: Fraction | None) -> Fraction | None:
    """A rational upper bound of f on the box, or None (unbounded)."""
    if not f.bounded:
        return None
    best = ball_bounds(f.r)[1]
    if f.L is not None and centre is not None and f.L.is_finite():
        assert box.lo is not None and box.hi is not None
        llo, lhi = ball_bounds(f.L)
        dlo, dhi = box.lo - centre, box.hi - centre
        best = min(best, ball_bounds(f.c)[1] + max(llo * dlo, llo * dhi, lhi * dlo, lhi * dhi))
    return best


def branch_and_bound(
    kg: KLGame,
    target: Target,
    sense: str,
    domain: tuple[Fraction | None, bool, Fraction | None, bool],
    refute: Callable[[Fraction], Any],
    name: str,
) -> BoxResult:
    """Decide ``KL(M)(s) ≤ X(s)`` (``sense`` "at_most") or ``KL(M)(s) > X(s)`` ("exceeds") for
    every s of the domain (lo, lo_closed, hi, hi_closed), or ``=`` ("equals": refuted or
    undecided, never proved by enclosures).

    ``refute(s)`` is called with a rational s where the enclosure at the point s is certified
    on the wrong side; it returns the exact engine's verdict there (a refutation), and must not
    return None (the caller checks that the exact engine agrees)."""
    lo, lo_closed, hi, hi_closed = domain
    cap = limits.current().max_symbol_boxes
    sign = 1 if sense in ("at_most", "equals") else -1  # prove sign·(KL − X) ≤ 0 (< 0 for exceeds)
    ends = {e for e in (lo, hi) if e is not None}

    def excess(box: Box, centre: Fraction | None) -> Val:
        ev = _Eval(box, centre)
        kl = _vmax([kg.kl(ev, i, j) for i, j in kg.game.ordered_pairs])
        d = kl - target.val(ev)
        return d if sign == 1 else Val(-d.c, -d.r, None if d.L is None else -d.L)

    def wrong_at(s: Fraction) -> bool:
        """Whether the claim is certified false at the rational s by an enclosure at the point."""
        with arb_prec(_PREC):
            f = excess(Box(s, s), s)
        if not f.bounded:
            return False
        lo_f, hi_f = ball_bounds(f.c)
        if sense == "equals":
            return lo_f > 0 or hi_f < 0
        return lo_f > 0 if sense == "at_most" else lo_f >= 0

    def proved(box: Box) -> bool:
        if sense == "equals":
            return False
        prec = _PREC if box.tail else _PREC + 2 * max(0, -_log2(box.hi - box.lo))  # type: ignore[operator]
        prec = min(prec, limits.current().max_precision)
        centres: list[Fraction | None] = [None] if box.tail else [box.point()]
        centres += [e for e in (box.lo, box.hi) if e in ends and not box.tail]
        with arb_prec(prec):
            for c in centres:
                up = _upper(excess(box, c), box, c)
                if up is not None and (up <= 0 if sense == "at_most" else up < 0):
                    return True
            if box.tail:
                return tail_proved(box)
        return sense == "exceeds" and above_target(kg, target, box)  # (KL unbounded on the box)

    def tail_proved(box: Box) -> bool:
        """KL − X = A(t) + B(t)·log|s| on the tail (t = σ/s): ≤ A + B·λ for λ ≤ log|s| once B ≤ 0."""
        fin = box.lo if box.hi is None else box.hi
        assert fin is not None
        sigma = 1 if box.hi is None else -1
        tb = Box(Fraction(0), 1 / abs(fin))
        ev = _Eval(tb, Fraction(0))
        upper = sense == "at_most"
        ks = [_kl_tail(kg, ev, sigma, i, j, upper) for i, j in kg.game.ordered_pairs]
        x = _target_tail(target, ev, sigma)
        if x is None or any(k is None for k in ks):
            return False
        kA = _vmax([k[0] for k in ks]) if upper else ks[0][0]  # type: ignore[index]
        kB = _vmax([k[1] for k in ks]) if upper else ks[0][1]  # type: ignore[index]
        A, B = (kA - x[0], kB - x[1]) if upper else (x[0] - kA, x[1] - kB)
        bu = _upper(B, tb, Fraction(0))
        if bu is None or bu > 0:
            return False
        lam = Fraction(69, 100) * (int(abs(fin)).bit_length() - 1)  # ≤ log|s| on the tail (0.69 < log 2)
        up = _upper(A + B.scale(flint.arb(_fmpq(lam))), tb, Fraction(0))
        return up is not None and (up <= 0 if upper else up < 0)

    candidates = [e for e, closed in ((lo, lo_closed), (hi, hi_closed)) if e is not None and closed]
    for s in candidates:
        if wrong_at(s):
            return BoxResult(FAILS, 0, s, refute(s))
    queue = deque(initial_boxes(lo, hi))
    boxes = 0
    while queue:
        box = queue.popleft()
        boxes += 1
        if boxes > cap:
            return BoxResult(
                UNDECIDED,
                boxes - 1,
                reason=f"not decided within --max-symbol-boxes {cap} boxes of {name}: the boxes left, in "
                f"{_span([box, *queue], name)}, neither prove nor refute the claim (the divergence may touch the "
                "bound, or grow with it without bound); raise it with --max-symbol-boxes N",
            )
        if proved(box):
            continue
        if sense == "equals" and boxes > EQUALS_POINTS:
            return BoxResult(UNDECIDED, boxes - 1, reason=f"the enclosures agree at the {EQUALS_POINTS} values tried")
        s = box.point()
        if wrong_at(s):
            return BoxResult(FAILS, boxes, s, refute(s))
        if box.tail and abs(s) > TAIL_CAP:
            return BoxResult(
                UNDECIDED,
                boxes,
                reason=f"the divergence and the bound are not bounded soundly as {name} -> "
                f"{'inf' if box.hi is None else '-inf'} (enclosures beyond |{name}| = 2^64 do not prove the claim)",
            )
        if not box.tail and box.hi - box.lo < Fraction(1, 1 << 60):  # type: ignore[operator]
            return BoxResult(
                UNDECIDED,
                boxes,
                reason=f"the divergence touches the bound near {name} = {ladder.decimal(s, 12)}: enclosures on boxes "
                "narrower than 2^-60 do not separate them",
            )
        queue.extend(box.split())
    if sense == "equals":  # pragma: no cover - equals never proves a box
        return BoxResult(UNDECIDED, boxes)
    return BoxResult(HOLDS, boxes)


def _span(boxes: Sequence[Box], name: str) -> str:
    """Where some boxes lie, for a message (decimals: display only)."""
    los = [b.lo for b in boxes]
    his = [b.hi for b in boxes]
    # (ladder.decimal, not float(): an end of the domain may be far beyond a float's range)
    lo = "-inf" if any(x is None for x in los) else ladder.decimal(min(x for x in los if x is not None), 6)
    hi = "inf" if any(x is None for x in his) else ladder.decimal(max(x for x in his if x is not None), 6)
    return f"{lo} <= {name} <= {hi}"


def _log2(x: Fraction) -> int:
    return x.numerator.bit_length() - x.denominator.bit_length()
