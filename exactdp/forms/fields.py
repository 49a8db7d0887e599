"""Field kinds: what each key of a mechanism form or claim holds, declared once.

A form or claim is a frozen dataclass whose fields are declared with :func:`arg`, giving the
field's *kind* (``Eps()``, ``ListOf(Label())``, ``PerDataset(Prob())``, ...), whether it is
required, its default and a one-line doc.  From that one declaration come the case reader
(:mod:`exactdp.caseio.typed` reads a YAML value of each kind), the JSON Schema and the tables of
the case-format reference.  Nothing here knows about YAML.

Kinds are plain descriptions.  The numeric ones name the quantity check of
:mod:`exactdp.numbers.kinds` they go through, so an ε is validated the same way in a case file,
on the command line and in the Python API.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = [
    "Kind",
    "Eps",
    "PrivLossValue",
    "Order",
    "Divergence",
    "Delta",
    "Prob",
    "Rational",
    "Count",
    "Label",
    "Choice",
    "Flag",
    "Literal",
    "ListOf",
    "MapOf",
    "PerDataset",
    "Pair",
    "ByDataset",
    "SharedOrPerDataset",
    "Nullable",
    "Either",
    "Record",
    "Tagged",
    "ClaimSpec",
    "MechanismRef",
    "Mechanisms",
    "GameNode",
    "Answers",
    "arg",
    "FieldSpec",
    "field_specs",
    "FieldProblem",
    "NUMBER",
    "REQUIRED",
    "Declared",
    "record_schema",
    "value_schema",
    "within",
]

NUMBER = {"$ref": "#/$defs/number"}
REQUIRED: Any = dataclasses.MISSING


class Kind:
    """The kind of a field's value.  ``schema()`` is its JSON-Schema fragment and ``text()``
    a few words for the reference tables."""

    def schema(self) -> dict:  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    def text(self) -> str:  # pragma: no cover - every kind overrides it
        raise NotImplementedError


# --- numbers ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Eps(Kind):
    """ε ≥ 0 (``log(3)``, ``0.1``, ``1/10``); ``symbolic``: may use declared symbols; ``negative``:
    any real ε without symbols (``log(1/2)``, ``-0.1``), where δ(e^ε) is asked for."""

    symbolic: bool = False
    allow_inf: bool = False
    negative: bool = False

    def schema(self) -> dict:
        return NUMBER

    def text(self) -> str:
        if self.negative:
            return "eps, e.g. log(3), 0.1, or below 0 such as log(1/2) or -0.1 (without symbols)"
        return "eps >= 0, e.g. log(3) or 0.1" + (", or inf" if self.allow_inf else "")


def PrivLossValue(symbolic: bool = False) -> Eps:
    """A claimed privacy loss: an ε ≥ 0 or ``inf``; ``symbolic``: may use declared symbols."""
    return Eps(allow_inf=True, symbolic=symbolic)


@dataclass(frozen=True)
class Order(Kind):
    """A Rényi order: a whole number >= 1 (1 is KL) or ``inf``; with ``fractional``, also a
    rational > 1 such as 3/2."""

    fractional: bool = False

    def schema(self) -> dict:
        return {"anyOf": [NUMBER, {"const": "inf"}]}

    def text(self) -> str:
        return "a number > 1 such as 3/2, 1 (KL), or inf" if self.fractional else "a whole number >= 1 (1 is KL) or inf"


@dataclass(frozen=True)
class Divergence(Kind):
    """A claimed divergence: an exact real such as log(7/3), log(61/9)/2 or, over a decimal eps,
    log((exp(2) + exp(-1))/(1 + exp(1))), or inf; ``symbolic``: may use declared symbols
    (``log(E^2 + 1) - log(E + 1)``)."""

    symbolic: bool = False

    def schema(self) -> dict:
        return NUMBER

    def text(self) -> str:
        return "log(r)/k (r rational, or in exp(1/L) such as exp(1) + 1), a rational, or inf"


@dataclass(frozen=True)
class Delta(Kind):
    """δ ∈ [0, 1]: an exact rational; with ``field`` also an element of ℚ(e^{1/L}); with
    ``logs`` also a linear form in logarithms such as ``log(3)/2`` (where δ is only compared
    with the profile, see :func:`exactdp.numbers.kinds.delta`); ``rational_because`` says why a
    slot without ``field`` takes rationals only (the hint shown for a δ in ℚ(e^{1/L}) there)."""

    symbolic: bool = False
    field: bool = False
    logs: bool = False
    rational_because: str | None = None

    def schema(self) -> dict:
        return NUMBER

    def text(self) -> str:
        extra = [w for w, on in (("an expression in exp(0.1)", self.field), ("log(3)/2", self.logs)) if on]
        return "delta in [0, 1], e.g. 1/100" + (" or " + " or ".join(extra) if extra else "")


@dataclass(frozen=True)
class Prob(Kind):
    """A probability: an exact rational in [0, 1]; with ``field``, also an element of
    ℚ(e^{1/L}) such as ``exp(-1/2)/(1 + exp(-1/2))``."""

    symbolic: bool = False
    field: bool = False

    def schema(self) -> dict:
        return NUMBER

    def text(self) -> str:
        return "a probability, e.g. 1/4" + (" or exp(-0.5)/(1 + exp(-0.5))" if self.field else "")


@dataclass(frozen=True)
class Rational(Kind):
    """An exact rational, optionally bounded (``lo``/``hi`` inclusive, ``positive`` strict)."""

    what: str = "a number"
    lo: Any = None
    hi: Any = None
    positive: bool = False
    symbolic: bool = False  # may use declared symbols (a rational function of them)
    transcendental: bool = False  # may use log/exp (log(2)^2/2), decided by certified enclosures

    def schema(self) -> dict:
        return NUMBER

    def text(self) -> str:
        rng = " > 0" if self.positive else ""
        if self.lo is not None and not (self.positive and self.lo == 0):
            rng += f" >= {self.lo}"
        if self.hi is not None:
            rng += f" <= {self.hi}"
        if self.transcendental:
            return f"an exact real{rng}: a rational, or an expression with log and exp"
        return f"an exact rational{rng}"


@dataclass(frozen=True)
class Count(Kind):
    """A whole number in [lo, hi]."""

    what: str = "a count"
    lo: int = 0
    hi: int | None = None

    def schema(self) -> dict:
        return NUMBER

    def text(self) -> str:
        return f"a whole number {self.lo}..{self.hi}" if self.hi is not None else f"a whole number >= {self.lo}"


# --- words -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Label(Kind):
    """A name or label: a string or a number, kept as its text."""

    what: str = "a label"

    def schema(self) -> dict:
        return {"type": ["string", "number"]}

    def text(self) -> str:
        return self.what


@dataclass(frozen=True)
class Choice(Kind):
    """One word from a fixed set."""

    options: tuple[str, ...]
    what: str = "a choice"

    def schema(self) -> dict:
        return {"enum": list(self.options)}

    def text(self) -> str:
        return " | ".join(self.options)


@dataclass(frozen=True)
class Flag(Kind):
    """``true`` or ``false``."""

    def schema(self) -> dict:
        return {"type": ["boolean", "string"]}

    def text(self) -> str:
        return "true | false"


@dataclass(frozen=True)
class Literal(Kind):
    """One fixed word (e.g. ``never``, ``none``), read as itself; with ``null_ok`` an empty
    value (null) reads as the word too."""

    word: str
    null_ok: bool = False

    def schema(self) -> dict:
        return {"const": self.word}

    def text(self) -> str:
        return self.word


# --- containers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ListOf(Kind):
    """A list of values of one kind (a tuple); ``unique``: no value twice."""

    item: Kind
    min_len: int = 0
    unique: bool = False
    what: str = "a list"

    def schema(self) -> dict:
        out: dict = {"type": "array", "items": self.item.schema()}
        if self.min_len:
            out["minItems"] = self.min_len
        return out

    def text(self) -> str:
        return f"a list of {self.item.text()}"


@dataclass(frozen=True)
class MapOf(Kind):
    """A mapping from labels to values of one kind (a dict in file order)."""

    value: Kind
    min_len: int = 0
    what: str = "a mapping"

    def schema(self) -> dict:
        out: dict = {"type": "object", "additionalProperties": self.value.schema()}
        if self.min_len:
            out["minProperties"] = self.min_len
        return out

    def text(self) -> str:
        return f"{{label: {self.value.text()}}}"


@dataclass(frozen=True)
class PerDataset(Kind):
    """One value per dataset: a list in dataset order or a map ``{dataset: value}``.

    Read as a tuple in dataset order; with ``partial``, only a map, and only some datasets
    (a dict).  Unknown and missing datasets are reported by the reader in one place.
    """

    item: Kind
    partial: bool = False
    what: str = "values"

    def schema(self) -> dict:
        as_map = {"type": "object", "additionalProperties": self.item.schema()}
        if self.partial:
            return as_map
        return {"oneOf": [{"type": "array", "items": self.item.schema()}, as_map]}

    def text(self) -> str:
        return f"{self.item.text()} per dataset" + (" (some datasets)" if self.partial else "")


class ByDataset(tuple):
    """A value given per dataset (in dataset order), as read by :class:`SharedOrPerDataset`."""


@dataclass(frozen=True)
class SharedOrPerDataset(Kind):
    """One value shared by every dataset, or one per dataset (a list in dataset order, or a map
    whose keys are all dataset names).  Per-dataset values are read as :class:`ByDataset`."""

    item: Kind
    what: str = "values"

    def schema(self) -> dict:
        return {"anyOf": [self.item.schema(), PerDataset(self.item).schema()]}  # (a map may read as either)

    def text(self) -> str:
        return f"{self.item.text()}, shared or per dataset"


@dataclass(frozen=True)
class Nullable(Kind):
    """A value of ``item``, or null (read as None)."""

    item: Kind

    def schema(self) -> dict:
        return {"oneOf": [{"type": "null"}, self.item.schema()]}

    def text(self) -> str:
        return f"{self.item.text()} or null"


@dataclass(frozen=True)
class Pair(Kind):
    """A two-element list ``[a, b]`` (a tuple)."""

    first: Kind
    second: Kind
    what: str = "pair"
    labels: tuple[str, str] | None = None  # short names for messages, e.g. ("eps", "delta")

    def schema(self) -> dict:
        return {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "prefixItems": [self.first.schema(), self.second.schema()],
        }

    def text(self) -> str:
        return f"[{self.first.text()}, {self.second.text()}]"


@dataclass(frozen=True)
class Either(Kind):
    """One of several kinds, told apart by the shape of the value (scalar, list or mapping;
    a :class:`Record` by its keys)."""

    options: tuple[Kind, ...]

    def schema(self) -> dict:
        return {"anyOf": [k.schema() for k in self.options]}  # (the reader tells them apart)

    def text(self) -> str:
        return " or ".join(k.text() for k in self.options)


@dataclass(frozen=True)
class Record(Kind):
    """A mapping with known keys, read into the frozen dataclass ``cls`` (declared with
    :func:`arg`, like a form)."""

    cls: type
    what: str = ""

    def schema(self) -> dict:
        return record_schema(self.cls)

    def text(self) -> str:
        return "{" + ", ".join(s.name for s in field_specs(self.cls)) + "}"


@dataclass(frozen=True)
class Tagged(Kind):
    """A one-key mapping ``{tag: body}`` choosing one of several records by its tag."""

    records: tuple[tuple[str, type], ...]
    what: str = "a tagged value"

    def schema(self) -> dict:
        return {
            "type": "object",
            "minProperties": 1,
            "maxProperties": 1,
            "properties": {tag: value_schema(cls) for tag, cls in self.records},
            "additionalProperties": False,
        }

    def text(self) -> str:
        return " | ".join(f"{{{tag}: ...}}" for tag, _ in self.records)


@dataclass(frozen=True)
class ClaimSpec(Kind):
    """A claim written inside another (``target: {dp: {eps: log(2), delta: 1/10}}``), read like
    an item of ``claims:``; its ``of`` defaults to the enclosing claim's."""

    def schema(self) -> dict:
        return {"$ref": "#/$defs/claim"}

    def text(self) -> str:
        return "a claim, e.g. {dp: {eps: log(2), delta: 1/10}}"


