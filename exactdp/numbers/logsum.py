r"""Sums of logarithms with coefficients in ℚ(e^{1/L}): s + Σ c_k ln r_k, exactly.

A mechanism with a decimal ε has probabilities in ℚ(t), t = e^{1/L} (:mod:`exactdp.numbers.qt`).
Its Rényi divergence of order α ≥ 3 is D_α = log(S)/(α − 1) with S in ℚ(t), and its KL
divergence Σ_v P(v) log(P(v)/P'(v)) has coefficients P(v) in ℚ(t): neither is a field element
nor a linear form in logarithms of integers.  :class:`~exactdp.numbers.realtypes.LogSum` keeps
them exactly, and this module gives their arithmetic and their sign:

* **canonical form** (:func:`log_sum`): equal arguments merged, zero coefficients dropped, and
  ln(c·t^m) = ln c + m/L moved into the rational part, so that a value is returned as the
  simplest exact type that holds it (a field element, ``s + ln r``, a linear form in logs);
* **sign, exactly** when the coefficients and s are rational: s + Σ c_k ln r_k has the sign of
  n·s + ln Π r_k^{n c_k} (n the common denominator), a logarithm of one field element, whose
  sign the field decides exactly (:func:`exactdp.numbers.real.real_sign`);
* **sign, certified** otherwise: interval evaluation (mpmath ``iv``) at doubling precision up to
  2^16 bits.  A value that stays undecided there (it may be exactly zero) is refused with
  ``InexactValueError``, never guessed.
"""

from __future__ import annotations

from math import lcm
from typing import Any

from ..errors import InexactValueError
from .qt import QtElement, monomial
from .rational import Q, as_q, is_rational, to_fraction
from .realtypes import LogReal, LogSum

__all__ = ["log_sum", "as_log_sum", "ls_add", "ls_neg", "ls_scale", "ls_sign", "ls_enclose", "ls_str", "MAX_PREC"]

MAX_PREC = 1 << 16
"""Bits of precision past which an undecided sign is refused."""


def _zero(c: Any) -> bool:
    return c == 0


def log_sum(s: Any, terms: Any) -> Any:
    """s + Σ c·ln r over the ``(r, c)`` of ``terms``, in its simplest exact type."""
    from .loglinear import log_linear

    acc: dict[Any, Any] = {}
    for r, c in terms:
        if _zero(c):
            continue
        if isinstance(r, QtElement):
            mono = monomial(r)
            if mono is not None:  # ln(c0 t^m) = m/L + ln c0
                c0, e = mono
                s = s + c * e
                r = as_q(c0)
        else:
            r = as_q(r)
        if is_rational(r) and r == 1:
            continue
        if not (r > 0):
            raise InexactValueError(f"log of a non-positive number: log({r})")
        acc[r] = acc[r] + c if r in acc else c
    acc = _on_coprime_basis(acc)
    items = tuple((r, c) for r, c in acc.items() if not _zero(c))
    if not items:
        return s
    if is_rational(s) and all(is_rational(c) for _, c in items):
        if all(is_rational(r) for r, _ in items):
            return log_linear(as_q(s), [(r, c) for r, c in items])
        if len(items) > 1:  # Σ c ln r = ln(Π r^(n c))/n: one logarithm (log(S) - log(S^2)/2 = 0)
            items = _one_log(items)
            if not items:
                return s
            if all(is_rational(r) for r, _ in items):
                return log_linear(as_q(s), [(r, c) for r, c in items])
        if len(items) == 1 and items[0][1] == 1:
            return LogReal(as_q(s), items[0][0])
    return LogSum(s, items)


def _on_coprime_basis(acc: dict) -> dict:
    """The logarithms of rationals rewritten over one coprime basis of integers (ln 4 = 2 ln 2),
    so that a sum that is zero term by term is found to be exactly zero."""
    from .loglinear import _exponents, coprime_basis

    rationals = [r for r in acc if is_rational(r)]
    if not rationals:
        return acc
    ints: set[int] = set()
    for r in rationals:
        f = to_fraction(r)
        ints.update((f.numerator, f.denominator))
    basis = coprime_basis(ints)
    out: dict[Any, Any] = {r: c for r, c in acc.items() if not is_rational(r)}
    for r in rationals:
        f, c = to_fraction(r), acc[r]
        for b, k in _exponents(f.numerator, basis).items():
            out[Q(b)] = out[Q(b)] + c * k if Q(b) in out else c * k
        for b, k in _exponents(f.denominator, basis).items():
            out[Q(b)] = out[Q(b)] - c * k if Q(b) in out else -c * k
    return out


