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
from typing import Any, ClassVar

from ..analysis.bounded_range import BRResult
from ..numbers.real import real_cmp, real_str
from .base import FAILS, HOLDS, Analysis, Claim, Verdict

__all__ = ["BoundedRangeClaim", "NotBoundedRangeClaim", "BRRangeClaim", "br_result"]


def br_result(an: Analysis, name: str, adversaries: str) -> BRResult:
    """The BR-range of mechanism ``name`` with the analysis' engine, cached on ``an``."""
    return an.cached(("br_range", name, adversaries), lambda: an.engine.br_range(an.mech(name), adversaries))


def _suffix(adversaries: str) -> str:
    return "" if adversaries == "deterministic" else " (randomized adversaries)"


def _values(res: BRResult) -> dict[str, str]:
    return {"br_range": real_str(res.range()), "adversaries": res.adversaries, "pair": ",".join(res.worst.pair)}


@dataclass(frozen=True)
class BoundedRangeClaim(Claim):
    """``bounded_range: {eps: e}``: M is e-BR (DDR Def. 2.2)."""

    eps: Any = 0
    adversaries: str = "deterministic"
    kind: ClassVar[str] = "bounded_range"

    def describe(self) -> str:
        return f"{self.of} is {real_str(self.eps)}-BR{_suffix(self.adversaries)}"

    def params(self) -> dict[str, str]:
        return {"eps": real_str(self.eps), "adversaries": self.adversaries}

    def check(self, an: Analysis) -> Verdict:
        res = br_result(an, self.of, self.adversaries)
        ok = res.is_br(self.eps)
        return Verdict(
            self,
            HOLDS if ok else FAILS,
            f"BR-range = {res.text()}",
            "" if ok else f"exceeds {real_str(self.eps)}",
            None if ok else res.worst.witness,
            _values(res),
        )


@dataclass(frozen=True)
class NotBoundedRangeClaim(BoundedRangeClaim):
    """``not_bounded_range: {eps: e}``: some adjacent pair has BR-range > e; shows two views."""

    kind: ClassVar[str] = "not_bounded_range"

    def describe(self) -> str:
        return f"{self.of} is not {real_str(self.eps)}-BR{_suffix(self.adversaries)}"

    def check(self, an: Analysis) -> Verdict:
        res = br_result(an, self.of, self.adversaries)
        ok = not res.is_br(self.eps)
        return Verdict(
            self,
            HOLDS if ok else FAILS,
            f"BR-range = {res.text()}",
            "" if ok else f"{self.of} is {real_str(self.eps)}-BR",
            res.worst.witness if ok else None,
            _values(res),
        )


@dataclass(frozen=True)
class BRRangeClaim(Claim):
    """``br_range: {equals: e}``: the BR-range is exactly e."""

    equals: Any = 0
    adversaries: str = "deterministic"
    kind: ClassVar[str] = "br_range"

    def describe(self) -> str:
        return f"BR-range({self.of}) = {real_str(self.equals)}{_suffix(self.adversaries)}"

    def params(self) -> dict[str, str]:
        return {"equals": real_str(self.equals), "adversaries": self.adversaries}

    def check(self, an: Analysis) -> Verdict:
        res = br_result(an, self.of, self.adversaries)
        ok = real_cmp(res.range(), self.equals) == 0
        return Verdict(self, HOLDS if ok else FAILS, res.text(), "", None if ok else res.worst.witness, _values(res))
