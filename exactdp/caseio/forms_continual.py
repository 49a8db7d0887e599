"""Continual mechanisms and their compositions in case files (Henzinger–Safavi–Vadhan §3–5).

.. code-block:: yaml

    mechanisms:
      C:                                   # Cor. 3.8: the game V∘I∘M, worlds = the two datasets
        continual:
          mechanism: {automaton: {...}}    # a dataset-independent automaton over messages
          verifier: {max_differing: 1, max_length: 2}     # or an automaton over pairs:
          # verifier: {states: [a, b], initial: a, transitions: {a: {same: a, differ: b}, b: {same: b}}}
      P:                                   # Def. 5.1 with a cap of 2 creations
        sparse_parallel:
          menu: {Md: {mechanism: C, eps: 0, delta: 1/2}}
          params: [[0, 1/2]]
          cap: 2

Forms: ``continual``, ``concurrent`` (Def. 4.8), ``fixed_params`` (4.10), ``sparse_parallel``
(5.1), ``fpc_parallel`` (5.14), ``budgeted_parallel`` (5.3), ``budgeted`` (5.8),
``mixed_budgeted`` (5.10), ``filter`` (10.2 with the basic filter).  Every menu item's claimed (ε, δ) is checked with the profile
engine before the composition is built (Def. 4.4 (iv)); a false claim is a case error.
Semantics and limits: ``docs/automata-and-continual.md``.
"""

from __future__ import annotations

from typing import Any, Callable

import yaml

from ..analysis import profile as profile_engine
from ..analysis.results import value_cmp, value_str
from ..builders.automaton import AutomatonMechanism
from ..builders.continual import (
    ANY,
    DIFFER,
    SAME,
    Continual,
    ContinualMechanism,
    MenuItem,
    bounded_verifier,
    budgeted,
    budgeted_parallel,
    concurrent,
    continual,
    fixed_params,
    fpc_parallel,
    make_verifier,
    basic_filter,
    mixed_budgeted,
    sparse_parallel,
)
from ..numbers.rational import q_str
from ..numbers.real import real_str
from .context import Field, INVALID, NUMBER, child_path, schema_object, suggest
from .forms import MechanismReader, register_form
from .forms_automaton import read_automaton
from .yamlsafe import is_null, kind_of

__all__ = ["read_verifier", "read_continual_ref", "MAX_CAP"]

MAX_CAP = 50
_BOUNDED_KEYS = ("max_differing", "max_length")
_AUTOMATON_KEYS = ("states", "initial", "transitions")


# --- verifiers -------------------------------------------------------------------------------


def _pair_key(mr: MechanismReader, knode: yaml.Node, path: str, messages: tuple[str, ...]) -> Any:
    r = mr.r
    text = knode.value
    if text in (SAME, DIFFER, ANY):
        return text
    parts = [t.strip() for t in text.split(",")]
    if len(parts) != 2 or not all(parts):
        return r.error(
            knode,
            path,
            f"{text!r} is not a pair of messages",
            "write a pair as `m0,m1` (e.g. `0,1`), or use `same`, `differ` or `any`",
        )
    for m in parts:
        if m not in messages:
            return r.error(knode, path, f"message {m!r} is not a query of the mechanism", suggest(m, messages) or f"queries: {', '.join(messages)}")
    return (parts[0], parts[1])


