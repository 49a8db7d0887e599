"""Rényi-DP claims: the exact Rényi divergence of an interactive mechanism, and the concurrent
composition theorem for it.

.. code-block:: yaml

    claims:
      - renyi: {alpha: 2, equals: log(7/3)}            # D_2(M) (Mironov 2017, Def. 3)
      - renyi: {alpha: 3, at_most: log(61/9)/2}
      - renyi: {alpha: 3, exceeds: log(3)/2}           # refutes (3, log(3)/2)-RDP
      - composition: {of: [A, B], theorem: renyi, alpha: 2}   # Lyu 2022

Every value is exact (:mod:`exactdp.analysis.renyi`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .. import certificates as _cert
from ..analysis.renyi import RenyiResult, alpha_str
from ..forms.fields import Divergence, FieldProblem, Order, arg
from ..numbers import INF, ladder
from ..numbers.ladder import is_inf
from ..numbers.symbolic import expr_str, is_sym
from .base import FAILS, HOLDS, Analysis, Claim, Subject, Verdict, claim

__all__ = ["RenyiClaim", "RenyiCompositionClaim", "approx_text"]


def approx_text(v: object) -> str:
    """``log(7/3) ≈ 0.847298`` / ``0`` / ``inf``."""
    if is_inf(v) or ladder.cmp(v, 0) == 0:
        return ladder.text(v)
    return f"{ladder.text(v)} ≈ {ladder.decimal(v)}"


def _renyi(an: Analysis, subject: Subject, alpha: object) -> RenyiResult:
    return an.cached(("renyi", subject, ladder.text(alpha)), lambda: an.engine.renyi(an.mech(subject), alpha))


@claim("renyi")
@dataclass(frozen=True, kw_only=True)
class RenyiClaim(Claim):
    """D_alpha(M), the Renyi divergence of order alpha of the views, sup over ordered adjacent
    pairs and adaptive adversaries (Mironov 2017, Def. 3-4), equals (is at most, exceeds) the
    value; `exceeds` refutes the claim that M is (alpha, X)-RDP."""

    alpha: Any = arg(Order(), doc="a whole number >= 1 (1 is KL) or inf")
    equals: Any = arg(Divergence(symbolic=True), default=None, doc="log(r)/k, a rational, or inf")
    at_most: Any = arg(Divergence(symbolic=True), default=None, doc="log(r)/k, a rational, or inf")
    exceeds: Any = arg(Divergence(symbolic=True), default=None, doc="log(r)/k, a rational, or inf")

    def validate(self) -> None:
        super().validate()
        if sum(v is not None for v in (self.equals, self.at_most, self.exceeds)) != 1:
            raise FieldProblem((), "renyi needs exactly one of `equals:`, `at_most:` or `exceeds:`")

    def _rel(self) -> tuple[str, str, object]:
        for key, rel in (("equals", "="), ("at_most", "<="), ("exceeds", ">")):
            if getattr(self, key) is not None:
                return key, rel, getattr(self, key)
        raise ValueError("a renyi claim needs equals, at_most or exceeds")

    def statement(self) -> str:
        _, rel, val = self._rel()
        shown = expr_str(val) if is_sym(val) else ladder.text(val)
        return f"D_{ladder.short(self.alpha)}({self.of}) {rel} {shown}"

    def params(self) -> dict[str, str]:
        key, _, val = self._rel()
        return {"alpha": alpha_str(self.alpha), key: expr_str(val) if is_sym(val) else ladder.text(val)}

    def _holds(self, res: RenyiResult) -> bool:
        key, _, target = self._rel()
        c = ladder.cmp(res.value, target)
        return {"equals": c == 0, "at_most": c <= 0, "exceeds": c > 0}[key]

    def certificate(self, an: Analysis) -> dict | None:
        """The game and the claim; the checker recomputes the Renyi sum (α ≥ 2 or ∞)."""
        key, _, target = self._rel()
        res = _renyi(an, self.subject, self.alpha)
        return _cert.renyi_certificate(an, self.subject, self.alpha, key, target, self._holds(res), res)

    def check(self, an: Analysis) -> Verdict:
        res = _renyi(an, self.subject, self.alpha)
        ok = self._holds(res)
        values: dict[str, object] = {
            "alpha": alpha_str(self.alpha),
            "renyi": ladder.text(res.value),
            "decimal": ladder.decimal(res.value),
        }
        worst = res.worst_pair()
        note = ""
        if worst is not None:
            values["pair"] = list(worst.pair)
            values["sum" if self.alpha != 1 else "kl"] = ladder.text(worst.total)
            what = "sup of sum P^alpha P'^(1-alpha)" if self.alpha != 1 else "sup of KL"
            note = f"worst pair ({worst.pair[0]}, {worst.pair[1]}): {what} = {ladder.text(worst.total)}"
        return Verdict(self, HOLDS if ok else FAILS, approx_text(res.value), note, None, values)


@dataclass(frozen=True, kw_only=True)
class RenyiCompositionClaim(Claim):
    """``composition: {of: [A, B, ...], theorem: renyi, alpha: a}``: D_α(ConComp(A, B, ...)) ≤
    Σ D_α(components), a theorem for concurrent composition of interactive mechanisms (Lyu,
    *Composition Theorems for Interactive Differential Privacy*, NeurIPS 2022; also Vadhan &
    Zhang, STOC 2023).  ``of`` is the tuple of component names."""

    alpha: Any = 2
    kind: ClassVar[str] = "composition"

    def statement(self) -> str:
        return f"D_{ladder.short(self.alpha)}(ConComp({', '.join(self.of)})) within renyi"

    def params(self) -> dict[str, str]:
        return {"of": ", ".join(self.of), "theorem": "renyi", "alpha": alpha_str(self.alpha)}

    def check(self, an: Analysis) -> Verdict:
        parts = [_renyi(an, n, self.alpha).value for n in self.of]
        bound: object = INF if any(is_inf(p) for p in parts) else parts[0]
        if not is_inf(bound):
            for p in parts[1:]:
                bound = ladder.add(bound, p)
        found = an.engine.renyi(an.concomp(tuple(self.of)), self.alpha).value
        ok = ladder.cmp(found, bound) <= 0
        slack = None if is_inf(bound) or is_inf(found) else ladder.sub(bound, found)
        text = f"D_{ladder.short(self.alpha)} = {approx_text(found)}; renyi gives {approx_text(bound)}"
        if slack is not None:
            text += f"; slack {approx_text(slack)}"
        values = {
            "renyi": ladder.text(found),
            "bound": ladder.text(bound),
            "slack": ladder.text(slack) if slack is not None else None,
            "components": [ladder.text(p) for p in parts],
            "alpha": alpha_str(self.alpha),
        }
        note = "a theorem for concurrent composition (Lyu 2022; Vadhan-Zhang 2023)"
        return Verdict(self, HOLDS if ok else FAILS, text, note, None, values)
