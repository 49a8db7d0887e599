"""Combinators: sequential composition, repetition, concurrent composition, adversary choice.

All components run on the same datasets.  Each combinator returns a :class:`Mechanism` whose
game DAG shares sub-games instead of expanding histories:

* ``compose``/``repeat`` graft one shared continuation at every end (k-fold RR: k+1 levels);
* ``concomp`` builds one node per *joint state* of the components, not per interleaving.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from ..errors import InvalidMechanismError
from ..model.checks import collection_arg, mechanism_arg, takes_mechanism
from ..model.dag import build_dag
from ..model.game import END, Ask, Chance, End, Label, Mechanism, Node, label_str
from ..model.ops import graft, share_roots
from ..model.symbolic import rows_of
from .params import whole_arg

__all__ = ["compose", "repeat", "concomp", "choose", "same_datasets", "distinct_labels"]


def same_datasets(mechs: Sequence[Mechanism], what: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The common datasets/adjacency of ``mechs``; refuses mixtures."""
    if not mechs:
        raise InvalidMechanismError(f"{what} needs at least one mechanism")
    for k, m in enumerate(mechs):
        mechanism_arg(m, what, f"component #{k + 1}")
    ds, adj = mechs[0].datasets, mechs[0].adjacent
    for m in mechs[1:]:
        if m.datasets != ds:
            raise InvalidMechanismError(
                f"{what}: components run on different datasets ({list(ds)} vs {list(m.datasets)})"
            )
    return ds, adj


def distinct_labels(wanted: Sequence[str | None]) -> list[str]:
    """One distinct label per list item: the wanted label (a component's name) or, for an
    item without one, its index; a repeated label gets ``#2``, ``#3``, ... appended.

    Every list item stays one component: ``[R, R]`` is two copies of R, labelled ``R`` and
    ``R#2`` (a map keyed by name would silently keep one).

    >>> distinct_labels(["R", "R", None, "R"])
    ['R', 'R#2', '2', 'R#3']
    """
    out: list[str] = []
    taken: set[str] = set()
    for i, w in enumerate(wanted):
        base = str(i) if w is None else str(w)
        label, k = base, 1
        while label in taken:
            k += 1
            label = f"{base}#{k}"
        taken.add(label)
        out.append(label)
    return out


def carries_copies(fn: Callable[..., Mechanism]) -> Callable[..., Mechanism]:
    """Decorator of a combinator: when a mechanism it combines is a :func:`concomp` whose copies
    were merged (or holds one), the result keeps how to build it from those built with every copy
    named, for non-adaptive adversaries (:func:`~exactdp.model.nonadaptive.nonadaptive_game`)."""

    @functools.wraps(fn)
    def built(*args: Any, **kw: Any) -> Mechanism:
        out = fn(*args, **kw)
        if "_unmerged" not in out.__dict__ and _merged_inside((args, kw)):
            object.__setattr__(out, "_unmerged", partial(_rebuilt, built, args, kw))  # (built pickles by name)
        return out

    return built


def _merged_inside(x: Any) -> bool:
    if isinstance(x, Mechanism):
        return "_unmerged" in x.__dict__
    items = x.values() if isinstance(x, Mapping) else x if isinstance(x, (list, tuple)) else ()
    return any(_merged_inside(y) for y in items)


def _named_copies(x: Any) -> Any:
    """``x`` with every mechanism that merged copies replaced by the one with every copy named."""
    if isinstance(x, Mechanism):
        return x.__dict__["_unmerged"]() if "_unmerged" in x.__dict__ else x
    if isinstance(x, Mapping):
        return {k: _named_copies(v) for k, v in x.items()}
    return type(x)(_named_copies(y) for y in x) if isinstance(x, (list, tuple)) else x


def _rebuilt(fn: Callable[..., Mechanism], args: tuple, kw: dict) -> Mechanism:
    return fn(*_named_copies(args), **_named_copies(kw))


@carries_copies
def compose(mechs: Sequence[Mechanism], *, name: str = "compose") -> Mechanism:
    """Sequential composition: all of m1's interaction, then m2's, ...

    For noninteractive components this is Comp(M_0, ..., M_{k-1}) of Vadhan–Wang §1.2; for
    interactive ones it is sequential composition (§1.4).
    """
    mechs = list(collection_arg(mechs, "compose", "mechs"))
    ds, adj = same_datasets(mechs, "compose")
    root: Node = END
    for m in reversed(mechs):
        root = graft(m.root, root)
    return Mechanism(root, ds, adj, name)


