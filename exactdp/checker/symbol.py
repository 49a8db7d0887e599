r"""Claims about a symbol: at one value, or for every value, of a parameter s.  Relies on core.py
(whose reading and signs consult :class:`core.Cell`) and on the module of the claim's kind.

A certificate with "symbol": {"name": s, "gt"|"ge": a, "lt"|"le": b} (bounds optional) holds games
and a claim whose numbers are rational functions of s, written like elements of Q(t).  With "at":
x it is checked at s = x (every number read is substituted).  With "cells", open intervals that
with "points", a proof at each end inside the domain, cover the domain exactly, the claim's checks
run unchanged over Q(s) on each cell ("field": "symbol"): every sign they ask is that of a
polynomial with no root inside the cell (Sturm's theorem; ends that are roots divided out), taken
at a rational point of it, and every denominator built is such a polynomial.  So every branch is
the same for every s of the cell and evaluation at s commutes with the arithmetic: what the
checks state holds for every s of the cell.  The claim holds on every cell (one refuted at some s
is certified "at" that s), or, with "holds_for" (a calibration: intervals whose ends are cell
ends), on the cells and points inside the set and fails on the others (a failure derived from
signs, so at every s; not for delta, an equality).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from math import gcd
from typing import Any

from . import core
from .core import ZERO, Cell, Malformed, Qt, Rejected, bits, check_certificate, expect, field, spend, text

__all__ = ["check_symbolic", "cell_sign", "substitute", "SignChange", "on_cell", "read_symbol"]


@contextmanager
def on_cell(name: str, lo: Any, hi: Any, at: tuple = ()) -> Iterator[None]:
    Cell.name, Cell.lo, Cell.hi, Cell.signs, Cell.at = name, lo, hi, {}, at
    try:
        yield
    finally:
        Cell.name, Cell.signs, Cell.at = "", {}, ()


class SignChange(Rejected):
    """A polynomial whose sign the checks need changes sign inside the cell (``poly``)."""

    def __init__(self, poly: tuple):
        self.poly, self.cell = poly, (Cell.lo, Cell.hi)
        super().__init__(f"{Qt(poly, (1,))} changes sign inside the cell {interval(Cell.name, *self.cell)}")


SYMBOLIC = {"privloss", "dp", "not_dp", "delta", "profile_le", "profile_eq", "fdp", "not_fdp"}
SYMBOLIC |= {"bounded_range", "not_bounded_range", "br_range", "tradeoff", "composition"}  # (checks without bounds)
SYMBOL_KEYS = ("symbol", "at", "cells", "points", "holds_for")
VERDICT, FAILS = {True: "holds", False: "fails"}, " (so the claim fails there)"


def at(a: tuple, x: Fraction) -> Fraction:
    """a(x) by Horner's rule: its numbers grow to deg(a) bits(x) bits, refused beyond --max-bits before the work."""
    size, what = len(a) * bits(x) + max((abs(c).bit_length() for c in a), default=0), "a polynomial in the symbol at x"
    if size > core.LIMITS["max_bits"]:
        core.too_large("max_bits", what, f"a number of about {size} bits")
    spend("steps", len(a) * (size // 64 + 1) * (bits(x) // 64 + 1), what)
    out = ZERO
    for c in reversed(a):
        out = out * x + c
    return out


def substitute(v: Qt, path: str) -> Fraction:
    """A value read while the symbol is substituted (:func:`number`): v at s = x."""
    (name, x), n, d = Cell.at, at(v.n, Cell.at[1]), at(v.d, Cell.at[1])
    if not d:
        raise Rejected(f"{path}: {v} is undefined at {name} = {text(x)}")
    return core.bounded(n / d, path)


def sturm(a: tuple) -> list:
    """a, a', then minus the remainders (positive multiples of them, made primitive)."""
    seq = [a, core.ptrim([k * c for k, c in enumerate(a)][1:])]
    while len(seq[-1]) > 1:
        r = core.prem(seq[-2], seq[-1], len(seq[-1]), "a Sturm sequence")
        if not r:
            break
        g = gcd(*r)
        seq.append(tuple(-x // g for x in r))
    return seq


def cell_sign(a: tuple) -> int:
    """The sign of a on the cell, Rejected (:class:`SignChange`) if it changes inside: no root by
    Sturm's theorem (V(lo) - V(hi) counts the distinct roots in (lo, hi) when neither is one)."""
    if a not in Cell.signs:
        lo, hi, b = Cell.lo, Cell.hi, a
        for end in (e for e in (lo, hi) if e is not None):
            while len(b) > 1 and not at(b, end):
                b = core.pdiv(b, (-end.numerator, end.denominator))
        seq = sturm(b)

        def changes(x: Fraction | None, side: int) -> int:  # in the signs at x, or as x -> side * infinity
            s = [v > 0 for v in (at(p, x) if x is not None else p[-1] * side ** (len(p) - 1) for p in seq) if v]
            return sum(u != v for u, v in zip(s, s[1:]))

        if len(b) > 1 and changes(lo, -1) != changes(hi, 1):
            raise SignChange(a)
        v = at(a, middle(lo, hi))
        Cell.signs[a] = (v > 0) - (v < 0)
    return Cell.signs[a]


def interval(name: str, lo: Any, hi: Any, lo_closed: bool = False, hi_closed: bool = False) -> str:
    left = "" if lo is None else f"{text(lo)} {'<=' if lo_closed else '<'} "
    right = "" if hi is None else f" {'<=' if hi_closed else '<'} {text(hi)}"
    return f"{left}{name}{right}" if left or right else f"every real {name}"


def end(raw: Any, path: str, infinite: str = "") -> Any:
    x = None if infinite and raw == infinite else core.number(raw, path)  # ("" is no number, and no end)
    if not isinstance(x, Fraction | None):
        raise Malformed(f"{path}: a rational number" + f" or {infinite}" * bool(infinite))
    return x


def read_symbol(cert: dict) -> tuple:
    """(name, lo, lo_closed, hi, hi_closed) of the declared domain."""
    name = field(sym := field(cert, "symbol", dict, "certificate"), "name", str, "symbol")
    if not (name.isascii() and name.isidentifier() and len(name) <= 20):
        raise Malformed("symbol.name: letters, digits and _")
    return (name, *bounds_of({k: v for k, v in sym.items() if k != "name"}, "symbol"))


def bounds_of(raw: Any, path: str) -> tuple:
    """(lo, lo_closed, hi, hi_closed) of {gt|ge: lo, lt|le: hi} (both optional)."""
    b = {k: end(v, f"{path}.{k}") for k, v in expect(raw, dict, path).items()}
    lo, hi = [[b[k] for k in ks if k in b] for ks in (("gt", "ge"), ("lt", "le"))]
    if set(b) - {"gt", "ge", "lt", "le"} or len(lo) > 1 or len(hi) > 1 or (lo and hi and lo[0] >= hi[0]):
        raise Malformed(f"{path}: at most one lower bound gt or ge and one upper bound lt or le, the lower below")
    return lo[0] if lo else None, "ge" in b, hi[0] if hi else None, "le" in b


def middle(lo: Any, hi: Any) -> Fraction:
    return ZERO if lo is None and hi is None else hi - 1 if lo is None else lo + 1 if hi is None else (lo + hi) / 2


def inside(x: Any, lo: Any, lo_c: bool, hi: Any, hi_c: bool) -> bool:
    return (lo is None or x > lo or (lo_c and x == lo)) and (hi is None or x < hi or (hi_c and x == hi))


def at_value(base: dict, name: str, x: Fraction, proof: Any, verdict: str) -> list[str]:
    """The lines of the check of ``base`` (a certificate without SYMBOL_KEYS) and ``proof`` at s = x."""
    with on_cell("", None, None, (name, x)):  # (numbers are read anew at x: one_certificate)
        got = check_certificate({**base, "proof": proof, "verdict": verdict}, None).split("\n")
    head = [f"{got[0][:8]}at {name} = {text(x)}: {got[0][8:]}", f"claim: at {name} = {text(x)}: {got[1][7:]}"]
    return head + [g.replace(": sha256", f" at {name} = {text(x)}: sha256", 1) for g in got[2:]]


def check_symbolic(cert: dict, hashes: set | None) -> str:
    """Check a certificate about a symbol (this section's comment) and state what it proved."""
    if "symbol" not in cert:  # numeric games, which the author says are the case's at these values
        at, out = expect(cert["at"], dict, "at"), check_certificate({k: cert[k] for k in cert if k != "at"}, hashes)
        said = ", ".join(f"{text(k)} = {text(v)}" for k, v in at.items())
        return f"{out}; the games are the case's at {said}"
    name, lo, lo_c, hi, hi_c = read_symbol(cert)
    claim, base = field(cert, "claim", dict, "certificate"), {k: v for k, v in cert.items() if k not in SYMBOL_KEYS}
    values = [v for d in (claim, cert.get("proof")) if isinstance(d, dict) for v in d.values()]
    if (
        field(claim, "kind", str, "claim") not in SYMBOLIC
        or "field" in cert
        or any(str(v).startswith("exp(") for v in values)
    ):
        raise Malformed(f"claim.kind: with a symbol one of {', '.join(sorted(SYMBOLIC))}, no field and no exp(q)")
    domain, verdict = interval(name, lo, hi, lo_c, hi_c), field(cert, "verdict", str, "certificate")
    if "at" in cert:
        x = end(cert["at"], "at")
        if "cells" in cert or "points" in cert or not inside(x, lo, lo_c, hi, hi_c):
            raise Malformed(f"at: a value with {domain}, and no cells")
        lines = at_value(base, name, x, base.get("proof", {}), verdict)
    else:
        if verdict != "holds":
            raise Malformed("verdict: cells certify a claim that holds (a false one is certified at a value)")
        cells, points = field(cert, "cells", list, "certificate"), field(cert, "points", list, "certificate")
        if len(cells) > core.LIMITS["max_states"]:
            core.too_large("max_states", "the cells", f"{len(cells)} cells")
        ends = []
        for k, c in enumerate(cells):
            w = f"cells[{k}]"
            ends.append((end(field(c, "from", str, w), w, "-inf"), end(field(c, "to", str, w), w, "inf")))
        cover = [lo] + [e for a, b in ends for e in (a, b)] + [hi]  # lo, lo, e1, e1, ..., hi, hi
        empty = any(a >= b for a, b in ends if a is not None and b is not None)
        if empty or not ends or cover[::2] != cover[1::2] or None in cover[2:-2]:
            said = "each starts where the last ends, from its lower end to its upper"
            raise Rejected(f"the cells do not cover {domain}: {said}")
        need = [lo] * lo_c + [b for _, b in ends[:-1]] + [hi] * hi_c
        sets = field(cert, "holds_for", list, "certificate", True) or []
        sets = [bounds_of(r, f"holds_for[{k}]") for k, r in enumerate(sets)]
        member = (lambda x: any(inside(x, *iv) for iv in sets)) if "holds_for" in cert else (lambda x: True)  # noqa: E731
        if any(e is not None and inside(e, lo, False, hi, False) and e not in need for iv in sets for e in iv[::2]):
            raise Rejected("every end of holds_for inside the domain must be an end of a cell")
        if [end(field(p, "at", str, f"points[{k}]"), f"points[{k}].at") for k, p in enumerate(points)] != need:
            said = ", ".join(map(text, need))
            raise Rejected(f"the points must be the cells' ends inside the domain, in order: {said}")
        proofs = {x: field(p, "proof", dict, "points") for x, p in zip(need, points)}

        def point(x: Fraction) -> list[str]:  # what is proved at a cell's end, and whether the claim fails there
            return [at_value(base, name, x, proofs[x], VERDICT[member(x)])[0][8:] + FAILS * (not member(x))]

        proved, lines = point(lo) if lo_c else [], []
        for k, (a, b) in enumerate(ends):
            holds = member(middle(a, b))
            if not holds and claim.get("kind") == "delta":  # (its equality fails at single points only)
                raise Malformed("a delta claim may fail on a cell only at a value (a counterexample)")
            with on_cell(name, a, b):
                proof = field(cells[k], "proof", dict, f"cells[{k}]")
                out = check_certificate({**base, "field": "symbol", "proof": proof, "verdict": VERDICT[holds]}, None)
            lines = out.split("\n")
            proved.append(f"for every {name} with {interval(name, a, b)}: {lines[0][8:]}" + FAILS * (not holds))
            proved += point(b) if b in proofs else []
        said = lines[1][7:].rsplit(" -- ", 1)[0]
        where = " or ".join(interval(name, *iv[::2], *iv[1::2]) for iv in sets) or "nowhere"
        exact = f"{said} holds exactly where {where}, for {domain}"
        said = exact if "holds_for" in cert else f"for every {name} with {domain}: {said}"
        lines = ["proved: " + "\n  ".join(proved), f"claim: {said} -- holds"] + lines[2:]
    case: dict = base["case"] if isinstance(base.get("case"), dict) else {}
    if hashes is not None and case.get("sha256") not in hashes:
        said = f"it names the case file {text(case.get('file'))}, not one of the --case files; its proof checks:"
        raise core.OtherCase("\n  ".join([said] + lines))
    return "\n".join(lines)
