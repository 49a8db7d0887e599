"""Classic finite-support mechanisms and integer noise (:mod:`exactdp.builders.classic`).

A **noise** is ``{geometric: {eps: e | scale: s | alpha: a, width: w?, truncation: clamp|renormalize}}``
(two-sided geometric :math:`\\Pr[z] \\propto \\alpha^{|z|}`, :math:`\\alpha = e^{-\\varepsilon} = e^{-1/s}`; without ``width`` the
support is infinite, which only ``svt`` accepts), ``{gaussian: {sigma2: v, width: w}}`` (the discrete
Gaussian on [-w, w]) or ``{pmf: {z: p, ...}}`` (a finite distribution on the integers; each p
rational or in ℚ(e^{1/L})).

With ``symbols:`` (docs/parametric.md), ``krr``'s ``eps``, ``truncated_geometric``'s ``eps`` or
``alpha`` and, for ``report_noisy_max`` only, a geometric noise's ``eps`` or ``alpha`` (finite
``width``) may be written in the symbols; the range each needs is proved on the declared domain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..builders.classic import (
    TRUNCATIONS,
    Noise,
    discrete_laplace,
    finite_noise,
    gaussian_noise,
    geometric_noise,
    krr,
    report_noisy_max,
    report_noisy_max_rows,
    truncated_geometric,
)
from ..builders.discrete import alpha_of_scale
from ..builders.symbolic import geometric_sym_noise, krr_sym_node, truncated_geometric_sym_node
from ..model.game import END, Mechanism
from ..model.symbolic import SymChance
from ..numbers import ladder
from ..numbers.rational import Q, q_str
from ..numbers.symbolic import expr_str, is_sym, is_symbolic, prove_nonneg, prove_nonzero, sympy, to_sympy
from .core import exp_eps_at
from .exponential import SCORES, score_table
from .fields import (
    Choice,
    Count,
    Declared,
    Eps,
    FieldProblem,
    Label,
    ListOf,
    MapOf,
    PerDataset,
    Prob,
    Rational,
    Tagged,
    arg,
    within,
)
from .registry import BuildContext, Form, form

__all__ = [
    "Geometric",
    "Pmf",
    "Gaussian",
    "NOISE",
    "KRR",
    "TruncatedGeometric",
    "ReportNoisyMax",
    "alpha_of",
    "open_unit_alpha",
]


def alpha_of(eps: Any, alpha: Any, ctx: BuildContext, form_key: str, scale: Any = None, sensitivity: int = 1) -> Any:
    """α of the two-sided geometric noise from exactly one of ``eps`` (α = e^{−eps/sensitivity},
    a rational or, for a decimal eps, an element of ℚ(e^{1/L})), ``scale`` (α = e^{−sensitivity/scale},
    as OpenDP and Tumult Core write it) or ``alpha``."""
    given = [k for k, v in (("eps", eps), ("scale", scale), ("alpha", alpha)) if v is not None]
    if len(given) != 1:
        keys = "`eps:` (alpha = e^-eps), `scale:` (alpha = e^(-1/scale)) or `alpha:`"
        raise FieldProblem((), f"{form_key} needs exactly one of {keys}, found {len(given)}")
    if alpha is not None:
        if is_sym(alpha):  # a rational function of the symbols: 0 <= alpha <= 1 proved on their domain
            if ctx.symbols is None or not (prove_nonneg(alpha, ctx.symbols) and prove_nonneg(1 - alpha, ctx.symbols)):
                raise FieldProblem(
                    "alpha",
                    f"{form_key}: could not prove 0 <= alpha <= 1 for every value the symbols' bounds allow",
                    "tighten the bounds under `symbols:`",
                )
            return alpha
        if not 0 < alpha < 1:
            raise FieldProblem("alpha", f"{form_key}: alpha must lie strictly between 0 and 1, found {q_str(alpha)}")
        return alpha
    if scale is not None:
        return alpha_of_scale(scale, sensitivity)
    per_unit = eps if sensitivity == 1 else ladder.mul(eps, Q(1, sensitivity))
    try:
        E = exp_eps_at("eps", per_unit, ctx, form_key)
    except FieldProblem as p:
        if sensitivity == 1 or not is_sym(eps):
            raise
        raise FieldProblem(
            "eps",
            p.message.replace("e^eps", f"e^(eps/{sensitivity})"),
            f"alpha = e^(-eps/sensitivity) must be a rational function of the symbols: write eps as "
            f"{sensitivity}*log(E) (declare E = e^(eps/{sensitivity}))",
        ) from None
    if is_sym(E):
        return 1 / E
    if E == 1:
        raise FieldProblem("eps", f"{form_key}: eps must be positive (alpha = e^-eps < 1)")
    return 1 / E


def open_unit_alpha(a: Any, ctx: BuildContext, field: str, form_key: str) -> None:
    """0 < α < 1 strictly, for a symbolic α already proved in [0, 1] (:func:`alpha_of`), as the
    numeric forms require (the two-sided geometric's normaliser (1 − α)/(1 + α), the fold's
    1 − α^P), or a located FieldProblem."""
    assert ctx.symbols is not None  # a symbolic value is read only where symbols are declared
    s = to_sympy(a)
    if not (prove_nonzero(s, ctx.symbols) and prove_nonzero(1 - s, ctx.symbols)):
        raise FieldProblem(
            field,
            f"{form_key}: could not prove 0 < alpha < 1 (alpha = {expr_str(s)}) for every value the bounds "
            f"allow ({ctx.symbols.describe()})",
            "alpha = e^-eps needs eps > 0: declare the symbol with strict bounds, e.g. E: {gt: 1} for eps: log(E)",
        )


@dataclass(frozen=True, kw_only=True)
class Geometric(Declared):
    """Two-sided geometric noise Pr[z] proportional to alpha to the power abs(z) (alpha = e^-eps); without `width`, infinite support."""

    eps: Any = arg(Eps(symbolic=True), default=None, doc="alpha = e^-eps")
    scale: Any = arg(Rational("scale", positive=True), default=None, doc="alpha = e^(-1/scale)")
    alpha: Any = arg(Rational("alpha", symbolic=True), default=None, doc="0 < alpha < 1")
    width: int | None = arg(Count("width", 0, 10_000), default=None, doc="support [-width, width]")
    truncation: str = arg(Choice(TRUNCATIONS, "truncation"), default="clamp", doc="clamp or renormalize")

    def noise(self, ctx: BuildContext, *, infinite_ok: bool, symbolic_ok: bool = False) -> Noise:
        a = alpha_of(self.eps, self.alpha, ctx, "geometric noise", scale=self.scale)
        if is_symbolic(a):
            field = "alpha" if self.alpha is not None else "eps"
            if not symbolic_ok:
                raise FieldProblem(
                    field,
                    "geometric noise with symbols is supported by report_noisy_max and svt, not here",
                    "give this noise a numeric eps or alpha",
                )
            if self.width is None and not infinite_ok:
                raise FieldProblem(
                    (), "this mechanism needs finite noise: give `width:` (the support is [-width, width])"
                )
            open_unit_alpha(a, ctx, field, "geometric noise")
            if self.width is None:  # the two-sided geometric on Z: its tails sum to rational functions of alpha
                return Noise(alpha=a, name=f"geometric(alpha={expr_str(a)})")
            return geometric_sym_noise(a, self.width, truncation=self.truncation)
        if self.width is not None:
            return geometric_noise(alpha=a, width=self.width, truncation=self.truncation)
        if not infinite_ok:
            raise FieldProblem((), "this mechanism needs finite noise: give `width:` (the support is [-width, width])")
        return discrete_laplace(alpha=a)


@dataclass(frozen=True, kw_only=True)
class Pmf(Declared):
    """A finite noise distribution {z: Pr[Z = z]} on the integers."""

    probs: dict = arg(MapOf(Prob(symbolic=True, field=True), what="pmf"), doc="{z: p}")
    shorthand = "probs"

    def noise(self, ctx: BuildContext, *, infinite_ok: bool, symbolic_ok: bool = False) -> Noise:
        pmf = {}
        for z, p in self.probs.items():
            try:
                pmf[int(z.strip())] = p
            except ValueError:
                raise FieldProblem(z, f"a noise value must be a whole number, found {z!r}") from None
        if any(is_symbolic(p) for p in pmf.values()):
            if not symbolic_ok:  # pragma: no cover - every form with a noise field computes in SymPy
                raise FieldProblem((), "a pmf noise with symbols is not supported here", "give numeric probabilities")
            return _symbolic_pmf(pmf)
        return finite_noise(pmf)


def _symbolic_pmf(pmf: dict) -> Noise:
    """A finite noise whose probabilities are rational functions of the symbols (each proved in
    [0, 1] on the domain by the reader), summing to 1 identically, or a located FieldProblem."""
    items = sorted((z, sympy.cancel(to_sympy(p))) for z, p in pmf.items())
    total = sympy.cancel(sum((p for _, p in items), sympy.Integer(0)))
    if total != 1:
        raise FieldProblem((), f"the probabilities sum to {expr_str(total)}, not identically 1")
    return Noise(pmf=tuple((z, p) for z, p in items if p != 0), name="finite pmf")


def refuse_symbolic_sigma(value: Any, field: str, form_key: str) -> None:
    """A located refusal of a σ or σ² written in the symbols, saying why: the discrete Gaussian's
    weights e^(−z²/(2σ²)) are transcendental in σ², so its probabilities are no rational functions
    of the symbols (what the parametric engine decides), and no closed form replaces them."""
    if is_symbolic(value):
        raise FieldProblem(
            field,
            f"{form_key}: {field} = {expr_str(value)} depends on the symbols, but the discrete Gaussian's weights "
            "e^(-z^2/(2 sigma^2)) are transcendental in sigma^2: its probabilities are not rational functions of "
            "the symbols, which is what claims with symbols decide",
            f"give {field} a number (a rational); for a family over sigma, verify the values you need one by one",
        )


@dataclass(frozen=True, kw_only=True)
class Gaussian(Declared):
    """Discrete Gaussian noise Pr[z] proportional to e^(-z^2/(2 sigma^2)) on [-width, width] (Canonne-Kamath-Steinke 2020, conditioned on the range)."""

    sigma2: Any = arg(Rational("sigma2", positive=True, symbolic=True), doc="the variance parameter sigma^2, rational")
    width: int = arg(Count("width", 0, 10_000), doc="support [-width, width]")

    def noise(self, ctx: BuildContext, *, infinite_ok: bool, symbolic_ok: bool = False) -> Noise:
        refuse_symbolic_sigma(self.sigma2, "sigma2", "gaussian noise")
        return gaussian_noise(self.sigma2, self.width)


NOISE = Tagged((("geometric", Geometric), ("pmf", Pmf), ("gaussian", Gaussian)), what="noise")
_TAGS = {Geometric: "geometric", Pmf: "pmf", Gaussian: "gaussian"}


def build_noise(
    noise: Geometric | Pmf | Gaussian, ctx: BuildContext, field: str, *, infinite_ok: bool, symbolic_ok: bool = False
) -> Noise:
    """The Noise of a noise field, problems located inside the field; ``symbolic_ok``: the
    caller's builder computes with SymPy probabilities (a geometric noise's α may then be a
    rational function of the symbols)."""
    tag = _TAGS[type(noise)]
    with within(field, tag):
        return noise.noise(ctx, infinite_ok=infinite_ok, symbolic_ok=symbolic_ok)


def build_optional_noise(
    noise: Geometric | Pmf | Gaussian | str | None,
    ctx: BuildContext,
    field: str,
    *,
    infinite_ok: bool,
    symbolic_ok: bool = False,
) -> Noise | None:
    """As :func:`build_noise`, for a field that may also say ``none`` (or be empty): no noise."""
    if noise is None or noise == "none":
        return None
    if not isinstance(noise, (Geometric, Pmf, Gaussian)):  # pragma: no cover - the reader gives nothing else
        raise TypeError(f"not a noise: {noise!r}")
    return build_noise(noise, ctx, field, infinite_ok=infinite_ok, symbolic_ok=symbolic_ok)


__all__ += ["build_noise", "build_optional_noise"]


@form("krr")
@dataclass(frozen=True, kw_only=True)
class KRR(Form):
    """k-ary randomized response: the true value w.p. e^eps/(e^eps + k - 1)."""

    eps: Any = arg(Eps(symbolic=True), doc="e.g. eps: log(3)")
    values: tuple = arg(ListOf(Label("a value"), min_len=1, what="values"), doc="the k possible values")
    data: tuple = arg(PerDataset(Label("a value"), what="data"), doc="{dataset: its value}")

    def build(self, ctx: BuildContext) -> Mechanism:
        for d, v in zip(ctx.datasets, self.data):
            if v not in self.values:
                raise FieldProblem(("data", d), f"{d} holds {v!r}, which is not among the values")
        E = exp_eps_at("eps", self.eps, ctx, "krr")
        if is_sym(E):
            if len(self.values) < 2 or len(set(self.values)) != len(self.values):
                raise FieldProblem("values", "krr: give at least two distinct values")
            return ctx.wrap(krr_sym_node(E, [str(v) for v in self.values], [str(v) for v in self.data]))
        return krr(
            exp_eps=E,
            values=list(self.values),
            data=list(self.data),
            datasets=ctx.datasets,
            adjacent=ctx.adjacent,
            name=ctx.name,
        )


@form("truncated_geometric")
@dataclass(frozen=True, kw_only=True)
class TruncatedGeometric(Form):
    """The truncated alpha-geometric mechanism on counts 0..n (Ghosh-Roughgarden-Sundararajan 2009)."""

    eps: Any = arg(Eps(symbolic=True), default=None, doc="alpha = e^-eps")
    scale: Any = arg(Rational("scale", positive=True), default=None, doc="alpha = e^(-1/scale)")
    alpha: Any = arg(Rational("alpha", symbolic=True), default=None, doc="0 < alpha < 1")
    n: int = arg(Count("n", 1, 10_000), doc="outputs 0..n")
    counts: tuple = arg(PerDataset(Count("a count", 0, None), what="counts"), doc="{dataset: count}")
    truncation: str = arg(
        Choice(TRUNCATIONS, "truncation"), default="clamp", doc="clamp (GRS) or renormalize (a common mistake)"
    )

    def build(self, ctx: BuildContext) -> Mechanism:
        for d, c in zip(ctx.datasets, self.counts):
            if c > self.n:
                raise FieldProblem(("counts", d), f"a count must be between 0 and {self.n}, found {ladder.short(c)}")
        a = alpha_of(self.eps, self.alpha, ctx, "truncated_geometric", scale=self.scale)
        if is_sym(a):  # 0 < alpha < 1 on the whole domain, as for a number (eps > 0)
            open_unit_alpha(a, ctx, "alpha" if self.alpha is not None else "eps", "truncated_geometric")
            node = truncated_geometric_sym_node(a, self.n, list(self.counts), truncation=self.truncation)
            return ctx.wrap(node)
        return truncated_geometric(
            alpha=a,
            n=self.n,
            counts=list(self.counts),
            truncation=self.truncation,
            datasets=ctx.datasets,
            adjacent=ctx.adjacent,
            name=ctx.name,
        )


@form("report_noisy_max")
@dataclass(frozen=True, kw_only=True)
class ReportNoisyMax(Form):
    """Report-noisy-max with finite i.i.d. noise (ties: first output)."""

    values: tuple = arg(SCORES, doc="{dataset: [value per query]}")
    outputs: tuple | None = arg(ListOf(Label("an output"), what="outputs"), default=None, doc="output labels")
    noise: Any = arg(NOISE, doc="{geometric: {...}} or {pmf: {...}}")

    def build(self, ctx: BuildContext) -> Mechanism:
        labels, rows = score_table(self.values, self.outputs, ctx.datasets, "values")
        noise = build_noise(self.noise, ctx, "noise", infinite_ok=False, symbolic_ok=True)
        if any(is_sym(p) for _, p in noise.pmf or ()):
            sym_rows = report_noisy_max_rows(rows, noise)
            if len(labels) != len(sym_rows):
                raise FieldProblem("outputs", f"{len(labels)} output labels for {len(sym_rows)} queries")
            return ctx.wrap(SymChance(labels, sym_rows, (END,) * len(labels)))
        return report_noisy_max(
            rows, noise, outputs=labels, datasets=ctx.datasets, adjacent=ctx.adjacent, name=ctx.name
        )
