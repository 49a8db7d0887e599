"""Exact real values that appear in case files: rationals, logarithms, exponentials, ∞.

A privacy parameter ε is usually written ``log(r)`` so that e^ε = r is rational and every
probability stays in ℚ.  This module keeps such values exact:

* :data:`Q` – a rational (probabilities, δ, e^ε);
* :class:`LogReal` – s + ln r with rationals s and r > 0 (an ε-type value);
* :class:`~exactdp.numbers.loglinear.LogLinear` – s + Σ c·ln b, rational multiples of logs such
  as ``log(61/9)/2`` (Rényi divergences, KL), compared exactly (:mod:`exactdp.numbers.loglinear`);
* :class:`ExpReal` – r·e^s with rationals r > 0, s ≠ 0 (e^ε for a decimal ε, transcendental);
* :class:`~exactdp.numbers.qt.QtElement` – any element of ℚ(e^{1/L}) (sums and quotients of
  such exponentials, e.g. e^{0.1}/(1 + e^{0.1})); ``LogReal(s, r)`` may have such an r;
* :data:`INF` – +∞, for privacy losses.

Every comparison is exact: mixed ones are decided by certified interval arithmetic
(:mod:`exactdp.numbers.certified`).  An operation whose result has no exact representation
raises :class:`~exactdp.errors.InexactValueError`; nothing is rounded.

This module holds the arithmetic, comparisons and text of these values.  The value types
themselves are defined in :mod:`exactdp.numbers.realtypes` and exact rational powers and roots
in :mod:`exactdp.numbers.roots`; both are re-exported here.
"""

from __future__ import annotations

import math
from typing import Any

from .. import limits as _limits
from ..errors import InexactValueError, LimitExceededError
from .certified import decimal_digits_of, sign_r_exp_s_minus_q
from .loglinear import LogLinear, ll_add, ll_decimal, ll_neg, ll_scale, ll_sign, ll_single_log, ll_str, log_linear
from .qt import QtElement, as_field, monomial, qt_exp
from .rational import Q, as_q, is_rational, q_bits, q_str, to_fraction
from .realtypes import INF, ExpReal, Infinity, LogReal, LogSum, Real, is_real
from .roots import DEFAULT_MAX_EXPONENT, check_exponent, exact_root, rational_power

__all__ = [
    "LogReal",
    "LogLinear",
    "LogSum",
    "ExpReal",
    "Infinity",
    "INF",
    "Real",
    "real_add",
    "real_neg",
    "real_sub",
    "real_mul",
    "real_div",
    "real_pow",
    "real_log",
    "real_exp",
    "real_cmp",
    "real_sign",
    "real_str",
    "real_decimal",
    "real_float",
    "exact_root",
    "is_real",
    "value_bits",
    "check_size",
]


def _to_ll(x: object) -> LogLinear | None:
    """x as a linear form in logs (rationals, LogReal with rational r, LogLinear), else None."""
    if isinstance(x, LogLinear):
        return x
    if is_rational(x):
        return LogLinear(as_q(x), ())
    if isinstance(x, LogReal) and not isinstance(x.r, QtElement):
        return log_linear(x.s, [(x.r, 1)])
    return None


def _from_ll(x: LogLinear) -> Real:
    """The canonical type of a linear form: a rational, s + ln r (:class:`LogReal`) when every
    coefficient over the coprime basis is an integer, else the form itself."""
    if not x.terms:
        return x.s
    one = ll_single_log(x, _limits.current().max_bits)
    return LogReal(as_q(one[0]), as_q(one[1])) if one is not None else x


def _ll_binary(a: Real, b: Real, op) -> Real | None:
    """``op`` on linear forms when either operand is one (None if the other is not)."""
    if not (isinstance(a, LogLinear) or isinstance(b, LogLinear)):
        return None
    la, lb = _to_ll(a), _to_ll(b)
    if la is None or lb is None:
        return None
    return op(la, lb)


def _fieldish(x: Any) -> bool:
    """A value of ℚ(e^{1/L}): rational, ExpReal or QtElement."""
    return is_rational(x) or isinstance(x, (ExpReal, QtElement))


