"""Reading the ``claims:`` list of a case into the declared claim types (:mod:`exactdp.claims`).

Each claim is a mapping with one kind key (:data:`exactdp.claims.CLAIMS`); its value maps the
kind's declared fields to values.  ``of: NAME`` (the mechanism the claim is about, default
``M``) may be written inside the field map or next to the kind key.  ``group:`` and ``pairs:``
are resolved here into the pairs of datasets the claim ranges over.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import yaml

from ..claims import CLAIMS, Claim, Where
from ..deprecation import warn_deprecated
from ..forms import fields as F
from ..model.adjacency import group_pairs
from .context import INVALID, child_path, suggest
from .typed import TypedReader, _reads, locate
from .yamlsafe import is_null, kind_of, mark_of

__all__ = ["read_claims", "DEPRECATED_SINCE"]

DEPRECATED_SINCE = "0.2.0"  # the release that deprecates the spellings warned about here


def read_claims(
    tr: TypedReader, node: yaml.Node, path: str, mechanisms: set[str] | None, default_of: str
) -> list[Claim]:
    """Read the claims list; ``mechanisms`` is the set of defined names (None: none could be
    read, so references are not checked again)."""
    r = tr.r
    items = r.sequence(node, path, "claims")
    if items is INVALID:
        return []
    if not items:
        r.error(node, path, "a case needs at least one claim", "for example: `- privloss: {delta: 0, equals: log(3)}`")
    out = []
    for i, item in enumerate(items):
        c = _read_claim(tr, item, child_path(path, i), mechanisms, default_of)
        if c is not INVALID:
            out.append(c)
    return out


def _kind_node(tr: TypedReader, node: yaml.Node, path: str) -> Any:
    """(kind, its value node, the `of` node next to it or None)."""
    r = tr.r
    if not isinstance(node, yaml.MappingNode):
        return r.error(node, path, f"a claim is a mapping such as `privloss: {{...}}`, found {kind_of(node)}")
    kinds = [(k, v) for k, v in node.value if k.value in CLAIMS]
    of_node = None
    for k, v in node.value:
        if k.value == "of":
            of_node = v
        elif k.value not in CLAIMS:
            return r.error(
                k,
                child_path(path, k.value),
                f"unknown claim kind {k.value!r}",
                suggest(k.value, list(CLAIMS)) or f"kinds: {', '.join(CLAIMS)}",
            )
    if len(kinds) != 1:
        what = "no claim kind" if not kinds else "several claim kinds (" + ", ".join(k.value for k, _ in kinds) + ")"
        return r.error(node, path, f"a claim needs exactly one kind; found {what}", f"kinds: {', '.join(CLAIMS)}")
    return kinds[0][0].value, kinds[0][1], of_node


def _read_claim(tr: TypedReader, node: yaml.Node, path: str, mechanisms: set[str] | None, default_of: str) -> Any:
    got = _kind_node(tr, node, path)
    if got is INVALID:
        return INVALID
    kind, vnode, of_node = got
    cls = CLAIMS[kind]
    kpath = child_path(path, kind)
    extra: dict[str, Any] = {"where": Where(tr.r.file, mark_of(node)[0], path)}
    if "symbols" in {f.name for f in dataclasses.fields(cls)}:
        extra["symbols"] = tr.r.symtab
    c = tr.record(cls, vnode, kpath, f"`{kind}`", extra)
    if c is INVALID:
        return INVALID
    if c.of is None:
        inner_of = _inner_of(c)
        if of_node is not None:
            of = tr.r.label(of_node, child_path(path, "of"), "a mechanism name")
        else:  # a claim about another claim is about that claim's mechanism, if it names one
            of = inner_of if inner_of is not None else default_of
        if of is INVALID:
            return INVALID
        c = dataclasses.replace(c, of=of)
    for field, message in c.deprecations():
        where, wpath = locate(vnode, kpath, (field,))
        line = mark_of(where)[0]
        warn_deprecated(f"{tr.r.file}:{line}: {wpath}: {message}", since=DEPRECATED_SINCE, stacklevel=2)
    if c.of is None:  # a claim inside another: its `of` comes from the enclosing claim
        return _with_pairs(tr, c, vnode, kpath)
    c = _inner_claims_of(c)
    if not _names_exist(tr, c, node if is_null(vnode) else vnode, kpath, mechanisms):
        return INVALID
    return _with_pairs(tr, c, vnode, kpath)


def _inner_of(c: Claim) -> Any:
    """The mechanism an inner claim (a field of kind ClaimSpec) names, or None."""
    for spec in F.field_specs(type(c)):
        inner = getattr(c, spec.attr)
        if isinstance(spec.kind, F.ClaimSpec) and isinstance(inner, Claim) and inner.of is not None:
            return inner.of
    return None


def _inner_claims_of(c: Claim) -> Claim:
    """A claim's inner claims (fields of kind ClaimSpec) without an `of` get the claim's own."""
    changes: dict[str, Any] = {}
    for spec in F.field_specs(type(c)):
        inner = getattr(c, spec.attr)
        if isinstance(spec.kind, F.ClaimSpec) and isinstance(inner, Claim) and inner.of is None:
            changes[spec.attr] = dataclasses.replace(inner, of=c.of)
    return dataclasses.replace(c, **changes) if changes else c


@_reads(F.ClaimSpec)
def _claim_spec(tr: TypedReader, k: F.ClaimSpec, node: yaml.Node, path: str) -> Any:
    """A claim inside another, read like an item of `claims:` (names checked once its `of` is known)."""
    got = _read_claim(tr, node, path, None, None)  # type: ignore[arg-type]
    if got is INVALID:
        return INVALID
    return got


def _names_exist(tr: TypedReader, c: Claim, node: yaml.Node, path: str, mechanisms: set[str] | None) -> bool:
    if mechanisms is None:
        return True
    fields = [("of", c.of)] + [(name, getattr(c, name)) for name in c.names]
    for spec in F.field_specs(type(c)):  # inner claims name mechanisms too
        inner = getattr(c, spec.attr)
        if isinstance(spec.kind, F.ClaimSpec) and isinstance(inner, Claim):
            fields += [(spec.name, inner.of)] + [(spec.name, getattr(inner, name)) for name in inner.names]
    ok = True
    for field, value in fields:
        for k, one in enumerate(value if isinstance(value, tuple) else (value,)):
            if one not in mechanisms:
                where, wpath = locate(node, path, (field, k) if isinstance(value, tuple) else (field,))
                hint = suggest(str(one), sorted(mechanisms)) or f"defined: {', '.join(sorted(mechanisms))}"
                tr.r.error(where, wpath, f"no mechanism named {one!r}", hint)
                ok = False
    return ok


def _with_pairs(tr: TypedReader, c: Claim, node: yaml.Node, path: str) -> Any:
    """Resolve ``group:``/``pairs:`` into the claim's own pairs of dataset indices."""
    if c.group is not None:
        mr = tr.mech_reader
        return dataclasses.replace(c, adjacency=group_pairs(len(mr.datasets), mr.adjacent, c.group))
    if c.pairs is None:
        return c
    datasets = tr.mech_reader.datasets
    pairs = []
    for i, pair in enumerate(c.pairs):
        for j, d in enumerate(pair):
            if d not in datasets:
                where, wpath = locate(node, path, ("pairs", i, j))
                return tr.r.error(
                    where, wpath, f"unknown dataset {d!r}", suggest(d, datasets) or f"datasets: {', '.join(datasets)}"
                )
        a, b = datasets.index(pair[0]), datasets.index(pair[1])
        if a == b:
            where, wpath = locate(node, path, ("pairs", i))
            return tr.r.error(where, wpath, f"a dataset is not paired with itself ({pair[0]})")
        pairs.append((a, b))
    return dataclasses.replace(c, adjacency=tuple(pairs))
