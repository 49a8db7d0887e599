r"""Shared machinery of the post-processor constructions: exact fields, the history tree of a
mechanism, the post-processor value type and its independent exact checks.

A *history* is a path of labels from the root of the game DAG: ``("q", label)`` for an adversary
choice, ``("a", label)`` for an answer.  Each answer distribution reached at a history is a
*round* (an :class:`Occurrence`): its key is the history up to and including the current query
(possibly no query, for an answer the mechanism gives unasked; several nested choices form one
compound query).  The paper's T(c, q⁽ᵗ⁾)(a | a₀..a_{t−2}) is a conditional distribution keyed by
(c, round): the key holds the queries up to t and the answers so far, and nothing later — so T
cannot depend on future queries.  Path measures τ_c(h) = Pr[T⃗(c) answers along h] are checked
to be *consistent* (for every later query q, Σ_a τ_c(h·q·a) = τ_c(h)), which is the paper's
"no dependence on future queries" constraint.

References
----------
Vadhan & Wang, Concurrent Composition of Differential Privacy (TCC 2021), Thm 1.10 (= Thm 5.4),
eqs. (6)–(9), and Section 6.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..analysis import enumerator
from ..errors import InexactValueError, LimitExceededError, VerificationError
from ..limits import DEFAULT as DEFAULT_LIMITS
from ..limits import current
from ..model.game import END, Ask, Chance, End, Mechanism, Node, label_str
from ..model.ops import count_strategies
from ..model.symbolic import SymChance, is_symbolic_mechanism
from ..numbers.rational import Q, as_q, q_str
from ..numbers.symbolic import (
    SymbolTable,
    expr_str,
    sign_set,
    sympy,  # start-up: SymPy loads on first use (symbolic cases only)
    to_sympy,
)

__all__ = [
    "RationalField",
    "FracField",
    "ExprField",
    "field_for",
    "Occurrence",
    "History",
    "Histories",
    "expand",
    "PostProcessor",
    "CheckResult",
    "conditionals_from_paths",
    "verify_postprocessor",
    "enumerator_check",
    "path_probability",
    "DEFAULT_MAX_HISTORIES",
    "history_text",
]

DEFAULT_MAX_HISTORIES = DEFAULT_LIMITS.max_histories  # the default of the limit max_histories


# --- exact fields ------------------------------------------------------------------------------


class RationalField:
    """Exact rationals (gmpy2 ``mpq``): the fast path for numeric mechanisms."""

    symbolic = False
    zero, one = Q(0), Q(1)

    def const(self, x: Any) -> Any:
        return as_q(x)

    def rows(self, node: Chance) -> tuple:
        return node.probs

    def is_zero(self, x: object) -> bool:
        return x == 0

    def sign_set(self, x: Any) -> frozenset:
        return frozenset({(x > 0) - (x < 0)})

    def text(self, x: Any) -> str:
        return q_str(x)

    def to_sympy(self, x: Any):
        f = Q(x)
        return sympy.Rational(int(f.numerator), int(f.denominator))


class _SymBase:
    symbolic = True

    def __init__(self, table):
        self.table = table
        self._rows: dict[int, tuple] = {}
        self._signs: dict[str, frozenset] = {}

    def const(self, p: Any) -> Any:  # pragma: no cover - each field implements it
        raise NotImplementedError

    def to_sympy(self, x: Any) -> Any:  # pragma: no cover - each field implements it
        raise NotImplementedError

    def rows(self, node: Chance) -> tuple:
        hit = self._rows.get(node.uid)
        if hit is None:
            raw = node.sym if isinstance(node, SymChance) else node.probs
            hit = tuple(tuple(self.const(p) for p in row) for row in raw)
            self._rows[node.uid] = hit
        return hit

    def sign_set(self, x: Any) -> frozenset:

        e = self.to_sympy(x)
        key = str(e)
        hit = self._signs.get(key)
        if hit is None:
            hit = sign_set(e, self.table)
            self._signs[key] = hit
        return hit

    def text(self, x: Any) -> str:

        return expr_str(self.to_sympy(x))


def _reduce_poly_ring(ring: Any) -> tuple:
    return (type(ring), (ring.symbols, ring.domain, ring.order))


def _picklable_poly_rings() -> None:
    """Let the construction's results cross process boundaries (``--jobs``): SymPy's
    ``PolyRing.__getstate__`` deletes keys from the dict it iterates over (a RuntimeError once
    a ring has cached monomial functions), so a ring is pickled as its symbols, domain and order
    (rings are unique per those, so unpickling finds the same ring)."""
    ring_type = sympy.polys.rings.PolyRing
    if ring_type not in copyreg.dispatch_table:
        copyreg.pickle(ring_type, _reduce_poly_ring)


class FracField(_SymBase):
    """Rational functions of the declared symbols in canonical form (SymPy's ``QQ(E, p, ...)``):
    the construction's arithmetic for symbolic mechanisms."""

    def __init__(self, table):
        super().__init__(table)
        _picklable_poly_rings()
        syms = [table.symbols[b.name] for b in table.bounds]
        self.K = sympy.QQ.frac_field(*syms) if syms else sympy.QQ.frac_field(sympy.Symbol("_unused"))
        self.zero, self.one = self.K.zero, self.K.one

    def const(self, x: Any) -> Any:

        try:
            return self.K.from_sympy(to_sympy(x))
        except Exception as e:  # CoercionFailed: not a rational function of the symbols
            raise InexactValueError(f"{x} is not a rational function of the declared symbols ({e})") from None

    def is_zero(self, x: object) -> bool:
        return x == self.K.zero

    def to_sympy(self, x: Any):
        return self.K.to_sympy(x)


class ExprField(_SymBase):
    """Plain SymPy expressions, zero-tested by ``cancel(together(x)) == 0``: the *checking*
    arithmetic for symbolic mechanisms, independent of :class:`FracField`."""

    def __init__(self, table):
        super().__init__(table)
        self.zero, self.one = sympy.Integer(0), sympy.Integer(1)

    def const(self, x: Any) -> Any:

        return to_sympy(x)

    def is_zero(self, x: object) -> bool:
        return sympy.cancel(sympy.together(x)) == 0

    def to_sympy(self, x: Any):
        return x


def field_for(mech: Mechanism, table=None, *, checking: bool = False):
    """The rational field for numeric mechanisms; rational functions for symbolic ones."""

    if table is None or (not table and not is_symbolic_mechanism(mech)):
        if is_symbolic_mechanism(mech):
            table = SymbolTable()
        else:
            return RationalField()
    return ExprField(table) if checking else FracField(table)


# --- the history tree ----------------------------------------------------------------------------


@dataclass
class Occurrence:
    """One round: an answer distribution reached at ``prefix`` (queries included)."""

    index: int
    prefix: tuple
    parent: int  # the answer history before it (-1: the empty history)
    node: Chance
    queries: tuple  # query labels since the previous answer (empty: the mechanism speaks)
    answers: list = field(default_factory=list)


@dataclass
class History:
    """An answer history h (ends with an answer) and M's path probability under each dataset."""

    index: int
    path: tuple
    occ: int
    k: int
    P: tuple
    follow: list = field(default_factory=list)


@dataclass
class Histories:
    """Every round and answer history of a mechanism, in depth-first order."""

    mech: Mechanism
    fld: Any
    occs: list
    hists: list
    root_follow: list
    by_prefix: dict

    def follow(self, h: int) -> list:
        return self.root_follow if h < 0 else self.hists[h].follow

    def P(self, h: int, d: int) -> Any:
        return self.fld.one if h < 0 else self.hists[h].P[d]

    def bfs(self) -> list:
        """Answer histories, shortest first (ties: depth-first order)."""
        return sorted(range(len(self.hists)), key=lambda i: (len(self.hists[i].path), i))

    def leaves(self) -> list:
        return [h.index for h in self.hists if not h.follow]


def expand(mech: Mechanism, fld=None, *, max_histories: int | None = None) -> Histories:
    """The history tree of ``mech`` with exact path probabilities under every dataset.

    Raises :class:`~exactdp.errors.LimitExceededError` beyond ``max_histories`` rounds plus
    answer histories (a DAG can have exponentially many histories); ``None``: the limit
    ``max_histories`` in force (:mod:`exactdp.limits`).
    """
    if max_histories is None:
        max_histories = current().max_histories
    fld = fld or RationalField()
    n = len(mech.datasets)
    occs: list[Occurrence] = []
    hists: list[History] = []
    root_follow: list[int] = []
    by_prefix: dict[tuple, int] = {}
    one = fld.one
    stack: list[tuple[Node, tuple, int, tuple]] = [(mech.root, (), -1, (one,) * n)]
    while stack:
        node, path, parent, P = stack.pop()
        if isinstance(node, End):
            continue
        if isinstance(node, Ask):
            for lab, child in reversed(list(zip(node.labels, node.children))):
                stack.append((child, path + (("q", lab),), parent, P))
            continue
        if not isinstance(node, Chance):  # pragma: no cover
            raise TypeError(node)
        k0 = len(path)
        while k0 > 0 and path[k0 - 1][0] == "q":
            k0 -= 1
        occ = Occurrence(len(occs), path, parent, node, tuple(lab for _, lab in path[k0:]))
        occs.append(occ)
        by_prefix[path] = occ.index
        (root_follow if parent < 0 else hists[parent].follow).append(occ.index)
        rows = fld.rows(node)
        kids = []
        for k, (lab, child) in enumerate(zip(node.labels, node.children)):
            h = History(len(hists), path + (("a", lab),), occ.index, k, tuple(P[d] * rows[k][d] for d in range(n)))
            hists.append(h)
            occ.answers.append(h.index)
            kids.append((child, h.path, h.index, h.P))
        stack.extend(reversed(kids))
        if len(occs) + len(hists) > max_histories:
            raise LimitExceededError(
                f"the number of histories of {mech.name}",
                max_histories,
                "raise it with --max-histories (max_histories=...)",
            )
    return Histories(mech, fld, occs, hists, root_follow, by_prefix)


def history_text(path: Sequence) -> str:
    """``a=0, q=1, a=1``: a history as its queries (q=) and answers (a=); ``(empty)`` at the start."""

    if not path:
        return "(empty)"
    return ", ".join(f"{k}={label_str(l)}" for k, l in path)


def path_probability(mech: Mechanism, path: Sequence, d: int, fld=None) -> Any:
    """M's probability of answering along ``path`` under dataset ``d``, by a forward walk that
    shares no code with :func:`expand` (used to re-check certificates)."""
    fld = fld or RationalField()
    node: Node = mech.root
    p = fld.one
    for kind, lab in path:
        if isinstance(node, Ask) and kind == "q":
            node = node.children[node.labels.index(lab)]
        elif isinstance(node, Chance) and kind == "a":
            k = node.labels.index(lab)
            p = p * fld.rows(node)[k][d]
            node = node.children[k]
        else:
            raise VerificationError(f"history {history_text(path)} does not exist in {mech.name}")
    return p


# --- post-processors ------------------------------------------------------------------------------


@dataclass
class PostProcessor:
    """An interactive post-processor T for one adjacent pair (x_pair[0] ↔ b = 0, x_pair[1] ↔ b = 1).

    ``cond[c][o]`` is the tuple T(c, round o)(a) over the round's answers; ``weights[b][c]`` is
    Pr[RR(b) = c] of the randomized response T post-processes; ``paths[c][h]`` the path measures
    the construction produced (before conditionals were derived), or None.
    """

    kind: str
    pair: tuple[int, int]
    pair_names: tuple[str, str]
    outputs: tuple[str, ...]
    weights: tuple
    cond: list
    free: set
    hist: Histories
    paths: list | None = None
    eps_text: str = ""
    E: Any = None
    delta: Any = None
    notes: list = field(default_factory=list)
    conditions: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)


