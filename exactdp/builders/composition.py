"""Composition combinators of Vadhan–Wang §2 and a deterministic post-processing of answers.

* :func:`concomp_ordered` – ordered concurrent composition ConComp_order (Def. 2.3): the i-th
  message goes to component i mod k.
* :func:`null_extension` – the null-query extension M^∅ (Def. 2.4), with a finite number of
  null queries (see its docstring for the finite design).
* :func:`concomp_sequential` – ``concomp`` restricted to sequential interleaving: every query to
  M₀ before any to M₁, … (sequential composition, §1.4), labelled like ``concomp`` so that the two
  can be compared on the same components.
* :func:`postprocess` – relabel answers by a deterministic map.  Merging answers hides which
  original answer occurred, so the adversary cannot condition on it: the merged sub-game is a
  mixture of the original sub-games with per-dataset posterior weights (built exactly below).

All return a :class:`~exactdp.model.Mechanism` built with :func:`~exactdp.model.dag.build_dag`,
sharing equal states.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ArgumentError, InvalidMechanismError
from ..model.checks import collection_arg, takes_mechanism
from ..model.dag import build_dag
from ..model.game import Ask, Chance, End, Label, Mechanism, Node, label_str, postorder
from ..model.ops import stats
from ..model.symbolic import SymChance, rows_of
from ..numbers.rational import Q
from .combinators import carries_copies, same_datasets
from .params import mapping_arg, whole_arg
from .probfield import NUMERIC, ProbField, field_of

__all__ = [
    "concomp_ordered",
    "null_extension",
    "concomp_sequential",
    "postprocess",
    "relabelling_arg",
    "unknown_answers",
    "NULL",
    "BOTTOM",
    "POLL",
    "depth",
]

NULL = "null"
"""The label of a null query (a message beginning with 0 in Def. 2.4)."""
BOTTOM = "⊥"
"""The answer to a null query (M(x, λ; r) = ⊥ by the convention of Def. 2.4)."""
POLL = "poll"
"""In a null extension, the option that lets a mechanism that speaks without a query answer."""


def _named(components: Any, call: str) -> tuple[list[str], list[Mechanism]]:
    collection_arg(components, call)
    if isinstance(components, Mapping):
        return [str(k) for k in components], list(components.values())
    mechs = list(components)
    return [str(i) for i in range(len(mechs))], mechs


def depth(node: Node) -> int:
    """Moves on the longest path of a game (adversary choices and answers)."""

    return stats(node)["depth"]


@carries_copies
def concomp_ordered(
    components: Mapping[str, Mechanism] | Sequence[Mechanism],
    *,
    name: str = "concomp_ordered",
    max_nodes: int | None = None,
) -> Mechanism:
    """Ordered concurrent composition ConComp_order(M₀, …, M_{k−1}) (Vadhan–Wang Def. 2.3).

    Message i goes to component j = i mod k.  In a finite game a component may have ended
    before its turn; it is then skipped (its turn passes to the next component that has not
    ended), and the composition ends when every component has.  On a component's turn the
    adversary picks one of its queries (labels qualified as in ``concomp``: ``M1.q0``); a
    component that speaks without a query (``respond``) answers at once.

    References
    ----------
    Vadhan & Wang (TCC 2021), Def. 2.3; Lemma 2.5 (with :func:`null_extension`).
    """
    names, mechs = _named(components, "concomp_ordered")
    ds, adj = same_datasets(mechs, "concomp_ordered")
    k = len(mechs)

    def next_turn(turn: int, states: tuple) -> int | None:
        for off in range(k):
            j = (turn + off) % k
            if not isinstance(states[j], End):
                return j
        return None

    def expand(state):
        turn, states = state
        j = next_turn(turn, states)
        if j is None:
            return ("end",)
        node = states[j]
        nxt_turn = (j + 1) % k
        if isinstance(node, Chance):
            return (
                "chance",
                node.labels,
                rows_of(node),
                [(nxt_turn, states[:j] + (c,) + states[j + 1 :]) for c in node.children],
            )
        labels: list[Label] = []
        succ: list[Any] = []
        for lab, child in zip(node.labels, node.children):
            labels.append((names[j], lab))
            moved = states[:j] + (child,) + states[j + 1 :]
            succ.append(("answer", j, moved) if isinstance(child, Chance) else (nxt_turn, moved))
        return ("ask", labels, succ)

    def expand_any(state):
        if state[0] == "answer":
            _, j, states = state
            node = states[j]
            nxt_turn = (j + 1) % k
            succ = [(nxt_turn, states[:j] + (c,) + states[j + 1 :]) for c in node.children]
            return ("chance", node.labels, rows_of(node), succ)
        return expand(state)

    kwargs: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    root = build_dag((0, tuple(m.root for m in mechs)), expand_any, **kwargs)
    return Mechanism(root, ds, adj, name)


@carries_copies
@takes_mechanism
def null_extension(mech: Mechanism, nulls: int | None = None, *, name: str | None = None) -> Mechanism:
    """The null-query extension M^∅ (Vadhan–Wang Def. 2.4), with finitely many null queries.

    Finite design: wherever M waits for a query, the adversary may also send the null query
    ``null``; it is answered ``⊥`` with probability 1 under every dataset and leaves M's state
    unchanged.  Wherever M would speak without a query, the adversary chooses between ``poll``
    (M answers) and ``null``.  At most ``nulls`` null queries are accepted in total (default:
    the depth of M plus one), so the game stays finite; afterwards only real queries remain.
    Null queries carry no information about the data, so they never change M's privacy
    profile; their job is to let an *ordered* composition skip turns (Lemma 2.5).

    References
    ----------
    Vadhan & Wang (TCC 2021), Def. 2.4, Lemma 2.5.
    """
    budget = depth(mech.root) + 1 if nulls is None else whole_arg(nulls, call="null_extension", name="nulls")
    if budget < 0:
        raise InvalidMechanismError(f"null_extension: nulls must be >= 0, got {budget}")
    n = len(mech.datasets)
    one = (Q(1),) * n

    def expand(state):
        kind, node, left = state
        if kind == "bottom":
            return ("chance", (BOTTOM,), (one,), [("at", node, left)])
        if kind == "answer":
            return ("chance", node.labels, rows_of(node), [("at", c, left) for c in node.children])
        if isinstance(node, End):
            return ("end",)
        labels: list[Label] = []
        succ: list = []
        if isinstance(node, Ask):
            for lab, child in zip(node.labels, node.children):
                labels.append(lab)
                succ.append(("answer", child, left) if isinstance(child, Chance) else ("at", child, left))
        else:
            labels.append(POLL)
            succ.append(("answer", node, left))
        if left > 0:
            if NULL in labels:
                raise InvalidMechanismError(f"null_extension: {mech.name} already has a query named {NULL!r}")
            labels.append(NULL)
            succ.append(("bottom", node, left - 1))
        return ("ask", labels, succ)

    root = build_dag(("at", mech.root, budget), expand)
    return Mechanism(root, mech.datasets, mech.adjacent, name or f"null_extension({mech.name})")


@carries_copies
def concomp_sequential(
    components: Mapping[str, Mechanism] | Sequence[Mechanism], *, name: str = "concomp_sequential"
) -> Mechanism:
    """``concomp`` with sequential interleaving: all of M₀'s interaction, then M₁'s, …

    Game-theoretically this is sequential composition (Vadhan–Wang §1.4), i.e. ``compose``;
    the options are labelled like ``concomp``'s (``M1.q0``; a ``respond`` component is polled
    by choosing ``M1``) so that witnesses of the two can be compared.
    """
    names, mechs = _named(components, "concomp_sequential")
    ds, adj = same_datasets(mechs, "concomp")

    def expand(state):
        tag, j, states = state
        if tag == "answer":
            node = states[j]
            return (
                "chance",
                node.labels,
                rows_of(node),
                [("wait", -1, states[:j] + (c,) + states[j + 1 :]) for c in node.children],
            )
        k = next((i for i, s in enumerate(states) if not isinstance(s, End)), None)
        if k is None:
            return ("end",)
        node = states[k]
        if isinstance(node, Chance):
            return ("ask", [(names[k],)], [("answer", k, states)])
        labels, succ = [], []
        for lab, child in zip(node.labels, node.children):
            labels.append((names[k], lab))
            moved = states[:k] + (child,) + states[k + 1 :]
            succ.append(("answer", k, moved) if isinstance(child, Chance) else ("wait", -1, moved))
        return ("ask", labels, succ)

    root = build_dag(("wait", -1, tuple(m.root for m in mechs)), expand)
    return Mechanism(root, ds, adj, name)


def unknown_answers(mech: Mechanism, mapping: Mapping[Any, Label]) -> tuple[list[Any], list[Label]]:
    """The keys of ``mapping`` that are not answers of ``mech`` (in the mapping's order), and the
    answers of ``mech`` (sorted, for a message)."""
    answers = {lab for node in postorder(mech.root) if isinstance(node, Chance) for lab in node.labels}
    return [old for old in mapping if old not in answers], sorted(answers, key=str)


def relabelling_arg(mech: Mechanism, mapping: Any) -> Mapping[Label, Label]:
    """The ``mapping`` argument of :func:`postprocess`: a mapping whose every key is an answer of
    ``mech`` (a typo would otherwise leave the mechanism unchanged, and the claims about another
    one); an :class:`~exactdp.errors.ArgumentTypeError` or :class:`~exactdp.errors.ArgumentError`
    naming the first key that is not, and the answers there are."""
    mapping_arg(mapping, call="postprocess", name="mapping", shape="{answer: new answer}")
    unknown, answers = unknown_answers(mech, mapping)
    if unknown:
        shown = ", ".join(label_str(a) for a in answers[:20]) + (", ..." if len(answers) > 20 else "")
        raise ArgumentError(
            f"postprocess: mapping: {label_str(unknown[0])} is not an answer of the mechanism {mech.name} "
            f"(its answers: {shown})"
        )
    return mapping


@carries_copies
@takes_mechanism
def postprocess(mech: Mechanism, mapping: Mapping[Label, Label], *, name: str | None = None) -> Mechanism:
    """Relabel every answer of M by a deterministic map (answers not in the map keep their label).

    When two answers of one distribution get the same new label the adversary no longer sees
    which occurred, so it cannot condition later queries on it.  The result is built exactly as
    a game over *beliefs*: a state is a mixture of original nodes with one weight per dataset
    (the posterior probability, under that dataset, of being at that node given the
    relabelled history).  Its answer b has probability Σ_nodes w_x(node)·Pr_x[answers ↦ b] under
    dataset x, and the state after b is the posterior mixture.  The options the adversary is
    offered must be the same in every node of a mixture (it cannot choose what it cannot see);
    otherwise the relabelling is refused with an error naming the clash.

    The construction only adds, multiplies and divides probabilities, and tests whether a
    weight is zero: it runs unchanged on a mechanism with symbolic probabilities (SymPy rational
    functions of the symbols, every value cancelled), where a weight is dropped only when it is
    identically zero.  A posterior's denominator that vanishes at some value of the symbols is
    the caller's to refuse (the ``postprocess`` form proves every denominator nonzero on the
    symbols' domain).

    References
    ----------
    Post-processing (Vadhan–Wang Lemma 5.3); the view of Def. 1.6 after relabelling.
    """
    rel = dict(relabelling_arg(mech, mapping))
    n = len(mech.datasets)
    f = field_of(p for node in postorder(mech.root) if isinstance(node, SymChance) for row in node.sym for p in row)
    beliefs: dict[tuple, tuple] = {}
    ones = (f.one,) * n

    def intern(belief: tuple) -> tuple:
        k = tuple((node.uid, w) for node, w in belief)
        beliefs.setdefault(k, belief)
        return k

    def expand(k):
        belief = beliefs[k]
        first = _mixable(belief)
        if isinstance(first, End):
            return ("end",)
        if isinstance(first, Ask):
            return (
                "ask",
                first.labels,
                [intern(tuple((node.children[i], w) for node, w in belief)) for i in range(len(first.labels))],
            )
        order, probs, parts = _relabelled_answers(belief, rel, n, f)
        succ = [
            intern(
                _posterior(
                    [(c, v) for c, v in parts[b] if not all(map(f.is_zero, v))] or [(parts[b][0][0], ones)], n, f
                )
            )
            for b in order
        ]
        return ("chance", order, probs, succ)

    root_key = intern(((mech.root, ones),))
    root = build_dag(root_key, expand, check=False)
    return Mechanism(root, mech.datasets, mech.adjacent, name or f"postprocess({mech.name})")


def _posterior(items: list[tuple[Node, tuple]], n: int, f: ProbField = NUMERIC) -> tuple:
    """The belief after a relabelled history: the weights per node, normalised per dataset
    (the posterior probability, under that dataset, of being at that node)."""
    acc: dict[int, list] = {}
    nodes: dict[int, Node] = {}
    for node, w in items:
        cur = acc.get(node.uid)
        if cur is None:
            acc[node.uid] = list(w)
            nodes[node.uid] = node
        else:
            for d in range(n):
                cur[d] += w[d]
    totals = [f.norm(sum((v[d] for v in acc.values()), f.zero)) for d in range(n)]
    ref = next((d for d in range(n) if not f.is_zero(totals[d])), None)
    if ref is None:  # pragma: no cover - a reachable state has positive mass somewhere
        ref = 0
        totals[0] = f.lift(Q(len(acc)))
        for v in acc.values():
            v[0] = f.one
    out = []
    for uid in sorted(acc):
        v = acc[uid]
        # a dataset under which this history is impossible: borrow another dataset's
        # weights (its probability of reaching here is 0, so they never matter)
        out.append(
            (
                nodes[uid],
                tuple(f.norm(v[d] / totals[d] if not f.is_zero(totals[d]) else v[ref] / totals[ref]) for d in range(n)),
            )
        )
    return tuple(out)


def _mixable(belief: tuple) -> Node:
    """The first node of a belief, after checking that the adversary can act on the mixture:
    every node is of one kind and, for queries, offers the same options."""
    kinds = {_kind(node) for node in (node for node, _ in belief)}
    if len(kinds) != 1:
        raise InvalidMechanismError(
            "postprocess: relabelling merges histories whose continuations differ in kind "
            f"({', '.join(sorted(_kind_name(t) for t in kinds))}); the adversary would have to act "
            "without knowing whether the interaction continues",
            hint="map only answers whose continuations offer the same options, or give them distinct new labels",
        )
    first = belief[0][0]
    if isinstance(first, Ask):
        labels = first.labels
        for node, _ in belief[1:]:
            if node.labels != labels:
                raise InvalidMechanismError(
                    "postprocess: relabelling merges histories where the adversary is offered different "
                    f"queries ({', '.join(map(label_str, labels))} vs {', '.join(map(label_str, node.labels))}); "
                    "it cannot choose among options it cannot tell apart",
                    hint="map only answers whose continuations offer the same queries",
                )
    return first


def _relabelled_answers(
    belief: tuple, rel: Mapping[Label, Label], n: int, f: ProbField = NUMERIC
) -> tuple[list[Label], list[tuple], dict[Label, list]]:
    """The answer distribution of a mixture of chance nodes after relabelling: the new labels
    in order of first appearance, their probabilities per dataset, and for each new label the
    (child, weight per dataset) parts that make up its posterior."""
    order: list[Label] = []
    parts: dict[Label, list] = {}
    for node, w in belief:
        for lab, row, child in zip(node.labels, rows_of(node), node.children):
            b = rel.get(lab, lab)
            if b not in parts:
                parts[b] = []
                order.append(b)
            parts[b].append((child, tuple(w[d] * f.lift(row[d]) for d in range(n))))
    probs = [tuple(f.emit(f.norm(sum((v[d] for _, v in parts[b]), f.zero))) for d in range(n)) for b in order]
    return order, probs, parts


def _kind(node: Node) -> type:
    """End, Ask or Chance: the kind of move (a symbolic answer and a numeric one, or a node in
    flat storage and a node object, are of one kind)."""
    return next(t for t in (End, Ask, Chance) if isinstance(node, t))


def _kind_name(t: type) -> str:
    return {End: "the end", Ask: "a query", Chance: "an answer"}[t]
