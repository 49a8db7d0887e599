"""The optional top-level ``sweep:`` key: a case checked at every point of a parameter grid.

``sweep:`` maps names declared under ``params:`` to the values to try, either a list of exact
values (``eps: [log(2), log(3), 1/2]``) or an integer range (``k: {from: 1, to: 12}``, with an
optional ``step:``).  The case is checked at every point of the Cartesian product, in a fixed
order: the first key is the outermost loop, the last key varies fastest, and each key's values
are taken in the order written.  At each point the swept params replace their ``params:`` values
everywhere they are used (mechanism parameters, ``times:``, expected values such as
``equals: k*log(3)``).  Read as a single case (``exactdp privloss``, the Python API), the file
uses the ``params:`` values.

Sweep values are constants: they cannot use other params (which may themselves depend on the
swept ones).
"""

from __future__ import annotations

from itertools import product
from typing import Any

import yaml

from ..errors import CaseError, CaseProblem
from ..limits import READING
from ..numbers import ladder
from ..numbers.expr import ExprError, evaluate, names_in, parse_expr
from ..numbers.rational import Q, as_q, is_rational
from .context import INVALID, Invalid, Reader, _Abort, child_path, suggest
from .yamlsafe import YamlLimits, is_null, kind_of, load_yaml

__all__ = [
    "Point",
    "read_sweep",
    "sweep_points",
    "point_label",
    "case_name",
    "MAX_SWEEP_POINTS",
    "SWEEP_SCHEMA",
]

# the default of --max-sweep-points: a grid this large is almost surely a typo in a range
MAX_SWEEP_POINTS = READING.max_sweep_points

# one point: (param name, exact value) in the order of the `sweep:` keys
Point = tuple[tuple[str, Any], ...]

