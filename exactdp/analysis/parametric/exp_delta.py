r"""δ(λ) at λ = e^q·L (q ≠ 0 rational, L a rational function of the symbol) on a cell.

δ(λ) is, for each ordered pair, the largest of A_k − λ·B_k over the prefixes k of its chain (the
edges (r_i, w_i) in decreasing order of slope: A_k = top + Σ_{i<k} r_i w_i, B_k = Σ_{i<k} w_i;
Vadhan & Wang 2021, Def. 1.7, Lemma 2.2).  At a transcendental λ the largest form can change
inside a cell, at a point where two forms meet — a transcendental point, never a cell end
(Lindemann 1882) — so δ on the cell is the largest of the forms that some point needs: one
:class:`~exactdp.analysis.parametric.values.ExpAffine`, or a
:class:`~exactdp.analysis.parametric.values.MaxOf` of those not below another on the whole cell
(decided by the certified signs of :mod:`~exactdp.analysis.parametric.transcendental`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .cells import Ctx, Undecided
from .engine import PGame, PProfile, profile
from .hull import sorted_edges
from .ratfun import RatFun
from .transcendental import exp_sign
from .values import ExpAffine, MaxOf

__all__ = ["MAX_FORMS", "prefixes", "prefix_signs", "delta_forms", "delta_exp_cell"]

MAX_FORMS = 12
"""At most this many candidate forms A_k − λ·B_k are compared on one cell (each pair compared
by a certified sign); beyond, the forms are not shown."""


def prefixes(prof: PProfile, ctx: Ctx) -> Iterator[tuple[RatFun, RatFun]]:
    """(A_k, B_k) for every prefix k of every ordered pair's chain (k = 0 first: (top, 0))."""
    for h in prof.hulls():
        a, b = h.top, ctx.ring.zero
        yield a, b
        for r, w in sorted_edges(h, ctx):
            a, b = a + r * w, b + w
            yield a, b


def prefix_signs(prof: PProfile, ctx: Ctx, q: Any, L: RatFun, d: RatFun) -> list[tuple[int, RatFun | None]]:
    """For every prefix k, the sign of A_k − e^q·L·B_k − d on the cell (0: it takes both signs)
    and G_k = (A_k − d)/(L·B_k), whose sign against e^q it is (None where B_k = 0: then the
    sign of A_k − d, exact).  L > 0 on the cell."""
    out: list[tuple[int, RatFun | None]] = []
    for a, b in prefixes(prof, ctx):
        if ctx.sign(b) == 0:
            out.append((ctx.cmp(a, d), None))
        else:
            G = (a - d) / (L * b)
            out.append((exp_sign(ctx, G, q), G))
    return out


def delta_forms(prof: PProfile, ctx: Ctx, q: Any, L: RatFun) -> ExpAffine | MaxOf | None:
    """δ(e^q·L) on the cell of ``ctx`` (module docstring), or None when more than
    :data:`MAX_FORMS` forms would have to be compared."""
    forms = list(dict.fromkeys(ExpAffine(a, b * L, q) for a, b in prefixes(prof, ctx)))
    if len(forms) > MAX_FORMS:
        return None
    keep: list[ExpAffine] = []
    for f in forms:
        if any(_at_least(g, f, ctx) for g in keep):
            continue
        keep = [g for g in keep if not _at_least(f, g, ctx)] + [f]
    return keep[0] if len(keep) == 1 else MaxOf(tuple(keep))


def _at_least(g: ExpAffine, f: ExpAffine, ctx: Ctx) -> bool:
    """Whether g ≥ f on the whole cell (g − f = ΔA − e^q·ΔB)."""
    dA, dB = g.A - f.A, g.B - f.B
    sb = ctx.sign(dB)
    if sb == 0:
        return ctx.sign(dA) >= 0
    return sb * exp_sign(ctx, dA / dB, g.m) > 0  # g − f = ΔB·(ΔA/ΔB − e^q)


def delta_exp_cell(game: PGame, q: Any, L: RatFun, ctx: Ctx) -> ExpAffine | MaxOf:
    """δ_M(e^q·L) on a cell, for ``exactdp delta`` at a decimal ε.

    Raises
    ------
    Undecided
        Where L is not positive on the cell, or too many forms would have to be compared.
    """
    if ctx.sign(L) <= 0:
        raise Undecided(f"e^eps = exp({q})*({L}) is not positive on all of {ctx.cell.text()}")
    prof = ctx.stage(("profile", game.name), lambda: profile(game, ctx))
    got = delta_forms(prof, ctx, q, L)
    if got is None:
        raise Undecided(
            f"on {ctx.cell.text()} delta(e^eps) is the largest of more than {MAX_FORMS} forms A - e^q*B "
            "whose order changes at transcendental points; not shown"
        )
    return got