def conditionals_from_paths(hist: Histories, paths: Sequence[Sequence[Any]], datasets_for: Sequence[int]):
    """Conditionals T(c, round)(a) = τ_c(h·q·a)/τ_c(h).  Where τ_c(h) = 0 the round is never
    reached under c and the conditional is free: it is set to M's own conditional under dataset
    ``datasets_for[c]`` (recorded in the returned ``free`` set)."""
    fld = hist.fld
    cond: list[list] = []
    free: set = set()
    for c, tau in enumerate(paths):
        row = []
        for occ in hist.occs:
            parent = fld.one if occ.parent < 0 else tau[occ.parent]
            if fld.is_zero(parent):
                rows = fld.rows(occ.node)
                row.append(tuple(r[datasets_for[c]] for r in rows))
                free.add((c, occ.index))
            else:
                row.append(tuple(tau[h] / parent for h in occ.answers))
        cond.append(row)
    return cond, free


@dataclass
class CheckResult:
    """The exact checks run on a post-processor; ``conditions`` are non-negativity conditions
    that could not be proved under the declared bounds (symbolic mechanisms only)."""

    valid: bool = True
    consistent: bool = True
    mixture: bool = True
    n_rounds: int = 0
    n_histories: int = 0
    enumerator: str = "not run"
    n_adversaries: int = 0
    conditions: list = field(default_factory=list)
    problems: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.valid and self.consistent and self.mixture and not self.problems

    def summary(self) -> str:
        parts = [
            f"valid T ({self.n_rounds} rounds x {self.n_outputs_text})",
            f"mixture identity on {self.n_histories} histories x 2",
        ]
        if self.enumerator == "ok":
            parts.append(f"enumerator: {self.n_adversaries} adversaries, identical views")
        return "; ".join(parts)

    n_outputs_text: str = ""


