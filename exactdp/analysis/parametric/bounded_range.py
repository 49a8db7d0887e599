r"""The BR-range of a mechanism with symbols, for every value of them, one cell at a time.

The frontier algorithm of :mod:`exactdp.analysis.bounded_range` (Dong, Durfee & Rogers 2020,
Def. 2.2; exactdp's two readings for interactive mechanisms) run on rational functions of the
symbols inside a cell of the symbols' domain.  A likelihood ratio r = P_x(view)/P_x'(view) is a
rational function of the symbols, 0, or ∞; every decision the algorithm makes — whether an
answer is impossible under a dataset, which of two ratios is larger (to prune a frontier, to
pick an outcome's best point, to take the largest hi/lo) — is the sign of a polynomial, asked
of the cell's :class:`~exactdp.analysis.parametric.cells.Ctx`, which proves it constant on the
cell or cuts the cell where it changes (exact real-root isolation).  So on each cell the
BR-range is log of one rational function (or ∞), and over the whole domain it is piecewise.

The two views attaining the range on each cell are kept as paths of the game, and their
probabilities are recomputed by an independent forward walk (:func:`recheck_path`): the ratio
of each must be the frontier's, exactly, on the cell.

References
----------
J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
Mechanisms*, ICML 2020 (arXiv:1909.13830), Def. 2.2, Lemma 2.1 and §4.1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

from ...errors import VerificationError
from ...model.game import Mechanism
from ..bounded_range import ADVERSARIES
from .cells import Ctx, decompose, domain_of_table
from .engine import PGame, pgame
from .hull import INF
from .piecewise import pieces
from .queries import Piecewise, ring_of
from .ratfun import RatFun, check_degree
from .values import LogOf

__all__ = ["PBRPair", "PBRResult", "br_cell", "br_range_of", "br_value", "recheck_path"]

# A ratio is a RatFun that is positive on the cell, the ring's zero, or INF.
# A frontier point is (hi, lo, hi_path, lo_path); a path lists child positions from the root.
Point = tuple


def _is_zero(r: Any, ctx: Ctx) -> bool:
    return r is not INF and ctx.sign(r) == 0


def _cmp(a: Any, b: Any, ctx: Ctx) -> int:
    """The order of two ratios on the cell (∞ is largest)."""
    if a is INF or b is INF:
        return (a is INF) - (b is INF)
    return ctx.cmp(a, b)


def _mul(a: Any, b: Any) -> Any:
    if a is INF or b is INF:
        return INF
    out = a * b
    check_degree(out)
    return out


def _ratio_range(hi: Any, lo: Any, ctx: Ctx) -> Any:
    """hi / lo (∞ when hi = ∞ or lo = 0)."""
    if hi is INF or _is_zero(lo, ctx):
        return INF
    out = hi / lo
    check_degree(out)
    return out


def _by(value: Callable[[Any], Any], ctx: Ctx) -> Any:
    """A sort key ordering items by ``value``, compared on the cell (for :func:`max`/:func:`min`,
    which keep the first of equal items)."""
    return cmp_to_key(lambda a, b: _cmp(value(a), value(b), ctx))


def _prune(points: list[Point], ctx: Ctx) -> list[Point]:
    """Pareto-optimal points (largest hi, smallest lo), by increasing lo (then hi): the numeric
    :func:`exactdp.analysis.bounded_range._prune`, with the order proved on the cell."""

    def order(p: Point, q: Point) -> int:
        return _cmp(p[1], q[1], ctx) or -_cmp(p[0], q[0], ctx)

    out: list[Point] = []
    for p in sorted(points, key=cmp_to_key(order)):
        if out and _cmp(out[-1][0], p[0], ctx) >= 0:
            continue  # dominated: lo no smaller, hi no larger
        out.append(p)
    return out


def _chance(options: list[list[Point]], deterministic: bool, ctx: Ctx) -> list[Point]:
    """Combine one frontier per outcome into (max hi, min lo): for the deterministic reading each
    outcome picks one of its own points (every threshold lo is tried, the outcome providing it
    takes its best point below it, the others their top); the randomized reading keeps one
    point."""
    if len(options) == 1:
        return options[0]
    flat = [p for pts in options for p in pts]
    if not deterministic:
        bh = max(flat, key=_by(lambda p: p[0], ctx))
        bl = min(flat, key=_by(lambda p: p[1], ctx))
        return [(bh[0], bl[1], bh[2], bl[3])]
    top = [pts[-1] for pts in options]  # each pruned frontier ends with its largest hi

    def by_top(a: int, b: int) -> int:
        return -_cmp(top[a][0], top[b][0], ctx)

    def by_lo(p: Point, q: Point) -> int:
        return _cmp(p[1], q[1], ctx)

    ranked = sorted(range(len(options)), key=cmp_to_key(by_top))
    first, second = ranked[0], ranked[1]
    candidates: list[Point] = []
    for ell in sorted(flat, key=cmp_to_key(by_lo)):
        best: Point | None = None
        for j, pts in enumerate(options):
            feas = [p for p in pts if _cmp(ell[1], p[1], ctx) >= 0]
            if not feas:
                continue
            pj = max(feas, key=_by(lambda p: p[0], ctx))
            other = second if j == first else first
            if _cmp(pj[0], top[other][0], ctx) < 0:
                hi, hi_path = top[other][0], top[other][2]
            else:
                hi, hi_path = pj[0], pj[2]
            cand = (hi, pj[1], hi_path, pj[3])
            if best is None:
                best = cand
            else:
                c = _cmp(best[0], cand[0], ctx)
                if c < 0 or (c == 0 and _cmp(cand[1], best[1], ctx) < 0):
                    best = cand
        if best is not None:
            candidates.append(best)
    return _prune(candidates, ctx)


def _node(game: PGame, k: int, memo: list, i: int, j: int, det: bool, ctx: Ctx) -> list[Point]:
    """The frontier of node ``k`` from its children's."""
    ring = game.ring
    node = game.nodes[k]
    if node[0] == "end":
        return [(ring.one, ring.one, (), ())]
    if node[0] == "ask":
        pts = [(h, lo, (c,) + hp, (c,) + lp) for c, kid in enumerate(node[1]) for h, lo, hp, lp in memo[kid]]
        if det:
            return _prune(pts, ctx)
        bh = max(pts, key=_by(lambda p: p[0], ctx))
        bl = min(pts, key=_by(lambda p: p[1], ctx))
        return [(bh[0], bl[1], bh[2], bl[3])]
    rows, kids = node[1], node[2]
    options: list[list[Point]] = []
    for c, (row, kid) in enumerate(zip(rows, kids)):
        px, pxp = row[i], row[j]
        zx, zxp = ctx.sign(px) == 0, ctx.sign(pxp) == 0
        if zx and zxp:
            continue
        below = memo[kid]
        if zxp:  # impossible under x': every view below has ratio ∞
            path = (c,) + below[-1][2]
            options.append([(INF, INF, path, path)])
        elif zx:  # impossible under x: ratio 0
            path = (c,) + below[0][3]
            options.append([(ring.zero, ring.zero, path, path)])
        else:
            rho = px / pxp
            options.append([(_mul(rho, h), _mul(rho, lo), (c,) + hp, (c,) + lp) for h, lo, hp, lp in below])
    return _chance(options, det, ctx)


