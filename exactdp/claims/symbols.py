"""Whether a claim involves symbols, and the dispatch between a claim's own check and the
parametric engine (:mod:`exactdp.claims.parametric`, imported only for a claim with symbols).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..lazy import deferred
from ..model.game import Mechanism
from ..model.symbolic import is_symbolic_mechanism
from ..numbers.symbolic import is_sym
from .base import Analysis, Claim, Subject, Verdict

__all__ = ["NATIVE", "involves_symbols", "check_claim"]

NATIVE = frozenset({"simulates_rr", "not_simulates_rr", "calibrate", "counterexample"})
"""Claim kinds that handle symbols themselves (the Theorem 1.10 construction, calibration)."""

_decide = deferred("exactdp.claims.parametric:decide")  # start-up: the parametric engine loads python-flint


def _subjects(claim: Claim) -> list[Subject]:
    """Every mechanism a claim reads (its ``of``, and fields such as ``as:``, ``than:``, ``f:``)."""
    out: list[Subject] = []
    of = claim.of
    names = [of] if isinstance(of, str) else list(of) if isinstance(of, tuple) else []
    names += [getattr(claim, n) for n in getattr(claim, "names", ()) if isinstance(getattr(claim, n, None), str)]
    for n in names:
        out.append(n if claim.adjacency is None else (n, claim.adjacency))
    return out


def _symbolic_values(claim: Claim) -> bool:
    for f in dataclasses.fields(claim):
        v = getattr(claim, f.name, None)
        vals = v if isinstance(v, tuple) else (v,)
        if any(is_sym(x) and x.free_symbols for x in vals):
            return True
    return False


def _symbolic_check(mech: Mechanism) -> Callable[[], bool]:
    return lambda: is_symbolic_mechanism(mech)


def involves_symbols(claim: Claim, an: Analysis) -> bool:
    """Whether the claim's mechanisms or values mention declared symbols."""
    if _symbolic_values(claim):
        return True
    for s in _subjects(claim):
        try:
            mech = an.mech(s)
        except KeyError:
            continue
        if an.cached(("symbolic", s), _symbolic_check(mech)):
            return True
    return False


def check_claim(claim: Claim, an: Analysis) -> Verdict:
    """Decide ``claim``: with the parametric engine (:func:`exactdp.claims.parametric.decide`)
    when it involves symbols (and its kind does not handle symbols itself, like
    ``simulates_rr``), else with ``claim.check``."""
    if claim.kind in NATIVE or not involves_symbols(claim, an):
        return claim.check(an)
    return _decide(claim, an)
