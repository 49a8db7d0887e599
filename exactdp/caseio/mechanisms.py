"""Reading mechanisms: named references, the explicit tree grammar, and every declared form.

A *mechanism expression* is a name (another entry of ``mechanisms:``) or a mapping with exactly
one form key (:data:`exactdp.forms.FORMS`).  Wherever the format expects a tree position
(``tree:``, ``then:``) any mechanism expression may stand, and ``then: null`` (or no ``then``)
ends the interaction.  The tree grammar itself — ``ask: {query: answers}``, ``respond:
answers``, answers ``{answer: [p per dataset] | {p: ..., then: ...}}`` — is YAML structure and
is read here.  YAML anchors share sub-games: the same YAML node always becomes the same game
node.
"""

from __future__ import annotations

from typing import Any

import yaml

from ..builders.combinators import distinct_labels
from ..errors import excerpt
from ..forms import FORMS
from ..forms.core import AnswerSpec
from ..forms.fields import PerDataset, Prob
from ..forms.registry import BuildContext, Obligation
from ..model.game import END, Chance, Mechanism
from ..model.symbolic import SymChance
from ..numbers import ladder
from ..numbers.rational import Q, is_rational, q_str
from ..numbers.symbolic import is_sym, sympy, to_sympy
from .context import INVALID, Reader, child_path, suggest
from .flattree import FlatTreeNode
from .typed import TypedReader, guard, locate
from .yamlsafe import is_null, kind_of

__all__ = ["MechanismReader", "ReadAgain"]


class ReadAgain(Exception):
    """A tree read into flat storage does not fit the case (its rows are not one probability
    per dataset): the case is read again by the general reader, which locates the problem."""


_PROBS = PerDataset(Prob(symbolic=True, field=True), what="probabilities")


