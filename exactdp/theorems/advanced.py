r"""Closed-form composition bounds with logarithms and square roots, as certified intervals.

These bounds are not exact numbers of any field exactdp keeps, so they are evaluated with
mpmath's interval arithmetic (``iv``): every reported interval contains the true value.  They
are then *compared against the exact optimum* (:mod:`exactdp.theorems.optimal`), never the
other way round: a bound is valid when it is ≥ the exact least ε_g at the same total δ.

* Advanced composition (Dwork–Rothblum–Vadhan 2010, Thm III.3; Dwork–Roth 2014 Thm 3.20,
  heterogeneous form): ε' = sqrt(2 ln(1/δ') Σεᵢ²) + Σ εᵢ(e^{εᵢ} − 1), δ_total = Σδᵢ + δ'.
* Kairouz–Oh–Viswanath Theorem 3.4 (homogeneous; Theorem 3.5 heterogeneous, as in their
  code): ε̃ = min{ Σεᵢ, Σ εᵢ(e^{εᵢ}−1)/(e^{εᵢ}+1) + sqrt(2 Σεᵢ² ln(e + sqrt(Σεᵢ²)/δ̃)),
  Σ εᵢ(e^{εᵢ}−1)/(e^{εᵢ}+1) + sqrt(2 Σεᵢ² ln(1/δ̃)) }, δ_total = 1 − (1 − δ̃)Π(1 − δᵢ).

The simplified formula printed on the KOV slides (kε² + sqrt(kε² log(e + 1/δ̃))) is *not* a
valid bound (it falls below the optimum for k = 30, ε = 0.1, δ̃ = 1e-6); it is deliberately not
offered here (the tests show the comparison catching it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import InexactValueError
from ..lazy import mpmath
from ..numbers import ladder
from ..numbers.certified import ball_bounds
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, is_rational, to_fraction
from .optimal import OptimalResult, optimal
from .params import Component, slack_of

__all__ = ["IntervalBound", "interval_text", "advanced", "kov_3_4", "check_against_optimum", "iv_eps", "slide_formula"]

_PRECS = (80, 160, 320, 640, 1280)


@dataclass(frozen=True)
class IntervalBound:
    """A bound (ε, δ_total): ε as a certified interval [lo, hi] (exact binary rationals), the
    exact term it may attain (Σεᵢ), and how to recompute it at another precision."""

    theorem: str
    lo: Fraction
    hi: Fraction
    delta: Any
    source: str
    exact_terms: tuple[Any, ...]
    interval_terms: Callable[[int], list]

    def text(self, digits: int = 12) -> str:
        return interval_text(self.lo, self.hi, digits)


def interval_text(lo: Any, hi: Any, digits: int = 12) -> str:
    """``[2.33584..., 2.33584...]``: a certified interval's ends with ``digits`` significant digits."""
    return f"[{_dec(to_fraction(lo), digits)}, {_dec(to_fraction(hi), digits)}]"


def _dec(f: Fraction, digits: int) -> str:
    with mpmath.workdps(digits + 5):
        return mpmath.nstr(mpmath.mpf(f.numerator) / f.denominator, digits)


def _iv_q(x: Any):
    f = to_fraction(x)
    return mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator)


def iv_eps(eps: Any):
    """An interval containing ε (any finite exact value), at the current iv precision."""
    lo, hi = ball_bounds(ladder.ball(eps, mpmath.iv.prec + 8))
    return mpmath.iv.mpf([_iv_q(lo).a, _iv_q(hi).b])


def _with_prec(prec: int, fn):
    old = mpmath.iv.prec
    mpmath.iv.prec = prec
    try:
        return fn()
    finally:
        mpmath.iv.prec = old


def _sum_eps(comps: Sequence[Component]) -> Any:
    total: Any = Q(0)
    for c in comps:
        total = ladder.add(total, c.eps)
    return total


def _mpf_frac(x) -> Fraction:
    """The exact value of an interval end (an ``iv`` endpoint keeps the interval's precision:
    converting it with ``mpmath.mpf`` would round it to the working precision of ``mp``, 53 bits,
    to nearest, and the interval would no longer enclose the bound)."""
    raw = x._mpi_[0] if hasattr(x, "_mpi_") else mpmath.mpf(x)._mpf_
    if raw in (mpmath.libmp.finf, mpmath.libmp.fninf, mpmath.libmp.fnan):  # (to_rational would give 0)
        raise InexactValueError("a certified interval has an infinite or undefined end at this precision")
    p, q = mpmath.libmp.to_rational(raw)
    return Fraction(int(p), int(q))


def _make(theorem, source, delta, exact_terms, interval_terms) -> IntervalBound:
    def ends(prec):
        ivs = interval_terms(prec)
        los = [_mpf_frac(v.a) for v in ivs]
        his = [_mpf_frac(v.b) for v in ivs]
        return los, his

    los, his = ends(_PRECS[0])
    ex = [to_fraction(e) for e in exact_terms if is_rational(e)]
    # the reported interval of the min: exact terms enter as points (log terms via intervals)
    ex_iv = [_with_prec(_PRECS[0], lambda e=e: iv_eps(e)) for e in exact_terms if not is_rational(e)]
    los += ex + [_mpf_frac(v.a) for v in ex_iv]
    his += ex + [_mpf_frac(v.b) for v in ex_iv]
    return IntervalBound(theorem, min(los), min(his), delta, source, tuple(exact_terms), interval_terms)


