r"""The ``composition`` claim with symbols for Theorem 1.8 with δᵢ > 0 and the bounds with logarithms.

:mod:`exactdp.claims.composition` decides ``basic``, ``improved-basic``, ``optimal``, ``renyi`` and
``thm-1.8`` with pure components on every cell of the symbols' domain; this module adds, for one
symbol or none in the components' εᵢ and the composition's PrivLoss:

* ``thm-1.8`` with some δᵢ > 0 (Vadhan & Wang 2021, Thm 1.8): δ_g is one rational function of the
  symbol on each cell (:func:`~exactdp.analysis.parametric.named_bounds.thm18_delta`), so the
  claim — PrivLoss(ConComp, δ) ≤ Σεᵢ at the claim's δ (default δ_g), no bound below δ_g — is
  decided exactly, like ``basic``;
* ``advanced`` (Dwork, Rothblum & Vadhan 2010, Thm III.3), ``kov-3.4`` (Kairouz, Oh & Viswanath
  2015, Thm 3.4/3.5) and the KOV slides' ``kov-slides-1``/``kov-slides-2`` as printed, at their
  own δ (rational: Σδᵢ + δ̃, or 1 − (1 − δ̃)Π(1 − δᵢ)): Σεᵢ, where it is a term of the bound, is
  compared exactly, the other terms by certified boxes on each cell
  (:func:`~exactdp.analysis.parametric.named_bounds.decide_on_cell`).  ``valid: false`` claims
  the bound is below PrivLoss for every value.

A cell where the boxes find the claim false carries a rational value (``at``), which the
parametric verdict re-decides with the numeric engine (its verdict and witness are the
refutation); every cell is cross-checked there too.  ``fdp`` stays undecided with symbols.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..analysis.parametric import LogOf, Undecided, cmp_log, lambda_of, pgame
from ..analysis.parametric.engine import PGame, delta_at, least_lambda_of, profile
from ..analysis.parametric.hull import INF as PINF
from ..analysis.parametric.named_bounds import EXACT_SUM, TERMS, decide_on_cell, thm18_delta
from ..analysis.parametric.ratfun import RatFun
from ..analysis.parametric.values import value_text
from ..lazy import flint
from ..numbers.rational import Q, q_str
from ..theorems import theorem
from .composition import HANDLERS, _parametric_composition
from .parametric import Outcome, Parametric, _first_excess

__all__ = ["parametric_composition"]


def parametric_composition(cl: Any, P: Parametric) -> Callable[[Any], Outcome]:
    """The cell handler of ``composition`` with symbols: this module's theorems, else
    :mod:`exactdp.claims.composition`'s."""
    deltas = _deltas(cl)
    if cl.theorem == "thm-1.8" and any(d != 0 for d in deltas):
        return _thm18(cl, P, deltas)
    if cl.theorem in TERMS:
        return _named(cl, P, deltas)
    if theorem(cl.theorem).family == "fdp":
        return _fdp(cl, P)
    return _parametric_composition(cl, P)


def _fdp(cl: Any, P: Parametric) -> Callable[[Any], Outcome]:
    """T(ConComp(M₁, …)) ≥ T(M₁) ⊗ T(M₂) ⊗ … (Dong, Roth & Su 2022, Def. 3.1; a theorem for
    concurrent composition: Vadhan & Zhang 2023): on each cell the tensor product is the chain of
    the product of the components' dominating pairs — an outcome of mass ``top`` impossible under
    P′ and one per envelope edge (r, w) with masses (r·w, w) (Zhu, Dong & Wang 2022, Def. 7), as
    :func:`exactdp.analysis.tradeoff.tensor` builds it — run through the parametric engine as a
    game with the one ordered pair (P, P′); T(ConComp) ≥ it iff δ_ConComp(λ) ≤ δ_⊗(λ) for every
    λ > 0 (Dong, Roth & Su 2022, Prop. 2.12), compared at every breakpoint, exactly."""
    an = P.an
    composed = cl._composed(an, tuple(cl.of))
    game = an.cached(("pgame", "composition", composed.name, P.ring.names), lambda: pgame(composed, P.ring))

    def run(ctx: Any) -> Outcome:
        mine = ctx.stage(("composition-profile", id(game)), lambda: profile(game, ctx))
        prod = _tensor_game([P.profile(n, ctx).envelope(ctx) for n in cl.of], ctx)
        bad = _first_excess(mine, profile(prod, ctx), ctx, all_slopes=True)
        return Outcome(bad is None, "dominated" if bad is None else bad, "e^eps where they differ")

    return run


