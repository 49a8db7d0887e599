"""The explicit game of a certificate: the mechanism's DAG with node ids, shared sub-games
kept shared.

Node ids follow a post-order (children before parents), so every child id is smaller than its
parent's and the root has the largest id; the checker relies on that order to walk the game
without recursion.  Each answer carries one exact probability per dataset (Vadhan–Wang
Def. 1.5–1.7: the distributions M(x, history) for every dataset x at once), as exactdp's own
numbers: :func:`~exactdp.certificates.base.textify` writes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..analysis.profile import pair_hull
from ..model.game import Ask, Chance, End, Mechanism, Node, label_str, postorder
from ..model.symbolic import SymChance
from .base import MAX_STATES, NoCertificate

__all__ = ["ExportedGame", "export_game", "check_point_states", "game_label", "ONE_ORDER"]


@dataclass(frozen=True)
class ExportedGame:
    """A game as a certificate holds it (``doc``) and the node ids (``ids``: uid → id)."""

    name: str
    mech: Mechanism
    doc: dict
    ids: dict
    order: list
    memos: dict = field(default_factory=dict, compare=False)  # ordered pair -> every node's chain

    def node_id(self, node: Node) -> int:
        return self.ids[node.uid]

    def chains(self, pair: tuple[int, int]) -> Mapping:
        """Every node's exact chain (uid → Hull) for the ordered ``pair``, computed once."""
        memo = self.memos.get(pair)
        if memo is None:
            _, memo = pair_hull(self.mech, pair, keep=True)
            self.memos[pair] = memo
        return memo


def check_point_states(g: ExportedGame) -> None:
    """Refuse (:class:`NoCertificate`) a claim at one e^ε whose game the checker's point recursion
    could not walk within its default --max-states: the recursion keeps one state per node and
    likelihood ratio of the histories reaching it, which a DAG of shared sub-games can multiply."""
    if "states" in g.memos:
        return
    kids = [c.uid for n in g.order if not isinstance(n, End) for c in n.children if not isinstance(c, End)]
    if len(kids) == len(set(kids)) and len(g.order) <= MAX_STATES:  # a tree: one state per node
        g.memos["states"] = True
        return
    for i, j in g.mech.ordered_pairs:
        need: dict = {g.mech.root.uid: {1}}
        count = 0
        for node in reversed(g.order):
            ratios = need.pop(node.uid, set())
            count += len(ratios)
            if count > MAX_STATES:
                raise NoCertificate(
                    f"checking it at one eps would walk more than {MAX_STATES} (node, likelihood ratio) states, "
                    "the checker's default --max-states"
                )
            for k, c in enumerate(node.children if not isinstance(node, End) else []):
                row = node.probs[k] if isinstance(node, Chance) else None
                if not isinstance(c, End) and (row is None or (row[i] and row[j])):
                    need.setdefault(c.uid, set()).update(
                        ratios if row is None else {r * row[i] / row[j] for r in ratios}
                    )
    g.memos["states"] = True


ONE_ORDER = "a claim about one order of a pair (`ordered: true`): the checker takes both orders"


def export_game(mech: Mechanism, name: str) -> ExportedGame:
    """The game of ``mech`` as the certificate's ``games[name]`` entry (``name``: the case's name
    for the mechanism, which claims and proofs refer to).

    Raises
    ------
    NoCertificate
        For symbolic mechanisms, or labels that print alike within one node.
    """
    if mech.directed:  # (the checker takes each adjacent pair in both orders, as Def. 1.7 does)
        raise NoCertificate(ONE_ORDER)
    order = postorder(mech.root)
    ids = {node.uid: k for k, node in enumerate(order)}
    nodes = [_node(k, node, ids) for k, node in enumerate(order)]
    pairs = [list(mech.pair_names(p)) for p in mech.ordered_pairs]
    doc = {"datasets": list(mech.datasets), "pairs": pairs, "root": ids[mech.root.uid], "nodes": nodes}
    return ExportedGame(name, mech, doc, ids, order)


def _labels(node: Node) -> list[str]:
    labels = [label_str(lab) for lab in node.labels]  # type: ignore[attr-defined]
    if len(set(labels)) != len(labels):
        raise NoCertificate(
            f"two options of one node print alike ({', '.join(labels)}); labels must be distinct as text"
        )
    return labels


def _node(k: int, node: Node, ids: dict) -> dict:
    if isinstance(node, End):
        return {"id": k, "end": True}
    if isinstance(node, SymChance):
        raise NoCertificate("the mechanism is symbolic; certificates cover numeric mechanisms")
    if isinstance(node, Ask):
        return {"id": k, "ask": [[lab, ids[c.uid]] for lab, c in zip(_labels(node), node.children)]}
    if isinstance(node, Chance):
        rows = [list(row) for row in node.probs]
        return {"id": k, "answer": [[lab, row, ids[c.uid]] for lab, row, c in zip(_labels(node), rows, node.children)]}
    raise NoCertificate(f"unknown node type {type(node).__name__}")  # pragma: no cover


def game_label(subject: Any) -> str:
    """The name a subject's game has in certificates and in ``exactdp info --fingerprint``."""
    if isinstance(subject, str):
        return subject
    name, pairs, *tags = subject
    which = "the claim's ordered pairs" if "ordered" in tags else "the claim's pairs"
    said = [which] * (pairs is not None) + ["non-adaptive adversaries"] * ("nonadaptive" in tags)
    return f"{name} ({', '.join(said)})"
