"""One generic reader for every declared form, claim and record.

:func:`read_record` reads a YAML mapping into a frozen dataclass declared with
:func:`~exactdp.forms.fields.arg`: unknown keys (with a suggestion), missing required keys and
bad values are located problems, several at once; then the class's own ``validate()`` runs and a
:class:`~exactdp.forms.fields.FieldProblem` it raises is located by its field path.  Each field
kind has one reading function here, so every ε, every list and every per-dataset value is read
— and every "unknown dataset" reported — in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import yaml

from ..errors import ExactDPError, TimeLimitExceeded
from ..forms import fields as F
from ..numbers import kinds as K
from ..numbers.ladder import QT, domain_of
from .context import INVALID, Reader, child_path, suggest
from .flattree import same_key
from .yamlsafe import is_null, kind_of

if TYPE_CHECKING:  # pragma: no cover
    from .mechanisms import MechanismReader

__all__ = ["TypedReader", "locate"]

KindReader = Callable[["TypedReader", Any, yaml.Node, str], Any]
_READERS: dict[type, KindReader] = {}


def _reads(kind: type) -> Callable[[KindReader], KindReader]:
    def deco(fn: KindReader) -> KindReader:
        _READERS[kind] = fn
        return fn

    return deco


def locate(node: yaml.Node, path: str, steps: tuple[str | int, ...]) -> tuple[yaml.Node, str]:
    """The YAML node and document path that ``steps`` (keys and indices) lead to from ``node``;
    stops at the deepest node that exists."""
    for step in steps:
        nxt = None
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if k.value == str(step)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and 0 <= step < len(node.value):
            nxt = node.value[step]
        if nxt is None:
            break
        node, path = nxt, child_path(path, step)
    return node, path


class TypedReader:
    """Reads declared values with a case's :class:`Reader` (problems, params, symbols) and,
    for mechanism-valued fields, its :class:`~exactdp.caseio.mechanisms.MechanismReader`."""

    def __init__(self, r: Reader, mr: MechanismReader | None = None):
        self.r = r
        self.mr = mr

    @property
    def mech_reader(self) -> MechanismReader:
        """The mechanism reader, which mechanism-valued and per-dataset fields need (a reader
        built without one reads plain values only, such as the bounds of ``symbols:``)."""
        if self.mr is None:  # pragma: no cover - a programming error, not a case-file problem
            raise TypeError("this TypedReader has no MechanismReader: it reads plain values only")
        return self.mr

    # --- records --------------------------------------------------------------------------

    def record(self, cls: type, node: yaml.Node, path: str, what: str, extra: dict | None = None) -> Any:
        """Read ``node`` into ``cls``; ``extra`` holds attributes the caller sets itself."""
        specs = F.field_specs(cls)
        shorthand = self.shorthand_of(cls, node)
        if shorthand:
            spec = next(s for s in specs if s.attr == shorthand)
            values = {spec.attr: self.value(spec.kind, node, path)}
            if values[spec.attr] is INVALID:
                return INVALID
            return self._make(cls, values, extra, node, path, shorthand=spec.name)
        if is_null(node):
            node = yaml.MappingNode("tag:yaml.org,2002:map", [], node.start_mark, node.end_mark)
        if not isinstance(node, yaml.MappingNode):
            keys = ", ".join(f"{s.name}: ..." for s in specs)
            return self.r.error(node, path, f"{what} is a mapping {{{keys}}}, found {kind_of(node)}")
        items = self.r.mapping(node, path, what)
        if items is INVALID:  # (not for a mapping node, checked above)
            return INVALID
        values = self._fields(specs, items, node, path, what, getattr(cls, "moved_fields", {}))
        return INVALID if values is INVALID else self._make(cls, values, extra, node, path)

    def shorthand_of(self, cls: type, node: yaml.Node) -> str | None:
        """The field that ``node`` fills as a whole (``compose: [A, B]``), or None when ``node``
        is the mapping of the class's own keys."""
        shorthand = getattr(cls, "shorthand", None)
        specs = F.field_specs(cls)
        if shorthand and (len(specs) == 1 or not self._is_own_record(node, specs, need_required=False)):
            return shorthand
        return None

    @staticmethod
    def _is_own_record(node: yaml.Node, specs: tuple[F.FieldSpec, ...], *, need_required: bool = True) -> bool:
        """Whether ``node`` is a mapping of (some of) these fields' keys."""
        if not isinstance(node, yaml.MappingNode):
            return False
        keys = {k.value for k, _ in node.value}
        if not keys <= {s.name for s in specs}:
            return False
        if not need_required:
            return bool(keys)
        return all(s.name in keys for s in specs if s.required)

    def _fields(
        self, specs: tuple[F.FieldSpec, ...], items: list, node: yaml.Node, path: str, what: str, moved: dict
    ) -> Any:
        """The values of a record's keys; an unknown key is an error with a suggestion, or with
        ``moved[key]``, where that key belongs instead (a class's ``moved_fields``)."""
        by_name = {s.name: s for s in specs}
        values: dict[str, Any] = {}
        bad = False
        for key, knode, vnode in items:
            spec = by_name.get(key)
            if spec is None:
                hint = moved.get(key) or suggest(key, list(by_name)) or f"allowed keys: {', '.join(by_name)}"
                self.r.error(knode, child_path(path, key), f"unknown key {key!r} in {what}", hint)
                bad = True
                continue
            v = self.value(spec.kind, vnode, child_path(path, key))
            bad = bad or v is INVALID
            values[spec.attr] = v
        for spec in specs:
            if spec.attr not in values and spec.required:
                self.r.error(node, path, f"{what} needs `{spec.name}:`" + (f" ({spec.doc})" if spec.doc else ""))
                bad = True
        return INVALID if bad else values

    def _make(
        self, cls: type, values: dict, extra: dict | None, node: yaml.Node, path: str, shorthand: str | None = None
    ) -> Any:
        try:
            obj = cls(**values, **(extra or {}))
            obj.validate()
        except F.FieldProblem as p:
            return self.problem(node, path, p, shorthand)
        return obj

    def problem(self, node: yaml.Node, path: str, p: F.FieldProblem, shorthand: str | None = None) -> Any:
        """Record a :class:`FieldProblem` at the place its field path leads to (a value written
        in shorthand is the field itself, so the field's own name is skipped)."""
        steps = p.path[1:] if shorthand is not None and p.path[:1] == (shorthand,) else p.path
        where, wpath = locate(node, path, steps)
        return self.r.error(where, wpath, p.message, p.hint)

    # --- values -----------------------------------------------------------------------------

    def value(self, kind: F.Kind, node: yaml.Node, path: str) -> Any:
        """Read one value of ``kind`` (INVALID, with the problem recorded, if it is wrong)."""
        return _READERS[type(kind)](self, kind, node, path)

    def number(
        self, node: yaml.Node, path: str, what: str, check: Callable[[Any], Any], *, constants: bool = False
    ) -> Any:
        """An exact number from the grammar, then its quantity check (one wording each);
        ``constants`` keeps a value with no exact rung (``log(2)^2``) as its exact expression."""
        v = self.r.value(node, path, what, constants=constants)
        if v is INVALID:
            return INVALID
        try:
            return check(v)
        except K.QuantityError as e:
            return self.r.error(node, path, e.message, e.hint)
        except TimeLimitExceeded:
            raise  # the clock ran out for the whole file: not a problem of this value
        except ExactDPError as e:  # a limit reached while checking it (e.g. --max-precision)
            return self.r.error(node, path, str(e))

    def symbols(self, symbolic: bool) -> Any:
        return self.r.symtab if symbolic else None


