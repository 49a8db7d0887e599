"""A claim with symbols that the parametric engine could not finish (a limit was reached): the
exact numeric engine at a few rational values of the symbols.  A claim about every value of the
symbols is false as soon as it is false at one of them, so a value where the numeric engine
refutes it decides the claim; where every sampled value holds, nothing is decided and the limit
stands.  The values are the simplest rational of each domain, then its quarters and closed ends.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from ..analysis.parametric.polys import simplest_between
from ..errors import ExactDPError, TimeLimitExceeded
from ..lazy import flint
from .base import FAILS, Analysis, Claim, Verdict

__all__ = ["refute_by_samples", "sample_values"]

MAX_POINTS = 12  # values of the symbols tried, in all


def sample_values(domain: Any) -> list:
    """Rational values (``fmpq``) inside a symbol's domain
    (:class:`~exactdp.analysis.parametric.cells.Domain`): the simplest, then spread out."""
    lo, hi, q = domain.lo, domain.hi, flint.fmpq
    if lo is not None and lo == hi:  # (a domain of one value)
        return [lo]
    out = [simplest_between(lo, hi)]
    if lo is not None and hi is not None:
        out += [lo + (hi - lo) * q(k, 4) for k in (1, 2, 3)]
    elif lo is not None or hi is not None:
        end, way = (lo, 1) if lo is not None else (hi, -1)
        out += [end + way * step for step in (q(1, 2), q(2), q(10))]
    else:
        out += [q(1), q(-1), q(1, 2), q(2)]
    out += [e for e, closed in ((lo, domain.lo_closed), (hi, domain.hi_closed)) if e is not None and closed]
    return list(dict.fromkeys(out))


def refute_by_samples(
    claim: Claim, an: Analysis, domains: tuple, limit: str, verdict_at: Callable[[Claim, Analysis, dict], Verdict]
) -> Verdict | None:
    """The numeric engine's refutation of ``claim`` at a sampled value of its symbols, or None."""
    grids = [sample_values(d) for d in domains]
    for values in itertools.islice(itertools.product(*grids), MAX_POINTS):
        point = {d.name: v for d, v in zip(domains, values)}
        try:
            there = verdict_at(claim, an, point)
        except TimeLimitExceeded:
            raise
        except ExactDPError:  # (a value where the case's numbers are undefined, or a limit there too)
            continue
        if there.status == FAILS:
            why = f"the verdict for every value stopped at a limit ({limit}); this value refutes the claim"
            facts = {"domains": domains, "refuted_at": point, "there": there, "sampled": why}
            return Verdict(claim, FAILS, facts, there.witness)
    return None
