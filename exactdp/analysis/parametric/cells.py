r"""The cell decomposition of the symbols' domain, and the exact sign oracle inside a cell.

The parametric engines compute with rational functions of the symbols; every decision they
make — which likelihood ratio is larger, whether an answer is impossible under a dataset, which
option an adversary prefers — is the sign of a polynomial.  They ask a :class:`Ctx` for it.  A
cell is a box whose side for each symbol is the whole declared domain (not split yet), an open
interval between exact endpoints, or a single point (rational or algebraic).

:meth:`Ctx.sign` answers only when the sign is the same at *every* point of the cell, and
proves it:

* the polynomial is factored exactly over ℚ; a factor in one symbol has its real roots
  isolated exactly (:mod:`~exactdp.analysis.parametric.polys`).  If a root lies inside the
  cell's open side, the oracle raises :class:`Split` and the cell is cut there (a point cell at
  the root and open cells on both sides); otherwise the factor has no root in the side, so its
  sign there is its sign at any rational point of it;
* at an algebraic point the sign is decided exactly (:func:`~.algebraic.sign_of_poly_at`);
* a factor in several symbols must be proved to have one sign on the whole box (a rational box
  that encloses the cell) by the sign proofs of :func:`exactdp.numbers.symbolic.sign_set`;
  otherwise the problem is not decided: :class:`Undecided`, with the factor named.

:func:`decompose` runs a computation on the whole domain and re-runs it on the pieces of every
cell that had to be split, until it completes in every cell.  What a cell learned (signs,
finished stages) stays valid in its pieces, which inherit it.  Nothing is ever decided from a
sample point: a rational point of a cell is used only once its polynomials are proved to have
no root in the cell.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from ...errors import ExactDPError, LimitExceededError
from ...lazy import flint
from ...limits import current as current_limits
from ...numbers.rational import Q
from ...numbers.symbolic import SymbolBounds, SymbolTable, sign_set
from .algebraic import Algebraic, closed_form_text, compare, decimal_text, rational, roots_of, sign_of_poly_at
from .polys import descartes_on, primitive, sign_at, simplest_between
from .ratfun import RatFun, Ring, poly_terms_text

__all__ = [
    "Domain",
    "Side",
    "Cell",
    "Ctx",
    "Split",
    "Undecided",
    "decompose",
    "domain_of_table",
    "CellFacts",
]

_Q = flint.fmpq
T = TypeVar("T")


class Split(Exception):
    """A sign is not constant on the cell: cut side ``index`` at ``roots`` (increasing)."""

    def __init__(self, index: int, roots: list[Algebraic]):
        super().__init__(index, roots)
        self.index = index
        self.roots = roots


class Undecided(ExactDPError):
    """The method cannot decide this problem (the message says why); never a guess."""

    heading = "undecided"


@dataclass(frozen=True)
class Domain:
    """A symbol's declared domain: rational bounds (``None``: unbounded), open or closed."""

    name: str
    lo: flint.fmpq | None = None
    lo_closed: bool = False
    hi: flint.fmpq | None = None
    hi_closed: bool = False
    key: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", f"{self.lo}|{self.lo_closed}|{self.hi}|{self.hi_closed}")

    def describe(self) -> str:
        parts = []
        if self.lo is not None:
            parts.append(f"{self.name} {'>=' if self.lo_closed else '>'} {self.lo}")
        if self.hi is not None:
            parts.append(f"{self.name} {'<=' if self.hi_closed else '<'} {self.hi}")
        return " and ".join(parts) if parts else f"every real {self.name}"


def _fmpq(q: Any) -> flint.fmpq | None:
    if q is None:
        return None
    return _Q(int(q.numerator), int(q.denominator))


def domain_of_table(table: Any, names: Sequence[str]) -> tuple[Domain, ...]:
    """The domains of ``names`` from a case's :class:`~exactdp.numbers.symbolic.SymbolTable`."""
    out = []
    by_name = {b.name: b for b in table.bounds} if table else {}
    for n in names:
        b = by_name.get(n)
        if b is None:
            out.append(Domain(n))
        else:
            out.append(Domain(n, _fmpq(b.lo), b.lo_closed, _fmpq(b.hi), b.hi_closed))
    return tuple(out)


