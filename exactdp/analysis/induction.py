r"""The engines' hot loops: backward induction over a game in flat storage.

Three inductions over :class:`~exactdp.model.flat.FlatGame` (nodes by index, children before
parents), each for one ordered adjacent pair (x, x') at a time:

* :func:`pair_chains` – the exact privacy profile δ_{x,x'}(λ) of every node as a concave chain
  (:mod:`exactdp.analysis.hull`; Vadhan–Wang 2021, Def. 1.7 and Lemma 2.2): answers rescale and
  add their continuations' chains, adversary choices take the upper hull;
* :func:`max_ratios` – the largest likelihood ratio P_x(v)/P_x'(v) over the views v of every
  adversary, in both directions at once: PrivLoss(M, 0) = log of its maximum, since
  δ(λ) = Σ_v (P_x(v) − λ P_x'(v))_+ vanishes exactly when λ is at least every ratio.  An answer
  multiplies its continuation's ratio by p/p', an adversary choice takes the maximum; a view
  possible under x only has ratio ∞;
* :func:`power_sums` – the sup over adversaries of the Rényi sum Σ_v P_x(v)^α P_x'(v)^{1−α} for
  an integer α ≥ 2 (Mironov 2017, Def. 3; :mod:`exactdp.analysis.renyi`): an answer contributes
  p^α p'^{1−α} times its continuation's sum, an adversary choice takes the maximum.

Chains here are plain tuples ``(top, R, W)`` with the slopes ``R`` decreasing and the widths
``W``; :func:`as_hull` turns one into a :class:`~exactdp.analysis.hull.Hull`.  Every number is
exact (rationals, or elements of ℚ(e^{1/L}) for a decimal ε).  Sizes are checked where numbers
grow (at answers, where probabilities multiply), the number of pieces of a chain where it can
pass ``--max-profile-size``, and the deadline every 16,384 nodes.

The engine as it was before these loops is kept, unchanged, as the reference that tests and
benchmarks compare with (:mod:`exactdp.analysis.reference`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import accumulate, islice
from operator import eq, itemgetter, mul, sub, truediv
from typing import Any

from .. import limits
from ..errors import TimeLimitExceeded
from ..limits import check_hull_size
from ..model.flat import ASK_KIND, CHANCE_KIND, FlatGame
from ..numbers import ladder
from ..numbers.rational import Q
from .hull import Hull

__all__ = ["Chain", "LEAF_CHAIN", "pair_chains", "as_hull", "max_ratios", "power_sums", "upper_chain"]

Chain = tuple[Any, list, list]
"""A concave chain as ``(top, slopes, widths)``, slopes decreasing (see :class:`Hull`)."""

Progress = Callable[[str, int, int], None]

_ZERO = Q(0)
_ONE = Q(1)
LEAF_CHAIN: Chain = (_ZERO, [_ONE], [_ONE])
"""The chain of the end of the interaction: one view with P = P' = 1."""

_key0 = itemgetter(0)
_TICK = 0x3FFF


def as_hull(c: Chain) -> Hull:
    """The :class:`Hull` of a chain."""
    top, R, W = c
    return Hull(top, tuple(zip(R, W)))


def _tick(stage: str, v: int, n: int, progress: Progress | None, deadline: float | None) -> None:
    if progress is not None:
        progress(stage, v, n)
    if deadline is not None and time.monotonic() > deadline:
        raise TimeLimitExceeded("the --timeout")


def _refcounts(g: FlatGame) -> Any:
    """Parents per node (cached on the game): a node's value is freed after its last parent."""
    counts = g.cache.get("parents")
    if counts is None:
        counts = g.cache["parents"] = g.parents_count()
    return counts


def _bits(x: Any) -> int:
    try:
        return max(x.numerator.bit_length(), x.denominator.bit_length())
    except AttributeError:  # an element of Q(e^(1/L))
        return ladder.bits(x)


def _check_chain(top: Any, R: list, W: list, max_bits: int) -> None:
    """Refuse numbers beyond ``max_bits`` where products of probabilities grow: the extreme
    slopes and widths of a chain are the largest numbers a product makes (O(1) per answer)."""
    bits = max(_bits(top), _bits(R[0]), _bits(R[-1]), _bits(W[0]), _bits(W[-1]))
    if bits > max_bits:
        limits.check_bits(bits, "a probability computed by the profile engine")


