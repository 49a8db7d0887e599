"""f-DP and Gaussian-DP claims: trade-off functions of interactive mechanisms compared exactly,
and the concurrent composition theorem for them.

.. code-block:: yaml

    claims:
      - fdp: {f: R}                                    # T(M) >= T(R) pointwise (Dong-Roth-Su 2022)
      - not_fdp: {f: M, of: R}
      - gdp: {mu: 1.35}                                # T(M) >= G_mu (Dong-Roth-Su 2022, Def. 2.6)
      - not_gdp: {mu: 1.34}
      - composition: {of: [A, B], theorem: fdp}        # Vadhan & Zhang 2023
      - tradeoff: {alpha: 1/4, equals: 1/2}            # one point of T(M), with its attaining test

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
from ..analysis.tradeoff_points import TradeoffPoint, tradeoff_point
from ..certificates import NoCertificate
from ..forms.fields import FieldProblem, Label, Prob, Rational, arg
from ..numbers import ladder
from ..numbers.rational import int_str, q_str, to_fraction
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Subject, Verdict, claim

__all__ = [
    "FDPClaim",
    "NotFDPClaim",
    "GDPClaim",
    "NotGDPClaim",
    "FDPCompositionClaim",
    "TradeoffClaim",
    "TradeoffTests",
]


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
        return self.subject_of(self.f)

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


_POINT = Prob(field=True)
_RELATIONS = (("equals", "="), ("at_least", ">="), ("at_most", "<="))


def _num(v: object) -> str:
    s = ladder.text(v)
    return s if "exp" not in s else f"{s} ≈ {ladder.decimal(v)}"


@dataclass(frozen=True, eq=False)
class TradeoffTests:
    """The attaining tests of a trade-off point, as a verdict's witness: one vertex's test, or
    two mixed by a visible coin (the report layer renders each :class:`~exactdp.analysis.witness.Witness`)."""

    point: TradeoffPoint

    @property
    def parts(self) -> list[tuple[str, object]]:
        """(title, witness) for each vertex test that has a rejection region."""
        p = self.point
        out: list[tuple[str, object]] = []
        for tag, vt, weight in (("left", p.left, 1 - p.theta), ("right", p.right, p.theta)):
            if vt is None or vt.witness is None or (tag == "left" and p.right is not None and weight == 0):
                continue
            share = "" if p.right is None else f", used with probability {_num(weight)}"
            x, xp = vt.witness.pair_names
            title = (
                f"vertex (alpha, beta) = ({_num(vt.alpha)}, {_num(vt.beta)}){share}: the test of H0: {xp} against "
                f"H1: {x} rejects on the event T"
            )
            out.append((title, vt.witness))
        return out

    def intro(self) -> str:
        p = self.point
        if p.right is None:
            return f"T(alpha) is attained at the vertex alpha = {_num(p.alpha)} by one test"
        return (
            f"T(alpha) is attained by mixing the tests of the vertices around alpha: the right one with "
            f"probability theta = {_num(p.theta)}"
        )


@claim("tradeoff")
@dataclass(frozen=True, kw_only=True)
class TradeoffClaim(Claim):
    """One point of the exact trade-off function of M (the envelope over the ordered adjacent pairs, or over the claim's pairs): T(M)(alpha) equals (is at least, at most) B (Dong-Roth-Su 2022, Def. 2.1); the attaining test is shown."""

    alpha: Any = arg(_POINT, doc="the type I error, e.g. 1/4 or exp(-1)/2")
    equals: Any = arg(_POINT, default=None, doc="the type II error T(alpha)")
    at_least: Any = arg(_POINT, default=None, doc="a lower bound on T(alpha) (M is at least this private there)")
    at_most: Any = arg(_POINT, default=None, doc="an upper bound on T(alpha)")

    def validate(self) -> None:
        super().validate()
        if sum(getattr(self, k) is not None for k, _ in _RELATIONS) != 1:
            raise FieldProblem((), "tradeoff needs exactly one of `equals:`, `at_least:` or `at_most:`")

    def _rel(self) -> tuple[str, str, Any]:
        key, rel = next((k, r) for k, r in _RELATIONS if getattr(self, k) is not None)
        return key, rel, getattr(self, key)

    def statement(self) -> str:
        _, rel, b = self._rel()
        return f"T({self.of})({ladder.text(self.alpha)}) {rel} {ladder.text(b)}"

    def params(self) -> dict[str, str]:
        key, _, b = self._rel()
        return {"alpha": ladder.text(self.alpha), key: ladder.text(b)}

    def certificate(self, an: Analysis) -> dict | None:
        """No certificate (:class:`~exactdp.certificates.NoCertificate` says why): the checker
        computes T(M)'s vertices (gdp claims) but reads no point of T(M) at a given alpha."""
        raise NoCertificate(
            "tradeoff claims have no certificate yet: the checker computes the vertices of T(M) for gdp claims, "
            "not its value at a given alpha"
        )

    def check(self, an: Analysis) -> Verdict:
        pt = an.cached(
            ("tradeoff_point", self.subject, self.alpha),
            lambda: tradeoff_point(an.mech(self.subject), an.profile(self.subject), self.alpha),
        )
        key, _, b = self._rel()
        c = ladder.cmp(pt.value, b)
        ok = {"equals": c == 0, "at_least": c >= 0, "at_most": c <= 0}[key]
        values: dict[str, object] = {"alpha": ladder.text(self.alpha), "tradeoff": ladder.text(pt.value)}
        values["vertices"] = [[ladder.text(v.alpha), ladder.text(v.beta)] for v in (pt.left, pt.right) if v is not None]
        if pt.right is not None:
            values["theta"] = ladder.text(pt.theta)
        tests = TradeoffTests(pt)
        return Verdict(
            self, HOLDS if ok else FAILS, f"T({self.of})({_num(self.alpha)}) = {_num(pt.value)}", "", tests, values
        )
