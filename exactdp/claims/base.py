"""The vocabulary of claims: :class:`Claim`, :class:`Verdict`, :class:`Analysis`.

A claim kind is a frozen value type with a ``check`` method that consults an
:class:`Analysis` (which runs the chosen engine once per mechanism) and returns a
:class:`Verdict`.  Nothing here reads files or prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping

from ..analysis.engine import Engine, ProfileEngine
from ..analysis.results import Profile
from ..analysis.witness import Witness
from ..model.game import Mechanism

__all__ = ["Where", "Claim", "Verdict", "Analysis", "HOLDS", "FAILS", "UNSUPPORTED"]

HOLDS, FAILS, UNSUPPORTED = "holds", "fails", "unsupported"


@dataclass(frozen=True)
class Where:
    """Where a claim was written (for reports)."""

    file: str | None = None
    line: int | None = None
    path: str = ""


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking one claim.

    ``status`` is ``holds``, ``fails`` or ``unsupported`` (never counted as passing);
    ``found`` is the exact value computed, ``values`` the same in machine-readable form.
    """

    claim: "Claim"
    status: str
    found: str
    note: str = ""
    witness: Witness | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    details: tuple[str, ...] = ()  # extra report lines (constructions, certificates)

    @property
    def holds(self) -> bool:
        return self.status == HOLDS


class Analysis:
    """The mechanisms of a case and one :class:`~exactdp.analysis.Engine`, with each
    mechanism's profile computed once."""

    def __init__(self, mechanisms: Mapping[str, Mechanism], engine: Engine | None = None):
        self.mechanisms = dict(mechanisms)
        self.engine: Engine = engine if engine is not None else ProfileEngine()
        self._profiles: dict[str, Profile] = {}
        self._cache: dict[tuple, Any] = {}

    def mech(self, name: str) -> Mechanism:
        return self.mechanisms[name]

    def profile(self, name: str) -> Profile:
        prof = self._profiles.get(name)
        if prof is None:
            prof = self.engine.profile(self.mechanisms[name])
            self._profiles[name] = prof
        return prof

    def witness(self, name: str, eps: object) -> Witness:
        return self.engine.witness(self.mechanisms[name], eps, prof=self.profile(name))

    def cached(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per ``key`` for this analysis (results other than profiles)."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]


@dataclass(frozen=True)
class Claim:
    """Base class: every claim names the mechanism it is about (``of``)."""

    of: str = "M"
    where: Where = field(default=Where(), compare=False)
    kind: ClassVar[str] = "claim"

    def describe(self) -> str:  # pragma: no cover - overridden
        return self.kind

    def params(self) -> dict[str, str]:  # pragma: no cover - overridden
        return {}

    def check(self, an: Analysis) -> Verdict:  # pragma: no cover - overridden
        raise NotImplementedError

    def certificate(self, an: Analysis) -> dict | None:
        """The body of a certificate for this claim (``exactdp.certificates``), or None: this
        claim kind has no certificate yet (reported as "no certificate", never skipped)."""
        return None
