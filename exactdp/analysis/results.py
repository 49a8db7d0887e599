"""Value types the engines return: exact privacy profiles and privacy-loss values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeAlias, Union

if TYPE_CHECKING:  # pragma: no cover
    from gmpy2 import mpq


from ..builders.params import read_eps, read_rational
from ..display import RichDisplay
from ..errors import ArgumentError
from ..numbers import INF, Infinity, QtElement, ladder
from ..numbers import AffineInLambda as AffineInLambda  # its home is exactdp.numbers (the ladder)
from ..numbers.element import public
from ..numbers.ladder import QQ, QT, is_inf
from ..numbers.rational import Q, q_str
from ..numbers.types import DeltaLike, EpsLike, PrivLossValue, Rational
from .hull import Hull, line_gt, upper

__all__ = [
    "PairProfile",
    "Profile",
    "privloss_from_lambda",
    "lambda_of",
    "value_cmp",
    "affine_at",
    "value_str",
    "format_privloss",
    "eps_arg",
    "delta_arg",
    "DeltaValue",
]

DeltaValue: TypeAlias = Union[int, Fraction, "mpq", QtElement, "AffineInLambda"]
"""δ_M(e^ε) as the engines return it: rational for ε = log(r), a field element or an
:class:`AffineInLambda` for a decimal ε."""


def eps_arg(eps: EpsLike | Infinity, call: str, *, check: bool = True, negative: bool = False) -> PrivLossValue:
    """ε as the analysis functions take it: an exact value, ``INF``, or text (``"log(3)"``).

    ``check``: refuse what is not an ε ≥ 0 (the public functions; any real ε with ``negative``,
    where δ(e^ε) and its witness are asked for); ``Profile`` methods only read text and pass exact
    values through, as the engines use them."""
    if is_inf(eps) or (isinstance(eps, str) and eps.strip() == "inf"):
        return INF
    if check or isinstance(eps, (str, float)):
        return read_eps(eps, call=call, negative=negative)
    return eps


def delta_arg(delta: DeltaLike, call: str, *, check: bool = True) -> Rational:
    """δ as the analysis functions take it: an exact rational or text (``"1/10"``, ``"1e-6"``);
    with ``check``, it must lie in [0, 1]."""
    d = read_rational(delta, call=call, name="delta")
    if check and not 0 <= d <= 1:
        raise ArgumentError(f"{call}: delta must lie in [0, 1], got {q_str(d)}")
    return d


def lambda_of(eps: Any) -> Any:
    """λ = e^ε for an exact ε ≥ 0: a rational for ``log(r)``, r·e^s otherwise, ∞ for ∞."""
    return ladder.exp(eps)


def privloss_from_lambda(lam: Any) -> Any:
    """PrivLoss = ln λ*: ``0``, ``log(23/9)``, the logarithm of a field element, or ``INF``."""
    return ladder.log(lam)


def affine_at(a: Any, b: Any, lam: Any) -> Any:
    """The exact value a − b·λ: a rational or an element of ℚ(e^{1/L}) when λ, a and b lie in
    one field of moderate degree; an :class:`AffineInLambda` for λ = r·e^s beyond it."""
    return a if b == 0 else ladder.sub(a, ladder.mul(b, lam))


def value_cmp(v: Any, q: Any) -> int:
    """Compare a δ value with a δ (rational, field element or log-linear), exactly."""
    return ladder.cmp(v, q)


def value_str(v: Any) -> str:
    return ladder.text(v)


@dataclass(frozen=True, eq=False)
class PairProfile:
    """The exact profile of one ordered adjacent pair (x, x'): δ_{x,x'}(λ)."""

    pair: tuple[str, str]
    hull: Hull


@dataclass(frozen=True, eq=False)
class Profile(RichDisplay):
    r"""The exact privacy profile δ_M(λ) = max over ordered adjacent pairs and adversaries of
    Σ_views (P_x − λ P_{x'})_+, for λ = e^ε ≥ 1 (Vadhan–Wang Def. 1.7, Lemma 2.2).

    ``pairs`` holds each ordered pair's profile; ``envelope`` is their maximum.
    """

    mechanism: str
    pairs: tuple[PairProfile, ...]
    envelope: Hull

    @classmethod
    def from_pairs(cls, mechanism: str, pairs: Sequence[PairProfile]) -> Profile:
        return cls(mechanism, tuple(pairs), upper([p.hull for p in pairs]))

    def delta_at_lambda(self, lam: Any) -> Any:
        """δ_M(λ) exactly: a rational for rational λ, else an :class:`AffineInLambda`."""
        if ladder.domain_of(lam) in (QQ, QT):  # a field value: evaluate in the field
            return self.envelope.value_at(ladder.as_field(lam))
        a, b = self.envelope.line_at(lam)
        return affine_at(a, b, lam)

    def delta_at(self, eps: EpsLike) -> DeltaValue:
        """δ_M(e^ε) for an exact ε ≥ 0 (or its text, e.g. ``"log(3)"``)."""
        return public(self.delta_at_lambda(lambda_of(eps_arg(eps, "Profile.delta_at", check=False))))

    def least_lambda(self, delta: DeltaLike) -> Any:
        """The least λ ≥ 1 with δ_M(λ) ≤ δ (δ rational, in ℚ(e^{1/L}), or text)."""
        d = delta_arg(delta, "Profile.least_lambda", check=False) if isinstance(delta, (str, float)) else delta
        return public(self.envelope.least_lambda(d))

    def privloss(self, delta: DeltaLike) -> PrivLossValue:
        """PrivLoss(M, δ) = inf{ε ≥ 0 : M is (ε, δ)-DP}: ``0``, ``log(r)`` or ``INF``."""
        return public(privloss_from_lambda(self.least_lambda(delta)))

    def breakpoints(self) -> list[tuple[Any, Any]]:
        """(λ, δ_M(λ)) at λ = 1 and at every breakpoint λ > 1 of the envelope, increasing in λ;
        beyond the last one δ_M is constant (the mass no adversary can hide)."""
        pts = [(Q(1), self.envelope.value_at(Q(1)))]
        for r in sorted(self.envelope.breakpoints(at_least=Q(1)), reverse=False):
            if r > 1:
                pts.append((r, self.envelope.value_at(r)))
        return [(public(lam), public(d)) for lam, d in pts]

    def limit(self) -> Any:
        """δ_M(λ) as λ → ∞: the largest probability an adversary gives a view impossible under x'."""
        return public(self.envelope.top)

    def equals_on_eps_ge_0(self, other: Profile) -> bool:
        """δ_M(λ) = δ_N(λ) for every λ ≥ 1 (exact: same limit and same bends beyond 1)."""
        return self.envelope.restricted() == other.envelope.restricted()

    def le_on_eps_ge_0(self, other: Profile) -> tuple[bool, Any]:
        """Whether δ_M(λ) ≤ δ_N(λ) for every λ ≥ 1, and a λ where it fails (or None).

        Both are piecewise linear with breakpoints among the two envelopes' slopes, so
        checking at λ = 1, at every breakpoint and at λ → ∞ is exact.
        """
        cands = (
            {Q(1)}
            | {r for r in self.envelope.breakpoints() if r > 1}
            | {r for r in other.envelope.breakpoints() if r > 1}
        )
        for lam in sorted(cands):
            if self.envelope.value_at(lam) > other.envelope.value_at(lam):
                return False, lam
        if self.envelope.top > other.envelope.top:
            return False, INF
        return True, None

    def worst_pair(self, lam: Any) -> PairProfile:
        """The first ordered pair (in adjacency order) attaining δ_M(λ)."""
        best, best_val = self.pairs[0], None
        for pp in self.pairs:
            a, b = pp.hull.line_at(lam)
            if best_val is None or line_gt((a, b), best_val, lam):
                best, best_val = pp, (a, b)
        return best


def format_privloss(v: Any) -> str:
    """``log(23/9) ≈ 0.938270`` / ``0`` / ``inf``."""
    if is_inf(v) or v == 0:
        return ladder.text(v)
    return f"{ladder.text(v)} ≈ {ladder.decimal(v)}"
