"""Reading the ``composition`` claim (issue 4; documented in docs/composition.md)."""

from __future__ import annotations

from typing import Any

import yaml

from ..claims.beyond import FDPCompositionClaim, RenyiCompositionClaim
from ..claims.composition import COMPOSITION_THEOREMS, CompositionClaim
from ..claims.base import Where
from .claims import register_claim
from .context import Field, INVALID, NAME, NUMBER, Reader, child_path

__all__ = ["read_names", "read_theorem"]


def read_names(r: Reader, node: yaml.Node, path: str) -> Any:
    """A list of mechanism names (at least one)."""
    items = r.sequence(node, path, "`of:` (a list of mechanism names)")
    if items is INVALID:
        return INVALID
    if not items:
        return r.error(node, path, "`of:` needs at least one mechanism name")
    names = [r.label(it, child_path(path, i), "a mechanism name") for i, it in enumerate(items)]
    return INVALID if any(n is INVALID for n in names) else tuple(names)


def read_theorem(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.choice(node, path, "theorem", COMPOSITION_THEOREMS)


def _read_alpha(r: Reader, node: yaml.Node, path: str) -> Any:
    from .claims_beyond import read_alpha

    return read_alpha(r, node, path)


def _list_of(reader, what: str):
    def read(r: Reader, node: yaml.Node, path: str) -> Any:
        vals = r.list_of(node, path, f"{what} (one value per component)", lambda n, p: reader(r, n, p))
        return vals if vals is INVALID else tuple(vals)

    return read


@register_claim(
    "composition",
    {
        "of": Field(read_names, required=True, doc="the components, e.g. of: [A, B]", schema={"type": "array", "items": NAME}),
        "theorem": Field(read_theorem, default="optimal", doc="basic, improved-basic, thm-1.8, optimal, renyi or fdp", schema={"enum": list(COMPOSITION_THEOREMS)}),
        "alpha": Field(_read_alpha, doc="the Renyi order (theorem: renyi only)", schema={"anyOf": [NUMBER, {"const": "inf"}]}),
        "delta": Field(lambda r, n, p: r.delta(n, p), doc="the delta of the composition (default: the theorem's)", schema=NUMBER),
        "eps": Field(_list_of(lambda r, n, p: r.eps(n, p), "eps"), doc="claimed eps_i (default: PrivLoss of each)", schema={"type": "array", "items": NUMBER}),
        "deltas": Field(_list_of(lambda r, n, p: r.delta(n, p), "deltas"), doc="delta_i of each component (default 0)", schema={"type": "array", "items": NUMBER}),
    },
    "PrivLoss of concomp of the components is at most what the composition theorem gives",
)
def _composition(f: dict, of: Any, where: Where, r: Reader, node: yaml.Node, path: str) -> Any:
    theorem = f["theorem"]
    if (f["alpha"] is not None) != (theorem == "renyi"):
        return r.error(node, path, "`alpha:` goes with `theorem: renyi` (and it needs one)", "for example: theorem: renyi, alpha: 2")
    if theorem in ("renyi", "fdp"):
        extra = [k for k in ("delta", "eps", "deltas") if f[k] is not None]
        if extra:
            return r.error(node, path, f"`{extra[0]}:` does not apply to theorem: {theorem}")
        if theorem == "renyi":
            return RenyiCompositionClaim(of=of, where=where, alpha=f["alpha"])
        return FDPCompositionClaim(of=of, where=where)
    n = len(of)
    for key in ("eps", "deltas"):
        if f[key] is not None and len(f[key]) != n:
            return r.error(node, child_path(path, key), f"`{key}:` has {len(f[key])} values for {n} components", "give one value per mechanism in `of:`")
    return CompositionClaim(of=of, where=where, theorem=f["theorem"], delta=f["delta"], eps=f["eps"], deltas=f["deltas"])
