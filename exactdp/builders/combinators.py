"""Combinators: sequential composition, repetition, concurrent composition, adversary choice.

All components run on the same datasets.  Each combinator returns a :class:`Mechanism` whose
game DAG shares sub-games instead of expanding histories:

* ``compose``/``repeat`` graft one shared continuation at every end (k-fold RR: k+1 levels);
* ``concomp`` builds one node per *joint state* of the components, not per interleaving.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import CaseError, CaseProblem
from ..model.dag import build_dag
from ..model.game import END, Ask, Chance, End, Label, Mechanism, Node
from ..model.ops import graft
from ..model.symbolic import rows_of

__all__ = ["compose", "repeat", "concomp", "choose", "same_datasets", "distinct_labels"]


def same_datasets(mechs: Sequence[Mechanism], what: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The common datasets/adjacency of ``mechs``; refuses mixtures."""
    if not mechs:
        raise CaseError(CaseProblem(f"{what} needs at least one mechanism"))
    ds, adj = mechs[0].datasets, mechs[0].adjacent
    for m in mechs[1:]:
        if m.datasets != ds:
            raise CaseError(
                CaseProblem(f"{what}: components run on different datasets ({list(ds)} vs {list(m.datasets)})")
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


def compose(mechs: Sequence[Mechanism], *, name: str = "compose") -> Mechanism:
    """Sequential composition: all of m1's interaction, then m2's, ...

    For noninteractive components this is Comp(M_0, ..., M_{k-1}) of Vadhan–Wang §1.2; for
    interactive ones it is sequential composition (§1.4).
    """
    ds, adj = same_datasets(mechs, "compose")
    root: Node = END
    for m in reversed(mechs):
        root = graft(m.root, root)
    return Mechanism(root, ds, adj, name)


def repeat(mech: Mechanism, times: int, *, name: str | None = None) -> Mechanism:
    """``compose`` of ``times`` copies of ``mech`` (a DAG of ``times`` shared layers)."""
    if times < 0:
        raise CaseError(CaseProblem(f"repeat: times must be >= 0, got {times}"))
    root: Node = END
    for _ in range(times):
        root = graft(mech.root, root)
    return Mechanism(root, mech.datasets, mech.adjacent, name or f"repeat({mech.name},{times})")


def choose(options: Mapping[str, Mechanism] | Sequence[Mechanism], *, name: str = "choose") -> Mechanism:
    """The adversary picks one mechanism, then interacts with it.

    ``compose`` of ``choose`` is adaptive (later choices see earlier answers); ``choose`` of
    ``compose`` is not (the whole sequence is fixed up front).
    """
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
) -> Mechanism:
    """Concurrent composition ConComp(M_0, ..., M_{k-1}) (Vadhan–Wang Def. 2.1).

    At every step the adversary picks a component j that has not ended and a query for it;
    the component answers from its own state, and the other components keep theirs.  A
    component waiting at an answer node (it speaks without a query, ``respond:``) is polled by
    choosing it: the option is labelled by the component alone.  Query labels are qualified by
    the component (``M1.q0``).

    Sub-games are shared by the tuple of component states, so the DAG has at most
    Π_j ``|nodes(M_j)|`` choice nodes whatever the number of interleavings.
    """
    if isinstance(components, Mapping):
        names, mechs = [str(k) for k in components], list(components.values())
    else:
        mechs = list(components)
        names = [str(i) for i in range(len(mechs))]
    ds, adj = same_datasets(mechs, "concomp")

    def expand(state):
        tag, j, states = state
        if tag == "answer":
            node = states[j]
            nxt = [("wait", -1, states[:j] + (child,) + states[j + 1 :]) for child in node.children]
            return ("chance", node.labels, rows_of(node), nxt)
        labels: list[Label] = []
        succ = []
        for k, node in enumerate(states):
            if isinstance(node, End):
                continue
            if isinstance(node, Chance):
                labels.append((names[k],))
                succ.append(("answer", k, states))
                continue
            for lab, child in zip(node.labels, node.children):
                labels.append((names[k], lab))
                moved = states[:k] + (child,) + states[k + 1 :]
                succ.append(("answer", k, moved) if isinstance(child, Chance) else ("wait", -1, moved))
        if not labels:
            return ("end",)
        return ("ask", labels, succ)

    kwargs: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    root = build_dag(("wait", -1, tuple(m.root for m in mechs)), expand, **kwargs)
    return Mechanism(root, ds, adj, name)
