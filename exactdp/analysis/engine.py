"""The :class:`Engine` protocol: one interface for the two analysis engines.

Every question a claim asks of a mechanism goes through an engine object, so no code outside
this module tells the engines apart by name.  There are two implementations, which must agree
exactly (``tests/test_engines.py`` is the contract suite both pass):

* :class:`ProfileEngine` – exact backward induction over the game DAG (the default);
* :class:`EnumeratorEngine` – every deterministic adversary, by brute force (Vadhan–Wang
  Lemma 2.2 taken literally; the reference).

Options that belong to one engine (a deadline and a progress callback for the profile engine,
a cap on adversaries for the enumerator) are fields of that engine's object, set once by
:func:`make_engine`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, runtime_checkable

from .. import limits
from ..errors import ExactDPError
from ..model.game import Mechanism
from ..model.ops import count_strategies
from ..model.symbolic import is_symbolic_mechanism
from ..numbers import ladder
from ..numbers.rational import Q
from . import enumerator as _enumerator
from . import profile as _profile
from . import renyi as _renyi
from .bounded_range import BRResult, br_range, br_range_bruteforce
from .renyi import RenyiResult
from .results import Profile, privloss_from_lambda
from .tight import tight_lambda
from .witness import Witness, tighten

__all__ = ["Engine", "ProfileEngine", "EnumeratorEngine", "ENGINE_NAMES", "make_engine", "exact_privloss"]

Progress = Callable[[str, int, int], None]


@runtime_checkable
class Engine(Protocol):
    """What an analysis engine answers about a finite interactive mechanism.

    Every method is exact; both implementations return equal values on every mechanism they
    both support.
    """

    name: ClassVar[str]

    def supports(self, mech: Mechanism) -> bool:
        """Whether this engine can analyse ``mech`` (symbolic mechanisms: neither can)."""
        ...

    def profile(self, mech: Mechanism) -> Profile:
        """The exact privacy profile of every ordered adjacent pair (Vadhan–Wang Def. 1.7)."""
        ...

    def pure_lambda(self, mech: Mechanism) -> Any:
        """e^{PrivLoss(M, 0)}: the least λ with δ_M(λ) = 0, the largest likelihood ratio of any
        adversary's views over the ordered adjacent pairs (``INF`` if unbounded)."""
        ...

    def witness(
        self, mech: Mechanism, eps: Any, *, pair: tuple[int, int] | None = None, prof: Profile | None = None
    ) -> Witness:
        """The worst adversary and event at e^ε, re-checked independently."""
        ...

    def privloss_witness(self, mech: Mechanism, delta: Any, prof: Profile) -> Witness | None:
        """An adversary showing that no ε below PrivLoss(M, δ) works (None if PrivLoss = 0)."""
        ...

    def br_range(self, mech: Mechanism, adversaries: str = "deterministic") -> BRResult:
        """The exact bounded range (Dong–Durfee–Rogers Def. 2.2) of every adjacent pair."""
        ...

    def renyi(self, mech: Mechanism, alpha: object) -> RenyiResult:
        """D_α(M), the exact Rényi divergence of order α (whole α ≥ 1, or ∞) against every
        adaptive adversary (Mironov 2017, Def. 3; :mod:`exactdp.analysis.renyi`)."""
        ...


def _tight_witness(engine: Engine, mech: Mechanism, delta: Any, prof: Profile) -> Witness | None:
    """The adversary and event certifying PrivLoss(M, δ) from below (see :func:`tighten`)."""
    lam = tight_lambda(prof, delta)
    if lam is None:
        return None
    w = engine.witness(mech, ladder.log(lam), prof=prof)
    return tighten(w, prof.least_lambda(delta), delta)


