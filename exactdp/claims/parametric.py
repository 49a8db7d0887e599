r"""Claims with symbols: a claim holds iff it holds for every value the declared bounds allow.

When a claim's mechanism has probabilities in the case's ``symbols:`` (or its own values do,
e.g. ``eps: log(E)``), :func:`check_claim` decides it with the parametric engine
(:mod:`exactdp.analysis.parametric`): the symbols' domain is cut into cells on which every
comparison the engines make has one sign, proved exactly; in each cell the claim's quantity
is a closed form (a rational function of the symbols, or the log of one) and the verdict is
constant.  The report gives the piecewise answer.

* The claim **holds** when it holds on every cell.
* It **fails** with a *rational* value of the symbols in a failing cell, and the concrete
  verdict there — the numeric engine's, with its witness — for the mechanism with the symbols
  given that value.  (Only when a claim fails at a single irrational point is the value an
  algebraic number, given exactly.)
* A comparison with a transcendental number e^q (a claimed value with a rational part such as
  ``log(E) + 1``, or a decimal ``eps: 0.7`` in ``dp``/``not_dp``) is decided by certified signs
  on cells where the rational function compared is monotone
  (:mod:`~exactdp.analysis.parametric.transcendental`); where it crosses e^q inside a cell the
  claim fails on a part of it, and the outcome carries a rational point there (``at``).
* It is **undecided** (never assumed) when a comparison in several symbols cannot be proved to
  have one sign on a cell, or a closed form would change at a transcendental point (``delta``
  at ``eps: 0.1``); the verdict says which.

Every cell with a rational point is cross-checked against the numeric engine at that point
(the profile, and the claim's verdict); a disagreement is a bug
(:class:`~exactdp.errors.VerificationError`).

References
----------
Vadhan & Wang 2021 (Def. 1.7, Lemma 2.2, §5); Mironov 2017 (Rényi DP); Dong, Roth & Su 2022
(f-DP, Prop. 2.12: T(M) ≥ T(R) iff δ_M ≤ δ_R everywhere).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .. import limits
from ..analysis.parametric import (
    INF,
    Ctx,
    Decomposition,
    LogOf,
    PProfile,
    Ring,
    Split,
    Undecided,
    cmp_log,
    decompose,
    domain_of_table,
    lambda_of,
    mixed_log_form,
    pgame,
    pieces,
    profile,
    rational_of,
    value_text,
)
from ..analysis.parametric.cells import CellFacts
from ..analysis.parametric.check import check_hull_at
from ..analysis.parametric.engine import cell_fact, delta_at, envelope_delta_at, least_lambda_of, max_value, tradeoff_at
from ..analysis.parametric.exp_delta import delta_forms, prefix_signs
from ..analysis.parametric.piecewise import Piece
from ..analysis.parametric.queries import renyi_sum_max, whole_order
from ..analysis.parametric.ratfun import RatFun
from ..analysis.parametric.separate import separating_points
from ..analysis.parametric.transcendental import Crossing, crossing_of, exp_sign, exp_sign_at, exp_witness
from ..analysis.parametric.values import exp_lambda
from ..errors import LimitExceededError, TimeLimitExceeded, VerificationError
from ..lazy import flint, load
from ..model.game import Ask, Chance, End, Mechanism, postorder
from ..model.symbolic import SymChance, is_symbolic_mechanism
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.loglinear import canonical, log_linear
from ..numbers.rational import Q, q_short
from ..numbers.symball import is_transcendental
from ..numbers.symbolic import exact_constant, is_sym, sympy
from .base import FAILS, HOLDS, Analysis, Claim, Subject, Verdict
from .sampled import refute_by_samples
from .symbols import check_claim, involves_symbols

__all__ = [
    "check_claim",
    "involves_symbols",
    "Parametric",
    "Outcome",
    "decide",
    "claim_at",
    "analysis_at",
    "verdict_at",
    "refuted_at",
    "numeric_mechanism",
    "sympy_point",
    "HANDLERS",
    "load_deciders",
    "MAX_CROSS_CHECKS",
    "DECIDERS",
]

DECIDERS: list[tuple[Callable[[Claim], bool], Callable[[Claim, Analysis], Verdict]]] = []
"""Claims with symbols that another method decides, consulted first: (applies, decide), each
registered by its module (KL divergences by certified boxes: :mod:`exactdp.claims.parametric_boxes`);
``decide`` raises :class:`Undecided` with the reason where it cannot decide."""

DECIDER_MODULES = (
    "exactdp.claims.parametric_boxes",
    "exactdp.claims.parametric_gdp",
    "exactdp.claims.parametric_compose",
    "exactdp.claims.parametric_klcal",
    "exactdp.claims.parametric_zcdp",
    "exactdp.claims.parametric_renyi_boxes",
)
"""The modules that register into :data:`DECIDERS` or :data:`HANDLERS`, in this order: imported
when a claim with symbols is first decided (start-up: a case without symbols needs none of them)."""

MAX_CROSS_CHECKS = 32
"""Cells of one claim cross-checked against the numeric engine (the first ones with a rational
point, open cells first)."""


@dataclass(frozen=True)
class Outcome:
    """A claim on one cell: whether it holds there, and the value found (a closed form).

    ``at`` is a rational point of the cell where the claim fails, when it fails on a part of the
    cell only: a rational function of the symbol meets a transcendental number e^q inside it
    (:mod:`~exactdp.analysis.parametric.transcendental`), at a point that is no cell end;
    ``crossing`` is that point (a :class:`Crossing`: which side holds, and whether the point
    itself does) when it is the only one, for calibration.  ``parts``: for a composition, the
    components' e^εᵢ on the cell (rational functions), which its certificate states."""

    holds: bool
    found: Any
    label: str = ""
    at: Any = None
    crossing: Any = None
    parts: Any = None


