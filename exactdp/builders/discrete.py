r"""Integer noise on a bounded range as DP libraries ship it: the discrete Laplace (two-sided
geometric) truncated or folded, and the discrete Gaussian restricted to a finite range.

* **Discrete Laplace** with parameter α = e^{−1/scale} (``scale`` as in OpenDP's
  ``make_geometric``/``make_laplace`` on integers and Tumult Core's ``AddGeometricNoise(alpha)``,
  which calls the scale alpha; α = e^{−ε/Δ} as in diffprivlib's ``Geometric(epsilon,
  sensitivity)``): Pr[Z = z] = (1 − α)/(1 + α)·α^{abs(z)} on ℤ.  A value c ∈ [lo, hi] is released as

  - ``clamp``: clamp(c + Z, lo, hi), the tail mass at the ends (OpenDP's
    ``sample_discrete_laplace_linear`` with ``bounds``, diffprivlib's ``GeometricTruncated``,
    Ghosh–Roughgarden–Sundararajan 2009):
    Pr[y] = (1−α)/(1+α)·α^{abs(y−c)} inside, α^{c−lo}/(1+α) at lo and α^{hi−c}/(1+α) at hi;
  - ``fold``: c + Z reflected at the bounds until it lies in [lo, hi] (diffprivlib's
    ``GeometricFolded``; lo, hi integers or half-integers).  The reflections form a group of
    period P = 2(hi − lo), so the values reaching y are y + kP and 2·lo − y + kP, k ∈ ℤ, and
    Σ_k α^{abs(d + kP)} = (α^{d₀} + α^{P − d₀})/(1 − α^P) with d₀ = d mod P: exact in ℚ(α);
  - ``renormalize``: c + Z conditioned on [lo, hi] (Pr[y] ∝ α^{abs(y − c)}).

  Every probability lies in ℚ(α) ⊂ ℚ(e^{1/L}) when 1/scale is rational: exact.  For α a
  rational function of declared symbols (``alpha: a``, ``eps: log(E)``), the same formulas are
  rational functions of them (:func:`laplace_sym_column`), decided for every value by the
  parametric engine.

* **Discrete Gaussian** N_ℤ(c, σ²) (Canonne, Kamath & Steinke 2020, Def. 1: Pr[y] ∝
  e^{−(y−c)²/(2σ²)} on ℤ; OpenDP ``make_gaussian`` on integers, Tumult Core
  ``AddDiscreteGaussianNoise(sigma_squared)``) *restricted to a finite range*: Pr[y] ∝
  e^{−(y−c)²/(2σ²)} for y ∈ [lo, hi].  For integers y, c and rational σ² = a/b every weight is
  e^{m/L} with L = den(1/(2σ²)) and m = −(y − c)²·L/(2σ²) an integer, so the weights and their
  finite sum lie in ℚ(e^{1/L}): exact.  The unrestricted distribution's normaliser
  Σ_{y∈ℤ} e^{−y²/(2σ²)} is an infinite theta-type series, not a finite sum in that field, and
  neither are the tails a clamp or a fold would pile up at the bounds: exactdp refuses them
  rather than truncate a series.

References
----------
C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*, NeurIPS 2020
(arXiv:2004.00010), Def. 1 and Thm 14.
A. Ghosh, T. Roughgarden, M. Sundararajan, *Universally Utility-Maximizing Privacy Mechanisms*,
STOC 2009.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .. import limits
from ..errors import ArgumentTypeError, FieldDegreeLimit, InexactValueError, InvalidMechanismError, LimitExceededError
from ..model.game import END, Chance, Mechanism
from ..numbers import kinds as K
from ..numbers import ladder
from ..numbers.qt import qt_exp
from ..numbers.rational import Q, as_q, q_str, to_fraction
from ..numbers.symbolic import is_symbolic, sym_size, sympy, to_sympy
from ..numbers.types import FieldValue
from .params import alpha_arg, read_eps, read_rational

__all__ = [
    "LAPLACE_TRUNCATIONS",
    "GAUSSIAN_TRUNCATIONS",
    "check_alpha",
    "alpha_of_scale",
    "laplace_column",
    "laplace_sym_column",
    "laplace_rows",
    "gaussian_field",
    "gaussian_weight",
    "gaussian_column",
    "gaussian_rows",
    "bounded_discrete_laplace",
    "discrete_gaussian",
]

LAPLACE_TRUNCATIONS = ("clamp", "fold", "renormalize")
GAUSSIAN_TRUNCATIONS = ("renormalize",)


def _problem(message: str, hint: str | None = None) -> InvalidMechanismError:
    return InvalidMechanismError(message, hint=hint)


def check_alpha(alpha: Any, call: str = "geometric noise") -> FieldValue:
    """α ∈ (0, 1) as a rational or an element of ℚ(e^{1/L}) (certified range check)."""
    try:
        a = ladder.as_field(alpha)
    except InexactValueError:
        raise _problem(f"{call}: alpha = {ladder.short(alpha)} is not an exact element of Q(e^(1/L))") from None
    if ladder.cmp(a, 0) <= 0 or ladder.cmp(a, 1) >= 0:
        raise _problem(
            f"{call} needs 0 < alpha < 1 (alpha = e^-eps with eps > 0), got alpha = {ladder.text(a)}",
            "alpha = e^(-1/scale): give a positive scale or eps",
        )
    return a


def alpha_of_scale(scale: Any, sensitivity: Any = 1) -> FieldValue:
    """α = e^{−Δ/scale} for a rational scale > 0 (OpenDP's and Tumult Core's parametrisation)."""
    s, d = as_q(scale), as_q(sensitivity)
    if s <= 0:
        raise _problem(f"discrete Laplace: the scale must be positive, found {q_str(s)}")
    return check_alpha(qt_exp(1, -d / s), "discrete Laplace")


def _bounds(lo: Any, hi: Any, *, half: bool) -> tuple[Fraction, Fraction, list[int]]:
    flo, fhi = to_fraction(lo), to_fraction(hi)
    for b in (flo, fhi):
        if (2 * b).denominator != 1 or (not half and b.denominator != 1):
            what = "integers or half-integers" if half else "integers"
            raise _problem(f"the bounds must be {what}, found {ladder.short(b)}")
    if flo > fhi:
        raise _problem(f"the lower bound {ladder.short(flo)} exceeds the upper bound {ladder.short(fhi)}")
    first, last = -((-flo.numerator) // flo.denominator), fhi.numerator // fhi.denominator
    if first > last:
        raise _problem(f"no integer lies in [{ladder.short(flo)}, {ladder.short(fhi)}]")
    outputs = last - first + 1
    if outputs > limits.current().max_nodes:  # one answer edge per output and dataset
        raise LimitExceededError(
            f"the number of outputs in the bounds ({ladder.short(outputs)})",
            limits.current().max_nodes,
            "narrow the bounds or raise --max-nodes",
        )
    return flo, fhi, list(range(first, last + 1))


def laplace_column(alpha: Any, lo: Any, hi: Any, c: int, truncation: str = "clamp") -> list[FieldValue]:
    """Pr[y | c] for every integer y in [lo, hi], for the discrete Laplace with parameter α
    released with ``truncation`` (module docstring).  ``c`` must lie in [lo, hi]."""
    a = check_alpha(alpha, "discrete Laplace")
    return _laplace_formulas(a, lo, hi, c, truncation, Q(1))


def laplace_sym_column(alpha: Any, lo: Any, hi: Any, c: int, truncation: str = "clamp") -> list[Any]:
    """:func:`laplace_column` for α a rational function of declared symbols (SymPy), each
    probability reduced to lowest terms.  The caller proves 0 < α < 1 on the symbols' domain
    (the ``discrete_laplace`` form does); every formula is then a probability."""
    a = to_sympy(alpha)
    _check_sym_degree(a, lo, hi, truncation)
    out = [sympy.cancel(p) for p in _laplace_formulas(a, lo, hi, c, truncation, sympy.Integer(1))]
    if any(p.has(sympy.Float) for p in out):  # pragma: no cover - a Q mixed into SymPy arithmetic
        raise InexactValueError("discrete Laplace: a probability lost exactness (a floating-point number)")
    return out


def _check_sym_degree(a: Any, lo: Any, hi: Any, truncation: str) -> None:
    """Refuse, before any is formed, probabilities whose degree in the symbols passes the
    ``max_symbolic_degree`` limit: they hold α^|y − c| for every output y (α^(2(hi − lo)) when
    folded), so a wide range of outputs would otherwise build huge rational functions."""
    span = to_fraction(hi) - to_fraction(lo)
    degree = int(span * 2 if truncation == "fold" else span) * sym_size(a)[0]
    cap = limits.current().max_symbolic_degree
    if degree > cap:
        raise LimitExceededError(
            f"discrete Laplace with a symbolic alpha on [{q_str(lo)}, {q_str(hi)}]: probabilities of degree up to "
            f"{degree} in the symbols",
            cap,
            "narrow the bounds, or raise it with --max-symbolic-degree N",
        )


def _laplace_formulas(a: Any, lo: Any, hi: Any, c: int, truncation: str, one: Any) -> list[Any]:
    """The formulas of the module docstring, in the arithmetic of α and ``one`` (exact field
    elements with ``Q(1)``, or SymPy rational functions with ``sympy.Integer(1)``: a gmpy2
    rational mixed into SymPy arithmetic would become a float)."""
    if truncation not in LAPLACE_TRUNCATIONS:
        raise _problem(f"unknown truncation {truncation!r}", f"use one of {', '.join(LAPLACE_TRUNCATIONS)}")
    flo, fhi, ys = _bounds(lo, hi, half=truncation == "fold")
    if not flo <= c <= fhi:
        raise _problem(f"the value {c} lies outside the bounds [{flo}, {fhi}]", "clamp the data into the bounds first")
    norm = (1 - a) / (1 + a)
    if truncation == "renormalize":
        w = [a ** abs(y - c) for y in ys]
        total = sum(w, one - one)
        return [x / total for x in w]
    if truncation == "clamp":
        if len(ys) == 1:
            return [one]
        out: list[Any] = [norm * a ** abs(y - c) for y in ys]
        out[0] = a ** (c - ys[0]) / (1 + a)
        out[-1] = a ** (ys[-1] - c) / (1 + a)
        return out
    period = 2 * (fhi - flo)
    if period == 0:
        return [one]
    P = int(period) if period.denominator == 1 else None
    if P is None:  # pragma: no cover - both bounds integers or half-integers: 2(hi - lo) is an integer
        raise _problem("fold: 2*(upper - lower) must be an integer")
    aP = a**P
    out = []
    for y in ys:
        mirror = 2 * flo - y  # the other residue class reaching y
        total = _series(a, aP, P, y - c)
        if (mirror - y) % P != 0:
            total = total + _series(a, aP, P, int(mirror) - c)
        out.append(norm * total)
    return out


def _series(a: Any, aP: Any, P: int, d: int) -> Any:
    """Σ_{k∈ℤ} α^{abs(d + kP)} = (α^{d₀} + α^{P−d₀})/(1 − α^P), d₀ = d mod P (exact)."""
    d0 = d % P
    return (a**d0 + a ** (P - d0)) / (1 - aP)


def laplace_rows(
    alpha: Any, lo: Any, hi: Any, data: Sequence[int], truncation: str = "clamp"
) -> tuple[list[str], list[tuple[FieldValue, ...]]]:
    """(output labels, rows[k][d] = Pr[output k | dataset d holds data[d]]); for a symbolic α
    (SymPy, 0 < α < 1 proved by the caller) the rows of :func:`laplace_sym_column`."""
    column = laplace_sym_column if is_symbolic(alpha) else laplace_column
    cols = [column(alpha, lo, hi, c, truncation) for c in data]
    _, _, ys = _bounds(lo, hi, half=truncation == "fold")
    return [str(y) for y in ys], [tuple(col[k] for col in cols) for k in range(len(ys))]


# --- the discrete Gaussian ------------------------------------------------------------------------


def gaussian_field(sigma2: Any) -> int:
    """L such that every weight e^{−(y−c)²/(2σ²)} (integers y, c) lies in ℚ(e^{1/L}): the
    denominator of 1/(2σ²).  σ² must be a positive rational."""
    s = to_fraction(as_q(sigma2))
    if s <= 0:
        raise _problem(f"discrete Gaussian: sigma^2 must be positive, found {s}")
    return (1 / (2 * s)).denominator


def gaussian_weight(sigma2: Any, d: int) -> FieldValue:
    """e^{−d²/(2σ²)} as an element of ℚ(e^{1/L}), L = den(1/(2σ²)); refused beyond the field's
    degree limit (a located error names it)."""
    e = -Q(d * d) / (2 * as_q(sigma2))
    m, L = abs(to_fraction(e).numerator), gaussian_field(sigma2)
    try:
        what = f"the discrete Gaussian's weight e^(-{ladder.short(d)}^2/(2*sigma^2)) = t^-{ladder.short(m)}"
        limits.check_field_degree(m, what + f" with t = e^(1/{ladder.short(L)})")
    except FieldDegreeLimit as err:  # (a located error, with what to change in the case)
        raise _problem(
            str(err), "use a narrower range (the bounds) or a sigma^2 whose 1/(2 sigma^2) has a smaller numerator"
        ) from None
    return qt_exp(1, e)


def gaussian_column(sigma2: Any, lo: int, hi: int, c: int) -> list[FieldValue]:
    """Pr[y | c] ∝ e^{−(y−c)²/(2σ²)} for y = lo..hi (the discrete Gaussian conditioned on the range)."""
    gaussian_field(sigma2)
    w = [gaussian_weight(sigma2, y - c) for y in range(lo, hi + 1)]
    total = sum(w, Q(0))
    return [x / total for x in w]


def gaussian_rows(sigma2: Any, lo: Any, hi: Any, data: Sequence[int]) -> tuple[list[str], list[tuple[FieldValue, ...]]]:
    """(output labels, rows[k][d]) for the discrete Gaussian restricted to [lo, hi], centred at
    each dataset's value (CKS 2020, Def. 1, conditioned on the range)."""
    _, _, ys = _bounds(lo, hi, half=False)
    cols = [gaussian_column(sigma2, ys[0], ys[-1], c) for c in data]
    return [str(y) for y in ys], [tuple(col[k] for col in cols) for k in range(len(ys))]


