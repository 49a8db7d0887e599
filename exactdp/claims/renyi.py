"""Rényi-DP and zCDP claims: the Rényi divergence of an interactive mechanism at any order
(exact for whole orders, certified enclosures otherwise), zero-concentrated DP, and the
conversions to (ε, δ)-DP (the concurrent composition theorem for Rényi DP is
``composition: {theorem: renyi}``, :mod:`exactdp.claims.composition`).

.. code-block:: yaml

    claims:
      - renyi: {alpha: 2, equals: log(7/3)}            # D_2(M) (Mironov 2017, Def. 3)
      - renyi: {alpha: 3, at_most: log(61/9)/2}
      - renyi: {alpha: 3, exceeds: log(3)/2}           # refutes (3, log(3)/2)-RDP
      - renyi: {alpha: 3/2, at_most: 0.734}            # a real order: certified enclosure
      - zcdp: {rho: 1/8}                               # D_alpha <= rho*alpha for every alpha > 1
      - composition: {components: [A, B], theorem: renyi, alpha: 2}   # Lyu 2022

Whole orders with rational probabilities are exact (:mod:`exactdp.analysis.renyi`); other
orders, and whole orders whose value has no exact form, are certified enclosures
(:mod:`exactdp.analysis.renyi_real`) and a comparison that the enclosure cannot settle is
*undecided*; zCDP is decided by certified branch and bound over α (:mod:`exactdp.analysis.zcdp`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, ClassVar

from .. import certificates as _cert
from ..analysis.gdp import Enclosure as Interval
from ..analysis.renyi import RenyiResult, alpha_str
from ..analysis.renyi_certified import Enclosure
from ..analysis.renyi_real import CertifiedRenyi, compare, renyi_any, renyi_witness
from ..analysis.zcdp import FAILS as Z_FAILS
from ..analysis.zcdp import HOLDS as Z_HOLDS
from ..analysis.zcdp import ZCDPResult, check_zcdp
from ..certificates.base import NoCertificate
from ..certificates.renyi import bounded_certificate, enclosure_reason
from ..forms.fields import Choice, Delta, Divergence, FieldProblem, Order, Rational, arg
from ..numbers import ladder
from ..numbers.certified import ball_bounds
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, is_rational, q_str, to_fraction
from ..numbers.symbolic import expr_str, is_sym, sympy
from ..theorems.named import CONVERSIONS, NAMED, compare_bound
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Shows, Subject, Verdict, claim

__all__ = [
    "RenyiClaim",
    "ZCDPClaim",
    "NotZCDPClaim",
    "ConversionClaim",
    "renyi_value",
    "readable",
]


def renyi_value(an: Analysis, subject: Subject, alpha: Any) -> RenyiResult | CertifiedRenyi:
    """D_α of the subject: exact from the engine when it has an exact form, else a certified
    enclosure (cached per analysis)."""
    return an.cached(("renyi_any", subject, ladder.text(alpha)), lambda: renyi_any(an.engine, an.mech(subject), alpha))


@claim("renyi")
@dataclass(frozen=True, kw_only=True)
class RenyiClaim(Claim):
    """D_alpha(M), the Renyi divergence of order alpha of the views, sup over ordered adjacent
    pairs and adaptive adversaries (Mironov 2017, Def. 3-4), equals (is at most, exceeds) the
    value; `exceeds` refutes the claim that M is (alpha, X)-RDP."""

    hidden_fields = ()  # takes `ordered: true` (one order of each pair)

    alpha: Any = arg(Order(fractional=True), doc="a whole number >= 1 (1 is KL), a real order > 1 such as 3/2, or inf")
    equals: Any = arg(Divergence(symbolic=True), default=None, doc="log(r)/k, a rational, or inf")
    at_most: Any = arg(Divergence(symbolic=True), default=None, doc="log(r)/k, a rational, or inf")
    exceeds: Any = arg(Divergence(symbolic=True), default=None, doc="log(r)/k, a rational, or inf")
    shows = Shows("renyi", "D_alpha(M), the Renyi divergence of order alpha")

    def validate(self) -> None:
        super().validate()
        if sum(v is not None for v in (self.equals, self.at_most, self.exceeds)) != 1:
            raise FieldProblem((), "renyi needs exactly one of `equals:`, `at_most:` or `exceeds:`")

    def _rel(self) -> tuple[str, str, object]:
        for key, rel in (("equals", "="), ("at_most", "<="), ("exceeds", ">")):
            if getattr(self, key) is not None:
                return key, rel, getattr(self, key)
        raise ValueError("a renyi claim needs equals, at_most or exceeds")

    def statement(self) -> str:
        _, rel, val = self._rel()
        shown = (
            expr_str(val) if is_sym(val) else _dec(val) if not is_inf(val) and is_rational(val) else ladder.text(val)
        )
        return f"D_{ladder.short(self.alpha)}({self.of}) {rel} {shown}"

    def params(self) -> dict[str, str]:
        key, _, val = self._rel()
        return {"alpha": alpha_str(self.alpha), key: expr_str(val) if is_sym(val) else ladder.text(val)}

    def _holds(self, res: RenyiResult) -> bool:
        key, _, target = self._rel()
        c = ladder.cmp(res.value, target)
        return {"equals": c == 0, "at_most": c <= 0, "exceeds": c > 0}[key]

    def certificate(self, an: Analysis) -> dict | None:
        """The game and the claim; the checker recomputes the Renyi sum (α ≥ 2 or ∞), or bounds it
        until the comparison is decided (a fraction α > 1), as exactdp's enclosure did."""
        res = renyi_value(an, self.subject, self.alpha)
        key, _, target = self._rel()
        if not isinstance(res, RenyiResult):
            status = self._check_certified(an, res).status
            if status not in (HOLDS, FAILS) or not bounded_certificate(an.mech(self.subject), self.alpha):
                raise NoCertificate(enclosure_reason(an.mech(self.subject), self.alpha, status))
            return _cert.renyi_certificate(an, self.subject, self.alpha, key, target, status == HOLDS, res)
        res = an.renyi(self.subject, self.alpha)
        return _cert.renyi_certificate(an, self.subject, self.alpha, key, target, self._holds(res), res)

    def check(self, an: Analysis) -> Verdict:
        res = renyi_value(an, self.subject, self.alpha)
        if isinstance(res, CertifiedRenyi):
            return self._check_certified(an, res)
        facts: dict[str, object] = {"renyi": res.value, "alpha": self.alpha}
        worst = res.worst_pair()
        witness = None
        if worst is not None:
            facts["pair"] = tuple(worst.pair)
            facts["sum" if self.alpha != 1 else "kl"] = worst.total
            witness = renyi_witness(an.mech(self.subject), res)
        return Verdict(self, HOLDS if self._holds(res) else FAILS, facts, witness)

    def _check_certified(self, an: Analysis, res: CertifiedRenyi) -> Verdict:
        """D_α as a certified enclosure (a real order, or a whole one with no exact form): the
        claim is undecided when the enclosure contains the claimed value."""
        key, _, target = self._rel()
        c, res = compare(an.mech(self.subject), self.alpha, target, res)
        facts: dict[str, object] = {"renyi": res.value, "alpha": self.alpha, "precision": res.prec}
        if c is None:
            return Verdict(self, UNDECIDED, facts, res.witness)
        ok = {"equals": c == 0, "at_most": c <= 0, "exceeds": c > 0}[key]
        return Verdict(self, HOLDS if ok else FAILS, facts, res.witness)


