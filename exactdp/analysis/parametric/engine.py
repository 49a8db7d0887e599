r"""Backward induction over the game DAG on rational functions of the symbols, one cell at a time.

The profile engine's induction (:mod:`exactdp.analysis.profile`) with every number a rational
function of the symbols and every comparison a sign proved on the cell
(:class:`~exactdp.analysis.parametric.cells.Ctx`): an answer node rescales and adds its
continuations' chains, an adversary choice takes their upper hull, and each ordered adjacent
pair's chain is the privacy profile δ_{x,x'}(λ) at every point of the cell.  The Rényi sums of
integer order α ≥ 2 (Mironov 2017) are computed by the same induction.

A mechanism is read once into a :class:`PGame` (its probabilities as rational functions); the
induction then runs per cell.

References
----------
Vadhan & Wang, *Concurrent Composition of Differential Privacy* (TCC 2021), Def. 1.7 and
Lemma 2.2; Mironov, *Rényi Differential Privacy* (CSF 2017), Def. 3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import InexactValueError, UnsupportedMechanismError
from ...model.game import Ask, Chance, End, Mechanism, postorder
from ...model.symbolic import SymChance
from .cells import Ctx
from .hull import INF, PHull, combine, leaf, least_lambda, sorted_edges, swap, upper, value_at, value_by_search
from .ratfun import RatFun, Ring, check_degree

__all__ = [
    "PGame",
    "pgame",
    "PProfile",
    "pair_hull",
    "profile",
    "renyi_sum",
    "symbols_used",
    "cell_fact",
    "max_value",
    "delta_at",
    "envelope_delta_at",
    "least_lambda_of",
    "tradeoff_at",
]


@dataclass(frozen=True, eq=False)
class PGame:
    """A mechanism's game with rational-function probabilities, in post-order.

    ``nodes[k]`` is ``("end",)``, ``("ask", child indices)`` or ``("chance", rows, child
    indices)`` with ``rows[a][d]`` the probability of answer a under dataset d."""

    ring: Ring
    name: str
    datasets: tuple[str, ...]
    ordered_pairs: tuple[tuple[int, int], ...]
    unordered_pairs: tuple[tuple[int, int], ...]
    nodes: tuple[tuple, ...]

    def pair_names(self, pair: tuple[int, int]) -> tuple[str, str]:
        return self.datasets[pair[0]], self.datasets[pair[1]]

    def variables(self) -> set[str]:
        """The symbols the game's probabilities depend on (after their rational functions are
        reduced: a symbol that cancels is not one)."""
        return {v for node in self.nodes if node[0] == "chance" for row in node[1] for p in row for v in p.variables()}


def symbols_used(mech: Mechanism) -> set[str]:
    """The symbols the mechanism's probabilities mention."""
    out: set[str] = set()
    for n in postorder(mech.root):
        if isinstance(n, SymChance):
            out |= set(n.symbols)
    return out


def pgame(mech: Mechanism, ring: Ring) -> PGame:
    """Read ``mech`` into a :class:`PGame` over ``ring`` (each distinct number converted once).

    Raises
    ------
    UnsupportedMechanismError
        For a probability that is not a rational number or a rational function of the symbols
        (e.g. an element of ℚ(e^{1/L}) from a decimal ε).
    """
    order = postorder(mech.root)
    index = {n.uid: k for k, n in enumerate(order)}
    conv: dict[Any, RatFun] = {}

    def lift(x: Any) -> RatFun:
        key = x if not hasattr(x, "free_symbols") else ("sym", x)
        hit = conv.get(key)
        if hit is None:
            try:
                hit = ring.lift(x)
            except (InexactValueError, TypeError, ValueError) as e:
                raise UnsupportedMechanismError(
                    f"the parametric engine needs probabilities that are rational functions of the symbols; "
                    f"found {x} ({e})"
                ) from None
            conv[key] = hit
        return hit

    nodes: list[tuple] = []
    for n in order:
        if isinstance(n, End):
            nodes.append(("end",))
        elif isinstance(n, Ask):
            nodes.append(("ask", tuple(index[c.uid] for c in n.children)))
        elif isinstance(n, SymChance):
            rows = tuple(tuple(lift(p) for p in row) for row in n.sym)
            nodes.append(("chance", rows, tuple(index[c.uid] for c in n.children)))
        elif isinstance(n, Chance):
            if any(type(p).__name__ == "QtElement" for row in n.probs for p in row):
                raise UnsupportedMechanismError(
                    "the parametric engine needs rational probabilities or rational functions of the symbols; "
                    "this mechanism has probabilities in Q(e^(1/L)) (a decimal eps): write eps as log(r)"
                )
            rows = tuple(tuple(lift(p) for p in row) for row in n.probs)
            nodes.append(("chance", rows, tuple(index[c.uid] for c in n.children)))
        else:  # pragma: no cover
            raise TypeError(n)
    return PGame(ring, mech.name, mech.datasets, mech.ordered_pairs, mech.unordered_pairs, tuple(nodes))


