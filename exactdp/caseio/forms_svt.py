"""Case-file form for the sparse vector technique (:mod:`exactdp.builders.svt`).

```yaml
svt:
  menu: {up: [0, 1], down: [1, 0], low: [0, 0], high: [1, 1]}   # query: value per dataset
  threshold: 0
  horizon: 5                 # queries the adversary may submit
  sensitivity: 1             # checked on the menu (default 1)
  # a published variant (Lyu-Su-Li 2017, Fig. 1) ...
  variant: alg1              # alg1 .. alg6
  eps: log(16)
  c: 1                       # number of `above` answers before halting (default 1)
  width: 6                   # optional: clamp the noise to [-width, width] (finite support)
  release: {lo: -2, hi: 3}   # alg3 only: the released noisy value is clamped to [lo, hi]
  # ... or explicit parameters instead of variant/eps/c/width:
  threshold_noise: {geometric: {eps: log(4)}}          # rho; no width: infinite support
  query_noise: {geometric: {eps: log(2), width: 6}}    # nu, or `none`
  halt_after: 1              # or `never`
  resample: false            # true: draw rho afresh after each `above` (Dwork-Roth 2014)
```

The menu values may also be maps ``{dataset: value}``.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..builders.svt import LYU_VARIANTS, SVT, lyu_variant, sparse_vector
from ..numbers.rational import Q
from .context import INVALID, NUMBER, Field, Reader, child_path, schema_object, suggest
from .forms import MechanismReader, register_form
from .forms_classic import NOISE_SCHEMA, read_noise
from .forms_exponential import _positive, read_bool

__all__: list[str] = []

_PRESET_KEYS = ("variant", "eps", "c", "width")
_EXPLICIT_KEYS = ("threshold_noise", "query_noise", "halt_after", "resample")


def _menu(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    r = mr.r
    items = r.mapping(node, path, "menu (query: value per dataset)")
    if items is INVALID:
        return INVALID
    if not items:
        return r.error(node, path, "the query menu is empty")
    out = []
    for lab, _k, v in items:
        p = child_path(path, lab)
        vals = _values(mr, v, p)
        if vals is INVALID:
            return INVALID
        out.append((lab, vals))
    return tuple(out)


def _values(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    """One rational per dataset: a list in dataset order or a map {dataset: value}."""
    r = mr.r
    if isinstance(node, yaml.SequenceNode):
        if len(node.value) != mr.n:
            return r.error(node, path, f"expected {mr.n} values (one per dataset: {', '.join(mr.datasets)}), found {len(node.value)}")
        vals = [r.rational(v, child_path(path, i), "a query value") for i, v in enumerate(node.value)]
        return INVALID if any(v is INVALID for v in vals) else tuple(vals)
    if isinstance(node, yaml.MappingNode):
        got: dict[str, Any] = {}
        for k, v in node.value:
            if k.value not in mr.datasets:
                return r.error(k, child_path(path, k.value), f"unknown dataset {k.value!r}", suggest(k.value, mr.datasets))
            got[k.value] = r.rational(v, child_path(path, k.value), "a query value")
        missing = [d for d in mr.datasets if d not in got]
        if missing:
            return r.error(node, path, f"no value for dataset(s) {', '.join(missing)}")
        if any(v is INVALID for v in got.values()):
            return INVALID
        return tuple(got[d] for d in mr.datasets)
    return r.error(node, path, "a query's values are a list (one per dataset) or a map {dataset: value}")


def _halt(r: Reader, node: yaml.Node, path: str) -> Any:
    if isinstance(node, yaml.ScalarNode) and node.value == "never":
        return "never"
    return r.count(node, path, "halt_after", 1, 10_000)


def _release(r: Reader, node: yaml.Node, path: str) -> Any:
    f = r.fields(
        node,
        path,
        {
            "lo": Field(lambda r_, n, p: r_.count(n, p, "lo", -(10**6), 10**6), required=True),
            "hi": Field(lambda r_, n, p: r_.count(n, p, "hi", -(10**6), 10**6), required=True),
        },
        "release",
    )
    if f is INVALID:
        return INVALID
    if f["lo"] > f["hi"]:
        return r.error(node, path, f"release: lo = {f['lo']} is larger than hi = {f['hi']}")
    return (f["lo"], f["hi"])


def _variant(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.choice(node, path, "variant", list(LYU_VARIANTS))


@register_form(
    "svt",
    "the sparse vector technique / AboveThreshold and its published variants (Lyu-Su-Li 2017)",
    schema_object(
        {
            "menu": {"type": "object", "minProperties": 1, "additionalProperties": {"type": ["array", "object"]}},
            "threshold": NUMBER,
            "horizon": NUMBER,
            "sensitivity": NUMBER,
            "variant": {"type": "string"},
            "eps": NUMBER,
            "c": NUMBER,
            "width": NUMBER,
            "release": schema_object({"lo": NUMBER, "hi": NUMBER}, ("lo", "hi")),
            "threshold_noise": NOISE_SCHEMA,
            "query_noise": NOISE_SCHEMA,
            "halt_after": {"oneOf": [NUMBER, {"const": "never"}]},
            "resample": {"type": ["boolean", "string"]},
        },
        ("menu", "horizon"),
    ),
)
def _svt(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "menu": Field(lambda r_, n, p: _menu(mr, n, p), required=True, doc="{query: [value per dataset]}"),
            "threshold": Field(lambda r_, n, p: r_.rational(n, p, "threshold"), default=Q(0)),
            "horizon": Field(lambda r_, n, p: r_.count(n, p, "horizon", 1, 64), required=True, doc="how many queries"),
            "sensitivity": Field(lambda r_, n, p: _positive(r_, n, p, "sensitivity"), default=Q(1)),
            "variant": Field(_variant),
            "eps": Field(lambda r_, n, p: r_.eps(n, p)),
            "c": Field(lambda r_, n, p: r_.count(n, p, "c", 1, 64)),
            "width": Field(lambda r_, n, p: r_.count(n, p, "width", 0, 10_000)),
            "release": Field(_release),
            "threshold_noise": Field(lambda r_, n, p: read_noise(r_, n, p, allow_infinite=True, what="threshold_noise")),
            "query_noise": Field(lambda r_, n, p: read_noise(r_, n, p, allow_infinite=True, allow_none=True, what="query_noise")),
            "halt_after": Field(_halt),
            "resample": Field(read_bool),
        },
        "svt",
    )
    if f is INVALID:
        return INVALID
    given = {kn.value for kn, _ in node.value}
    if f["variant"] is not None:
        clash = [k for k in _EXPLICIT_KEYS if k in given]
        if clash:
            return r.error(node, path, f"svt: `variant:` sets the noise and halting; remove `{clash[0]}:`", "or drop `variant:` and give every parameter explicitly")
        if f["eps"] is None:
            return r.error(node, path, "svt: `variant:` needs `eps:` (the privacy budget the variant is calibrated to)")
        enode = next(v for k, v in node.value if k.value == "eps")
        E = r.exp_eps_strictly_rational(enode, child_path(path, "eps"), f["eps"], "svt")
        if E is INVALID:
            return INVALID

        def build() -> Any:
            spec = lyu_variant(
                f["variant"],
                exp_eps=E,
                menu=f["menu"],
                threshold=f["threshold"],
                c=f["c"] or 1,
                horizon=f["horizon"],
                sensitivity=f["sensitivity"],
                width=f["width"],
                release=f["release"],
            )
            return sparse_vector(spec, datasets=mr.datasets, adjacent=mr.adjacent, sensitivity=f["sensitivity"], name=name)

        return r.guard(build, node, path)
    clash = [k for k in _PRESET_KEYS if k in given]
    if clash:
        return r.error(node, path, f"svt: `{clash[0]}:` belongs to the `variant:` form", "give `variant:` too, or use threshold_noise/query_noise")
    if f["threshold_noise"] is None:
        return r.error(node, path, "svt needs `variant:` (with eps) or `threshold_noise:` (with query_noise, halt_after)")
    if "query_noise" not in given:
        return r.error(node, path, "svt needs `query_noise:` (a noise, or `none` for no query noise)")
    halt = f["halt_after"] if f["halt_after"] is not None else 1
    spec = SVT(
        menu=f["menu"],
        threshold=f["threshold"],
        threshold_noise=f["threshold_noise"],
        query_noise=f["query_noise"],
        halt_after=None if halt == "never" else halt,
        horizon=f["horizon"],
        resample_noise=f["threshold_noise"] if f["resample"] else None,
        release=f["release"],
    )
    return r.guard(
        lambda: sparse_vector(spec, datasets=mr.datasets, adjacent=mr.adjacent, sensitivity=f["sensitivity"], name=name), node, path
    )
