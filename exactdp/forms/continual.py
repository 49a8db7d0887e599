"""Continual mechanisms and their concurrent compositions (Henzinger, Safavi & Vadhan 2024,
§3–5 and §10).

.. code-block:: yaml

    mechanisms:
      C:                                   # Cor. 3.8: the game V∘I∘M, worlds = the two datasets
        continual:
          mechanism: {automaton: {...}}    # a dataset-independent automaton over messages
          verifier: {max_differing: 1, max_length: 2}     # or an automaton over pairs:
          # verifier: {states: [a, b], initial: a, transitions: {a: {same: a, differ: b}, b: {same: b}}}
      P:                                   # Def. 5.1 with a cap of 2 creations
        sparse_parallel:
          menu: {Md: {mechanism: C, eps: 0, delta: 1/2}}
          params: [[0, 1/2]]
          cap: 2

Every menu item's claimed (ε, δ) is a premise of the composition (Def. 4.4 (iv)): it is
returned as an :class:`~exactdp.forms.registry.Obligation` and checked as a verdict under the
chosen engine before any claim about the composition is trusted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..builders.automaton import AutomatonMechanism
from ..builders.continual import (
    Continual,
    ContinualMechanism,
    MenuItem,
    basic_filter,
    budgeted,
    budgeted_parallel,
    concurrent,
    continual,
    fixed_params,
    fpc_parallel,
    mixed_budgeted,
    sparse_parallel,
)
from ..builders.verifier import ANY, DIFFER, SAME, bounded_verifier, make_verifier
from ..model.game import Mechanism
from ..numbers import ladder
from ..numbers.rational import q_str
from .automaton import AutomatonForm, prove_posteriors_defined
from .fields import (
    Count,
    Declared,
    Delta,
    Either,
    Eps,
    FieldProblem,
    Flag,
    Label,
    ListOf,
    MapOf,
    MechanismRef,
    Mechanisms,
    Nullable,
    Pair,
    Record,
    Tagged,
    arg,
    within,
)
from .registry import BuildContext, Form, Obligation, form

__all__ = ["MAX_CAP", "BoundedVerifier", "VerifierAutomaton", "ContinualForm", "MenuEntry", "MenuComposition"]

MAX_CAP = 50


# --- verifiers ---------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class BoundedVerifier(Declared):
    """Pair sequences with at most `max_differing` differing pairs and at most `max_length` pairs."""

    max_differing: int | None = arg(
        Count("max_differing", 0, 1000), default=None, doc="at most this many pairs with m0 != m1"
    )
    max_length: int | None = arg(Count("max_length", 0, 100_000), default=None, doc="at most this many pairs")

    def verifier(self, messages: tuple[str, ...]) -> Any:
        return bounded_verifier(messages, max_differing=self.max_differing, max_length=self.max_length)


@dataclass(frozen=True, kw_only=True)
class VerifierAutomaton(Declared):
    """A deterministic automaton over message pairs: `{pair: next state}` per state, where a pair
    is `m0,m1` or one of `same`, `differ`, `any`."""

    states: tuple = arg(ListOf(Label("a state"), min_len=1, unique=True, what="states"))
    initial: str = arg(Label("the initial state"))
    transitions: dict = arg(
        MapOf(
            Nullable(MapOf(Label("a next state"), what="valid pairs (pair -> next state)")),
            what="verifier transitions (state -> {pair: next state})",
        )
    )

    def validate(self) -> None:
        if self.initial not in self.states:
            raise FieldProblem("initial", f"unknown state {self.initial!r}", f"states: {', '.join(self.states)}")
        for s, rules in self.transitions.items():
            if s not in self.states:
                raise FieldProblem(("transitions", s), f"unknown state {s!r}", f"states: {', '.join(self.states)}")
            for key, nxt in (rules or {}).items():
                if nxt not in self.states:
                    raise FieldProblem(
                        ("transitions", s, key), f"unknown state {nxt!r}", f"states: {', '.join(self.states)}"
                    )

    def verifier(self, messages: tuple[str, ...]) -> Any:
        table = {
            s: {_pair_key(key, messages, ("transitions", s, key)): nxt for key, nxt in (rules or {}).items()}
            for s, rules in self.transitions.items()
        }
        return make_verifier(self.states, self.initial, table, messages)


def _pair_key(text: str, messages: tuple[str, ...], where: tuple) -> Any:
    if text in (SAME, DIFFER, ANY):
        return text
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise FieldProblem(
            where,
            f"{text!r} is not a pair of messages",
            "write a pair as `m0,m1` (e.g. `0,1`), or use `same`, `differ` or `any`",
        )
    for m in parts:
        if m not in messages:
            raise FieldProblem(
                where, f"message {m!r} is not a query of the mechanism", f"queries: {', '.join(messages)}"
            )
    return (parts[0], parts[1])


_VERIFIER = Either((Record(VerifierAutomaton, "a verifier automaton"), Record(BoundedVerifier, "a verifier")))


def continual_of(m: Mechanism, where: str | tuple, what: str) -> Continual:
    """The continual mechanism behind ``m`` (a ``continual:`` form), else a located problem."""
    if not isinstance(m, ContinualMechanism) or m.continual is None:
        raise FieldProblem(
            where,
            f"{what} must be a continual mechanism",
            "write `continual: {mechanism: {automaton: ...}, verifier: ...}` (or the name of one)",
        )
    return m.continual


# --- continual ---------------------------------------------------------------------------------


@form("continual")
@dataclass(frozen=True, kw_only=True)
class ContinualForm(Form):
    """A continual mechanism with its verification function (Henzinger-Safavi-Vadhan Cor. 3.8:
    the game V o I o M, worlds = the two datasets)."""

    mechanism: Any = arg(
        Either((Tagged((("automaton", AutomatonForm),), "automaton"), MechanismRef())),
        doc="a dataset-independent automaton over messages (inline or a name)",
    )
    verifier: Any = arg(_VERIFIER, doc="{max_differing, max_length} or an automaton over pairs")
    first_pair_consistent: bool = arg(
        Flag(), default=False, doc="only first-pair-consistent pair sequences (Def. 5.13)"
    )

    def validate(self) -> None:
        m = self.mechanism
        if isinstance(m, AutomatonForm):
            with within("mechanism", "automaton"):
                m.shared_only()
            return
        if not isinstance(m, AutomatonMechanism) or m.automaton is None:
            raise FieldProblem(
                "mechanism",
                "the mechanism of a continual mechanism must be an automaton (a state machine over messages)",
                "write `mechanism: {automaton: {states: ..., initial: ..., horizon: ..., transitions: ...}}`",
            )
        if not m.automaton.dataset_independent:
            raise FieldProblem(
                "mechanism",
                f"automaton {m.name!r} depends on the dataset, but a continual mechanism has a single initial state (Def. 3.1)",
                "the two worlds differ only in the messages it receives: give every probability as one value",
            )

    def build(self, ctx: BuildContext) -> Mechanism:
        m = self.mechanism
        if isinstance(m, AutomatonForm):
            with within("mechanism", "automaton"):
                a = m.machine(ctx)
        else:
            a = m.automaton
        try:
            v = self.verifier.verifier(a.queries)
        except FieldProblem as p:
            raise FieldProblem(("verifier",) + p.path, p.message, p.hint) from None
        out = continual(Continual(a, v, self.first_pair_consistent), datasets=ctx.datasets, name=ctx.name)
        return _defined(out, ctx, "mechanism", "continual")


# --- menus and compositions --------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class MenuEntry(Declared):
    """A menu item: a continual mechanism and the (eps, delta) it claims (Def. 4.4 (iv))."""

    mechanism: Mechanism = arg(MechanismRef(), doc="a continual mechanism")
    eps: Any = arg(Eps(), doc="the claimed eps_i")
    delta: Any = arg(Delta(), doc="the claimed delta_i")

    def validate(self) -> None:
        _ = self.continual  # (the property raises the located problem for a mechanism that is not continual)

    @property
    def continual(self) -> Continual:
        """The continual mechanism of this item (a located problem if there is none)."""
        return continual_of(self.mechanism, "mechanism", "a menu item's mechanism")


_MENU = Either(
    (
        MapOf(Record(MenuEntry, "a menu item"), min_len=1, what="menu"),
        ListOf(Record(MenuEntry, "a menu item"), min_len=1, what="menu"),
    )
)
_PAIRS = ListOf(Pair(Eps(), Delta(), "parameter", ("eps", "delta")), what="params (a list of [eps, delta] pairs)")
_EPS_LIST = ListOf(Eps(), what="params (a list of eps values)")


class MenuComposition(Form):
    """Base of the compositions over a menu of continual mechanisms with a cap on creations."""

    builder: ClassVar[Callable[..., Mechanism]]
    fpc: ClassVar[bool] = False

    def items(self) -> list[tuple[str, MenuEntry]]:
        menu = self.menu  # type: ignore[attr-defined]
        if isinstance(menu, dict):
            return list(menu.items())
        out: list[tuple[str, MenuEntry]] = []
        for i, e in enumerate(menu):
            label = e.mechanism.name if e.mechanism.name not in ("M", "") else str(i + 1)
            if any(label == l for l, _ in out):
                raise FieldProblem(
                    ("menu", i), f"menu item {label!r} appears twice", "give the items distinct names (use a map)"
                )
            out.append((label, e))
        return out

    def menu_items(self) -> list[MenuItem]:
        return [MenuItem(label, e.continual, e.eps, e.delta) for label, e in self.items()]

    def obligations(self, ctx: BuildContext) -> tuple[Obligation, ...]:
        """Def. 4.4 (iv): every created mechanism really is (eps_i, delta_i)-DP w.r.t. its verifier."""
        out = []
        for k, (label, e) in enumerate(self.items()):
            cm = e.continual
            if self.fpc and not cm.first_pair_consistent:
                cm = Continual(cm.mechanism, cm.verifier, True)
            restricted = " on first-pair-consistent sequences" if self.fpc else ""
            text = (
                f"menu item {label!r} of {ctx.name} is ({ladder.text(e.eps)}, {q_str(e.delta)})-DP w.r.t. its verifier"
                f"{restricted} (Henzinger-Safavi-Vadhan Def. 4.4 (iv))"
            )
            where = ("menu", label if isinstance(self.menu, dict) else k)  # type: ignore[attr-defined]
            out.append(Obligation(continual(cm, datasets=ctx.datasets, name=label), e.eps, e.delta, text, where))
        return tuple(out)

    def arguments(self) -> list[Any]:
        return []

    def build(self, ctx: BuildContext) -> Mechanism:
        kw: dict[str, Any] = {"datasets": ctx.datasets, "name": ctx.name}
        if getattr(self, "cap", None) is not None:
            kw["cap"] = self.cap  # type: ignore[attr-defined]
        return _defined(type(self).builder(self.menu_items(), *self.arguments(), **kw), ctx, "menu", self.key)


_CAP = Count("cap", 0, MAX_CAP)
_CAP_DOC = "the most instances that may be created"


@form("fixed_params")
@dataclass(frozen=True, kw_only=True)
class FixedParams(MenuComposition):
    """Concurrent composition of CMs with fixed parameters (Def. 4.10; Thm. 4.11), cap = |params| by default."""

    menu: Any = arg(_MENU, doc="{name: {mechanism, eps, delta}}")
    params: tuple = arg(_PAIRS, doc="a list of [eps, delta]")
    cap: int | None = arg(_CAP, default=None, doc=_CAP_DOC)
    builder: ClassVar[Callable[..., Mechanism]] = staticmethod(fixed_params)

    def arguments(self) -> list[Any]:
        return [list(self.params)]


@form("sparse_parallel")
@dataclass(frozen=True, kw_only=True)
class SparseParallel(FixedParams):
    """Concurrent k-sparse parallel composition (Def. 5.1; Thm. 5.2) with a cap on creations."""

    cap: int = arg(_CAP, doc=_CAP_DOC)  # type: ignore[assignment]
    builder = staticmethod(sparse_parallel)


@form("fpc_parallel")
@dataclass(frozen=True, kw_only=True)
class FPCParallel(SparseParallel):
    """First-pair-consistent k-sparse parallel composition (Def. 5.14; Thm. 5.15) with a cap."""

    builder = staticmethod(fpc_parallel)
    fpc = True


@form("budgeted")
@dataclass(frozen=True, kw_only=True)
class Budgeted(MenuComposition):
    """Adaptively created mechanisms under a delta budget (Def. 5.8; Lemma 5.9) with a cap."""

    menu: Any = arg(_MENU, doc="{name: {mechanism, eps, delta}}")
    budget: Any = arg(Delta(), doc="delta-bar")
    cap: int = arg(_CAP, doc=_CAP_DOC)
    builder: ClassVar[Callable[..., Mechanism]] = staticmethod(budgeted)

    def arguments(self) -> list[Any]:
        return [self.budget]


@form("budgeted_parallel")
@dataclass(frozen=True, kw_only=True)
class BudgetedParallel(Budgeted):
    """k-sparse parallel composition with a delta budget (Def. 5.3; Thm. 5.4) with a cap."""

    params: tuple = arg(_EPS_LIST, doc="a list of eps values")
    builder = staticmethod(budgeted_parallel)

    def arguments(self) -> list[Any]:
        return [list(self.params), self.budget]


@form("mixed_budgeted")
@dataclass(frozen=True, kw_only=True)
class MixedBudgeted(BudgetedParallel):
    """RR-style items with eps = 0 or delta = 0 under a budget (Def. 5.10; Lemma 5.11) with a cap."""

    builder = staticmethod(mixed_budgeted)


@form("filter")
@dataclass(frozen=True, kw_only=True)
class Filter(MenuComposition):
    """Concurrent filter composition with the basic filter: sum eps_i <= eps, sum delta_i <= delta (Def. 10.2; Thm. 10.4)."""

    menu: Any = arg(_MENU, doc="{name: {mechanism, eps, delta}}")
    eps: Any = arg(Eps(), doc="the filter's total eps, e.g. log(4)")
    delta: Any = arg(Delta(), doc="the filter's total delta")
    cap: int = arg(_CAP, doc=_CAP_DOC)
    builder = staticmethod(basic_filter)

    def arguments(self) -> list[Any]:
        return [self.eps, self.delta]


@form("concurrent")
@dataclass(frozen=True, kw_only=True)
class Concurrent(Form):
    """Concurrent composition of fixed continual mechanisms (Def. 4.8; Thm. 4.9)."""

    mechanisms: tuple = arg(Mechanisms(), doc="the continual mechanisms")
    shorthand = "mechanisms"

    def build(self, ctx: BuildContext) -> Mechanism:
        comps = {
            label: continual_of(m, ("mechanisms", k), "a component of concurrent")
            for k, (label, m) in enumerate(self.mechanisms)
        }
        return _defined(concurrent(comps, datasets=ctx.datasets, name=ctx.name), ctx, "mechanisms", "concurrent")


def _defined(mech: Mechanism, ctx: BuildContext, field: str, form_key: str) -> Mechanism:
    """``mech``, after proving that its probabilities (posteriors over the components' hidden
    states, with symbols) are defined for every value of the symbols."""
    if ctx.symbols is not None:
        prove_posteriors_defined(mech, ctx.symbols, field, form_key)
    return mech
