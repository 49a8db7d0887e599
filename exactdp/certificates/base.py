"""Shared vocabulary of the certificate builders: :class:`NoCertificate`, the :class:`Source`
of mechanisms and profiles a builder reads, e^ε as a certificate states it, and the one place
where exactdp's numbers become the certificate's text (:func:`textify`).

Certificates are JSON documents checked by the standalone checker :mod:`exactdp.checker`
(docs/certificates.md).  Every number in them is text: a rational ``"3/4"``, ``"inf"``, an
element of ℚ(t), t = e^{1/L}, as integer polynomials in t (``"1,0,3/1,1"`` is
(1 + 3t²)/(1 + t), lowest degree first; the certificate then says ``"field": "exp(1/L)"``), or
``"exp(q)"`` for an e^ε outside that field.  Builders put exactdp's own numbers into the body;
:func:`textify` chooses L and writes them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import lcm
from typing import Any, Protocol

from ..analysis.results import Profile, lambda_of
from ..errors import ExactDPError
from ..model.game import Mechanism
from ..numbers import ladder
from ..numbers.ladder import OO, QQ, QT, is_inf
from ..numbers.qt import qt_exp
from ..numbers.rational import is_rational, to_fraction

__all__ = ["NoCertificate", "Source", "ExpValue", "exp_eps", "textify", "FORMAT", "VERSION", "MAX_DEGREE", "MAX_STATES"]

FORMAT, VERSION = "exactdp-certificate", 2
MAX_DEGREE = 2_000  # the checker's default --max-degree: polynomials in t, and L itself
MAX_STATES = 500_000  # the checker's default --max-states


class NoCertificate(ExactDPError):
    """This claim gets no certificate (the message says why); never a verdict."""


class Source(Protocol):
    """Where builders read mechanisms and their profiles (a :class:`~exactdp.claims.Analysis`)."""

    def mech(self, name: Any) -> Mechanism: ...

    def profile(self, name: Any) -> Profile: ...

    def cached(self, key: tuple, compute) -> Any: ...


@dataclass(frozen=True)
class ExpValue:
    """e^q for a rational q whose denominator is too large for the certificate's field (a claim's
    ε = 2.34588769300803): written ``"exp(q)"``, compared by the checker with certified bounds."""

    q: Any


def exp_eps(eps: Any) -> Any:
    """e^ε for a claim's ε as a certificate states it: a rational, an element of ℚ(e^{1/L}),
    :class:`ExpValue`, or INF."""
    lam = lambda_of(eps)
    if ladder.domain_of(lam) in (OO, QQ, QT):
        return lam
    r, s = getattr(lam, "r", None), getattr(lam, "s", None)
    if r is None or s is None or not is_rational(r) or not is_rational(s):
        raise NoCertificate(f"e^eps = {ladder.text(lam)} is not r*exp(q) with rationals r and q")
    s = to_fraction(s)
    if abs(s.numerator) <= MAX_DEGREE and s.denominator <= MAX_DEGREE:
        return qt_exp(r, s)
    if to_fraction(r) != 1:
        raise NoCertificate(f"e^eps = {ladder.text(lam)}: a multiple of e^q beyond the field's degree")
    return ExpValue(s)


def textify(body: Any) -> Any:
    """``body`` with every number written as certificate text, and ``"field": "exp(1/L)"`` added
    when an element of ℚ(e^{1/L}) occurs (L the least common multiple of their L's)."""
    found: list[int] = []
    fields_of(body, found)
    L = lcm(*found) if found else 0
    if L > MAX_DEGREE:  # (a decimal eps of 1e-20: t = e^(1/10^20))
        field = f"Q(e^(1/{ladder.short(L)}))"  # (L may have thousands of digits: shortened, never str())
        raise NoCertificate(f"the field {field} is beyond the checker's default --max-degree ({MAX_DEGREE})")
    out = _text(body, L)
    if L and isinstance(out, dict):
        out = {"field": f"exp(1/{L})", **out}
    return out


def fields_of(x: Any, found: list[int]) -> None:
    """Append to ``found`` the L of every element of Q(e^(1/L)) in ``x`` (nested dicts and lists)."""
    if isinstance(x, dict):
        for v in x.values():
            fields_of(v, found)
    elif isinstance(x, (list, tuple)):
        for v in x:
            fields_of(v, found)
    elif ladder.is_exact(x) and ladder.domain_of(x) is QT and x.L not in found:
        found.append(x.L)


def _text(x: Any, L: int) -> Any:
    if isinstance(x, (str, bool, int)) or x is None:  # (Python ints are ids; exactdp's numbers are mpq)
        return x
    if isinstance(x, dict):
        return {k: _text(v, L) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_text(v, L) for v in x]
    return number_text(x, L)


def number_text(x: Any, L: int = 0) -> str:
    """One number as certificate text, in the field ℚ(e^{1/L}) (L = 0: rationals only)."""
    if is_inf(x):
        return "inf"
    if isinstance(x, ExpValue):
        return f"exp({to_fraction(x.q)})"
    if ladder.domain_of(x) is QT:
        step = L // x.L
        if L % x.L or (max(x.n.degree(), x.d.degree()) * step > MAX_DEGREE):
            raise NoCertificate(
                f"{x} is a polynomial of degree beyond {MAX_DEGREE} in t = e^(1/{L}), the checker's default --max-degree"
            )
        c = to_fraction(x.c)

        def coeffs(p: Any, k: int) -> str:
            out = ["0"] * (p.degree() * step + 1)
            for e, a in enumerate(p.coeffs()):
                out[e * step] = str(int(a) * k)
            return ",".join(out)

        return f"{coeffs(x.n, c.numerator)}/{coeffs(x.d, c.denominator)}"
    if is_rational(x):
        return str(x)
    raise NoCertificate(f"the value {ladder.text(x)} has no exact certificate form")
