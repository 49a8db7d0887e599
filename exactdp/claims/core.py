"""The claim kinds of case-format version 1: privacy loss, (eps, delta)-DP, delta at eps, and
profile comparisons (Vadhan & Wang 2021, Def. 1.7 and Section 5)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key
from typing import Any

from .. import certificates as _cert
from ..analysis.results import Profile, privloss_from_lambda, value_cmp
from ..errors import InexactValueError
from ..forms.fields import Delta, Eps, FieldProblem, Label, PrivLossValue, arg
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, is_rational, to_fraction
from ..numbers.symbolic import expr_str, is_sym
from .base import FAILS, HOLDS, Analysis, Claim, Shows, Verdict, claim

__all__ = [
    "PrivLossClaim",
    "DPClaim",
    "NotDPClaim",
    "PremiseClaim",
    "DeltaClaim",
    "ProfileEqClaim",
    "ProfileLeClaim",
]


def _eps_text(eps: Any) -> str:
    return _text(eps)


def _text(x: Any) -> str:
    """An exact value, or a value in the case's symbols (``(E^2 - E)/(E + 1)^2``); a long
    rational whose denominator is a power of ten as it was written, ``1e-200`` (exactly 10^-200)."""
    if is_sym(x):
        return expr_str(x)
    out = ladder.text(x)
    if len(out) > 24 and is_rational(x):
        f = to_fraction(x)
        guess = int(f.denominator.bit_length() * 0.30103)  # (no str() of the integer: Python refuses 4,300 digits)
        k = next((j for j in (guess, guess + 1) if 10**j == f.denominator), None)
        if k is not None and abs(f.numerator) < 10**15:
            return f"{f.numerator}e-{k}"
    return out


def _exponent(eps: object) -> str:
    """ε as an exponent: ``log(3)`` or ``0`` as is, ``(2/5)`` or ``(1/10 + log(2))`` in parentheses."""
    e = _text(eps)
    simple = e.isalnum() or (e.startswith("log(") and e.count("(") == 1 and e.endswith(")"))
    return e if simple else f"({e})"


def _witness_if_exact(an: Analysis, subject: Any, eps: Any) -> Any:
    """A witness at ε when e^ε has an exact form (not for ε = log(3)/2: e^ε = √3)."""
    try:
        ladder.exp(eps)
    except InexactValueError:
        return None
    return an.witness(subject, eps)


@claim("privloss")
@dataclass(frozen=True, kw_only=True)
class PrivLossClaim(Claim):
    """PrivLoss(M, delta) equals (or is at most) the given value, where PrivLoss(M, delta) =
    inf{eps >= 0 : M is (eps, delta)-DP} (Vadhan-Wang Section 5)."""

    hidden_fields = ()  # takes `ordered: true` (one order of each pair)

    delta: Any = arg(Delta(field=True, symbolic=True), default=Q(0), doc="default 0")
    equals: Any = arg(PrivLossValue(symbolic=True), default=None, doc="log(r), a rational, or inf")
    at_most: Any = arg(PrivLossValue(symbolic=True), default=None, doc="log(r), a rational, or inf")
    shows = Shows("privloss", "PrivLoss(M, delta)", also=("exp_privloss",))

    def validate(self) -> None:
        super().validate()
        if (self.equals is None) == (self.at_most is None):
            raise FieldProblem((), "privloss needs exactly one of `equals:` or `at_most:`")

    def statement(self) -> str:
        rel, val = ("=", self.equals) if self.equals is not None else ("<=", self.at_most)
        return f"PrivLoss({self.of}, {_text(self.delta)}) {rel} {_text(val)}"

    def params(self) -> dict[str, str]:
        out = {"delta": _text(self.delta)}
        if self.equals is not None:
            out["equals"] = _text(self.equals)
        if self.at_most is not None:
            out["at_most"] = _text(self.at_most)
        return out

    def check(self, an: Analysis) -> Verdict:
        lam = an.least_lambda(self.subject, self.delta)
        found = privloss_from_lambda(lam)
        target = self.equals if self.equals is not None else self.at_most
        c = ladder.cmp(found, target)
        ok = c == 0 if self.equals is not None else c <= 0
        wit = None
        if not ok and c > 0 and not is_inf(target):
            # the claimed ε is too small: show an adversary beating it (e^eps must be exact for
            # a witness: a multiple of a log such as log(3)/2 is compared exactly but has none)
            wit = _witness_if_exact(an, self.subject, target)
        facts = {"privloss": found, "exp_privloss": lam, "relation": c}
        return Verdict(self, HOLDS if ok else FAILS, facts, wit)

    def certificate(self, an: Analysis) -> dict | None:
        rel, val = ("equals", self.equals) if self.equals is not None else ("at_most", self.at_most)
        return _cert.privloss_certificate(an, self.subject, self.delta, rel, val)


@claim("dp")
@dataclass(frozen=True, kw_only=True)
class DPClaim(Claim):
    """M is (eps, delta)-DP against every adaptive adversary (Vadhan-Wang Def. 1.7)."""

    hidden_fields = ()  # takes `ordered: true` (one order of each pair)

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(3)")
    delta: Any = arg(Delta(field=True, logs=True, symbolic=True), default=Q(0), doc="default 0")
    shows = Shows("delta_at_eps", "delta_M(e^eps), the least delta for which M is (eps, delta)-DP")

    def statement(self) -> str:
        return f"{self.of} is ({_eps_text(self.eps)}, {_text(self.delta)})-DP"

    def params(self) -> dict[str, str]:
        return {"eps": _text(self.eps), "delta": _text(self.delta)}

    def _delta_found(self, an: Analysis) -> Any:
        return an.delta_at(self.subject, self.eps, expect_zero=self.delta == 0)

    def check(self, an: Analysis) -> Verdict:
        d = self._delta_found(an)
        ok = value_cmp(d, self.delta) <= 0
        wit = None if ok else an.witness(self.subject, self.eps)
        return Verdict(self, HOLDS if ok else FAILS, {"delta_at_eps": d}, wit)

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.dp_certificate(an, self.subject, self.eps, self.delta, negated=self.kind == "not_dp")


@claim("not_dp")
@dataclass(frozen=True, kw_only=True)
class NotDPClaim(DPClaim):
    """M is not (eps, delta)-DP: some adversary and adjacent pair violate it; the report shows a witness."""

    def statement(self) -> str:
        return f"{self.of} is not ({_eps_text(self.eps)}, {_text(self.delta)})-DP"

    def check(self, an: Analysis) -> Verdict:
        d = self._delta_found(an)
        holds = value_cmp(d, self.delta) > 0
        wit = an.witness(self.subject, self.eps) if holds else None
        return Verdict(self, HOLDS if holds else FAILS, {"delta_at_eps": d}, wit)


@dataclass(frozen=True, kw_only=True)
class PremiseClaim(DPClaim):
    """A premise a mechanism's construction relies on (a form's obligation, e.g. a continual
    mechanism's claimed parameters, Henzinger-Safavi-Vadhan Def. 4.4 (iv)): the premise's game
    is (eps, delta)-DP.  Not a case-file claim kind: the case reader derives it."""

    text: str = ""
    owner: str = ""
    kind = "premise"

    def statement(self) -> str:
        return f"premise: {self.text}"


@claim("delta")
@dataclass(frozen=True, kw_only=True)
class DeltaClaim(Claim):
    """The largest hockey-stick divergence at e^eps, over adversaries and adjacent pairs, equals the given delta
    (for any real eps: the divergence is defined for e^eps < 1 too, where privacy-loss accountants ask it)."""

    hidden_fields = ()  # takes `ordered: true` (one order of each pair)

    eps: Any = arg(Eps(symbolic=True, negative=True), doc="e.g. eps: log(3), or log(9/10) below 0")
    equals: Any = arg(Delta(field=True, logs=True, symbolic=True), doc="the exact delta")
    shows = Shows("delta_at_eps", "delta_M(e^eps)")

    def statement(self) -> str:
        return f"delta_{self.of}(e^{_exponent(self.eps)}) = {_text(self.equals)}"

    def params(self) -> dict[str, str]:
        return {"eps": _text(self.eps), "equals": _text(self.equals)}

    def check(self, an: Analysis) -> Verdict:
        d = an.delta_at(self.subject, self.eps, expect_zero=self.equals == 0)
        ok = value_cmp(d, self.equals) == 0
        wit = an.witness(self.subject, self.eps) if not ok and value_cmp(d, self.equals) > 0 else None
        return Verdict(self, HOLDS if ok else FAILS, {"delta_at_eps": d}, wit)

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.delta_certificate(an, self.subject, self.eps, self.equals)


class _Comparison(Claim):
    """A claim comparing the profile of ``of`` with that of ``other`` (on the same pairs)."""

    other: str

    @property
    def other_subject(self) -> Any:
        return self.subject_of(self.other)


@claim("profile_eq")
@dataclass(frozen=True, kw_only=True)
class ProfileEqClaim(_Comparison):
    """Same privacy profile as another mechanism: delta_M(eps) = delta_N(eps) for every eps >= 0."""

    other: str = arg(Label("a mechanism name"), key="as", doc="the other mechanism")
    names = ("other",)
    shows = Shows("excess", "max over eps >= 0 of |delta_M(e^eps) - delta_N(e^eps)| (0 when it holds)", also=("limit",))

    def statement(self) -> str:
        return f"profile of {self.of} equals profile of {self.other}"

    def params(self) -> dict[str, str]:
        return {"as": self.other}

    def check(self, an: Analysis) -> Verdict:
        a, b = an.profile(self.subject), an.profile(self.other_subject)
        pa, pb = a.breakpoints(), b.breakpoints()
        excess = max(_excess(pa, pb), _excess(pb, pa), key=_order)
        if a.equals_on_eps_ge_0(b):
            return Verdict(self, HOLDS, _facts(a, b, pa, excess))
        ok1, lam1 = a.le_on_eps_ge_0(b)
        lam = lam1 if not ok1 else b.le_on_eps_ge_0(a)[1]
        return Verdict(self, FAILS, _facts(a, b, pa, excess, lam))

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.profile_certificate(an, self.subject, self.other_subject, self.kind)


@claim("profile_le")
@dataclass(frozen=True, kw_only=True)
class ProfileLeClaim(_Comparison):
    """Privacy profile at most another's: delta_M(eps) <= delta_N(eps) for every eps >= 0."""

    other: str = arg(Label("a mechanism name"), key="than", doc="the other mechanism")
    names = ("other",)
    shows = Shows(
        "excess", "max over eps >= 0 of delta_M(e^eps) - delta_N(e^eps) (<= 0 when it holds)", also=("limit",)
    )

    def statement(self) -> str:
        return f"profile of {self.of} <= profile of {self.other}"

    def params(self) -> dict[str, str]:
        return {"than": self.other}

    def check(self, an: Analysis) -> Verdict:
        a, b = an.profile(self.subject), an.profile(self.other_subject)
        ok, lam = a.le_on_eps_ge_0(b)
        pa = a.breakpoints()
        excess = _excess(pa, b.breakpoints())
        if ok:
            return Verdict(self, HOLDS, _facts(a, b, pa, excess))
        wit = an.witness(self.subject, ladder.log(lam)) if not is_inf(lam) else None
        return Verdict(self, FAILS, _facts(a, b, pa, excess, lam), wit)

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.profile_certificate(an, self.subject, self.other_subject, self.kind)


