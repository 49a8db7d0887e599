r"""Rényi divergences of any real order α > 1 (and KL), as certified enclosures.

For an order α that is not a whole number — or for probabilities in ℚ(e^{1/L}) where
log(S)/(α − 1) has no exact form — D_α(M) is transcendental in general, so exactdp gives a
*certified enclosure*: an interval [lo, hi] with exact binary-rational ends that provably
contains the value, computed in Arb's ball arithmetic (python-flint; Johansson 2017), whose
every operation returns a ball containing the exact result.  Decisions are taken only when the
interval lies on one side of the number compared with, else the precision is raised; what stays
undecided is reported as undecided, never guessed.

The computation is the backward induction of :mod:`exactdp.analysis.renyi`, written with
likelihood ratios: for a deterministic adversary the Rényi sum of an ordered pair (x, x') is

.. math::  S(\alpha) = \sum_v P_x(v)^\alpha P_{x'}(v)^{1-\alpha} = \sum_v P_{x'}(v)\,\rho_v^{\alpha},
           \qquad \rho_v = P_x(v)/P_{x'}(v),

which factorises along the game: an answer node gives Σ_a p'_a ρ_a^α S(child_a) (ρ_a = p_a/p'_a
computed exactly, ρ_a^α = exp(α log ρ_a) in Arb, and 1 exactly when ρ_a = 1), an adversary
choice the max of its options (the max of two balls is a ball containing the max), the end of
the interaction 1.  Deterministic adversaries suffice (Mironov 2017; a randomized adversary's
sum is an average).  An answer possible under x but not under x' makes D_α = ∞ for every α > 1,
decided exactly.  α may itself be a ball: the enclosure then holds for every α in it.

KL (α = 1) is Σ_v P_x(v) log ρ_v, by the same induction (Σ_a p_a (log ρ_a + KL(child_a))).

The *attaining adversary* takes, at every choice, the option with the largest sum; since the
sum factorises its choice depends on the node only.  :func:`recheck_sum` recomputes that
adversary's sum by an independent forward walk over the views (merging histories with the same
node and likelihood ratio), which gives a certified lower bound on the sup.

References
----------
I. Mironov, *Rényi Differential Privacy*, CSF 2017, Def. 3–4 and Prop. 1–2 (monotone in α).
F. Johansson, *Arb: efficient arbitrary-precision midpoint-radius interval arithmetic*, IEEE
Trans. Computers 66(8), 2017.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import InexactValueError, VerificationError
from ..lazy import mpmath
from ..model.game import Ask, Chance, End, Mechanism, Node, postorder
from ..numbers import ladder
from ..numbers.certified import _load, arb_prec
from ..numbers.rational import Q, is_rational, q_str, to_fraction
from .gdp import Enclosure as _Enclosure
from .witness import format_history, show_label

__all__ = [
    "DEFAULT_PREC",
    "MAX_PREC",
    "Enclosure",
    "RenyiPolicy",
    "PairBall",
    "arb_prec",
    "to_arb",
    "bounds",
    "renyi_balls",
    "recheck_sum",
    "attained_views",
    "RenyiWitness",
    "enclosure_text",
]

DEFAULT_PREC = 64
MAX_PREC = 1 << 13
"""Arb precisions tried (bits, doubling); beyond MAX_PREC a comparison is undecided."""


def to_arb(x: Any, prec: int) -> Any:
    """An Arb ball containing the exact finite value x (a rational or an element of ℚ(e^{1/L})):
    a rational at the working precision in force (``prec`` is for the others)."""
    if is_rational(x):
        f = to_fraction(x)
        flint = _load()
        return flint.arb(flint.fmpq(f.numerator, f.denominator))
    return ladder.ball(x, prec)


def _dyadic(x: Any) -> Fraction:
    m, e = x.man_exp()
    return Fraction(int(m)) * Fraction(2) ** int(e)


def bounds(ball: Any) -> tuple[Fraction, Fraction]:
    """(lo, hi): exact binary rationals with lo ≤ every value of the ball ≤ hi;
    :class:`~exactdp.errors.InexactValueError` for a ball that is not finite (a value beyond
    Arb's reach at this precision, such as a sum at an order with thousands of digits)."""
    if not ball.is_finite():
        raise InexactValueError("a certified enclosure of this value is not finite at the working precision")
    return _dyadic(ball.lower()), _dyadic(ball.upper())


@dataclass(frozen=True)
class Enclosure(_Enclosure):
    """A certified interval [lo, hi] (exact rationals) containing a real number; ``exact`` holds
    the number itself when it is known exactly (then lo = hi = exact for rationals).  An
    enclosure as :mod:`exactdp.analysis.gdp` has them, so reports show and export it alike."""

    lo: Fraction
    hi: Fraction
    exact: Any = None

    def width(self) -> Fraction:
        return self.hi - self.lo

    def cmp(self, x: Any) -> int | None:
        """−1 / +1 when the whole interval is below / above the exact rational x, 0 when the
        value is exactly x, None when undecided at this precision."""
        fx = to_fraction(x)
        if self.exact is not None and is_rational(self.exact):
            v = to_fraction(self.exact)
            return (v > fx) - (v < fx)
        if self.hi < fx:
            return -1
        if self.lo > fx:
            return 1
        return None


def enclosure_text(e: Enclosure, digits: int = 12) -> str:
    """``[0.847297860387, 0.847297860388]``: ends rounded outward to ``digits`` significant digits."""
    with mpmath.workdps(digits + 5):
        lo = mpmath.mpf(e.lo.numerator) / e.lo.denominator
        hi = mpmath.mpf(e.hi.numerator) / e.hi.denominator
        lo_s = mpmath.nstr(lo - abs(lo) * mpmath.mpf(10) ** (-digits), digits)
        hi_s = mpmath.nstr(hi + abs(hi) * mpmath.mpf(10) ** (-digits), digits)
    return f"[{lo_s}, {hi_s}]"


# --- the induction ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairBall:
    """One ordered pair: a ball containing the sup over adversaries of S(α) (or of KL), or
    ``None`` when some adversary sees an answer impossible under x' (D_α = ∞), and the
    attaining adversary's choices."""

    pair: tuple[int, int]
    ball: Any
    policy: RenyiPolicy


class RenyiPolicy:
    """The attaining adversary: at each choice node, the option with the largest sum."""

    aggregates = True

    def __init__(self, table: dict[int, int]):
        self.table = table

    def choose(self, node: Ask, history: tuple, ratio: Any) -> int:
        return self.table.get(node.uid, 0)


def _ratio_power(rho: Any, alpha: Any, prec: int, cache: dict) -> Any:
    """ρ^α as a ball (1 exactly for ρ = 1), once per distinct ratio (α is fixed per induction)."""
    if rho == 1:
        return _load().arb(1)
    pw = cache.get(rho)
    if pw is None:
        pw = cache[rho] = (alpha * to_arb(rho, prec).log()).exp()
    return pw


def _better(a: Any, b: Any) -> bool:
    """Whether ball b is certainly a better option than ball a.  Overlapping balls keep a, the
    earlier option: equal values (symmetric copies, say) differ only by rounding, which depends on
    the working precision, so comparing midpoints made the chosen adversary depend on it."""
    return bool(b > a)


def renyi_balls(mech: Mechanism, alpha: Any, prec: int = DEFAULT_PREC, *, kl: bool = False) -> list[PairBall]:
    """For every ordered pair of ``mech.ordered_pairs``: a ball containing the sup over adaptive
    adversaries of S(α) (``kl``: of KL), with the attaining adversary (module docstring).

    ``alpha`` is an exact rational > 1 or an Arb ball (then the result holds for every α in it);
    ignored for ``kl``."""
    with arb_prec(prec) as flint:
        a = alpha if kl or not (is_rational(alpha)) else to_arb(alpha, prec)
        out = []
        order = postorder(mech.root)
        log_cache: dict = {}  # ρ -> ρ^α (or log ρ for KL), shared by the pairs
        for i, j in mech.ordered_pairs:
            vals: dict[int, Any] = {}
            table: dict[int, int] = {}
            infinite = False
            for node in order:
                if isinstance(node, End):
                    vals[node.uid] = flint.arb(0 if kl else 1)
                elif isinstance(node, Ask):
                    best_k, best = None, None
                    for k, c in enumerate(node.children):
                        v = vals[c.uid]
                        if v is None:
                            best_k, best = k, None
                            break
                        if best is None or _better(best, v):
                            best_k, best = k, v
                    if best is not None:
                        best = _max_all([vals[c.uid] for c in node.children])
                    vals[node.uid] = best
                    table[node.uid] = best_k if best_k is not None else 0
                elif isinstance(node, Chance):
                    vals[node.uid] = _chance(node, vals, i, j, a, prec, log_cache, kl)
            root = vals[mech.root.uid]
            infinite = root is None
            out.append(PairBall((i, j), None if infinite else root, RenyiPolicy(table)))
        return out


def _max_all(balls: list[Any]) -> Any:
    m = balls[0]
    for b in balls[1:]:
        m = m.max(b)
    return m


def _chance(node: Chance, vals: dict, i: int, j: int, a: Any, prec: int, log_cache: dict, kl: bool) -> Any:
    flint = _load()
    acc = flint.arb(0)
    for row, child in zip(node.probs, node.children):
        p, pp = row[i], row[j]
        if not p:
            continue
        if not pp:
            return None
        v = vals[child.uid]
        if v is None:
            return None
        rho = p / pp
        if kl:
            lg = log_cache.get(rho)
            if lg is None:
                lg = log_cache[rho] = flint.arb(0) if rho == 1 else to_arb(rho, prec).log()
            acc += to_arb(p, prec) * (lg + v)
        else:
            acc += to_arb(pp, prec) * _ratio_power(rho, a, prec, log_cache) * v
    return acc


# --- the attaining adversary, re-checked ---------------------------------------------------------


def attained_views(mech: Mechanism, pair: tuple[int, int], policy: RenyiPolicy) -> list[tuple[Any, Any]] | None:
    """The views of the adversary ``policy`` on ``pair`` with P_x > 0, as exact (P_x, P_x'), by a
    forward walk that shares no code with :func:`renyi_balls`: histories are carried with their
    exact probabilities under x and x', merged when they reach the same node with the same
    likelihood ratio (their futures and the adversary's choices are then the same).  ``None``
    when a view has P_x > 0 = P_x'."""
    i, j = pair
    one = Q(1)
    pending: dict[int, dict[Any, list]] = {mech.root.uid: {one: [one, one, one]}}
    answer_ratio: dict[tuple[int, int], Any] = {}
    views: list[tuple[Any, Any]] = []
    for node in reversed(postorder(mech.root)):
        bucket = pending.pop(node.uid, None)
        if not bucket:
            continue
        for px, pxp, ratio in bucket.values():
            if isinstance(node, End):
                if px:
                    if not pxp:
                        return None
                    views.append((px, pxp))
            elif isinstance(node, Ask):
                _push(pending, node.children[policy.choose(node, (), None)], px, pxp, ratio)
            elif isinstance(node, Chance):
                for k, (row, child) in enumerate(zip(node.probs, node.children)):
                    a, b = px * row[i], pxp * row[j]
                    # px/pxp carried as the parent's ratio times the answer's, each answer's divided
                    # once (a division of long polynomials in Q(e^(1/L)) costs a gcd)
                    if a and b and (node.uid, k) not in answer_ratio:
                        answer_ratio[node.uid, k] = row[i] / row[j]
                    _push(pending, child, a, b, ratio * answer_ratio[node.uid, k] if a and b else None)
    return views


def recheck_sum(
    mech: Mechanism, pair: tuple[int, int], policy: RenyiPolicy, alpha: Any, prec: int, *, kl: bool = False
) -> Any:
    """The sum S(α) (or KL) of the adversary ``policy`` on ``pair`` from its views
    (:func:`attained_views`): each view adds P_x' ρ^α (KL: P_x log ρ).  ``None`` when a view has
    P_x > 0 = P_x'."""
    views = attained_views(mech, pair, policy)
    if views is None:
        return None
    with arb_prec(prec) as flint:
        a = to_arb(alpha, prec) if not kl and is_rational(alpha) else alpha
        total = flint.arb(0)
        for px, pxp in views:
            rho = px / pxp
            if kl:
                total += to_arb(px, prec) * (flint.arb(0) if rho == 1 else to_arb(rho, prec).log())
            else:
                total += to_arb(pxp, prec) * (flint.arb(1) if rho == 1 else (a * to_arb(rho, prec).log()).exp())
        return total


def _push(pending: dict, node: Node, px: Any, pxp: Any, ratio: Any) -> None:
    if not px and not pxp:
        return
    key = ("inf", node.uid) if not pxp else ratio if px else Q(0)
    bucket = pending.setdefault(node.uid, {})
    cur = bucket.get(key)
    if cur is None:
        bucket[key] = [px, pxp, key]
    else:
        cur[0] += px
        cur[1] += pxp


def _rebuilt_witness(mech: Mechanism, pair: tuple, alpha: Any, table: dict, total: Any, what: str) -> RenyiWitness:
    """A :class:`RenyiWitness` from its pickled form (choices by position in ``postorder``)."""
    nodes = list(postorder(mech.root))
    return RenyiWitness(mech, pair, alpha, RenyiPolicy({nodes[k].uid: c for k, c in table.items()}), total, what)


@dataclass(frozen=True, eq=False)
class RenyiWitness:
    """The adversary attaining a Rényi sum on one ordered pair, with its own sum recomputed
    independently (a certified enclosure, or the exact value for whole orders)."""

    mechanism: Mechanism
    pair: tuple[int, int]
    alpha: Any
    policy: RenyiPolicy
    total: Any  # exact sum, ``Enclosure`` of it, or None (infinite)
    what: str = "sum P^alpha P'^(1-alpha)"

    def __reduce__(self) -> tuple:
        """Pickled (to another process) with the choices keyed by position in the game rather
        than by node id: ids are per process, so a table of ids would point nowhere there."""
        where = {n.uid: k for k, n in enumerate(postorder(self.mechanism.root))}
        table = {where[u]: c for u, c in self.policy.table.items() if u in where}
        return (_rebuilt_witness, (self.mechanism, self.pair, self.alpha, table, self.total, self.what))

    @property
    def pair_names(self) -> tuple[str, str]:
        return self.mechanism.pair_names(self.pair)

    def decision_tree(self, limit: int = 40) -> tuple[list[str], bool]:
        """``after <history>: choose <option>`` lines, depth first, at most ``limit``."""
        lines: list[str] = []
        i, j = self.pair
        stack: list[tuple[Node, tuple, Any, Any]] = [(self.mechanism.root, (), Q(1), Q(1))]
        seen = 0
        while stack:
            node, hist, px, pxp = stack.pop()
            seen += 1
            if seen > 50 * limit:
                return lines, True
            if isinstance(node, Ask):
                k = self.policy.choose(node, hist, None)
                if len(lines) >= limit:
                    return lines, True
                lines.append(f"after {format_history(hist)}: choose {show_label(node.labels[k])}")
                stack.append((node.children[k], hist + (("q", node.labels[k]),), px, pxp))
            elif isinstance(node, Chance):
                kids = []
                for lab, row, child in zip(node.labels, node.probs, node.children):
                    a, b = px * row[i], pxp * row[j]
                    if a or b:
                        kids.append((child, hist + (("a", lab),), a, b))
                stack.extend(reversed(kids))
        return lines, False

    def render_lines(self, indent: str = "      ") -> list[str]:

        x, xp = self.pair_names
        if self.total is None:
            shown = "inf (a view is possible under the first dataset only)"
        elif isinstance(self.total, Enclosure):
            shown = f"in {enclosure_text(self.total)}"
        else:
            shown = f"= {ladder.short(self.total)}"
        out = [
            f"{indent}attaining adversary (re-checked independently by a forward walk): datasets ({x}, {xp}), "
            f"its {self.what} {shown}"
        ]
        tree, cut = self.decision_tree(12)
        if tree:
            out.extend(f"{indent}  {t}" for t in tree)
            if cut:
                out.append(f"{indent}  ... (strategy continues)")
        else:
            out.append(f"{indent}  no choices to make")
        return out

    def to_dict(self) -> dict[str, Any]:

        tree, cut = self.decision_tree(200)
        d: dict[str, Any] = {
            "kind": "renyi",
            "pair": list(self.pair_names),
            "strategy": tree,
            "strategy_truncated": cut,
        }
        if self.total is None:
            d["total"] = "inf"
        elif isinstance(self.total, Enclosure):
            d["total_interval"] = [q_str(self.total.lo), q_str(self.total.hi)]
        else:
            d["total"] = ladder.text(self.total)
        d["rechecked"] = True
        return d


def check_recheck(ball: Any, again: Any, what: str) -> None:
    """The forward walk's ball must overlap the induction's (they enclose the same number)."""
    if again is None or ball is None:
        if (again is None) != (ball is None):
            raise VerificationError(f"Renyi re-check failed: {what}: one computation is infinite, the other not")
        return
    if not ball.overlaps(again):
        raise VerificationError(f"Renyi re-check failed: {what}: {ball} and {again} are disjoint")


__all__.append("check_recheck")