def _log_of(s: Any, r: Any) -> Real:
    if isinstance(r, QtElement):
        mono = monomial(r)
        if mono is not None:  # ln(c t^m) = m/L + ln c
            c, e = mono
            return _log_of(as_q(s) + e, c)
        return LogReal(as_q(s), r)
    if r == 1:
        return as_q(s)
    return LogReal(as_q(s), as_q(r))


def _logsum() -> Any:
    """:mod:`exactdp.numbers.logsum` (it builds on this module's exact logarithms)."""
    from . import logsum

    return logsum


def real_neg(a: Real) -> Real:
    if is_rational(a):
        return -as_q(a)
    if isinstance(a, (ExpReal, QtElement)):
        return -as_field(a)
    if isinstance(a, LogReal):  # -(s + ln r) = -s + ln(1/r)
        return _log_of(-a.s, 1 / a.r)
    if isinstance(a, LogLinear):
        return _from_ll(ll_neg(a))
    if isinstance(a, LogSum):
        return _logsum().ls_neg(a)
    raise InexactValueError(f"-({real_str(a)}) cannot be represented exactly")


def real_add(a: Real, b: Real) -> Real:
    if isinstance(a, Infinity) or isinstance(b, Infinity):
        raise InexactValueError("inf can only stand alone as a privacy-loss value, not in arithmetic")
    if is_rational(a) and is_rational(b):
        return as_q(a) + as_q(b)
    if isinstance(a, LogSum) or isinstance(b, LogSum):
        return _logsum().ls_add(a, b)
    ll = _ll_binary(a, b, lambda x, y: _from_ll(ll_add(x, y)))
    if ll is not None:
        return ll
    if _fieldish(a) and _fieldish(b):  # exact in Q(e^(1/L))
        return as_field(a) + as_field(b)
    la, lb = _as_log(a), _as_log(b)
    if la is not None and lb is not None:
        return _log_of(la[0] + lb[0], la[1] * lb[1])
    raise InexactValueError(
        f"{real_str(a)} + {real_str(b)} has no exact representation here "
        "(sums of exponentials leave the exact number types exactdp supports)"
    )


def real_sub(a: Real, b: Real) -> Real:
    return real_add(a, real_neg(b))


def _as_log(x: Real) -> tuple[Any, Any] | None:
    if is_rational(x):
        return (as_q(x), Q(1))
    if isinstance(x, LogReal):
        return (x.s, x.r)
    return None


def real_mul(a: Real, b: Real, *, max_exponent: int = DEFAULT_MAX_EXPONENT) -> Real:
    if isinstance(a, Infinity) or isinstance(b, Infinity):
        raise InexactValueError("inf can only stand alone as a privacy-loss value, not in arithmetic")
    if is_rational(a) and is_rational(b):
        return as_q(a) * as_q(b)
    if (
        isinstance(a, QtElement)
        or isinstance(b, QtElement)
        or (_fieldish(a) and _fieldish(b) and ((is_rational(a) and a < 0) or (is_rational(b) and b < 0)))
    ):
        if _fieldish(a) and _fieldish(b):
            return as_field(a) * as_field(b)
        return _no_exact(f"({real_str(a)}) * ({real_str(b)})")
    if is_rational(b):
        a, b = b, a
    if is_rational(a):
        c = as_q(a)
        if c == 0:
            return Q(0)
        if isinstance(b, LogReal):  # c(s + ln r) = cs + ln(r^c)
            try:
                return _log_of(c * b.s, rational_power(b.r, c, max_exponent))
            except (InexactValueError, LimitExceededError):
                lb = _to_ll(b)  # r^c irrational or huge: keep c·ln r as a linear form
                if lb is None:
                    raise
                return _from_ll(ll_scale(lb, c))
        if isinstance(b, LogLinear):
            return _from_ll(ll_scale(b, c))
        if isinstance(b, LogSum):
            return _logsum().ls_scale(b, c)
        if isinstance(b, ExpReal):
            return ExpReal(c * b.r, b.s) if c > 0 else _no_exact(f"{q_str(c)} * {real_str(b)}")
    if isinstance(a, ExpReal) and isinstance(b, ExpReal):
        s = a.s + b.s
        return as_q(a.r * b.r) if s == 0 else ExpReal(a.r * b.r, s)
    return _no_exact(f"({real_str(a)}) * ({real_str(b)})")


