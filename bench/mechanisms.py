"""Benchmark mechanisms, built through the Python API (no YAML)."""

from __future__ import annotations

import random

from exactdp.model import END, Ask, Chance, Mechanism
from exactdp.numbers import Q


def _random_dist(rng: random.Random, k: int, den: int) -> list:
    """k exact probabilities with denominator ``den``, all positive, summing to 1."""
    cuts = sorted(rng.sample(range(1, den), k - 1))
    parts = [b - a for a, b in zip([0] + cuts, cuts + [den])]
    return [Q(p, den) for p in parts]


def full_tree(depth: int, queries: int = 2, answers: int = 2, *, seed: int = 0, den: int = 64) -> Mechanism:
    """A full interactive tree: ``queries`` queries x ``answers`` answers per round, ``depth``
    rounds, independent random rational probabilities under x0 and x1 at every node
    (no two sub-games equal, so nothing is shared)."""
    rng = random.Random(seed)

    def build(d: int):
        if d == 0:
            return END
        kids = []
        for _ in range(queries):
            p0 = _random_dist(rng, answers, den)
            p1 = _random_dist(rng, answers, den)
            nxt = [build(d - 1) for _ in range(answers)]
            kids.append(Chance([str(a) for a in range(answers)], list(zip(p0, p1)), nxt, check=False))
        return Ask([f"q{q}" for q in range(queries)], kids)

    return Mechanism(build(depth), ("x0", "x1"), ((0, 1),), f"full-tree-d{depth}")