@claim("zcdp")
@dataclass(frozen=True, kw_only=True)
class ZCDPClaim(Claim):
    """M is rho-zCDP: D_alpha(M) <= rho*alpha for every real alpha > 1, over ordered adjacent pairs and adaptive adversaries (Bun-Steinke 2016, Def. 1.1); decided by certified branch and bound over alpha, undecided when D_alpha/alpha touches rho. rho may be written with logarithms (log(2)^2/2, the eps^2/2 of an eps-DP mechanism, Bun-Steinke 2016, Prop. 1.4): it is then compared through certified enclosures."""

    hidden_fields = ()  # takes `ordered: true` (one order of each pair)

    rho: Any = arg(
        Rational("rho", lo=0, positive=True, symbolic=True, transcendental=True),
        doc="e.g. rho: 1/8, log(2)^2/2, or a function of a symbol such as E/2 or log(E)^2/2",
    )
    negated: ClassVar[bool] = False
    # decided by certified intervals over alpha: no exact value to show or export
    shows = Shows("", "none: zCDP is decided by certified enclosures of D_alpha/alpha, not an exact value")

    def statement(self) -> str:
        rho = rho_text(self.rho)
        return f"{self.of} is {'not ' if self.negated else ''}{rho}-zCDP"

    def params(self) -> dict[str, str]:
        return {"rho": rho_str(self.rho)}

    def _result(self, an: Analysis) -> ZCDPResult:
        def run() -> ZCDPResult:
            d_inf = an.profile(self.subject).privloss(Q(0))
            return check_zcdp(an.mech(self.subject), self.rho, d_inf)

        return an.cached(("zcdp", self.subject, self.rho), run)

    def certificate(self, an: Analysis) -> dict | None:
        """Finitely many orders covering alpha > 1 by the monotonicity of D_alpha, or one order
        where D_alpha > rho*alpha (:mod:`exactdp.certificates.zcdp`); the checker recomputes D
        at each.  Undecided claims have none."""
        res = self._result(an)
        if res.status not in (Z_HOLDS, Z_FAILS):
            raise NoCertificate("undecided")
        return _cert.zcdp_certificate(an, self.subject, self.rho, self.negated, res.status == Z_HOLDS, res.alpha)

    def check(self, an: Analysis) -> Verdict:
        res = self._result(an)
        facts: dict[str, object] = {"rho": self.rho, "zcdp": res}
        if res.status == Z_FAILS:
            return Verdict(self, HOLDS if self.negated else FAILS, facts, res.witness)
        if res.status == Z_HOLDS:
            return Verdict(self, FAILS if self.negated else HOLDS, facts)
        return Verdict(self, UNDECIDED, facts)


