r"""An exact linear feasibility solver (phase-I simplex over the rationals) whose every answer
comes with a certificate that is checked independently.

The system is  A_eq x = b_eq,  A_ub x ≤ b_ub,  x ≥ 0  with rational data.  The solver answers

* *feasible* with a point x — :func:`check_point` substitutes it into every constraint exactly;
* *infeasible* with Farkas multipliers m (m ≥ 0 on the ≤ rows) such that mᵀA ≥ 0 componentwise
  and mᵀb < 0 — :func:`check_farkas` multiplies them out exactly.  No x ≥ 0 can then satisfy the
  system, since 0 ≤ (mᵀA)x ≤ mᵀb < 0.

The simplex uses Dantzig's rule and falls back to Bland's rule (which cannot cycle) after a run of
degenerate pivots.  It is dense and meant for the small systems of finite mechanisms; nobody has
to trust it, because neither answer is reported unless its certificate checks.

References
----------
Farkas' lemma; Dantzig, Linear Programming and Extensions (1963), phase I; Bland (1977).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable

from ..errors import VerificationError
from ..numbers.rational import Q

__all__ = ["LinearSystem", "Feasible", "Infeasible", "solve", "check_point", "check_farkas"]


@dataclass
class LinearSystem:
    """Variables (named, all ≥ 0) and rows ``(coefficients {var index: q}, sense '=' | '<=', rhs, label)``."""

    names: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    _index: dict = field(default_factory=dict)

    def var(self, name: Hashable) -> int:
        k = self._index.get(name)
        if k is None:
            k = len(self.names)
            self._index[name] = k
            self.names.append(name)
        return k

    def add(self, coefs: dict, sense: str, rhs: Any, label: Any = None) -> None:
        assert sense in ("=", "<=")
        self.rows.append(({k: Q(v) for k, v in coefs.items() if v != 0}, sense, Q(rhs), label))


@dataclass
class Feasible:
    x: list  # one value per variable
    pivots: int = 0


@dataclass
class Infeasible:
    multipliers: list  # one per row
    pivots: int = 0


def solve(system: LinearSystem, *, max_pivots: int = 100_000) -> Feasible | Infeasible:
    """Decide feasibility exactly; the answer is *not yet* checked (see :func:`certified`)."""
    n = len(system.names)
    m = len(system.rows)
    sigma = []
    slack_of: dict[int, int] = {}
    ncols = n
    for r, (coefs, sense, rhs, _) in enumerate(system.rows):
        sigma.append(-1 if rhs < 0 else 1)
        if sense == "<=":
            slack_of[r] = ncols
            ncols += 1
    art_of: dict[int, int] = {}
    for r, (coefs, sense, rhs, _) in enumerate(system.rows):
        if not (sense == "<=" and sigma[r] == 1):
            art_of[r] = ncols
            ncols += 1
    zero = Q(0)
    T: list[list] = []
    basis: list[int] = []
    init_col: list[int] = []
    for r, (coefs, sense, rhs, _) in enumerate(system.rows):
        row = [zero] * (ncols + 1)
        s = sigma[r]
        for k, v in coefs.items():
            row[k] = v if s == 1 else -v
        if r in slack_of:
            row[slack_of[r]] = Q(s)
        if r in art_of:
            row[art_of[r]] = Q(1)
            basis.append(art_of[r])
        else:
            basis.append(slack_of[r])
        init_col.append(basis[-1])
        row[ncols] = rhs if s == 1 else -rhs
        T.append(row)
    is_art = [False] * ncols
    for c in art_of.values():
        is_art[c] = True
    obj = [zero] * (ncols + 1)  # reduced costs; obj[ncols] = -w
    for r in art_of:
        row = T[r]
        for k in range(ncols + 1):
            if row[k] and (k == ncols or not is_art[k]):
                obj[k] -= row[k]
    pivots = 0
    degenerate = 0
    bland = False
    while True:
        # entering column
        j = -1
        if bland:
            for k in range(ncols):
                if not is_art[k] and obj[k] < 0:
                    j = k
                    break
        else:
            best = zero
            for k in range(ncols):
                if not is_art[k] and obj[k] < best:
                    best, j = obj[k], k
        if j < 0:
            break
        # ratio test (ties: smallest basic index, Bland)
        pr, best_ratio = -1, None
        for r in range(m):
            a = T[r][j]
            if a > 0:
                ratio = T[r][ncols] / a
                if best_ratio is None or ratio < best_ratio or (ratio == best_ratio and basis[r] < basis[pr]):
                    pr, best_ratio = r, ratio
        if pr < 0:  # cannot happen in phase I (bounded below by 0)
            raise VerificationError("phase-I simplex found an unbounded direction")
        if best_ratio == 0:
            degenerate += 1
            if degenerate > 25:
                bland = True
        else:
            degenerate = 0
        _pivot(T, obj, pr, j, ncols)
        basis[pr] = j
        pivots += 1
        if pivots > max_pivots:
            raise VerificationError(f"the simplex did not finish within {max_pivots} pivots")
    if obj[ncols] != 0:  # w* = -obj[ncols] > 0: infeasible; y_r = c_col - obj[col] for the initial basis
        mult = []
        for r in range(m):
            col = init_col[r]
            y = (Q(1) if is_art[col] else zero) - obj[col]
            mult.append(-sigma[r] * y)
        return Infeasible(mult, pivots)
    x = [zero] * n
    for r, col in enumerate(basis):
        if col < n:
            x[col] = T[r][ncols]
    return Feasible(x, pivots)


def _pivot(T: list, obj: list, pr: int, j: int, ncols: int) -> None:
    prow = T[pr]
    piv = prow[j]
    if piv != 1:
        inv = 1 / piv
        prow = [v * inv if v else v for v in prow]
        T[pr] = prow
    nz = [k for k in range(ncols + 1) if prow[k]]
    for r, row in enumerate(T):
        if r == pr:
            continue
        f = row[j]
        if f:
            for k in nz:
                row[k] -= f * prow[k]
    f = obj[j]
    if f:
        for k in nz:
            obj[k] -= f * prow[k]


def check_point(system: LinearSystem, x: list) -> list[str]:
    """Every violated constraint of ``system`` at ``x`` (exact substitution); [] when feasible."""
    bad = []
    for k, v in enumerate(x):
        if v < 0:
            bad.append(f"variable {system.names[k]} = {v} < 0")
    for coefs, sense, rhs, label in system.rows:
        lhs = sum((v * x[k] for k, v in coefs.items()), Q(0))
        if (sense == "=" and lhs != rhs) or (sense == "<=" and lhs > rhs):
            bad.append(f"constraint {label}: {lhs} {sense} {rhs} fails")
    return bad


def check_farkas(system: LinearSystem, mult: list) -> list[str]:
    """Why ``mult`` is not a Farkas certificate of infeasibility; [] when it is one."""
    bad = []
    if len(mult) != len(system.rows):
        return ["wrong number of multipliers"]
    total = [Q(0)] * len(system.names)
    rhs_total = Q(0)
    for y, (coefs, sense, rhs, label) in zip(mult, system.rows):
        if sense == "<=" and y < 0:
            bad.append(f"multiplier of the inequality {label} is negative")
        if y:
            for k, v in coefs.items():
                total[k] += y * v
            rhs_total += y * rhs
    for k, v in enumerate(total):
        if v < 0:
            bad.append(f"combined coefficient of {system.names[k]} is {v} < 0")
    if not rhs_total < 0:
        bad.append(f"combined right-hand side is {rhs_total}, not < 0")
    return bad


def certified(system: LinearSystem) -> Feasible | Infeasible:
    """:func:`solve`, then check the answer's certificate; a failing check is a bug
    (:class:`VerificationError`), never a verdict."""
    ans = solve(system)
    bad = check_point(system, ans.x) if isinstance(ans, Feasible) else check_farkas(system, ans.multipliers)
    if bad:
        raise VerificationError("the exact LP answer does not re-check: " + "; ".join(bad[:3]))
    return ans


__all__.append("certified")
