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


def comb(depth: int) -> Mechanism:
    """A deep, narrow tree: ``depth`` rounds of a two-answer coin where answer "0" continues and
    "1" ends (2·depth answer edges, nesting depth about 3·depth in a case file)."""
    node = END
    for _ in range(depth):
        node = Chance(["0", "1"], [(Q(1, 2), Q(1, 3)), (Q(1, 2), Q(2, 3))], [node, END], check=False)
    return Mechanism(node, ("x0", "x1"), ((0, 1),), f"comb-{depth}")


def to_data(m: Mechanism) -> dict:
    """The case file of :func:`to_yaml` as plain data (for JSON, i.e. flow-style YAML)."""
    from exactdp.model import Ask, End
    from exactdp.numbers import q_str

    def node(n) -> dict:
        if isinstance(n, Ask):
            return {"ask": {lab: answers(c) for lab, c in zip(n.labels, n.children)}}
        return {"respond": answers(n)}

    def answers(c) -> dict:
        out: dict = {}
        for lab, row, child in zip(c.labels, c.probs, c.children):
            p = [q_str(x) for x in row]
            out[lab] = p if isinstance(child, End) else {"p": p, "then": node(child)}
        return out

    return {
        "exactdp": 1,
        "name": "bench-tree",
        "mechanism": {"tree": node(m.root)},
        "claims": [{"dp": {"eps": "log(2)", "delta": 1}}],
    }


def to_json(m: Mechanism) -> str:
    """The case file as one line of JSON: flow-style YAML (YAML 1.2 is a superset of JSON), so
    ``exactdp verify`` reads it as it is; its size grows linearly with the tree, where block
    style repeats the indentation on every line (quadratic in the depth)."""
    import json

    return json.dumps(to_data(m), separators=(",", ":")) + "\n"


def full_tree_json(depth: int, queries: int = 2, answers: int = 2, *, seed: int = 0, den: int = 64) -> str:
    """``to_json(full_tree(depth, ...))`` written directly, without building the game (the same
    random draws in the same order), for trees too big to build twice."""
    import json

    rng = random.Random(seed)

    def q(p) -> str:
        return f"{p.numerator}/{p.denominator}" if p.denominator != 1 else str(p.numerator)

    def node(d: int) -> str:
        parts = []
        for qi in range(queries):
            p0 = _random_dist(rng, answers, den)
            p1 = _random_dist(rng, answers, den)
            outs = []
            for a in range(answers):
                row = json.dumps([q(p0[a]), q(p1[a])], separators=(",", ":"))
                outs.append((a, row))
            kids = [node(d - 1) if d > 1 else None for _ in range(answers)]
            ans = ",".join(
                f'"{a}":{row}' if kid is None else f'"{a}":{{"p":{row},"then":{kid}}}'
                for (a, row), kid in zip(outs, kids)
            )
            parts.append(f'"q{qi}":{{{ans}}}')
        return '{"ask":{' + ",".join(parts) + "}}"

    head = '{"exactdp":1,"name":"bench-tree","mechanism":{"tree":'
    return head + node(depth) + '},"claims":[{"dp":{"eps":"log(2)","delta":1}}]}\n'
