"""Cross-checks of parametric answers against the numeric engine at rational points.

A closed form found on a cell must equal, at every rational point of the cell, what the
numeric profile engine computes for the mechanism with the symbols given those values.  These
checks never decide anything (the cell decomposition does); a disagreement is a bug and raises
:class:`~exactdp.errors.VerificationError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ...errors import VerificationError
from ...lazy import flint
from ..hull import Hull
from .hull import PHull
from .ratfun import RatFun

__all__ = ["hull_at", "numeric_hull", "check_hull_at", "fraction"]


def fraction(x: Any) -> Fraction:
    """An exact rational (mpq, Fraction, int, fmpq) as a Fraction."""
    if isinstance(x, flint.fmpq):
        return Fraction(int(x.p), int(x.q))
    return Fraction(int(x.numerator), int(x.denominator))


def hull_at(h: PHull, point: Mapping[str, Any]) -> tuple[Fraction, tuple[tuple[Fraction, Fraction], ...]]:
    """The numeric chain of ``h`` at a rational point: (top, edges), equal slopes merged and
    zero widths dropped, slopes decreasing."""

    def at(r: RatFun) -> Fraction:
        return fraction(r.at(point))

    acc: dict[Fraction, Fraction] = {}
    for r, w in h.edges:
        rv, wv = at(r), at(w)
        if wv:
            acc[rv] = acc.get(rv, Fraction(0)) + wv
    return at(h.top), tuple(sorted(acc.items(), reverse=True))


def numeric_hull(h: Hull) -> tuple[Fraction, tuple[tuple[Fraction, Fraction], ...]]:
    """A numeric chain of the profile engine in the same normal form as :func:`hull_at`."""
    acc: dict[Fraction, Fraction] = {}
    for r, w in h.edges:
        rv, wv = fraction(r), fraction(w)
        if wv:
            acc[rv] = acc.get(rv, Fraction(0)) + wv
    return fraction(h.top), tuple(sorted(acc.items(), reverse=True))


def check_hull_at(h: PHull, numeric: Hull, point: Mapping[str, Any], what: str) -> None:
    """Raise :class:`VerificationError` unless the parametric chain at ``point`` is the
    numeric engine's chain."""
    a, b = hull_at(h, point), numeric_hull(numeric)
    if a != b:
        where = ", ".join(f"{k} = {v}" for k, v in point.items())
        raise VerificationError(
            f"{what}: the parametric profile at {where} differs from the profile engine's "
            f"(top {a[0]} vs {b[0]}, {len(a[1])} vs {len(b[1])} edges)"
        )
