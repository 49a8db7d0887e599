"""Explicit probability trees through the Python API (the case format's ``tree:`` form).

The same game a case file writes as ``ask:``/``respond:`` is built here from dictionaries:
``respond({answer: [one probability per dataset]})`` is the mechanism answering,
``ask({query: node})`` the adversary choosing.  Probabilities are read as in a case file:
text in exactdp's number grammar (``"3/4"``, ``"0.25"``, ``"1e-3"``, never ``eval``-ed) or an
exact number (``int``, ``Fraction``, ``mpq``, an element of ℚ(e^{1/L})), checked by
:mod:`exactdp.numbers.kinds`.  A problem names the answer and the query it is under, as the
case reader names the place in the file: ``ask: option 'q0' → respond: answer '1',
probability #2: ...``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ArgumentError, ArgumentTypeError
from ..model.checks import mechanism_arg
from ..model.game import END, Ask, Chance, Label, Mechanism, Node, label_str, postorder
from ..numbers import kinds as K
from ..numbers import ladder
from ..numbers.rational import Q
from ..numbers.types import FieldValue
from .params import read_exact

__all__ = ["ask", "respond", "mechanism"]

_EXAMPLE = "e.g. respond({'0': ['3/4', '1/4'], '1': ['1/4', '3/4']}) for two datasets"


def _node(x: Node | Mechanism | None, call: str, place: str) -> Node:
    if x is None:
        return END
    if isinstance(x, Mechanism):
        return x.root
    if isinstance(x, Node):
        return x
    raise ArgumentTypeError(
        f"{call}: {place}: the continuation must be a node (ask(...), respond(...)), a Mechanism or None "
        f"(the interaction ends), got {type(x).__name__}: {x!r}"
    )


def _probability(value: Any, call: str, place: str) -> FieldValue:
    """One probability as a case file reads it: text or an exact number in [0, 1]."""
    v = read_exact(value, call=call, name=place, example="1/4")
    try:  # rationals, or elements of Q(e^(1/L)) with their range decided exactly (certified)
        return K.probability(v, what=f"{call}: {place}", field=True)
    except K.QuantityError as e:
        hint = "" if e.hint else f" (each entry is the answer's probability under one dataset, {_EXAMPLE})"
        raise ArgumentError(e.text() + hint) from None


def _split(val: Any) -> tuple[Any, Any]:
    """``probs`` or ``(probs, next)``: a pair whose first item is itself a list, or whose second
    item is a node, a mechanism or None."""
    if isinstance(val, tuple) and len(val) == 2 and (_is_list(val[0]) or not _is_prob(val[1])):
        return val[0], val[1]
    return val, None


def _is_list(x: object) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, (str, bytes))


def _is_prob(x: object) -> bool:
    return not isinstance(x, (Node, Mechanism, Mapping)) and x is not None


def _row(probs: Any, call: str, place: str) -> tuple[FieldValue, ...]:
    if isinstance(probs, (str, bytes)) or not isinstance(probs, Sequence):
        raise ArgumentTypeError(
            f"{call}: {place}: expected a list with one probability per dataset, got {type(probs).__name__}: "
            f"{probs!r} ({_EXAMPLE})"
        )
    if not probs:
        raise ArgumentError(f"{call}: {place}: the list of probabilities is empty (one per dataset, {_EXAMPLE})")
    return tuple(_probability(p, call, f"{place}, probability #{d + 1}") for d, p in enumerate(probs))


def _check_sums(call: str, labels: list[Label], rows: list[tuple[FieldValue, ...]]) -> None:
    """Every answer lists as many probabilities as the first; each dataset's sum to exactly 1."""
    n = len(rows[0])
    for lab, row in zip(labels, rows):
        if len(row) != n:
            raise ArgumentError(
                f"{call}: answer {label_str(labels[0])!r} lists {n} probabilities but answer {label_str(lab)!r} "
                f"lists {len(row)}: every answer lists one probability per dataset"
            )
    for d in range(n):
        total: Any = Q(0)
        for row in rows:
            total = total + row[d]
        if total != 1:
            parts = ", ".join(f"answer {label_str(lab)!r}: {ladder.text(row[d])}" for lab, row in zip(labels, rows))
            raise ArgumentError(
                f"{call}: the probabilities of dataset #{d + 1} (entry {d + 1} of every answer's list) sum to "
                f"{ladder.text(total)}, not 1 ({parts}); each answer lists one probability per dataset, and for each "
                f"dataset they sum to 1 over the answers, {_EXAMPLE}"
            )