# --- mechanisms ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MechanismRef(Kind):
    """A mechanism: a name from ``mechanisms:`` or an inline form (read as a Mechanism)."""

    def schema(self) -> dict:
        return {"$ref": "#/$defs/mechanism"}

    def text(self) -> str:
        return "a mechanism (a name or a form)"


@dataclass(frozen=True)
class Mechanisms(Kind):
    """Several mechanisms: a list (a name keeps its name as label, other items their index;
    a repeated name is a new copy, labelled by its index) or a map ``{label: mechanism}``.
    Read as a tuple of (label, Mechanism)."""

    def schema(self) -> dict:
        return {"$ref": "#/$defs/mechanisms"}

    def text(self) -> str:
        return "a list (or map) of mechanisms"


@dataclass(frozen=True)
class GameNode(Kind):
    """A position in an explicit tree: ``null`` ends the interaction, anything else is a
    mechanism whose game continues here."""

    def schema(self) -> dict:
        return {"$ref": "#/$defs/node"}

    def text(self) -> str:
        return "a tree position (null ends)"


@dataclass(frozen=True)
class Answers(Kind):
    """An answer distribution ``{answer: [p per dataset] | {p: ..., then: ...}}``."""

    def schema(self) -> dict:
        return {"$ref": "#/$defs/answers"}

    def text(self) -> str:
        return "an answer distribution"


