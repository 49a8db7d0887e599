"""Reading YAML safely: plain data only, every scalar kept as the text written.

PyYAML's composer builds a node graph with line/column marks and without constructing any
Python object; we never call a constructor.  The resolver's implicit rules are removed, so no
scalar is turned into a bool/float/int by YAML 1.1 rules (``yes``/``no``/``on``/``off`` stay
words, ``0.12345678901234567890`` stays that exact text); exactdp reads numbers itself with
its own grammar.  Explicit tags (``!!python/object`` ...) are refused.

Aliases share one node, so an alias bomb costs no memory to load; its *expanded* size is
counted (memoised per node) and refused beyond a limit, as are recursive aliases, duplicate
keys, deep nesting and oversized files; the nodes composed are counted as they are made, so a
huge document is refused before it fills the memory.

A mechanism's explicit ``tree:`` is read from the parser's events straight into flat storage
(:mod:`exactdp.caseio.flattree`), without YAML nodes: big trees (a million answers) cost tens
of bytes per answer instead of kilobytes.  When that reader meets anything it leaves to the
general reader, the document is composed again the general way.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import yaml

from ..errors import CaseError, CaseProblem, excerpt
from ..limits import READING
from .flattree import NotFlat, is_tree_path, read_tree, same_key
from .jsoncase import compose_json

__all__ = ["YamlLimits", "load_yaml", "is_null", "mark_of", "kind_of", "STR_TAG"]

STR_TAG = "tag:yaml.org,2002:str"
SEQ_TAG = "tag:yaml.org,2002:seq"
MAP_TAG = "tag:yaml.org,2002:map"
_NULLS = {"", "~", "null", "Null", "NULL"}


@dataclass(frozen=True)
class YamlLimits:
    """Bounds on what a case file may cost to read."""

    max_bytes: int = READING.max_file_bytes
    max_expanded_nodes: int = READING.max_yaml_nodes
    max_depth: int = 500


_Parser = getattr(yaml, "CSafeLoader", None) if yaml.__with_libyaml__ else None
_Parser = _Parser or yaml.SafeLoader  # libyaml's event parser when available (fast), else pure Python


class _Recompose(Exception):
    """A tree left to the general reader: compose the document again without the event reader."""


def _compose(text: str, file: str, limits: YamlLimits, *, flat_trees: bool = True) -> yaml.Node | None:
    """Build the node graph from parser events, iteratively (no recursion, bounded depth).

    Scalars keep their text and style; explicit tags are recorded (and refused later);
    aliases point at the anchored node itself, so shared sub-trees stay shared.  With
    ``flat_trees``, a mechanism's ``tree:`` is read into flat storage (:func:`read_tree`);
    raises :class:`_Recompose` when one is not.
    """
    anchors: dict[str, yaml.Node] = {}
    stack: list[tuple[yaml.Node, list]] = []  # (collection node, pending key for mappings)
    paths: list[tuple | None] = []  # the keys leading to each collection on the stack (short ones)
    root: yaml.Node | None = None
    docs = 0
    made = 0

    def attach(node: yaml.Node) -> None:
        nonlocal root
        if not stack:
            root = node
            return
        parent, pending = stack[-1]
        if isinstance(parent, yaml.SequenceNode):
            parent.value.append(node)
        elif pending:
            parent.value.append((pending.pop(), node))
        else:
            pending.append(node)

    events = iter(yaml.parse(text, Loader=_Parser))
    for ev in events:
        if isinstance(ev, yaml.DocumentStartEvent):
            docs += 1
            if docs > 1:
                raise _event_error(
                    ev, file, "more than one YAML document", "a case file is a single document; remove the second '---'"
                )
        elif isinstance(ev, yaml.AliasEvent):
            if ev.anchor not in anchors:
                raise _event_error(ev, file, f"alias *{ev.anchor} refers to no anchor &{ev.anchor} defined before it")
            attach(anchors[ev.anchor])
        elif isinstance(ev, (yaml.ScalarEvent, yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if not isinstance(ev, yaml.ScalarEvent) and len(stack) >= limits.max_depth:
                raise _event_error(ev, file, f"nesting deeper than {limits.max_depth} levels", "flatten the structure")
            path = _value_path(stack, paths)
            if flat_trees and path is not None and isinstance(ev, yaml.MappingStartEvent) and is_tree_path(path):
                try:
                    attach(read_tree(ev, events, limits.max_depth - len(stack)))
                except NotFlat:
                    raise _Recompose from None
                continue
            made += 1
            if made > limits.max_expanded_nodes:  # the whole document (refused before it fills the memory)
                raise CaseError(
                    _problem(
                        root if root is not None else _node_of(ev),
                        file,
                        f"this value expands to more than {limits.max_expanded_nodes} YAML nodes",
                        "if the case really is this large, raise --max-yaml-nodes",
                    )
                )
            node = _node_of(ev)
            if ev.anchor:
                anchors[ev.anchor] = node  # registered first: a nested alias to it forms a cycle
            attach(node)
            if not isinstance(ev, yaml.ScalarEvent):
                stack.append((node, []))
                paths.append(path)
        elif isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            node, _ = stack.pop()
            paths.pop()
            node.end_mark = ev.end_mark
    return root


def _value_path(stack: list, paths: list) -> tuple | None:
    """The keys leading to the value the next event starts, when there are at most three of
    them (a tree's place, see :func:`is_tree_path`); None for a mapping's key or deeper."""
    if not stack:
        return ()
    parent, pending = stack[-1]
    up = paths[-1]
    if up is None or len(up) >= 3:
        return None
    if isinstance(parent, yaml.SequenceNode):
        return up + (len(parent.value),)
    if not pending:
        return None  # a key
    key = pending[0]
    return up + (key.value if isinstance(key, yaml.ScalarNode) else None,)


def _node_of(ev: yaml.Event) -> yaml.Node:
    """The node an event starts: a scalar (its text and style kept) or an empty collection."""
    if isinstance(ev, yaml.ScalarEvent):
        tag = ev.tag if ev.tag not in (None, "!") else STR_TAG
        # plain scalars: libyaml reports style '' where the pure-Python parser reports None
        return yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, style=ev.style or None)
    seq = isinstance(ev, yaml.SequenceStartEvent)
    tag = ev.tag if ev.tag not in (None, "!") else (SEQ_TAG if seq else MAP_TAG)
    cls = yaml.SequenceNode if seq else yaml.MappingNode
    return cls(tag, [], ev.start_mark, ev.end_mark, flow_style=ev.flow_style)


def _event_error(ev: yaml.Event, file: str, message: str, hint: str | None = None) -> CaseError:
    m = ev.start_mark
    return CaseError(CaseProblem(message, file=file, line=m.line + 1, column=m.column + 1, hint=hint))


def mark_of(node: yaml.Node) -> tuple[int, int]:
    m = node.start_mark
    return m.line + 1, m.column + 1


def kind_of(node: yaml.Node) -> str:
    if isinstance(node, yaml.MappingNode):
        return "a mapping"
    if isinstance(node, yaml.SequenceNode):
        return "a list"
    if is_null(node):
        return "nothing (null)"
    return f"the scalar {excerpt(node.value)}"


def is_null(node: yaml.Node) -> bool:
    """A plain (unquoted) ``~``, ``null`` or empty scalar.  libyaml reports the plain style as
    ``''``, the pure-Python parser as ``None``; quoted ``"null"`` stays a string."""
    return isinstance(node, yaml.ScalarNode) and node.style in (None, "") and node.value in _NULLS


def load_yaml(text: str, file: str, limits: YamlLimits = YamlLimits(), *, flat_trees: bool = False) -> yaml.Node:
    """Compose ``text`` into a checked node graph; raise :class:`CaseError` (located) if it is
    not a single plain-data YAML document within the limits.  With ``flat_trees`` a mechanism's
    explicit ``tree:`` may stand in the graph as a :class:`~exactdp.caseio.flattree.FlatTreeNode`."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise CaseError(
            CaseProblem(
                f"file is {size} bytes; the limit is {limits.max_bytes}",
                file=file,
                hint="raise it with --max-file-bytes if this is really a case file",
            )
        )
    try:
        with _no_gc():  # a wide document is many small objects, none cyclic: skip the collector's passes
            root = compose_json(text, file, limits, flat_trees=flat_trees)
            if root is None:  # not plain JSON: the YAML parser composes it
                try:
                    root = _compose(text, file, limits, flat_trees=flat_trees)
                except _Recompose:
                    root = _compose(text, file, limits, flat_trees=False)
    except CaseError:
        raise
    except yaml.MarkedYAMLError as e:
        m = e.problem_mark or e.context_mark
        msg = (e.problem or e.context or "invalid YAML").strip()
        if e.context and e.problem:
            msg = f"{e.context.strip()}: {e.problem.strip()}"
        raise CaseError(
            CaseProblem(
                f"not valid YAML: {msg}",
                file=file,
                line=m.line + 1 if m else None,
                column=m.column + 1 if m else None,
                hint=_YAML_KEY_HINT if m and m.column >= 1024 else _YAML_HINT,
            )
        ) from None
    except yaml.reader.ReaderError as e:  # a character YAML refuses anywhere, even in a comment
        raise CaseError(_reader_problem(e, text, file)) from None
    except yaml.YAMLError as e:
        raise CaseError(CaseProblem(f"not valid YAML: {e}", file=file)) from None

    if root is None:
        raise CaseError(
            CaseProblem("the file is empty; a case needs at least `exactdp: 1`, `name:` and a mechanism", file=file)
        )
    with _no_gc():
        _check_graph(root, file, limits)
    return root


