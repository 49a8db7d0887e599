"""Witnesses: the adjacent pair, a deterministic adversary, the event, both probabilities.

A witness at λ = e^ε says: against this adversary, the view under x lands in the event
T = {v : P_x(v) > λ·P_x'(v)} with probability p, and under x' with probability p', so
p − λ·p' is the hockey-stick divergence it achieves (Vadhan–Wang Def. 1.7: the mechanism is
not (ε, δ)-DP whenever p > λ·p' + δ).

Before a witness is returned, p and p' are recomputed by :func:`recheck`, a forward walk of
the mechanism under the adversary that shares no code with either engine; a disagreement
raises :class:`~exactdp.errors.VerificationError`.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from ..display import RichDisplay
from ..errors import EXCERPT_CHARS, VerificationError, excerpt
from ..model.game import Ask, Chance, End, Label, Mechanism, Node, label_str, postorder
from ..numbers import INF, Infinity, ladder
from ..numbers.ladder import affine_sign, is_inf
from ..numbers.rational import Q, is_rational, q_str
from ..numbers.types import FieldValue
from .hull import Hull, line_gt
from .product import power, repeated_parts, terms, views_by_ratio
from .results import affine_at

__all__ = [
    "Policy",
    "HullPolicy",
    "HistoryPolicy",
    "Witness",
    "DetachedWitness",
    "make_witness",
    "recheck",
    "format_history",
    "tighten",
    "show_label",
]

# A witness sent between processes keeps the part of its walk that :meth:`Witness.decision_tree`
# and :meth:`Witness.event` read for any limit up to this many lines (reports use 12 and 200).
RECORDED_LINES = 200

_ONE = Q(1)
_ZERO = Q(0)

# A history is a tuple of steps: ("q", label) for a choice, ("a", label) for an answer.
History = tuple


class Policy(Protocol):
    """A deterministic adversary: the option it takes at an Ask node.

    ``aggregates`` is True when the choice depends only on (node, likelihood ratio so far),
    which lets :func:`recheck` merge histories instead of walking each one.
    """

    aggregates: bool

    def choose(self, node: Ask, history: History, ratio: Any) -> int: ...


def _gt_lambda(ratio: Any, lam: Any) -> bool:
    """ratio > λ, exactly (ratio may be INF)."""
    if is_inf(ratio):
        return True
    if is_rational(lam):
        return ratio > lam
    return ladder.cmp(ratio, lam) > 0


def _scale_lambda(lam: Any, ratio: Any) -> Any:
    """λ / ratio for a positive ratio, in the lowest domain of the number ladder that holds it."""
    return ladder.div(lam, ratio)


class HullPolicy:
    """The profile engine's adversary: at a history with likelihood ratio ρ, take the option
    whose continuation chain is highest at λ/ρ (ties: first option in file order)."""

    aggregates = True

    def __init__(self, memo: Mapping[int, Hull], lam: Any):
        self.memo = memo
        self.lam = lam
        self._cache: dict[tuple[int, Any], int] = {}

    def choose(self, node: Ask, history: History, ratio: Any) -> int:
        if is_inf(ratio) or ratio == 0:
            return 0  # every continuation is all in T (or all out of it)
        key = (node.uid, ratio)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        lam = _scale_lambda(self.lam, ratio)
        best, best_line = 0, None
        for k, child in enumerate(node.children):
            line = self.memo[child.uid].line_at(lam)
            if best_line is None or line_gt(line, best_line, lam):
                best, best_line = k, line
        self._cache[key] = best
        return best


class HistoryPolicy:
    """An adversary given explicitly: history → option index (the enumerator's strategies)."""

    aggregates = False

    def __init__(self, table: dict[History, int]):
        self.table = table

    def choose(self, node: Ask, history: History, ratio: Any) -> int:
        return self.table.get(history, 0)


def recheck(mech: Mechanism, pair: tuple[int, int], lam: Any, policy: Policy) -> tuple[Any, Any, int]:
    """Forward computation of (P_x(T), P_x'(T), ``|T|``) for the adversary ``policy``.

    Walks the mechanism from the root in topological order, carrying the probability of each
    history under x and x'; for aggregating policies histories with the same (node, ratio)
    are merged, which is exact because both the continuation and the choice depend only on
    them.  ``|T|`` counts merged states, so it is a lower bound on the number of views when
    merging happened.
    """
    fast = repeat_masses(mech, pair, lam) if policy.aggregates else None
    if fast is not None:
        return fast
    i, j = pair
    order = list(reversed(postorder(mech.root)))  # parents before children
    # Each entry is [P_x, P_x', history, ratio]: merged entries share their ratio, so it is kept
    # rather than divided again (a division in Q(e^(1/L)) costs a gcd).
    pending: dict[int, dict] = {mech.root.uid: {(_ONE if policy.aggregates else ()): [_ONE, _ONE, (), _ONE]}}
    p_t = Q(0)
    pp_t = Q(0)
    n_views = 0

    row_ratios: dict[tuple[int, int], Any] = {}

    def child_ratio(node: Chance, k: int, ratio: Any, px: Any, pxp: Any) -> Any:
        """px/pxp of an answer's history, from its parent's ratio times the answer's own
        (a division in Q(e^(1/L)) costs a gcd of long polynomials; the answers' ratios are short)."""
        if not pxp:
            return INF
        if not px:
            return _ZERO
        rr = row_ratios.get((node.uid, k))
        if rr is None:
            rr = row_ratios[(node.uid, k)] = node.probs[k][i] / node.probs[k][j]
        return ratio * rr

    def push(node: Node, px, pxp, hist, ratio) -> None:
        if not px and not pxp:
            return
        key = ratio if policy.aggregates else hist
        bucket = pending.setdefault(node.uid, {})
        cur = bucket.get(key)
        if cur is None:
            bucket[key] = [px, pxp, hist, ratio]
        else:
            cur[0] += px
            cur[1] += pxp
            if not policy.aggregates:  # two paths with one history: the merged ratio is new
                cur[3] = INF if not cur[1] else cur[0] / cur[1]

    for node in order:
        bucket = pending.pop(node.uid, None)
        if not bucket:
            continue
        for px, pxp, hist, ratio in bucket.values():
            if isinstance(node, End):
                if px and _gt_lambda(ratio, lam):
                    p_t += px
                    pp_t += pxp
                    n_views += 1
            elif isinstance(node, Ask):
                k = policy.choose(node, hist, ratio)
                h2 = () if policy.aggregates else hist + (("q", node.labels[k]),)
                push(node.children[k], px, pxp, h2, ratio)
            elif isinstance(node, Chance):
                for k, (lab, row, child) in enumerate(zip(node.labels, node.probs, node.children)):
                    h2 = () if policy.aggregates else hist + (("a", lab),)
                    cx, cxp = px * row[i], pxp * row[j]
                    push(child, cx, cxp, h2, child_ratio(node, k, ratio, cx, cxp))
    return p_t, pp_t, n_views


def repeat_masses(mech: Mechanism, pair: tuple[int, int], lam: Any) -> tuple[Any, Any, int] | None:
    """:func:`recheck` for ``repeat(M, k)``, M without choices (else None).  With at most two
    likelihood ratios r1 > r2 > 0 among M's views, a view of the k rounds with n views of ratio r1
    has ratio r1^n r2^(k - n) and probability C(k, n) P1^n P2^(k - n) under x (Q under x'); with
    more, the probabilities of the views of each ratio under x and under x' are found apart
    (:func:`~exactdp.analysis.product.views_by_ratio`: two polynomial powers, or the count
    vectors; None when it leaves them to the forward walk).  A view with a part impossible under
    x' is in T, one with a part impossible under x is not.  M's views are found by walking M
    forward, not from the engine's chains (this re-checks those)."""
    parts = repeated_parts(mech)
    classes = _view_classes(parts[0], pair) if parts and parts[1] else None
    pos = [(r, pq) for r, pq in (classes or {}).items() if not is_inf(r) and r]
    if classes is None:
        return None
    k, inf = parts[1], classes.get(INF, (_ZERO, _ZERO))[0]  # type: ignore[index]
    p_t, pp_t, count = (_ONE - power(_ONE - inf, k, None), _ZERO, 1) if inf else (_ZERO, _ZERO, 0)
    if len(pos) > 2:
        got = views_by_ratio([r for r, _ in pos], [[pq[0] for _, pq in pos], [pq[1] for _, pq in pos]], k, None)
        if got is None:
            return None
        above = [n for n, ratio in enumerate(got[0]) if _gt_lambda(ratio, lam)]  # (got[0] decreases)
        p_t, pp_t = p_t + sum((got[1][0][n] for n in above), _ZERO), pp_t + sum((got[1][1][n] for n in above), _ZERO)
        return p_t, pp_t, count + len(above)
    if len(pos) < 2:  # (one ratio r: those views have ratio r^k)
        if pos and _gt_lambda(power(pos[0][0], k, None), lam):
            p, pp = pos[0][1]
            p_t, pp_t, count = p_t + power(p, k, None), pp_t + power(pp, k, None), count + 1
        return p_t, pp_t, count
    if _gt_lambda(pos[1][0], pos[0][0]):
        pos.reverse()  # (r1 > r2)
    (r1, (p1, q1)), (r2, (p2, q2)) = pos
    for ratio, p, pp in zip(terms(r1, r2, k, None, binomial=False), terms(p1, p2, k, None), terms(q1, q2, k, None)):
        if not _gt_lambda(ratio, lam):
            break  # (the ratio decreases with n)
        p_t, pp_t, count = p_t + p, pp_t + pp, count + 1
    return p_t, pp_t, count


def _view_classes(mech: Mechanism, pair: tuple[int, int]) -> dict | None:
    """(P_x, P_x') of the views of a game without choices, by likelihood ratio (INF: impossible under
    x'; 0: under x), walking it forward; None if it has a choice."""
    i, j = pair
    pending: dict[int, dict] = {mech.root.uid: {_ONE: [_ONE, _ONE]}}
    out: dict = {}
    for node in reversed(postorder(mech.root)):
        bucket = pending.pop(node.uid, {})
        if isinstance(node, Ask):
            return None
        for ratio, (p, pp) in bucket.items():
            if isinstance(node, End):
                _add(out, ratio, p, pp)
            elif isinstance(node, Chance):
                for row, child in zip(node.probs, node.children):
                    cp, cpp = p * row[i], pp * row[j]
                    if cp or cpp:
                        _add(pending.setdefault(child.uid, {}), INF if not cpp else cp / cpp, cp, cpp)
    return out


def _add(masses: dict, ratio: Any, p: Any, pp: Any) -> None:
    cur = masses.setdefault(ratio, [_ZERO, _ZERO])
    cur[0], cur[1] = cur[0] + p, cur[1] + pp


def show_label(lab: Label) -> str:
    """A label for reading: a label longer than a short excerpt is cut (marked), so that a long
    label repeated along every history of a witness cannot blow up a report; a label that holds
    the notation's own marks (``,`` ``→`` ``"``), starts with ``(`` or is blank at an end is
    quoted, so that a one-round view answered ``0, strong→1`` never reads as two rounds; so is one
    with ``: `` (the strategy's ``after H: choose q``), a backslash or an invisible or control
    character (a tab would print as the escape ``\t``, like the label written ``\t``)."""
    text = label_str(lab)
    text = text if len(text) <= EXCERPT_CHARS else excerpt(text, quote=False)
    needs = not text.strip() or text != text.strip() or text.startswith("(") or ": " in text
    needs = needs or any(c in ',→"\\' or unicodedata.category(c)[0] in "CZ" and c != " " for c in text)
    return json.dumps(text, ensure_ascii=False) if needs else text


def format_history(hist: History) -> str:
    """``q0→yes, q1→no``: a query with its answer; an answer with no query before it (the
    mechanism spoke) or a choice with no answer after it (e.g. picking a mechanism) prints alone."""
    parts: list[str] = []
    pending_q: str | None = None
    for kind, lab in hist:
        if kind == "q":
            if pending_q is not None:
                parts.append(pending_q)
            pending_q = show_label(lab)
        else:
            parts.append((pending_q + "→" if pending_q is not None else "") + show_label(lab))
            pending_q = None
    if pending_q is not None:
        parts.append(pending_q)
    return ", ".join(parts) if parts else "(start)"


@dataclass(frozen=True, eq=False)
class Witness(RichDisplay):
    """An adversary achieving the hockey-stick divergence p − λ·p' on the pair (x, x').

    Attributes
    ----------
    mechanism : Mechanism
    pair : (int, int)
        Indices of (x, x') in ``mechanism.datasets``.
    lam : exact real
        λ = e^ε.
    policy : Policy
        The deterministic adversary.
    p, p_prime : rational
        Pr[View(A, M(x)) ∈ T] and Pr[View(A, M(x')) ∈ T], recomputed independently.
    source : str
        The engine that found the adversary.
    tight : (λ*, δ), optional
        Set for a tightness certificate of PrivLoss(M, δ) = log λ*: the same adversary and event
        satisfy p − λ*·p' ≥ δ with p' > 0, so every ε < log λ* fails (for λ* = ∞: p > δ with
        p' = 0, so no finite ε works).  See :func:`tighten`.
    """

    mechanism: Mechanism
    pair: tuple[int, int]
    lam: Any
    policy: Policy
    p: Any
    p_prime: Any
    source: str
    tight: tuple[FieldValue | Infinity, FieldValue] | None = None

    @property
    def pair_names(self) -> tuple[str, str]:
        return self.mechanism.pair_names(self.pair)

    def excess(self) -> Any:
        """p − λ·p' (rational when λ is; an element of ℚ(e^{1/L}) for field values)."""
        if is_rational(self.lam):
            return self.p - self.lam * self.p_prime

        return affine_at(self.p, self.p_prime, self.lam)

    def walk(self, limit: int = 10_000):
        """Yield ("choice", history, label) and ("view", history, P_x, P_x', in_T) in
        depth-first file order, for at most ``limit`` histories."""
        for _count, step in self._steps(limit):
            if step[0] != "chance":
                yield step

    def _steps(self, limit: int):
        """:meth:`walk` with every history counted: (count, step), where an answer node is a
        ("chance", history, ...) step."""
        i, j = self.pair
        stack: list[tuple[Node, History, Any, Any]] = [(self.mechanism.root, (), _ONE, _ONE)]
        count = 0
        while stack:
            node, hist, px, pxp = stack.pop()
            count += 1
            if count > limit:
                yield count, ("truncated", hist, None, None, None)
                return
            ratio = INF if not pxp else px / pxp
            if isinstance(node, End):
                yield count, ("view", hist, px, pxp, bool(px) and _gt_lambda(ratio, self.lam))
            elif isinstance(node, Ask):
                k = self.policy.choose(node, hist, ratio)
                yield count, ("choice", hist, node.labels[k], None, None)
                stack.append((node.children[k], hist + (("q", node.labels[k]),), px, pxp))
            elif isinstance(node, Chance):
                yield count, ("chance", hist, None, None, None)
                kids = []
                for lab, row, child in zip(node.labels, node.probs, node.children):
                    a, b = px * row[i], pxp * row[j]
                    if a or b:
                        kids.append((child, hist + (("a", lab),), a, b))
                stack.extend(reversed(kids))

    def decision_tree(self, limit: int = 40) -> tuple[list[str], bool]:
        """Readable strategy lines ``after <history>: ask <option>``; bool: truncated."""
        lines: list[str] = []
        for kind, hist, lab, _, _ in self.walk(limit=20 * limit):
            if kind == "truncated":
                return lines, True
            if kind == "choice":
                if len(lines) >= limit:
                    return lines, True
                lines.append(f"after {format_history(hist)}: choose {show_label(lab)}")
        return lines, False

    def event(self, limit: int = 20) -> tuple[list[tuple[str, Any, Any]], bool]:
        """Views in T as (history text, P_x, P_x'); bool: truncated."""
        out: list[tuple[str, Any, Any]] = []
        for kind, hist, px, pxp, in_t in self.walk(limit=50 * limit):
            if kind == "truncated":
                return out, True
            if kind == "view" and in_t:
                if len(out) >= limit:
                    return out, True
                out.append((format_history(hist), px, pxp))
        return out, False

    def __reduce__(self) -> tuple:
        """Pickled as a :class:`DetachedWitness`: the pair, λ, p, p' and the steps of the walk
        that reports read (up to :data:`RECORDED_LINES` lines), not the mechanism and the
        engine's memo (results of worker processes would otherwise carry whole game DAGs)."""
        return (
            _detached,
            (self.pair_names, self.pair, self.lam, self.p, self.p_prime, self.source, self._record(), self.tight),
        )

    def _record(self) -> tuple:
        """The steps that :meth:`decision_tree` and :meth:`event` use (choices and views in T,
        with their counts), up to where both have stopped for :data:`RECORDED_LINES` lines."""
        n = RECORDED_LINES
        # decision_tree(n) stops at the (n+1)-th choice or after 20n histories; event(n) at the
        # (n+1)-th view in T or after 50n histories
        choices = views = 0
        tree_done = event_done = False
        out: list[tuple[int, tuple]] = []
        count = 0
        for count, step in self._steps(50 * n):
            kind = step[0]
            if kind == "truncated" or kind == "choice" or (kind == "view" and step[4]):
                out.append((count, step))
            choices += kind == "choice"
            views += kind == "view" and bool(step[4])
            tree_done = tree_done or choices > n or count > 20 * n
            event_done = event_done or views > n
            if tree_done and event_done and kind != "truncated":
                out.append((count + 1, ("truncated", (), None, None, None)))
                break
        else:  # the walk ended: a replay with a smaller limit must still see that it was cut
            if not out or out[-1][1][0] != "truncated":
                out.append((count, ("end", (), None, None, None)))
        return tuple(out)

    def summary(self) -> str:
        x, xp = self.pair_names
        return (
            f"pair ({x}, {xp}); Pr[T | {x}] = {q_str(self.p)}, Pr[T | {xp}] = {q_str(self.p_prime)}, "
            f"Pr[T | {x}] - e^eps Pr[T | {xp}] = {ladder.text(self.excess())}"
        )


@dataclass(frozen=True, eq=False)
class DetachedWitness(Witness):
    """A witness without its mechanism: :meth:`walk` replays the recorded steps (the adversary's
    choices and the views in T), so :meth:`decision_tree` and :meth:`event` give what the
    original gave for any limit up to :data:`RECORDED_LINES` (every limit the reports use)."""

    names: tuple[str, str] = ("x", "x'")
    steps: tuple = ()  # (count, step) as :meth:`Witness._steps` gave them

    @property
    def pair_names(self) -> tuple[str, str]:
        return self.names

    def _steps(self, limit: int):
        for count, step in self.steps:
            if count > limit and step[0] != "truncated":
                yield count, ("truncated", step[1], None, None, None)
                return
            if step[0] == "end":
                return
            yield count, step
            if step[0] == "truncated":
                return

    def _record(self) -> tuple:
        return self.steps


def _detached(names, pair, lam, p, p_prime, source, steps, tight=None) -> DetachedWitness:
    return DetachedWitness(None, pair, lam, None, p, p_prime, source, tight=tight, names=tuple(names), steps=steps)  # type: ignore[arg-type]


def make_witness(
    mech: Mechanism,
    pair: tuple[int, int],
    lam: Any,
    policy: Policy,
    source: str,
    *,
    expected_line: tuple[Any, Any] | None = None,
) -> Witness:
    """Recompute T's probabilities independently and build the witness.

    ``expected_line`` is the engine's (A, B) with δ(λ) = A − λB; the recomputed p − λp' must
    equal it exactly, else :class:`VerificationError`.
    """
    p, pp, _ = recheck(mech, pair, lam, policy)
    if expected_line is not None:
        a, b = expected_line
        ok = affine_sign(a - p, b - pp, lam) == 0
        if not ok:
            raise VerificationError(
                f"witness re-check failed on pair {mech.pair_names(pair)} at lambda={ladder.text(lam)}: "
                f"engine said {q_str(a)} - lambda*{q_str(b)}, forward computation gives {q_str(p)} - lambda*{q_str(pp)}"
            )
    return Witness(mech, pair, lam, policy, p, pp, source)


def tighten(w: Witness, lam_star: FieldValue | Infinity, delta: FieldValue) -> Witness:
    """State witness ``w`` at λ* = e^{PrivLoss(M, δ)}: the tightness certificate.

    The event T of ``w`` was chosen optimal at some λ_w < λ* on the last linear piece of the
    profile before λ*, so the same (adversary, T) attains that piece's line at λ*:
    P(T) − λ*·P'(T) = δ_M(λ*) = δ, with P'(T) > 0 because the profile strictly decreases
    there.  Then P(T) − λ·P'(T) > δ for every λ < λ*: no ε below log λ* gives (ε, δ)-DP
    (Vadhan–Wang Def. 1.7).  For λ* = ∞, T is the mass invisible under x' with P(T) > δ.
    Both conditions are re-checked here on the independently recomputed p and p'.
    """
    if is_inf(lam_star):
        ok = w.p_prime == 0 and ladder.cmp(w.p, delta) > 0
    else:
        ok = w.p_prime > 0 and affine_sign(w.p - delta, w.p_prime, lam_star) >= 0
    if not ok:
        raise VerificationError(
            f"tightness re-check failed on pair {w.pair_names}: Pr[T|x] = {q_str(w.p)}, Pr[T|x'] = {q_str(w.p_prime)}, "
            f"lambda* = {ladder.text(lam_star)}, delta = {q_str(delta)}"
        )

    return replace(w, tight=(lam_star, delta))