def _target(raw: Any, ring: Ring) -> Any:
    """A claimed ε-type value as (q, log(R)/k) (q rational, possibly 0) or :data:`INF`."""
    return mixed_log_form(raw, ring)


def _cmp_target(found: Any, target: Any, ctx: Ctx, bad: int, closed: bool | None = None) -> tuple[int, Any, Any]:
    """The sign of ``found`` − ``target`` on the cell (``found`` a :class:`LogOf` or INF, the
    target from :func:`_target`), None, None; or (0, a rational point where the sign is ``bad``,
    the :class:`Crossing` where the sign changes — for an ``equals`` test, ``closed`` None, one
    that holds at the crossing alone)
    when the difference takes both signs on the cell (a target with a rational part q ≠ 0:
    log(F)/k₁ − q − log(R)/k₂ has the sign of G − e^{k₁k₂q}, G = F^{k₂}/R^{k₁})."""
    if target is INF or found is INF:
        return cmp_log(found, target if target is INF else target[1], ctx), None, None
    q, t = target
    if q == 0:
        return cmp_log(found, t, ctx), None, None
    if ctx.sign(t.R) <= 0:
        raise Undecided(f"the claimed value's log({value_text(t.R)}) is not defined on all of {ctx.cell.text()}")
    G = found.R**t.k / t.R**found.k
    m = q * found.k * t.k
    s = exp_sign(ctx, G, m)
    if s:
        return s, None, None
    # an equals test (closed None) holds at the crossing alone: a Crossing whose sides both fail
    crossing = None
    if closed is not None:
        crossing = crossing_of(ctx, G, m, -bad, closed)
    else:
        try:
            crossing = crossing_of(ctx, G, m, 0, True)
        except Undecided:  # the verdict does not need it (calibration then says why not)
            crossing = None
    return 0, exp_witness(ctx, G, m, bad), crossing


_TESTS = {"equals": (lambda c: c == 0, 1), "at_most": (lambda c: c <= 0, 1), "exceeds": (lambda c: c > 0, -1)}
_AT_CROSSING: dict[str, bool | None] = {"equals": None, "at_most": True, "exceeds": False}
"""Whether a test holds where the compared values are equal (None: ``equals`` holds only there,
a single transcendental point: a calibrated set of one point)."""


class Parametric:
    """The parametric side of an :class:`Analysis`: the symbols' ring and domain, each
    mechanism's game over the ring, and its profile on a cell (computed once per cell)."""

    def __init__(self, an: Analysis, *, calibrating: bool = False):
        self.an = an
        self.calibrating = calibrating  # cut cells where a target changes at several transcendental points
        table = an.symbols
        names = [b.name for b in table.bounds] if table else []
        if not names:
            what = "calibration needs a symbol" if calibrating else "the claim mentions symbols"
            raise Undecided(f"{what} but the case declares none under `symbols:`")
        self.ring = Ring(names)
        self.domains = domain_of_table(table, self.ring.names)

    def game(self, subject: Subject) -> Any:
        return self.an.cached(("pgame", subject, self.ring.names), lambda: pgame(self.an.mech(subject), self.ring))

    def profile(self, subject: Subject, ctx: Ctx) -> PProfile:
        return ctx.stage(("profile", subject), lambda: profile(self.game(subject), ctx))

    def decide(self, run: Callable[[Ctx], Any]) -> Decomposition:
        # the claims of a case share what is proved on each cell (signs, chains): they meet
        # the same cells of the same mechanisms
        facts = self.an.cached(("cell-facts", self.ring.names, self.domains), lambda: CellFacts(cell_fact))
        return decompose(self.ring, self.domains, run, facts=facts)