_order = cmp_to_key(value_cmp)  # a sort key for values of profiles (rationals and ℚ(e^{1/L}) alike)


def _interpolate(points: list, lams: list) -> list:
    """δ at each λ of the increasing ``lams`` from a profile's increasing breakpoints ``points``
    (λ, δ(λ)): δ is affine in λ between two breakpoints and constant beyond the last."""
    out, k = [], 0
    for lam in lams:
        while k + 1 < len(points) and value_cmp(points[k + 1][0], lam) <= 0:
            k += 1
        (l0, d0), nxt = points[k], points[k + 1] if k + 1 < len(points) else None
        out.append(d0 if nxt is None or value_cmp(lam, l0) == 0 else d0 + (nxt[1] - d0) * (lam - l0) / (nxt[0] - l0))
    return out


def _excess(pa: list, pb: list) -> Any:
    """sup over λ = e^ε ≥ 1 of δ_a(λ) − δ_b(λ), from the two profiles' breakpoints: both are
    piecewise linear in λ and constant beyond their last breakpoints, so the supremum is attained
    at λ = 1 or at a breakpoint of either (one pass over both lists)."""
    lams = sorted({lam for lam, _ in pa} | {lam for lam, _ in pb}, key=_order)
    return max((x - y for x, y in zip(_interpolate(pa, lams), _interpolate(pb, lams))), key=_order)


def _facts(a: Profile, b: Profile, pa: list, excess: Any, differ_at: Any = None) -> dict[str, Any]:
    """The facts of a profile comparison: ``of``'s breakpoints ``pa`` and limit, the excess, and
    where the two profiles differ (λ, then δ of each there; their limits when λ is ∞)."""
    facts: dict[str, Any] = {"breakpoints": tuple(pa), "limit": a.limit(), "excess": excess}
    if differ_at is not None:
        at = (
            (a.limit(), b.limit())
            if is_inf(differ_at)
            else (a.delta_at_lambda(differ_at), b.delta_at_lambda(differ_at))
        )
        facts["differ_at"] = differ_at
        facts["deltas_there"] = at
    return facts
