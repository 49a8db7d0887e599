"""Rényi-DP claims: the exact Rényi divergence of an interactive mechanism (the concurrent
composition theorem for it is ``composition: {theorem: renyi}``, :mod:`exactdp.claims.composition`).

.. code-block:: yaml

    claims:
      - renyi: {alpha: 2, equals: log(7/3)}            # D_2(M) (Mironov 2017, Def. 3)
      - renyi: {alpha: 3, at_most: log(61/9)/2}
      - renyi: {alpha: 3, exceeds: log(3)/2}           # refutes (3, log(3)/2)-RDP
      - composition: {components: [A, B], theorem: renyi, alpha: 2}   # Lyu 2022

Every value is exact (:mod:`exactdp.analysis.renyi`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import certificates as _cert
from ..analysis.renyi import RenyiResult, alpha_str
from ..forms.fields import Divergence, FieldProblem, Order, arg
from ..numbers import ladder
from ..numbers.symbolic import expr_str, is_sym
from .base import FAILS, HOLDS, Analysis, Claim, Shows, Verdict, claim

__all__ = ["RenyiClaim"]


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
    shows = Shows("renyi", "D_alpha(M), the Renyi divergence of order alpha")

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
        res = an.renyi(self.subject, self.alpha)
        return _cert.renyi_certificate(an, self.subject, self.alpha, key, target, self._holds(res), res)

    def check(self, an: Analysis) -> Verdict:
        res = an.renyi(self.subject, self.alpha)
        facts: dict[str, object] = {"renyi": res.value, "alpha": self.alpha}
        worst = res.worst_pair()
        if worst is not None:
            facts["pair"] = tuple(worst.pair)
            facts["sum" if self.alpha != 1 else "kl"] = worst.total
        return Verdict(self, HOLDS if self._holds(res) else FAILS, facts)
