r"""Continual mechanisms, verification functions, and their concurrent compositions.

Henzinger–Safavi–Vadhan (arXiv 2411.03299) define privacy for a *continual mechanism* (CM,
Def. 3.1: an interactive mechanism with a single initial state) through a game with a secret
bit b: the adversary sends pairs (m⁰, m¹), the identifier I_b (Def. 3.2) forwards mᵇ to the
mechanism, and a verifier (Def. 3.5) applying a *verification function* V (Def. 3.3) halts
the interaction as soon as the sequence of pairs is not V-valid.  By Cor. 3.8, M is (ε, δ)-DP
w.r.t. V iff the interactive mechanism V∘I∘M with initial states {0, 1}, 0 ~ 1, is (ε, δ)-DP.
That is the game built here: the two *worlds* b = 0, 1 are the two datasets of the
:class:`~exactdp.model.Mechanism`, and since an invalid pair ends the interaction (which an
adversary can always do itself), only valid pairs are offered.

Finite encoding:

* the CM is an :class:`~exactdp.builders.automaton.Automaton` that does not depend on the
  dataset (one shared row, one initial distribution); its horizon bounds the pairs it receives;
* V is a deterministic :class:`~exactdp.builders.verifier.Verifier` automaton over pairs
  (prefix-closed: the verifier halts at the first invalid prefix; :mod:`exactdp.builders.verifier`,
  whose names this module re-exports); ``bounded_verifier`` gives the common "at most k
  differing pairs, at most n pairs" (event-level privacy with k = 1);
* ``first_pair_consistent`` restricts V to its first-pair-consistent part (Def. 5.13: if the
  first pair is identical, every later pair must be identical).

**ExtConComp** (Def. 4.1) with a verification function V′ (Defs. 4.2–4.4) is built over a
finite *menu* of CMs, each with its claimed parameters (εᵢ, δᵢ) and its own Vᵢ, and a cap n
on the number of creations (the unbounded theorems are checked for every finite n).
The adversary's moves are: create an instance of a menu item (the answer ⊤ is deterministic,
so it is not a chance node), or send a pair to an existing instance i, which must keep i's
pair sequence Vᵢ-valid and within its horizon, and satisfy the composition's rule:

================  =========================================================================
Def. 4.8          fixed CMs M₁..M_k, created first (:func:`concurrent`)
Def. 4.10         at most k creations; created parameters ⊆ the multiset (:func:`fixed_params`)
Def. 5.1          any number of creations; the instances J that ever get a differing pair have
                  parameters ⊆ the multiset (:func:`sparse_parallel`)
Def. 5.14         as 5.1, every Vᵢ first-pair consistent (:func:`fpc_parallel`)
Def. 5.3          as 5.1 on ε only, and ∏_created (1 − δᵢ) ≥ 1 − δ̄ (:func:`budgeted_parallel`)
Def. 5.8          ∏_created (1 − δᵢ) ≥ 1 − δ̄, no other restriction (:func:`budgeted`)
Def. 5.10         each item has εᵢ = 0 or δᵢ = 0; the positive εᵢ of created instances ⊆ the
                  multiset; ∏ (1 − δᵢ) ≥ 1 − δ̄ (:func:`mixed_budgeted`)
Def. 10.2         basic filter: Σ εᵢ ≤ ε and Σ δᵢ ≤ δ over created instances (:func:`basic_filter`)
================  =========================================================================

Game states are keyed by the instances' joint state: (menu item, verifier state, hidden-state
belief under each world, pairs left, first-pair flag, in J) per instance, plus the remaining
parameter multiset and the δ-budget product; instances that can receive nothing more are
collapsed.  A created instance's claimed parameters are *not* checked here (builders cannot
run the engines); the case reader checks every menu claim with the profile engine.

References
----------
M. Henzinger, R. Safavi, S. Vadhan, *Concurrent Composition for Differentially Private
Continual Mechanisms*, arXiv 2411.03299: Def. 3.1–3.7, Cor. 3.8, Def. 4.1–4.4, 4.8, 4.10,
5.1, 5.3, 5.8, 5.10, 5.13, 5.14, 10.1–10.3; Thm. 4.9, 4.11, 5.2, 5.4, 5.15, 10.4; Lemma 5.9,
5.11.  R. Rogers, A. Roth, J. Ullman, S. Vadhan, *Privacy Odometers and Filters*, NeurIPS 2016.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import InvalidMechanismError
from ..model.dag import build_dag
from ..model.game import Mechanism
from ..numbers import ladder
from ..numbers.rational import Q, as_q, is_rational, q_str
from .automaton import Automaton, BeliefStepper
from .verifier import ANY, DIFFER, SAME, Verifier, bounded_verifier, make_verifier, pair_label

__all__ = [
    "Continual",
    "ContinualMechanism",
    "continual",
    "MenuItem",
    "Rule",
    "ext_concomp",
    "concurrent",
    "fixed_params",
    "sparse_parallel",
    "fpc_parallel",
    "budgeted_parallel",
    "budgeted",
    "mixed_budgeted",
    "basic_filter",
]
# the verification functions keep their old import path (they live in builders/verifier.py)
__all__ += ["SAME", "DIFFER", "ANY", "Verifier", "make_verifier", "bounded_verifier", "pair_label"]

WORLDS = ("x0", "x1")


# --- a continual mechanism with its verifier ---------------------------------------------------


@dataclass(frozen=True, eq=False)
class Continual:
    """A CM (a dataset-independent automaton) with its verification function.

    ``first_pair_consistent`` restricts the verifier to its first-pair-consistent part
    (Def. 5.13)."""

    mechanism: Automaton
    verifier: Verifier
    first_pair_consistent: bool = False

    def __post_init__(self) -> None:
        if not self.mechanism.dataset_independent:
            raise InvalidMechanismError(
                "a continual mechanism has a single initial state and does not depend on the dataset "
                "(Def. 3.1): the two worlds differ only in the messages it receives",
                hint="give every probability as a single value and one initial state (or distribution)",
            )
        missing = [m for m in self.verifier.messages if m not in self.mechanism.queries]
        if missing:
            raise InvalidMechanismError(
                f"the verifier allows message(s) {', '.join(missing)} that the mechanism never accepts"
            )


@dataclass(frozen=True)
class ContinualMechanism(Mechanism):
    """The Cor. 3.8 game V∘I∘M of a :class:`Continual` (datasets = the two worlds)."""

    continual: Continual | None = None


@dataclass(frozen=True, eq=False)
class MenuItem:
    """One kind of creation query C = (M, s, ε, δ, V) (Def. 4.1): a CM with its verifier and
    its claimed parameters (ε exact: a rational or ``log(r)``; δ rational)."""

    name: str
    cm: Continual
    eps: Any
    delta: Any


@dataclass(frozen=True)
class Rule:
    """The restriction a composition's verification function V′ puts on creations and on
    which instances may receive differing pairs (see the module table).

    Attributes
    ----------
    definition : str
        The paper's definition number, for reports.
    cap : int
        At most this many creations.
    params : tuple or None
        The fixed multiset: (ε, δ) pairs (``match="pair"``) or ε values (``match="eps"``);
        ``None``: no restriction.
    consume : "create" or "differ"
        Whether an instance draws its parameters from the multiset when it is created
        (Defs. 4.10, 5.10) or when it first receives a differing pair (J of Defs. 5.1, 5.3, 5.14).
    positive_eps_only : bool
        Only instances with εᵢ > 0 draw from the multiset (Def. 5.10).
    budget : rational or None
        δ̄: creations must keep ∏ (1 − δᵢ) ≥ 1 − δ̄ (Defs. 5.3, 5.8, 5.10).
    first_pair_consistent : bool
        Every instance's verifier is restricted to its first-pair-consistent part (Def. 5.14).
    filter : (rational, rational) or None
        The basic filter of Rogers et al. (Def. 10.1/10.2): creations must keep
        ∏ e^{εᵢ} ≤ E and Σ δᵢ ≤ δ (E = e^ε rational).
    """

    definition: str
    cap: int
    params: tuple | None = None
    match: str = "pair"
    consume: str = "differ"
    positive_eps_only: bool = False
    budget: Any = None
    first_pair_consistent: bool = False
    filter: tuple | None = None


def _eq_value(a: Any, b: Any) -> bool:
    return ladder.cmp(a, b) == 0


def _param_str(p: Any) -> str:
    if isinstance(p, tuple):
        return f"({ladder.text(p[0])}, {q_str(p[1])})"
    return ladder.text(p)


# instance: (item, v, belief under world 0, under world 1, pairs left, first flag, in J) | DONE
_DONE = ("done",)
_CANNOT = object()
_NO_PAIR, _FIRST_SAME, _FIRST_DIFF = 0, 1, 2


class _Game:
    """The joint-state game of ExtConComp (or of one CM, or of fixed CMs)."""

    def __init__(
        self, items: Sequence[MenuItem], rule: Rule | None, pre: Sequence[int], tags: Sequence[str] | None, single: bool
    ):
        self.items = list(items)
        self.rule = rule
        self.pre = list(pre)
        self.tags = list(tags) if tags is not None else None
        self.single = single
        self.steppers: dict[int, BeliefStepper] = {}
        for j, it in enumerate(self.items):
            self.steppers[j] = BeliefStepper(it.cm.mechanism)
        self.item_E: list[Any] = []
        if rule is not None and rule.filter is not None:
            for it in self.items:
                E = ladder.exp(it.eps)
                if not is_rational(E):
                    raise InvalidMechanismError(
                        f"menu item {it.name!r}: a filter needs e^eps rational, but eps = {ladder.text(it.eps)}",
                        hint="write eps as log(r)",
                    )
                self.item_E.append(as_q(E))
        # parameter classes
        self.classes: list[Any] = []
        self.counts: list[int] = []
        self.item_class: list[int | None] = []
        if rule is not None and rule.params is not None:
            for p in rule.params:
                for c, v in enumerate(self.classes):
                    if self._same_param(p, v):
                        self.counts[c] += 1
                        break
                else:
                    self.classes.append(p)
                    self.counts.append(1)
            for it in self.items:
                key = (it.eps, it.delta) if rule.match == "pair" else it.eps
                self.item_class.append(next((c for c, v in enumerate(self.classes) if self._same_param(key, v)), None))

    def _same_param(self, a: Any, b: Any) -> bool:
        if isinstance(a, tuple):
            return _eq_value(a[0], b[0]) and as_q(a[1]) == as_q(b[1])
        return _eq_value(a, b)

    # --- instances ---------------------------------------------------------------------------

    def new_instance(self, j: int) -> tuple:
        cm = self.items[j].cm
        b = cm.mechanism.initial[0]
        inst = (j, cm.verifier.initial, b, b, cm.mechanism.horizon, _NO_PAIR, False)
        return self._close(inst)

    def _close(self, inst: tuple) -> tuple:
        """Collapse an instance that can receive nothing more."""
        j, v, b0, b1, left, first, inj = inst
        if left == 0 or not self.items[j].cm.verifier.valid(v):
            return _DONE
        return inst

    def _fpc(self, j: int) -> bool:
        return self.items[j].cm.first_pair_consistent or (self.rule is not None and self.rule.first_pair_consistent)

    def _needs(self, j: int) -> bool:
        r = self.rule
        if r is None or r.params is None:
            return False
        return not r.positive_eps_only or ladder.sign(self.items[j].eps) > 0

    def _draw(self, j: int, rem: tuple | None) -> Any:
        """Remaining multiset after an instance of item j draws its parameters, or
        :data:`_CANNOT` if they are not left (``rem`` is None when there is no multiset)."""
        if not self._needs(j):
            return rem
        c = self.item_class[j]
        if c is None or rem is None or rem[c] == 0:
            return _CANNOT
        return rem[:c] + (rem[c] - 1,) + rem[c + 1 :]

    def pair_options(self, inst: tuple, rem: tuple | None):
        """(m0, m1, next verifier state, remaining multiset after) for every allowed pair."""
        if inst is _DONE or inst == _DONE:
            return []
        j, v, b0, b1, left, first, inj = inst
        st = self.steppers[j]
        fpc = self._fpc(j)
        sparse = self.rule is not None and self.rule.consume == "differ"
        out = []
        for (m0, m1), v2 in self.items[j].cm.verifier.valid(v):
            differ = m0 != m1
            if differ and fpc and first == _FIRST_SAME:
                continue
            if not (st.may_accept(b0, m0) or st.may_accept(b1, m1)):
                continue  # both worlds would halt for sure: the same as stopping
            rem2 = rem
            if differ and sparse and not inj:
                rem2 = self._draw(j, rem)
                if rem2 is _CANNOT:
                    continue
            out.append((m0, m1, v2, rem2))
        return out

    def create_options(self, ninst: int, rem: tuple | None, prod: Any):
        r = self.rule
        if r is None or ninst - len(self.pre) >= r.cap:
            return []
        out = []
        for j, it in enumerate(self.items):
            rem2 = rem
            if r.consume == "create":
                rem2 = self._draw(j, rem)
                if rem2 is _CANNOT:
                    continue
            prod2 = prod
            if r.budget is not None:
                prod2 = prod * (1 - as_q(it.delta))
                if prod2 < 1 - as_q(r.budget):
                    continue
            if r.filter is not None:
                e_tot, d_tot = prod
                prod2 = (e_tot * self.item_E[j], d_tot + as_q(it.delta))
                if prod2[0] > r.filter[0] or prod2[1] > r.filter[1]:
                    continue
            out.append((j, rem2, prod2))
        return out

    # --- the game ------------------------------------------------------------------------------

    def tag(self, i: int) -> str:
        return self.tags[i] if self.tags is not None and i < len(self.tags) else str(i + 1)

    def expand(self, state: Any) -> Any:
        if state[0] == "q":
            _, insts, rem, prod = state
            labels: list[str] = []
            succ: list[Any] = []
            for j, rem2, prod2 in self.create_options(len(insts), rem, prod):
                labels.append(f"create {self.items[j].name}")
                succ.append(("q", insts + (self.new_instance(j),), rem2, prod2))
            for i, inst in enumerate(insts):
                for m0, m1, v2, rem2 in self.pair_options(inst, rem):
                    lab = pair_label(m0, m1)
                    labels.append(lab if self.single else f"{self.tag(i)}:{lab}")
                    succ.append(("a", insts, rem2, prod, i, m0, m1, v2))
            if not labels:
                return ("end",)
            return ("ask", labels, succ)
        _, insts, rem, prod, i, m0, m1, v2 = state
        j, v, b0, b1, left, first, inj = insts[i]
        st = self.steppers[j]
        labels, probs, posts, halted = st.joint((0, 0), (b0, b1), (m0, m1))
        if first == _NO_PAIR:
            first = _FIRST_SAME if m0 == m1 else _FIRST_DIFF
        inj = inj or m0 != m1
        succ = []
        for post, h in zip(posts, halted):
            inst2 = _DONE if h else self._close((j, v2, post[0], post[1], left - 1, first, inj))
            new = list(insts)
            new[i] = inst2
            # a world under which this answer is impossible is impossible for every instance
            for w in (0, 1):
                if post[w] is None and (b0, b1)[w] is not None:
                    new = [self._kill(x, w) for x in new]
            succ.append(("q", tuple(new), rem, prod))
        return ("chance", labels, probs, succ)

    @staticmethod
    def _kill(inst: tuple, w: int) -> tuple:
        if inst == _DONE:
            return inst
        j, v, b0, b1, left, first, inj = inst
        return (j, v, None, b1, left, first, inj) if w == 0 else (j, v, b0, None, left, first, inj)

    def initial(self) -> tuple:
        r = self.rule
        rem = tuple(self.counts) if r is not None and r.params is not None else None
        prod = None
        if r is not None and r.budget is not None:
            prod = Q(1)  # ∏ (1 − δᵢ) over created instances
        elif r is not None and r.filter is not None:
            prod = (Q(1), Q(0))  # (∏ e^{εᵢ}, Σ δᵢ) over created instances
        return ("q", tuple(self.new_instance(j) for j in self.pre), rem, prod)


def _worlds(datasets: Sequence[str]) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    ds = tuple(datasets)
    if len(ds) != 2:
        raise InvalidMechanismError(
            f"a continual mechanism is analysed in two worlds (the bit b of Def. 3.7), but {len(ds)} datasets are given",
            hint="use exactly two datasets (the default x0, x1): dataset 0 is world b = 0, dataset 1 is world b = 1",
        )
    return ds, ((0, 1),)


def _build(
    game: _Game, datasets: Sequence[str], name: str, max_nodes: int | None, cls: Any = Mechanism, **extra: Any
) -> Any:
    ds, adj = _worlds(datasets)
    kw: dict[str, Any] = {} if max_nodes is None else {"max_nodes": max_nodes}
    root = build_dag(game.initial(), game.expand, **kw)
    return cls(root, ds, adj, name, **extra)


def continual(
    cm: Continual, *, datasets: Sequence[str] = WORLDS, name: str = "continual", max_nodes: int | None = None
) -> ContinualMechanism:
    """The interactive mechanism V∘I∘M of Cor. 3.8 (worlds 0 ~ 1 = the two datasets).

    The adversary sends pairs (m⁰, m¹) that keep the pair sequence V-valid (labelled
    ``(m0,m1)``); under world b the CM receives mᵇ.  Its profile is the CM's privacy profile
    w.r.t. V (Def. 3.7).

    Examples
    --------
    M_δ of Thm. 5.2 with δ = 1/4 and V₁ (at most 2 pairs, at most one differing): (0, 1/4)-DP
    and no better, for every ε (Thm. 5.2, proof, Step 2).

    >>> from exactdp.builders.automaton import make_automaton
    >>> from exactdp.builders.verifier import bounded_verifier
    >>> from exactdp.analysis import profile
    >>> d = Q(1, 4)
    >>> rows = {("0", m): [("0", "0", [1 - d]), ("1", "1", [d])] for m in "01"}
    >>> rows.update({("1", m): [(m, "1", [1])] for m in "01"})
    >>> Md = make_automaton(["0", "1"], "0", rows, 2)
    >>> C = continual(Continual(Md, bounded_verifier("01", max_differing=1, max_length=2)))
    >>> [str(profile.delta_at(C, e)) for e in (0, 5)]
    ['1/4', '1/4']

    References
    ----------
    Henzinger–Safavi–Vadhan, arXiv 2411.03299, Def. 3.2, 3.3, 3.5, 3.7, Cor. 3.8.
    """
    item = MenuItem("M", cm, Q(0), Q(0))
    return _build(_Game([item], None, [0], None, True), datasets, name, max_nodes, ContinualMechanism, continual=cm)


def ext_concomp(
    menu: Sequence[MenuItem],
    rule: Rule,
    *,
    datasets: Sequence[str] = WORLDS,
    name: str = "ext_concomp",
    max_nodes: int | None = None,
) -> Mechanism:
    """V′∘I∘ExtConComp (Def. 4.2/4.3) over a finite menu with a cap on creations.

    Options are labelled ``create NAME`` (the acknowledgement ⊤ is deterministic, so it is not
    shown as an answer) and ``i:(m0,m1)`` (a pair for the i-th created instance, from 1).
    The menu's claimed parameters are taken as given (see the module docstring).

    References
    ----------
    Henzinger–Safavi–Vadhan, arXiv 2411.03299, Def. 4.1–4.4 and the definition named by
    ``rule.definition``.
    """
    menu = list(menu)
    if not menu:
        raise InvalidMechanismError("a composition needs at least one menu item")
    names = [m.name for m in menu]
    if len(set(names)) != len(names):
        raise InvalidMechanismError("menu items need distinct names")
    if rule.cap < 0:
        raise InvalidMechanismError(f"cap must be at least 0, got {rule.cap}")
    if rule.budget is not None and not (0 <= as_q(rule.budget) <= 1):
        raise InvalidMechanismError(f"the budget must lie in [0, 1], got {q_str(as_q(rule.budget))}")
    for it in menu:
        if ladder.sign(it.eps) < 0 or not (0 <= as_q(it.delta) <= 1):
            raise InvalidMechanismError(
                f"menu item {it.name!r}: claimed parameters must have eps >= 0 and delta in [0, 1]"
            )
    return _build(_Game(menu, rule, [], None, False), datasets, name, max_nodes)


def concurrent(
    components: Mapping[str, Continual] | Sequence[Continual],
    *,
    datasets: Sequence[str] = WORLDS,
    name: str = "concurrent",
    max_nodes: int | None = None,
) -> Mechanism:
    """Concurrent composition of fixed CMs M₁..M_k (Def. 4.8): the k forced creations carry no
    information and are left out; then the adversary interleaves pairs to the components
    (labelled ``NAME:(m0,m1)``), each component's pair sequence valid for its own verifier.

    References
    ----------
    Henzinger–Safavi–Vadhan, arXiv 2411.03299, Def. 4.8, Thm. 4.9.
    """
    if isinstance(components, Mapping):
        tags, cms = [str(k) for k in components], list(components.values())
    else:
        cms = list(components)
        tags = [str(i + 1) for i in range(len(cms))]
    if not cms:
        raise InvalidMechanismError("concurrent composition needs at least one continual mechanism")
    items = [MenuItem(t, c, Q(0), Q(0)) for t, c in zip(tags, cms)]
    return _build(_Game(items, None, list(range(len(items))), tags, False), datasets, name, max_nodes)


def _params_pairs(params: Sequence[tuple[Any, Any]]) -> tuple:
    out = []
    for p in params:
        if not (isinstance(p, tuple) and len(p) == 2):
            raise InvalidMechanismError(f"parameters are (eps, delta) pairs, got {p!r}")
        out.append((p[0], as_q(p[1])))
    return tuple(out)


def fixed_params(
    menu: Sequence[MenuItem], params: Sequence[tuple[Any, Any]], *, cap: int | None = None, **kw
) -> Mechanism:
    """Concurrent composition with fixed parameters (Def. 4.10): at most k = ``|params|``
    creations, chosen adaptively from the menu, whose (εᵢ, δᵢ) form a sub-multiset of
    ``params``.  Theorem 4.11 bounds it by the composition of the RR_(εᵢ,δᵢ)."""
    ps = _params_pairs(params)
    rule = Rule("4.10", len(ps) if cap is None else min(cap, len(ps)), ps, "pair", "create")
    return ext_concomp(menu, rule, **kw)


def sparse_parallel(menu: Sequence[MenuItem], params: Sequence[tuple[Any, Any]], *, cap: int, **kw) -> Mechanism:
    """Concurrent k-sparse parallel composition (Def. 5.1) with at most ``cap`` creations: the
    instances that ever receive a differing pair have parameters ⊆ ``params`` (k = ``|params|``).
    Theorem 5.2: not DP for δ > 0 — δ_comp = 1 − (1 − δ)ⁿ for n copies of M_δ."""
    rule = Rule("5.1", cap, _params_pairs(params), "pair", "differ")
    return ext_concomp(menu, rule, **kw)


def fpc_parallel(menu: Sequence[MenuItem], params: Sequence[tuple[Any, Any]], *, cap: int, **kw) -> Mechanism:
    """FPC concurrent k-sparse parallel composition (Def. 5.14): Def. 5.1 with every instance's
    verifier first-pair consistent (Def. 5.13).  Theorem 5.15 bounds it by the composition of
    the RR_(εᵢ,δᵢ)."""
    rule = Rule("5.14", cap, _params_pairs(params), "pair", "differ", first_pair_consistent=True)
    return ext_concomp(menu, rule, **kw)


def budgeted_parallel(menu: Sequence[MenuItem], eps: Sequence[Any], budget: Any, *, cap: int, **kw) -> Mechanism:
    """k-sparse parallel composition with δ-budget (Def. 5.3): the εᵢ of the instances that
    get differing pairs ⊆ ``eps``, and ∏_created (1 − δᵢ) ≥ 1 − δ̄.  Theorem 5.4: (ε, 1 − (1 − δ)(1 − δ̄))-DP
    if ⊗ RR_(εᵢ,0) is (ε, δ)-DP."""
    rule = Rule("5.3", cap, tuple(eps), "eps", "differ", budget=as_q(budget))
    return ext_concomp(menu, rule, **kw)


def budgeted(menu: Sequence[MenuItem], budget: Any, *, cap: int, **kw) -> Mechanism:
    """Adaptively created mechanisms under a δ-budget only (Def. 5.8, where every item is
    RR_(0,δᵢ) and receives one bit pair): ∏_created (1 − δᵢ) ≥ 1 − δ̄.  Lemma 5.9: (0, δ̄)-DP."""
    rule = Rule("5.8", cap, None, budget=as_q(budget), consume="create")
    return ext_concomp(menu, rule, **kw)


def mixed_budgeted(menu: Sequence[MenuItem], eps: Sequence[Any], budget: Any, *, cap: int, **kw) -> Mechanism:
    """Def. 5.10: every item has εᵢ = 0 or δᵢ = 0; the positive εᵢ of created instances form a
    sub-multiset of ``eps``; ∏_created (1 − δᵢ) ≥ 1 − δ̄.  Lemma 5.11: (ε, 1 − (1 − δ)(1 − δ̄))-DP
    if ⊗ RR_(εᵢ,0) is (ε, δ)-DP; Remark 5.12 (improved basic composition) follows."""
    for it in menu:
        if ladder.sign(it.eps) != 0 and as_q(it.delta) != 0:
            raise InvalidMechanismError(
                f"menu item {it.name!r} has eps = {ladder.text(it.eps)} and delta = {q_str(as_q(it.delta))}: "
                "Def. 5.10 allows only items with eps = 0 or delta = 0",
                hint="split it into an (eps, 0) item and a (0, delta) item",
            )
    rule = Rule("5.10", cap, tuple(eps), "eps", "create", positive_eps_only=True, budget=as_q(budget))
    return ext_concomp(menu, rule, **kw)


def basic_filter(menu: Sequence[MenuItem], eps: Any, delta: Any, *, cap: int, **kw) -> Mechanism:
    """Concurrent filter composition (Def. 10.2) with the basic filter of Rogers et al.:
    creations (chosen adaptively, parameters from the menu) must keep Σ εᵢ ≤ ε and Σ δᵢ ≤ δ;
    every instance may receive differing pairs.  Theorem 10.4: if the filter composition of
    randomized responses (Def. 10.3) is (ε′, δ′)-DP, so is that of CMs."""
    E = ladder.exp(eps)
    if not is_rational(E):
        raise InvalidMechanismError(
            f"a filter needs e^eps rational, but eps = {ladder.text(eps)}", hint="write eps as log(r)"
        )
    rule = Rule("10.2", cap, None, consume="create", filter=(as_q(E), as_q(delta)))
    return ext_concomp(menu, rule, **kw)
