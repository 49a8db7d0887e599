r"""Named privacy theorems as checkable bounds: composition bounds with logarithms and square
roots, and the conversions from Rényi DP and zCDP to (ε, δ)-DP.

Each entry of :data:`NAMED` states one published bound as a function of its premises.  A claim
(``composition: {theorem: ...}`` and ``conversion: {theorem: ...}``) or the command line evaluates
it and checks that it is *valid for a given mechanism*: the mechanism's exact PrivLoss at the
theorem's δ is at most the bound.  Bounds with square roots are certified intervals
(:class:`~exactdp.theorems.advanced.IntervalBound`); the Rényi conversions at whole orders are
exact linear forms in logarithms, compared exactly.

Composition bounds (components (εᵢ, δᵢ), slack δ̃):

* ``advanced`` — Dwork, Rothblum & Vadhan 2010, Thm III.3: ε' = sqrt(2 ln(1/δ̃) Σεᵢ²) + Σεᵢ(e^{εᵢ} − 1),
  δ = Σδᵢ + δ̃;
* ``kov-3.4`` — Kairouz, Oh & Viswanath 2015, Thm 3.4 (3.5 heterogeneous);
* ``kov-slides-1`` — the KOV slides' "Composition Theorem I" *as printed*:
  ε̃ = min{kε, kε² + sqrt(kε² log(e + 1/δ̃))}, δ = kδ + δ̃ (homogeneous components).  Read
  literally it is not a valid bound: for 30-fold RR with ε = 0.1 and δ̃ = 10⁻⁶ it gives
  2.33584 < 2.34589, the exact optimum (the paper's Thm 3.4 has a factor 2 under the root);
* ``kov-slides-2`` — the slides' "Composition Theorem II" as printed:
  ε̃ = min{Σε_ℓ, kε̄² + sqrt(2kε̄² log(e + √k·ε̄/δ̃))}, ε̄² = (1/k)Σε_ℓ²,
  δ = 1 − (1 − δ̃)Π(1 − δ_ℓ).

Conversions (a mechanism's own divergence or zCDP parameter, and δ):

* ``renyi-to-dp`` — Mironov 2017, Prop. 3: (α, D)-RDP ⇒ (D + log(1/δ)/(α − 1), δ)-DP;
* ``renyi-to-dp-cks`` — Canonne, Kamath & Steinke 2020, Prop. 12 (the conversion dp_accounting
  uses): ε = D + (log(1/δ) + (α − 1) log(1 − 1/α) − log α)/(α − 1);
* ``zcdp-to-dp`` — Bun & Steinke 2016, Prop. 1.3: ρ-zCDP ⇒ (ρ + 2 sqrt(ρ log(1/δ)), δ)-DP;
* ``zcdp-to-dp-cks`` — Canonne, Kamath & Steinke 2020, Prop. 12 with D_α = αρ at the best order α
  (the conversion OpenDP uses, which searches α ≥ 1.01 only): ρ-zCDP ⇒ (min over α > 1 of
  αρ + (log(1/δ) − log α)/(α − 1) + log(1 − 1/α), δ)-DP, never above Bun–Steinke's.

References
----------
C. Dwork, G. Rothblum, S. Vadhan, *Boosting and Differential Privacy*, FOCS 2010, Thm III.3.
P. Kairouz, S. Oh, P. Viswanath, *The Composition Theorem for Differential Privacy*, ICML 2015,
Thm 3.4–3.5, and the talk slides of the same title.
I. Mironov, *Rényi Differential Privacy*, CSF 2017, Prop. 3.
C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*, NeurIPS
2020, Prop. 12.
M. Bun, T. Steinke, *Concentrated Differential Privacy*, TCC 2016, Prop. 1.3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import isqrt
from typing import Any

from ..errors import ExactDPError, InexactValueError
from ..lazy import mpmath
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, as_q, to_fraction
from .advanced import _PRECS, IntervalBound, _make, _mpf_frac, _with_prec, advanced, iv_eps, kov_3_4, slide_formula
from .params import Component, slack_of
from .registry import Theorem, register

__all__ = [
    "NamedTheorem",
    "NAMED",
    "COMPOSITION_BOUNDS",
    "CONVERSIONS",
    "slides_theorem_2",
    "renyi_to_dp",
    "renyi_to_dp_cks",
    "zcdp_to_dp",
    "zcdp_to_dp_cks",
    "compare_bound",
    "theorem",
]


@dataclass(frozen=True)
class NamedTheorem:
    """One published bound: its key, what it converts (``composition`` or ``conversion``), the
    citation, and whether it is valid as stated (``False`` only for the slides' Theorem I, which
    exactdp keeps in order to show it failing)."""

    key: str
    kind: str
    source: str
    bound: Callable[..., Any]
    valid_as_stated: bool = True


def _iv_q(x: Any) -> Any:
    f = to_fraction(x)
    return mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator)


def _homogeneous(comps: Sequence[Component], what: str) -> Component:
    first = comps[0]
    for c in comps[1:]:
        if ladder.cmp(c.eps, first.eps) != 0 or c.delta != first.delta:
            raise ExactDPError(f"{what} is stated for k components with one (eps, delta); these differ")
    return first


def slides_theorem_1(comps: Sequence[Component], delta_slack: Any) -> IntervalBound:
    """The KOV slides' Theorem I as printed (homogeneous): not a valid bound (module docstring)."""
    _homogeneous(comps, "the slides' Theorem I")
    return slide_formula(comps, delta_slack)