def pair_hull(game: PGame, i: int, j: int, ctx: Ctx) -> PHull:
    """The chain of the ordered pair (i, j) on the cell (backward induction).

    The chains found so far are kept with what the cell proved (``ctx.stage``): when a sign
    cuts the cell at node k, its pieces start again at node k, not at the leaves."""
    # keyed by the game itself, not its id: the key keeps it alive, so a later game (another
    # claim's, see cell_fact) never meets this one's chains under a reused id
    done: list[PHull | None] = ctx.stage(("chains", game, i, j), lambda: [None] * len(game.nodes))
    if done[-1] is not None:
        return done[-1]
    memo = list(done)  # this cell's own progress (a piece copies it from its parent)
    ctx.memo[("stage", ("chains", game, i, j))] = memo
    lf = leaf(game.ring)
    for k, node in enumerate(game.nodes):
        if memo[k] is not None:
            continue
        kind = node[0]
        if kind == "end":
            memo[k] = lf
        elif kind == "ask":
            memo[k] = upper([memo[c] for c in node[1]], ctx)  # type: ignore[misc]
        else:
            rows, kids = node[1], node[2]
            memo[k] = combine(((row[i], row[j], memo[c]) for row, c in zip(rows, kids)), ctx)  # type: ignore[misc]
        _check(memo[k])  # type: ignore[arg-type]
    out = memo[-1]
    assert out is not None
    return out


def cell_fact(key: Any) -> bool:
    """Whether a cell's memo entry holds whatever claim is decided on the cell
    (:class:`~exactdp.analysis.parametric.cells.CellFacts`): a proved sign (a polynomial's
    text), a pair's chains node by node (keyed by the game itself), and a chain's sorted edges
    or prefix sums (kept with the chain they are checked against)."""
    if isinstance(key, str):
        return True
    if key[0] in ("sorted", "prefix"):
        return True
    return key[0] == "stage" and isinstance(key[1], tuple) and key[1][0] == "chains"


def _check(h: PHull) -> None:
    """The degree limit on a node's chain (its top and every edge)."""
    check_degree(h.top)
    for r, w in h.edges:
        check_degree(r)
        check_degree(w)


@dataclass(frozen=True, eq=False)
class PProfile:
    """The privacy profile on one cell: each ordered pair's chain; :meth:`envelope`, their
    upper hull, is formed only when asked for (δ_M(λ) and PrivLoss are maxima over the pairs)."""

    mechanism: str
    pairs: tuple[tuple[tuple[str, str], PHull], ...]

    def envelope(self, ctx: Ctx) -> PHull:
        """δ_M = the max over ordered pairs, as one chain (the upper hull of theirs), computed
        once per cell (kept with the cell's proofs: the profile is shared with sibling pieces)."""
        key = ("envelope", id(self))
        hit = ctx.memo.get(key)
        if hit is None or hit[0] is not self:
            hit = (self, upper([h for _, h in self.pairs], ctx))
            ctx.memo[key] = hit
        return hit[1]

    def hulls(self) -> list[PHull]:
        return [h for _, h in self.pairs]


