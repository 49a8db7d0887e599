"""Composition forms: ``concomp_ordered``, ``null_extension``, ``postprocess`` and
``concomp: {mechanisms: [...], interleave: ...}`` (documented in docs/composition.md)."""

from __future__ import annotations

from typing import Any

import yaml

from ..builders.combinators import concomp
from ..builders.composition import concomp_ordered, concomp_sequential, null_extension, postprocess
from .context import Field, INVALID, NUMBER, Reader, child_path, schema_object
from .forms import FORMS, MechanismReader, _components, register_form

__all__ = ["INTERLEAVINGS"]

INTERLEAVINGS = ("any", "sequential", "ordered")


@register_form(
    "concomp_ordered",
    "ordered concurrent composition (Def. 2.3): message i goes to component i mod k",
    {"$ref": "#/$defs/mechanisms"},
)
def _concomp_ordered(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    comps = _components(mr, node, path, "concomp_ordered")
    if comps is INVALID:
        return INVALID
    return mr.r.guard(lambda: concomp_ordered(comps, name=name), node, path)


def _keys(node: yaml.Node) -> list[str]:
    return [k.value for k, _ in node.value] if isinstance(node, yaml.MappingNode) else []


@register_form(
    "null_extension",
    "null-query extension (Def. 2.4): `null_extension: m` or `{mechanism: m, nulls: n}`",
    {
        "oneOf": [
            {"$ref": "#/$defs/mechanism"},
            schema_object({"mechanism": {"$ref": "#/$defs/mechanism"}, "nulls": NUMBER}, ("mechanism",)),
        ]
    },
)
def _null_extension(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    keys = _keys(node)
    if keys and set(keys) <= {"mechanism", "nulls"}:
        f = mr.r.fields(
            node,
            path,
            {
                "mechanism": Field(lambda r_, n, p: mr.mechanism(n, p), required=True),
                "nulls": Field(lambda r_, n, p: r_.count(n, p, "nulls", 0, 10_000), doc="how many null queries (default: depth + 1)"),
            },
            "null_extension",
        )
        if f is INVALID:
            return INVALID
        m, nulls = f["mechanism"], f["nulls"]
    else:
        m, nulls = mr.mechanism(node, path), None
        if m is INVALID:
            return INVALID
    return mr.r.guard(lambda: null_extension(m, nulls, name=name), node, path)


def _map(r: Reader, node: yaml.Node, path: str) -> Any:
    items = r.mapping(node, path, "`map:` (old answer: new answer)")
    if items is INVALID:
        return INVALID
    out: dict[str, str] = {}
    for k, knode, v in items:
        new = r.label(v, child_path(path, k), "a new answer label")
        if new is INVALID:
            return INVALID
        out[k] = new
    return out


@register_form(
    "postprocess",
    "`postprocess: {mechanism: m, map: {answer: new_answer}}`: relabel answers (deterministic post-processing)",
    schema_object(
        {"mechanism": {"$ref": "#/$defs/mechanism"}, "map": {"type": "object", "additionalProperties": {"type": ["string", "number"]}}},
        ("mechanism", "map"),
    ),
)
def _postprocess(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    f = mr.r.fields(
        node,
        path,
        {
            "mechanism": Field(lambda r_, n, p: mr.mechanism(n, p), required=True),
            "map": Field(_map, required=True, doc="old answer: new answer"),
        },
        "postprocess",
    )
    if f is INVALID:
        return INVALID
    m = f["mechanism"]

    def build():
        out = postprocess(m, f["map"], name=name)
        return out

    return mr.r.guard(build, node, path)


_plain_concomp = FORMS["concomp"][0]


@register_form(
    "concomp",
    "concurrent composition (Def. 2.1); `concomp: {mechanisms: [...], interleave: any|sequential|ordered}` restricts the interleaving",
    {
        "oneOf": [
            {"$ref": "#/$defs/mechanisms"},
            schema_object(
                {"mechanisms": {"$ref": "#/$defs/mechanisms"}, "interleave": {"enum": ["any", "sequential", "ordered"]}},
                ("mechanisms", "interleave"),
            ),
        ]
    },
)
def _concomp(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    keys = _keys(node)
    if not ("interleave" in keys and "mechanisms" in keys and set(keys) == {"interleave", "mechanisms"}):
        return _plain_concomp(mr, node, path, name)
    r = mr.r

    def read_mode(r_: Reader, n: yaml.Node, p: str) -> Any:
        return r_.choice(n, p, "interleaving", INTERLEAVINGS)

    f = r.fields(
        node,
        path,
        {
            "mechanisms": Field(lambda r_, n, p: _components(mr, n, p, "concomp"), required=True),
            "interleave": Field(read_mode, required=True),
        },
        "concomp",
    )
    if f is INVALID:
        return INVALID
    comps = f["mechanisms"]
    build = {"any": concomp, "sequential": concomp_sequential, "ordered": concomp_ordered}[f["interleave"]]
    return r.guard(lambda: build(comps, name=name), node, path)

