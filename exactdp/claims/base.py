"""The vocabulary of claims: :class:`Claim`, :class:`Verdict`, :class:`Analysis`.

A claim kind is a frozen value type with a ``check`` method that consults an
:class:`Analysis` (which runs the chosen engine once per mechanism) and returns a
:class:`Verdict`: a :class:`~exactdp.analysis.status.Status` and the exact values computed
(``facts``), never text.  Each kind declares, once, which of its facts is *the* value that
tables, CSV, plots and reports show (:class:`Shows`).  Nothing here reads files or prints:
:mod:`exactdp.report` renders verdicts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from ..analysis.bounded_range import BRWitness
from ..analysis.engine import Engine, ProfileEngine
from ..analysis.renyi import RenyiResult
from ..analysis.results import Profile, lambda_of
from ..analysis.status import Status
from ..analysis.witness import Witness
from ..builders.combinators import concomp, distinct_labels
from ..display import RichDisplay
from ..forms.fields import Choice, Count, Declared, FieldProblem, Flag, Label, ListOf, Pair, arg
from ..forms.registry import Registry
from ..model.game import Mechanism
from ..model.nonadaptive import nonadaptive_game
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q
from .index import CLAIM_MODULES

__all__ = [
    "Where",
    "Claim",
    "Shows",
    "Status",
    "Verdict",
    "Analysis",
    "HOLDS",
    "FAILS",
    "UNSUPPORTED",
    "UNDECIDED",
    "CLAIMS",
    "claim",
    "Subject",
    "ADVERSARIES",
    "NONADAPTIVE",
    "ORDERED",
]

ABOUT_CLAIMS = frozenset({"calibrate", "counterexample"})  # kinds whose subject is another claim

# shorthands for the members of Status
HOLDS, FAILS, UNSUPPORTED, UNDECIDED = Status.HOLDS, Status.FAILS, Status.UNSUPPORTED, Status.UNDECIDED


@dataclass(frozen=True)
class Where:
    """Where a claim was written (for reports)."""

    file: str | None = None
    line: int | None = None
    path: str = ""


@dataclass(frozen=True)
class Shows:
    """What a claim kind's verdict shows as its value (a sweep's table, CSV and plot, the
    ``value`` of the JSON report, the main LaTeX macro of ``exactdp export``): the fact named
    ``fact``, described by ``doc``; ``also`` names the other facts exported beside it (each a
    LaTeX macro of its own)."""

    fact: str
    doc: str
    also: tuple[str, ...] = ()


_PLACEHOLDER = re.compile(r"(?<![A-Za-z0-9])[MN](?![A-Za-z0-9])")  # M and N in a Shows.doc, not in "ConComp"


@dataclass(frozen=True)
class Verdict(RichDisplay):
    """The outcome of checking one claim.

    ``status`` says whether it holds (``UNSUPPORTED`` and ``UNDECIDED`` never count as
    holding); ``facts`` are the exact values the check computed, by name (exact numbers, pairs
    of dataset names, counts, result records), and :attr:`value` is the one the claim kind
    declares it shows (:attr:`Claim.shows`); ``witness`` is the adversary or views that refute a
    bound.  ``reason`` says why a claim was not decided when the check itself could not run (a
    limit, an inexact value, a premise that does not hold: then ``checked`` is False).  How a
    verdict reads is :mod:`exactdp.report`'s business.
    """

    claim: Claim
    status: Status
    facts: Mapping[str, Any] = field(default_factory=dict)
    witness: Witness | BRWitness | Any = None  # or a witness type that renders itself (Renyi, trade-off)
    reason: str = ""
    checked: bool = True

    @property
    def holds(self) -> bool:
        return self.status == HOLDS

    @property
    def value(self) -> Any:
        """The claim's declared value (see :class:`Shows`), or None when it was not computed."""
        return self.facts.get(self.claim.shown().fact)

    @classmethod
    def undecided(cls, claim: Claim, reason: str, *, checked: bool = True) -> Verdict:
        """A claim that could not be decided (``checked``: its check ran and was stopped; else
        it was not run), and why."""
        return cls(claim, UNDECIDED, reason=reason, checked=checked)


Subject = Any
"""A mechanism name; (name, adjacent pairs) for a claim with `group:`/`pairs:`; or
(name, pairs or None, tags...) with the tags "nonadaptive" (`adversaries: nonadaptive`) and
"ordered" (`ordered: true`: each pair in the order given only)."""

ADVERSARIES = ("adaptive", "nonadaptive")
NONADAPTIVE = "nonadaptive"
ORDERED = "ordered"  # a subject's tag: each of its pairs in the order given only


