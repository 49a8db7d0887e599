"""Reading a case file (format version 1, ``docs/case-format.md``) into a :class:`Case`."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..claims import Claim
from ..errors import ArgumentError, ArgumentTypeError, CaseError, CaseProblem, LimitExceededError
from ..forms.fields import Declared, FieldProblem, Rational, arg
from ..forms.registry import Obligation
from ..limits import check_datasets
from ..limits import current as current_limits
from ..model.game import Mechanism
from ..numbers import kinds as K
from ..numbers.expr import ExprError, evaluate, names_in, parse_expr
from ..numbers.symbolic import SymbolBounds, SymbolTable, is_sym, sym_evaluate
from .claims import _read_claim, read_claims
from .context import INVALID, Reader, _Abort, child_path, suggest
from .files import read_case_bytes
from .mechanisms import MechanismReader, ReadAgain
from .sweep import read_sweep
from .typed import TypedReader
from .yamlsafe import YamlLimits, _no_gc, is_null, kind_of, load_yaml

__all__ = [
    "Case",
    "load_case",
    "path_arg",
    "read_case_text",
    "parse_case",
    "parse_claim_text",
    "evaluate_in_case",
    "FORMAT_VERSION",
    "TOP_LEVEL_KEYS",
]

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
    "sweep",
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
    obligations: tuple[tuple[str, Obligation, str], ...] = ()
    """Premises the mechanisms' constructions rely on: (mechanism name, obligation, place)."""


def path_arg(path: Any, call: str, name: str = "path") -> str | Path:
    """``path`` if it is a case file's path (a str or a :class:`~pathlib.Path`); an
    :class:`~exactdp.errors.ArgumentTypeError` naming the call and the argument otherwise."""
    if not isinstance(path, (str, Path)):
        where = call if name == "path" else f"{call}: {name}"
        raise ArgumentTypeError(f"{where}: a path (str or Path), got {type(path).__name__}: {path!r:.60}")
    return path


def load_case(
    path: str | Path,
    *,
    yaml_limits: YamlLimits = YamlLimits(),
    max_problems: int = 20,
    follow_symlinks: bool | None = None,
    tree: str | Path | None = None,
) -> Case:
    """Read and validate a case file; raise :class:`CaseError` listing located problems.

    The file is read by :func:`read_case_text`."""
    path_arg(path, "load_case")
    text = read_case_text(path, yaml_limits=yaml_limits, follow_symlinks=follow_symlinks, tree=tree)
    return parse_case(text, str(path), yaml_limits=yaml_limits, max_problems=max_problems)


def read_case_text(
    path: str | Path,
    *,
    yaml_limits: YamlLimits = YamlLimits(),
    follow_symlinks: bool | None = None,
    tree: str | Path | None = None,
) -> str:
    """A case file's text; raise :class:`CaseError`.

    Read by :func:`~exactdp.caseio.files.read_case_bytes`: a regular file only, no symbolic
    link unless ``follow_symlinks`` (default: the limits in force) and then only inside
    ``tree``, at most ``yaml_limits.max_bytes`` bytes, UTF-8."""
    file = str(path)
    follow = current_limits().follow_symlinks if follow_symlinks is None else follow_symlinks
    data = read_case_bytes(path, max_bytes=yaml_limits.max_bytes, follow_symlinks=follow, tree=tree)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CaseError(
            CaseProblem(f"not UTF-8 text (byte {e.start})", file=file, hint="save the case file as UTF-8")
        ) from None


def parse_case(
    text: str,
    file: str = "<case>",
    *,
    yaml_limits: YamlLimits = YamlLimits(),
    max_problems: int = 20,
    params: Mapping[str, Any] | None = None,
) -> Case:
    """Parse case-file text; raise :class:`CaseError` listing located problems.

    ``params`` gives exact values that replace those of the case's ``params:`` (a point of its
    ``sweep:``, see :mod:`exactdp.caseio.sweep`); every name must be declared there.

    Big explicit trees are read into flat storage (:mod:`exactdp.caseio.flattree`); the cycle
    collector is off while reading (a big case is many objects, none of them in cycles).
    """
    if not isinstance(text, str):  # (a path goes to load_case)
        raise ArgumentTypeError(f"parse_case: the text of a case file (a str), got {type(text).__name__}")
    with _no_gc():
        try:
            return _parse_case(text, file, yaml_limits, max_problems, params, flat_trees=True)
        except ReadAgain:
            return _parse_case(text, file, yaml_limits, max_problems, params, flat_trees=False)


