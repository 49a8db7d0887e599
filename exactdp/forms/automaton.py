"""The ``automaton:`` form: a finite state machine with hidden state (Henzinger, Safavi &
Vadhan 2024, Def. 2.6; builder :func:`exactdp.builders.automaton.automaton`).

.. code-block:: yaml

    automaton:
      states: [s0, s1, done]
      initial: s0                 # a state; {state: p, ...}; or {x0: ..., x1: ...} per dataset
      queries: [q]                # optional: the alphabet every non-final state must accept
      final: [done]               # optional: states that accept no query
      horizon: 50                 # the maximum number of queries
      transitions:
        s0:
          q:
            yes: {p: [3/4, 1/4], next: s1}   # p: one value (shared), a list per dataset, or a map
            no:  {p: [1/4, 3/4]}             # no `next`: stay in s0
        s1:
          q:
            yes: [{p: 1/2, next: s0}, {p: 1/4, next: done}]   # one answer, several next states
            no:  {p: 1/4, next: done}

Semantics and limits: ``docs/automata-and-continual.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..builders.automaton import HALT, Automaton, automaton, make_automaton
from ..builders.probfield import field_of
from ..errors import suggest
from ..model.game import Mechanism, label_str
from ..model.symbolic import undefined_probability
from ..numbers.rational import Q, q_str
from ..numbers.symbolic import SymbolTable, expr_str, prove_nonzero
from .fields import (
    ByDataset,
    Count,
    Declared,
    Either,
    FieldProblem,
    Label,
    ListOf,
    MapOf,
    Nullable,
    Prob,
    Record,
    SharedOrPerDataset,
    arg,
)
from .registry import BuildContext, Form, form

__all__ = ["Outcome", "AutomatonForm", "MAX_HORIZON", "prove_posteriors_defined"]

MAX_HORIZON = 100_000


@dataclass(frozen=True, kw_only=True)
class Outcome(Declared):
    """One outcome of a query: its probability and the next state (default: stay)."""

    p: Any = arg(
        SharedOrPerDataset(Prob(symbolic=True), what="probabilities"), doc="one value, a list per dataset, or a map"
    )
    next: str | None = arg(Label("the next state"), default=None, doc="default: stay in the state")


_OUTCOMES = Either(
    (Record(Outcome, "an answer"), ListOf(Record(Outcome, "an answer"), min_len=1, what="the outcomes of an answer"))
)
_QUERY = MapOf(_OUTCOMES, min_len=1, what="the answers to a query (answer -> {p: ..., next: state})")
_INITIAL = SharedOrPerDataset(
    Either((Label("an initial state"), MapOf(Prob(symbolic=True), what="an initial distribution"))),
    what="initial states",
)


def _outcomes(outs: Any) -> list[tuple[tuple, Outcome]]:
    """The outcomes of one answer with their place: ``{p, next}`` or a list of them."""
    if isinstance(outs, tuple):
        return [((i,), o) for i, o in enumerate(outs)]
    return [((), outs)]


def _rows(p: Any) -> tuple:
    return tuple(p) if isinstance(p, ByDataset) else (p,)


@form("automaton")
@dataclass(frozen=True, kw_only=True)
class AutomatonForm(Form):
    """A state machine: states, initial state per dataset, (state, query) -> answers with next states, horizon."""

    states: tuple = arg(ListOf(Label("a state"), min_len=1, unique=True, what="states"), doc="the state names")
    initial: Any = arg(_INITIAL, doc="a state, {state: p}, or one of those per dataset")
    queries: tuple | None = arg(
        ListOf(Label("a query"), min_len=1, unique=True, what="queries"),
        default=None,
        doc="the alphabet every non-final state accepts",
    )
    final: tuple = arg(
        ListOf(Label("a state"), unique=True, what="final"), default=(), doc="states that accept no query"
    )
    horizon: int = arg(Count("horizon", 0, MAX_HORIZON), doc="the maximum number of queries")
    transitions: dict = arg(
        MapOf(
            Nullable(MapOf(_QUERY, what="the transitions of a state (query -> answers)")),
            what="transitions (state -> query -> answers)",
        ),
        doc="state -> query -> answer -> {p, next}",
    )

    def _state(self, name: str, where: tuple) -> str:
        if name not in self.states:
            raise FieldProblem(
                where, f"unknown state {name!r}", suggest(name, self.states) or f"states: {', '.join(self.states)}"
            )
        return name

    def validate(self) -> None:
        for i, s in enumerate(self.final):
            self._state(s, ("final", i))
        for _k, ini in enumerate(_rows(self.initial)):
            for s in [ini] if isinstance(ini, str) else ini:
                self._state(s, ("initial",))
        for s, table in self.transitions.items():
            self._state(s, ("transitions", s))
            if table and s in self.final:
                raise FieldProblem(
                    ("transitions", s),
                    f"state {s!r} is listed as final, so it accepts no query",
                    "remove its transitions or remove it from `final:`",
                )
            for q, answers in (table or {}).items():
                self._check_query(s, q, answers)
        self._check_alphabet()

    def _check_query(self, s: str, q: str, answers: dict) -> None:
        where = ("transitions", s, q)
        if self.queries is not None and q not in self.queries:
            raise FieldProblem(
                where,
                f"query {q!r} is not in `queries:`",
                suggest(q, self.queries) or f"queries: {', '.join(self.queries)}",
            )
        seen = set()
        for ans, outs in answers.items():
            if ans == HALT:
                raise FieldProblem(
                    where + (ans,),
                    f"the answer name {HALT!r} is reserved",
                    "it is what a state answers to a query it does not accept; rename the answer",
                )
            for at, o in _outcomes(outs):
                nxt = self._state(o.next or s, where + (ans,) + at + ("next",))
                if (ans, nxt) in seen:
                    raise FieldProblem(where + (ans,), f"answer {ans!r} with next state {nxt!r} is listed twice")
                seen.add((ans, nxt))

    def _check_sums(self, datasets: tuple[str, ...]) -> None:
        """Each (state, query) is a distribution over (answer, next state), under every dataset."""
        for s, table in self.transitions.items():
            for q, answers in (table or {}).items():
                rows = [_rows(o.p) for outs in answers.values() for _at, o in _outcomes(outs)]
                per = any(len(r) > 1 for r in rows)
                f = field_of(p for r in rows for p in r)
                for d in range(len(datasets) if per else 1):
                    total = f.total(r[d] if len(r) > 1 else r[0] for r in rows)
                    if total != 1:
                        under = f" under {datasets[d]}" if per else ""
                        raise FieldProblem(
                            ("transitions", s, q),
                            f"the probabilities{under} sum to {expr_str(total.as_expr()) if f.symbolic else q_str(total)}, "
                            + ("not identically 1" if f.symbolic else "not 1"),
                            "each (state, query) gives a distribution over (answer, next state)",
                        )

    def _check_alphabet(self) -> None:
        if self.queries is None:
            return
        for s, table in self.transitions.items():
            missing = [q for q in self.queries if q not in (table or {})]
            if table and missing:
                raise FieldProblem(
                    ("transitions", s),
                    f"state {s!r} has no transition for query {missing[0]!r}",
                    "with `queries:` every state that is not final accepts every query; add the transition, "
                    "list the state under `final:`, or drop `queries:` to give each state its own alphabet",
                )

    def shared_only(self) -> None:
        """Refuse anything given per dataset (a continual mechanism has one initial state and
        dataset-independent transitions: Henzinger-Safavi-Vadhan Def. 3.1)."""
        if isinstance(self.initial, ByDataset):
            raise FieldProblem(
                "initial",
                "a continual mechanism has a single initial state (Def. 3.1), not one per dataset",
                "give one state (or one distribution over states)",
            )
        for s, table in self.transitions.items():
            for q, answers in (table or {}).items():
                for ans, outs in answers.items():
                    for at_, o in _outcomes(outs):
                        if isinstance(o.p, ByDataset):
                            at = ("transitions", s, q, ans) + at_ + ("p",)
                            raise FieldProblem(
                                at,
                                "p: a continual mechanism does not depend on the dataset, so each probability is a single value",
                                "the two worlds differ only in the messages the mechanism receives (Def. 3.1, 3.7); write e.g. `p: 1/4`",
                            )

    @property
    def per_dataset(self) -> bool:
        return isinstance(self.initial, ByDataset) or any(
            isinstance(o.p, ByDataset)
            for table in self.transitions.values()
            for answers in (table or {}).values()
            for outs in answers.values()
            for _at, o in _outcomes(outs)
        )

    def machine(self, ctx: BuildContext) -> Automaton:
        """The validated :class:`~exactdp.builders.automaton.Automaton`."""
        self._check_sums(ctx.datasets)
        initial = (
            [self._dist(i) for i in self.initial] if isinstance(self.initial, ByDataset) else self._dist(self.initial)
        )
        transitions = {
            (s, q): [(ans, o.next or s, _rows(o.p)) for ans, outs in answers.items() for _at, o in _outcomes(outs)]
            for s, table in self.transitions.items()
            for q, answers in (table or {}).items()
        }
        n_rows = len(ctx.datasets) if self.per_dataset else 1
        return make_automaton(self.states, initial, transitions, self.horizon, queries=self.queries, n_rows=n_rows)

    @staticmethod
    def _dist(ini: Any) -> Any:
        return {ini: Q(1)} if isinstance(ini, str) else ini

    def build(self, ctx: BuildContext) -> Mechanism:
        m = automaton(self.machine(ctx), datasets=ctx.datasets, adjacent=ctx.adjacent, name=ctx.name)
        if ctx.symbols is not None:
            prove_posteriors_defined(m, ctx.symbols, "transitions", "automaton")
        return m


def prove_posteriors_defined(mech: Mechanism, symbols: SymbolTable, field: str, form_key: str) -> None:
    """Every probability of a mechanism built on posterior beliefs over a hidden state defined
    for every value of the symbols, or a located FieldProblem at ``field``: a posterior divides
    by the probability of the answer just seen, and where that probability vanishes at some
    value (not identically) a later probability may be 0/0 there."""
    bad = undefined_probability(mech, lambda den: prove_nonzero(den, symbols))
    if bad is not None:
        label, dataset, p, den = bad
        raise FieldProblem(
            field,
            f"{form_key}: could not prove that the probability of answer {label_str(label)} under dataset "
            f"{dataset}, {expr_str(p)}, is defined for every value the bounds allow ({symbols.describe()}): its "
            f"denominator {expr_str(den)} may vanish, where an answer before it has probability 0 and the "
            "posterior of the hidden state is 0/0",
            "tighten the bounds under `symbols:` so that every answer has positive probability",
        )