Run = Callable[[Ctx], Outcome]
HANDLERS: dict[str, Callable[[Any, Parametric], Run]] = {}


def _handles(*kinds: str) -> Callable:
    def reg(fn: Callable) -> Callable:
        for k in kinds:
            HANDLERS[k] = fn
        return fn

    return reg


@_handles("privloss")
def _privloss(claim: Any, P: Parametric) -> Run:
    ring = P.ring
    delta = rational_of(claim.delta, ring)
    key = "equals" if claim.equals is not None else "at_most"
    target = _target(getattr(claim, key), ring)
    test, bad = _TESTS[key]
    label = f"PrivLoss({claim.of}, {value_text(delta)})"

    def run(ctx: Ctx) -> Outcome:
        lam = least_lambda_of(P.profile(claim.subject, ctx), delta, ctx)
        found = INF if lam is INF else LogOf(lam)
        c, at, crossing = _cmp_target(found, target, ctx, bad, _AT_CROSSING[key])
        return Outcome(test(c) and at is None, found, label, at, crossing)

    return run


def _crossings(P: Parametric, ctx: Ctx, signs: list[tuple[int, Any]], q: Any) -> list[RatFun]:
    """The distinct G_k of the prefixes whose form crosses the bound inside the cell; when
    calibrating, several of them (of one symbol) cut the cell between their crossings instead."""
    mixed = list(dict.fromkeys(G for sg, G in signs if sg == 0 and G is not None))
    if P.calibrating and len(mixed) > 1 and len({G.variables() for G in mixed}) == 1:
        raise Split(P.ring.names.index(mixed[0].variables()[0]), separating_points(ctx, mixed, q))
    return mixed


def _dp_exp(claim: Any, P: Parametric, q: Any, L: RatFun) -> Run:
    """``dp``/``not_dp`` at λ = e^q·L: δ(λ) = max over each pair's prefixes k (edges by decreasing
    slope) of A_k − λ·B_k, so δ(λ) ≤ d iff A_k − d ≤ e^q·L·B_k for every k: the sign of
    (A_k − d)/(L·B_k) − e^q, decided on the cell (:func:`exp_sign`)."""
    ring = P.ring
    bound = rational_of(claim.delta, ring)
    negate = claim.kind == "not_dp"
    label = f"delta_{claim.of}(e^eps)"

    def run(ctx: Ctx) -> Outcome:
        if ctx.sign(L) <= 0:
            raise Undecided(f"e^eps = exp({q})*({value_text(L)}) is not positive on all of {ctx.cell.text()}")
        signs = prefix_signs(P.profile(claim.subject, ctx), ctx, q, L, bound)  # per prefix: sign of A_k − λB_k − d, G_k
        mixed = _crossings(P, ctx, signs, q)
        found = _delta_form(P, claim, ctx, q, L)
        below = all(sg < 0 or (G is None and sg == 0) for sg, G in signs)  # δ(λ) ≤ d on the whole cell
        # one prefix crossing the bound: δ(λ) ≤ d exactly where G ≤ e^q (the point itself included),
        # δ(λ) > d exactly where G > e^q; with several, a calibration has cut the cell between them
        crossing: Crossing | None = None
        if len(mixed) == 1 and (negate or not any(sg > 0 for sg, _ in signs)):
            crossing = crossing_of(ctx, mixed[0], q, 1 if negate else -1, not negate)
        if not negate:
            if any(sg > 0 for sg, _ in signs):  # one prefix exceeds d on the whole cell: fails on all of it
                return Outcome(False, found, label)
            if mixed:
                return Outcome(False, found, label, exp_witness(ctx, mixed[0], q, 1), crossing)
            return Outcome(below, found, label)
        if any(sg > 0 for sg, _ in signs):
            return Outcome(True, found, label)
        if below:
            return Outcome(False, found, label)
        for G in mixed:  # only the mixed prefixes exceed d somewhere: where all are below, not_dp fails
            pt = exp_witness(ctx, G, q, -1)
            if all(exp_sign_at(H, q, pt) < 0 for H in mixed):
                return Outcome(False, found, label, pt, crossing)
        raise Undecided(
            f"delta(e^eps) crosses the bound inside {ctx.cell.text()} at a value where a rational function of the "
            "symbol equals a transcendental number; not_dp needs it above the bound everywhere, which is not decided"
        )

    return run


