"""Claims about bounded range (ε-BR, Dong–Durfee–Rogers Def. 2.2).

* ``bounded_range: {eps: e}`` — M is e-BR: for every adjacent pair the BR-range
  max_y L(y) − min_y L(y) is at most e;
* ``not_bounded_range: {eps: e}`` — it is not; the verdict carries two views whose losses
  differ by more than e;
* ``br_range: {equals: e}`` — the BR-range is exactly e (``log(r)``, ``0`` or ``inf``).

Each takes ``adversaries: deterministic`` (default) or ``randomized``, the two readings of BR
for interactive mechanisms described in :mod:`exactdp.analysis.bounded_range`.  The profile
engine uses the frontier algorithm; ``--engine enumerator`` uses the brute-force definition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import certificates as _cert
from ..analysis.bounded_range import ADVERSARIES, BRResult
from ..forms.fields import Choice, Eps, PrivLossValue, arg
from ..numbers import ladder
from .base import FAILS, HOLDS, Analysis, Claim, Shows, Verdict, claim

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

    eps: Any = arg(Eps(), doc="e.g. eps: log(16)")
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

    equals: Any = arg(PrivLossValue(), doc="log(r), 0 or inf")
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