# --- declarations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldSpec:
    """One declared field: its name in the case file, kind, default and doc."""

    name: str
    attr: str
    kind: Kind
    required: bool
    default: Any
    doc: str


def arg(kind: Kind, *, default: Any = REQUIRED, doc: str = "", key: str | None = None) -> Any:
    """Declare a field of a form, claim or record: ``eps: object = arg(Eps(), doc="...")``.

    ``key`` is the name in the case file when it differs from the attribute (``as``).
    """
    meta = {"kind": kind, "doc": doc, "key": key}
    if default is REQUIRED:
        return dataclasses.field(metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


def field_specs(cls: type) -> tuple[FieldSpec, ...]:
    """The declared fields of ``cls`` (those made with :func:`arg`), in declaration order;
    a subclass may withdraw inherited ones by naming them in ``hidden_fields``."""
    cached = cls.__dict__.get("_field_specs")
    if cached is not None:
        return cached
    out = []
    hidden = getattr(cls, "hidden_fields", ())
    for f in dataclasses.fields(cls):
        if "kind" not in f.metadata or f.name in hidden:
            continue
        required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        default = None if required else f.default
        out.append(
            FieldSpec(f.metadata["key"] or f.name, f.name, f.metadata["kind"], required, default, f.metadata["doc"])
        )
    specs = tuple(out)
    setattr(cls, "_field_specs", specs)  # noqa: B010 (a cache on the class, unknown to type checkers)
    return specs


def record_schema(cls: type) -> dict:
    """The JSON-Schema fragment of a mapping with the declared fields of ``cls``."""
    specs = field_specs(cls)
    out: dict = {
        "type": "object",
        "properties": {s.name: s.kind.schema() for s in specs},
        "additionalProperties": False,
    }
    required = [s.name for s in specs if s.required]
    if required:
        out["required"] = required
    return out


def value_schema(cls: type) -> dict:
    """The JSON-Schema fragment of what the reader takes for ``cls``: its record of fields, or
    the value of its ``shorthand`` field alone (``compose: [A, B]``; with one field, always that)."""
    specs = field_specs(cls)
    short = getattr(cls, "shorthand", None)
    if short is None:
        return record_schema(cls)
    whole = next(s for s in specs if s.attr == short).kind.schema()
    return whole if len(specs) == 1 else {"oneOf": [whole, record_schema(cls)]}


class FieldProblem(Exception):
    """A problem with a declared value, located by the field path within the form or claim
    (``("transitions", "s0", "q")``) — the reader turns the path into a place in the file."""

    def __init__(self, path: Sequence[str | int] | str, message: str, hint: str | None = None):
        super().__init__(message)
        self.path: tuple[str | int, ...] = (path,) if isinstance(path, str) else tuple(path)
        self.message = message
        self.hint = hint


@contextmanager
def within(*steps: str | int) -> Iterator[None]:
    """Prefix the field path of a :class:`FieldProblem` raised inside the block (for problems
    found in a nested record, e.g. a noise inside ``svt``)."""
    try:
        yield
    except FieldProblem as p:
        raise FieldProblem(tuple(steps) + p.path, p.message, p.hint) from None


class Declared:
    """Mixin for declared dataclasses: cross-field rules go in :meth:`validate`."""

    kind: ClassVar[str] = ""

    def validate(self) -> None:
        """Raise :class:`FieldProblem` when fields contradict each other (default: none)."""
