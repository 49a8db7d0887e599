"""Case-file forms for classic finite-support mechanisms (:mod:`exactdp.builders.classic`).

* ``krr: {eps, values: [a, b, ...], data: {dataset: value}}`` — k-ary randomized response.
* ``truncated_geometric: {eps | alpha, n, counts: {dataset: count}, truncation?}`` — the
  Ghosh–Roughgarden–Sundararajan mechanism on counts 0..n (``truncation: renormalize`` is the
  common mistake, kept to show that it fails).
* ``report_noisy_max: {values: {dataset: [v, ...] | {output: v}}, outputs?, noise}`` —
  report-noisy-max with finite noise, ties to the first output.

A **noise** is ``{geometric: {eps: e | alpha: a, width: w?, truncation: clamp|renormalize}}``
(two-sided geometric Pr[z] ∝ α^{|z|}, α = e^{−eps}; without ``width`` the support is infinite,
which only ``svt`` accepts) or ``{pmf: {z: p, ...}}`` (a finite distribution on the integers).
"""

from __future__ import annotations

from typing import Any

import yaml

from ..builders.classic import (
    TRUNCATIONS,
    discrete_laplace,
    finite_noise,
    geometric_noise,
    krr,
    report_noisy_max,
    truncated_geometric,
)
from ..numbers.rational import q_str
from .context import INVALID, NUMBER, Field, Reader, child_path, schema_object, suggest
from .forms import MechanismReader, register_form
from .forms_exponential import read_scores
from .yamlsafe import is_null, kind_of

__all__ = ["read_noise", "read_alpha"]


NOISE_SCHEMA = {
    "description": "a noise distribution: {geometric: {eps | alpha, width?, truncation?}} or {pmf: {z: p}} (or none)",
    "oneOf": [
        {"enum": ["none", None]},
        {
            "type": "object",
            "properties": {
                "geometric": schema_object(
                    {"eps": NUMBER, "alpha": NUMBER, "width": NUMBER, "truncation": {"type": "string"}}
                ),
                "pmf": {"type": "object", "additionalProperties": NUMBER},
            },
            "minProperties": 1,
            "maxProperties": 1,
            "additionalProperties": False,
        },
    ],
}


def read_alpha(r: Reader, node: yaml.Node, path: str, f: dict, form: str) -> Any:
    """α from exactly one of ``eps:`` (α = e^{−eps}, e^eps rational) or ``alpha:``."""
    if (f.get("eps") is None) == (f.get("alpha") is None):
        return r.error(node, path, f"{form} needs exactly one of `eps:` (alpha = e^-eps) or `alpha:`")
    if f.get("alpha") is not None:
        a = f["alpha"]
        if not (0 < a < 1):
            return r.error(node, path, f"{form}: alpha must lie strictly between 0 and 1, found {q_str(a)}")
        return a
    enode = next(v for k, v in node.value if k.value == "eps")
    E = r.exp_eps_strictly_rational(enode, child_path(path, "eps"), f["eps"], form)
    if E is INVALID:
        return INVALID
    if E == 1:
        return r.error(enode, child_path(path, "eps"), f"{form}: eps must be positive (alpha = e^-eps < 1)")
    return 1 / E


