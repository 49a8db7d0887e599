r"""Approximate DP: does an interactive T with T(RR_(ε,δ)(b)) ≡ M(x_b) exist?  An exact LP.

RR_(ε,δ) (Vadhan–Wang Def. 5.1) outputs I0, 0, 1, I1 with Pr[RR(0) = I0] = δ,
Pr[RR(0) = 0] = α = (1−δ)E/(1+E), Pr[RR(0) = 1] = β = (1−δ)/(1+E), Pr[RR(0) = I1] = 0, mirrored for
b = 1.  Section 6 of the paper writes the feasibility problem for 2-round 1-bit mechanisms; here
it is generalised to any finite game tree.  The unknowns are T's path measures τ_c(h) for each RR
output c and answer history h, with the constraints

* consistency — for every round (h, q): Σ_a τ_c(h·q·a) = τ_c(h), τ_c(∅) = 1 (T is an interactive
  mechanism whose answers never depend on future queries);
* the mixture identities — δ τ_I0 + α τ_0 + β τ_1 = P_x0 and β τ_0 + α τ_1 + δ τ_I1 = P_x1 path by path;
* τ ≥ 0.

For δ > 0 the identities define τ_I0 and τ_I1 from τ_0, τ_1 (and they are then consistent
automatically), so the LP keeps τ_0, τ_1 with α τ_0 + β τ_1 ≤ P_x0 and β τ_0 + α τ_1 ≤ P_x1 on
the leaves.  It is solved exactly (:mod:`exactdp.simulation.lp`); a feasible T is checked by
substitution and by :func:`~exactdp.simulation.common.verify_postprocessor`, infeasibility by
its Farkas certificate.  Lyu (2022) and Vadhan–Zhang (2023) proved T exists iff M is (ε,δ)-DP.

For symbolic mechanisms or parameters the LP is solved at a sample point of the symbols; the
optimal basis is then solved in rational functions, and its non-negativity is proved under the
declared bounds or reported as the conditions that remain.

References
----------
Vadhan & Wang (TCC 2021), Def. 5.1 and Section 6; Lyu, "Composition of differential privacy &
privacy amplification by subsampling via Lemma 2.16" (2022); Vadhan & Zhang, "Concurrent
composition theorems for differential privacy" (STOC 2023).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UnsupportedMechanismError, VerificationError
from ..model.game import Mechanism
from ..model.symbolic import substitute_mechanism
from ..numbers.rational import Q
from ..numbers.symbolic import (
    substitute,
    sympy,  # start-up: SymPy loads on first use (symbolic cases only)
)
from .common import (
    Histories,
    PostProcessor,
    conditionals_from_paths,
    expand,
    field_for,
    history_text,
)
from .lp import Infeasible, LinearSystem, certified, check_farkas
from .pure import PureCertificate, pure_postprocessor

__all__ = ["ApproxCertificate", "rr_delta_weights", "approx_system", "approx_postprocessor"]

OUTPUTS = ("I0", "0", "1", "I1")


@dataclass
class ApproxCertificate:
    """No T exists: Farkas multipliers for the LP, checked exactly (``rows`` names each
    constraint with a nonzero multiplier)."""

    pair_names: tuple[str, str]
    system: LinearSystem
    multipliers: list
    point: dict | None = None
    hist: Histories | None = None

    def label_text(self, label) -> str:
        return history_of(self.hist, label) if self.hist is not None else str(label)

    def nonzero(self) -> list:
        return [(row[3], y) for y, row in zip(self.multipliers, self.system.rows) if y != 0]

    def describe(self, fld=None) -> str:
        at = ""
        if self.point:
            at = " at " + ", ".join(f"{k} = {v}" for k, v in self.point.items())
        return (
            f"no T exists for ({self.pair_names[0]}, {self.pair_names[1]}){at}: the LP is infeasible; "
            f"Farkas certificate with {len(self.nonzero())} nonzero multipliers (checked exactly)"
        )


def rr_delta_weights(E, delta, fld) -> tuple:
    """Pr[RR_(ε,δ)(b) = c] for c in (I0, 0, 1, I1) (Def. 5.1)."""
    one, zero = fld.one, fld.zero
    a = (one - delta) * E / (one + E)
    b = (one - delta) / (one + E)
    return ((delta, a, b, zero), (zero, b, a, delta))


def approx_system(hist: Histories, pair: tuple[int, int], E, delta) -> LinearSystem:
    """The LP (rational data) for δ > 0: variables τ_0(h), τ_1(h) ≥ 0."""
    i, j = pair
    one = Q(1)
    a = (one - delta) * E / (one + E)
    b = (one - delta) / (one + E)
    s = LinearSystem()
    for c in (0, 1):
        for h in hist.hists:
            s.var((c, h.index))
    for c in (0, 1):
        for occ in hist.occs:
            coefs = {s.var((c, h)): one for h in occ.answers}
            if occ.parent < 0:
                s.add(coefs, "=", one, ("round", OUTPUTS[c + 1], occ.index))
            else:
                coefs[s.var((c, occ.parent))] = -one
                s.add(coefs, "=", 0, ("round", OUTPUTS[c + 1], occ.index))
    for h in hist.hists:
        if h.follow:
            continue
        s.add({s.var((0, h.index)): a, s.var((1, h.index)): b}, "<=", h.P[i], ("I0>=0", h.index))
        s.add({s.var((0, h.index)): b, s.var((1, h.index)): a}, "<=", h.P[j], ("I1>=0", h.index))
    return s


def approx_postprocessor(
    mech: Mechanism,
    pair: tuple[int, int],
    E,
    delta,
    *,
    eps_text: str = "",
    table=None,
    max_histories: int | None = None,
) -> PostProcessor | ApproxCertificate | PureCertificate:
    """Decide and build T for RR_(ε,δ) and the pair (x_pair[0], x_pair[1]).

    δ = 0 is the pure case (Theorem 1.10, unique T); δ = 1 makes T(I0) = M(x0), T(I1) = M(x1).
    Returns a :class:`PostProcessor` with outputs (I0, 0, 1, I1), or an
    :class:`ApproxCertificate` of infeasibility (or a pure certificate when δ = 0).
    """
    fld = field_for(mech, table)
    if fld.symbolic:
        return _symbolic(mech, pair, E, delta, eps_text, table, fld, max_histories)
    hist = expand(mech, fld, max_histories=max_histories)
    E, delta = Q(E), Q(delta)
    if delta == 0:
        pp = pure_postprocessor(mech, pair, E, eps_text=eps_text, hist=hist)
        return _widen(pp, delta) if isinstance(pp, PostProcessor) else pp
    system = approx_system(hist, pair, E, delta)
    ans = certified(system)
    if isinstance(ans, Infeasible):
        return ApproxCertificate(mech.pair_names(pair), system, ans.multipliers, None, hist)
    return _from_solution(mech, pair, hist, fld, E, delta, ans.x, eps_text, system)


def _from_solution(mech, pair, hist, fld, E, delta, x, eps_text, system, conditions=None):
    i, j = pair
    n = len(hist.hists)
    t0 = [x[system.var((0, h))] for h in range(n)]
    t1 = [x[system.var((1, h))] for h in range(n)]
    w = rr_delta_weights(E, delta, fld)
    ti0 = [(hist.hists[h].P[i] - w[0][1] * t0[h] - w[0][2] * t1[h]) / delta for h in range(n)]
    ti1 = [(hist.hists[h].P[j] - w[1][1] * t0[h] - w[1][2] * t1[h]) / delta for h in range(n)]
    paths = [ti0, t0, t1, ti1]
    cond, free = conditionals_from_paths(hist, paths, (i, i, j, j))
    notes = []
    if free:
        notes.append(
            f"{len(free)} conditional(s) are at rounds T never reaches under that RR output: free, set to M's own conditional"
        )
    return PostProcessor(
        "approx",
        pair,
        mech.pair_names(pair),
        OUTPUTS,
        w,
        cond,
        free,
        hist,
        paths,
        eps_text,
        E,
        delta,
        notes,
        conditions or [],
    )


def _widen(pp: PostProcessor, delta) -> PostProcessor:
    """A pure T as a post-processor of RR_(ε,0): I0 and I1 never occur (weight 0); they are
    given M(x0)'s and M(x1)'s conditionals."""
    fld = pp.hist.fld
    i, j = pp.pair
    rows_i = [tuple(r[i] for r in fld.rows(o.node)) for o in pp.hist.occs]
    rows_j = [tuple(r[j] for r in fld.rows(o.node)) for o in pp.hist.occs]
    n = len(pp.hist.hists)
    paths = (
        [[h.P[i] for h in pp.hist.hists], pp.paths[0], pp.paths[1], [h.P[j] for h in pp.hist.hists]]
        if pp.paths
        else None
    )
    cond = [rows_i, pp.cond[0], pp.cond[1], rows_j]
    free = (
        {(c + 1, o) for c, o in pp.free}
        | {(0, o) for o in range(len(pp.hist.occs))}
        | {(3, o) for o in range(len(pp.hist.occs))}
    )
    del n
    notes = pp.notes + ["delta = 0: RR_(eps,0) never outputs I0 or I1; T(I0), T(I1) are free and set to M(x0), M(x1)"]
    return PostProcessor(
        "approx",
        pp.pair,
        pp.pair_names,
        OUTPUTS,
        rr_delta_weights(pp.E, fld.const(delta), fld),
        cond,
        free,
        pp.hist,
        paths,
        pp.eps_text,
        pp.E,
        fld.const(delta),
        notes,
        pp.conditions,
    )


# --- symbolic: solve at a sample point, lift the basis -------------------------------------------------


def _symbolic(mech, pair, E, delta, eps_text, table, fld, max_histories):
    point = table.sample_point()
    Es, ds = fld.const(E), fld.const(delta)
    if fld.is_zero(ds):
        pp = pure_postprocessor(mech, pair, E, eps_text=eps_text, table=table, max_histories=max_histories)
        return _widen(pp, 0) if isinstance(pp, PostProcessor) else pp
    e0, d0 = substitute(fld.to_sympy(Es), point), substitute(fld.to_sympy(ds), point)
    num = substitute_mechanism(mech, point)
    nhist = expand(num, max_histories=max_histories)
    system = approx_system(nhist, pair, e0, d0)
    ans = certified(system)
    pt = {str(k): str(v) for k, v in point.items()}
    if isinstance(ans, Infeasible):
        return ApproxCertificate(mech.pair_names(pair), system, ans.multipliers, pt)
    # the basis: variables that are positive at the sample point, plus the tight rows
    hist = expand(mech, fld, max_histories=max_histories)
    sym_system = _sym_rows(hist, pair, Es, ds, fld, system)
    basic = [k for k, v in enumerate(ans.x) if v != 0]
    tight = [
        r
        for r, (coefs, sense, rhs, _) in enumerate(system.rows)
        if sense == "=" or sum((v * ans.x[k] for k, v in coefs.items()), Q(0)) == rhs
    ]
    K = fld.K
    A = sympy.polys.matrices.DomainMatrix(
        [[sym_system[r][0].get(k, K.zero) for k in basic] for r in tight], (len(tight), len(basic)), K
    )
    bvec = sympy.polys.matrices.DomainMatrix([[sym_system[r][2]] for r in tight], (len(tight), 1), K)
    try:
        sol = _solve_consistent(A, bvec, K)
    except ValueError:
        raise UnsupportedMechanismError(
            "the symbolic LP solution could not be lifted from the sample point (the optimal basis is "
            "degenerate there); give the symbols values as params"
        ) from None
    x = [K.zero] * len(system.names)
    for k, v in zip(basic, sol):
        x[k] = v
    conditions = []
    for r, (coefs, sense, rhs) in enumerate(sym_system):
        lhs = sum((v * x[k] for k, v in coefs.items()), K.zero)
        diff = rhs - lhs
        if sense == "=":
            if diff != K.zero:
                raise VerificationError("the lifted symbolic LP solution violates an equality")
        elif -1 in fld.sign_set(diff):
            conditions.append(("LP", str(system.rows[r][3]), "", f"{fld.text(diff)} >= 0"))
    for k in basic:
        if -1 in fld.sign_set(x[k]):
            conditions.append(("LP", str(system.names[k]), "", f"{fld.text(x[k])} >= 0"))
    return _from_solution(mech, pair, hist, fld, Es, ds, x, eps_text, system, conditions)


def _sym_rows(hist, pair, E, delta, fld, system):
    """The same LP as :func:`approx_system`, with coefficients in the rational-function field;
    row order and variable indices match ``system``."""
    i, j = pair
    one = fld.one
    a = (one - delta) * E / (one + E)
    b = (one - delta) / (one + E)
    rows = []
    for c in (0, 1):
        for occ in hist.occs:
            coefs = {system.var((c, h)): one for h in occ.answers}
            if occ.parent < 0:
                rows.append((coefs, "=", one))
            else:
                coefs[system.var((c, occ.parent))] = -one
                rows.append((coefs, "=", fld.zero))
    for h in hist.hists:
        if h.follow:
            continue
        rows.append(({system.var((0, h.index)): a, system.var((1, h.index)): b}, "<=", h.P[i]))
        rows.append(({system.var((0, h.index)): b, system.var((1, h.index)): a}, "<=", h.P[j]))
    if len(rows) != len(system.rows):
        raise VerificationError("symbolic and numeric LPs differ in shape")
    return rows


def _solve_consistent(A, b, K):
    """Solve A x = b (A possibly non-square, full column rank at the sample point) exactly."""
    m, n = A.shape
    aug = A.hstack(b)
    rref, pivots = aug.rref()
    if n in pivots:
        raise ValueError("inconsistent")
    if len(pivots) < n:
        raise ValueError("rank deficient")
    rows = rref.to_Matrix() if False else rref
    out = []
    for r, _c in enumerate(pivots):
        out.append(rows[r, n].element)
    return out


def history_of(hist: Histories, label) -> str:
    """Readable name of an LP row label (this module's LP and Lemma 5.6's)."""
    kind = label[0]
    if kind == "round":
        return f"consistency of T({label[1]}) at round [{history_text(hist.occs[label[2]].prefix)}]"
    if kind in ("I0>=0", "I1>=0"):
        return f"T({kind[:2]}) >= 0 at [{history_text(hist.hists[label[1]].path)}]"
    if kind == "III":
        return f"(III) consistency of g{label[1]} at round [{history_text(hist.occs[label[2]].prefix)}]"
    if kind in ("I", "II"):
        return f"({kind}) for g{label[1]} at [{history_text(hist.hists[label[2]].path)}]"
    if kind == "IV":
        return f"(IV) g0 = g1 at [{history_text(hist.hists[label[1]].path)}]"
    return str(label)


__all__ += ["history_of", "OUTPUTS", "check_farkas"]
