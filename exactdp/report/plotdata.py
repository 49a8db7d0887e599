"""What a plot of a case shows, computed exactly (no matplotlib here): see :mod:`.plot`.

* ``of`` names mechanisms: one exact profile curve each (adaptive vs nonadaptive, ConComp vs
  its parts).
* A ``composition`` claim (Vadhan–Wang Thm 1.8, 3.3, 5.7; its components certified by the
  engine as the claim does) is drawn as the composition the engine found, ConComp(M₁, M₂, ...),
  together with the theorem's bound; ``bound`` chooses another theorem for the same components.
* Without a composition claim, ``bound`` composes the ``of`` mechanisms (εᵢ = PrivLoss(Mᵢ, 0)).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..analysis.results import lambda_of
from ..builders.combinators import concomp
from ..claims.base import Analysis
from ..claims.composition import CompositionClaim
from ..errors import ExactDPError, InexactValueError
from ..numbers.qt import QtElement, as_field
from ..numbers.rational import Q, is_rational, q_str
from ..numbers.real import real_str
from ..theorems import basic, components, improved_basic, thm_1_8
from .plot import Curve, PlotData, dp_bound_curve, optimal_bound_curve, profile_curve
from ..numbers.ladder import is_inf

__all__ = ["PlotError", "case_plot_data", "bound_curve", "composition_claims"]


class PlotError(ExactDPError):
    """A plot was asked for that the case cannot give (unknown mechanism, no composition)."""


def composition_claims(case: Any) -> list[CompositionClaim]:
    """The case's ``composition`` claims, in file order."""
    return [c for c in case.claims if isinstance(c, CompositionClaim)]


def _exact_lambda(eps: Any) -> Any:
    lam = lambda_of(eps)
    if is_rational(lam) or isinstance(lam, QtElement):
        return lam
    try:
        return as_field(lam)
    except InexactValueError:
        raise InexactValueError(f"e^{real_str(eps)} is too large a field element to draw the bound exactly") from None


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
    label = f"{_THEOREM_NAMES[theorem]}: ({real_str(b.eps)}, {q_str(b.delta)})-DP"
    return dp_bound_curve(label, _exact_lambda(b.eps), b.delta)


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


def _composed(an: Analysis, names: Sequence[str]) -> Curve:
    label = "ConComp(" + ", ".join(names) + ")"
    mech = concomp({n: an.mech(n) for n in names}, name=label)
    return profile_curve(label + " (exact)", an.engine.profile(mech))


def case_plot_data(case: Any, engine: Any, *, of: Sequence[str] | None = None, bound: str | None = None, claim: int | None = None) -> PlotData:
    """The curves of a plot of ``case`` (see the module docstring).

    ``claim`` is the 1-based number of a composition claim among the case's composition claims
    (default: the first, when ``of`` is not given)."""
    an = Analysis(case.mechanisms, engine)
    curves: list[Curve] = []
    notes: list[str] = []
    comp = composition_claims(case)
    if claim is not None and not 1 <= claim <= len(comp):
        raise PlotError(f"{case.file} has {len(comp)} composition claim(s); --claim {claim} is not one of them")
    if of:
        _check_names(case, of)
        curves += [profile_curve(n, an.profile(n)) for n in of]
    if comp and (claim is not None or not of):
        c = comp[(claim or 1) - 1]
        deltas = c.deltas or tuple(Q(0) for _ in c.of)
        comps = _components(an, c.of, deltas, c.eps)
        curves.append(_composed(an, c.of))
        curves.append(bound_curve(bound or c.theorem, comps))
        notes.append(f"claim: {c.describe()}")
    elif bound is not None:
        if not of or len(of) < 2:
            raise PlotError("--bound needs a composition: a composition claim in the case, or two or more mechanisms in --of")
        comps = _components(an, of, [Q(0)] * len(of), None)
        curves.append(_composed(an, of))
        curves.append(bound_curve(bound, comps))
    if not curves:
        name = "M" if "M" in case.mechanisms else next(iter(case.mechanisms))
        curves.append(profile_curve(name, an.profile(name)))
    head = case.name + (f": {case.title}" if case.title else "")
    return PlotData(curves, head, case.reference or "", notes)
