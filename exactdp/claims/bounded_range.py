"""Claims about bounded range (ε-BR, Dong–Durfee–Rogers Def. 2.2).

* ``bounded_range: {eps: e}`` — M is e-BR: for every adjacent pair the BR-range
  max_y L(y) − min_y L(y) is at most e;
* ``not_bounded_range: {eps: e}`` — it is not; the verdict carries two views whose losses
  differ by more than e;
* ``br_range: {equals: e}`` — the BR-range is exactly e (``log(r)``, ``0`` or ``inf``).

Each takes ``adversaries: deterministic`` (default) or ``randomized``, the two readings of BR
for interactive mechanisms described in :mod:`exactdp.analysis.bounded_range`.  The profile
engine uses the frontier algorithm; ``--engine enumerator`` uses the brute-force definition.

With symbols (in the mechanism or in ``eps``/``equals``) each claim holds iff it holds for every
value the declared bounds allow, decided on a cell decomposition of the symbols' domain by the
parametric frontier algorithm (:mod:`exactdp.analysis.parametric.bounded_range`); a false claim
is refuted at a rational value with the concrete verdict and witness there
(:mod:`exactdp.claims.parametric`).  On every cell with a rational point (up to
:data:`~exactdp.claims.parametric.MAX_CROSS_CHECKS`) the piecewise BR-range must equal the
numeric engine's BR-range at that point, exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import certificates as _cert
from ..analysis.bounded_range import ADVERSARIES, BRResult
from ..analysis.parametric import INF, Ctx
from ..analysis.parametric.bounded_range import br_value
from ..errors import VerificationError
from ..forms.fields import Choice, Eps, PrivLossValue, arg
from ..lazy import flint
from ..numbers import ladder
from .base import FAILS, HOLDS, Analysis, Claim, Shows, Verdict, claim
from .parametric import (
    _AT_CROSSING,
    _TESTS,
    HANDLERS,
    MAX_CROSS_CHECKS,
    Outcome,
    Parametric,
    _cmp_target,
    _target,
    analysis_at,
)

__all__ = ["BoundedRangeClaim", "NotBoundedRangeClaim", "BRRangeClaim", "br_result"]


def br_result(an: Analysis, subject: Any, adversaries: str) -> BRResult:
    """The BR-range of ``subject`` with the analysis' engine, cached on ``an``."""
    return an.cached(("br_range", subject, adversaries), lambda: an.engine.br_range(an.mech(subject), adversaries))


def _suffix(adversaries: str) -> str:
    return "" if adversaries == "deterministic" else " (randomized adversaries)"


def _facts(res: BRResult) -> dict[str, Any]:
    return {"br_range": res.range(), "adversaries": res.adversaries, "pair": tuple(res.worst.pair)}


_SHOWS = Shows("br_range", "the BR-range, the largest max L - min L over adjacent pairs")


_ADVERSARIES = Choice(ADVERSARIES, "adversaries")
_ADV_DOC = "deterministic (default) or randomized"