def _parse_case(
    text: str,
    file: str,
    yaml_limits: YamlLimits,
    max_problems: int,
    params: Mapping[str, Any] | None,
    *,
    flat_trees: bool,
) -> Case:
    root = load_yaml(text, file, yaml_limits, flat_trees=flat_trees)
    r = Reader(file, max_problems=max_problems)
    for name, value in (params or {}).items():  # evaluated first: `_param` finds them done
        r.params[name] = value
        r._param_state[name] = 2
    try:
        with _deep_enough():
            case = _read(r, root)
        undeclared = sorted(set(params or {}) - set(r.param_nodes))
        if undeclared:
            r.error(
                root,
                "params",
                f"no param named {', '.join(map(repr, undeclared))} to set",
                "declare it under `params:`",
            )
    except _Abort:
        case = None
    except RecursionError:
        raise CaseError(
            CaseProblem(
                "the mechanisms are nested too deeply to be read",
                file=file,
                hint="name the inner mechanisms under `mechanisms:` and refer to them by name",
            )
        ) from None
    r.raise_if_problems()
    assert case is not None
    return case


# The reader recurses a few frames per level of a mechanism expression; YAML nesting is capped
# (YamlLimits.max_depth), so this many frames always suffice for a document that was loaded.
_READER_FRAMES = 20_000


