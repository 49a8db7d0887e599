r"""Decide, build and check the post-processor T for every adjacent pair of a mechanism.

:func:`simulate` is what the ``simulates_rr`` claim and ``exactdp simulate`` run: for each
adjacent pair it builds T (Theorem 1.10 for δ = 0, the exact LP for δ > 0, or Lemma 5.6),
checks it (:func:`~exactdp.simulation.common.verify_postprocessor`, and the enumerator over
every deterministic adversary when the tree is small), or checks the certificate that no T
exists.  For numeric mechanisms the answer is also cross-checked against the profile engine:
T exists iff the pair is (ε, δ)-DP (post-processing one way; Theorem 1.10 / Lyu 2022 /
Vadhan–Zhang 2023 the other), and a disagreement is reported as a bug.

References
----------
Vadhan & Wang (TCC 2021), Thm 1.10 / 5.4, Def. 5.1, Section 6.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..analysis import profile as engine
from ..errors import InexactValueError, UnsupportedMechanismError, VerificationError
from ..model.checks import takes_mechanism
from ..model.game import Mechanism
from ..model.symbolic import is_symbolic_mechanism, substitute_mechanism
from ..numbers import INF, ladder
from ..numbers.ladder import OO, QQ, SYM, is_inf
from ..numbers.rational import Q, as_q, q_str
from ..numbers.symbolic import (
    substitute,
    sympy,  # start-up: SymPy loads on first use (symbolic cases only)
)
from ..numbers.types import Delta, Eps
from .approx import ApproxCertificate, approx_postprocessor
from .common import (
    CheckResult,
    PostProcessor,
    RationalField,
    enumerator_check,
    expand,
    field_for,
    verify_postprocessor,
)
from .lemma56 import lemma56_postprocessor
from .lp import check_farkas
from .pure import PureCertificate, check_pure_certificate, pure_postprocessor

__all__ = [
    "PairResult",
    "Simulation",
    "PairOutcome",
    "FarkasSummary",
    "SimulationOutcome",
    "outcome_of",
    "simulate",
    "exp_of_eps",
    "DEFAULT_ENUMERATOR_LIMIT",
]

DEFAULT_ENUMERATOR_LIMIT = 5_000


@dataclass
class PairResult:
    """The outcome for one adjacent pair: a checked T, or a checked certificate."""

    pair: tuple[int, int]
    pair_names: tuple[str, str]
    T: PostProcessor | None = None
    certificate: Any = None
    check: CheckResult | None = None
    enumerator: str = "not run"
    adversaries: int = 0
    spot_check: str = ""

    @property
    def exists(self) -> bool:
        return self.T is not None


@dataclass
class Simulation:
    mechanism: str
    eps: Any
    eps_text: str
    E: Any
    delta: Any
    eps_is_default: bool
    construction: str
    pairs: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    symbolic: bool = False

    @property
    def exists(self) -> bool:
        return all(p.exists for p in self.pairs)

    @property
    def refuted(self) -> bool:
        return any(p.certificate is not None for p in self.pairs)

    @property
    def exit_code(self) -> int:
        """0 when T exists for every pair, 1 when some pair has none, 2 when non-negativity could
        only be reduced to conditions (:attr:`conditions`) that the declared bounds do not prove."""
        return 1 if not self.exists else 2 if self.conditions else 0

    @property
    def conditions(self) -> list:
        out = []
        for p in self.pairs:
            if p.T is not None:
                for c in p.T.conditions + (p.check.conditions if p.check else []):
                    if c not in out:
                        out.append(c)
        return out


@dataclass(frozen=True)
class FarkasSummary:
    """An LP's Farkas certificate as reports show it: the pair, the symbol values where it
    applies, and every nonzero multiplier with the history (or round) its constraint is about."""

    pair_names: tuple[str, str]
    nonzero: tuple[tuple[str, Any], ...]
    point: dict | None = None


@dataclass(frozen=True)
class PairOutcome:
    """What was found for one adjacent pair, without T's tables: the checks T passed, or the
    certificate that no T exists (``certificate``: a :class:`PureCertificate`, a
    :class:`FarkasSummary`, or None when PrivLoss is infinite but no single history shows it)."""

    pair_names: tuple[str, str]
    exists: bool
    rounds: int = 0
    outputs: int = 0
    histories: int = 0
    enumerator: str = "not run"
    adversaries: int = 0
    spot_check: str = ""
    notes: tuple[str, ...] = ()
    certificate: PureCertificate | FarkasSummary | None = None


@dataclass(frozen=True)
class SimulationOutcome:
    """A :class:`Simulation` summarised for verdicts and reports (small and picklable: a
    verdict travels from worker processes)."""

    eps: Any
    eps_text: str
    E: Any
    delta: Any
    construction: str
    pairs: tuple[PairOutcome, ...]
    notes: tuple[str, ...]
    conditions: tuple[tuple, ...]

    @property
    def refuted(self) -> bool:
        return any(p.certificate is not None for p in self.pairs)


def outcome_of(sim: Simulation) -> SimulationOutcome:
    """The summary of ``sim`` (see :class:`SimulationOutcome`)."""
    pairs = []
    for pr in sim.pairs:
        cert: PureCertificate | FarkasSummary | None = pr.certificate
        if isinstance(pr.certificate, ApproxCertificate):
            c = pr.certificate
            cert = FarkasSummary(c.pair_names, tuple((c.label_text(lab), y) for lab, y in c.nonzero()), c.point)
        pairs.append(
            PairOutcome(
                pr.pair_names,
                pr.exists,
                rounds=pr.check.n_rounds if pr.check is not None else 0,
                outputs=len(pr.T.outputs) if pr.T is not None else 0,
                histories=pr.check.n_histories if pr.check is not None else 0,
                enumerator=pr.enumerator,
                adversaries=pr.adversaries,
                spot_check=pr.spot_check,
                notes=tuple(pr.T.notes) if pr.T is not None else (),
                certificate=cert,
            )
        )
    return SimulationOutcome(
        sim.eps, sim.eps_text, sim.E, sim.delta, sim.construction, tuple(pairs), tuple(sim.notes), tuple(sim.conditions)
    )


def exp_of_eps(eps: Any):
    """e^ε exactly: rational for ε = log(r); a rational function for a symbolic ε = log(E);
    refused (InexactValueError) when e^ε is transcendental."""
    if _symbolic(eps):
        return sympy.cancel(ladder.exp(eps))
    lam = ladder.exp(eps)
    if ladder.domain_of(lam) not in (QQ, OO):
        raise InexactValueError(
            f"eps = {ladder.short(eps)} makes e^eps = {ladder.short(lam)} transcendental; the post-processor's "
            "probabilities would not be exact. Write eps as log(r), e.g. eps: log(11/10)"
        )
    return lam


def _symbolic(x: Any) -> bool:
    return x is not None and ladder.domain_of(x) is SYM


@takes_mechanism
def simulate(
    mech: Mechanism,
    *,
    eps: Eps | None = None,
    delta: Delta | None = None,
    table: Any = None,
    construction: str = "auto",
    max_histories: int | None = None,
    enumerator_limit: int = DEFAULT_ENUMERATOR_LIMIT,
    cross_check: bool = True,
) -> Simulation:
    """Build and check T for every adjacent pair of ``mech`` (see the module docstring).

    Parameters
    ----------
    eps : exact ε, optional (default PrivLoss(M, δ) from the profile engine)
    delta : exact δ, optional (default 0: Theorem 1.10 with RR_ε)
    table : SymbolTable, for symbolic mechanisms or parameters
    construction : "auto" (Thm 1.10 for δ = 0, the LP otherwise), "lp" or "lemma56"
    """
    symbolic = is_symbolic_mechanism(mech) or _symbolic(eps) or _symbolic(delta)
    if symbolic and table is None:
        raise UnsupportedMechanismError(
            "a symbolic mechanism needs its symbol table (declare the symbols under `symbols:`)"
        )
    d = Q(0) if delta is None else delta
    notes = []
    default = eps is None
    if default:
        if symbolic:
            raise UnsupportedMechanismError(
                f"{mech.name} is symbolic, so PrivLoss({mech.name}, {q_str(d)}) cannot be computed by the engines; "
                'give an eps (`eps: log(E)` in a simulates_rr claim, `--eps "log(E)"` on the command line, '
                "eps=... in Python)"
            )

        eps = engine.profile(mech).privloss(as_q(d))
        notes.append(f"eps = PrivLoss({mech.name}, {q_str(d)}) = {ladder.text(eps)} (profile engine)")
    E = exp_of_eps(eps)
    eps_text = ladder.text(eps)
    if construction == "auto":
        construction = "pure" if (not _symbolic(d) and d == 0) else "lp"
    sim = Simulation(mech.name, eps, eps_text, E, d, default, construction, notes=notes, symbolic=symbolic)
    for pair in mech.unordered_pairs:
        sim.pairs.append(
            _one_pair(mech, pair, E, d, eps_text, table, construction, max_histories, enumerator_limit, symbolic)
        )
    if cross_check and not symbolic and not is_inf(E):
        _cross_check(mech, sim)
    return sim


def _one_pair(mech, pair, E, d, eps_text, table, construction, max_histories, enumerator_limit, symbolic) -> PairResult:
    names = mech.pair_names(pair)
    res = PairResult(pair, names)
    if is_inf(E):
        res.certificate = _infinite_certificate(mech, pair, max_histories)
        return res
    out: Any
    if construction == "pure":
        out = pure_postprocessor(mech, pair, E, eps_text=eps_text, table=table, max_histories=max_histories)
    elif construction == "lemma56":
        out = lemma56_postprocessor(mech, pair, E, d, eps_text=eps_text, max_histories=max_histories)
    else:
        out = approx_postprocessor(mech, pair, E, d, eps_text=eps_text, table=table, max_histories=max_histories)
    if isinstance(out, PostProcessor):
        res.T = out
        if symbolic:
            res.check = verify_postprocessor(out, fld=field_for(mech, table, checking=True))
            res.spot_check = _spot_check(mech, out, table, enumerator_limit)
        else:
            res.check = verify_postprocessor(out)
            res.enumerator, res.adversaries = enumerator_check(out, max_strategies=enumerator_limit)
        if not res.check.ok:
            raise VerificationError(
                f"the constructed T for {names} fails its exact check: " + "; ".join(res.check.problems[:3])
            )
        return res
    res.certificate = out
    if isinstance(out, PureCertificate):
        if out.point is None:
            check_pure_certificate(mech, out, out_field(mech, table))
        else:
            _check_point_certificate(mech, out, table)
    elif isinstance(out, ApproxCertificate):
        bad = check_farkas(out.system, out.multipliers)
        if bad:
            raise VerificationError("the Farkas certificate does not re-check: " + "; ".join(bad[:3]))
    return res


def out_field(mech, table):
    return field_for(mech, table)


def _check_point_certificate(mech, cert: PureCertificate, table) -> None:

    assert cert.point is not None
    point = {s: sympy_rational(v) for s, v in zip(table.sample_point().keys(), cert.point.values())}
    num = substitute_mechanism(mech, point)
    check_pure_certificate(num, cert, RationalField())


def sympy_rational(text: str):
    n, _, dd = text.partition("/")
    return sympy.Rational(int(n), int(dd or 1))


def _spot_check(mech, pp: PostProcessor, table, limit: int) -> str:
    """Give the symbols their sample values: the numeric T must pass every check, including
    the enumerator.  (Evidence, not proof: the proof is the symbolic identity.)"""

    point = table.sample_point()
    num = substitute_mechanism(mech, point)
    fld = pp.hist.fld

    hist = expand(num)
    try:
        cond = [[tuple(substitute(fld.to_sympy(v), point) for v in row) for row in rows] for rows in pp.cond]
        weights = tuple(tuple(substitute(fld.to_sympy(v), point) for v in row) for row in pp.weights)
    except (InexactValueError, ZeroDivisionError, TypeError):
        return "skipped (T is undefined at the sample point)"
    npp = PostProcessor(pp.kind, pp.pair, pp.pair_names, pp.outputs, weights, cond, set(), hist)
    res = verify_postprocessor(npp)
    where = ", ".join(f"{k} = {v}" for k, v in point.items())
    if not res.ok:
        return f"FAILED at {where}: " + "; ".join(res.problems[:2])
    status, n = enumerator_check(npp)
    return f"at {where}: exact checks pass" + (
        f", enumerator: {n} adversar{'y' if n == 1 else 'ies'}" if status == "ok" else ""
    )


def _infinite_certificate(mech, pair, max_histories):
    """PrivLoss = inf: a history one dataset reaches and the other never does."""

    hist = expand(mech, max_histories=max_histories)
    i, j = pair
    for h in hist.bfs():
        H = hist.hists[h]
        for x, xp in ((j, i), (i, j)):
            if H.P[x] == 0 and H.P[xp] > 0:
                return PureCertificate(
                    mech.pair_names(pair), mech.datasets[x], mech.datasets[xp], H.path, H.P[x], H.P[xp], INF
                )
    return None


def _cross_check(mech: Mechanism, sim: Simulation) -> None:
    """T exists iff the pair is (ε, δ)-DP (exact profile engine); otherwise a bug."""

    prof = engine.profile(mech)
    by_names = {pp.pair: pp.hull for pp in prof.pairs}
    for pr in sim.pairs:
        a, b = pr.pair_names
        worst = max(by_names[(a, b)].value_at(sim.E), by_names[(b, a)].value_at(sim.E))
        dp = worst <= sim.delta
        if dp != pr.exists and sim.construction == "lemma56" and dp:
            raise VerificationError(
                f"for ({a}, {b}) at e^eps = {q_str(sim.E)}, delta = {q_str(sim.delta)}: M is (eps, delta)-DP but the "
                "Lemma 5.6 LP (leak part with the conditions (I)-(IV) of Section 8, as exactdp reads them) is infeasible; "
                "the LP without (IV) (via: lp) decides existence"
            )
        if dp != pr.exists:
            raise VerificationError(
                f"for ({a}, {b}) at e^eps = {q_str(sim.E)}, delta = {q_str(sim.delta)}: the profile engine says "
                f"{'' if dp else 'not '}DP but a post-processor {'was not' if dp else 'was'} found"
            )
    sim.notes.append("cross-checked: T exists exactly for the pairs the profile engine finds (eps, delta)-DP")