_CHANGES = "(its form changes inside, at a transcendental point)"


def _delta_form(P: Parametric, claim: Any, ctx: Ctx, q: Any, L: RatFun) -> Any:
    """δ(e^q·L) on the cell (:func:`~exactdp.analysis.parametric.exp_delta.delta_forms`), or
    :data:`_CHANGES` when there are too many forms to compare."""
    got = delta_forms(P.profile(claim.subject, ctx), ctx, q, L)
    return _CHANGES if got is None else got


def _dp_like(claim: Any, P: Parametric, holds: Callable[[int], bool]) -> Run:
    ring = P.ring
    if claim.kind in ("dp", "not_dp", "premise"):
        exp_lam = exp_lambda(claim.eps, ring)
        if exp_lam is not None:
            return _dp_exp(claim, P, *exp_lam)
    lam = lambda_of(claim.eps, ring)
    bound = rational_of(claim.delta if claim.kind != "delta" else claim.equals, ring)
    label = f"delta_{claim.of}(e^eps)"

    def run(ctx: Ctx) -> Outcome:
        if lam is INF:
            return Outcome(holds(-1), ring.zero, label)
        d = delta_at(P.profile(claim.subject, ctx), lam, ctx)
        return Outcome(holds(ctx.cmp(d, bound)), d, label)

    return run


@_handles("dp", "premise")
def _dp(claim: Any, P: Parametric) -> Run:
    return _dp_like(claim, P, lambda c: c <= 0)


@_handles("not_dp")
def _not_dp(claim: Any, P: Parametric) -> Run:
    return _dp_like(claim, P, lambda c: c > 0)


@_handles("delta")
def _delta(claim: Any, P: Parametric) -> Run:
    exp_lam = exp_lambda(claim.eps, P.ring)
    if exp_lam is not None:
        return _delta_exp(claim, P, *exp_lam)
    return _dp_like(claim, P, lambda c: c == 0)


def _delta_exp(claim: Any, P: Parametric, q: Any, L: RatFun) -> Run:
    """``delta: {eps, equals: d}`` at λ = e^q·L (q ≠ 0 rational): δ(λ) = max over each pair's
    prefixes k of A_k − λ·B_k.  A prefix with B_k ≠ 0 equals d only where e^q = (A_k − d)/(L·B_k),
    never at an algebraic value of the symbol (e^q is transcendental: Lindemann–Weierstrass), so
    on a cell δ(λ) = d iff every such prefix stays below d and a prefix with B_k = 0 (the mass of
    views impossible under x') equals d there; a prefix crossing d inside the cell refutes the
    claim at a rational point where it is above."""
    ring = P.ring
    d = rational_of(claim.equals, ring)
    label = f"delta_{claim.of}(e^eps)"

    def run(ctx: Ctx) -> Outcome:
        if ctx.sign(L) <= 0:
            raise Undecided(f"e^eps = exp({q})*({value_text(L)}) is not positive on all of {ctx.cell.text()}")
        signs = prefix_signs(P.profile(claim.subject, ctx), ctx, q, L, d)
        crossing = _crossings(P, ctx, signs, q)  # the G_k of the prefixes that cross d inside the cell
        found, at_d = _delta_form(P, claim, ctx, q, L), any(sg == 0 for sg, G in signs if G is None)
        if any(sg > 0 for sg, _ in signs):
            return Outcome(False, found, label)
        if crossing:  # one crossing form: δ = d where it is at most d (a B_k = 0 form is d), else at it alone
            where = crossing_of(ctx, crossing[0], q, -1 if at_d else 0, True) if len(crossing) == 1 else None
            return Outcome(False, found, label, exp_witness(ctx, crossing[0], q, 1), where)
        return Outcome(at_d, found, label)

    return run