@_reads(F.Eps)
def _eps(tr: TypedReader, k: F.Eps, node: yaml.Node, path: str) -> Any:
    return tr.number(
        node,
        path,
        "eps",
        lambda v: K.eps(v, allow_inf=k.allow_inf, negative=k.negative, symbols=tr.symbols(k.symbolic)),
    )


@_reads(F.Order)
def _order(tr: TypedReader, k: F.Order, node: yaml.Node, path: str) -> Any:
    return tr.number(node, path, "alpha", lambda v: K.order(v, fractional=k.fractional))


@_reads(F.Divergence)
def _divergence(tr: TypedReader, k: F.Divergence, node: yaml.Node, path: str) -> Any:
    return tr.number(node, path, "a Renyi divergence", lambda v: K.divergence(v, symbols=tr.symbols(k.symbolic)))


@_reads(F.Delta)
def _delta(tr: TypedReader, k: F.Delta, node: yaml.Node, path: str) -> Any:
    def read(v: Any) -> Any:
        try:
            return K.delta(v, symbols=tr.symbols(k.symbolic), field=k.field, logs=k.logs)
        except K.QuantityError as e:
            if k.rational_because and domain_of(v) is QT:  # the slot's own reason for rationals
                raise K.QuantityError(e.message, k.rational_because) from None
            raise

    return tr.number(node, path, "delta", read)


