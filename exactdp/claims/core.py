"""The claim kinds of case-format version 1: privacy loss, (eps, delta)-DP, delta at eps, and
profile comparisons (Vadhan & Wang 2021, Def. 1.7 and Section 5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import certificates as _cert
from ..analysis import format_privloss
from ..analysis.results import Profile, privloss_from_lambda, value_cmp, value_str
from ..errors import InexactValueError
from ..forms.fields import Delta, Eps, FieldProblem, Label, PrivLossValue, arg
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from ..numbers.symbolic import expr_str, is_sym
from .base import FAILS, HOLDS, Analysis, Claim, Verdict, claim

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
    """An exact value, or a value in the case's symbols (``(E^2 - E)/(E + 1)^2``)."""
    if is_sym(x):
        return expr_str(x)
    return ladder.text(x)


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

    delta: Any = arg(Delta(field=True, symbolic=True), default=Q(0), doc="default 0")
    equals: Any = arg(PrivLossValue(symbolic=True), default=None, doc="log(r), a rational, or inf")
    at_most: Any = arg(PrivLossValue(symbolic=True), default=None, doc="log(r), a rational, or inf")

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
        values = {"privloss": ladder.text(found), "decimal": ladder.decimal(found)}
        values["exp_privloss"] = ladder.text(lam)
        if self.equals is not None:
            c = ladder.cmp(found, self.equals)
            ok = c == 0
        else:
            c = ladder.cmp(found, self.at_most)
            ok = c <= 0
        target = self.equals if self.equals is not None else self.at_most
        wit, note = None, ""
        if not ok and c > 0 and not is_inf(target):
            # the claimed ε is too small: show an adversary beating it
            # e^eps must be exact for a witness: a multiple of a log such as log(3)/2 is
            # compared exactly but has no witness
            wit = _witness_if_exact(an, self.subject, target)
            note = f"not ({ladder.text(target)}, {q_str(self.delta)})-DP"
        elif not ok:
            note = f"{self.of} is already ({ladder.text(found)}, {q_str(self.delta)})-DP"
        return Verdict(self, HOLDS if ok else FAILS, format_privloss(found), note, wit, values)

    def certificate(self, an: Analysis) -> dict | None:
        rel, val = ("equals", self.equals) if self.equals is not None else ("at_most", self.at_most)
        return _cert.privloss_certificate(an, self.subject, self.delta, rel, val)


@claim("dp")
@dataclass(frozen=True, kw_only=True)
class DPClaim(Claim):
    """M is (eps, delta)-DP against every adaptive adversary (Vadhan-Wang Def. 1.7)."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(3)")
    delta: Any = arg(Delta(field=True, logs=True, symbolic=True), default=Q(0), doc="default 0")

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
        return Verdict(
            self,
            HOLDS if ok else FAILS,
            f"delta_{self.of}(e^eps) = {value_str(d)}",
            "" if ok else f"exceeds {q_str(self.delta)}",
            wit,
            {"delta_at_eps": value_str(d)},
        )

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
        return Verdict(
            self,
            HOLDS if holds else FAILS,
            f"delta_{self.of}(e^eps) = {value_str(d)}",
            "" if holds else f"{self.of} is ({_eps_text(self.eps)}, {q_str(self.delta)})-DP",
            wit,
            {"delta_at_eps": value_str(d)},
        )


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
    """The largest hockey-stick divergence at e^eps, over adversaries and adjacent pairs, equals the given delta."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(3)")
    equals: Any = arg(Delta(field=True, logs=True, symbolic=True), doc="the exact delta")

    def statement(self) -> str:
        return f"delta_{self.of}(e^{_exponent(self.eps)}) = {_text(self.equals)}"

    def params(self) -> dict[str, str]:
        return {"eps": _text(self.eps), "equals": _text(self.equals)}

    def check(self, an: Analysis) -> Verdict:
        d = an.delta_at(self.subject, self.eps, expect_zero=self.equals == 0)
        ok = value_cmp(d, self.equals) == 0
        wit = an.witness(self.subject, self.eps) if not ok and value_cmp(d, self.equals) > 0 else None
        return Verdict(self, HOLDS if ok else FAILS, value_str(d), "", wit, {"delta_at_eps": value_str(d)})

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.delta_certificate(an, self.subject, self.eps, self.equals)


class _Comparison(Claim):
    """A claim comparing the profile of ``of`` with that of ``other`` (on the same pairs)."""

    other: str

    @property
    def other_subject(self) -> Any:
        return self.other if self.adjacency is None else (self.other, self.adjacency)


@claim("profile_eq")
@dataclass(frozen=True, kw_only=True)
class ProfileEqClaim(_Comparison):
    """Same privacy profile as another mechanism: delta_M(eps) = delta_N(eps) for every eps >= 0."""

    other: str = arg(Label("a mechanism name"), key="as", doc="the other mechanism")
    names = ("other",)

    def statement(self) -> str:
        return f"profile of {self.of} equals profile of {self.other}"

    def params(self) -> dict[str, str]:
        return {"as": self.other}

    def check(self, an: Analysis) -> Verdict:
        a, b = an.profile(self.subject), an.profile(self.other_subject)
        if a.equals_on_eps_ge_0(b):
            return Verdict(self, HOLDS, f"{len(a.breakpoints())} breakpoints, identical", values=_bp(a))
        ok1, lam1 = a.le_on_eps_ge_0(b)
        lam = lam1 if not ok1 else b.le_on_eps_ge_0(a)[1]
        return Verdict(self, FAILS, _differ_text(a, b, lam, self.of, self.other), values=_bp(a))

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.profile_certificate(an, self.subject, self.other_subject, self.kind)


@claim("profile_le")
@dataclass(frozen=True, kw_only=True)
class ProfileLeClaim(_Comparison):
    """Privacy profile at most another's: delta_M(eps) <= delta_N(eps) for every eps >= 0."""

    other: str = arg(Label("a mechanism name"), key="than", doc="the other mechanism")
    names = ("other",)

    def statement(self) -> str:
        return f"profile of {self.of} <= profile of {self.other}"

    def params(self) -> dict[str, str]:
        return {"than": self.other}

    def check(self, an: Analysis) -> Verdict:
        a, b = an.profile(self.subject), an.profile(self.other_subject)
        ok, lam = a.le_on_eps_ge_0(b)
        if ok:
            return Verdict(self, HOLDS, "dominated at every breakpoint and in the limit", values=_bp(a))
        wit = an.witness(self.subject, _log_or_inf(lam)) if not is_inf(lam) else None
        return Verdict(self, FAILS, _differ_text(a, b, lam, self.of, self.other), witness=wit, values=_bp(a))

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.profile_certificate(an, self.subject, self.other_subject, self.kind)


def _log_or_inf(lam: Any) -> Any:
    return ladder.log(lam)


def _bp(p: Profile) -> dict[str, Any]:
    return {"breakpoints": [[q_str(l), q_str(d)] for l, d in p.breakpoints()], "limit": q_str(p.limit())}


def _differ_text(a: Profile, b: Profile, lam: Any, na: str, nb: str) -> str:
    if is_inf(lam):
        return f"as eps -> inf: delta_{na} -> {q_str(a.limit())}, delta_{nb} -> {q_str(b.limit())}"
    return (
        f"at e^eps = {q_str(lam)}: delta_{na} = {q_str(a.delta_at_lambda(lam))}, "
        f"delta_{nb} = {q_str(b.delta_at_lambda(lam))}"
    )
