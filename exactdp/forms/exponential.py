"""Exponential and bounded-range mechanisms (Dong, Durfee & Rogers 2020), and permute-and-flip
(McKenna & Sheldon 2020).

The exponential mechanism and permute-and-flip take a decimal ε (``eps: 0.5``: every weight is
then exact in ℚ(e^{1/L})) or ``eps: log(r)`` when the weights are rational powers; a weight
outside both is refused with a located message.  ``grr`` and ``grr_menu`` need e^ε and e^t
rational.

With ``symbols:`` (docs/parametric.md), e^ε and e^t may be rational functions of the symbols
(``eps: log(E)``, ``t: log(T)``, ``eps: 4*log(E), t: log(E)``): the ranges the mechanism needs
(e^ε > 1, 1 ≤ e^t ≤ e^ε) are proved for every value the declared bounds allow, or refused with
a located error.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..builders.exponential import (
    MODES,
    PF_MODES,
    exponential,
    exponential_rows,
    grr,
    grr_menu,
    grr_menu_node,
    grr_sym_node,
    nonadaptive,
    permute_and_flip,
    permute_and_flip_rows,
)
from ..model.game import END, Mechanism
from ..model.symbolic import SymChance
from ..numbers.rational import Q, q_str
from ..numbers.symbolic import check_sym_degree, expr_str, is_symbolic, prove_nonneg, prove_nonzero, sympy, to_sympy
from .core import bits_at, exp_eps_at
from .fields import (
    Choice,
    Count,
    Either,
    Eps,
    FieldProblem,
    Flag,
    Label,
    ListOf,
    MapOf,
    MechanismRef,
    PerDataset,
    Rational,
    arg,
)
from .registry import BuildContext, Form, form

__all__ = ["Exponential", "PermuteAndFlip", "GRR", "GRRMenu", "Nonadaptive", "SCORES", "score_table"]

_VALUE = Rational("a score")
SCORES = PerDataset(Either((MapOf(_VALUE), ListOf(_VALUE))), what="scores")
_BITS = PerDataset(Count("a bit", 0, 1), partial=True, what="bits")


def score_table(
    per: tuple, outputs: Sequence[str] | None, datasets: Sequence[str], field: str = "scores"
) -> tuple[list[str], list[list[Any]]]:
    """``{dataset: {output: score} | [score, ...]}`` → (output labels, scores[d][k]).

    Maps fix the outputs (the same for every dataset); lists follow ``outputs`` (default
    ``0, 1, ...``)."""
    labels = list(outputs) if outputs is not None else None
    for d, vals in zip(datasets, per):
        if isinstance(vals, dict):
            if labels is None:
                labels = list(vals)
            elif sorted(vals) != sorted(labels):
                raise FieldProblem(
                    (field, d),
                    f"the outputs of {d} ({', '.join(vals)}) differ from {', '.join(labels)}",
                    "every dataset scores the same outputs",
                )
    if labels is None:
        labels = [str(i) for i in range(len(per[0]))]
    if len(set(labels)) != len(labels):
        raise FieldProblem(field, "an output is listed twice")
    rows = []
    for d, vals in zip(datasets, per):
        if isinstance(vals, dict):
            rows.append([vals[lab] for lab in labels])
        elif len(vals) != len(labels):
            raise FieldProblem(
                (field, d), f"{d} has {len(vals)} {field} but there are {len(labels)} outputs ({', '.join(labels)})"
            )
        else:
            rows.append(list(vals))
    return labels, rows


@dataclass(frozen=True, kw_only=True)
class _Selection(Form):
    """The fields of a selection mechanism over a score table, declared once."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: 0.5 or eps: log(4)")
    scores: tuple = arg(SCORES, doc="{dataset: {output: score}} or {dataset: [score, ...]}")
    outputs: tuple | None = arg(
        ListOf(Label("an output label"), what="outputs"), default=None, doc="output labels for list scores"
    )
    sensitivity: Any = arg(
        Rational("sensitivity", positive=True), default=None, doc="the score sensitivity (default: computed)"
    )

    def common(self, ctx: BuildContext, key: str) -> dict[str, Any]:
        """The builder's arguments these fields give: e^eps, the outputs and the score rows."""
        E = exp_eps_at("eps", self.eps, ctx, key)
        labels, rows = score_table(self.scores, self.outputs, ctx.datasets)
        return {
            "scores": rows,
            "exp_eps": E,
            "outputs": labels,
            "datasets": ctx.datasets,
            "adjacent": ctx.adjacent,
            "sensitivity": self.sensitivity,
            "name": ctx.name,
        }


