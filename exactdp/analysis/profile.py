r"""The profile engine (default): exact backward induction over the game DAG.

For each ordered adjacent pair (x, x') it computes the exact privacy profile

.. math:: \delta_{x,x'}(\lambda) = \sup_{A} \sum_{v} \big(P[\mathrm{View}(A, M(x)) = v] - \lambda\, P[\mathrm{View}(A, M(x')) = v]\big)_+

over all adaptive adversaries A (deterministic ones suffice: Vadhan–Wang Lemma 2.2), as an
exact concave chain (:mod:`exactdp.analysis.hull`): answers rescale and add their
continuations' chains, adversary choices take the upper hull.  Each DAG node is processed
once per adjacent pair, so shared sub-games (``repeat``, ``concomp`` joint states) cost once.

PrivLoss(M, δ) = inf{ε ≥ 0 : M is (ε, δ)-DP} (Vadhan–Wang §5) is then the log of the least
λ ≥ 1 with max over ordered pairs δ_{x,x'}(λ) ≤ δ: a rational λ, or ∞.  For δ = 0 the least λ
is the largest likelihood ratio P_x(v)/P_x'(v) over every adversary's views, found by a cheaper
induction that never builds chains (:func:`pure_lambda`).

The hot loops run on the game's flat storage (:mod:`exactdp.analysis.induction`,
:mod:`exactdp.model.flat`); the engine they replaced is kept as
:mod:`exactdp.analysis.reference`, which tests and benchmarks compare with.

Functions share their signatures with :mod:`exactdp.analysis.enumerator`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..model.checks import takes_mechanism
from ..model.flat import ASK_KIND, FlatGame, flat_of
from ..model.game import Mechanism
from ..numbers import INF, Infinity, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q
from ..numbers.types import DeltaLike, EpsLike, PrivLossValue
from .hull import Hull, swap
from .induction import as_hull, max_ratios, pair_chains
from .product import product_chain, repeated_parts
from .results import (
    DeltaValue,
    PairProfile,
    Profile,
    delta_arg,
    eps_arg,
    lambda_of,
    privloss_from_lambda,
    value_cmp,
)
from .witness import HullPolicy, Witness, make_witness

__all__ = ["profile", "privloss", "delta_at", "is_dp", "witness", "pair_hull", "pure_lambda", "ENGINE"]

ENGINE = "profile"

Progress = Callable[[str, int, int], None]


class ChainMemo(Mapping):
    """The kept chains for one ordered pair (the root's and every option's of a choice), by node
    ``uid`` (as :class:`Hull`, made on demand from the induction's chains)."""

    def __init__(self, g: FlatGame, chains: list):
        self._g = g
        self._chains = chains
        self._index: dict[int, int] | None = None
        self._hulls: dict[int, Hull] = {}

    def _v(self, uid: int) -> int:
        if self._index is None:
            self._index = {self._g.node_at(v).uid: v for v in range(len(self._g))}
        return self._index[uid]

    def __getitem__(self, uid: int) -> Hull:
        h = self._hulls.get(uid)
        if h is None:
            chain = self._chains[self._v(uid)]
            if chain is None:  # pair_chains keeps the root's and the options' of every choice only
                raise KeyError(uid)
            h = self._hulls[uid] = as_hull(chain)
        return h

    def __iter__(self) -> Iterator[int]:
        return (self._g.node_at(v).uid for v, c in enumerate(self._chains) if c is not None)

    def __len__(self) -> int:
        return sum(c is not None for c in self._chains)


def pair_hull(mech: Mechanism, pair: tuple[int, int], *, keep: bool = False) -> tuple[Hull, Mapping[int, Hull]]:
    """The chain of one ordered pair and, with ``keep``, of the root and every option of a choice
    for that pair (a mapping from node ``uid`` to :class:`Hull`; empty without ``keep``)."""
    g = flat_of(mech)
    chains = pair_chains(g, pair[0], pair[1], keep=keep)
    root = as_hull(chains[-1])  # type: ignore[arg-type]
    return root, (ChainMemo(g, chains) if keep else {})


@takes_mechanism
def pure_lambda(mech: Mechanism, *, progress: Progress | None = None, deadline: float | None = None) -> Any:
    """e^{PrivLoss(M, 0)}: the largest likelihood ratio P_x(v)/P_x'(v) over every ordered
    adjacent pair and every adversary's views v (a rational ≥ 1), or ``INF`` when some view is
    possible under one dataset of an adjacent pair only.

    δ_M(λ) = Σ_v (P_x(v) − λ P_x'(v))_+ is zero exactly when λ is at least every ratio, so this
    is the least λ with δ_M(λ) = 0 (Vadhan & Wang 2021, Def. 1.7 and Lemma 2.2), found without
    building privacy profiles.

    >>> from exactdp.builders import rr
    >>> str(pure_lambda(rr(eps="log(3)")))
    '3'
    """
    g, wanted = flat_of(mech), set(mech.ordered_pairs)
    best: Any = 1
    for a, b in mech.unordered_pairs:
        fwd, bwd = max_ratios(g, a, b, progress=progress, deadline=deadline)
        ratios = [r for p, r in (((a, b), fwd), ((b, a), bwd)) if p in wanted]  # (a directed pair: one order)
        if None in ratios:
            return INF
        best = max(best, *ratios)
    return Q(1) if best == 1 else best


@takes_mechanism
def profile(mech: Mechanism, *, progress: Progress | None = None, deadline: float | None = None) -> Profile:
    r"""The exact privacy profile of ``mech`` for every ordered adjacent pair:

    .. math:: \delta_M(\lambda) = \max_{(x, x')} \sup_A \sum_v \big(P[\mathrm{View}(A, M(x)) = v]
              - \lambda\, P[\mathrm{View}(A, M(x')) = v]\big)_+, \qquad \lambda = e^\varepsilon \ge 1,

    over every adaptive adversary :math:`A` (deterministic ones suffice, Lemma 2.2).

    Parameters
    ----------
    mech : Mechanism
    progress : callable, optional
        Called as ``progress(stage, done, total)`` during long computations.

    Returns
    -------
    Profile
        Per ordered pair and their envelope :math:`\delta_M(\lambda)`; exact rationals throughout.

    References
    ----------
    Vadhan & Wang, Concurrent Composition of Differential Privacy (TCC 2021), Def. 1.7, Lemma 2.2.
    """
    g, parts = flat_of(mech), repeated_parts(mech)
    hulls: dict[tuple[int, int], Hull] = {}
    for a, b in mech.unordered_pairs:
        chain = product_chain(parts[0], a, b, parts[1], deadline) if parts else None
        if chain is None:
            chain = pair_chains(g, a, b, progress=progress, deadline=deadline)[-1]
        h = as_hull(chain)  # type: ignore[arg-type]
        hulls[(a, b)] = h
        hulls[(b, a)] = swap(h)
    pairs = [PairProfile(mech.pair_names(p), hulls[p]) for p in mech.ordered_pairs]
    return Profile.from_pairs(mech.name, pairs)


@takes_mechanism
def privloss(mech: Mechanism, delta: DeltaLike, **kw: Any) -> PrivLossValue:
    r""":math:`\mathrm{PrivLoss}(M, \delta) = \inf\{\varepsilon \ge 0 : M \text{ is } (\varepsilon, \delta)\text{-DP}\}`
    exactly: ``0``, ``log(r)`` (a :class:`~exactdp.numbers.LogReal`) or ``INF``.

    ``delta`` is an exact rational or its text (``"1/10"``), as in a case file.

    >>> from exactdp.builders import rr
    >>> str(privloss(rr(eps="log(3)"), 0))
    'log(3)'
    >>> str(privloss(rr(eps="log(3)", delta="1/10"), "1/5"))
    'log(23/9)'

    References
    ----------
    Vadhan & Wang 2021, §5 (PrivLoss) and Lemma 2.2.
    """
    d = delta_arg(delta, "privloss")
    if d == 0:
        return privloss_from_lambda(pure_lambda(mech, **kw))
    return profile(mech, **kw).privloss(d)


@takes_mechanism
def delta_at(mech: Mechanism, eps: EpsLike, **kw: Any) -> DeltaValue:
    r""":math:`\delta_M(e^\varepsilon)`: the largest hockey-stick divergence any adversary achieves at
    :math:`e^\varepsilon` (``eps`` exact, or text such as ``"log(3)"``; Vadhan & Wang 2021, Def. 1.7)."""
    return profile(mech, **kw).delta_at(eps_arg(eps, "delta_at"))


@takes_mechanism
def is_dp(mech: Mechanism, eps: EpsLike | Infinity, delta: DeltaLike, **kw: Any) -> bool:
    r"""Whether ``mech`` is :math:`(\varepsilon, \delta)`-DP against every adaptive adversary,
    :math:`\delta_M(e^\varepsilon) \le \delta` (Vadhan & Wang 2021, Def. 1.7); ``eps`` and ``delta``
    are exact values or their text (``"log(3)"``, ``"1/10"``)."""
    e = eps_arg(eps, "is_dp")
    d = delta_arg(delta, "is_dp")
    if is_inf(e):
        return True
    if d == 0:  # (ε, 0)-DP exactly when e^ε is at least every likelihood ratio
        lam = pure_lambda(mech, **kw)
        return not is_inf(lam) and ladder.cmp(lambda_of(e), lam) >= 0
    return value_cmp(profile(mech, **kw).delta_at(e), d) <= 0


@takes_mechanism
def witness(
    mech: Mechanism, eps: EpsLike, *, pair: tuple[int, int] | None = None, prof: Profile | None = None
) -> Witness:
    r"""The worst adversary at :math:`e^\varepsilon`: adjacent pair, deterministic strategy, event
    :math:`T` and both probabilities of :math:`T`, re-checked by an independent forward computation.

    The event is :math:`T = \{v : P_x(v) > e^\varepsilon P_{x'}(v)\}`; the strategy picks at each
    history the option whose continuation maximises the hockey-stick divergence at the rescaled
    :math:`\lambda`.
    """
    lam = lambda_of(eps_arg(eps, "witness", negative=True))  # (delta at e^eps < 1 too)
    if is_inf(lam):
        raise ValueError("no witness exists at eps = inf")
    prof = prof or profile(mech)
    if pair is None:
        names = prof.worst_pair(lam).pair
        pair = (mech.datasets.index(names[0]), mech.datasets.index(names[1]))
    # (a game without choices has one adversary: no option's chain to compare, none to recompute)
    memo = pair_hull(mech, pair, keep=True)[1] if ASK_KIND in flat_of(mech).kind else {}
    policy = HullPolicy(memo, lam)
    target = _pair_line(prof, mech, pair, lam)
    return make_witness(mech, pair, lam, policy, ENGINE, expected_line=target)


def _pair_line(prof: Profile, mech: Mechanism, pair: tuple[int, int], lam: Any) -> tuple[Any, Any]:
    names = mech.pair_names(pair)
    for pp in prof.pairs:
        if pp.pair == names:
            return pp.hull.line_at(lam)
    raise KeyError(names)  # pragma: no cover