def _no_exact(what: str):
    raise InexactValueError(f"{what} has no exact representation in exactdp's number types")


def real_div(a: Real, b: Real, *, max_exponent: int = DEFAULT_MAX_EXPONENT) -> Real:
    if is_rational(b):
        if b == 0:
            raise InexactValueError(f"division by zero: {real_str(a)} / 0")
        return real_mul(a, 1 / as_q(b), max_exponent=max_exponent)
    if isinstance(b, ExpReal) and not isinstance(a, QtElement):
        return real_mul(a, ExpReal(1 / b.r, -b.s), max_exponent=max_exponent)
    if _fieldish(a) and _fieldish(b):
        return as_field(a) / as_field(b)
    return _no_exact(f"({real_str(a)}) / ({real_str(b)})")


def real_pow(a: Real, e: Real, *, max_exponent: int = DEFAULT_MAX_EXPONENT) -> Real:
    if not is_rational(e):
        return _no_exact(f"({real_str(a)})^({real_str(e)})")
    if is_rational(a):
        if a < 0 and to_fraction(e).denominator != 1:
            return _no_exact(f"({q_str(a)})^({q_str(e)})")
        if a < 0:
            return (-1) ** int(to_fraction(e)) * rational_power(-as_q(a), e, max_exponent)
        return rational_power(a, e, max_exponent)
    if isinstance(a, ExpReal):
        fe = to_fraction(e)
        check_exponent(fe.numerator, max_exponent)
        return real_mul(rational_power(a.r, e, max_exponent), real_exp(as_q(a.s) * as_q(e)))
    if isinstance(a, QtElement) and to_fraction(e).denominator == 1:
        k = int(to_fraction(e))
        check_exponent(k, max_exponent)
        _check_field_power(a, abs(k))
        return a**k
    return _no_exact(f"({real_str(a)})^({real_str(e)})")


def _check_field_power(a: QtElement, k: int) -> None:
    """Refuse a^k in ℚ(e^{1/L}) before computing it when its degree or size would be too
    large: the degree multiplies by k, and so, about, does the size of the coefficients."""
    from .qt import MAX_DEGREE

    degree = max(len(a.n), len(a.d)) - 1
    if degree * k > MAX_DEGREE:
        raise InexactValueError(
            f"a power of degree {degree * k} in t = exp(1/{a.L}) is beyond the field-degree limit {MAX_DEGREE}"
        )
    _limits.check_bits(value_bits(a) * k, "a power in the field Q(e^(1/L))")


_MPQ = type(Q(0))


def value_bits(x: object) -> int:
    """Size of an exact value in bits: the largest numerator or denominator for a rational,
    of its two rationals for ``LogReal``/``ExpReal``, and the total size of the coefficients
    for an element of ℚ(e^{1/L})."""
    if type(x) is _MPQ:  # the common case first: engines call this at every node
        return max(x.numerator.bit_length(), x.denominator.bit_length())  # type: ignore[attr-defined]
    if is_rational(x):
        return q_bits(x)
    if isinstance(x, LogReal):
        return max(value_bits(x.s), value_bits(x.r))
    if isinstance(x, ExpReal):
        return max(value_bits(x.r), value_bits(x.s))
    if isinstance(x, QtElement):
        return q_bits(x.c) + sum(int(abs(v)).bit_length() for v in (*x.n, *x.d))
    return 0


def check_size(x: object, what: str = "a number") -> object:
    """``x`` itself when its size is within ``max_bits`` (:func:`exactdp.limits.check_bits`);
    applied to every intermediate result computed from a case file's numbers."""
    _limits.check_bits(value_bits(x), what)
    return x


