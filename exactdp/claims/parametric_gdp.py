r"""Gaussian DP claims with a symbol, decided on every cell by certified boxes.

``gdp: {of: M, mu: X}`` (and ``not_gdp``) for a mechanism whose probabilities are rational
functions of one declared symbol s, with X a rational or a rational function of s, compares the
trade-off function with G_μ = Φ(Φ⁻¹(1 − α) − μ) (Dong, Roth & Su 2022, Def. 2.6), which is
transcendental in s.  The parametric engine gives every pair's chain on each cell of the
symbol's domain; :func:`exactdp.analysis.parametric.gdp_boxes.decide_gdp_cells` compares its
vertices with G_μ on rational boxes covering each cell:

* **holds** when every box of every open cell is proved (point cells follow by continuity,
  module docstring there; ``not_gdp`` decides a rational point cell with the concrete engine,
  an irrational one by the closed forms of a neighbouring cell);
* **fails** at a rational value of s where the exact concrete engine (the mechanism with s
  given that value) finds the claim false — its verdict and witness are the refutation;
* **undecided** otherwise, with the reason (the ``max_symbol_boxes`` limit, a trade-off
  function touching G_μ, an unbounded range, several symbols).

References
----------
Dong, Roth & Su, *Gaussian Differential Privacy*, JRSS-B 84 (2022), Def. 2.6.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..analysis.parametric import Undecided, rational_of
from ..analysis.parametric.boxes import UniRat
from ..analysis.parametric.gdp_boxes import FAILS as B_FAILS
from ..analysis.parametric.gdp_boxes import HOLDS as B_HOLDS
from ..analysis.parametric.gdp_boxes import GCell, chain_vertices, decide_gdp_cells, not_gdp_at_limit
from ..errors import VerificationError
from ..lazy import flint
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Verdict
from .parametric import DECIDERS, Parametric, verdict_at
from .parametric_boxes import ONE_AT_A_TIME, one_symbol

__all__ = ["by_gdp_boxes", "decide_gdp_by_boxes"]


def by_gdp_boxes(claim: Claim) -> bool:
    """Whether the claim is decided here (``gdp`` or ``not_gdp``)."""
    return claim.kind in ("gdp", "not_gdp")


def decide_gdp_by_boxes(claim: Any, an: Analysis) -> Verdict:
    """Decide a Gaussian-DP claim with a symbol for every value of it (module docstring);
    raises :class:`Undecided` with the reason when it cannot."""
    P = Parametric(an)
    game = P.game(claim.subject)
    mu = rational_of(claim.mu, P.ring)
    used = game.variables() | set(mu.variables())
    name, index = one_symbol(P, used, "Gaussian DP", ONE_AT_A_TIME)
    dom = P.domains[index]
    negated = claim.kind == "not_gdp"

    def run(ctx: Any) -> list:
        return [chain_vertices(h, ctx) for h in P.profile(claim.subject, ctx).hulls()]

    dec = P.decide(run)

    def at(s: Any) -> Verdict:
        pt = {name: s}
        return verdict_at(claim, an, pt)

    cells: list[GCell] = []
    irrational: list[tuple[int, Any]] = []
    doubt = ""  # not_gdp's irrational point cells, after cells[: k]
    mu_u = UniRat.of(mu, index)
    for cell, vs in dec.cells:
        side = cell.sides[index]
        if side.kind == "point":
            # gdp: a closed condition, covered by the neighbouring open cells (gdp_boxes), so a rational
            # point is only a candidate counterexample; not_gdp: decided here by the exact engine
            q = None if side.at is None else side.at.q
            if q is None:
                if negated:
                    irrational.append((len(cells), side))
                continue
            there = at(q)
            if there.status == FAILS:
                return _fails(claim, dom, name, q, there, 0)
            if there.status != HOLDS:
                if negated:
                    raise Undecided(f"at {side.text()}: {there.reason}")
                doubt = doubt or f"at {side.text()}: {there.reason}"
            continue
        verts = tuple((UniRat.of(a, index), UniRat.of(b, index)) for hv in vs for a, b in hv)
        cells.append(GCell(side, verts, mu_u))

    if doubt and not cells:  # a domain of one point: nothing covers it but the exact engine
        raise Undecided(doubt)
    for k, side in irrational:
        if not not_gdp_proved_at(cells[max(0, k - 1) : k + 1], side.at):
            raise Undecided(f"not_gdp at the irrational point {side.text()} is not decided by enclosures")

    def refute(s: Fraction) -> Verdict | None:
        there = at(flint.fmpq(s.numerator, s.denominator))
        if there.status == HOLDS:
            raise VerificationError(
                f"{claim.statement()}: the enclosure at {name} = {s} says the claim fails there, the exact engine "
                "says it holds"
            )
        return there if there.status == FAILS else None

    res = decide_gdp_cells(cells, negated, refute, name)
    facts: dict[str, Any] = {"domains": (dom,), "symbol_boxes": res.boxes}
    if res.status == B_HOLDS:
        return Verdict(claim, HOLDS, facts)
    if res.status == B_FAILS:
        assert res.at is not None
        return _fails(claim, dom, name, flint.fmpq(res.at.numerator, res.at.denominator), res.there, res.boxes)
    return Verdict(claim, UNDECIDED, facts, reason=res.reason)


def not_gdp_proved_at(neighbours: list[GCell], at: Any) -> bool:
    """not_gdp at an irrational point, from a neighbouring open cell's closed forms on shrinking
    isolating intervals (:func:`~exactdp.analysis.parametric.gdp_boxes.not_gdp_at_limit`)."""
    for _ in range(8):
        lo, hi = (Fraction(int(x.p), int(x.q)) for x in (at.lo, at.hi))
        if any(not_gdp_at_limit(c, lo, hi) for c in neighbours):
            return True
        for _ in range(8):
            at.refine()
    return False


def _fails(claim: Claim, dom: Any, name: str, at: Any, there: Verdict, boxes: int) -> Verdict:
    facts = {"domains": (dom,), "symbol_boxes": boxes, "refuted_at": {name: at}, "there": there}
    return Verdict(claim, FAILS, facts, there.witness)


DECIDERS.append((by_gdp_boxes, decide_gdp_by_boxes))
