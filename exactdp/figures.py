"""What the pictures of a case show, computed exactly (no matplotlib here; :mod:`exactdp.report.plot`
draws them).

Each curve is the list of its exact vertices: the breakpoints (λ, δ(λ)) of a privacy profile
with λ = e^ε (Vadhan–Wang Def. 1.7; KOV's privacy region is the set whose support function it
is), the chain of the region's upper boundary, or the exact Rényi divergences of a mechanism.
What a plot of a case shows (:func:`case_plot_data`):

* ``of`` names mechanisms: one exact profile curve each (adaptive vs nonadaptive, ConComp vs
  its parts).
* A ``composition`` claim (Vadhan–Wang Thm 1.8, 3.3, 5.7; its components certified by the
  engine as the claim does) is drawn as the composition the engine found, ConComp(M₁, M₂, ...),
  together with the theorem's bound; ``bound`` chooses another theorem for the same components.
  A composition theorem's bound is drawn as the profile it guarantees: for an (ε, δ) guarantee
  (basic, improved basic, Vadhan–Wang Thm 1.8) the profile of RR_(ε,δ), which is the largest
  profile of any (ε, δ)-DP mechanism (KOV 2015, Thm 2.4); for the optimal composition theorem
  the exact profile of ⊗ᵢ RR_(εᵢ,δᵢ) (KOV 2015 Thm 3.3; Vadhan–Wang Thm 1.4, Thm 5.7).
* Without a composition claim, ``bound`` composes the ``of`` mechanisms (εᵢ = PrivLoss(Mᵢ, 0)).

:func:`case_figures` computes what the HTML report of a checked case file shows: the profile
plots of its mechanisms and the game to draw, reading the case again (results from worker
processes carry no game DAGs) within a time budget of its own.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .analysis.engine import Engine, make_engine
from .analysis.parametric import domain_of_table
from .analysis.parametric.polys import simplest_between
from .analysis.parametric.queries import profile_of
from .analysis.renyi import RENYI_ORDERS, RenyiCurve, renyi_curve
from .analysis.results import Profile, lambda_of
from .analysis.tradeoff import Tradeoff, tensor
from .builders.params import read_eps, read_rational
from .claims.base import Analysis
from .claims.composition import CompositionClaim
from .claims.parametric import numeric_mechanism, sympy_point
from .errors import ExactDPError, InexactValueError
from .limits import using
from .model.checks import mechanism_arg
from .model.game import Mechanism
from .model.symbolic import is_symbolic_mechanism
from .numbers import INF, ladder
from .numbers import kinds as K
from .numbers.ladder import is_inf
from .numbers.rational import Q, q_str
from .theorems import components, evaluate, optimal_profile, theorem
from .theorems.basic import Bound
from .verify import FileResult, Options, full_case

__all__ = [
    "Curve",
    "PlotData",
    "profile_curve",
    "dp_bound_curve",
    "optimal_bound_curve",
    "chain_from_profile",
    "PlotError",
    "case_plot_data",
    "bound_curve",
    "composition_claims",
    "exact_lambda",
    "family_plot_data",
    "family_values",
    "curves_of",
    "RENYI_ORDERS",
    "CaseFigures",
    "case_figures",
    "PLOT_SECONDS",
    "MAX_CURVES",
]

PLOT_SECONDS = 20.0  # time for the profiles of one case page's plot (HTML report)
MAX_CURVES = 6  # mechanisms drawn on one case page


@dataclass(frozen=True)
class Curve:
    """One exact curve: the breakpoints of a privacy profile and its limit.

    Attributes
    ----------
    label : str
        Legend text, as written in the case file (escaped when drawn).
    points : list of (λ, δ)
        Exact breakpoints, λ = e^ε ≥ 1 increasing, starting at λ = 1; δ is affine in λ between
        two of them and equal to ``limit`` beyond the last.
    limit : exact rational
        δ(λ) as λ → ∞.
    chain : list of (P'(T), P(T)) or None
        The exact vertices of the privacy region's upper boundary, from (0, 0) to (1, 1), when
        known (a mechanism's envelope); otherwise derived from ``points`` by symmetry.
    bound : bool
        A theorem's bound rather than a mechanism's exact profile.
    """

    label: str
    points: list[tuple[Any, Any]]
    limit: Any
    chain: list[tuple[Any, Any]] | None = None
    bound: bool = False
    renyi: tuple[tuple[Any, Any], ...] = ()
    """(α, D_α) exactly, for α = 1, 2, ..., and ∞ last (the ``renyi`` kind only)."""


@dataclass(frozen=True)
class PlotData:
    """What a picture shows: curves, a title and a subtitle (case-file text, raw)."""

    curves: list[Curve]
    title: str = ""
    subtitle: str = ""
    notes: list[str] = field(default_factory=list)


def profile_curve(label: str, prof: Any) -> Curve:
    """The exact curve of a :class:`~exactdp.analysis.results.Profile` (its envelope)."""
    return Curve(label, list(prof.breakpoints()), prof.limit(), chain=list(prof.envelope.vertices()))


def dp_bound_curve(label: str, E: Any, delta: Any) -> Curve:
    """The largest profile of an (ε, δ)-DP mechanism, E = e^ε: the profile of RR_(ε,δ),
    δ(λ) = δ + (1 − δ)(E − λ)/(1 + E) for 1 ≤ λ ≤ E, then δ (KOV 2015, Thm 2.4)."""
    one = Q(1)
    if E == one:
        return Curve(label, [(one, delta)], delta, bound=True)
    at_one = delta + (one - delta) * (E - one) / (one + E)
    return Curve(label, [(one, at_one), (E, delta)], delta, bound=True)


def optimal_bound_curve(label: str, comps: Sequence[Any]) -> Curve:
    """The exact profile of ⊗ᵢ RR_(εᵢ,δᵢ): the optimal composition bound (KOV 2015, Thm 3.3;
    Vadhan–Wang Thm 1.4/5.7), from :func:`~exactdp.theorems.optimal_profile`."""
    pts = optimal_profile(comps)
    keep: Any = Q(1)
    for c in comps:
        keep = keep * (1 - c.delta)
    return Curve(label, list(pts), 1 - keep, bound=True)


def chain_from_profile(points: Sequence[tuple[Any, Any]], limit: Any) -> list[tuple[Any, Any]]:
    """The upper boundary of a *symmetric* privacy region from its profile on λ ≥ 1.

    On [λᵢ, λᵢ₊₁] the profile is A − λ·B where (B, A) is a vertex of the chain; the part with
    slopes below 1 is the mirror image under (x, y) ↦ (1 − y, 1 − x) (KOV 2015, Thm 2.4).
    """
    verts: list[tuple[Any, Any]] = [(Q(0), Q(0)), (Q(0), limit)]
    for (l0, d0), (l1, d1) in reversed(list(zip(points, points[1:]))):
        b = (d0 - d1) / (l1 - l0)
        verts.append((b, d1 + l1 * b))
    mirror = [(1 - a, 1 - b) for b, a in reversed(verts)]
    out: list[tuple[Any, Any]] = []
    for v in verts + mirror:
        if not out or out[-1] != v:
            out.append(v)
    return out


class PlotError(ExactDPError):
    """A plot was asked for that the case cannot give (unknown mechanism, no composition)."""


def composition_claims(case: Any) -> list[CompositionClaim]:
    """The case's ``composition`` claims, in file order."""
    return [c for c in case.claims if isinstance(c, CompositionClaim)]


def exact_lambda(eps: Any) -> Any:
    """e^ε exactly, as a rational or an element of ℚ(e^{1/L}), for drawing a bound."""
    try:
        return ladder.as_field(lambda_of(eps))
    except InexactValueError:
        raise InexactValueError(
            f"e^{ladder.short(eps)} is too large a field element to draw the bound exactly"
        ) from None


def bound_curve(name: str, comps: Sequence[Any]) -> Curve:
    """The profile a composition theorem of the ``fixed`` or ``optimal`` family guarantees for
    components ``comps`` (see the module docstring)."""
    t = theorem(name)
    if t.family == "optimal":
        return optimal_bound_curve(t.title, comps)
    b = evaluate(name, comps, None)
    assert isinstance(b, Bound), name
    return dp_bound_curve(f"{t.title}: ({ladder.text(b.eps)}, {q_str(b.delta)})-DP", exact_lambda(b.eps), b.delta)


def _components(an: Analysis, names: Sequence[str], deltas: Sequence[Any], eps: Sequence[Any] | None) -> tuple:
    eps_i = []
    for k, name in enumerate(names):
        e = eps[k] if eps is not None else an.profile(name).privloss(deltas[k])
        if is_inf(e):
            raise PlotError(f"PrivLoss({name}, {q_str(deltas[k])}) = inf: no finite eps to compose")
        eps_i.append(e)
    return components(eps_i, list(deltas))


def _check_names(case: Any, names: Sequence[str]) -> None:
    for n in names:
        if n not in case.mechanisms:
            raise PlotError(f"no mechanism named {n!r} in {case.file}; defined: {', '.join(case.mechanisms)}")


def _composed(an: Analysis, names: Sequence[str]) -> tuple[Curve, Any]:
    mech = an.concomp(tuple(names))  # a repeated name is another copy
    return profile_curve(mech.name + " (exact)", an.engine.profile(mech)), mech


def _renyi_series(an: Analysis, mech: Any) -> tuple[tuple[Any, Any], ...]:
    """(α, D_α) exactly for the orders drawn, and α = ∞ (Mironov 2017, Def. 3)."""
    return tuple((a, an.engine.renyi(mech, a).value) for a in (*RENYI_ORDERS, INF))


def _renyi_bound(an: Analysis, names: Sequence[str]) -> Curve:
    """Σᵢ D_α(Mᵢ) for each order: Lyu's bound on D_α of the concurrent composition (Lyu 2022)."""
    per = [_renyi_series(an, an.mech(n)) for n in names]
    series = []
    for k, (a, _) in enumerate(per[0]):
        vals = [s[k][1] for s in per]
        total: Any = INF if any(is_inf(v) for v in vals) else vals[0]
        for v in vals[1:]:
            total = total if is_inf(total) else ladder.add(total, v)
        series.append((a, total))
    return Curve(theorem("renyi").title, [], Q(0), bound=True, renyi=tuple(series))


def _selection(
    case: Any, an: Analysis, of: Sequence[str] | None, bound: str | None, claim: int | None
) -> tuple[list, list[str]]:
    """The curves to draw as (curve, mechanism or None, composed names or None), and notes."""
    entries: list[tuple[Curve, Any, Any]] = []
    notes: list[str] = []
    comp = composition_claims(case)
    if claim is not None and not 1 <= claim <= len(comp):
        raise PlotError(f"{case.file} has {len(comp)} composition claim(s); --claim {claim} is not one of them")
    if of:
        _check_names(case, of)
        entries += [(profile_curve(n, an.profile(n)), an.mech(n), None) for n in of]
    if comp and (claim is not None or not of):
        c = comp[(claim or 1) - 1]
        entries += _composition_entries(an, c.of, bound or c.theorem, c.deltas, c.eps)
        notes.append(f"claim: {c.describe()}")
        notes += _undrawn(bound or c.theorem)
    elif bound is not None:
        if not of or len(of) < 2:
            raise PlotError(
                "--bound needs a composition: a composition claim in the case, or two or more mechanisms in --of"
            )
        entries += _composition_entries(an, of, bound, None, None)
        notes += _undrawn(bound)
    if not entries:
        name = "M" if "M" in case.mechanisms else next(iter(case.mechanisms))
        entries.append((profile_curve(name, an.profile(name)), an.mech(name), None))
    return entries, notes


def _composition_entries(an: Analysis, names: Sequence[str], name: str, deltas: Any, eps: Any) -> list:
    """ConComp(names) as found, and the theorem's bound on it (Rényi: Lyu's sum of D_α)."""
    found, mech = _composed(an, names)
    out = [(found, mech, None)]
    family = theorem(name).family
    if family == "renyi":
        return out + [(None, None, tuple(names))]
    if family == "fdp":
        hull = tensor([an.profile(n).envelope for n in names])
        pts = [(Q(1), hull.value_at(Q(1)))] + [(r, hull.value_at(r)) for r in sorted(hull.breakpoints()) if r > 1]
        bound = Curve(theorem(name).title, pts, hull.top, chain=list(hull.vertices()), bound=True)
        return out + [(bound, None, tuple(names))]
    if family == "interval":  # eps known only as a certified interval: see _undrawn
        return out
    deltas = deltas or tuple(Q(0) for _ in names)
    return out + [(bound_curve(name, _components(an, names, deltas, eps)), None, tuple(names))]


def _undrawn(name: str) -> list[str]:
    """The note saying that an ``interval`` theorem's bound is not drawn: its ε is a certified
    interval at the δ its slack fixes (``composition`` claim), not an exact number to draw."""
    if theorem(name).family != "interval":
        return []
    return [f"{name}: not drawn (its eps is a certified interval; a composition claim with `slack:` checks it)"]


def case_plot_data(
    case: Any,
    engine: Any,
    *,
    of: Sequence[str] | None = None,
    bound: str | None = None,
    claim: int | None = None,
    kind: str = "profile",
) -> PlotData:
    """The curves of a plot of ``case`` (see the module docstring); for ``kind="renyi"`` each
    curve also carries its exact D_α (and a composition bound becomes Lyu's Σ D_α).

    ``claim`` is the 1-based number of a composition claim among the case's composition claims
    (default: the first, when ``of`` is not given).  A mechanism with symbols is drawn as a
    family over the symbol's range (:func:`family_plot_data`)."""
    if case.symbols and any(is_symbolic_mechanism(m) for m in case.mechanisms.values()):
        return family_plot_data(case, engine, of=of, kind=kind)
    an = Analysis(case.mechanisms, engine)
    entries, notes = _selection(case, an, of, bound, claim)
    curves = []
    for curve, mech, names in entries:
        if kind != "renyi":
            if curve is not None:
                curves.append(curve)
        elif mech is not None:
            curves.append(replace(curve, renyi=_renyi_series(an, mech)))
        else:
            curves.append(_renyi_bound(an, names))
    head = case.name + (f": {case.title}" if case.title else "")
    return PlotData(curves, head, case.reference or "", notes)


# --- a mechanism with symbols: the family over the symbol's range ---------------------------


def _q(x: Any) -> Any:
    return None if x is None else Q(int(x.p), int(x.q)) if hasattr(x, "p") else Q(x)


def family_values(pw: Any, domain: Any, count: int = 5) -> list[Any]:
    """Rational values of the symbol that show its range: a point of each open piece of the
    piecewise profile (where its formula changes), then evenly spread points, ``count`` at most."""
    out: list[Any] = []
    for piece in pw.pieces:
        pt = piece.sample()
        if pt is not None and piece.open:
            out.append(_q(pt[domain.name]))
    lo, hi = _q(domain.lo), _q(domain.hi)
    if lo is not None and hi is not None and hi - lo > 100 * max(Q(1), min(abs(lo), abs(hi))):
        # a range as wide as (1, 10^1000): even steps would all be huge; step from its nearer end
        a, b = (lo, None) if abs(lo) <= abs(hi) else (None, hi)
    else:
        a, b = lo, hi
    k = 1
    while len(out) < count + 2 and k <= 4 * count:
        if a is not None and b is not None:
            x = a + (b - a) * Q(k, count + 1)
        elif a is not None:
            x = a + Q(k, 2) * max(Q(1), abs(a))
        elif b is not None:
            x = b - Q(k, 2) * max(Q(1), abs(b))
        else:
            x = Q(k - count // 2)
        out.append(x)
        k += 1
    inside = [
        x
        for x in dict.fromkeys(out)
        if (lo is None or x > lo or (x == lo and domain.lo_closed))
        and (hi is None or x < hi or (x == hi and domain.hi_closed))
    ]
    first = inside[: len([p for p in pw.pieces if p.open])]
    rest = [x for x in inside if x not in first]
    return sorted((first + rest)[:count])


def family_plot_data(case: Any, engine: Any, *, of: Sequence[str] | None = None, kind: str = "profile") -> PlotData:
    """A mechanism with symbols drawn as a family: its exact profile at values of the (first)
    symbol spread over its declared range, a point of each piece of the piecewise profile first
    (the other symbols at a point of their range)."""
    names = list(of) if of else ["M" if "M" in case.mechanisms else next(iter(case.mechanisms))]
    _check_names(case, names)
    table = case.symbols
    domains = domain_of_table(table, [b.name for b in table.bounds])
    first = domains[0]
    others = {d.name: (d.lo if d.lo is not None and d.hi is not None and d.lo == d.hi else None) for d in domains[1:]}
    fixed = {
        n: (v if v is not None else simplest_between(d.lo, d.hi)) for (n, v), d in zip(others.items(), domains[1:])
    }
    curves, notes = [], []
    for name in names:
        mech = case.mechanisms[name]
        pw = profile_of(mech, table) if is_symbolic_mechanism(mech) else None
        values = family_values(pw, first) if pw is not None else [None]
        for v in values:
            if v is None:
                m, label = mech, name
            else:
                point = {first.name: v, **fixed}
                m = numeric_mechanism(mech, sympy_point(table, point))
                label = f"{name} at " + ", ".join(f"{k} = {x}" for k, x in point.items())
            prof = engine.profile(m)
            curves.append(profile_curve(label, prof))
        if pw is not None:
            notes.append(
                f"{name}: {len(pw.pieces)} piece{'' if len(pw.pieces) == 1 else 's'} of the profile over "
                f"{pw.domain_text()}; drawn at {len(values)} values"
            )
    if fixed:
        notes.append("other symbols fixed at " + ", ".join(f"{k} = {v}" for k, v in fixed.items()))
    head = case.name + (f": {case.title}" if case.title else "")
    return PlotData(curves, head, case.reference or "", notes)


@dataclass(frozen=True)
class CaseFigures:
    """What the HTML report shows of one checked case file: the profile plot of the mechanisms
    its claims are about, the plot of its first composition claim, or the error that stopped
    them; and the game to draw (M, else the first mechanism)."""

    profile: PlotData | None = None
    composition: PlotData | None = None
    error: ExactDPError | None = None
    game: Mechanism | None = None
    game_name: str = ""
    mechanisms: tuple[str, ...] = field(default_factory=tuple)


def _claim_mechanisms(case: Any) -> list[str]:
    names: list[str] = []
    for c in case.claims:
        for n in (c.of,) if isinstance(c.of, str) else tuple(c.of):
            if n in case.mechanisms and n not in names:
                names.append(n)
    return names[:MAX_CURVES] or ["M" if "M" in case.mechanisms else next(iter(case.mechanisms))]


def case_figures(fr: FileResult, opts: Options = Options()) -> CaseFigures | None:
    """The figures of a checked case file (see :class:`CaseFigures`); None when there is no
    case to draw (the file was not valid, or cannot be read again)."""
    if fr.error is not None:
        return None
    case = full_case(fr, opts)
    if case is None or not case.mechanisms:
        return None
    game_name = "M" if "M" in case.mechanisms else next(iter(case.mechanisms))
    names = _claim_mechanisms(case)
    out = CaseFigures(game=case.mechanisms[game_name], game_name=game_name, mechanisms=tuple(names))
    try:
        engine = make_engine("profile", deadline=time.monotonic() + PLOT_SECONDS)
        with using(opts.effective_limits()):
            out = replace(out, profile=case_plot_data(case, engine, of=names))
            if composition_claims(case):
                out = replace(out, composition=case_plot_data(case, engine, claim=1))
    except ExactDPError as e:
        out = replace(out, error=e)
    return out


# --- the curves of the plotting API (exactdp.plot_profile, ...): computed here, drawn in report/ ---


def _items(x: Any) -> list[tuple[str | None, Any]]:
    """(label or None, item) for one item, a list of items or a ``{label: item}`` mapping."""
    if isinstance(x, Mapping):
        return [(str(k), v) for k, v in x.items()]
    if isinstance(x, (list, tuple)) and not _is_eps_delta(x):
        return [(None, v) for v in x]
    return [(None, x)]


def _is_eps_delta(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and not any(isinstance(v, (Mechanism, Profile, Curve)) for v in x)


def _engine(engine: str | Engine) -> Engine:
    return make_engine(engine) if isinstance(engine, str) else engine


def _as_profile_curve(label: str | None, item: Any, engine: Engine, call: str) -> Curve:
    if isinstance(item, Curve):
        return item if label is None else replace(item, label=label)
    if isinstance(item, Profile):
        return profile_curve(label or item.mechanism, item)
    if isinstance(item, Tradeoff):
        return Curve(label or item.label, [], Q(0), chain=[(a, 1 - b) for a, b in item.vertices])
    if isinstance(item, Bound):
        return dp_bound_curve(
            label or f"{item.theorem}: ({ladder.text(item.eps)}, {q_str(item.delta)})-DP",
            exact_lambda(item.eps),
            item.delta,
        )
    if _is_eps_delta(item):
        eps = read_eps(item[0], call=call, name="eps of a bound")
        try:
            delta = K.delta(
                read_rational(item[1], call=call, name="delta of a bound"), what=f"{call}: delta of a bound"
            )
        except K.QuantityError as e:
            raise ValueError(e.text()) from None
        return dp_bound_curve(label or f"({ladder.text(eps)}, {q_str(delta)})-DP", exact_lambda(eps), delta)
    mech = mechanism_arg(item, call, "mechanisms")
    return profile_curve(label or mech.name, engine.profile(mech))


def _as_renyi_curve(label: str | None, item: Any, engine: Engine, alphas: Sequence[int], call: str) -> Curve:
    if isinstance(item, Curve):
        return item if label is None else replace(item, label=label)
    if not isinstance(item, RenyiCurve):
        item = renyi_curve(mechanism_arg(item, call, "mechanisms"), alphas, engine=engine)
    return Curve(label or item.mechanism, [], Q(0), renyi=item.points)


def curves_of(
    kind: str,
    items: Any,
    *,
    bound: bool = False,
    engine: str | Engine = "profile",
    alphas: Sequence[int] = RENYI_ORDERS,
) -> list[Curve]:
    """The exact curves of ``items`` for a plot of ``kind`` (``profile``, ``region`` or
    ``renyi``), drawn as bounds if ``bound``."""
    eng = _engine(engine)
    call = {"profile": "plot_profile", "region": "plot_tradeoff", "renyi": "plot_renyi"}[kind]
    out = []
    for label, item in _items(items):
        if kind == "renyi":
            c = _as_renyi_curve(label, item, eng, alphas, call)
        else:
            c = _as_profile_curve(label, item, eng, call)
        out.append(replace(c, bound=bound or c.bound))
    return out