@_reads(F.Prob)
def _prob(tr: TypedReader, k: F.Prob, node: yaml.Node, path: str) -> Any:
    return tr.number(
        node, path, "a probability", lambda v: K.probability(v, symbols=tr.symbols(k.symbolic), field=k.field)
    )


@_reads(F.Rational)
def _rational(tr: TypedReader, k: F.Rational, node: yaml.Node, path: str) -> Any:
    return tr.number(
        node,
        path,
        k.what,
        lambda v: K.rational(
            v,
            what=k.what,
            lo=k.lo,
            hi=k.hi,
            positive=k.positive,
            symbols=tr.symbols(k.symbolic),
            transcendental=k.transcendental,
        ),
        constants=k.transcendental,
    )


@_reads(F.Count)
def _count(tr: TypedReader, k: F.Count, node: yaml.Node, path: str) -> Any:
    return tr.number(node, path, k.what, lambda v: K.count(v, what=k.what, lo=k.lo, hi=k.hi))


@_reads(F.Label)
def _label(tr: TypedReader, k: F.Label, node: yaml.Node, path: str) -> Any:
    return tr.r.label(node, path, k.what)


@_reads(F.Choice)
def _choice(tr: TypedReader, k: F.Choice, node: yaml.Node, path: str) -> Any:
    return tr.r.choice(node, path, k.what, k.options)


@_reads(F.Flag)
def _flag(tr: TypedReader, k: F.Flag, node: yaml.Node, path: str) -> Any:
    t = tr.r.label(node, path, "true or false")
    if t is INVALID:
        return INVALID
    if t.lower() not in ("true", "false"):
        return tr.r.error(node, path, f"expected true or false, found {t!r}")
    return t.lower() == "true"


@_reads(F.Literal)
def _literal(tr: TypedReader, k: F.Literal, node: yaml.Node, path: str) -> Any:
    if _literal_match(k, node):
        return k.word
    return tr.r.error(node, path, f"expected {k.word!r}, found {kind_of(node)}")


def _entries(tr: TypedReader, node: yaml.Node, path: str, what: str, min_len: int, as_map: bool) -> Any:
    """The items of a sequence (or the entries of a mapping), at least ``min_len`` of them."""
    items = tr.r.mapping(node, path, what) if as_map else tr.r.sequence(node, path, what)
    if items is INVALID:
        return INVALID
    if len(items) < min_len:
        noun = ("entries" if min_len > 1 else "entry") if as_map else ("items" if min_len > 1 else "item")
        return tr.r.error(node, path, f"{what} needs at least {min_len} {noun}")
    return items


@_reads(F.ListOf)
def _list_of(tr: TypedReader, k: F.ListOf, node: yaml.Node, path: str) -> Any:
    items = _entries(tr, node, path, k.what, k.min_len, as_map=False)
    if items is INVALID:
        return INVALID
    if isinstance(k.item, _NUMBERS) and any(not isinstance(it, yaml.ScalarNode) for it in items):
        i = next(i for i, it in enumerate(items) if not isinstance(it, yaml.ScalarNode))
        return tr.r.error(
            items[i], child_path(path, i), f"each entry of {k.what} is {k.item.text()}, found {kind_of(items[i])}"
        )
    out = [tr.value(k.item, it, child_path(path, i)) for i, it in enumerate(items)]
    if any(v is INVALID for v in out):
        return INVALID
    if k.unique:
        keys = [same_key(v) if isinstance(v, str) else v for v in out]
        for i, v in enumerate(out):
            if keys[i] in keys[:i]:
                return tr.r.error(items[i], child_path(path, i), f"{v!r} is listed twice in {k.what}")
    return tuple(out)