@contextmanager
def _deep_enough() -> Iterator[None]:
    """Python's recursion limit raised, for this block, to what reading a loaded document
    needs (frames of Python code live on the heap since Python 3.11)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, _READER_FRAMES))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _read(r: Reader, root: yaml.Node) -> Case | None:
    top = _top_level(r, root)
    if top is None:
        return None
    _version(r, root, top)
    name = _name(r, root, top)
    title = _text(r, top.get("title"), "title")
    reference = _text(r, top.get("reference"), "reference")
    datasets = _datasets(r, top.get("datasets"))
    adjacent = _adjacency(r, top.get("adjacent"), datasets, top.get("datasets", root))
    dataset_problems = len(r.problems) > 0 and any(p.path.startswith(("datasets", "adjacent")) for p in r.problems)
    if "symbols" in top:  # before params: params may use them
        _symbols(r, top["symbols"])
    if "params" in top:
        items = r.mapping(top["params"], "params", "params")
        if items is not INVALID:
            r.define_params(items, "params")
    if "sweep" in top:
        read_sweep(r, top["sweep"], "sweep", set(r.param_nodes))
    named = _named(r, root, top)
    mr = MechanismReader(r, datasets, adjacent, named)
    built = {} if dataset_problems else {n: m for n in named if (m := mr.named(n)) is not INVALID}
    default_of = "M" if "M" in named or len(named) != 1 else next(iter(named))
    claims: list[Claim] = []
    if "claims" not in top:
        r.error(
            root,
            "claims",
            "missing `claims:`",
            "a case checks at least one claim, e.g. `- privloss: {delta: 0, equals: log(3)}`",
        )
    else:
        claims = read_claims(mr.tr, top["claims"], "claims", set(named) if named else None, default_of)
    if r.problems:
        return None
    obligations = tuple((owner, ob, where) for owner, ob, _node, where in mr.obligations)
    return Case(
        name, r.file, datasets, adjacent, built, tuple(claims), title, reference, dict(r.params), r.symtab, obligations
    )


def _top_level(r: Reader, root: yaml.Node) -> dict[str, yaml.Node] | None:
    """The top-level keys (unknown ones are problems), or None if the file is not a mapping."""
    if not isinstance(root, yaml.MappingNode):
        r.error(
            root, "", f"a case file is a mapping at the top level, found {kind_of(root)}", "start with `exactdp: 1`"
        )
        return None
    top: dict[str, yaml.Node] = {}
    for k, v in root.value:
        if k.value not in TOP_LEVEL_KEYS:
            r.error(
                k,
                k.value,
                f"unknown top-level key {k.value!r}",
                suggest(k.value, TOP_LEVEL_KEYS) or f"allowed: {', '.join(TOP_LEVEL_KEYS)}",
            )
            continue
        top[k.value] = v
    return top


def _version(r: Reader, root: yaml.Node, top: dict[str, yaml.Node]) -> None:
    if "exactdp" not in top:
        r.error(root, "exactdp", "missing `exactdp: 1` (the case-format version)", "add `exactdp: 1` as the first line")
        return
    v = top["exactdp"]
    if not (isinstance(v, yaml.ScalarNode) and v.value.strip() == str(FORMAT_VERSION)):
        r.error(
            v,
            "exactdp",
            f"unsupported case-format version {getattr(v, 'value', kind_of(v))!r}",
            f"this exactdp reads format version {FORMAT_VERSION}",
        )


def _name(r: Reader, root: yaml.Node, top: dict[str, yaml.Node]) -> str:
    if "name" not in top:
        r.error(root, "name", "missing `name:`", "a short id such as `name: rr-ln3` ([a-z0-9._-]+)")
        return "<unnamed>"
    n = r.scalar_text(top["name"], "name", "name")
    if n is INVALID:
        return "<unnamed>"
    if not _NAME_RE.fullmatch(n):
        r.error(
            top["name"],
            "name",
            f"name {n!r} must match [a-z0-9._-]+",
            "use lower-case letters, digits, '.', '_' and '-'",
        )
    return n


def _datasets(r: Reader, node: yaml.Node | None) -> tuple[str, ...]:
    """The dataset names (default x0, x1): distinct, at least two, letters, digits, _ . ' -."""
    if node is None:
        return ("x0", "x1")
    items = r.sequence(node, "datasets", "datasets")
    if items is INVALID:
        return ("x0", "x1")
    names: list[str] = []
    seen: set[str] = set()
    for i, it in enumerate(items):
        if i >= current_limits().max_datasets:  # refuse before anything quadratic is built
            r.error(node, "datasets", _limit_text(lambda: check_datasets(len(items))))
            break
        d = r.label(it, child_path("datasets", i), "a dataset name")
        if d is INVALID:
            continue
        if not _DATASET_RE.fullmatch(d):
            r.error(
                it,
                child_path("datasets", i),
                f"dataset name {d!r} may only use ASCII letters (A-Z, a-z), digits, _ . ' -",
            )
        elif d in seen:
            r.error(it, child_path("datasets", i), f"dataset {d!r} is listed twice")
        else:
            names.append(d)
            seen.add(d)
    if len(names) < 2 and len(names) == len(items):
        r.error(node, "datasets", "at least two datasets are needed to speak of adjacency")
    return tuple(names) if names else ("x0", "x1")


def _named(r: Reader, root: yaml.Node, top: dict[str, yaml.Node]) -> dict[str, tuple[yaml.Node, str]]:
    """``mechanisms: {name: expression}`` (or a single ``mechanism:``, named M)."""
    if "mechanisms" in top and "mechanism" in top:
        key = next(k for k, _ in root.value if k.value == "mechanism")
        r.error(key, "mechanism", "give either `mechanism:` or `mechanisms:`, not both")
    if "mechanism" in top and "mechanisms" not in top:
        return {"M": (top["mechanism"], "mechanism")}
    if "mechanisms" not in top:
        r.error(root, "mechanisms", "no mechanism: add `mechanisms: {M: ...}` or `mechanism: ...`")
        return {}
    items = r.mapping(top["mechanisms"], "mechanisms", "mechanisms")
    if items is INVALID:
        return {}
    if not items:
        r.error(top["mechanisms"], "mechanisms", "define at least one mechanism")
    named: dict[str, tuple[yaml.Node, str]] = {}
    for mname, knode, vnode in items:
        if not mname or is_null(knode):
            r.error(knode, "mechanisms", "a mechanism needs a name")
            continue
        named[mname] = (vnode, child_path("mechanisms", mname))
    return named


