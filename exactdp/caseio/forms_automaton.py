"""The ``automaton:`` mechanism form: a finite state machine with hidden state.

.. code-block:: yaml

    automaton:
      states: [s0, s1, done]
      initial: s0                 # a state; {state: p, ...}; or {x0: ..., x1: ...} per dataset
      queries: [q]                # optional: the alphabet every non-final state must accept
      final: [done]               # optional: states that accept no query
      horizon: 50                 # the maximum number of queries
      transitions:
        s0:
          q:
            yes: {p: [3/4, 1/4], next: s1}   # p: one value (shared), a list per dataset, or a map
            no:  {p: [1/4, 3/4]}             # no `next`: stay in s0
        s1:
          q:
            yes: [{p: 1/2, next: s0}, {p: 1/4, next: done}]   # one answer, several next states
            no:  {p: 1/4, next: done}

Semantics and limits: ``docs/automata-and-continual.md``; the builder is
:func:`exactdp.builders.automaton.automaton` (Henzinger–Safavi–Vadhan Def. 2.6).
"""

from __future__ import annotations

from typing import Any

import yaml

from ..builders.automaton import HALT, automaton, make_automaton
from ..numbers.rational import Q, q_str
from .context import Field, INVALID, NUMBER, child_path, suggest
from .forms import MechanismReader, register_form
from .yamlsafe import is_null, kind_of

__all__ = ["read_automaton"]

_KEYS = ("states", "initial", "queries", "final", "horizon", "transitions")
MAX_HORIZON = 100_000


def _labels(mr: MechanismReader, node: yaml.Node, path: str, what: str, *, allow_empty: bool = False) -> Any:
    r = mr.r
    items = r.sequence(node, path, what)
    if items is INVALID:
        return INVALID
    out: list[str] = []
    bad = False
    for i, it in enumerate(items):
        lab = r.label(it, child_path(path, i), f"an entry of {what}")
        if lab is INVALID:
            bad = True
        elif lab in out:
            r.error(it, child_path(path, i), f"{lab!r} is listed twice in {what}")
            bad = True
        else:
            out.append(lab)
    if not out and not allow_empty and not bad:
        return r.error(node, path, f"{what} must list at least one name")
    return INVALID if bad else out


def _prob_row(mr: MechanismReader, node: yaml.Node, path: str, shared_only: bool, what: str) -> Any:
    """One probability: a single value (shared by every dataset), or — unless ``shared_only`` —
    a list in dataset order or a map {dataset: p}.  Returns a tuple (length 1 if shared)."""
    r = mr.r
    if isinstance(node, (yaml.SequenceNode, yaml.MappingNode)):
        if shared_only:
            return r.error(
                node,
                path,
                f"{what}: a continual mechanism does not depend on the dataset, so each probability is a single value",
                "the two worlds differ only in the messages the mechanism receives (Def. 3.1, 3.7); write e.g. `p: 1/4`",
            )
        return mr.probs(node, path)
    v = r.probability(node, path)
    return INVALID if v is INVALID else (v,)


def _state_ref(mr: MechanismReader, node: yaml.Node, path: str, states: list[str], what: str) -> Any:
    r = mr.r
    name = r.label(node, path, what)
    if name is INVALID:
        return INVALID
    if name not in states:
        return r.error(node, path, f"unknown state {name!r}", suggest(name, states) or f"states: {', '.join(states)}")
    return name


def _distribution(mr: MechanismReader, node: yaml.Node, path: str, states: list[str]) -> Any:
    """A state name or {state: probability} summing to 1."""
    r = mr.r
    if isinstance(node, yaml.ScalarNode):
        s = _state_ref(mr, node, path, states, "an initial state")
        return INVALID if s is INVALID else {s: Q(1)}
    items = r.mapping(node, path, "an initial distribution")
    if items is INVALID:
        return INVALID
    out: dict[str, Any] = {}
    bad = False
    for k, knode, v in items:
        if k not in states:
            r.error(knode, child_path(path, k), f"unknown state {k!r}", suggest(k, states) or f"states: {', '.join(states)}")
            bad = True
            continue
        p = r.probability(v, child_path(path, k))
        if p is INVALID:
            bad = True
            continue
        out[k] = p
    if bad:
        return INVALID
    total = sum(out.values(), Q(0))
    if total != 1:
        return r.error(node, path, f"the initial probabilities sum to {q_str(total)}, not 1")
    return out


