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
from ..numbers.rational import q_str
from ..numbers.symbolic import SymbolTable, expr_str
from ..simulation.approx import ApproxCertificate
from ..simulation.common import RationalField, history_text
from ..simulation.pure import PureCertificate
from ..simulation.simulate import Simulation, simulate
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Verdict, claim

__all__ = ["SimulatesRRClaim", "NotSimulatesRRClaim", "simulation_details", "simulation_values", "VIAS"]


def _text(x: Any) -> str:
    try:
        return q_str(x)
    except Exception:
        return str(x)


def _num(x: Any) -> str:
    if ladder.domain_of(x) is SYM:  # a rational function of the symbols: factored
        return expr_str(x)
    return ladder.text(x)


def simulation_details(sim: Simulation, *, limit: int = 8) -> list[str]:
    """Report lines: per pair, what was checked, or the certificate; then notes and conditions."""
    out = []
    for pr in sim.pairs:
        a, b = pr.pair_names
        if pr.T is not None:
            c = pr.check
            line = (
                f"({a}, {b}): T checked exactly: {_n(c.n_rounds, 'round')} x {len(pr.T.outputs)} RR outputs, each conditional >= 0 "
                f"and summing to 1, path measures consistent (no future dependence), mixture identity on {c.n_histories} histories"
            )
            if pr.enumerator == "ok":
                line += f"; enumerator: {_n(pr.adversaries, 'deterministic adversary', 'deterministic adversaries')}, identical views"
            elif pr.enumerator.startswith("skipped"):
                line += f"; enumerator {pr.enumerator}"
            out.append(line)
            if pr.spot_check:
                out.append(f"  numeric spot check {pr.spot_check}")
            for n in pr.T.notes:
                out.append(f"  {n}")
        elif isinstance(pr.certificate, PureCertificate):
            out.append("  " + pr.certificate.describe(RationalField()) + " (re-checked by an independent forward walk)")
        elif isinstance(pr.certificate, ApproxCertificate):
            cert = pr.certificate
            out.append("  " + cert.describe())
            nz = cert.nonzero()
            for label, y in nz[:limit]:
                out.append(f"    multiplier {q_str(y)} on {cert.label_text(label)}")
            if len(nz) > limit:
                out.append(f"    ... ({len(nz) - limit} more)")
        elif pr.certificate is None:
            out.append(f"({a}, {b}): PrivLoss is infinite but no single history shows it")
    for n in sim.notes:
        out.append(n)
    conds = sim.conditions
    if conds:
        out.append("conditions that could not be proved under the declared bounds (T is valid exactly when they hold):")
        for who, where, ans, cond in conds[:limit]:
            out.append(f"  {cond}" + (f"   [{who} at {where}{', answer ' + str(ans) if ans else ''}]" if where else ""))
        if len(conds) > limit:
            out.append(f"  ... ({len(conds) - limit} more)")
    return out


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def _label(label: Any) -> str:
    if isinstance(label, tuple) and label and label[0] == "round":
        return f"consistency of T({label[1]}) at round #{label[2]}"
    if isinstance(label, tuple) and len(label) == 2:
        return f"{label[0]} at answer history #{label[1]}"
    return str(label)


def simulation_values(sim: Simulation) -> dict:
    pairs = []
    for pr in sim.pairs:
        d: dict[str, Any] = {"pair": list(pr.pair_names), "exists": pr.exists}
        if pr.T is not None:
            d["rounds"] = pr.check.n_rounds
            d["histories"] = pr.check.n_histories
            d["enumerator"] = pr.enumerator
            d["adversaries"] = pr.adversaries
        if isinstance(pr.certificate, PureCertificate):
            c = pr.certificate
            d["certificate"] = {
                "kind": "history",
                "history": history_text(c.path),
                "x": c.x,
                "x_prime": c.x_prime,
                "p_x": _text(c.p_x),
                "p_x_prime": _text(c.p_x_prime),
                "exp_eps": _text(c.E),
                "point": c.point,
            }
        elif isinstance(pr.certificate, ApproxCertificate):
            d["certificate"] = {
                "kind": "farkas",
                "multipliers": [[pr.certificate.label_text(l), q_str(y)] for l, y in pr.certificate.nonzero()],
                "point": pr.certificate.point,
            }
        pairs.append(d)
    return {
        "eps": sim.eps_text,
        "exp_eps": _num(sim.E),
        "delta": _num(sim.delta),
        "construction": sim.construction,
        "pairs": pairs,
        "conditions": [c[3] for c in sim.conditions],
    }


VIAS = ("auto", "lp", "lemma56")


@claim("simulates_rr")
@dataclass(frozen=True, kw_only=True)
class SimulatesRRClaim(Claim):
    """Theorem 1.10 (Vadhan-Wang): an interactive post-processing of RR_eps (or RR_(eps,delta))
    equals M; with delta > 0 the exact LP of their Section 6."""

    eps: Any = arg(Eps(symbolic=True), default=None, doc="default: PrivLoss(M, delta)")
    delta: Any = arg(Delta(symbolic=True), default=None, doc="default 0 (pure)")
    via: str = arg(Choice(VIAS, "construction"), default="auto", doc="auto, lp or lemma56")
    symbols: SymbolTable = field(default_factory=SymbolTable, compare=False)
    negated: ClassVar[bool] = False

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
        return f"{self.of} {rel} RR_({e}{d}) (Thm 1.10)"

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
        details = tuple(simulation_details(sim))
        values = simulation_values(sim)
        n = len(sim.pairs)
        if sim.refuted:
            found = f"no T for {sum(not p.exists for p in sim.pairs)} of {_n(n, 'pair')}"
            status = HOLDS if self.negated else FAILS
        elif sim.conditions:
            found = f"T exists for {_n(n, 'pair')} provided {_n(len(sim.conditions), 'condition')} hold"
            return Verdict(self, UNDECIDED, found, "undecided: see the conditions below", None, values, details)
        else:
            found = f"T exists for {_n(n, 'pair')}, checked exactly (e^eps = {_num(sim.E)})"
            status = FAILS if self.negated else HOLDS
        return Verdict(self, status, found, "", None, values, details)


@claim("not_simulates_rr")
@dataclass(frozen=True, kw_only=True)
class NotSimulatesRRClaim(SimulatesRRClaim):
    """No interactive post-processing of RR_eps (or RR_(eps,delta)) equals M; shows a checked certificate."""

    negated: ClassVar[bool] = True