def pair_chains(
    g: FlatGame,
    i: int,
    j: int,
    *,
    keep: bool = False,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> list[Chain | None]:
    """The chain of every node for the ordered pair (i, j); the root's is the last entry.

    A node's chain is dropped once its last parent has used it, so only the root's remains;
    with ``keep``, every option's of a choice remains too (what a witness's adversary compares;
    keeping every node's made a 700-round game's witness need gigabytes)."""
    kind, start, child = g.kind, g.start, g.child
    Pi, Pj = g.probs[i], g.probs[j]
    n = len(kind)
    memo: list[Chain | None] = [None] * n
    left = _refcounts(g).tolist()
    if keep:
        for v in range(n):
            if kind[v] == ASK_KIND:
                for c in child[start[v] : start[v + 1]]:
                    left[c] = -1  # never reaches 0 below: kept
    max_bits = limits.current().max_bits
    for v in range(n):
        k = kind[v]
        s, e = start[v], start[v + 1]
        if k == CHANCE_KIND:
            h = _combine(Pi, Pj, child, memo, s, e)
            if h[1]:
                _check_chain(h[0], h[1], h[2], max_bits)
        elif k == ASK_KIND:
            h = upper_chain([memo[c] for c in child[s:e]])  # type: ignore[misc]
        else:
            h = LEAF_CHAIN
        memo[v] = h
        for c in child[s:e]:
            r = left[c] - 1
            left[c] = r
            if not r:
                memo[c] = None
        if not v & _TICK:
            _tick("profile", v, n, progress, deadline)
    return memo


def _combine(Pi: list, Pj: list, child: Any, memo: list, s: int, e: int) -> Chain:
    """The chain of an answer distribution: Σ_a of the continuations' chains scaled by (p'_a, p_a)
    (Minkowski sum: the edges merged by slope).  An answer impossible under x' adds p to ``top``;
    one impossible under x adds a flat edge of width p'."""
    top = _ZERO
    flat = _ZERO
    parts: list[tuple[list, list]] = []
    for x in range(s, e):
        p = Pi[x]
        pp = Pj[x]
        if not p:
            if pp:
                flat += pp
            continue
        if not pp:
            top += p
            continue
        ctop, R, W = memo[child[x]]
        if ctop:
            top += p * ctop
        kk = p / pp
        if len(R) == 1:
            parts.append(([R[0] * kk], [W[0] * pp]))
        else:
            parts.append(([r * kk for r in R], [w * pp for w in W]))
    if len(parts) == 1:
        R, W = parts[0]
    elif parts:
        merged: list = []
        for pr in parts:
            merged.extend(zip(*pr))
        merged.sort(key=_key0, reverse=True)
        R = [r for r, _ in merged]
        W = [w for _, w in merged]
        if any(map(eq, R, islice(R, 1, None))):
            R, W = _collapse(R, W)
    else:
        R, W = [], []
    if flat:
        if R and not R[-1]:
            W[-1] = W[-1] + flat
        else:
            R.append(_ZERO)
            W.append(flat)
    if len(R) > 4096:
        check_hull_size(len(R))
    return (top, R, W)


def _collapse(R: list, W: list) -> tuple[list, list]:
    """Equal consecutive slopes merged into one edge (their widths added)."""
    R2 = [R[0]]
    W2 = [W[0]]
    for r, w in zip(islice(R, 1, None), islice(W, 1, None)):
        if r == R2[-1]:
            W2[-1] = W2[-1] + w
        else:
            R2.append(r)
            W2.append(w)
    return R2, W2


def upper_chain(chains: list[Chain]) -> Chain:
    """Upper concave hull of several chains: the max of their profiles, pointwise in λ (the
    adversary's choice).  Chains that are the same object count once; nothing is hashed."""
    first = chains[0]
    distinct = [first]
    for c in islice(chains, 1, None):
        if all(c is not d for d in distinct):
            distinct.append(c)
    if len(distinct) == 1:
        return first
    if len(distinct) <= 4:  # the usual case: one walk per option, no sort
        out = _upper2(distinct[0], distinct[1])
        for c in islice(distinct, 2, None):
            out = _upper2(out, c)
        if len(out[1]) > 4096:
            check_hull_size(len(out[1]))
        return out
    pts: list[tuple[Any, Any]] = []
    for top, R, W in distinct:
        pts.extend(zip(accumulate(W, initial=_ZERO), accumulate(map(mul, R, W), initial=top)))
    if len(pts) > 4096:
        check_hull_size(len(pts))
    pts.sort()  # by abscissa, then ordinate: of equal abscissae the highest comes last
    sb: list = []
    sa: list = []
    for b, a in pts:
        if sb and sb[-1] == b:
            sb.pop()
            sa.pop()
        while len(sb) >= 2:
            b0 = sb[-2]
            a0 = sa[-2]
            # drop the last vertex if it is on or below the segment (b0, a0) -> (b, a)
            if (sb[-1] - b0) * (a - a0) >= (sa[-1] - a0) * (b - b0):
                sb.pop()
                sa.pop()
            else:
                break
        sb.append(b)
        sa.append(a)
    W = list(map(sub, islice(sb, 1, None), sb))
    R = list(map(truediv, map(sub, islice(sa, 1, None), sa), W))
    return (sa[0], R, W)


def max_ratios(
    g: FlatGame,
    i: int,
    j: int,
    *,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> tuple[Any, Any]:
    """The largest likelihood ratio over every adversary's views, for (i, j) and for (j, i):
    max_v P_i(v)/P_j(v) and max_v P_j(v)/P_i(v), each a rational (at least 1) or ``None`` for
    ∞ (a view possible under one dataset only)."""
    kind, start, child = g.kind, g.start, g.child
    Pi, Pj = g.probs[i], g.probs[j]
    n = len(kind)
    fwd: list[Any] = [None] * n
    bwd: list[Any] = [None] * n
    refs = _refcounts(g).tolist()
    max_bits = limits.current().max_bits
    for v in range(n):
        k = kind[v]
        s, e = start[v], start[v + 1]
        if k == CHANCE_KIND:
            f = _ZERO
            b = _ZERO
            for x in range(s, e):
                p = Pi[x]
                pp = Pj[x]
                c = child[x]
                if f is not None and p:
                    cf = fwd[c]
                    if not pp or cf is None:
                        f = None
                    else:
                        r = p * cf / pp
                        if r > f:
                            f = r
                if b is not None and pp:
                    cb = bwd[c]
                    if not p or cb is None:
                        b = None
                    else:
                        r = pp * cb / p
                        if r > b:
                            b = r
            if (f is not None and _bits(f) > max_bits) or (b is not None and _bits(b) > max_bits):
                limits.check_bits(max(_bits(f or _ONE), _bits(b or _ONE)), "a likelihood ratio")
        elif k == ASK_KIND:
            f = b = _ZERO
            for c in child[s:e]:
                cf, cb = fwd[c], bwd[c]
                if f is not None:
                    f = None if cf is None else (cf if cf > f else f)
                if b is not None:
                    b = None if cb is None else (cb if cb > b else b)
        else:
            f = b = _ONE
        fwd[v] = f
        bwd[v] = b
        for c in child[s:e]:
            r = refs[c] - 1
            refs[c] = r
            if not r:
                fwd[c] = bwd[c] = None
        if not v & _TICK:
            _tick("privloss", v, n, progress, deadline)
    return fwd[n - 1], bwd[n - 1]


def power_sums(
    g: FlatGame,
    pairs: list[tuple[int, int]],
    alpha: int,
    *,
    progress: Progress | None = None,
    deadline: float | None = None,
) -> list[Any]:
    """The sup over adversaries of Σ_v P_i(v)^α P_j(v)^{1−α}, one per ordered pair (i, j) of
    ``pairs``: an exact value, or ``None`` for ∞ (a view possible under i only)."""
    kind, start, child = g.kind, g.start, g.child
    n = len(kind)
    max_bits = limits.current().max_bits
    a1 = alpha - 1
    square = alpha == 2
    out = []
    left = _refcounts(g).tolist()
    col_bits = _column_bits(g)
    rational = _rational_probs(g)
    for i, j in pairs:
        Pi, Pj = g.probs[i], g.probs[j]
        memo: list[Any] = [None] * n
        refs = list(left)
        # every term p^α p'^(1-α) has at most this many bits: check each one only if it may be big
        term = (col_bits[i] + col_bits[j]) * alpha
        each = term > max_bits
        # An upper bound on each value's bits, in whole numbers: a sum of two rationals has at most
        # their bits plus one, a product at most their sum.  The exact size (a costlier call) is
        # measured only where the bound passes the limit, and then replaces the bound.
        size = [0] * n
        for v in range(n):
            k = kind[v]
            if k == CHANCE_KIND:
                acc: Any = _ZERO
                bound = 1
                for x in range(start[v], start[v + 1]):
                    c = child[x]
                    cv = memo[c]
                    bound += size[c] + term + 1
                    r = refs[c] - 1  # a value is dropped after its last parent has read it
                    refs[c] = r
                    if not r:
                        memo[c] = None
                    p = Pi[x]
                    if not p or acc is None:
                        continue
                    pp = Pj[x]
                    if not pp or cv is None:
                        acc = None
                        continue
                    if each:
                        _check_term(p, pp, alpha, max_bits)
                    acc += (p * p / pp if square else p**alpha / pp**a1) * cv
                if acc is not None and (bound > max_bits or not rational):
                    bound = _bits(acc)
                    if bound > max_bits:
                        limits.check_bits(bound, "a Renyi sum")
                size[v] = bound
            elif k == ASK_KIND:
                acc = _ZERO
                for x in range(start[v], start[v + 1]):
                    c = child[x]
                    cv = memo[c]
                    r = refs[c] - 1
                    refs[c] = r
                    if not r:
                        memo[c] = None
                    if acc is not None and (cv is None or cv > acc):
                        acc = cv
                    size[v] = max(size[v], size[c])
            else:
                acc = _ONE
                size[v] = 1
            memo[v] = acc
            if not v & _TICK:
                _tick("renyi", v, n, progress, deadline)
        out.append(memo[n - 1])
    return out


def _check_term(p: Any, pp: Any, alpha: int, max_bits: int) -> None:
    """Refuse p^α p'^{1−α} before it is computed when it would exceed ``max_bits``."""
    bits = (_bits(p) + _bits(pp)) * alpha
    if bits > max_bits:
        limits.check_bits(bits, f"a term p^{ladder.short(alpha)} p'^(1 - alpha) of a Renyi sum")


def _rational_probs(g: FlatGame) -> bool:
    """Whether every probability of the game is a rational (cached on the game): the size bound
    of :func:`power_sums` holds for rationals, not for elements of Q(e^(1/L))."""
    cached = g.cache.get("rational")
    if cached is None:
        cached = g.cache["rational"] = all(p is None or hasattr(p, "denominator") for col in g.probs for p in set(col))
    return cached


def _column_bits(g: FlatGame) -> list[int]:
    """Per dataset, the size of its largest probability (cached on the game)."""
    cached = g.cache.get("column_bits")
    if cached is None:
        cached = []
        for col in g.probs:
            biggest = 0
            for p in set(col):
                if p is not None:
                    biggest = max(biggest, _bits(p))
            cached.append(biggest)
        g.cache["column_bits"] = cached
    return cached


def _upper2(c1: Chain, c2: Chain) -> Chain:
    """The upper hull of two chains, by one walk down their slopes (no sort, no vertices).

    With δ_c(λ) = A_c − λ·B_c on the current interval of λ (A_c = top + Σ r·w and B_c = Σ w
    over the edges of slope > λ), the max of the two profiles is a chain whose breakpoints are
    the winner's own slopes and the crossings λ* = (A1 − A2)/(B1 − B2); its width at a
    breakpoint is the jump of the winner's B."""
    t1, R1, W1 = c1
    t2, R2, W2 = c2
    A1, B1, A2, B2 = t1, _ZERO, t2, _ZERO
    n1, n2 = len(R1), len(R2)
    k1 = k2 = 0
    win = 1 if t1 >= t2 else 2  # on ties the first; the lines are compared again below
    top = t1 if win == 1 else t2
    R: list = []
    W: list = []
    Bout = _ZERO  # the output's B so far
    while True:
        r1 = R1[k1] if k1 < n1 else None
        r2 = R2[k2] if k2 < n2 else None
        if r1 is None and r2 is None:
            break
        lam = r1 if r2 is None or (r1 is not None and r1 >= r2) else r2
        if not lam:
            break  # slope-0 edges: only the remaining width, added at the end
        # the winner just above lam, from the lines on (lam, previous breakpoint)
        d = (A1 - A2) - lam * (B1 - B2)
        above = 1 if d > 0 else 2 if d < 0 else (1 if B1 < B2 else 2 if B2 < B1 else win)
        if above != win:  # the lines cross strictly between lam and the previous breakpoint
            x = (A1 - A2) / (B1 - B2)
            Bw = B1 if above == 1 else B2
            R.append(x)
            W.append(Bw - Bout)
            Bout = Bw
            win = above
        if r1 is not None and r1 == lam:
            w = W1[k1]
            A1 += lam * w
            B1 += w
            k1 += 1
        if r2 is not None and r2 == lam:
            w = W2[k2]
            A2 += lam * w
            B2 += w
            k2 += 1
        # the winner just below lam (the lines meet at lam if d == 0: the smaller B leads below)
        if d > 0:
            below = 1
        elif d < 0:
            below = 2
        else:
            below = 1 if B1 > B2 else 2 if B2 > B1 else win
        Bw = B1 if below == 1 else B2
        win = below
        if Bw != Bout:
            R.append(lam)
            W.append(Bw - Bout)
            Bout = Bw
    # below the last positive slope the lines are final and meet at λ = 0 (both chains end at
    # (1, 1), so A1 = A2 = 1 there): the winner does not change again
    if Bout != _ONE:
        R.append(_ZERO)
        W.append(_ONE - Bout)
    return (top, R, W)
