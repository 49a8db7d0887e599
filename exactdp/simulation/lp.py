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

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

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
    tab = _phase_one_tableau(system)
    pivots = 0
    degenerate = 0
    bland = False
    while True:
        j = _entering(tab, bland)
        if j < 0:
            break
        pr, ratio = _leaving(tab, j)
        if ratio == 0:
            degenerate += 1
            if degenerate > 25:
                bland = True
        else:
            degenerate = 0
        _pivot(tab.T, tab.obj, pr, j, tab.ncols)
        tab.basis[pr] = j
        pivots += 1
        if pivots > max_pivots:
            raise VerificationError(f"the simplex did not finish within {max_pivots} pivots")
    return _answer(tab, len(system.names), pivots)


@dataclass
class _Tableau:
    """The phase-I simplex tableau (Dantzig 1963): rows scaled by ``sigma`` so that every
    right-hand side is ≥ 0, a slack column per ≤ row and an artificial column wherever the
    slack cannot start in the basis; ``obj`` holds the reduced costs of w = Σ artificials
    (``obj[ncols]`` = −w).  ``init_col[r]`` is row r's column in the initial basis."""

    T: list[list]
    obj: list
    basis: list[int]
    init_col: list[int]
    sigma: list[int]
    is_art: list[bool]
    ncols: int


def _phase_one_tableau(system: LinearSystem) -> _Tableau:
    n = len(system.names)
    sigma = [-1 if rhs < 0 else 1 for _coefs, _sense, rhs, _ in system.rows]
    slack_of: dict[int, int] = {}
    ncols = n
    for r, (_coefs, sense, _rhs, _) in enumerate(system.rows):
        if sense == "<=":
            slack_of[r] = ncols
            ncols += 1
    art_of: dict[int, int] = {}
    for r, (_coefs, sense, _rhs, _) in enumerate(system.rows):
        if not (sense == "<=" and sigma[r] == 1):
            art_of[r] = ncols
            ncols += 1
    zero = Q(0)
    T: list[list] = []
    basis: list[int] = []
    for r, (coefs, _sense, rhs, _) in enumerate(system.rows):
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
        row[ncols] = rhs if s == 1 else -rhs
        T.append(row)
    is_art = [False] * ncols
    for c in art_of.values():
        is_art[c] = True
    obj = [zero] * (ncols + 1)
    for r in art_of:
        row = T[r]
        for k in range(ncols + 1):
            if row[k] and (k == ncols or not is_art[k]):
                obj[k] -= row[k]
    return _Tableau(T, obj, basis, list(basis), sigma, is_art, ncols)


def _entering(tab: _Tableau, bland: bool) -> int:
    """The entering column: the most negative reduced cost (Dantzig's rule), or with ``bland``
    the first negative one (Bland 1977, which cannot cycle); −1 at the optimum."""
    j = -1
    if bland:
        for k in range(tab.ncols):
            if not tab.is_art[k] and tab.obj[k] < 0:
                return k
        return j
    best = Q(0)
    for k in range(tab.ncols):
        if not tab.is_art[k] and tab.obj[k] < best:
            best, j = tab.obj[k], k
    return j


def _leaving(tab: _Tableau, j: int) -> tuple[int, Any]:
    """The pivot row for column ``j`` by the ratio test (ties: smallest basic index, Bland)
    and its ratio."""
    pr, best_ratio = -1, None
    for r, row in enumerate(tab.T):
        a = row[j]
        if a > 0:
            ratio = row[tab.ncols] / a
            if best_ratio is None or ratio < best_ratio or (ratio == best_ratio and tab.basis[r] < tab.basis[pr]):
                pr, best_ratio = r, ratio
    if pr < 0:  # cannot happen in phase I (bounded below by 0)
        raise VerificationError("phase-I simplex found an unbounded direction")
    return pr, best_ratio


def _answer(tab: _Tableau, n: int, pivots: int) -> Feasible | Infeasible:
    """The point of an optimal basis with w* = 0, else the Farkas multipliers read off the
    reduced costs of the initial basis."""
    zero = Q(0)
    if tab.obj[tab.ncols] != 0:  # w* = -obj[ncols] > 0: infeasible; y_r = c_col - obj[col] for the initial basis
        mult = []
        for r, col in enumerate(tab.init_col):
            y = (Q(1) if tab.is_art[col] else zero) - tab.obj[col]
            mult.append(-tab.sigma[r] * y)
        return Infeasible(mult, pivots)
    x = [zero] * n
    for r, col in enumerate(tab.basis):
        if col < n:
            x[col] = tab.T[r][tab.ncols]
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