@form("exponential")
@dataclass(frozen=True, kw_only=True)
class Exponential(_Selection):
    """The exponential mechanism (DDR Def. 2.3) over a finite output range, exact weights."""

    mode: str = arg(Choice(MODES, "mode"), default="sensitivity", doc="how eps is calibrated")
    range: Any = arg(Rational("range", positive=True), default=None, doc="the score range (mode: range)")

    def build(self, ctx: BuildContext) -> Mechanism:
        args = self.common(ctx, "exponential")
        if is_symbolic(args["exp_eps"]):
            rows = exponential_rows(
                args["scores"],
                args["exp_eps"],
                ctx.adjacent,
                mode=self.mode,
                sensitivity=self.sensitivity,
                range_=self.range,
                outputs=args["outputs"],
                datasets=ctx.datasets,
            )
            return _symbolic_selection(ctx, args["outputs"], rows)
        return exponential(**args, mode=self.mode, range_=self.range)


@form("permute_and_flip")
@dataclass(frozen=True, kw_only=True)
class PermuteAndFlip(_Selection):
    """Permute-and-flip (McKenna-Sheldon 2020, Alg. 1; diffprivlib PermuteAndFlip): candidates in random order, each output with probability e^(eps (u - max u)/s)."""

    mode: str = arg(Choice(PF_MODES, "mode"), default="sensitivity", doc="s = 2*sensitivity, or sensitivity (monotone)")

    def build(self, ctx: BuildContext) -> Mechanism:
        args = self.common(ctx, "permute_and_flip")
        if is_symbolic(args["exp_eps"]):
            rows = permute_and_flip_rows(
                args["scores"],
                args["exp_eps"],
                ctx.adjacent,
                mode=self.mode,
                sensitivity=self.sensitivity,
                outputs=args["outputs"],
                datasets=ctx.datasets,
            )
            return _symbolic_selection(ctx, args["outputs"], rows)
        return permute_and_flip(**args, mode=self.mode)


def _symbolic_selection(ctx: BuildContext, outputs: list[str], rows: list[tuple]) -> Mechanism:
    """One answer distribution whose probabilities are rational functions of the symbols (sums
    identically 1, checked on construction; each weight is positive as e^eps >= 1 is proved)."""
    return ctx.wrap(SymChance(outputs, rows, (END,) * len(outputs)))


@form("grr")
@dataclass(frozen=True, kw_only=True)
class GRR(Form):
    """Generalized randomized response RR_(eps,t) (DDR Def. 2.4): losses t and t - eps."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(16)")
    t: Any = arg(Eps(symbolic=True), doc="0 <= t <= eps, e.g. t: log(4)")
    bits: dict | None = arg(_BITS, default=None, doc="input bits beyond the first adjacent pair")

    def build(self, ctx: BuildContext) -> Mechanism:
        B = exp_eps_at("eps", self.eps, ctx, "grr", rational_only=True)
        if is_symbolic(B):  # its sign proofs and probabilities expand powers of B: bounded first
            check_sym_degree(B, "grr: e^eps")
        u = _exp_t_at("t", self.t, ctx, "grr")
        if is_symbolic(B) or is_symbolic(u):
            _symbolic_t_range(B, [("t", u)], ctx, "grr")
            return ctx.wrap(grr_sym_node(B, u, bits_at(ctx, self.bits)))
        return grr(
            exp_eps=B,
            exp_t=u,
            datasets=ctx.datasets,
            adjacent=ctx.adjacent,
            bits=bits_at(ctx, self.bits),
            name=ctx.name,
        )


@form("grr_menu")
@dataclass(frozen=True, kw_only=True)
class GRRMenu(Form):
    """The adversary picks one RR_(eps,t) from a finite menu of t (or u = e^t); `symmetric: true`
    adds e^t -> e^eps/e^t so that both orders of the pair face the same menu."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(16)")
    t: tuple | None = arg(
        ListOf(Eps(symbolic=True), min_len=1, what="t (a list of eps-type values)"),
        default=None,
        doc="a list such as [log(2), log(4)]",
    )
    u: tuple | None = arg(
        ListOf(Rational("e^t", lo=Q(1), symbolic=True), min_len=1, what="u (a list of e^t values)"),
        default=None,
        doc="a list of e^t values such as [2, 5/2, 4]",
    )
    symmetric: bool = arg(Flag(), default=False, doc="also offer e^eps/e^t")
    bits: dict | None = arg(_BITS, default=None, doc="input bits beyond the first adjacent pair")

    def validate(self) -> None:
        if (self.t is None) == (self.u is None):
            raise FieldProblem((), "grr_menu needs exactly one of `t:` (a list of t) or `u:` (a list of e^t)")

    def build(self, ctx: BuildContext) -> Mechanism:
        B = exp_eps_at("eps", self.eps, ctx, "grr_menu", rational_only=True)
        if is_symbolic(B):  # its sign proofs and probabilities expand powers of B: bounded first
            check_sym_degree(B, "grr_menu: e^eps")
        key = "t" if self.t is not None else "u"
        if self.t is not None:
            us = [_exp_t_at(("t", i), t, ctx, "grr_menu") for i, t in enumerate(self.t)]
        else:
            assert self.u is not None  # validate(): exactly one of t and u
            us = list(self.u)
        if is_symbolic(B) or any(is_symbolic(u) for u in us):
            return self._symbolic(B, us, key, ctx)
        dup = next((u for i, u in enumerate(us) if u in us[:i]), None)
        if dup is not None:
            raise FieldProblem(key, f"grr_menu: e^t = {q_str(dup)} is listed twice")
        if self.symmetric:
            us = us + [B / u for u in us if B / u not in us]
        seen = sorted(set(us))
        if seen[-1] > B:
            raise FieldProblem(
                (), f"grr_menu: e^t = {q_str(seen[-1])} exceeds e^eps = {q_str(B)}", "each t must lie in [0, eps]"
            )
        return grr_menu(
            exp_eps=B,
            exp_ts=seen,
            datasets=ctx.datasets,
            adjacent=ctx.adjacent,
            bits=bits_at(ctx, self.bits),
            name=ctx.name,
        )

    def _symbolic(self, B: Any, us: list[Any], key: str, ctx: BuildContext) -> Mechanism:
        """The menu with e^eps or some e^t symbolic: duplicates are identical rational functions,
        and the options keep the order given (their order by value may depend on the symbols)."""
        given: list[tuple[Any, Any]] = [((key, i), to_sympy(u)) for i, u in enumerate(us)]
        if self.symmetric:  # e^eps/e^t is in [1, e^eps] when e^t is
            given += [("symmetric", sympy.cancel(to_sympy(B) / u)) for _, u in given]
        seen: list[tuple[Any, Any]] = []
        for field, u in given:
            if any(sympy.cancel(u - v) == 0 for _, v in seen):
                if field != "symmetric":
                    raise FieldProblem(field, f"grr_menu: e^t = {expr_str(u)} is listed twice")
                continue  # symmetric: e^eps/e^t already on the menu
            seen.append((field, u))
        _symbolic_t_range(B, seen, ctx, "grr_menu")
        return ctx.wrap(grr_menu_node(B, [u for _, u in seen], bits_at(ctx, self.bits)))


