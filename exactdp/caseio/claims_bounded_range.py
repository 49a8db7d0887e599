"""Case-file readers for the bounded-range claims (:mod:`exactdp.claims.bounded_range`).

For example::

    claims:
      - bounded_range: {eps: log(16)}                       # M is ln16-BR (DDR Def. 2.2)
      - not_bounded_range: {eps: log(16), of: Mix}          # with two views as witness
      - br_range: {equals: log(64), of: Mix}                # the exact BR-range
      - bounded_range: {eps: log(16), adversaries: randomized}
"""

from __future__ import annotations

from typing import Any

import yaml

from ..analysis.bounded_range import ADVERSARIES
from ..claims.base import Where
from ..claims.bounded_range import BoundedRangeClaim, BRRangeClaim, NotBoundedRangeClaim
from .claims import _name, register_claim
from .context import NAME, NUMBER, Field, Reader

__all__: list[str] = []


def _adversaries(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.choice(node, path, "adversaries", ADVERSARIES)


_EPS = Field(lambda r, n, p: r.eps(n, p), required=True, doc="e.g. eps: log(16)", schema=NUMBER)
_ADV = Field(_adversaries, default="deterministic", doc="deterministic (default) or randomized", schema={"enum": list(ADVERSARIES)})
_OF = Field(_name, default=None, schema=NAME)


@register_claim("bounded_range", {"eps": _EPS, "adversaries": _ADV, "of": _OF}, "M is eps-BR (DDR Def. 2.2)")
def _bounded_range(f: dict, of: str, where: Where, *_a) -> Any:
    return BoundedRangeClaim(of=of, where=where, eps=f["eps"], adversaries=f["adversaries"])


@register_claim(
    "not_bounded_range",
    {"eps": _EPS, "adversaries": _ADV, "of": _OF},
    "M is not eps-BR; the report shows two views whose losses differ by more than eps",
)
def _not_bounded_range(f: dict, of: str, where: Where, *_a) -> Any:
    return NotBoundedRangeClaim(of=of, where=where, eps=f["eps"], adversaries=f["adversaries"])


@register_claim(
    "br_range",
    {
        "equals": Field(lambda r, n, p: r.privloss_value(n, p), required=True, doc="log(r), 0 or inf", schema=NUMBER),
        "adversaries": _ADV,
        "of": _OF,
    },
    "the BR-range max L - min L equals the given value",
)
def _br_range(f: dict, of: str, where: Where, *_a) -> Any:
    return BRRangeClaim(of=of, where=where, equals=f["equals"], adversaries=f["adversaries"])
