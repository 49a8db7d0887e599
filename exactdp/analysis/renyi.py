r"""Exact Rényi divergence of interactive mechanisms against every adaptive adversary.

For an order α > 1 the Rényi divergence of the views of an adversary A on adjacent datasets
x, x' is D_α = log(Σ_v P(v)^α P'(v)^{1−α}) / (α − 1) (Mironov 2017, Def. 3), and M is
(α, ε)-RDP when the sup over ordered adjacent pairs and adversaries is at most ε.

*Deterministic adversaries suffice.*  A randomized adversary's view contains its coins, so its
sum Σ_v P^α P'^{1−α} is an average of deterministic adversaries' sums, never larger than the
largest (as in Vadhan–Wang 2021, Lemma 2.2).  For a deterministic adversary the sum factorises
along the game tree, so the sup is a backward induction:

* an answer node gives Σ_a p_a^α p'_a^{1−α} · S(child_a): 0 for p_a = 0, ∞ for p_a > 0 = p'_a;
* an adversary choice takes the max of its options' S;
* the end of the interaction gives S = 1.

For an integer α ≥ 2 every step is rational (or in ℚ(e^{1/L}) for decimal ε), so S is exact and
D_α = log(S)/(α − 1) is an exact :class:`~exactdp.numbers.loglinear.LogLinear` value.
α = ∞ is D_∞ = PrivLoss(M, 0).  α = 1 is the KL divergence Σ_v P(v) log(P(v)/P'(v)), by the
same induction with a linear form in logarithms (KL(child) enters as p_a · KL(child_a)), maxima
decided by exact comparison of linear forms.  Other orders are refused: their sums are
irrational.

References
----------
Mironov, *Rényi Differential Privacy*, CSF 2017, Def. 3–4.
Lyu, *Composition Theorems for Interactive Differential Privacy*, NeurIPS 2022 (Rényi DP of
interactive mechanisms and their concurrent composition).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar, overload

from ..display import RichDisplay
from ..errors import ArgumentError, InexactValueError, LimitExceededError
from ..limits import check_bits, current
from ..model.checks import list_arg, shown_arg, takes_mechanism
from ..model.flat import flat_of
from ..model.game import Ask, Chance, End, Mechanism, postorder
from ..numbers import INF, Infinity, ladder
from ..numbers.expr import ExprError, eval_text
from ..numbers.ladder import QT, is_inf
from ..numbers.loglinear import LogLinear, coprime_basis, ll_sign, log_linear
from ..numbers.logsum import log_sum, ls_add, ls_neg, ls_scale, ls_sign
from ..numbers.rational import Q, as_q, is_rational, to_fraction
from ..numbers.types import FieldValue, PrivLossValue, Rational
from .induction import power_sums
from .profile import pure_lambda
from .results import privloss_from_lambda

__all__ = [
    "RenyiResult",
    "PairRenyi",
    "parse_alpha",
    "alpha_str",
    "divergence_from_sum",
    "renyi",
    "renyi_sums",
    "kl_terms",
    "max_value",
    "result_from_sums",
    "RenyiSum",
    "Divergence",
    "RenyiCurve",
    "renyi_curve",
    "RENYI_ORDERS",
]

RenyiSum: TypeAlias = FieldValue | LogLinear | Infinity
"""One ordered pair's sup: Σ_v P^α P'^{1−α} in ℚ(e^{1/L}) (α ≥ 2), a KL value (α = 1), or INF."""

Divergence: TypeAlias = PrivLossValue | LogLinear
"""D_α: a rational, s + log(r), a rational multiple of logs such as ``log(61/9)/2``, or INF."""

_PowerSum: TypeAlias = FieldValue | Infinity
"""Σ_v P^α P'^{1−α} for an integer α ≥ 2 during the induction."""

_KL: TypeAlias = tuple[Rational, dict[int, Rational]]
"""A KL value during the induction: (s, {basis element: coefficient}) over one coprime basis."""

_Rows: TypeAlias = Sequence[Sequence[FieldValue]]
"""An answer node's probabilities: rows[k][d] = Pr[answer k] under dataset d."""


