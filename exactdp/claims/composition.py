"""The ``composition`` claim: a composition theorem checked on real interactive mechanisms.

``composition: {components: [M1, M2, ...], theorem: basic|improved-basic|thm-1.8|optimal, delta: d}``

1. Each component Mᵢ is certified (εᵢ, δᵢ)-DP by the engine: δᵢ from ``deltas:`` (default 0),
   εᵢ from ``eps:`` (then checked: the claim fails if Mᵢ is not (εᵢ, δᵢ)-DP) or, by default,
   εᵢ = PrivLoss(Mᵢ, δᵢ) computed exactly.
2. The theorem turns (εᵢ, δᵢ) into a bound ε_T at the claim's δ:
   ``basic``/``improved-basic``/``thm-1.8`` give (Σεᵢ, δ_T), so ε_T = Σεᵢ for δ ≥ δ_T (δ defaults
   to δ_T) and no finite bound below; ``optimal`` gives the least ε_g at δ (Vadhan–Wang Thm 1.4/5.7).
3. The claim holds when PrivLoss(ConComp(M₁, M₂, ...), δ) ≤ ε_T exactly; the verdict shows
   both numbers and the slack ε_T − PrivLoss.

Every one of these is a *theorem* for concurrent composition of interactive components, so a
failing check is a bug (in exactdp or in the case), never an open question:

* pure components: basic composition (Vadhan–Wang 2021, Thm 3.3) and optimal composition
  (Vadhan–Wang 2021, Thm 5.7 via Lemma 5.5);
* any δᵢ: Theorem 1.8 of Vadhan–Wang 2021; and every composition theorem for noninteractive
  (ε, δ)-DP (basic, improved basic, optimal) holds for concurrent composition: Vadhan & Zhang,
  *Concurrent Composition Theorems for Differential Privacy* (STOC 2023), for (ε, δ)-DP and
  f-DP; Lyu, *Composition Theorems for Interactive Differential Privacy* (NeurIPS 2022), for
  (ε, δ)-DP and Rényi DP.

The components are every item of ``components:``: a repeated name is another copy
(``components: [R, R]`` is ConComp(R, R)); case-format 1 first wrote them as a list under ``of:``,
which still works (with a deprecation warning).  ``theorem: renyi`` and ``theorem: fdp`` (Lyu
2022; Vadhan & Zhang 2023) compare D_α and trade-off functions instead.

The closed forms with logarithms (``advanced``: Dwork, Rothblum & Vadhan 2010, Thm III.3;
``kov-3.4``: Kairouz, Oh & Viswanath 2015, Thm 3.4; the KOV slides' Theorems I and II as printed,
``kov-slides-1``/``kov-slides-2``) take a slack δ̃ (``slack:``) and fix their own δ; the bound
is a certified interval, compared with the exact PrivLoss at that δ and shown beside the exact
optimum.  ``valid: false`` claims that such a bound is *not* valid for these components (the
slides' Theorem I for 30-fold RR_0.1 at δ̃ = 10⁻⁶).  ``times: k`` repeats the list of
components, and ``interleave: sequential`` composes them one after another instead of
concurrently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .. import certificates as _cert
from ..analysis.gdp import Enclosure as Interval
from ..analysis.parametric import LogOf, Undecided, cmp_log, lambda_of, pgame
from ..analysis.parametric.engine import PGame, delta_at, least_lambda_of, profile
from ..analysis.parametric.hull import INF as PINF
from ..analysis.parametric.queries import renyi_cell
from ..analysis.results import value_cmp
from ..analysis.tradeoff import compare, tensor
from ..builders.combinators import compose
from ..certificates.base import NoCertificate
from ..errors import ExactDPError
from ..forms.fields import Choice, Count, Delta, Either, Eps, FieldProblem, Flag, Label, ListOf, Order, arg
from ..model.game import Mechanism
from ..numbers import INF, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from ..theorems import COMPOSITION_BOUNDS, compare_bound, components, guarantee, optimal, theorem, theorem_names
from .base import FAILS, HOLDS, UNDECIDED, UNSUPPORTED, Analysis, Claim, Shows, Verdict, claim
from .parametric import HANDLERS, Outcome, Parametric

__all__ = ["CompositionClaim", "COMPOSITION_THEOREMS", "INTERLEAVINGS"]

_NAME = Label("a mechanism name")
COMPOSITION_THEOREMS = theorem_names(claim=True)  # the theorems `theorem:` takes (exactdp.theorems.registry)
INTERLEAVINGS = ("concurrent", "sequential")

_RATIONAL_DELTAS = (
    "the composition theorems are evaluated for rational deltas: write a fraction or a decimal such as 1/10 "
    "(the claims delta, privloss, dp and not_dp take a delta in Q(e^(1/L)); declare the composition with "
    "`concomp:` to check it at such a delta)"
)


@claim("composition")
@dataclass(frozen=True, kw_only=True)
class CompositionClaim(Claim):
    """PrivLoss of concomp of the components is at most what the composition theorem gives
    (see the module docstring).  ``of`` is the tuple of component names."""

    of: Any = arg(
        Either((ListOf(Label("a mechanism name"), min_len=1, what="`of:` (a list of mechanism names)"), _NAME)),
        default=None,
        doc="deprecated spelling of components: (a list under of: still works)",
    )
    components: tuple | None = arg(
        ListOf(Label("a mechanism name"), min_len=1, what="`components:` (a list of mechanism names)"),
        default=None,
        doc="the components, e.g. components: [A, B] (a repeated name is another copy)",
    )
    theorem: str = arg(
        Choice(COMPOSITION_THEOREMS, "theorem"),
        default="optimal",
        doc="basic, improved-basic, thm-1.8, optimal, renyi, fdp, advanced, kov-3.4, kov-slides-1 or kov-slides-2",
    )
    slack: Any = arg(
        Delta(rational_because=_RATIONAL_DELTAS),
        default=None,
        doc="the slack delta~ of advanced, kov-3.4 and kov-slides-1/2",
    )
    times: int = arg(Count("times", 1, 100_000), default=1, doc="repeat the list of components this many times")
    interleave: str = arg(
        Choice(INTERLEAVINGS, "interleave"),
        default="concurrent",
        doc="concurrent (ConComp, default) or sequential (one after another)",
    )
    valid: bool = arg(Flag(), default=True, doc="false: the claim is that the theorem's bound is NOT valid here")
    delta: Any = arg(
        Delta(rational_because=_RATIONAL_DELTAS),
        default=None,
        doc="the delta of the composition (default: the theorem's)",
    )
    eps: tuple | None = arg(
        ListOf(Eps(symbolic=True), what="eps (one value per component)"),
        default=None,
        doc="claimed eps_i (default: PrivLoss of each)",
    )
    deltas: tuple | None = arg(
        ListOf(Delta(rational_because=_RATIONAL_DELTAS), what="deltas (one value per component)"),
        default=None,
        doc="delta_i of each component (default 0)",
    )
    alpha: Any = arg(Order(), default=None, doc="the Renyi order (theorem: renyi only)")
    of_was_list: bool = field(default=False, compare=False, repr=False)
    of_written: Any = field(default=None, compare=False, repr=False)
    hidden_fields = ("group", "pairs", "ordered", "adversaries")  # a claim about several mechanisms
    shows = Shows(
        "privloss",
        "PrivLoss of the composition at the claim's delta (a named bound's: at its own delta)",
        also=("bound", "slack", "optimum"),
    )
    _shows_by_theorem: ClassVar[dict[str, Shows]] = {
        "renyi": Shows("renyi", "D_alpha of the concurrent composition", also=("bound", "slack")),
        "fdp": Shows("margin", "min over alpha of T(ConComp)(alpha) - (tensor product)(alpha)"),
    }

    def __post_init__(self) -> None:
        # `of` is what a claim is about: for a composition, its components (reports, JSON and
        # certificates read it); a list under `of:`, the first spelling, still works
        if self.of is not None and self.of != self.components:
            object.__setattr__(self, "of_written", self.of)
        if self.components is None and isinstance(self.of, tuple):
            object.__setattr__(self, "components", self.of)
            object.__setattr__(self, "of_was_list", True)
        if self.components is not None:
            object.__setattr__(self, "of", self.components)

    def deprecations(self) -> tuple[tuple[str, str], ...]:
        if not self.of_was_list:
            return ()
        names = ", ".join(self.components or ())
        return (("of", f"a list under `of:` names the components of a composition; write `components: [{names}]`"),)

    def validate(self) -> None:
        if self.components is None:
            raise FieldProblem(
                "of" if self.of_written is not None else (),
                "composition needs `components:` (a list of mechanism names)",
                "for example: components: [A, B]",
            )
        if self.of_written is not None and not self.of_was_list:
            raise FieldProblem("of", "give the components once, under `components:`")
        self._validate_named()
        if (self.alpha is not None) != (self.theorem == "renyi"):
            raise FieldProblem(
                (), "`alpha:` goes with `theorem: renyi` (and it needs one)", "for example: theorem: renyi, alpha: 2"
            )
        extra = [k for k in ("delta", "eps", "deltas") if getattr(self, k) is not None]
        extra += [k for k, v in (("times", 1), ("interleave", "concurrent")) if getattr(self, k) != v]
        if self.theorem in ("renyi", "fdp") and extra:
            raise FieldProblem(extra[0], f"`{extra[0]}:` does not apply to theorem: {self.theorem}")
        for key in ("eps", "deltas"):
            vals = getattr(self, key)
            if vals is not None and len(vals) != len(self.of):
                raise FieldProblem(
                    key,
                    f"`{key}:` has {len(vals)} values for {len(self.of)} components",
                    "give one value per mechanism in `components:`",
                )

    def _validate_named(self) -> None:
        """``slack:`` and ``valid: false`` go with the named bounds, which fix their own delta."""
        named = self.theorem in COMPOSITION_BOUNDS
        if named and self.slack is None:
            raise FieldProblem(
                (), f"theorem {self.theorem} needs `slack:` (its delta~)", "for example slack: 1/1000000"
            )
        if (
            named
            and self.slack is not None
            and not (0 < self.slack < 1 or (self.slack == 1 and self.theorem != "advanced"))
        ):
            top = "1)" if self.theorem == "advanced" else "1]"
            raise FieldProblem(
                "slack", f"the slack delta~ of {self.theorem} must lie in (0, {top}, got {q_str(self.slack)}"
            )
        if not named and self.slack is not None:
            raise FieldProblem("slack", f"`slack:` applies to advanced, kov-3.4 and kov-slides-1/2, not {self.theorem}")
        if named and self.delta is not None:
            raise FieldProblem("delta", f"theorem {self.theorem} fixes its own delta from `slack:` and the components")
        if not self.valid and not named:
            raise FieldProblem(
                "valid", "`valid: false` applies to the named bounds (advanced, kov-3.4, kov-slides-1/2)"
            )

    @property
    def copies(self) -> tuple:
        """The components composed: the list ``components`` repeated ``times`` times."""
        return tuple(self.components or ()) * self.times

    def _composed_name(self) -> str:
        names = ", ".join(self.of) + (f" (x{self.times})" if self.times > 1 else "")
        return ("Compose" if self.interleave == "sequential" else "ConComp") + f"({names})"

    def shown(self) -> Shows:
        return self.named(self._shows_by_theorem.get(self.theorem, self.shows))

    def statement(self) -> str:
        d = "" if self.delta is None else f", delta {q_str(self.delta)}"
        d += "" if self.slack is None else f", slack {q_str(self.slack)}"
        a = "" if self.alpha is None else f", alpha {ladder.text(self.alpha)}"
        rel = "within" if self.valid else "NOT within"
        return f"{self._composed_name()} {rel} {self.theorem}{d}{a}"

    def params(self) -> dict[str, str]:
        out = {"of": ", ".join(self.of), "theorem": self.theorem}
        if self.slack is not None:
            out["slack"] = q_str(self.slack)
        if self.times != 1:
            out["times"] = str(self.times)
        if self.interleave != "concurrent":
            out["interleave"] = self.interleave
        if not self.valid:
            out["valid"] = "false"
        if self.alpha is not None:
            out["alpha"] = ladder.text(self.alpha)
        if self.delta is not None:
            out["delta"] = q_str(self.delta)
        if self.eps is not None:
            out["eps"] = ", ".join(ladder.text(e) for e in self.eps)
        if self.deltas is not None:
            out["deltas"] = ", ".join(q_str(d) for d in self.deltas)
        return out

    def certificate(self, an: Analysis) -> dict | None:
        """The components' games and parameters; the checker builds the composition itself."""
        if self.theorem in COMPOSITION_BOUNDS or self.times != 1 or self.interleave != "concurrent":
            raise NoCertificate(
                "composition claims with named bounds, times or sequential interleaving have no certificate yet"
            )
        return _cert.composition_certificate(an, self, self.check(an).status == HOLDS)

    def _component_eps(self, an: Analysis, names: tuple, deltas: tuple) -> list | Verdict:
        """εᵢ of each component: the claimed one (checked) or PrivLoss(Mᵢ, δᵢ); a Verdict when a
        claimed εᵢ is wrong, or undecided when PrivLoss(Mᵢ, δᵢ) is infinite (the theorem then
        gives no bound: the claim needs that component's δᵢ under ``deltas:``, and the facts
        carry the least δᵢ of every component for which PrivLoss is finite, δ_Mᵢ(∞))."""
        eps_i = []
        for k, name in enumerate(names):
            prof = an.profile(name)
            if self.eps is not None:
                claimed = self.eps[k % len(self.eps)]  # the list of components repeated `times` times
                d = prof.delta_at(claimed)
                if value_cmp(d, deltas[k]) > 0:
                    facts = {"component": name, "component_eps": claimed, "component_delta": deltas[k]}
                    return Verdict(self, FAILS, {**facts, "delta_at_eps": d})
                eps_i.append(claimed)
            else:
                e = prof.privloss(deltas[k])
                if is_inf(e):
                    least = tuple(an.profile(n).limit() for n in names)
                    facts = {"component": name, "component_delta": deltas[k], "component_privloss": e}
                    return Verdict(self, UNDECIDED, {**facts, "least_deltas": least})
                eps_i.append(e)
        return eps_i

    def check(self, an: Analysis) -> Verdict:
        family = theorem(self.theorem).family
        if family == "renyi":
            return self._check_renyi(an)
        if family == "fdp":
            return self._check_fdp(an)
        names = self.copies
        deltas = self.deltas * self.times if self.deltas else tuple(Q(0) for _ in names)
        eps_i = self._component_eps(an, names, deltas)
        if isinstance(eps_i, Verdict):
            return eps_i
        comps = components(eps_i, list(deltas))
        mech = self._composed(an, names)
        if family == "interval":
            return self._check_named(an, mech, comps, eps_i, deltas)
        prof = self._profile(an, mech, names)
        g = guarantee(self.theorem, comps, self.delta)
        bound, at, tdelta = g.eps, g.delta, g.theorem_delta
        found = prof.privloss(at)
        ok = ladder.cmp(found, bound) <= 0 if not is_inf(bound) else True
        slack = None if is_inf(bound) or is_inf(found) else ladder.sub(bound, found)
        facts = {
            "privloss": found,
            "bound": bound,
            "slack": slack,
            "components": tuple(zip(eps_i, deltas)),
            "delta": at,
            "theorem_delta": tdelta,
        }
        return Verdict(self, HOLDS if ok else FAILS, facts)

    def _profile(self, an: Analysis, mech: Mechanism, names: tuple) -> Any:
        """The composed game's profile, once per case for every claim about the same composition
        (the theorems of one file compared against one game)."""
        return an.cached(("composed-profile", self.interleave, names), lambda: an.engine.profile(mech))

    def _composed(self, an: Analysis, names: tuple) -> Mechanism:
        """ConComp of the components (one per list item: components: [R, R] is two copies of R),
        or with ``interleave: sequential`` their sequential composition."""
        if self.interleave == "sequential":
            return an.cached(
                ("compose", names), lambda: compose([an.mech(n) for n in names], name=self._composed_name())
            )
        return an.concomp(names)

    def _check_named(self, an: Analysis, mech: Mechanism, comps: Any, eps_i: list, deltas: tuple) -> Verdict:
        """A named bound with logarithms (advanced, KOV, the slides): a certified interval at its
        own delta, compared with the exact PrivLoss of the composition and the exact optimum."""
        try:
            bound = theorem(self.theorem).compute(comps, self.slack)  # type: ignore[misc]
        except ExactDPError as e:  # a bound stated for homogeneous components only
            return Verdict(self, UNSUPPORTED, {"not_applicable": str(e)})
        found = self._profile(an, mech, self.copies).privloss(bound.delta)
        opt = optimal(comps, bound.delta).eps
        status = compare_bound(bound, found)
        facts = {
            "privloss": found,
            "bound_interval": Interval(bound.lo, bound.hi),  # certified; the bound itself does not pickle
            "optimum": opt,
            "delta": bound.delta,
            "bound_status": status,
            "status_vs_optimum": compare_bound(bound, opt),
            "components": tuple(zip(eps_i, deltas)),
        }
        if status == "undecided":
            return Verdict(self, UNDECIDED, facts)
        return Verdict(self, HOLDS if (status == "valid") == self.valid else FAILS, facts)

    def _check_renyi(self, an: Analysis) -> Verdict:
        """D_α(ConComp(A, B, ...)) ≤ Σ D_α(components): a theorem for concurrent composition of
        interactive mechanisms (Lyu, *Composition Theorems for Interactive Differential Privacy*,
        NeurIPS 2022; also Vadhan & Zhang, STOC 2023)."""
        parts = [an.renyi(n, self.alpha).value for n in self.of]
        bound: Any = INF if any(is_inf(p) for p in parts) else parts[0]
        if not is_inf(bound):
            for p in parts[1:]:
                bound = ladder.add(bound, p)
        found = an.engine.renyi(an.concomp(tuple(self.of)), self.alpha).value
        ok = ladder.cmp(found, bound) <= 0
        slack = None if is_inf(bound) or is_inf(found) else ladder.sub(bound, found)
        facts = {"renyi": found, "bound": bound, "slack": slack, "components": tuple(parts), "alpha": self.alpha}
        return Verdict(self, HOLDS if ok else FAILS, facts)

    def _check_fdp(self, an: Analysis) -> Verdict:
        """T(ConComp(A, B, ...)) ≥ T(A) ⊗ T(B) ⊗ …, the tensor product of the components'
        trade-off functions (Dong–Roth–Su 2022, Thm 3.2 for noninteractive composition; for
        concurrent composition Vadhan & Zhang, *Concurrent Composition Theorems for Differential
        Privacy*, STOC 2023); its largest gap is 0 when the theorem is tight."""
        bound = tensor([an.profile(n).envelope for n in self.of])
        d = compare(an.engine.profile(an.concomp(tuple(self.of))).envelope, bound)
        return Verdict(self, HOLDS if d.holds else FAILS, d.facts())


