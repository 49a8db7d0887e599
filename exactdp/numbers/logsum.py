r"""Sums of logarithms with coefficients in ℚ(e^{1/L}): s + Σ c_k ln r_k, exactly (:class:`LogSum`).

A mechanism with a decimal ε has probabilities in ℚ(t), t = e^{1/L} (:mod:`exactdp.numbers.qt`).
Its Rényi divergence of order α ≥ 3 is D_α = log(S)/(α − 1) with S in ℚ(t), and its KL
divergence Σ_v P(v) log(P(v)/P'(v)) has coefficients P(v) in ℚ(t): neither is a field element
nor a linear form in logarithms of integers.  :class:`LogSum` keeps them exactly (the rung ``LS``
of :mod:`exactdp.numbers.ladder`), and this module gives their arithmetic and their sign:

* **canonical form** (:func:`log_sum`): equal arguments merged, zero coefficients dropped, and
  ln(c·t^m) = ln c + m/L moved into the rational part, so that a value is returned as the
  simplest exact type that holds it (a field element, ``s + ln r``, a linear form in logs);
* **sign, exactly** when the coefficients and s are rational: s + Σ c_k ln r_k has the sign of
  n·s + ln Π r_k^{n c_k} (n the common denominator), a logarithm of one field element, whose
  sign the field decides exactly (:func:`exactdp.numbers.logqt.sign_log`);
* **sign, certified** otherwise: Arb balls at doubling precision up to ``--max-precision``.  A
  value that stays undecided there (it may be exactly zero) is refused with that limit's error,
  never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Any

from .. import limits as _limits
from ..errors import InexactValueError
from .certified import arb_rational, certified_sign
from .element import Element
from .loglinear import LogLinear, LogReal, canonical, coprime_basis, exponents, log_linear
from .logqt import LogQt, log_parts, log_value, sign_log
from .qt import QtElement, monomial, qt_sign
from .rational import Q, as_q, int_str, is_rational, q_bits, q_short, q_str, to_fraction

__all__ = ["LogSum", "log_sum", "as_log_sum", "ls_add", "ls_neg", "ls_scale", "ls_sign", "ls_ball", "ls_str", "ls_bits"]


@dataclass(frozen=True, repr=False)
class LogSum(Element):
    """The real number s + Σ_k c_k·ln r_k, with s and every c_k ≠ 0 in ℚ(e^{1/L}) (or rational)
    and distinct r_k > 0 in ℚ(e^{1/L}) (or rational), none of them 1 or with a factor t = e^{1/L}.

    It holds what a mechanism with a decimal ε gives where logarithms of field elements meet:
    D_α = log(S)/(α − 1) for α ≥ 3 (S in ℚ(e^{1/L})) and the KL divergence Σ P log(P/P').
    Build one with :func:`log_sum`, which returns a simpler kind (a field element,
    ``LogReal``, ``LogLinear``, ``LogQt``) whenever the value is one."""

    s: Any
    terms: tuple


def _zero(c: Any) -> bool:
    return c == 0


def log_sum(s: Any, terms: Any) -> Any:
    """s + Σ c·ln r over the ``(r, c)`` of ``terms``, in its simplest exact type."""
    acc: dict[Any, Any] = {}
    for r, c in terms:
        if _zero(c):
            continue
        if isinstance(r, QtElement):  # ln(r0 t^m) = m/L + ln r0 (r0 rational when r = c0 t^m), as log_parts
            shift, r = log_parts(0, r)
            s = s + c * shift
            if not isinstance(r, QtElement):
                r = as_q(r)
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
            return _linear_form(s, items)
        if len(items) > 1:  # Σ c ln r = ln(Π r^(n c))/n: one logarithm (log(S) - log(S^2)/2 = 0)
            items = _one_log(items)
            if not items:
                return s
            if all(is_rational(r) for r, _ in items):
                return _linear_form(s, items)
        if len(items) == 1 and items[0][1] == 1:
            return log_value(as_q(s), items[0][0])
    return LogSum(s, items)


def _linear_form(s: Any, items: tuple) -> Any:
    """s + Σ c·ln r for rationals, in the canonical kind of a linear form in logarithms."""
    return canonical(log_linear(as_q(s), [(r, c) for r, c in items]), _limits.current().max_bits)


def _on_coprime_basis(acc: dict) -> dict:
    """The logarithms of rationals rewritten over one coprime basis of integers (ln 4 = 2 ln 2),
    so that a sum that is zero term by term is found to be exactly zero."""
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
        for b, k in exponents(f.numerator, basis).items():
            out[Q(b)] = out[Q(b)] + c * k if Q(b) in out else c * k
        for b, k in exponents(f.denominator, basis).items():
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
    """(s, terms) of a rational, field element, ``LogReal``, ``LogQt``, ``LogLinear`` or
    ``LogSum``; None for other values."""
    if isinstance(x, LogSum):
        return x.s, x.terms
    if is_rational(x):
        return as_q(x), ()
    if isinstance(x, QtElement):
        return x, ()
    if isinstance(x, (LogReal, LogQt)):
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
    when its coefficients are rational, else by certified intervals (within ``--max-precision``:
    a value that may be exactly zero is refused with that limit's error, never guessed)."""
    la = as_log_sum(a)
    if la is None:
        raise TypeError(f"not a sum of logarithms: {a!r}")
    s, terms = la
    if not terms:
        return qt_sign(s)
    if is_rational(s) and all(is_rational(c) for _, c in terms):
        n = lcm(*(to_fraction(c).denominator for _, c in terms))
        try:
            prod: Any = Q(1)
            for r, c in terms:
                prod = prod * r ** int(n * c)
            return sign_log(n * as_q(s), prod)  # sign(n s + ln Π r^{n c})
        except InexactValueError:
            pass  # a field of too high a degree: certified intervals decide
    return certified_sign(lambda prec: ls_ball(s, terms, prec), lambda: q_short(ls_str(LogSum(s, terms)), 40))


def _ball(x: Any, prec: int) -> Any:
    return x.ball(prec) if isinstance(x, QtElement) else arb_rational(x, prec)


def ls_ball(s: Any, terms: tuple, prec: int) -> Any:
    """An Arb ball containing s + Σ c ln r, at ``prec`` bits (call it at that working precision)."""
    total = _ball(s, prec)
    for r, c in terms:
        total = total + _ball(c, prec) * _ball(r, prec).log()
    return total


def ls_bits(a: LogSum) -> int:
    """Size in bits: the largest part."""

    def bits(x: Any) -> int:
        return x.bits() if isinstance(x, QtElement) else q_bits(x)

    return max([bits(a.s)] + [max(bits(r), bits(c)) for r, c in a.terms])


def ls_str(a: LogSum) -> str:
    """``log(S)/2``, ``1/3 + (c)*log(r)``: the exact text of a sum of logarithms."""

    def num(x: Any) -> str:
        return q_str(x) if is_rational(x) else f"({x.text()})"

    signed: list[tuple[bool, str]] = []
    if a.s != 0:
        neg = is_rational(a.s) and a.s < 0
        signed.append((neg, num(-a.s if neg else a.s)))
    for r, c in a.terms:
        lg = f"log({q_str(r) if is_rational(r) else r.text()})"
        if is_rational(c):
            f = to_fraction(c)
            top = "" if abs(f.numerator) == 1 else f"{int_str(abs(f.numerator))}*"
            signed.append((f < 0, f"{top}{lg}" + (f"/{int_str(f.denominator)}" if f.denominator != 1 else "")))
        else:
            signed.append((False, f"{num(c)}*{lg}"))
    out = ("-" if signed[0][0] else "") + signed[0][1]
    for neg, body in signed[1:]:
        out += f" {'-' if neg else '+'} {body}"
    return out