def parse_alpha(alpha: object, call: str = "renyi") -> int | Infinity:
    """The order α as an int ≥ 1 or ``INF``; other orders are refused with a clear message that
    names ``call``.

    Raises
    ------
    ArgumentError
        For α < 1 or a non-integer α (its Rényi sum is irrational and exactdp keeps every
        number exact; a case file's ``renyi`` claim decides a fractional order by a certified
        enclosure instead).
    """
    where = lambda: f"{call}: alpha={shown_arg(alpha)}"  # noqa: E731  (only for a message: a repr can be costly)
    try:
        value = eval_text(alpha) if isinstance(alpha, str) else alpha  # ("3/2", "inf": the number grammar)
        value = ladder.from_float(value) if isinstance(value, float) else value  # (2.0: exactly 2)
        if is_inf(value):
            return INF
        f = to_fraction(as_q(value))
    except (TypeError, ValueError, ExprError):
        raise ArgumentError(f"{where()} is not an order: expected a whole number >= 1 (1 is KL) or inf") from None
    if f.denominator != 1 or f < 1:
        raise ArgumentError(
            f"{where()} is not supported: {call} computes Renyi divergences exactly for whole orders alpha >= 1 "
            "(1 is KL) and alpha = inf, and the sum for another order is irrational; a renyi claim in a case "
            "file compares a real order > 1 with a bound by a certified enclosure"
        )
    return int(f)


def alpha_str(alpha: int | Infinity) -> str:
    return ladder.text(alpha)


@dataclass(frozen=True)
class PairRenyi:
    """One ordered pair (x, x'): the sup over adversaries of Σ_v P_x^α P_x'^{1−α} (α ≥ 2) or of
    KL(P_x ‖ P_x') (α = 1); ``INF`` when some view is possible under x only."""

    pair: tuple[str, str]
    total: RenyiSum


@dataclass(frozen=True)
class RenyiResult:
    """D_α(M) = sup over ordered adjacent pairs and adaptive adversaries (module docstring)."""

    mechanism: str
    alpha: int | Infinity
    value: Divergence
    pairs: tuple[PairRenyi, ...] = ()

    def worst_pair(self) -> PairRenyi | None:
        """The first ordered pair attaining the maximum (None for α = ∞)."""
        best = None
        for pp in self.pairs:
            if best is None or max_value(best.total, pp.total) is not best.total:
                best = pp
        return best


@overload
def max_value(a: _PowerSum, b: _PowerSum) -> _PowerSum: ...
@overload
def max_value(a: RenyiSum, b: RenyiSum) -> RenyiSum: ...
def max_value(a: RenyiSum, b: RenyiSum) -> RenyiSum:
    """The larger of two sums/divergences (INF is largest); ``a`` on ties."""
    if is_inf(a):
        return a
    if is_inf(b):
        return b
    return a if not b > a else b  # exact on every rung (the ladder's order)


def divergence_from_sum(total: RenyiSum, alpha: int | Infinity) -> Divergence:
    """D_α from the sup of the Rényi sum: log(S)/(α − 1), exactly; α = 1 passes KL through.

    For α ≥ 3 and S in ℚ(e^{1/L}) (a decimal ε) the value is the exact
    :class:`~exactdp.numbers.logsum.LogSum` log(S)/(α − 1), compared exactly in the field
    where it can be and by certified intervals otherwise (:mod:`exactdp.numbers.logsum`).
    """
    if is_inf(total):
        return total
    if alpha == 1:  # the canonical type: a rational or s + log(r) when the form collapses to one
        return ladder.add(Q(0), total)
    assert isinstance(alpha, int)
    if ladder.domain_of(total) is QT and alpha > 2:
        return log_sum(Q(0), ((total, Q(1, alpha - 1)),))
    lg = ladder.log(total)
    return lg if alpha == 2 else ladder.mul(Q(1, alpha - 1), lg)


def _power_ratio(p: FieldValue, pp: FieldValue, alpha: int, max_bits: int) -> FieldValue:
    """p^α · p'^{1−α} for p, p' > 0, refused before it is computed when it would be larger than
    ``max_bits`` (α multiplies the size of p and p')."""
    bits = (ladder.bits(p) + ladder.bits(pp)) * alpha
    if bits > max_bits:
        check_bits(bits, f"a term p^{ladder.short(alpha)} p'^(1 - alpha) of a Renyi sum")
    return p**alpha / pp ** (alpha - 1)


def kl_terms(p: FieldValue, pp: FieldValue) -> LogLinear:
    """p·log(p/p') as a linear form (rational p, p' > 0)."""
    if not (is_rational(p) and is_rational(pp)):
        raise InexactValueError(
            "KL divergence (alpha = 1) of a mechanism with decimal eps has no exact form here; "
            "write eps as log(r) or use an integer alpha >= 2"
        )
    return log_linear(Q(0), [(as_q(p) / as_q(pp), p)])