def advanced(comps: Sequence[Component], delta_slack: Any) -> IntervalBound:
    """Advanced composition (DRV10): ε' = sqrt(2 ln(1/δ') Σεᵢ²) + Σεᵢ(e^{εᵢ} − 1),
    δ_total = Σδᵢ + δ'.  Returns a certified interval for ε'.

    References
    ----------
    Dwork, Rothblum & Vadhan, Boosting and Differential Privacy (FOCS 2010), Thm III.3;
    Vadhan–Wang Thm 1.3.
    """
    ds = slack_of(delta_slack, one_allowed=False)

    def terms(prec: int) -> list:
        def f():
            eps = [iv_eps(c.eps) for c in comps]
            s2 = sum((e * e for e in eps), mpmath.iv.mpf(0))
            lin = sum((e * (mpmath.iv.exp(e) - 1) for e in eps), mpmath.iv.mpf(0))
            return [mpmath.iv.sqrt(2 * mpmath.iv.log(1 / _iv_q(ds)) * s2) + lin]

        return _with_prec(prec, f)

    delta = sum((c.delta for c in comps), Q(0)) + ds
    return _make("advanced", "Dwork-Rothblum-Vadhan 2010 Thm III.3 (Vadhan-Wang Thm 1.3)", delta, (), terms)


def kov_3_4(comps: Sequence[Component], delta_slack: Any) -> IntervalBound:
    """Kairouz–Oh–Viswanath Theorem 3.4 (3.5 for heterogeneous ε's), certified.

    References
    ----------
    Kairouz, Oh & Viswanath, The Composition Theorem for Differential Privacy (ICML 2015),
    Thm 3.4 and 3.5.
    """
    ds = slack_of(delta_slack)

    def terms(prec: int) -> list:
        def f():
            eps = [iv_eps(c.eps) for c in comps]
            s2 = sum((e * e for e in eps), mpmath.iv.mpf(0))
            mean = sum((e * (mpmath.iv.exp(e) - 1) / (mpmath.iv.exp(e) + 1) for e in eps), mpmath.iv.mpf(0))
            t2 = mean + mpmath.iv.sqrt(2 * s2 * mpmath.iv.log(mpmath.iv.e + mpmath.iv.sqrt(s2) / _iv_q(ds)))
            t3 = mean + mpmath.iv.sqrt(2 * s2 * mpmath.iv.log(1 / _iv_q(ds)))
            return [t2, t3]

        return _with_prec(prec, f)

    keep = Q(1)
    for c in comps:
        keep *= 1 - c.delta
    delta = 1 - (1 - ds) * keep
    return _make("kov-3.4", "Kairouz-Oh-Viswanath 2015 Thm 3.4/3.5", delta, (_sum_eps(comps),), terms)


def slide_formula(comps: Sequence[Component], delta_slack: Any) -> IntervalBound:
    """The KOV slides' 'Theorem I' as printed: min{kε, kε² + sqrt(kε² log(e + 1/δ̃))},
    δ_total = kδ + δ̃ (homogeneous ε).  NOT a valid bound; kept only so that tests can show
    :func:`check_against_optimum` rejecting it."""
    ds = slack_of(delta_slack)
    k = len(comps)

    def terms(prec: int) -> list:
        def f():
            e = iv_eps(comps[0].eps)
            return [k * e * e + mpmath.iv.sqrt(k * e * e * mpmath.iv.log(mpmath.iv.e + 1 / _iv_q(ds)))]

        return _with_prec(prec, f)

    delta = sum((c.delta for c in comps), Q(0)) + ds
    return _make("kov-slide", "KOV slides, Theorem I as printed (invalid)", delta, (_sum_eps(comps),), terms)


def check_against_optimum(bound: IntervalBound, comps: Sequence[Component]) -> tuple[str, OptimalResult]:
    """Compare a bound with the exact optimum at its δ_total.

    Returns ``("valid", opt)`` when the bound is ≥ the exact least ε_g (certified),
    ``("below-optimum", opt)`` when it is smaller (so it is not a valid bound), or
    ``("undecided", opt)`` if the intervals still overlap at the highest precision tried.
    """
    opt = optimal(comps, bound.delta)
    target = opt.eps
    if is_inf(target):
        return "below-optimum", opt
    below = False
    undecided = False
    for e in bound.exact_terms:
        if ladder.cmp(e, target) < 0:
            below = True
    n_terms = len(bound.interval_terms(_PRECS[0]))
    for i in range(n_terms):
        status = None
        for prec in _PRECS:
            v = bound.interval_terms(prec)[i]
            lo, hi = _mpf_frac(v.a), _mpf_frac(v.b)
            if ladder.cmp(Q(lo.numerator, lo.denominator), target) >= 0:
                status = "ge"
                break
            if ladder.cmp(Q(hi.numerator, hi.denominator), target) < 0:
                status = "lt"
                break
        if status == "lt":
            below = True
        elif status is None:
            undecided = True
    if below:
        return "below-optimum", opt
    return ("undecided" if undecided else "valid"), opt