def _tensor_game(hulls: list, ctx: Any) -> PGame:
    """The product of the dominating pairs of ``hulls`` as a game with the one ordered pair (P, P′)."""
    ring = ctx.ring
    nodes: list[tuple] = [("end",)]
    for h in reversed(hulls):
        rows = [] if ctx.sign(h.top) == 0 else [(h.top, ring.zero)]
        rows += [(r * w, w) for r, w in h.edges]
        nodes.append(("chance", tuple(rows), tuple(len(nodes) - 1 for _ in rows)))
    return PGame(ring, "tensor product", ("P", "P'"), ((0, 1),), ((0, 1),), tuple(nodes))


def _deltas(cl: Any) -> tuple:
    return tuple(cl.deltas) * cl.times if cl.deltas else tuple(Q(0) for _ in cl.copies)


class _Setup:
    """What both handlers need: the composed game, and each component's e^{εᵢ} on a cell."""

    def __init__(self, cl: Any, P: Parametric, deltas: tuple):
        self.cl, self.P, self.deltas, self.ring = cl, P, deltas, P.ring
        self.names = cl.copies
        composed = cl._composed(P.an, self.names)
        self.game = P.an.cached(("pgame", "composition", composed.name, P.ring.names), lambda: pgame(composed, P.ring))
        eps = cl.eps
        self.claimed = None if eps is None else [lambda_of(eps[k % len(eps)], P.ring) for k in range(len(self.names))]

    def privloss(self, at: Any, ctx: Any) -> Any:
        p = ctx.stage(("composition-profile", id(self.game)), lambda: profile(self.game, ctx))
        lam = least_lambda_of(p, at if isinstance(at, RatFun) else self.ring.lift(at), ctx)
        return PINF if lam is PINF else LogOf(lam)

    def lambdas(self, ctx: Any) -> list | None:
        """e^{εᵢ} of each component on the cell: the claimed εᵢ (None when one is wrong: the claim
        fails, as the numeric check says) or PrivLoss(Mᵢ, δᵢ)."""
        out = []
        for k, n in enumerate(self.names):
            p = self.P.profile(n, ctx)
            d = self.ring.lift(self.deltas[k])
            if self.claimed is not None:
                lam = self.claimed[k]
                if lam is not PINF and ctx.cmp(delta_at(p, lam, ctx), d) > 0:
                    return None
            else:
                lam = least_lambda_of(p, d, ctx)
            if lam is PINF:
                raise Undecided(
                    f"PrivLoss({n}, {q_str(self.deltas[k])}) is infinite on {ctx.cell.text()}, so the theorem gives "
                    "no bound; give that component's delta under `deltas:`"
                )
            out.append(lam)
        return out


_WRONG_EPS = "not met: a component is not (eps_i, delta_i)-DP"


