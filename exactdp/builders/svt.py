r"""The sparse vector technique (AboveThreshold) and its published variants, as exact game DAGs.

**The mechanism.**  The adversary adaptively submits queries from a finite menu; each query is
given by its value under every dataset (sensitivity Δ over the adjacent pairs is checked).
The mechanism draws a hidden noisy threshold T + ρ once; for each query it draws fresh noise ν
and answers ``above`` when q(x) + ν ≥ T + ρ, else ``below``; it halts after c ``above``
answers (AboveThreshold is c = 1) or when the horizon (the number of queries the adversary may
ask) is reached.  Variants (Lyu–Su–Li 2017, Algorithms 1–6) change the noise scales, resample ρ after
each ``above`` (Dwork–Roth 2014), release the noisy value q(x) + ν instead of ``above`` (Roth
2011), or never halt (Stoddard et al. 2014, Chen et al. 2015).

**Hidden state, exactly.**  ρ is never shown to the adversary, so the game is built over
*histories*: at a history h the mechanism's answer distribution under dataset x is
Pr[answer | h, x] = Σ_ρ Pr[ρ | h, x]·Pr[answer | ρ, q, x], i.e. the hidden noise is summed out
with its posterior given the history.  The DAG is built with :func:`~exactdp.model.dag.build_dag`
on states (posterior over ρ under each dataset, number of ``above`` answers, queries left):
histories with the same posteriors (e.g. the same multiset of (query, answer) pairs) share one
sub-game, and each path's probability is the product of the conditionals — exactly the
probability of that history summed over the hidden noise.

**Noise with infinite support, exactly.**  Noise is either a finite pmf on the integers or the
two-sided geometric ("discrete Laplace") distribution Pr[Z = z] = (1−α)/(1+α)·α^``|z|`` with
infinite support.  A posterior over ρ ∈ ℤ is kept as explicit atoms on a finite window
[L, U] plus two tails ρ > U and ρ < L, where every factor that can appear is a polynomial in
α_ν^``|ρ|`` (Pr[ν ≥ ρ + o] = α_ν^{ρ+o}/(1+α_ν) for ρ + o ≥ 1 and 1 − α_ν^{1−ρ−o}/(1+α_ν) for
ρ + o ≤ 0), so each tail is Σ c·(α·α_ν^j)^``|ρ|`` and sums in closed form as a geometric series:
every probability is an exact rational.  The window is chosen so that beyond it all comparisons
are in one regime.

**Released values** (Roth 2011, Lyu Alg. 3) have infinite range; the released value is clamped
to [lo, hi] (the truncated geometric mechanism).  Clamping is post-processing, so a clamped
variant found not ε-DP refutes the unclamped one as well.

References
----------
C. Dwork, M. Naor, O. Reingold, G. Rothblum, S. Vadhan, *On the complexity of differentially
private data release*, STOC 2009 (the sparse vector technique).
C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy*, 2014, Alg. 1–2 (§3.6).
M. Lyu, D. Su, N. Li, *Understanding the Sparse Vector Technique for Differential Privacy*,
PVLDB 10(6), 2017, Algorithms 1–6 and their comparison table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ArgumentTypeError, InexactValueError, InvalidMechanismError
from ..limits import check_count
from ..model.checks import instance_arg
from ..model.dag import build_dag
from ..model.game import Label, Mechanism
from ..numbers import ladder
from ..numbers.rational import Q, as_q, q_str
from ..numbers.symbolic import expr_str, is_symbolic, sympy, to_sympy
from ..numbers.types import EpsLike, LambdaLike, Rational
from .classic import Noise, discrete_laplace, geometric_noise
from .params import UNSET, exp_eps_arg
from .probfield import NUMERIC, ProbField, field_of
from .symbolic import geometric_sym_noise

__all__ = ["SVT", "sparse_vector", "LYU_VARIANTS", "lyu_variant", "ABOVE", "BELOW", "DEFAULT_MAX_HORIZON"]

ABOVE, BELOW = "above", "below"
DEFAULT_MAX_HORIZON = 64

# Lyu-Su-Li 2017, Algorithms 1-6, with eps1 the threshold budget and eps2 = eps - eps1:
#   name: (description, what the literature proves, threshold-noise scale / (Delta/eps),
#          query-noise scale / (Delta/eps) or None, halts after c, resamples rho, releases value)
# scales are given as multiples of Delta/eps, as functions of c.
LYU_VARIANTS: dict[str, dict] = {
    "alg1": {
        "source": "Lyu-Su-Li 2017 Alg. 1 (their SVT)",
        "privacy": "eps-DP",
        "rho": lambda c: Q(2),  # Lap(Delta/eps1), eps1 = eps/2
        "nu": lambda c: Q(4 * c),  # Lap(2c Delta/eps2), eps2 = eps/2
        "halts": True,
        "resample": False,
        "release": False,
    },
    "alg2": {
        "source": "Dwork-Roth 2014 Alg. 2 (Lyu Alg. 2)",
        "privacy": "eps-DP",
        "rho": lambda c: Q(2 * c),  # Lap(c Delta/eps1)
        "nu": lambda c: Q(4 * c),  # Lap(2c Delta/eps1)
        "halts": True,
        "resample": True,  # rho ~ Lap(c Delta/eps2) again after each above, eps2 = eps1
        "release": False,
    },
    "alg3": {
        "source": "Roth 2011 lecture notes (Lyu Alg. 3)",
        "privacy": "not eps'-DP for any finite eps'",
        "rho": lambda c: Q(2 * c),  # Lap(c Delta/eps1)
        "nu": lambda c: Q(2 * c),  # Lap(c Delta/eps2)
        "halts": True,
        "resample": False,
        "release": True,
    },
    "alg4": {
        "source": "Lee-Clifton 2014 (Lyu Alg. 4)",
        "privacy": "((1+6c)/4) eps-DP, not eps-DP",
        "rho": lambda c: Q(4),  # Lap(Delta/eps1), eps1 = eps/4
        "nu": lambda c: Q(4, 3),  # Lap(Delta/eps2), eps2 = 3eps/4
        "halts": True,
        "resample": False,
        "release": False,
    },
    "alg5": {
        "source": "Stoddard-Chen-Machanavajjhala 2014 (Lyu Alg. 5)",
        "privacy": "not eps'-DP for any finite eps'",
        "rho": lambda c: Q(2),  # Lap(Delta/eps1), eps1 = eps/2
        "nu": None,  # no query noise
        "halts": False,
        "resample": False,
        "release": False,
    },
    "alg6": {
        "source": "Chen-Xu-Zhou 2015 (Lyu Alg. 6)",
        "privacy": "not eps'-DP for any finite eps'",
        "rho": lambda c: Q(2),  # Lap(Delta/eps1)
        "nu": lambda c: Q(2),  # Lap(Delta/eps2), eps2 = eps/2
        "halts": False,
        "resample": False,
        "release": False,
    },
}


@dataclass(frozen=True)
class SVT:
    """Parameters of a sparse-vector mechanism (see the module docstring).

    Attributes
    ----------
    menu : tuple of (label, tuple of values)
        The queries the adversary may submit and their value under every dataset.
    threshold : rational
    threshold_noise : Noise
        Distribution of ρ.
    query_noise : Noise or None
        Distribution of each ν_i; None means no query noise (ν = 0).
    halt_after : int or None
        Stop after this many ``above`` answers; None: never (only the horizon stops it).
    horizon : int
        The number of queries the adversary may submit.
    resample_noise : Noise or None
        If set, ρ is drawn afresh from this distribution after every ``above``.
    release : (int, int) or None
        If set, an ``above`` answer releases clamp(q(x) + ν, lo, hi) (label ``above=v``).
    """

    menu: tuple[tuple[Label, tuple[Any, ...]], ...]
    threshold: Any
    threshold_noise: Noise
    query_noise: Noise | None
    halt_after: int | None
    horizon: int
    resample_noise: Noise | None = None
    release: tuple[int, int] | None = None


# --- piecewise measures on the integers ---------------------------------------------------------
#
# A measure (or factor) on ρ ∈ ℤ is (atoms, up, lo): atoms[i] is the value at ρ = L + i; for ρ > U
# the value is Σ up[(a, j)] · (a·α_ν^j)^ρ and for ρ < L it is Σ lo[(a, j)] · (a·α_ν^j)^(−ρ), where
# a is the base of the prior's tail (1 for factors).  Factors have a = 1 and only multiply.


def _poly_mul(p: dict, f: dict, F: ProbField = NUMERIC) -> dict:
    out: dict = {}
    for (a, j), c in p.items():
        for (_one, k), d in f.items():
            key = (a, j + k)
            out[key] = out.get(key, F.zero) + c * d
    return {k: F.norm(v) for k, v in out.items() if F.nonzero(v)}


class _Window:
    """The finite window [L, U] and the closed-form tail sums."""

    def __init__(self, lo: int, hi: int, alpha_nu: Any, F: ProbField = NUMERIC):
        self.L, self.U = lo, hi
        self.alpha_nu = alpha_nu
        self.F = F

    def tail_sum(self, poly: dict, upper: bool) -> Any:
        F = self.F
        total = F.zero
        start = self.U + 1 if upper else 1 - self.L
        for (a, j), c in poly.items():
            r = a * (self.alpha_nu**j if j else F.one)
            # with symbols, 0 < alpha < 1 is proved by the form, so r = a * alpha_nu^j converges
            # unless it is 1 (a = 1 and j = 0, excluded by construction as for numbers)
            if (F.norm(r - 1) == 0) if F.symbolic else not (0 <= r < 1):  # pragma: no cover
                raise InexactValueError("a tail of the threshold posterior does not converge")
            if F.is_zero(r):
                continue
            total += c * r**start / (1 - r)
        return F.norm(total)

    def total(self, m: tuple) -> Any:
        atoms, up, lo = m
        F = self.F
        return F.norm(sum(atoms, F.zero) + self.tail_sum(dict(up), True) + self.tail_sum(dict(lo), False))


def _freeze(atoms: list, up: dict, lo: dict, scale: Any, F: ProbField = NUMERIC) -> tuple:
    def key(kv: tuple) -> tuple:
        return (F.key(kv[0][0]), kv[0][1])

    return (
        tuple(F.norm(x / scale) for x in atoms),
        tuple(sorted(((k, F.norm(v / scale)) for k, v in up.items() if F.nonzero(v)), key=key)),
        tuple(sorted(((k, F.norm(v / scale)) for k, v in lo.items() if F.nonzero(v)), key=key)),
    )


class _Builder:
    def __init__(self, spec: SVT, n: int):
        self.spec = spec
        self.n = n
        nu = spec.query_noise
        self.nu = nu
        self.F = F = _field_of(spec)
        self.one = {(F.one, 0): F.one}
        self.alpha_nu = F.lift(nu.alpha) if (nu is not None and not nu.finite) else None
        T = as_q(spec.threshold)
        # offsets: above  <=>  nu >= rho + o  with o = ceil(T - q)
        self.offsets = {lab: tuple(_ceil(T - as_q(v)) for v in vals) for lab, vals in spec.menu}
        os_ = [o for v in self.offsets.values() for o in v]
        o_min, o_max = min(os_), max(os_)
        need_lo: list[int] = []
        need_hi: list[int] = []
        if nu is None or nu.finite:
            a, b = nu.support() if nu is not None else (0, 0)
            need_hi.append(b - o_min)  # rho > U: rho + o > b, never above
            need_lo.append(a - o_max + 1)  # rho < L: rho + o <= a, always above
        else:
            need_hi.append(-o_min)  # rho > U: rho + o >= 1
            need_lo.append(1 - o_max)  # rho < L: rho + o <= 0
        for noise in (spec.threshold_noise, spec.resample_noise):
            if noise is None:
                continue
            if noise.finite:
                a, b = noise.support()
                need_lo.append(a)
                need_hi.append(b)
            else:
                need_lo.append(0)
                need_hi.append(0)
        if spec.release is not None:
            lo_v, hi_v = spec.release
            for lab, vals in spec.menu:
                for v, o in zip(vals, self.offsets[lab]):
                    v = as_q(v)
                    for k in (hi_v - int(v) - o, lo_v - int(v) - o) + tuple(w - int(T) for w in range(lo_v, hi_v + 1)):
                        need_lo.append(k)
                        need_hi.append(k + 1)
        self.win = _Window(min(need_lo), max(need_hi), self.alpha_nu, self.F)
        # every threshold value of the window is a state: refuse a window no game could hold
        check_count("the threshold values of svt's window", self.win.U - self.win.L + 1, "max_nodes", "--max-nodes")
        self.rhos = list(range(self.win.L, self.win.U + 1))
        self.prior = self._prior(spec.threshold_noise)
        self.resample = self._prior(spec.resample_noise) if spec.resample_noise is not None else None
        self._factor_cache: dict = {}

    # measures -------------------------------------------------------------------------------

    def _prior(self, noise: Noise) -> tuple:
        F = self.F
        atoms = [F.lift(noise.prob(r)) for r in self.rhos]
        up: dict = {}
        lo: dict = {}
        if not noise.finite:
            a = F.lift(noise.alpha)
            kappa = (1 - a) / (1 + a)
            up = {(a, 0): kappa}
            lo = {(a, 0): kappa}
        m = _freeze(atoms, up, lo, F.one, F)
        total = self.win.total(m)
        if total != 1:  # pragma: no cover - a bug
            raise AssertionError(f"threshold prior sums to {total}")
        return m

    def _survival(self, o: int) -> tuple:
        """The factor Pr[nu >= rho + o] (no query noise: [rho + o <= 0])."""
        nu, F = self.nu, self.F
        if nu is None:
            atoms = [F.one if r + o <= 0 else F.zero for r in self.rhos]
            return atoms, {}, dict(self.one)
        atoms = [F.lift(nu.survival(r + o)) for r in self.rhos]
        if nu.finite:
            return atoms, {}, dict(self.one)
        a = F.lift(nu.alpha)
        return atoms, {(F.one, 1): a**o / (1 + a)}, {(F.one, 0): F.one, (F.one, 1): -(a ** (1 - o)) / (1 + a)}

    def _factors(self, lab: Label, d: int) -> list[tuple[Label, tuple]]:
        """(answer label, factor) for query ``lab`` under dataset d."""
        key = (lab, d)
        hit = self._factor_cache.get(key)
        if hit is not None:
            return hit
        o = self.offsets[lab][d]
        one, F = self.one, self.F
        s_atoms, s_up, s_lo = self._survival(o)
        out: list[tuple[Label, tuple]] = []
        below = ([F.norm(1 - x) for x in s_atoms], _sub(one, s_up, F), _sub(one, s_lo, F))
        out.append((BELOW, below))
        if self.spec.release is None:
            out.append((ABOVE, (s_atoms, s_up, s_lo)))
        else:
            out.extend(self._release_factors(lab, d, o, (s_atoms, s_up, s_lo)))
        self._factor_cache[key] = out
        return out

    def _release_factors(self, lab: Label, d: int, o: int, surv: tuple) -> list[tuple[Label, tuple]]:
        """Answer ``above=v``: q + nu >= T + rho and clamp(q + nu, lo, hi) = v."""
        lo_v, hi_v = self.spec.release  # type: ignore[misc]
        q = int(as_q(dict(self.spec.menu)[lab][d]))
        nu, F = self.nu, self.F
        assert nu is not None
        s_atoms, s_up, s_lo = surv
        out: list[tuple[Label, tuple]] = []
        for v in range(lo_v, hi_v + 1):
            if lo_v < v < hi_v:
                # nu = v - q exactly, and v >= T + rho  <=>  rho + o <= v - q
                p = F.lift(nu.prob(v - q))
                k = v - q - o
                atoms = [p if r <= k else F.zero for r in self.rhos]
                up: dict = {}
                lo = {(F.one, 0): p} if F.nonzero(p) else {}
            elif v == hi_v and v != lo_v:
                # nu >= max(hi - q, rho + o)
                k = hi_v - q - o
                const = F.lift(nu.survival(hi_v - q))
                atoms = [const if r <= k else s_atoms[i] for i, r in enumerate(self.rhos)]
                up = dict(s_up)
                lo = {(F.one, 0): const} if F.nonzero(const) else {}
            else:
                # v == lo: rho + o <= nu <= lo - q (and, if lo == hi, nu unbounded above)
                k = lo_v - q - o
                if v == hi_v:
                    atoms = [s_atoms[i] for i in range(len(self.rhos))]
                    up, lo = dict(s_up), dict(s_lo)
                else:
                    cut = F.lift(nu.survival(lo_v - q + 1))
                    atoms = [F.norm(s_atoms[i] - cut) if r <= k else F.zero for i, r in enumerate(self.rhos)]
                    up = {}
                    lo = _sub(dict(s_lo), {(F.one, 0): cut}, F)
            out.append((f"{ABOVE}={v}", (atoms, up, lo)))
        return out

    def apply(self, m: tuple, factor: tuple) -> tuple[Any, tuple | None]:
        """(mass of m·factor, the normalised product or None when the mass is 0)."""
        F = self.F
        atoms, up, lo = m
        f_atoms, f_up, f_lo = factor
        new_atoms = [x * y for x, y in zip(atoms, f_atoms)]
        new_up = _poly_mul(dict(up), f_up, F)
        new_lo = _poly_mul(dict(lo), f_lo, F)
        mass = F.norm(F.total(new_atoms) + self.win.tail_sum(new_up, True) + self.win.tail_sum(new_lo, False))
        if not F.symbolic and mass < 0:  # pragma: no cover - a bug
            raise AssertionError("negative posterior mass")
        if F.is_zero(mass):
            return F.emit(F.zero), None
        return F.emit(mass), _freeze(new_atoms, new_up, new_lo, mass, F)

    # the game ------------------------------------------------------------------------------

    def expand(self, state: Any) -> Any:
        spec = self.spec
        if state[0] == "q":
            _, (posts, count, left), lab = state
            answers: list[Label] = []
            rows: list[list[Any]] = []
            succ: list[list[tuple | None]] = []
            for d in range(self.n):
                post = posts[d]
                facs = self._factors(lab, d)
                if not answers:
                    answers = [a for a, _ in facs]
                    rows = [[] for _ in answers]
                    succ = [[] for _ in answers]
                for k, (_a, fac) in enumerate(facs):
                    if post is None:
                        # the history is impossible under this dataset: any distribution will do
                        mass, nxt = self.apply(self.prior, fac)
                        nxt = None
                    else:
                        mass, nxt = self.apply(post, fac)
                    rows[k].append(mass)
                    succ[k].append(nxt)
            states = []
            for k, a in enumerate(answers):
                is_above = a != BELOW
                nposts = tuple(
                    (self.resample if (is_above and self.resample is not None and p is not None) else p)
                    for p in succ[k]
                )
                states.append((nposts, count + (1 if is_above else 0), left - 1))
            return ("chance", answers, [tuple(r) for r in rows], states)
        posts, count, left = state
        if left == 0 or (spec.halt_after is not None and count >= spec.halt_after):
            return ("end",)
        labels = [lab for lab, _ in spec.menu]
        return ("ask", labels, [("q", state, lab) for lab in labels])


def _sub(a: dict, b: dict, F: ProbField = NUMERIC) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, F.zero) - v
    return {k: F.norm(v) for k, v in out.items() if F.nonzero(v)}


def _field_of(spec: SVT) -> ProbField:
    """The arithmetic of an SVT: rational functions of the symbols when a noise has a symbolic
    probability or α (its form proved 0 < α < 1 on the domain), else exact numbers."""
    values: list[Any] = []
    for noise in (spec.threshold_noise, spec.query_noise, spec.resample_noise):
        if noise is not None and noise.pmf is not None:
            values.extend(p for _z, p in noise.pmf)
        elif noise is not None:
            values.append(noise.alpha)
    return field_of(values)


def _ceil(x: Any) -> int:
    x = as_q(x)
    return -((-int(x.numerator)) // int(x.denominator))


def sparse_vector(
    spec: SVT,
    *,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    sensitivity: Rational = 1,
    name: str = "SVT",
    max_nodes: int | None = None,
) -> Mechanism:
    """The sparse-vector mechanism ``spec`` as an interactive :class:`Mechanism`.

    Parameters
    ----------
    spec : SVT
    datasets, adjacent
    sensitivity : rational, optional (default = 1)
        Δ: every menu query must change by at most Δ between adjacent datasets.
    name : str
    max_nodes : int, optional
        Limit on the number of game states (see :func:`~exactdp.model.dag.build_dag`).

    Returns
    -------
    Mechanism
        Queries are the menu labels; answers ``below``, ``above`` (or ``above=v``).

    Raises
    ------
    InvalidMechanismError
        A menu query's sensitivity exceeds Δ, values have the wrong length, the horizon is not
        positive, or a released value is not an integer.

    Examples
    --------
    AboveThreshold (Lyu Alg. 1, c = 1) with e^ε = 16 and discrete-Laplace noise:

    >>> from exactdp.analysis import profile
    >>> m = sparse_vector(lyu_variant("alg1", eps="log(16)", menu=[("up", (0, 1)), ("down", (1, 0))], horizon=2))
    >>> profile.is_dp(m, profile.privloss(m, 0), 0)
    True

    References
    ----------
    Dwork–Roth 2014 §3.6; Lyu–Su–Li 2017, Algorithms 1–6.
    """
    instance_arg(
        spec,
        SVT,
        "sparse_vector",
        "spec",
        what="an SVT specification",
        how='build one, e.g. exactdp.lyu_variant("alg1", eps="log(16)", menu=[...], horizon=2) or exactdp.SVT(...)',
    )
    n = len(datasets)
    _check_spec(spec)
    _check_menu(spec, datasets, adjacent, sensitivity)
    if spec.release is not None:
        _check_release(spec, spec.release)
    builder = _Builder(spec, n)
    init = (tuple(builder.prior for _ in range(n)), 0, spec.horizon)
    kw: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    root = build_dag(init, builder.expand, **kw)
    return Mechanism(root, tuple(datasets), tuple(adjacent), name)


def _check_spec(spec: SVT) -> None:
    """A positive horizon within the limit, a positive ``halt_after`` and a non-empty menu."""
    if spec.horizon < 1 or spec.horizon > DEFAULT_MAX_HORIZON:
        raise InvalidMechanismError(f"svt: horizon must be between 1 and {DEFAULT_MAX_HORIZON}, got {spec.horizon}")
    if spec.halt_after is not None and spec.halt_after < 1:
        raise InvalidMechanismError(f"svt: halt_after must be at least 1, got {spec.halt_after}")
    if not spec.menu:
        raise InvalidMechanismError("svt: the query menu is empty")


def _check_menu(spec: SVT, datasets: Sequence[str], adjacent: Sequence[tuple[int, int]], sensitivity: Rational) -> None:
    """Every menu query has one value per dataset and changes by at most the sensitivity Δ
    between adjacent datasets (the calibration of Dwork–Roth 2014, §3.6)."""
    delta = as_q(sensitivity)
    for lab, vals in spec.menu:
        if len(vals) != len(datasets):
            raise InvalidMechanismError(
                f"svt: query {lab!r} has {len(vals)} values, expected {len(datasets)} (one per dataset)"
            )
        for a, b in adjacent:
            diff = abs(as_q(vals[a]) - as_q(vals[b]))
            if diff > delta:
                raise InvalidMechanismError(
                    f"svt: query {lab!r} changes by {q_str(diff)} between adjacent datasets {datasets[a]} and "
                    f"{datasets[b]}, more than the sensitivity {q_str(delta)}",
                    hint="the sparse vector technique is calibrated to the sensitivity; raise `sensitivity:` or fix the values",
                )


def _check_release(spec: SVT, release: tuple[int, int]) -> None:
    """Releasing noisy values (Roth 2011; Lyu–Su–Li 2017, Alg. 3) in the range ``release``
    needs query noise, a non-empty range, and integer query values and threshold (the noise
    is integer-valued)."""
    lo, hi = release
    if lo > hi:
        raise InvalidMechanismError(f"svt: release range [{lo}, {hi}] is empty")
    if spec.query_noise is None:
        raise InvalidMechanismError("svt: releasing noisy values needs query noise")
    bad = [v for _, vals in spec.menu for v in vals if as_q(v).denominator != 1] + (
        [spec.threshold] if as_q(spec.threshold).denominator != 1 else []
    )
    if bad:
        raise InvalidMechanismError(
            f"svt: with `release:` query values and the threshold must be integers, found {q_str(as_q(bad[0]))}"
        )


def _alpha(E: Any, scale: Any, delta: Any, what: str) -> Any:
    """α = e^{−1/b} for Lap(b) with b = scale·Δ/ε, i.e. α = E^{−1/(scale·Δ)}, exactly or refused;
    for a symbolic E (a rational function proved > 1), a rational function of the symbols."""
    expo = -1 / (as_q(scale) * as_q(delta))
    if is_symbolic(E):
        return _sym_alpha(E, expo, as_q(scale) * as_q(delta), what)
    try:
        return as_q(ladder.power(as_q(E), expo))
    except InexactValueError:
        raise InvalidMechanismError(
            f"svt: the {what} noise needs alpha = e^(-eps/{q_str(as_q(scale) * as_q(delta))}) = "
            f"{q_str(as_q(E))}^({q_str(expo)}), which is irrational",
            hint=f"choose eps = log(r^{q_str(as_q(scale) * as_q(delta))}) for a rational r",
        ) from None


def _sym_alpha(E: Any, expo: Any, k: Any, what: str) -> Any:
    """E^expo as a rational function of the symbols (E = e^ε whole powers of a declared symbol),
    or refused with the symbol to declare instead."""
    a = sympy.powdenest(to_sympy(E) ** sympy.Rational(int(expo.numerator), int(expo.denominator)))
    if not (a.is_rational_function(*a.free_symbols) and all(p.exp.is_Integer for p in a.atoms(sympy.Pow))):
        raise InvalidMechanismError(
            f"svt: the {what} noise needs alpha = e^(-eps/{q_str(k)}) = {expr_str(a)}, which is not a rational "
            "function of the symbols",
            hint=f"declare the symbol as e^(eps/{q_str(k)}) and write eps: {q_str(k)}*log(E)",
        )
    return a


def lyu_variant(
    variant: str,
    E: LambdaLike | None = UNSET,
    menu_: Sequence[tuple[Label, Sequence[Rational]]] | Mapping[Label, Sequence[Rational]] | None = UNSET,
    *,
    eps: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    menu: Sequence[tuple[Label, Sequence[Rational]]] | Mapping[Label, Sequence[Rational]] | None = None,
    threshold: Rational = 0,
    c: int = 1,
    horizon: int = 3,
    sensitivity: Rational = 1,
    width: int | None = None,
    release: tuple[int, int] | None = None,
) -> SVT:
    """The parameters of Lyu–Su–Li's Algorithm ``variant`` ("alg1" … "alg6") for a budget ε,
    as in a case file: ``lyu_variant("alg1", eps="log(16)", menu=[...])`` (or ``exp_eps=``; e^ε
    rational).  The positional form ``lyu_variant(variant, E, menu)`` (e^ε second) is deprecated.

    Laplace noise Lap(b) becomes its discrete analogue, the two-sided geometric noise with
    α = e^{−1/b}; with ``width`` it is clamped to [−width, width] (a finite-support analogue).

    ============  ===============================  ============  ==========  ======  ==========
    variant       source                           ρ scale       ν scale     halts   other
    ============  ===============================  ============  ==========  ======  ==========
    alg1          Lyu et al. (their SVT)           Δ/ε₁          2cΔ/ε₂      yes
    alg2          Dwork–Roth 2014                  cΔ/ε₁         2cΔ/ε₁      yes     resample ρ
    alg3          Roth 2011                        cΔ/ε₁         cΔ/ε₂       yes     releases q+ν
    alg4          Lee–Clifton 2014 (ε₁ = ε/4)      Δ/ε₁          Δ/ε₂        yes
    alg5          Stoddard et al. 2014             Δ/ε₁          none        no
    alg6          Chen et al. 2015                 Δ/ε₁          Δ/ε₂        no
    ============  ===============================  ============  ==========  ======  ==========

    (ε₁ = ε/2 and ε₂ = ε − ε₁ unless stated.)  Lyu et al. prove alg1 and alg2 ε-DP, alg4
    ((1+6c)/4)ε-DP, and alg3, alg5, alg6 not ε'-DP for any finite ε'.
    """
    if menu_ is not UNSET:
        if E is UNSET or menu is not None:
            raise ArgumentTypeError(
                "lyu_variant: positional arguments are the deprecated (variant, e^eps, menu); write lyu_variant(variant, eps=..., menu=[...])"
            )
        menu = menu_
    if menu is None:
        raise ArgumentTypeError("lyu_variant: menu= is required (the queries and their values under every dataset)")
    if is_symbolic(exp_eps):  # a rational function of the symbols, proved > 1 by the svt form
        E = exp_eps
    else:
        E = exp_eps_arg("lyu_variant", eps=eps, exp_eps=exp_eps, positional=E, rational=True)
    if variant not in LYU_VARIANTS:
        raise InvalidMechanismError(f"svt: unknown variant {variant!r}", hint=f"variants: {', '.join(LYU_VARIANTS)}")
    v = LYU_VARIANTS[variant]
    if c < 1:
        raise InvalidMechanismError(f"svt: c must be at least 1, got {c}")
    if as_q(sensitivity) <= 0:
        raise InvalidMechanismError(f"svt: the sensitivity must be positive, got {q_str(as_q(sensitivity))}")

    def noise(scale: Any, what: str) -> Noise:
        a = _alpha(E, scale, sensitivity, what)
        if is_symbolic(a):
            return (
                Noise(alpha=a, name=f"geometric(alpha={expr_str(a)})")
                if width is None
                else geometric_sym_noise(a, width)
            )
        return discrete_laplace(alpha=a) if width is None else geometric_noise(alpha=a, width=width)

    if v["release"] and release is None:
        raise InvalidMechanismError(
            f"svt: {variant} releases noisy values; give `release: {{lo: .., hi: ..}}` to clamp them"
        )
    if not v["release"] and release is not None:
        raise InvalidMechanismError(f"svt: {variant} does not release values; remove `release:`")
    rho = noise(v["rho"](c), "threshold")
    nu = noise(v["nu"](c), "query") if v["nu"] is not None else None
    items = tuple((lab, tuple(vals)) for lab, vals in (menu.items() if isinstance(menu, Mapping) else menu))
    return SVT(
        menu=items,
        threshold=as_q(threshold),
        threshold_noise=rho,
        query_noise=nu,
        halt_after=c if v["halts"] else None,
        horizon=horizon,
        resample_noise=rho if v["resample"] else None,
        release=release,
    )