def _truncation(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.choice(node, path, "truncation", TRUNCATIONS)


def read_noise(r: Reader, node: yaml.Node, path: str, *, allow_infinite: bool, allow_none: bool = False, what: str = "noise") -> Any:
    """A noise distribution (see the module docstring); ``none`` when ``allow_none``."""
    if allow_none and isinstance(node, yaml.ScalarNode) and (is_null(node) or node.value == "none"):
        return None
    if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
        return r.error(
            node,
            path,
            f"{what} is `{{geometric: {{eps: .., width: ..}}}}` or `{{pmf: {{z: p}}}}`"
            + (" or `none`" if allow_none else "")
            + f", found {kind_of(node)}",
        )
    knode, vnode = node.value[0]
    kind = knode.value
    p = child_path(path, kind)
    if kind == "pmf":
        items = r.mapping(vnode, p, "pmf")
        if items is INVALID:
            return INVALID
        pmf: dict[int, Any] = {}
        for z, zk, pv in items:
            zz = r.count(zk, child_path(p, z), "a noise value", -(10**6), 10**6)
            pr = r.probability(pv, child_path(p, z))
            if zz is INVALID or pr is INVALID:
                continue
            pmf[zz] = pr
        if len(pmf) != len(items):
            return INVALID
        return r.guard(lambda: finite_noise(pmf), vnode, p)
    if kind == "geometric":
        f = r.fields(
            vnode,
            p,
            {
                "eps": Field(lambda r_, n, pp: r_.eps(n, pp)),
                "alpha": Field(lambda r_, n, pp: r_.rational(n, pp, "alpha")),
                "width": Field(lambda r_, n, pp: r_.count(n, pp, "width", 0, 10_000)),
                "truncation": Field(_truncation, default="clamp"),
            },
            "geometric noise",
        )
        if f is INVALID:
            return INVALID
        a = read_alpha(r, vnode, p, f, "geometric noise")
        if a is INVALID:
            return INVALID
        if f["width"] is None:
            if not allow_infinite:
                return r.error(vnode, p, "this mechanism needs finite noise: give `width:` (the support is [-width, width])")
            return r.guard(lambda: discrete_laplace(alpha=a), vnode, p)
        return r.guard(lambda: geometric_noise(alpha=a, width=f["width"], truncation=f["truncation"]), vnode, p)
    return r.error(knode, p, f"unknown noise {kind!r}", suggest(kind, ["geometric", "pmf"]) or "use geometric or pmf")


def _dataset_map(mr: MechanismReader, node: yaml.Node, path: str, what: str, read) -> Any:
    r = mr.r
    items = r.mapping(node, path, what)
    if items is INVALID:
        return INVALID
    out: dict[str, Any] = {}
    for d, knode, v in items:
        if d not in mr.datasets:
            r.error(knode, child_path(path, d), f"unknown dataset {d!r}", suggest(d, mr.datasets) or f"datasets: {', '.join(mr.datasets)}")
            continue
        out[d] = read(v, child_path(path, d))
    missing = [d for d in mr.datasets if d not in out]
    if missing and len(out) == len(items):
        return r.error(node, path, f"no entry for dataset(s) {', '.join(missing)}", f"{what} must cover every dataset")
    if len(out) != len(items) or missing or any(v is INVALID for v in out.values()):
        return INVALID
    return out


@register_form(
    "krr",
    "k-ary randomized response: the true value w.p. e^eps/(e^eps + k - 1)",
    schema_object({"eps": NUMBER, "values": {"type": "array"}, "data": {"type": "object"}}, ("eps", "values", "data")),
)
def _krr(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "eps": Field(lambda r_, n, p: r_.eps(n, p), required=True, doc="e.g. eps: log(3)"),
            "values": Field(lambda r_, n, p: n, required=True, doc="the k possible values"),
            "data": Field(lambda r_, n, p: n, required=True, doc="{dataset: its value}"),
        },
        "krr",
    )
    if f is INVALID:
        return INVALID
    items = r.sequence(f["values"], child_path(path, "values"), "values")
    if items is INVALID:
        return INVALID
    values: list[Any] = [r.label(v, child_path(path, f"values[{i}]"), "a value") for i, v in enumerate(items)]
    data = _dataset_map(mr, f["data"], child_path(path, "data"), "data", lambda n, p: r.label(n, p, "a value"))
    if data is INVALID or any(v is INVALID for v in values):
        return INVALID
    for d, v in data.items():
        if v not in values:
            return r.error(f["data"], child_path(path, f"data.{d}"), f"{d} holds {v!r}, which is not among the values", suggest(v, values))
    enode = next(v for k, v in node.value if k.value == "eps")
    E = r.exp_eps_strictly_rational(enode, child_path(path, "eps"), f["eps"], "krr")
    if E is INVALID:
        return INVALID
    return r.guard(lambda: krr(exp_eps=E, values=values, data=data, datasets=mr.datasets, adjacent=mr.adjacent, name=name), node, path)


@register_form(
    "truncated_geometric",
    "the truncated alpha-geometric mechanism on counts 0..n (Ghosh-Roughgarden-Sundararajan)",
    schema_object(
        {"eps": NUMBER, "alpha": NUMBER, "n": NUMBER, "counts": {"type": "object"}, "truncation": {"type": "string"}},
        ("n", "counts"),
    ),
)
def _tgeo(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "eps": Field(lambda r_, n, p: r_.eps(n, p), doc="alpha = e^-eps"),
            "alpha": Field(lambda r_, n, p: r_.rational(n, p, "alpha")),
            "n": Field(lambda r_, n, p: r_.count(n, p, "n", 1, 10_000), required=True, doc="outputs 0..n"),
            "counts": Field(lambda r_, n, p: n, required=True, doc="{dataset: count}"),
            "truncation": Field(_truncation, default="clamp"),
        },
        "truncated_geometric",
    )
    if f is INVALID:
        return INVALID
    a = read_alpha(r, node, path, f, "truncated_geometric")
    counts = _dataset_map(mr, f["counts"], child_path(path, "counts"), "counts", lambda n, p: r.count(n, p, "a count", 0, f["n"]))
    if a is INVALID or counts is INVALID:
        return INVALID
    return r.guard(
        lambda: truncated_geometric(alpha=a, n=f["n"], counts=counts, truncation=f["truncation"], datasets=mr.datasets, adjacent=mr.adjacent, name=name),
        node,
        path,
    )


@register_form(
    "report_noisy_max",
    "report-noisy-max with finite i.i.d. noise (ties: first output)",
    schema_object({"values": {"type": "object"}, "outputs": {"type": "array"}, "noise": NOISE_SCHEMA}, ("values", "noise")),
)
def _rnm(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "values": Field(lambda r_, n, p: n, required=True, doc="{dataset: [value per query]}"),
            "outputs": Field(lambda r_, n, p: n),
            "noise": Field(lambda r_, n, p: read_noise(r_, n, p, allow_infinite=False), required=True),
        },
        "report_noisy_max",
    )
    if f is INVALID:
        return INVALID
    outputs: list[Any] | None = None
    if f["outputs"] is not None:
        items = r.sequence(f["outputs"], child_path(path, "outputs"), "outputs")
        if items is INVALID:
            return INVALID
        outputs = [r.label(v, child_path(path, f"outputs[{i}]"), "an output") for i, v in enumerate(items)]
        if any(o is INVALID for o in outputs):
            return INVALID
    got = read_scores(mr, f["values"], child_path(path, "values"), outputs, what="values")
    if got is INVALID:
        return INVALID
    labels, rows = got
    return r.guard(
        lambda: report_noisy_max(rows, f["noise"], outputs=labels, datasets=mr.datasets, adjacent=mr.adjacent, name=name), node, path
    )

