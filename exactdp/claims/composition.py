"""The ``composition`` claim: a composition theorem checked on real interactive mechanisms.

``composition: {of: [M1, M2, ...], theorem: basic|improved-basic|thm-1.8|optimal, delta: d}``

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

The components are every item of ``of:``: a repeated name is another copy (``of: [R, R]`` is
ConComp(R, R)).  ``theorem: renyi`` and ``theorem: fdp`` (Lyu 2022; Vadhan & Zhang 2023) are
checked by :mod:`exactdp.claims.fdp` and :mod:`exactdp.claims.renyi`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..analysis import format_privloss
from ..forms.fields import Choice, Delta, Eps, FieldProblem, Label, ListOf, Order, arg
from ..numbers import INF, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from ..theorems import basic, components, improved_basic, optimal, thm_1_8
from .base import FAILS, HOLDS, UNSUPPORTED, Analysis, Claim, Verdict, claim

__all__ = ["CompositionClaim", "COMPOSITION_THEOREMS"]

COMPOSITION_THEOREMS = ("basic", "improved-basic", "thm-1.8", "optimal", "renyi", "fdp")


# where the bound is proven for concurrent composition (see the module docstring)
_THEOREM_SOURCE = {
    "basic": "a theorem for concurrent composition (Vadhan-Wang 2021, Thm 3.3)",
    "improved-basic": "a theorem for concurrent composition (it bounds the optimal one, Vadhan-Wang 2021, Thm 5.7)",
    "optimal": "a theorem for concurrent composition (Vadhan-Wang 2021, Thm 5.7)",
    "thm-1.8": "a theorem for concurrent composition (Vadhan-Wang 2021, Thm 1.8)",
    "approx": "a theorem for concurrent composition of approximate-DP components (Vadhan-Zhang 2023; Lyu 2022)",
}


@claim("composition")
@dataclass(frozen=True, kw_only=True)
class CompositionClaim(Claim):
    """PrivLoss of concomp of the components is at most what the composition theorem gives
    (see the module docstring).  ``of`` is the tuple of component names."""

    of: tuple = arg(
        ListOf(Label("a mechanism name"), min_len=1, what="`of:` (a list of mechanism names)"),
        doc="the components, e.g. of: [A, B]",
    )
    theorem: str = arg(
        Choice(COMPOSITION_THEOREMS, "theorem"),
        default="optimal",
        doc="basic, improved-basic, thm-1.8, optimal, renyi or fdp",
    )
    delta: Any = arg(Delta(), default=None, doc="the delta of the composition (default: the theorem's)")
    eps: tuple | None = arg(
        ListOf(Eps(), what="eps (one value per component)"),
        default=None,
        doc="claimed eps_i (default: PrivLoss of each)",
    )
    deltas: tuple | None = arg(
        ListOf(Delta(), what="deltas (one value per component)"),
        default=None,
        doc="delta_i of each component (default 0)",
    )
    alpha: Any = arg(Order(), default=None, doc="the Renyi order (theorem: renyi only)")
    hidden_fields = ("group", "pairs")  # a claim about several mechanisms

    def validate(self) -> None:
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
                    "give one value per mechanism in `of:`",
                )

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
        from .. import certificates as _cert

        return _cert.composition_certificate(an, self, self.check(an).status == HOLDS)

    def _component_eps(self, an: Analysis, names: tuple, deltas: tuple) -> list | Verdict:
        """εᵢ of each component: the claimed one (checked) or PrivLoss(Mᵢ, δᵢ); a Verdict when a
        claimed εᵢ is wrong or PrivLoss is infinite."""
        from ..analysis.results import value_cmp

        eps_i = []
        for k, name in enumerate(names):
            prof = an.profile(name)
            if self.eps is not None:
                d = prof.delta_at(self.eps[k])
                if value_cmp(d, deltas[k]) > 0:
                    return Verdict(
                        self,
                        FAILS,
                        f"{name} is not ({ladder.text(self.eps[k])}, {q_str(deltas[k])})-DP",
                        f"its delta at that eps is {ladder.text(d) if not hasattr(d, 'cmp') else str(d)}",
                    )
                eps_i.append(self.eps[k])
            else:
                e = prof.privloss(deltas[k])
                if is_inf(e):
                    return Verdict(
                        self, UNSUPPORTED, f"PrivLoss({name}, {q_str(deltas[k])}) = inf", "no finite eps to compose"
                    )
                eps_i.append(e)
        return eps_i

    def check(self, an: Analysis) -> Verdict:
        if self.theorem in ("fdp", "renyi"):  # the f-DP and Renyi theorems (claims/fdp.py, claims/renyi.py)
            from .fdp import FDPCompositionClaim
            from .renyi import RenyiCompositionClaim

            inner = (
                FDPCompositionClaim(of=self.of, where=self.where)
                if self.theorem == "fdp"
                else RenyiCompositionClaim(of=self.of, where=self.where, alpha=self.alpha)
            )
            v = inner.check(an)
            return Verdict(self, v.status, v.found, v.note, v.witness, v.values, v.details)
        names = tuple(self.of)
        deltas = self.deltas or tuple(Q(0) for _ in names)
        eps_i = self._component_eps(an, names, deltas)
        if isinstance(eps_i, Verdict):
            return eps_i
        comps = components(eps_i, list(deltas))
        mech = an.concomp(names)  # one component per list item: of: [R, R] is two copies of R
        prof = an.engine.profile(mech)
        if self.theorem == "optimal":
            at = self.delta if self.delta is not None else Q(0)
            bound = optimal(comps, at).eps
            tdelta = at
        else:
            b = {"basic": basic, "improved-basic": improved_basic, "thm-1.8": thm_1_8}[self.theorem](comps)
            at = self.delta if self.delta is not None else b.delta
            tdelta = b.delta
            bound = b.eps if ladder.cmp(at, b.delta) >= 0 else INF
        found = prof.privloss(at)
        ok = ladder.cmp(found, bound) <= 0 if not is_inf(bound) else True
        slack = None
        if not is_inf(bound) and not is_inf(found):
            slack = ladder.sub(bound, found)
        parts = ", ".join(f"({ladder.text(e)}, {q_str(d)})" for e, d in zip(eps_i, deltas))
        text = f"PrivLoss = {format_privloss(found)}; {self.theorem} gives {format_privloss(bound)}"
        if slack is not None:
            text += f"; slack {ladder.text(slack)}" + (
                "" if ladder.cmp(slack, 0) == 0 else f" ≈ {ladder.decimal(slack)}"
            )
        note = f"components ({parts}) at delta {q_str(at)}"
        if self.theorem != "optimal":
            note += f"; theorem delta {q_str(tdelta)}"
        note += (
            "; "
            + _THEOREM_SOURCE[self.theorem if all(d == 0 for d in deltas) or self.theorem == "thm-1.8" else "approx"]
        )
        if is_inf(bound):
            note += "; the theorem gives no finite bound at this delta"
        values = {
            "privloss": ladder.text(found),
            "bound": ladder.text(bound),
            "slack": ladder.text(slack) if slack is not None else None,
            "components": [[ladder.text(e), q_str(d)] for e, d in zip(eps_i, deltas)],
            "delta": q_str(at),
        }
        return Verdict(self, HOLDS if ok else FAILS, text, note, None, values)