def verify_postprocessor(pp: PostProcessor, *, fld=None, table=None) -> CheckResult:
    """Check T exactly, independently of how it was built.

    1. Validity: every conditional T(c, round)(·) is ≥ 0 (proved under the bounds for symbolic
       mechanisms, else recorded as a remaining condition) and sums to exactly 1, for every
       RR output c and every round of M (the keys are exactly M's rounds).
    2. No future dependence: the construction's path measures, if given, are consistent.
    3. Mixture identity: for b = 0, 1 and every answer history h,
       Σ_c Pr[RR(b) = c]·T⃗(c)(h) = Pr[M(x_b) answers along h], with T⃗ recomputed from the
       conditionals and M's probabilities from a fresh expansion in ``fld``.
    """
    mech = pp.hist.mech
    own = pp.hist.fld
    fld = fld or own
    conv = (lambda x: fld.const(own.to_sympy(x))) if fld is not own else (lambda x: x)
    hist = expand(mech, fld) if fld is not own else pp.hist
    res = CheckResult(
        n_rounds=len(hist.occs), n_histories=len(hist.hists), n_outputs_text=f"{len(pp.outputs)} RR outputs"
    )
    if len(hist.occs) != len(pp.hist.occs) or any(len(pp.cond[c]) != len(hist.occs) for c in range(len(pp.outputs))):
        res.valid = False
        res.problems.append("T's rounds are not exactly M's rounds")
        return res
    cond = [[tuple(conv(v) for v in row) for row in rows] for rows in pp.cond]
    _check_validity(res, pp, hist, cond, fld)
    if pp.paths is not None:
        _check_consistency(res, pp, hist, fld, conv)
    _check_mixture(res, pp, hist, cond, fld, conv)
    return res


