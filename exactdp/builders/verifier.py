r"""Verification functions of continual mechanisms, as deterministic automata over message pairs.

In the privacy game of a continual mechanism (Henzinger–Safavi–Vadhan, arXiv 2411.03299,
Def. 3.2–3.7) the adversary sends pairs (m⁰, m¹), and a verifier (Def. 3.5) applying a
*verification function* V (Def. 3.3) halts the interaction as soon as the sequence of pairs is
not V-valid.  Here V is a finite deterministic :class:`Verifier`: in each state it lists the
valid pairs and the state each leads to, so it is prefix-closed (the verifier halts at the
first invalid prefix).  :func:`make_verifier` builds one from a table with the wildcards
:data:`SAME`, :data:`DIFFER` and :data:`ANY`; :func:`bounded_verifier` gives the common "at most
k differing pairs, at most n pairs" (event-level privacy with k = 1).  The games that use them
are built in :mod:`exactdp.builders.continual`.

References
----------
M. Henzinger, R. Safavi, S. Vadhan, *Concurrent Composition for Differentially Private
Continual Mechanisms*, arXiv 2411.03299: Def. 3.3, 3.5, Thm. 5.2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidMechanismError

__all__ = [
    "SAME",
    "DIFFER",
    "ANY",
    "Verifier",
    "make_verifier",
    "bounded_verifier",
    "pair_label",
]

SAME, DIFFER, ANY = "same", "differ", "any"
"""Wildcard keys of a verifier transition: every identical pair, every differing pair, every pair."""


def pair_label(m0: str, m1: str) -> str:
    """How a pair (m⁰, m¹) is shown in views and witnesses: ``(m0,m1)``."""
    return f"({m0},{m1})"


@dataclass(frozen=True, eq=False)
class Verifier:
    """A deterministic automaton over message pairs (a prefix-closed verification function,
    Def. 3.3/3.5): ``table[v]`` lists the valid pairs in state v with their next state; a
    pair not listed is invalid (the verifier halts)."""

    states: tuple[str, ...]
    initial: int
    table: tuple[tuple[tuple[tuple[str, str], int], ...], ...]
    messages: tuple[str, ...]

    def valid(self, v: int) -> tuple[tuple[tuple[str, str], int], ...]:
        return self.table[v]

    def accepts_sequence(self, pairs: Sequence[tuple[str, str]]) -> bool:
        """V(pairs) = 1 (the whole sequence is valid)."""
        v = self.initial
        for p in pairs:
            nxt = dict(self.table[v]).get((p[0], p[1]))
            if nxt is None:
                return False
            v = nxt
        return True


def make_verifier(
    states: Sequence[str],
    initial: str,
    transitions: Mapping[str, Mapping[Any, str]],
    messages: Sequence[str],
) -> Verifier:
    """A verifier automaton from ``{state: {key: next state}}``.

    A key is a pair ``(m0, m1)`` of messages, or one of the wildcards :data:`SAME` (every
    pair (m, m)), :data:`DIFFER` (every pair (m, m′) with m ≠ m′) and :data:`ANY`.  An explicit
    pair overrides a wildcard, ``same``/``differ`` override ``any``.  Pairs are offered in the
    order of ``messages`` (m⁰ first).  A state without transitions accepts no further pair.
    """
    states = tuple(str(s) for s in states)
    index = {s: i for i, s in enumerate(states)}
    if len(index) != len(states) or not states:
        raise InvalidMechanismError("a verifier needs distinct state names")
    if initial not in index:
        raise InvalidMechanismError(f"verifier: unknown initial state {initial!r}", hint=f"states: {', '.join(states)}")
    msgs = tuple(messages)
    mset = set(msgs)
    table = []
    for s in states:
        rules = transitions.get(s, {})
        explicit: dict[tuple[str, str], int] = {}
        wild: dict[str, int] = {}
        for key, nxt in rules.items():
            if nxt not in index:
                raise InvalidMechanismError(
                    f"verifier: state {s!r}: unknown next state {nxt!r}", hint=f"states: {', '.join(states)}"
                )
            if key in (SAME, DIFFER, ANY):
                wild[key] = index[nxt]
                continue
            m0, m1 = key
            for m in (m0, m1):
                if m not in mset:
                    raise InvalidMechanismError(
                        f"verifier: state {s!r}: message {m!r} is not a query of the mechanism",
                        hint=f"the mechanism's queries: {', '.join(msgs)}",
                    )
            explicit[(m0, m1)] = index[nxt]
        row = []
        for m0 in msgs:
            for m1 in msgs:
                if (m0, m1) in explicit:
                    row.append(((m0, m1), explicit[(m0, m1)]))
                elif m0 == m1 and SAME in wild:
                    row.append(((m0, m1), wild[SAME]))
                elif m0 != m1 and DIFFER in wild:
                    row.append(((m0, m1), wild[DIFFER]))
                elif ANY in wild:
                    row.append(((m0, m1), wild[ANY]))
        table.append(tuple(row))
    return Verifier(states, index[initial], tuple(table), msgs)


def bounded_verifier(
    messages: Sequence[str], *, max_differing: int | None = None, max_length: int | None = None
) -> Verifier:
    """V valid iff at most ``max_differing`` pairs have m⁰ ≠ m¹ and there are at most
    ``max_length`` pairs (``None``: no bound).  With ``max_differing=1`` this is event-level
    privacy for atomic messages; V₁ of Thm. 5.2 is ``max_differing=1, max_length=2``."""
    for name, v in (("max_differing", max_differing), ("max_length", max_length)):
        if v is not None and v < 0:
            raise InvalidMechanismError(f"{name} must be at least 0, got {v}")
    msgs = tuple(messages)
    # states (pairs so far capped, differing so far); only what the bounds need is tracked
    lcap = max_length if max_length is not None else 0
    dcap = max_differing if max_differing is not None else 0
    keys = [(n, d) for n in range(lcap + 1) for d in range(dcap + 1)]
    index = {k: i for i, k in enumerate(keys)}
    table = []
    for n, d in keys:
        row = []
        if max_length is None or n < max_length:
            n2 = n + 1 if max_length is not None else 0
            for m0 in msgs:
                for m1 in msgs:
                    if m0 == m1:
                        row.append(((m0, m1), index[(n2, d)]))
                    elif max_differing is None:
                        row.append(((m0, m1), index[(n2, d)]))
                    elif d < max_differing:
                        row.append(((m0, m1), index[(n2, d + 1)]))
        table.append(tuple(row))
    names = tuple(f"pairs={n},differing={d}" for n, d in keys)
    return Verifier(names, 0, tuple(table), msgs)