def _frontier(game: PGame, i: int, j: int, det: bool, ctx: Ctx) -> list[Point]:
    """The root's frontier for the pair (i, j) on the cell.  Progress is kept with what the cell
    proved, so a piece of a cut cell starts again at the node that cut it."""
    key = ("br-frontier", id(game), i, j, det)
    done: list = ctx.stage(key, lambda: [None] * len(game.nodes))
    if done[-1] is not None:
        return done[-1]
    memo = list(done)
    ctx.memo[("stage", key)] = memo
    for k in range(len(game.nodes)):
        if memo[k] is None:
            memo[k] = _node(game, k, memo, i, j, det, ctx)
    return memo[-1]


def recheck_path(game: PGame, i: int, j: int, path: tuple[int, ...]) -> tuple[RatFun, RatFun]:
    """(P_x(view), P_x'(view)) of the view that follows ``path`` (child positions) from the root,
    by a forward walk independent of the frontier computation."""
    ring = game.ring
    k = len(game.nodes) - 1
    px, pxp = ring.one, ring.one
    for c in path:
        node = game.nodes[k]
        if node[0] == "end":
            raise VerificationError("bounded-range witness: a view goes on after the interaction ends")
        if node[0] == "chance":
            px, pxp = px * node[1][c][i], pxp * node[1][c][j]
            k = node[2][c]
        else:
            k = node[1][c]
    if game.nodes[k][0] != "end":
        raise VerificationError("bounded-range witness: a view stops before the interaction ends")
    return px, pxp


