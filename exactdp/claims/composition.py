"""The ``composition`` claim: a composition theorem checked on real interactive mechanisms.

``composition: {components: [M1, M2, ...], theorem: basic|improved-basic|thm-1.8|optimal, delta: d}``

1. Each component Mᵢ is certified (εᵢ, δᵢ)-DP by the engine: δᵢ from ``deltas:`` (default 0),
   εᵢ from ``eps:`` (then checked: the claim fails if Mᵢ is not (εᵢ, δᵢ)-DP) or, by default,
   εᵢ = PrivLoss(Mᵢ, δᵢ) computed exactly.
2. The theorem turns (εᵢ, δᵢ) into a bound ε_T at the claim's δ:
   ``basic``/``improved-basic``/``thm-1.8`` give (Σεᵢ, δ_T), so ε_T = Σεᵢ for δ ≥ δ_T (δ defaults
   to δ_T) and no finite bound below; ``optimal`` gives the least ε_g at δ (Vadhan–Wang Thm 1.4/5.7).
3. The claim holds when PrivLoss(ConComp(M₁, M₂, ...), δ) ≤ ε_T exactly; the verdict shows
   both numbers and the slack ε_T − PrivLoss.

Every one of these is a *theorem* for concurrent composition of interactive components, so a
failing check is a bug (in exactdp or in the case), never an open question:

* pure components: basic composition (Vadhan–Wang 2021, Thm 3.3) and optimal composition
  (Vadhan–Wang 2021, Thm 5.7 via Lemma 5.5);
* any δᵢ: Theorem 1.8 of Vadhan–Wang 2021; and every composition theorem for noninteractive
  (ε, δ)-DP (basic, improved basic, optimal) holds for concurrent composition: Vadhan & Zhang,
  *Concurrent Composition Theorems for Differential Privacy* (STOC 2023), for (ε, δ)-DP and
  f-DP; Lyu, *Composition Theorems for Interactive Differential Privacy* (NeurIPS 2022), for
  (ε, δ)-DP and Rényi DP.

The components are every item of ``components:``: a repeated name is another copy
(``components: [R, R]`` is ConComp(R, R)); case-format 1 first wrote them as a list under ``of:``,
which still works (with a deprecation warning).  ``theorem: renyi`` and ``theorem: fdp`` (Lyu
2022; Vadhan & Zhang 2023) compare D_α and trade-off functions instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import certificates as _cert
from ..analysis.results import value_cmp
from ..analysis.tradeoff import compare, tensor
from ..forms.fields import Choice, Delta, Either, Eps, FieldProblem, Label, ListOf, Order, arg
from ..numbers import INF, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from ..theorems import components, guarantee, theorem, theorem_names
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Shows, Verdict, claim

__all__ = ["CompositionClaim", "COMPOSITION_THEOREMS"]

_NAME = Label("a mechanism name")
COMPOSITION_THEOREMS = theorem_names(claim=True)  # the theorems `theorem:` takes (exactdp.theorems.registry)

_RATIONAL_DELTAS = (
    "the composition theorems are evaluated for rational deltas: write a fraction or a decimal such as 1/10 "
    "(the claims delta, privloss, dp and not_dp take a delta in Q(e^(1/L)); declare the composition with "
    "`concomp:` to check it at such a delta)"
)


@claim("composition")
@dataclass(frozen=True, kw_only=True)
class CompositionClaim(Claim):
    """PrivLoss of concomp of the components is at most what the composition theorem gives
    (see the module docstring).  ``of`` is the tuple of component names."""

    of: Any = arg(
        Either((ListOf(Label("a mechanism name"), min_len=1, what="`of:` (a list of mechanism names)"), _NAME)),
        default=None,
        doc="deprecated spelling of components: (a list under of: still works)",
    )
    components: tuple | None = arg(
        ListOf(Label("a mechanism name"), min_len=1, what="`components:` (a list of mechanism names)"),
        default=None,
        doc="the components, e.g. components: [A, B] (a repeated name is another copy)",
    )
    theorem: str = arg(
        Choice(COMPOSITION_THEOREMS, "theorem"),
        default="optimal",
        doc="basic, improved-basic, thm-1.8, optimal, renyi or fdp",
    )
    delta: Any = arg(
        Delta(rational_because=_RATIONAL_DELTAS),
        default=None,
        doc="the delta of the composition (default: the theorem's)",
    )
    eps: tuple | None = arg(
        ListOf(Eps(), what="eps (one value per component)"),
        default=None,
        doc="claimed eps_i (default: PrivLoss of each)",
    )
    deltas: tuple | None = arg(
        ListOf(Delta(rational_because=_RATIONAL_DELTAS), what="deltas (one value per component)"),
        default=None,
        doc="delta_i of each component (default 0)",
    )
    alpha: Any = arg(Order(), default=None, doc="the Renyi order (theorem: renyi only)")
    of_was_list: bool = field(default=False, compare=False, repr=False)
    of_written: Any = field(default=None, compare=False, repr=False)
    hidden_fields = ("group", "pairs")  # a claim about several mechanisms
    shows = Shows("privloss", "PrivLoss of the concurrent composition at the claim's delta", also=("bound", "slack"))
    _shows_by_theorem: ClassVar[dict[str, Shows]] = {
        "renyi": Shows("renyi", "D_alpha of the concurrent composition", also=("bound", "slack")),
        "fdp": Shows("margin", "min over alpha of T(ConComp)(alpha) - (tensor product)(alpha)"),
    }

    def __post_init__(self) -> None:
        # `of` is what a claim is about: for a composition, its components (reports, JSON and
        # certificates read it); a list under `of:`, the first spelling, still works
        if self.of is not None and self.of != self.components:
            object.__setattr__(self, "of_written", self.of)
        if self.components is None and isinstance(self.of, tuple):
            object.__setattr__(self, "components", self.of)
            object.__setattr__(self, "of_was_list", True)
        if self.components is not None:
            object.__setattr__(self, "of", self.components)

    def deprecations(self) -> tuple[tuple[str, str], ...]:
        if not self.of_was_list:
            return ()
        names = ", ".join(self.components or ())
        return (("of", f"a list under `of:` names the components of a composition; write `components: [{names}]`"),)

    def validate(self) -> None:
        if self.components is None:
            raise FieldProblem(
                "of" if self.of_written is not None else (),
                "composition needs `components:` (a list of mechanism names)",
                "for example: components: [A, B]",
            )
        if self.of_written is not None and not self.of_was_list:
            raise FieldProblem("of", "give the components once, under `components:`")
        if (self.alpha is not None) != (self.theorem == "renyi"):
            raise FieldProblem(
                (), "`alpha:` goes with `theorem: renyi` (and it needs one)", "for example: theorem: renyi, alpha: 2"
            )
        extra = [k for k in ("delta", "eps", "deltas") if getattr(self, k) is not None]
        if self.theorem in ("renyi", "fdp") and extra:
            raise FieldProblem(extra[0], f"`{extra[0]}:` does not apply to theorem: {self.theorem}")
        for key in ("eps", "deltas"):
            vals = getattr(self, key)
            if vals is not None and len(vals) != len(self.of):
                raise FieldProblem(
                    key,
                    f"`{key}:` has {len(vals)} values for {len(self.of)} components",
                    "give one value per mechanism in `components:`",
                )

    def shown(self) -> Shows:
        return self._shows_by_theorem.get(self.theorem, self.shows)

    def statement(self) -> str:
        names = ", ".join(self.of)
        d = "" if self.delta is None else f", delta {q_str(self.delta)}"
        a = "" if self.alpha is None else f", alpha {ladder.text(self.alpha)}"
        return f"ConComp({names}) within {self.theorem}{d}{a}"

    def params(self) -> dict[str, str]:
        out = {"of": ", ".join(self.of), "theorem": self.theorem}
        if self.alpha is not None:
            out["alpha"] = ladder.text(self.alpha)
        if self.delta is not None:
            out["delta"] = q_str(self.delta)
        if self.eps is not None:
            out["eps"] = ", ".join(ladder.text(e) for e in self.eps)
        if self.deltas is not None:
            out["deltas"] = ", ".join(q_str(d) for d in self.deltas)
        return out

    def certificate(self, an: Analysis) -> dict | None:
        """The components' games and parameters; the checker builds the composition itself."""
        return _cert.composition_certificate(an, self, self.check(an).status == HOLDS)

    def _component_eps(self, an: Analysis, names: tuple, deltas: tuple) -> list | Verdict:
        """εᵢ of each component: the claimed one (checked) or PrivLoss(Mᵢ, δᵢ); a Verdict when a
        claimed εᵢ is wrong, or undecided when PrivLoss(Mᵢ, δᵢ) is infinite (the theorem then
        gives no bound: the claim needs that component's δᵢ under ``deltas:``, and the facts
        carry the least δᵢ of every component for which PrivLoss is finite, δ_Mᵢ(∞))."""
        eps_i = []
        for k, name in enumerate(names):
            prof = an.profile(name)
            if self.eps is not None:
                d = prof.delta_at(self.eps[k])
                if value_cmp(d, deltas[k]) > 0:
                    facts = {"component": name, "component_eps": self.eps[k], "component_delta": deltas[k]}
                    return Verdict(self, FAILS, {**facts, "delta_at_eps": d})
                eps_i.append(self.eps[k])
            else:
                e = prof.privloss(deltas[k])
                if is_inf(e):
                    least = tuple(an.profile(n).limit() for n in names)
                    facts = {"component": name, "component_delta": deltas[k], "component_privloss": e}
                    return Verdict(self, UNDECIDED, {**facts, "least_deltas": least})
                eps_i.append(e)
        return eps_i

    def check(self, an: Analysis) -> Verdict:
        family = theorem(self.theorem).family
        if family == "renyi":
            return self._check_renyi(an)
        if family == "fdp":
            return self._check_fdp(an)
        names = tuple(self.of)
        deltas = self.deltas or tuple(Q(0) for _ in names)
        eps_i = self._component_eps(an, names, deltas)
        if isinstance(eps_i, Verdict):
            return eps_i
        comps = components(eps_i, list(deltas))
        mech = an.concomp(names)  # one component per list item: components: [R, R] is two copies of R
        prof = an.engine.profile(mech)
        g = guarantee(self.theorem, comps, self.delta)
        bound, at, tdelta = g.eps, g.delta, g.theorem_delta
        found = prof.privloss(at)
        ok = ladder.cmp(found, bound) <= 0 if not is_inf(bound) else True
        slack = None if is_inf(bound) or is_inf(found) else ladder.sub(bound, found)
        facts = {
            "privloss": found,
            "bound": bound,
            "slack": slack,
            "components": tuple(zip(eps_i, deltas)),
            "delta": at,
            "theorem_delta": tdelta,
        }
        return Verdict(self, HOLDS if ok else FAILS, facts)

    def _check_renyi(self, an: Analysis) -> Verdict:
        """D_α(ConComp(A, B, ...)) ≤ Σ D_α(components): a theorem for concurrent composition of
        interactive mechanisms (Lyu, *Composition Theorems for Interactive Differential Privacy*,
        NeurIPS 2022; also Vadhan & Zhang, STOC 2023)."""
        parts = [an.renyi(n, self.alpha).value for n in self.of]
        bound: Any = INF if any(is_inf(p) for p in parts) else parts[0]
        if not is_inf(bound):
            for p in parts[1:]:
                bound = ladder.add(bound, p)
        found = an.engine.renyi(an.concomp(tuple(self.of)), self.alpha).value
        ok = ladder.cmp(found, bound) <= 0
        slack = None if is_inf(bound) or is_inf(found) else ladder.sub(bound, found)
        facts = {"renyi": found, "bound": bound, "slack": slack, "components": tuple(parts), "alpha": self.alpha}
        return Verdict(self, HOLDS if ok else FAILS, facts)

    def _check_fdp(self, an: Analysis) -> Verdict:
        """T(ConComp(A, B, ...)) ≥ T(A) ⊗ T(B) ⊗ …, the tensor product of the components'
        trade-off functions (Dong–Roth–Su 2022, Thm 3.2 for noninteractive composition; for
        concurrent composition Vadhan & Zhang, *Concurrent Composition Theorems for Differential
        Privacy*, STOC 2023); its largest gap is 0 when the theorem is tight."""
        bound = tensor([an.profile(n).envelope for n in self.of])
        d = compare(an.engine.profile(an.concomp(tuple(self.of))).envelope, bound)
        return Verdict(self, HOLDS if d.holds else FAILS, d.facts())
