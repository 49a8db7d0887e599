r"""The game of non-adaptive adversaries: every query fixed before the first answer.

A *non-adaptive* adversary chooses its whole sequence of queries q₁, q₂, … in advance; the
answers it sees do not influence what it asks next (Dong, Durfee & Rogers 2020, §2: the class
𝓜^NA of their composition game; Vadhan & Wang 2021, §1 and Figure 1, where an adaptive
adversary beats every non-adaptive one).  Against such adversaries a mechanism is a
*noninteractive* one per sequence, so the sup over non-adaptive adversaries of any of
exactdp's quantities (the privacy profile, Rényi divergences, trade-off functions) is the same
quantity for the game

    choose a sequence  →  the mechanism with every query forced to the sequence,

which :func:`nonadaptive_game` builds: its root is an adversary choice between the sequences
(labelled ``q1, q2, ...``), so every engine, witness and claim applies unchanged.  A randomized
non-adaptive adversary is a mixture of sequences with visible coins, never better than the
best sequence (as in Vadhan & Wang 2021, Lemma 2.2).

The sequences are found by walking the game: after a prefix of queries, the adversary's next
choice points are the ``Ask`` nodes reached by following the prefix through every answer.
They must offer the same queries (a fixed query must be askable whatever was answered);
otherwise the non-adaptive class is not defined for this game and the mechanism is refused.
The number of sequences is bounded by ``max_strategies`` (``--max-strategies``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .. import limits
from ..errors import LimitExceededError, UnsupportedMechanismError
from .checks import takes_mechanism
from .game import END, Ask, Chance, End, Label, Mechanism, Node, label_str
from .symbolic import SymChance

__all__ = ["nonadaptive_game", "query_sequences"]


def _next_choices(root: Node, prefix: tuple[Label, ...]) -> list[Ask]:
    """The Ask nodes where the (len(prefix)+1)-th query is chosen, following ``prefix``."""
    out: dict[int, Ask] = {}
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, i = stack.pop()
        if (node.uid, i) in seen:
            continue
        seen.add((node.uid, i))
        if isinstance(node, Ask):
            if i == len(prefix):
                out[node.uid] = node
                continue
            k = _option(node, prefix[i], prefix[:i])
            stack.append((node.children[k], i + 1))
        elif isinstance(node, Chance):
            stack.extend((c, i) for c in node.children)
    return list(out.values())


def _option(node: Ask, q: Label, before: tuple[Label, ...]) -> int:
    try:
        return node.labels.index(q)
    except ValueError:
        raise UnsupportedMechanismError(_mismatch(before, q, node)) from None


def _mismatch(before: tuple[Label, ...], q: Label, node: Ask) -> str:
    after = ", ".join(label_str(x) for x in before) or "no query"
    return (
        f"non-adaptive adversaries are not defined for this game: after {after}, the query {label_str(q)!r} "
        f"can be asked after some answers but not after others (there the choices are "
        f"{', '.join(label_str(x) for x in node.labels)})"
    )


def query_sequences(mech: Mechanism) -> list[tuple[Label, ...]]:
    """Every sequence of queries a non-adaptive adversary can fix for ``mech``, in file order.

    Raises
    ------
    UnsupportedMechanismError
        When two choice points reached after the same queries offer different queries.
    LimitExceededError
        When there are more sequences than ``max_strategies``.
    """
    cap = limits.current().max_strategies
    done: list[tuple[Label, ...]] = []
    stack: list[tuple[Label, ...]] = [()]
    while stack:
        prefix = stack.pop()
        nodes = _next_choices(mech.root, prefix)
        if not nodes:
            done.append(prefix)
            if len(done) > cap:
                raise LimitExceededError(
                    "the number of non-adaptive query sequences", cap, "raise it with --max-strategies N"
                )
            continue
        options = nodes[0].labels
        for other in nodes[1:]:
            if set(other.labels) != set(options):
                q = next(x for x in options if x not in other.labels) if set(options) - set(other.labels) else None
                if q is None:
                    q = next(x for x in other.labels if x not in options)
                    raise UnsupportedMechanismError(_mismatch(prefix, q, nodes[0]))
                raise UnsupportedMechanismError(_mismatch(prefix, q, other))
        stack.extend(prefix + (q,) for q in reversed(options))
    return done


def _forced(root: Node, seq: tuple[Label, ...]) -> Node:
    """The game with the i-th choice forced to ``seq[i]`` (an Ask with that one option, so the
    query stays in the view)."""
    memo: dict[tuple[int, int], Node] = {}

    def walk(node: Node, i: int) -> Node:
        key = (node.uid, i)
        hit = memo.get(key)
        if hit is not None:
            return hit
        out: Node
        if isinstance(node, End):
            out = END
        elif isinstance(node, Ask):
            k = node.labels.index(seq[i])
            out = Ask([node.labels[k]], [walk(node.children[k], i + 1)])
        elif isinstance(node, SymChance):  # symbolic probabilities: decided for every value of the symbols
            out = SymChance(node.labels, node.sym, [walk(c, i) for c in node.children], check=False)
        elif isinstance(node, Chance):
            out = Chance(node.labels, node.probs, [walk(c, i) for c in node.children], check=False)
        else:  # pragma: no cover - the three node kinds
            raise TypeError(node)
        memo[key] = out
        return out

    return walk(root, 0)


@takes_mechanism
def nonadaptive_game(mech: Mechanism) -> Mechanism:
    """``mech`` against non-adaptive adversaries only: a choice of a query sequence, then the
    game with every query forced (module docstring).  A game without adversary choices is
    returned unchanged.  A concurrent composition whose copies of one mechanism were merged
    (:func:`~exactdp.builders.concomp`) is first built with every copy named: a fixed sequence of
    queries says which copy each query goes to, which the merged states forget."""
    unmerged = mech.__dict__.get("_unmerged")
    if unmerged is not None:
        mech = replace(unmerged(), adjacent=mech.adjacent, name=mech.name, directed=mech.directed)
    seqs = query_sequences(mech)
    if seqs == [()]:
        return mech
    labels: list[Any] = [", ".join(label_str(q) for q in s) for s in seqs]
    kids = [_forced(mech.root, s) for s in seqs]
    name = f"{mech.name} (non-adaptive adversaries)"
    return Mechanism(Ask(labels, kids), mech.datasets, mech.adjacent, name, mech.directed)