def slides_theorem_2(comps: Sequence[Component], delta_slack: Any) -> IntervalBound:
    """The KOV slides' Theorem II as printed: min{Σε_ℓ, kε̄² + sqrt(2kε̄² log(e + √k ε̄/δ̃))}
    with kε̄² = Σε_ℓ², δ_total = 1 − (1 − δ̃)Π(1 − δ_ℓ)."""
    ds = slack_of(delta_slack)

    def terms(prec: int) -> list:
        def f() -> list:
            s2 = sum((iv_eps(c.eps) ** 2 for c in comps), mpmath.iv.mpf(0))
            return [s2 + mpmath.iv.sqrt(2 * s2 * mpmath.iv.log(mpmath.iv.e + mpmath.iv.sqrt(s2) / _iv_q(ds)))]

        return _with_prec(prec, f)

    keep = Q(1)
    for c in comps:
        keep *= 1 - c.delta
    total: Any = Q(0)
    for c in comps:
        total = ladder.add(total, c.eps)
    return _make("kov-slides-2", "KOV slides, Theorem II as printed", 1 - (1 - ds) * keep, (total,), terms)


# --- conversions ---------------------------------------------------------------------------------


def _log_inverse(delta: Any) -> Any:
    """log(1/δ) exactly: δ rational, or a number of ℚ(e^{1/L}) such as e^-1 (as Tumult writes δ)."""
    return ladder.log(ladder.div(Q(1), delta))


def renyi_to_dp(divergence: Any, alpha: Any, delta: Any) -> Any:
    """ε = D + log(1/δ)/(α − 1) (Mironov 2017, Prop. 3): exact for an exact D and a whole α."""
    a = as_q(alpha)
    return ladder.add(divergence, ladder.mul(Q(1) / (a - 1), _log_inverse(delta)))


def renyi_to_dp_cks(divergence: Any, alpha: Any, delta: Any) -> Any:
    """ε = D + (log(1/δ) + (α − 1) log(1 − 1/α) − log α)/(α − 1) (Canonne–Kamath–Steinke 2020,
    Prop. 12), exact for an exact D and a whole α."""
    a = as_q(alpha)
    inner = ladder.add(_log_inverse(delta), ladder.mul(a - 1, ladder.log(1 - 1 / a)))
    inner = ladder.sub(inner, ladder.log(a))
    return ladder.add(divergence, ladder.mul(Q(1) / (a - 1), inner))


def zcdp_to_dp(rho: Any, delta: Any) -> IntervalBound:
    """ε = ρ + 2 sqrt(ρ log(1/δ)) (Bun–Steinke 2016, Prop. 1.3), a certified interval (δ rational,
    or a number of ℚ(e^{1/L}) such as e^-1)."""
    r, d = as_q(rho), ladder.as_field(delta)
    if not (ladder.sign(d) > 0 and ladder.cmp(d, 1) < 0):
        raise ExactDPError("zcdp-to-dp needs 0 < delta < 1")

    def terms(prec: int) -> list:
        return _with_prec(prec, lambda: [_iv_q(r) + 2 * mpmath.iv.sqrt(_iv_q(r) * mpmath.iv.log(1 / iv_eps(d)))])

    return _make("zcdp-to-dp", "Bun-Steinke 2016, Prop. 1.3", d, (), terms)