def _first_excess(a: PProfile, b: PProfile, ctx: Ctx, *, all_slopes: bool) -> Any:
    """The first λ (1 and every breakpoint > 1, or with ``all_slopes`` every breakpoint > 0)
    where δ_a(λ) > δ_b(λ) on the cell; :data:`INF` when only the limits differ; None if none.
    The breakpoints are the slopes of each envelope (the max over the ordered pairs): where two
    pairs' δ cross is a breakpoint of the max although it is none of either pair's.  δ_a − δ_b
    is linear between these λ and constant beyond them, so this is exact."""
    ring = ctx.ring
    lams = [] if all_slopes else [ring.one]
    for p in (a, b):
        for h in (p.envelope(ctx),):
            for r, _ in h.edges:
                if (ctx.sign(r) > 0) if all_slopes else (ctx.cmp(r, ring.one) > 0):
                    lams.append(r)
    # δ_a(λ) is read off a's envelope (the upper hull of its pairs' chains: for λ ≥ 0 its δ is the
    # max of theirs) by a binary search among its sorted slopes, not by comparing every slope of
    # every pair with λ: the same rational function on the cell, with O(log n) signs per λ
    for lam in dict.fromkeys(lams):
        if ctx.cmp(envelope_delta_at(a, lam, ctx), envelope_delta_at(b, lam, ctx)) > 0:
            return lam
    if ctx.cmp(max_value([h.top for h in a.hulls()], ctx), max_value([h.top for h in b.hulls()], ctx)) > 0:
        return INF
    return None


def _comparison(claim: Any, P: Parametric, other_attr: str, *, both: bool, all_slopes: bool, negate: bool) -> Run:
    other = getattr(claim, other_attr)
    osub = other if claim.adjacency is None else (other, claim.adjacency)

    def run(ctx: Ctx) -> Outcome:
        a = P.profile(claim.subject, ctx)
        b = P.profile(osub, ctx)
        bad = _first_excess(a, b, ctx, all_slopes=all_slopes)
        if bad is None and both:
            bad = _first_excess(b, a, ctx, all_slopes=all_slopes)
        ok = bad is None
        return Outcome(
            ok != negate, "identical" if ok and both else "dominated" if ok else bad, "e^eps where they differ"
        )

    return run


@_handles("profile_eq")
def _profile_eq(claim: Any, P: Parametric) -> Run:
    return _comparison(claim, P, "other", both=True, all_slopes=False, negate=False)


@_handles("profile_le")
def _profile_le(claim: Any, P: Parametric) -> Run:
    return _comparison(claim, P, "other", both=False, all_slopes=False, negate=False)


@_handles("fdp")
def _fdp(claim: Any, P: Parametric) -> Run:
    return _comparison(claim, P, "f", both=False, all_slopes=True, negate=False)


@_handles("not_fdp")
def _not_fdp(claim: Any, P: Parametric) -> Run:
    return _comparison(claim, P, "f", both=False, all_slopes=True, negate=True)


@_handles("tradeoff")
def _tradeoff(claim: Any, P: Parametric) -> Run:
    ring = P.ring
    alpha = rational_of(claim.alpha, ring)
    key, raw = next((k, getattr(claim, k)) for k in ("equals", "at_least", "at_most") if getattr(claim, k) is not None)
    bound = rational_of(raw, ring)
    test = {"equals": lambda c: c == 0, "at_least": lambda c: c >= 0, "at_most": lambda c: c <= 0}[key]
    label = f"T({claim.of})({value_text(alpha)})"

    def run(ctx: Ctx) -> Outcome:
        t = tradeoff_at(P.profile(claim.subject, ctx), alpha, ctx)
        return Outcome(test(ctx.cmp(t, bound)), t, label)

    return run


@_handles("renyi")
def _renyi(claim: Any, P: Parametric) -> Run:

    alpha = claim.alpha
    whole_order(alpha)
    key, target_raw = next(
        (k, getattr(claim, k)) for k in ("equals", "at_most", "exceeds") if getattr(claim, k) is not None
    )
    target = _target(target_raw, P.ring)
    test, bad = _TESTS[key]
    label = f"D_{'inf' if is_inf(alpha) else alpha}({claim.of})"

    def run(ctx: Ctx) -> Outcome:
        if is_inf(alpha):
            lam = least_lambda_of(P.profile(claim.subject, ctx), P.ring.zero, ctx)
            found: Any = INF if lam is INF else LogOf(lam)
        else:
            best = _renyi_sum_max(P, claim.subject, alpha, ctx)
            found = INF if best is INF else LogOf(best, alpha - 1)
        c, at, crossing = _cmp_target(found, target, ctx, bad, _AT_CROSSING[key])
        return Outcome(test(c) and at is None, found, label, at, crossing)

    return run


def _renyi_sum_max(P: Parametric, subject: Subject, alpha: int, ctx: Ctx) -> Any:
    """The largest Rényi sum of order α over the ordered pairs on the cell (INF if some view is
    possible under x only): D_α = log of it over α − 1 (Mironov 2017, Def. 3)."""
    return renyi_sum_max(P.game(subject), alpha, ctx)


