"""Pairs of datasets: the adjacency graph and group privacy.

A mechanism is ε-DP for groups of size k when it is (kε)-DP — more precisely, when the privacy
guarantee holds for every pair of datasets at distance at most k in the adjacency graph
(Dwork & Roth 2014, Thm 2.2, group privacy).  exactdp checks such pairs exactly, like
adjacent ones, instead of applying the kε bound.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..lazy import networkx as nx

__all__ = ["adjacency_graph", "group_pairs"]


def adjacency_graph(n: int, adjacent: Sequence[tuple[int, int]]) -> nx.Graph:
    """The undirected graph on datasets 0..n-1 whose edges are the adjacent pairs."""
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(adjacent)
    return g


def group_pairs(n: int, adjacent: Sequence[tuple[int, int]], k: int) -> tuple[tuple[int, int], ...]:
    """Every pair (i, j), i < j, at distance 1..k in the adjacency graph, in a fixed order."""
    g = adjacency_graph(n, adjacent)
    out: list[tuple[int, int]] = []
    for i, dist in sorted(nx.all_pairs_shortest_path_length(g, cutoff=k)):
        out.extend((i, j) for j in sorted(dist) if j > i and 1 <= dist[j] <= k)
    return tuple(out)
