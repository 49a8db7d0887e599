r"""State-machine mechanisms: finite automata with hidden state, analysed without unrolling.

An interactive mechanism in the sense of Henzinger–Safavi–Vadhan (arXiv 2411.03299) Def. 2.6
is a randomized state function f : S × Q → Dist(A × S) with initial states; here S, Q, A are
finite, a *horizon* T bounds the number of queries, and the dataset enters through the
initial state (one state, or a distribution, per dataset) and, where convenient, through
per-dataset probability rows (a row shared by every dataset otherwise).

**What the adversary observes.**  The adversary sees queries and answers, never states.  So
the sub-game after a history h depends on h only through the *posterior* of the hidden state
under each dataset, b_x(s) = Pr[state = s | h, x], and the number of steps left.  The game
DAG is built lazily (:func:`~exactdp.model.dag.build_dag`) with exactly that key:

    (b_x for every dataset x, steps left)      — the beliefs are exact, normalised rationals.

When the next state is determined by (state, answer) and the initial state is a single
state, every belief is a point mass, so the key is (the state reached under each dataset,
steps left) and the DAG has at most ``|S|^|datasets|`` · T choice nodes: a long horizon costs
time polynomial in states × horizon, not exponential.  Hidden randomness (a state reached by
a draw the answer does not reveal, or an initial distribution) is handled exactly by the
beliefs; the number of distinct posteriors then depends on the mechanism (for AboveThreshold
with a hidden noisy threshold it grows polynomially with the horizon).

**The work, predicted before anything is built.**  Every node of the game carries an exact
privacy profile, and for an automaton whose answers depend on the data at every step the profile
d steps before the end has up to d + 1 pieces (one per likelihood ratio of d answers), with
numbers that grow with d too: the work grows like J · T² for horizon T and J reachable joint
states (the state under each dataset; :func:`reachable_joint_states`).  :func:`predicted_work`
gives J · T(T+1)/2 (J · T when nothing depends on the dataset), and :func:`automaton` refuses a
prediction over the limit ``max_automaton_work`` (``--max-automaton-work``) at once: a horizon
of 10⁵ would otherwise take hours and end at the time limit.

**Queries a state does not accept.**  A state's alphabet is the set of queries it has
transitions for.  The adversary is offered every query that some state it may be in (under
some dataset) accepts; a state that does not accept the query answers ``halt`` and the
interaction ends (the paper's model lets either side halt).  If no possible state accepts any
query, or the horizon is reached, the interaction ends.

References
----------
M. Henzinger, R. Safavi, S. Vadhan, *Concurrent Composition for Differentially Private
Continual Mechanisms*, arXiv 2411.03299, Def. 2.6 (IM), Def. 2.10 (view), Def. 2.13 (DP).
S. Vadhan, T. Wang, *Concurrent Composition of Differential Privacy*, TCC 2021, Def. 1.5–1.7.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidMechanismError, LimitExceededError
from ..limits import current as current_limits
from ..model.dag import build_dag
from ..model.game import Mechanism
from ..numbers.rational import Q, as_q, q_str
from ..numbers.symbolic import expr_str, is_sym
from .probfield import NUMERIC, ProbField, field_of

__all__ = [
    "HALT",
    "Outcome",
    "Automaton",
    "AutomatonMechanism",
    "Belief",
    "BeliefStepper",
    "make_automaton",
    "automaton",
    "point",
    "reachable_joint_states",
    "predicted_work",
]

HALT = "halt"
"""The answer of a state to a query it does not accept (reserved: no answer may be called so)."""

Belief = tuple  # ((state index, weight), ...) sorted by state, weights > 0 summing to 1; None = impossible


def point(s: int) -> Belief:
    """The belief that puts all mass on state ``s``."""
    return ((s, Q(1)),)


@dataclass(frozen=True)
class Outcome:
    """One outcome of a transition: the mechanism answers ``answer`` and moves to state
    index ``next``, with probability ``probs[r]`` under row r (one row per dataset, or a single
    row shared by all)."""

    answer: str
    next: int
    probs: tuple


@dataclass(frozen=True, eq=False)
class Automaton:
    """A finite state-machine mechanism (validated; build with :func:`make_automaton`).

    Attributes
    ----------
    states : tuple of str
    initial : tuple of Belief
        The initial state distribution per row (length 1: shared by every dataset).
    queries : tuple of str
        Every query some state accepts, in the order options are offered.
    answers : tuple of str
        Every answer, in the order outcomes are listed.
    transitions : mapping (state index, query) -> tuple of Outcome
        A state's alphabet is the set of queries it has a transition for.
    horizon : int
        The maximum number of queries.
    n_rows : int
        1 if nothing depends on the dataset (required of a continual mechanism), else the
        number of datasets.
    """

    states: tuple[str, ...]
    initial: tuple
    queries: tuple[str, ...]
    answers: tuple[str, ...]
    transitions: Mapping[tuple[int, str], tuple[Outcome, ...]]
    horizon: int
    n_rows: int
    alphabet: tuple = field(default=(), repr=False)
    arith: ProbField = field(default=NUMERIC, repr=False)
    """The arithmetic of its probabilities: rationals, or rational functions of symbols."""

    @property
    def dataset_independent(self) -> bool:
        return self.n_rows == 1

    def accepts(self, s: int, q: str) -> bool:
        return q in self.alphabet[s]


def make_automaton(
    states: Sequence[str],
    initial: Sequence[Mapping[str, Any]] | Mapping[str, Any] | str,
    transitions: Mapping[tuple[str, str], Sequence[tuple[str, str, Sequence[Any]]]],
    horizon: int,
    *,
    queries: Sequence[str] | None = None,
    n_rows: int | None = None,
) -> Automaton:
    """Validate and build an :class:`Automaton`.

    Parameters
    ----------
    states : sequence of str
        State names.
    initial : str, or mapping state -> probability, or a sequence of those (one per row)
        The initial state (distribution); a sequence gives one per dataset.
    transitions : mapping (state, query) -> list of (answer, next state, probs)
        ``probs`` has one probability per row, or a single one shared by every row.
    horizon : int
        The maximum number of queries (≥ 0).
    queries : sequence of str, optional
        The order in which queries are offered (default: order of first appearance).
    n_rows : int, optional
        The number of datasets; default: 1 if every probability and the initial state are
        shared, else the length of the per-dataset rows.

    Raises
    ------
    InvalidMechanismError
        A probability row that does not sum to exactly 1, an unknown state, the reserved
        answer ``halt``, inconsistent row counts.
    """
    states, index = _state_index_table(states)
    if horizon < 0:
        raise InvalidMechanismError(f"the horizon must be at least 0, got {horizon}")
    init_list = [initial] if isinstance(initial, (str, Mapping)) else list(initial)
    n_rows = _row_count(init_list, transitions, n_rows)
    beliefs = [_initial_belief(ini, index) for ini in init_list]
    if len(beliefs) == 1 and n_rows > 1:
        beliefs = beliefs * n_rows
    qorder: list[str] = list(queries) if queries is not None else []
    aorder: list[str] = []
    table: dict[tuple[int, str], tuple[Outcome, ...]] = {}
    alphabet: list[set[str]] = [set() for _ in states]
    for (sname, q), outs in transitions.items():
        si = _state_index(index, str(sname), "transitions")
        q = str(q)
        where = f"transitions: state {sname!r}, query {q!r}"
        if q not in qorder:
            if queries is not None:
                raise InvalidMechanismError(
                    f"{where}: query {q!r} is not in the alphabet", hint=f"queries: {', '.join(queries)}"
                )
            qorder.append(q)
        table[(si, q)] = _outcomes(where, outs, index, n_rows)
        for o in table[(si, q)]:
            if o.answer not in aorder:
                aorder.append(o.answer)
        alphabet[si].add(q)
    return Automaton(
        states,
        tuple(beliefs),
        tuple(qorder),
        tuple(aorder),
        table,
        int(horizon),
        n_rows,
        tuple(frozenset(a) for a in alphabet),
        field_of([p for outs in table.values() for o in outs for p in o.probs] + [w for b in beliefs for _s, w in b]),
    )


def _state_index_table(names: Sequence[str]) -> tuple[tuple[str, ...], dict[str, int]]:
    """The state names and their indices; at least one state, none listed twice."""
    states = tuple(str(s) for s in names)
    if not states:
        raise InvalidMechanismError("an automaton needs at least one state")
    if len(set(states)) != len(states):
        dup = next(s for s in states if states.count(s) > 1)
        raise InvalidMechanismError(f"state {dup!r} is listed twice")
    return states, {s: i for i, s in enumerate(states)}


def _state_index(index: Mapping[str, int], name: str, where: str) -> int:
    if name not in index:
        raise InvalidMechanismError(f"{where}: unknown state {name!r}", hint=f"states: {', '.join(index)}")
    return index[name]


def _row_count(init_list: Sequence[Any], transitions: Mapping[Any, Sequence[Any]], n_rows: int | None) -> int:
    """The number of probability rows: ``n_rows`` if given (every per-dataset row must have
    that length), else the common length of the per-dataset rows (1 if all are shared)."""
    widths = set()
    if len(init_list) > 1:
        widths.add(len(init_list))
    for outs in transitions.values():
        for _a, _n, probs in outs:
            if len(probs) > 1:
                widths.add(len(probs))
    if n_rows is None:
        if len(widths) > 1:
            raise InvalidMechanismError(f"per-dataset rows of different lengths: {sorted(widths)}")
        return widths.pop() if widths else 1
    if widths - {n_rows}:
        raise InvalidMechanismError(
            f"expected one probability per dataset ({n_rows}), found rows of length {sorted(widths - {n_rows})}"
        )
    return n_rows


def _initial_belief(ini: Mapping[str, Any] | str, index: Mapping[str, int]) -> Belief:
    """The belief of one initial state (a name) or distribution (state -> probability)."""
    dist = {ini: Q(1)} if isinstance(ini, str) else dict(ini)
    f = field_of(dist.values())
    if f.symbolic:
        return _symbolic_initial_belief(dist, index, f)
    acc: dict[int, Q] = {}
    total = Q(0)
    for s, p in dist.items():
        p = as_q(p)
        if p < 0:
            raise InvalidMechanismError(f"initial: state {s!r} has negative probability {q_str(p)}")
        total += p
        if p > 0:
            i = _state_index(index, str(s), "initial")
            acc[i] = acc.get(i, Q(0)) + p
    if total != 1:
        raise InvalidMechanismError(f"initial: the probabilities sum to {q_str(total)}, not 1")
    return tuple(sorted(acc.items()))


def _outcomes(
    where: str, outs: Sequence[tuple[str, str, Sequence[Any]]], index: Mapping[str, int], n_rows: int
) -> tuple[Outcome, ...]:
    """The outcomes of one transition, each row of probabilities summing to exactly 1."""
    if not outs:
        raise InvalidMechanismError(f"{where}: a transition needs at least one outcome")
    built = []
    f = field_of(p for _a, _n, probs in outs for p in probs)
    sums = [f.zero] * n_rows
    seen: set[tuple[str, int]] = set()
    for ans, nxt, probs in outs:
        ans = str(ans)
        if ans == HALT:
            raise InvalidMechanismError(
                f"{where}: the answer name {HALT!r} is reserved",
                hint="it is the answer to a query a state does not accept; rename the answer",
            )
        n = _state_index(index, str(nxt), where)
        if (ans, n) in seen:
            raise InvalidMechanismError(f"{where}: outcome (answer {ans!r}, next {nxt!r}) is listed twice")
        seen.add((ans, n))
        # a symbolic probability stays a SymPy expression (its range on the symbols' domain is
        # the case reader's to prove); a number must be an exact rational >= 0
        ps = tuple(p if is_sym(p) else as_q(p) for p in probs)
        if len(ps) == 1 and n_rows > 1:
            ps = ps * n_rows
        for r, p in enumerate(ps):
            if not is_sym(p) and p < 0:
                raise InvalidMechanismError(f"{where}: answer {ans!r} has negative probability {q_str(p)}")
            sums[r] += f.lift(p)
        built.append(Outcome(ans, n, ps))
    for r, t in enumerate(sums):
        if f.norm(t) != 1:
            row = "" if n_rows == 1 else f" under dataset #{r}"
            shown = f"{expr_str(f.lift(t).as_expr())}, not identically 1" if f.symbolic else f"{q_str(t)}, not 1"
            raise InvalidMechanismError(f"{where}: the probabilities{row} sum to {shown}")
    return tuple(built)


def _symbolic_initial_belief(dist: Mapping[str, Any], index: Mapping[str, int], f: ProbField) -> Belief:
    """An initial distribution in rational functions of the symbols (each proved in [0, 1] by the
    case reader), summing to 1 identically; a weight that is identically zero is dropped."""
    acc: dict[int, Any] = {}
    for s, p in dist.items():
        i = _state_index(index, str(s), "initial")
        acc[i] = acc.get(i, f.zero) + f.lift(p)
    total = f.total(acc.values())
    if total != 1:
        raise InvalidMechanismError(f"initial: the probabilities sum to {expr_str(total.as_expr())}, not identically 1")
    return tuple(sorted((i, f.emit(w)) for i, w in acc.items() if not f.is_zero(w)))


class BeliefStepper:
    """Exact belief updates of one automaton, memoised.

    ``step(row, belief, q)`` gives, for the mechanism in belief ``belief`` (its hidden state
    distribution) receiving query ``q`` with probability row ``row``: for each answer with
    positive probability, (answer index, probability, posterior belief); the answer
    :data:`HALT` has index ``len(automaton.answers)`` and the empty posterior ``()``.
    """

    def __init__(self, a: Automaton):
        self.a = a
        self.halt_index = len(a.answers)
        self.labels = a.answers + (HALT,)
        self._aidx = {ans: i for i, ans in enumerate(a.answers)}
        self._memo: dict[tuple, tuple] = {}

    def step(self, row: int, belief: Belief, q: str) -> tuple:
        key = (row, belief, q)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        if self.a.arith.symbolic:
            res = self._step_in(self.a.arith, row, belief, q)
            self._memo[key] = res
            return res
        a = self.a
        mass: dict[int, dict[int, Q]] = {}
        halt = Q(0)
        for s, w in belief:
            outs = a.transitions.get((s, q))
            if outs is None:
                halt += w
                continue
            for o in outs:
                p = o.probs[row]
                if p == 0:
                    continue
                per = mass.setdefault(self._aidx[o.answer], {})
                per[o.next] = per.get(o.next, Q(0)) + w * p
        out = []
        for ai in sorted(mass):
            per = mass[ai]
            tot = sum(per.values(), Q(0))
            out.append((ai, tot, tuple(sorted((s, v / tot) for s, v in per.items()))))
        if halt:
            out.append((self.halt_index, halt, ()))
        res = tuple(out)
        self._memo[key] = res
        return res

    def _step_in(self, f: ProbField, row: int, belief: Belief, q: str) -> tuple:
        """:meth:`step` in the arithmetic ``f`` (rational functions of the symbols): the same
        sums, products and quotients, with an outcome skipped only when its probability is
        identically zero, and each value in canonical form so that equal beliefs meet."""
        a = self.a
        mass: dict[int, dict[int, Any]] = {}
        halt = f.zero
        for s, w in belief:
            outs = a.transitions.get((s, q))
            if outs is None:
                halt = halt + f.lift(w)
                continue
            for o in outs:
                p = o.probs[row]
                if f.is_zero(p):
                    continue
                per = mass.setdefault(self._aidx[o.answer], {})
                per[o.next] = per.get(o.next, f.zero) + f.lift(w) * f.lift(p)
        out = []
        for ai in sorted(mass):
            per = mass[ai]
            tot = f.total(per.values())
            out.append((ai, f.emit(tot), tuple(sorted((s, f.norm(v / tot)) for s, v in per.items()))))
        if not f.is_zero(halt):
            out.append((self.halt_index, f.emit(f.norm(halt)), ()))
        return tuple(out)

    def may_accept(self, belief: Belief | None, q: str) -> bool:
        """Whether some state in the support of ``belief`` accepts ``q``."""
        return belief is not None and any(q in self.a.alphabet[s] for s, _ in belief)

    def joint(self, rows: Sequence[int], beliefs: Sequence[Belief | None], msgs: Sequence[str]):
        """One answer for every dataset at once: dataset x is in ``beliefs[x]`` (``None``: the
        history is impossible under x) and receives ``msgs[x]`` under row ``rows[x]``.

        Returns (labels, probs, posts, halted): the answer labels with positive probability
        under some possible dataset (in answer order, ``halt`` last), the probability vectors
        (a dataset under which the history is impossible gets a point mass on the first label:
        its rows never weigh), the posterior beliefs per answer (``None`` where the answer is
        impossible, ``()`` after ``halt``) and whether each answer halts.
        """
        n = len(beliefs)
        per: list[dict[int, tuple]] = []
        used: set[int] = set()
        for x in range(n):
            b = beliefs[x]
            if b is None:
                per.append({})
                continue
            d = {ai: (p, post) for ai, p, post in self.step(rows[x], b, msgs[x])}
            per.append(d)
            used.update(d)
        order = sorted(used)
        labels, probs, posts, halted = [], [], [], []
        for k, ai in enumerate(order):
            labels.append(self.labels[ai])
            row: list[Any] = []
            post: list[Any] = []
            for x in range(n):
                if beliefs[x] is None:
                    row.append(Q(1) if k == 0 else Q(0))
                    post.append(None)
                    continue
                hit = per[x].get(ai)
                row.append(hit[0] if hit else Q(0))
                post.append(hit[1] if hit else None)
            probs.append(tuple(row))
            posts.append(tuple(post))
            halted.append(ai == self.halt_index)
        return labels, probs, posts, halted


def reachable_joint_states(a: Automaton, rows: Sequence[int], *, cap: int) -> int | None:
    """The number of joint states (the state under each dataset, ``None`` where the history is
    impossible under it) reachable in ``a`` from its initial states, whatever the horizon;
    counting stops once it passes ``cap``.  ``None`` when a belief is not a point mass (an initial
    distribution, or an answer leading to several next states): the posteriors are then
    found only by building the game."""
    start = []
    for r in rows:
        if len(a.initial[r]) != 1:
            return None
        start.append(a.initial[r][0][0])
    seen = {tuple(start)}
    todo = [tuple(start)]
    while todo and len(seen) <= cap:
        cur = todo.pop()
        for q in a.queries:
            nexts = _answer_next(a, rows, cur, q)
            if nexts is None:
                return None
            for t in nexts:
                if t not in seen:
                    seen.add(t)
                    todo.append(t)
    return len(seen)


def _answer_next(a: Automaton, rows: Sequence[int], cur: tuple, q: str) -> list[tuple] | None:
    """The joint states after each answer to ``q`` in joint state ``cur`` (halting ends the
    game); ``None`` when an answer leads to two next states under one dataset."""
    by_answer: dict[str, list[Any]] = {}
    for x, s in enumerate(cur):
        if s is None or not a.accepts(s, q):
            continue
        nxt: dict[str, int] = {}
        for o in a.transitions[(s, q)]:
            if o.probs[rows[x]] == 0:
                continue
            if nxt.setdefault(o.answer, o.next) != o.next:
                return None
        for ans, n in nxt.items():
            by_answer.setdefault(ans, [None] * len(cur))[x] = n
    return [tuple(v) for v in by_answer.values()]


def predicted_work(a: Automaton, rows: Sequence[int], *, cap: int = 10**9) -> tuple[int | None, int]:
    """(J, W): the reachable joint states (``None``: not known before the game is built, and
    counted as 1 in W) and the predicted number of profile pieces over the game,
    W = J · T(T+1)/2 for horizon T, or J · T when the dataset changes nothing (a single row).
    A prediction, not a bound: it assumes the answers depend on the data at every step."""
    J = reachable_joint_states(a, rows, cap=cap)
    T = a.horizon
    return J, (J or 1) * (T if a.n_rows == 1 else T * (T + 1) // 2)


def _check_work(a: Automaton, rows: Sequence[int]) -> None:
    """Refuse an automaton whose predicted work exceeds ``max_automaton_work``, before its game
    is built."""
    allowed = current_limits().max_automaton_work
    J, work = predicted_work(a, rows, cap=allowed)
    if work > allowed:
        states = (
            "its reachable joint states not known in advance (counted as 1)"
            if J is None
            else f"{J} reachable joint state{'s' if J != 1 else ''}"
        )
        raise LimitExceededError(
            f"the predicted work of the automaton (horizon {a.horizon}, {states}: about {work} profile pieces)",
            allowed,
            "raise it with --max-automaton-work N, or shorten the horizon",
        )


@dataclass(frozen=True)
class AutomatonMechanism(Mechanism):
    """A :class:`Mechanism` built from an :class:`Automaton`; keeps the automaton so that
    continual forms can run it on messages."""

    automaton: Automaton | None = None


def automaton(
    a: Automaton,
    *,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    name: str = "automaton",
    max_nodes: int | None = None,
) -> AutomatonMechanism:
    """The game of an automaton mechanism, one node per (beliefs, steps left).

    Parameters
    ----------
    a : Automaton
    datasets, adjacent :
        As in :class:`~exactdp.model.Mechanism`; ``a`` must have one row per dataset or a
        single shared row.
    max_nodes : int, optional
        Limit on the number of game states (default :data:`~exactdp.model.dag.DEFAULT_MAX_NODES`).

    Returns
    -------
    AutomatonMechanism

    Examples
    --------
    Randomized response asked twice, its state never changing (e^ε = 3):

    >>> from exactdp.analysis import profile
    >>> rows = {("s", "q"): [("0", "s", [Q(3, 4), Q(1, 4)]), ("1", "s", [Q(1, 4), Q(3, 4)])]}
    >>> M = automaton(make_automaton(["s"], "s", rows, 2))
    >>> str(profile.privloss(M, 0))
    'log(9)'

    References
    ----------
    Henzinger–Safavi–Vadhan, arXiv 2411.03299, Def. 2.6, 2.10, 2.13.
    """
    nd = len(datasets)
    if a.n_rows not in (1, nd):
        raise InvalidMechanismError(f"the automaton has {a.n_rows} probability rows but there are {nd} datasets")
    rows = tuple(x if a.n_rows > 1 else 0 for x in range(nd))
    _check_work(a, rows)
    init = tuple(a.initial[r] for r in rows)
    st = BeliefStepper(a)
    END_STATE = ("end",)

    def expand(state: Any) -> Any:
        if state is END_STATE or state == END_STATE:
            return ("end",)
        if state[0] == "q":
            _, beliefs, left = state
            if left == 0:
                return ("end",)
            qs = [q for q in a.queries if any(st.may_accept(b, q) for b in beliefs)]
            if not qs:
                return ("end",)
            return ("ask", qs, [("a", beliefs, left, q) for q in qs])
        _, beliefs, left, q = state
        labels, probs, posts, halted = st.joint(rows, beliefs, (q,) * nd)
        succ = [END_STATE if h else ("q", post, left - 1) for post, h in zip(posts, halted)]
        return ("chance", labels, probs, succ)

    kw: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    root = build_dag(("q", init, a.horizon), expand, **kw)
    return AutomatonMechanism(root, tuple(datasets), tuple(adjacent), name, automaton=a)