def zcdp_to_dp_cks(rho: Any, delta: Any) -> IntervalBound:
    """ε = min over α > 1 of f(α) = αρ + (log(1/δ) − log α)/(α − 1) + log(1 − 1/α): the
    Rényi conversion of Canonne, Kamath & Steinke 2020 (Prop. 12) at D_α = αρ, the best order
    taken (as OpenDP converts zCDP), a certified interval.

    f′(α) = ρ − (log(1/δ) − log α)/(α − 1)² has the sign of g(α) = ρ(α − 1)² + log α − log(1/δ),
    which increases from −log(1/δ) < 0 at α = 1 to ∞: f has one minimum, at the root α* of g.
    Bisection in rationals brackets α* in [a, b], and f(a) + min(0, f′ on [a, b])(b − a) ≤ f(α*)
    ≤ min(f(a), f(b)) (f decreases on [a, α*])."""
    r, d = as_q(rho), ladder.as_field(delta)
    if not (ladder.sign(d) > 0 and ladder.cmp(d, 1) < 0):
        raise ExactDPError("zcdp-to-dp-cks needs 0 < delta < 1")

    def terms(prec: int) -> list:
        p, log_inv = _positive_log_inverse(d, prec)
        low = _mpf_frac(log_inv.a)  # log(1/δ) near 0 cancels against log α: as many more bits as it is small
        if (extra := low.denominator.bit_length() - low.numerator.bit_length()) > 0:
            p, log_inv = _positive_log_inverse(d, p + extra)
        return _with_prec(p, lambda: [_cks_minimum(to_fraction(r), log_inv, prec)])

    return _make("zcdp-to-dp-cks", "Canonne-Kamath-Steinke 2020, Prop. 12 at the best order", d, (), terms)


_MAX_LOG_PRECISION = 1 << 16


def _positive_log_inverse(d: Any, prec: int) -> tuple[int, Any]:
    """(p, an interval of log(1/δ) > 0 at p >= prec bits): δ within 2^-prec of 1 needs more bits
    to bound log(1/δ) away from 0; beyond 65,536 bits an InexactValueError."""
    p = prec
    while True:
        log_inv = _with_prec(p, lambda: mpmath.iv.log(1 / iv_eps(d)))
        if _mpf_frac(log_inv.a) > 0:
            return p, log_inv
        if p >= _MAX_LOG_PRECISION:
            raise InexactValueError(f"log(1/delta) is not bounded away from 0 at {p} bits: delta is that close to 1")
        p *= 2