@carries_copies
@takes_mechanism
def repeat(mech: Mechanism, times: int, *, name: str | None = None) -> Mechanism:
    """``compose`` of ``times`` copies of ``mech`` (a DAG of ``times`` shared layers)."""
    if whole_arg(times, call="repeat", name="times") < 0:
        raise InvalidMechanismError(f"repeat: times must be >= 0, got {times}")
    root: Node = END
    for _ in range(times):
        root = graft(mech.root, root)
    out = Mechanism(root, mech.datasets, mech.adjacent, name or f"repeat({mech.name},{times})")
    object.__setattr__(out, "_repeat", (mech, times))  # (its profile is a product: analysis.product)
    return out


@carries_copies
def choose(options: Mapping[str, Mechanism] | Sequence[Mechanism], *, name: str = "choose") -> Mechanism:
    """The adversary picks one mechanism, then interacts with it.

    ``compose`` of ``choose`` is adaptive (later choices see earlier answers); ``choose`` of
    ``compose`` is not (the whole sequence is fixed up front).
    """
    collection_arg(options, "choose", "options")
    if isinstance(options, Mapping):
        labels, mechs = list(options), list(options.values())
    else:
        mechs = list(options)
        labels = [str(i) for i in range(len(mechs))]
    ds, adj = same_datasets(mechs, "choose")
    return Mechanism(Ask(labels, [m.root for m in mechs]), ds, adj, name)


def concomp(
    components: Mapping[str, Mechanism] | Sequence[Mechanism],
    *,
    name: str = "concomp",
    max_nodes: int | None = None,
    merge_copies: bool = True,
) -> Mechanism:
    """Concurrent composition ConComp(M_0, ..., M_{k-1}) (Vadhan–Wang Def. 2.1).

    At every step the adversary picks a component j that has not ended and a query for it;
    the component answers from its own state, and the other components keep theirs.  A
    component waiting at an answer node (it speaks without a query, ``respond:``) is polled by
    choosing it: the option is labelled by the component alone.  Query labels are qualified by
    the component (``M1.q0``).

    Sub-games are shared by the tuple of component states, so the DAG has at most
    Π_j ``|nodes(M_j)|`` choice nodes whatever the number of interleavings.

    *Copies of one mechanism* (components whose games are equal, after equal sub-games are
    merged, :func:`~exactdp.model.ops.share`) are interchangeable: permuting them maps every
    adversary's views one-to-one onto another adversary's, with the same probabilities.  So
    with ``merge_copies`` (the default) the joint state keeps only *how many* copies are in
    each state (a multiset), and the adversary's options are "a copy in state s, query q":
    k copies of a game with n states give at most C(n + k − 1, k) joint states instead of
    n^k (100 copies of randomized response: 101).  Every privacy quantity of the views
    (profile, PrivLoss, Rényi divergences, trade-off functions) is unchanged.  Such an option
    is labelled by the copies' name and, for a copy that has moved, its own history in
    brackets: ``R.q0`` asks q0 of a fresh copy of R, ``R[q0→1].q1`` asks q1 of a copy that
    answered 1 to q0 (``R[...| …]`` when other histories of that copy lead to the same
    state).  ``merge_copies=False`` builds one state per tuple of component states, with
    every copy named (the construction before copies were merged, kept as a reference); a
    merged game keeps how to build it, for non-adaptive adversaries, whose fixed sequence of
    queries names the copies (:func:`~exactdp.model.nonadaptive.nonadaptive_game`).
    """
    collection_arg(components, "concomp")
    if isinstance(components, Mapping):
        names, mechs = [str(k) for k in components], list(components.values())
    else:
        mechs = list(components)
        names = [str(i) for i in range(len(mechs))]
    ds, adj = same_datasets(mechs, "concomp")
    roots = [m.root for m in mechs]
    if merge_copies and len(roots) > 1:
        roots = share_roots(roots)
        groups = _copies(roots)
    else:
        groups = [[k] for k in range(len(roots))]
    whos = [_Copies(roots[g[0]], [names[k] for k in g]) if len(g) > 1 else names[g[0]] for g in groups]

    def expand(state):
        tag, answering, states = state
        if tag == "answer":
            g, node = answering
            nxt = [("wait", None, _moved(states, g, node, child)) for child in node.children]
            return ("chance", node.labels, rows_of(node), nxt)
        labels: list[Label] = []
        succ: list[tuple] = []
        for g, members in enumerate(states):
            prev = None
            for node in members:  # sorted: copies in one state are adjacent, and give one option
                if node is prev or isinstance(node, End):
                    continue
                prev = node
                who = whos[g]
                if not isinstance(who, str):
                    who = who.label(node)
                if isinstance(node, Chance):
                    labels.append((who,))
                    succ.append(("answer", (g, node), states))
                    continue
                for lab, child in zip(node.labels, node.children):
                    labels.append((who, lab))
                    moved = _moved(states, g, node, child)
                    succ.append(("answer", (g, child), moved) if isinstance(child, Chance) else ("wait", None, moved))
        if not labels:
            return ("end",)
        return ("ask", labels, succ)

    initial = tuple(tuple(sorted((roots[k] for k in g), key=_uid)) for g in groups)
    kwargs: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    root = build_dag(("wait", None, initial), expand, **kwargs)
    out = Mechanism(root, ds, adj, name)
    if any(len(g) > 1 for g in groups) or _merged_inside(components):  # a fixed query sequence names
        named = _named_copies(components)  # copies, which the multiset forgets
        object.__setattr__(
            out, "_unmerged", partial(concomp, named, name=name, max_nodes=max_nodes, merge_copies=False)
        )
    return out


