"""The composition theorems, registered once: what each gives, where it is proven, and how to
evaluate it.

One table serves every face that names a theorem: ``exactdp compose --theorem``, the
``composition`` claim (``theorem:``), ``exactdp plot --bound`` and the reports.  A theorem
belongs to a *family*, which says what it computes:

=============  =========================================================================
family         what the theorem gives for components (εᵢ, δᵢ)
=============  =========================================================================
``fixed``      a guarantee (ε_g, δ_g) (:class:`~exactdp.theorems.basic.Bound`); at a δ below
               δ_g it gives no finite ε
``optimal``    the least ε_g at a given δ_g (:class:`~exactdp.theorems.optimal.OptimalResult`)
``interval``   a closed form with logarithms, as a certified interval, compared with the exact
               optimum (:class:`~exactdp.theorems.advanced.IntervalBound`)
``renyi``      Σ D_α(Mᵢ), a bound on D_α of the composition (checked on mechanisms only)
``fdp``        the tensor product of the trade-off functions (checked on mechanisms only)
=============  =========================================================================

Every theorem of the table holds for *concurrent* composition of interactive mechanisms
(``concurrent`` says where that is proven), which is what the ``composition`` claim checks.
A new theorem is one :func:`register` call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ExactDPError
from ..numbers import INF, ladder
from ..numbers.rational import Q
from .advanced import IntervalBound, advanced, check_against_optimum, kov_3_4
from .basic import Bound, basic, improved_basic, thm_1_8
from .optimal import OptimalResult, optimal
from .params import Component

__all__ = [
    "Theorem",
    "Guarantee",
    "IntervalResult",
    "THEOREMS",
    "register",
    "theorem",
    "names",
    "guarantee",
    "evaluate",
    "evaluate_each",
    "APPROX_CONCURRENT",
]

# every (eps, delta) theorem also holds for concurrent composition of approximate-DP components
APPROX_CONCURRENT = "a theorem for concurrent composition of approximate-DP components (Vadhan-Zhang 2023; Lyu 2022)"


@dataclass(frozen=True)
class Theorem:
    """A composition theorem.

    Attributes
    ----------
    name : str
        Its name in case files and on the command line (``thm-1.8``).
    family : str
        ``fixed``, ``optimal``, ``interval``, ``renyi`` or ``fdp`` (module docstring).
    title : str
        What it is and where it is from, for legends and tables.
    concurrent : str
        Where it is proven for concurrent composition of interactive mechanisms (pure
        components; with approximate components :data:`APPROX_CONCURRENT` unless
        ``approx_too``).
    compute : callable or None
        ``compute(comps, delta_g)`` for the ``fixed``, ``optimal`` and ``interval`` families.
    claim, command : bool
        Whether the ``composition`` claim, and ``exactdp compose``, take it.
    approx_too : bool
        ``concurrent`` covers approximate components as well (Theorem 1.8 does).
    reference : str
        Where the value computed comes from, when the result does not say it itself (the
        ``Bound`` and ``IntervalBound`` of the other families carry their ``source``).
    """

    name: str
    family: str
    title: str
    concurrent: str
    compute: Callable[[Sequence[Component], Any], Any] | None = None
    claim: bool = True
    command: bool = True
    approx_too: bool = False
    reference: str = ""

    def source(self, deltas: Sequence[Any]) -> str:
        """Where the bound is proven for concurrent composition of components with these δᵢ."""
        return self.concurrent if self.approx_too or all(d == 0 for d in deltas) else APPROX_CONCURRENT


THEOREMS: dict[str, Theorem] = {}


def register(t: Theorem) -> Theorem:
    """Add a theorem to the table (a name registered twice is a programming error)."""
    if t.name in THEOREMS:
        raise RuntimeError(f"the composition theorem {t.name!r} is registered twice")
    THEOREMS[t.name] = t
    return t


def theorem(name: str) -> Theorem:
    """The theorem registered as ``name`` (``KeyError`` otherwise: names are checked where read)."""
    return THEOREMS[name]


def names(*, claim: bool | None = None, command: bool | None = None) -> tuple[str, ...]:
    """The theorems' names in table order, those the claim (or the command) takes if asked."""
    return tuple(
        t.name
        for t in THEOREMS.values()
        if (claim is None or t.claim == claim) and (command is None or t.command == command)
    )


@dataclass(frozen=True)
class Guarantee:
    """What an (ε, δ) theorem guarantees at the δ asked for: the bound ``eps`` (∞ when the
    theorem gives none at that δ), the δ it applies at, and the theorem's own δ_g."""

    eps: Any
    delta: Any
    theorem_delta: Any


