"""The vocabulary of claims: :class:`Claim`, :class:`Verdict`, :class:`Analysis`.

A claim kind is a frozen value type with a ``check`` method that consults an
:class:`Analysis` (which runs the chosen engine once per mechanism) and returns a
:class:`Verdict`.  Nothing here reads files or prints.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from ..analysis import ENGINES
from ..analysis.results import Profile
from ..analysis.witness import Witness
from ..errors import ExactDPError
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
    """Runs one engine over the mechanisms of a case, caching each mechanism's profile."""

    def __init__(
        self,
        mechanisms: Mapping[str, Mechanism],
        *,
        engine: str = "profile",
        max_strategies: int | None = None,
        deadline: float | None = None,
        progress=None,
    ):
        if engine not in ENGINES:
            raise ExactDPError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}")
        self.mechanisms = dict(mechanisms)
        self.engine_name = engine
        self.engine = ENGINES[engine]
        self.kw: dict[str, Any] = {}
        if engine == "enumerator" and max_strategies is not None:
            self.kw["max_strategies"] = max_strategies
        if engine == "profile":
            if deadline is not None:
                self.kw["deadline"] = deadline
            if progress is not None:
                self.kw["progress"] = progress
        self._profiles: dict[str, Profile] = {}

    def mech(self, name: str) -> Mechanism:
        return self.mechanisms[name]

    def profile(self, name: str) -> Profile:
        prof = self._profiles.get(name)
        if prof is None:
            prof = self.engine.profile(self.mechanisms[name], **self.kw)
            self._profiles[name] = prof
        return prof

    def witness(self, name: str, eps: object) -> Witness:
        mech = self.mechanisms[name]
        if self.engine_name == "profile":
            return self.engine.witness(mech, eps, prof=self.profile(name))
        kw = {k: v for k, v in self.kw.items() if k == "max_strategies"}
        return self.engine.witness(mech, eps, **kw)


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