@_handles("conversion")
def _conversion(claim: Any, P: Parametric) -> Run:
    """renyi-to-dp (Mironov 2017, Prop. 3) and renyi-to-dp-cks (Canonne, Kamath & Steinke 2020,
    Prop. 12) at a whole order α ≥ 2: the bound D_α + log(c)/(α − 1), c = 1/δ or
    (1/δ)(1 − 1/α)^{α−1}/α, is log(S·c)/(α − 1) with S the largest Rényi sum on the cell, compared
    exactly with PrivLoss(M, δ) = log(λ*)."""
    if claim.from_zcdp:
        raise Undecided(
            f"{claim.theorem} compares PrivLoss(M, delta), the log of a rational function of the symbols, with "
            "a bound from rho and delta (a square root, or a minimum over the order) that is not q + log of one: "
            "not decided with symbols (a zcdp claim is); give the symbols values (params or a sweep)"
        )
    alpha = claim.alpha
    if not isinstance(alpha, int):
        raise Undecided(
            f"at the fractional order {alpha} the Renyi divergence is not the log of a rational function of the "
            "symbols; a whole order alpha >= 2 is decided"
        )
    ring = P.ring
    d = Q(claim.delta)
    c = 1 / d if claim.theorem == "renyi-to-dp" else (1 / d) * (1 - Q(1, alpha)) ** (alpha - 1) / alpha
    c_fun = ring.lift(c)
    delta = rational_of(claim.delta, ring)
    label = f"PrivLoss({claim.of}, {value_text(delta)})"

    def run(ctx: Ctx) -> Outcome:
        lam = least_lambda_of(P.profile(claim.subject, ctx), delta, ctx)
        found = INF if lam is INF else LogOf(lam)
        best = _renyi_sum_max(P, claim.subject, alpha, ctx)
        bound = INF if best is INF else LogOf(best * c_fun, alpha - 1)
        within = cmp_log(found, bound, ctx) <= 0  # or PrivLoss = 0 (a bound below 0 says (0, delta)-DP)
        return Outcome(within or (lam is not INF and ctx.cmp(lam, ring.one) == 0), found, label)

    return run


def load_deciders() -> None:
    """Import :data:`DECIDER_MODULES` (once): before :data:`DECIDERS` or :data:`HANDLERS` is read."""
    for target in DECIDER_MODULES:
        load(target)


def decide(claim: Claim, an: Analysis) -> Verdict:
    """Decide a claim with symbols for every value of them (module docstring); where a limit
    stops that, a sampled value of the symbols may still refute it (:mod:`exactdp.claims.sampled`)."""
    try:
        return _decide_everywhere(claim, an)
    except TimeLimitExceeded:  # (the file's clock: nothing is left for samples)
        raise
    except LimitExceededError as e:
        stopped = e.with_traceback(None)  # (the frames of what stopped hold its memory: let them go)
    refuted = refute_by_samples(claim, an, Parametric(an).domains, str(stopped), verdict_at)
    if refuted is None:
        raise stopped
    return refuted


def _decide_everywhere(claim: Claim, an: Analysis) -> Verdict:
    load_deciders()
    for applies, decide_own in DECIDERS:
        if applies(claim):
            try:
                return decide_own(claim, an)
            except Undecided as e:
                return Verdict.undecided(claim, str(e))
    try:
        P = Parametric(an)
        make = HANDLERS.get(claim.kind)
        if make is None:
            why = (
                f"the claim kind {claim.kind!r} is not decided with symbols yet; give the symbols values "
                "(params or a sweep)"
            )
            return Verdict.undecided(claim, why)
        dec = P.decide(make(claim, P))
    except Undecided as e:
        return Verdict.undecided(claim, str(e))
    ps = pieces(dec, key=lambda o: (o.holds, o.found, o.at is None, o.parts))
    _cross_check(claim, an, P, dec)
    return _verdict(claim, an, P, dec, ps)


