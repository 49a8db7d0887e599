"""Build a game DAG from a finite state-transition description, sharing equal states.

Combinators (concurrent composition, automata, continual mechanisms) describe a game by its
states: ``expand(state)`` says whether the state is an adversary choice, an answer or the end,
and names the successor states.  Equal states become one node, so the DAG has one node per
reachable state instead of one per history.  The construction is iterative (no recursion
limit) and visits states in a deterministic order.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..errors import LimitExceededError
from ..numbers.qt import QtElement
from ..numbers.rational import as_q
from ..numbers.symbolic import is_symbolic
from .flat import FlatBuilder
from .game import END, Ask, Node, check_labels
from .symbolic import chance_node

__all__ = ["build_dag", "Expansion", "DEFAULT_MAX_NODES"]

DEFAULT_MAX_NODES = 5_000_000

# ("end",) | ("ask", labels, states) | ("chance", labels, probs, states) | ("node", Node)
Expansion = tuple


def build_dag(
    initial: Hashable,
    expand: Callable[[Any], Expansion],
    *,
    max_nodes: int = DEFAULT_MAX_NODES,
    check: bool = False,
) -> Node:
    """Return the root node of the DAG generated from ``initial`` by ``expand``.

    ``expand(state)`` returns one of

    * ``("end",)`` – the interaction is over;
    * ``("ask", labels, next_states)`` – the adversary chooses;
    * ``("chance", labels, probs, next_states)`` – the mechanism answers, ``probs[k]`` being the
      probability vector (one entry per dataset) of outcome k;
    * ``("node", node)`` – an already built node (a sub-game to graft as is).

    Raises :class:`~exactdp.errors.LimitExceededError` if more than ``max_nodes`` states are reached.
    """
    expansions: dict[Hashable, Expansion] = {}
    built: dict[Hashable, Node] = {}
    order: list[Hashable] = []
    stack: list[tuple[Hashable, int]] = [(initial, 0)]
    on_stack: set = set()
    while stack:
        state, i = stack.pop()
        if i == 0:
            if state in expansions:
                continue
            exp = expand(state)
            expansions[state] = exp
            on_stack.add(state)
            if len(expansions) > max_nodes:
                raise LimitExceededError(
                    "the number of game states", max_nodes, "raise it with --max-nodes (or max_nodes=...)"
                )
        exp = expansions[state]
        succ: Sequence[Hashable] = exp[2] if exp[0] == "ask" else exp[3] if exp[0] == "chance" else ()
        if i < len(succ):
            stack.append((state, i + 1))
            nxt = succ[i]
            if nxt not in expansions:
                stack.append((nxt, 0))
            elif nxt in on_stack:
                raise ValueError("the state-transition description has a cycle; games must be finite")
        else:
            on_stack.discard(state)
            order.append(state)
    if not check:
        root = _build_flat(order, expansions)
        if root is not None:
            return root
    for state in order:
        exp = expansions[state]
        kind = exp[0]
        if kind == "end":
            built[state] = END
        elif kind == "node":
            built[state] = exp[1]
        elif kind == "ask":
            built[state] = Ask(exp[1], [built[s] for s in exp[2]])
        elif kind == "chance":
            built[state] = chance_node(exp[1], exp[2], [built[s] for s in exp[3]], check=check)
        else:  # pragma: no cover
            raise ValueError(f"unknown expansion {kind!r}")
    return built[initial]


def _build_flat(order: list, expansions: dict) -> Node | None:
    """The DAG in flat storage (:mod:`exactdp.model.flat`): no node objects, the engines' own
    layout.  None when a state grafts an already built node, the answer rows are not all of
    one width, or a probability depends on declared symbols (then node objects are built)."""
    width = None
    for exp in expansions.values():
        if exp[0] == "node":
            return None
        if exp[0] == "chance":
            for row in exp[2]:
                if width is None:
                    width = len(row)
                elif len(row) != width:
                    return None
    if width is None:
        return None
    b = FlatBuilder(width)
    index: dict = {}
    for state in order:
        exp = expansions[state]
        kind = exp[0]
        if kind == "end":
            index[state] = b.end()
        elif kind == "ask":
            labels = tuple(exp[1])
            check_labels(labels, "option", "adversary choice")
            index[state] = b.ask(labels, [index[s] for s in exp[2]])
        else:
            try:
                rows = [tuple(p if type(p) is QtElement else as_q(p) for p in row) for row in exp[2]]
            except TypeError:
                if any(is_symbolic(p) for row in exp[2] for p in row):
                    return None  # flat storage holds numbers: the game keeps SymChance nodes
                raise
            index[state] = b.chance(tuple(exp[1]), rows, [index[s] for s in exp[3]])
    if len(order) == 1 and expansions[order[0]][0] == "end":  # pragma: no cover - handled above
        return END
    return b.finish().root