class Side:
    """One side of a cell: the whole domain (``kind == "domain"``), an open interval
    (``"open"``, ends ``lo``/``hi``, ``None`` infinite) or a point (``"point"``, ``at``)."""

    __slots__ = ("kind", "lo", "hi", "at", "domain", "_sample")

    def __init__(self, kind: str, domain: Domain, lo: Algebraic | None = None, hi: Algebraic | None = None):
        self.kind = kind
        self.domain = domain
        self.lo = lo
        self.hi = hi
        self.at = lo if kind == "point" else None
        self._sample: flint.fmpq | None = None

    @staticmethod
    def whole(domain: Domain) -> Side:
        return Side("domain", domain)

    def __repr__(self) -> str:
        if self.kind == "point":
            return f"Side({self.domain.name} = {self.at})"
        return f"Side({self.kind} {self.lo}..{self.hi})"

    # the open interval that this side is (or, for the whole domain, its interior)
    def _ends(self) -> tuple[Algebraic | None, Algebraic | None]:
        if self.kind == "domain":
            d = self.domain
            return (None if d.lo is None else rational(d.lo)), (None if d.hi is None else rational(d.hi))
        return self.lo, self.hi

    def inside(self, a: Algebraic) -> bool:
        """Whether ``a`` lies strictly inside the (open) side."""
        lo, hi = self._ends()
        return (lo is None or compare(lo, a) < 0) and (hi is None or compare(a, hi) < 0)

    def sample(self) -> flint.fmpq:
        """A rational point inside: the simplest rational of the open interval (or the point)."""
        if self.kind == "point":
            assert self.at is not None
            if self.at.q is None:
                raise ValueError("an algebraic point has no rational sample")
            return self.at.q
        if self._sample is None:
            lo, hi = self._ends()
            if lo is not None and hi is not None and compare(lo, hi) == 0:
                raise ValueError("an empty interval")
            while True:
                a = None if lo is None else (lo.q if lo.q is not None else lo.hi)
                b = None if hi is None else (hi.q if hi.q is not None else hi.lo)
                if a is None or b is None or a < b:
                    break
                for e in (lo, hi):
                    if e is not None and e.q is None:
                        e.refine()
            self._sample = simplest_between(a, b)
        return self._sample

    def rational_bounds(self) -> tuple[flint.fmpq | None, flint.fmpq | None]:
        """Rational a ≤ every point ≤ b, strict unless the side is a rational point (for proofs
        on an enclosing box)."""
        if self.kind == "point":
            assert self.at is not None
            return (self.at.q, self.at.q) if self.at.q is not None else (self.at.lo, self.at.hi)
        if self.kind == "domain":
            return self.domain.lo, self.domain.hi
        a = None if self.lo is None else (self.lo.q if self.lo.q is not None else self.lo.lo)
        b = None if self.hi is None else (self.hi.q if self.hi.q is not None else self.hi.hi)
        return a, b

    def closed_bounds(self) -> tuple[bool, bool]:
        """Whether an enclosing box from :meth:`rational_bounds` must include its ends."""
        if self.kind == "point":
            return (True, True) if self.at is not None and self.at.q is not None else (False, False)
        if self.kind == "domain":
            return self.domain.lo_closed, self.domain.hi_closed
        return False, False

    def pieces(self, roots: list[Algebraic]) -> list[Side]:
        """This side cut at ``roots`` (increasing, strictly inside); the whole domain is also
        cut at its closed ends."""
        out: list[Side] = []
        lo, hi = self._ends()
        d = self.domain
        if self.kind == "domain" and d.lo is not None and d.hi is not None and d.lo == d.hi:
            return [Side("point", d, rational(d.lo))]
        if self.kind == "domain" and d.lo is not None and d.lo_closed:
            out.append(Side("point", d, rational(d.lo)))
        prev = lo
        for r in roots:
            out.append(Side("open", d, prev, r))
            out.append(Side("point", d, r))
            prev = r
        out.append(Side("open", d, prev, hi))
        if self.kind == "domain" and d.hi is not None and d.hi_closed:
            out.append(Side("point", d, rational(d.hi)))
        return out

    def key(self) -> tuple:
        """What identifies the side (its kind, exact ends and domain), across decompositions."""
        return (self.kind, _end_key(self.lo), _end_key(self.hi), self.domain.name, self.domain.key)

    def position(self) -> Algebraic | None:
        """A number inside the side, to sort sides of one symbol along the line."""
        if self.kind == "point":
            return self.at
        if self.kind == "domain":
            return None
        return rational(self.sample())

    def text(self) -> str:
        """``1 < E < 2``, ``E = sqrt(2)``, ``E > 1`` (the whole domain: its description)."""
        n = self.domain.name
        if self.kind == "domain":
            return self.domain.describe()

        if self.kind == "point":
            assert self.at is not None
            return f"{n} = {closed_form_text(self.at, n)}"
        lo = "" if self.lo is None else f"{closed_form_text(self.lo, n)} < "
        hi = "" if self.hi is None else f" < {closed_form_text(self.hi, n)}"
        if not lo and not hi:
            return f"every real {n}"
        return f"{lo}{n}{hi}"


