"""Reading mechanisms from a case: explicit trees, built-ins, combinators, named references.

A *mechanism expression* is one of

* a name (a scalar): another entry of ``mechanisms:``;
* a mapping with exactly one form key: ``tree``, ``ask``, ``respond``, ``rr``, ``compose``,
  ``repeat``, ``concomp``, ``choose`` — or a form registered later with :func:`register_form`.

Wherever the format expects a tree node (``tree:``, ``then:``) any mechanism expression may
stand, and ``then: null`` (or no ``then``) ends the interaction.  YAML anchors share
sub-trees: the same YAML node always becomes the same game node.
"""

from __future__ import annotations

from typing import Any, Callable

import yaml

from ..builders.combinators import choose, compose, concomp, repeat
from ..builders.rr import default_bits, rr_delta_node, rr_node
from ..builders.symbolic import rr_delta_sym_node, rr_sym_node
from ..model.game import END, Ask, Chance, Mechanism, Node
from ..model.symbolic import SymChance
from ..numbers.rational import Q, q_str
from ..numbers.symbolic import is_sym, sympy, to_sympy
from .context import INVALID, Field, Reader, child_path, suggest
from .yamlsafe import is_null, kind_of

__all__ = ["MechanismReader", "register_form", "FORMS", "FORM_SCHEMAS"]

FormReader = Callable[["MechanismReader", yaml.Node, str, str], Any]
FORMS: dict[str, tuple[FormReader, str]] = {}
FORM_SCHEMAS: dict[str, dict] = {}


def register_form(key: str, doc: str, schema: dict | None = None) -> Callable[[FormReader], FormReader]:
    """Register a mechanism form ``{key: ...}``; the reader gets (mr, value_node, path, name)
    and returns a :class:`Mechanism` or ``INVALID`` (after recording a problem).

    ``schema`` is the JSON-Schema fragment of the form's value (see :mod:`exactdp.caseio.schema`;
    ``#/$defs/number``, ``#/$defs/mechanism``, ``#/$defs/node``, ``#/$defs/answers`` and
    ``#/$defs/mechanisms`` may be referenced)."""

    def deco(fn: FormReader) -> FormReader:
        FORMS[key] = (fn, doc)
        if schema is not None:
            FORM_SCHEMAS[key] = schema
        return fn

    return deco


