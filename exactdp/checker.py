#!/usr/bin/env python3
r"""Check exactdp certificates using nothing but the Python standard library (usage: :func:`main`).

This file imports nothing from exactdp: a referee who reads it need not trust exactdp's reader,
engines, SymPy, gmpy2, mpmath or FLINT, only Python and these lines.

A game is a finite DAG of adversary choices (``ask``), answers with one exact probability per
dataset (``answer``) and the end; a view is a sequence of labels (Vadhan & Wang 2021, Def. 1.5-1.7).
For an ordered adjacent pair (x, x') and lam >= 0, delta(lam) = sup over deterministic adversaries
of sum over views w of (P_x(w) - lam P_x'(w))_+, and M is (eps, delta)-DP iff delta(e^eps) <= delta
for every ordered pair (Def. 1.7; Lemma 2.2: deterministic adversaries suffice).  The checker
recomputes every value it states from the games (delta, chains, divergences, compositions, the
theorems' bounds), trusting none that the certificate claims; a proof holds only what a search
would find (a value to verify, a bracket, T's table, Farkas multipliers).

Numbers are exact: rationals and, with ``"field": "exp(1/L)"``, elements of Q(t), t = e^(1/L),
written as integer polynomials in t, lowest degree first (``"1,0,3/1,1"`` is (1 + 3t^2)/(1 + t)).
Signs in Q(t) and comparisons with e^q, logarithms and Phi are decided by rational bounds refined
until decided: t is transcendental (Lindemann-Weierstrass), so a nonzero element of Q(t) is never 0.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # `python exactdp/checker.py`: this file's folder holds exactdp's own
    _HERE = os.path.dirname(os.path.abspath(__file__))  # `numbers` package, which would shadow
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]  # the stdlib's

import gc  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
from collections import defaultdict  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from fractions import Fraction  # noqa: E402
from functools import cached_property, total_ordering  # noqa: E402
from itertools import accumulate, permutations, zip_longest  # noqa: E402
from math import gcd, isqrt, lcm, prod  # noqa: E402
from operator import mul  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

__all__ = ["main", "check_certificate", "load", "read_games", "fingerprints", "show", "Malformed", "Rejected"]

FORMAT, VERSION, INF = "exactdp-certificate", 2, "inf"  # INF: lam = e^eps = infinity, a string
ZERO, ONE = Fraction(0), Fraction(1)
DEFAULT_LIMITS = {
    "max_bytes": 512_000_000,  # size of one certificate file
    "max_bits": 1_000_000,  # bits of one number; the recomputations build at most twice this in all
    "max_states": 500_000,  # (node, likelihood ratio) states, chain edges, nodes of a built composition
    "max_histories": 1_000_000,  # histories walked by a simulation or Farkas check
    "max_precision": 65_536,  # bits of the rational bounds that decide a sign
    "max_degree": 2_000,  # degree of a polynomial in t
    "max_steps": 200_000_000,  # word operations of polynomial arithmetic; subsets and orders of a theorem
}
LIMITS = dict(DEFAULT_LIMITS)
_SPENT = {"bits": 0, "steps": 0}  # what one certificate's recomputations have cost so far
_PARSED: dict = {}  # text -> number: games repeat the same probabilities many times
_T: dict = {}  # (L, p) -> integers A, B with A/2^p <= t = e^(1/L) <= B/2^p


class Malformed(Exception):
    """Not a certificate of this format, or beyond a limit (exit status 2)."""


class Rejected(Exception):
    """A mathematical check failed (exit status 1)."""


class OtherCase(Exception):
    """The certificate names another case file than the --case files (exit status 1)."""


def too_large(limit: str, what: str, size: object) -> None:
    flag = "--" + limit.replace("_", "-")
    raise Malformed(f"{what} needs {size}, more than {flag} = {LIMITS[limit]} (a larger {flag} raises the limit)")


def bits(x: Any) -> int:
    if isinstance(x, Fraction):
        return max(x.numerator.bit_length(), x.denominator.bit_length())
    if isinstance(x, Qt):
        return max(abs(c).bit_length() for c in x.n + x.d)
    return x.bit_length() if isinstance(x, int) else 0


def bounded(x: Any, what: str) -> Any:
    if bits(x) > LIMITS["max_bits"]:
        too_large("max_bits", what, f"a number of {bits(x)} bits")
    return x


def spend(kind: str, amount: int, what: str) -> None:
    """Count the cost of a recomputation: bits of the numbers built (exact arithmetic on b bits costs
    up to b^2 steps, so at most twice --max-bits in all) or word operations (--max-steps)."""
    _SPENT[kind] += amount
    limit, cap = ("max_bits", 2 * LIMITS["max_bits"]) if kind == "bits" else ("max_steps", LIMITS["max_steps"])
    if _SPENT[kind] > cap:
        too_large(limit, what, f"{_SPENT[kind]} {kind} in all")


# --- reading: every value is type-checked; no exception other than Malformed escapes ------------
def field(obj: Any, key: str, kind: type, path: str, optional: bool = False) -> Any:
    if not isinstance(obj, dict):
        raise Malformed(f"{path}: expected an object")
    if optional and key not in obj:
        return None
    if key not in obj:
        raise Malformed(f"{path}: missing key {key!r}")
    value = obj[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        names: dict = {list: "a list", dict: "an object", str: "a string", int: "an integer"}
        raise Malformed(f"{path}{'.' + key if key else ''}: expected {names[kind]}")
    return value


def expect(value: Any, kind: type, path: str) -> Any:
    return field({"": value}, "", kind, path)


def text(x: object) -> str:
    """A number or a label for messages: control characters escaped (labels come from case files),
    long numbers shortened (Python refuses to print more than 4,300 digits)."""
    if isinstance(x, (Fraction, int, Qt)):
        s = str(x) if bits(x) <= 3000 else f"<a number of {bits(x)} bits>"
        return s if len(s) <= 200 else f"{s[:60]}...<{len(s)} characters>"
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(x))


def log_text(lam: object) -> str:
    if isinstance(lam, tuple):  # e^q: eps = q
        return text(lam[1])
    return "inf" if lam == INF else "0" if lam == 1 else f"log({text(lam)})"


def number(value: Any, path: str) -> Any:
    """An exact number "n" or "n/d" (ASCII digits, an optional minus); with a field, n and d may be
    comma-separated integer coefficients of polynomials in t, lowest degree first."""
    if isinstance(value, str) and value in _PARSED:
        return _PARSED[value]
    value = expect(value, str, path)
    num, slash, den = value.partition("/")
    parts = [part.split(",") for part in (num, den if slash else "1")]
    if not all(c.isascii() and (c[1:] if c.startswith("-") else c).isdigit() for part in parts for c in part):
        raise Malformed(f"{path}: {value[:40]!r} is not an exact number such as 3/4")
    try:
        n, d = [[int(c) for c in part] for part in parts]
    except ValueError:  # more digits than Python converts (4,300): a hostile number
        raise Malformed(f"{path}: a number with too many digits") from None
    if len(n) == len(d) == 1 and not d[0]:
        raise Malformed(f"{path}: zero denominator")
    if (len(n) > 1 or len(d) > 1) and not (Qt.L or Cell.at):
        raise Malformed(f"{path}: {value[:40]!r} is a polynomial, but the certificate declares no field")
    x = Fraction(n[0], d[0]) if len(n) == len(d) == 1 else Qt.make(n, d)
    x = substitute(x, path) if Cell.at and isinstance(x, Qt) else x  # (a symbol at a value: its section below)
    if len(_PARSED) < 100_000:
        _PARSED[value] = x
    return x


# --- rigorous rational bounds, and numbers beyond the rationals: Q(t), t = e^(1/L), and e^q ------
def series(first: Fraction, ratio: Any, p: int) -> tuple[Fraction, Fraction]:
    """lo <= sum_k c_k <= hi, about p bits, for c_0 = first >= 0 and c_(k+1) = c_k ratio(k) >= 0,
    where every ratio from the first one <= 1/2 on is <= 1/2 (true of each use below).  Terms are
    integers over 2^p rounded down and up; once the ratio is <= 1/2 and the rounded-up term is
    <= 1, the rest of the series is at most twice the next term."""
    s = 1 << p
    lo, hi = first.numerator * s // first.denominator, -(-first.numerator * s // first.denominator)
    total_lo = total_hi = k = 0
    while True:
        total_lo, total_hi = total_lo + lo, total_hi + hi
        r = ratio(k)
        k += 1
        lo, hi = lo * r.numerator // r.denominator, -(-hi * r.numerator // r.denominator)
        if 2 * r <= 1 and hi <= 1:
            return Fraction(total_lo, s), Fraction(total_hi + 2 * hi, s)


def rounded(x: Fraction, p: int, up: bool) -> Fraction:
    n = x.numerator << p
    return Fraction(-(-n // x.denominator) if up else n // x.denominator, 1 << p)


def exp_iv(x: Fraction, p: int) -> tuple[Fraction, Fraction]:
    """Bounds on e^x: the Taylor series of e^y, y = x/m in [0, 1], raised to the m-th power
    (m = ceil(x), rounding outwards at every squaring); for x < 0, reciprocals of those on e^-x."""
    if abs(x) > LIMITS["max_precision"]:
        too_large("max_precision", f"bounds on e^{text(x)}", "more bits")
    if x < 0:
        lo, hi = exp_iv(-x, p + 2)
        return 1 / hi, 1 / lo
    m = max(1, -(-x.numerator // x.denominator))
    y, q = x / m, p + 2 * m.bit_length() + 8
    lo, hi = series(ONE, lambda k: y / (k + 1), q)
    rl = rh = ONE
    while m:  # [lo^m, hi^m]
        if m & 1:
            rl, rh = rounded(rl * lo, q, False), rounded(rh * hi, q, True)
        lo, hi, m = rounded(lo * lo, q, False), rounded(hi * hi, q, True), m >> 1
    return rl, rh


def log_iv(x: Fraction, p: int) -> tuple[Fraction, Fraction]:
    """Bounds on log(x), x > 0: x = 2^k y with 1 <= y < 2, log(y) = 2 atanh(z), z = (y - 1)/(y + 1)
    <= 1/3 (the series sum z^(2i+1)/(2i+1) has ratios <= 1/9), and log 2 = 2 atanh(1/3)."""
    k = x.numerator.bit_length() - x.denominator.bit_length()
    y = x / 2**k if k >= 0 else x * 2**-k
    y, k = (2 * y, k - 1) if y < 1 else (y, k)
    q = p + abs(k).bit_length() + 8

    def atanh2(z: Fraction, i: int) -> Fraction:  # i = 0: the lower bound, 1: the upper
        return 2 * series(z, lambda j: z * z * (2 * j + 1) / (2 * j + 3), q)[i]

    ylo, yhi = rounded(y, q, False), rounded(y, q, True)
    l2 = atanh2(Fraction(1, 3), 0 if k >= 0 else 1), atanh2(Fraction(1, 3), 1 if k >= 0 else 0)
    return atanh2((ylo - 1) / (ylo + 1), 0) + k * l2[0], atanh2((yhi - 1) / (yhi + 1), 1) + k * l2[1]


def phi_iv(x: Fraction, p: int) -> tuple[Fraction, Fraction]:
    """Bounds on Phi(x), the standard normal distribution function: for x >= 0 Phi(x) = 1/2 +
    e^(-x^2/2)/sqrt(2 pi) * sum_n x^(2n+1)/(1*3*...*(2n+1)) (ratios x^2/(2n+3)), with pi/6 =
    arcsin(1/2) = sum_k c_k, c_0 = 1/2, ratios (2k+1)^2/(4(2k+2)(2k+3)) <= 1/4, and integer square
    roots; Phi(x) = 1 - Phi(-x) for x < 0.  Far out, 1 - Phi(x) < e^(-x^2/2) <= 2/(2 + x^2)."""
    if x < 0:
        lo, hi = phi_iv(-x, p)
        return 1 - hi, 1 - lo
    if x * x > 4 * LIMITS["max_precision"]:
        return 1 - 2 / (2 + x * x), ONE
    q = p + int(x * x) + 16  # e^(-x^2/2) >= 2^(-x^2): what the cancellation in 1 - Phi costs
    slo, shi = series(x, lambda n: x * x / (2 * n + 3), q) if x else (ZERO, ZERO)
    elo, ehi = exp_iv(-x * x / 2, q)
    plo, phi = series(Fraction(1, 2), lambda k: Fraction((2 * k + 1) ** 2, 4 * (2 * k + 2) * (2 * k + 3)), q)
    s = 1 << q  # sqrt(2 pi) = sqrt(12 arcsin(1/2))
    rlo = Fraction(isqrt(12 * plo.numerator * s * s // plo.denominator), s)
    rhi = Fraction(isqrt(-(-12 * phi.numerator * s * s // phi.denominator)) + 1, s)
    return Fraction(1, 2) + elo / rhi * slo, Fraction(1, 2) + ehi / rlo * shi


def decide(iv: Any, what: str, top: int = 0) -> int:
    """The sign of a number known to be nonzero, from bounds iv(p) at p = 64, 128, ... bits, up to
    --max-precision (beyond it Malformed) or ``top`` bits (beyond them 0: undecided)."""
    p = 64
    while p <= (top or LIMITS["max_precision"]):
        lo, hi = iv(p)
        if lo > 0 or hi < 0:
            return 1 if lo > 0 else -1
        p *= 2
    if not top:
        too_large("max_precision", f"deciding the sign of {what}", f"more than {p // 2} bits")
    return 0


# Polynomials in t are tuples of integer coefficients, lowest degree first, without trailing zeros.
def ptrim(c: list) -> tuple:
    while c and not c[-1]:
        c.pop()
    if len(c) > LIMITS["max_degree"] + 1:
        too_large("max_degree", "a polynomial in t", f"degree {len(c) - 1}")
    return tuple(c)


def cost(*polys: tuple) -> int:
    """Word operations to multiply every coefficient of one by every coefficient of the others."""
    words = sum(max(abs(c).bit_length() for c in p) for p in polys if p) // 64 + 1
    return words * prod(max(len(p), 1) for p in polys)


def pmul(a: tuple, b: tuple) -> tuple:
    spend("steps", cost(a, b), "arithmetic on polynomials in t")
    out = [0] * (len(a) + len(b) - 1) if a and b else []
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return ptrim(out)


def pdiv(a: tuple, b: tuple) -> tuple:
    """a / b for a b that divides a in Z[t] (a common factor found by :func:`pgcd`)."""
    spend("steps", cost(a, b), "arithmetic on polynomials in t")
    r, q = list(a), [0] * max(0, len(a) - len(b) + 1)
    for k in range(len(q) - 1, -1, -1):
        q[k] = r[k + len(b) - 1] // b[-1]
        for i, y in enumerate(b):
            r[k + i] -= q[k] * y
    if any(r):
        raise Malformed("a polynomial division that must be exact is not (a bug in this checker)")
    return ptrim(q)


def pgcd(a: tuple, b: tuple) -> tuple:
    """The gcd in Z[t] with a positive leading coefficient: the gcd of the contents times that of
    the primitive parts (Gauss's lemma), by primitive pseudo-remainders."""

    def prim(p: tuple) -> tuple:
        g = gcd(*p) * (1 if p[-1] > 0 else -1)
        return tuple(c // g for c in p)

    if not a or not b:
        return prim(a or b) if a or b else (1,)
    content = gcd(gcd(*a), gcd(*b))
    a, b = (prim(a), prim(b)) if len(a) >= len(b) else (prim(b), prim(a))
    while True:
        r = prem(a, b, 2, "the gcd of polynomials in t")
        if len(r) <= 1:
            return tuple(content * c for c in b) if not r else (content,)
        a, b = b, prim(tuple(r))


def prem(a: tuple, b: tuple, work: int, what: str) -> list:
    """A pseudo-remainder of a by b, a positive multiple of the remainder: r <- |lc b| r - sign(lc b)
    r_top t^k b while deg r >= deg b (each step costs ``work``/len(b) products of coefficients)."""
    r, s = list(a), 1 if b[-1] > 0 else -1
    while len(r) >= len(b):
        spend("steps", cost(tuple(r), b) * work // len(b), what)
        k, top = len(r) - len(b), r[-1] * s
        r = [x * b[-1] * s for x in r]
        for i, y in enumerate(b):
            r[i + k] -= top * y
        while r and not r[-1]:
            r.pop()
    return r


def pvalue(a: tuple, p: int) -> tuple[Fraction, Fraction]:
    """Bounds on a(t): positive and negative coefficients apart (both parts grow with t > 0), each
    by Horner's rule on integers at A/2^p <= t <= B/2^p."""
    if len(a) <= 1:
        return (Fraction(a[0]),) * 2 if a else (ZERO, ZERO)
    spend("steps", cost(a) * (p // 64 + 1), "bounds on a polynomial in t")
    if (Qt.L, p) not in _T:
        lo, hi = exp_iv(Fraction(1, Qt.L), p + 4)
        _T[Qt.L, p] = (lo.numerator << p) // lo.denominator, -(-(hi.numerator << p) // hi.denominator)
    lo_t, hi_t = _T[Qt.L, p]

    def horner(cs: list, x: int) -> int:  # sum cs[k] x^k 2^(p(d - k)), d = len(cs) - 1
        h, scale = 0, 1
        for c in reversed(cs):
            h, scale = h * x + c * scale, scale << p
        return h

    pos, neg, scale = [max(c, 0) for c in a], [max(-c, 0) for c in a], 1 << (p * (len(a) - 1))
    bottom, top = horner(pos, lo_t) - horner(neg, hi_t), horner(pos, hi_t) - horner(neg, lo_t)
    return Fraction(bottom, scale), Fraction(top, scale)


def psign(a: tuple) -> int:
    if len(a) <= 1:
        return (a[0] > 0) - (a[0] < 0) if a else 0
    if Cell.name:  # a symbol on a cell (its own section below)
        return cell_sign(a)
    return decide(lambda p: pvalue(a, p), "a polynomial in t")


@total_ordering
class Qt:
    """An element n(t)/d(t) of Q(t), t = e^(1/L), in lowest terms (gcd(n, d) = 1, d with a positive
    leading coefficient), so == and hash are exact; ordered by its value at t.  Results that do not
    depend on t are Fractions (:meth:`make`); integer polynomials (d = 1) are closed under +, -, *
    and exact //: the ring in which games in a field are computed."""

    L = 0  # the field of the certificate being checked; 0: rationals only
    __slots__ = ("n", "d")

    def __init__(self, n: tuple, d: tuple):
        if d != (1,):
            g = pgcd(n, d)
            n, d = pdiv(n, g), pdiv(d, g)
            if Cell.name:  # every denominator is nonzero on the cell
                psign(d)
        self.n, self.d = (n, d) if d[-1] > 0 else (tuple(-c for c in n), tuple(-c for c in d))

    @staticmethod
    def make(n: Any, d: Any) -> Any:
        """n/d (integer polynomials, or lists of coefficients) as a Fraction when it is constant."""
        if not ptrim(list(d)):
            raise Malformed("a zero denominator")
        q = Qt(ptrim(list(n)), ptrim(list(d)))
        return Fraction(q.n[0] if q.n else 0, q.d[0]) if len(q.n) <= 1 and len(q.d) == 1 else q

    @staticmethod
    def of(x: Any) -> Qt:
        if isinstance(x, Qt):
            return x
        x, q = Fraction(x), Qt.__new__(Qt)
        q.n, q.d = ((x.numerator,) if x else ()), (x.denominator,)
        return q

    def __add__(self, o: Any, sign: int = 1) -> Any:
        o = Qt.of(o)
        a, b = (self.n, o.n) if (ring := self.d == o.d == (1,)) else (pmul(self.n, o.d), pmul(o.n, self.d))
        n = ptrim([x + sign * y for x, y in zip_longest(a, b, fillvalue=0)])
        return Qt(n, (1,)) if ring else Qt.make(n, pmul(self.d, o.d))

    def __sub__(self, o: Any) -> Any:
        return self.__add__(o, -1)

    def __rsub__(self, o: Any) -> Any:
        return Qt.of(o) - self

    def __mul__(self, o: Any) -> Any:
        o = Qt.of(o)
        return Qt(pmul(self.n, o.n), (1,)) if self.d == o.d == (1,) else Qt.make(pmul(self.n, o.n), pmul(self.d, o.d))

    __radd__, __rmul__ = __add__, __mul__

    def __truediv__(self, o: Any) -> Any:
        o = Qt.of(o)
        return Qt.make(pmul(self.n, o.d), pmul(self.d, o.n))

    def __rtruediv__(self, o: Any) -> Any:
        return Qt.of(o) / self

    def __floordiv__(self, o: Any) -> Qt:  # exact, in the ring of polynomials
        return Qt(pdiv(self.n, Qt.of(o).n), (1,))

    def __neg__(self) -> Any:
        return Qt(tuple(-c for c in self.n), self.d)

    def __eq__(self, o: object) -> bool:
        return isinstance(o, (Qt, Fraction, int)) and (self.n, self.d) == (Qt.of(o).n, Qt.of(o).d)

    def __hash__(self) -> int:
        return hash((self.n, self.d))

    def __bool__(self) -> bool:
        return bool(self.n)

    def __lt__(self, o: Any) -> bool:
        return order(self, o) < 0

    def sign(self) -> int:
        return psign(self.n) * psign(self.d)

    def __str__(self) -> str:
        def term(k: int, a: int) -> str:
            return str(a) if k == 0 else {1: "", -1: "-"}.get(a, str(a)) + (Cell.name or "t") + f"^{k}" * (k > 1)

        def poly(c: tuple) -> str:
            terms = [term(k, a) for k, a in enumerate(c) if a]
            s = " + ".join(terms).replace("+ -", "- ") or "0"
            return s if len(terms) == 1 else f"({s})"

        return poly(self.n) + ("" if self.d == (1,) else "/" + poly(self.d))


def order(x: Any, y: Any) -> int:
    """The sign of x - y on [0, inf]: numbers of Q(t) (Fractions included), e^q, INF."""
    if x == INF or y == INF:
        return (x == INF) - (y == INF)
    if isinstance(x, tuple) or isinstance(y, tuple):  # e^q against a number n/d: (e^q d - n) d
        if isinstance(x, tuple) and isinstance(y, tuple):
            return (x[1] > y[1]) - (x[1] < y[1])
        (_, q), v, s = (x, Qt.of(y), 1) if isinstance(x, tuple) else (y, Qt.of(x), -1)

        def iv(p: int) -> tuple:
            (nl, nh), (dl, dh), (el, eh) = pvalue(v.n, p), pvalue(v.d, p), exp_iv(q, p)
            prods = [a * b for a in (el, eh) for b in (dl, dh)]
            return min(prods) - nh, max(prods) - nl

        return s * decide(iv, "e^q minus a number") * psign(v.d)
    d = x - y
    return d.sign() if isinstance(d, Qt) else (d > 0) - (d < 0)


# --- games ---------------------------------------------------------------------------------------
END = ("end", (), ())  # no labels, no children


class Game:
    """A validated game: ``nodes[k]`` is END, ("ask", labels, children) or ("answer", labels, D,
    rows, children): answer a has probability rows[a][d] / D under dataset d, with D the node's
    common denominator (integers; in a field, integer polynomials in t)."""

    def __init__(self, name: str, raw: object, path: str):
        if not isinstance(raw, dict) or set(raw) != {"datasets", "pairs", "root", "nodes"}:
            raise Malformed(f"{path}: a game has exactly the keys datasets, pairs, root, nodes")
        self.name, self.datasets = name, field(raw, "datasets", list, path)
        if not (ds := self.datasets) or not all(isinstance(d, str) for d in ds) or len(set(ds)) != len(ds):
            raise Malformed(f"{path}.datasets: distinct names")
        self.pairs = [self.ids(p) for p in field(raw, "pairs", list, path)]
        odd = any(len(p) != 2 or -1 in p or p[0] == p[1] or p[::-1] not in self.pairs for p in self.pairs)
        if odd or not self.pairs or len(set(self.pairs)) < len(self.pairs):
            raise Malformed(f"{path}.pairs: distinct ordered pairs of two datasets, each in both orders")
        self.nodes = [self._node(k, n, f"{path}.nodes[{k}]") for k, n in enumerate(field(raw, "nodes", list, path))]
        self.root = field(raw, "root", int, path)
        if not 0 <= self.root < len(self.nodes):
            raise Malformed(f"{path}.root: no node {self.root}")
        self.setup()

    def setup(self) -> None:
        self.rational = all(nd[0] != "answer" or type(nd[2]) is int for nd in self.nodes)
        self._probs, self.weights, self.points = dict[int, list](), dict[tuple, dict](), dict[Any, tuple]()
        if not self.rational:  # one kind of number throughout: integer polynomials in t
            self.nodes = [
                nd if nd[0] != "answer" else nd[:2] + (Qt.of(nd[2]), [[Qt.of(n) for n in r] for r in nd[3]], nd[4])
                for nd in self.nodes
            ]

    def _node(self, k: int, raw: Any, path: str) -> tuple:
        if type(raw) is not dict or len(raw) != 2 or type(raw.get("id")) is not int or raw["id"] != k:
            raise Malformed(f"{path}: a node is {{id: {k}, and one of end, ask, answer}} (ids in order)")
        ((kind, items),) = [(key, v) for key, v in raw.items() if key != "id"]
        if kind == "end" and items is True:
            return END
        width = {"ask": 2, "answer": 3}.get(kind)
        if width is None or type(items) is not list or not items:
            raise Malformed(f"{path}: a node has an id and one of end (true), ask, answer (a nonempty list)")
        strings = [str] * len(self.datasets)
        for a, it in enumerate(items):
            ok = type(it) is list and len(it) == width and type(it[0]) is str
            if not (ok and type(it[-1]) is int and 0 <= it[-1] < k):
                what = "probabilities, " * (width == 3)
                raise Malformed(f"{path}.{kind}[{a}]: expected [label, {what}the id of an earlier node]")
            if width == 3 and (type(it[1]) is not list or list(map(type, it[1])) != strings):
                raise Malformed(f"{path}.answer[{a}][1]: needs one probability (a string) per dataset")
        labels, kids = [it[0] for it in items], [it[-1] for it in items]
        if len(set(labels)) != len(labels):
            raise Malformed(f"{path}: labels must be distinct")
        if kind == "ask":
            return ("ask", labels, kids)
        key = tuple(tuple(it[1]) for it in items)  # (answers repeat distributions: each is checked once)
        got = _PARSED.get(key) or self.distribution(k, items, path)
        if len(_PARSED) < 100_000:
            _PARSED[key] = got
        return ("answer", labels, *got, kids)

    def distribution(self, k: int, items: list, path: str) -> tuple:
        """(D, rows) of an answer node: its probabilities as integers over a common denominator."""
        probs = [[number(p, f"{path}.answer[{a}][1][{d}]") for d, p in enumerate(it[1])] for a, it in enumerate(items)]
        fracs = [
            [(p.numerator, p.denominator) if type(p) is Fraction else (Qt(p.n, (1,)), Qt(p.d, (1,))) for p in r]
            for r in probs
        ]
        den = ring_lcm([d for row in fracs for _, d in row])  # (integers, or integer polynomials in t)
        rows = [[n * (den // d) for n, d in row] for row in fracs]
        for d, column in enumerate(zip(*rows)):  # a distribution under every dataset
            if any(x < 0 for x in column) or sum(column, 0) != den:
                where = f"game {text(self.name)}, node {k}"
                raise Rejected(f"{where}: the probabilities under {text(self.datasets[d])} are not a distribution")
        return bounded(den, f"{path}: a common denominator"), rows

    def probs(self, k: int) -> list:
        """Node k's probabilities per option and dataset, as numbers (1 for an option of a choice)."""
        if k not in self._probs:
            nd = self.nodes[k]
            if nd[0] != "answer":
                return [[ONE] * len(self.datasets)] * len(nd[1])
            self._probs[k] = [[Fraction(n, nd[2]) if self.rational else n / nd[2] for n in r] for r in nd[3]]
        return self._probs[k]

    @cached_property
    def dc(self) -> list:
        """Per node v: dc_v, a common denominator of the probabilities of the views below it; B, the
        lcm of its children's (dc_v = D B at an answer, B at a choice); and B/dc_c for each child c."""
        out: list = []
        for nd in self.nodes:
            below = ring_lcm([out[c][0] for c in nd[-1]] or [1 if self.rational else Qt.of(1)])
            dc = below * nd[2] if nd[0] == "answer" else below
            out.append((dc, below, [below // out[c][0] for c in nd[-1]]))
            if type(below) is int and below.bit_length() > LIMITS["max_bits"]:
                too_large("max_bits", "a common denominator of the views", f"{below.bit_length()} bits")
        return out

    @cached_property
    def reachable(self) -> list:
        """The nodes reachable from the root in post-order (children in listed order, each before its
        parents; the game is acyclic, so a node on the stack is never reached again from below)."""
        nodes, out, seen, stack = self.nodes, [], {self.root}, [(self.root, iter(self.nodes[self.root][-1]))]
        while stack:
            for c in stack[-1][1]:
                if c not in seen:
                    seen.add(c)
                    stack.append((c, iter(nodes[c][-1])))
                    break
            else:
                out.append(stack.pop()[0])
        return out

    @cached_property
    def shared(self) -> set:
        """The nodes with more than one parent edge (where histories can merge)."""
        seen, out = set[int](), set[int]()
        for c in (c for k in self.reachable for c in self.nodes[k][-1]):
            (out if c in seen else seen).add(c)
        return out

    def ids(self, raw: object) -> tuple:
        return tuple(self.datasets.index(x) if x in self.datasets else -1 for x in raw) if isinstance(raw, list) else ()

    def pair(self, raw: object, path: str) -> tuple:
        if self.ids(raw) not in self.pairs:
            raise Malformed(f"{path}: not an ordered adjacent pair of game {text(self.name)}")
        return self.ids(raw)

    def pair_names(self, pair: tuple) -> str:
        return f"({text(self.datasets[pair[0]])}, {text(self.datasets[pair[1]])})"


def ring_gcd(x: Any, y: Any) -> Any:
    """The gcd of two integers, or of two integer polynomials in t (taken > 0 at t)."""
    if type(x) is int:
        return gcd(x, y)
    h = pgcd(Qt.of(x).n, Qt.of(y).n)
    return Qt(h if psign(h) > 0 else tuple(-c for c in h), (1,))


def ring_lcm(xs: list) -> Any:
    if all(type(x) is int for x in xs):
        return lcm(*xs)
    out = Qt.of(1)
    for x in map(Qt.of, xs):
        out = out * (x // ring_gcd(out, x))
    return out


def fingerprint(game: Game) -> str:
    """SHA-256 of the game in a canonical form: the nodes reachable from the root renumbered in
    post-order, probabilities in lowest terms (in Q(t) with the least L that writes them), the
    ordered pairs sorted.  The ids and names as written do not matter; labels and order do."""
    order = game.reachable
    ids, seen = {k: n for n, k in enumerate(order)}, {}
    answers = [] if game.rational else [k for k in order if game.nodes[k][0] == "answer"]
    qts = [p for k in answers for row in game.probs(k) for p in row if isinstance(p, Qt)]
    g = gcd(Qt.L, *(e for p in qts for e, c in enumerate(p.n + p.d) if c)) if qts else 1

    def num(n: Any, den: Any) -> str:  # canonical text, once per distinct value
        if (n, den) not in seen:
            q = Fraction(n, den) if isinstance(n, int) else Qt.of(n / den)
            polys = (q.n or (0,), q.d) if isinstance(q, Qt) else ()
            seen[n, den] = "/".join(",".join(map(str, c[::g])) for c in polys) or str(q)
        return seen[n, den]

    nodes: list = []
    for nd in (game.nodes[k] for k in order):
        if nd[0] == "answer":
            nodes.append([[lab, [num(n, nd[2]) for n in r], ids[c]] for lab, r, c in zip(nd[1], nd[3], nd[4])])
        else:
            nodes.append([[lab, ids[c]] for lab, c in zip(nd[1], nd[2])] if nd[0] == "ask" else ["end"])
    pairs = sorted([game.datasets[i], game.datasets[j]] for i, j in game.pairs)
    field_ = (f"exp(1/{Qt.L // g})" if Qt.L > 0 else "symbol") if qts else None  # (symbol: a game of the section below)
    doc = {"datasets": game.datasets, "pairs": pairs, "field": field_, "nodes": nodes}
    return hashlib.sha256(json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()).hexdigest()


def concomp(games: list, names: list) -> Game:
    """ConComp(M_1, ..., M_k) (Vadhan & Wang 2021, Def. 2.1), built here from the components: at
    each step the adversary picks a component that has not ended and a query for it (or polls one
    waiting at an answer); it answers from its own state, the others keep theirs.  Sub-games are
    shared by the tuple of component states."""
    shapes = [(g.datasets, sorted(g.pairs), g.rational) for g in games]
    if any(shape != shapes[0] for shape in shapes):
        raise Malformed("the components of a composition need the same datasets, pairs and kind of numbers")

    def expand(state: tuple) -> tuple:
        tag, j, at = state
        if tag == "answer":
            nd = games[j].nodes[at[j]]
            return nd[:4] + ([("wait", -1, at[:j] + (c,) + at[j + 1 :]) for c in nd[4]],)
        labels, succ = list[Any](), list[Any]()
        for j, g in enumerate(games):
            nd = g.nodes[at[j]]
            if nd[0] == "answer":
                labels, succ = labels + [names[j]], succ + [("answer", j, at)]
            for lab, c in zip(nd[1], nd[2]) if nd[0] == "ask" else ():
                moved = at[:j] + (c,) + at[j + 1 :]
                labels.append(f"{names[j]}.{lab}")
                succ.append(("answer", j, moved) if g.nodes[c][0] == "answer" else ("wait", -1, moved))
        return ("ask", labels, succ) if labels else END

    ids, nodes, stack = {}, list[Any](), [(("wait", -1, tuple(g.root for g in games)), False)]
    while stack:
        state, expanded = stack.pop()
        if state in ids:
            continue
        spec = expand(state)
        if not expanded:
            stack += [(state, True)] + [(c, False) for c in spec[-1] if c not in ids]
            continue
        ids[state] = len(nodes)
        nodes.append(spec[:-1] + ([ids[c] for c in spec[-1]],))
        if len(nodes) > LIMITS["max_states"]:
            too_large("max_states", "building the concurrent composition", f"more than {len(nodes) - 1} nodes")
    built = Game.__new__(Game)
    built.name, built.datasets, built.pairs = f"ConComp({', '.join(names)})", games[0].datasets, games[0].pairs
    built.nodes, built.root = nodes, len(nodes) - 1
    built.setup()
    return built


# --- delta at one lam: the induction itself ------------------------------------------------------
def most(values: list) -> Any:
    """The largest of numbers or of LogForms (compared by their signs), or INF if one is."""
    return INF if any(v == INF for v in values) else max(values)


def hockey(game: Game, pair: tuple, lam: Any) -> tuple[Any, Any]:
    """(delta(lam), its left derivative) for the ordered pair (x, x') = ``pair`` and a finite lam >= 0.
    A history with P_x(h) = a/m, P_x'(h) = b/m reaches node v with the weights (a, b); the rest
    contributes F_v(a, b) = sup_A sum_w (a P_x(w|h) - lam b P_x'(w|h))_+, positively homogeneous, so
    memoised on (v, a:b) (divided by their gcd where histories merge).  With p_c = n_c/D at an
    answer, lam = ln/ld and G_v = ld dc_v F_v (:meth:`Game.dc`), everything stays integral: at the
    end G = (a ld - ln b)_+, with left derivative -b where a ld >= ln b; at a choice the max over
    the options of (dc_v/dc_c) G_c (with, among the maximisers, the largest P_x'-mass E: the left
    derivative of a max is the least); at an answer sum_c dc_v/(D dc_c) G_c(a n_c, b n'_c), an
    answer with n'_c = 0 putting all its views in the event (F_c = a n_c).  Then delta(lam) =
    G_root/(ld dc_root) with left derivative -E_root/dc_root."""
    i, j = pair
    ln: Any = lam.numerator if game.rational and isinstance(lam, Fraction) else Qt(Qt.of(lam).n, (1,))
    ld: Any = lam.denominator if game.rational and isinstance(lam, Fraction) else Qt(Qt.of(lam).d, (1,))
    if not isinstance(ld, int) and ld.sign() < 0:  # lam = ln/ld with ld < 0 (at t, or on a cell): -ln/-ld
        ln, ld = -ln, -ld
    one: Any = 1 if game.rational else Qt.of(1)
    nodes, dc, shared, count, top = game.nodes, game.dc, game.shared, 0, game.dc[game.root][0]
    mirror = game.weights.get((j, i))  # (the weights of (x', x) swapped, when they are known)
    need = {k: {(b, a) for a, b in s} for k, s in mirror.items()} if mirror else {game.root: {(one, one)}}
    for k in range(game.root, -1, -1) if not mirror else ():  # parents before children (smaller ids)
        if (count := count + len(states := need.get(k, ()))) > LIMITS["max_states"]:
            too_large("max_states", "the point recursion", f"more than {count - len(states)} states")
        rows = nodes[k][3] if nodes[k][0] == "answer" else [(one,) * len(game.datasets)] * len(nodes[k][-1])
        for row, c in zip(rows, nodes[k][-1]) if states else ():  # (an option of the adversary: weight 1)
            if row[i] and row[j] and nodes[c][0] != "end":
                got = [(a * row[i], b * row[j]) for a, b in states]
                got = [(a // h, b // h) for a, b in got for h in [ring_gcd(a, b)]] if c in shared else got
                need.setdefault(c, set()).update(got)
    game.weights[i, j] = need  # node -> the weights it is reached with
    val: dict = {}

    def child(c: int, a: Any, b: Any) -> tuple:  # (G_c, E_c) at the weights (a, b)
        if nodes[c][0] == "end":
            x = a * ld - ln * b
            return (x, b) if x >= 0 else (0, 0)
        h = ring_gcd(a, b) if c in shared else None
        return val[c, a, b] if h is None else tuple(x * h for x in val[c, a // h, b // h])

    for k in range(game.root + 1):
        nd, (_, below, m) = nodes[k], dc[k]
        for a, b in need.get(k, ()) if nd[0] != "end" else ():
            if nd[0] == "ask":  # the largest (G, E) pair: the largest G, and among those the largest E
                val[k, a, b] = max((v * f, e * f) for c, f in zip(nd[2], m) for v, e in [child(c, a, b)])
                continue
            g = e = 0
            for row, c, f in zip(nd[3], nd[4], m):
                if row[i] and not row[j]:  # (dc_v/D = B)
                    g += ld * a * row[i] * below
                elif row[i]:
                    v, s = child(c, a * row[i], b * row[j])
                    g, e = g + v * f, e + s * f
            val[k, a, b] = (g, e)
    g, e = val[game.root, one, one] if nodes[game.root][0] != "end" else child(game.root, one, one)
    if type(g) is int and type(e) is int and type(ld) is int:  # (Python divides integers into floats)
        return Fraction(g, ld * top), Fraction(-e, top)
    return Qt.of(g) / (ld * top), -Qt.of(e) / top


def delta_at(game: Game, lam: Any) -> tuple[Any, Any]:
    """delta_M(lam), the largest over the ordered pairs, and the least left derivative among those
    attaining it; for lam = INF the limit (the top of the chain: views impossible under x')."""
    if lam not in game.points:
        points = [(chain(game, p)[0], ZERO) if lam == INF else hockey(game, p, lam) for p in game.pairs]
        game.points[lam] = max(points, key=lambda point: (point[0], -point[1]))
    return game.points[lam]


# --- delta at every lam: the chain ---------------------------------------------------------------
def chain(game: Game, pair: tuple) -> tuple[Any, list]:
    """delta for every lam >= 0 as (top, edges): delta(lam) = top + sum over the edges (r, w) with
    r > lam of (r - lam) w, by decreasing r; the vertices (b, a) = (P_x'(T), P_x(T)) are the optimal
    events T.  At the end (0, [(1, 1)]); at an answer each child's chain scaled, (r, w) -> (r p/p',
    w p'), edges merged by slope (p' = 0 adds p to top, p = 0 an edge (0, p')); at a choice the
    upper concave hull of the children's vertices (the max of convex functions)."""
    (i, j), memo, size = pair, [], 0
    for k, nd in enumerate(game.nodes):
        if nd[0] == "end":
            memo.append((ZERO, [(ONE, ONE)]))
            continue
        size += sum(len(memo[c][1]) for c in nd[-1])  # the edges this node combines
        if size > LIMITS["max_states"]:
            too_large("max_states", "the chains of the game", f"more than {size} edges")
        if nd[0] == "ask":
            memo.append(upper_hull([memo[c] for c in nd[2]]))
        else:
            top, edges = ZERO, dict[Any, Any]()
            for row, c in zip(game.probs(k), nd[4]):
                p, q = row[i], row[j]
                top += p * memo[c][0] if q else p
                for r, w in ([(r * p / q, w * q) for r, w in memo[c][1]] if p else [(ZERO, q)]) if q else []:
                    edges[r] = edges.get(r, ZERO) + w
            memo.append((top, sorted(edges.items(), key=lambda e: e[0], reverse=True)))
    return memo[game.root]


def upper_hull(chains: list) -> tuple[Any, list]:
    """The chain of max(delta_1, ...): the upper concave hull of their vertices, (0, top) to (1, 1)."""
    pts = sorted({pt for top, edges in chains for pt in vertices(top, edges)}, key=lambda pt: (pt[0], -pt[1]))
    hull: list = []
    for b, a in pts:
        if hull and hull[-1][0] == b:
            continue  # (sorted with the largest a first at each b)
        while len(hull) >= 2 and (hull[-1][1] - hull[-2][1]) * (b - hull[-1][0]) <= (a - hull[-1][1]) * (
            hull[-1][0] - hull[-2][0]
        ):  # (b, a) lies on or above the line through the last two points
            hull.pop()
        hull.append((b, a))
    return hull[0][1], [((a1 - a0) / (b1 - b0), b1 - b0) for (b0, a0), (b1, a1) in zip(hull, hull[1:])]


def vertices(top: Any, edges: list) -> list:  # (0, top), then each edge (r, w) adds (w, r w)
    return list(accumulate(edges, lambda pt, e: (pt[0] + e[1], pt[1] + e[0] * e[1]), initial=(ZERO, top)))


def value(chain_: tuple, lam: Any) -> Any:
    """delta(lam) from the chain; for lam = INF the limit, the top."""
    top, edges = chain_
    return top if lam == INF else top + sum(((r - lam) * w for r, w in edges if r > lam), ZERO)


# --- Renyi divergence, KL divergence, bounded range: recomputed from the game ---------------------
def coprime_base(nums: list) -> list:
    """Pairwise coprime integers > 1 whose products give every number in ``nums``: one sharing a
    factor g > 1 with b in the base splits into b/g, g and itself/g (the pending product drops)."""
    base: list = []
    todo = [n for n in nums if n > 1]
    while todo:
        x = todo.pop()
        spend("steps", len(base) * (x.bit_length() // 64 + 1), "a coprime base of the game's integers")
        for k, b in enumerate(base):
            g = gcd(x, b)
            if g > 1:
                base.pop(k)
                todo += [y for y in (b // g, g, x // g) if y > 1]
                break
        else:
            base.append(x)
    return base


class LogForm:
    """s + sum_k c_k log(base_k) over a coprime base (multiplicatively independent integers): 0
    exactly when s and every c_k are 0 (Lindemann-Weierstrass); else signed by bounds on the logs."""

    def __init__(self, base: list, s: Any = ZERO, c: dict | None = None):
        self.base, self.s, self.c = base, s, c or {}

    @staticmethod
    def log(base: list, x: Fraction, times: Any = ONE) -> LogForm:
        """times * log(x) for a rational x > 0 whose factors are in ``base``."""
        c: dict = {}
        for n, sign in ((x.numerator, 1), (x.denominator, -1)):
            for k, b in enumerate(base):
                while n % b == 0:
                    n //= b
                    c[k] = c.get(k, ZERO) + sign * times
            if n != 1:
                raise Malformed("a logarithm outside the base (a bug in this checker)")
        return LogForm(base, ZERO, c)

    def __add__(self, o: LogForm) -> LogForm:
        c = {k: self.c.get(k, ZERO) + o.c.get(k, ZERO) for k in self.c.keys() | o.c.keys()}
        return LogForm(self.base, self.s + o.s, {k: v for k, v in c.items() if v})

    def __gt__(self, o: LogForm) -> bool:
        return (self + o.scale(-1)).sign() > 0

    def scale(self, f: Any) -> LogForm:
        return LogForm(self.base, self.s * f, {k: v * f for k, v in self.c.items()})

    def iv(self, p: int) -> tuple:
        lo = hi = self.s
        for k, v in self.c.items():
            a, b = log_iv(Fraction(self.base[k]), p)
            lo, hi = lo + min(v * a, v * b), hi + max(v * a, v * b)
        return lo, hi

    def sign(self) -> int:
        return decide(self.iv, "a sum of logarithms") if self.c else (self.s > 0) - (self.s < 0)


def bound_terms(raw: Any, path: str) -> tuple[Fraction, list] | None:
    """A claimed value X = "inf" (None), or terms [b, c] for X = sum c log(b), where b = "e"
    stands for e (the rational part of X)."""
    if raw == INF:
        return None
    s, terms = ZERO, []
    for k, item in enumerate(expect(raw, list, path)):
        item = expect(item, list, f"{path}[{k}]")
        if len(item) != 2:
            raise Malformed(f"{path}[{k}]: a term is [b, c], for c * log(b)")
        c = number(item[1], f"{path}[{k}][1]")
        if item[0] == "e":
            s += c
        else:
            b = number(item[0], f"{path}[{k}][0]")
            if not isinstance(b, Fraction) or b <= 0 or not isinstance(c, Fraction):
                raise Malformed(f"{path}[{k}]: log(b) needs a rational b > 0 and a rational coefficient")
            terms.append((b, c))
    return s, terms


def terms_text(bound: tuple | None) -> str:
    if bound is None:
        return "inf"
    s, terms = bound
    out = ""
    for b, c in terms:
        sign = " - " if c < 0 else " + " if out else ""
        out += sign + ("" if abs(c) == 1 else f"{text(abs(c))} ") + f"log({text(b)})"
    if s or not out:
        out += (" - " if s < 0 else " + " if out else "") + text(abs(s) if out else s)
    return out


def renyi_sum(game: Game, pair: tuple, alpha: int | None, base: list | None = None) -> Any:
    """sup over deterministic adversaries, from the end (the max at a choice; at an answer over the
    a with p_a > 0, inf if some p'_a = 0) of sum_v P_x(v)^alpha P_x'(v)^(1 - alpha) (1 at the end,
    sum_a p_a (p_a/p'_a)^(alpha - 1) child_a); for alpha = None (inf) of the largest ratio
    P_x(v)/P_x'(v) (1, max_a p_a/p'_a child_a); for alpha = 1 of the KL divergence sum_v P_x(v)
    log(P_x(v)/P_x'(v)) (0, sum_a p_a (log(p_a/p'_a) + child_a), a LogForm over ``base``)."""
    i, j = pair
    val: list = []
    for k, nd in enumerate(game.nodes):
        if nd[0] != "answer":
            val.append(most([val[c] for c in nd[-1]]) if nd[-1] else LogForm(base or []) if alpha == 1 else ONE)
            continue
        parts: list = []
        for row, r, c in zip(game.probs(k), nd[3], nd[4]):
            p, q = row[i], row[j]
            if p and (not q or val[c] == INF):
                parts.append(INF)
            elif p and alpha == 1:
                parts.append((LogForm.log(base or [], Fraction(r[i], r[j])) + val[c]).scale(p))
            elif p:
                size = (bits(p) + bits(q)) * (alpha or 1)
                if size + bits(val[c]) > LIMITS["max_bits"]:
                    too_large("max_bits", "a term p^alpha p'^(1 - alpha)", f"about {size} bits")
                parts.append((p / q) ** (alpha - 1) * p * val[c] if alpha else p / q * val[c])
        if any(v == INF for v in parts):
            val.append(INF)
        elif alpha == 1:
            val.append(sum(parts, LogForm(base or [])))
            spend("bits", sum(map(bits, val[-1].c.values())), "the KL divergences")
        else:
            val.append(bounded(max(parts) if alpha is None else sum(parts, ZERO), "a Renyi sum"))
            spend("bits", bits(val[-1]), "the Renyi sums")
    return val[game.root]


def iroot(n: int, k: int) -> int:
    """floor(n^(1/k)) for integers n >= 0, k >= 1: Newton's method on integers from above (from
    x >= the root, the next x is still >= floor of the root (AM-GM) and smaller, until it is not)."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // k)
    while True:
        y = ((k - 1) * x + n // x ** (k - 1)) // k
        if y >= x:
            return x
        x = y


def renyi_iv(game: Game, alpha: Fraction, p: int) -> Any:
    """(lo, hi) with lo/2^p <= r <= hi/2^p, r the largest over the ordered pairs of the Renyi sum
    (:func:`renyi_sum`) at a non-integer alpha = 1 + u/v, or INF.  The recursion is renyi_sum's, on
    integers over 2^p rounded outwards; (p_a/p'_a)^(u/v) lies between floor(R) 2^-p and (floor(R')
    + 1) 2^-p, R and R' the integer v-th roots (:func:`iroot`) of p_a^u 2^(p v)/p'_a^u rounded down and up."""
    u, v, one, roots, out = (alpha - 1).numerator, (alpha - 1).denominator, 1 << p, {}, []
    for i, j in game.pairs:
        val: list = []
        for nd in game.nodes:
            kids = [val[c] for c in nd[-1]]
            terms = [(r, x) for r, x in zip(nd[3], kids) if r[i]] if nd[0] == "answer" else []
            if INF in kids if nd[0] != "answer" else any(not r[j] or x == INF for r, x in terms):
                val.append(INF)
            elif nd[0] != "answer":
                val.append((max([x[0] for x in kids], default=one), max([x[1] for x in kids], default=one)))
            else:
                lo = hi = 0
                for r, (x, y) in terms:
                    if (r[i], r[j]) not in roots:
                        if u * max(r[i], r[j]).bit_length() + p * v > LIMITS["max_bits"]:
                            too_large("max_bits", f"the Renyi sum at alpha = {alpha}", f"{p * v} bits and more")
                        a, b = r[i] ** u << (p * v), r[j] ** u
                        spend("steps", (a.bit_length() // 64 + 1) ** 2 * (v + 8), "integer roots of the Renyi sum")
                        roots[r[i], r[j]] = iroot(a // b, v), iroot(-(-a // b), v) + 1
                    (rl, rh), scale = roots[r[i], r[j]], nd[2] << p
                    lo, hi = lo + r[i] * rl * x // scale, hi - (-r[i] * rh * y // scale)
                val.append((lo, bounded(hi, "a bound on a Renyi sum")))
        out.append(val[game.root])
    return INF if INF in out else (max(x[0] for x in out), max(x[1] for x in out))


def br_ratio(game: Game, pair: tuple, deterministic: bool) -> Any:
    """e^(BR-range) for one ordered pair (Dong, Durfee & Rogers 2020, Def. 2.2): the largest ratio
    P_x(w1)/P_x'(w1) over P_x(w2)/P_x'(w2) for views w1, w2 of one deterministic adversary (or any
    two views, for randomized ones); inf when a view has ratio 0 or inf.  Two views of one strategy
    first differ at an answer: the largest ratio on from answer a over the smallest on from b != a
    (the prefix cancels); HI(v), LO(v), the extreme ratios of a continuation, are one pass."""
    (i, j), reach = pair, {game.root}  # the nodes that views with P_x, P_x' > 0 reach
    for k in range(game.root, -1, -1):
        for row, c in zip(game.probs(k), game.nodes[k][-1]) if k in reach else ():
            if bool(row[i]) != bool(row[j]):
                return INF  # a view impossible under exactly one dataset: ratio 0 or inf
            if row[i]:
                reach.add(c)
    hi, lo, best = list[Any](), list[Any](), ONE
    for k, nd in enumerate(game.nodes):
        opts = [(r[i] / r[j], c) for r, c in zip(game.probs(k), nd[-1]) if r[i] and r[j]]
        hs, ls = [q * hi[c] for q, c in opts], [q * lo[c] for q, c in opts]
        hi.append(max(hs) if hs else ONE)
        lo.append(min(ls) if ls else ONE)
        if nd[0] == "answer" and k in reach and len(ls) > 1:
            m = min(range(len(ls)), key=lambda a: ls[a])
            second = min(x for a, x in enumerate(ls) if a != m)
            best = max([best] + [h / (ls[m] if a != m else second) for a, h in enumerate(hs)])
    return best if deterministic else hi[game.root] / lo[game.root]


# --- simulation of randomized response: T's table, or Farkas multipliers -------------------------
def rr_weights(game: Game, raw: object, path: str, lam: Any, delta: Any) -> tuple:
    """The pair and the outputs of RR an entry names, and Pr[RR(b) = c] for b = 0, 1: RR_eps
    (Def. 1.9) or RR_(eps, delta) (Def. 5.1)."""
    pair, outputs = game.pair(field(raw, "pair", list, path), path + ".pair"), field(raw, "outputs", list, path)
    keep, flip = (1 - delta) * lam / (1 + lam), (1 - delta) / (1 + lam)
    if outputs == ["0", "1"] and delta == 0:
        return pair, outputs, [[keep, flip], [flip, keep]]
    if outputs == ["I0", "0", "1", "I1"]:
        return pair, outputs, [[delta, keep, flip, ZERO], [ZERO, flip, keep, delta]]
    raise Malformed(f"{path}.outputs: outputs must be [0, 1] (delta = 0) or [I0, 0, 1, I1]")


def rounds(game: Game, pair: tuple, what: str) -> Iterator[tuple]:
    """The system both checks below read: variables tau_c(h) >= 0, the probability that T outputs
    the answers of history h when RR outputs c, and for each round r (a history ending at an answer
    node; p the answer history before it, () at the start) the rows
        consistency(c, r): sum_a tau_c(r.a) - tau_c(p) = 0, or = 1 when p = ();
        mixture(b, r.a):   sum_c Pr[RR(b) = c] tau_c(r.a) = P_(x_b)(r.a), for each answer a.
    Yields (r, its node, (P_x(r), P_x'(r)), p), walking the game as a tree."""
    (i, j), walked = pair, 0
    stack: list = [(game.root, (), (ONE, ONE), ())]
    while stack:
        k, hist, (px, pxp), prev = stack.pop()
        walked += 1
        if walked > LIMITS["max_histories"]:
            too_large("max_histories", what, f"more than {walked - 1} histories")
        nd = game.nodes[k]
        if nd[0] == "answer":
            yield hist, k, (px, pxp), prev
        for row, lab, c in zip(game.probs(k), nd[1], nd[-1]):
            at = hist + (lab,)
            stack.append((c, at, (px * row[i], pxp * row[j]), at if nd[0] == "answer" else prev))


def check_simulation(game: Game, raw: object, path: str, lam: Any, delta: Any) -> frozenset:
    """T's table gives tau_c(r.a) = tau_c(p) T_c(r)(a): each T_c(r) must be a distribution over the
    answers (so every consistency row holds), and every mixture row must hold; returns the pair."""
    (i, j), outputs, w = rr_weights(game, raw, path, lam, delta)
    table: dict = {}
    for k, rd in enumerate(field(raw, "rounds", list, path)):
        where = f"{path}.rounds[{k}]"
        hist = tuple(expect(x, str, f"{where}.history") for x in field(rd, "history", list, where))
        rows = field(rd, "T", list, where)
        if hist in table or len(rows) != len(outputs):
            raise Malformed(f"{where}: a repeated round, or not one row per output")
        table[hist] = [
            [number(v, f"{where}.T[{c}][{a}]") for a, v in enumerate(expect(r, list, f"{where}.T[{c}]"))]
            for c, r in enumerate(rows)
        ]
    tau, seen = {(): [ONE] * len(outputs)}, 0
    for hist, k, probs, prev in rounds(game, (i, j), "the simulation check"):
        rows, labels, where = table.get(hist), game.nodes[k][1], f"{path}: round ({', '.join(map(text, hist))})"
        if rows is None:
            raise Rejected(f"{where} has no entry in T's table")
        seen += 1
        for c, row in enumerate(rows):
            if len(row) != len(labels) or any(v < 0 for v in row) or sum(row, ZERO) != 1:
                raise Rejected(f"{where}: T({text(outputs[c])}) is not a probability distribution over the answers")
        for a, (lab, p) in enumerate(zip(labels, game.probs(k))):
            tau[hist + (lab,)] = t = [x * rows[c][a] for c, x in enumerate(tau[prev])]
            for b in (0, 1):
                mix, target = sum((wc * x for wc, x in zip(w[b], t)), ZERO), probs[b] * p[(i, j)[b]]
                if mix != target:
                    said = f"T(RR({b})) gives {text(mix)}, M({text(game.datasets[(i, j)[b]])}) gives {text(target)}"
                    raise Rejected(f"{where}, answer {text(lab)!r}: {said}")
    if seen != len(table):
        raise Rejected(f"{path}: T's table has rounds the game does not have")
    return frozenset((i, j))


def check_farkas(game: Game, raw: object, path: str, lam: Any, delta: Any) -> frozenset:
    """Farkas: multipliers y on the rows of :func:`rounds` with y^T A >= 0 on every variable
    tau_c(h) >= 0 and y^T b < 0.  Then no T exists."""
    (i, j), outputs, w = rr_weights(game, raw, path, lam, delta)
    ys: dict = {}
    rows, kinds = field(raw, "multipliers", list, path), [("consistency", c) for c in outputs] + [("mixture", 0)]
    if len(rows) > LIMITS["max_histories"]:
        too_large("max_histories", "the Farkas check", f"{len(rows)} rows")
    for k, m in enumerate(rows):
        where = f"{path}.multipliers[{k}]"
        y, row = number(field(m, "y", str, where), where + ".y"), field(m, "row", list, where)
        if len(row) != 3 or isinstance(row[1], bool) or (row[0], row[1]) not in kinds + [("mixture", 1)]:
            raise Malformed(f"{where}.row: expected [consistency, output, history] or [mixture, b, history]")
        hist = tuple(expect(x, str, f"{where}.row[2]") for x in expect(row[2], list, where + ".row[2]"))
        key = (row[0], outputs.index(row[1]) if row[0] == "consistency" else row[1], hist)
        ys[key] = ys.get(key, ZERO) + y
    column: dict = defaultdict(Fraction)  # (c, h) -> the coefficient of tau_c(h) in y^T A; h = (): y^T b
    for hist, k, probs, prev in rounds(game, (i, j), "the Farkas check"):
        labels = game.nodes[k][1]
        for c in range(len(outputs)):
            y = ys.pop(("consistency", c, hist), ZERO)
            for h, v in [(hist + (lab,), y) for lab in labels] + [(prev, -y if prev else y)]:
                column[c if h else 0, h] += v
        for lab, p in zip(labels, game.probs(k)):
            for b in (0, 1):
                y = ys.pop(("mixture", b, hist + (lab,)), ZERO)
                for c in range(len(outputs)):
                    column[c, hist + (lab,)] += y * w[b][c]
                column[0, ()] += y * probs[b] * p[(i, j)[b]]
    if ys:
        kind, _, h = next(iter(ys))
        raise Malformed(f"{path}: no {kind} row for the history ({', '.join(map(text, h))}) in the game")
    rhs = column.pop((0, ()), ZERO)
    for (c, h), v in column.items():
        if v < 0:
            variable = f"tau_{text(outputs[c])}({', '.join(map(text, h))})"
            raise Rejected(f"{path}: the combined coefficient of {variable} is negative")
    if not rhs < 0:
        raise Rejected(f"{path}: the combined right-hand side is {text(rhs)}, not < 0")
    return frozenset((i, j))


# --- claims: what the game and the proof establish, and whether that is the claim ------------------
def game_of(games: dict, name: object) -> Game:
    if not isinstance(name, str) or name not in games:
        raise Malformed(f"no game named {text(name)!r}")
    return games[name]


def param(obj: Any, key: Any, where: str = "claim", kind: str = "number") -> Any:
    """A parameter, obj[key] of an object or a list: "number", "prob" (in [0, 1]), "ratio" (>= 0 or
    inf), "lam" (e^eps >= 1 or inf), "exp" (also "exp(q)": ("exp", q), e^q for a rational q outside
    the field)."""
    path = f"{where}[{key}]" if isinstance(obj, list) else f"{where}.{key}"
    raw = expect(obj[key], str, path) if isinstance(obj, list) else field(obj, key, str, where)
    if raw == INF and kind in ("ratio", "lam", "exp"):
        return INF
    if kind == "exp" and raw.startswith("exp(") and raw.endswith(")"):
        q = number(raw[4:-1], path)
        if not isinstance(q, Fraction) or q == 0 or (Qt.L and (q * Qt.L).denominator == 1):
            raise Malformed(f"{path}: exp(q) needs a rational q with e^q outside the field (else write it as t^k)")
        return ("exp", q)
    v, least = number(raw, path), {"prob": 0, "ratio": 0, "lam": 1, "exp": 1}.get(kind)  # (e^eps >= 1)
    if least is not None and not (least <= v and (kind != "prob" or v <= 1)):
        raise Malformed(f"{path}: must lie in [{least}, {1 if kind == 'prob' else INF}]")
    return v


def pinned(game: Game, delta: Any, lam: Any, note: str = "") -> str:
    """The statement PrivLoss(M, delta) = log(lam), checked (else Rejected): delta(lam) <= delta and,
    for lam > 1, delta(lam') > delta for every lam' < lam, which for the convex delta is delta(lam) =
    delta with a negative left derivative; for lam = INF, the limit (the chain's top) exceeds delta."""
    said, (v, s) = f"PrivLoss({text(game.name)}, {text(delta)})", delta_at(game, lam)
    if not (v > delta if lam == INF else v <= delta if lam == 1 else v == delta and s < 0):
        raise Rejected(f"{said} is not {log_text(lam)}{note}")
    return f"{said} = {log_text(lam)}"


def privloss(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """PrivLoss(M, delta) = inf{eps >= 0 : delta_M(e^eps) <= delta} is log of ``exp_privloss``."""
    game, delta = game_of(games, claim.get("of")), param(claim, "delta", kind="prob")
    lam_c, (rel, test) = param(claim, "exp_eps", kind="exp"), relation(claim, ["equals", "at_most"])
    lam = param(proof, "exp_privloss", "proof", "lam")
    facts, c = pinned(game, delta, lam, ", the value the proof states"), order(lam, lam_c)
    return facts, f"PrivLoss({text(game.name)}, {text(delta)}) {rel} {log_text(lam_c)}", test(c)


def relation(claim: dict, allowed: list) -> tuple:
    """claim.relation, one of ``allowed`` (equals, at_most, exceeds): =, <= or >, and its test on
    the sign of value - bound."""
    rel = field(claim, "relation", str, "claim")
    if rel not in allowed:
        raise Malformed(f"claim.relation: {' or '.join(allowed)}")
    tests = {"equals": ("=", lambda c: c == 0), "at_most": ("<=", lambda c: c <= 0), "exceeds": (">", lambda c: c > 0)}
    return tests[rel]


def dp(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """(eps, delta)-DP is delta_M(e^eps) <= delta (Def. 1.7); for e^q outside the field, at the
    proof's ``bracket`` b: delta_M is nonincreasing, so b <= e^q with delta_M(b) <= delta proves it
    and b >= e^q with delta_M(b) > delta refutes it.  A delta claim compares delta_M(e^eps)."""
    game, lam = game_of(games, claim.get("of")), param(claim, "exp_eps", kind="lam" if kind == "delta" else "exp")
    delta = param(claim, "equals") if kind == "delta" else param(claim, "delta", kind="prob")
    if lam == INF:
        raise Malformed("claim.exp_eps: must be finite")
    b = param(proof, "bracket", "proof", "lam") if isinstance(lam, tuple) else lam
    v = delta_at(game, b)[0]
    facts = f"delta_{text(game.name)}({text(b)}) = {text(v)}"
    if kind == "delta":
        return facts, f"delta_{text(game.name)}({text(lam)}) = {text(delta)}", v == delta
    statement = f"{text(game.name)} is {NOT}({log_text(lam)}, {text(delta)})-DP"
    if not isinstance(lam, tuple):
        return facts, statement, v <= delta
    side = order(b, lam)
    facts += f", with {text(b)} {'<' if side < 0 else '>'} e^{text(lam[1])}"
    return facts, statement, True if v <= delta and side < 0 else False if v > delta and side > 0 else None


def envelope(game: Game) -> tuple[Any, list]:
    return upper_hull([chain(game, p) for p in game.pairs])  # delta_M for every lam: the max over the pairs


def above(ca: tuple, cb: tuple, lo: Any) -> Any:
    """The first lam of lo, the bends of either chain beyond lo, and INF (the limit, the tops) at
    which delta_a(lam) > delta_b(lam), or None: both are piecewise linear, so none beyond lo is
    above when none of these is."""
    lams = sorted({lo} | {r for r, _ in ca[1] + cb[1] if r > lo}) + [INF]
    return next((lam for lam in lams if value(ca, lam) > value(cb, lam)), None)


def profile(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """delta_M(lam) <= delta_N(lam) for every lam >= 1 (:func:`above`); profile_eq both ways.  fdp, M
    is T(N)-DP (Dong, Roth & Su 2022): T(M) >= T(N), i.e. delta_M <= delta_N for every lam >= 0 (their
    Prop. 2.12), which lam >= 1 implies: over symmetric pairs delta(lam) = 1 - lam + lam delta(1/lam)."""
    key, rel = {"profile_le": ("than", "<="), "profile_eq": ("as", "equals")}.get(kind, ("f", None))
    m, n = game_of(games, claim.get("of")), game_of(games, claim.get(key))
    statement = f"profile of {text(m.name)} {rel} profile of {text(n.name)}"
    statement = statement if rel else f"{text(m.name)} is {NOT}T({text(n.name)})-DP"
    chains = {m.name: envelope(m), n.name: envelope(n)}
    for a, b in [(m, n)] + ([(n, m)] if kind == "profile_eq" else []):
        ca, cb = chains[a.name], chains[b.name]
        if (lam := above(ca, cb, ONE)) is not None:
            va, vb = value(ca, lam), value(cb, lam)
            facts = f"delta_{text(a.name)}({text(lam)}) = {text(va)} > delta_{text(b.name)}({text(lam)}) = {text(vb)}"
            return facts, statement, False
    return "compared at every bend and in the limit", statement, True


def gauss_cmp(b: Fraction, w: Any, mu: Fraction) -> int:
    """The sign of G_mu(b) - w, G_mu(b) = Phi(Phi^-1(1 - b) - mu) (Dong, Roth & Su 2022, Def. 2.6):
    with z = Phi^-1(1 - b) and y = Phi^-1(w) it is the sign of z - y - mu, decided by bisecting
    rational brackets of z and y (Phi bounded by :func:`phi_iv`) until they separate."""
    if b <= 0 or b >= 1 or w <= 0 or w >= 1:
        g = ONE if b <= 0 else ZERO if b >= 1 else None
        return order(g, w) if g is not None else 1 if w <= 0 else -1
    for (zl, zh), (yl, yh) in zip(bracket(1 - b), bracket(w)):
        if zl - yh - mu > 0 or zh - yl - mu < 0:
            break
    return 1 if zl - yh - mu > 0 else -1


def bracket(u: Any) -> Any:
    """Rational lo < Phi^-1(u) < hi for 0 < u < 1, halved at every step (bisection on certified
    comparisons of Phi(x) with u; a midpoint whose comparison stays undecided is moved)."""
    if u == Fraction(1, 2):
        while True:
            yield ZERO, ZERO

    def phi_cmp(x: Fraction) -> int:  # the sign of Phi(x) - u, 0 if 4,096-bit bounds leave it open
        return decide(lambda p: tuple(b - u for b in phi_iv(x, p)), "Phi(x) - u", 4096)

    lo, hi = Fraction(-1), ONE
    while phi_cmp(lo) >= 0:
        lo *= 2
    while phi_cmp(hi) <= 0:
        hi *= 2
    while True:
        yield lo, hi
        if hi - lo < Fraction(1, 1 << LIMITS["max_precision"]):
            too_large("max_precision", "separating Phi^-1 from the GDP curve", "more bits")
        for mid in ((lo + hi) / 2, (2 * lo + hi) / 3, (lo + 2 * hi) / 3):
            c = phi_cmp(mid)
            if c:
                lo, hi = (mid, hi) if c < 0 else (lo, mid)
                break


def gdp(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """mu-GDP: T(M(x), M(x')) >= G_mu for every ordered pair (Dong, Roth & Su 2022, Def. 2.6).  The
    chain's vertices (b, a) are tests with P_x'(T) = b, P_x(T) = a, and T(M)(b) = 1 - C(b) for the
    concave, piecewise linear chain C, while G_mu is convex: so G_mu(b) <= 1 - a at every vertex."""
    game, mu = game_of(games, claim.get("of")), param(claim, "mu")
    if not isinstance(mu, Fraction) or mu < 0:
        raise Malformed("claim.mu: a rational >= 0")
    statement = f"{text(game.name)} is {NOT}{text(mu)}-GDP"
    for b, a in vertices(*envelope(game)):
        if gauss_cmp(b, 1 - a, mu) > 0:
            return f"the test with P_x'(T) = {text(b)}, P_x(T) = {text(a)} lies below G_{text(mu)}", statement, False
    return f"G_{text(mu)} lies below the trade-off curve at every vertex", statement, True


def renyi(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """D_alpha(M) (Mironov 2017, Def. 3) against X = s + sum c log(b) (:func:`compare_divergence`)."""
    game, x = game_of(games, claim.get("of")), bound_terms(claim.get("bound"), "claim.bound")
    rel, test = relation(claim, ["equals", "at_most", "exceeds"])
    alpha = renyi_order(claim.get("alpha"), "claim.alpha")
    c, shown = compare_divergence([game], alpha, x)
    return shown, f"D_{alpha or 'inf'}({text(game.name)}) {rel} {terms_text(x)}", test(c)


def renyi_order(raw: Any, path: str, whole: bool = False) -> Any:
    """alpha: inf (None), a whole number from 1 to 10,000 (an int) or, unless ``whole``, a fraction
    1 < alpha <= 10,000 with a denominator <= 10,000 (a Fraction)."""
    a = None if expect(raw, str, path) == INF else number(raw, path)
    if a is None or (isinstance(a, Fraction) and 1 <= a <= 10_000 and a.denominator == 1):
        return a if a is None else int(a)
    if whole or not isinstance(a, Fraction) or not 1 < a <= 10_000 or a.denominator > 10_000:
        raise Malformed(f"{path}: a whole number from 1 to 10000, inf" + " or a fraction from 1 to 10000" * (not whole))
    return a


def compare_divergence(games: list, alpha: int | None, x: tuple | None = (ZERO, [])) -> tuple[int, str]:
    """The sign of D_alpha(games[0]) - D_alpha(games[1]) - ... - X (X = s + sum c log(b), None: inf),
    and D_alpha(games[0]) as text.  For alpha >= 2 or inf, D = log(r)/(alpha - 1) (log r), r the
    largest Renyi sum over the pairs (:func:`renyi_sum`): divergences compare as r_0 against Prod
    r_i; against X, and for KL (alpha = 1), the difference is a :class:`LogForm` over a coprime base
    of the games' and X's integers; at a fraction alpha, by :func:`compare_bounded`."""
    if not all(g.rational for g in games):
        raise Malformed("Renyi claims need rational probabilities")
    xs = [] if x is None else [y for b, _ in x[1] for y in (b.numerator, b.denominator)]
    if isinstance(alpha, Fraction):
        return compare_bounded(games[0], alpha, x)
    ints = [n for g in games for nd in g.nodes if nd[0] == "answer" for r in nd[3] for n in r] if alpha == 1 else []
    base = coprime_base(ints + xs) if alpha == 1 else None
    d, *rest = [most([renyi_sum(g, p, alpha, base) for p in g.pairs]) for g in games]
    beyond = x is None or any(r == INF for r in rest)
    if d == INF or alpha == 1:
        shown = "inf" if d == INF else "a sum of logarithms"
    else:
        shown = f"log({text(d)})" + (f"/{alpha - 1}" if alpha and alpha > 2 else "")
    if d == INF or beyond:
        return (d == INF) - beyond, shown
    if alpha != 1 and rest:
        return order(d, prod(rest)), shown
    if alpha != 1:
        d = LogForm.log(coprime_base([d.numerator, d.denominator] + xs), d, Fraction(1, alpha - 1) if alpha else ONE)
    s, terms = x or (ZERO, [])  # d - s - sum c log(b) - sum of the rest
    diff = sum([LogForm.log(d.base, b, -c) for b, c in terms] + [r.scale(-1) for r in rest], d + LogForm(d.base, -s))
    return diff.sign(), f"D = {shown}"


def compare_bounded(game: Game, alpha: Fraction, x: tuple | None) -> tuple[int, str]:
    """The sign of D_alpha - X at a non-integer alpha (D_alpha = log(r)/(alpha - 1) is transcendental
    in general): from the bounds on r (:func:`renyi_iv`) and on the logarithms, at 64, 128, ... bits
    until they decide it (beyond --max-precision: Malformed; an equality is never decided)."""
    top = renyi_iv(game, alpha, 1)
    if top == INF or x is None:
        return (top == INF) - (x is None), "D = inf" if top == INF else "D is finite"
    bound = LogForm([b for b, _ in x[1]], x[0], {k: c for k, (_, c) in enumerate(x[1])})

    def iv(p: int) -> tuple:  # (the series of a logarithm of a p-bit number costs about p^3 bit operations)
        spend("steps", (p // 64 + 1) ** 3 * 128, f"bounds on D_{alpha}")
        lo, hi = renyi_iv(game, alpha, p)
        if not lo:
            return -ONE, ONE
        (a, _), (_, b), (xl, xh) = log_iv(Fraction(lo, 1 << p), p), log_iv(Fraction(hi, 1 << p), p), bound.iv(p)
        return a / (alpha - 1) - xh, b / (alpha - 1) - xl

    return decide(iv, f"D_{alpha} minus the bound"), f"D_{alpha} bounded by integer roots and logarithms"


def bounded_range(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """M is eps-BR (Dong, Durfee & Rogers 2020, Def. 2.2): every pair's BR-range (:func:`br_ratio`) <= eps."""
    game, adv = game_of(games, claim.get("of")), field(claim, "adversaries", str, "claim")
    if adv not in ("deterministic", "randomized"):
        raise Malformed("claim.adversaries: deterministic or randomized")
    r = most([br_ratio(game, p, adv == "deterministic") for p in game.pairs])
    facts, suffix = f"BR-range({text(game.name)}) = {log_text(r)}", " (randomized adversaries)" * (adv == "randomized")
    if kind == "br_range":
        target = param(claim, "equals", kind="lam")
        return facts, f"BR-range({text(game.name)}) = {log_text(target)}{suffix}", order(r, target) == 0
    lam = param(claim, "exp_eps", kind="exp")
    return facts, f"{text(game.name)} is {NOT}{log_text(lam)}-BR{suffix}", order(r, lam) <= 0


def simulates(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """For every adjacent pair, T with View(A, T(RR(b))) = View(A, M(x_b)) (Thm 1.10).  No T for a
    pair: Farkas multipliers, or the pair breaking (eps, delta)-DP (T(RR) is, by post-processing).
    eps defaults to PrivLoss(M, delta), the proof's ``exp_privloss`` (checked)."""
    game, delta = game_of(games, claim.get("of")), param(claim, "delta", kind="prob")
    given = claim.get("exp_eps") is not None
    lam = param(claim, "exp_eps", kind="lam") if given else param(proof, "exp_privloss", "proof", "lam")
    eps = log_text(lam) if given else pinned(game, delta, lam)
    statement = f"{text(game.name)} is {NOT}a post-processing T(RR_({eps}, {text(delta)})) (Thm 1.10)"
    if lam == INF:
        return "no finite eps", statement, False
    sims, farkas, breaks = (field(proof, key, list, "proof", True) or [] for key in ("simulation", "farkas", "breaks"))
    with_t = {check_simulation(game, s, f"proof.simulation[{k}]", lam, delta) for k, s in enumerate(sims)}
    no_t = {check_farkas(game, f, f"proof.farkas[{k}]", lam, delta) for k, f in enumerate(farkas)}
    for k, raw in enumerate(breaks):
        pair = game.pair(raw, f"proof.breaks[{k}]")
        if not hockey(game, pair, lam)[0] > delta:
            said = f"the pair {game.pair_names(pair)} is ({log_text(lam)}, {text(delta)})-DP"
            raise Rejected(f"proof.breaks[{k}]: {said}")
        no_t.add(frozenset(pair))
    if with_t & no_t:
        raise Rejected("T was shown both to exist and not to exist for the same pair")
    everything = {frozenset(p) for p in game.pairs}
    facts = f"T exists for {len(with_t)} and for {len(no_t)} not, of {len(everything)} pairs"
    return facts, statement, True if with_t == everything else False if no_t else None


# --- composition theorems: the composition built here, the bound recomputed ---------------------
def theorem_bound(theorem: str, lams: list, deltas: list) -> tuple[Any, Any]:
    """(e^eps_T, delta_T) of a composition theorem for (log lams[i], deltas[i])-DP components: basic
    (Sum eps_i, Sum delta_i; Vadhan & Wang 2021, Thm 3.3 for pure components; Vadhan & Zhang 2023
    and Lyu 2022 for approximate ones), improved basic (delta_T = 1 - Prod(1 - delta_i); Henzinger,
    Safavi & Vadhan, Remark 5.12) and Thm 1.8 (delta_T = min over the k! orders s of Sum_k
    e^(eps_(s(1)) + ... + eps_(s(k-1))) delta_(s(k)))."""
    if theorem == "basic":
        return prod(lams), sum(deltas, ZERO)
    if theorem == "improved-basic":
        return prod(lams), 1 - prod([1 - d for d in deltas])
    spend("steps", prod(range(1, len(lams) + 1)) * len(lams), "Theorem 1.8's orders")
    orders = permutations(range(len(lams)))  # for each, Sum_k (prefix product of e^eps) delta_(s(k))
    return prod(lams), min(
        sum(map(mul, accumulate((lams[i] for i in s), mul, initial=ONE), (deltas[i] for i in s))) for s in orders
    )


def optimal_holds(lams: list, deltas: list, at: Any, lam: Any) -> bool:
    """log(lam) <= eps_g, the least eps >= 0 with f(e^eps) <= tau, where (Kairouz, Oh & Viswanath
    2015; Murtagh & Vadhan 2016; Vadhan & Wang 2021, Thm 1.4)
        f(l) = Sum over subsets S of max(E_S - l E_(not S), 0) / Prod(1 + e^eps_i),  E_S = Prod_(i in S) e^eps_i,
        tau = 1 - (1 - delta) / Prod(1 - delta_i)
    (tau < 0: no eps works, eps_g = inf).  f is continuous and nonincreasing, so log(lam) <= eps_g
    iff f(l) > tau for every l < lam: f(lam) > tau, or f(lam) = tau with f strictly decreasing
    just below lam (some term with E_S >= lam E_(not S) is still active there)."""
    k = len(lams)
    spend("steps", 2**k * k, "the optimal composition's sum over subsets")
    keep = prod([1 - d for d in deltas])
    if not keep or 1 - (1 - at) / keep < 0:
        return True  # no eps works: eps_g = inf
    if lam == INF or lam == 1:
        return lam == 1
    tau, total, active = 1 - (1 - at) / keep, ZERO, False
    for mask in range(2**k):
        es = prod([x for i, x in enumerate(lams) if mask >> i & 1])
        rest = prod([x for i, x in enumerate(lams) if not mask >> i & 1])
        if es - lam * rest >= 0:
            total, active = total + es - lam * rest, True
    f = total / prod([1 + x for x in lams])
    return f > tau or (f == tau and active)


def composition(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """A composition theorem on ConComp of the components, built here (:func:`concomp`): its PrivLoss
    at delta (or Renyi divergence, or trade-off function), each component's (eps_i, delta_i) checked
    (claimed: (eps_i, delta_i)-DP; by default eps_i = PrivLoss(M_i, delta_i)), the bound recomputed."""
    names = [expect(n, str, f"claim.of[{k}]") for k, n in enumerate(field(claim, "of", list, "claim"))]
    comps = [game_of(games, n) for n in names]
    if not comps:
        raise Malformed("claim.of: at least one component")
    labels: list = []
    for n in names:  # a repeated component is another copy: R, R#2, R#3, ...
        labels.append(next(x for x in [n] + [f"{n}#{k}" for k in range(2, len(names) + 2)] if x not in labels))
    built = concomp(comps, labels)
    games[built.name], name, theorem = built, text(built.name), field(claim, "theorem", str, "claim")
    if theorem == "fdp":  # T(ConComp) >= the tensor product of the T(M_i): delta below, at every lam >= 0
        holds = above(envelope(built), tensor([envelope(g) for g in comps]), ZERO) is None
        said = f"T({name}) >= the tensor product of the T(M_i)"
        return "both profiles compared at every bend and in the limit", said, holds
    if theorem == "renyi":
        alpha = renyi_order(claim.get("alpha"), "claim.alpha", whole=True)
        c, d = compare_divergence([built] + comps, alpha)[0], f"D_{alpha or 'inf'}"
        return "recomputed from the games", f"{d}({name}) <= " + " + ".join(f"{d}({text(n)})" for n in labels), c <= 0
    if theorem not in ("basic", "improved-basic", "thm-1.8", "optimal"):
        raise Malformed("claim.theorem: basic, improved-basic, thm-1.8, optimal, renyi or fdp")
    deltas = [number(d, f"claim.deltas[{k}]") for k, d in enumerate(field(claim, "deltas", list, "claim"))]
    claimed, used = field(claim, "eps", list, "claim"), field(proof, "exp_eps", list, "proof")
    if not len(deltas) == len(claimed) == len(used) == len(comps):
        raise Malformed("claim.deltas, claim.eps and proof.exp_eps need one entry per component")
    lams = []
    for k, (g, d) in enumerate(zip(comps, deltas)):
        lam = param(used, k, "proof.exp_eps", "ratio")
        if lam == INF or lam < 1 or not 0 <= d <= 1:
            raise Malformed(f"proof.exp_eps[{k}]: a finite e^eps_i >= 1 (and delta_i in [0, 1])")
        if claimed[k] is None:
            pinned(g, d, lam)
        elif param(claimed, k, "claim.eps", "ratio") != lam:
            raise Malformed(f"proof.exp_eps[{k}]: must be the claimed e^eps_i")
        elif not delta_at(g, lam)[0] <= d:
            return f"{text(g.name)} is not ({log_text(lam)}, {text(d)})-DP", f"{name} within {theorem}", False
        lams.append(lam)
    parts = ", ".join(f"({log_text(x)}, {text(d)})" for x, d in zip(lams, deltas))
    lam = param(proof, "exp_privloss", "proof", "lam")
    if theorem == "optimal":
        at, bound_text = param(claim, "delta", kind="prob"), "the optimal composition's eps"
        holds = optimal_holds(lams, deltas, at, lam)
    else:
        bound, delta_t = theorem_bound(theorem, lams, deltas)
        at = param(claim, "delta", kind="prob") if claim.get("delta") is not None else delta_t
        holds = at < delta_t or (lam != INF and lam <= bound)
        bound_text = f"{log_text(bound)} at delta >= {text(delta_t)}"
    facts = f"{pinned(built, at, lam)}; components ({parts}); {theorem} gives {bound_text}"
    return facts, f"PrivLoss({name}, {text(at)}) within the {theorem} theorem", holds


def tensor(chains: list) -> tuple:
    """The chain of the product distributions (Dong, Roth & Su 2022, Def. 3.1: the tensor product of
    trade-off functions).  A chain is a view of ratio inf with P-mass top and views of ratio r with
    P'-mass w; product views multiply ratios and masses, ratio inf (the top) when a factor's is."""
    top, atoms = ZERO, {ONE: ONE}  # the product of no chain: one view of ratio 1
    for t, edges in chains:
        spend("steps", len(atoms) * len(edges), "the tensor product of trade-off functions")
        new: dict = {}
        for r1, w1 in atoms.items():
            for r2, w2 in edges:
                new[r1 * r2] = new.get(r1 * r2, ZERO) + w1 * w2
        atoms, top = new, 1 - (1 - top) * (1 - t)
    return top, sorted(atoms.items(), key=lambda e: e[0], reverse=True)


# --- a certificate ---------------------------------------------------------------------------------

HANDLERS = {  # claim kind: its check, the proof objects it reads
    "privloss": (privloss, {"exp_privloss"}),
    "dp": (dp, {"bracket"}),
    "delta": (dp, set()),
    **dict.fromkeys(["profile_le", "profile_eq", "fdp"], (profile, set())),
    "gdp": (gdp, set()),
    "renyi": (renyi, set()),
    **dict.fromkeys(["bounded_range", "br_range"], (bounded_range, set())),
    "simulates_rr": (simulates, {"exp_privloss", "simulation", "farkas", "breaks"}),
    "composition": (composition, {"exp_eps", "exp_privloss"}),
}
NEGATED, NOT = {"dp", "fdp", "gdp", "bounded_range", "simulates_rr"}, "\0"  # not_dp, ...: NOT marks where "not " goes


@contextmanager
def one_certificate() -> Iterator[None]:
    """Per certificate: its field, caches and costs start afresh (nothing read on one cell of a
    symbol is reused on another).  The cycle collector pauses (no cycles here), and what was built
    joins the oldest generation unvisited: a young generation's pass would walk all of it at once."""
    was = gc.isenabled()
    gc.disable()
    _PARSED.clear()
    try:
        yield
    finally:
        Qt.L = 0
        _PARSED.clear()
        _SPENT.update(bits=0, steps=0)
        gc.freeze()
        gc.unfreeze()
        if was:
            gc.enable()


def read_games(cert: object) -> dict:
    """The certificate's games, validated, in its field (``"field": "exp(1/L)"``: Q(e^(1/L)))."""
    if field(cert, "format", str, "certificate") != FORMAT or field(cert, "version", int, "certificate") != VERSION:
        raise Malformed(f"not an {FORMAT} of version {VERSION} (exactdp certify writes them)")
    spec = field(cert, "field", str, "certificate", optional=True)
    Qt.L = -1 if spec == "symbol" and Cell.name else 0  # -1: rational functions of a symbol on a cell (below)
    if spec is not None and not Qt.L:
        body = spec[6:-1] if spec.startswith("exp(1/") and spec.endswith(")") else ""
        if not (body.isascii() and body.isdigit() and 0 < int(body) <= LIMITS["max_degree"]):
            raise Malformed('certificate.field: "exp(1/L)" with a whole L from 1 to --max-degree')
        Qt.L = int(body)
    return {name: Game(name, g, f"games.{name}") for name, g in field(cert, "games", dict, "certificate").items()}


def check_certificate(cert: object, hashes: set | None = None) -> str:
    """Check one certificate; return what was proved (the statement, each game's fingerprint, and
    apart the unverified labels), or raise Malformed, Rejected or OtherCase."""
    if isinstance(cert, dict) and ("symbol" in cert or "at" in cert):
        return check_symbolic(cert, hashes)
    with one_certificate():
        games = read_games(cert)
        claim, proof = field(cert, "claim", dict, "certificate"), field(cert, "proof", dict, "certificate")
        kind, verdict = field(claim, "kind", str, "claim"), field(cert, "verdict", str, "certificate")
        neg = kind.startswith("not_") and kind[4:] in NEGATED
        handler, keys = HANDLERS.get(kind[4:] if neg else kind, (None, set()))
        if handler is None:
            raise Malformed(f"claim.kind: unknown kind {text(kind)!r}")
        if verdict not in ("holds", "fails"):
            raise Malformed("verdict: holds or fails")
        if set(proof) - keys:  # nothing in a certificate goes unchecked
            raise Malformed(f"proof: {', '.join(sorted(map(text, set(proof) - keys)))} is not part of a {kind} proof")
        facts, statement, holds = handler(kind, claim, games, proof)  # (a composition adds the game it builds)
        statement, holds = statement.replace(NOT, "not " * neg), None if holds is None else holds != neg
        if holds is None:
            raise Rejected(f"the proof does not decide the claim {statement} ({facts})")
        if holds != (verdict == "holds"):
            said = "holds" if holds else "fails"
            raise Rejected(f"the certificate says the claim {verdict}, but it {said}: {statement}")
        outcome = "holds" if holds else "FALSE (the certificate refutes it)"
        lines = [f"proved: {facts}", f"claim: {statement} -- {outcome}"]
        t = f"; t = e^(1/{Qt.L})" if Qt.L > 0 else f"; rational functions of {Cell.name}" if Qt.L else ""
        for name, g in games.items():
            ds, pairs = ", ".join(map(text, g.datasets)), ", ".join(map(g.pair_names, g.pairs))
            shape = f"{len(g.reachable)} nodes; datasets ({ds}); ordered pairs {pairs}{t}"
            lines.append(f"game {text(name)}: sha256 {fingerprint(g)}; {shape}")
    case: dict = cert["case"] if isinstance(cert, dict) and isinstance(cert.get("case"), dict) else {}
    file, sha = text(case.get("file")), text(case.get("sha256"))
    said = f"case file {file} (sha256 {sha}), case {text(case.get('name'))}, claim {text(case.get('claim'))}"
    lines.append(f"unverified (written by the certificate's author, not checked): {said}")
    if hashes is not None and case.get("sha256") not in hashes:
        said = f"it names the case file {file} (sha256 {sha}), not one of the --case files; its proof checks:"
        raise OtherCase("\n  ".join([said] + lines))
    return "\n".join(lines)


def fingerprints(cert: object) -> dict:
    """Each game's fingerprint in a document {format, version, [field], games} (``exactdp info``)."""
    with one_certificate():
        return {name: fingerprint(g) for name, g in read_games(cert).items()}


def load(path: Path) -> Any:
    """The JSON of a certificate file: a regular file (a FIFO or a device would block or never end)
    of at most --max-bytes, UTF-8, without floating-point numbers or repeated keys."""

    def pairs(items: list) -> dict:
        if len(out := dict(items)) != len(items):
            raise Malformed("a key appears twice in one object")
        return out

    def refuse(s: str) -> None:
        raise Malformed(f'the JSON number {s[:20]} is not allowed: numbers are strings such as "3/4"')

    try:
        if not path.is_file():
            raise Malformed("not a regular file")
        with open(path, "rb") as f:
            data = f.read(LIMITS["max_bytes"] + 1)
        if len(data) > LIMITS["max_bytes"]:
            too_large("max_bytes", "reading the file", "more bytes")
        if path.suffix != ".json":
            return data
        with one_certificate():
            return json.loads(data.decode("utf-8"), object_pairs_hook=pairs, parse_float=refuse, parse_constant=refuse)
    except OSError as e:
        raise Malformed(f"cannot read it: {text(e.strerror or e)}") from None
    except (UnicodeDecodeError, RecursionError, ValueError) as e:  # JSONDecodeError is a ValueError
        raise Malformed(f"cannot read it as UTF-8 JSON: {str(e)[:200] or type(e).__name__}") from None


# --- a symbol: claims at one value, or for every value, of a parameter s --------------------------
# A certificate with "symbol": {"name": s, "gt"|"ge": a, "lt"|"le": b} (bounds optional) holds games
# and a claim whose numbers are rational functions of s, written like elements of Q(t).  With "at":
# x it is checked at s = x (every number read is substituted).  With "cells", open intervals that
# with "points", a proof at each end inside the domain, cover the domain exactly, the claim's checks
# run unchanged over Q(s) on each cell ("field": "symbol"): every sign they ask is that of a
# polynomial with no root inside the cell (Sturm's theorem; ends that are roots divided out), taken
# at a rational point of it, and every denominator built is such a polynomial.  So every branch is
# the same for every s of the cell and evaluation at s commutes with the arithmetic: what the
# checks state holds for every s of the cell.  The claim holds on every cell (one refuted at some s
# is certified "at" that s), or, with "holds_for" (a calibration: intervals whose ends are cell
# ends), on the cells and points inside the set and fails on the others (a failure derived from
# signs, so at every s; not for delta, an equality).


class Cell:
    """The open cell (lo, hi) of the symbol being checked (None: an infinite end; name "": none),
    or (name, x) when the symbol is substituted by the value x."""

    name, signs, at = "", dict[tuple, int](), tuple[Any, ...]()
    lo: Any = None
    hi: Any = None


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
SYMBOLIC |= {"bounded_range", "not_bounded_range", "br_range"}  # the kinds whose checks use no bounds
SYMBOL_KEYS = ("symbol", "at", "cells", "points", "holds_for")
VERDICT, FAILS = {True: "holds", False: "fails"}, " (so the claim fails there)"


def at(a: tuple, x: Fraction) -> Fraction:
    spend("steps", len(a) * (bits(x) // 64 + 1) ** 2, "evaluating a polynomial in the symbol")
    out = ZERO
    for c in reversed(a):
        out = out * x + c
    return out


def substitute(v: Qt, path: str) -> Fraction:
    """A value read while the symbol is substituted (:func:`number`): v at s = x."""
    (name, x), n, d = Cell.at, at(v.n, Cell.at[1]), at(v.d, Cell.at[1])
    if not d:
        raise Rejected(f"{path}: {v} is undefined at {name} = {text(x)}")
    return bounded(n / d, path)


def sturm(a: tuple) -> list:
    """a, a', then minus the remainders (positive multiples of them, made primitive)."""
    seq = [a, ptrim([k * c for k, c in enumerate(a)][1:])]
    while len(seq[-1]) > 1:
        r = prem(seq[-2], seq[-1], len(seq[-1]), "a Sturm sequence")
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
                b = pdiv(b, (-end.numerator, end.denominator))
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
    x = None if raw == infinite else number(raw, path)
    if not isinstance(x, Fraction | None):
        raise Malformed(f"{path}: a rational number or {infinite}")
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


def symbol_fingerprints(doc: dict) -> dict:
    """The fingerprints of games as functions of the symbol (read on its whole domain)."""
    name, lo, _, hi, _ = read_symbol(doc)
    with on_cell(name, lo, hi):
        return fingerprints({**doc, "field": "symbol"})


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
    if claim.get("kind") not in SYMBOLIC or "field" in cert or any(str(v).startswith("exp(") for v in values):
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
        if len(cells) > LIMITS["max_states"]:
            too_large("max_states", "the cells", f"{len(cells)} cells")
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
        raise OtherCase("\n  ".join([said] + lines))
    return "\n".join(lines)


# --- the command line: arguments, folders and printing (outside the kernel: it decides nothing) ----


def show(cert: object) -> list:
    """Every game of the certificate as an indented tree (``--show-game``); a shared sub-game is
    printed once and then referred to."""
    if isinstance(cert, dict) and "symbol" in cert:  # games as functions of the symbol, on its domain
        name, lo, _, hi, _ = read_symbol(cert)
        with on_cell(name, lo, hi):
            return show({**{k: v for k, v in cert.items() if k != "symbol"}, "field": "symbol"})
    out = []
    with one_certificate():
        for game in read_games(cert).values():
            ds = ", ".join(map(text, game.datasets))
            out.append(
                f"game {text(game.name)}: datasets ({ds}); ordered pairs " + ", ".join(map(game.pair_names, game.pairs))
            )
            shown: set = set()
            stack = [(game.root, 1, "")]
            while stack:
                k, depth, head = stack.pop()
                nd, pad = game.nodes[k], "  " * depth
                if nd[0] == "end" or k in shown:
                    out.append(f"{pad}{head}" + ("end" if nd[0] == "end" else f"#{k} (shown above)"))
                    continue
                shown.add(k)
                does = "the adversary chooses" if nd[0] == "ask" else f"the mechanism answers, Pr under ({ds})"
                out.append(f"{pad}{head}#{k} {does}:")
                rows = game.probs(k) if nd[0] == "answer" else []
                probs = [" (" + ", ".join(map(text, row)) + ")" for row in rows] or [""] * len(nd[1])
                stack += reversed([(c, depth + 1, f"{text(lab)}{pr} -> ") for lab, pr, c in zip(nd[1], probs, nd[-1])])
    return out


def main(argv: list | None = None) -> int:
    """``python checker.py [--case CASE.yaml]... [--show-game] [-q] [--max-... N] CERT_OR_DIR...``
    (or ``exactdp-check``).  Exit status 0: every certificate is accepted; 1: one is rejected, or names
    another case file than the ``--case`` files; 2: one is unreadable, malformed, or needs more than a
    named limit (DEFAULT_LIMITS, each a flag: a hostile file is refused in seconds).  For an accepted
    certificate the checker prints what it derived from the games and the proof, each game's SHA-256
    fingerprint (``exactdp info CASE --fingerprint`` prints it for the games exactdp builds from a case
    file) and, apart and marked, the labels it did not verify."""
    import argparse  # start-up: only the command line parses arguments (the kernel, imported by exactdp, needs none)

    ap = argparse.ArgumentParser(
        prog="exactdp-check", description="Check exactdp certificates (Python standard library only)."
    )
    ap.add_argument("paths", nargs="+", help="certificate files, or directories searched for *.json")
    ap.add_argument(
        "--case",
        action="append",
        default=[],
        help="a case file: compare its SHA-256 with the one each certificate names",
    )
    ap.add_argument("--show-game", action="store_true", help="print each certificate's games")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only certificates that are not accepted")
    for name, default in DEFAULT_LIMITS.items():
        ap.add_argument(
            "--" + name.replace("_", "-"), type=int, default=default, metavar="N", help=f"default {default:,}"
        )
    args = ap.parse_args(argv)
    LIMITS.update({name: getattr(args, name) for name in DEFAULT_LIMITS})
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        hashes = {hashlib.sha256(load(Path(c))).hexdigest() for c in args.case} if args.case else None
    except Malformed as e:
        print(f"exactdp-check: the case file: {e}")
        return 2
    files = []
    for p in map(Path, args.paths):  # symbolic links in folders are not followed: a certificate folder is plain files
        found = [Path(d, f) for d, _, names in os.walk(p) for f in names if f.endswith(".json")] if p.is_dir() else [p]
        files.extend(sorted(f for f in found if not p.is_dir() or (f.is_file() and not f.is_symlink())))
    counts = dict.fromkeys(["accepted", "REJECTED", "OTHER CASE", "MALFORMED"], 0)
    for f in files:
        try:
            cert = load(f)
            status, body = (
                "accepted",
                "\n".join([check_certificate(cert, hashes)] + (show(cert) if args.show_game else [])),
            )
        except (Rejected, OtherCase, Malformed) as e:
            kinds = {Rejected: "REJECTED", OtherCase: "OTHER CASE", Malformed: "MALFORMED"}  # (SignChange: Rejected)
            status, body = next(v for k, v in kinds.items() if isinstance(e, k)), str(e)
        except (RecursionError, MemoryError, ArithmeticError, ValueError) as e:
            status, body = "MALFORMED", f"too large or deep to check ({type(e).__name__})"
        except Exception as e:  # a bug in this file: say so, without a traceback
            status, body = "MALFORMED", f"not checked: internal error in the checker ({type(e).__name__}: {text(e)})"
        counts[status] += 1
        if status != "accepted" or not args.quiet:
            print(
                f"{text(f)}: {status}" + ("\n  " + body.replace("\n", "\n  ") if status == "accepted" else f": {body}")
            )
    summary = ", ".join(f"{n} {k.lower()}" for k, n in counts.items())
    print(f"{len(files)} certificate(s): {summary}" if files else "exactdp-check: no certificates found")
    if hashes is not None:
        print(
            "--case compares the SHA-256 each certificate's author recorded with that of the case files given: it shows which file the author says a certificate is about, not that a game is that file's mechanism (compare each game's sha256 with `exactdp info CASE --fingerprint`)"
        )
    return 2 if counts["MALFORMED"] or not files else 1 if counts["REJECTED"] or counts["OTHER CASE"] else 0


if __name__ == "__main__":
    sys.exit(main())