@_reads(F.MapOf)
def _map_of(tr: TypedReader, k: F.MapOf, node: yaml.Node, path: str) -> Any:
    items = _entries(tr, node, path, k.what, k.min_len, as_map=True)
    if items is INVALID:
        return INVALID
    out = {key: tr.value(k.value, v, child_path(path, key)) for key, _kn, v in items}
    return INVALID if any(v is INVALID for v in out.values()) else out


@_reads(F.PerDataset)
def _per_dataset(tr: TypedReader, k: F.PerDataset, node: yaml.Node, path: str) -> Any:
    datasets = tr.mech_reader.datasets
    if isinstance(node, yaml.SequenceNode) and not k.partial:
        if len(node.value) != len(datasets):
            return tr.r.error(
                node,
                path,
                f"expected {len(datasets)} {k.what} (one per dataset: {', '.join(datasets)}), found {len(node.value)}",
            )
        out = [tr.value(k.item, v, child_path(path, i)) for i, v in enumerate(node.value)]
        return INVALID if any(v is INVALID for v in out) else tuple(out)
    if not isinstance(node, yaml.MappingNode):
        shape = "a map {dataset: value}" if k.partial else "a list (one per dataset) or a map {dataset: value}"
        return tr.r.error(node, path, f"{k.what} must be {shape}, found {kind_of(node)}")
    got: dict[str, Any] = {}
    for knode, v in node.value:
        d = knode.value
        if d not in datasets:
            tr.r.error(
                knode,
                child_path(path, d),
                f"unknown dataset {d!r}",
                suggest(d, datasets) or f"datasets: {', '.join(datasets)}",
            )
            got[d] = INVALID
            continue
        got[d] = tr.value(k.item, v, child_path(path, d))
    missing = [d for d in datasets if d not in got]
    if missing and not k.partial:
        return tr.r.error(
            node, path, f"no entry for dataset(s) {', '.join(missing)}", f"{k.what} must cover every dataset"
        )
    if any(v is INVALID for v in got.values()):
        return INVALID
    return dict(got) if k.partial else tuple(got[d] for d in datasets)


