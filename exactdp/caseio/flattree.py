"""Reading a big explicit tree straight from the YAML parser's events into flat storage.

A ``tree:`` of a mechanism (``mechanism: {tree: ...}`` or ``mechanisms: {NAME: {tree: ...}}``)
written with the plain tree grammar — ``ask: {query: answers}``, ``respond: answers``, answers
``{answer: [p per dataset] | {p: [...], then: ...}}``, ``then: null`` or a nested ``ask:`` /
``respond:`` — is read here event by event, without building YAML nodes for it: its game goes
into a :class:`~exactdp.model.flat.FlatGame` (about 60 bytes per answer edge; equal texts of
probabilities and labels are read once and shared).  The YAML document gets, in the tree's
place, a :class:`FlatTreeNode` carrying the game, which the mechanism reader turns into the
mechanism.

This is only a faster road to the same result.  Whatever it does not handle exactly as the
general reader would — an anchor, alias or tag, a name or expression among the probabilities,
another form under ``then:``, and every problem (a sum that is not 1, a duplicate key, a
probability outside [0, 1]) — makes it give up (:class:`NotFlat`): the document is then read
again by the general reader, which reports problems with their place in the file.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import yaml

from ..errors import ExactDPError, TimeLimitExceeded
from ..model.flat import FlatBuilder, FlatGame
from ..numbers import kinds as K
from ..numbers.expr import ExprError, evaluate, parse_expr
from ..numbers.rational import Q, is_rational

__all__ = [
    "FlatTreeNode",
    "NotFlat",
    "TreeStore",
    "read_tree",
    "is_tree_path",
    "probability_of",
    "same_key",
    "distinct",
]

_SCALAR = yaml.ScalarEvent
_MAP_START = yaml.MappingStartEvent
_MAP_END = yaml.MappingEndEvent
_SEQ_START = yaml.SequenceStartEvent
_SEQ_END = yaml.SequenceEndEvent
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_SIMPLE_FRACTION = re.compile(r"^\s*([0-9]+)\s*(?:/\s*([0-9]+)\s*)?$")
_ONE = Q(1)


def same_key(s: str) -> str:
    """What two names or labels are compared by: their Unicode NFC form, so that "é" written as one
    character and as "e" with a combining accent, which print alike, are the same name."""
    return s if s.isascii() else unicodedata.normalize("NFC", s)


def distinct(labels: Sequence[str]) -> bool:
    """Whether no two of ``labels`` are the same (:func:`same_key`); ASCII labels, the common case
    in big trees, cost one set as before."""
    if len(set(labels)) != len(labels):
        return False
    return all(x.isascii() for x in labels) or len({same_key(x) for x in labels}) == len(labels)


class NotFlat(Exception):
    """The tree uses something the event reader leaves to the general reader."""


class FlatTreeNode(yaml.MappingNode):
    """Stands in the YAML document for a tree read into flat storage: ``game`` is its game,
    ``width`` the number of probabilities per answer (one per dataset)."""

    def __init__(self, game: FlatGame, width: int, start_mark: Any, end_mark: Any):
        super().__init__("tag:yaml.org,2002:map", [], start_mark, end_mark, flow_style=None)
        self.game = game
        self.width = width


def is_tree_path(path: tuple) -> bool:
    """Whether a value at ``path`` (the keys from the document's top) is a mechanism's
    ``tree:``: ``mechanism.tree`` or ``mechanisms.NAME.tree``."""
    n = len(path)
    return (n == 2 and path[0] == "mechanism" and path[1] == "tree") or (
        n == 3 and path[0] == "mechanisms" and path[2] == "tree"
    )


def read_tree(start: yaml.Event, events: Iterator[yaml.Event], depth_left: int) -> FlatTreeNode:
    """Read the tree whose first event is ``start`` (a mapping start) from ``events``, up to and
    including its last event; raise :class:`NotFlat` for anything left to the general reader
    (the events are consumed either way), nesting deeper than ``depth_left`` levels included."""
    reader = _Reader(events.__next__, depth_left)
    if not reader.plain_start(start, _MAP_START):
        raise NotFlat("not a mapping")
    reader.node()
    end = reader.last
    assert end is not None
    b = reader.builder
    if b is None:
        raise NotFlat("no answers")
    return FlatTreeNode(b.finish(), reader.width, start.start_mark, end.end_mark)


class TreeStore:
    """What every reader of the tree grammar shares, whatever it reads (YAML events, JSON tokens,
    decoded JSON objects): equal label and probability texts read once, the row width fixed by
    the first row, and the checks made before a node is stored (distinct labels, each dataset's
    probabilities summing to exactly 1).  Anything else is :class:`NotFlat`."""

    def __init__(self, depth_left: int):
        self.depth_left = depth_left
        self.builder: FlatBuilder | None = None
        self.width = 0
        self._probs: dict[str, Any] = {}
        self._labels: dict[str, str] = {}

    def label(self, text: str) -> str:
        got = self._labels.get(text)
        if got is None:
            got = self._labels[text] = text
        return got

    def probability(self, text: str, style: str | None) -> Any:
        p = self._probs.get(text)
        if p is None:
            p = self._probs[text] = probability_of(text, style)
        return p

    def close_row(self, out: list[Any]) -> list[Any]:
        """``out``, one probability per dataset; the first row fixes the width."""
        if self.builder is None:
            if not out:
                raise NotFlat("empty row")
            self.width = len(out)
            self.builder = FlatBuilder(self.width)
        elif len(out) != self.width:
            raise NotFlat("width")
        return out

    def end(self) -> int:
        assert self.builder is not None
        return self.builder.end()

    def ask_node(self, labels: list[str], kids: list[int]) -> int:
        if not labels or not distinct(labels):
            raise NotFlat("queries")
        assert self.builder is not None
        return self.builder.ask(labels, kids)

    def answer_node(self, labels: list[str], rows: list[list[Any]], kids: list[int]) -> int:
        if not labels or not distinct(labels):
            raise NotFlat("answers")
        for d in range(self.width):  # each dataset's probabilities sum to exactly 1
            if sum([row[d] for row in rows], Q(0)) != _ONE:
                raise NotFlat("sum")
        assert self.builder is not None
        return self.builder.chance(labels, rows, kids)


class _Reader(TreeStore):
    def __init__(self, nxt: Callable[[], yaml.Event], depth_left: int):
        super().__init__(depth_left)
        self._next = nxt
        self.depth = 1  # the tree's own mapping
        self.last: yaml.Event | None = None

    def next(self) -> yaml.Event:
        ev = self._next()
        self.last = ev
        t = type(ev)
        if t is _MAP_START or t is _SEQ_START:
            self.depth += 1
            if self.depth > self.depth_left:  # the general reader says where it is too deep
                raise NotFlat("nesting")
        elif t is _MAP_END or t is _SEQ_END:
            self.depth -= 1
        return ev

    @staticmethod
    def plain_start(ev: yaml.Event, cls: type) -> bool:
        """``ev`` starts a collection of type ``cls`` with no anchor and no explicit tag."""
        return type(ev) is cls and ev.anchor is None and ev.tag in (None, "!")  # type: ignore[attr-defined]

    def key(self, ev: yaml.Event) -> str:
        """A mapping key: a scalar with no anchor or tag (a null-like word is left alone)."""
        if type(ev) is not _SCALAR or ev.anchor is not None or ev.tag not in (None, "!"):  # type: ignore[attr-defined]
            raise NotFlat("key")
        text = ev.value  # type: ignore[attr-defined]
        if ev.style in (None, "") and text in _NULLS:  # type: ignore[attr-defined]
            raise NotFlat("null key")
        return self.label(text)

    def node(self) -> int:
        """``{ask: ...}`` or ``{respond: ...}`` (the mapping start already read)."""
        k = self.key(self.next())
        v = self.next()
        if not self.plain_start(v, _MAP_START):
            raise NotFlat("not a mapping")
        if k == "ask":
            idx = self.ask()
        elif k == "respond":
            idx = self.answers()
        else:
            raise NotFlat(k)
        if type(self.next()) is not _MAP_END:
            raise NotFlat("more than one key")
        return idx

    def ask(self) -> int:
        labels: list[str] = []
        kids: list[int] = []
        while True:
            ev = self.next()
            if type(ev) is _MAP_END:
                break
            labels.append(self.key(ev))
            v = self.next()
            if not self.plain_start(v, _MAP_START):
                raise NotFlat("answers")
            kids.append(self.answers())
        return self.ask_node(labels, kids)

    def answers(self) -> int:
        labels: list[str] = []
        rows: list[list[Any]] = []
        kids: list[int] = []
        while True:
            ev = self.next()
            if type(ev) is _MAP_END:
                break
            labels.append(self.key(ev))
            v = self.next()
            if self.plain_start(v, _SEQ_START):
                rows.append(self.row())
                kids.append(self.end())
            elif self.plain_start(v, _MAP_START):
                row, kid = self.answer_record()
                rows.append(row)
                kids.append(kid)
            else:
                raise NotFlat("answer")
        return self.answer_node(labels, rows, kids)

    def answer_record(self) -> tuple[list[Any], int]:
        """``{p: [...], then: ...}`` (either order; ``then`` optional)."""
        row: list[Any] | None = None
        kid: int | None = None
        while True:
            ev = self.next()
            if type(ev) is _MAP_END:
                break
            k = self.key(ev)
            v = self.next()
            if k == "p" and row is None:
                if not self.plain_start(v, _SEQ_START):
                    raise NotFlat("p")
                row = self.row()
            elif k == "then" and kid is None:
                if type(v) is _SCALAR and v.style in (None, "") and v.value in _NULLS and v.anchor is None:  # type: ignore[attr-defined]
                    if v.tag not in (None, "!"):  # type: ignore[attr-defined]
                        raise NotFlat("tag")
                    kid = self.end()
                elif self.plain_start(v, _MAP_START):
                    kid = self.node()
                else:
                    raise NotFlat("then")
            else:
                raise NotFlat(k)
        if row is None:
            raise NotFlat("no p")
        return row, (self.end() if kid is None else kid)

    def row(self) -> list[Any]:
        """One probability per dataset (the sequence start already read)."""
        out: list[Any] = []
        while True:
            ev = self.next()
            if type(ev) is _SEQ_END:
                break
            if type(ev) is not _SCALAR or ev.anchor is not None or ev.tag not in (None, "!"):  # type: ignore[attr-defined]
                raise NotFlat("probability")
            text = ev.value  # type: ignore[attr-defined]
            p = self._probs.get(text)  # (inline: the hottest loop of reading a big tree)
            if p is None:
                p = self._probs[text] = probability_of(text, ev.style)  # type: ignore[attr-defined]
            out.append(p)
        return self.close_row(out)


def probability_of(text: str, style: str | None) -> Any:
    """The exact probability the general reader makes of ``text`` (our grammar, no names), or
    :class:`NotFlat`."""
    if style in (None, "") and text in _NULLS:
        raise NotFlat("empty")
    m = _SIMPLE_FRACTION.match(text)
    if m:  # the general reader's fast path (same result as the grammar)
        den = int(m.group(2) or 1)
        if not den:
            raise NotFlat("zero denominator")
        v: Any = Q(int(m.group(1)), den)
    else:
        try:
            v = evaluate(parse_expr(text), _no_names)
        except (TimeLimitExceeded, NotFlat):
            raise
        except (ExprError, ExactDPError, RecursionError, ValueError, ArithmeticError, TypeError) as e:
            raise NotFlat("expression") from e
    if not is_rational(v):
        raise NotFlat("not rational")
    try:
        return K.probability(v)
    except K.QuantityError as e:
        raise NotFlat("range") from e


def _no_names(name: str) -> Any:
    raise NotFlat(f"name {name}")