def _uid(node: Node) -> int:
    return node.uid


def _copies(roots: Sequence[Node]) -> list[list[int]]:
    """Component indices grouped by equal game (the same root after sharing), in order of
    first appearance."""
    groups: dict[int, list[int]] = {}
    for k, r in enumerate(roots):
        groups.setdefault(id(r), []).append(k)
    return list(groups.values())


def _moved(states: tuple, g: int, old: Node, new: Node) -> tuple:
    """``states`` with one copy of group g moved from ``old`` to ``new`` (kept sorted by uid)."""
    members = list(states[g])
    members.remove(old)  # one copy (nodes compare by identity)
    members.append(new)
    if len(members) > 1:
        members.sort(key=_uid)
    return states[:g] + (tuple(members),) + states[g + 1 :]


class _Copies:
    """The labels of interchangeable copies of one game: the copies' name, and for a copy
    that has left the start its own history (``R[q0→1]``)."""

    def __init__(self, root: Node, names: list[str]):
        self.name = _group_name(names)
        self.root = root
        self._text: dict[int, str] | None = None

    def label(self, node: Node) -> str:
        if node is self.root:
            return self.name
        if self._text is None:
            self._text = _own_histories(self.root)
        return f"{self.name}[{self._text[node.uid]}]"


def _group_name(names: list[str]) -> str:
    """``R`` for copies named R, R#2, R#3 (:func:`distinct_labels`); ``A|B`` otherwise."""
    base = names[0]
    if all(n == base or (n.startswith(base + "#") and n[len(base) + 1 :].isdigit()) for n in names):
        return base
    return "|".join(names)


def _own_histories(root: Node) -> dict[int, str]:
    """Every node's first history from ``root`` (depth first, options in order) as text, as a
    witness prints histories (``q0→1, q1→0``; an answer with no query before it alone), with
    ``| …`` when other histories reach the same node."""
    first: dict[int, tuple] = {root.uid: ()}
    many: set[int] = set()
    stack: list[tuple[Node, tuple]] = [(root, ())]
    while stack:
        node, hist = stack.pop()
        if isinstance(node, End):
            continue
        kind = "q" if isinstance(node, Ask) else "a"
        fresh = []
        for lab, child in zip(node.labels, node.children):  # type: ignore[attr-defined]
            if child.uid in first:
                many.add(child.uid)
                continue
            first[child.uid] = hist + ((kind, lab),)
            fresh.append(child)
        stack.extend((child, first[child.uid]) for child in reversed(fresh))
    return {uid: _history_text(h) + (" | …" if uid in many else "") for uid, h in first.items()}


def _history_text(hist: tuple) -> str:
    """``q0→yes, q1→no`` (the format of :func:`exactdp.analysis.witness.format_history`)."""
    parts: list[str] = []
    pending: str | None = None
    for kind, lab in hist:
        if kind == "q":
            if pending is not None:
                parts.append(pending)
            pending = label_str(lab)
        else:
            parts.append((pending + "→" if pending is not None else "") + label_str(lab))
            pending = None
    if pending is not None:
        parts.append(pending)
    return ", ".join(parts)