def _answers(probs: _Rows, children_vals: Sequence[Any], i: int, j: int) -> list[tuple[Any, Any, Any]] | None:
    """The answers with p > 0 as (p, p', the child's value); None when one of them makes the
    divergence infinite (p' = 0 where p > 0, or an infinite child)."""
    out = []
    for row, v in zip(probs, children_vals):
        p, pp = row[i], row[j]
        if not p:
            continue
        if not pp or is_inf(v):
            return None
        out.append((p, pp, v))
    return out


def _chance_sum(probs: _Rows, children_vals: Sequence[_PowerSum], i: int, j: int, alpha: int) -> _PowerSum:
    answers = _answers(probs, children_vals, i, j)
    if answers is None:
        return INF
    acc: FieldValue = Q(0)
    max_bits = current().max_bits
    for p, pp, v in answers:
        acc = acc + _power_ratio(p, pp, alpha, max_bits) * v
    if ladder.bits(acc) > max_bits:
        check_bits(ladder.bits(acc), "a Renyi sum")
    return acc


class _LogBasis:
    """One coprime basis for every likelihood ratio of a mechanism, so that KL values are
    vectors of rational coefficients over a fixed basis: sums are exact coefficient-wise
    additions, and a value is a :class:`LogLinear` without renormalising (the basis is coprime
    with no perfect powers, see :mod:`exactdp.numbers.loglinear`)."""

    def __init__(self, mech: Mechanism):

        ints: set[int] = set()
        for node in postorder(mech.root):
            if isinstance(node, Chance):
                for row in node.probs:
                    for p in row:
                        if is_rational(p) and p:
                            f = to_fraction(p)
                            ints.update((f.numerator, f.denominator))
        self.basis = coprime_basis(ints)
        self._memo: dict[Rational, dict[int, Rational]] = {}

    def vector(self, ratio: Rational) -> dict[int, Rational]:
        """log(ratio) as {basis element: integer exponent}."""
        v = self._memo.get(ratio)
        if v is None:
            f = to_fraction(ratio)
            num, den = f.numerator, f.denominator
            v = {}
            for b in self.basis:
                k = 0
                while num % b == 0:
                    num //= b
                    k += 1
                while den % b == 0:
                    den //= b
                    k -= 1
                if k:
                    v[b] = Q(k)
            if num != 1 or den != 1:  # pragma: no cover - the basis covers every probability
                raise AssertionError("the coprime basis does not cover a likelihood ratio")
            self._memo[ratio] = v
        return v


def _as_loglinear(v: _KL) -> LogLinear:
    s, coef = v
    return LogLinear(s, tuple((b, c) for b, c in sorted(coef.items()) if c != 0))


def _kl_max(a: _KL | Infinity, b: _KL | Infinity) -> _KL | Infinity:
    """The larger of two KL values over the same basis: the sign of their difference, 0 exactly
    when every coefficient agrees, else certified by intervals (:func:`ll_sign`)."""
    if is_inf(a) or is_inf(b):
        return INF
    ca, cb = a[1], b[1]
    diff = {k: ca.get(k, Q(0)) - cb.get(k, Q(0)) for k in ca.keys() | cb.keys()}
    return a if ll_sign(_as_loglinear((a[0] - b[0], diff))) >= 0 else b


def _chance_kl(
    probs: _Rows, children_vals: Sequence[_KL | Infinity], i: int, j: int, basis: _LogBasis
) -> _KL | Infinity:
    """Σ_a p_a (log(p_a/p'_a) + KL(child_a)) as (s, {basis element: coefficient})."""
    answers = _answers(probs, children_vals, i, j)
    if answers is None:
        return INF
    s: Rational = Q(0)
    coef: dict[int, Rational] = {}
    for p, pp, v in answers:
        if not (is_rational(p) and is_rational(pp)):
            kl_terms(p, pp)  # raises the clear message
        for b, k in basis.vector(p / pp).items():
            coef[b] = coef.get(b, Q(0)) + p * k
        s += p * v[0]
        for b, c in v[1].items():
            coef[b] = coef.get(b, Q(0)) + p * c
    return s, coef


def _has_field_probabilities(mech: Mechanism) -> bool:
    """Whether some probability of ``mech`` lies in ℚ(e^{1/L}) but not in ℚ (a decimal ε)."""
    return any(ladder.domain_of(p) is QT for col in flat_of(mech).probs for p in set(col) if p is not None)


