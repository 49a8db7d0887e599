"""Reading the ``claims:`` list of a case into :mod:`exactdp.claims` value types.

Each claim is a mapping with one kind key; its value maps fields to values.  ``of: NAME``
(the mechanism the claim is about, default ``M``) may be written inside the field map or
next to the kind key.  Kinds are registered in :data:`CLAIM_KINDS` so that later features
add claims without touching this reader.
"""

from __future__ import annotations

from typing import Any, Callable

import yaml

from ..claims import (
    Claim,
    DeltaClaim,
    DPClaim,
    NotDPClaim,
    PrivLossClaim,
    ProfileEqClaim,
    ProfileLeClaim,
    Where,
)
from ..numbers.rational import Q
from .context import INVALID, Field, Reader, child_path, suggest
from .yamlsafe import kind_of, mark_of

__all__ = ["CLAIM_KINDS", "register_claim", "read_claims"]

# kind -> (field spec, constructor(fields, of, where) -> Claim, doc)
CLAIM_KINDS: dict[str, tuple[dict[str, Field], Callable[..., Claim], str]] = {}


def register_claim(kind: str, spec: dict[str, Field], doc: str) -> Callable:
    def deco(make: Callable[..., Claim]) -> Callable[..., Claim]:
        CLAIM_KINDS[kind] = (spec, make, doc)
        return make

    return deco


def _name(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.label(node, path, "a mechanism name")


_NUM = {"$ref": "#/$defs/number"}
_NAME = {"$ref": "#/$defs/name"}
_EPS = Field(lambda r, n, p: r.eps(n, p), required=True, doc="e.g. eps: log(3)", schema=_NUM)
_DELTA0 = Field(lambda r, n, p: r.delta(n, p), default=Q(0), doc="default 0", schema=_NUM)
_OF = Field(_name, default=None, schema=_NAME)


@register_claim(
    "privloss",
    {
        "delta": _DELTA0,
        "equals": Field(lambda r, n, p: r.privloss_value(n, p), doc="log(r), a rational, or inf", schema=_NUM),
        "at_most": Field(lambda r, n, p: r.privloss_value(n, p), doc="log(r), a rational, or inf", schema=_NUM),
        "of": _OF,
    },
    "PrivLoss(M, delta) equals (or is at most) the given value",
)
def _privloss(f: dict, of: str, where: Where, r: Reader, node: yaml.Node, path: str) -> Any:
    if (f["equals"] is None) == (f["at_most"] is None):
        return r.error(node, path, "privloss needs exactly one of `equals:` or `at_most:`")
    return PrivLossClaim(of=of, where=where, delta=f["delta"], equals=f["equals"], at_most=f["at_most"])


@register_claim("dp", {"eps": _EPS, "delta": _DELTA0, "of": _OF}, "M is (eps, delta)-DP against every adversary")
def _dp(f: dict, of: str, where: Where, *_a) -> Claim:
    return DPClaim(of=of, where=where, eps=f["eps"], delta=f["delta"])


@register_claim("not_dp", {"eps": _EPS, "delta": _DELTA0, "of": _OF}, "M is not (eps, delta)-DP; the report shows a witness")
def _not_dp(f: dict, of: str, where: Where, *_a) -> Claim:
    return NotDPClaim(of=of, where=where, eps=f["eps"], delta=f["delta"])


@register_claim(
    "delta",
    {"eps": _EPS, "equals": Field(lambda r, n, p: r.delta(n, p), required=True, schema=_NUM), "of": _OF},
    "the largest hockey-stick divergence at e^eps equals the given delta",
)
def _delta(f: dict, of: str, where: Where, *_a) -> Claim:
    return DeltaClaim(of=of, where=where, eps=f["eps"], equals=f["equals"])


@register_claim("profile_eq", {"as": Field(_name, required=True, schema=_NAME), "of": _OF}, "same privacy profile as another mechanism")
def _profile_eq(f: dict, of: str, where: Where, *_a) -> Claim:
    return ProfileEqClaim(of=of, where=where, other=f["as"])


@register_claim("profile_le", {"than": Field(_name, required=True, schema=_NAME), "of": _OF}, "privacy profile at most another's")
def _profile_le(f: dict, of: str, where: Where, *_a) -> Claim:
    return ProfileLeClaim(of=of, where=where, other=f["than"])


_NAME_FIELDS = {"as", "than"}


def read_claims(r: Reader, node: yaml.Node, path: str, mechanisms: set[str] | None, default_of: str) -> list[Claim]:
    """Read the claims list; ``mechanisms`` is the set of defined names (None: none could be
    read, so references are not checked again)."""
    items = r.sequence(node, path, "claims")
    if items is INVALID:
        return []
    if not items:
        r.error(node, path, "a case needs at least one claim", "for example: `- privloss: {delta: 0, equals: log(3)}`")
    out: list[Claim] = []
    for i, item in enumerate(items):
        p = child_path(path, i)
        c = _read_claim(r, item, p, mechanisms, default_of)
        if c is not INVALID and c is not None:
            out.append(c)
    return out


def _read_claim(r: Reader, node: yaml.Node, path: str, mechanisms: set[str] | None, default_of: str) -> Any:
    if not isinstance(node, yaml.MappingNode):
        return r.error(node, path, f"a claim is a mapping such as `privloss: {{...}}`, found {kind_of(node)}")
    kinds = [(k, v) for k, v in node.value if k.value in CLAIM_KINDS]
    others = [(k, v) for k, v in node.value if k.value not in CLAIM_KINDS]
    of_node = None
    for k, v in others:
        if k.value == "of":
            of_node = v
            continue
        return r.error(k, child_path(path, k.value), f"unknown claim kind {k.value!r}", suggest(k.value, list(CLAIM_KINDS)) or f"kinds: {', '.join(CLAIM_KINDS)}")
    if len(kinds) != 1:
        what = "no claim kind" if not kinds else "several claim kinds (" + ", ".join(k.value for k, _ in kinds) + ")"
        return r.error(node, path, f"a claim needs exactly one kind; found {what}", f"kinds: {', '.join(CLAIM_KINDS)}")
    knode, vnode = kinds[0]
    kind = knode.value
    spec, make, _doc = CLAIM_KINDS[kind]
    kpath = child_path(path, kind)
    if isinstance(vnode, yaml.ScalarNode) and vnode.value in ("", "~", "null"):
        fields = r.fields(yaml.MappingNode("tag:yaml.org,2002:map", [], vnode.start_mark, vnode.end_mark), kpath, spec, f"`{kind}`")
    else:
        fields = r.fields(vnode, kpath, spec, f"`{kind}`")
    if fields is INVALID:
        return INVALID
    of = fields.get("of")
    if of is None and of_node is not None:
        of = r.label(of_node, child_path(path, "of"), "a mechanism name")
    of = of or default_of
    bad = False
    for fname, fval, fnode_path in [("of", of, child_path(kpath, "of"))] + [
        (k, fields[k], child_path(kpath, k)) for k in spec if k in _NAME_FIELDS and fields.get(k)
    ]:
        # `of` may also be a list of names (claims about several mechanisms, e.g. composition)
        for one in fval if isinstance(fval, tuple) else (fval,):
            if mechanisms is not None and one is not INVALID and one not in mechanisms:
                r.error(node, fnode_path, f"no mechanism named {one!r}", suggest(str(one), sorted(mechanisms)) or f"defined: {', '.join(sorted(mechanisms))}")
                bad = True
    if bad:
        return INVALID
    line, _ = mark_of(node)
    where = Where(r.file, line, path)
    return make(fields, of, where, r, vnode, kpath)
