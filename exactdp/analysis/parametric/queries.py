r"""Piecewise closed forms of a mechanism with symbols: its profile, PrivLoss, δ and Rényi
divergence for every value of the symbols.

Each query runs on every cell of a decomposition of the symbols' domain
(:func:`~exactdp.analysis.parametric.cells.decompose`) and returns a :class:`Piecewise`
answer: intervals with exact endpoints and, on each, a closed form — a rational function of the
symbols, the log of one, or ∞.

>>> from exactdp.caseio import parse_case
>>> case = parse_case('''
... exactdp: 1
... name: rr2
... symbols: {E: {gt: 1}}
... mechanisms:
...   R: {rr: {eps: log(E)}}
...   M: {compose: [R, R]}
... claims: [{dp: {eps: log(2), delta: 1/10}}]
... ''', "rr2.yaml")
>>> for p in delta_of(case.mechanisms["M"], case.symbols, 2).pieces:
...     print(p.text(), "->", p.value)
1 < E <= sqrt(2) -> 0
sqrt(2) < E -> (E^2 - 2)/(E + 1)^2

References
----------
Vadhan & Wang 2021, Def. 1.7 and §5 (PrivLoss); Mironov 2017, Def. 3 (Rényi divergence).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from ...display import RichDisplay
from ...model.game import Mechanism
from ...numbers.ladder import is_inf
from .cells import Ctx, Decomposition, Domain, Undecided, decompose, domain_of_table
from .display import ProfileView, profile_view
from .engine import PGame, PProfile, delta_at, least_lambda_of, pgame, profile, renyi_sum, tradeoff_at
from .exp_delta import delta_exp_cell
from .hull import INF
from .piecewise import Piece, pieces
from .ratfun import RatFun, Ring
from .values import LogOf, RenyiSum, exp_lambda, lambda_of, rational_of

__all__ = [
    "whole_order",
    "Piecewise",
    "ring_of",
    "profile_of",
    "privloss_of",
    "delta_of",
    "renyi_of",
    "privloss_cell",
    "delta_cell",
    "renyi_cell",
    "profile_key",
    "tradeoff_of",
]

T = TypeVar("T")


@dataclass
class Piecewise(RichDisplay, Generic[T]):
    """A piecewise answer: ``pieces`` in order along the line, over ``domains`` (a notebook
    shows it as a table of pieces and closed forms)."""

    what: str
    ring: Ring
    domains: tuple[Domain, ...]
    pieces: list[Piece[T]]
    cells: int

    def domain_text(self) -> str:
        return ", ".join(d.describe() for d in self.domains)

    def __str__(self) -> str:
        """``PrivLoss, for every value: p > 0 and p < 1`` and one line per piece."""
        lines = [f"{self.what}, for every value: {self.domain_text()}"]
        lines += [f"  {p.text()}: {p.value_text()}" for p in self.pieces]
        return "\n".join(lines)


def ring_of(table: Any) -> Ring:
    """The ring of a case's declared symbols (a :class:`~exactdp.numbers.symbolic.SymbolTable`).

    Raises
    ------
    Undecided
        When the case declares no symbols.
    """
    names = [b.name for b in table.bounds] if table else []
    if not names:
        raise Undecided("the case declares no symbols (`symbols:`), so there is nothing to be parametric in")
    return Ring(names)


def _run(mech: Mechanism, table: Any, what: str, cell: Callable[[PGame, Ctx], T], key: Any = None) -> Piecewise[T]:
    ring = ring_of(table)
    game = pgame(mech, ring)
    dec: Decomposition[T] = decompose(ring, domain_of_table(table, ring.names), lambda ctx: cell(game, ctx))
    return Piecewise(what, ring, dec.domains, pieces(dec, key=key), len(dec.cells))


def _profile(game: PGame, ctx: Ctx) -> PProfile:
    return ctx.stage(("profile", game.name), lambda: profile(game, ctx))


def profile_key(v: ProfileView) -> tuple:
    """What two cells' profiles must share to be one piece: the formulas of the envelope and of
    every pair for e^eps >= 1."""
    return v.key()


def profile_of(mech: Mechanism, table: Any) -> Piecewise[ProfileView]:
    """The privacy profile of ``mech`` (every ordered adjacent pair and the envelope) as
    formulas between breakpoints, piecewise in the symbols."""
    return _run(mech, table, "privacy profile", lambda g, ctx: profile_view(_profile(g, ctx), ctx), key=profile_key)


def privloss_cell(game: PGame, delta: RatFun, ctx: Ctx) -> LogOf | Any:
    """PrivLoss(M, δ) on a cell: log(λ*) for the least λ* ≥ 1 with δ_M(λ*) ≤ δ, or ∞."""
    lam = least_lambda_of(_profile(game, ctx), delta, ctx)
    return INF if lam is INF else LogOf(lam)


def privloss_of(mech: Mechanism, table: Any, delta: Any) -> Piecewise[Any]:
    """PrivLoss(M, δ) = inf{ε ≥ 0 : M is (ε, δ)-DP}, piecewise (Vadhan & Wang 2021, §5);
    ``delta`` a rational or a rational function of the symbols."""
    ring = ring_of(table)
    d = rational_of(delta, ring)
    return _run(mech, table, "PrivLoss", lambda g, ctx: privloss_cell(g, d, ctx))


def delta_cell(game: PGame, lam: Any, ctx: Ctx) -> RatFun:
    """δ_M(λ) on a cell (λ = e^ε a rational function of the symbols, or ∞)."""
    if lam is INF:
        return game.ring.zero
    return delta_at(_profile(game, ctx), lam, ctx)


def delta_of(mech: Mechanism, table: Any, eps_or_lambda: Any, *, is_lambda: bool = True) -> Piecewise[Any]:
    """δ_M(e^ε), piecewise; the argument is λ = e^ε (``is_lambda``) or ε (``log(E)``)."""
    ring = ring_of(table)
    exp_lam = None if is_lambda else exp_lambda(eps_or_lambda, ring)
    if exp_lam is not None:  # e^eps = e^q·L, q ≠ 0: compared with e^q by certified signs
        q, L = exp_lam
        return _run(mech, table, "delta", lambda g, ctx: delta_exp_cell(g, q, L, ctx))
    lam = ring.lift(eps_or_lambda) if is_lambda else lambda_of(eps_or_lambda, ring)
    return _run(mech, table, "delta", lambda g, ctx: delta_cell(g, lam, ctx))


def renyi_cell(game: PGame, alpha: Any, ctx: Ctx) -> LogOf | Any:
    """D_α(M) on a cell for a whole α ≥ 2 (log of the largest Rényi sum over ordered pairs
    and adversaries, over α − 1) or α = ∞ (PrivLoss(M, 0)).

    Raises
    ------
    Undecided
        For α = 1 (KL compares sums of logarithms, not polynomials).
    """

    if is_inf(alpha):
        return privloss_cell(game, game.ring.zero, ctx)
    whole_order(alpha)
    best = renyi_sum_max(game, alpha, ctx)
    return INF if best is INF else LogOf(best, alpha - 1)


def whole_order(alpha: Any) -> None:
    """Check that the cells decide D_α: α = ∞ or a whole α ≥ 2, whose Rényi sum is a rational
    function of the symbols.

    Raises
    ------
    Undecided
        For α = 1 (KL compares sums of logarithms, not polynomials) and for a fractional α (its
        sum has fractional powers of the probabilities).
    """
    if is_inf(alpha):
        return
    if alpha == 1:
        raise Undecided(
            "the KL divergence (alpha = 1) of a mechanism with symbols compares sums of logarithms of "
            "rational functions, which the cell decomposition does not decide; use a whole alpha >= 2 or inf"
        )
    if Fraction(alpha).denominator != 1:  # a claim or a calibration at this order is decided by boxes, not here
        raise Undecided(
            f"D_{alpha} with symbols has no closed form here: the Renyi sum of a fractional order has fractional "
            "powers of the symbols, and certified boxes bound D_alpha without proving which adversary attains it "
            f"on the whole range; a claim `renyi: {{alpha: {alpha}, at_most: X}}` is decided (verify), "
            f'`exactdp calibrate CASE --target "renyi: {{alpha: {alpha}, at_most: X}}"` finds where it holds, and '
            "values of the symbols (params or a sweep) give D_alpha"
        )


def renyi_sum_max(game: PGame, alpha: int, ctx: Ctx) -> Any:
    """The largest Rényi sum of whole order α over the ordered pairs on the cell, or INF when a
    view is possible under x only (Mironov 2017, Def. 3: D_α is its log over α − 1)."""
    best: Any = None
    for i, j in game.ordered_pairs:
        s = renyi_sum(game, i, j, alpha, ctx)
        if s is INF:
            return INF
        if best is None or ctx.cmp(s, best) > 0:
            best = s
    return best


def renyi_of(mech: Mechanism, table: Any, alpha: Any) -> Piecewise[Any]:
    """D_α(M), the Rényi divergence against every adaptive adversary, piecewise (Mironov 2017);
    at a fractional order, the exact closed form when one sum attains it (:func:`fraction_form`)."""
    if not is_inf(alpha) and alpha != 1 and Fraction(alpha).denominator != 1:
        value = fraction_form(pgame(mech, ring_of(table)), Fraction(alpha))
        return _run(mech, table, "Renyi divergence", lambda g, ctx: value)
    whole_order(alpha)
    return _run(mech, table, "Renyi divergence", lambda g, ctx: renyi_cell(g, alpha, ctx))


MAX_VIEWS = 4096
"""Views per ordered pair kept for a fractional-order closed form (a longer game is undecided)."""


def fraction_form(game: PGame, alpha: Fraction) -> RenyiSum:
    """D_α at a fractional order α as one exact closed form on the whole domain, when it is one:
    the game has no adversary choices (so the sup over adversaries is the one sum), no view is
    possible under one dataset only, and every ordered pair has the same views' probabilities
    up to order (equal multisets of exact rational functions, so their sums are equal; RR and its
    compositions).  Otherwise which sum attains the sup may change with the symbols, and that is
    not proved here.

    Raises
    ------
    Undecided
        With the reason, in the other cases."""
    why = f"D_{alpha} with symbols has no closed form here"
    if any(n[0] == "ask" and len(n[1]) > 1 for n in game.nodes):
        raise Undecided(
            f"{why}: the adversary's choices give several Renyi sums, and which one attains the "
            "supremum on the whole range is not proved; " + _FRACTION_HINT.format(a=alpha)
        )
    forms: dict[frozenset, tuple] = {}
    for i, j in game.ordered_pairs:
        views = _views(game, i, j)
        if views is None:
            raise Undecided(
                f"{why}: a view is possible under one dataset only (D_alpha = inf where its "
                "probability is positive), or the game has more than "
                f"{MAX_VIEWS} views; " + _FRACTION_HINT.format(a=alpha)
            )
        forms.setdefault(frozenset(Counter(views).items()), tuple(views))
    if len(forms) > 1:
        raise Undecided(
            f"{why}: ordered pairs of datasets have different Renyi sums, and which one is larger "
            "on the whole range is not proved; " + _FRACTION_HINT.format(a=alpha)
        )
    return RenyiSum(alpha, next(iter(forms.values())))


_FRACTION_HINT = (
    "a claim `renyi: {{alpha: {a}, at_most: X}}` is decided (verify), "
    '`exactdp calibrate CASE --target "renyi: {{alpha: {a}, at_most: X}}"` finds where it holds, and '
    "values of the symbols (params or a sweep) give D_alpha"
)


def _views(game: PGame, i: int, j: int) -> list[tuple[RatFun, RatFun]] | None:
    """Every view of the (choice-free) game with its probabilities under x_i and x_j, or None when
    one is possible under x_i only or there are more than :data:`MAX_VIEWS`."""
    one = game.ring.const(1)
    memo: list[Any] = []
    for node in game.nodes:
        if node[0] == "end":
            memo.append([(one, one)])
        elif node[0] == "ask":
            memo.append(memo[node[1][0]])
        else:
            out = []
            for row, child in zip(node[1], node[2]):
                p, q = row[i], row[j]
                if p.is_zero():
                    continue
                if q.is_zero() or memo[child] is None:
                    return None
                out += [(p * P, q * Q) for P, Q in memo[child]]
            if len(out) > MAX_VIEWS:
                return None
            memo.append(out)
    return memo[-1]


def tradeoff_of(mech: Mechanism, table: Any, alpha: Any) -> Piecewise[RatFun]:
    """T(M)(α), the trade-off function of M at the type I error α (a rational, or a rational
    function of the symbols in [0, 1]), piecewise: a rational function of the symbols on each
    piece (Dong, Roth & Su 2022, Def. 2.1; :func:`~exactdp.analysis.parametric.engine.tradeoff_at`)."""
    ring = ring_of(table)
    a = rational_of(alpha, ring)
    return _run(mech, table, "trade-off", lambda g, ctx: tradeoff_at(_profile(g, ctx), a, ctx))
