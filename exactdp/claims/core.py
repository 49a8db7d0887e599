"""The claim kinds of case-format version 1 (``../shared/spec/case-format.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..analysis import format_privloss
from ..analysis.results import Profile, value_cmp, value_str
from ..numbers.rational import Q, q_str
from ..numbers.real import Infinity, real_cmp, real_decimal, real_log, real_str
from .base import FAILS, HOLDS, Analysis, Claim, Verdict
from .. import certificates as _cert

__all__ = [
    "PrivLossClaim",
    "DPClaim",
    "NotDPClaim",
    "DeltaClaim",
    "ProfileEqClaim",
    "ProfileLeClaim",
]


def _eps_text(eps: object) -> str:
    return real_str(eps)


@dataclass(frozen=True)
class PrivLossClaim(Claim):
    """``privloss: {delta: d, equals: e}`` or ``{delta: d, at_most: e}``:
    PrivLoss(M, d) = e (or ≤ e), with PrivLoss(M, δ) = inf{ε ≥ 0 : M is (ε, δ)-DP}
    (Vadhan–Wang §5)."""

    delta: object = Q(0)
    equals: object | None = None
    at_most: object | None = None
    kind: ClassVar[str] = "privloss"

    def describe(self) -> str:
        rel, val = ("=", self.equals) if self.equals is not None else ("<=", self.at_most)
        return f"PrivLoss({self.of}, {q_str(self.delta)}) {rel} {real_str(val)}"

    def params(self) -> dict[str, str]:
        out = {"delta": q_str(self.delta)}
        if self.equals is not None:
            out["equals"] = real_str(self.equals)
        if self.at_most is not None:
            out["at_most"] = real_str(self.at_most)
        return out

    def check(self, an: Analysis) -> Verdict:
        prof = an.profile(self.of)
        found = prof.privloss(self.delta)
        values = {"privloss": real_str(found), "decimal": real_decimal(found)}
        lam = prof.least_lambda(self.delta)
        values["exp_privloss"] = real_str(lam)
        if self.equals is not None:
            c = real_cmp(found, self.equals)
            ok = c == 0
        else:
            c = real_cmp(found, self.at_most)
            ok = c <= 0
        target = self.equals if self.equals is not None else self.at_most
        wit, note = None, ""
        if not ok and c > 0 and not isinstance(target, Infinity):
            # the claimed ε is too small: show an adversary beating it
            wit = an.witness(self.of, target)
            note = f"not ({real_str(target)}, {q_str(self.delta)})-DP"
        elif not ok:
            note = f"{self.of} is already ({real_str(found)}, {q_str(self.delta)})-DP"
        return Verdict(self, HOLDS if ok else FAILS, format_privloss(found), note, wit, values)

    def certificate(self, an: Analysis) -> dict | None:
        rel, val = ("equals", self.equals) if self.equals is not None else ("at_most", self.at_most)
        return _cert.privloss_certificate(an, self.of, self.delta, rel, val)


@dataclass(frozen=True)
class DPClaim(Claim):
    """``dp: {eps: e, delta: d}``: M is (e, d)-DP against every adversary (Def. 1.7)."""

    eps: object = Q(0)
    delta: object = Q(0)
    kind: ClassVar[str] = "dp"

    def describe(self) -> str:
        return f"{self.of} is ({_eps_text(self.eps)}, {q_str(self.delta)})-DP"

    def params(self) -> dict[str, str]:
        return {"eps": real_str(self.eps), "delta": q_str(self.delta)}

    def _delta_found(self, an: Analysis) -> object:
        return an.profile(self.of).delta_at(self.eps)

    def check(self, an: Analysis) -> Verdict:
        d = self._delta_found(an)
        ok = value_cmp(d, self.delta) <= 0
        wit = None if ok else an.witness(self.of, self.eps)
        return Verdict(
            self,
            HOLDS if ok else FAILS,
            f"delta_M(e^eps) = {value_str(d)}",
            "" if ok else f"exceeds {q_str(self.delta)}",
            wit,
            {"delta_at_eps": value_str(d)},
        )

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.dp_certificate(an, self.of, self.eps, self.delta, negated=self.kind == "not_dp")


@dataclass(frozen=True)
class NotDPClaim(DPClaim):
    """``not_dp: {eps: e, delta: d}``: some adversary and adjacent pair violate (e, d)-DP;
    the verdict carries the witness."""

    kind: ClassVar[str] = "not_dp"

    def describe(self) -> str:
        return f"{self.of} is not ({_eps_text(self.eps)}, {q_str(self.delta)})-DP"

    def check(self, an: Analysis) -> Verdict:
        d = self._delta_found(an)
        holds = value_cmp(d, self.delta) > 0
        wit = an.witness(self.of, self.eps) if holds else None
        return Verdict(
            self,
            HOLDS if holds else FAILS,
            f"delta_M(e^eps) = {value_str(d)}",
            "" if holds else f"{self.of} is ({_eps_text(self.eps)}, {q_str(self.delta)})-DP",
            wit,
            {"delta_at_eps": value_str(d)},
        )


@dataclass(frozen=True)
class DeltaClaim(Claim):
    """``delta: {eps: e, equals: d}``: sup over adversaries and adjacent pairs of the
    hockey-stick divergence at e^e equals d."""

    eps: object = Q(0)
    equals: object = Q(0)
    kind: ClassVar[str] = "delta"

    def describe(self) -> str:
        return f"delta_{self.of}(e^{_eps_text(self.eps)}) = {q_str(self.equals)}"

    def params(self) -> dict[str, str]:
        return {"eps": real_str(self.eps), "equals": q_str(self.equals)}

    def check(self, an: Analysis) -> Verdict:
        d = an.profile(self.of).delta_at(self.eps)
        ok = value_cmp(d, self.equals) == 0
        wit = an.witness(self.of, self.eps) if not ok and value_cmp(d, self.equals) > 0 else None
        return Verdict(self, HOLDS if ok else FAILS, value_str(d), "", wit, {"delta_at_eps": value_str(d)})

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.delta_certificate(an, self.of, self.eps, self.equals)


@dataclass(frozen=True)
class ProfileEqClaim(Claim):
    """``profile_eq: {as: NAME}``: δ_M(ε) = δ_NAME(ε) for every ε ≥ 0."""

    other: str = ""
    kind: ClassVar[str] = "profile_eq"

    def describe(self) -> str:
        return f"profile of {self.of} equals profile of {self.other}"

    def params(self) -> dict[str, str]:
        return {"as": self.other}

    def check(self, an: Analysis) -> Verdict:
        a, b = an.profile(self.of), an.profile(self.other)
        if a.equals_on_eps_ge_0(b):
            return Verdict(self, HOLDS, f"{len(a.breakpoints())} breakpoints, identical", values=_bp(a))
        ok1, lam1 = a.le_on_eps_ge_0(b)
        lam = lam1 if not ok1 else b.le_on_eps_ge_0(a)[1]
        return Verdict(self, FAILS, _differ_text(a, b, lam, self.of, self.other), values=_bp(a))

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.profile_certificate(an, self.of, self.other, self.kind)


@dataclass(frozen=True)
class ProfileLeClaim(Claim):
    """``profile_le: {than: NAME}``: δ_M(ε) ≤ δ_NAME(ε) for every ε ≥ 0."""

    other: str = ""
    kind: ClassVar[str] = "profile_le"

    def describe(self) -> str:
        return f"profile of {self.of} <= profile of {self.other}"

    def params(self) -> dict[str, str]:
        return {"than": self.other}

    def check(self, an: Analysis) -> Verdict:
        a, b = an.profile(self.of), an.profile(self.other)
        ok, lam = a.le_on_eps_ge_0(b)
        if ok:
            return Verdict(self, HOLDS, "dominated at every breakpoint and in the limit", values=_bp(a))
        wit = an.witness(self.of, _log_or_inf(lam)) if not isinstance(lam, Infinity) else None
        return Verdict(self, FAILS, _differ_text(a, b, lam, self.of, self.other), witness=wit, values=_bp(a))

    def certificate(self, an: Analysis) -> dict | None:
        return _cert.profile_certificate(an, self.of, self.other, self.kind)


def _log_or_inf(lam: object) -> object:
    return real_log(lam)


def _bp(p: Profile) -> dict[str, Any]:
    return {"breakpoints": [[q_str(l), q_str(d)] for l, d in p.breakpoints()], "limit": q_str(p.limit())}


def _differ_text(a: Profile, b: Profile, lam: object, na: str, nb: str) -> str:
    if isinstance(lam, Infinity):
        return f"as eps -> inf: delta_{na} -> {q_str(a.limit())}, delta_{nb} -> {q_str(b.limit())}"
    return (
        f"at e^eps = {q_str(lam)}: delta_{na} = {q_str(a.delta_at_lambda(lam))}, "
        f"delta_{nb} = {q_str(b.delta_at_lambda(lam))}"
    )
