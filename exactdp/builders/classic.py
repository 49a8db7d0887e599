r"""Classic mechanisms with finite support, exactly: k-ary randomized response, the truncated
geometric mechanism, report-noisy-max with finite noise, and the integer noise distributions
they (and :mod:`exactdp.builders.svt`) use.

* **k-ary randomized response** (Warner 1965; Kairouz–Oh–Viswanath 2016, "k-RR"): on a dataset
  whose value is v ∈ V (``|V| = k``) output v w.p. e^ε/(e^ε + k − 1) and each other value w.p.
  1/(e^ε + k − 1).  It is ε-DP (exactly ε when two adjacent datasets hold different values).
* **Truncated geometric mechanism** (Ghosh–Roughgarden–Sundararajan 2009): a count c ∈ {0..n}
  is released as clamp(c + Z, 0, n) with Z two-sided geometric, Pr[Z = z] ∝ α^``|z|``:

  .. math:: \Pr[j \mid c] = \frac{1-\alpha}{1+\alpha}\alpha^{|j-c|} \ (0 < j < n), \qquad
            \Pr[j \mid c] = \frac{\alpha^{|j-c|}}{1+\alpha} \ (j \in \{0, n\}).

  It is ln(1/α)-DP for counts that differ by one.  The *renormalized* variant
  Pr[j | c] ∝ α^``|j−c|`` on {0..n} (conditioning instead of clamping) is a common mistake: its
  normaliser depends on c, and it is not ln(1/α)-DP.
* **Report-noisy-max** (Dwork–Roth 2014, §3.3): add independent integer noise from a finite
  distribution to each query value and output the index of the largest noisy value (ties: the
  first index).  Computed exactly as Pr[i wins] = Σ_v Pr[value_i + Z_i = v] Π_{j<i} Pr[value_j +
  Z_j < v] Π_{j>i} Pr[value_j + Z_j ≤ v].
* **Noise** on the integers (:class:`Noise`): a finite pmf, the two-sided geometric ("discrete
  Laplace") on [−w, w] either clamped (mass beyond w moved to ±w, as in GRS) or renormalized,
  or — for the sparse vector technique only — the two-sided geometric with infinite support,
  which :mod:`exactdp.builders.svt` sums in closed form.

References
----------
S. L. Warner, *Randomized response*, JASA 1965.
A. Ghosh, T. Roughgarden, M. Sundararajan, *Universally Utility-Maximizing Privacy Mechanisms*,
STOC 2009 (the α-geometric mechanism and its truncation).
C. Dwork, A. Roth, *The Algorithmic Foundations of Differential Privacy*, 2014, §3.3 (Report
Noisy Max, Claim 3.9) and §3.6 (sparse vector).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ArgumentTypeError, InexactValueError, InvalidMechanismError
from ..model.checks import instance_arg
from ..model.game import END, Chance, Label, Mechanism
from ..numbers import ladder
from ..numbers.rational import Q, as_q, q_str
from ..numbers.symbolic import is_sym, sympy
from ..numbers.types import EpsLike, FieldValue, LambdaLike, Rational, RationalLike
from .discrete import check_alpha, gaussian_weight
from .params import UNSET, alpha_arg, check_exp_eps, exp_eps_arg, mapping_arg, per_dataset_arg, whole_arg

__all__ = [
    "Noise",
    "noise_arg",
    "finite_noise",
    "geometric_noise",
    "discrete_laplace",
    "gaussian_noise",
    "krr",
    "krr_rows",
    "truncated_geometric",
    "truncated_geometric_rows",
    "report_noisy_max",
    "report_noisy_max_rows",
    "TRUNCATIONS",
]

TRUNCATIONS = ("clamp", "renormalize")


@dataclass(frozen=True)
class Noise:
    """An integer-valued noise distribution.

    Either finite (``pmf``: sorted pairs (z, Pr[Z = z]) summing to 1) or the two-sided geometric
    with infinite support (``alpha`` set, ``pmf`` None): Pr[Z = z] = (1−α)/(1+α)·α^``|z|``.
    ``name`` is a short description for reports.
    """

    pmf: tuple[tuple[int, Any], ...] | None = None
    alpha: Any = None
    name: str = ""

    @property
    def finite(self) -> bool:
        return self.pmf is not None

    def support(self) -> tuple[int, int]:
        """(min, max) of a finite support."""
        assert self.pmf is not None
        return self.pmf[0][0], self.pmf[-1][0]

    def prob(self, z: int) -> Any:
        """Pr[Z = z]."""
        if self.pmf is not None:
            for zz, p in self.pmf:
                if zz == z:
                    return p
            return Q(0)
        a = self.alpha
        return (1 - a) / (1 + a) * a ** abs(z)

    def survival(self, z: int) -> Any:
        """Pr[Z ≥ z]."""
        if self.pmf is not None:
            # summed from its first term: a Q(0) start would turn SymPy probabilities into floats
            ps = [p for zz, p in self.pmf if zz >= z]
            return sum(ps[1:], ps[0]) if ps else Q(0)
        a = self.alpha
        if z >= 1:
            return a**z / (1 + a)
        return 1 - a ** (1 - z) / (1 + a)


def noise_arg(noise: Any, *, call: str, name: str = "noise") -> Noise:
    """``noise`` if it is a :class:`Noise`; an :class:`~exactdp.errors.ArgumentTypeError` naming
    the call and the argument otherwise."""
    return instance_arg(
        noise,
        Noise,
        call,
        name,
        what="a noise distribution",
        how='build one, e.g. exactdp.geometric_noise(eps="log(2)", width=3) or exactdp.finite_noise({-1: "1/4", 0: "1/2", 1: "1/4"})',
    )


def finite_noise(pmf: Mapping[int, FieldValue], *, name: str = "") -> Noise:
    """A finite noise distribution {z: Pr[Z = z]} on the integers (probabilities exact, sum 1):
    rationals, or elements of ℚ(e^{1/L}) such as ``(1 - exp(-1))/(1 + exp(-1))`` (the sum is
    then exact in the field, and each sign certified)."""
    items = []
    for z, p in mapping_arg(pmf, call="finite_noise", name="pmf", shape="{z: Pr[Z = z]} on the integers").items():
        if not _whole(z):
            raise InvalidMechanismError(f"noise values must be integers, got {z!r}")
        p = _field_prob(p)
        if ladder.sign(p) < 0:
            raise InvalidMechanismError(f"noise: Pr[Z = {z}] = {ladder.text(p)} is negative")
        items.append((int(z), p))
    if not items:
        raise InvalidMechanismError("noise: the distribution is empty")
    total = sum((p for _, p in items), Q(0))
    if total != 1:
        raise InvalidMechanismError(f"noise: the probabilities sum to {ladder.text(total)}, not 1")
    items.sort()
    return Noise(pmf=tuple((z, p) for z, p in items if p), name=name or "finite pmf")


def _whole(z: Any) -> bool:
    """Whether a noise value is an integer (2, or 2.0 or Fraction(2), equal to one)."""
    try:
        return not isinstance(z, (str, bytes)) and int(z) == z
    except (TypeError, ValueError, OverflowError):
        return False


def _field_prob(p: Any) -> FieldValue:
    """A probability as a rational or an element of ℚ(e^{1/L}) (refused otherwise)."""
    try:
        return ladder.as_field(p)
    except InexactValueError:
        raise InvalidMechanismError(
            f"noise: the probability {ladder.short(p)} is not an exact element of Q(e^(1/L))"
        ) from None


def _check_alpha(alpha: Any) -> Any:
    """α ∈ (0, 1): a rational, or an element of ℚ(e^{1/L}) such as e^{−1/2} (a decimal ε or a
    library's noise scale)."""
    return check_alpha(alpha, "geometric noise")


def geometric_noise(
    alpha: RationalLike | None = None,
    width: int | None = None,
    *,
    eps: EpsLike | None = None,
    truncation: str = "clamp",
) -> Noise:
    """The two-sided geometric noise Pr[Z = z] ∝ α^``|z|`` restricted to [−width, width].

    α is given as ``alpha=`` or, as in a case file, through ``eps=`` (α = e^{−ε}, e^ε rational):
    ``geometric_noise(eps="log(2)", width=3)``.  ``truncation="clamp"``: the mass beyond
    ±width sits at ±width (the GRS truncation, which keeps every neighbouring ratio within
    1/α); ``"renormalize"``: conditioned on ``|Z| ≤ width``.
    """
    a: Any = _check_alpha(alpha_arg("geometric_noise", eps=eps, alpha=alpha))
    if width is None:
        raise ArgumentTypeError(
            "geometric_noise: width= is required (the support is [-width, width]); for infinite support use discrete_laplace"
        )
    if whole_arg(width, call="geometric_noise", name="width") < 0:
        raise InvalidMechanismError(f"geometric noise: width must be >= 0, got {width}")
    if truncation not in TRUNCATIONS:
        raise InvalidMechanismError(f"unknown truncation {truncation!r}", hint=f"use one of {', '.join(TRUNCATIONS)}")
    pmf: dict[int, Any] = {}
    if truncation == "clamp":
        for z in range(-width, width + 1):
            if abs(z) < width:
                pmf[z] = (1 - a) / (1 + a) * a ** abs(z)
            else:
                pmf[z] = a**width / (1 + a) if width else Q(1)
    else:
        w = {z: a ** abs(z) for z in range(-width, width + 1)}
        total = sum(w.values(), Q(0))
        pmf = {z: v / total for z, v in w.items()}
    return finite_noise(pmf, name=f"geometric(alpha={ladder.text(a)}, |z|<={width}, {truncation})")


def gaussian_noise(sigma2: RationalLike, width: int) -> Noise:
    """The discrete Gaussian noise N_ℤ(0, σ²) conditioned on [−width, width] (Canonne, Kamath &
    Steinke 2020, Def. 1): Pr[Z = z] ∝ e^{−z²/(2σ²)}, exact in ℚ(e^{1/L}) with
    L = den(1/(2σ²)) (see :mod:`exactdp.builders.discrete`)."""
    if width < 0:
        raise InvalidMechanismError(f"gaussian noise: width must be >= 0, got {width}")
    w = {z: gaussian_weight(sigma2, z) for z in range(-width, width + 1)}
    total = sum(w.values(), Q(0))
    return finite_noise(
        {z: v / total for z, v in w.items()}, name=f"gaussian(sigma^2={q_str(as_q(sigma2))}, |z|<={width})"
    )


def discrete_laplace(alpha: RationalLike | None = None, *, eps: EpsLike | None = None) -> Noise:
    """The two-sided geometric ("discrete Laplace") noise with infinite support,
    Pr[Z = z] = (1−α)/(1+α)·α^``|z|``; the discrete analogue of Lap(1/ε) with α = e^{−ε}
    (``discrete_laplace(eps="log(2)")`` or ``discrete_laplace(alpha="1/2")``)."""
    a = _check_alpha(alpha_arg("discrete_laplace", eps=eps, alpha=alpha))
    return Noise(alpha=a, name=f"geometric(alpha={ladder.text(a)})")


# --- k-ary randomized response ------------------------------------------------------------------


def krr_rows(E: Any, values: Sequence[Label], data: Sequence[Label]) -> list[tuple[Any, ...]]:
    """rows[k][d] = Pr[output values[k] | dataset d holds data[d]] for k-ary RR with e^ε = E."""
    E = check_exp_eps(E, call="krr")
    k = len(values)
    if k < 2 or len(set(values)) != k:
        raise InvalidMechanismError("krr: give at least two distinct values")
    for v in data:
        if v not in values:
            raise InvalidMechanismError(f"krr: a dataset holds {v!r}, which is not among the values {list(values)}")
    keep, other = E / (E + k - 1), 1 / (E + k - 1)
    return [tuple(keep if v == out else other for v in data) for out in values]


def krr(
    E: LambdaLike | None = UNSET,
    values_: Sequence[Label] | None = UNSET,
    data_: Sequence[Label] | Mapping[str, Label] | None = UNSET,
    *,
    eps: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    values: Sequence[Label] | None = None,
    data: Sequence[Label] | Mapping[str, Label] | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    name: str = "kRR",
) -> Mechanism:
    """k-ary randomized response: dataset d holds the value ``data[d]``, as in a case file:
    ``krr(eps="log(3)", values=["a", "b", "c"], data=["a", "b"])`` (or ``exp_eps=`` for e^ε,
    rational).  The positional form ``krr(E, values, data)`` (e^ε first) is deprecated.

    >>> from exactdp.analysis import profile
    >>> str(profile.privloss(krr(eps="log(3)", values=["a", "b", "c"], data=["a", "b"]), 0))
    'log(3)'
    """
    legacy = values_ is not UNSET or data_ is not UNSET
    mixed = (E is not UNSET and (eps is not None or exp_eps is not None)) or (
        legacy and (UNSET in (E, values_, data_) or values is not None or data is not None)
    )
    if mixed:
        raise ArgumentTypeError(
            "krr: positional arguments are the deprecated (e^eps, values, data), all three; "
            'write krr(eps="log(3)", values=[...], data=[...])'
        )
    if legacy:
        values, data = values_, data_
    if values is None or data is None:
        raise ArgumentTypeError("krr: values= and data= are required (the possible values, and each dataset's value)")
    E = exp_eps_arg("krr", eps=eps, exp_eps=exp_eps, positional=E)
    data = per_dataset_arg(data, datasets, call="krr", name="data", what="values")
    rows = krr_rows(E, [str(v) for v in values], [str(v) for v in data])
    return Mechanism(
        Chance([str(v) for v in values], rows, (END,) * len(values)), tuple(datasets), tuple(adjacent), name
    )


# --- truncated geometric ------------------------------------------------------------------------


def truncated_geometric_rows(
    alpha: Any, n: int, counts: Sequence[int], *, truncation: str = "clamp"
) -> list[tuple[Any, ...]]:
    """rows[j][d] = Pr[output j | count counts[d]] on {0..n} (GRS truncation, or renormalized)."""
    alpha = _check_alpha(alpha)
    n, counts = whole_arg(n, call="truncated_geometric", name="n"), list(counts)
    counts = [whole_arg(c, call="truncated_geometric", name="a count") for c in counts]
    if n < 1:
        raise InvalidMechanismError(f"truncated_geometric: n must be at least 1, got {n}")
    for c in counts:
        if not (0 <= c <= n):
            raise InvalidMechanismError(f"truncated_geometric: count {c} is outside 0..{n}")
    if truncation not in TRUNCATIONS:
        raise InvalidMechanismError(f"unknown truncation {truncation!r}", hint=f"use one of {', '.join(TRUNCATIONS)}")
    cols = []
    for c in counts:
        if truncation == "clamp":
            col = [
                (alpha ** abs(j - c) / (1 + alpha)) if j in (0, n) else (1 - alpha) / (1 + alpha) * alpha ** abs(j - c)
                for j in range(n + 1)
            ]
        else:
            w = [alpha ** abs(j - c) for j in range(n + 1)]
            total = sum(w, Q(0))
            col = [x / total for x in w]
        cols.append(col)
    return [tuple(col[j] for col in cols) for j in range(n + 1)]


def truncated_geometric(
    alpha: RationalLike | None = None,
    n: int | None = None,
    counts: Sequence[int] | Mapping[str, int] | None = None,
    *,
    eps: EpsLike | None = None,
    truncation: str = "clamp",
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    name: str = "TGeo",
) -> Mechanism:
    """The truncated α-geometric mechanism (GRS 2009) on counts 0..n; outputs ``"0"`` to ``"n"``.

    α is ``alpha=`` or, as in a case file, ``eps=`` (α = e^{−ε}, e^ε rational).

    >>> from exactdp.analysis import profile
    >>> str(profile.privloss(truncated_geometric(eps="log(2)", n=2, counts=[0, 1]), 0))
    'log(2)'
    """
    if n is None or counts is None:
        raise ArgumentTypeError("truncated_geometric: n= and counts= are required (outputs 0..n, each dataset's count)")
    alpha = alpha_arg("truncated_geometric", eps=eps, alpha=alpha)
    counts = per_dataset_arg(counts, datasets, call="truncated_geometric", name="counts", what="counts")
    rows = truncated_geometric_rows(alpha, n, list(counts), truncation=truncation)
    return Mechanism(
        Chance([str(j) for j in range(n + 1)], rows, (END,) * (n + 1)), tuple(datasets), tuple(adjacent), name
    )


# --- report noisy max ---------------------------------------------------------------------------


def report_noisy_max_rows(values: Sequence[Sequence[Rational]], noise: Noise) -> list[tuple[Any, ...]]:
    """rows[i][d] = Pr[argmax_j (values[d][j] + Z_j) = i], i.i.d. finite noise Z_j, ties to the
    first index (Dwork–Roth §3.3)."""
    if not noise.finite:
        raise InvalidMechanismError("report_noisy_max needs finite noise (give `width:` for geometric noise)")
    k = len(values[0])
    if k < 1 or any(len(v) != k for v in values):
        raise InvalidMechanismError("report_noisy_max: every dataset needs one value per query")
    pmf = noise.pmf
    assert pmf is not None
    # a symbolic noise (SymPy probabilities) is summed in SymPy: a gmpy2 rational mixed in would become a float
    symbolic = any(is_sym(p) for _, p in pmf)
    zero = sympy.Integer(0) if symbolic else Q(0)
    cols = []
    for vals in values:
        vals = [as_q(v) for v in vals]

        def below(j: int, v: Any, strict: bool) -> Any:
            return sum((p for z, p in pmf if (vals[j] + z < v if strict else vals[j] + z <= v)), zero)  # noqa: B023 (used in this iteration only)

        col = []
        for i in range(k):
            tot = zero
            for z, p in pmf:
                v = vals[i] + z
                term = p
                for j in range(k):
                    if j != i:
                        term *= below(j, v, strict=j < i)
                        if not term:
                            break
                tot += term
            col.append(sympy.cancel(tot) if symbolic else tot)
        total = sum(col, zero)
        if (sympy.cancel(total) if symbolic else total) != 1:  # pragma: no cover - a bug, not an input error
            raise AssertionError("report_noisy_max: probabilities do not sum to 1")
        cols.append(col)
    return [tuple(col[i] for col in cols) for i in range(k)]


def report_noisy_max(
    values: Sequence[Sequence[Rational]] | Mapping[str, Sequence[Rational]],
    noise: Noise,
    *,
    outputs: Sequence[Label] | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    name: str = "RNM",
) -> Mechanism:
    """Report-noisy-max with finite i.i.d. noise; ``values[d][i]`` is query i on dataset d.

    >>> from exactdp.analysis import profile
    >>> m = report_noisy_max([[1, 0], [2, 0]], geometric_noise(eps="log(2)", width=3))
    >>> str(profile.privloss(m, 0))
    'log(9/5)'
    """
    values = per_dataset_arg(
        values, datasets, call="report_noisy_max", name="values", what="lists of values", rows="values, one per query"
    )
    noise_arg(noise, call="report_noisy_max")
    rows = report_noisy_max_rows(values, noise)
    k = len(rows)
    labels = [str(o) for o in outputs] if outputs is not None else [str(i) for i in range(k)]
    if len(labels) != k:
        raise InvalidMechanismError(f"report_noisy_max: {len(labels)} output labels for {k} queries")
    return Mechanism(Chance(labels, rows, (END,) * k), tuple(datasets), tuple(adjacent), name)