def _initial(mr: MechanismReader, node: yaml.Node, path: str, states: list[str], shared_only: bool) -> Any:
    """Shared: a state or distribution.  Per dataset: a map whose keys are exactly the datasets."""
    if isinstance(node, yaml.MappingNode):
        keys = [k.value for k, _ in node.value]
        if keys and all(k in mr.datasets for k in keys) and not any(k in states for k in keys):
            if shared_only:
                return mr.r.error(
                    node,
                    path,
                    "a continual mechanism has a single initial state (Def. 3.1), not one per dataset",
                    "give one state (or one distribution over states)",
                )
            missing = [d for d in mr.datasets if d not in keys]
            if missing:
                return mr.r.error(node, path, f"no initial state for dataset(s) {', '.join(missing)}")
            out = []
            for k, v in node.value:
                out.append((k.value, _distribution(mr, v, child_path(path, k.value), states)))
            if any(d is INVALID for _, d in out):
                return INVALID
            by = dict(out)
            return [by[d] for d in mr.datasets]
    d = _distribution(mr, node, path, states)
    return INVALID if d is INVALID else d


def _outcomes(mr: MechanismReader, node: yaml.Node, path: str, states: list[str], here: str, shared_only: bool) -> Any:
    """{answer: {p, next} | [{p, next}, ...]} -> list of (answer, next, probs)."""
    r = mr.r
    items = r.mapping(node, path, "the answers to a query (answer -> {p: ..., next: state})")
    if items is INVALID:
        return INVALID
    if not items:
        return r.error(node, path, "a query needs at least one answer")
    out = []
    bad = False
    spec = {
        "p": Field(lambda r_, n, p: _prob_row(mr, n, p, shared_only, "p"), required=True, doc="a probability"),
        "next": Field(lambda r_, n, p: _state_ref(mr, n, p, states, "the next state"), default=here),
    }
    for ans, knode, v in items:
        ap = child_path(path, ans)
        if ans == HALT:
            r.error(knode, ap, f"the answer name {HALT!r} is reserved", "it is what a state answers to a query it does not accept; rename the answer")
            bad = True
            continue
        entries = v.value if isinstance(v, yaml.SequenceNode) else [v]
        if isinstance(v, yaml.SequenceNode) and not entries:
            r.error(v, ap, "an answer needs at least one outcome {p: ..., next: ...}")
            bad = True
        for i, e in enumerate(entries):
            ep = child_path(ap, i) if isinstance(v, yaml.SequenceNode) else ap
            if not isinstance(e, yaml.MappingNode):
                r.error(
                    e,
                    ep,
                    f"an answer is {{p: ..., next: state}} (or a list of those), found {kind_of(e)}",
                    "write e.g. `yes: {p: [3/4, 1/4], next: s1}`",
                )
                bad = True
                continue
            f = r.fields(e, ep, spec, "an answer")
            if f is INVALID:
                bad = True
                continue
            out.append((ans, f["next"], f["p"], e))
    return INVALID if bad else out


