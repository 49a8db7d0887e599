"""f-DP and Gaussian-DP claims: trade-off functions of interactive mechanisms compared exactly
(the concurrent composition theorem for them is ``composition: {theorem: fdp}``,
:mod:`exactdp.claims.composition`).

.. code-block:: yaml

    claims:
      - fdp: {f: R}                                    # T(M) >= T(R) pointwise (Dong-Roth-Su 2022)
      - not_fdp: {f: M, of: R}
      - gdp: {mu: 1.35}                                # T(M) >= G_mu (Dong-Roth-Su 2022, Def. 2.6)
      - not_gdp: {mu: 1.34}

Every trade-off value is exact (:mod:`exactdp.analysis.tradeoff`); the Gaussian comparison is
certified by interval arithmetic (:mod:`exactdp.analysis.gdp`) and says *undecided* rather than
guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import certificates as _cert
from ..analysis.gdp import check_gdp, tight_mu
from ..analysis.tradeoff import compare, envelope_tradeoff
from ..analysis.tradeoff_points import TradeoffPoint, tradeoff_point
from ..forms.fields import FieldProblem, Label, Prob, Rational, arg
from ..numbers import ladder
from ..numbers.certified import decimal_digits_of
from ..numbers.rational import int_str, q_str, to_fraction
from ..numbers.symbolic import expr_str, is_sym
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Shows, Subject, Verdict, claim

__all__ = ["FDPClaim", "NotFDPClaim", "GDPClaim", "NotGDPClaim", "TradeoffClaim", "TradeoffTests", "mu_text"]


def mu_text(mu: object, *, exact: bool = False) -> str:
    """μ as written: a decimal such as ``1.35`` (27/20) when μ is one, else the fraction; a
    fraction too long to read is shown as a short decimal (``≈0.1234568``) unless ``exact``; a
    function of the symbols as written, in parentheses unless a name (``(2*E)``)."""
    if is_sym(mu):
        text = expr_str(mu)
        return text if text.isalnum() else f"({text})"
    f = to_fraction(mu)
    twos = fives = 0
    d = f.denominator
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    k = max(twos, fives)
    if d == 1 and k <= 60:  # an exact decimal with k places
        n = abs(f.numerator) * 10**k // f.denominator
        digits = int_str(n).rjust(k + 1, "0")
        return ("-" if f < 0 else "") + (digits if k == 0 else f"{digits[:-k]}.{digits[-k:]}")
    text = q_str(mu)
    if exact or len(text) <= 24:
        return text
    return "≈" + decimal_digits_of(mu, 0, 10)


@claim("fdp")
@dataclass(frozen=True, kw_only=True)
class FDPClaim(Claim):
    """M is f-DP for f = T(R), the trade-off function of mechanism R's envelope over R's own
    adjacent pairs: T(M) >= T(R) pointwise (Dong-Roth-Su 2022, Def. 2.3); equivalent to
    delta_M(lambda) <= delta_R(lambda) for every lambda >= 0 (their Prop. 2.12), decided exactly
    at the vertices.  With `group:` or `pairs:` M is checked on those pairs; f stays T(R)."""

    f: str = arg(Label("a mechanism name"), doc="the mechanism whose trade-off function is f")
    names = ("f",)
    shows = Shows("margin", "min over alpha of T(M)(alpha) - T(N)(alpha) (>= 0 when M is T(N)-DP)")

    @property
    def f_subject(self) -> Subject:
        """R over its *own* adjacency: f = T(R) is a fixed function (the largest f with R f-DP),
        whatever pairs the claim checks M on (``group:``, ``pairs:``)."""
        return self.f

    def statement(self) -> str:
        return f"{self.of} is T({self.f})-DP"

    def params(self) -> dict[str, str]:
        return {"f": self.f}

    def check(self, an: Analysis) -> Verdict:
        d = compare(an.profile(self.subject).envelope, an.profile(self.f_subject).envelope)
        return Verdict(self, HOLDS if d.holds else FAILS, d.facts())

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
        return Verdict(self, FAILS if v.holds else HOLDS, v.facts)


@claim("gdp")
@dataclass(frozen=True, kw_only=True)
class GDPClaim(Claim):
    """M is mu-GDP: T(M(x), M(x')) >= G_mu for every ordered adjacent pair (Dong-Roth-Su 2022,
    Def. 2.6), decided at T's vertices by certified interval arithmetic."""

    mu: Any = arg(Rational("mu", lo=0, symbolic=True), doc="e.g. mu: 1.35, or a rational function of a symbol")
    shows = Shows("mu_star", "the least mu for which M is mu-GDP (transcendental: a certified enclosure)")

    def statement(self) -> str:
        return f"{self.of} is {mu_text(self.mu)}-GDP"

    def params(self) -> dict[str, str]:
        return {"mu": mu_text(self.mu, exact=True)}

    def check(self, an: Analysis) -> Verdict:
        t = envelope_tradeoff(an.profile(self.subject))
        res = check_gdp(t, self.mu)
        facts = {"gdp": res.status, "vertex": res.vertex, "G_mu": res.g, "mu_star": tight_mu(t)}
        return Verdict(self, res.status, facts)

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
        return f"{self.of} is not {mu_text(self.mu)}-GDP"

    def check(self, an: Analysis) -> Verdict:
        v = GDPClaim.check(self, an)
        status = v.status if v.status == UNDECIDED else (FAILS if v.holds else HOLDS)
        return Verdict(self, status, v.facts)


_POINT = Prob(field=True, symbolic=True)
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
                f"H1: {x} rejects on the event T {vt.threshold_note()}".rstrip()
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
    shows = Shows("tradeoff", "T(M)(alpha), the exact trade-off value at the type I error alpha")

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
        """The game; the checker computes T(M)(alpha) from the vertices of the envelope's chain."""
        v = self.check(an)
        key, _, b = self._rel()
        return _cert.tradeoff_certificate(an, self.subject, self.alpha, key, b, v.status == HOLDS)

    def check(self, an: Analysis) -> Verdict:
        pt = an.cached(
            ("tradeoff_point", self.subject, self.alpha),
            lambda: tradeoff_point(an.mech(self.subject), an.profile(self.subject), self.alpha),
        )
        key, _, b = self._rel()
        c = ladder.cmp(pt.value, b)
        ok = {"equals": c == 0, "at_least": c >= 0, "at_most": c <= 0}[key]
        return Verdict(self, HOLDS if ok else FAILS, {"tradeoff": pt.value, "point": pt}, TradeoffTests(pt))
