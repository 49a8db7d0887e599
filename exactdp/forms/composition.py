"""Composition forms beyond ``concomp``: ordered concurrent composition (Vadhan & Wang 2021,
Def. 2.3), the null-query extension (Def. 2.4) and answer relabelling (post-processing)."""

from __future__ import annotations

from dataclasses import dataclass

from ..builders.composition import concomp_ordered, null_extension, postprocess, unknown_answers
from ..model.game import Mechanism, label_str
from ..model.symbolic import is_symbolic_mechanism, undefined_probability
from ..numbers.symbolic import SymbolTable, expr_str, prove_nonzero
from .core import Components
from .fields import Count, FieldProblem, Label, MapOf, MechanismRef, Mechanisms, arg
from .registry import BuildContext, Form, form

__all__ = ["ConcompOrdered", "NullExtension", "Postprocess"]


@form("concomp_ordered")
@dataclass(frozen=True, kw_only=True)
class ConcompOrdered(Form):
    """Ordered concurrent composition (Vadhan-Wang Def. 2.3): message i goes to component i mod k."""

    mechanisms: Components = arg(Mechanisms(), doc="the components")
    shorthand = "mechanisms"

    def build(self, ctx: BuildContext) -> Mechanism:
        return concomp_ordered(dict(self.mechanisms), name=ctx.name)


@form("null_extension")
@dataclass(frozen=True, kw_only=True)
class NullExtension(Form):
    """Null-query extension (Vadhan-Wang Def. 2.4): `null_extension: m` or `{mechanism: m, nulls: n}`."""

    mechanism: Mechanism = arg(MechanismRef())
    nulls: int | None = arg(Count("nulls", 0, 10_000), default=None, doc="how many null queries (default: depth + 1)")
    shorthand = "mechanism"

    def build(self, ctx: BuildContext) -> Mechanism:
        return null_extension(self.mechanism, self.nulls, name=ctx.name)


@form("postprocess")
@dataclass(frozen=True, kw_only=True)
class Postprocess(Form):
    """`postprocess: {mechanism: m, map: {answer: new_answer}}`: relabel answers (deterministic post-processing)."""

    mechanism: Mechanism = arg(MechanismRef())
    map: dict = arg(
        MapOf(Label("a new answer label"), what="`map:` (old answer: new answer)"),
        doc="old answer: new answer (each old answer one of the mechanism's answers)",
    )

    def build(self, ctx: BuildContext) -> Mechanism:
        unknown, answers = unknown_answers(self.mechanism, self.map)
        if unknown:  # located at the key (postprocess refuses it too, without a place)
            shown = ", ".join(label_str(a) for a in answers[:20])
            raise FieldProblem(
                ("map", unknown[0]),
                f"postprocess: {label_str(unknown[0])} is not an answer of the mechanism",
                f"its answers: {shown}",
            )
        m = postprocess(self.mechanism, self.map, name=ctx.name)
        if ctx.symbols is not None and is_symbolic_mechanism(m):
            _prove_defined(m, ctx.symbols)
        return m


def _prove_defined(mech: Mechanism, symbols: SymbolTable) -> None:
    """Every probability of a relabelled symbolic mechanism defined for every value of the
    symbols, or a located FieldProblem: a posterior divides by the probability of the relabelled
    history under a dataset, and where that probability vanishes (not identically) it may be 0/0."""
    bad = undefined_probability(mech, lambda den: prove_nonzero(den, symbols))
    if bad is not None:
        label, dataset, p, den = bad
        raise FieldProblem(
            "map",
            f"postprocess: could not prove that the probability of answer {label_str(label)} under "
            f"dataset {dataset}, {expr_str(p)}, is defined for every value the bounds allow "
            f"({symbols.describe()}): its denominator {expr_str(den)} may vanish, where the "
            "relabelled history before it has probability 0 and the posterior is 0/0",
            "tighten the bounds under `symbols:` so that every answer kept by the relabelling has positive probability",
        )