def _verdict(claim: Claim, an: Analysis, P: Parametric, dec: Decomposition, ps: list[Piece]) -> Verdict:
    """The piecewise verdict: its facts are the symbols' ``domains``, the number of ``cells``,
    the ``pieces`` (each an :class:`Outcome` on a box of the symbols) and, for a claim that
    fails, the rational point ``refuted_at`` with the numeric verdict ``there`` (or, when only
    irrational points refute it, the failing piece ``refuted_piece``).  A piecewise verdict has
    no single value: :attr:`Verdict.value` is None."""
    facts: dict[str, Any] = {"domains": tuple(P.domains), "cells": len(dec.cells), "pieces": tuple(ps)}
    failing = [p for p in ps if not p.value.holds]
    if not failing:
        return Verdict(claim, HOLDS, facts)
    # refute at a rational point of a failing piece (open pieces first: they have simple points)
    for p in sorted(failing, key=lambda p: (p.value.at is None, not p.open)):
        pt = p.value.at if p.value.at is not None else p.sample()
        if pt is not None:
            concrete = verdict_at(claim, an, pt)
            if concrete.status != FAILS:
                raise VerificationError(
                    f"the parametric engine finds the claim false at {_point_text(pt)} but the numeric engine's "
                    f"verdict there is {concrete.status.value}"
                )
            facts.update(refuted_at=dict(pt), there=concrete, refuted_piece=p)
            return Verdict(claim, FAILS, facts, concrete.witness)
    facts["refuted_piece"] = failing[0]
    return Verdict(claim, FAILS, facts)


def _n(k: int, what: str) -> str:
    return f"{k} {what}{'' if k == 1 else 's'}"


def _point_text(pt: dict) -> str:
    return ", ".join(f"{k} = {v}" for k, v in pt.items())


# --- the numeric engine at rational points ----------------------------------------------------


def sympy_point(table: Any, point: dict) -> dict:
    """``point`` (symbol name → rational: a python-flint ``fmpq`` or a ``Q``) as {SymPy symbol:
    Rational}, for :func:`numeric_mechanism`."""

    def rat(v: Any) -> Any:
        n, d = (v.p, v.q) if hasattr(v, "p") else (v.numerator, v.denominator)
        return sympy.Rational(int(n), int(d))

    return {table.symbols[n]: rat(v) for n, v in point.items()}


def analysis_at(an: Analysis, point: dict) -> Analysis:
    """The case's mechanisms with the symbols given rational values (``point``: name → value)."""
    key = ("at", tuple(sorted((k, str(v)) for k, v in point.items())))

    def build() -> Analysis:
        sp = sympy_point(an.symbols, point)
        mechs: dict[str, Mechanism] = {}
        for n, m in an.mechanisms.items():
            if not is_symbolic_mechanism(m):
                mechs[n] = m
                continue
            try:
                mechs[n] = numeric_mechanism(m, sp)
            except VerificationError:  # it has other symbols than the point's: no claim at the point uses it
                continue
        return Analysis(mechs, an.engine)

    return an.cached(key, build)


def numeric_mechanism(mech: Mechanism, point: dict) -> Mechanism:
    """The mechanism with the symbols given rational values ({SymPy symbol: Rational}), each
    probability evaluated by SymPy (an evaluation independent of the parametric engine's own
    arithmetic) and checked to be rational."""

    done: dict[Any, Any] = {}

    def num(e: Any) -> Any:
        hit = done.get(e)
        if hit is None:
            v = e.xreplace(point)
            if not v.is_Rational:
                v = sympy_cancel(v)
            if not v.is_Rational:  # pragma: no cover - a rational function at a rational point
                raise VerificationError(f"{e} is not rational at {point}")
            hit = done[e] = Q(int(v.p), int(v.q))
        return hit

    new: dict[int, Any] = {}
    for node in postorder(mech.root):
        if isinstance(node, End):
            new[node.uid] = node
        elif isinstance(node, Ask):
            new[node.uid] = Ask(node.labels, [new[c.uid] for c in node.children])
        elif isinstance(node, SymChance):
            rows = [[num(p) for p in row] for row in node.sym]
            new[node.uid] = Chance(node.labels, rows, [new[c.uid] for c in node.children])
        else:
            assert isinstance(node, Chance)
            new[node.uid] = Chance(node.labels, node.probs, [new[c.uid] for c in node.children], check=False)
    return mech.with_root(new[mech.root.uid])


def sympy_cancel(v: Any) -> Any:

    return sympy.cancel(v)


def claim_at(claim: Claim, an: Analysis, point: dict) -> Claim:
    """``claim`` with its symbolic values evaluated at a rational point (exact values)."""
    sp = sympy_point(an.symbols, point)
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(claim):
        v = getattr(claim, f.name, None)
        if isinstance(v, tuple) and any(is_sym(x) for x in v):
            changes[f.name] = tuple(_exact(x, sp) if is_sym(x) else x for x in v)
        elif is_sym(v) and getattr(f.metadata.get("kind"), "transcendental", False) and is_transcendental(v):
            changes[f.name] = _real_at(v, sp)
        elif is_sym(v):
            changes[f.name] = _exact(v, sp)
    return dataclasses.replace(claim, **changes) if changes else claim