def _path_ratio(game: PGame, i: int, j: int, path: tuple[int, ...], ctx: Ctx) -> Any:
    px, pxp = recheck_path(game, i, j, path)
    return INF if ctx.sign(pxp) == 0 else px / pxp


@dataclass(frozen=True)
class PBRPair:
    """The BR-range of one adjacent pair on a cell: e^range (``ratio``, a rational function ≥ 1
    or :data:`INF`) and the paths of the two views attaining it."""

    pair: tuple[str, str]
    ratio: Any
    hi_path: tuple[int, ...]
    lo_path: tuple[int, ...]


@dataclass(frozen=True)
class PBRResult:
    """The BR-range of a mechanism on a cell: the largest over adjacent pairs (``worst``)."""

    adversaries: str
    pairs: tuple[PBRPair, ...]
    worst: PBRPair

    @property
    def ratio(self) -> Any:
        return self.worst.ratio

    def value(self) -> LogOf | Any:
        """The BR-range: log of ``ratio``, or :data:`INF`."""
        return INF if self.ratio is INF else LogOf(self.ratio)


def br_cell(game: PGame, ctx: Ctx, adversaries: str = "deterministic") -> PBRResult:
    """The BR-range of ``game`` on the cell (DDR Def. 2.2), per adjacent pair, with the two views
    of each re-checked by a forward walk.

    Raises
    ------
    VerificationError
        A re-checked view's ratio is not the frontier's (a bug).
    """
    if adversaries not in ADVERSARIES:
        raise ValueError(f"adversaries must be one of {ADVERSARIES}, got {adversaries!r}")
    det = adversaries == "deterministic"
    out: list[PBRPair] = []
    for a, b in game.unordered_pairs:
        front = _frontier(game, a, b, det, ctx)
        best = max(front, key=_by(lambda p: _ratio_range(p[0], p[1], ctx), ctx))
        hi, lo, hp, lp = best
        for path, want in ((hp, hi), (lp, lo)):
            if _cmp(_path_ratio(game, a, b, path, ctx), want, ctx) != 0:
                raise VerificationError(
                    f"bounded-range re-check failed on {game.pair_names((a, b))} on {ctx.cell.text()}: the frontier "
                    f"and the view's own probabilities disagree"
                )
        out.append(PBRPair(game.pair_names((a, b)), _ratio_range(hi, lo, ctx), hp, lp))
    worst = max(out, key=_by(lambda p: p.ratio, ctx))
    return PBRResult(adversaries, tuple(out), worst)


def br_value(game: PGame, ctx: Ctx, adversaries: str = "deterministic") -> LogOf | Any:
    """The BR-range on the cell as a value: log(R) for a rational function R ≥ 1, or ∞ (kept
    with the cell's proofs: computed once per cell and reading)."""
    return ctx.stage(("br", id(game), adversaries), lambda: br_cell(game, ctx, adversaries)).value()


def br_range_of(mech: Mechanism, table: Any, *, adversaries: str = "deterministic") -> Piecewise[Any]:
    """The BR-range of ``mech`` for every value of the symbols, piecewise: log of a rational
    function of the symbols (or ∞) on each piece (DDR Def. 2.2).

    Examples
    --------
    >>> from exactdp.caseio import parse_case
    >>> case = parse_case('''
    ... exactdp: 1
    ... name: rr
    ... symbols: {E: {gt: 1}}
    ... mechanisms: {R: {rr: {eps: log(E)}}}
    ... claims: [{bounded_range: {eps: 2*log(E)}}]
    ... ''', "rr.yaml")
    >>> [(p.text(), p.value_text()) for p in br_range_of(case.mechanisms["R"], case.symbols).pieces]
    [('1 < E', '2*log(E)')]
    """
    ring = ring_of(table)
    game = pgame(mech, ring)
    dec = decompose(ring, domain_of_table(table, ring.names), lambda ctx: br_value(game, ctx, adversaries))
    return Piecewise("BR-range", ring, dec.domains, pieces(dec), len(dec.cells))