# --- mechanisms (the Python API of the case-format forms) -----------------------------------------


def _wrap(labels: list[str], rows: list[tuple], datasets: Sequence[str], adjacent: Any, name: str) -> Mechanism:
    return Mechanism(Chance(labels, rows, (END,) * len(labels)), tuple(datasets), tuple(adjacent), name)


def bounded_discrete_laplace(
    data: Sequence[int],
    bounds: tuple[Any, Any],
    *,
    scale: Any = None,
    eps: Any = None,
    alpha: Any = None,
    sensitivity: int = 1,
    truncation: str = "clamp",
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    name: str = "DLap",
) -> Mechanism:
    """The discrete Laplace mechanism on the integers of ``bounds`` (module docstring): dataset d
    holds ``data[d]``; α from exactly one of ``scale`` (α = e^{−sensitivity/scale}), ``eps``
    (α = e^{−ε/sensitivity}) or ``alpha``.

    >>> from exactdp.analysis import profile
    >>> M = bounded_discrete_laplace([1, 2], (1, 10), scale=2)   # OpenDP make_geometric(scale=2, bounds=(1, 10))
    >>> str(profile.privloss(M, 0))
    '1/2'
    """
    given = [v for v in (scale, eps, alpha) if v is not None]
    if len(given) != 1:
        raise ArgumentTypeError("bounded_discrete_laplace: give exactly one of scale=, eps= or alpha=")
    if scale is not None:
        a = alpha_of_scale(read_rational(scale, call="bounded_discrete_laplace", name="scale"), sensitivity)
    elif eps is not None:
        per_unit = ladder.mul(read_eps(eps, call="bounded_discrete_laplace"), Q(1, sensitivity))
        a = 1 / K.exp_eps(per_unit, form="bounded_discrete_laplace")
    else:
        a = alpha_arg("bounded_discrete_laplace", eps=None, alpha=alpha)
    labels, rows = laplace_rows(a, bounds[0], bounds[1], [int(v) for v in data], truncation)
    return _wrap(labels, rows, datasets, adjacent, name)


def discrete_gaussian(
    data: Sequence[int],
    bounds: tuple[int, int],
    *,
    sigma2: Any,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    name: str = "DGauss",
) -> Mechanism:
    """The discrete Gaussian N_ℤ(data[d], σ²) conditioned on the integers of ``bounds``
    (Canonne, Kamath & Steinke 2020, Def. 1), exactly.

    >>> M = discrete_gaussian([0, 1], (-2, 3), sigma2=1)
    >>> str(M.root.probs[0][0])
    'exp(5/2)/(exp(9/2) + 2*exp(4) + 2*exp(5/2) + 1)'
    """
    s2 = read_rational(sigma2, call="discrete_gaussian", name="sigma2")
    labels, rows = gaussian_rows(s2, bounds[0], bounds[1], [int(v) for v in data])
    return _wrap(labels, rows, datasets, adjacent, name)
