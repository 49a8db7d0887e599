r"""The profile engine (default): exact backward induction over the game DAG.

For each ordered adjacent pair (x, x') it computes the exact privacy profile

.. math:: \delta_{x,x'}(\lambda) = \sup_{A} \sum_{v} \big(P[\mathrm{View}(A, M(x)) = v] - \lambda\, P[\mathrm{View}(A, M(x')) = v]\big)_+

over all adaptive adversaries A (deterministic ones suffice: Vadhan–Wang Lemma 2.2), as an
exact concave chain (:mod:`exactdp.analysis.hull`): answers rescale and add their
continuations' chains, adversary choices take the upper hull.  Each DAG node is processed
once per adjacent pair, so shared sub-games (``repeat``, ``concomp`` joint states) cost once.

PrivLoss(M, δ) = inf{ε ≥ 0 : M is (ε, δ)-DP} (Vadhan–Wang §5) is then the log of the least
λ ≥ 1 with max over ordered pairs δ_{x,x'}(λ) ≤ δ: a rational λ, or ∞.

Functions share their signatures with :mod:`exactdp.analysis.enumerator`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from .. import limits
from ..model.game import Ask, Chance, End, Mechanism, Node, postorder
from ..numbers import Infinity, ladder
from ..numbers.ladder import is_inf
from ..numbers.types import DeltaLike, EpsLike, PrivLossValue
from .hull import LEAF, Hull, combine, swap, upper
from .results import DeltaValue, PairProfile, Profile, delta_arg, eps_arg, lambda_of, value_cmp
from .witness import HullPolicy, Witness, make_witness

__all__ = ["profile", "privloss", "delta_at", "is_dp", "witness", "pair_hull", "ENGINE"]

ENGINE = "profile"

Progress = Callable[[str, int, int], None]


def _induction(
    order: list[Node],
    i: int,
    j: int,
    *,
    keep: bool = False,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> tuple[Hull, dict[int, Hull]]:
    """Chains of every node for the ordered pair (i, j); frees children's chains once their
    last parent is done unless ``keep``."""
    remaining: dict[int, int] = {}
    if not keep:
        for node in order:
            for c in node.children_nodes():
                remaining[c.uid] = remaining.get(c.uid, 0) + 1
    memo: dict[int, Hull] = {}
    total = len(order)
    max_bits = limits.current().max_bits
    for n, node in enumerate(order):
        if isinstance(node, Chance):
            h = combine([(row[i], row[j], memo[c.uid]) for row, c in zip(node.probs, node.children)])
            _check_sizes(h, max_bits)
        elif isinstance(node, Ask):
            h = upper([memo[c.uid] for c in node.children])
        elif isinstance(node, End):
            h = LEAF
        else:  # pragma: no cover
            raise TypeError(node)
        memo[node.uid] = h
        if not keep:
            for c in node.children_nodes():
                left = remaining[c.uid] - 1
                if left:
                    remaining[c.uid] = left
                else:
                    del remaining[c.uid]
                    memo.pop(c.uid, None)
        if n & 0x3FFF == 0:
            if progress is not None:
                progress("profile", n, total)
            if deadline is not None and time.monotonic() > deadline:
                from ..errors import TimeLimitExceeded

                raise TimeLimitExceeded("the --timeout")
    return memo[order[-1].uid], memo


def _check_sizes(h: Hull, max_bits: int) -> None:
    """Refuse numbers beyond ``max_bits`` as they appear (products of probabilities grow with
    the depth): the extreme ratios and the extreme weights of the chain are the largest ones
    products make, checked at O(1) cost per node, so that no single multiplication becomes
    long (``--timeout`` is then never overshot) or huge."""
    if not h.edges:
        return
    (r0, w0), (r1, w1) = h.edges[0], h.edges[-1]
    bits = max(_bits(h.top), _bits(r0), _bits(w0), _bits(r1), _bits(w1))
    if bits > max_bits:
        limits.check_bits(bits, "a probability computed by the profile engine")


def _bits(x: Any) -> int:
    """:func:`exactdp.numbers.ladder.bits`, with the common case (a rational) first: this runs at every node."""
    try:
        return max(x.numerator.bit_length(), x.denominator.bit_length())
    except AttributeError:  # an element of Q(e^(1/L)), or another exact value
        return ladder.bits(x)


def pair_hull(mech: Mechanism, pair: tuple[int, int], *, keep: bool = False) -> tuple[Hull, dict[int, Hull]]:
    """The chain of one ordered pair (and, with ``keep``, of every node for that pair)."""
    order = postorder(mech.root)
    return _induction(order, pair[0], pair[1], keep=keep)


def profile(mech: Mechanism, *, progress: Progress | None = None, deadline: float | None = None) -> Profile:
    """The exact privacy profile of ``mech`` for every ordered adjacent pair.

    Parameters
    ----------
    mech : Mechanism
    progress : callable, optional
        Called as ``progress(stage, done, total)`` during long computations.

    Returns
    -------
    Profile
        Per ordered pair and their envelope δ_M(λ); exact rationals throughout.

    References
    ----------
    Vadhan & Wang, Concurrent Composition of Differential Privacy (TCC 2021), Def. 1.7, Lemma 2.2.
    """
    order = postorder(mech.root)
    hulls: dict[tuple[int, int], Hull] = {}
    for a, b in mech.unordered_pairs:
        h, _ = _induction(order, a, b, progress=progress, deadline=deadline)
        hulls[(a, b)] = h
        hulls[(b, a)] = swap(h)
    pairs = [PairProfile(mech.pair_names(p), hulls[p]) for p in mech.ordered_pairs]
    return Profile.from_pairs(mech.name, pairs)


def privloss(mech: Mechanism, delta: DeltaLike, **kw: Any) -> PrivLossValue:
    """PrivLoss(M, δ) exactly: ``0``, ``log(r)`` (a :class:`~exactdp.numbers.LogReal`) or ``INF``.

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
    return profile(mech, **kw).privloss(delta_arg(delta, "privloss"))