def _chance_kl_field(probs: _Rows, children_vals: Sequence[Any], i: int, j: int) -> Any:
    """Σ_a p_a (log(p_a/p'_a) + KL(child_a)) for probabilities in ℚ(e^{1/L}): an exact sum of
    logarithms with coefficients in the field (:mod:`exactdp.numbers.logsum`)."""
    answers = _answers(probs, children_vals, i, j)
    if answers is None:
        return INF
    acc: Any = Q(0)
    for p, pp, v in answers:
        acc = ls_add(acc, ls_scale(ls_add(log_sum(Q(0), ((p / pp, Q(1)),)), v), p))
    return acc


def _kl_field_max(a: Any, b: Any) -> Any:
    """The larger of two KL values in the field case: exact when they are equal as sums of
    logarithms, else certified (an undecidable comparison is refused, never guessed)."""
    if is_inf(a) or is_inf(b):
        return INF
    return a if ls_sign(ls_add(a, ls_neg(b))) >= 0 else b


Progress = Callable[[str, int, int], None]


def renyi_sums(
    mech: Mechanism, alpha: int, *, deadline: float | None = None, progress: Progress | None = None
) -> list[RenyiSum]:
    """The sup over adversaries of Σ_v P^α P'^{1−α} (α ≥ 2) or of KL (α = 1), one per ordered
    pair of ``mech.ordered_pairs``, by one backward induction over the game DAG (for α ≥ 2 the
    lean loop of :func:`exactdp.analysis.induction.power_sums`, on the game's flat storage)."""
    if alpha == 1:
        return renyi_sums_generic(mech, 1, deadline=deadline, progress=progress)
    pairs = [(i, j) for i, j in mech.ordered_pairs]
    sums = power_sums(flat_of(mech), pairs, alpha, progress=progress, deadline=deadline)
    return [INF if s is None else s for s in sums]


def renyi_sums_generic(
    mech: Mechanism, alpha: int, *, deadline: float | None = None, progress: Progress | None = None
) -> list[RenyiSum]:
    """:func:`renyi_sums` by the generic induction over node objects (one value kind per call:
    power sums or KL values); for α ≥ 2 it is the reference the lean loop is checked against."""
    if alpha == 1 and _has_field_probabilities(mech):
        return _induction(mech, Q(0), _kl_field_max, _chance_kl_field, deadline, progress)
    if alpha == 1:
        basis = _LogBasis(mech)

        def chance_kl(probs: _Rows, vals: list[_KL | Infinity], i: int, j: int) -> _KL | Infinity:
            return _chance_kl(probs, vals, i, j, basis)

        kl: list[_KL | Infinity] = _induction(mech, (Q(0), {}), _kl_max, chance_kl, deadline, progress)
        return [v if is_inf(v) else _as_loglinear(v) for v in kl]

    def chance_sum(probs: _Rows, vals: list[_PowerSum], i: int, j: int) -> _PowerSum:
        return _chance_sum(probs, vals, i, j, alpha)

    sums: list[_PowerSum] = _induction(mech, Q(1), max_value, chance_sum, deadline, progress)
    return list(sums)


_V = TypeVar("_V")


def _induction(
    mech: Mechanism,
    leaf: _V,
    better: Callable[[_V, _V], _V],
    chance: Callable[[_Rows, list[_V], int, int], _V],
    deadline: float | None,
    progress: Progress | None,
) -> list[_V]:
    """The backward induction of :func:`renyi_sums` for one kind of value: ``leaf`` at the end,
    the ``better`` of the options at an adversary choice, ``chance(probs, children's values,
    i, j)`` at an answer node; one value per ordered pair at every node."""
    pairs = mech.ordered_pairs
    order = postorder(mech.root)
    memo: dict[int, list[_V]] = {}
    for n, node in enumerate(order):
        if isinstance(node, End):
            vals: list[_V] = [leaf] * len(pairs)
        elif isinstance(node, Ask):
            kids = [memo[c.uid] for c in node.children]
            vals = []
            for k in range(len(pairs)):
                best = kids[0][k]
                for kv in kids[1:]:
                    best = better(best, kv[k])
                vals.append(best)
        elif isinstance(node, Chance):
            kids = [memo[c.uid] for c in node.children]
            vals = [chance(node.probs, [kv[k] for kv in kids], i, j) for k, (i, j) in enumerate(pairs)]
        else:  # pragma: no cover
            raise TypeError(node)
        memo[node.uid] = vals
        if n & 0x3FFF == 0:
            _tick(progress, deadline, n, len(order))
    return memo[mech.root.uid]


