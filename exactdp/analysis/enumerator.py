r"""The enumerator: the reference engine, by brute force over deterministic adversaries.

Lemma 2.2 of Vadhan–Wang: an interactive mechanism is (ε, δ)-DP iff (2) holds for every
adjacent pair and every *deterministic* adversary.  This engine takes the lemma literally:
it lists every deterministic strategy (an option at every history reaching a choice), computes
the exact distribution of the adversary's view under every dataset, and evaluates the
hockey-stick divergence Σ_v (P_x(v) − λ P_x'(v))_+ from its definition.  It shares no code
with the profile engine's backward induction; the two must agree.

It is exponential by nature and refuses, with a clear message, when the number of strategies
exceeds ``max_strategies`` (default :data:`DEFAULT_MAX_STRATEGIES`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import limits
from ..errors import LimitExceededError
from ..model.checks import takes_mechanism
from ..model.game import Ask, Chance, End, Mechanism, Node, postorder
from ..model.ops import count_strategies, stats, strategy_counts
from ..numbers import INF, Infinity, ladder
from ..numbers.element import public
from ..numbers.ladder import is_inf
from ..numbers.loglinear import log_linear
from ..numbers.logsum import log_sum
from ..numbers.rational import Q, is_rational
from ..numbers.types import DeltaLike, EpsLike, FieldValue, PrivLossValue
from .hull import from_views, line_gt, upper
from .renyi import RenyiResult, max_value, parse_alpha, result_from_sums
from .results import (
    DeltaValue,
    PairProfile,
    Profile,
    affine_at,
    delta_arg,
    eps_arg,
    lambda_of,
    privloss_from_lambda,
    value_cmp,
)
from .witness import HistoryPolicy, Witness, make_witness

if TYPE_CHECKING:  # pragma: no cover - for annotations; the functions below import .renyi lazily
    from .renyi import RenyiSum

__all__ = [
    "profile",
    "privloss",
    "delta_at",
    "is_dp",
    "witness",
    "strategies",
    "renyi",
    "DEFAULT_MAX_STRATEGIES",
    "size",
    "fits",
    "ENGINE",
]

ENGINE = "enumerator"
DEFAULT_MAX_STRATEGIES = None  # None: the limit in force (exactdp.limits.current().max_strategies)
DEFAULT_VIEWS_PER_STRATEGY = 64  # the work limit is max_strategies x this many views

_FOLD = 1024  # profile(): adversaries' profiles kept before their upper hull replaces them

# A view is (history, probability vector); a history is a tuple of ("q"|"a", label) steps.


def _max_views(root: Node) -> int:
    """The largest number of views one deterministic adversary can have (answers multiply)."""

    v: dict[int, int] = {}
    for node in postorder(root):
        kids = node.children_nodes()
        if isinstance(node, Ask):
            v[node.uid] = max(v[c.uid] for c in kids)
        elif isinstance(node, Chance):
            v[node.uid] = sum(v[c.uid] for c in kids)
        else:
            v[node.uid] = 1
    return v[root.uid]


def size(mech: Mechanism) -> tuple[int, int]:
    """(number of deterministic adversaries, most views of one adversary): what the enumerator
    would list, computed without listing it."""
    return count_strategies(mech.root), _max_views(mech.root)


def fits(mech: Mechanism, max_strategies: int) -> bool:
    """Whether the enumerator may cheaply list ``mech``'s adversaries under ``max_strategies``:
    their number, their views, and the length of those views' histories (each strategy holds
    its histories, so a deep game costs its depth again per view) are all bounded."""
    n, views = size(mech)
    depth = stats(mech.root)["depth"]
    work = max_strategies * DEFAULT_VIEWS_PER_STRATEGY
    return n <= max_strategies and n * views <= work and n * views * max(depth, 1) <= 16 * work


def _check_size(mech: Mechanism, max_strategies: int | None) -> int:
    if max_strategies is None:
        max_strategies = limits.current().max_strategies
    n = count_strategies(mech.root)
    if n > max_strategies:
        raise LimitExceededError(
            f"the number of deterministic adversaries of {mech.name} ({n})",
            max_strategies,
            "the enumerator is the brute-force reference; use the profile engine (the default) or raise "
            "--max-strategies",
        )
    views = _max_views(mech.root)
    if n * views > max_strategies * DEFAULT_VIEWS_PER_STRATEGY:
        raise LimitExceededError(
            f"the number of adversary views of {mech.name} (up to {n} x {views})",
            max_strategies * DEFAULT_VIEWS_PER_STRATEGY,
            "the enumerator lists every view of every adversary; use the profile engine (the default) or raise "
            "--max-strategies",
        )
    return n


def _option(node: Ask, count: dict[int, int], index: int) -> tuple[int, int]:
    """The option an index below a choice picks, and the index left for that option's subtree."""
    for option, child in enumerate(node.children):
        if index < count[child.uid]:
            return option, index
        index -= count[child.uid]
    raise IndexError(index)  # pragma: no cover - indices stay below the node's count