def _exp_t_at(field: str | tuple, t: Any, ctx: BuildContext, form_key: str) -> Any:
    """e^t of a ``t`` field, as e^eps (:func:`exp_eps_at`), with a hint for a t whose e^t is
    not a rational function of the symbols."""
    try:
        return exp_eps_at(field, t, ctx, form_key, rational_only=True)
    except FieldProblem as p:  # (the problem is t's, and so are its words)
        hint = (
            "write t as a whole multiple of the log of a symbol, e.g. t: log(E) with eps: 2*log(E) "
            "(declare E = e^(eps/2))"
            if is_symbolic(t)
            else "write t as log(r) for a rational r >= 1, e.g. t: log(4)"
        ) + (", or give e^t itself with `u:`" if form_key == "grr_menu" else "")
        raise FieldProblem(p.path, re.sub(r"\beps\b", "t", p.message), hint) from None


def _symbolic_t_range(B: Any, us: list[tuple[Any, Any]], ctx: BuildContext, form_key: str) -> None:
    """e^eps > 1 and e^t <= e^eps proved for every value of the symbols (e^t >= 1 is proved
    where e^t is read), or a located FieldProblem: RR_(eps,t) needs 0 <= t <= eps and divides by
    e^eps - 1 (DDR Def. 2.4)."""
    assert ctx.symbols is not None  # a symbolic value is read only where symbols are declared
    Bs = to_sympy(B)
    if not (prove_nonneg(Bs - 1, ctx.symbols) and prove_nonzero(Bs - 1, ctx.symbols)):
        raise FieldProblem(
            "eps",
            f"{form_key}: could not prove eps > 0 (e^eps = {expr_str(Bs)} > 1) for every value the bounds allow "
            f"({ctx.symbols.describe()})",
            "with symbols, RR_(eps,t) needs eps > 0 everywhere: declare the symbol with a strict bound, "
            "e.g. E: {gt: 1}",
        )
    for field, u in us:
        if not prove_nonneg(Bs - to_sympy(u), ctx.symbols):
            raise FieldProblem(
                field,
                f"{form_key}: could not prove t <= eps (e^t = {expr_str(to_sympy(u))} <= e^eps = {expr_str(Bs)}) "
                f"for every value the bounds allow ({ctx.symbols.describe()})",
                "RR_(eps,t) needs 0 <= t <= eps (DDR Def. 2.4); tighten the bounds under `symbols:`",
            )


@form("nonadaptive")
@dataclass(frozen=True, kw_only=True)
class Nonadaptive(Form):
    """Choose of compose: the adversary fixes a sequence of menu items up front (DDR Alg. 1)."""

    menu: Mechanism = arg(MechanismRef(), doc="a choose or grr_menu")
    rounds: int = arg(Count("rounds", 1, 64), doc="the number of rounds")

    def build(self, ctx: BuildContext) -> Mechanism:
        return nonadaptive(self.menu, self.rounds, name=ctx.name)