def _check_validity(res: CheckResult, pp: PostProcessor, hist: Histories, cond: list, fld: Any) -> None:
    """Check 1: every conditional T(c, round)(·) is ≥ 0 and sums to exactly 1.  A sign that
    depends on the symbols is recorded in ``res.conditions`` (once per distinct condition)."""
    seen_cond: set = set()
    for c, name in enumerate(pp.outputs):
        for occ in hist.occs:
            row = cond[c][occ.index]
            if len(row) != len(occ.answers):
                res.valid = False
                res.problems.append(f"T({name}) at {history_text(occ.prefix)}: wrong number of answers")
                continue
            total = fld.zero
            for k, v in enumerate(row):
                total = total + v
                s = fld.sign_set(v)
                if -1 in s:
                    if fld.symbolic and s == frozenset({-1, 0, 1}):
                        text = f"{fld.text(v)} >= 0"
                        if text not in seen_cond:
                            seen_cond.add(text)
                            res.conditions.append((name, history_text(occ.prefix), occ.node.labels[k], text))
                    else:
                        res.valid = False
                        res.problems.append(
                            f"T({name}) at {history_text(occ.prefix)} gives answer {occ.node.labels[k]} probability {fld.text(v)} < 0"
                        )
            if not fld.is_zero(total - fld.one):
                res.valid = False
                res.problems.append(
                    f"T({name}) at {history_text(occ.prefix)}: probabilities sum to {fld.text(total)}, not 1"
                )


def _check_consistency(
    res: CheckResult, pp: PostProcessor, hist: Histories, fld: Any, conv: Callable[[Any], Any]
) -> None:
    """Check 2: the construction's own path measures are consistent, Σ_a τ_c(h·q·a) = τ_c(h)
    for every round (no dependence on future queries)."""
    for c, tau in enumerate(pp.paths or ()):
        tau = [conv(v) for v in tau]
        for occ in hist.occs:
            parent = fld.one if occ.parent < 0 else tau[occ.parent]
            s = fld.zero
            for h in occ.answers:
                s = s + tau[h]
            if not fld.is_zero(s - parent):
                res.consistent = False
                res.problems.append(
                    f"path measure of T({pp.outputs[c]}) depends on the query at {history_text(occ.prefix)}"
                )


