"""Answer distributions whose probabilities are rational functions of declared symbols.

:class:`SymChance` is a :class:`~exactdp.model.game.Chance` whose probabilities are SymPy
expressions (``sym[k][d]``).  The exact engines work in rationals only: reading ``probs`` of a
symbolic node raises :class:`~exactdp.errors.UnsupportedMechanismError`, so the profile engine,
the enumerator and every combinator that needs numbers refuse symbolic mechanisms with a clear
message, at no cost to their rational fast paths.  The Theorem 1.10 constructions
(:mod:`exactdp.simulation`) read ``sym`` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import InvalidGameError, UnsupportedMechanismError
from ..numbers.symbolic import (
    is_sym,
    substitute,
    sympy,  # start-up: SymPy loads on first use (symbolic cases only)
    to_sympy,
)
from .game import Ask, Chance, End, Label, Mechanism, Node, _uids, label_str, postorder

__all__ = [
    "SymChance",
    "is_symbolic_mechanism",
    "symbols_of",
    "substitute_mechanism",
    "rows_of",
    "chance_node",
    "undefined_probability",
]


class SymChance(Chance):
    """The mechanism answers; ``sym[k][d]`` is a SymPy expression in the case's symbols.

    Sums are checked to be identically 1 (rational-function simplification) on construction;
    non-negativity under the declared bounds is checked by the case reader.
    """

    __slots__ = ("sym", "symbols")

    def __init__(
        self, labels: Sequence[Label], sym: Sequence[Sequence[Any]], children: Sequence[Node], *, check: bool = True
    ):
        labels, children = tuple(labels), tuple(children)

        sym = tuple(tuple(to_sympy(p) for p in row) for row in sym)
        if check:
            if not labels or not (len(labels) == len(sym) == len(children)):
                raise InvalidGameError("an answer distribution needs labels, probabilities and children of one length")
            n = len(sym[0])
            for d in range(n):
                total = sympy.cancel(sum((row[d] for row in sym), sympy.Integer(0)))
                if total != 1:
                    raise InvalidGameError(f"probabilities under dataset #{d} sum to {total}, not identically 1")
        self.uid = next(_uids)
        self.labels = labels
        self.sym = sym
        self.children = children
        names: set[str] = set()
        for row in sym:
            for p in row:
                names |= {s.name for s in p.free_symbols}
        self.symbols = tuple(sorted(names))

    @property
    def probs(self):  # type: ignore[override]
        names = ", ".join(self.symbols) or "symbols"
        raise UnsupportedMechanismError(
            f"this mechanism has symbolic probabilities (in {names}), and this needs numbers: the "
            "claims of a case and the commands verify, profile, privloss, delta, renyi, zcdp, plot, "
            "calibrate and simulate decide symbolic mechanisms for every value of the symbols "
            "(docs/parametric.md); elsewhere give the symbols values (as params)"
        )

    @property
    def n_datasets(self) -> int:
        return len(self.sym[0])

    def __repr__(self) -> str:
        return f"SymChance#{self.uid}({', '.join(label_str(l) for l in self.labels)})"


def rows_of(node: Chance) -> Any:
    """An answer distribution's probabilities, ``rows[k][d]``: SymPy expressions for a
    :class:`SymChance`, exact numbers otherwise (for combinators that only move them around)."""
    return node.sym if isinstance(node, SymChance) else node.probs


def chance_node(
    labels: Sequence[Label], rows: Sequence[Sequence[Any]], children: Sequence[Node], *, check: bool = False
) -> Chance:
    """A :class:`Chance`, or a :class:`SymChance` when a probability is symbolic."""

    if any(is_sym(p) and p.free_symbols for row in rows for p in row):
        return SymChance(labels, rows, children, check=check)
    return Chance(labels, rows, children, check=check)


def is_symbolic_mechanism(mech: Mechanism) -> bool:
    """True when some answer distribution of ``mech`` is symbolic."""
    return any(isinstance(n, SymChance) for n in postorder(mech.root))


def symbols_of(mech: Mechanism) -> tuple[str, ...]:
    names: set[str] = set()
    for n in postorder(mech.root):
        if isinstance(n, SymChance):
            names |= set(n.symbols)
    return tuple(sorted(names))


def undefined_probability(mech: Mechanism, nonzero: Callable[[Any], bool]) -> tuple | None:
    """The first probability of ``mech`` whose denominator is not proved nonzero by ``nonzero``
    (a proof on the symbols' domain), as (answer label, dataset, probability, denominator), or
    None when every probability is defined for every value of the symbols.

    Constructions that divide by the probability of a history (posteriors after a hidden
    answer or a hidden state) give rational functions that may have a pole where that
    probability vanishes; such a mechanism is undefined there."""
    for node in postorder(mech.root):
        if not isinstance(node, SymChance):
            continue
        for label, row in zip(node.labels, node.sym):
            for d, p in enumerate(row):
                den = sympy.denom(p)
                if den.free_symbols and not nonzero(den):
                    return label, mech.datasets[d], p, den
    return None


def substitute_mechanism(mech: Mechanism, point: Mapping) -> Mechanism:
    """The numeric mechanism obtained by giving the symbols rational values ``point``
    ({sympy symbol: Rational}); used for spot checks with the exact engines."""

    new: dict[int, Node] = {}
    for node in postorder(mech.root):
        if isinstance(node, End):
            new[node.uid] = node
        elif isinstance(node, Ask):
            new[node.uid] = Ask(node.labels, [new[c.uid] for c in node.children])
        elif isinstance(node, SymChance):
            rows = [[substitute(p, point) for p in row] for row in node.sym]
            new[node.uid] = Chance(node.labels, rows, [new[c.uid] for c in node.children])
        else:
            assert isinstance(node, Chance)
            new[node.uid] = Chance(node.labels, node.probs, [new[c.uid] for c in node.children], check=False)
    return mech.with_root(new[mech.root.uid])