def _thm18(cl: Any, P: Parametric, deltas: tuple) -> Callable[[Any], Outcome]:
    """Theorem 1.8 with some δᵢ > 0: PrivLoss(ConComp, δ) ≤ Σεᵢ for δ ≥ δ_g (exact on each cell)."""
    S = _Setup(cl, P, deltas)
    label = f"PrivLoss({cl._composed_name()}, {'delta_g' if cl.delta is None else q_str(cl.delta)})"

    def run(ctx: Any) -> Outcome:
        lams = S.lambdas(ctx)
        if lams is None:
            return Outcome(False, _WRONG_EPS, "the claimed eps_i")
        dg = thm18_delta(lams, deltas, ctx)
        at: Any = dg if cl.delta is None else cl.delta
        if cl.delta is not None and ctx.cmp(S.ring.lift(cl.delta), dg) < 0:
            return Outcome(True, f"no bound: delta < delta_g = {value_text(dg)}", label)
        found = S.privloss(at, ctx)
        bound = S.ring.one
        for lam in lams:
            bound = bound * lam
        ok = found is not PINF and cmp_log(found, LogOf(bound), ctx) <= 0
        return Outcome(ok, found, label, parts=tuple(lams))

    return run


def _named(cl: Any, P: Parametric, deltas: tuple) -> Callable[[Any], Outcome]:
    """A bound with logarithms at its own δ: Σεᵢ exactly, its other terms by boxes on the cell."""
    S = _Setup(cl, P, deltas)
    slack = Fraction(int(Q(cl.slack).numerator), int(Q(cl.slack).denominator))
    at = _named_delta(cl.theorem, deltas, Q(cl.slack))
    label = f"PrivLoss({cl._composed_name()}, {q_str(at)})"
    budget = [0]

    def run(ctx: Any) -> Outcome:
        lams = S.lambdas(ctx)
        if lams is None:
            return Outcome(not cl.valid, _WRONG_EPS, "the claimed eps_i")
        if cl.theorem == "kov-slides-1" and (len(set(deltas)) > 1 or any(ctx.cmp(lam, lams[0]) for lam in lams)):
            raise Undecided("the slides' Theorem I is stated for k components with one (eps, delta); these differ")
        found = S.privloss(at, ctx)
        if found is PINF:  # no finite bound is valid
            return Outcome(not cl.valid, found, label)
        total = S.ring.one
        for lam in lams:
            total = total * lam
        sum_ok = cmp_log(found, LogOf(total), ctx) <= 0
        if cl.theorem in EXACT_SUM and not sum_ok:  # the bound's term sum(eps_i) is below PrivLoss on the cell
            return Outcome(not cl.valid, found, label)
        if found.R.is_one():  # PrivLoss = 0 <= every term (each is >= 0)
            return Outcome(cl.valid, found, label)
        index = _index(ctx, lams, found)
        st = decide_on_cell(ctx, index, cl.theorem, lams, found, slack, sum_ok, budget, negated=not cl.valid)
        if st.holds:
            return Outcome(True, found, label)
        if st.whole or st.at is None:  # fails on the whole cell: refuted at its own rational point
            return Outcome(False, found, label)
        pt = {ctx.ring.names[index]: flint.fmpq(st.at.numerator, st.at.denominator)}
        return Outcome(False, found, label, {**(ctx.cell.point() or {}), **pt})

    return run


def _named_delta(name: str, deltas: tuple, slack: Any) -> Any:
    """The δ a named bound fixes: Σδᵢ + δ̃ (advanced, the slides' Theorem I) or 1 − (1 − δ̃)Π(1 − δᵢ)."""
    if name in ("advanced", "kov-slides-1"):
        return sum(deltas, Q(0)) + slack
    keep = Q(1)
    for d in deltas:
        keep *= 1 - d
    return 1 - (1 - slack) * keep


def _index(ctx: Any, lams: list, found: Any) -> int:
    used: set[str] = set(found.R.variables())
    for lam in lams:
        used |= set(lam.variables())
    if len(used) > 1:
        raise Undecided(
            f"the bound of a composition theorem with logarithms is compared with PrivLoss on boxes of one symbol; "
            f"here both depend on {', '.join(sorted(used))}; give the others values (params or a sweep)"
        )
    names = ctx.ring.names
    return names.index(next(iter(used))) if used else 0


HANDLERS["composition"] = parametric_composition