def _strategy(root: Node, n: int, count: dict[int, int], index: int) -> tuple[dict, list]:
    """The ``index``-th deterministic adversary as (choices, views), built alone.

    An index below a choice picks an option (options in order, each owning a block of indices);
    below a chance node it splits into one index per answer (mixed radix, the first answer most
    significant).  One adversary is built at a time, so memory does not grow with their number;
    an explicit stack walks the game (no recursion limit on deep games)."""
    choices: dict = {}
    views: list = []
    stack: list[tuple[Node, int, tuple, tuple]] = [(root, index, (), (Q(1),) * n)]
    while stack:
        node, k, hist, pr = stack.pop()
        if isinstance(node, End):
            views.append((hist, pr))
        elif isinstance(node, Ask):
            option, k = _option(node, count, k)
            choices[hist] = option
            stack.append((node.children[option], k, hist + (("q", node.labels[option]),), pr))
        elif isinstance(node, Chance):
            below = []
            for lab, row, child in zip(reversed(node.labels), reversed(node.probs), reversed(node.children)):
                k, digit = divmod(k, count[child.uid])
                below.append((child, digit, hist + (("a", lab),), tuple(a * b for a, b in zip(pr, row))))
            stack.extend(below)  # the last answer is pushed first: views come out in answer order
        else:  # pragma: no cover
            raise TypeError(node)
    return choices, views


def strategies(mech: Mechanism, *, max_strategies: int | None = DEFAULT_MAX_STRATEGIES) -> Iterator[tuple[dict, list]]:
    """Every deterministic adversary as (choice table, exact view distribution).

    The choice table maps each history reaching a choice to the option index taken; the view
    distribution lists (history, probability under each dataset).
    """
    total = _check_size(mech, max_strategies)
    count, n = strategy_counts(mech.root, cap=None), len(mech.datasets)  # (none exceeds the root's, bounded)
    for index in range(total):
        yield _strategy(mech.root, n, count, index)


def _hockey(views: list, i: int, j: int, lam: Any) -> Any:
    """Σ_v (P_i(v) − λ P_j(v))_+ by definition (rational λ)."""
    total = Q(0)
    for _, pr in views:
        d = pr[i] - lam * pr[j]
        if d > 0:
            total += d
    return total


def _least_lambda(views: list, i: int, j: int, delta: Any) -> Any:
    """Least λ ≥ 1 with Σ_v (P_i − λ P_j)_+ ≤ δ, from the definition.

    The divergence is convex and piecewise linear in λ with kinks only at likelihood ratios;
    evaluate it at λ = 1 and at every ratio > 1, find the last kink where it still exceeds δ,
    and solve the linear piece after it.
    """
    top = sum((pr[i] for _, pr in views if pr[j] == 0 and pr[i] > 0), Q(0))
    if top > delta:
        return INF
    kinks = sorted({Q(1)} | {pr[i] / pr[j] for _, pr in views if pr[j] > 0 and pr[i] / pr[j] > 1})
    vals = [_hockey(views, i, j, k) for k in kinks]
    if vals[0] <= delta:
        return Q(1)
    last = max(n for n, v in enumerate(vals) if v > delta)
    # beyond the largest ratio the divergence equals top <= delta, so a next kink exists
    k0, k1, v0, v1 = kinks[last], kinks[last + 1], vals[last], vals[last + 1]
    slope = (v1 - v0) / (k1 - k0)
    return k0 + (delta - v0) / slope


def _pairs(mech: Mechanism) -> tuple[tuple[int, int], ...]:
    return mech.ordered_pairs


@takes_mechanism
def privloss(
    mech: Mechanism, delta: DeltaLike, *, max_strategies: int | None = DEFAULT_MAX_STRATEGIES
) -> PrivLossValue:
    """PrivLoss(M, δ) = max over deterministic adversaries and ordered pairs of the least
    ε with δ_A(e^ε) ≤ δ (Lemma 2.2)."""
    delta = delta_arg(delta, "privloss")
    best: Any = Q(1)
    for _, views in strategies(mech, max_strategies=max_strategies):
        for i, j in _pairs(mech):
            lam = _least_lambda(views, i, j, delta)
            if is_inf(lam):
                return INF
            if lam > best:
                best = lam
    return public(privloss_from_lambda(best))


def _hockey_any(views: list, i: int, j: int, lam: Any) -> Any:
    """Σ_v (P_i − λ P_j)_+ for any exact λ, as (A, B) with value A − λB."""
    a, b = Q(0), Q(0)
    rational = is_rational(lam)
    for _, pr in views:
        if pr[i] == 0:
            continue
        if pr[j] == 0 or (pr[i] > lam * pr[j] if rational else ladder.cmp(pr[i] / pr[j], lam) > 0):
            a += pr[i]
            b += pr[j]
    return a, b


