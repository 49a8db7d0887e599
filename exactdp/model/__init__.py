"""The mechanism model: one game DAG for every mechanism (adversary choices, answers, end)."""

from .dag import build_dag
from .game import END, Ask, Chance, End, Label, Mechanism, Node, label_str, postorder
from .ops import count_strategies, graft, map_dag, share, stats, to_networkx

__all__ = [
    "END",
    "Ask",
    "Chance",
    "End",
    "Label",
    "Mechanism",
    "Node",
    "label_str",
    "postorder",
    "build_dag",
    "count_strategies",
    "graft",
    "map_dag",
    "share",
    "stats",
    "to_networkx",
]