# --- with symbols: decided for every value (exactdp.claims.parametric) ---------------------------


def _parametric_composition(cl: CompositionClaim, P: Parametric) -> Callable[[Any], Any]:
    """The cell handler of ``composition`` with symbols: on each cell, the components' εᵢ (the
    claimed ones, checked, or PrivLoss(Mᵢ, δᵢ)) as logs of rational functions, the theorem's
    bound from them, and PrivLoss of the composition, compared exactly.

    ``basic`` and ``improved-basic`` give Σεᵢ (at δ ≥ their δ_g, which depends on the δᵢ only);
    ``thm-1.8`` is decided when every δᵢ is 0 (then it is basic); ``optimal`` is PrivLoss(⊗RR_{εᵢ}, τ)
    at τ = 1 − (1 − δ)/Π(1 − δᵢ) (Vadhan–Wang Thm 1.4: ⊗RR attains the optimal bound; Kairouz, Oh
    & Viswanath 2015), computed by the parametric engine on a game built per cell; ``renyi``
    compares D_α(ConComp) with Σ D_α(Mᵢ) for a whole α ≥ 2 or ∞.  The named bounds with
    logarithms and ``fdp`` are not decided with symbols (Undecided)."""
    family = theorem(cl.theorem).family
    names = cl.copies
    deltas = tuple(cl.deltas) * cl.times if cl.deltas else tuple(Q(0) for _ in names)
    if family not in ("fixed", "optimal", "renyi") or (cl.theorem == "thm-1.8" and any(d != 0 for d in deltas)):
        raise Undecided(
            f"the composition theorem {cl.theorem} is not decided with symbols (its bound is not the log of a "
            "rational function of the symbols); basic, improved-basic, optimal, renyi, and thm-1.8 with pure "
            "components are; give the symbols values (params or a sweep)"
        )
    ring = P.ring
    an = P.an
    composed = cl._composed(an, tuple(cl.of) if family == "renyi" else names)
    game = an.cached(("pgame", "composition", composed.name, ring.names), lambda: pgame(composed, ring))
    claimed = [lambda_of(cl.eps[k % len(cl.eps)], ring) for k in range(len(names))] if cl.eps is not None else None

    def prof(g: Any, ctx: Any) -> Any:
        return ctx.stage(("composition-profile", id(g)), lambda: profile(g, ctx))

    def log_sum(parts: list) -> Any:
        if any(p is PINF for p in parts):
            return PINF
        k = parts[0].k
        R = ring.one
        for p in parts:
            R = R * p.R
        return LogOf(R, k)

    if family == "renyi":
        label = f"D_{ladder.text(cl.alpha)}({cl._composed_name()})"

        def renyi_of(g: Any, p: Any, ctx: Any) -> Any:
            # D_inf is PrivLoss(., 0) from the profile (kept under this claim's own key for the
            # composition, which is not a mechanism of the case); a whole alpha >= 2 its Renyi sums
            if not is_inf(cl.alpha):
                return renyi_cell(g, cl.alpha, ctx)
            lam = least_lambda_of(p(ctx), ring.zero, ctx)
            return PINF if lam is PINF else LogOf(lam)

        def run_renyi(ctx: Any) -> Any:
            parts = [renyi_of(P.game(n), lambda c, n=n: P.profile(n, c), ctx) for n in cl.of]
            bound = log_sum(parts)
            found = renyi_of(game, lambda c: prof(game, c), ctx)
            return Outcome(bound is PINF or cmp_log(found, bound, ctx) <= 0, found, label)

        return run_renyi

    at = cl.delta if cl.delta is not None else (_fixed_delta(cl.theorem, deltas) if family == "fixed" else Q(0))
    label = f"PrivLoss({cl._composed_name()}, {q_str(at)})"

    def component_lambdas(ctx: Any) -> list | None:
        out = []
        for k, n in enumerate(names):
            p = P.profile(n, ctx)
            if claimed is not None:
                if claimed[k] is not PINF and ctx.cmp(delta_at(p, claimed[k], ctx), ring.lift(deltas[k])) > 0:
                    return None  # a claimed eps_i is wrong: the claim fails (as the numeric check says)
                out.append(claimed[k])
            else:
                lam = least_lambda_of(p, ring.lift(deltas[k]), ctx)
                if lam is PINF:
                    raise Undecided(
                        f"PrivLoss({n}, {q_str(deltas[k])}) is infinite on {ctx.cell.text()}, so the theorem gives "
                        f"no bound; give that component's delta under `deltas:`"
                    )
                out.append(lam)
        return out

    def bound_of(lams: list, ctx: Any) -> Any:
        if any(lam is PINF for lam in lams):
            return PINF
        if family == "fixed":
            if ladder.cmp(at, _fixed_delta(cl.theorem, deltas)) < 0:
                return PINF
            return log_sum([LogOf(lam) for lam in lams])
        tau = _optimal_target(deltas, at)
        if tau is None:
            return PINF
        rr = ctx.stage(("rr-product", id(game)), lambda: _rr_product(lams, ring))
        lam = least_lambda_of(prof(rr, ctx), ring.lift(tau), ctx)
        return PINF if lam is PINF else LogOf(lam)

    def run(ctx: Any) -> Any:
        lams = component_lambdas(ctx)
        if lams is None:
            return Outcome(False, "not met: a component is not (eps_i, delta_i)-DP", "the claimed eps_i")
        bound = bound_of(lams, ctx)
        lam = least_lambda_of(prof(game, ctx), ring.lift(at), ctx)
        found = PINF if lam is PINF else LogOf(lam)
        return Outcome(bound is PINF or cmp_log(found, bound, ctx) <= 0, found, label, parts=tuple(lams))

    return run


