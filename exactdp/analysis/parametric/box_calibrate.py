r"""Where a claim decided by certified boxes holds: proved stretches of the symbol and the gaps between.

zCDP (Bun & Steinke 2016, Def. 1.1) and Gaussian DP (Dong, Roth & Su 2022, Def. 2.6) with a
symbol are decided by certified enclosures on boxes of the symbol
(:mod:`~exactdp.analysis.parametric.zcdp_boxes`, :mod:`~exactdp.analysis.parametric.gdp_boxes`):
a box either **proves** the claim for every value in it, or **refutes** it for every value in
it (the negated claim is proved on the box), or neither.  Calibrating such a target scans the
symbol's range with these two proofs (:func:`scan`):

* a box proved one way is a *stretch* where the claim holds (or fails) — for every value of it,
  closed ends included (the enclosures cover the closed box);
* a box proved neither way is split at its midpoint, until it is narrow enough that both of its
  ends round to the same ``digits`` significant digits; it is then a *gap* (gaps with only small
  proved slivers between them, all within one rounding, are made one gap).

Between a stretch where the claim holds and one where it fails there is always a gap (their
closed ends cannot meet), and in a gap nothing is proved: the set may switch there once or
several times, and the boxes do not tell how often.  So the answer says exactly what is proved —
"holds on [a, b], fails on [c, d], the boundary lies in (b, c)" — and a gap's decimal is the
value, to ``digits`` significant digits, of *every* point of it (wherever the set switches).
The ``max_symbol_boxes`` limit bounds the boxes; a box left when it is reached is a *wide* gap:
undecided there, said so, never guessed.

References
----------
Johansson, *Arb*, IEEE Trans. Computers 66(8), 2017 (the enclosures).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ... import limits
from ...lazy import flint
from .algebraic import _round
from .boxes import TAIL_CAP, Box, initial_boxes

__all__ = ["HOLDS", "FAILS", "GAP", "OUTSIDE", "fraction", "Stretch", "Scan", "scan", "gap_decimal"]

HOLDS, FAILS, GAP = "holds", "fails", "gap"
OUTSIDE = "outside"
"""What ``classify`` says of a box certified to miss the range it covers (dropped)."""


@dataclass(frozen=True)
class Stretch:
    """A closed stretch [lo, hi] of the symbol (``None``: infinite) where the claim ``status``
    (``holds`` or ``fails``) for every value, proved on boxes; or a ``gap``, the open (lo, hi),
    where nothing is proved (``narrow``: its ends round to the same significant digits)."""

    lo: Fraction | None
    hi: Fraction | None
    status: str
    narrow: bool = True


@dataclass(frozen=True)
class Scan:
    """The stretches covering the range in order, the boxes examined, and why a wide gap was
    left (empty when every gap is narrow)."""

    stretches: tuple[Stretch, ...]
    boxes: int
    reason: str = ""


Classify = Callable[[Box], str | None]
"""A box → ``holds`` (the claim is proved on all of it), ``fails`` (its negation is),
:data:`OUTSIDE`, or None."""


def _narrow(box: Box, digits: int) -> bool:
    """Whether the box is bisected no further: its ends round to the same ``digits`` + 1
    significant digits, or it is narrower than one unit of that last digit.  (Without the width
    test a box that straddles a rounding boundary, where the claim is proved neither way, is
    halved towards that boundary until the box limit: 28 such chains spent it at widths of
    2^-117 next to the zCDP boundary of RR_E at rho = 1/10.)"""
    assert box.lo is not None and box.hi is not None
    q = lambda x: flint.fmpq(x.numerator, x.denominator)  # noqa: E731
    if box.lo <= 0 <= box.hi:
        return box.hi - box.lo < Fraction(1, 10 ** (digits + 1))
    small = min(abs(box.lo), abs(box.hi))
    return (box.hi - box.lo) * 10 ** (digits + 1) <= small or _round(q(box.lo), digits + 1) == _round(
        q(box.hi), digits + 1
    )


def scan(classify: Classify, lo: Fraction | None, hi: Fraction | None, *, digits: int, name: str) -> Scan:
    """Cover [lo, hi] (``None``: unbounded) by boxes, each proved one way by ``classify`` or
    bisected until narrow (module docstring); adjacent stretches of one status are merged."""
    cap = limits.current().max_symbol_boxes
    queue = deque(initial_boxes(lo, hi))  # widest first: a limit leaves the narrowest undecided
    done: list[Stretch] = []
    boxes, reason = 0, ""
    while queue:
        box = queue.popleft()
        if boxes >= cap:
            reason = (
                reason
                or f"the --max-symbol-boxes limit ({cap} boxes of {name}) was reached; raise it with --max-symbol-boxes N"
            )
            done.append(Stretch(box.lo, box.hi, GAP, False))
            continue
        boxes += 1
        st = classify(box)
        if st == OUTSIDE:
            continue
        if st is not None:
            done.append(Stretch(box.lo, box.hi, st))
            continue
        if box.tail and abs(box.point()) > TAIL_CAP:
            reason = reason or f"boxes prove nothing as {name} grows without bound (beyond |{name}| = 2^64)"
            done.append(Stretch(box.lo, box.hi, GAP, False))
            continue
        if not box.tail and _narrow(box, digits):
            done.append(Stretch(box.lo, box.hi, GAP))
            continue
        queue.extend(box.split())
    done.sort(key=lambda s: (s.lo is not None, s.lo if s.lo is not None else 0))
    done, boxes = _settle_slivers(classify, _merge(done), boxes, cap, digits)
    return Scan(tuple(_snap(_absorb(_merge(done), digits), digits + 2)), boxes, reason)


_SLIVER_DIGITS = 3
"""Extra significant digits a narrow gap that is not a switch is bisected to (:func:`_settle_slivers`)."""


def _settle_slivers(
    classify: Classify, done: list[Stretch], boxes: int, cap: int, digits: int
) -> tuple[list[Stretch], int]:
    """Narrow gaps that lie between stretches of one status (or at an end), bisected further, to
    :data:`_SLIVER_DIGITS` more digits: next to the boundary, a box within a few enclosure widths of
    it is proved neither way although most of it lies on one side, and a few more bisections prove
    that part (without them it stays a sliver the answer must call undecided)."""
    out: list[Stretch] = []
    for k, s in enumerate(done):
        near = {done[j].status for j in (k - 1, k + 1) if 0 <= j < len(done)}
        if s.status != GAP or not s.narrow or near == {HOLDS, FAILS}:
            out.append(s)
            continue
        stack = [Box(s.lo, s.hi)]
        found: list[Stretch] = []
        while stack:
            box = stack.pop()
            if boxes >= cap:  # it stays what it was: a narrow gap
                found.append(Stretch(box.lo, box.hi, GAP))
                continue
            boxes += 1
            st = classify(box)
            if st in (HOLDS, FAILS):
                found.append(Stretch(box.lo, box.hi, st))
            elif st != OUTSIDE and _narrow(box, digits + _SLIVER_DIGITS):
                found.append(Stretch(box.lo, box.hi, GAP))
            elif st != OUTSIDE:
                stack.extend(reversed(box.split()))
        out.extend(sorted(found, key=lambda x: x.lo))  # type: ignore[arg-type, return-value]
    return out, boxes


def _absorb(parts: list[Stretch], digits: int) -> list[Stretch]:
    """Narrow gaps with only proved slivers between them, all within one rounding at ``digits``
    significant digits, made one gap (what the slivers proved is given up: a gap claims nothing)."""
    out: list[Stretch] = []
    for s in parts:
        out.append(s)
        while len(out) >= 3 and all(x.status == GAP and x.narrow for x in (out[-1], out[-3])):
            lo, hi = out[-3].lo, out[-1].hi
            dec = None if lo is None or hi is None else gap_decimal(lo, hi, digits)
            if dec is None or dec[1] < digits:
                break
            out[-3:] = [Stretch(lo, hi, GAP)]
    return out


def _decimal_toward(x: Fraction, n: int, up: bool) -> Fraction:
    """x rounded down (``up``: up) to a decimal of ``n`` significant digits."""
    if x == 0:
        return x
    a, e = abs(x), 0
    while a >= Fraction(10) ** (e + 1):
        e += 1
    while a < Fraction(10) ** e:
        e -= 1
    scale = Fraction(10) ** (n - 1 - e)
    k = x * scale
    r = -((-k.numerator) // k.denominator) if up else k.numerator // k.denominator
    return Fraction(r) / scale


def _snap(parts: list[Stretch], n: int) -> list[Stretch]:
    """Each gap's ends moved outward to decimals of ``n`` significant digits (its neighbours,
    proved on closed boxes, shrink: still proved), so that the proved ends print short."""
    out = list(parts)
    for k, s in enumerate(out):
        if s.status != GAP or s.lo is None or s.hi is None:
            continue
        lo, hi = _decimal_toward(s.lo, n, False), _decimal_toward(s.hi, n, True)
        before = out[k - 1] if k > 0 else None
        after = out[k + 1] if k + 1 < len(out) else None
        if before is not None and (before.lo is None or before.lo < lo):
            out[k - 1] = Stretch(before.lo, lo, before.status, before.narrow)
        else:
            lo = s.lo
        if after is not None and (after.hi is None or hi < after.hi):
            out[k + 1] = Stretch(hi, after.hi, after.status, after.narrow)
        else:
            hi = s.hi
        out[k] = Stretch(lo, hi, GAP, s.narrow)
    return out


def _merge(parts: list[Stretch]) -> list[Stretch]:
    out: list[Stretch] = []
    for s in parts:
        if out and out[-1].status == s.status:
            last = out[-1]
            out[-1] = Stretch(last.lo, s.hi, s.status, last.narrow and s.narrow)
        else:
            out.append(s)
    return out


def gap_decimal(lo: Fraction, hi: Fraction, digits: int) -> tuple[str, int] | None:
    """The decimal that every point of [lo, hi] rounds to, with the most significant digits up to
    ``digits`` (and that number), or None when they differ already in the first digit."""
    q = lambda x: flint.fmpq(x.numerator, x.denominator)  # noqa: E731
    for n in range(digits, 0, -1):
        a = _round(q(lo), n)
        if a == _round(q(hi), n):
            return a, n
    return None


def fraction(x: Any) -> Fraction:
    """An fmpq (or Fraction) as a Fraction."""
    return x if isinstance(x, Fraction) else Fraction(int(x.p), int(x.q))