def _check_mixture(
    res: CheckResult, pp: PostProcessor, hist: Histories, cond: list, fld: Any, conv: Callable[[Any], Any]
) -> None:
    """Check 3: the mixture identity Σ_c Pr[RR(b) = c]·T⃗(c)(h) = Pr[M(x_b) answers along h],
    path by path, with T⃗ recomputed from the conditionals (the first failure per b is kept)."""
    taus = []
    for c in range(len(pp.outputs)):
        tau: list[Any] = [None] * len(hist.hists)
        for occ in hist.occs:
            parent = fld.one if occ.parent < 0 else tau[occ.parent]
            for k, h in enumerate(occ.answers):
                tau[h] = parent * cond[c][occ.index][k]
        taus.append(tau)
    w = [[conv(x) for x in row] for row in pp.weights]
    for b in (0, 1):
        d = pp.pair[b]
        for h in hist.hists:
            mix = fld.zero
            for c in range(len(pp.outputs)):
                mix = mix + w[b][c] * taus[c][h.index]
            if not fld.is_zero(mix - h.P[d]):
                res.mixture = False
                res.problems.append(
                    f"at {history_text(h.path)}: T(RR(b={b})) gives {fld.text(mix)}, M({pp.pair_names[b]}) gives {fld.text(h.P[d])}"
                )
                break


def t_mechanism(pp: PostProcessor) -> Mechanism:
    """T as a numeric mechanism on the 'datasets' = RR outputs, with M's game shape (a tree).

    Built bottom-up with an explicit stack (no recursion limit on deep games)."""
    hist = pp.hist
    built: dict[tuple, Node] = {}  # history -> T's node there (M is walked as a tree)
    stack: list[tuple[Node, tuple, bool]] = [(hist.mech.root, (), False)]
    while stack:
        node, path, ready = stack.pop()
        if not isinstance(node, (Ask, Chance)):  # the end
            built[path] = END
            continue
        tag = "q" if isinstance(node, Ask) else "a"
        if not ready:
            stack.append((node, path, True))
            stack.extend((ch, path + ((tag, lab),), False) for lab, ch in zip(node.labels, node.children))
            continue
        kids = [built.pop(path + ((tag, lab),)) for lab in node.labels]
        if isinstance(node, Ask):
            built[path] = Ask(node.labels, kids)
        else:
            o = hist.by_prefix[path]
            rows = [tuple(pp.cond[c][o][k] for c in range(len(pp.outputs))) for k in range(len(node.labels))]
            built[path] = Chance(node.labels, rows, kids)
    return Mechanism(built[()], tuple(f"c={o}" for o in pp.outputs), ((0, 1),), f"T[{hist.mech.name}]")


def enumerator_check(pp: PostProcessor, *, max_strategies: int = 5_000) -> tuple[str, int]:
    """Run the reference engine over every deterministic adversary A of M and of T, and compare
    View(A, M(x_b)) with the RR-mixture of View(A, T(c)) directly, for b = 0, 1.

    Returns ("ok", number of adversaries), ("skipped: ...", 0) when too large or symbolic.
    Raises :class:`VerificationError` on a mismatch.
    """

    if pp.hist.fld.symbolic:
        return "skipped: symbolic", 0
    mech = pp.hist.mech
    n = count_strategies(mech.root)
    if n > max_strategies:
        return f"skipped: {n} adversaries > {max_strategies}", 0
    tm = t_mechanism(pp)
    if not (enumerator.fits(mech, max_strategies) and enumerator.fits(tm, max_strategies)):
        return f"skipped: more than {max_strategies} x {enumerator.DEFAULT_VIEWS_PER_STRATEGY} views", 0
    t_views = {frozenset(ch.items()): views for ch, views in enumerator.strategies(tm, max_strategies=max_strategies)}
    count = 0
    for ch, views in enumerator.strategies(mech, max_strategies=max_strategies):
        tv = t_views.get(frozenset(ch.items()))
        if tv is None:
            raise VerificationError("T and M have different adversary strategies")
        tmap = dict(tv)
        for b in (0, 1):
            d = pp.pair[b]
            for h, pr in views:
                mix = sum((pp.weights[b][c] * tmap[h][c] for c in range(len(pp.outputs))), Q(0))
                if mix != pr[d]:
                    raise VerificationError(
                        f"enumerator: adversary {dict(ch)} sees {history_text(h)} with probability {q_str(pr[d])} "
                        f"under {pp.pair_names[b]} but {q_str(mix)} through T(RR(b={b}))"
                    )
        count += 1
    return "ok", count


__all__.append("t_mechanism")
