"""Readers of the ``simulates_rr`` and ``not_simulates_rr`` claims.

``simulates_rr: {eps: e, delta: d, via: auto|lp|lemma56}`` — every field optional: ``eps``
defaults to PrivLoss(M, d), ``delta`` to 0 (Theorem 1.10 with RR_ε).  ``eps`` and ``delta`` may
be expressions in the case's ``symbols:`` (e.g. ``eps: log(E)``).
"""

from __future__ import annotations

from typing import Any

import yaml

from ..claims import NotSimulatesRRClaim, SimulatesRRClaim, Where
from .claims import register_claim
from .context import Field, Reader

__all__: list[str] = []

VIAS = ("auto", "lp", "lemma56")


def _via(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.choice(node, path, "construction", VIAS)


_NUM = {"$ref": "#/$defs/number"}
_SPEC = {
    "eps": Field(lambda r, n, p: r.eps(n, p, symbolic=True), doc="default: PrivLoss(M, delta)", schema=_NUM),
    "delta": Field(lambda r, n, p: r.delta(n, p, symbolic=True), doc="default 0 (pure)", schema=_NUM),
    "via": Field(_via, default="auto", doc="auto, lp or lemma56", schema={"enum": list(VIAS)}),
    "of": Field(lambda r, n, p: r.label(n, p, "a mechanism name"), default=None, schema={"$ref": "#/$defs/name"}),
}


def _make(cls):
    def make(f: dict, of: str, where: Where, r: Reader, node: yaml.Node, path: str) -> Any:
        if f["via"] == "lemma56" and f["delta"] is None:
            return r.error(node, path, "via: lemma56 is the approximate-DP construction; give delta", "e.g. delta: 1/4")
        return cls(of=of, where=where, eps=f["eps"], delta=f["delta"], via=f["via"], symbols=r.symtab)

    return make


register_claim(
    "simulates_rr", _SPEC, "Theorem 1.10: an interactive post-processing of RR_eps (or RR_(eps,delta)) equals M"
)(_make(SimulatesRRClaim))
register_claim(
    "not_simulates_rr", _SPEC, "no interactive post-processing of RR_eps (or RR_(eps,delta)) equals M; shows a certificate"
)(_make(NotSimulatesRRClaim))
