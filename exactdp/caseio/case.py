"""Reading a case file (format version 1, ``../shared/spec/case-format.md``) into a :class:`Case`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import yaml

from ..claims import Claim
from ..errors import CaseError, CaseProblem
from ..model.game import Mechanism
from ..numbers.symbolic import SymbolTable
from .claims import read_claims
from ..errors import LimitExceededError
from ..limits import check_datasets
from ..limits import current as current_limits
from .context import INVALID, Reader, _Abort, child_path, suggest
from .files import read_case_bytes
from .forms import MechanismReader
from .yamlsafe import YamlLimits, is_null, kind_of, load_yaml

__all__ = ["Case", "load_case", "parse_case", "evaluate_in_case", "FORMAT_VERSION", "TOP_LEVEL_KEYS"]

FORMAT_VERSION = 1
_NAME_RE = re.compile(r"^[a-z0-9._-]+$")
_DATASET_RE = re.compile(r"^[A-Za-z0-9_.'-]+$")

TOP_LEVEL_KEYS = (
    "exactdp",
    "name",
    "title",
    "reference",
    "datasets",
    "adjacent",
    "symbols",
    "params",
    "mechanisms",
    "mechanism",
    "claims",
)


@dataclass(frozen=True, eq=False)
class Case:
    """A parsed case: its mechanisms (built game DAGs) and claims, ready to check."""

    name: str
    file: str
    datasets: tuple[str, ...]
    adjacent: tuple[tuple[int, int], ...]
    mechanisms: Mapping[str, Mechanism]
    claims: tuple[Claim, ...]
    title: str | None = None
    reference: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    symbols: SymbolTable = field(default_factory=SymbolTable)


def load_case(
    path: str | Path,
    *,
    yaml_limits: YamlLimits = YamlLimits(),
    max_problems: int = 20,
    follow_symlinks: bool | None = None,
    tree: str | Path | None = None,
) -> Case:
    """Read and validate a case file; raise :class:`CaseError` listing located problems.

    The file is read by :func:`~exactdp.caseio.files.read_case_bytes`: a regular file only, no
    symbolic link unless ``follow_symlinks`` (default: the limits in force) and then only
    inside ``tree``, at most ``yaml_limits.max_bytes`` bytes."""
    file = str(path)
    follow = current_limits().follow_symlinks if follow_symlinks is None else follow_symlinks
    data = read_case_bytes(path, max_bytes=yaml_limits.max_bytes, follow_symlinks=follow, tree=tree)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CaseError(CaseProblem(f"not UTF-8 text (byte {e.start})", file=file, hint="save the case file as UTF-8")) from None
    return parse_case(text, file, yaml_limits=yaml_limits, max_problems=max_problems)


def parse_case(text: str, file: str = "<case>", *, yaml_limits: YamlLimits = YamlLimits(), max_problems: int = 20) -> Case:
    """Parse case-file text; raise :class:`CaseError` listing located problems."""
    root = load_yaml(text, file, yaml_limits)
    r = Reader(file, max_problems=max_problems)
    try:
        case = _read(r, root)
    except _Abort:
        case = None
    r.raise_if_problems()
    assert case is not None
    return case


def _read(r: Reader, root: yaml.Node) -> Case | None:
    if not isinstance(root, yaml.MappingNode):
        r.error(root, "", f"a case file is a mapping at the top level, found {kind_of(root)}", "start with `exactdp: 1`")
        return None
    top: dict[str, yaml.Node] = {}
    keynodes: dict[str, yaml.Node] = {}
    for k, v in root.value:
        if k.value not in TOP_LEVEL_KEYS:
            r.error(k, k.value, f"unknown top-level key {k.value!r}", suggest(k.value, TOP_LEVEL_KEYS) or f"allowed: {', '.join(TOP_LEVEL_KEYS)}")
            continue
        top[k.value] = v
        keynodes[k.value] = k

    # version
    if "exactdp" not in top:
        r.error(root, "exactdp", "missing `exactdp: 1` (the case-format version)", "add `exactdp: 1` as the first line")
    else:
        v = top["exactdp"]
        if not (isinstance(v, yaml.ScalarNode) and v.value.strip() == str(FORMAT_VERSION)):
            r.error(v, "exactdp", f"unsupported case-format version {getattr(v, 'value', kind_of(v))!r}", f"this exactdp reads format version {FORMAT_VERSION}")

    # name, title, reference
    name = "<unnamed>"
    if "name" not in top:
        r.error(root, "name", "missing `name:`", "a short id such as `name: rr-ln3` ([a-z0-9._-]+)")
    else:
        n = r.scalar_text(top["name"], "name", "name")
        if n is not INVALID:
            if not _NAME_RE.match(n):
                r.error(top["name"], "name", f"name {n!r} must match [a-z0-9._-]+", "use lower-case letters, digits, '.', '_' and '-'")
            name = n
    title = _text(r, top.get("title"), "title")
    reference = _text(r, top.get("reference"), "reference")

    # datasets and adjacency
    datasets: tuple[str, ...] = ("x0", "x1")
    if "datasets" in top:
        items = r.sequence(top["datasets"], "datasets", "datasets")
        if items is not INVALID:
            names = []
            seen: set[str] = set()
            for i, it in enumerate(items):
                if i >= current_limits().max_datasets:  # refuse before anything quadratic is built
                    r.error(top["datasets"], "datasets", _limit_text(lambda: check_datasets(len(items))))
                    break
                d = r.label(it, child_path("datasets", i), "a dataset name")
                if d is INVALID:
                    continue
                if not _DATASET_RE.match(d):
                    r.error(it, child_path("datasets", i), f"dataset name {d!r} may only use letters, digits, _ . ' -")
                elif d in seen:
                    r.error(it, child_path("datasets", i), f"dataset {d!r} is listed twice")
                else:
                    names.append(d)
                    seen.add(d)
            if len(names) < 2 and len(names) == len(items):
                r.error(top["datasets"], "datasets", "at least two datasets are needed to speak of adjacency")
            if names:
                datasets = tuple(names)
    adjacent = _adjacency(r, top.get("adjacent"), datasets, top.get("datasets", root))
    problems_before_mechanisms = len(r.problems)

    # symbols (before params: params may use them)
    if "symbols" in top:
        items = r.mapping(top["symbols"], "symbols", "symbols")
        if items is not INVALID:
            r.define_symbols(items, "symbols")

    # params
    if "params" in top:
        items = r.mapping(top["params"], "params", "params")
        if items is not INVALID:
            r.define_params(items, "params")

    # mechanisms
    named: dict[str, tuple[yaml.Node, str]] = {}
    if "mechanisms" in top and "mechanism" in top:
        r.error(keynodes["mechanism"], "mechanism", "give either `mechanism:` or `mechanisms:`, not both")
    if "mechanisms" in top:
        items = r.mapping(top["mechanisms"], "mechanisms", "mechanisms")
        if items is not INVALID:
            if not items:
                r.error(top["mechanisms"], "mechanisms", "define at least one mechanism")
            for mname, knode, vnode in items:
                if not mname or is_null(knode):
                    r.error(knode, "mechanisms", "a mechanism needs a name")
                    continue
                named[mname] = (vnode, child_path("mechanisms", mname))
    elif "mechanism" in top:
        named["M"] = (top["mechanism"], "mechanism")
    else:
        r.error(root, "mechanisms", "no mechanism: add `mechanisms: {M: ...}` or `mechanism: ...`")

    built: dict[str, Mechanism] = {}
    if not _dataset_problems(r, problems_before_mechanisms):
        mr = MechanismReader(r, datasets, adjacent, named)
        for mname in named:
            m = mr.named(mname)
            if m is not INVALID:
                built[mname] = m

    default_of = "M" if "M" in named or len(named) != 1 else next(iter(named))
    claims: list[Claim] = []
    if "claims" not in top:
        r.error(root, "claims", "missing `claims:`", "a case checks at least one claim, e.g. `- privloss: {delta: 0, equals: log(3)}`")
    else:
        claims = read_claims(r, top["claims"], "claims", set(named) if named else None, default_of)
    if r.problems:
        return None
    return Case(name, r.file, datasets, adjacent, built, tuple(claims), title, reference, dict(r.params), r.symtab)


def _dataset_problems(r: Reader, upto: int) -> bool:
    """Whether `datasets`/`adjacent` had problems (mechanisms built on them would only echo them)."""
    return any(p.path.startswith(("datasets", "adjacent")) for p in r.problems[:upto])


def _text(r: Reader, node: yaml.Node | None, path: str) -> str | None:
    if node is None or is_null(node):
        return None
    t = r.scalar_text(node, path, path)
    return None if t is INVALID else t


def _limit_text(check) -> str:
    try:
        check()
    except LimitExceededError as e:
        return str(e)
    return ""  # pragma: no cover - only called when the limit is exceeded


def _adjacency(r: Reader, node: yaml.Node | None, datasets: tuple[str, ...], where: yaml.Node) -> tuple[tuple[int, int], ...]:
    n = len(datasets)
    pos = {d: i for i, d in enumerate(datasets)}
    if node is None and n * (n - 1) // 2 > current_limits().max_pairs:  # before building them
        r.error(where, "datasets", _limit_text(lambda: check_datasets(n, n * (n - 1) // 2)))
        return ()
    default = tuple((i, j) for i in range(n) for j in range(i + 1, n)) if n * (n - 1) // 2 <= current_limits().max_pairs else ()
    if node is None:
        return default
    items = r.sequence(node, "adjacent", "adjacent")
    if items is INVALID:
        return default
    if len(items) > current_limits().max_pairs:
        r.error(node, "adjacent", _limit_text(lambda: check_datasets(n, len(items))))
        return default
    out: list[tuple[int, int]] = []
    listed: set[tuple[int, int]] = set()
    for i, it in enumerate(items):
        p = child_path("adjacent", i)
        pair = r.sequence(it, p, "an adjacent pair")
        if pair is INVALID:
            continue
        if len(pair) != 2:
            r.error(it, p, f"an adjacent pair names exactly two datasets, found {len(pair)}")
            continue
        idx = []
        for k, d in enumerate(pair):
            name = r.label(d, child_path(p, k), "a dataset name")
            if name is INVALID:
                break
            if name not in pos:
                r.error(d, child_path(p, k), f"unknown dataset {name!r} in adjacent", suggest(name, datasets) or f"datasets: {', '.join(datasets)}")
                break
            idx.append(pos[name])
        if len(idx) != 2:
            continue
        if idx[0] == idx[1]:
            r.error(it, p, f"a dataset is not adjacent to itself ({datasets[idx[0]]})")
            continue
        t = (idx[0], idx[1])
        if t in listed or (t[1], t[0]) in listed:
            continue
        out.append(t)
        listed.add(t)
    if not out:
        if not items:
            r.error(node, "adjacent", "no adjacent pair: list at least one, e.g. `adjacent: [[x0, x1]]`")
        return default
    return tuple(out)


def evaluate_in_case(case: Case, text: str, what: str, *, kind: str) -> Any:
    """A number given on the command line, read with our grammar in the case's params and
    symbols (``log(E)``); ``kind`` is ``eps`` (≥ 0) or ``delta`` (in [0, 1])."""
    from ..numbers.expr import ExprError, evaluate, parse_expr
    from ..numbers.rational import as_q, is_rational
    from ..numbers.real import Infinity, LogReal, real_sign, real_str
    from ..numbers.symbolic import sym_evaluate

    def look(name: str) -> Any:
        if name in case.params:
            return case.params[name]
        if case.symbols and name in case.symbols.symbols:
            return case.symbols.symbols[name]
        raise ExprError(f"unknown name {name!r}", None, "names are the case's params and symbols")

    try:
        ast = parse_expr(text)
        from ..numbers.expr import names_in

        if any(case.symbols and n in case.symbols.symbols for n in names_in(ast)) or any(
            _is_sym(case.params.get(n)) for n in names_in(ast)
        ):
            return sym_evaluate(ast, look)
        v = evaluate(ast, look)
    except ExprError as e:
        raise CaseError(CaseProblem(f"{what} {text!r}: {e.message}", hint=e.hint)) from None
    if kind == "delta":
        if not is_rational(v) or not (0 <= v <= 1):
            raise CaseError(CaseProblem(f"{what} must be an exact rational in [0, 1], got {real_str(v)}"))
        return as_q(v)
    if isinstance(v, Infinity) or not (is_rational(v) or isinstance(v, LogReal)) or real_sign(v) < 0:
        raise CaseError(CaseProblem(f"{what} must be an eps >= 0 such as log(3), got {real_str(v)}"))
    return as_q(v) if is_rational(v) else v


def _is_sym(v: Any) -> bool:
    import sympy

    return isinstance(v, sympy.Basic)
