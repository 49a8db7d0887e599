"""``simulates_rr`` and ``not_simulates_rr``: Theorem 1.10 and its approximate-DP analogue as
checkable claims.

``simulates_rr: {eps: e, delta: d}`` holds when, for every adjacent pair, an interactive
post-processor T with View(A, M(x_b)) ≡ View(A, T(RR(b))) exists *and* the constructed T passes
every exact check (validity, no dependence on future queries, the mixture identity on every
history, and — for small trees — the enumerator over every deterministic adversary).  It fails
with a checked counter-certificate (a history where e^ε·P_x(h) < P_x'(h), or a Farkas
certificate of the LP).  For symbolic mechanisms it holds only when every non-negativity
condition is *proved* under the declared bounds; otherwise the verdict is undecided and names
the conditions that remain (never assumed).  ``not_simulates_rr`` is the negation (it holds when
a certificate is found).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..certificates import NoCertificate, simulation_certificate
from ..forms.fields import Choice, Delta, Eps, FieldProblem, arg
from ..numbers import ladder
from ..numbers.ladder import SYM
from ..numbers.symbolic import SymbolTable, expr_str
from ..simulation.simulate import Simulation, outcome_of, simulate
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Shows, Verdict, claim

__all__ = ["SimulatesRRClaim", "NotSimulatesRRClaim", "VIAS"]


def _num(x: Any) -> str:
    """An ε, δ or e^ε of a statement: symbolic (a SymPy expression) or exact."""
    if ladder.domain_of(x) is SYM:  # a rational function of the symbols: factored
        return expr_str(x)
    return ladder.text(x)


VIAS = ("auto", "lp", "lemma56")


@claim("simulates_rr")
@dataclass(frozen=True, kw_only=True)
class SimulatesRRClaim(Claim):
    """Theorem 1.10 (Vadhan-Wang): an interactive post-processing of RR_eps (or RR_(eps,delta))
    equals M; with delta > 0 the exact LP of their Section 6."""

    hidden_fields = ("adversaries", "ordered")  # T simulates M against every adversary, on symmetric pairs

    eps: Any = arg(Eps(symbolic=True), default=None, doc="default: PrivLoss(M, delta)")
    delta: Any = arg(Delta(symbolic=True), default=None, doc="default 0 (pure)")
    via: str = arg(Choice(VIAS, "construction"), default="auto", doc="auto, lp or lemma56")
    symbols: SymbolTable = field(default_factory=SymbolTable, compare=False)
    negated: ClassVar[bool] = False
    shows = Shows(
        "eps", "the eps of the randomized response RR_eps (or RR_(eps,delta)) that is post-processed", also=("exp_eps",)
    )

    def validate(self) -> None:
        super().validate()
        if self.via == "lemma56" and self.delta is None:
            raise FieldProblem((), "via: lemma56 is the approximate-DP construction; give delta", "e.g. delta: 1/4")

    def statement(self) -> str:
        e = (
            f"PrivLoss({self.of}, {_num(self.delta) if self.delta is not None else 0})"
            if self.eps is None
            else _num(self.eps)
        )
        d = "" if self.delta is None else f", {_num(self.delta)}"
        rel = "does not simulate" if self.negated else "simulates"
        # Vadhan & Wang's Thm 1.10 is the pure case; with delta, an exact LP (their Section 6) or
        # Henzinger, Safavi & Vadhan 2024, Lemma 5.6
        source = "Thm 1.10" if self.delta is None else "approximate DP: "
        if self.delta is not None:
            source += (
                "Henzinger-Safavi-Vadhan 2024, Lemma 5.6" if self.via == "lemma56" else "Vadhan-Wang 2021, Section 6"
            )
        return f"{self.of} {rel} RR_({e}{d}) ({source})"

    def params(self) -> dict[str, str]:
        out = {} if self.eps is None else {"eps": _num(self.eps)}
        if self.delta is not None:
            out["delta"] = _num(self.delta)
        if self.via != "auto":
            out["via"] = self.via
        return out

    def run(self, an: Analysis) -> Simulation:
        """The checked construction, once per analysis (``check`` and ``certificate`` share it)."""
        key = ("simulate", self.subject, str(self.eps), str(self.delta), self.via, id(self.symbols))
        table = self.symbols if self.symbols else None
        return an.cached(
            key,
            lambda: simulate(an.mech(self.subject), eps=self.eps, delta=self.delta, table=table, construction=self.via),
        )

    def certificate(self, an: Analysis) -> dict | None:
        sim = self.run(an)
        if sim.symbolic:
            raise NoCertificate("the mechanism or eps is symbolic; certificates cover numeric mechanisms")
        return simulation_certificate(an, self.subject, self.eps is None, sim.E, sim.delta, sim, self.negated)

    def check(self, an: Analysis) -> Verdict:
        sim = self.run(an)
        out = outcome_of(sim)
        facts = {"eps": sim.eps, "exp_eps": sim.E, "simulation": out}
        if out.refuted:
            return Verdict(self, HOLDS if self.negated else FAILS, facts)
        if out.conditions:
            return Verdict(self, UNDECIDED, facts)
        return Verdict(self, FAILS if self.negated else HOLDS, facts)


@claim("not_simulates_rr")
@dataclass(frozen=True, kw_only=True)
class NotSimulatesRRClaim(SimulatesRRClaim):
    """No interactive post-processing of RR_eps (or RR_(eps,delta)) equals M; shows a checked certificate."""

    negated: ClassVar[bool] = True
