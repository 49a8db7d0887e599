r"""A zCDP bound read from the structure of a game with a symbol: Σ ε_ν²/2 along each history.

At a chance node ν the answers' likelihood ratios r_a = p_a/p′_a (one ordered pair of datasets)
lie within e^{±ε_ν}, ε_ν = max_a abs(log r_a), so that one step is ε_ν²/2-zCDP (Bun & Steinke 2016,
Prop. 1.4).  An adaptive adversary's view is the sequence of these steps, and Rényi divergences
of adaptively composed steps add up to the largest continuation:

.. math::  D_\alpha(P_{AB} \| Q_{AB}) \le D_\alpha(P_A \| Q_A) + \sup_a D_\alpha(P_{B|a} \| Q_{B|a})

(Bun & Steinke 2016, Lemma 2.3; Mironov 2017, Prop. 1), the adversary's own choices adding
nothing.  So the mechanism is ρ-zCDP as soon as ρ ≥ Σ_ν ε_ν²/2 along every history, for every
ordered pair.  Since ε_ν² = max_a (log r_a)², that follows when ρ − Σ_ν (log r_{a_ν})²/2 ≥ 0 for
*every* choice of one answer a_ν per node of every history: :func:`step_sums` lists these sums
(deduplicated, as polynomials in the logarithms' indeterminates of
:class:`~exactdp.analysis.parametric.logpoly.LogBasis`), and the caller proves each difference
nonnegative *formally*, which needs nothing about the values of the logarithms — so it holds up
to an open end of the domain where D_α/α and ρ both tend to 0, which boxes cannot reach.

The bound applies only where every ratio is positive and finite on the whole domain (an answer
possible under one dataset only makes ε_ν infinite); otherwise, or beyond ``cap`` distinct sums,
nothing is proved here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...numbers.symbolic import sympy
from .engine import PGame
from .logpoly import LogBasis

__all__ = ["step_sums", "steps_prove", "MAX_STEP_SUMS"]

MAX_STEP_SUMS = 256
"""The distinct sums kept per node before the bound is given up (a game with many different
ratios along its histories)."""


def step_sums(
    game: PGame, basis: LogBasis, positive: Callable[[Any], bool], cap: int = MAX_STEP_SUMS
) -> list[Any] | None:
    """The distinct Σ_ν (log r_{a_ν})²/2 over histories and choices of answers (module
    docstring), for every ordered pair; None when a ratio is not proved positive and finite on
    the domain by ``positive(ratio)`` (a RatFun), or when the sums exceed ``cap``."""
    squares: dict[Any, Any] = {}
    out: set[Any] = set()
    for i, j in game.ordered_pairs:
        memo: list[frozenset] = []
        for node in game.nodes:
            if node[0] == "end":
                memo.append(frozenset({sympy.Integer(0)}))
            elif node[0] == "ask":
                memo.append(frozenset().union(*(memo[c] for c in node[1])))
            else:
                here = _chance(node, i, j, memo, squares, basis, positive, cap)
                if here is None:
                    return None
                memo.append(here)
        out |= memo[-1]
    return list(out)


def _chance(node: tuple, i: int, j: int, memo: list, squares: dict, basis: LogBasis, positive, cap: int) -> Any:
    """The sums of one chance node for the ordered pair (i, j), or None."""
    steps: set[Any] = set()
    rest: set[Any] = set()
    for row, child in zip(node[1], node[2]):
        p, q = row[i], row[j]
        if p.is_zero() and q.is_zero():
            continue
        if p.is_zero() or q.is_zero():
            return None  # possible under one dataset only: no finite eps for this step
        r = p / q
        if r not in squares:
            squares[r] = basis.poly(sympy.log(r.to_sympy()) ** 2 / 2) if positive(r) else None
        if squares[r] is None:
            return None
        steps.add(squares[r])
        rest |= memo[child]
    sums = frozenset(sympy.expand(a + b) for a in steps for b in rest)
    return sums if len(sums) <= cap else None


def steps_prove(game: PGame, rho: Any, positive: Callable[[Any], bool]) -> bool:
    """Whether ρ (a SymPy expression in the ring's symbols, possibly with logarithms) is proved
    ≥ every step sum of the game, formally (module docstring)."""
    basis = LogBasis()
    sums = step_sums(game, basis, positive)
    if sums is None:
        return False
    r = basis.as_poly(basis.poly(rho))
    if r is None:
        return False
    return all(basis.nonnegative(r - basis.as_poly(t)) for t in sums)
