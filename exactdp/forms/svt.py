"""The sparse vector technique / AboveThreshold and its published variants
(:mod:`exactdp.builders.svt`; Lyu, Su & Li 2017; Dwork & Roth 2014).

.. code-block:: yaml

    svt:
      menu: {up: [0, 1], down: [1, 0]}   # query: value per dataset (or {dataset: value})
      threshold: 0
      horizon: 5                          # queries the adversary may submit
      sensitivity: 1                      # checked on the menu (default 1)
      variant: alg1                       # a published variant (alg1 .. alg6) calibrated to eps,
      eps: log(16)                        #   with c (default 1), width (clamped noise) and,
      c: 1                                #   for alg3 only, release: {lo, hi}
      # ... or explicit parameters instead of variant/eps/c/width:
      threshold_noise: {geometric: {eps: log(4)}}        # no width: infinite support
      query_noise: {geometric: {eps: log(2), width: 6}}  # or `none`
      halt_after: 1                       # or `never`
      resample: false                     # true: draw rho afresh after each `above`
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..builders.svt import LYU_VARIANTS, SVT, lyu_variant, sparse_vector
from ..model.game import Mechanism
from ..numbers.rational import Q
from ..numbers.symbolic import expr_str, is_symbolic, prove_nonzero, to_sympy
from .automaton import prove_posteriors_defined
from .classic import NOISE, Geometric, Pmf, build_noise, build_optional_noise
from .core import exp_eps_at
from .fields import (
    Choice,
    Count,
    Declared,
    Either,
    Eps,
    FieldProblem,
    Flag,
    Literal,
    MapOf,
    PerDataset,
    Rational,
    Record,
    arg,
)
from .registry import BuildContext, Form, form

__all__ = ["SVTForm", "Release"]

_PRESET = ("variant", "eps", "c", "width")
_EXPLICIT = ("threshold_noise", "query_noise", "halt_after", "resample")


@dataclass(frozen=True, kw_only=True)
class Release(Declared):
    """The released noisy value of an `above` answer is clamped to [lo, hi] (Lyu-Su-Li alg3)."""

    lo: int = arg(Count("lo", -(10**6), 10**6))
    hi: int = arg(Count("hi", -(10**6), 10**6))

    def validate(self) -> None:
        if self.lo > self.hi:
            raise FieldProblem((), f"release: lo = {self.lo} is larger than hi = {self.hi}")


@form("svt")
@dataclass(frozen=True, kw_only=True)
class SVTForm(Form):
    """The sparse vector technique / AboveThreshold and its published variants (Lyu-Su-Li 2017)."""

    menu: dict = arg(
        MapOf(PerDataset(Rational("a query value"), what="values"), min_len=1, what="menu (query: value per dataset)"),
        doc="{query: [value per dataset]}",
    )
    threshold: Any = arg(Rational("threshold"), default=Q(0), doc="the public threshold")
    horizon: int = arg(Count("horizon", 1, 64), doc="how many queries")
    sensitivity: Any = arg(Rational("sensitivity", positive=True), default=Q(1), doc="checked on the menu")
    variant: str | None = arg(Choice(tuple(LYU_VARIANTS), "variant"), default=None, doc="alg1 .. alg6 (Lyu-Su-Li 2017)")
    eps: Any = arg(Eps(symbolic=True), default=None, doc="the budget a variant is calibrated to")
    c: int | None = arg(Count("c", 1, 64), default=None, doc="`above` answers before halting (default 1)")
    width: int | None = arg(Count("width", 0, 10_000), default=None, doc="clamp the noise to [-width, width]")
    release: Release | None = arg(
        Record(Release, "release"), default=None, doc="alg3: released value clamped to [lo, hi]"
    )
    threshold_noise: Geometric | Pmf | None = arg(NOISE, default=None, doc="the noise rho on the threshold")
    query_noise: Geometric | Pmf | str | None = arg(
        Either((Literal("none", null_ok=True), NOISE)), default=None, doc="the noise nu on each query, or none"
    )
    halt_after: Any = arg(
        Either((Literal("never"), Count("halt_after", 1, 10_000))),
        default=None,
        doc="halt after this many `above` (or never)",
    )
    resample: bool | None = arg(Flag(), default=None, doc="draw rho afresh after each `above` (Dwork-Roth 2014)")

    def given(self, names: tuple[str, ...]) -> list[str]:
        return [n for n in names if getattr(self, n) is not None]

    def validate(self) -> None:
        if self.variant is not None:
            clash = self.given(_EXPLICIT)
            if clash:
                raise FieldProblem(
                    (),
                    f"svt: `variant:` sets the noise and halting; remove `{clash[0]}:`",
                    "or drop `variant:` and give every parameter explicitly",
                )
            if self.eps is None:
                raise FieldProblem((), "svt: `variant:` needs `eps:` (the privacy budget the variant is calibrated to)")
            return
        clash = self.given(_PRESET)
        if clash:
            raise FieldProblem(
                (),
                f"svt: `{clash[0]}:` belongs to the `variant:` form",
                "give `variant:` too, or use threshold_noise/query_noise",
            )
        if self.threshold_noise is None:
            raise FieldProblem(
                (), "svt needs `variant:` (with eps) or `threshold_noise:` (with query_noise, halt_after)"
            )
        if self.query_noise is None:
            raise FieldProblem((), "svt needs `query_noise:` (a noise, or `none` for no query noise)")

    def spec(self, ctx: BuildContext) -> SVT:
        menu = tuple(self.menu.items())
        if self.variant is not None:
            E = exp_eps_at("eps", self.eps, ctx, "svt", rational_only=True)
            if is_symbolic(E):  # alpha = E^(-1/b) < 1 needs eps > 0 for every value of the symbols
                assert ctx.symbols is not None  # a symbolic value is read only where symbols are declared
                if not prove_nonzero(to_sympy(E) - 1, ctx.symbols):
                    raise FieldProblem(
                        "eps",
                        f"svt: could not prove eps > 0 (e^eps = {expr_str(E)} > 1) for every value the bounds allow "
                        f"({ctx.symbols.describe()})",
                        "the variants' Laplace noise needs eps > 0: declare the symbol with a strict bound, e.g. "
                        "E: {gt: 1}",
                    )
            return lyu_variant(
                self.variant,
                exp_eps=E,
                menu=menu,
                threshold=self.threshold,
                c=self.c or 1,
                horizon=self.horizon,
                sensitivity=self.sensitivity,
                width=self.width,
                release=self.release_range(),
            )
        assert self.threshold_noise is not None  # validate(): the explicit form needs it
        # symbolic noises: the builder's sums and geometric tails are rational functions of alpha
        rho = build_noise(self.threshold_noise, ctx, "threshold_noise", infinite_ok=True, symbolic_ok=True)
        halt = 1 if self.halt_after is None else self.halt_after
        return SVT(
            menu=menu,
            threshold=self.threshold,
            threshold_noise=rho,
            query_noise=build_optional_noise(self.query_noise, ctx, "query_noise", infinite_ok=True, symbolic_ok=True),
            halt_after=None if halt == "never" else halt,
            horizon=self.horizon,
            resample_noise=rho if self.resample else None,
            release=self.release_range(),
        )

    def release_range(self) -> tuple[int, int] | None:
        """(lo, hi) of ``release:``, or None."""
        return None if self.release is None else (self.release.lo, self.release.hi)

    def build(self, ctx: BuildContext) -> Mechanism:
        m = sparse_vector(
            self.spec(ctx), datasets=ctx.datasets, adjacent=ctx.adjacent, sensitivity=self.sensitivity, name=ctx.name
        )
        if ctx.symbols is not None:  # the posterior of the hidden threshold divides by a history's probability
            prove_posteriors_defined(m, ctx.symbols, "threshold_noise", "svt")
        return m
