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


def to_yaml(m: Mechanism) -> str:
    """The mechanism as a case file with an explicit tree (for timing the YAML reader)."""
    from exactdp.model import Ask, Chance, End
    from exactdp.numbers import q_str

    lines = ["exactdp: 1", "name: bench-tree", "mechanism:", "  tree:"]

    def node(n, indent: int) -> None:
        pad = " " * indent
        if isinstance(n, Ask):
            lines.append(f"{pad}ask:")
            for lab, child in zip(n.labels, n.children):
                lines.append(f"{pad}  {lab}:")
                answers(child, indent + 4)
        elif isinstance(n, Chance):
            lines.append(f"{pad}respond:")
            answers(n, indent + 2)

    def answers(c, indent: int) -> None:
        pad = " " * indent
        for lab, row, child in zip(c.labels, c.probs, c.children):
            p = "[" + ", ".join(q_str(x) for x in row) + "]"
            if isinstance(child, End):
                lines.append(f"{pad}{lab}: {p}")
            else:
                lines.append(f"{pad}{lab}:")
                lines.append(f"{pad}  p: {p}")
                lines.append(f"{pad}  then:")
                node(child, indent + 4)

    node(m.root, 4)
    lines.append("claims: [{dp: {eps: log(2), delta: 1}}]")
    return "\n".join(lines) + "\n"
