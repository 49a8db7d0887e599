"""Case-file forms for exponential and bounded-range mechanisms (Dong–Durfee–Rogers 2020).

* ``exponential: {eps, scores, outputs?, mode?, sensitivity?, range?}`` — the exponential
  mechanism (DDR Def. 2.3) with exact weights; see :mod:`exactdp.builders.exponential`.
  ``scores`` maps every dataset to its scores: a map ``{output: score}`` (the same outputs for
  every dataset) or a list (one score per output, in the order of ``outputs:``, whose default
  is ``0, 1, ...``).
* ``grr: {eps, t, bits?}`` — generalized randomized response RR_{ε,t} (DDR Def. 2.4).
* ``grr_menu: {eps, t: [..] | u: [..], symmetric?, bits?}`` — the adversary picks one RR_{ε,t};
  ``symmetric: true`` adds e^t ↦ e^ε/e^t so that both orders of the pair face the same menu.
* ``nonadaptive: {menu, rounds}`` — ``choose`` of ``compose`` over the menu's items (DDR Alg. 1,
  the non-adaptive class); the adaptive game is ``repeat: {mechanism: menu, times: rounds}``.

Every ε inside these forms must make the weights rational: write ``eps: log(16)``, not
``eps: 2.77``; a transcendental weight is refused with a located message.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..builders.exponential import MODES, exponential, grr, grr_menu, nonadaptive
from ..builders.rr import default_bits
from ..numbers.rational import Q, q_str
from .context import INVALID, NUMBER, Field, Reader, child_path, schema_object, suggest
from .forms import MechanismReader, _bits, register_form
from .yamlsafe import kind_of

__all__ = ["read_scores", "read_bool"]


def _exp_rational(r: Reader, node: yaml.Node, path: str, key: str, form: str) -> Any:
    """e^value for the ε-type field ``key`` of a mapping form (rational, else a located error)."""
    vnode = next((v for k, v in node.value if k.value == key), None)
    val = r.eps(vnode, child_path(path, key))
    if val is INVALID:
        return INVALID
    return r.exp_eps_strictly_rational(vnode, child_path(path, key), val, form)


def read_scores(mr: MechanismReader, node: yaml.Node, path: str, outputs: list[str] | None, *, what: str = "scores") -> Any:
    """``{dataset: {output: score} | [score, ...]}`` → (output labels, scores[d][k])."""
    r = mr.r
    items = r.mapping(node, path, f"{what} (a map from every dataset to its {what})")
    if items is INVALID:
        return INVALID
    per: dict[str, tuple[list[str] | None, list[Any]]] = {}
    bad = False
    for dname, knode, vnode in items:
        p = child_path(path, dname)
        if dname not in mr.datasets:
            r.error(knode, p, f"unknown dataset {dname!r}", suggest(dname, mr.datasets) or f"datasets: {', '.join(mr.datasets)}")
            bad = True
            continue
        if isinstance(vnode, yaml.MappingNode):
            keys: list[Any] = []
            vals: list[Any] = []
            for k2, v2 in vnode.value:
                keys.append(k2.value)
                vals.append(r.rational(v2, child_path(p, k2.value), f"a value in {what}"))
            per[dname] = (keys, vals)
        elif isinstance(vnode, yaml.SequenceNode):
            per[dname] = (None, [r.rational(v2, child_path(p, i), f"a value in {what}") for i, v2 in enumerate(vnode.value)])
        else:
            r.error(vnode, p, f"the {what} of a dataset are a map {{output: value}} or a list, found {kind_of(vnode)}")
            bad = True
    missing = [d for d in mr.datasets if d not in per and not bad]
    if missing:
        return r.error(node, path, f"no {what} for dataset(s) {', '.join(missing)}", f"give the {what} of every dataset")
    if bad or any(v is INVALID for _, vals in per.values() for v in vals):
        return INVALID
    labels: list[Any] | None = outputs
    for dname in mr.datasets:
        labs, vals = per[dname]
        if labs is not None:
            if labels is None:
                labels = labs
            elif sorted(labs) != sorted(labels):
                return r.error(
                    node,
                    child_path(path, dname),
                    f"the outputs of {dname} ({', '.join(labs)}) differ from {', '.join(labels)}",
                    "every dataset scores the same outputs",
                )
    if labels is None:
        n = len(per[mr.datasets[0]][1])
        labels = [str(i) for i in range(n)]
    rows: list[list[Any]] = []
    for dname in mr.datasets:
        labs, vals = per[dname]
        if labs is not None:
            by = dict(zip(labs, vals))
            rows.append([by[lab] for lab in labels])
        else:
            if len(vals) != len(labels):
                return r.error(
                    node,
                    child_path(path, dname),
                    f"{dname} has {len(vals)} {what} but there are {len(labels)} outputs ({', '.join(labels)})",
                )
            rows.append(vals)
    if len(set(labels)) != len(labels):
        return r.error(node, path, "an output is listed twice")
    return labels, rows


def _labels(r: Reader, node: yaml.Node, path: str) -> Any:
    items = r.sequence(node, path, "outputs")
    if items is INVALID:
        return INVALID
    labs = [r.label(v, child_path(path, i), "an output label") for i, v in enumerate(items)]
    return INVALID if any(v is INVALID for v in labs) else labs


def _mode(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.choice(node, path, "mode", MODES)


def _positive(r: Reader, node: yaml.Node, path: str, what: str) -> Any:
    v = r.rational(node, path, what, Q(0))
    if v is not INVALID and v == 0:
        return r.error(node, path, f"{what} must be positive, found 0")
    return v


@register_form(
    "exponential",
    "the exponential mechanism (DDR Def. 2.3) over a finite output range, exact weights",
    schema_object(
        {
            "eps": NUMBER,
            "scores": {"type": "object", "additionalProperties": {"type": ["object", "array"]}},
            "outputs": {"type": "array"},
            "mode": {"enum": ["sensitivity", "monotone", "range"]},
            "sensitivity": NUMBER,
            "range": NUMBER,
        },
        ("eps", "scores"),
    ),
)
def _exponential(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "eps": Field(lambda r_, n, p: r_.eps(n, p), required=True, doc="e.g. eps: log(16)"),
            "scores": Field(lambda r_, n, p: n, required=True, doc="{dataset: {output: score}} or {dataset: [score, ...]}"),
            "outputs": Field(_labels),
            "mode": Field(_mode, default="sensitivity"),
            "sensitivity": Field(lambda r_, n, p: _positive(r_, n, p, "sensitivity")),
            "range": Field(lambda r_, n, p: _positive(r_, n, p, "range")),
        },
        "exponential",
    )
    if f is INVALID:
        return INVALID
    E = _exp_rational(r, node, path, "eps", "exponential")
    if E is INVALID:
        return INVALID
    got = read_scores(mr, f["scores"], child_path(path, "scores"), f["outputs"])
    if got is INVALID:
        return INVALID
    labels, rows = got
    return r.guard(
        lambda: exponential(
            rows,
            exp_eps=E,
            outputs=labels,
            datasets=mr.datasets,
            adjacent=mr.adjacent,
            mode=f["mode"],
            sensitivity=f["sensitivity"],
            range_=f["range"],
            name=name,
        ),
        node,
        path,
    )


@register_form(
    "grr",
    "generalized randomized response RR_(eps,t) (DDR Def. 2.4): losses t and t - eps",
    schema_object({"eps": NUMBER, "t": NUMBER, "bits": {"type": "object"}}, ("eps", "t")),
)
def _grr(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "eps": Field(lambda r_, n, p: r_.eps(n, p), required=True, doc="e.g. eps: log(16)"),
            "t": Field(lambda r_, n, p: r_.eps(n, p), required=True, doc="0 <= t <= eps, e.g. t: log(4)"),
            "bits": Field(lambda r_, n, p: _bits(mr, n, p)),
        },
        "grr",
    )
    if f is INVALID:
        return INVALID
    B = _exp_rational(r, node, path, "eps", "grr")
    u = _exp_rational(r, node, path, "t", "grr")
    if B is INVALID or u is INVALID:
        return INVALID
    return r.guard(
        lambda: grr(exp_eps=B, exp_t=u, datasets=mr.datasets, adjacent=mr.adjacent, bits=default_bits(mr.datasets, mr.adjacent, f["bits"]), name=name),
        node,
        path,
    )


def _eps_list(r: Reader, node: yaml.Node, path: str) -> Any:
    def item(v: yaml.Node, p: str) -> Any:
        val = r.eps(v, p)
        return INVALID if val is INVALID else r.exp_eps_strictly_rational(v, p, val, "grr_menu")

    return r.list_of(node, path, "t (a list of eps-type values)", item)


def _rat_list(r: Reader, node: yaml.Node, path: str) -> Any:
    return r.list_of(node, path, "u (a list of e^t values)", lambda v, p: r.rational(v, p, "e^t", Q(1)))


def read_bool(r: Reader, node: yaml.Node, path: str) -> Any:
    t = r.label(node, path, "true or false")
    if t is INVALID:
        return INVALID
    if t.lower() not in ("true", "false"):
        return r.error(node, path, f"expected true or false, found {t!r}")
    return t.lower() == "true"


@register_form(
    "grr_menu",
    "the adversary picks one RR_(eps,t) from a finite menu of t (or u = e^t)",
    schema_object(
        {
            "eps": NUMBER,
            "t": {"type": "array", "items": NUMBER},
            "u": {"type": "array", "items": NUMBER},
            "symmetric": {"type": ["boolean", "string"]},
            "bits": {"type": "object"},
        },
        ("eps",),
    ),
)
def _grr_menu(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "eps": Field(lambda r_, n, p: r_.eps(n, p), required=True, doc="e.g. eps: log(16)"),
            "t": Field(_eps_list, doc="a list such as [log(2), log(4)]"),
            "u": Field(_rat_list, doc="a list of e^t values such as [2, 5/2, 4]"),
            "symmetric": Field(read_bool, default=False),
            "bits": Field(lambda r_, n, p: _bits(mr, n, p)),
        },
        "grr_menu",
    )
    if f is INVALID:
        return INVALID
    if (f["t"] is None) == (f["u"] is None):
        return r.error(node, path, "grr_menu needs exactly one of `t:` (a list of t) or `u:` (a list of e^t)")
    B = _exp_rational(r, node, path, "eps", "grr_menu")
    if B is INVALID:
        return INVALID
    us = list(f["t"] if f["t"] is not None else f["u"])
    key = "t" if f["t"] is not None else "u"
    dup = next((u for i, u in enumerate(us) if u in us[:i]), None)
    if dup is not None:
        return r.error(node, child_path(path, key), f"grr_menu: e^t = {q_str(dup)} is listed twice")
    if f["symmetric"]:
        us = us + [B / u for u in us if B / u not in us]
    seen = sorted(set(us))
    bad = [u for u in seen if u > B]
    if bad:
        return r.error(node, path, f"grr_menu: e^t = {q_str(bad[0])} exceeds e^eps = {q_str(B)}", "each t must lie in [0, eps]")
    return r.guard(
        lambda: grr_menu(exp_eps=B, exp_ts=seen, datasets=mr.datasets, adjacent=mr.adjacent, bits=default_bits(mr.datasets, mr.adjacent, f["bits"]), name=name),
        node,
        path,
    )


@register_form(
    "nonadaptive",
    "choose of compose: the adversary fixes a sequence of menu items up front (DDR Alg. 1)",
    schema_object({"menu": {"$ref": "#/$defs/mechanism"}, "rounds": NUMBER}, ("menu", "rounds")),
)
def _nonadaptive(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "menu": Field(lambda r_, n, p: mr.mechanism(n, p), required=True, doc="a choose or grr_menu"),
            "rounds": Field(lambda r_, n, p: r_.count(n, p, "rounds", 1, 64), required=True),
        },
        "nonadaptive",
    )
    if f is INVALID:
        return INVALID
    return r.guard(lambda: nonadaptive(f["menu"], f["rounds"], name=name), node, path)