SWEEP_SCHEMA: dict[str, Any] = {
    "description": "Check the case at every point of a grid of params (first key outermost).",
    "type": "object",
    "minProperties": 1,
    "additionalProperties": {
        "oneOf": [
            {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/number"}},
            {
                "type": "object",
                "properties": {
                    "from": {"type": ["integer", "string"]},
                    "to": {"type": ["integer", "string"]},
                    "step": {"type": ["integer", "string"]},
                },
                "required": ["from", "to"],
                "additionalProperties": False,
            },
        ]
    },
}


def _constant(r: Reader, node: yaml.Node, path: str) -> Any:
    """One exact constant (our grammar, no names)."""
    text = r.scalar_text(node, path, "a sweep value")
    if isinstance(text, Invalid):
        return INVALID
    if is_null(node):
        return r.error(node, path, "a sweep value is missing (the value is empty)")
    try:
        ast = parse_expr(text, r.expr_limits)
        used = names_in(ast)
        if used:
            return r.error(
                node,
                path,
                f"a sweep value is a constant; it uses {', '.join(sorted(used))}",
                "write the value itself (e.g. log(3), 1/10); params may depend on swept params, not the reverse",
            )
        return evaluate(ast, {}, r.expr_limits)
    except ExprError as e:
        return r.error(node, path, e.message, e.hint)


def _integer(r: Reader, node: yaml.Node, path: str) -> Any:
    v = _constant(r, node, path)
    if v is INVALID:
        return INVALID
    if not is_rational(v) or as_q(v).denominator != 1:
        return r.error(node, path, f"a range bound must be a whole number, found {ladder.text(v)}")
    return int(as_q(v))


def _values(r: Reader, node: yaml.Node, path: str, max_points: int) -> list[Any] | Any:
    if isinstance(node, yaml.SequenceNode):
        return _listed(r, node, path)
    if isinstance(node, yaml.MappingNode):
        return _range(r, node, path, max_points)
    return r.error(node, path, f"a sweep gives a list of values or a range {{from: a, to: b}}, found {kind_of(node)}")


def _listed(r: Reader, node: yaml.SequenceNode, path: str) -> list[Any] | Any:
    """``[v1, v2, ...]``: distinct exact constants, in the order written."""
    if not node.value:
        return r.error(node, path, "an empty list of sweep values", "give at least one value")
    vals = [_constant(r, n, child_path(path, k)) for k, n in enumerate(node.value)]
    if any(v is INVALID for v in vals):
        return INVALID
    seen: set[str] = set()
    for k, v in enumerate(vals):
        text = ladder.text(v)
        if text in seen:
            return r.error(node.value[k], child_path(path, k), f"the value {text} is listed twice")
        seen.add(text)
    return vals


_RANGE_KEYS = ("from", "to", "step")


def _range(r: Reader, node: yaml.MappingNode, path: str, max_points: int) -> list[Any] | Any:
    """``{from: a, to: b, step: s}``: the whole numbers a, a + s, ... up to b (included)."""
    got: dict[str, Any] = {"step": 1}
    for knode, vnode in node.value:
        key = knode.value
        if key not in _RANGE_KEYS:
            return r.error(
                knode,
                child_path(path, key),
                f"unknown key {key!r} in a sweep range",
                suggest(key, _RANGE_KEYS) or "use from, to and step",
            )
        got[key] = _integer(r, vnode, child_path(path, key))
    missing = [k for k in ("from", "to") if k not in got]
    if missing:
        return r.error(node, path, f"a sweep range needs `{missing[0]}:`", "e.g. {from: 1, to: 12}")
    if any(v is INVALID for v in got.values()):
        return INVALID
    lo, hi, step = got["from"], got["to"], got["step"]
    if step < 1:
        return r.error(node, path, f"step must be at least 1, found {step}")
    if hi < lo:
        return r.error(node, path, f"the range from {lo} to {hi} is empty", "`to` is included and must be >= `from`")
    if (hi - lo) // step + 1 > max_points:
        return r.error(
            node, path, f"the range has more than {max_points} values", "raise the limit with --max-sweep-points N"
        )
    return [Q(v) for v in range(lo, hi + 1, step)]


def read_sweep(
    r: Reader, node: yaml.Node, path: str, declared: set[str] | list[str], *, max_points: int = MAX_SWEEP_POINTS
) -> list[Point] | Any:
    """Read ``sweep:``; the points in order (first key outermost), or INVALID."""
    items = r.mapping(node, path, "sweep")
    if isinstance(items, Invalid):
        return INVALID
    if not items:
        return r.error(node, path, "an empty sweep", "map params to values, e.g. `sweep: {k: {from: 1, to: 12}}`")
    axes: list[tuple[str, list[Any]]] = []
    for name, knode, vnode in items:
        p = child_path(path, name)
        if name not in declared:
            hint = suggest(name, list(declared)) or "declare it under `params:` (its value there is the default)"
            r.error(knode, p, f"{name!r} is not declared under `params:`", hint)
            continue
        vals = _values(r, vnode, p, max_points)
        if vals is not INVALID:
            axes.append((name, vals))
    if len(axes) != len(items):
        return INVALID
    total = 1
    for _, vals in axes:
        total *= len(vals)
    if total > max_points:
        return r.error(
            node, path, f"the sweep has {total} points; the limit is {max_points}", "raise it with --max-sweep-points N"
        )
    names = [n for n, _ in axes]
    return [tuple(zip(names, combo)) for combo in product(*(vals for _, vals in axes))]


def sweep_points(
    text: str,
    file: str = "<case>",
    *,
    yaml_limits: YamlLimits = YamlLimits(),
    max_points: int = MAX_SWEEP_POINTS,
    max_problems: int = 20,
) -> list[Point] | None:
    """The points of a case file's ``sweep:`` (None when it has none); raises :class:`CaseError`
    for a malformed sweep.  Reads only the YAML, ``params:`` names and ``sweep:``: the rest of the
    case is checked at each point."""
    root = load_yaml(text, file, yaml_limits)
    if not isinstance(root, yaml.MappingNode):
        return None
    top = {k.value: v for k, v in root.value if isinstance(k, yaml.ScalarNode)}
    if "sweep" not in top:
        return None
    declared: list[str] = []
    if isinstance(top.get("params"), yaml.MappingNode):
        declared = [k.value for k, _ in top["params"].value]
    r = Reader(file, max_problems=max_problems)
    try:
        points = read_sweep(r, top["sweep"], "sweep", declared, max_points=max_points)
    except _Abort:
        points = INVALID
    r.raise_if_problems()
    if points is INVALID:  # pragma: no cover - every INVALID records a problem
        raise CaseError(CaseProblem("invalid sweep", "sweep", file))
    return points


def case_name(text: str, file: str = "<case>", *, yaml_limits: YamlLimits = YamlLimits()) -> str:
    """The case's ``name:`` as written (empty when it has none, or it is not a plain word): what
    a sweep CSV's rows name as their case.  Raises :class:`CaseError` if the text is not YAML."""
    root = load_yaml(text, file, yaml_limits)
    if isinstance(root, yaml.MappingNode):
        for k, v in root.value:
            if isinstance(k, yaml.ScalarNode) and k.value == "name" and isinstance(v, yaml.ScalarNode):
                return str(v.value)
    return ""


def point_label(point: Point) -> str:
    """``k=3, eps=log(2)``: how a point is named in reports."""
    return ", ".join(f"{name}={ladder.text(v)}" for name, v in point)
