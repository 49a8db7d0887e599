"""What a plot of a case shows, computed exactly (no matplotlib here): see :mod:`.plot`.

* ``of`` names mechanisms: one exact profile curve each (adaptive vs nonadaptive, ConComp vs
  its parts).
* A ``composition`` claim (Vadhan–Wang Thm 1.8, 3.3, 5.7; its components certified by the
  engine as the claim does) is drawn as the composition the engine found, ConComp(M₁, M₂, ...),
  together with the theorem's bound; ``bound`` chooses another theorem for the same components.
* Without a composition claim, ``bound`` composes the ``of`` mechanisms (εᵢ = PrivLoss(Mᵢ, 0)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..analysis.renyi import RENYI_ORDERS
from ..analysis.results import lambda_of
from ..builders.combinators import concomp, distinct_labels
from ..claims.base import Analysis
from ..claims.composition import CompositionClaim
from ..errors import ExactDPError, InexactValueError
from ..model.symbolic import is_symbolic_mechanism
from ..numbers import INF, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from ..theorems import basic, components, improved_basic, thm_1_8
from .plot import Curve, PlotData, dp_bound_curve, optimal_bound_curve, profile_curve

__all__ = [
    "PlotError",
    "case_plot_data",
    "bound_curve",
    "composition_claims",
    "exact_lambda",
    "family_plot_data",
    "family_values",
]


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


_THEOREM_NAMES = {
    "basic": "basic composition (Vadhan-Wang Thm 1.2, 3.3)",
    "improved-basic": "improved basic (Henzinger-Safavi-Vadhan Rem. 5.12)",
    "thm-1.8": "Vadhan-Wang Thm 1.8",
}


def bound_curve(theorem: str, comps: Sequence[Any]) -> Curve:
    """The profile a composition theorem guarantees for components ``comps`` (see :mod:`.plot`)."""
    if theorem == "optimal":
        return optimal_bound_curve("optimal composition bound (KOV Thm 3.3, Vadhan-Wang Thm 1.4)", comps)
    fn = {"basic": basic, "improved-basic": improved_basic, "thm-1.8": thm_1_8}[theorem]
    b = fn(comps)
    label = f"{_THEOREM_NAMES[theorem]}: ({ladder.text(b.eps)}, {q_str(b.delta)})-DP"
    return dp_bound_curve(label, exact_lambda(b.eps), b.delta)


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


def _concomp(an: Analysis, names: Sequence[str]) -> Any:
    """ConComp of every item of ``names`` (a repeated name is another copy)."""
    label = "ConComp(" + ", ".join(names) + ")"
    return concomp(dict(zip(distinct_labels(list(names)), (an.mech(n) for n in names))), name=label)


def _composed(an: Analysis, names: Sequence[str]) -> tuple[Curve, Any]:
    mech = _concomp(an, names)
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
    return Curve("sum of the components' D_alpha (Lyu 2022)", [], Q(0), bound=True, renyi=tuple(series))


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
    elif bound is not None:
        if not of or len(of) < 2:
            raise PlotError(
                "--bound needs a composition: a composition claim in the case, or two or more mechanisms in --of"
            )
        entries += _composition_entries(an, of, bound, None, None)
    if not entries:
        name = "M" if "M" in case.mechanisms else next(iter(case.mechanisms))
        entries.append((profile_curve(name, an.profile(name)), an.mech(name), None))
    return entries, notes


def _composition_entries(an: Analysis, names: Sequence[str], theorem: str, deltas: Any, eps: Any) -> list:
    """ConComp(names) as found, and the theorem's bound on it (Rényi: Lyu's sum of D_α)."""
    found, mech = _composed(an, names)
    out = [(found, mech, None)]
    if theorem == "renyi":
        return out + [(None, None, tuple(names))]
    if theorem == "fdp":
        from ..analysis.tradeoff import tensor

        hull = tensor([an.profile(n).envelope for n in names])
        pts = [(Q(1), hull.value_at(Q(1)))] + [(r, hull.value_at(r)) for r in sorted(hull.breakpoints()) if r > 1]
        bound = Curve(
            "tensor product of the components (Vadhan-Zhang 2023)",
            pts,
            hull.top,
            chain=list(hull.vertices()),
            bound=True,
        )
        return out + [(bound, None, tuple(names))]
    deltas = deltas or tuple(Q(0) for _ in names)
    return out + [(bound_curve(theorem, _components(an, names, deltas, eps)), None, tuple(names))]


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
    (default: the first, when ``of`` is not given)."""
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
    k = 1
    while len(out) < count + 2 and k <= 4 * count:
        if lo is not None and hi is not None:
            x = lo + (hi - lo) * Q(k, count + 1)
        elif lo is not None:
            x = lo + Q(k, 2) * max(Q(1), abs(lo))
        elif hi is not None:
            x = hi - Q(k, 2) * max(Q(1), abs(hi))
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
    import sympy

    from ..analysis.parametric import domain_of_table
    from ..analysis.parametric.queries import profile_of
    from ..claims.parametric import numeric_mechanism

    names = list(of) if of else ["M" if "M" in case.mechanisms else next(iter(case.mechanisms))]
    _check_names(case, names)
    table = case.symbols
    domains = domain_of_table(table, [b.name for b in table.bounds])
    first = domains[0]
    others = {d.name: (d.lo if d.lo is not None and d.hi is not None and d.lo == d.hi else None) for d in domains[1:]}
    from ..analysis.parametric.polys import simplest_between

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
                sp = {table.symbols[k]: sympy.Rational(int(x.numerator), int(x.denominator)) for k, x in point.items()}
                m = numeric_mechanism(mech, sp)
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