class Analysis:
    """The mechanisms of a case and one :class:`~exactdp.analysis.Engine`, with each
    mechanism's profile computed once.

    Claims name what they analyse by a *subject*: a mechanism name, or ``(name, pairs)`` when
    the claim replaces the case's adjacency (``group:``, ``pairs:``) — the same game, checked
    on other pairs of datasets.  ``symbols`` are the case's declared symbols: a claim that
    involves them is decided for every value they may take (:mod:`exactdp.claims.parametric`)."""

    def __init__(self, mechanisms: Mapping[str, Mechanism], engine: Engine | None = None, symbols: Any = None):
        self.mechanisms = dict(mechanisms)
        self.engine: Engine = engine if engine is not None else ProfileEngine()
        self.symbols = symbols  # the case's declared symbols (a SymbolTable), for claims with symbols
        self._cache: dict[tuple, Any] = {}

    def mech(self, subject: Subject) -> Mechanism:
        if isinstance(subject, str):
            return self.mechanisms[subject]
        name, pairs, *tags = subject

        def build() -> Mechanism:
            m = self.mechanisms[name]
            if pairs is not None:
                m = m.with_adjacent(pairs, directed=ORDERED in tags)
            return nonadaptive_game(m) if NONADAPTIVE in tags else m

        return self.cached(("mech", subject), build)

    def profile(self, subject: Subject) -> Profile:
        return self.cached(("profile", subject), lambda: self.engine.profile(self.mech(subject)))

    def least_lambda(self, subject: Subject, delta: Any) -> Any:
        """e^{PrivLoss(M, δ)}, the least λ ≥ 1 with δ_M(λ) ≤ δ.  For δ = 0 it is the largest
        likelihood ratio, which the engine finds without the profile (unless the profile is
        already known)."""
        if delta == 0 and ("profile", subject) not in self._cache:
            return self.pure_lambda(subject)
        return self.profile(subject).least_lambda(delta)

    def pure_lambda(self, subject: Subject) -> Any:
        """e^{PrivLoss(M, 0)}: the largest likelihood ratio over adversaries and adjacent pairs."""
        return self.cached(("pure_lambda", subject), lambda: self.engine.pure_lambda(self.mech(subject)))

    def delta_at(self, subject: Subject, eps: Any, *, expect_zero: bool = False) -> Any:
        """δ_M(e^ε) exactly.  With ``expect_zero`` (a claim about δ = 0) e^ε is first compared
        with the largest likelihood ratio: at or beyond it δ_M(e^ε) = 0 with no profile."""
        if expect_zero and ("profile", subject) not in self._cache:
            lam = lambda_of(eps)
            pure = self.pure_lambda(subject)
            if not is_inf(lam) and not is_inf(pure) and ladder.cmp(lam, pure) >= 0:
                return Q(0)
        return self.profile(subject).delta_at(eps)

    def witness(self, subject: Subject, eps: Any) -> Witness:
        """The worst adversary at e^ε, once per ε (claims at one δ share it)."""
        return self.cached(
            ("witness", subject, ladder.text(eps)),
            lambda: self.engine.witness(self.mech(subject), eps, prof=self.profile(subject)),
        )

    def renyi(self, subject: Subject, alpha: Any) -> RenyiResult:
        """D_α of the subject (Mironov 2017, Def. 3), once per order."""
        return self.cached(("renyi", subject, ladder.text(alpha)), lambda: self.engine.renyi(self.mech(subject), alpha))

    def concomp(self, names: tuple[str, ...]) -> Mechanism:
        """ConComp of every item of ``names`` (Vadhan & Wang 2021, Def. 2.1); a repeated name is
        another copy, so ``(R, R)`` is two copies of R."""
        labels = distinct_labels(list(names))
        return concomp(dict(zip(labels, (self.mech(n) for n in names))), name="ConComp(" + ", ".join(names) + ")")

    def cached(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """``compute()`` once per ``key`` for this analysis."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]


_GROUP_DOC = "check every pair of datasets at distance 1..k in the adjacency graph (group privacy)"
_PAIRS_DOC = "check these pairs of datasets instead of the case's `adjacent:`"
_ORDERED_DOC = "with `pairs:`, check each pair [x, x'] in that order only, x against x': P_x(S) - e^eps P_x'(S), D_alpha(M(x) || M(x'))"


@dataclass(frozen=True, kw_only=True)
class Claim(Declared):
    """Base class: a claim names the mechanism it is about (``of``, default ``M``).

    ``group: k`` and ``pairs: [[x0, x2], ...]`` make the claim range over other pairs of
    datasets than the case's adjacency (resolved by the reader into ``adjacency``)."""

    of: Any = arg(Label("a mechanism name"), default=None, doc="the mechanism (default: M, or the only one)")
    group: int | None = arg(Count("group", 1, 1000), default=None, doc=_GROUP_DOC)
    pairs: tuple | None = arg(
        ListOf(
            Pair(Label("a dataset"), Label("a dataset"), "entry of pairs", ("dataset", "dataset")),
            min_len=1,
            what="pairs",
        ),
        default=None,
        doc=_PAIRS_DOC,
    )
    ordered: bool = arg(Flag(), default=False, doc=_ORDERED_DOC)
    adversaries: str = arg(
        Choice(ADVERSARIES, "adversaries"),
        default="adaptive",
        doc="nonadaptive: only adversaries that fix every query in advance",
    )
    name: str | None = arg(
        Label("a claim name"),
        default=None,
        doc="a stable name for the claim's values (the LaTeX macros of `exactdp export --latex`)",
    )
    where: Where = field(default=Where(), compare=False)
    adjacency: tuple | None = field(default=None, compare=False)
    kind: ClassVar[str] = "claim"
    shows: ClassVar[Shows] = Shows("", "")  # every claim kind declares its value
    names: ClassVar[tuple[str, ...]] = ()  # other fields that name mechanisms
    hidden_fields: ClassVar[tuple[str, ...]] = ("ordered",)  # a kind that takes `ordered:` shows it

    def validate(self) -> None:
        if self.group is not None and self.pairs is not None:
            raise FieldProblem((), "give `group:` or `pairs:`, not both")
        if self.ordered and self.pairs is None:
            raise FieldProblem("ordered", "`ordered: true` needs `pairs:`, the ordered pairs [x, x'] to check")

    def validate_target(self, target: Claim, key: str) -> None:
        """A claim about a target claim (a calibration, a counterexample) takes a claim about a
        mechanism: not another claim about a claim."""
        if target.kind in ABOUT_CLAIMS:
            raise FieldProblem(
                key, f"a {self.kind} claim's `{key}:` is a claim about a mechanism, not a {target.kind} claim"
            )

    @property
    def subject(self) -> Subject:
        """What the engine analyses: ``of``, on the claim's own pairs if it has them, against
        non-adaptive adversaries only with ``adversaries: nonadaptive``."""
        return self.subject_of(self.of)

    def subject_of(self, name: str) -> Subject:
        """Any mechanism the claim mentions, on the claim's pairs and adversaries (``as:``,
        ``than:``, ``f:`` are compared in the same scope as ``of``)."""
        tags = (NONADAPTIVE,) * (self.adversaries == NONADAPTIVE) + (ORDERED,) * bool(self.ordered)
        if tags:
            return (name, self.adjacency, *tags)
        return name if self.adjacency is None else (name, self.adjacency)

    def scope(self) -> str:
        extra = " [non-adaptive adversaries]" if self.adversaries == NONADAPTIVE else ""
        if self.group is not None:
            return f" [pairs at distance <= {self.group}]" + extra
        if self.pairs is not None:
            which = "ordered pairs" if self.ordered else "pairs"
            return f" [{which} " + ", ".join(f"({a}, {b})" for a, b in self.pairs) + "]" + extra
        return extra

    def describe(self) -> str:
        return self.statement() + self.scope()

    def deprecations(self) -> tuple[tuple[str, str], ...]:
        """(field, message) for every deprecated spelling this claim was written with (the case
        reader warns about each at its place in the file)."""
        return ()

    def shown(self) -> Shows:
        """What this claim's verdict shows as its value: the kind's :attr:`shows` (a kind whose
        value depends on a field, such as the theorem of ``composition``, says so here), with its
        mechanisms named (:meth:`named`)."""
        return self.named(self.shows)

    def named(self, shows: Shows) -> Shows:
        """``shows`` with its placeholders M (the claim's mechanism) and N (the other mechanism it
        names) replaced by the names the claim is about: "PrivLoss(M, delta)" about A read as a
        value of the case's own M."""
        other = getattr(self, self.names[0], None) if self.names else None
        names = {"M": self.of if isinstance(self.of, str) else None, "N": other if isinstance(other, str) else None}
        doc = _PLACEHOLDER.sub(lambda m: names[m.group()] or m.group(), shows.doc)
        return replace(shows, doc=doc)

    def statement(self) -> str:  # pragma: no cover - overridden
        return self.kind

    def params(self) -> dict[str, str]:  # pragma: no cover - overridden
        return {}

    def check(self, an: Analysis) -> Verdict:  # type: ignore[override]  # pragma: no cover - overridden
        """Decide the claim exactly with the analysis' engine."""
        raise NotImplementedError

    def certificate(self, an: Analysis) -> dict | None:
        """The body of a certificate for this claim (``exactdp.certificates``), or None: this
        claim kind has no certificate yet (reported as "no certificate", never skipped)."""
        return None


CLAIMS: Registry[type] = Registry("claim kind", "kind", "exactdp.claims", CLAIM_MODULES)


def claim(kind: str) -> Callable[[type], type]:
    """Register a claim kind (its fields declared with :func:`~exactdp.forms.fields.arg`)."""
    return CLAIMS.register(kind)