def _real_at(e: Any, point: dict) -> Any:
    """An exact real written with logarithms (log(E)^2/2) at a point: a rational when it is one,
    else the exact constant (log(3/2)^2/2), for a slot compared by certified enclosures."""
    v = exact_constant(e.xreplace(point))
    return Q(int(v.p), int(v.q)) if v.is_Rational else v


def _exact(e: Any, point: dict) -> Any:
    """A SymPy value at a point as an exact exactdp value (rational, log(r), linear form)."""

    v = sympy.expand(e.xreplace(point))
    if v.is_Rational:
        return Q(int(v.p), int(v.q))
    q, logs = Q(0), []
    for t in sympy.Add.make_args(v):
        c, rest = t.as_coeff_Mul()
        c = sympy.Rational(c)
        if rest == 1:
            q += Q(int(c.p), int(c.q))
        elif isinstance(rest, sympy.log) and rest.args[0].is_Rational:
            x = rest.args[0]
            logs.append((Q(int(x.p), int(x.q)), Q(int(c.p), int(c.q))))
        else:  # pragma: no cover - values are checked to be of this form when read
            raise Undecided(f"{v} has no exact value here")
    if q == 0 and all(c.denominator == 1 for _, c in logs):  # sum of c log(r) = log(prod r^c)
        r = Q(1)
        for x, c in logs:
            r *= x ** int(c)
        return ladder.log(r) if r != 1 else Q(0)
    ll = log_linear(q, logs)
    if not ll.terms:
        return ll.s
    if len(ll.terms) == 1 and ll.terms[0][1] == 1 and ll.s == 0:
        return ladder.log(Q(ll.terms[0][0]))
    # q + log(r) (integer coefficients) is s + ln r, whose e^eps = r·e^q is exact in Q(e^(1/L))
    return canonical(ll, limits.current().max_bits)


def verdict_at(claim: Claim, an: Analysis, point: dict) -> Verdict:
    """The exact concrete engine's verdict on ``claim`` with the symbols at rational values."""
    return claim_at(claim, an, point).check(analysis_at(an, point))


def refuted_at(claim: Claim, an: Analysis, name: str, s: Fraction, evidence: str) -> Verdict:
    """The exact engine's verdict at ``name = s``, where certified enclosures (``evidence``) say
    the claim fails: a refutation is only the exact engine's, and it must agree."""
    pt = {name: flint.fmpq(s.numerator, s.denominator)}
    there = verdict_at(claim, an, pt)
    if there.status != FAILS:
        raise VerificationError(
            f"{claim.statement()}: {evidence}, the exact engine says it {there.status.value} at {name} = {q_short(s)}"
        )
    return there


def _cross_check(claim: Claim, an: Analysis, P: Parametric, dec: Decomposition) -> None:
    """At a rational point of each cell (at most :data:`MAX_CROSS_CHECKS`), the numeric
    engine's verdict must be the cell's, and each profile the parametric one."""
    cells = [(c, o, m) for (c, o), m in zip(dec.cells, dec.memos)]
    cells.sort(key=lambda t: t[0].is_point())
    done = 0
    for cell, outcome, memo in cells:
        if done >= MAX_CROSS_CHECKS:
            break
        pt = outcome.at if outcome.at is not None else cell.point()  # a cell failing in part: where it fails
        if pt is None:
            continue
        done += 1
        v = verdict_at(claim, an, pt)
        want = HOLDS if outcome.holds else FAILS
        if v.status != want:
            raise VerificationError(
                f"cross-check at {_point_text(pt)}: the parametric engine says the claim {want.value} on {cell.text()}, "
                f"the numeric engine says {v.status.value}"
            )
        an_pt = analysis_at(an, pt)
        for (_key, subject), prof in _profiles_in(memo):
            for (names, h), pp in zip(prof.pairs, an_pt.profile(subject).pairs):
                check_hull_at(h, pp.hull, pt, f"{claim.kind} on {subject}, pair {names}")


def _profiles_in(memo: dict) -> Iterable[tuple[tuple, PProfile]]:
    for k, v in memo.items():
        if isinstance(k, tuple) and k[0] == "stage" and isinstance(k[1], tuple) and k[1][0] == "profile":
            yield k[1], v