class MechanismReader:
    """Builds the named mechanisms of one case, resolving references and detecting cycles."""

    def __init__(self, r: Reader, datasets: tuple[str, ...], adjacent: tuple[tuple[int, int], ...], named: dict[str, tuple[yaml.Node, str]]):
        self.r = r
        self.datasets = datasets
        self.adjacent = adjacent
        self.n = len(datasets)
        self.named_nodes = named
        self.built: dict[str, Any] = {}
        self._state: dict[str, int] = {}
        self._chain: list[str] = []
        self._tree_cache: dict[Any, Any] = {}

    def wrap(self, root: Node, name: str) -> Mechanism:
        return Mechanism(root, self.datasets, self.adjacent, name)

    # --- names ------------------------------------------------------------------------------

    def named(self, name: str, node: yaml.Node | None = None, path: str = "") -> Any:
        if name not in self.named_nodes:
            return self.r.error(
                node,
                path,
                f"no mechanism named {name!r}",
                suggest(name, list(self.named_nodes)) or f"defined mechanisms: {', '.join(self.named_nodes) or '(none)'}",
            )
        st = self._state.get(name)
        if st == 2:
            return self.built[name]
        if st == 1:
            cycle = " -> ".join(self._chain[self._chain.index(name) :] + [name])
            return self.r.error(node, path, f"mechanism {name!r} refers to itself: {cycle}", "a mechanism must be a finite game")
        self._state[name] = 1
        self._chain.append(name)
        ynode, ypath = self.named_nodes[name]
        m = self.mechanism(ynode, ypath, name)
        self._chain.pop()
        self._state[name] = 2
        self.built[name] = m
        return m

    # --- expressions ------------------------------------------------------------------------

    def mechanism(self, node: yaml.Node, path: str, name: str = "M") -> Any:
        """Read any mechanism expression."""
        if isinstance(node, yaml.ScalarNode) and not is_null(node):
            m = self.named(node.value, node, path)
            return m
        if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
            keys = [k.value for k, _ in node.value] if isinstance(node, yaml.MappingNode) else []
            forms = ", ".join(FORMS)
            if keys:
                unknown = [k for k in keys if k not in FORMS]
                if unknown:
                    return self.r.error(
                        node, path, f"unknown mechanism form {unknown[0]!r}", suggest(unknown[0], list(FORMS)) or f"forms: {forms}"
                    )
                return self.r.error(node, path, f"a mechanism has exactly one form key, found {', '.join(keys)}")
            return self.r.error(node, path, f"expected a mechanism (a name or one of {forms}), found {kind_of(node)}")
        knode, vnode = node.value[0]
        key = knode.value
        if key not in FORMS:
            return self.r.error(knode, path, f"unknown mechanism form {key!r}", suggest(key, list(FORMS)) or f"forms: {', '.join(FORMS)}")
        reader, _ = FORMS[key]
        return reader(self, vnode, child_path(path, key), name)

    def game_node(self, node: yaml.Node, path: str) -> Any:
        """A tree position (``tree:``/``then:``): null ends, anything else is a mechanism."""
        if is_null(node):
            return END
        key = id(node)
        if key in self._tree_cache:
            return self._tree_cache[key]
        m = self.mechanism(node, path, "M")
        out = m.root if isinstance(m, Mechanism) else INVALID
        self._tree_cache[key] = out
        return out

    # --- explicit trees ---------------------------------------------------------------------

    def probs(self, node: yaml.Node, path: str) -> Any:
        """One probability per dataset: a list in dataset order or a map {dataset: p}."""
        r = self.r
        if isinstance(node, yaml.SequenceNode):
            if len(node.value) != self.n:
                return r.error(
                    node,
                    path,
                    f"expected {self.n} probabilities (one per dataset: {', '.join(self.datasets)}), found {len(node.value)}",
                )
            vals = [r.probability(v, child_path(path, i), symbolic=True) for i, v in enumerate(node.value)]
            return INVALID if any(v is INVALID for v in vals) else tuple(vals)
        if isinstance(node, yaml.MappingNode):
            got: dict[str, Any] = {}
            for k, v in node.value:
                if k.value not in self.datasets:
                    r.error(k, child_path(path, k.value), f"unknown dataset {k.value!r}", suggest(k.value, self.datasets) or f"datasets: {', '.join(self.datasets)}")
                    got[k.value] = INVALID
                    continue
                got[k.value] = r.probability(v, child_path(path, k.value), symbolic=True)
            missing = [d for d in self.datasets if d not in got]
            if missing:
                return r.error(node, path, f"no probability for dataset(s) {', '.join(missing)}")
            if any(v is INVALID for v in got.values()):
                return INVALID
            return tuple(got[d] for d in self.datasets)
        return r.error(node, path, f"p must be a list (one probability per dataset) or a map {{dataset: p}}, found {kind_of(node)}")

    def answers(self, node: yaml.Node, path: str) -> Any:
        """An answer distribution: {answer: [p...] | {p: ..., then: ...}} -> Chance node."""
        r = self.r
        items = r.mapping(node, path, "an answer distribution")
        if items is INVALID:
            return INVALID
        if not items:
            return r.error(node, path, "an answer distribution needs at least one answer")
        labels, rows, kids, texts = [], [], [], []
        bad = False
        nxt: Any  # a node, or INVALID
        for lab, knode, vnode in items:
            p = child_path(path, lab)
            if isinstance(vnode, yaml.SequenceNode):
                row, nxt = self.probs(vnode, p), END
                texts.append([v.value for v in vnode.value if isinstance(v, yaml.ScalarNode)])
            elif isinstance(vnode, yaml.MappingNode):
                f = r.fields(
                    vnode,
                    p,
                    {
                        "p": Field(lambda rr_, n, pp: self.probs(n, pp), required=True, doc="one probability per dataset"),
                        "then": Field(lambda rr_, n, pp: self.game_node(n, pp), default=END),
                    },
                    "an answer",
                )
                if f is INVALID:
                    bad = True
                    continue
                row, nxt = f["p"], f["then"]
                pn = next((v for k, v in vnode.value if k.value == "p"), None)
                texts.append([v.value for v in getattr(pn, "value", []) if isinstance(v, yaml.ScalarNode)] if isinstance(pn, yaml.SequenceNode) else [])
            else:
                r.error(vnode, p, f"an answer is a list of probabilities or a mapping with `p:` (and `then:`), found {kind_of(vnode)}")
                bad = True
                continue
            if row is INVALID or nxt is INVALID:
                bad = True
                continue
            labels.append(lab)
            rows.append(row)
            kids.append(nxt)
        if bad:
            return INVALID
        if any(is_sym(p) for row in rows for p in row):
            for d, dname in enumerate(self.datasets):
                total = sympy.cancel(sum((to_sympy(row[d]) for row in rows), sympy.Integer(0)))
                if total != 1:
                    return r.error(node, path, f"probabilities under {dname} sum to {total}, not identically 1",
                                   "each answer distribution must sum to exactly 1 for every value of the symbols")
            return SymChance(labels, [[to_sympy(p) for p in row] for row in rows], kids, check=False)
        for d, dname in enumerate(self.datasets):
            total = sum((row[d] for row in rows), Q(0))
            if total != 1:
                flat = [t for ts in texts for t in ts]
                return r.error(node, path, f"probabilities under {dname} sum to {q_str(total)}, not 1", _sum_hint(total, flat))
        return Chance(labels, rows, kids, check=False)

    def ask(self, node: yaml.Node, path: str) -> Any:
        r = self.r
        items = r.mapping(node, path, "`ask:` (queries to answer distributions)")
        if items is INVALID:
            return INVALID
        if not items:
            return r.error(node, path, "`ask:` needs at least one query")
        labels, kids = [], []
        for lab, _k, vnode in items:
            ch = self._cached(vnode, lambda: self.answers(vnode, child_path(path, lab)))
            if ch is not INVALID:
                labels.append(lab)
                kids.append(ch)
        if len(kids) != len(items):
            return INVALID
        return Ask(labels, kids)

    def _cached(self, node: yaml.Node, build: Callable[[], Any]) -> Any:
        key = ("ans", id(node))
        if key not in self._tree_cache:
            self._tree_cache[key] = build()
        return self._tree_cache[key]


