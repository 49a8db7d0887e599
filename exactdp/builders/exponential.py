r"""Exponential and bounded-range mechanisms with exact weights (Dong–Durfee–Rogers 2020).

* The **exponential mechanism** (McSherry–Talwar 2007; DDR Def. 2.3) over a finite output
  range Y: on dataset x it outputs y with probability proportional to

  .. math:: w(x, y) = \exp\big(\varepsilon\, u(x, y) / s\big),

  where the *scale* s is

  - ``"sensitivity"`` (default): s = 2Δu, with the sensitivity
    Δu = max over adjacent (x, x') and y of ``|u(x, y) − u(x', y)|`` (DDR Def. 2.3, Thm 1);
  - ``"monotone"``: s = Δu, allowed only when u is monotone, i.e. for every adjacent pair the
    differences u(x, y) − u(x', y) all have the same sign (DDR §2, "the factor 2 can be
    dropped");
  - ``"range"``: s = Range(u) = max over adjacent (x, x') and y, y' of
    (u(x, y) − u(x', y)) − (u(x, y') − u(x', y')) (DDR §2.1, Prop. 2: ε-BR, hence ε-DP).

  The weights are kept exact: w(x, y) ∝ B^{(u(x, y) − max_y u(x, ·))/s} with B = e^ε.  For a
  decimal ε (``eps: 0.5``) every weight is e^{ε(u − max u)/s}, an element of ℚ(e^{1/L}); for
  ε = log(r) every power must be rational (for instance when B^{1/s} is rational and the scores
  are integers).  An irrational weight outside the field is refused with a message saying what
  to write instead; nothing is rounded.  With B a rational function of declared symbols
  (``eps: 2*log(E)``, B = E²), every weight must be one too — a whole power of a rational
  function, e.g. B^{1/2} = E — and the distributions are then rational functions of the
  symbols, decided for every value by the parametric engine.

* **Generalized randomized response** RR_{ε,t} (DDR Def. 2.4), the worst case for ε-BR: input
  bit b, outputs 0/1, with B = e^ε, u = e^t (1 ≤ u ≤ B)

  .. math:: q = \Pr[RR(0) = 0] = \frac{B - u}{B - 1}, \qquad p = \Pr[RR(1) = 0] = \frac{q}{u},

  so the privacy loss is t on output 0 and t − ε on output 1.  RR_{ε,ε/2} is RR_{ε/2}.

* **Adaptive versus non-adaptive use of a menu** (DDR §4, Alg. 1): :func:`nonadaptive` builds
  ``choose`` of ``compose`` (the adversary fixes the whole sequence of menu items up front);
  the adaptive game is ``repeat(choose(menu), k)``.

References
----------
J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
Mechanisms*, ICML 2020 (arXiv:1909.13830), Def. 2.2–2.4, §2.1, Thm 1, Prop. 2, Alg. 1.
F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ArgumentTypeError, InexactValueError, InvalidMechanismError, LimitExceededError
from ..model.checks import takes_mechanism
from ..model.game import END, Ask, Chance, Label, Mechanism, Node, label_str, unordered_pairs
from ..model.ops import graft
from ..model.symbolic import SymChance
from ..numbers import ladder
from ..numbers.qt import monomial, qt_exp
from ..numbers.rational import Q, as_q, is_rational, q_str
from ..numbers.symbolic import check_sym_degree, expr_str, is_sym, is_symbolic, sympy, to_sympy
from ..numbers.types import EpsLike, LambdaLike, Rational
from .params import UNSET, check_exp_eps, exp_eps_arg, per_dataset_arg, read_exp_eps
from .rr import default_bits

__all__ = [
    "MODES",
    "score_sensitivity",
    "score_range",
    "monotone_violation",
    "exponential_rows",
    "exponential",
    "grr_probs",
    "grr_node",
    "grr",
    "grr_menu",
    "grr_sym_node",
    "grr_menu_node",
    "nonadaptive",
    "DEFAULT_MAX_SEQUENCES",
    "PF_MODES",
    "permute_and_flip_distribution",
    "permute_and_flip_rows",
    "permute_and_flip",
]

MODES = ("sensitivity", "monotone", "range")
DEFAULT_MAX_SEQUENCES = 100_000

Scores = Sequence[Sequence[Rational]]  # scores[d][k]: u(dataset d, output k)


def _scores_arg(scores: Any, datasets: Sequence[str], call: str) -> list[Any]:
    """The score table of a selection builder: one list of scores per dataset, in dataset order
    or as a mapping {dataset: scores} (:func:`~exactdp.builders.params.per_dataset_arg`)."""
    return per_dataset_arg(
        scores, datasets, call=call, name="scores", what="lists of scores", rows="scores, one per output"
    )


def _check_shape(scores: Scores, n_outputs: int | None = None) -> int:
    if not scores:
        raise InvalidMechanismError("exponential: no datasets")
    k = len(scores[0]) if n_outputs is None else n_outputs
    if k == 0:
        raise InvalidMechanismError("exponential: the output range is empty")
    for d, row in enumerate(scores):
        if len(row) != k:
            raise InvalidMechanismError(
                f"exponential: dataset #{d} has {len(row)} scores, expected {k} (one per output)"
            )
    return k


def score_sensitivity(scores: Scores, adjacent: Sequence[tuple[int, int]]) -> Any:
    """Δu = max over adjacent (x, x') and outputs y of |u(x, y) − u(x', y)| (DDR Def. 2.3).

    Parameters
    ----------
    scores : sequence of sequences of rationals
        ``scores[d][k]`` is u(dataset d, output k).
    adjacent : sequence of (int, int)

    Returns
    -------
    rational
    """
    _check_shape(scores)
    best = Q(0)
    for a, b in unordered_pairs(adjacent):
        for ua, ub in zip(scores[a], scores[b]):
            best = max(best, abs(as_q(ua) - as_q(ub)))
    return best


def score_range(scores: Scores, adjacent: Sequence[tuple[int, int]]) -> Any:
    """Range(u) = max over adjacent (x, x') of max_y d(y) − min_y d(y), d(y) = u(x, y) − u(x', y)
    (DDR §2.1).  Shifting u(x, ·) by a function of x alone does not change it (Prop. 1)."""
    _check_shape(scores)
    best = Q(0)
    for a, b in unordered_pairs(adjacent):
        diffs = [as_q(ua) - as_q(ub) for ua, ub in zip(scores[a], scores[b])]
        best = max(best, max(diffs) - min(diffs))
    return best


def monotone_violation(scores: Scores, adjacent: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], int, int] | None:
    """None if u is monotone (for every adjacent pair the differences u(x, y) − u(x', y) have
    one sign); else (pair, k, k') with outputs k, k' whose differences have opposite signs."""
    _check_shape(scores)
    for a, b in unordered_pairs(adjacent):
        diffs = [as_q(ua) - as_q(ub) for ua, ub in zip(scores[a], scores[b])]
        pos = next((k for k, d in enumerate(diffs) if d > 0), None)
        neg = next((k for k, d in enumerate(diffs) if d < 0), None)
        if pos is not None and neg is not None:
            return (a, b), pos, neg
    return None


def _power(B: Any, e: Any) -> Any:
    """B^e for B ≥ 1 and a rational e, exactly, or InexactValueError: B rational (then B^e must
    be rational), or B = c·e^s in ℚ(e^{1/L}) for a decimal ε (then B^e = c^e·e^{se}, exact when
    c^e is rational — always for c = 1, i.e. e^ε itself)."""
    if is_rational(B):
        return as_q(ladder.power(as_q(B), as_q(e)))
    mono = monomial(ladder.as_field(B))
    if mono is None:
        raise InexactValueError(f"({ladder.short(B)})^({q_str(e)}) has no exact form in Q(e^(1/L))")
    c, s = mono
    return as_q(ladder.power(as_q(c), as_q(e))) * qt_exp(1, as_q(s) * as_q(e))


def exponential_rows(
    scores: Scores,
    E: Any,
    adjacent: Sequence[tuple[int, int]],
    *,
    mode: str = "sensitivity",
    sensitivity: Rational | None = None,
    range_: Rational | None = None,
    outputs: Sequence[Label] | None = None,
    datasets: Sequence[str] | None = None,
) -> list[tuple[Any, ...]]:
    """The exact output distribution of the exponential mechanism under every dataset.

    Parameters
    ----------
    scores : sequence of sequences of rationals
        ``scores[d][k]`` = u(dataset d, output k).
    E : rational
        e^ε ≥ 1.
    adjacent : sequence of (int, int)
    mode : {"sensitivity", "monotone", "range"}
        The scale s: 2Δu, Δu (monotone u only) or Range(u).
    sensitivity, range_ : rational, optional
        Use this Δu (or Range) instead of the one computed from the scores over the adjacent
        pairs.  A value smaller than the computed one is accepted: it models a mis-calibrated
        mechanism, which is then (correctly) found not to be ε-DP.
    outputs, datasets : optional
        Names, used in error messages only.

    Returns
    -------
    list of tuples
        ``rows[k][d]`` = Pr[output k | dataset d], exact.

    Raises
    ------
    InvalidMechanismError
        Bad parameters, a non-monotone u in monotone mode, a zero scale, or an irrational weight.

    References
    ----------
    DDR Def. 2.3, Thm 1, §2.1 and Prop. 2.
    """
    k, E, onames, dnames = _prepare("exponential", MODES, scores, E, mode, outputs, datasets)
    scale, what = _scale(scores, adjacent, mode, sensitivity, range_, onames, dnames)
    if scale <= 0:
        if E == 1:
            scale = Q(1)  # eps = 0: every weight is 1 whatever the scale
        else:
            raise InvalidMechanismError(
                f"exponential: the scale {what} is {q_str(scale)}, so the weights exp(eps*u/scale) are undefined",
                hint="the scores do not change between adjacent datasets; give `sensitivity:` (or `range:`) explicitly",
            )
    m = _common_denominator(scores, scale)
    rows_by_d = [_distribution(row, E, scale, onames, dnames[d], m) for d, row in enumerate(scores)]
    return [tuple(rows_by_d[d][kk] for d in range(len(scores))) for kk in range(k)]


def _prepare(
    call: str,
    modes: Sequence[str],
    scores: Scores,
    E: Any,
    mode: str,
    outputs: Sequence[Label] | None,
    datasets: Sequence[str] | None,
) -> tuple[int, Any, list[str], list[str]]:
    """What the selection mechanisms check first: the score table's shape, e^eps and the mode;
    then the output and dataset names used in messages."""
    k = _check_shape(scores)
    if not is_symbolic(E):  # a symbolic e^eps >= 1 is proved on the symbols' domain by the form
        E = check_exp_eps(E, call=call)
    if mode not in modes:
        raise InvalidMechanismError(f"{call}: unknown mode {mode!r}", hint=f"modes: {', '.join(modes)}")
    onames = [str(o) for o in (outputs or range(k))]
    dnames = list(datasets or [f"#{d}" for d in range(len(scores))])
    return k, E, onames, dnames


def _scale(
    scores: Scores,
    adjacent: Sequence[tuple[int, int]],
    mode: str,
    sensitivity: Rational | None,
    range_: Rational | None,
    onames: Sequence[str],
    dnames: Sequence[str],
) -> tuple[Any, str]:
    """The scale s of the weights exp(ε·u/s) in ``mode`` and its name: 2Δu (DDR Def. 2.3),
    Δu for a monotone u (DDR §2) or Range(u) (DDR §2.1), given or computed from the scores."""
    if mode == "range":
        if sensitivity is not None:
            raise InvalidMechanismError(
                "exponential: `sensitivity:` is for modes sensitivity and monotone; mode range uses `range:`"
            )
        return (as_q(range_) if range_ is not None else score_range(scores, adjacent)), "Range(u)"
    if range_ is not None:
        raise InvalidMechanismError("exponential: `range:` needs `mode: range`")
    if mode == "monotone":
        bad = monotone_violation(scores, adjacent)
        if bad is not None:
            (a, b), kp, kn = bad
            raise InvalidMechanismError(
                f"exponential: mode monotone needs monotone scores, but on the adjacent pair ({dnames[a]}, {dnames[b]}) "
                f"output {onames[kp]} gains and output {onames[kn]} loses",
                hint="use the default mode (scale 2*sensitivity) or mode: range",
            )
    delta_u = as_q(sensitivity) if sensitivity is not None else score_sensitivity(scores, adjacent)
    if mode == "sensitivity":
        return delta_u * 2, "2*sensitivity"
    return delta_u, "sensitivity"


def _distribution(
    row: Sequence[Rational], E: Any, scale: Any, onames: Sequence[str], dname: str, m: int = 1
) -> list[Any]:
    """The output distribution under one dataset: weights E^((u − max u)/s), normalised; an
    irrational weight is refused."""
    top = max(as_q(u) for u in row)
    weights = [_weight(E, (as_q(u) - top) / scale, onames[kk], dname, scale, m) for kk, u in enumerate(row)]
    if is_symbolic(E):  # SymPy arithmetic throughout: a gmpy2 rational mixed in would become a float
        total = sympy.Add(*weights)
        return [sympy.cancel(w / total) for w in weights]
    total = sum(weights, Q(0))
    return [w / total for w in weights]


def _common_denominator(scores: Scores, scale: Any) -> int:
    """The least m such that every exponent (u − max u)/s of the score table is a multiple of
    1/m: with E = e^(ε/m) as the symbol, every weight is a whole power of E."""
    m = 1
    for row in scores:
        top = max(as_q(u) for u in row)
        for u in row:
            m = math.lcm(m, int(as_q((as_q(u) - top) / scale).denominator))
    return m


def _rational_function(w: Any) -> bool:
    """``w`` is a rational function of its symbols with rational coefficients: no exp or log
    left, and only whole powers (so no √2 or e^(1/10) among the coefficients)."""
    return (
        w.is_rational_function(*w.free_symbols)
        and not w.has(sympy.exp, sympy.log)
        and all(p.exp.is_Integer for p in w.atoms(sympy.Pow))
        and all(n.is_Rational for n in w.atoms(sympy.Number))
    )


def _sym_weight(E: Any, expo: Any, oname: str, dname: str, scale: Any, m: int) -> Any:
    """E^expo for a symbolic E = e^ε (a rational function of the symbols, proved ≥ 1): a
    rational function of the symbols with rational coefficients, or a located refusal."""
    e = sympy.Rational(int(as_q(expo).numerator), int(as_q(expo).denominator))
    w = check_sym_degree(sympy.powdenest(to_sympy(E) ** e), f"the weight of output {oname} under {dname}")
    if not _rational_function(w):
        raise InvalidMechanismError(
            f"the weight of output {oname} under {dname} is e^(eps*({q_str(expo * scale)})/{q_str(scale)}) = "
            f"{expr_str(w)}, which is not a rational function of the symbols",
            hint=f"declare the symbol as e^(eps/{m}) and write eps: {m}*log(E) (then every weight is a whole power "
            "of E)"
            if m > 1
            else "declare the symbol as e^eps and write eps: log(E)",
        )
    return w


def _weight(E: Any, expo: Any, oname: str, dname: str, scale: Any, m: int = 1) -> Any:
    """E^expo for the weight of output ``oname`` under ``dname``; an irrational one is refused."""
    if is_symbolic(E):
        return _sym_weight(E, expo, oname, dname, scale, m)
    try:
        return _power(E, expo)
    except InexactValueError:
        raise InvalidMechanismError(
            f"exponential: the weight of output {oname} under {dname} is "
            f"e^(eps*({q_str(expo * scale)})/{q_str(scale)}) = ({ladder.text(E)})^({q_str(expo)}), which is "
            "irrational and not in Q(e^(1/L))",
            hint=f"write eps as a decimal (eps: 0.5 keeps every weight exact in Q(e^(1/L))), or choose eps so "
            f"that e^(eps/{q_str(scale)}) is rational, e.g. eps: log(r^{q_str(scale)}) with rational r",
        ) from None


def exponential(
    scores: Scores | Mapping[str, Sequence[Rational]],
    E: LambdaLike | None = UNSET,
    *,
    eps: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    outputs: Sequence[Label] | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    mode: str = "sensitivity",
    sensitivity: Rational | None = None,
    range_: Rational | None = None,
    name: str = "EM",
) -> Mechanism:
    """The exponential mechanism as a noninteractive :class:`Mechanism` (one answer, no query).

    ``scores`` is a sequence in dataset order (or a mapping dataset → scores) of score lists,
    one score per output; ``outputs`` are the output labels (default ``"0"``, ``"1"``, ...).
    See :func:`exponential_rows` for the modes.  The privacy parameter is ``eps=`` (as in a
    case file, e.g. ``eps="log(16)"``) or ``exp_eps=`` (e^ε); e^ε must be rational.  A
    positional e^ε (``exponential(scores, 16)``) is deprecated.

    Examples
    --------
    A counting exponential mechanism with e^ε = 16 (DDR Def. 4.2 and Lemma 4.4): it equals
    RR_{ln 16, ln 4} after merging outputs 1–4.

    >>> M = exponential([[1, 1, 1, 1, 1], [0, 0, 0, 0, 1]], eps="log(16)", mode="monotone")
    >>> [str(r[1]) for r in M.root.probs]
    ['1/20', '1/20', '1/20', '1/20', '4/5']

    References
    ----------
    DDR Def. 2.3, Thm 1, Prop. 2.
    """
    scores = _scores_arg(scores, datasets, "exponential")
    k = _check_shape(scores)
    labels = list(outputs) if outputs is not None else [str(i) for i in range(k)]
    if len(labels) != k:
        raise InvalidMechanismError(f"exponential: {len(labels)} output labels for {k} scores")
    E = exp_eps_arg("exponential", eps=eps, exp_eps=exp_eps, positional=E)
    rows = exponential_rows(
        scores, E, adjacent, mode=mode, sensitivity=sensitivity, range_=range_, outputs=labels, datasets=datasets
    )
    return Mechanism(Chance(labels, rows, (END,) * k), tuple(datasets), tuple(adjacent), name)


PF_MODES = ("sensitivity", "monotone")


def _elementary(values: Sequence[Any], one: Any) -> list[Any]:
    """e_0, ..., e_m of ``values``: the coefficients of Π (1 + v·z), exactly, in the arithmetic
    of ``one`` (``Q(1)``, or ``sympy.Integer(1)`` for symbolic values)."""
    e: list[Any] = [one]
    for v in values:
        e = [a + (v * b if b is not None else 0) for a, b in zip(e + [one - one], [None] + e)]
    return e


def permute_and_flip_distribution(q: Sequence[Any]) -> list[Any]:
    """Pr[output r] of permute-and-flip with flip probabilities q (McKenna & Sheldon 2020,
    Alg. 1): the candidates are visited in a uniformly random order and r is output, when
    reached, with probability q_r.  The candidates before r form a uniform subset of the others
    whose size is uniform on 0..n−1, so

        Pr[r] = q_r · (1/n) Σ_k e_k({1 − q_s : s ≠ r}) / C(n − 1, k)

    with e_k the elementary symmetric polynomials; exact in ℚ(e^{1/L}), or rational functions
    of declared symbols when the q are."""
    n = len(q)
    symbolic = any(is_sym(x) for x in q)  # SymPy numbers too: never mixed with gmpy2 rationals
    one = sympy.Integer(1) if symbolic else Q(1)
    out = []
    for r in range(n):
        e = _elementary([1 - q[s] for s in range(n) if s != r], one)
        acc: Any = one - one
        for k, ek in enumerate(e):
            acc = acc + ek / math.comb(n - 1, k)
        out.append(sympy.cancel(q[r] * acc / n) if symbolic else q[r] * acc / n)
    return out


def permute_and_flip_rows(
    scores: Scores,
    E: Any,
    adjacent: Sequence[tuple[int, int]],
    *,
    mode: str = "sensitivity",
    sensitivity: Rational | None = None,
    outputs: Sequence[Label] | None = None,
    datasets: Sequence[str] | None = None,
) -> list[tuple[Any, ...]]:
    """rows[k][d] = Pr[permute-and-flip outputs k | dataset d], with flip probabilities
    q_k = e^{ε(u_k − max u)/s}, s = 2Δu (``"sensitivity"``) or Δu (``"monotone"``)
    (McKenna & Sheldon 2020, Alg. 1 and Thm 1; diffprivlib's ``PermuteAndFlip``)."""
    k, E, onames, dnames = _prepare("permute_and_flip", PF_MODES, scores, E, mode, outputs, datasets)
    scale, what = _scale(scores, adjacent, mode, sensitivity, None, onames, dnames)
    if scale <= 0:
        if E != 1:
            raise InvalidMechanismError(
                f"permute_and_flip: the scale {what} is {q_str(scale)}, so the flip probabilities are undefined",
                hint="the scores do not change between adjacent datasets; give `sensitivity:` explicitly",
            )
        scale = Q(1)
    cols = []
    m = _common_denominator(scores, scale)
    for d, row in enumerate(scores):
        top = max(as_q(u) for u in row)
        q = [_weight(E, (as_q(u) - top) / scale, onames[kk], dnames[d], scale, m) for kk, u in enumerate(row)]
        cols.append(permute_and_flip_distribution(q))
    return [tuple(col[kk] for col in cols) for kk in range(k)]


def permute_and_flip(
    scores: Scores | Mapping[str, Sequence[Rational]],
    *,
    eps: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    outputs: Sequence[Label] | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    mode: str = "sensitivity",
    sensitivity: Rational | None = None,
    name: str = "PF",
) -> Mechanism:
    """Permute-and-flip (McKenna & Sheldon 2020) over a finite output range, exactly: an ε-DP
    alternative to the exponential mechanism whose output is never worse in expected score.

    >>> from exactdp.analysis import profile
    >>> M = permute_and_flip([[2, 1, 0], [2, 1, 1]], eps="log(2)", mode="monotone")
    >>> [str(r[0]) for r in M.root.probs]   # under the first dataset
    ['2/3', '11/48', '5/48']

    References
    ----------
    R. McKenna, D. Sheldon, *Permute-and-Flip: A New Mechanism for Differentially Private
    Selection*, NeurIPS 2020, Alg. 1, Thm 1.
    """
    scores = _scores_arg(scores, datasets, "permute_and_flip")
    k = _check_shape(scores)
    labels = list(outputs) if outputs is not None else [str(i) for i in range(k)]
    E = exp_eps_arg("permute_and_flip", eps=eps, exp_eps=exp_eps)
    rows = permute_and_flip_rows(
        scores, E, adjacent, mode=mode, sensitivity=sensitivity, outputs=labels, datasets=datasets
    )
    return Mechanism(Chance(labels, rows, (END,) * k), tuple(datasets), tuple(adjacent), name)


def grr_probs(B: Any, u: Any) -> tuple[Any, Any]:
    """(q, p) of RR_{ε,t} with B = e^ε and u = e^t (DDR Def. 2.4):
    q = Pr[RR(0) = 0] = (B − u)/(B − 1), p = Pr[RR(1) = 0] = q/u.

    For B = 1 (ε = 0) only u = 1 is allowed and the output is the constant 0 (q = p = 1).

    >>> [str(v) for v in grr_probs(16, 4)]
    ['4/5', '1/5']
    """
    B, u = check_exp_eps(B, call="grr", rational=True), as_q(u)
    if not (1 <= u <= B):
        raise InvalidMechanismError(
            f"grr: t must lie in [0, eps], i.e. 1 <= e^t <= e^eps = {q_str(B)}; got e^t = {q_str(u)}",
            hint="RR_(eps,t) has privacy losses t and t - eps (DDR Def. 2.4)",
        )
    if B == 1:
        return Q(1), Q(1)
    q = (B - u) / (B - 1)
    return q, q / u


def grr_node(B: Any, u: Any, bits: Sequence[int]) -> Chance:
    """RR_{ε,t} as a :class:`Chance` node: a dataset with input bit 0 outputs ``"0"`` w.p. q,
    a dataset with bit 1 w.p. p (DDR Def. 2.4)."""
    q, p = grr_probs(B, u)
    p0 = tuple(q if b == 0 else p for b in bits)
    p1 = tuple(1 - q if b == 0 else 1 - p for b in bits)
    return Chance(("0", "1"), (p0, p1), (END, END))


def grr(
    B: LambdaLike | None = UNSET,
    u: LambdaLike | None = UNSET,
    *,
    eps: EpsLike | None = None,
    t: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    exp_t: LambdaLike | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    bits: Sequence[int] | None = None,
    name: str = "GRR",
) -> Mechanism:
    """Generalized randomized response RR_{ε,t} (DDR Def. 2.4): ``grr(eps="log(16)", t="log(4)")``
    as in a case file, or with ``exp_eps=`` / ``exp_t=`` (e^ε and e^t, both rational).  The
    positional form ``grr(B, u)`` (B = e^ε, u = e^t) is deprecated.

    >>> from exactdp.analysis import profile
    >>> str(profile.privloss(grr(eps="log(16)", t="log(4)"), 0))
    'log(4)'
    """
    legacy = B is not UNSET  # grr(B, u): one deprecation warning for the call, from B
    B = exp_eps_arg("grr", eps=eps, exp_eps=exp_eps, positional=B, positional_name="B", rational=True)
    if legacy and u is not UNSET and t is None and exp_t is None:
        u = read_exp_eps(u, call="grr", name="u", rational=True)
    else:
        u = exp_eps_arg(
            "grr", eps=t, exp_eps=exp_t, positional=u, positional_name="u", rational=True, names=("t", "exp_t")
        )
    bits = tuple(bits) if bits is not None else default_bits(datasets, adjacent)
    return Mechanism(grr_node(B, u, bits), tuple(datasets), tuple(adjacent), name)


def grr_menu(
    B: LambdaLike | None = UNSET,
    us: Sequence[LambdaLike] | None = UNSET,
    *,
    eps: EpsLike | None = None,
    ts: Sequence[EpsLike] | None = None,
    exp_eps: LambdaLike | None = None,
    exp_ts: Sequence[LambdaLike] | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    bits: Sequence[int] | None = None,
    name: str = "GRR menu",
) -> Mechanism:
    """The adversary picks one RR_{ε,t} with e^t in ``us`` (options labelled ``u=<e^t>``).

    Used as the per-round menu of DDR's composition game (Alg. 1) restricted to a finite set
    of t; ``repeat(grr_menu(...), k)`` is the adaptive game and ``nonadaptive(grr_menu(...), k)``
    the non-adaptive one.  Parameters as in a case file: ``grr_menu(eps="log(16)", ts=["log(2)",
    "log(4)"])``, or ``exp_eps=`` / ``exp_ts=``; the positional form ``grr_menu(B, us)`` is
    deprecated.
    """
    B = exp_eps_arg("grr_menu", eps=eps, exp_eps=exp_eps, positional=B, positional_name="B", rational=True)
    if us is not UNSET:  # the deprecated e^t list (B positional has already warned)
        if ts is not None or exp_ts is not None:
            raise ArgumentTypeError("grr_menu: give the menu once: ts= (the t's) or exp_ts= (the e^t's)")
        exp_ts = us
    if (ts is None) == (exp_ts is None):
        raise ArgumentTypeError(
            'grr_menu: give exactly one of ts= (the t\'s, e.g. ["log(2)", "log(4)"]) or exp_ts= (the e^t\'s)'
        )
    if ts is not None:
        us = [exp_eps_arg("grr_menu", eps=x, exp_eps=None, rational=True, names=("ts", "exp_ts")) for x in ts]
    else:
        us = [read_exp_eps(x, call="grr_menu", name="exp_ts", rational=True) for x in exp_ts or []]
    bits = tuple(bits) if bits is not None else default_bits(datasets, adjacent)
    labels, kids = [], []
    for u in us:
        lab = f"u={q_str(as_q(u))}"
        if lab in labels:
            raise InvalidMechanismError(f"grr menu: e^t = {q_str(as_q(u))} is listed twice")
        labels.append(lab)
        kids.append(grr_node(B, u, bits))
    if not kids:
        raise InvalidMechanismError("grr menu: the menu is empty")
    return Mechanism(Ask(labels, kids), tuple(datasets), tuple(adjacent), name)


def grr_sym_node(B: Any, u: Any, bits: Sequence[int]) -> SymChance:
    """RR_{ε,t} (DDR Def. 2.4) with B = e^ε > 1 and/or u = e^t ∈ [1, B] rational functions of
    declared symbols: the q and p of :func:`grr_probs`, reduced to lowest terms.  The ranges
    are the caller's to prove on the symbols' domain (the ``grr`` form does); then every
    probability lies in [0, 1]: q = (B − u)/(B − 1), 1 − q = (u − 1)/(B − 1) and p = q/u ≤ q."""
    B, u = to_sympy(B), to_sympy(u)
    q = sympy.cancel((B - u) / (B - 1))
    p = sympy.cancel(q / u)
    p0 = tuple(q if b == 0 else p for b in bits)
    p1 = tuple(sympy.cancel(1 - x) for x in p0)
    return SymChance(("0", "1"), (p0, p1), (END, END))


def grr_menu_node(B: Any, us: Sequence[Any], bits: Sequence[int]) -> Ask:
    """The menu of :func:`grr_menu` as a node, for e^ε and the e^t possibly symbolic (then in
    the order given, labelled ``u=<e^t>``; the caller proves 1 ≤ u ≤ B)."""
    kids: list[Node] = []
    for u in us:
        symbolic = is_symbolic(B) or is_symbolic(u)
        kids.append(grr_sym_node(B, u, bits) if symbolic else grr_node(B, u, bits))
    return Ask([f"u={expr_str(to_sympy(u))}" for u in us], kids)


@takes_mechanism
def nonadaptive(
    menu: Mechanism, rounds: int, *, name: str = "nonadaptive", max_sequences: int = DEFAULT_MAX_SEQUENCES
) -> Mechanism:
    """``choose`` of ``compose``: the adversary fixes a sequence of ``rounds`` menu items up
    front, then runs them in order (DDR Alg. 1, non-adaptive class 𝓜^NA).

    ``menu`` must begin with an adversary choice (for instance a ``choose`` or a
    :func:`grr_menu`); its options are the menu items.  The result offers one option per
    sequence, labelled ``a,b,...``; suffixes are shared, so the DAG has about
    m + m^2 + ... + m^rounds nodes for a menu of m items.

    Raises
    ------
    InvalidMechanismError
        ``menu`` does not begin with a choice, or ``rounds`` < 1.
    LimitExceededError
        More than ``max_sequences`` sequences.
    """
    root = menu.root
    if not isinstance(root, Ask):
        raise InvalidMechanismError(
            f"nonadaptive: the menu {menu.name!r} must begin with an adversary choice (a `choose` or a `grr_menu`)"
        )
    if rounds < 1:
        raise InvalidMechanismError(f"nonadaptive: rounds must be at least 1, got {rounds}")
    m = len(root.labels)
    if m**rounds > max_sequences:
        raise LimitExceededError(
            f"the number of non-adaptive sequences ({m}^{rounds} = {m**rounds})",
            max_sequences,
            "use a smaller menu or fewer rounds",
        )
    suffix: dict[tuple[int, ...], Node] = {(): END}
    for length in range(1, rounds + 1):
        for seq in itertools.product(range(m), repeat=length):
            suffix[seq] = graft(root.children[seq[0]], suffix[seq[1:]])
    labels: list[Label] = []
    kids: list[Node] = []
    for seq in itertools.product(range(m), repeat=rounds):
        labels.append(",".join(label_str(root.labels[i]) for i in seq))
        kids.append(suffix[seq])
    return Mechanism(Ask(labels, kids), menu.datasets, menu.adjacent, name)