@claim("bounded_range")
@dataclass(frozen=True, kw_only=True)
class BoundedRangeClaim(Claim):
    """M is eps-BR (Dong-Durfee-Rogers Def. 2.2)."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(16)")
    adversaries: str = arg(_ADVERSARIES, default="deterministic", doc=_ADV_DOC)
    shows = _SHOWS

    def statement(self) -> str:
        return f"{self.of} is {ladder.text(self.eps)}-BR{_suffix(self.adversaries)}"

    def params(self) -> dict[str, str]:
        return {"eps": ladder.text(self.eps), "adversaries": self.adversaries}

    def check(self, an: Analysis) -> Verdict:
        res = br_result(an, self.subject, self.adversaries)
        ok = res.is_br(self.eps)
        return Verdict(self, HOLDS if ok else FAILS, _facts(res), None if ok else res.worst.witness)

    def certificate(self, an: Analysis) -> dict | None:
        """The game; the checker recomputes the BR-range."""
        holds = br_result(an, self.subject, self.adversaries).is_br(self.eps) != (self.kind == "not_bounded_range")
        return _cert.br_certificate(an, self.subject, self.kind, self.eps, self.adversaries, holds)


@claim("not_bounded_range")
@dataclass(frozen=True, kw_only=True)
class NotBoundedRangeClaim(BoundedRangeClaim):
    """M is not eps-BR; the report shows two views whose losses differ by more than eps."""

    def statement(self) -> str:
        return f"{self.of} is not {ladder.text(self.eps)}-BR{_suffix(self.adversaries)}"

    def check(self, an: Analysis) -> Verdict:
        res = br_result(an, self.subject, self.adversaries)
        ok = not res.is_br(self.eps)
        return Verdict(self, HOLDS if ok else FAILS, _facts(res), res.worst.witness if ok else None)


@claim("br_range")
@dataclass(frozen=True, kw_only=True)
class BRRangeClaim(Claim):
    """The BR-range max L - min L equals the given value (log(r), 0 or inf)."""

    equals: Any = arg(PrivLossValue(symbolic=True), doc="log(r), 0 or inf")
    adversaries: str = arg(_ADVERSARIES, default="deterministic", doc=_ADV_DOC)
    shows = _SHOWS

    def statement(self) -> str:
        return f"BR-range({self.of}) = {ladder.text(self.equals)}{_suffix(self.adversaries)}"

    def params(self) -> dict[str, str]:
        return {"equals": ladder.text(self.equals), "adversaries": self.adversaries}

    def check(self, an: Analysis) -> Verdict:
        res = br_result(an, self.subject, self.adversaries)
        ok = ladder.cmp(res.range(), self.equals) == 0
        return Verdict(self, HOLDS if ok else FAILS, _facts(res), None if ok else res.worst.witness)

    def certificate(self, an: Analysis) -> dict | None:
        """The game; the checker recomputes the BR-range."""
        ok = ladder.cmp(br_result(an, self.subject, self.adversaries).range(), self.equals) == 0
        return _cert.br_certificate(an, self.subject, self.kind, self.equals, self.adversaries, ok)


# --- with symbols: decided for every value (exactdp.claims.parametric) ---------------------------


def _parametric(test: Callable[[int], bool], value_field: str, sense: str) -> Callable[[Any, Parametric], Callable]:
    """The cell handler of a BR claim: the BR-range on the cell (a closed form) compared exactly
    with the claim's value, and cross-checked against the numeric BR-range at the cell's
    rational point."""

    def make(cl: Any, P: Parametric) -> Callable[[Ctx], Outcome]:
        target = _target(getattr(cl, value_field), P.ring)  # log(R)/k, or q + log(R)/k: compared via e^q
        label = f"BR-range({cl.of}){_suffix(cl.adversaries)}"
        checked = [0]

        def run(ctx: Ctx) -> Outcome:
            found = br_value(P.game(cl.subject), ctx, cl.adversaries)
            if checked[0] < MAX_CROSS_CHECKS:
                checked[0] += _cross_check(cl, P, ctx, found)
            c, at, crossing = _cmp_target(found, target, ctx, _TESTS[sense][1], _AT_CROSSING[sense])
            return Outcome(test(c) and at is None, found, label, at, crossing)

        return run

    return make


def _cross_check(cl: Any, P: Parametric, ctx: Ctx, found: Any) -> int:
    """At the cell's rational point (if any), the numeric BR-range must be ``found`` there."""
    pt = ctx.cell.point()
    if pt is None:
        return 0
    res = br_result(analysis_at(P.an, pt), cl.subject, cl.adversaries)
    want = res.ratio
    got = INF if found is INF else found.R.at(pt)
    same = (got is INF) == ladder.is_inf(want) and (
        got is INF or got == flint.fmpq(int(want.numerator), int(want.denominator))
    )
    if not same:
        at = ", ".join(f"{k} = {v}" for k, v in pt.items())
        raise VerificationError(
            f"cross-check at {at}: the parametric BR-range of {cl.of} on {ctx.cell.text()} is {found}, "
            f"the numeric engine's is {res.text()}"
        )
    return 1


HANDLERS["bounded_range"] = _parametric(lambda c: c <= 0, "eps", "at_most")
HANDLERS["not_bounded_range"] = _parametric(lambda c: c > 0, "eps", "exceeds")
HANDLERS["br_range"] = _parametric(lambda c: c == 0, "equals", "equals")
