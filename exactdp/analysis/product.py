r"""The privacy profile of ``repeat(M, k)`` for an M without adversary choices, as a product.

Without choices, the k-fold composition's views are k independent views of M, so its privacy loss
distribution is the k-fold product of M's (Dong, Roth & Su 2022, Thm 3.2 for trade-off
functions; Koskela, Jälkö & Honkela 2020 for the privacy loss distribution).  M's chain for an
ordered pair lists its views grouped by likelihood ratio: edges (r, w) with P_x'-mass w and
P_x-mass r w, and ``top``, the P_x-mass of the views impossible under x'.  A view of the product
has ratio Π r_a^{n_a} for the counts n_a of M's edges it is made of, and P_x'-mass
multinomial(k; n) Π w_a^{n_a}; it is impossible under x' when one of its k parts is.

With m edges of positive ratio there are C(k + m − 1, m − 1) count vectors: for m ≤ 2 (randomized
response and every mechanism with two outputs) k + 1 of them, where the backward induction over
the k layers walks about k²/2 (layer, ratio) states.  With more edges:

* when the ratios are *commensurable*, r_a = s^(e_a) for one rational s and integers e_a (k-ary
  randomized response: e^ε, 1, e^−ε; a geometric mechanism of sensitivity 2), many count vectors
  share a ratio s^(Σ n_a e_a), and the masses of the product's ratios are the coefficients of
  the polynomial power (Σ_a w_a z^(e_a − min e))^k, which python-flint computes exactly and fast;
* otherwise each count vector is listed once, its terms merged by ratio: C(k + m − 1, m − 1)
  of them, where the induction, which merges equal ratios layer by layer, walks the count
  vectors of every layer, about k/m times as many (report-noisy-max repeated 300 times).

Either needs rational numbers; numbers of ℚ(e^{1/L}) with more than two ratios, and lists too
long to hold, are left to the induction.
"""

from __future__ import annotations

from collections.abc import Iterator
from math import comb, factorial, gcd, prod
from typing import Any

from ..lazy import flint
from ..limits import check_bits, check_hull_size, current
from ..model.flat import ASK_KIND, flat_of
from ..model.game import Mechanism
from ..numbers.loglinear import coprime_basis, exponents
from ..numbers.rational import Q, is_rational, q_bits
from .induction import Chain, _bits, _tick, pair_chains

__all__ = [
    "repeated_parts",
    "product_chain",
    "power",
    "terms",
    "views_by_ratio",
    "commensurable",
    "ratio_powers",
    "count_vectors",
]

_ONE = Q(1)


def repeated_parts(mech: Mechanism) -> tuple[Mechanism, int] | None:
    """(M, k) when ``mech`` was built as ``repeat(M, k)`` and M has no adversary choice, else None."""
    parts = mech.__dict__.get("_repeat")
    if parts is None:
        return None
    inner, times = parts
    return None if ASK_KIND in flat_of(inner).kind else (inner, times)


def product_chain(inner: Mechanism, i: int, j: int, times: int, deadline: float | None = None) -> Chain | None:
    """The chain of ``repeat(inner, times)`` for the ordered pair (i, j) from inner's, or None
    when inner has more than two edges of positive ratio and :func:`views_by_ratio` leaves them
    to the induction."""
    top, R, W = pair_chains(flat_of(inner), i, j)[-1]  # type: ignore[misc]
    zero = W[-1] if R and not R[-1] else Q(0)  # P_x'-mass of the views impossible under x
    edges = [(r, w) for r, w in zip(R, W) if r]
    if len(edges) <= 2 or not times:
        ratios, widths = _counts(edges, times, deadline)
    elif (got := views_by_ratio([r for r, _ in edges], [[w for _, w in edges]], times, deadline)) is not None:
        ratios, (widths,) = got
    else:
        return None
    flat = _ONE - power(_ONE - zero, times, deadline) if zero else 0
    if flat:
        ratios.append(Q(0))
        widths.append(flat)
    return (_ONE - power(_ONE - top, times, deadline) if top else top, ratios, widths)


def _counts(edges: list, k: int, deadline: float | None) -> tuple[list, list]:
    """Ratios (decreasing) and P_x'-masses of the product's views made only of ``edges`` (at most
    two, ratios decreasing): n parts of the first and k − n of the second, n = k, ..., 0."""
    if k == 0:
        return [_ONE], [_ONE]
    if len(edges) < 2:
        return ([power(edges[0][0], k, deadline)], [power(edges[0][1], k, deadline)]) if edges else ([], [])
    (r1, w1), (r2, w2) = edges
    return list(terms(r1, r2, k, deadline, binomial=False)), list(terms(w1, w2, k, deadline))


