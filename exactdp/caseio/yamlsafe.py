"""Reading YAML safely: plain data only, every scalar kept as the text written.

PyYAML's composer builds a node graph with line/column marks and without constructing any
Python object; we never call a constructor.  The resolver's implicit rules are removed, so no
scalar is turned into a bool/float/int by YAML 1.1 rules (``yes``/``no``/``on``/``off`` stay
words, ``0.12345678901234567890`` stays that exact text); exactdp reads numbers itself with
its own grammar.  Explicit tags (``!!python/object`` ...) are refused.

Aliases share one node, so an alias bomb costs no memory to load; its *expanded* size is
counted (memoised per node) and refused beyond a limit, as are recursive aliases, duplicate
keys, deep nesting and oversized files.
"""

from __future__ import annotations

from dataclasses import dataclass

import yaml

from ..errors import CaseError, CaseProblem

__all__ = ["YamlLimits", "load_yaml", "is_null", "mark_of", "kind_of", "STR_TAG"]

STR_TAG = "tag:yaml.org,2002:str"
SEQ_TAG = "tag:yaml.org,2002:seq"
MAP_TAG = "tag:yaml.org,2002:map"
_NULLS = {"", "~", "null", "Null", "NULL"}


@dataclass(frozen=True)
class YamlLimits:
    """Bounds on what a case file may cost to read."""

    max_bytes: int = 5_000_000
    max_expanded_nodes: int = 1_000_000
    max_depth: int = 500


class _Loader(yaml.SafeLoader):
    """SafeLoader without implicit resolvers: every scalar resolves to a string tag."""


_Loader.yaml_implicit_resolvers = {}


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
    return f"the scalar {node.value!r}"


def is_null(node: yaml.Node) -> bool:
    return isinstance(node, yaml.ScalarNode) and node.style is None and node.value in _NULLS


def load_yaml(text: str, file: str, limits: YamlLimits = YamlLimits()) -> yaml.Node:
    """Compose ``text`` into a checked node graph; raise :class:`CaseError` (located) if it is
    not a single plain-data YAML document within the limits."""
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
        root = yaml.compose(text, Loader=_Loader)
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
                hint="a case file is a single YAML document; check indentation and quoting near this place",
            )
        ) from None
    except yaml.YAMLError as e:
        raise CaseError(CaseProblem(f"not valid YAML: {e}", file=file)) from None
    except RecursionError:
        raise CaseError(
            CaseProblem("the document is nested too deeply to read", file=file, hint="flatten the structure")
        ) from None
    if root is None:
        raise CaseError(CaseProblem("the file is empty; a case needs at least `exactdp: 1`, `name:` and a mechanism", file=file))
    _check_graph(root, file, limits)
    return root


def _problem(node: yaml.Node, file: str, msg: str, hint: str | None = None) -> CaseProblem:
    line, col = mark_of(node)
    return CaseProblem(msg, file=file, line=line, column=col, hint=hint)


def _check_graph(root: yaml.Node, file: str, limits: YamlLimits) -> None:
    """Reject tags, recursive aliases, duplicate keys and oversized expansions (iteratively)."""
    size: dict[int, int] = {}
    state: dict[int, int] = {}  # 1 = in progress, 2 = done
    stack: list[tuple[yaml.Node, int]] = [(root, 0)]
    problems: list[CaseProblem] = []
    while stack:
        node, i = stack.pop()
        nid = id(node)
        if i == 0:
            if state.get(nid) == 2:
                continue
            if state.get(nid) == 1:
                raise CaseError(_problem(node, file, "recursive alias: a node contains itself", "YAML anchors may share subtrees but not form cycles"))
            state[nid] = 1
            if len(stack) > limits.max_depth:
                raise CaseError(_problem(node, file, f"nesting deeper than {limits.max_depth} levels", "flatten the structure"))
            tag_ok = node.tag in (STR_TAG, SEQ_TAG, MAP_TAG)
            if not tag_ok:
                raise CaseError(
                    _problem(
                        node,
                        file,
                        f"YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed",
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
                    if k.value in seen:
                        line, _ = mark_of(seen[k.value])
                        problems.append(_problem(k, file, f"duplicate key {k.value!r} (first at line {line})"))
                    seen[k.value] = k
        kids = _children(node)
        if i < len(kids):
            stack.append((node, i + 1))
            child = kids[i]
            if state.get(id(child)) == 1:
                raise CaseError(_problem(child, file, "recursive alias: a node contains itself", "YAML anchors may share subtrees but not form cycles"))
            if state.get(id(child)) != 2:
                stack.append((child, 0))
        else:
            state[nid] = 2
            total = 1 + sum(size[id(c)] for c in kids)
            size[nid] = total
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
