"""Explicit probability trees through the Python API (the case format's ``tree:`` form)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model.game import END, Ask, Chance, Label, Mechanism, Node
from ..numbers.types import FieldValue
from .params import read_probability

__all__ = ["ask", "respond", "mechanism"]


def _node(x: Node | Mechanism | None) -> Node:
    if x is None:
        return END
    return x.root if isinstance(x, Mechanism) else x


def respond(
    answers: Mapping[Label, Sequence[FieldValue] | tuple[Sequence[FieldValue], Node | Mechanism | None]],
) -> Chance:
    """An answer distribution: ``{label: probs}`` or ``{label: (probs, next)}``.

    ``probs`` lists one exact probability per dataset: a rational, an element of ℚ(e^{1/L})
    (``exactdp.exact("exp(-1/2)/(1 + exp(-1/2))")``) or text read by exactdp's grammar;
    ``next`` is the following node (``None``: the interaction ends).

    >>> n = respond({"0": ([3, 1], None), "1": [1, 3]})  # doctest: +SKIP
    """
    labels, probs, kids = [], [], []
    for lab, val in answers.items():
        if isinstance(val, tuple) and len(val) == 2 and not _is_prob(val[1]):
            p, nxt = val
        else:
            p, nxt = val, None
        labels.append(lab)
        probs.append(tuple(read_probability(x, call="respond") for x in p))
        kids.append(_node(nxt))
    return Chance(labels, probs, kids)


def _is_prob(x: object) -> bool:
    return not isinstance(x, (Node, Mechanism)) and x is not None


def ask(options: Mapping[Label, Node | Mechanism | Mapping]) -> Ask:
    """An adversary choice: ``{query: node}``; a mapping value is read as ``respond(value)``."""
    labels, kids = [], []
    for lab, val in options.items():
        labels.append(lab)
        kids.append(respond(val) if isinstance(val, Mapping) else _node(val))
    return Ask(labels, kids)


def mechanism(root: Node, datasets: Sequence[str] = ("x0", "x1"), adjacent=None, name: str = "M") -> Mechanism:
    """Wrap a node as a :class:`Mechanism` (default: datasets x0, x1 with the one pair adjacent)."""
    if adjacent is None:
        n = len(datasets)
        adjacent = tuple((i, j) for i in range(n) for j in range(i + 1, n))
    return Mechanism(root, tuple(datasets), tuple(adjacent), name)