def delta_at(mech: Mechanism, eps: EpsLike, **kw: Any) -> DeltaValue:
    """δ_M(e^ε): the largest hockey-stick divergence any adversary achieves at e^ε
    (``eps`` exact, or text such as ``"log(3)"``; Vadhan & Wang 2021, Def. 1.7)."""
    return profile(mech, **kw).delta_at(eps_arg(eps, "delta_at"))


def is_dp(mech: Mechanism, eps: EpsLike | Infinity, delta: DeltaLike, **kw: Any) -> bool:
    """Whether ``mech`` is (ε, δ)-DP against every adaptive adversary (Vadhan & Wang 2021,
    Def. 1.7); ``eps`` and ``delta`` are exact values or their text (``"log(3)"``, ``"1/10"``)."""
    e = eps_arg(eps, "is_dp")
    d = delta_arg(delta, "is_dp")
    if is_inf(e):
        return True
    return value_cmp(profile(mech, **kw).delta_at(e), d) <= 0


def witness(
    mech: Mechanism, eps: EpsLike, *, pair: tuple[int, int] | None = None, prof: Profile | None = None
) -> Witness:
    """The worst adversary at e^ε: adjacent pair, deterministic strategy, event T and both
    probabilities of T, re-checked by an independent forward computation.

    The event is T = {views v : P_x(v) > e^ε P_x'(v)}; the strategy picks at each history
    the option whose continuation maximises the hockey-stick at the rescaled λ.
    """
    lam = lambda_of(eps_arg(eps, "witness"))
    if is_inf(lam):
        raise ValueError("no witness exists at eps = inf")
    prof = prof or profile(mech)
    if pair is None:
        names = prof.worst_pair(lam).pair
        pair = (mech.datasets.index(names[0]), mech.datasets.index(names[1]))
    _, memo = pair_hull(mech, pair, keep=True)
    policy = HullPolicy(memo, lam)
    target = _pair_line(prof, mech, pair, lam)
    return make_witness(mech, pair, lam, policy, ENGINE, expected_line=target)


def _pair_line(prof: Profile, mech: Mechanism, pair: tuple[int, int], lam: Any) -> tuple[Any, Any]:
    names = mech.pair_names(pair)
    for pp in prof.pairs:
        if pp.pair == names:
            return pp.hull.line_at(lam)
    raise KeyError(names)  # pragma: no cover