def _fixed_delta(name: str, deltas: tuple) -> Any:
    """δ_g of basic (Σδᵢ), improved-basic (1 − Π(1 − δᵢ)) and thm-1.8 with pure components (0)."""
    if name == "improved-basic":
        keep = Q(1)
        for d in deltas:
            keep *= 1 - d
        return 1 - keep
    return sum(deltas, Q(0))


def _optimal_target(deltas: tuple, delta_g: Any) -> Any:
    """τ = 1 − (1 − δ_g)/Π(1 − δᵢ), or None when no finite ε works (as the numeric theorem)."""
    keep = Q(1)
    for d in deltas:
        keep *= 1 - d
    if keep == 0:
        return Q(0) if delta_g >= 1 else None
    tau = 1 - (1 - delta_g) / keep
    return tau if tau >= 0 else None


def _rr_product(lams: list, ring: Any) -> Any:
    """⊗RR_{εᵢ} with e^{εᵢ} = ``lams[i]`` (rational functions of the symbols) as a parametric game:
    RR with ratio λ keeps the bit w.p. λ/(1 + λ) (Kairouz, Oh & Viswanath 2015)."""
    nodes: list[tuple] = [("end",)]
    for lam in reversed(lams):
        keep, flip = lam / (1 + lam), 1 / (1 + lam)
        nodes.append(("chance", ((keep, flip), (flip, keep)), (len(nodes) - 1, len(nodes) - 1)))
    return PGame(ring, "RR-product", ("x0", "x1"), ((0, 1), (1, 0)), ((0, 1),), tuple(nodes))


HANDLERS["composition"] = _parametric_composition