class MechanismReader:
    """Builds the named mechanisms of one case, resolving references and detecting cycles.

    ``obligations`` collects the premises forms rely on (see
    :class:`~exactdp.forms.registry.Obligation`), with the name of the mechanism they belong to.
    """

    def __init__(
        self,
        r: Reader,
        datasets: tuple[str, ...],
        adjacent: tuple[tuple[int, int], ...],
        named: dict[str, tuple[yaml.Node, str]],
    ):
        self.r = r
        self.tr = TypedReader(r, self)
        self.datasets = datasets
        self.adjacent = adjacent
        self.named_nodes = named
        self.built: dict[str, Any] = {}
        self.obligations: list[tuple[str, Obligation, yaml.Node, str]] = []
        self._state: dict[str, int] = {}
        self._chain: list[str] = []
        # id(YAML node) -> built game root, ("answers", id(node)) -> built answer distribution
        # (anchors share them)
        self._roots: dict[int | tuple[str, int], Any] = {}
        self._owner: list[str] = []

    def context(self, name: str) -> BuildContext:
        return BuildContext(self.datasets, self.adjacent, name, self.r.symtab or None)

    # --- names ------------------------------------------------------------------------------

    def named(self, name: str, node: yaml.Node | None = None, path: str = "") -> Any:
        """The mechanism ``name`` of ``mechanisms:``, built once (a cycle is a problem)."""
        if name not in self.named_nodes:
            hint = (
                suggest(name, list(self.named_nodes))
                or f"defined mechanisms: {', '.join(self.named_nodes) or '(none)'}"
            )
            return self.r.error(node, path, f"no mechanism named {name!r}", hint)
        st = self._state.get(name)
        if st == 2:
            return self.built[name]
        if st == 1:
            cycle = " -> ".join(self._chain[self._chain.index(name) :] + [name])
            return self.r.error(
                node, path, f"mechanism {name!r} refers to itself: {cycle}", "a mechanism must be a finite game"
            )
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
            return self.named(node.value, node, path)
        if not isinstance(node, yaml.MappingNode) or len(node.value) != 1:
            return self._not_a_mechanism(node, path)
        knode, vnode = node.value[0]
        if knode.value not in FORMS:
            return self.r.error(
                knode,
                path,
                f"unknown mechanism form {knode.value!r}",
                suggest(knode.value, list(FORMS)) or f"forms: {', '.join(FORMS)}",
            )
        root = self._roots.get(id(vnode))
        if root is None and isinstance(vnode, FlatTreeNode):
            if vnode.width != len(self.datasets):
                raise ReadAgain  # the general reader says where the rows are too short or long
            m = self.context(name).wrap(vnode.game.root)
            self._roots[id(vnode)] = m.root
            return m
        if root is None:
            m = self.form(knode.value, vnode, child_path(path, knode.value), name)
            if not isinstance(m, Mechanism):
                return m
            self._roots[id(vnode)] = m.root
            return m
        return self.context(name).wrap(root)

    def _not_a_mechanism(self, node: yaml.Node, path: str) -> Any:
        forms = ", ".join(FORMS)
        keys = [k.value for k, _ in node.value] if isinstance(node, yaml.MappingNode) else []
        unknown = [k for k in keys if k not in FORMS]
        if unknown:
            return self.r.error(
                node,
                path,
                f"unknown mechanism form {unknown[0]!r}",
                suggest(unknown[0], list(FORMS)) or f"forms: {forms}",
            )
        if keys:
            return self.r.error(node, path, f"a mechanism has exactly one form key, found {', '.join(keys)}")
        return self.r.error(node, path, f"expected a mechanism (a name or one of {forms}), found {kind_of(node)}")

    def form(self, key: str, node: yaml.Node, path: str, name: str) -> Any:
        """Read the value of form ``key`` into its declared type, collect its obligations and
        build it; every problem is located in the file."""
        value = self.tr.record(FORMS[key], node, path, key)
        if value is INVALID:
            return INVALID
        ctx = self.context(name)
        short = self.tr.shorthand_of(FORMS[key], node)
        for ob in guard(self.tr, lambda: value.obligations(ctx), node, path, short) or ():
            self.obligations.append((name, ob, *self._located(node, path, ob)))
        return guard(self.tr, lambda: value.build(ctx), node, path, short)

    def _located(self, node: yaml.Node, path: str, ob: Obligation) -> tuple[yaml.Node, str]:

        return locate(node, path, ob.field)

    def components(self, node: yaml.Node, path: str, what: str = "this form") -> Any:
        """Several mechanisms as (label, Mechanism) pairs: a list (every item is a component; a
        name is its own label, a repeat gets ``#2``, ..., other items their index) or a map."""
        if isinstance(node, yaml.MappingNode):
            entries = [(k.value, v, child_path(path, k.value)) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            wanted = [v.value if isinstance(v, yaml.ScalarNode) and not is_null(v) else None for v in node.value]
            entries = [
                (label, v, child_path(path, i)) for i, (label, v) in enumerate(zip(distinct_labels(wanted), node.value))
            ]
        else:
            return self.r.error(node, path, f"{what} takes a list of mechanisms, found {kind_of(node)}")
        if not entries:
            return self.r.error(node, path, f"{what} needs at least one mechanism")
        out = [(label, self.mechanism(v, p, label)) for label, v, p in entries]
        return INVALID if any(m is INVALID for _, m in out) else tuple(out)

    # --- the tree grammar -------------------------------------------------------------------

    def game_node(self, node: yaml.Node, path: str) -> Any:
        """A tree position (``tree:``/``then:``): null ends, anything else is a mechanism."""
        if is_null(node):
            return END
        m = self.mechanism(node, path, "M")
        return m.root if isinstance(m, Mechanism) else INVALID

    def answers_cached(self, node: yaml.Node, path: str) -> Any:
        """An answer distribution, built once per YAML node (anchors share it)."""
        key = ("answers", id(node))
        if key not in self._roots:
            self._roots[key] = self.answers(node, path)
        return self._roots[key]

    def answers(self, node: yaml.Node, path: str) -> Any:
        """``{answer: [p...] | {p: ..., then: ...}}`` → a Chance node (exact sums checked)."""
        if isinstance(node, yaml.ScalarNode) and node.value in self.named_nodes:  # (ask: {q: M} meant choose:)
            return self.r.error(
                node,
                path,
                f"an answer distribution must be a mapping, found the mechanism name {node.value!r}",
                "a query maps to the answers it gets ({answer: [p...]}); to let the adversary pick a mechanism, "
                "write choose: {q: M, ...} (or then: M to run M after an answer)",
            )
        items = self.r.mapping(node, path, "an answer distribution")
        if items is INVALID:
            return INVALID
        if not items:
            return self.r.error(node, path, "an answer distribution needs at least one answer")
        read = [self._answer(lab, vnode, child_path(path, lab)) for lab, _k, vnode in items]
        if any(a is INVALID for a in read):
            return INVALID
        labels = [lab for lab, _k, _v in items]
        rows = [row for row, _nxt, _texts in read]
        kids = [nxt for _row, nxt, _texts in read]
        if any(is_sym(p) for row in rows for p in row):
            return self._symbolic_chance(node, path, labels, rows, kids)
        for d, dname in enumerate(self.datasets):
            # exact in Q(e^(1/L)) too: its elements have one canonical form, so a sum equals 1
            # only when it is the rational 1
            total = sum((row[d] for row in rows), Q(0))
            if total != 1:
                texts = [t for _row, _nxt, ts in read for t in ts]
                return self.r.error(
                    node,
                    path,
                    f"probabilities under {dname} sum to {_total_text(total)}, not 1",
                    _sum_hint(total, texts),
                )
        return Chance(labels, rows, kids, check=False)

    def _answer(self, lab: str, vnode: yaml.Node, path: str) -> Any:
        """One answer: (probabilities, continuation, the probabilities' texts for hints)."""
        if isinstance(vnode, yaml.SequenceNode):
            row = self.tr.value(_PROBS, vnode, path)
            return INVALID if row is INVALID else (row, END, _texts(vnode))
        if not isinstance(vnode, yaml.MappingNode):
            return self.r.error(
                vnode,
                path,
                f"an answer is a list of probabilities or a mapping with `p:` (and `then:`), found {kind_of(vnode)}",
            )
        got = self.tr.record(AnswerSpec, vnode, path, "an answer")
        if got is INVALID:
            return INVALID
        pnode = next((v for k, v in vnode.value if k.value == "p"), None)
        return got.p, got.then, _texts(pnode) if isinstance(pnode, yaml.SequenceNode) else []

    def _symbolic_chance(self, node: yaml.Node, path: str, labels: list, rows: list, kids: list) -> Any:
        for d, dname in enumerate(self.datasets):
            total = sympy.cancel(sum((to_sympy(row[d]) for row in rows), sympy.Integer(0)))
            if total != 1:
                return self.r.error(
                    node,
                    path,
                    f"probabilities under {dname} sum to {total}, not identically 1",
                    "each answer distribution must sum to exactly 1 for every value of the symbols",
                )
        return SymChance(labels, [[to_sympy(p) for p in row] for row in rows], kids, check=False)


def _texts(node: yaml.Node) -> list[str]:
    return [v.value for v in node.value if isinstance(v, yaml.ScalarNode)]


def _total_text(total: Any) -> str:
    """The exact sum, with a decimal reading when it is not rational (a field element)."""
    if is_rational(total):
        return q_str(total)
    return f"{excerpt(ladder.text(total), quote=False)} ≈ {ladder.decimal(total)}"


def _sum_hint(total: Any, texts: list[str]) -> str:
    if not is_rational(total):
        return (
            "each answer distribution must sum to exactly 1 under every dataset; with exp(...) write the last "
            "probability as 1 minus the others, or divide every weight by their exact sum"
        )
    long_decimals = [t for t in texts if "." in t and len(t.split(".")[-1]) >= 3]
    if long_decimals and abs(total - 1) < Q(1, 50):
        return (
            f"decimals are exact: {long_decimals[0]} means exactly that, so rounded values do not sum to 1; "
            "write fractions such as 1/3"
        )
    return "each answer distribution must sum to exactly 1 under every dataset"