def _sum_hint(total: Any, texts: list[str]) -> str | None:
    long_decimals = [t for t in texts if "." in t and len(t.split(".")[-1]) >= 3]
    if long_decimals and abs(total - 1) < Q(1, 50):
        return (
            f"decimals are exact: {long_decimals[0]} means exactly that, so rounded values do not sum to 1; "
            "write fractions such as 1/3"
        )
    return "each answer distribution must sum to exactly 1 under every dataset"


# --- the forms of format version 1 ------------------------------------------------------------


@register_form("tree", "an explicit probability tree: `tree: {ask: ...}` or `tree: {respond: ...}`", {"$ref": "#/$defs/mechanism"})
def _tree(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    root = mr.game_node(node, path)
    return INVALID if root is INVALID else mr.wrap(root, name)


@register_form(
    "ask",
    "the adversary chooses a query; each query maps to an answer distribution",
    {"type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#/$defs/answers"}},
)
def _ask(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    root = mr._cached(node, lambda: mr.ask(node, path))
    return INVALID if root is INVALID else mr.wrap(root, name)


@register_form("respond", "an answer distribution with no query (the mechanism speaks)", {"$ref": "#/$defs/answers"})
def _respond(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    root = mr._cached(node, lambda: mr.answers(node, path))
    return INVALID if root is INVALID else mr.wrap(root, name)


def _bits(mr: MechanismReader, node: yaml.Node, path: str) -> Any:
    r = mr.r
    items = r.mapping(node, path, "bits")
    if items is INVALID:
        return INVALID
    out: dict[str, int] = {}
    for k, knode, v in items:
        if k not in mr.datasets:
            r.error(knode, child_path(path, k), f"unknown dataset {k!r}", suggest(k, mr.datasets))
            continue
        b = r.count(v, child_path(path, k), "a bit", 0, 1)
        if b is not INVALID:
            out[k] = b
    return out


@register_form(
    "rr",
    "randomized response RR_eps (Def. 1.9), or RR_(eps,delta) (Def. 5.1) with `delta:`",
    {
        "type": "object",
        "properties": {
            "eps": {"$ref": "#/$defs/number"},
            "delta": {"$ref": "#/$defs/number"},
            "bits": {"type": "object", "additionalProperties": {"enum": [0, 1, "0", "1"]}},
        },
        "required": ["eps"],
        "additionalProperties": False,
    },
)
def _rr(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    r = mr.r
    f = r.fields(
        node,
        path,
        {
            "eps": Field(lambda r_, n, p: r_.eps(n, p, symbolic=True), required=True, doc="e.g. eps: log(3)"),
            "delta": Field(lambda r_, n, p: r_.delta(n, p, symbolic=True)),
            "bits": Field(lambda r_, n, p: _bits(mr, n, p)),
        },
        "rr",
    )
    if f is INVALID:
        return INVALID
    epsnode = next(v for k, v in node.value if k.value == "eps")
    E = r.exp_eps_rational(epsnode, child_path(path, "eps"), f["eps"], "rr")
    if E is INVALID:
        return INVALID

    def build() -> Mechanism:
        bits = default_bits(mr.datasets, mr.adjacent, f["bits"])
        if is_sym(E) or is_sym(f["delta"]):
            root = rr_sym_node(E, bits) if f["delta"] is None else rr_delta_sym_node(E, f["delta"], bits)
            return mr.wrap(root, name)
        node: Chance = rr_node(E, bits) if f["delta"] is None else rr_delta_node(E, f["delta"], bits)
        return mr.wrap(node, name)

    return r.guard(build, node, path)


def _components(mr: MechanismReader, node: yaml.Node, path: str, what: str) -> Any:
    """A list of mechanisms (labels: the name for a reference, else the index) or a map."""
    r = mr.r
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for k, v in node.value:
            out[k.value] = mr.mechanism(v, child_path(path, k.value), k.value)
    elif isinstance(node, yaml.SequenceNode):
        out = {}
        for i, v in enumerate(node.value):
            label = v.value if isinstance(v, yaml.ScalarNode) and not is_null(v) and v.value not in out else str(i)
            out[label] = mr.mechanism(v, child_path(path, i), label)
    else:
        return r.error(node, path, f"{what} takes a list of mechanisms, found {kind_of(node)}")
    if not out:
        return r.error(node, path, f"{what} needs at least one mechanism")
    if any(m is INVALID for m in out.values()):
        return INVALID
    return out


@register_form("compose", "sequential composition: all of m1's interaction, then m2's, ...", {"$ref": "#/$defs/mechanisms"})
def _compose(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    comps = _components(mr, node, path, "compose")
    if comps is INVALID:
        return INVALID
    return mr.r.guard(lambda: compose(list(comps.values()), name=name), node, path)


@register_form(
    "repeat",
    "`repeat: {mechanism: m, times: k}`: compose of k copies of m",
    {
        "type": "object",
        "properties": {"mechanism": {"$ref": "#/$defs/mechanism"}, "times": {"$ref": "#/$defs/number"}},
        "required": ["mechanism", "times"],
        "additionalProperties": False,
    },
)
def _repeat(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    f = mr.r.fields(
        node,
        path,
        {
            "mechanism": Field(lambda r_, n, p: mr.mechanism(n, p), required=True),
            "times": Field(lambda r_, n, p: r_.count(n, p, "times", 0, 100_000), required=True),
        },
        "repeat",
    )
    if f is INVALID:
        return INVALID
    return mr.r.guard(lambda: repeat(f["mechanism"], f["times"], name=name), node, path)


@register_form(
    "concomp",
    "concurrent composition (Def. 2.1): the adversary interleaves queries to the components",
    {"$ref": "#/$defs/mechanisms"},
)
def _concomp(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    comps = _components(mr, node, path, "concomp")
    if comps is INVALID:
        return INVALID
    return mr.r.guard(lambda: concomp(comps, name=name), node, path)


@register_form("choose", "the adversary picks one of the mechanisms, then interacts with it", {"$ref": "#/$defs/mechanisms"})
def _choose(mr: MechanismReader, node: yaml.Node, path: str, name: str) -> Any:
    comps = _components(mr, node, path, "choose")
    if comps is INVALID:
        return INVALID
    return mr.r.guard(lambda: choose(comps, name=name), node, path)
