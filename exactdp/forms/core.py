"""The forms of case-format version 1: explicit trees, randomized response and the
combinators (Vadhan & Wang 2021, Defs. 1.5–2.1, 1.9, 5.1)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..builders.combinators import choose, compose, concomp, repeat
from ..builders.composition import concomp_ordered, concomp_sequential
from ..builders.rr import default_bits, rr_delta_node, rr_node
from ..builders.symbolic import rr_delta_sym_node, rr_sym_node
from ..model.game import END, Ask, Mechanism, Node
from ..numbers import kinds as K
from ..numbers.symbolic import is_sym
from .fields import (
    Answers,
    Choice,
    Count,
    Declared,
    Delta,
    Eps,
    FieldProblem,
    GameNode,
    MapOf,
    MechanismRef,
    Mechanisms,
    PerDataset,
    Prob,
    arg,
)
from .registry import BuildContext, Form, form

__all__ = [
    "Tree",
    "AskForm",
    "Respond",
    "RR",
    "Compose",
    "Repeat",
    "Concomp",
    "Choose",
    "AnswerSpec",
    "exp_eps_at",
    "bits_at",
]

Components = tuple[tuple[str, Mechanism], ...]


def exp_eps_at(field: str | tuple, eps: Any, ctx: BuildContext, form_key: str, *, rational_only: bool = False) -> Any:
    """e^ε of the form's field ``field`` (see :func:`exactdp.numbers.kinds.exp_eps`), with a
    problem located at that field."""
    try:
        return K.exp_eps(eps, form=form_key, rational_only=rational_only, symbols=ctx.symbols)
    except K.QuantityError as e:
        raise FieldProblem(field, e.message, e.hint) from None


def bits_at(ctx: BuildContext, given: Mapping[str, int] | None) -> tuple[int, ...]:
    """RR's input bit per dataset (:func:`~exactdp.builders.rr.default_bits`), located at ``bits``."""
    return default_bits(ctx.datasets, ctx.adjacent, given)


@dataclass(frozen=True, kw_only=True)
class AnswerSpec(Declared):
    """One answer of a distribution written as a mapping: ``{p: [...], then: ...}``."""

    p: tuple = arg(PerDataset(Prob(symbolic=True, field=True), what="probabilities"), doc="one probability per dataset")
    then: Node = arg(GameNode(), default=END, doc="what follows (default: the interaction ends)")


@form("tree")
@dataclass(frozen=True, kw_only=True)
class Tree(Form):
    """An explicit probability tree: ``tree: {ask: ...}`` or ``tree: {respond: ...}``."""

    root: Node = arg(GameNode(), doc="the first move")
    shorthand = "root"

    def build(self, ctx: BuildContext) -> Mechanism:
        return ctx.wrap(self.root)


@form("ask")
@dataclass(frozen=True, kw_only=True)
class AskForm(Form):
    """The adversary chooses a query; each query maps to an answer distribution."""

    queries: dict = arg(
        MapOf(Answers(), min_len=1, what="`ask:` (queries to answer distributions)"), doc="{query: answers}"
    )
    shorthand = "queries"

    def build(self, ctx: BuildContext) -> Mechanism:
        return ctx.wrap(Ask(list(self.queries), list(self.queries.values())))


@form("respond")
@dataclass(frozen=True, kw_only=True)
class Respond(Form):
    """An answer distribution with no query (the mechanism speaks)."""

    answers: Node = arg(Answers(), doc="{answer: [p per dataset] | {p, then}}")
    shorthand = "answers"

    def build(self, ctx: BuildContext) -> Mechanism:
        return ctx.wrap(self.answers)


@form("rr")
@dataclass(frozen=True, kw_only=True)
class RR(Form):
    """Randomized response RR_eps (Vadhan-Wang Def. 1.9), or RR_(eps,delta) (Def. 5.1) with `delta:`."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(3)")
    delta: Any = arg(Delta(symbolic=True), default=None, doc="RR_(eps,delta) with answers I0, 0, 1, I1")
    bits: dict | None = arg(
        PerDataset(Count("a bit", 0, 1), partial=True, what="bits"),
        default=None,
        doc="RR's input bit for datasets outside the first adjacent pair",
    )

    def build(self, ctx: BuildContext) -> Mechanism:
        E = exp_eps_at("eps", self.eps, ctx, "rr")
        bits = bits_at(ctx, self.bits)
        root: Node
        if is_sym(E) or is_sym(self.delta):
            root = rr_sym_node(E, bits) if self.delta is None else rr_delta_sym_node(E, self.delta, bits)
        else:
            root = rr_node(E, bits) if self.delta is None else rr_delta_node(E, self.delta, bits)
        return ctx.wrap(root)


@form("compose")
@dataclass(frozen=True, kw_only=True)
class Compose(Form):
    """Sequential composition: all of m1's interaction, then m2's, ..."""

    mechanisms: Components = arg(Mechanisms(), doc="the components, in order")
    shorthand = "mechanisms"

    def build(self, ctx: BuildContext) -> Mechanism:
        return compose([m for _, m in self.mechanisms], name=ctx.name)


@form("repeat")
@dataclass(frozen=True, kw_only=True)
class Repeat(Form):
    """`repeat: {mechanism: m, times: k}`: compose of k copies of m."""

    mechanism: Mechanism = arg(MechanismRef())
    times: int = arg(Count("times", 0, 100_000), doc="the number of copies")

    def build(self, ctx: BuildContext) -> Mechanism:
        return repeat(self.mechanism, self.times, name=ctx.name)


INTERLEAVINGS = ("any", "sequential", "ordered")
_CONCOMP = {"any": concomp, "sequential": concomp_sequential, "ordered": concomp_ordered}


@form("concomp")
@dataclass(frozen=True, kw_only=True)
class Concomp(Form):
    """Concurrent composition (Vadhan-Wang Def. 2.1): the adversary interleaves queries to the
    components; `concomp: {mechanisms: [...], interleave: any|sequential|ordered}` restricts
    the interleaving (`ordered` is Def. 2.3)."""

    mechanisms: Components = arg(Mechanisms(), doc="the components")
    interleave: str = arg(
        Choice(INTERLEAVINGS, "interleaving"), default="any", doc="any (Def. 2.1), sequential, ordered (Def. 2.3)"
    )
    shorthand = "mechanisms"

    def build(self, ctx: BuildContext) -> Mechanism:
        return _CONCOMP[self.interleave](dict(self.mechanisms), name=ctx.name)


@form("choose")
@dataclass(frozen=True, kw_only=True)
class Choose(Form):
    """The adversary picks one of the mechanisms, then interacts with it."""

    mechanisms: Components = arg(Mechanisms(), doc="the options")
    shorthand = "mechanisms"

    def build(self, ctx: BuildContext) -> Mechanism:
        return choose(dict(self.mechanisms), name=ctx.name)
