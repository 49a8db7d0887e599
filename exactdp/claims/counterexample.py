r"""``counterexample``: a claim about every value of the symbols is false, and here is a value.

A claim with symbols holds iff it holds for every value the declared bounds allow
(:mod:`exactdp.claims.parametric`).  Its negation is existential, and its proof is a value:

.. code-block:: yaml

    - counterexample:
        claim: {dp: {eps: log(2), delta: 1/10}}   # "for every E > 1": false
        at: {E: 2}                                 # delta(2) = 2/9 > 1/10 there

holds when the numeric engine, on the mechanism with the symbols given those values, finds the
claim false there (its verdict and witness are reported), and the parametric verdict of the
claim over the whole domain is *fails* as well (a disagreement is a bug).  A case records a
false companion of a theorem this way, with the value that refutes it, and stays green.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import VerificationError
from ..forms.fields import ClaimSpec, FieldProblem, MapOf, Rational, arg
from ..lazy import flint
from ..numbers.rational import q_str
from ..numbers.symbolic import SymbolTable
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Shows, Verdict, claim
from .parametric import _point_text, check_claim, verdict_at

__all__ = ["CounterexampleClaim"]


@claim("counterexample")
@dataclass(frozen=True, kw_only=True)
class CounterexampleClaim(Claim):
    """The claim (about every value of the symbols) is false: it fails at the given values of
    the symbols, where the numeric engine shows why (its verdict and witness)."""

    # (the pairs and adversaries are the target's: written here they would scope nothing)
    hidden_fields = ("group", "pairs", "ordered", "adversaries")
    moved_fields = {
        k: f"write it inside `claim:`, whose claim it scopes (e.g. `claim: {{dp: {{..., {k}: ...}}}}`)"
        for k in hidden_fields
    }
    target: Any = arg(ClaimSpec(), key="claim", doc="the false claim, e.g. {dp: {eps: log(2), delta: 1/10}}")
    at: dict = arg(MapOf(Rational("a value of a symbol"), min_len=1, what="`at:`"), doc="{symbol: value}, e.g. {E: 2}")
    symbols: SymbolTable = field(default_factory=SymbolTable, compare=False)
    shows = Shows("value_there", "the target claim's value at the point (its verdict there is the fact `there`)")

    def validate(self) -> None:
        super().validate()
        self.validate_target(self.target, "claim")
        declared = {b.name: b for b in self.symbols.bounds} if self.symbols else {}
        for name, value in self.at.items():
            b = declared.get(name)
            if b is None:
                raise FieldProblem(("at", name), f"{name!r} is not a declared symbol", "declare it under `symbols:`")
            if not b.contains(value):
                raise FieldProblem(("at", name), f"{name} = {q_str(value)} is outside its bounds ({b.describe()})")
        missing = [n for n in declared if n not in self.at]
        if missing:
            raise FieldProblem("at", f"give a value for every symbol: {', '.join(missing)} missing")

    def statement(self) -> str:
        return f"{self.target.describe()} fails at {self._point_text()}"

    def _point_text(self) -> str:
        return ", ".join(f"{k} = {q_str(v)}" for k, v in self.at.items())

    def params(self) -> dict[str, str]:
        return {"claim": self.target.describe(), "at": self._point_text()}

    def check(self, an: Analysis) -> Verdict:
        pt = {k: flint.fmpq(int(v.numerator), int(v.denominator)) for k, v in self.at.items()}
        there = verdict_at(self.target, an, pt)
        facts: dict[str, Any] = {"at": dict(self.at), "there": there, "value_there": there.value}
        if there.status != FAILS:
            return Verdict(self, FAILS if there.status == HOLDS else UNDECIDED, facts)
        whole = check_claim(self.target, an)
        if whole.status == HOLDS:
            raise VerificationError(
                f"{self.target.describe()}: the numeric engine refutes it at {_point_text(pt)}, "
                "the parametric engine says it holds for every value"
            )
        facts["for_every_value"] = whole.status
        return Verdict(self, HOLDS, facts, there.witness)