@dataclass(frozen=True)
class Cell:
    """A box: one :class:`Side` per symbol of the ring, in ring order."""

    sides: tuple[Side, ...]

    def with_side(self, index: int, side: Side) -> Cell:
        return Cell(self.sides[:index] + (side,) + self.sides[index + 1 :])

    def point(self) -> dict[str, flint.fmpq] | None:
        """A rational point of the cell (every side), or None if a side is an irrational point."""
        out = {}
        for s in self.sides:
            if s.kind == "point" and s.at is not None and s.at.q is None:
                return None
            out[s.domain.name] = s.sample() if s.kind != "domain" else _domain_sample(s.domain)
        return out

    def text(self) -> str:
        return ", ".join(s.text() for s in self.sides)

    def is_point(self) -> bool:
        return all(s.kind == "point" for s in self.sides)

    def key(self) -> tuple:
        return tuple(s.key() for s in self.sides)


def _end_key(a: Algebraic | None) -> tuple | None:
    """An exact end as a key: a rational's value, an irrational's minimal polynomial and index."""
    if a is None:
        return None
    return ("q", str(a.q)) if a.q is not None else ("root", str(a.poly), a.index)


def _domain_sample(d: Domain) -> flint.fmpq:
    if d.lo is not None and d.hi is not None and d.lo == d.hi:
        return d.lo
    return simplest_between(d.lo, d.hi)


_GUIDE = ("guide",)  # the memo key of a cell's own guide point (not inherited by its pieces)
# keyed by the polynomial's text *and* its ring's symbols: "p" prints the same in the rings
# (p) and (p, q), but its factors and exponent vectors differ
_FACTORS: dict[tuple[str, tuple[str, ...]], tuple[flint.fmpq, list]] = {}
_UNI: dict[tuple[str, tuple[str, ...], int], flint.fmpz_poly] = {}


def _key(p: flint.fmpq_mpoly, text: str | None = None) -> tuple[str, tuple[str, ...]]:
    return str(p) if text is None else text, p.context().names()


def _factor(p: flint.fmpq_mpoly, text: str | None = None) -> tuple[flint.fmpq, list]:
    """``p.factor()``, cached by ``p``'s text (``text`` when the caller has it already: the
    memo of signs keeps the same string, not a copy of it)."""
    key = _key(p, text)
    hit = _FACTORS.get(key)
    if hit is None:
        if len(_FACTORS) > 50_000:
            _FACTORS.clear()
        c, fs = p.factor()
        hit = (_Q(c), list(fs))
        _FACTORS[key] = hit
    return hit