def respond(
    answers: Mapping[Label, Sequence[Any] | tuple[Sequence[Any], Node | Mechanism | None]],
) -> Chance:
    """The mechanism answers: ``{answer: probs}`` or ``{answer: (probs, next)}``.

    ``probs`` lists one exact probability per dataset (text such as ``"3/4"`` or an exact
    number), so for each dataset the probabilities sum to 1 over the answers; ``next`` is the
    node that follows the answer (``None``: the interaction ends).  This is ``respond:`` of a
    case file's tree.

    Raises
    ------
    TypeError
        An argument of the wrong type (a float, a probability list that is not a list).
    ValueError
        A probability that is not a number in [0, 1], lists of different lengths, or a
        dataset whose probabilities do not sum to 1; the message names the answer.

    Examples
    --------
    Randomized response with e^ε = 3 (Vadhan–Wang 2021, Def. 1.9), answering 0 or 1:

    >>> from exactdp import mechanism, privloss
    >>> n = respond({"0": (["3/4", "1/4"], None), "1": ["1/4", "3/4"]})
    >>> str(privloss(mechanism(n), 0))
    'log(3)'
    """
    if not isinstance(answers, Mapping):
        raise ArgumentTypeError(
            f"respond: expected a mapping {{answer: [one probability per dataset]}}, got {type(answers).__name__} "
            f"({_EXAMPLE})"
        )
    if not answers:
        raise ArgumentError("respond: an answer distribution needs at least one answer")
    labels: list[Label] = []
    rows: list[tuple[FieldValue, ...]] = []
    kids: list[Node] = []
    for lab, val in answers.items():
        place = f"answer {label_str(lab)!r}"
        probs, nxt = _split(val)
        labels.append(lab)
        rows.append(_row(probs, "respond", place))
        kids.append(_node(nxt, "respond", place))
    _check_sums("respond", labels, rows)
    return Chance(labels, rows, kids)


def ask(options: Mapping[Label, Node | Mechanism | Mapping | None]) -> Ask:
    """The adversary chooses: ``{query: node}``; a mapping value is read as ``respond(value)``
    and ``None`` ends the interaction.  This is ``ask:`` of a case file's tree.

    A problem inside an option is reported with the option's label (``ask: option 'q0' →
    respond: ...``).

    Examples
    --------
    >>> from exactdp import mechanism, privloss
    >>> rr3 = {"0": ["3/4", "1/4"], "1": ["1/4", "3/4"]}
    >>> coin = {"0": ["1/2", "1/2"], "1": ["1/2", "1/2"]}
    >>> str(privloss(mechanism(ask({"strong": rr3, "weak": coin})), 0))
    'log(3)'
    """
    if not isinstance(options, Mapping):
        raise ArgumentTypeError(f"ask: expected a mapping {{query: node}}, got {type(options).__name__}")
    if not options:
        raise ArgumentError("ask: an adversary choice needs at least one option")
    labels: list[Label] = []
    kids: list[Node] = []
    for lab, val in options.items():
        labels.append(lab)
        place = f"option {label_str(lab)!r}"
        if isinstance(val, Mapping):
            try:
                kids.append(respond(val))
            except (TypeError, ValueError) as e:
                raise type(e)(f"ask: {place} → {e}") from None
        else:
            kids.append(_node(val, "ask", place))
    return Ask(labels, kids)


def _pair(p: Any, datasets: Sequence[str]) -> tuple[int, int]:
    """An adjacent pair as indices or as dataset names (as a case file writes ``adjacent:``)."""
    if not (isinstance(p, (tuple, list)) and len(p) == 2):
        raise ArgumentTypeError(f"mechanism: an adjacent pair is two datasets, e.g. ('x0', 'x1') or (0, 1), got {p!r}")
    out = []
    for x in p:
        if isinstance(x, str):
            if x not in datasets:
                raise ArgumentError(
                    f"mechanism: adjacent pair {tuple(p)!r} names {x!r}, which is not a dataset {list(datasets)}"
                )
            out.append(list(datasets).index(x))
        elif isinstance(x, int) and not isinstance(x, bool):
            out.append(x)
        else:
            raise ArgumentTypeError(f"mechanism: adjacent pair {tuple(p)!r}: datasets are names or indices, got {x!r}")
    return out[0], out[1]


def _check_widths(root: Node, n: int) -> None:
    """Every answer distribution lists one probability per dataset."""
    for node in postorder(root):
        if isinstance(node, Chance) and node.probs and len(node.probs[0]) != n:
            lab = label_str(node.labels[0])
            raise ArgumentError(
                f"mechanism: {n} datasets are named, but the answers of {node!r} list {len(node.probs[0])} "
                f"probabilities each (answer {lab!r}): one probability per dataset"
            )


def mechanism(
    root: Node | Mechanism,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[Any, Any]] | None = None,
    name: str = "M",
) -> Mechanism:
    """Wrap a node as a :class:`Mechanism` (default: datasets ``x0``, ``x1``, adjacent).

    ``adjacent`` lists pairs of datasets, by name (``[("x0", "x1")]``, as in a case file) or
    by index; by default every pair of datasets is adjacent.  Every answer of the tree must
    list one probability per dataset.
    """
    if isinstance(root, Mechanism):
        root = root.root
    if isinstance(root, Mapping):
        raise ArgumentTypeError(
            "mechanism: root is a mapping; build the node first: respond({answer: probs}) or ask({query: ...})"
        )
    if not isinstance(root, Node):
        mechanism_arg(root, "mechanism", "root")  # a name, a case...: says what to pass instead
    if isinstance(datasets, str) or not all(isinstance(d, str) for d in datasets):
        raise ArgumentTypeError(f"mechanism: datasets must be a list of names, e.g. ['x0', 'x1'], got {datasets!r}")
    if adjacent is None:
        n = len(datasets)
        pairs = tuple((i, j) for i in range(n) for j in range(i + 1, n))
    else:
        pairs = tuple(_pair(p, datasets) for p in adjacent)
    _check_widths(root, len(datasets))
    return Mechanism(root, tuple(datasets), pairs, name)