def read_verifier(mr: MechanismReader, node: yaml.Node, path: str, messages: tuple[str, ...]) -> Any:
    """A verification function: ``{max_differing: k, max_length: n}`` (either optional), or a
    deterministic automaton over pairs ``{states, initial, transitions}``."""
    r = mr.r
    if not isinstance(node, yaml.MappingNode):
        return r.error(
            node,
            path,
            f"a verifier is a mapping, found {kind_of(node)}",
            "e.g. `verifier: {max_differing: 1}` (event-level) or an automaton over pairs",
        )
    keys = [k.value for k, _ in node.value]
    if any(k in _AUTOMATON_KEYS for k in keys):
        f = r.fields(
            node,
            path,
            {
                "states": Field(lambda r_, n, p: r_.sequence(n, p, "states"), required=True),
                "initial": Field(lambda r_, n, p: r_.label(n, p, "the initial state"), required=True),
                "transitions": Field(lambda r_, n, p: n, required=True),
            },
            "a verifier automaton",
        )
        if f is INVALID:
            return INVALID
        states = []
        for i, s in enumerate(f["states"]):
            lab = r.label(s, child_path(child_path(path, "states"), i), "a state")
            if lab is INVALID:
                return INVALID
            states.append(lab)
        ipath = child_path(path, "initial")
        if f["initial"] not in states:
            inode = next(v for k, v in node.value if k.value == "initial")
            return r.error(inode, ipath, f"unknown state {f['initial']!r}", suggest(f["initial"], states) or f"states: {', '.join(states)}")
        tpath = child_path(path, "transitions")
        items = r.mapping(f["transitions"], tpath, "verifier transitions (state -> {pair: next state})")
        if items is INVALID:
            return INVALID
        table: dict[str, dict] = {}
        bad = False
        for s, sk, sv in items:
            sp = child_path(tpath, s)
            if s not in states:
                r.error(sk, sp, f"unknown state {s!r}", suggest(s, states) or f"states: {', '.join(states)}")
                bad = True
                continue
            if is_null(sv):
                table[s] = {}
                continue
            rules = r.mapping(sv, sp, "valid pairs (pair -> next state)")
            if rules is INVALID:
                bad = True
                continue
            row: dict = {}
            for k, kn, v in rules:
                kp = child_path(sp, k)
                key = _pair_key(mr, kn, kp, messages)
                nxt = r.label(v, kp, "a next state")
                if key is INVALID or nxt is INVALID:
                    bad = True
                    continue
                if nxt not in states:
                    r.error(v, kp, f"unknown state {nxt!r}", suggest(nxt, states) or f"states: {', '.join(states)}")
                    bad = True
                    continue
                if key in row:
                    r.error(kn, kp, f"the pair {k!r} is given twice")
                    bad = True
                    continue
                row[key] = nxt
            table[s] = row
        if bad:
            return INVALID
        initial = f["initial"]
        return r.guard(lambda: make_verifier(states, initial, table, messages), node, path)
    f = r.fields(
        node,
        path,
        {
            "max_differing": Field(lambda r_, n, p: r_.count(n, p, "max_differing", 0, 1000), doc="at most this many pairs with m0 != m1"),
            "max_length": Field(lambda r_, n, p: r_.count(n, p, "max_length", 0, 100_000), doc="at most this many pairs"),
        },
        "a verifier (`max_differing`, `max_length`, or an automaton with `states`, `initial`, `transitions`)",
    )
    if f is INVALID:
        return INVALID
    return r.guard(lambda: bounded_verifier(messages, max_differing=f["max_differing"], max_length=f["max_length"]), node, path)


# --- continual ---------------------------------------------------------------------------------


