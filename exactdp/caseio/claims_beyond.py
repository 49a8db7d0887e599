"""Case-file readers for the claims beyond (ε, δ) (:mod:`exactdp.claims.beyond`).

```yaml
claims:
  - renyi: {alpha: 2, equals: log(7/3)}
  - renyi: {alpha: 3, at_most: log(61/9)/2, of: K}
  - fdp: {f: R}
  - gdp: {mu: 1.35}
  - renyi: {alpha: 3, exceeds: log(3)/2}     # refutes (3, log(3)/2)-RDP
  - not_fdp: {f: M, of: R}
  - not_gdp: {mu: 1.34}
```

``composition: {..., theorem: renyi | fdp}`` is read with the other composition theorems
(:mod:`exactdp.caseio.claims_composition`).
"""

from __future__ import annotations

from typing import Any

import yaml

from ..analysis.renyi import parse_alpha
from ..claims.base import Where
from ..claims.beyond import FDPClaim, GDPClaim, NotFDPClaim, NotGDPClaim, RenyiClaim
from ..errors import ExactDPError
from ..numbers.real import ExpReal, Infinity, is_real
from ..numbers.symbolic import is_sym
from .claims import _name, register_claim
from .context import INVALID, NAME, NUMBER, Field, Reader

__all__ = ["read_alpha", "read_divergence"]


def read_alpha(r: Reader, node: yaml.Node, path: str) -> Any:
    """The order α: a whole number >= 1 (1 is KL) or ``inf``."""
    v = r.value(node, path, "alpha")
    if v is INVALID:
        return INVALID
    if is_sym(v) or not (isinstance(v, Infinity) or is_real(v)):
        return r.error(node, path, "alpha must be a whole number >= 1 or inf", "for example alpha: 2")
    try:
        return parse_alpha(v)
    except ExactDPError as e:
        return r.error(node, path, str(e), "for example alpha: 2, alpha: 3 or alpha: inf")


def read_divergence(r: Reader, node: yaml.Node, path: str) -> Any:
    """A claimed divergence: any exact real such as ``log(7/3)``, ``log(61/9)/2``,
    ``k*log(3)/5``, a rational, or ``inf``."""
    v = r.value(node, path, "a Renyi divergence")
    if v is INVALID:
        return INVALID
    if is_sym(v) or isinstance(v, ExpReal) or not (isinstance(v, Infinity) or is_real(v)):
        return r.error(
            node, path, "a Renyi divergence is written like log(7/3), log(61/9)/2 or inf",
            "D_alpha = log(sum)/(alpha - 1); write the sum's log divided by alpha - 1",
        )
    return v


_OF = Field(_name, default=None, schema=NAME)


def _div() -> Field:
    return Field(read_divergence, doc="log(r)/k, a rational, or inf", schema=NUMBER)



@register_claim(
    "renyi",
    {
        "alpha": Field(read_alpha, required=True, doc="a whole number >= 1 (1 is KL) or inf", schema={"anyOf": [NUMBER, {"const": "inf"}]}),
        "equals": _div(),
        "at_most": _div(),
        "exceeds": _div(),
        "of": _OF,
    },
    "D_alpha(M), the Renyi divergence of order alpha against every adaptive adversary, equals (is at most, exceeds) the value",
)
def _renyi(f: dict, of: str, where: Where, r: Reader, node: yaml.Node, path: str) -> Any:
    if sum(f[k] is not None for k in ("equals", "at_most", "exceeds")) != 1:
        return r.error(node, path, "renyi needs exactly one of `equals:`, `at_most:` or `exceeds:`")
    return RenyiClaim(of=of, where=where, alpha=f["alpha"], equals=f["equals"], at_most=f["at_most"], exceeds=f["exceeds"])


@register_claim(
    "fdp",
    {"f": Field(_name, required=True, doc="the mechanism whose trade-off function is f", schema=NAME), "of": _OF},
    "M is f-DP for f = T(R): T(M) >= T(R) pointwise (equivalently, delta_M <= delta_R for every lambda >= 0)",
)
def _fdp(f: dict, of: str, where: Where, *_a) -> Any:
    return FDPClaim(of=of, where=where, f=f["f"])


@register_claim(
    "not_fdp",
    {"f": Field(_name, required=True, doc="the mechanism whose trade-off function is f", schema=NAME), "of": _OF},
    "M is not T(R)-DP: at some alpha, T(M)(alpha) < T(R)(alpha)",
)
def _not_fdp(f: dict, of: str, where: Where, *_a) -> Any:
    return NotFDPClaim(of=of, where=where, f=f["f"])


@register_claim(
    "gdp",
    {"mu": Field(lambda r, n, p: r.rational(n, p, "mu", 0), required=True, doc="e.g. mu: 1.35", schema=NUMBER), "of": _OF},
    "M is mu-GDP: T(M) >= G_mu for every ordered adjacent pair (certified intervals)",
)
def _gdp(f: dict, of: str, where: Where, *_a) -> Any:
    return GDPClaim(of=of, where=where, mu=f["mu"])


@register_claim(
    "not_gdp",
    {"mu": Field(lambda r, n, p: r.rational(n, p, "mu", 0), required=True, doc="e.g. mu: 1.34", schema=NUMBER), "of": _OF},
    "M is not mu-GDP: a vertex of T(M) lies below G_mu (certified intervals)",
)
def _not_gdp(f: dict, of: str, where: Where, *_a) -> Any:
    return NotGDPClaim(of=of, where=where, mu=f["mu"])
