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

What each theorem *proves* for concurrent composition: basic (Thm 3.3) and optimal (Thm 5.7,
Lemma 5.5) for pure components only; Theorem 1.8 for any δᵢ.  A check of another combination
is an experiment about an open question (Vadhan–Wang §1.4, §6); the verdict says so in its note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..analysis import format_privloss
from ..builders.combinators import concomp
from ..numbers.rational import Q, q_str
from ..numbers.real import INF, Infinity, real_cmp, real_decimal, real_str, real_sub
from ..theorems import basic, components, improved_basic, optimal, thm_1_8
from .base import FAILS, HOLDS, UNSUPPORTED, Analysis, Claim, Verdict

__all__ = ["CompositionClaim", "COMPOSITION_THEOREMS"]

COMPOSITION_THEOREMS = ("basic", "improved-basic", "thm-1.8", "optimal")


@dataclass(frozen=True)
class CompositionClaim(Claim):
    """See the module docstring.  ``of`` is the tuple of component names."""

    theorem: str = "optimal"
    delta: Any = None
    eps: tuple | None = None
    deltas: tuple | None = None
    kind: ClassVar[str] = "composition"

    def describe(self) -> str:
        names = ", ".join(self.of)
        d = "" if self.delta is None else f", delta {q_str(self.delta)}"
        return f"ConComp({names}) within {self.theorem}{d}"

    def params(self) -> dict[str, str]:
        out = {"of": ", ".join(self.of), "theorem": self.theorem}
        if self.delta is not None:
            out["delta"] = q_str(self.delta)
        if self.eps is not None:
            out["eps"] = ", ".join(real_str(e) for e in self.eps)
        if self.deltas is not None:
            out["deltas"] = ", ".join(q_str(d) for d in self.deltas)
        return out

    def check(self, an: Analysis) -> Verdict:
        names = tuple(self.of)
        deltas = self.deltas or tuple(Q(0) for _ in names)
        eps_i = []
        for k, name in enumerate(names):
            prof = an.profile(name)
            if self.eps is not None:
                from ..analysis.results import value_cmp

                d = prof.delta_at(self.eps[k])
                if value_cmp(d, deltas[k]) > 0:
                    return Verdict(
                        self,
                        FAILS,
                        f"{name} is not ({real_str(self.eps[k])}, {q_str(deltas[k])})-DP",
                        f"its delta at that eps is {real_str(d) if not hasattr(d, 'cmp') else str(d)}",
                    )
                eps_i.append(self.eps[k])
            else:
                e = prof.privloss(deltas[k])
                if isinstance(e, Infinity):
                    return Verdict(self, UNSUPPORTED, f"PrivLoss({name}, {q_str(deltas[k])}) = inf", "no finite eps to compose")
                eps_i.append(e)
        comps = components(eps_i, list(deltas))
        mech = concomp({n: an.mech(n) for n in names}, name="ConComp(" + ", ".join(names) + ")")
        prof = an.engine.profile(mech)
        if self.theorem == "optimal":
            at = self.delta if self.delta is not None else Q(0)
            bound = optimal(comps, at).eps
            tdelta = at
        else:
            b = {"basic": basic, "improved-basic": improved_basic, "thm-1.8": thm_1_8}[self.theorem](comps)
            at = self.delta if self.delta is not None else b.delta
            tdelta = b.delta
            bound = b.eps if real_cmp(at, b.delta) >= 0 else INF
        found = prof.privloss(at)
        ok = real_cmp(found, bound) <= 0 if not isinstance(bound, Infinity) else True
        slack = None
        if not isinstance(bound, Infinity) and not isinstance(found, Infinity):
            slack = real_sub(bound, found)
        parts = ", ".join(f"({real_str(e)}, {q_str(d)})" for e, d in zip(eps_i, deltas))
        text = f"PrivLoss = {format_privloss(found)}; {self.theorem} gives {format_privloss(bound)}"
        if slack is not None:
            text += f"; slack {real_str(slack)}" + ("" if real_cmp(slack, 0) == 0 else f" ≈ {real_decimal(slack)}")
        note = f"components ({parts}) at delta {q_str(at)}"
        if self.theorem != "optimal":
            note += f"; theorem delta {q_str(tdelta)}"
        proven = self.theorem == "thm-1.8" or all(d == 0 for d in deltas)
        if not proven:
            note += "; NOTE: not a proven bound for concurrent composition of approximate-DP components (Vadhan-Wang open question)"
        if isinstance(bound, Infinity):
            note += "; the theorem gives no finite bound at this delta"
        values = {
            "privloss": real_str(found),
            "bound": real_str(bound),
            "slack": real_str(slack) if slack is not None else None,
            "components": [[real_str(e), q_str(d)] for e, d in zip(eps_i, deltas)],
            "delta": q_str(at),
        }
        return Verdict(self, HOLDS if ok else FAILS, text, note, None, values)