def _best(mech: Mechanism, lam: Any, max_strategies: int | None) -> Any:
    best = None
    for choices, views in strategies(mech, max_strategies=max_strategies):
        for pair in _pairs(mech):
            line = _hockey_any(views, pair[0], pair[1], lam)
            if best is None or line_gt(line, best[0], lam):
                best = (line, pair, choices)
    return best


@takes_mechanism
def delta_at(mech: Mechanism, eps: EpsLike, *, max_strategies: int | None = DEFAULT_MAX_STRATEGIES) -> DeltaValue:
    """max over deterministic adversaries and ordered pairs of Σ_v (P_x − e^ε P_x')_+."""
    lam = lambda_of(eps_arg(eps, "delta_at"))
    (a, b), _, _ = _best(mech, lam, max_strategies)
    return public(affine_at(a, b, lam))


@takes_mechanism
def is_dp(
    mech: Mechanism, eps: EpsLike | Infinity, delta: DeltaLike, *, max_strategies: int | None = DEFAULT_MAX_STRATEGIES
) -> bool:
    """Whether ``mech`` is (ε, δ)-DP against every deterministic (hence every) adversary."""
    e, d = eps_arg(eps, "is_dp"), delta_arg(delta, "is_dp")
    if is_inf(e):
        return True
    return value_cmp(delta_at(mech, e, max_strategies=max_strategies), d) <= 0


@takes_mechanism
def profile(mech: Mechanism, *, max_strategies: int | None = DEFAULT_MAX_STRATEGIES) -> Profile:
    """The privacy profile as the pointwise max over every deterministic adversary's own
    profile (each built directly from its exact view distribution)."""
    per_pair: dict[tuple[int, int], list] = {p: [] for p in _pairs(mech)}
    for _, views in strategies(mech, max_strategies=max_strategies):
        for (i, j), hulls in per_pair.items():
            hulls.append(from_views((pr[i], pr[j]) for _, pr in views))
            if len(hulls) >= _FOLD:  # the max of maxima is the max: memory stays bounded
                hulls[:] = [upper(hulls)]
    pairs = [PairProfile(mech.pair_names(p), upper(hs)) for p, hs in per_pair.items()]
    return Profile.from_pairs(mech.name, pairs)


@takes_mechanism
def witness(
    mech: Mechanism,
    eps: EpsLike,
    *,
    pair: tuple[int, int] | None = None,
    max_strategies: int | None = DEFAULT_MAX_STRATEGIES,
) -> Witness:
    """The best deterministic adversary at e^ε found by exhaustive search, re-checked."""
    lam = lambda_of(eps_arg(eps, "witness", negative=True))  # (delta at e^eps < 1 too)
    best = None
    for choices, views in strategies(mech, max_strategies=max_strategies):
        for p in [pair] if pair is not None else _pairs(mech):
            line = _hockey_any(views, p[0], p[1], lam)
            if best is None or line_gt(line, best[0], lam):
                best = (line, p, choices)
    assert best is not None
    line, p, choices = best
    return make_witness(mech, p, lam, HistoryPolicy(choices), ENGINE, expected_line=line)


def _renyi_sum_by_definition(views: list, i: int, j: int, alpha: int) -> RenyiSum:
    """Σ_v P_i(v)^α P_j(v)^{1−α} (α ≥ 2) or Σ_v P_i(v) log(P_i(v)/P_j(v)) (α = 1) over one
    adversary's exact view distribution, from the definitions (Mironov 2017, Def. 3)."""

    total: FieldValue = Q(0)
    logs = []
    for _, pr in views:
        p, pp = pr[i], pr[j]
        if not p:
            continue
        if not pp:
            return INF
        if alpha == 1:
            logs.append((p / pp, p))
        else:
            total += p**alpha * (1 / pp) ** (alpha - 1)
    if alpha != 1:
        return total
    if all(is_rational(r) and is_rational(c) for r, c in logs):
        return log_linear(Q(0), logs)
    return log_sum(Q(0), logs)


@takes_mechanism
def renyi(mech: Mechanism, alpha: object, *, max_strategies: int | None = DEFAULT_MAX_STRATEGIES):
    """D_α(M) by brute force: every deterministic adversary's exact view distribution, the
    Rényi sum from its definition, the max over adversaries and ordered pairs (α = ∞: this
    engine's own PrivLoss(M, 0)).  Returns a :class:`~exactdp.analysis.renyi.RenyiResult`."""

    a = parse_alpha(alpha)
    if is_inf(a):
        return RenyiResult(mech.name, a, privloss(mech, Q(0), max_strategies=max_strategies))
    pairs = _pairs(mech)
    best: list = [None] * len(pairs)
    for _, views in strategies(mech, max_strategies=max_strategies):
        for k, (i, j) in enumerate(pairs):
            s = _renyi_sum_by_definition(views, i, j, a)
            best[k] = s if best[k] is None else max_value(best[k], s)
    return result_from_sums(mech, a, best)