def read_automaton(mr: MechanismReader, node: yaml.Node, path: str, *, shared_only: bool = False) -> Any:
    """Read an ``automaton:`` value into an :class:`~exactdp.builders.automaton.Automaton`.

    With ``shared_only`` (a continual mechanism) every probability and the initial state must
    be dataset-independent.  Every problem is recorded with its place; returns ``INVALID``
    if there was any.
    """
    r = mr.r
    if not isinstance(node, yaml.MappingNode):
        return r.error(node, path, f"automaton must be a mapping with {', '.join(_KEYS)}, found {kind_of(node)}")
    raw: dict[str, tuple[yaml.Node, yaml.Node]] = {}
    bad = False
    for k, v in node.value:
        if k.value not in _KEYS:
            r.error(k, child_path(path, k.value), f"unknown key {k.value!r} in automaton", suggest(k.value, _KEYS) or f"allowed keys: {', '.join(_KEYS)}")
            bad = True
            continue
        raw[k.value] = (k, v)
    for req in ("states", "initial", "horizon", "transitions"):
        if req not in raw:
            r.error(node, path, f"automaton needs `{req}:`")
            bad = True
    if bad:
        return INVALID
    states = _labels(mr, raw["states"][1], child_path(path, "states"), "states")
    horizon = r.count(raw["horizon"][1], child_path(path, "horizon"), "horizon", 0, MAX_HORIZON)
    queries = None
    if "queries" in raw:
        queries = _labels(mr, raw["queries"][1], child_path(path, "queries"), "queries")
    if states is INVALID:
        return INVALID
    final: list[str] = []
    if "final" in raw:
        fnode = raw["final"][1]
        fl = _labels(mr, fnode, child_path(path, "final"), "final", allow_empty=True)
        if fl is INVALID:
            bad = True
        else:
            for i, s in enumerate(fl):
                if s not in states:
                    r.error(fnode.value[i], child_path(child_path(path, "final"), i), f"unknown state {s!r}", suggest(s, states) or f"states: {', '.join(states)}")
                    bad = True
            final = fl
    initial = _initial(mr, raw["initial"][1], child_path(path, "initial"), states, shared_only)

    tpath = child_path(path, "transitions")
    titems = r.mapping(raw["transitions"][1], tpath, "transitions (state -> query -> answers)")
    if titems is INVALID:
        return INVALID
    transitions: dict[tuple[str, str], list] = {}
    per_dataset = isinstance(initial, list)
    for sname, sknode, snode in titems:
        sp = child_path(tpath, sname)
        if sname not in states:
            r.error(sknode, sp, f"unknown state {sname!r}", suggest(sname, states) or f"states: {', '.join(states)}")
            bad = True
            continue
        if sname in final and not is_null(snode) and not (isinstance(snode, yaml.MappingNode) and not snode.value):
            r.error(sknode, sp, f"state {sname!r} is listed as final, so it accepts no query", "remove its transitions or remove it from `final:`")
            bad = True
            continue
        if is_null(snode):
            continue
        qitems = r.mapping(snode, sp, f"the transitions of state {sname!r} (query -> answers)")
        if qitems is INVALID:
            bad = True
            continue
        for q, qknode, qnode in qitems:
            qp = child_path(sp, q)
            if queries is not None and queries is not INVALID and q not in queries:
                r.error(qknode, qp, f"query {q!r} is not in `queries:`", suggest(q, queries) or f"queries: {', '.join(queries)}")
                bad = True
                continue
            outs = _outcomes(mr, qnode, qp, states, sname, shared_only)
            if outs is INVALID:
                bad = True
                continue
            rows = []
            for ans, nxt, probs, _e in outs:
                per_dataset = per_dataset or len(probs) > 1
                rows.append((ans, nxt, probs))
            # exact sums, per dataset, located at the query
            for d, dname in enumerate(mr.datasets):
                total = sum((p[d] if len(p) > 1 else p[0] for _a, _n, p in rows), Q(0))
                if total != 1:
                    under = f" under {dname}" if any(len(p) > 1 for _a, _n, p in rows) else ""
                    r.error(qnode, qp, f"the probabilities{under} sum to {q_str(total)}, not 1", "each (state, query) gives a distribution over (answer, next state)")
                    bad = True
                    break
            seen = set()
            for ans, nxt, _p, e in outs:
                if (ans, nxt) in seen:
                    r.error(e, child_path(qp, ans), f"answer {ans!r} with next state {nxt!r} is listed twice")
                    bad = True
                seen.add((ans, nxt))
            transitions[(sname, q)] = rows
    if queries is not None and queries is not INVALID and not bad:
        for s in states:
            if s in final:
                continue
            have = {q for (t, q) in transitions if t == s}
            if not have and s not in final:
                continue  # a state without transitions is final
            missing = [q for q in queries if q not in have]
            if missing:
                r.error(
                    raw["transitions"][1],
                    child_path(tpath, s),
                    f"state {s!r} has no transition for query {missing[0]!r}",
                    "with `queries:` every state that is not final accepts every query; add the transition, "
                    "list the state under `final:`, or drop `queries:` to give each state its own alphabet",
                )
                bad = True
    if bad or horizon is INVALID or initial is INVALID or queries is INVALID:
        return INVALID
    n_rows = len(mr.datasets) if per_dataset else 1
    return r.guard(
        lambda: make_automaton(states, initial, transitions, horizon, queries=queries, n_rows=n_rows),
        node,
        path,
    )


@register_form(
    "automaton",
    "a state machine: states, initial state per dataset, (state, query) -> answers with next states, horizon",
    {
        "description": "see docs/automata-and-continual.md",
        "type": "object",
        "required": ["states", "initial", "horizon", "transitions"],
        "properties": {
            "states": {"type": "array", "minItems": 1},
            "initial": {},
            "horizon": NUMBER,
            "transitions": {"type": "object"},
            "queries": {"type": "array"},
            "final": {"type": "array"},
        },
        "additionalProperties": False,
    },
)
def _automaton(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    a = read_automaton(mr, node, path)
    if a is INVALID:
        return INVALID
    return mr.r.guard(lambda: automaton(a, datasets=mr.datasets, adjacent=mr.adjacent, name=name), node, path)