def terms(a1: Any, a2: Any, k: int, deadline: float | None, binomial: bool = True) -> Iterator[Any]:
    """C(k, n) a1^n a2^(k − n) for n = k, k − 1, ..., 0 (without C(k, n) unless ``binomial``), a1 > 0:
    each from the last times a2/a1, so that only one power is held at a time."""
    x, step, c = power(a1, k, deadline), a2 / a1, 1
    for n in range(k, -1, -1):
        yield c * x if binomial else x
        x, c = x * step, c * n // (k - n + 1)
        if not n & 63:
            check_bits(_bits(x), "a probability computed by the profile engine")
            _tick("profile", k - n, k, None, deadline)


def power(x: Any, k: int, deadline: float | None) -> Any:
    """x^k, within --max-bits and the deadline (checked every 64 products, as the induction checks
    its numbers at every answer and the clock every 16,384 nodes)."""
    out = _ONE
    for n in range(1, k + 1):
        out = out * x
        if not n & 63 or n == k:
            check_bits(_bits(out), "a probability computed by the profile engine")
            _tick("profile", n, k, None, deadline)
    return out


def views_by_ratio(ratios: list, masses: list[list], k: int, deadline: float | None) -> tuple[list, list[list]] | None:
    """The views of a k-fold product grouped by likelihood ratio, from M's views grouped by ratio:
    the product's distinct ratios, decreasing, and per list of ``masses`` (one mass per ratio of
    M's) the masses of the product's; by :func:`ratio_powers` for commensurable ratios, else by
    :func:`count_vectors`; None when neither applies (the induction is then no slower), and for
    more than 64 ratios (a coprime basis of their numbers is quadratic in them)."""
    if len(ratios) > 64:
        return None
    got = ratio_powers(ratios, masses, k, deadline)
    return got if got is not None else count_vectors(ratios, masses, k, deadline)


