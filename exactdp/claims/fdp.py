"""f-DP and Gaussian-DP claims: trade-off functions of interactive mechanisms compared exactly,
and the concurrent composition theorem for them.

.. code-block:: yaml

    claims:
      - fdp: {f: R}                                    # T(M) >= T(R) pointwise (Dong-Roth-Su 2022)
      - not_fdp: {f: M, of: R}
      - gdp: {mu: 1.35}                                # T(M) >= G_mu (Dong-Roth-Su 2022, Def. 2.6)
      - not_gdp: {mu: 1.34}
      - composition: {of: [A, B], theorem: fdp}        # Vadhan & Zhang 2023

Every trade-off value is exact (:mod:`exactdp.analysis.tradeoff`); the Gaussian comparison is
certified by interval arithmetic (:mod:`exactdp.analysis.gdp`) and says *undecided* rather than
guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .. import certificates as _cert
from ..analysis.gdp import FAILS as GDP_FAILS
from ..analysis.gdp import HOLDS as GDP_HOLDS
from ..analysis.gdp import check_gdp
from ..analysis.tradeoff import dominates, envelope_tradeoff, max_gap, tensor, tradeoff_of_hull
from ..forms.fields import Label, Rational, arg
from ..numbers import ladder
from ..numbers.rational import int_str, q_str, to_fraction
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Subject, Verdict, claim

__all__ = ["FDPClaim", "NotFDPClaim", "GDPClaim", "NotGDPClaim", "FDPCompositionClaim"]


def _mu_str(mu: object) -> str:
    """μ as written in case files: ``1.35`` for 27/20 (a short decimal), else the fraction."""
    f = to_fraction(mu)
    for k in range(7):
        if (f * 10**k).denominator == 1:
            n = f.numerator * 10**k // f.denominator
            sign, digits = ("-" if n < 0 else ""), int_str(abs(n)).rjust(k + 1, "0")
            return sign + (digits if k == 0 else f"{digits[:-k]}.{digits[-k:]}")
    return ladder.short(mu)


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

    def certificate(self, an: Analysis) -> dict | None:
        """The game; the checker computes T(M)'s vertices and compares them with G_mu (Dong-Roth-Su 2022, Def. 2.6)."""
        v = self.check(an)
        if v.status not in (HOLDS, FAILS):
            raise _cert.NoCertificate("undecided")
        return _cert.gdp_certificate(an, self.subject, self.mu, self.kind == "not_gdp", v.status == HOLDS)


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
        found = an.engine.profile(an.concomp(tuple(self.of))).envelope
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
