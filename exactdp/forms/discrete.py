"""The discrete Laplace and the discrete Gaussian on a bounded integer range, as DP libraries ship
them (:mod:`exactdp.builders.discrete`): every probability exact in ℚ(e^{1/L}).

.. code-block:: yaml

    mechanisms:
      L: {discrete_laplace: {scale: 2, bounds: [1, 10], data: {x0: 1, x1: 2}}}      # OpenDP make_geometric
      F: {discrete_laplace: {eps: log(2), bounds: [0, 4], data: [1, 2], truncation: fold}}  # diffprivlib
      G: {discrete_gaussian: {sigma2: 4, bounds: [-12, 12], data: [0, 1]}}        # Tumult Core, OpenDP

With ``symbols:`` (docs/parametric.md) the discrete Laplace takes ``alpha`` as a rational function
of the symbols, or ``eps: log(E)`` (α = 1/E; with a sensitivity Δ, ``eps: Δ*log(E)``), and
0 < α < 1 is proved for every value the bounds allow.  The discrete Gaussian's weights
e^(−d²/(2σ²)) are transcendental in σ², so its parameters stay numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..builders.discrete import LAPLACE_TRUNCATIONS, gaussian_field, gaussian_rows, laplace_rows
from ..model.game import END, Chance, Mechanism
from ..model.symbolic import SymChance
from ..numbers import ladder
from ..numbers.rational import as_q, q_str
from ..numbers.symbolic import is_symbolic
from .classic import alpha_of, open_unit_alpha, refuse_symbolic_sigma
from .fields import Choice, Count, Eps, FieldProblem, Pair, PerDataset, Rational, arg
from .registry import BuildContext, Form, form

__all__ = ["DiscreteLaplace", "DiscreteGaussian", "GAUSSIAN_TRUNCATION_CHOICES"]

_BOUND = Rational("a bound")
_BOUNDS = Pair(_BOUND, _BOUND, "bounds", ("lower", "upper"))
_DATA = PerDataset(Rational("a value"), what="data")
GAUSSIAN_TRUNCATION_CHOICES = ("renormalize", "clamp", "fold")


def _integers(data: tuple, datasets: tuple[str, ...]) -> list[int]:
    out = []
    for d, v in zip(datasets, data):
        if as_q(v).denominator != 1:
            raise FieldProblem(("data", d), f"the value of {d} must be a whole number, found {q_str(v)}")
        out.append(int(as_q(v)))
    return out


def _mechanism(ctx: BuildContext, labels: list[str], rows: list[tuple]) -> Mechanism:
    if any(is_symbolic(p) for row in rows for p in row):  # sums identically 1: checked on construction
        return ctx.wrap(SymChance(labels, rows, (END,) * len(labels)))
    return ctx.wrap(Chance(labels, rows, (END,) * len(labels)))


@form("discrete_laplace")
@dataclass(frozen=True, kw_only=True)
class DiscreteLaplace(Form):
    """The discrete Laplace (two-sided geometric) mechanism on [lower, upper]: clamped (OpenDP make_geometric with bounds, diffprivlib GeometricTruncated), folded (diffprivlib GeometricFolded) or conditioned on the range."""

    scale: Any = arg(
        Rational("scale", positive=True), default=None, doc="alpha = e^(-sensitivity/scale) (OpenDP, Tumult Core)"
    )
    eps: Any = arg(Eps(symbolic=True), default=None, doc="alpha = e^(-eps/sensitivity) (diffprivlib)")
    alpha: Any = arg(Rational("alpha", symbolic=True), default=None, doc="0 < alpha < 1")
    sensitivity: int = arg(Count("sensitivity", 1, 10_000), default=1, doc="the sensitivity the noise is calibrated to")
    bounds: tuple = arg(_BOUNDS, doc="[lower, upper]: integers (half-integers for fold)")
    data: tuple = arg(_DATA, doc="{dataset: its value}, whole numbers within the bounds")
    truncation: str = arg(Choice(LAPLACE_TRUNCATIONS, "truncation"), default="clamp", doc="clamp, fold or renormalize")

    def build(self, ctx: BuildContext) -> Mechanism:
        a = alpha_of(self.eps, self.alpha, ctx, "discrete_laplace", scale=self.scale, sensitivity=self.sensitivity)
        if is_symbolic(a):
            open_unit_alpha(a, ctx, "alpha" if self.alpha is not None else "eps", "discrete_laplace")
        values = _integers(self.data, ctx.datasets)
        lo, hi = self.bounds
        for d, v in zip(ctx.datasets, values):
            if not lo <= v <= hi:
                raise FieldProblem(
                    ("data", d),
                    f"the value of {d} ({ladder.short(v)}) lies outside the bounds [{ladder.short(lo)}, {ladder.short(hi)}]",
                )
        labels, rows = laplace_rows(a, lo, hi, values, self.truncation)
        return _mechanism(ctx, labels, rows)


@form("discrete_gaussian")
@dataclass(frozen=True, kw_only=True)
class DiscreteGaussian(Form):
    """The discrete Gaussian N_Z(value, sigma^2) (Canonne-Kamath-Steinke 2020; OpenDP make_gaussian on integers, Tumult Core AddDiscreteGaussianNoise) conditioned on [lower, upper]: exact in Q(e^(1/L)), L = den(1/(2 sigma^2))."""

    sigma2: Any = arg(
        Rational("sigma2", positive=True, symbolic=True),
        default=None,
        doc="sigma^2, rational (Tumult Core's sigma_squared)",
    )
    scale: Any = arg(Rational("scale", positive=True, symbolic=True), default=None, doc="sigma itself (OpenDP's scale)")
    bounds: tuple = arg(_BOUNDS, doc="[lower, upper], integers: the outputs")
    data: tuple = arg(_DATA, doc="{dataset: its value}, whole numbers")
    truncation: str = arg(
        Choice(GAUSSIAN_TRUNCATION_CHOICES, "truncation"),
        default="renormalize",
        doc="renormalize (conditioned on the range; clamp and fold have no exact form)",
    )

    def build(self, ctx: BuildContext) -> Mechanism:
        if (self.sigma2 is None) == (self.scale is None):
            raise FieldProblem((), "discrete_gaussian needs exactly one of `sigma2:` (sigma^2) or `scale:` (sigma)")
        refuse_symbolic_sigma(self.sigma2, "sigma2", "discrete_gaussian")
        refuse_symbolic_sigma(self.scale, "scale", "discrete_gaussian")
        s2 = self.sigma2 if self.sigma2 is not None else as_q(self.scale) ** 2
        if self.truncation != "renormalize":
            raise FieldProblem(
                "truncation",
                f"truncation {self.truncation} of the discrete Gaussian has no exact form: the tail mass it moves to "
                "the bounds is an infinite series in e^(-1/(2 sigma^2)), not a finite sum in Q(e^(1/L))",
                "use truncation: renormalize (the discrete Gaussian conditioned on the range)",
            )
        lo, hi = self.bounds
        for key, b in (("lower", lo), ("upper", hi)):
            if as_q(b).denominator != 1:
                raise FieldProblem(("bounds", 0 if key == "lower" else 1), f"the {key} bound must be a whole number")
        gaussian_field(s2)
        labels, rows = gaussian_rows(s2, lo, hi, _integers(self.data, ctx.datasets))
        return _mechanism(ctx, labels, rows)