def _cm_automaton(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    """The automaton of a continual mechanism: inline ``{automaton: ...}`` or a name."""
    r = mr.r
    if isinstance(node, yaml.MappingNode) and len(node.value) == 1 and node.value[0][0].value == "automaton":
        return read_automaton(mr, node.value[0][1], child_path(path, "automaton"), shared_only=True)
    m = mr.mechanism(node, path)
    if m is INVALID:
        return INVALID
    if not isinstance(m, AutomatonMechanism) or m.automaton is None:
        return r.error(
            node,
            path,
            "the mechanism of a continual mechanism must be an automaton (a state machine over messages)",
            "write `mechanism: {automaton: {states: ..., initial: ..., horizon: ..., transitions: ...}}`",
        )
    if not m.automaton.dataset_independent:
        return r.error(
            node,
            path,
            f"automaton {m.name!r} depends on the dataset, but a continual mechanism has a single initial state (Def. 3.1)",
            "the two worlds differ only in the messages it receives: give every probability as one value",
        )
    return m.automaton


@register_form(
    "continual",
    "a continual mechanism with its verification function (Cor. 3.8: the game V∘I∘M, worlds = the two datasets)",
    schema_object(
        {
            "mechanism": {"$ref": "#/$defs/mechanism"},
            "verifier": {"type": "object"},
            "first_pair_consistent": {"type": ["boolean", "string"]},
        },
        ("mechanism", "verifier"),
    ),
)
def _continual(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    if not isinstance(node, yaml.MappingNode):
        return r.error(node, path, f"continual must be a mapping with `mechanism:` and `verifier:`, found {kind_of(node)}")
    f = r.fields(
        node,
        path,
        {
            "mechanism": Field(lambda r_, n, p: _cm_automaton(mr, n, p), required=True, doc="an automaton over messages"),
            "verifier": Field(lambda r_, n, p: n, required=True, doc="e.g. {max_differing: 1}"),
            "first_pair_consistent": Field(lambda r_, n, p: _bool(mr, n, p), default=False),
        },
        "continual",
    )
    if f is INVALID:
        return INVALID
    a = f["mechanism"]
    vnode = f["verifier"]
    v = read_verifier(mr, vnode, child_path(path, "verifier"), a.queries)
    if v is INVALID:
        return INVALID

    def build():
        cm = Continual(a, v, f["first_pair_consistent"])
        return continual(cm, datasets=mr.datasets, name=name)

    return r.guard(build, node, path)


def _bool(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    t = mr.r.scalar_text(node, path, "a flag")
    if t is INVALID:
        return INVALID
    if t in ("true", "True", "false", "False"):
        return t.lower() == "true"
    return mr.r.error(node, path, f"expected true or false, found {t!r}")


def read_continual_ref(mr: MechanismReader, node: yaml.Node, path: str, what: str) -> Any:
    """A continual mechanism (a name or an inline ``continual:`` form)."""
    m = mr.mechanism(node, path)
    if m is INVALID:
        return INVALID
    if not isinstance(m, ContinualMechanism) or m.continual is None:
        return mr.r.error(
            node,
            path,
            f"{what} must be a continual mechanism",
            "write `continual: {mechanism: {automaton: ...}, verifier: ...}` (or the name of one)",
        )
    return m


# --- compositions ------------------------------------------------------------------------------


def _menu(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    """{name: {mechanism, eps, delta}} or a list of such (named by their mechanism)."""
    r = mr.r
    if isinstance(node, yaml.MappingNode):
        entries = [(k.value, k, v, child_path(path, k.value)) for k, v in node.value]
    elif isinstance(node, yaml.SequenceNode):
        entries = []
        for i, v in enumerate(node.value):
            label = str(i + 1)
            if isinstance(v, yaml.MappingNode):
                mn = next((x for k, x in v.value if k.value == "mechanism"), None)
                if isinstance(mn, yaml.ScalarNode) and not is_null(mn):
                    label = mn.value
            entries.append((label, v, v, child_path(path, i)))
    else:
        return r.error(node, path, f"menu must map names to {{mechanism, eps, delta}}, found {kind_of(node)}")
    if not entries:
        return r.error(node, path, "the menu needs at least one item")
    out = []
    names: set[str] = set()
    bad = False
    for label, knode, v, p in entries:
        if label in names:
            r.error(knode, p, f"menu item {label!r} appears twice", "give the items distinct names (use a map)")
            bad = True
            continue
        names.add(label)
        f = r.fields(
            v,
            p,
            {
                "mechanism": Field(lambda r_, n, pp: read_continual_ref(mr, n, pp, "a menu item's mechanism"), required=True),
                "eps": Field(lambda r_, n, pp: r_.eps(n, pp), required=True, doc="the claimed eps_i"),
                "delta": Field(lambda r_, n, pp: r_.delta(n, pp), required=True, doc="the claimed delta_i"),
            },
            "a menu item",
        )
        if f is INVALID:
            bad = True
            continue
        out.append((MenuItem(label, f["mechanism"].continual, f["eps"], f["delta"]), v, p))
    return INVALID if bad else out


def _pair_params(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    r = mr.r
    items = r.sequence(node, path, "params (a list of [eps, delta] pairs)")
    if items is INVALID:
        return INVALID
    out = []
    bad = False
    for i, it in enumerate(items):
        p = child_path(path, i)
        if not (isinstance(it, yaml.SequenceNode) and len(it.value) == 2):
            r.error(it, p, f"each parameter is a pair [eps, delta], found {kind_of(it)}", "e.g. `params: [[0, 1/2]]`")
            bad = True
            continue
        e = r.eps(it.value[0], child_path(p, 0))
        d = r.delta(it.value[1], child_path(p, 1))
        if e is INVALID or d is INVALID:
            bad = True
            continue
        out.append((e, d))
    return INVALID if bad else out


def _eps_params(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    r = mr.r
    items = r.sequence(node, path, "params (a list of eps values)")
    if items is INVALID:
        return INVALID
    out = []
    bad = False
    for i, it in enumerate(items):
        p = child_path(path, i)
        if not isinstance(it, yaml.ScalarNode):
            r.error(it, p, f"each parameter here is an eps value, found {kind_of(it)}", "this composition restricts eps only: e.g. `params: [log(2)]`")
            bad = True
            continue
        e = r.eps(it, p)
        if e is INVALID:
            bad = True
            continue
        out.append(e)
    return INVALID if bad else out


def _check_menu(mr: MechanismReader, menu: list, fpc: bool) -> bool:
    """Def. 4.4 (iv): every created mechanism really is (εᵢ, δᵢ)-DP w.r.t. its verifier.
    Checked exactly with the profile engine; a false claim is a located problem."""
    ok = True
    for item, vnode, p in menu:
        cm = item.cm
        if fpc and not cm.first_pair_consistent:
            cm = Continual(cm.mechanism, cm.verifier, True)
        game = continual(cm, datasets=mr.datasets, name=item.name)
        found = profile_engine.profile(game).delta_at(item.eps)
        if value_cmp(found, item.delta) > 0:
            restricted = " (restricted to first-pair-consistent pair sequences)" if fpc else ""
            mr.r.error(
                vnode,
                p,
                f"menu item {item.name!r} claims ({real_str(item.eps)}, {q_str(item.delta)})-DP w.r.t. its verifier{restricted}, "
                f"but delta(e^eps) = {value_str(found)}",
                "Def. 4.4 (iv): a created mechanism must really have the parameters it claims; fix eps or delta",
            )
            ok = False
    return ok


def _composition(
    mr: MechanismReader,
    node: yaml.Node,
    path: str,
    name: str,
    form: str,
    params: str | None,
    budget: bool,
    cap_required: bool,
    build: Callable[..., Any],
    fpc: bool = False,
) -> Any:
    r = mr.r
    spec: dict[str, Field] = {
        "menu": Field(lambda r_, n, p: _menu(mr, n, p), required=True, doc="{name: {mechanism, eps, delta}}"),
        "cap": Field(lambda r_, n, p: r_.count(n, p, "cap", 0, MAX_CAP), required=cap_required, doc="the most instances that may be created"),
    }
    if params == "pair":
        spec["params"] = Field(lambda r_, n, p: _pair_params(mr, n, p), required=True, doc="a list of [eps, delta]")
    elif params == "eps":
        spec["params"] = Field(lambda r_, n, p: _eps_params(mr, n, p), required=True, doc="a list of eps values")
    if budget:
        spec["budget"] = Field(lambda r_, n, p: r_.delta(n, p), required=True, doc="delta-bar")
    f = r.fields(node, path, spec, form)
    if f is INVALID:
        return INVALID
    menu = f["menu"]
    if not _check_menu(mr, menu, fpc):
        return INVALID
    items = [it for it, _n, _p in menu]
    kw: dict[str, Any] = {"datasets": mr.datasets, "name": name}
    args: list[Any] = [items]
    if params is not None:
        args.append(f["params"])
    if budget:
        args.append(f["budget"])
    if f["cap"] is not None:
        kw["cap"] = f["cap"]
    return r.guard(lambda: build(*args, **kw), node, path)


_MENU_SCHEMA = {
    "type": "object",
    "minProperties": 1,
    "additionalProperties": schema_object({"mechanism": {"$ref": "#/$defs/mechanism"}, "eps": NUMBER, "delta": NUMBER}, ("mechanism", "eps", "delta")),
}
_PAIR_PARAMS = {"type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": NUMBER}}
_EPS_PARAMS = {"type": "array", "items": NUMBER}


def _composition_schema(params: dict | None, budget: bool, cap_required: bool) -> dict:
    props: dict = {"menu": _MENU_SCHEMA, "cap": NUMBER}
    required = ["menu"] + (["cap"] if cap_required else [])
    if params is not None:
        props["params"] = params
        required.append("params")
    if budget:
        props["budget"] = NUMBER
        required.append("budget")
    return schema_object(props, tuple(required))


@register_form(
    "concurrent",
    "concurrent composition of fixed continual mechanisms (Def. 4.8; Thm. 4.9)",
    {"$ref": "#/$defs/mechanisms"},
)
def _concurrent(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    if isinstance(node, yaml.MappingNode):
        entries = [(k.value, v, child_path(path, k.value)) for k, v in node.value]
    elif isinstance(node, yaml.SequenceNode):
        entries = [
            (v.value if isinstance(v, yaml.ScalarNode) and not is_null(v) else str(i + 1), v, child_path(path, i))
            for i, v in enumerate(node.value)
        ]
    else:
        return r.error(node, path, f"concurrent takes a list (or map) of continual mechanisms, found {kind_of(node)}")
    if not entries:
        return r.error(node, path, "concurrent needs at least one continual mechanism")
    comps: dict[str, Any] = {}
    bad = False
    for label, v, p in entries:
        if label in comps:
            r.error(v, p, f"component {label!r} appears twice", "use a map {name: mechanism} to name the components")
            bad = True
            continue
        m = read_continual_ref(mr, v, p, "a component of concurrent")
        if m is INVALID:
            bad = True
            continue
        comps[label] = m.continual
    if bad:
        return INVALID
    return r.guard(lambda: concurrent(comps, datasets=mr.datasets, name=name), node, path)


@register_form("fixed_params", "concurrent composition of CMs with fixed parameters (Def. 4.10; Thm. 4.11), cap = |params| by default", _composition_schema(_PAIR_PARAMS, False, False))
def _fixed_params(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    return _composition(mr, node, path, name, "fixed_params", "pair", False, False, fixed_params)


@register_form("sparse_parallel", "concurrent k-sparse parallel composition (Def. 5.1; Thm. 5.2) with a cap on creations", _composition_schema(_PAIR_PARAMS, False, True))
def _sparse(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    return _composition(mr, node, path, name, "sparse_parallel", "pair", False, True, sparse_parallel)


@register_form("fpc_parallel", "first-pair-consistent k-sparse parallel composition (Def. 5.14; Thm. 5.15) with a cap", _composition_schema(_PAIR_PARAMS, False, True))
def _fpc(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    return _composition(mr, node, path, name, "fpc_parallel", "pair", False, True, fpc_parallel, fpc=True)


@register_form("budgeted_parallel", "k-sparse parallel composition with a delta budget (Def. 5.3; Thm. 5.4) with a cap", _composition_schema(_EPS_PARAMS, True, True))
def _budgeted_parallel(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    return _composition(mr, node, path, name, "budgeted_parallel", "eps", True, True, budgeted_parallel)


@register_form("budgeted", "adaptively created mechanisms under a delta budget (Def. 5.8; Lemma 5.9) with a cap", _composition_schema(None, True, True))
def _budgeted(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    return _composition(mr, node, path, name, "budgeted", None, True, True, budgeted)


@register_form("mixed_budgeted", "RR-style items with eps = 0 or delta = 0 under a budget (Def. 5.10; Lemma 5.11) with a cap", _composition_schema(_EPS_PARAMS, True, True))
def _mixed(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    return _composition(mr, node, path, name, "mixed_budgeted", "eps", True, True, mixed_budgeted)


@register_form(
    "filter",
    "concurrent filter composition with the basic filter: sum eps_i <= eps, sum delta_i <= delta (Def. 10.2; Thm. 10.4)",
    schema_object({"menu": _MENU_SCHEMA, "eps": NUMBER, "delta": NUMBER, "cap": NUMBER}, ("menu", "eps", "delta", "cap")),
)
def _filter(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "menu": Field(lambda r_, n, p: _menu(mr, n, p), required=True, doc="{name: {mechanism, eps, delta}}"),
            "eps": Field(lambda r_, n, p: r_.eps(n, p), required=True, doc="the filter's total eps, e.g. log(4)"),
            "delta": Field(lambda r_, n, p: r_.delta(n, p), required=True, doc="the filter's total delta"),
            "cap": Field(lambda r_, n, p: r_.count(n, p, "cap", 0, MAX_CAP), required=True, doc="the most instances that may be created"),
        },
        "filter",
    )
    if f is INVALID or not _check_menu(mr, f["menu"], False):
        return INVALID
    items = [it for it, _n, _p in f["menu"]]
    return r.guard(lambda: basic_filter(items, f["eps"], f["delta"], cap=f["cap"], datasets=mr.datasets, name=name), node, path)