def real_log(a: Real) -> Real:
    """ln a, exactly: ``log(3)`` stays symbolic as :class:`LogReal`; ``log(exp(x)) = x``."""
    if is_rational(a):
        if a <= 0:
            raise InexactValueError(f"log of a non-positive number: log({q_str(a)})")
        return _log_of(Q(0), a)
    if isinstance(a, ExpReal):
        return _log_of(a.s, a.r)
    if isinstance(a, QtElement):
        if a.sign() <= 0:
            raise InexactValueError(f"log of a non-positive number: log({a})")
        return _log_of(Q(0), a)
    return _no_exact(f"log({real_str(a)})")


def real_exp(a: Real) -> Real:
    """e^a, exactly: ``exp(log(r)) = r``; ``exp(1/10)`` is kept as :class:`ExpReal`."""
    if is_rational(a):
        return Q(1) if a == 0 else ExpReal(Q(1), as_q(a))
    if isinstance(a, LogReal):
        if isinstance(a.r, QtElement):
            return a.r * qt_exp(1, a.s)
        return as_q(a.r) if a.s == 0 else ExpReal(as_q(a.r), as_q(a.s))
    if isinstance(a, LogLinear):
        raise InexactValueError(
            f"exp({real_str(a)}) is an irrational algebraic number (a root of a rational): exactdp keeps "
            "e^eps exact only when it is rational or e^(rational) times a rational"
        )
    return _no_exact(f"exp({real_str(a)})")


def real_sign(a: Real) -> int:
    """Sign of an exact real, decided exactly (certified for logarithms)."""
    if isinstance(a, Infinity):
        return 1
    if is_rational(a):
        return (a > 0) - (a < 0)
    if isinstance(a, LogReal):  # sign(s + ln r) = sign(r e^s - 1)
        if isinstance(a.r, QtElement):
            return _sign_log_qt(a.r, a.s)
        return sign_r_exp_s_minus_q(a.r, a.s, 1)
    if isinstance(a, ExpReal):
        return 1
    if isinstance(a, QtElement):
        return a.sign()
    if isinstance(a, LogLinear):
        return ll_sign(a)
    if isinstance(a, LogSum):
        return _logsum().ls_sign(a)
    raise TypeError(f"not an exact real: {a!r}")


def _qt_exp_real(x: Any) -> bool:
    return isinstance(x, ExpReal) and isinstance(x.r, QtElement)


def enclose(x: Any, prec: int):
    """An mpmath interval containing x (rational, QtElement, ExpReal or LogReal), at ``prec`` bits."""
    import mpmath

    if isinstance(x, QtElement):
        return x.enclosure(prec)
    old = mpmath.iv.prec
    mpmath.iv.prec = prec
    try:
        if isinstance(x, ExpReal):
            fs = to_fraction(x.s)
            e = mpmath.iv.exp(mpmath.iv.mpf(fs.numerator) / mpmath.iv.mpf(fs.denominator))
            r = enclose(x.r, prec)
            mpmath.iv.prec = prec
            return r * e
        if isinstance(x, LogReal):  # s + ln r, r rational or a field element (r > 0)
            r = enclose(x.r, prec)
            mpmath.iv.prec = prec
            fs = to_fraction(x.s)
            return mpmath.iv.log(r) + mpmath.iv.mpf(fs.numerator) / mpmath.iv.mpf(fs.denominator)
        if isinstance(x, LogSum):
            return _logsum().ls_enclose(x.s, x.terms, prec)
        f = to_fraction(x)
        return mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator)
    finally:
        mpmath.iv.prec = old


def _iv_cmp(a: Any, b: Any) -> int:
    """Certified comparison by intervals at doubling precision (for values that cannot be
    brought into one field of moderate degree; they are never equal then, see ExpReal)."""

    prec = 64
    while prec <= 1 << 16:
        va, vb = enclose(a, prec), enclose(b, prec)
        if va.b < vb.a:
            return -1
        if va.a > vb.b:
            return 1
        prec *= 2
    raise InexactValueError(f"could not separate {real_str(a)} from {real_str(b)} by certified intervals")


