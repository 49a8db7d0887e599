r"""Optimal composition, exactly: the least e^{ε_g} of Kairouz–Oh–Viswanath / Murtagh–Vadhan.

For components that are (εᵢ, δᵢ)-DP, the composition is (ε_g, δ_g)-DP for the least ε_g ≥ 0 with

.. math::

    \frac{1}{\prod_i (1 + e^{\varepsilon_i})} \sum_{S} \max\Big(e^{\sum_{i\in S}\varepsilon_i}
    - e^{\varepsilon_g} e^{\sum_{i\notin S}\varepsilon_i}, 0\Big)
    \le 1 - \frac{1 - \delta_g}{\prod_i (1 - \delta_i)}

(Vadhan–Wang Thm 1.4; Kairouz–Oh–Viswanath 2015 homogeneous, Murtagh–Vadhan 2016 heterogeneous;
tight, because ⊗RR_(εᵢ,δᵢ) attains it).  By Vadhan–Wang Thm 5.6/5.7 and Lemma 5.5 the same value
bounds the *concurrent* composition of interactive mechanisms when every δᵢ = 0.

The 2^k subset sum is only the definition (kept here as :func:`optimal_bruteforce`, the test
reference).  The computation uses the exact **privacy-loss distribution** of ⊗RR_{εᵢ}: a view is
determined by how many outputs of each distinct e^{εᵢ} = E agree with the input bit, so the
views group by their exact likelihood ratio.  Each distinct E with multiplicity n contributes
a binomial distribution over ratios E^{2s−n}; distinct E's are convolved, merging equal ratios
(keyed exactly: by the ratio as a rational, or by (rational part, exponent of t) in
ℚ(e^{1/L}) for decimal ε's).  With the groups sorted by decreasing ratio λ_g, the profile is

    LHS(λ) = (A(λ) − λ·B(λ)) / D,   A, B = the P- and P'-mass of the groups with ratio > λ,

piecewise linear between consecutive ratios, so one scan from the largest ratio finds the
segment where LHS crosses the target and solves it exactly: λ* = (A − τD)/B.

The homogeneous rational case (every e^{εᵢ} = a/b) is a binomial scan in integers:
P_s = C(k,s) a^s b^{k−s}, P'_s = C(k,s) a^{k−s} b^s, D = (a+b)^k, checking the crossing at
checkpoints and locating it exactly inside the last window by bisection.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, gcd
from typing import Any

from ..limits import check_field_degree
from ..numbers import INF, ladder
from ..numbers.ladder import QT, is_inf
from ..numbers.qt import monomial, qt_exp
from ..numbers.rational import BACKEND, Q, as_q, is_rational, to_fraction
from .params import Component

if BACKEND == "gmpy2":  # big-integer work in GMP; plain ints with the Fraction backend
    from gmpy2 import divexact as _divexact
    from gmpy2 import mpz as _Z
else:  # pragma: no cover - exercised with EXACTDP_NO_GMPY=1
    _Z = int

    def _divexact(x, y):  # type: ignore[misc]
        return x // y


__all__ = [
    "OptimalResult",
    "optimal",
    "optimal_lambda",
    "optimal_profile",
    "delta_at",
    "optimal_bruteforce",
    "pld",
]


@dataclass(frozen=True)
class OptimalResult:
    """The optimal composition value: ``lam`` = e^{ε_g} (a rational, an element of
    ℚ(e^{1/L}), or ``INF``) and ``eps`` = ε_g = log(lam) (``0``, ``log(r)`` or ``INF``)."""

    lam: Any
    eps: Any
    delta_g: Any
    k: int


def _split(E: Any) -> tuple[Any, Any]:
    """E = r·e^s with rationals r > 0 and s."""
    if is_rational(E):
        return as_q(E), Q(0)
    if ladder.domain_of(E) is QT:
        mono = monomial(E)
        if mono is not None:
            return mono
    raise ValueError(f"e^eps = {E} is not of the form r*exp(s)")  # pragma: no cover - exp_eps builds monomials


def _keep_factor(comps: Sequence[Component]) -> Any:
    keep = Q(1)
    for c in comps:
        keep *= 1 - c.delta
    return keep


# --- the privacy-loss distribution ------------------------------------------------------------


def _distinct(comps: Sequence[Component]) -> list[tuple[Any, int]]:
    counts: dict = {}
    for c in comps:
        counts[c.E] = counts.get(c.E, 0) + 1
    return list(counts.items())


def _int_factor(f, n: int) -> dict:
    """One distinct E = a/b with multiplicity n: {ratio E^(2s-n): [P·(a+b)^n, P'·(a+b)^n]}."""
    a, b = f.numerator, f.denominator
    E = Q(a, b)
    one: dict = {}
    for s in range(n + 1):
        c = comb(n, s)
        r = E ** (2 * s - n)
        p, pp = _Z(c * a**s * b ** (n - s)), _Z(c * a ** (n - s) * b**s)
        cur = one.get(r)
        if cur is None:
            one[r] = [p, pp]
        else:
            cur[0] += p
            cur[1] += pp
    return one


def _convolve(groups: dict, one: dict) -> dict:
    new: dict = {}
    get = new.get
    for r1, (p1, q1) in groups.items():
        for r2, (p2, q2) in one.items():
            r = r1 * r2
            cur = get(r)
            if cur is None:
                new[r] = [p1 * p2, q1 * q2]
            else:
                cur[0] += p1 * p2
                cur[1] += q1 * q2
    return new


def _int_parts(distinct: list[tuple[Any, int]]) -> tuple[dict, dict, Any]:
    """Rational e^{εᵢ}: the PLD of all distinct E's but the last (merged), the last one's, and
    D = Π(a+b)^n.  Integer masses: P·D and P'·D.

    The distinct E's are ordered so that equal ratios merge early: start with the E sharing
    prime factors with the most others, then prefer E's that bring no new prime, then E's
    sharing a prime with what is already convolved (an E with fresh primes only multiplies
    the number of groups, so it goes last and is merged lazily, see :func:`_int_stream`).
    """
    items = [(to_fraction(E), n) for E, n in distinct]
    order = _merge_order(items)
    groups: dict = {Q(1): [_Z(1), _Z(1)]}
    D = _Z(1)
    for f, n in order[:-1]:
        D *= _Z(f.numerator + f.denominator) ** n
        groups = _convolve(groups, _int_factor(f, n))
    f, n = order[-1]
    D *= _Z(f.numerator + f.denominator) ** n
    return groups, _int_factor(f, n), D


def _int_groups(distinct: list[tuple[Any, int]]) -> tuple[dict, Any]:
    """Rational e^{εᵢ}: {ratio (Q): [P·D, P'·D]} with integer masses, and D = Π(a+b)^n."""
    groups, last, D = _int_parts(distinct)
    return _convolve(groups, last), D


def _int_stream(distinct: list[tuple[Any, int]]):
    """The groups in decreasing ratio without building the last convolution: each ratio of the
    last factor scales the (sorted) rest, and a heap merges those sorted streams lazily.  Equal
    ratios may come out as consecutive items; the scan is unaffected (P = λP' for each)."""

    groups, last, D = _int_parts(distinct)
    rest = sorted(groups.items(), key=lambda kv: kv[0], reverse=True)

    def stream(r2, p2, q2):
        for r1, (p1, q1) in rest:
            yield (r1 * r2, p1 * p2, q1 * q2)

    streams = [stream(r2, p2, q2) for r2, (p2, q2) in last.items()]
    return heapq.merge(*streams, key=lambda x: x[0], reverse=True), D


def _new_primes(x: int, acc: int) -> bool:
    """Whether x has a prime factor not dividing acc (no factorisation needed)."""
    g = gcd(x, acc)
    while g > 1:
        x //= g
        g = gcd(x, acc)
    return x > 1


def _merge_order(items: list) -> list:
    pool = list(items)
    size = [f.numerator * f.denominator for f, _n in pool]
    if len(pool) <= 1:
        return pool
    links = [sum(1 for j in range(len(pool)) if j != i and gcd(size[i], size[j]) > 1) for i in range(len(pool))]
    first = max(range(len(pool)), key=lambda i: links[i])
    order = [pool.pop(first)]
    acc = size.pop(first)
    while pool:

        def score(i):
            x = size[i]
            return (_new_primes(x, acc), gcd(x, acc) == 1)  # noqa: B023 (used in this iteration only)

        i = min(range(len(pool)), key=score)
        order.append(pool.pop(i))
        acc *= size.pop(i)
    return order


def _field_groups(distinct: list[tuple[Any, int]]) -> tuple[dict, Any]:
    """Decimal ε's: {(ρ, e): [P·D, P'·D]} with masses in ℚ(t), t = e^{1/L}; ratio = ρ t^e."""
    split = [(_split(E), n) for E, n in distinct]
    L = 1
    for (_r, s), _n in split:
        d = to_fraction(s).denominator
        L = L * d // gcd(L, d)
    # D = Π (1 + E)^n has degree Σ n·m in t: bounded before FLINT is asked to build it
    check_field_degree(
        sum(n * abs(int(s * L)) for (_r, s), n in split), f"the optimal composition's masses in Q(exp(1/{L}))"
    )
    groups: dict = {(Q(1), 0): [Q(1), Q(1)]}
    D: Any = Q(1)
    for (r, s), n in split:
        m = int(s * L)
        E = r * qt_exp(1, Q(m, L)) if m else r
        D = D * (1 + E) ** n
        one: dict = {}
        for k in range(n + 1):
            c = comb(n, k)
            key = (r ** (2 * k - n), m * (2 * k - n))
            p = c * (E**k if k else Q(1))
            pp = c * (E ** (n - k) if n - k else Q(1))
            cur = one.get(key)
            if cur is None:
                one[key] = [p, pp]
            else:
                cur[0] = cur[0] + p
                cur[1] = cur[1] + pp
        new: dict = {}
        for (r1, e1), (p1, q1) in groups.items():
            for (r2, e2), (p2, q2) in one.items():
                key = (r1 * r2, e1 + e2)
                cur = new.get(key)
                if cur is None:
                    new[key] = [p1 * p2, q1 * q2]
                else:
                    cur[0] = cur[0] + p1 * p2
                    cur[1] = cur[1] + q1 * q2
        groups = new
    out = {}
    for (rho, e), masses in groups.items():
        lam = rho * qt_exp(1, Q(e, L)) if e else rho
        out[lam] = masses
    return out, D


def pld(comps: Sequence[Component]) -> tuple[list[tuple[Any, Any, Any]], Any]:
    """The exact privacy-loss distribution of ⊗RR_{εᵢ} (pure parts), grouped by ratio.

    Returns ``(groups, D)``: groups ``(λ, P·D, P'·D)`` sorted by decreasing likelihood ratio
    λ = P/P' (exact), and the common denominator D = Π(1 + e^{εᵢ}).
    """
    distinct = _distinct(comps)
    if all(is_rational(E) for E, _ in distinct):
        groups, D = _int_groups(distinct)
        return [(lam, *groups[lam]) for lam in sorted(groups, reverse=True)], D
    groups, D = _field_groups(distinct)
    items = sorted(groups.items(), key=lambda kv: kv[0], reverse=True)
    return [(lam, p, pp) for lam, (p, pp) in items], D


# --- the least lambda -------------------------------------------------------------------------


def _target(comps: Sequence[Component], delta_g: Any) -> Any:
    """τ = 1 − (1 − δ_g)/Π(1 − δᵢ), or None when no finite ε works."""
    keep = _keep_factor(comps)
    if keep == 0:  # a component with δᵢ = 1: δ(λ) = 1 at every λ, so ε = 0 at δ_g = 1, none below
        return Q(1) if delta_g >= 1 else None
    tau = 1 - (1 - as_q(delta_g)) / keep
    return tau if tau >= 0 else None


def _scan(groups, D, tau) -> Any:
    """Least λ ≥ 1 with (A(λ) − λB(λ))/D ≤ τ over sorted groups (see the module docstring)."""
    A: Any = 0
    B: Any = 0
    tD = tau * D
    for lam, p, pp in groups:
        if lam <= 1:
            break
        if A - lam * B > tD:
            return _q(A - tD) / _q(B)
        A = A + p
        B = B + pp
    if A - B > tD:
        return _q(A - tD) / _q(B)
    return Q(1)


def _q(x: Any) -> Any:
    return Q(int(x)) if type(x) is _Z or type(x) is int else x


def _homogeneous(E: Any, k: int, tau: Any) -> Any:
    """The binomial scan for k copies of RR with rational e^ε = a/b (module docstring)."""
    f = to_fraction(E)
    a, b = _Z(f.numerator), _Z(f.denominator)
    ft = to_fraction(tau)
    p, q = _Z(ft.numerator), _Z(ft.denominator)
    if a == b:
        return Q(1)
    D = (a + b) ** k
    pD = p * D

    def crossed(A, B, s) -> bool:
        m = 2 * s - k  # ratio (a/b)^m;  A − λB > τD  <=>  q(b^m A − a^m B) > p b^m D
        bm = b**m
        return q * (bm * A - a**m * B) > pD * bm

    def solve(A, B) -> Any:
        return (Q(int(A)) - as_q(tau) * Q(int(D))) / Q(int(B))

    window = max(1, k // 128)
    A = B = _Z(0)
    P, Pp = a**k, b**k  # s = k
    s = k
    saved = (A, B, P, Pp, s)
    steps = 0
    while 2 * s - k > 0:
        if steps % window == 0:
            if crossed(A, B, s):
                return _bisect(saved, (A, B, P, Pp, s), a, b, k, crossed, solve)
            saved = (A, B, P, Pp, s)
        A += P
        B += Pp
        # P_{s-1} = P_s * s b / ((k-s+1) a);  P'_{s-1} = P'_s * s a / ((k-s+1) b)
        P = _divexact(P * (s * b), (k - s + 1) * a)
        Pp = _divexact(Pp * (s * a), (k - s + 1) * b)
        s -= 1
        steps += 1
    # every ratio > 1 is accumulated: check the states since the last checkpoint, then λ = 1
    last = _scan_window(saved, s, a, b, k, crossed, solve)
    if last is not None:
        return last
    if q * (A - B) > pD:
        return solve(A, B)
    return Q(1)


def _states(saved, stop_s, a, b, k):
    A, B, P, Pp, s = saved
    out = []
    while s > stop_s and 2 * s - k > 0:
        out.append((A, B, s))
        A += P
        B += Pp
        P = _divexact(P * (s * b), (k - s + 1) * a)
        Pp = _divexact(Pp * (s * a), (k - s + 1) * b)
        s -= 1
    return out


def _scan_window(saved, stop_s, a, b, k, crossed, solve):
    """Between the last checkpoint and the end of the ratios > 1: first crossing, if any."""
    states = _states(saved, stop_s, a, b, k)
    for A, B, s in states:
        if crossed(A, B, s):
            return solve(A, B)
    return None


def _bisect(saved, current, a, b, k, crossed, solve):
    """The crossing lies in (saved.s, current.s]: list the window's states, bisect (monotone)."""
    states = _states(saved, current[4], a, b, k) + [(current[0], current[1], current[4])]
    lo, hi = 0, len(states) - 1  # states[hi] crossed; states[0] did not (a checkpoint)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if crossed(*states[mid]):
            hi = mid
        else:
            lo = mid
    A, B, _s = states[hi]
    return solve(A, B)


def optimal_lambda(comps: Sequence[Component], delta_g: Any) -> Any:
    """The least e^{ε_g} ≥ 1 such that ⊗RR_(εᵢ,δᵢ) (hence every composition of (εᵢ, δᵢ)-DP
    mechanisms) is (ε_g, δ_g)-DP: a rational, an element of ℚ(e^{1/L}), or ``INF``.

    References
    ----------
    Vadhan & Wang (TCC 2021), Thm 1.4, 5.6, 5.7; Kairouz, Oh & Viswanath (ICML 2015);
    Murtagh & Vadhan (TCC 2016).
    """
    tau = _target(comps, delta_g)
    if tau is None:
        return INF
    distinct = _distinct(comps)
    if len(distinct) == 1 and is_rational(distinct[0][0]):
        return _homogeneous(distinct[0][0], distinct[0][1], tau)
    if all(is_rational(E) for E, _ in distinct):
        stream, D = _int_stream(distinct)
        return _scan(stream, D, tau)
    groups, D = pld(comps)
    return _scan(groups, D, tau)


def optimal(comps: Sequence[Component], delta_g: Any) -> OptimalResult:
    """:func:`optimal_lambda` with ε_g = log(λ*) as an exact value."""
    lam = optimal_lambda(comps, delta_g)
    eps = INF if is_inf(lam) else ladder.log(lam)
    return OptimalResult(lam, eps, as_q(delta_g), len(comps))


def optimal_profile(comps: Sequence[Component]) -> list[tuple[Any, Any]]:
    """The full staircase: (λ, δ(λ)) at λ = 1 and at every ratio λ > 1 of the PLD, increasing,
    with δ(λ) = 1 − Π(1 − δᵢ)(1 − LHS(λ)) exact; beyond the last one δ = 1 − Π(1 − δᵢ)."""
    groups, D = pld(comps)
    keep = _keep_factor(comps)
    pts = []
    A: Any = 0
    B: Any = 0
    for lam, p, pp in groups:
        if lam <= 1:
            break
        pts.append((lam, 1 - keep * (1 - (_q(A) - lam * _q(B)) / _q(D))))
        A = A + p
        B = B + pp
    pts.append((Q(1), 1 - keep * (1 - (_q(A) - _q(B)) / _q(D))))
    pts.reverse()
    return pts


def delta_at(comps: Sequence[Component], lam: Any) -> Any:
    """δ(λ) of ⊗RR_(εᵢ,δᵢ) at λ = e^ε ≥ 1 (λ rational or in ℚ(e^{1/L})), exactly."""
    groups, D = pld(comps)
    A: Any = 0
    B: Any = 0
    for g, p, pp in groups:
        if g <= lam:
            break
        A = A + p
        B = B + pp
    return 1 - _keep_factor(comps) * (1 - (_q(A) - lam * _q(B)) / _q(D))


def optimal_bruteforce(comps: Sequence[Component], delta_g: Any) -> Any:
    """The least e^{ε_g} from the 2^k subset-sum definition (Thm 1.4), for tests (k ≤ 16)."""
    tau = _target(comps, delta_g)
    if tau is None:
        return INF
    Es = [c.E for c in comps]
    norm: Any = Q(1)
    for E in Es:
        norm = norm * (1 + E)
    terms = []
    for S in itertools.product((0, 1), repeat=len(Es)):
        num: Any = Q(1)
        den: Any = Q(1)
        for bit, E in zip(S, Es):
            if bit:
                num = num * E
            else:
                den = den * E
        terms.append((num, den))

    def lhs(C):
        total: Any = Q(0)
        for num, den in terms:
            v = num - C * den
            if v > 0:
                total = total + v
        return total / norm

    cands = sorted({Q(1)} | {n / d for n, d in terms if n / d > 1})
    vals = [lhs(c) for c in cands]
    if vals[0] <= tau:
        return Q(1)
    last = max(i for i, v in enumerate(vals) if v > tau)
    # on [c_last, c_next] lhs is linear: solve
    c0, c1 = cands[last], cands[last + 1]
    v0, v1 = vals[last], vals[last + 1]
    return c0 + (tau - v0) * (c1 - c0) / (v1 - v0)