def profile(game: PGame, ctx: Ctx) -> PProfile:
    """The exact privacy profile of ``game`` on the cell, per ordered adjacent pair (Vadhan &
    Wang 2021, Def. 1.7 and Lemma 2.2)."""
    hulls: dict[tuple[int, int], PHull] = {}
    for a, b in game.unordered_pairs:
        h = pair_hull(game, a, b, ctx)
        hulls[(a, b)] = h
        hulls[(b, a)] = swap(h, ctx)
    return PProfile(game.name, tuple((game.pair_names(p), hulls[p]) for p in game.ordered_pairs))


def max_value(values: list, ctx: Ctx) -> Any:
    """The largest of some rational functions on the cell (:data:`INF` is largest)."""
    best: Any = None
    for v in values:
        if v is INF:
            return INF
        if best is None or ctx.cmp(v, best) > 0:
            best = v
    return best


def delta_at(p: PProfile, lam: Any, ctx: Ctx) -> RatFun:
    """δ_M(λ) on the cell: the largest of the pairs' δ(λ)."""
    return max_value([value_at(h, lam, ctx) for h in p.hulls()], ctx)


def envelope_delta_at(p: PProfile, lam: Any, ctx: Ctx) -> RatFun:
    """δ_M(λ) on the cell for λ ≥ 0, read off the envelope (:meth:`PProfile.envelope`): the upper
    hull of the pairs' chains, whose δ is the max of theirs, so this equals :func:`delta_at`
    there; its slopes are sorted, so λ is placed among them by a binary search
    (:func:`~exactdp.analysis.parametric.hull.value_by_search`) instead of being compared with
    every slope of every pair (for many λ on a large chain, the cost of the comparisons)."""
    return value_by_search(p.envelope(ctx), lam, ctx)


def least_lambda_of(p: PProfile, delta: Any, ctx: Ctx) -> Any:
    """The least λ ≥ 1 with δ_M(λ) ≤ δ: the largest of the pairs' (δ_M ≤ δ iff every pair's is)."""
    return max_value([least_lambda(h, delta, ctx) for h in p.hulls()], ctx)


def tradeoff_at(p: PProfile, alpha: Any, ctx: Ctx) -> RatFun:
    """T(M)(α) on the cell, for 0 ≤ α ≤ 1 (a rational function of the symbols or a rational):
    1 − U(α), U the envelope chain over the ordered pairs (Dong, Roth & Su 2022, Def. 2.1 and
    Prop. 2.4; the trade-off function is one minus the upper concave chain of the privacy
    region).  The chain is walked by decreasing slope from (0, top); each comparison of α with
    an abscissa is a sign proved on the cell, so T(M)(α) is one rational function there."""
    h = p.envelope(ctx)
    ring = ctx.ring
    x, y = ring.zero, h.top
    for r, w in sorted_edges(h, ctx):
        if ctx.cmp(alpha, x + w) <= 0:
            return ring.one - (y + r * (alpha - x))
        x, y = x + w, y + r * w
    return ring.one - y


def renyi_sum(game: PGame, i: int, j: int, alpha: int, ctx: Ctx) -> RatFun | Any:
    """sup over adversaries of Σ_v P_x(v)^α P_x'(v)^{1−α} for an integer α ≥ 2 on the cell, a
    rational function, or :data:`~exactdp.analysis.parametric.hull.INF` (a view possible
    under x only).  Same induction as :func:`exactdp.analysis.renyi.renyi_sums`."""
    ring = game.ring
    memo: list[Any] = [None] * len(game.nodes)
    for k, node in enumerate(game.nodes):
        kind = node[0]
        if kind == "end":
            memo[k] = ring.one
        elif kind == "ask":
            best: Any = None
            for c in node[1]:
                v = memo[c]
                if v is INF:
                    best = INF
                    break
                if best is None or ctx.cmp(v, best) > 0:
                    best = v
            memo[k] = best
        else:
            total: Any = ring.zero
            for row, c in zip(node[1], node[2]):
                p, pp = row[i], row[j]
                if ctx.sign(p) == 0:
                    continue
                if ctx.sign(pp) == 0 or memo[c] is INF:
                    total = INF
                    break
                total = total + p**alpha / pp ** (alpha - 1) * memo[c]
            memo[k] = total
    return memo[-1]