_YAML_HINT = "a case file is a single YAML document; check indentation and quoting near this place"
_YAML_KEY_HINT = (
    "YAML allows a mapping key of at most 1024 characters, quoted or not: a longer name is read as "
    "something else; shorten it (a case file written as JSON has no such limit)"
)


def _reader_problem(e: yaml.reader.ReaderError, text: str, file: str) -> CaseProblem:
    """PyYAML's reader says where the refused character is only as an offset: its line and column."""
    before = text[: e.position]
    line, column = before.count("\n") + 1, e.position - before.rfind("\n")
    code = f"U+{e.character:04X}" if isinstance(e.character, int) else repr(e.character)
    return CaseProblem(
        f"not valid YAML: the character {code} is not allowed in YAML, not even in a comment",
        file=file,
        line=line,
        column=column,
        hint='inside a double-quoted string write it as a YAML escape ("\\0" is NUL, "\\a" BEL, "\\e" ESC), or remove it',
    )


@contextmanager
def _no_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _problem(node: yaml.Node, file: str, msg: str, hint: str | None = None) -> CaseProblem:
    line, col = mark_of(node)
    return CaseProblem(msg, file=file, line=line, column=col, hint=hint)


def _check_graph(root: yaml.Node, file: str, limits: YamlLimits) -> None:
    """Reject tags, recursive aliases, duplicate keys and oversized expansions.

    Iterative, and linear in the size of the node graph: each node's children are listed once
    (kept on the stack with the position reached), each shared node is checked once and its
    expanded size memoised."""
    size: dict[int, int] = {}
    state: dict[int, int] = {}  # 1 = in progress, 2 = done
    stack: list[tuple[yaml.Node, list[yaml.Node], int]] = []
    problems: list[CaseProblem] = []

    def enter(node: yaml.Node) -> None:
        state[id(node)] = 1
        if len(stack) > limits.max_depth:
            raise CaseError(
                _problem(node, file, f"nesting deeper than {limits.max_depth} levels", "flatten the structure")
            )
        _check_node(node, file, problems)
        stack.append((node, _children(node), 0))

    enter(root)
    while stack:
        node, kids, i = stack[-1]
        if i < len(kids):
            stack[-1] = (node, kids, i + 1)
            child = kids[i]
            st = state.get(id(child))
            if st == 1:
                raise CaseError(
                    _problem(
                        child,
                        file,
                        "recursive alias: a node contains itself",
                        "YAML anchors may share subtrees but not form cycles",
                    )
                )
            if st is None:
                enter(child)
            continue
        stack.pop()
        state[id(node)] = 2
        total = 1 + sum(size[id(c)] for c in kids)
        size[id(node)] = total
        if total > limits.max_expanded_nodes:
            raise CaseError(
                _problem(
                    node,
                    file,
                    f"this value expands to more than {limits.max_expanded_nodes} YAML nodes through aliases",
                    "an alias bomb? if the case really is this large, raise --max-yaml-nodes",
                )
            )
    if problems:
        raise CaseError(problems[:50], truncated=len(problems) > 50)


