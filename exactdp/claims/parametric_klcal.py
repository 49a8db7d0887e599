r"""Calibrating a KL target: the set of values of one symbol where ``renyi: {alpha: 1, at_most: X}``
(or ``exceeds: X``) holds, as a union of intervals whose ends are certified enclosures.

``exactdp calibrate CASE --target "renyi: {of: M, alpha: 1, at_most: X}"`` and the ``calibrate``
claim run a target's cell handler on every cell of the symbol's domain
(:mod:`exactdp.claims.calibrate`).  For the KL divergence (Mironov 2017: D_1 is the KL divergence)
this module gives that handler: on each cell, certified boxes find where KL(M) − X changes sign
(:func:`~exactdp.analysis.parametric.kl_calibrate.kl_cell`), each change a transcendental end
bisected to proved digits; the verdict of a ``renyi`` claim with α = 1 *for every value* is still
decided by :mod:`exactdp.claims.parametric_boxes`.  ``equals`` targets are not calibrated (an
equality at a transcendental point only).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..analysis.parametric import Undecided
from ..analysis.parametric.boxes import KLGame, Target, UniRat
from ..analysis.parametric.kl_calibrate import kl_cell
from ..lazy import flint
from ..numbers.ladder import is_inf
from .base import HOLDS
from .parametric import HANDLERS, Outcome, Parametric, verdict_at
from .parametric_boxes import _key, _target, one_symbol

__all__ = ["kl_handler"]

_renyi = HANDLERS["renyi"]


def kl_handler(claim: Any, P: Parametric) -> Callable[[Any], Outcome]:
    """The cell handler of ``renyi``: α = 1 here (module docstring), other orders as before."""
    alpha = claim.alpha
    if is_inf(alpha) or alpha != 1:
        return _renyi(claim, P)
    sense, raw = _key(claim)
    if sense == "equals" or is_inf(raw):
        raise Undecided("a KL target with `equals:` or an infinite bound is not calibrated; use at_most or exceeds")
    game = P.game(claim.subject)
    q, logs, used = _target(raw, P)
    used |= game.variables()
    name, index = one_symbol(P, used, "the KL divergence", "calibrated: the boxes cover one symbol's range at a time")
    kg = KLGame(game, index)
    target = Target(q, tuple((c, UniRat.of(R, index)) for c, R in logs))
    spec = (game, index, q, tuple(logs))
    label = f"KL({claim.of})"
    what = f"KL({claim.of}) = {raw}"

    def exact(s: Any) -> bool:
        pt = {name: s}
        return verdict_at(claim, P.an, pt).status == HOLDS

    def run(ctx: Any) -> Outcome:
        res = kl_cell(ctx, spec, kg, target, -1 if sense == "at_most" else 1, what, exact)
        at = None
        if res.at is not None and res.crossing is not None:
            at = {**(ctx.cell.point() or {}), name: flint.fmpq(res.at.numerator, res.at.denominator)}
        return Outcome(res.holds, "certified enclosures", label, at, res.crossing)

    return run


HANDLERS["renyi"] = kl_handler
