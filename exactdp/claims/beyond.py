"""Claims beyond (ε, δ): Rényi DP, f-DP, Gaussian DP and their concurrent composition theorems.

.. code-block:: yaml

    claims:
      - renyi: {alpha: 2, equals: log(7/3)}            # D_2(M) (Mironov 2017, Def. 3)
      - renyi: {alpha: 3, at_most: log(61/9)/2}
      - renyi: {alpha: 3, exceeds: log(3)/2}           # refutes (3, log(3)/2)-RDP
      - fdp: {f: R}                                    # T(M) >= T(R) pointwise (Dong-Roth-Su 2022)
      - not_fdp: {f: M, of: R}
      - gdp: {mu: 1.35}                                # T(M) >= G_mu (Dong-Roth-Su 2022, Def. 2.6)
      - not_gdp: {mu: 1.34}
      - composition: {of: [A, B], theorem: renyi, alpha: 2}   # Lyu 2022
      - composition: {of: [A, B], theorem: fdp}               # Vadhan & Zhang 2023

Every value is exact (:mod:`exactdp.analysis.renyi`, :mod:`exactdp.analysis.tradeoff`); the
Gaussian comparison is certified by interval arithmetic (:mod:`exactdp.analysis.gdp`) and says
*undecided* rather than guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .. import certificates as _cert
from ..analysis.gdp import FAILS as GDP_FAILS
from ..analysis.gdp import HOLDS as GDP_HOLDS
from ..analysis.gdp import check_gdp
from ..analysis.renyi import RenyiResult, alpha_str
from ..analysis.tradeoff import dominates, envelope_tradeoff, max_gap, tensor, tradeoff_of_hull
from ..builders.combinators import concomp, distinct_labels
from ..forms.fields import Divergence, FieldProblem, Label, Order, Rational, arg
from ..numbers.ladder import is_inf
from ..numbers.rational import q_str
from ..numbers.real import INF, real_add, real_cmp, real_decimal, real_str, real_sub
from .base import FAILS, HOLDS, Analysis, Claim, Subject, Verdict, claim

__all__ = [
    "RenyiClaim",
    "FDPClaim",
    "NotFDPClaim",
    "GDPClaim",
    "NotGDPClaim",
    "RenyiCompositionClaim",
    "FDPCompositionClaim",
    "UNDECIDED",
]

UNDECIDED = "error"  # verify.ERROR: reported as undecided (!), never as holding


def _fmt(v: object) -> str:
    """``log(7/3) ≈ 0.847298`` / ``0`` / ``inf``."""
    if is_inf(v) or real_cmp(v, 0) == 0:
        return real_str(v)
    return f"{real_str(v)} ≈ {real_decimal(v)}"


def _mu_str(mu: object) -> str:
    """μ as written in case files: ``1.35`` for 27/20 (a short decimal), else the fraction."""
    from fractions import Fraction

    f = Fraction(q_str(mu))
    for k in range(7):
        if (f * 10**k).denominator == 1:
            n = f.numerator * 10**k // f.denominator
            sign, digits = ("-" if n < 0 else ""), str(abs(n)).rjust(k + 1, "0")
            return sign + (digits if k == 0 else f"{digits[:-k]}.{digits[-k:]}")
    return q_str(mu)


def _renyi(an: Analysis, subject: Subject, alpha: object) -> RenyiResult:
    return an.cached(("renyi", subject, str(alpha)), lambda: an.engine.renyi(an.mech(subject), alpha))


@claim("renyi")
@dataclass(frozen=True, kw_only=True)
class RenyiClaim(Claim):
    """D_alpha(M), the Renyi divergence of order alpha of the views, sup over ordered adjacent
    pairs and adaptive adversaries (Mironov 2017, Def. 3-4), equals (is at most, exceeds) the
    value; `exceeds` refutes the claim that M is (alpha, X)-RDP."""

    alpha: Any = arg(Order(), doc="a whole number >= 1 (1 is KL) or inf")
    equals: Any = arg(Divergence(), default=None, doc="log(r)/k, a rational, or inf")
    at_most: Any = arg(Divergence(), default=None, doc="log(r)/k, a rational, or inf")
    exceeds: Any = arg(Divergence(), default=None, doc="log(r)/k, a rational, or inf")

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
        return f"D_{alpha_str(self.alpha)}({self.of}) {rel} {real_str(val)}"

    def params(self) -> dict[str, str]:
        key, _, val = self._rel()
        return {"alpha": alpha_str(self.alpha), key: real_str(val)}

    def _holds(self, res: RenyiResult) -> bool:
        key, _, target = self._rel()
        c = real_cmp(res.value, target)
        return {"equals": c == 0, "at_most": c <= 0, "exceeds": c > 0}[key]

    def certificate(self, an: Analysis) -> dict | None:
        """The game and the claim; the checker recomputes the Renyi sum (α ≥ 2 or ∞)."""
        key, _, target = self._rel()
        res = _renyi(an, self.subject, self.alpha)
        return _cert.renyi_certificate(an, self.subject, self.alpha, key, target, self._holds(res), res)

    def check(self, an: Analysis) -> Verdict:
        res = _renyi(an, self.subject, self.alpha)
        ok = self._holds(res)
        values: dict[str, object] = {
            "alpha": alpha_str(self.alpha),
            "renyi": real_str(res.value),
            "decimal": real_decimal(res.value),
        }
        worst = res.worst_pair()
        note = ""
        if worst is not None:
            values["pair"] = list(worst.pair)
            values["sum" if self.alpha != 1 else "kl"] = real_str(worst.total)
            what = "sup of sum P^alpha P'^(1-alpha)" if self.alpha != 1 else "sup of KL"
            note = f"worst pair ({worst.pair[0]}, {worst.pair[1]}): {what} = {real_str(worst.total)}"
        return Verdict(self, HOLDS if ok else FAILS, _fmt(res.value), note, None, values)


@claim("fdp")
@dataclass(frozen=True, kw_only=True)
class FDPClaim(Claim):
    """M is f-DP for f = T(R), the trade-off function of mechanism R's envelope: T(M) >= T(R)
    pointwise (Dong-Roth-Su 2022, Def. 2.3); equivalent to delta_M(lambda) <= delta_R(lambda)
    for every lambda >= 0 (their Prop. 2.12), decided exactly at the vertices."""

    f: str = arg(Label("a mechanism name"), doc="the mechanism whose trade-off function is f")
    names = ("f",)

    @property
    def f_subject(self) -> Subject:
        return self.f if self.adjacency is None else (self.f, self.adjacency)

    def statement(self) -> str:
        return f"{self.of} is T({self.f})-DP"

    def params(self) -> dict[str, str]:
        return {"f": self.f}

    def check(self, an: Analysis) -> Verdict:
        hm, hr = an.profile(self.subject).envelope, an.profile(self.f_subject).envelope
        ok, alpha = dominates(hm, hr)
        values: dict[str, object] = {"vertices": len(tradeoff_of_hull(hm).vertices)}
        if ok:
            gap = max_gap(hm, hr)
            values["max_gap"] = q_str(gap)
            return Verdict(
                self, HOLDS, f"T({self.of}) >= T({self.f}) at every vertex; max gap {q_str(gap)}", "", None, values
            )
        tm, tr = tradeoff_of_hull(hm), tradeoff_of_hull(hr)
        values["alpha"] = q_str(alpha)
        found = f"at alpha = {q_str(alpha)}: T({self.of}) = {q_str(tm.value_at(alpha))} < T({self.f}) = {q_str(tr.value_at(alpha))}"
        return Verdict(self, FAILS, found, "", None, values)

    def certificate(self, an: Analysis) -> dict | None:
        """Profile domination (their Prop. 2.12), certified like ``profile_le``."""
        return _cert.profile_certificate(an, self.subject, self.f_subject, self.kind)


@claim("not_fdp")
@dataclass(frozen=True, kw_only=True)
class NotFDPClaim(FDPClaim):
    """M is not T(R)-DP: at some alpha, T(M)(alpha) < T(R)(alpha)."""

    def statement(self) -> str:
        return f"{self.of} is not T({self.f})-DP"

    def check(self, an: Analysis) -> Verdict:
        v = FDPClaim.check(self, an)
        return Verdict(self, FAILS if v.holds else HOLDS, v.found, v.note, None, v.values)


@claim("gdp")
@dataclass(frozen=True, kw_only=True)
class GDPClaim(Claim):
    """M is mu-GDP: T(M(x), M(x')) >= G_mu for every ordered adjacent pair (Dong-Roth-Su 2022,
    Def. 2.6), decided at T's vertices by certified interval arithmetic."""

    mu: Any = arg(Rational("mu", lo=0), doc="e.g. mu: 1.35")

    def statement(self) -> str:
        return f"{self.of} is {_mu_str(self.mu)}-GDP"

    def params(self) -> dict[str, str]:
        return {"mu": _mu_str(self.mu)}

    def check(self, an: Analysis) -> Verdict:
        t = envelope_tradeoff(an.profile(self.subject))
        res = check_gdp(t, self.mu)
        values: dict[str, object] = {"status": res.status}
        at = ""
        if res.vertex is not None:
            a, b = res.vertex
            values["vertex"] = [q_str(a), q_str(b)]
            values["G_mu"] = res.g
            at = f"alpha = {q_str(a)}: T({self.of}) = {q_str(b)}, G_mu ≈ {res.g}"
        if res.status == GDP_HOLDS:
            return Verdict(
                self,
                HOLDS,
                f"T({self.of}) >= G_{_mu_str(self.mu)} at every vertex",
                f"closest: {at}" if at else "",
                None,
                values,
            )
        if res.status == GDP_FAILS:
            return Verdict(self, FAILS, f"T({self.of}) < G_{_mu_str(self.mu)} at {at}", "", None, values)
        return Verdict(
            self,
            UNDECIDED,
            f"undecided: a vertex touches G_{_mu_str(self.mu)} ({at})",
            "certified intervals could not separate T from G_mu at this vertex",
            None,
            values,
        )


@claim("not_gdp")
@dataclass(frozen=True, kw_only=True)
class NotGDPClaim(GDPClaim):
    """M is not mu-GDP: a vertex of T(M) lies below G_mu (certified intervals), or undecided."""

    def statement(self) -> str:
        return f"{self.of} is not {_mu_str(self.mu)}-GDP"

    def check(self, an: Analysis) -> Verdict:
        v = GDPClaim.check(self, an)
        status = v.status if v.status == UNDECIDED else (FAILS if v.holds else HOLDS)
        return Verdict(self, status, v.found, v.note, None, v.values)


def _concomp(an: Analysis, names: tuple[str, ...]):
    """ConComp of every item of ``names`` (a repeated name is another copy)."""
    labels = distinct_labels(list(names))
    return concomp(dict(zip(labels, (an.mech(n) for n in names))), name="ConComp(" + ", ".join(names) + ")")


@dataclass(frozen=True, kw_only=True)
class RenyiCompositionClaim(Claim):
    """``composition: {of: [A, B, ...], theorem: renyi, alpha: a}``: D_α(ConComp(A, B, ...)) ≤
    Σ D_α(components), a theorem for concurrent composition of interactive mechanisms (Lyu,
    *Composition Theorems for Interactive Differential Privacy*, NeurIPS 2022; also Vadhan &
    Zhang, STOC 2023).  ``of`` is the tuple of component names."""

    alpha: Any = 2
    kind: ClassVar[str] = "composition"

    def statement(self) -> str:
        return f"D_{alpha_str(self.alpha)}(ConComp({', '.join(self.of)})) within renyi"

    def params(self) -> dict[str, str]:
        return {"of": ", ".join(self.of), "theorem": "renyi", "alpha": alpha_str(self.alpha)}

    def check(self, an: Analysis) -> Verdict:
        parts = [_renyi(an, n, self.alpha).value for n in self.of]
        bound: object = INF if any(is_inf(p) for p in parts) else parts[0]
        if not is_inf(bound):
            for p in parts[1:]:
                bound = real_add(bound, p)
        found = an.engine.renyi(_concomp(an, tuple(self.of)), self.alpha).value
        ok = real_cmp(found, bound) <= 0
        slack = None if is_inf(bound) or is_inf(found) else real_sub(bound, found)
        text = f"D_{alpha_str(self.alpha)} = {_fmt(found)}; renyi gives {_fmt(bound)}"
        if slack is not None:
            text += f"; slack {_fmt(slack)}"
        values = {
            "renyi": real_str(found),
            "bound": real_str(bound),
            "slack": real_str(slack) if slack is not None else None,
            "components": [real_str(p) for p in parts],
            "alpha": alpha_str(self.alpha),
        }
        note = "a theorem for concurrent composition (Lyu 2022; Vadhan-Zhang 2023)"
        return Verdict(self, HOLDS if ok else FAILS, text, note, None, values)


@dataclass(frozen=True, kw_only=True)
class FDPCompositionClaim(Claim):
    """``composition: {of: [A, B, ...], theorem: fdp}``: T(ConComp(A, B, ...)) ≥ T(A) ⊗ T(B) ⊗ …,
    the tensor product of the components' trade-off functions (Dong–Roth–Su 2022, Thm 3.2 for
    noninteractive composition; for concurrent composition Vadhan & Zhang, *Concurrent
    Composition Theorems for Differential Privacy*, STOC 2023).  The slack is the largest gap
    max_α T(ConComp)(α) − (⊗T)(α): 0 when the theorem is tight."""

    kind: ClassVar[str] = "composition"

    def statement(self) -> str:
        return f"T(ConComp({', '.join(self.of)})) within fdp"

    def params(self) -> dict[str, str]:
        return {"of": ", ".join(self.of), "theorem": "fdp"}

    def check(self, an: Analysis) -> Verdict:
        bound = tensor([an.profile(n).envelope for n in self.of])
        found = an.engine.profile(_concomp(an, tuple(self.of))).envelope
        ok, alpha = dominates(found, bound)
        nf, nb = len(tradeoff_of_hull(found).vertices), len(tradeoff_of_hull(bound).vertices)
        values: dict[str, object] = {"vertices": nf, "bound_vertices": nb}
        note = "a theorem for concurrent composition (Vadhan-Zhang 2023)"
        if not ok:
            tf, tb = tradeoff_of_hull(found), tradeoff_of_hull(bound)
            values["alpha"] = q_str(alpha)
            text = (
                f"at alpha = {q_str(alpha)}: T(ConComp) = {q_str(tf.value_at(alpha))} < "
                f"tensor product {q_str(tb.value_at(alpha))}"
            )
            return Verdict(self, FAILS, text, note, None, values)
        gap = max_gap(found, bound)
        values["slack"] = q_str(gap)
        text = f"T(ConComp) ({nf} vertices) >= tensor product of the components ({nb} vertices); slack {q_str(gap)}"
        return Verdict(self, HOLDS, text, note, None, values)
