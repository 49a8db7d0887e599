"""Flat storage of a game DAG: arrays of kinds, children, labels and probabilities.

The engines' hot loops (:mod:`exactdp.analysis.induction`) walk a game by integer index rather
than through node objects: every node once, children before parents (postorder), with

* ``kind[v]``: :data:`END_KIND`, :data:`ASK_KIND` or :data:`CHANCE_KIND`;
* the edges of node v: ``start[v] <= e < start[v + 1]``, each with ``child[e]`` (an index),
  ``label[e]`` and, for an answer, ``probs[d][e]`` (its probability under dataset d; ``None``
  on an adversary's edge).

A :class:`FlatGame` is made two ways:

* :func:`flatten` lists an existing DAG of :class:`~exactdp.model.game.Node` objects (cached on
  the :class:`~exactdp.model.game.Mechanism` by :func:`flat_of`);
* :class:`FlatBuilder` builds one directly, without node objects: the case reader stores a big
  explicit tree this way (about 60 bytes per answer edge instead of about 1 KB), and the nodes
  that other code walks (witnesses, certificates, drawings) are *views* made on demand
  (:meth:`FlatGame.node_at`), with the same interface as :class:`Ask` and :class:`Chance`.

The storage is a detail behind the model's interface: a mechanism read into flat storage is a
:class:`Mechanism` whose root is such a view, and :func:`~exactdp.model.game.postorder`,
``node.labels``, ``node.probs`` and ``node.children`` work on it as on any other node.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate, chain, repeat
from operator import attrgetter, lt
from typing import Any

from .. import limits as _limits
from .game import END, Ask, Chance, End, Label, Mechanism, Node, postorder, reserve_uids

__all__ = [
    "FlatGame",
    "FlatBuilder",
    "flatten",
    "flat_of",
    "END_KIND",
    "ASK_KIND",
    "CHANCE_KIND",
]

END_KIND, ASK_KIND, CHANCE_KIND = 0, 1, 2
_KIND = {End: END_KIND, Ask: ASK_KIND, Chance: CHANCE_KIND}
_uid = attrgetter("uid")


class FlatGame:
    """A game DAG as flat arrays, nodes numbered in postorder (the root is the last node).

    Attributes
    ----------
    kind : bytearray
        Per node: ``END_KIND``, ``ASK_KIND`` or ``CHANCE_KIND``.
    start : array of int
        ``start[v]:start[v + 1]`` are node v's edges (``len(start) == n + 1``).
    child, label : array of int, list
        Per edge: the child's index and the edge's label (``label`` is None when the game keeps
        its node objects, which hold the labels).
    probs : list of lists
        ``probs[d][e]``: the probability of answer edge e under dataset d (``None`` on an
        adversary's edge).
    """

    __slots__ = ("kind", "start", "child", "label", "probs", "uid0", "cache", "_nodes", "_views")

    def __init__(
        self,
        kind: bytearray,
        start: array,
        child: array,
        label: list | None,
        probs: list[list],
        nodes: list[Node] | None,
    ):
        self.kind = kind
        self.start = start
        self.child = child
        self.label = label
        self.probs = probs
        self._nodes = nodes
        self._views: dict[int, Node] = {}
        self.cache: dict[str, Any] = {}  # what the engines derive once per game (parent counts, ...)
        self.uid0 = reserve_uids(len(kind)) if nodes is None else 0

    def __len__(self) -> int:
        return len(self.kind)

    @property
    def n_datasets(self) -> int:
        return len(self.probs)

    @property
    def root(self) -> Node:
        """The root node (the last in postorder)."""
        return self.node_at(len(self.kind) - 1)

    def node_at(self, v: int) -> Node:
        """Node v as a :class:`Node`: the original object, or a view on these arrays (one per
        index, so its ``uid`` is stable)."""
        if self._nodes is not None:
            return self._nodes[v]
        if self.kind[v] == END_KIND:
            return END
        node = self._views.get(v)
        if node is None:
            node = (_FlatAsk if self.kind[v] == ASK_KIND else _FlatChance)(self, v)
            self._views[v] = node
        return node

    def nodes(self) -> list[Node]:
        """Every node in postorder (views are made for every node: use for small games)."""
        return [self.node_at(v) for v in range(len(self.kind))]

    def edge_count(self) -> int:
        return len(self.child)

    def answer_edges(self) -> int:
        """The number of answer edges (those of ``Chance`` nodes)."""
        kind, start = self.kind, self.start
        return sum(start[v + 1] - start[v] for v in range(len(kind)) if kind[v] == CHANCE_KIND)

    def parents_count(self) -> array:
        """How many edges lead to each node (0 for the root)."""
        count = array("q", bytes(8 * len(self.kind)))
        for c in self.child:
            count[c] += 1
        return count

    def __reduce__(self) -> tuple:
        return (_rebuild, (self.kind, self.start, self.child, self.label, self.probs, self._nodes))


def _rebuild(kind: bytearray, start: array, child: array, label: list, probs: list, nodes: Any) -> FlatGame:
    return FlatGame(kind, start, child, label, probs, nodes)


class _FlatView:
    """A node stored in a :class:`FlatGame`, seen as a node object: labels and children are
    read from the flat arrays on demand (shared by adversary choices and answers)."""

    __slots__ = ()
    _g: FlatGame
    _v: int

    def __init__(self, g: FlatGame, v: int):  # noqa: D107 - checked and counted when built
        # (the slots are the subclasses': a mixin with slots of its own could not be combined
        # with the node classes' slots)
        self._g = g  # type: ignore[misc]
        self._v = v  # type: ignore[misc]
        self.uid = g.uid0 + v  # type: ignore[misc]

    @property
    def labels(self) -> tuple[Label, ...]:
        g = self._g
        assert g.label is not None  # views exist only for games that store their labels
        return tuple(g.label[g.start[self._v] : g.start[self._v + 1]])

    @property
    def children(self) -> tuple[Node, ...]:
        g = self._g
        return tuple(g.node_at(c) for c in g.child[g.start[self._v] : g.start[self._v + 1]])

    def children_nodes(self) -> Sequence[Node]:
        return self.children

    def __reduce__(self) -> tuple:
        return (_view, (self._g, self._v))


class _FlatAsk(_FlatView, Ask):  # type: ignore[misc, override]
    """An adversary choice stored in a :class:`FlatGame`."""

    __slots__ = ("_g", "_v")


class _FlatChance(_FlatView, Chance):  # type: ignore[misc, override]
    """An answer distribution stored in a :class:`FlatGame`."""

    __slots__ = ("_g", "_v")

    @property
    def probs(self) -> tuple[tuple[Any, ...], ...]:  # type: ignore[override]
        g = self._g
        s, e = g.start[self._v], g.start[self._v + 1]
        cols = [col[s:e] for col in g.probs]
        return tuple(zip(*cols))


def _view(g: FlatGame, v: int) -> Node:
    return g.node_at(v)


def is_flat_root(node: Node) -> bool:
    """Whether ``node`` is the root view of a :class:`FlatGame` built by :class:`FlatBuilder`."""
    return isinstance(node, (_FlatAsk, _FlatChance)) and node._v == len(node._g.kind) - 1


def flatten(root: Node, n_datasets: int) -> FlatGame:
    """The flat arrays of the DAG below ``root`` (its nodes kept, for :meth:`FlatGame.node_at`).

    Raises
    ------
    UnsupportedMechanismError
        For symbolic probabilities (reading ``probs`` of a symbolic node refuses).
    ValueError
        When an answer distribution does not have ``n_datasets`` probabilities per answer.
    """
    if isinstance(root, (_FlatAsk, _FlatChance)) and is_flat_root(root) and root._g.n_datasets == n_datasets:
        return root._g
    order = _collect(root)
    types = set(map(type, order))
    if not types <= {Ask, Chance, End}:  # subclasses (symbolic answers, views): node by node
        return _flatten_nodes(postorder(root), n_datasets)
    game = _flatten_plain(order, n_datasets)
    if game is None:  # ids out of order (nodes from elsewhere): the general order
        game = _flatten_plain(postorder(root), n_datasets)
        assert game is not None
    return game


def _collect(root: Node) -> list[Node]:
    """Every node below ``root``, by increasing ``uid``: children are made before their
    parents, so this is an order with children first (checked by :func:`_flatten_plain`)."""
    seen = {root.uid: root}
    frontier = [root]
    while frontier:
        nxt = []
        for node in frontier:
            for c in node.children_nodes():
                u = c.uid
                if u not in seen:
                    seen[u] = c
                    nxt.append(c)
        frontier = nxt
    return [seen[u] for u in sorted(seen)]


def _flatten_plain(order: list[Node], n_datasets: int) -> FlatGame | None:
    """:func:`flatten` of nodes of the plain types listed children first, by bulk operations
    (None if some child comes after its parent in ``order``)."""
    index = {node.uid: v for v, node in enumerate(order)}
    kind = bytearray(map(_KIND.__getitem__, map(type, order)))
    kids = [node.children if node is not END else () for node in order]  # type: ignore[attr-defined]
    filler = (None,) * n_datasets
    rows = list(
        chain.from_iterable(
            [node.probs if type(node) is Chance else (filler,) * len(k) for node, k in zip(order, kids) if k]
        )
    )
    if len(set(map(len, rows))) > 1 or (rows and len(rows[0]) != n_datasets):
        raise ValueError(
            f"an answer distribution does not give {n_datasets} probabilities per answer (one per dataset)"
        )
    child = array("q", map(index.__getitem__, map(_uid, chain.from_iterable(kids))))
    sizes = list(map(len, kids))
    parent = chain.from_iterable(map(repeat, range(len(order)), sizes))
    if not all(map(lt, child, parent)):
        return None
    start = array("q", accumulate(sizes, initial=0))
    cols = [list(col) for col in zip(*rows)] if rows else [[] for _ in range(n_datasets)]
    return FlatGame(kind, start, child, None, cols, order)


def _flatten_nodes(order: list[Node], n_datasets: int) -> FlatGame:
    """:func:`flatten` node by node (any subclass of the node types)."""
    index = {node.uid: v for v, node in enumerate(order)}
    kind = bytearray(len(order))
    start = array("q")
    child = array("q")
    label: list = []
    rows: list = []
    filler = (None,) * n_datasets
    for v, node in enumerate(order):
        start.append(len(child))
        if isinstance(node, Chance):
            kind[v] = CHANCE_KIND
            probs = node.probs
            if any(len(row) != n_datasets for row in probs):
                raise ValueError(
                    f"an answer distribution does not give {n_datasets} probabilities per answer (one per dataset)"
                )
            rows.extend(probs)
        elif isinstance(node, Ask):
            kind[v] = ASK_KIND
            rows.extend([filler] * len(node.children))
        elif isinstance(node, End):
            continue
        else:  # pragma: no cover
            raise TypeError(node)
        child.extend([index[c.uid] for c in node.children])
        label.extend(node.labels)
    start.append(len(child))
    cols = [list(col) for col in zip(*rows)] if rows else [[] for _ in range(n_datasets)]
    return FlatGame(kind, start, child, label, cols, order)


def flat_of(mech: Mechanism) -> FlatGame:
    """The flat arrays of ``mech``'s game, built once per mechanism and kept with it."""
    g = mech.__dict__.get("_flat")
    if g is None:
        g = flatten(mech.root, len(mech.datasets))
        object.__setattr__(mech, "_flat", g)
    return g


class FlatBuilder:
    """Builds a :class:`FlatGame` node by node, children first, without node objects.

    Each ``add_*`` returns the new node's index; the last node added is the root.  Probability
    rows are taken as they are (the caller checks them); equal labels and probabilities should
    be passed as the same objects (interned) to keep the storage small.
    """

    def __init__(self, n_datasets: int):
        self.kind = bytearray()
        self.start = array("q")
        self.child = array("q")
        self.label: list = []
        self.probs: list[list] = [[] for _ in range(n_datasets)]
        self._end: int | None = None
        self._counted = 0

    def end(self) -> int:
        """The index of END (one node for every end of the game)."""
        if self._end is None:
            self._end = self._node(END_KIND)
        return self._end

    def _node(self, kind: int) -> int:
        v = len(self.kind)
        if v - self._counted >= 4096:  # the node budget, checked as the game grows
            _limits.count_nodes(v - self._counted)
            self._counted = v
        self.kind.append(kind)
        self.start.append(len(self.child))
        return v

    def ask(self, labels: Sequence[Label], children: Sequence[int]) -> int:
        v = self._node(ASK_KIND)
        self.child.extend(children)
        self.label.extend(labels)
        for col in self.probs:
            col.extend([None] * len(children))
        return v

    def chance(self, labels: Sequence[Label], rows: Sequence[Sequence[Any]], children: Sequence[int]) -> int:
        v = self._node(CHANCE_KIND)
        self.child.extend(children)
        self.label.extend(labels)
        for d, col in enumerate(self.probs):
            col.extend(row[d] for row in rows)
        return v

    def finish(self) -> FlatGame:
        """The game (its root is the last node added); the nodes count against ``max_nodes``."""
        _limits.count_nodes(len(self.kind) - self._counted - (self._end is not None))
        self.start.append(len(self.child))
        return FlatGame(self.kind, self.start, self.child, self.label, self.probs, None)