def _literal_match(k: F.Literal, node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and (node.value == k.word or (k.null_ok and is_null(node)))


@_reads(F.SharedOrPerDataset)
def _shared_or_per_dataset(tr: TypedReader, k: F.SharedOrPerDataset, node: yaml.Node, path: str) -> Any:
    datasets = tr.mech_reader.datasets
    per = isinstance(node, yaml.SequenceNode) or (
        isinstance(node, yaml.MappingNode) and bool(node.value) and all(kn.value in datasets for kn, _ in node.value)
    )
    if not per:
        return tr.value(k.item, node, path)
    got = tr.value(F.PerDataset(k.item, what=k.what), node, path)
    return INVALID if got is INVALID else F.ByDataset(got)


@_reads(F.Nullable)
def _nullable(tr: TypedReader, k: F.Nullable, node: yaml.Node, path: str) -> Any:
    return None if is_null(node) else tr.value(k.item, node, path)


@_reads(F.Pair)
def _pair(tr: TypedReader, k: F.Pair, node: yaml.Node, path: str) -> Any:
    if not (isinstance(node, yaml.SequenceNode) and len(node.value) == 2):
        a, b = k.labels or (k.first.text(), k.second.text())
        return tr.r.error(node, path, f"each {k.what} is a pair [{a}, {b}], found {kind_of(node)}")
    a = tr.value(k.first, node.value[0], child_path(path, 0))
    b = tr.value(k.second, node.value[1], child_path(path, 1))
    return INVALID if a is INVALID or b is INVALID else (a, b)


_NUMBERS = (F.Eps, F.Delta, F.Prob, F.Rational, F.Count, F.Order, F.Divergence)
_SCALAR = (
    F.Order,
    F.Divergence,
    F.Eps,
    F.Delta,
    F.Prob,
    F.Rational,
    F.Count,
    F.Label,
    F.Choice,
    F.Flag,
    F.MechanismRef,
    F.GameNode,
)
_LIST = (F.ListOf, F.Pair, F.Mechanisms)
_MAP = (F.MapOf, F.Tagged, F.MechanismRef, F.Mechanisms, F.Answers, F.GameNode)


def _accepts(tr: TypedReader, k: F.Kind, node: yaml.Node) -> bool:
    """Whether ``node`` has the shape of a value of kind ``k`` (for :class:`Either`)."""
    if isinstance(k, F.Literal):
        return _literal_match(k, node)
    if isinstance(k, (F.SharedOrPerDataset, F.Nullable)):
        return True
    if isinstance(k, F.Tagged):
        return isinstance(node, yaml.MappingNode) and len(node.value) == 1 and node.value[0][0].value in dict(k.records)
    if isinstance(k, F.Record):
        return TypedReader._is_own_record(node, F.field_specs(k.cls))
    if isinstance(k, F.PerDataset):
        if isinstance(node, yaml.MappingNode):
            return all(kn.value in tr.mech_reader.datasets for kn, _ in node.value)
        return isinstance(node, yaml.SequenceNode) and not k.partial
    if isinstance(node, yaml.ScalarNode):
        return isinstance(k, _SCALAR)
    if isinstance(node, yaml.SequenceNode):
        return isinstance(k, _LIST)
    return isinstance(k, _MAP)


def _closest(options: tuple[F.Kind, ...], node: yaml.Node) -> F.Kind | None:
    """When no option fits exactly, the one of the same shape that fits best — a record with
    the most keys in common — so that its own message (an unknown key, a missing one) says
    what is wrong."""
    if isinstance(node, yaml.MappingNode):
        keys = {kn.value for kn, _ in node.value}
        records = [o for o in options if isinstance(o, F.Record)]
        if records:
            return max(records, key=lambda o: len(keys & {s.name for s in F.field_specs(o.cls)}))
        return next((o for o in options if isinstance(o, _MAP)), None)
    shapes = _LIST if isinstance(node, yaml.SequenceNode) else _SCALAR
    return next((o for o in options if isinstance(o, shapes)), None)


@_reads(F.Either)
def _either(tr: TypedReader, k: F.Either, node: yaml.Node, path: str) -> Any:
    for option in k.options:
        if _accepts(tr, option, node):
            return tr.value(option, node, path)
    fallback = _closest(k.options, node)
    if fallback is not None:
        return tr.value(fallback, node, path)
    return tr.r.error(node, path, f"expected {k.text()}, found {kind_of(node)}")


@_reads(F.Record)
def _record(tr: TypedReader, k: F.Record, node: yaml.Node, path: str) -> Any:
    return tr.record(k.cls, node, path, k.what or k.cls.__name__)


@_reads(F.Tagged)
def _tagged(tr: TypedReader, k: F.Tagged, node: yaml.Node, path: str) -> Any:
    tags = dict(k.records)
    if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
        return tr.r.error(node, path, f"{k.what} is one of {k.text()}, found {kind_of(node)}")
    knode, vnode = node.value[0]
    if knode.value not in tags:
        return tr.r.error(
            knode,
            child_path(path, knode.value),
            f"unknown {k.what} {knode.value!r}",
            suggest(knode.value, list(tags)) or f"use one of {', '.join(tags)}",
        )
    return tr.record(tags[knode.value], vnode, child_path(path, knode.value), f"{knode.value}")


@_reads(F.MechanismRef)
def _mechanism(tr: TypedReader, k: F.MechanismRef, node: yaml.Node, path: str) -> Any:
    return tr.mech_reader.mechanism(node, path)


@_reads(F.Mechanisms)
def _mechanisms(tr: TypedReader, k: F.Mechanisms, node: yaml.Node, path: str) -> Any:
    return tr.mech_reader.components(node, path, path.rsplit(".", 1)[-1])


@_reads(F.GameNode)
def _game_node(tr: TypedReader, k: F.GameNode, node: yaml.Node, path: str) -> Any:
    return tr.mech_reader.game_node(node, path)


@_reads(F.Answers)
def _answers(tr: TypedReader, k: F.Answers, node: yaml.Node, path: str) -> Any:
    return tr.mech_reader.answers_cached(node, path)


def guard(tr: TypedReader, fn: Callable[[], Any], node: yaml.Node, path: str, shorthand: str | None = None) -> Any:
    """Run a builder: its FieldProblem, CaseError or other ExactDPError becomes located."""
    try:
        return tr.r.guard(fn, node, path)
    except F.FieldProblem as p:
        return tr.problem(node, path, p, shorthand)


__all__.append("guard")