@dataclass(frozen=True, kw_only=True)
class _Bounds(Declared):
    """The optional bounds of a symbol: gt/ge (lower, strict/non-strict), lt/le (upper)."""

    gt: Any = arg(Rational("a bound"), default=None)
    ge: Any = arg(Rational("a bound"), default=None)
    lt: Any = arg(Rational("a bound"), default=None)
    le: Any = arg(Rational("a bound"), default=None)

    def validate(self) -> None:
        if (self.gt is not None and self.ge is not None) or (self.lt is not None and self.le is not None):
            raise FieldProblem((), "give at most one lower bound (gt or ge) and one upper bound (lt or le)")
        lo, lo_c = (self.gt, False) if self.gt is not None else (self.ge, True)
        hi, hi_c = (self.lt, False) if self.lt is not None else (self.le, True)
        if lo is not None and hi is not None and (lo > hi or (lo == hi and not (lo_c and hi_c))):
            raise FieldProblem((), "the bounds leave no value", "the lower bound must be below the upper bound")

    def of(self, name: str) -> SymbolBounds:
        lo, lo_c = (self.gt, False) if self.gt is not None else (self.ge, True)
        hi, hi_c = (self.lt, False) if self.lt is not None else (self.le, True)
        return SymbolBounds(name, lo, lo_c, hi, hi_c)


def _symbols(r: Reader, node: yaml.Node) -> None:
    """``symbols: {E: {gt: 1}, p: {gt: 0, lt: 1}}``: real symbols with optional rational bounds."""
    items = r.mapping(node, "symbols", "symbols")
    if items is INVALID:
        return
    tr = TypedReader(r)
    out: list[SymbolBounds] = []
    cap = current_limits().max_symbols
    if len(items) > cap:  # a polynomial ring over thousands of symbols exhausts memory (FLINT aborts)
        r.error(
            node,
            "symbols",
            f"the number of symbols ({len(items)}) exceeds the limit of {cap}; raise it with --max-symbols N",
        )
        return
    for name, knode, vnode in items:
        p = child_path("symbols", name)
        if not (name.isascii() and name.isidentifier()) or name in ("log", "exp", "inf") or name.startswith("_"):
            r.error(
                knode, p, f"{name!r} cannot be a symbol name", "use ASCII letters, digits and _ (not log, exp, inf)"
            )
            continue
        b = tr.record(_Bounds, vnode, p, f"the bounds of symbol {name!r}")
        if b is not INVALID:
            out.append(b.of(name))
    r.define_symbols(out)


def _text(r: Reader, node: yaml.Node | None, path: str) -> str | None:
    if node is None or is_null(node):
        return None
    t = r.scalar_text(node, path, path)
    return None if t is INVALID else t


def _limit_text(check) -> str:
    """The message of the limit ``check()`` reports (called only when it is exceeded)."""
    try:
        check()
    except LimitExceededError as e:
        return str(e)
    return ""  # pragma: no cover - only called when the limit is exceeded