def _check_node(node: yaml.Node, file: str, problems: list[CaseProblem]) -> None:
    """The checks on one node itself: its tag, and for a mapping its keys."""
    if node.tag not in (STR_TAG, SEQ_TAG, MAP_TAG):
        raise CaseError(
            _problem(
                node,
                file,
                f"YAML tag {excerpt(node.tag.replace('tag:yaml.org,2002:', '!!'), quote=False)} is not allowed",
                "a case file is plain data (mappings, lists, scalars); tags such as !!python/object are "
                "refused because a case file never executes code",
            )
        )
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, yaml.Node] = {}
        for k, _v in node.value:
            if not isinstance(k, yaml.ScalarNode):
                problems.append(_problem(k, file, "mapping keys must be plain scalars"))
                continue
            first = seen.get(key := same_key(k.value))
            if first is not None:
                line, _ = mark_of(first)
                alike = f": the same in Unicode's NFC form, written {ascii(first.value)} and {ascii(k.value)}"
                alike = "" if first.value == k.value else alike
                problems.append(_problem(k, file, f"duplicate key {excerpt(k.value)} (first at line {line}){alike}"))
            seen[key] = k


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        out: list[yaml.Node] = []
        for k, v in node.value:
            out.append(k)
            out.append(v)
        return out
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []
