"""Structural operations on game DAGs: grafting, hash-consing, sizes, networkx export."""

from __future__ import annotations

from collections.abc import Callable

from ..lazy import networkx as nx
from ..numbers.rational import q_str
from .game import END, Ask, Chance, End, Mechanism, Node, label_str, postorder
from .symbolic import SymChance

__all__ = [
    "graft",
    "share",
    "share_roots",
    "stats",
    "count_strategies",
    "strategy_counts",
    "COUNT_CAP",
    "to_networkx",
    "map_dag",
]


def map_dag(root: Node, leaf: Callable[[End], Node]) -> Node:
    """Rebuild the DAG bottom-up, replacing END by ``leaf(END)`` and keeping sharing."""
    new: dict[int, Node] = {}
    for node in postorder(root):
        if isinstance(node, End):
            new[node.uid] = leaf(node)
        elif isinstance(node, Ask):
            kids = tuple(new[c.uid] for c in node.children)
            new[node.uid] = node if all(a is b for a, b in zip(kids, node.children)) else Ask(node.labels, kids)
        elif isinstance(node, Chance):
            kids = tuple(new[c.uid] for c in node.children)
            new[node.uid] = node if all(a is b for a, b in zip(kids, node.children)) else _relink(node, kids)
        else:  # pragma: no cover
            raise TypeError(node)
    return new[root.uid]


def _relink(node: Chance, kids: tuple) -> Chance:
    """The same answer distribution with new children (symbolic ones stay symbolic)."""
    if isinstance(node, SymChance):
        return SymChance(node.labels, node.sym, kids, check=False)
    return Chance(node.labels, node.probs, kids, check=False)


def graft(root: Node, continuation: Node) -> Node:
    """Sequential continuation: every END of ``root`` becomes ``continuation`` (shared, not copied)."""
    if continuation is END:
        return root
    return map_dag(root, lambda _end: continuation)


def share(root: Node) -> Node:
    """Hash-cons the DAG: structurally identical sub-games become one node.

    Two sub-games are identical when they have the same labels, the same exact
    probabilities and identical children; views are unaffected (sharing is only memoisation).
    """
    return share_roots([root])[0]


def share_roots(roots: list[Node]) -> list[Node]:
    """:func:`share` over several games at once: equal sub-games of any of them become one
    node, so two equal games get the same root (``concomp`` recognises copies this way)."""
    canon: dict[tuple, Node] = {}
    new: dict[int, Node] = {}
    seen: set[int] = set()
    order: list[Node] = []
    for r in roots:
        for node in postorder(r):
            if node.uid not in seen:
                seen.add(node.uid)
                order.append(node)
    for node in order:
        if isinstance(node, End):
            new[node.uid] = node
            continue
        kids = tuple(new[c.uid] for c in node.children_nodes())
        key: tuple
        if isinstance(node, Ask):
            key = ("A", node.labels, tuple(k.uid for k in kids))
        elif isinstance(node, SymChance):
            key = ("S", node.labels, node.sym, tuple(k.uid for k in kids))
        else:
            assert isinstance(node, Chance)
            key = ("C", node.labels, node.probs, tuple(k.uid for k in kids))
        hit = canon.get(key)
        if hit is None:
            if all(a is b for a, b in zip(kids, node.children_nodes())):
                hit = node
            elif isinstance(node, Ask):
                hit = Ask(node.labels, kids)
            else:
                assert isinstance(node, Chance)
                hit = _relink(node, kids)
            canon[key] = hit
        new[node.uid] = hit
    return [new[r.uid] for r in roots]


def stats(root: Node) -> dict[str, int]:
    """Node and edge counts of the DAG, and its depth (moves on the longest path)."""
    n_ask = n_chance = e_ask = e_chance = 0
    depth: dict[int, int] = {}
    for node in postorder(root):
        kids = node.children_nodes()
        depth[node.uid] = 1 + max((depth[c.uid] for c in kids), default=-1)
        if isinstance(node, Ask):
            n_ask += 1
            e_ask += len(kids)
        elif isinstance(node, Chance):
            n_chance += 1
            e_chance += len(kids)
    return {
        "ask_nodes": n_ask,
        "chance_nodes": n_chance,
        "choice_edges": e_ask,
        "answer_edges": e_chance,
        "depth": depth[root.uid],
    }


COUNT_CAP = 10**100


class MoreThan(int):
    """A saturated count: the int ``cap + 1``, shown as "more than <cap>"."""

    cap_text = "10^100"

    def __str__(self) -> str:
        return f"more than {self.cap_text}"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return str(self) if not spec else int.__format__(int(self), spec)


def count_strategies(root: Node, *, cap: int | None = COUNT_CAP) -> int:
    """Number of deterministic adversary strategies (Lemma 2.2), exactly up to ``cap``.

    A strategy fixes one option at every history reaching an Ask node; so the count is a sum
    over options at Ask nodes and a product over answers at Chance nodes.  The count is doubly
    exponential in the depth (a horizon-50 automaton has more than 2^(2^50) adversaries), so it
    saturates: a count above ``cap`` is returned as ``cap + 1``, a :class:`MoreThan` that prints
    as "more than <cap>"; ``cap=None`` computes it exactly whatever it costs.
    """
    top = None if cap is None else cap + 1
    n = strategy_counts(root, cap=cap)[root.uid]
    if top is not None and n >= top:
        out = MoreThan(top)
        out.cap_text = "10^100" if cap == COUNT_CAP else str(cap)
        return out
    return n


def strategy_counts(root: Node, *, cap: int | None = COUNT_CAP) -> dict[int, int]:
    """The number of deterministic adversaries below every node, by ``uid`` (each saturated at
    ``cap + 1`` as in :func:`count_strategies`; ``cap=None``: exact)."""
    top = None if cap is None else cap + 1
    count: dict[int, int] = {}
    for node in postorder(root):
        if isinstance(node, Ask):
            n = sum(count[c.uid] for c in node.children)
            count[node.uid] = n if top is None else min(n, top)
        elif isinstance(node, Chance):
            prod = 1
            for c in node.children:
                prod *= count[c.uid]
                if top is not None and prod >= top:
                    prod = top
                    break
            count[node.uid] = prod
        else:
            count[node.uid] = 1
    return count


def to_networkx(mech: Mechanism):
    """The DAG as a ``networkx.MultiDiGraph``: nodes carry ``kind``; edges carry ``label``
    and, for answers, ``p`` (exact probabilities as text, one per dataset)."""

    g = nx.MultiDiGraph(datasets=list(mech.datasets), name=mech.name)
    for node in postorder(mech.root):
        g.add_node(node.uid, kind=node.kind)
        if isinstance(node, Ask):
            for lab, child in zip(node.labels, node.children):
                g.add_edge(node.uid, child.uid, label=label_str(lab))
        elif isinstance(node, Chance):
            for lab, row, child in zip(node.labels, node.probs, node.children):
                g.add_edge(node.uid, child.uid, label=label_str(lab), p=[q_str(x) for x in row])
    return g
