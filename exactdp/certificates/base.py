"""Shared vocabulary of the certificate builders: :class:`NoCertificate`, exact number text,
and the :class:`Source` of mechanisms and profiles a builder reads.

Certificates are JSON documents checked by the standalone checker :mod:`exactdp.checker`
(docs/certificates.md).  Every number in them is an exact rational written as text, ``"3/4"``;
e^ε values are rationals (ε = log r) or ``"inf"``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..analysis.results import Profile, lambda_of
from ..errors import ExactDPError
from ..model.game import Mechanism
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, is_rational, q_str

__all__ = ["NoCertificate", "Source", "num", "lam_text", "exact_lambda", "FORMAT", "VERSION"]

FORMAT, VERSION = "exactdp-certificate", 1


class NoCertificate(ExactDPError):
    """This claim gets no certificate (the message says why); never a verdict."""


class Source(Protocol):
    """Where builders read mechanisms and their profiles (a :class:`~exactdp.claims.Analysis`)."""

    def mech(self, name: str) -> Mechanism: ...

    def profile(self, name: str) -> Profile: ...

    def cached(self, key: tuple, compute) -> Any: ...


_Q = type(Q(1))


def num(x: Any) -> str:
    """The exact text of a rational; refuses anything else (a decimal ε's field elements)."""
    if type(x) is _Q:  # the common case, first
        return str(x)
    if not is_rational(x):
        raise NoCertificate(
            f"the value {ladder.short(x) if ladder.is_exact(x) else repr(x)[:60]} is not rational; certificates cover "
            "rational e^eps (eps = log(r)); a decimal eps makes e^eps transcendental"
        )
    return q_str(x)  # "3/4", "-1/3", "2" for int, Fraction and gmpy2 mpq alike (of any length)


def lam_text(lam: Any) -> str:
    """e^ε as certificate text: a rational, or ``"inf"``."""
    return "inf" if is_inf(lam) else num(lam)


def exact_lambda(eps: Any) -> Any:
    """e^ε for a claim's ε: a rational (ε = log r, 0) or INF; refuses a transcendental e^ε."""
    lam = lambda_of(eps)
    if not is_inf(lam) and not is_rational(lam):
        raise NoCertificate(
            f"eps = {ladder.short(eps)} makes e^eps transcendental; certificates cover rational e^eps "
            "(eps = log(r)) for now"
        )
    return lam