def _adjacency(
    r: Reader, node: yaml.Node | None, datasets: tuple[str, ...], where: yaml.Node
) -> tuple[tuple[int, int], ...]:
    """The adjacent pairs (default: every pair), refused past ``max_pairs`` before they are built."""
    n = len(datasets)
    max_pairs = current_limits().max_pairs
    if node is None and n * (n - 1) // 2 > max_pairs:
        r.error(where, "datasets", _limit_text(lambda: check_datasets(n, n * (n - 1) // 2)))
        return ()
    default = tuple((i, j) for i in range(n) for j in range(i + 1, n)) if n * (n - 1) // 2 <= max_pairs else ()
    if node is None:
        return default
    items = r.sequence(node, "adjacent", "adjacent")
    if items is INVALID:
        return default
    if len(items) > max_pairs:
        r.error(node, "adjacent", _limit_text(lambda: check_datasets(n, len(items))))
        return default
    pos = {d: i for i, d in enumerate(datasets)}
    out: dict[tuple[int, int], None] = {}  # insertion-ordered set
    for i, it in enumerate(items):
        t = _pair(r, it, child_path("adjacent", i), datasets, pos)
        if t is not None and t not in out and (t[1], t[0]) not in out:
            out[t] = None
    if not out:
        if not items:
            r.error(node, "adjacent", "no adjacent pair: list at least one, e.g. `adjacent: [[x0, x1]]`")
        return default
    return tuple(out)


def _pair(r: Reader, it: yaml.Node, p: str, datasets: tuple[str, ...], pos: dict[str, int]) -> tuple[int, int] | None:
    """One listed pair ``[a, b]`` of distinct known datasets, as indices (None: a problem)."""
    pair = r.sequence(it, p, "an adjacent pair")
    if pair is INVALID:
        return None
    if len(pair) != 2:
        r.error(it, p, f"an adjacent pair names exactly two datasets, found {len(pair)}")
        return None
    idx = []
    for k, d in enumerate(pair):
        name = r.label(d, child_path(p, k), "a dataset name")
        if name is INVALID:
            return None
        if name not in pos:
            r.error(
                d,
                child_path(p, k),
                f"unknown dataset {name!r} in adjacent",
                suggest(name, datasets) or f"datasets: {', '.join(datasets)}",
            )
            return None
        idx.append(pos[name])
    if idx[0] == idx[1]:
        r.error(it, p, f"a dataset is not adjacent to itself ({datasets[idx[0]]})")
        return None
    return (idx[0], idx[1])


def parse_claim_text(case: Case, text: str, *, of: str, where: str = "--target") -> Claim:
    """A claim written on the command line (``"dp: {eps: log(2), delta: 1/10}"``), read like an
    item of the case's ``claims:`` — with its params, symbols, datasets and mechanism names —
    about the mechanism ``of`` unless it names another.

    Raises
    ------
    CaseError
        With the problems located in ``where`` (the option's name).
    """
    if not text.strip():
        raise CaseError(CaseProblem('give a claim as in a case file, e.g. "dp: {eps: log(2)}"', file=where))
    root = load_yaml(text, where, YamlLimits())
    r = Reader(where)
    r.symtab = case.symbols
    for name, value in case.params.items():
        r.params[name] = value
        r.param_nodes[name] = root
        r._param_state[name] = 2
    mr = MechanismReader(r, case.datasets, case.adjacent, {n: (root, n) for n in case.mechanisms})
    try:
        got = _read_claim(mr.tr, root, "", set(case.mechanisms), of)
    except _Abort:
        got = INVALID
    r.raise_if_problems()
    if got is INVALID:  # pragma: no cover - an invalid claim always leaves a problem
        raise CaseError(CaseProblem("the claim could not be read", file=where))
    return got


def evaluate_in_case(case: Case, text: str, what: str, *, kind: str) -> Any:
    """A number given on the command line, read with our grammar in the case's params and
    symbols (``log(E)``); ``kind`` as :func:`exactdp.numbers.kinds.of_kind` takes it, checked by
    :mod:`exactdp.numbers.kinds` like every other eps and delta (with symbols: its range proved
    from their declared bounds, as in a case file)."""

    def look(name: str) -> Any:
        if name in case.params:
            return case.params[name]
        if case.symbols and name in case.symbols.symbols:
            return case.symbols.symbols[name]
        raise ExprError(f"unknown name {name!r}", None, "names are the case's params and symbols")

    try:
        ast = parse_expr(text)
        symbolic = any(
            (case.symbols and n in case.symbols.symbols) or is_sym(case.params.get(n)) for n in names_in(ast)
        )
        v = sym_evaluate(ast, look) if symbolic else evaluate(ast, look)
        if symbolic and kind == "any eps":  # (any real eps: nothing to prove)
            return v
        return K.of_kind(v, what, kind, symbols=case.symbols if symbolic else None)
    except ExprError as e:  # (an option's value, not a place in the case file)
        raise ArgumentError(f"{what} {text!r}: {e.message}" + (f" ({e.hint})" if e.hint else "")) from None
    except K.QuantityError as e:
        raise ArgumentError(e.message + (f" ({e.hint})" if e.hint else "")) from None