def _cks_minimum(rho: Any, log_inv: Any, prec: int) -> Any:
    """An interval holding min f (see :func:`zcdp_to_dp_cks`), about ``prec`` bits, from an
    interval of log(1/δ) > 0."""
    low = _mpf_frac(log_inv.a)
    iv = mpmath.iv
    q = _iv_q

    # alpha - 1 is formed exactly and log(alpha) = log1p(alpha - 1): alpha may be within 2^-prec of 1
    def g(a: Fraction) -> Any:
        return q(rho) * q(a - 1) ** 2 + iv.log1p(q(a - 1)) - log_inv

    def f(a: Fraction) -> Any:
        log_a = iv.log1p(q(a - 1))
        return q(a) * q(rho) + (log_inv - log_a) / q(a - 1) + iv.log(q(a - 1)) - log_a

    # g(1 + s) <= (rho + 1) s - log(1/δ) < 0 for s <= 1; g(b) > 0 once rho (b - 1)^2 >= log(1/δ)
    a = 1 + min(Fraction(1), low / (2 * (rho + 1)))
    high = _mpf_frac(log_inv.b) / rho
    b = Fraction(2 + isqrt(high.numerator // high.denominator + 1))
    for _ in range(4 * prec):
        if b - a <= (a - 1) / 2 ** (prec // 2):  # (relative to alpha - 1, which may be tiny)
            break
        m = _middle(a, b)
        gm = g(m)
        if gm.a > 0:
            b = m
        elif gm.b < 0:
            a = m
        else:  # g(m) is 0 within rounding: m is alpha* to this precision
            break
    box_1 = iv.mpf([q(a - 1).a, q(b - 1).b])  # alpha - 1 on [a, b]
    slope = q(rho) - (log_inv - iv.log1p(box_1)) / box_1**2
    lo = (f(a) + iv.mpf([min(slope.a, 0), 0]) * q(b - a)).a
    return iv.mpf([lo, min(f(a).b, f(b).b)])


def _middle(a: Fraction, b: Fraction) -> Fraction:
    """A point strictly between a and b > a > 1: the midpoint, or while b - 1 > 4 (a - 1) a power
    of two for alpha - 1 near the geometric mean (alpha* - 1 may be 10^-150 or 10^150)."""
    s, t = a - 1, b - 1
    if t <= 4 * s:
        return (a + b) / 2
    e = s.numerator.bit_length() - s.denominator.bit_length() + t.numerator.bit_length() - t.denominator.bit_length()
    m = 1 + Fraction(2) ** (e // 2)
    return m if a < m < b else (a + b) / 2


def compare_bound(bound: IntervalBound, value: Any) -> str:
    """``"valid"`` when ``value`` (an exact real, or ∞) ≤ every term of the bound (certified),
    ``"invalid"`` when some term is below it, else ``"undecided"``."""
    if is_inf(value):
        return "invalid"
    if any(ladder.cmp(e, value) < 0 for e in bound.exact_terms):
        return "invalid"
    undecided = False
    for i in range(len(bound.interval_terms(_PRECS[0]))):
        status = None
        for prec in _PRECS:
            v = bound.interval_terms(prec)[i]
            lo, hi = _mpf_frac(v.a), _mpf_frac(v.b)
            if ladder.cmp(Q(lo.numerator, lo.denominator), value) >= 0:
                status = "ge"
                break
            if ladder.cmp(Q(hi.numerator, hi.denominator), value) < 0:
                status = "lt"
                break
        if status == "lt":
            return "invalid"
        undecided = undecided or status is None
    return "undecided" if undecided else "valid"


NAMED: dict[str, NamedTheorem] = {
    t.key: t
    for t in (
        NamedTheorem("advanced", "composition", "Dwork-Rothblum-Vadhan 2010, Thm III.3", advanced),
        NamedTheorem("kov-3.4", "composition", "Kairouz-Oh-Viswanath 2015, Thm 3.4/3.5", kov_3_4),
        NamedTheorem(
            "kov-slides-1",
            "composition",
            "Kairouz-Oh-Viswanath, slides: Composition Theorem I as printed",
            slides_theorem_1,
            valid_as_stated=False,
        ),
        NamedTheorem(
            "kov-slides-2",
            "composition",
            "Kairouz-Oh-Viswanath, slides: Composition Theorem II as printed",
            slides_theorem_2,
        ),
        NamedTheorem("renyi-to-dp", "conversion", "Mironov 2017, Prop. 3", renyi_to_dp),
        NamedTheorem("renyi-to-dp-cks", "conversion", "Canonne-Kamath-Steinke 2020, Prop. 12", renyi_to_dp_cks),
        NamedTheorem("zcdp-to-dp", "conversion", "Bun-Steinke 2016, Prop. 1.3", zcdp_to_dp),
        NamedTheorem(
            "zcdp-to-dp-cks", "conversion", "Canonne-Kamath-Steinke 2020, Prop. 12 at the best order", zcdp_to_dp_cks
        ),
    )
}
COMPOSITION_BOUNDS = tuple(k for k, t in NAMED.items() if t.kind == "composition")

# the slides' theorems join the composition theorems of the registry (advanced and KOV 3.4 are
# registered there): `exactdp compose --theorem` and the `composition` claim take them
register(
    Theorem(
        "kov-slides-1",
        "interval",
        "Kairouz-Oh-Viswanath, slides: Composition Theorem I as printed",
        "not a theorem as printed: read literally it is below the exact optimum (30-fold RR_0.1, delta~ = 1e-6)",
        slides_theorem_1,
    )
)
register(
    Theorem(
        "kov-slides-2",
        "interval",
        "Kairouz-Oh-Viswanath, slides: Composition Theorem II as printed",
        "a theorem for concurrent composition (Vadhan-Zhang 2023; Lyu 2022)",
        slides_theorem_2,
    )
)
CONVERSIONS = tuple(k for k, t in NAMED.items() if t.kind == "conversion")


def theorem(key: str) -> NamedTheorem:
    """The named theorem ``key`` (an ExactDPError naming the known ones otherwise)."""
    try:
        return NAMED[key]
    except KeyError:
        raise ExactDPError(f"unknown theorem {key!r}; known: {', '.join(NAMED)}") from None


__all__ += ["slides_theorem_1"]