def _univariate(f: flint.fmpq_mpoly, index: int) -> flint.fmpz_poly:
    """A polynomial in one symbol as a primitive integer polynomial with the same sign
    (coefficients times the positive lcm of their denominators, then the positive content)."""
    key = (*_key(f), index)
    hit = _UNI.get(key)
    if hit is None:
        d = f.to_dict()
        deg = max(m[index] for m in d)
        cs = [_Q(0)] * (deg + 1)
        for m, c in d.items():
            cs[m[index]] = _Q(c)
        den = 1
        for c in cs:
            den = den * int(c.q) // _gcd(den, int(c.q))
        z = flint.fmpz_poly([int(c * den) for c in cs])
        content = z.content()
        hit = flint.fmpz_poly([x // content for x in z.coeffs()]) if content > 1 else z
        if len(_UNI) > 50_000:
            _UNI.clear()
        _UNI[key] = hit
    return hit


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


class Ctx:
    """The sign oracle of one cell (module docstring); ``memo`` holds what is proved on it."""

    __slots__ = ("ring", "cell", "memo", "_subs")
    _subs: dict[str | int, Any]

    def __init__(self, ring: Ring, cell: Cell, memo: dict | None = None):
        self.ring = ring
        self.cell = cell
        self.memo: dict = {} if memo is None else memo
        self._subs = {
            s.domain.name: s.at.q for s in cell.sides if s.kind == "point" and s.at is not None and s.at.q is not None
        }

    # --- the questions the engines ask -------------------------------------------------------

    def sign(self, r: RatFun | Any) -> int:
        """The sign of ``r`` on the whole cell (−1, 0 or 1), or :class:`Split`/:class:`Undecided`."""
        if not isinstance(r, RatFun):
            return (r > 0) - (r < 0)
        if r.num.is_zero():
            return 0
        if r.is_constant():
            c = r.constant()
            return (c > 0) - (c < 0)
        sd = 1 if r.den.is_constant() and r.den.leading_coefficient() > 0 else self.poly_sign(r.den)
        return self.poly_sign(r.num) * sd

    def cmp(self, a: Any, b: Any) -> int:
        """The sign of a − b on the cell."""
        if a is b:
            return 0
        return self.sign(a - b)

    def is_zero(self, r: Any) -> bool:
        return self.sign(r) == 0

    def guide(self) -> dict[str, flint.fmpq] | None:
        """A rational point at which to *guess* an order or a maximum that is then proved on
        the cell (never used to decide): the cell's rational point, or for an algebraic point
        the middle of its isolating interval."""
        if _GUIDE not in self.memo:
            pt: dict[str, flint.fmpq] | None = {}
            for s in self.cell.sides:
                assert pt is not None
                if s.kind == "point" and s.at is not None and s.at.q is None:
                    pt[s.domain.name] = (s.at.lo + s.at.hi) / 2
                elif s.kind == "domain":
                    pt[s.domain.name] = _domain_sample(s.domain)
                else:
                    pt[s.domain.name] = s.sample()
            self.memo[_GUIDE] = pt
        return self.memo[_GUIDE]

    def stage(self, key: Any, compute: Callable[[], T]) -> T:
        """``compute()`` once for this cell and its pieces (what it proved holds in them too)."""
        k = ("stage", key)
        if k not in self.memo:
            self.memo[k] = compute()
        return self.memo[k]

    # --- polynomials ---------------------------------------------------------------------

    def poly_sign(self, p: flint.fmpq_mpoly) -> int:
        key = str(p)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        s = self._poly_sign(p, key)
        self.memo[key] = s
        return s

    def _poly_sign(self, p: flint.fmpq_mpoly, text: str) -> int:
        if self._subs:
            p = p.subs(self._subs)
            text = str(p)
        if p.is_constant():
            c = _Q(p.leading_coefficient()) if not p.is_zero() else _Q(0)
            return (c > 0) - (c < 0)
        quick = self._no_root_sign(p)
        if quick is not None:
            return quick
        c, fs = _factor(p, text)
        s = (c > 0) - (c < 0)
        for f, m in fs:
            sf = self._factor_sign(f)
            if sf == 0:
                return 0
            if m % 2:
                s *= sf
        return s

    def _no_root_sign(self, p: flint.fmpq_mpoly) -> int | None:
        """The sign of a polynomial in one symbol whose Descartes bound on a rational interval
        enclosing the cell's open side is 0 (no root there, so one sign, taken at the cell's
        rational point); None when that does not settle it (then it is factored)."""
        used = [k for k, d in enumerate(p.degrees()) if d > 0]
        if len(used) != 1:
            return None
        k = used[0]
        side = self.cell.sides[k]
        if side.kind != "open":
            return None
        z = _univariate(p, k)
        a, b = side.rational_bounds()
        if descartes_on(z, a, b) != 0:
            return None
        return sign_at(z, side.sample())

    def _factor_sign(self, f: flint.fmpq_mpoly) -> int:
        degs = f.degrees()
        used = [k for k, d in enumerate(degs) if d > 0]
        if len(used) == 1:
            k = used[0]
            return self._univariate_sign(_univariate(f, k), k)
        return self._box_sign(f, used)

    def _univariate_sign(self, z: flint.fmpz_poly, k: int) -> int:
        side = self.cell.sides[k]
        known = _DOMAIN_SIGNS.get((str(z), side.domain.key))
        if known is not None:  # no root anywhere in the closed domain: one sign everywhere
            return known
        if side.kind == "open":
            # no root in an interval enclosing the open side (Descartes): one sign there, taken at
            # its rational point; before isolating every root of the factor to see whether any
            # lies in the domain (most factors asked about on a small cell have none near it)
            a, b = side.rational_bounds()
            if descartes_on(z, a, b) == 0:
                return sign_at(z, side.sample())
        const = _domain_sign(z, side.domain)
        if const is not None:
            return const
        if side.kind == "point":
            assert side.at is not None
            return sign_of_poly_at(z, side.at)
        g = primitive(z)
        inside = [r for r in roots_of(g) if side.inside(r)] if g.degree() > 1 else _linear_roots(g, side)
        if inside or side.kind == "domain":
            raise Split(k, inside)
        return sign_at(z, side.sample())

    def _box_sign(self, f: flint.fmpq_mpoly, used: list[int]) -> int:
        """One sign of a factor in several symbols on an enclosing rational box, proved by
        :func:`exactdp.numbers.symbolic.sign_set`, or :class:`Undecided`."""

        bounds = []
        for k in used:
            side = self.cell.sides[k]
            a, b = side.rational_bounds()
            ca, cb = side.closed_bounds()
            bounds.append(
                SymbolBounds(
                    self.ring.names[k],
                    None if a is None else Q(int(a.p), int(a.q)),
                    ca,
                    None if b is None else Q(int(b.p), int(b.q)),
                    cb,
                )
            )
        table = SymbolTable.build(bounds)
        expr = RatFun(self.ring, f, self.ring.ctx.constant(1)).to_sympy()
        expr = expr.xreplace({s: table.symbols[s.name] for s in expr.free_symbols})
        signs = sign_set(expr, table)
        if len(signs) == 1 and 0 not in signs:
            return next(iter(signs))
        names = " and ".join(self.ring.names[k] for k in used)

        raise Undecided(
            f"the sign of {poly_terms_text(f, self.ring.names)} depends on {names} together and could not be "
            f"proved constant on {self.cell.text()}; exactdp decides a problem in several symbols only when each "
            "comparison involves one symbol or has one sign on the box"
        )


_DOMAIN_SIGNS: dict[tuple[str, str], int | None] = {}


def _domain_sign(z: flint.fmpz_poly, d: Domain) -> int | None:
    """The sign of an irreducible ``z`` on the whole closed domain when it has no root there
    (then its sign at one rational point of the domain is its sign everywhere), else None."""
    key = (str(z), d.key)
    hit = _DOMAIN_SIGNS.get(key, 0)
    if hit != 0:
        return hit
    if descartes_on(z, d.lo, d.hi) == 0 and all(e is None or sign_at(z, e) != 0 for e in (d.lo, d.hi)):
        hit = False  # no root inside (Descartes) nor at an end: no need to isolate them all
    else:
        lo = None if d.lo is None else rational(d.lo)
        hi = None if d.hi is None else rational(d.hi)
        g = primitive(z)
        roots = roots_of(g) if g.degree() > 1 else [rational(_Q(-g.coeffs()[0], g.coeffs()[1]))]
        hit = any((lo is None or compare(lo, r) <= 0) and (hi is None or compare(r, hi) <= 0) for r in roots)
    out = None if hit else sign_at(z, _domain_sample(d))
    if len(_DOMAIN_SIGNS) > 100_000:
        _DOMAIN_SIGNS.clear()
    _DOMAIN_SIGNS[key] = out
    return out


def _linear_roots(g: flint.fmpz_poly, side: Side) -> list[Algebraic]:
    c0, c1 = g.coeffs()
    r = rational(_Q(-c0, c1))
    return [r] if side.inside(r) else []


class CellFacts:
    """What earlier decompositions of one domain proved on each cell they met, for later ones.

    Several claims about one mechanism meet the same cells (each cut where the same signs
    change) and would prove the same signs and build the same chains on each again.  A memo
    entry that ``keep`` accepts is a fact about the cell whatever computation asked for it (a
    proved sign, a chain; never a claim's own stage), so a later computation on the same cell
    starts from it.  The sign questions it asks are answered as before, so its cells are the
    ones it would have found alone."""

    def __init__(self, keep: Callable[[Any], bool]):
        self.keep = keep
        self._memos: dict[tuple, dict] = {}

    def recall(self, cell: Cell, memo: dict) -> dict:
        """``memo`` (what the cell inherited) with the facts proved on this very cell before;
        progress lists are copied and merged entry by entry (each entry is proved on the cell)."""
        known = self._memos.get(cell.key())
        if known is None:
            return memo
        for k, v in known.items():
            if not self.keep(k):
                continue
            mine = memo.get(k)
            if isinstance(v, list):
                memo[k] = list(v) if mine is None else [a if a is not None else b for a, b in zip(mine, v)]
            elif mine is None:
                memo[k] = v
        return memo

    def record(self, cell: Cell, memo: dict, inherited: int) -> None:
        """Keep what was proved on ``cell`` itself: the entries added to its memo after the
        ``inherited`` first ones (a dict keeps its order), and the progress lists (replaced in
        place).  What it inherited is inherited again by a later run on the cell, from a
        parent proved on then, so keeping only the new entries keeps memory small."""
        items = list(memo.items())
        new = {k: v for k, v in items[inherited:] if self.keep(k)}
        new.update((k, v) for k, v in items[:inherited] if isinstance(v, list) and self.keep(k))
        if new:
            self._memos.setdefault(cell.key(), {}).update(new)


@dataclass
class Decomposition(Generic[T]):
    """The cells of the domain, in order along the line (lexicographic for several symbols),
    each with what the computation returned there."""

    ring: Ring
    domains: tuple[Domain, ...]
    cells: list[tuple[Cell, T]] = field(default_factory=list)
    memos: list[dict] = field(default_factory=list)  # what was proved on each cell
    runs: int = 0


def decompose(
    ring: Ring,
    domains: Sequence[Domain],
    run: Callable[[Ctx], T],
    *,
    max_cells: int | None = None,
    seed: Decomposition | None = None,
    facts: CellFacts | None = None,
) -> Decomposition[T]:
    """Run ``run(ctx)`` on every cell of a decomposition of the domain that makes every sign
    it asks for constant (module docstring).

    ``seed``: start from the cells of an earlier decomposition (and what they proved) instead
    of the whole domain.  ``facts``: what other decompositions proved on the cells met here
    (:class:`CellFacts`), used and added to.

    Raises
    ------
    LimitExceededError
        More than ``max_cells`` cells (the ``max_cells`` limit, ``--max-cells``).
    Undecided
        A sign in several symbols could not be proved constant on a cell.
    """
    cap = max_cells if max_cells is not None else current_limits().max_cells
    if seed is not None:
        stack: list[tuple[Cell, dict]] = [
            (c, dict(memo)) for (c, _), memo in reversed(list(zip(seed.cells, seed.memos)))
        ]
    else:
        stack = [(Cell(tuple(Side.whole(d) for d in domains)), {})]
    out: Decomposition[T] = Decomposition(ring, tuple(domains))
    done: list[tuple[Cell, T]] = []
    while stack:
        cell, memo = stack.pop()
        ctx = Ctx(ring, cell, memo if facts is None else facts.recall(cell, memo))
        inherited = len(ctx.memo)
        out.runs += 1
        try:
            val = run(ctx)
        except Split as s:
            if facts is not None:
                facts.record(cell, ctx.memo, inherited)
            pieces = cell.sides[s.index].pieces(s.roots)
            if len(done) + len(stack) + len(pieces) > cap:
                raise LimitExceededError(
                    "the number of cells of the parametric decomposition", cap, "raise it with --max-cells N"
                ) from None
            for side in reversed(pieces):
                stack.append((cell.with_side(s.index, side), _inherit(ctx.memo)))
            continue
        done.append((cell, val))
        out.memos.append(ctx.memo)
        if facts is not None:
            facts.record(cell, ctx.memo, inherited)
    out.cells = done
    return out


def _inherit(memo: dict) -> dict:
    """What a piece of a cell starts from: the cell's proved signs and finished stages; the
    progress lists of unfinished stages are copied (each piece continues on its own)."""
    return {k: (list(v) if isinstance(v, list) else v) for k, v in memo.items() if k != _GUIDE}


def point_text(point: dict[str, flint.fmpq]) -> str:
    """``E = 2, d = 1/3``."""
    return ", ".join(f"{n} = {v}" for n, v in point.items())


__all__ += ["Decomposition", "point_text", "decimal_text"]