def _tick(progress: Progress | None, deadline: float | None, n: int, total: int) -> None:
    if progress is not None:
        progress("renyi", n, total)
    if deadline is not None and time.monotonic() > deadline:
        raise LimitExceededError("the running time", "the --timeout", "raise it with --timeout SECONDS")


def result_from_sums(mech: Mechanism, alpha: int, sums: Sequence[RenyiSum]) -> RenyiResult:
    """D_α(M) from per-pair sums (shared by both engines: only the sums differ in how they are
    computed)."""
    pairs = tuple(PairRenyi(mech.pair_names(p), s) for p, s in zip(mech.ordered_pairs, sums))
    best: RenyiSum = sums[0]
    for s in sums[1:]:
        best = max_value(best, s)
    return RenyiResult(mech.name, alpha, divergence_from_sum(best, alpha), pairs)


@takes_mechanism
def renyi(
    mech: Mechanism, alpha: object, *, deadline: float | None = None, progress: Progress | None = None
) -> RenyiResult:
    r""":math:`D_\alpha(M)`: the Rényi divergence of order :math:`\alpha` of ``mech`` against every
    adaptive adversary, the largest over ordered adjacent pairs and adversaries of

    .. math:: D_\alpha(P \,\|\, P') = \frac{1}{\alpha - 1} \log \sum_v P(v)^\alpha P'(v)^{1 - \alpha}.

    Parameters
    ----------
    mech : Mechanism
    alpha : int ≥ 1 or INF
        1 is the KL divergence, ``INF`` is PrivLoss(M, 0).

    Returns
    -------
    RenyiResult
        ``value`` is exact: ``log(r)/(α − 1)`` (a :class:`LogReal` or :class:`LogLinear`), a
        rational, or ``INF``; ``pairs`` holds each ordered pair's sup of the Rényi sum.

    References
    ----------
    Mironov 2017, Def. 3–4; Vadhan–Wang 2021, Lemma 2.2 (deterministic adversaries suffice).

    >>> from exactdp.builders import rr
    >>> str(renyi(rr(exp_eps=3), 2).value)
    'log(7/3)'
    """
    a = parse_alpha(alpha)
    if is_inf(a):  # D_inf = PrivLoss(M, 0): the log of the largest likelihood ratio
        lam = pure_lambda(mech, deadline=deadline, progress=progress)
        return RenyiResult(mech.name, a, privloss_from_lambda(lam))
    return result_from_sums(mech, a, renyi_sums(mech, a, deadline=deadline, progress=progress))


RENYI_ORDERS = (1, 2, 3, 4, 5, 6, 8)
"""The orders a Rényi curve shows by default (and α = ∞, its asymptote)."""


@dataclass(frozen=True)
class RenyiCurve(RichDisplay):
    """D_α(M) at several orders α, exactly, with α = ∞ (PrivLoss(M, 0)) last: the curve
    ``exactdp.plot_renyi`` draws (Mironov 2017, Def. 3)."""

    mechanism: str
    points: tuple[tuple[int | Infinity, Divergence], ...]

    def value(self, alpha: object) -> Divergence:
        """D_α for one of the curve's orders."""
        a = parse_alpha(alpha, "RenyiCurve.value")
        for b, v in self.points:
            if b == a or (is_inf(a) and is_inf(b)):
                return v
        raise ValueError(
            f"the curve has no order {ladder.short(a)}; its orders: {', '.join(ladder.short(b) for b, _ in self.points)}"
        )


@takes_mechanism
def renyi_curve(mech: Mechanism, alphas: Sequence[object] = RENYI_ORDERS, *, engine: Any = None) -> RenyiCurve:
    r""":math:`D_\alpha(M)` against every adaptive adversary for each order in ``alphas`` (integers
    :math:`\ge 1`; 1 is the KL divergence) and for :math:`\alpha = \infty`, exactly (:func:`renyi`; ``engine`` an
    :class:`~exactdp.analysis.engine.Engine`, default the profile engine's backward induction).

    >>> from exactdp.builders import rr
    >>> [str(v) for _, v in renyi_curve(rr(exp_eps=3), [1, 2]).points]
    ['log(3)/2', 'log(7/3)', 'log(3)']
    """
    list_arg(alphas, "renyi_curve", "alphas", "orders, e.g. [1, 2, 3]")
    orders: list[Any] = sorted({o for o in (parse_alpha(x, "renyi_curve") for x in alphas) if not is_inf(o)})
    fn = renyi if engine is None else engine.renyi
    return RenyiCurve(mech.name, tuple((a, fn(mech, a).value) for a in (*orders, INF)))