def commensurable(ratios: list) -> tuple[Any, list[int]] | None:
    """(s, e): a rational s > 1 and integers e_a with r_a = s^(e_a), when the positive rationals
    r_a are commensurable (their logarithms are rational multiples of one) and not all 1; else
    None, also for a number outside ℚ or one of more than 4,096 bits.  Over a coprime basis
    (:func:`~exactdp.numbers.loglinear.coprime_basis`) each r_a is an exponent vector v_a; they
    are commensurable when every v_a is a multiple of one primitive vector u (an integer multiple,
    as u's entries have gcd 1), and then s = Π b^(u_b)."""
    got = _log_vectors(ratios)
    first = next((v for v in got[1] if any(v)), None) if got else None
    if got is None or first is None:
        return None
    basis, vectors = got
    g = gcd(*first)
    u = [x // g for x in first]
    at = next(n for n, x in enumerate(u) if x)
    exps = [v[at] // u[at] for v in vectors]
    if any([e * x for x in u] != v for e, v in zip(exps, vectors)):
        return None
    s = Q(1)
    for b, x in zip(basis, u):
        s = s * Q(b) ** x
    return (s, exps) if s > 1 else (1 / s, [-e for e in exps])


def _log_vectors(ratios: list) -> tuple[list[int], list[list[int]]] | None:
    """(basis, v): a coprime basis and each ratio's exponents over it, r_a = Π b^(v_a[b]) (the
    logarithms as vectors: log r_a = Σ v_a[b] log b, and the log b are linearly independent over
    ℚ); None for a number outside ℚ, not positive, or of more than 4,096 bits."""
    if not all(is_rational(r) and r > 0 and q_bits(r) <= 4096 for r in ratios):
        return None
    basis = coprime_basis([int(x) for r in ratios for x in (r.numerator, r.denominator)])
    ups, downs = (
        [exponents(int(r.numerator), basis) for r in ratios],
        [exponents(int(r.denominator), basis) for r in ratios],
    )
    return basis, [[up.get(b, 0) - down.get(b, 0) for b in basis] for up, down in zip(ups, downs)]


def _rank(vectors: list[list[int]]) -> int:
    """The rank of integer vectors (Gaussian elimination over ℚ)."""
    rows, rank = [[Q(x) for x in v] for v in vectors], 0
    for col in range(len(rows[0]) if rows else 0):
        pivot = next((r for r in range(rank, len(rows)) if rows[r][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for r in range(rank + 1, len(rows)):
            f = rows[r][col] / rows[rank][col]
            rows[r] = [x - f * y for x, y in zip(rows[r], rows[rank])]
        rank += 1
    return rank


def ratio_powers(ratios: list, masses: list[list], k: int, deadline: float | None) -> tuple[list, list[list]] | None:
    """The views of a k-fold product grouped by likelihood ratio, for commensurable ratios
    r_a = s^(e_a) (:func:`commensurable`): a view made of n_a views of ratio r_a has ratio
    s^(Σ n_a e_a) and mass Π m_a^(n_a) times the multinomial coefficient, so the masses of the
    ratio s^E, summed, are the coefficient of z^(E − k min e) in (Σ_a m_a z^(e_a − min e))^k.
    Returns the ratios s^E, decreasing, whose mass is nonzero in some list, and per list of
    ``masses`` (one mass per ratio) their masses; None when the ratios are not commensurable, a
    mass is not rational, or the exponents are spread out (the induction is then no slower)."""
    base = commensurable(ratios)
    if base is None or not all(is_rational(m) for ms in masses for m in ms):
        return None
    s, exps = base
    low, span = min(exps), max(exps) - min(exps)
    top_bits = max(q_bits(m) for ms in masses for m in ms)
    dense = k * span + 1  # (the power's length; its nonzero terms, the profile's pieces, may be far fewer)
    if span > 64 * len(exps) or dense > current().max_hull_edges or dense * k * top_bits > 2**30:  # (128 MB)
        return None
    check_bits(k * top_bits, "a probability computed by the profile engine")  # (m_a^k is a term)
    _tick("profile", 0, k, None, deadline)
    powers = [_power(exps, low, span, ms, k) for ms in masses]
    ratios_out: list = []
    out: list[list] = [[] for _ in masses]
    ratio = s ** (k * (low + span))
    for column in zip(*powers):  # (exponents decreasing: s > 1, so ratios decreasing)
        if any(column):
            ratios_out.append(ratio)
            for lst, m in zip(out, column):
                lst.append(m)
        ratio = ratio / s
    check_hull_size(len(ratios_out))
    _tick("profile", k, k, None, deadline)
    return ratios_out, out


def _power(exps: list[int], low: int, span: int, masses: list, k: int) -> list:
    """The coefficients of (Σ_a m_a z^(e_a − low))^k, highest degree (k span) first."""
    poly = [flint.fmpq(0)] * (span + 1)
    for e, m in zip(exps, masses):
        poly[e - low] += flint.fmpq(int(m.numerator), int(m.denominator))
    coeffs = (flint.fmpq_poly(poly) ** k).coeffs()
    coeffs += [flint.fmpq(0)] * (k * span + 1 - len(coeffs))
    return [Q(int(c.p), int(c.q)) for c in reversed(coeffs)]


def count_vectors(ratios: list, masses: list[list], k: int, deadline: float | None) -> tuple[list, list[list]] | None:
    """:func:`views_by_ratio` by listing the count vectors n (Σ n_a = k) of M's views: ratio
    Π r_a^(n_a), masses multinomial(k; n) Π m_a^(n_a), merged by ratio.  The induction walks the
    distinct ratios of every layer, about k^(ρ+1) of them for ratios whose logarithms have rank ρ,
    and the list k^(m−1), so the list is used for ρ ≥ m − 2 only.  None then, and for numbers
    outside ℚ, more count vectors than ``--max-profile-size``, or more than 2^31 bits in all."""
    m, logs = len(ratios), _log_vectors(ratios)
    if logs is None or not all(is_rational(x) for ms in masses for x in ms) or _rank(logs[1]) < m - 2:
        return None  # (rank < m - 2: so many products coincide that the induction walks fewer states)
    top_bits, count = max(q_bits(x) for x in ratios + [y for ms in masses for y in ms]), comb(k + m - 1, m - 1)
    if count > current().max_hull_edges or count * k * top_bits * (len(masses) + 1) > 2**31:
        return None
    check_bits(k * top_bits, "a probability computed by the profile engine")  # (r_a^k, m_a^k are terms)
    rows = [ratios, *masses]
    powers = [[[Q(1)] + [None] * k for _ in ratios] for _ in rows]
    for row, pw in zip(rows, powers):
        for a, x in enumerate(row):
            for n in range(1, k + 1):
                pw[a][n] = pw[a][n - 1] * x
    fact = [factorial(n) for n in range(k + 1)]
    merged: dict = {}
    for done, counts in enumerate(_compositions(k, m)):
        if not done & 4095:
            _tick("profile", done, count, None, deadline)
        c = fact[k] // prod(fact[x] for x in counts)
        ratio, *got = [prod((pw[a][x] for a, x in enumerate(counts)), start=Q(1)) for pw in powers]
        old = merged.get(ratio)
        merged[ratio] = [c * g for g in got] if old is None else [o + c * g for o, g in zip(old, got)]
    order = sorted(merged, reverse=True)
    return order, [[merged[r][row] for r in order] for row in range(len(masses))]


def _compositions(k: int, m: int) -> Iterator[tuple[int, ...]]:
    """Every (n_1, ..., n_m) of whole numbers with sum k."""
    if m == 1:
        yield (k,)
        return
    for n in range(k, -1, -1):
        for rest in _compositions(k - n, m - 1):
            yield (n, *rest)
