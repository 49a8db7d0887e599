"""Hostile case files shared by the tests and the benchmarks: resource bombs, deep and long
structures.  Each is a function returning the text of one case file."""

from __future__ import annotations

__all__ = [
    "RR",
    "concomp_bomb",
    "repeat_bomb",
    "automaton_bomb",
    "enumerator_bomb",
    "datasets_bomb",
    "chain_of_named",
    "deep_tree",
    "BOMBS",
]

RR = "{rr: {eps: log(3)}}"


def concomp_bomb(k: int = 20) -> str:
    """ConComp of k *different* RRs: 2^k joint states (4 GB before the memory limit).  (Copies
    of one RR are merged into a multiset of states, k + 1 of them: they are no bomb.)"""
    parts = ", ".join(f"{{rr: {{eps: log({i + 2})}}}}" for i in range(k))
    return f"exactdp: 1\nname: concomp-bomb\nmechanism: {{concomp: [{parts}]}}\nclaims: [{{privloss: {{delta: 0, at_most: inf}}}}]\n"


RR3 = "{respond: {a: [1/2, 1/6], b: [1/4, 1/4], c: [1/4, 7/12]}}"  # likelihood ratios 3, 1, 3/7: no common base


def repeat_bomb(times: int = 3000) -> str:
    """A three-answer mechanism repeated ``times`` times with a failing claim and its witness
    (which kept every node's profile; now only the options' of a choice, none here): its three
    likelihood ratios, 3, 1 and 3/7, are not powers of one base, so they keep the induction's
    (layer, ratio) states, about k^3/6 of them (two ratios, or powers of one base, make the k-fold
    product cheap).  Refused by the time limit under tight limits."""
    return f"exactdp: 1\nname: repeat-bomb\nmechanism: {{repeat: {{mechanism: {RR3}, times: {times}}}}}\nclaims: [{{dp: {{eps: log(2)}}}}]\n"


def automaton_bomb(horizon: int = 100_000) -> str:
    """A two-state automaton with horizon 10^5."""
    step = '{"0": {p: [3/4, 1/4], next: s0}, "1": {p: [1/4, 3/4], next: s1}}'
    return (
        "exactdp: 1\nname: automaton-bomb\nmechanism:\n  automaton:\n    states: [s0, s1]\n    initial: s0\n"
        f'    horizon: {horizon}\n    transitions:\n      s0: {{"0": {step}}}\n      s1: {{"0": {step}}}\n'
        "claims: [{privloss: {delta: 0, at_most: inf}}]\n"
    )


def enumerator_bomb() -> str:
    """196,608 deterministic adversaries with 64 views each: within the enumerator's default
    limits (200,000 adversaries, 64 views each).  The enumerator builds one adversary at a time,
    so memory stays small and the running time is what stops it."""

    def answers(then: str | None) -> str:
        return (
            "{"
            + ", ".join(f"'{k}': {{p: [1/8, 1/8]" + (f", then: {then}" if then else "") + "}" for k in range(8))
            + "}"
        )

    inner = "{ask: {a: &L " + answers(None) + ", b: *L, c: *L, d: *L}}"
    root = "{ask: {x: &R " + answers("I") + ", y: *R, z: *R}}"
    return f"exactdp: 1\nname: enumerator-bomb\nmechanisms:\n  I: {inner}\n  M: {root}\nclaims: [{{privloss: {{delta: 0, equals: 0}}}}]\n"


def datasets_bomb(n: int = 10_000) -> str:
    """10^4 dataset names: 5·10^7 default adjacent pairs."""
    names = ", ".join(f"d{i}" for i in range(n))
    return f"exactdp: 1\nname: datasets-bomb\ndatasets: [{names}]\nmechanism: {{respond: {{a: {{p: 1}}}}}}\nclaims: [{{dp: {{eps: 1}}}}]\n"


def chain_of_named(n: int = 200) -> str:
    """M0 = RR, M_k = compose(M_{k-1}, RR): a chain of n named mechanisms."""
    lines = ["exactdp: 1", "name: chain", "mechanisms:", f"  M0: {RR}"]
    lines += [f"  M{k}: {{compose: [M{k - 1}, {RR}]}}" for k in range(1, n)]
    lines.append(f"claims: [{{privloss: {{of: M{n - 1}, delta: 0, equals: {n}*log(3)}}}}]")
    return "\n".join(lines) + "\n"


def deep_tree(levels: int = 124) -> str:
    """A valid tree ``levels`` rounds deep (each round nests four YAML levels, so 124 rounds
    stay within the 500-level nesting limit): the mechanism speaks, then at the bottom RR."""
    node = "{ask: {q: {'0': [3/4, 1/4], '1': [1/4, 3/4]}}}"
    for _ in range(levels - 1):
        node = "{respond: {a: {p: [1/2, 1/2], then: " + node + "}, b: {p: [1/2, 1/2]}}}"
    return f"exactdp: 1\nname: deep\nmechanism: {node}\nclaims: [{{privloss: {{delta: 0, equals: log(3)}}}}]\n"


# name -> (case text, extra command-line flags, the flag the refusal must name)
BOMBS = {
    "concomp-20": (concomp_bomb, [], "--max-memory"),
    "automaton-horizon-1e5": (automaton_bomb, [], "--max-automaton-work"),
    "enumerator-defaults": (enumerator_bomb, ["--engine", "enumerator"], "--timeout"),
    "repeat-3000": (repeat_bomb, [], "--timeout"),
    "datasets-1e4": (datasets_bomb, [], "--max-datasets"),
}
