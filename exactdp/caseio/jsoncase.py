"""Case files written as JSON, composed without the YAML parser.

JSON is YAML (1.2), and a generated case — a big explicit tree — is usually written as JSON.
libyaml turns every token of such a file into a Python event object, which costs about a
microsecond each; this module reads strict JSON with one regular expression instead, and
builds exactly the node graph the YAML composer would build (scalars keep their text, quoted
strings their double-quote style, numbers, ``true`` and ``null`` are plain scalars; marks give
the same line and column), with a mechanism's ``tree:`` going straight into flat storage
(:mod:`exactdp.caseio.flattree`).

Anything that is not plain JSON as libyaml would read it — a tab, a character YAML does not
accept, an escaped surrogate, a syntax error, trailing text — returns ``None``, and the
document is composed by the YAML parser as before (which reports problems where they are).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from typing import Any

import yaml

from ..errors import CaseError, CaseProblem
from .flattree import FlatTreeNode, NotFlat, TreeStore, distinct, is_tree_path, probability_of

__all__ = ["compose_json"]

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_STR_TAG = "tag:yaml.org,2002:str"

# one token after optional whitespace: a string, punctuation, a number or a literal
_TOKEN = re.compile(
    r'[ \n\r]*(?:("(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")|([{}\[\]:,])'
    r"|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)|(true|false|null))"
)
_END = re.compile(r"[ \n\r]*\Z")
# characters libyaml refuses (outside strings as well as inside), tabs, and escaped surrogates
_NOT_PLAIN = re.compile(r"[^\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]|\\u[dD][89a-fA-F]")


class _NotJSON(Exception):
    pass


def compose_json(text: str, file: str, limits: Any, *, flat_trees: bool = True) -> yaml.Node | None:
    """The node graph of ``text`` when it is a JSON object, or ``None`` (then compose it as
    YAML).  Raises :class:`CaseError` for the limits the YAML composer enforces while
    composing (nesting depth, nodes made)."""
    head = text.lstrip(" \n\r")
    if not head.startswith("{") or _NOT_PLAIN.search(text):
        return None
    try:
        return _Composer(text, file, limits, flat_trees).document()
    except (_NotJSON, NotFlat, RecursionError):
        return None


class _Composer:
    def __init__(self, text: str, file: str, limits: Any, flat_trees: bool):
        self.text = text
        self.file = file
        self.limits = limits
        self.flat_trees = flat_trees
        self.pos = 0
        self.made = 0
        self._lines: list[int] | None = None
        self._match = _TOKEN.match

    # --- positions ----------------------------------------------------------------------------

    def mark(self, index: int) -> yaml.Mark:
        if self._lines is None:
            self._lines = [m.start() for m in re.finditer("\n", self.text)]
        line = bisect_right(self._lines, index - 1)
        col = index - (self._lines[line - 1] + 1 if line else 0)
        return yaml.Mark(self.file, index, line, col, None, None)

    # --- tokens -------------------------------------------------------------------------------

    def token(self) -> re.Match:
        m = self._match(self.text, self.pos)
        if m is None:
            raise _NotJSON
        self.pos = m.end()
        return m

    def document(self) -> yaml.Node:
        m = self.token()
        if m.group(2) != "{":
            raise _NotJSON
        node = self.mapping(m, (), 1)
        if _END.match(self.text, self.pos) is None:
            raise _NotJSON  # trailing text: YAML says what it is
        return node

    def count(self, m: re.Match) -> None:
        self.made += 1
        if self.made > self.limits.max_expanded_nodes:
            mk = self.mark(len(self.text) - len(self.text.lstrip(" \n\r")))  # the document
            raise CaseError(
                CaseProblem(
                    f"this value expands to more than {self.limits.max_expanded_nodes} YAML nodes",
                    file=self.file,
                    line=mk.line + 1,
                    column=mk.column + 1,
                    hint="if the case really is this large, raise --max-yaml-nodes",
                )
            )

    def value(self, m: re.Match, path: tuple | None, depth: int) -> yaml.Node:
        s, punct, num, lit = m.groups()
        if s is not None:
            self.count(m)
            start = m.start(1)
            return yaml.ScalarNode(_STR_TAG, _string(s), self.mark(start), self.mark(m.end()), style='"')
        if num is not None or lit is not None:
            self.count(m)
            start = m.start(3) if num is not None else m.start(4)
            return yaml.ScalarNode(_STR_TAG, num or lit, self.mark(start), self.mark(m.end()), style=None)
        if punct == "{":
            if self.flat_trees and path is not None and is_tree_path(path):
                return self.tree(m, depth)
            return self.mapping(m, path, depth + 1)
        if punct == "[":
            return self.sequence(m, path, depth + 1)
        raise _NotJSON

    def _deep(self, m: re.Match, depth: int) -> None:
        if depth > self.limits.max_depth:
            mk = self.mark(m.start(2))
            raise CaseError(
                CaseProblem(
                    f"nesting deeper than {self.limits.max_depth} levels",
                    file=self.file,
                    line=mk.line + 1,
                    column=mk.column + 1,
                    hint="flatten the structure",
                )
            )

    def mapping(self, m: re.Match, path: tuple | None, depth: int) -> yaml.Node:
        self._deep(m, depth)
        self.count(m)
        start = m.start(2)
        pairs: list[tuple[yaml.Node, yaml.Node]] = []
        node = yaml.MappingNode(_MAP_TAG, pairs, self.mark(start), None, flow_style=True)
        t = self.token()
        if t.group(2) != "}":
            while True:
                if t.group(1) is None:
                    raise _NotJSON
                key = self.value(t, None, depth)
                if self.token().group(2) != ":":
                    raise _NotJSON
                sub = None if path is None or len(path) >= 3 else path + (key.value,)
                pairs.append((key, self.value(self.token(), sub, depth)))
                t = self.token()
                if t.group(2) == "}":
                    break
                if t.group(2) != ",":
                    raise _NotJSON
                t = self.token()
        node.end_mark = self.mark(self.pos)
        return node

    def sequence(self, m: re.Match, path: tuple | None, depth: int) -> yaml.Node:
        self._deep(m, depth)
        self.count(m)
        items: list[yaml.Node] = []
        node = yaml.SequenceNode(_SEQ_TAG, items, self.mark(m.start(2)), None, flow_style=True)
        t = self.token()
        if t.group(2) != "]":
            while True:
                sub = None if path is None or len(path) >= 3 else path + (len(items),)
                items.append(self.value(t, sub, depth))
                t = self.token()
                if t.group(2) == "]":
                    break
                if t.group(2) != ",":
                    raise _NotJSON
                t = self.token()
        node.end_mark = self.mark(self.pos)
        return node

    # --- a tree into flat storage ---------------------------------------------------------------

    def tree(self, m: re.Match, depth: int) -> yaml.Node:
        """The tree value starting at ``m`` (its opening brace), into flat storage: by Python's
        JSON decoder with a hook per object (:class:`_Objects`), else token by token."""
        start = m.start(2)
        objects = _Objects(self.limits.max_depth - depth)
        try:
            got, end = objects.decoder.raw_decode(self.text, start)
        except (ValueError, NotFlat, RecursionError):
            got = None
        if isinstance(got, _Node) and objects.builder is not None:
            self.pos = end
            game, width = objects.builder.finish(), objects.width
        else:
            self.pos = m.end()
            reader = _TreeReader(self, self.limits.max_depth - depth)
            reader.node()
            if reader.builder is None:
                raise NotFlat("no answers")
            game, width = reader.builder.finish(), reader.width
        return FlatTreeNode(game, width, self.mark(start), self.mark(self.pos))


def _string(token: str) -> str:
    body = token[1:-1]
    return json.loads(token) if "\\" in body else body


class _TreeReader(TreeStore):
    """The tree grammar of :mod:`exactdp.caseio.flattree`, read from JSON tokens."""

    def __init__(self, c: _Composer, depth_left: int):
        super().__init__(depth_left)
        self.c = c
        self.depth = 1  # the tree's own mapping

    def key(self, m: re.Match) -> str:
        s = m.group(1)
        if s is None:
            raise NotFlat("key")
        got = self.label(_string(s))
        if self.c.token().group(2) != ":":
            raise _NotJSON
        return got

    def open(self) -> None:
        if self.c.token().group(2) != "{":
            raise NotFlat("not a mapping")
        self.deeper()

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > self.depth_left:  # the general reader says where it is too deep
            raise NotFlat("nesting")

    def node(self) -> int:
        """``{"ask": ...}`` or ``{"respond": ...}`` (the opening brace already read)."""
        k = self.key(self.c.token())
        self.open()
        if k == "ask":
            idx = self.ask()
        elif k == "respond":
            idx = self.answers()
        else:
            raise NotFlat(k)
        if self.c.token().group(2) != "}":
            raise NotFlat("more than one key")
        self.depth -= 1
        return idx

    def entries(self):
        """The keys of a mapping whose opening brace was read, each before its value is read."""
        c = self.c
        t = c.token()
        if t.group(2) == "}":
            self.depth -= 1
            return
        while True:
            yield self.key(t)
            t = c.token()
            if t.group(2) == "}":
                self.depth -= 1
                return
            if t.group(2) != ",":
                raise _NotJSON
            t = c.token()

    def ask(self) -> int:
        labels: list[str] = []
        kids: list[int] = []
        for lab in self.entries():
            labels.append(lab)
            self.open()
            kids.append(self.answers())
        return self.ask_node(labels, kids)

    def answers(self) -> int:
        labels: list[str] = []
        rows: list[list[Any]] = []
        kids: list[int] = []
        c = self.c
        for lab in self.entries():
            labels.append(lab)
            t = c.token().group(2)
            if t == "[":
                self.deeper()
                rows.append(self.row())
                kids.append(self.end())
            elif t == "{":
                self.deeper()
                row, kid = self.record()
                rows.append(row)
                kids.append(kid)
            else:
                raise NotFlat("answer")
        return self.answer_node(labels, rows, kids)

    def record(self) -> tuple[list[Any], int]:
        row: list[Any] | None = None
        kid: int | None = None
        c = self.c
        for k in self.entries():
            t = c.token()
            if k == "p" and row is None and t.group(2) == "[":
                self.deeper()
                row = self.row()
            elif k == "then" and kid is None:
                if t.group(4) == "null":
                    kid = self.end()
                elif t.group(2) == "{":
                    self.deeper()
                    kid = self.node()
                else:
                    raise NotFlat("then")
            else:
                raise NotFlat(k)
        if row is None:
            raise NotFlat("no p")
        return row, (self.end() if kid is None else kid)

    def row(self) -> list[Any]:
        out: list[Any] = []
        c = self.c
        t = c.token()
        if t.group(2) != "]":
            while True:
                s, _p, num, lit = t.groups()
                if s is not None:
                    text, style = _string(s), '"'
                elif num is not None or lit is not None:
                    text, style = num or lit, None
                else:
                    raise NotFlat("probability")
                p = self._probs.get(text)
                if p is None:
                    p = self._probs[text] = probability_of(text, style)
                out.append(p)
                t = c.token()
                if t.group(2) == "]":
                    break
                if t.group(2) != ",":
                    raise _NotJSON
                t = c.token()
        self.depth -= 1
        return self.close_row(out)


# --- the tree grammar by Python's JSON decoder ------------------------------------------------------


class _Node(int):
    """A game node (``{"ask": ...}`` / ``{"respond": ...}``) built from a decoded object."""

    __slots__ = ()


class _AskBody(int):
    """The node of ``{query: answers, ...}``."""

    __slots__ = ()


class _Answers(int):
    """The node of ``{answer: [p...] | {"p": ..., "then": ...}, ...}``."""

    __slots__ = ()


class _Record(tuple):
    """``{"p": [...], "then": ...}`` as (probabilities, continuation index or None, nesting)."""

    __slots__ = ()


class _Objects(TreeStore):
    """Builds the tree's flat storage while Python's JSON decoder reads it, one call per object,
    innermost first.

    An object's role is read from its shape, in this order: an answer ``{"p": [...],
    "then": null | node}``; a node ``{"ask": queries}`` / ``{"respond": answers}``; the queries
    of an ``ask`` (every value is answers); answers (every value is a list or an answer).  Each
    role's parent checks that its parts have the roles the grammar gives them, and anything
    else raises :class:`NotFlat` — so when the top is a node, every object has the role the
    grammar gives it (the grammar fixes each part's role from its parent's), and the game is
    the one the general reader builds.  Nodes are built as their objects close, children
    first (the order flat storage needs).
    """

    def __init__(self, depth_left: int):
        super().__init__(depth_left)
        self._node_height: dict[int, int] = {}  # levels of nesting of each node's object
        self._body_height: dict[int, int] = {}
        self.decoder = json.JSONDecoder(
            object_pairs_hook=self.hook, parse_float=str, parse_int=str, parse_constant=_refuse
        )

    def hook(self, pairs: list[tuple[str, Any]]) -> Any:
        if not pairs:
            raise NotFlat("empty")
        keys = [k for k, _ in pairs]
        if not distinct(keys):
            raise NotFlat("duplicate key")
        first_key, first = pairs[0]
        if first_key == "p" and type(first) is list and len(pairs) <= 2:
            then = pairs[1] if len(pairs) == 2 else ("then", None)
            if then[0] == "then" and (then[1] is None or type(then[1]) is _Node):
                h = 1 + max(1, self._node_height[then[1]] if then[1] is not None else 0)
                return _Record((self.row(first), then[1], self.tall(h)))
        if len(pairs) == 1 and first_key in ("ask", "respond"):
            if (first_key == "ask" and type(first) is _AskBody) or (first_key == "respond" and type(first) is _Answers):
                self._node_height[first] = self.tall(1 + self._body_height[first])
                return _Node(first)
        if type(first) is _Answers:
            if self.builder is None or any(type(v) is not _Answers for _, v in pairs):
                raise NotFlat("queries")
            kids = [int(v) for _, v in pairs]
            v = self.ask_node([self.label(k) for k in keys], kids)
            self._body_height[v] = self.tall(1 + max(self._body_height[k] for k in kids))
            return _AskBody(v)
        rows: list[list[Any]] = []
        kids = []
        h = 1
        for _, v in pairs:
            t = type(v)
            if t is list:
                rows.append(self.row(v))
                kids.append(-1)
            elif t is _Record:
                rows.append(v[0])
                kids.append(v[1] if v[1] is not None else -1)
                h = max(h, v[2])
            else:
                raise NotFlat("answer")
        end = self.end() if -1 in kids else -1
        v = self.answer_node([self.label(k) for k in keys], rows, [end if k == -1 else k for k in kids])
        self._body_height[v] = self.tall(1 + h)
        return _Answers(v)

    def tall(self, height: int) -> int:
        """``height`` (levels of nesting below the tree's top), refused past the YAML limit on
        nesting (the general reader then says where)."""
        if height > self.depth_left:
            raise NotFlat("nesting")
        return height

    def row(self, items: list[Any]) -> list[Any]:
        out = []
        probs = self._probs
        for text in items:
            if type(text) is not str:
                raise NotFlat("probability")
            p = probs.get(text)
            if p is None:
                p = probs[text] = probability_of(text, '"')
            out.append(p)
        return self.close_row(out)


def _refuse(name: str) -> Any:
    raise NotFlat(name)