@dataclass(frozen=True)
class ProfileEngine:
    """Exact backward induction over the game DAG (:mod:`exactdp.analysis.profile`)."""

    deadline: float | None = None
    progress: Progress | None = None
    name: ClassVar[str] = "profile"

    def supports(self, mech: Mechanism) -> bool:
        return not is_symbolic_mechanism(mech)

    def profile(self, mech: Mechanism) -> Profile:
        return _profile.profile(mech, progress=self.progress, deadline=self.deadline)

    def pure_lambda(self, mech: Mechanism) -> Any:
        return _profile.pure_lambda(mech, progress=self.progress, deadline=self.deadline)

    def witness(
        self, mech: Mechanism, eps: Any, *, pair: tuple[int, int] | None = None, prof: Profile | None = None
    ) -> Witness:
        return _profile.witness(mech, eps, pair=pair, prof=prof if prof is not None else self.profile(mech))

    def privloss_witness(self, mech: Mechanism, delta: Any, prof: Profile) -> Witness | None:
        """An adversary showing that no ε below PrivLoss(M, δ) works (None if PrivLoss = 0)."""
        return _tight_witness(self, mech, delta, prof)

    def br_range(self, mech: Mechanism, adversaries: str = "deterministic") -> BRResult:
        return br_range(mech, adversaries=adversaries)

    def renyi(self, mech: Mechanism, alpha: object) -> RenyiResult:
        return _renyi.renyi(mech, alpha, deadline=self.deadline, progress=self.progress)


@dataclass(frozen=True)
class EnumeratorEngine:
    """Every deterministic adversary, by brute force (:mod:`exactdp.analysis.enumerator`)."""

    max_strategies: int | None = None
    name: ClassVar[str] = "enumerator"

    def supports(self, mech: Mechanism) -> bool:

        cap = self.max_strategies if self.max_strategies is not None else limits.current().max_strategies
        return not is_symbolic_mechanism(mech) and count_strategies(mech.root) <= cap

    def profile(self, mech: Mechanism) -> Profile:
        return _enumerator.profile(mech, max_strategies=self.max_strategies)

    def pure_lambda(self, mech: Mechanism) -> Any:
        return self.profile(mech).least_lambda(Q(0))

    def witness(
        self, mech: Mechanism, eps: Any, *, pair: tuple[int, int] | None = None, prof: Profile | None = None
    ) -> Witness:
        return _enumerator.witness(mech, eps, pair=pair, max_strategies=self.max_strategies)

    def privloss_witness(self, mech: Mechanism, delta: Any, prof: Profile) -> Witness | None:
        """An adversary showing that no ε below PrivLoss(M, δ) works (None if PrivLoss = 0)."""
        return _tight_witness(self, mech, delta, prof)

    def br_range(self, mech: Mechanism, adversaries: str = "deterministic") -> BRResult:
        return br_range_bruteforce(mech, adversaries=adversaries, max_strategies=self.max_strategies)

    def renyi(self, mech: Mechanism, alpha: object) -> RenyiResult:
        return _enumerator.renyi(mech, alpha, max_strategies=self.max_strategies)


_CLASSES: dict[str, type] = {"profile": ProfileEngine, "enumerator": EnumeratorEngine}
ENGINE_NAMES: tuple[str, ...] = tuple(_CLASSES)


def make_engine(
    name: str = "profile",
    *,
    max_strategies: int | None = None,
    deadline: float | None = None,
    progress: Progress | None = None,
) -> Engine:
    """The engine called ``name`` with the options that apply to it (others are ignored).

    Raises
    ------
    ExactDPError
        If ``name`` is not one of :data:`ENGINE_NAMES`.
    """
    if name == "profile":
        return ProfileEngine(deadline=deadline, progress=progress)
    if name == "enumerator":
        return EnumeratorEngine(max_strategies=max_strategies)
    raise ExactDPError(f"unknown engine {name!r}; choose one of {', '.join(ENGINE_NAMES)}")


def exact_privloss(
    engine: Engine, mech: Mechanism, delta: Any, *, witness: bool = False
) -> tuple[Any, Any, Witness | None]:
    """PrivLoss(M, δ) (Vadhan–Wang Def. 1.7), its λ* = e^PrivLoss and, with ``witness``, the
    adversary that makes it tight (every smaller ε fails), computed by ``engine``.

    For δ = 0 without a witness the largest likelihood ratio suffices (no profile is built).

    Returns
    -------
    (value, lam, witness)
        ``witness`` is ``None`` unless asked for.
    """
    if delta == 0 and not witness:
        lam = engine.pure_lambda(mech)
        return privloss_from_lambda(lam), lam, None
    prof = engine.profile(mech)
    lam = prof.least_lambda(delta)
    w = engine.privloss_witness(mech, delta, prof) if witness else None
    return privloss_from_lambda(lam), lam, w