@claim("not_zcdp")
@dataclass(frozen=True, kw_only=True)
class NotZCDPClaim(ZCDPClaim):
    """M is not rho-zCDP: D_alpha > rho*alpha at some alpha > 1 (certified, with the adversary), or undecided."""

    negated: ClassVar[bool] = True


def readable(x: Any) -> str:
    """A rational for reading: ``0.1249`` when its decimal expansion ends within 40 digits (and
    is short), else the fraction when it is short, else a 12-digit decimal reading (≈ unless exact)."""
    f = to_fraction(x)
    for k in range(41):
        if (f * 10**k).denominator == 1:
            n = abs(f.numerator * 10**k // f.denominator)
            if n.bit_length() > 200:
                break
            digits = str(n).rjust(k + 1, "0")
            return ("-" if f < 0 else "") + (digits if k == 0 else f"{digits[:-k]}.{digits[-k:]}")
    text = ladder.short(x)
    if len(text) <= 24:
        return text
    dec = ladder.decimal(x, 12)
    return dec if Fraction(dec) == f else f"≈ {dec}"  # (1e-300 is exact; 1 - 1e-30 reads ≈ 1.0)


_dec = readable


def rho_text(x: Any, times: Any = 1) -> str:
    """ρ·``times`` for reading: a rational as :func:`readable` shows it, an exact real written
    with logarithms (``log(2)^2/2``) as its expression."""
    if is_sym(x):
        t = to_fraction(times)
        v = x * sympy.Rational(t.numerator, t.denominator)
        return f"({expr_str(v)})" if isinstance(v, sympy.Add) else expr_str(v)
    return readable(x * times)


def rho_str(x: Any) -> str:
    """ρ for JSON: the exact fraction, or the exact expression."""
    return expr_str(x) if is_sym(x) else q_str(x)


@claim("conversion")
@dataclass(frozen=True, kw_only=True)
class ConversionClaim(Claim):
    """A conversion theorem to (eps, delta)-DP is valid for M: renyi-to-dp (Mironov 2017, Prop. 3) and renyi-to-dp-cks (Canonne-Kamath-Steinke 2020, Prop. 12) from M's own D_alpha; zcdp-to-dp (Bun-Steinke 2016, Prop. 1.3) and zcdp-to-dp-cks (Canonne-Kamath-Steinke 2020, Prop. 12 with D_alpha = rho*alpha at the best order, as OpenDP converts) from a rho for which M is proved rho-zCDP. The exact PrivLoss(M, delta) is shown beside the bound; a bound below 0 (possible for delta near 1) says (0, delta)-DP, so PrivLoss = 0 is within it."""

    theorem: str = arg(Choice(CONVERSIONS, "theorem"), doc="renyi-to-dp, renyi-to-dp-cks, zcdp-to-dp or zcdp-to-dp-cks")
    delta: Any = arg(
        Delta(field=True), doc="the delta of the (eps, delta)-DP statement, 0 < delta < 1, e.g. 1e-5 or exp(-1)"
    )
    alpha: Any = arg(Order(fractional=True), default=None, doc="the Renyi order (renyi-to-dp, renyi-to-dp-cks)")
    rho: Any = arg(Rational("rho", positive=True), default=None, doc="the zCDP parameter (zcdp-to-dp, zcdp-to-dp-cks)")
    shows = Shows("privloss", "PrivLoss(M, delta), the exact least eps, beside the bound", also=("bound", "renyi"))

    def validate(self) -> None:
        super().validate()
        if not (ladder.sign(self.delta) > 0 and ladder.cmp(self.delta, 1) < 0):
            raise FieldProblem("delta", f"a conversion needs 0 < delta < 1, found {ladder.text(self.delta)}")
        renyi = not self.from_zcdp
        if renyi and (self.alpha is None or self.rho is not None):
            raise FieldProblem((), f"theorem {self.theorem} takes `alpha:` (and no `rho:`)", "for example alpha: 2")
        if not renyi and (self.rho is None or self.alpha is not None):
            raise FieldProblem((), f"theorem {self.theorem} takes `rho:` (and no `alpha:`)", "for example rho: 1/8")
        if renyi and (is_inf(self.alpha) or self.alpha == 1):
            raise FieldProblem("alpha", "the Renyi conversions need a finite order alpha > 1")

    @property
    def from_zcdp(self) -> bool:
        """A conversion from rho-zCDP (``rho:``), not from M's own D_alpha (``alpha:``)."""
        return self.theorem.startswith("zcdp-")

    def statement(self) -> str:
        what = f"alpha {ladder.short(self.alpha)}" if self.alpha is not None else f"rho {_dec(self.rho)}"
        d = _dec(self.delta) if is_rational(self.delta) else ladder.text(self.delta)
        return f"{self.of} within {self.theorem} ({what}) at delta {d}"

    def params(self) -> dict[str, str]:
        out = {"theorem": self.theorem, "delta": ladder.text(self.delta)}
        if self.alpha is not None:
            out["alpha"] = str(self.alpha)
        if self.rho is not None:
            out["rho"] = q_str(self.rho)
        return out

    def certificate(self, an: Analysis) -> dict | None:
        """The game and e^PrivLoss(M, delta); the checker recomputes D_alpha and the bound of
        renyi-to-dp or renyi-to-dp-cks.  The zCDP conversions have none (:class:`~exactdp.certificates.
        NoCertificate` says why): their premise is a condition at every real order."""
        if self.from_zcdp:
            raise NoCertificate(
                f"conversion claims with {self.theorem} have no certificate yet: the premise (rho-zCDP) is a "
                "condition at every real order, and the bound (a square root, or a minimum over the order) lies "
                "outside the checker's exact arithmetic"
            )
        status, res, mech = self.check(an).status, renyi_value(an, self.subject, self.alpha), an.mech(self.subject)
        if status not in (HOLDS, FAILS) or not (isinstance(res, RenyiResult) or bounded_certificate(mech, self.alpha)):
            raise NoCertificate(enclosure_reason(mech, self.alpha, status))
        return _cert.conversion_certificate(
            an, self.subject, self.theorem, self.alpha, self.delta, status == HOLDS, res
        )

    def check(self, an: Analysis) -> Verdict:
        found = an.profile(self.subject).privloss(self.delta)
        v = self._check_zcdp(an, found) if self.from_zcdp else self._check_renyi(an, found)
        premise_fails = self.from_zcdp and v.facts["zcdp"].status != Z_HOLDS
        if v.status == FAILS and not premise_fails and not is_inf(found) and ladder.sign(found) == 0:
            return replace(v, status=HOLDS)  # a bound below 0 (delta near 1) still says (0, delta)-DP
        return v

    def _check_renyi(self, an: Analysis, found: Any) -> Verdict:
        res = renyi_value(an, self.subject, self.alpha)
        fn = NAMED[self.theorem].bound
        if isinstance(res, RenyiResult) and not is_inf(res.value):
            bound = fn(res.value, self.alpha, self.delta)
            facts = {"privloss": found, "renyi": res.value, "bound": bound}
            return Verdict(self, HOLDS if ladder.cmp(found, bound) <= 0 else FAILS, facts)
        if isinstance(res, RenyiResult) or is_inf(res.value):  # D_alpha = inf: the bound is inf
            return Verdict(self, HOLDS, {"privloss": found, "renyi_infinite": True})
        status, lo, hi = _interval_bound(fn, res.value, self.alpha, self.delta, found)
        facts = {
            "privloss": found,
            "renyi_enclosure": res.value,
            "bound_enclosure": Interval(Q(lo.numerator, lo.denominator), Q(hi.numerator, hi.denominator)),
        }
        if status is None:
            return Verdict(self, UNDECIDED, facts)
        return Verdict(self, HOLDS if status else FAILS, facts)

    def _check_zcdp(self, an: Analysis, found: Any) -> Verdict:
        d_inf = an.profile(self.subject).privloss(Q(0))
        z = an.cached(("zcdp", self.subject, self.rho), lambda: check_zcdp(an.mech(self.subject), self.rho, d_inf))
        facts: dict[str, object] = {"privloss": found, "zcdp": z}
        if z.status != Z_HOLDS:  # the premise does not hold (or is undecided)
            return Verdict(self, FAILS if z.status == Z_FAILS else UNDECIDED, facts, z.witness)
        bound = NAMED[self.theorem].bound(self.rho, self.delta)
        facts["bound_interval"] = Interval(bound.lo, bound.hi)  # certified; the bound itself does not pickle
        verdict = compare_bound(bound, found)
        if verdict == "undecided":
            return Verdict(self, UNDECIDED, facts)
        return Verdict(self, HOLDS if verdict == "valid" else FAILS, facts)


def _interval_bound(fn: Any, d: Enclosure, alpha: Any, delta: Any, found: Any) -> tuple[bool | None, Any, Any]:
    """The bound with D in its certified enclosure: (PrivLoss <= bound certified?, lo, hi); the
    bound is increasing in D, so its ends are the bound at the enclosure's ends."""
    lo = ball_bounds(ladder.ball(fn(Q(d.lo.numerator, d.lo.denominator), alpha, delta), 200))[0]
    hi = ball_bounds(ladder.ball(fn(Q(d.hi.numerator, d.hi.denominator), alpha, delta), 200))[1]
    if ladder.cmp(found, Q(lo.numerator, lo.denominator)) <= 0:
        return True, lo, hi
    if ladder.cmp(found, Q(hi.numerator, hi.denominator)) > 0:
        return False, lo, hi
    return None, lo, hi