def _one_log(items: tuple) -> tuple:
    """((R, 1/n),) with R = Π r^(n c) (n the common denominator of the c), or ``items`` when R
    would leave the field's degree limit; () when R = 1."""
    n = lcm(*(to_fraction(c).denominator for _, c in items))
    try:
        prod: Any = Q(1)
        for r, c in items:
            prod = prod * r ** int(n * c)
    except InexactValueError:
        return items
    if is_rational(prod):
        if prod == 1:
            return ()
        prod = as_q(prod)
    mono = monomial(prod) if isinstance(prod, QtElement) else None
    if mono is not None:
        return items  # the caller's form keeps the rational part apart: leave it as it was
    return ((prod, Q(1, n)),)


def as_log_sum(x: Any) -> tuple[Any, tuple] | None:
    """(s, terms) of a rational, field element, ``LogReal``, ``LogLinear`` or ``LogSum``; None
    for other values."""
    from .loglinear import LogLinear

    if isinstance(x, LogSum):
        return x.s, x.terms
    if is_rational(x):
        return as_q(x), ()
    if isinstance(x, QtElement):
        return x, ()
    if isinstance(x, LogReal):
        return x.s, ((x.r, Q(1)),)
    if isinstance(x, LogLinear):
        return x.s, tuple((Q(b), c) for b, c in x.terms)
    return None


def ls_add(a: Any, b: Any) -> Any:
    la, lb = as_log_sum(a), as_log_sum(b)
    if la is None or lb is None:
        raise InexactValueError(f"{a} + {b} has no exact representation here")
    return log_sum(la[0] + lb[0], la[1] + lb[1])


def ls_neg(a: Any) -> Any:
    la = as_log_sum(a)
    if la is None:
        raise InexactValueError(f"-({a}) has no exact representation here")
    return log_sum(-la[0], tuple((r, -c) for r, c in la[1]))


def ls_scale(a: Any, q: Any) -> Any:
    """q·a for a rational (or field) q."""
    la = as_log_sum(a)
    if la is None:
        raise InexactValueError(f"({q}) * ({a}) has no exact representation here")
    return log_sum(q * la[0], tuple((r, q * c) for r, c in la[1]))


def ls_sign(a: Any) -> int:
    """The sign of a :class:`LogSum` (or of any value :func:`as_log_sum` takes), decided exactly
    when its coefficients are rational, else by certified intervals.

    Raises
    ------
    InexactValueError
        When certified intervals of 2^16 bits still contain 0 (the value may be exactly zero).
    """
    from .real import real_add, real_log, real_sign

    la = as_log_sum(a)
    if la is None:
        raise TypeError(f"not a sum of logarithms: {a!r}")
    s, terms = la
    if not terms:
        return real_sign(s)
    if is_rational(s) and all(is_rational(c) for _, c in terms):
        n = lcm(*(to_fraction(c).denominator for _, c in terms))
        try:
            prod: Any = Q(1)
            for r, c in terms:
                prod = prod * r ** int(n * c)
            return real_sign(real_add(n * as_q(s), real_log(prod)))  # sign(n s + ln Π r^{n c})
        except InexactValueError:
            pass  # a field of too high a degree: certified intervals decide
    return _interval_sign(s, terms)


def _interval_sign(s: Any, terms: tuple) -> int:
    prec = 64
    while prec <= MAX_PREC:
        v = ls_enclose(s, terms, prec)
        if v.a > 0:
            return 1
        if v.b < 0:
            return -1
        prec *= 2
    raise InexactValueError(
        f"the sign of {ls_str(LogSum(s, terms))} is not decided by certified intervals of {MAX_PREC} bits "
        "(it may be exactly 0); exactdp does not guess"
    )


def ls_enclose(s: Any, terms: tuple, prec: int) -> Any:
    """An mpmath interval containing s + Σ c ln r, at ``prec`` bits."""
    import mpmath

    from .real import enclose

    old = mpmath.iv.prec
    try:
        total = enclose(s, prec)
        for r, c in terms:
            lr = enclose(r, prec)
            ec = enclose(c, prec)
            mpmath.iv.prec = prec
            total = total + ec * mpmath.iv.log(lr)
        return total
    finally:
        mpmath.iv.prec = old


def ls_str(a: LogSum) -> str:
    """``log(S)/2``, ``1/3 + (c)*log(r)``: the exact text of a sum of logarithms."""
    from .rational import q_str

    def num(x: Any) -> str:
        return q_str(x) if is_rational(x) else f"({x})"

    signed: list[tuple[bool, str]] = []
    if a.s != 0:
        neg = is_rational(a.s) and a.s < 0
        signed.append((neg, num(-a.s if neg else a.s)))
    for r, c in a.terms:
        lg = f"log({q_str(r) if is_rational(r) else r})"
        if is_rational(c):
            f = to_fraction(c)
            top = "" if abs(f.numerator) == 1 else f"{abs(f.numerator)}*"
            signed.append((f < 0, f"{top}{lg}" + (f"/{f.denominator}" if f.denominator != 1 else "")))
        else:
            signed.append((False, f"{num(c)}*{lg}"))
    out = ("-" if signed[0][0] else "") + signed[0][1]
    for neg, body in signed[1:]:
        out += f" {'-' if neg else '+'} {body}"
    return out