def _sign_log_qt(r: QtElement, s: Any) -> int:
    """sign(s + ln r) for r in ℚ(e^{1/L}), r > 0, s rational; exact.

    When e^s lives in a field of moderate degree, r·e^s − 1 is formed exactly (0 is detected
    symbolically, otherwise its sign is certified).  Otherwise (s = a binary fraction with a
    huge denominator, e.g. an interval endpoint) s + ln r is evaluated in interval arithmetic at
    increasing precision; it is nonzero in that case because r·e^s = 1 would put e^s in an
    algebraic extension of ℚ(e^{1/L}) of small degree."""
    import mpmath

    fs = to_fraction(s)
    L = r.L * fs.denominator // _gcd(r.L, fs.denominator)
    if abs(fs.numerator * (L // fs.denominator)) <= 20_000:
        try:
            d = r * qt_exp(1, s) - 1
        except InexactValueError:  # the common field is beyond the degree limit: intervals decide
            d = None
        if d is not None:
            return d.sign() if isinstance(d, QtElement) else (d > 0) - (d < 0)
    prec = 64
    while prec <= 1 << 16:
        v = r.enclosure(prec)
        old = mpmath.iv.prec
        mpmath.iv.prec = prec
        try:
            w = mpmath.iv.log(v) + mpmath.iv.mpf(fs.numerator) / mpmath.iv.mpf(fs.denominator)
        finally:
            mpmath.iv.prec = old
        if w.a > 0:
            return 1
        if w.b < 0:
            return -1
        prec *= 2
    raise ArithmeticError(f"could not decide the sign of {real_str(LogReal(s, r))}")  # pragma: no cover


def _gcd(a: int, b: int) -> int:
    from math import gcd

    return gcd(a, b)


def real_cmp(a: Real, b: Real) -> int:
    """-1, 0, +1 as a <, =, > b; exact for every pair of values this module builds."""
    if isinstance(a, Infinity) or isinstance(b, Infinity):
        return (not isinstance(b, Infinity)) - (not isinstance(a, Infinity))
    if is_rational(a) and is_rational(b):
        return (a > b) - (a < b)
    if isinstance(a, LogSum) or isinstance(b, LogSum):
        return _logsum().ls_sign(_logsum().ls_add(a, _logsum().ls_neg(b)))
    if isinstance(a, LogLinear) or isinstance(b, LogLinear):
        la, lb = _to_ll(a), _to_ll(b)
        if la is None or lb is None:  # e.g. log of a field element against log(61/9)/2
            ls = _logsum()
            if ls.as_log_sum(a) is not None and ls.as_log_sum(b) is not None:
                return ls.ls_sign(ls.ls_add(a, ls.ls_neg(b)))
            return _no_exact(f"comparison of {real_str(a)} with {real_str(b)}")
        return ll_sign(ll_add(la, ll_neg(lb)))
    if isinstance(a, QtElement) or isinstance(b, QtElement) or _qt_exp_real(a) or _qt_exp_real(b):
        if _fieldish(a) and _fieldish(b):
            try:
                fa, fb = as_field(a), as_field(b)
            except InexactValueError:  # e^s of huge degree: certified intervals decide
                return _iv_cmp(a, b)
            return 0 if fa == fb else (1 if fa > fb else -1)
        return _cmp_by_difference(a, b)
    if isinstance(a, ExpReal) or isinstance(b, ExpReal):
        # both positive-type values: compare ra e^sa with rb e^sb
        ra, sa = (a.r, a.s) if isinstance(a, ExpReal) else (a, Q(0))
        rb, sb = (b.r, b.s) if isinstance(b, ExpReal) else (b, Q(0))
        if not (is_rational(ra) and is_rational(rb)):
            return _iv_cmp(a, b)  # e.g. log(3) against exp(1/10): unequal, intervals decide
        if rb <= 0:
            return 1 if ra > 0 else ((ra > rb) - (ra < rb) if sa == sb else -1)
        return sign_r_exp_s_minus_q(as_q(ra) / as_q(rb), as_q(sa) - as_q(sb), 1)
    return _cmp_by_difference(a, b)


def _cmp_by_difference(a: Real, b: Real) -> int:
    """sign(a − b) from the exact difference; when it has no exact form (log(3) − e^{1/10}),
    by certified intervals (such values are never equal here, so the refinement ends)."""
    try:
        d = real_sub(a, b)
    except InexactValueError:
        return _iv_cmp(a, b)
    return real_sign(d)


def real_str(a: Real) -> str:
    """Canonical exact text: ``1/3``, ``log(23/9)``, ``1/10 + log(2)``, ``3*exp(1/10)``, ``inf``."""
    if isinstance(a, Infinity):
        return "inf"
    if is_rational(a):
        return q_str(a)
    if isinstance(a, QtElement):
        return str(a)
    if isinstance(a, LogLinear):
        return ll_str(a)
    if isinstance(a, LogSum):
        return _logsum().ls_str(a)
    if isinstance(a, LogReal):
        lg = f"log({q_str(a.r)})" if not isinstance(a.r, QtElement) else f"log({a.r})"
        if a.s == 0:
            return lg
        return f"{q_str(a.s)} + {lg}"
    if isinstance(a, ExpReal):
        ex = f"exp({q_str(a.s)})"
        if isinstance(a.r, QtElement):
            return f"({a.r})*{ex}"
        return ex if a.r == 1 else f"{q_str(a.r)}*{ex}"
    return repr(a)


def real_decimal(a: Real, digits: int = 6) -> str:
    """A decimal reading (display only; verdicts never use it)."""
    if isinstance(a, Infinity):
        return "inf"
    if is_rational(a):
        return decimal_digits_of(a, 0, digits)
    if isinstance(a, ExpReal) and not isinstance(a.r, QtElement):
        return decimal_digits_of(a.r, a.s, digits)
    if isinstance(a, ExpReal):
        import mpmath

        v = enclose(a, max(64, int(digits * 3.33) + 40))
        with mpmath.workdps(digits + 5):
            return mpmath.nstr((mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2, digits)
    if isinstance(a, QtElement):
        return a.decimal(digits)
    if isinstance(a, LogLinear):
        return ll_decimal(a, digits)
    if isinstance(a, LogSum):
        import mpmath

        v = _logsum().ls_enclose(a.s, a.terms, max(64, int(digits * 3.33) + 40))
        with mpmath.workdps(digits + 5):
            return mpmath.nstr((mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2, digits)
    if isinstance(a, LogReal) and isinstance(a.r, QtElement):
        import mpmath

        v = a.r.enclosure(max(64, int(digits * 3.33) + 40))
        with mpmath.workdps(digits + 10):
            fs = to_fraction(a.s)
            mid = (mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2
            return mpmath.nstr(mpmath.log(mid) + mpmath.mpf(fs.numerator) / fs.denominator, digits)
    if isinstance(a, LogReal):
        import mpmath

        with mpmath.workdps(digits + 10):
            fr, fs = to_fraction(a.r), to_fraction(a.s)
            v = mpmath.log(mpmath.mpf(fr.numerator) / fr.denominator) + mpmath.mpf(fs.numerator) / fs.denominator
            return mpmath.nstr(v, digits)
    return repr(a)


def real_float(a: Real) -> float:
    """A double near the exact real a (display only; no verdict ever uses it)."""
    if isinstance(a, Infinity):
        return math.inf
    if is_rational(a):
        f = to_fraction(a)
        return f.numerator / f.denominator  # correctly rounded (true division of ints)
    import mpmath

    if isinstance(a, (QtElement, ExpReal)):
        v = enclose(a, 80)
        return float((mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2)
    if isinstance(a, LogSum):
        v = _logsum().ls_enclose(a.s, a.terms, 80)
        return float((mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2)
    if isinstance(a, LogReal):
        with mpmath.workprec(80):
            fs = to_fraction(a.s)
            if isinstance(a.r, QtElement):
                v = a.r.enclosure(80)
                r = (mpmath.mpf(v.a) + mpmath.mpf(v.b)) / 2
            else:
                fr = to_fraction(a.r)
                r = mpmath.mpf(fr.numerator) / fr.denominator
            return float(mpmath.log(r) + mpmath.mpf(fs.numerator) / fs.denominator)
    raise TypeError(f"not an exact real: {a!r}")