def guarantee(name: str, comps: Sequence[Component], delta: Any = None) -> Guarantee:
    """The ε a ``fixed`` or ``optimal`` theorem guarantees for ``comps`` at ``delta`` (default:
    the theorem's own δ_g, or 0 for the optimal theorem)."""
    t = theorem(name)
    assert t.compute is not None and t.family in ("fixed", "optimal"), name
    if t.family == "optimal":
        at = delta if delta is not None else Q(0)
        return Guarantee(t.compute(comps, at).eps, at, at)
    b = t.compute(comps, delta)
    at = delta if delta is not None else b.delta
    return Guarantee(b.eps if ladder.cmp(at, b.delta) >= 0 else INF, at, b.delta)


@dataclass(frozen=True)
class IntervalResult:
    """An ``interval`` theorem evaluated: the bound, whether it is at least the exact optimum at
    its δ (``valid``, ``below-optimum`` or ``undecided``), and that optimum."""

    bound: IntervalBound
    status: str
    optimum: OptimalResult


def evaluate(name: str, comps: Sequence[Component], delta_g: Any) -> Bound | OptimalResult | IntervalResult | None:
    """A ``fixed``, ``optimal`` or ``interval`` theorem for ``comps`` (``delta_g``: the optimal
    theorem's target, the slack δ' of the interval ones); None for an interval theorem without
    a positive slack."""
    t = theorem(name)
    assert t.compute is not None, name
    if t.family != "interval":
        return t.compute(comps, delta_g)
    if delta_g <= 0:
        return None
    ib = t.compute(comps, delta_g)
    status, opt = check_against_optimum(ib, comps)
    return IntervalResult(ib, status, opt)


def evaluate_each(names: Sequence[str], comps: Sequence[Component], delta_g: Any) -> list[tuple[str, Any]]:
    """``(name, result)`` for each named theorem (:func:`evaluate`); for a theorem that does not
    apply to these components (a bound stated for homogeneous components only, given
    heterogeneous ones), the result is the :class:`~exactdp.errors.ExactDPError` that says why."""
    out: list[tuple[str, Any]] = []
    for name in names:
        try:
            out.append((name, evaluate(name, comps, delta_g)))
        except ExactDPError as e:
            out.append((name, e))
    return out


register(
    Theorem(
        "basic",
        "fixed",
        "basic composition (Vadhan-Wang Thm 1.2, 3.3)",
        "a theorem for concurrent composition (Vadhan-Wang 2021, Thm 3.3)",
        lambda comps, _: basic(comps),
    )
)
register(
    Theorem(
        "improved-basic",
        "fixed",
        "improved basic (Henzinger-Safavi-Vadhan Rem. 5.12)",
        "a theorem for concurrent composition (it bounds the optimal one, Vadhan-Wang 2021, Thm 5.7)",
        lambda comps, _: improved_basic(comps),
    )
)
register(
    Theorem(
        "thm-1.8",
        "fixed",
        "Vadhan-Wang Thm 1.8",
        "a theorem for concurrent composition (Vadhan-Wang 2021, Thm 1.8)",
        lambda comps, _: thm_1_8(comps),
        approx_too=True,
    )
)
register(
    Theorem(
        "optimal",
        "optimal",
        "optimal composition bound (KOV Thm 3.3, Vadhan-Wang Thm 1.4)",
        "a theorem for concurrent composition (Vadhan-Wang 2021, Thm 5.7)",
        optimal,
        reference="Vadhan-Wang Thm 1.4/5.6/5.7 (Kairouz-Oh-Viswanath 2015, Murtagh-Vadhan 2016); exact PLD",
    )
)
register(
    Theorem(
        "advanced",
        "interval",
        "advanced composition (Dwork-Rothblum-Vadhan 2010, Thm III.3)",
        "a theorem for concurrent composition (Vadhan-Zhang 2023; Lyu 2022)",
        advanced,
    )
)
register(
    Theorem(
        "kov-3.4",
        "interval",
        "Kairouz-Oh-Viswanath 2015, Thm 3.4/3.5",
        "a theorem for concurrent composition (Vadhan-Zhang 2023; Lyu 2022)",
        kov_3_4,
    )
)
register(
    Theorem(
        "renyi",
        "renyi",
        "sum of the components' D_alpha (Lyu 2022)",
        "a theorem for concurrent composition (Lyu 2022; Vadhan-Zhang 2023)",
        command=False,
    )
)
register(
    Theorem(
        "fdp",
        "fdp",
        "tensor product of the components (Vadhan-Zhang 2023)",
        "a theorem for concurrent composition (Vadhan-Zhang 2023)",
        command=False,
    )
)
