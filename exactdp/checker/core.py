r"""The checker's core, which every certificate relies on: reading, limits, exact numbers (Q and
Q(t), t = e^(1/L)), the games, delta at one lam and at every lam, and the claims about them
(PrivLoss, (eps, delta)-DP, delta), then :func:`check_certificate`.  The other claim kinds register
their checks from their own modules (:data:`HANDLERS`).

A game is a finite DAG of adversary choices (``ask``), answers with one exact probability per
dataset (``answer``) and the end; a view is a sequence of labels (Vadhan & Wang 2021, Def. 1.5-1.7).
For an ordered adjacent pair (x, x') and lam >= 0, delta(lam) = sup over deterministic adversaries
of sum over views w of (P_x(w) - lam P_x'(w))_+, and M is (eps, delta)-DP iff delta(e^eps) <= delta
for every ordered pair (Def. 1.7; Lemma 2.2: deterministic adversaries suffice).  The checker
recomputes every value it states from the games, trusting none that the certificate claims; a
proof holds only what a search would find (a value to verify, a bracket, T's table, Farkas
multipliers).

Numbers are exact: rationals and, with ``"field": "exp(1/L)"``, elements of Q(t), t = e^(1/L),
written as integer polynomials in t, lowest degree first (``"1,0,3/1,1"`` is (1 + 3t^2)/(1 + t)).
Signs in Q(t) and comparisons with e^q are decided by rational bounds refined until decided: t is
transcendental (Lindemann-Weierstrass), so a nonzero element of Q(t) is never 0.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from functools import cached_property, total_ordering
from itertools import accumulate, zip_longest
from math import gcd, lcm, prod
from typing import Any

__all__ = ["check_certificate", "read_games", "Game", "Qt", "HANDLERS", "LIMITS", "Malformed", "TooLarge", "Rejected"]

FORMAT, VERSION, INF = "exactdp-certificate", 2, "inf"  # INF: lam = e^eps = infinity, a string
ZERO, ONE = Fraction(0), Fraction(1)
DEFAULT_LIMITS = {
    "max_bytes": 64_000_000,  # size of one certificate file (parsed JSON takes up to ~26 times its size)
    "max_bits": 1_000_000,  # bits of one number; the recomputations build at most twice this in all
    "max_states": 500_000,  # (node, likelihood ratio) states, chain edges, nodes of a built composition
    "max_histories": 1_000_000,  # histories walked by the simulation and Farkas checks, each counted with its length
    "max_precision": 65_536,  # bits of the rational bounds that decide a sign
    "max_degree": 2_000,  # degree of a polynomial in t
    "max_steps": 200_000_000,  # word operations of polynomial arithmetic; subsets and orders of a theorem
}
LIMITS = dict(DEFAULT_LIMITS)
_SPENT = {"bits": 0, "steps": 0, "histories": 0, "open": 0}  # what one certificate's recomputations have cost so far
_PARSED: dict = {}  # text -> number: games repeat the same probabilities many times
_T: dict = {}  # (L, p) -> integers A, B with A/2^p <= t = e^(1/L) <= B/2^p


class Malformed(Exception):
    """Not a certificate of this format, or beyond a limit (exit status 2)."""


class TooLarge(Malformed):
    """Beyond a named limit (--max-...): not checked, which a larger limit may change."""


class Rejected(Exception):
    """A mathematical check failed (exit status 1)."""


class OtherCase(Exception):
    """The certificate names another case file than the --case files (exit status 1)."""


def too_large(limit: str, what: str, size: object) -> None:
    flag = "--" + limit.replace("_", "-")
    raise TooLarge(f"{what} needs {size}, more than {flag} = {LIMITS[limit]} (a larger {flag} raises the limit)")


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


def quoted(name: object) -> str:
    """A game's name in a statement: as it is when it holds only letters, digits and _ . ' -, else in JSON
    quotes, so that no name can close a formula's parenthesis, add a formula or read as a copy (R#2)."""
    s = str(name)
    return text(s) if s and all(c.isalnum() or c in "_.'-" for c in s) else text(json.dumps(s, ensure_ascii=False))


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
    x = symbol.substitute(x, path) if Cell.at and isinstance(x, Qt) else x  # (a symbol at a value)
    if len(_PARSED) < 100_000:
        _PARSED[value] = x
    return x


# --- rigorous rational bounds, and numbers beyond the rationals: Q(t), t = e^(1/L), and e^q ------
def series(first: Fraction, ratio: Any, p: int) -> tuple[Fraction, Fraction]:
    """lo <= sum_k c_k <= hi, about p bits, for c_0 = first >= 0 and c_(k+1) = c_k ratio(k) >= 0,
    ratio(k) given as integers (n, d), where every ratio from the first one <= 1/2 on is <= 1/2
    (true of each use below).  Terms are integers over 2^p rounded down and up; once the ratio is
    <= 1/2 and the rounded-up term is <= 1, the rest of the series is at most twice the next term."""
    s = 1 << p
    lo, hi = first.numerator * s // first.denominator, -(-first.numerator * s // first.denominator)
    total_lo = total_hi = k = 0
    while True:
        total_lo, total_hi = total_lo + lo, total_hi + hi
        n, d = ratio(k)
        k += 1
        lo, hi = lo * n // d, -(-hi * n // d)
        if 2 * n <= d and hi <= 1:
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
    lo, hi = series(ONE, lambda k: (y.numerator, y.denominator * (k + 1)), q)
    rl = rh = ONE
    while m:  # [lo^m, hi^m]
        if m & 1:
            rl, rh = rounded(rl * lo, q, False), rounded(rh * hi, q, True)
        lo, hi, m = rounded(lo * lo, q, False), rounded(hi * hi, q, True), m >> 1
    return rl, rh


def decide(iv: Any, what: str, top: int = 0) -> int:
    """The sign of x from bounds lo <= x <= hi = iv(p), p = 64, 128, ... bits, once they exclude 0 or meet
    (x = lo = hi); beyond --max-precision bits TooLarge, beyond ``top`` bits 0 (undecided)."""
    p = 64
    while p <= (top or LIMITS["max_precision"]):
        lo, hi = iv(p)
        if lo > 0 or hi < 0 or lo == hi:
            return (lo > 0) - (lo < 0)
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
    words = sum(max(map(int.bit_length, p)) for p in polys if p) // 64 + 1  # (|c| and c: same bit length)
    return words * prod(max(len(p), 1) for p in polys)


def pmul(a: tuple, b: tuple) -> tuple:
    """a b: a shifted copy of one for each nonzero coefficient of the sparser one (t^k: one copy)."""
    sparse = [[(i, x) for i, x in enumerate(p) if x] for p in (a, b)]
    terms, full = (sparse[0], b) if len(sparse[0]) <= len(sparse[1]) else (sparse[1], a)
    spend("steps", cost(full, tuple(x for _, x in terms)), "arithmetic on polynomials in t")
    out, n = [0] * (len(a) + len(b) - 1), len(full)
    for i, x in terms:
        out[i : i + n] = [o + x * y for o, y in zip(out[i : i + n], full)]
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

    def prim(p: tuple) -> tuple:  # (a gcd of w-word integers costs about w^2 word operations)
        spend("steps", len(p) * (max(abs(c).bit_length() for c in p) // 64 + 1) ** 2, "the gcd of polynomials in t")
        g = gcd(*p) * (1 if p[-1] > 0 else -1)
        return tuple(c // g for c in p)

    if not a or not b:
        return prim(a or b) if a or b else (1,)
    content = gcd(gcd(*a), gcd(*b))
    a, b = (prim(a), prim(b)) if len(a) >= len(b) else (prim(b), prim(a))
    if coprime(a, b):  # (most gcds are 1: a pseudo-remainder sequence would grow the coefficients)
        return (content,)
    while True:
        r = prem(a, b, 2, "the gcd of polynomials in t")
        if len(r) <= 1:
            return tuple(content * c for c in b) if not r else (content,)
        a, b = b, prim(tuple(r))


def coprime(a: tuple, b: tuple, p: int = 2**61 - 1) -> bool:
    """True if a and b have no common factor of positive degree, shown modulo the prime p: Euclid's
    algorithm over GF(p) ends in a constant.  A common factor g in Z[t] divides both mod p, and keeps
    its degree there when p divides neither leading coefficient (lc g divides lc a).  False: unknown."""
    if not (a[-1] % p and b[-1] % p):
        return False
    spend("steps", 4 * len(a) * len(b), "the gcd of polynomials in t")
    u, v = [c % p for c in a], [c % p for c in b]
    while len(v) > 1:
        inv = pow(v[-1], -1, p)
        while len(u) >= len(v):  # u <- u mod v
            q, k = u[-1] * inv % p, len(u) - len(v)
            u[k:] = [(x - q * y) % p for x, y in zip(u[k:], v)]
            while u and not u[-1]:
                u.pop()
        u, v = v, u
    return len(v) == 1


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
    by Horner's rule on p-bit fixed point at A/2^p <= t <= B/2^p, rounded down for a lower bound
    and up for an upper one at every step (so the numbers stay about p bits, not p * degree)."""
    if len(a) <= 1:
        return (Fraction(a[0]),) * 2 if a else (ZERO, ZERO)
    words = max(abs(c).bit_length() for c in a) // 64 + p // 64 + 1
    spend("steps", len(a) * words * (p // 64 + 1), "bounds on a polynomial in t")
    if (Qt.L, p) not in _T:
        lo, hi = exp_iv(Fraction(1, Qt.L), p + 4)
        _T[Qt.L, p] = (lo.numerator << p) // lo.denominator, -(-(hi.numerator << p) // hi.denominator)
    lo_t, hi_t = _T[Qt.L, p]

    def horner(cs: list, x: int, up: bool) -> int:  # 2^p sum cs[k] (x/2^p)^k, cs >= 0, rounded down (up)
        h = 0
        for c in reversed(cs):
            h = (-(-h * x >> p) if up else h * x >> p) + (c << p)
        return h

    pos, neg = [max(c, 0) for c in a], [max(-c, 0) for c in a]
    bottom, top = horner(pos, lo_t, False) - horner(neg, hi_t, True), horner(pos, hi_t, True) - horner(neg, lo_t, False)
    return Fraction(bottom, 1 << p), Fraction(top, 1 << p)


def psign(a: tuple) -> int:
    if len(a) <= 1:
        return (a[0] > 0) - (a[0] < 0) if a else 0
    if Cell.name:  # a symbol on a cell (symbol.py)
        return symbol.cell_sign(a)
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
            return s if len(terms) <= 1 else f"({s})"

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
    if isinstance(x, Qt) or isinstance(y, Qt):  # the sign of n_x d_y - n_y d_x over d_x d_y (no gcd)
        a, b = Qt.of(x), Qt.of(y)
        n = ptrim([u - v for u, v in zip_longest(pmul(a.n, b.d), pmul(b.n, a.d), fillvalue=0)])
        return psign(n) * psign(a.d) * psign(b.d)
    return (x > y) - (x < y)


# --- games ---------------------------------------------------------------------------------------
END = ("end", (), ())  # no labels, no children


class Game:
    """A validated game: ``nodes[k]`` is END, ("ask", labels, children) or ("answer", labels, D,
    rows, children): answer a has probability rows[a][d] / D under dataset d, with D the node's
    common denominator (integers; in a field, integer polynomials in t)."""

    def __init__(self, name: str, raw: object, path: str):
        if not isinstance(raw, dict) or set(raw) != {"datasets", "pairs", "root", "nodes"}:
            raise Malformed(f"{path}: a game has exactly the keys datasets, pairs, root, nodes")
        self.name, self.shown, self.datasets = name, quoted(name), field(raw, "datasets", list, path)
        if not (ds := self.datasets) or not all(isinstance(d, str) for d in ds) or len(set(ds)) != len(ds):
            raise Malformed(f"{path}.datasets: distinct names")
        self.pairs = [self.ids(p) for p in field(raw, "pairs", list, path)]
        both = set(self.pairs)  # (a set: a list scan per pair is quadratic in the pairs)
        odd = any(len(p) != 2 or -1 in p or p[0] == p[1] or p[::-1] not in both for p in self.pairs)
        if odd or not self.pairs or len(both) < len(self.pairs):
            raise Malformed(f"{path}.pairs: distinct ordered pairs of two datasets, each in both orders")
        self.nodes = [self._node(k, n, f"{path}.nodes[{k}]") for k, n in enumerate(field(raw, "nodes", list, path))]
        self.root = field(raw, "root", int, path)
        if not 0 <= self.root < len(self.nodes):
            raise Malformed(f"{path}.root: no node {self.root}")
        self.setup()

    def setup(self) -> None:
        self.rational = all(nd[0] != "answer" or type(nd[2]) is int for nd in self.nodes)
        self._probs, self.weights, self.points = dict[int, list](), dict[tuple, dict](), dict[Any, tuple]()
        self.gcds = dict[tuple, tuple]()  # (a, b) -> (a/h, b/h, h): weights where histories merge
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
                where = f"game {self.shown}, node {k}"
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
            raise Malformed(f"{path}: not an ordered adjacent pair of game {self.shown}")
        return self.ids(raw)

    def pair_names(self, pair: tuple) -> str:
        return f"({text(self.datasets[pair[0]])}, {text(self.datasets[pair[1]])})"


def ring_gcd(x: Any, y: Any) -> Any:
    """The gcd of two integers, or of two integer polynomials in t (taken > 0 at t)."""
    if type(x) is int:
        return gcd(x, y)
    h = pgcd(Qt.of(x).n, Qt.of(y).n)
    return Qt(h if psign(h) > 0 else tuple(-c for c in h), (1,))


def lowest(game: Game, a: Any, b: Any) -> tuple:
    """(a/h, b/h, h) for h = gcd(a, b), memoised (both ways: the pair (x', x) meets the weights swapped)."""
    if (got := game.gcds.get((a, b))) is None:
        h = ring_gcd(a, b)
        got = (a // h, b // h, h)
        if len(game.gcds) < 400_000:  # (a bounded memo)
            game.gcds[a, b], game.gcds[b, a] = got, (got[1], got[0], h)
    return got


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
    g = gcd(Qt.L, *(e for p in qts for poly in (p.n, p.d) for e, c in enumerate(poly) if c)) if qts else 1

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


def most(values: list) -> Any:
    """The largest of numbers or of LogForms (compared by their signs), or INF if one is."""
    return INF if any(v == INF for v in values) else max(values)


# --- delta at one lam: the induction itself ------------------------------------------------------
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
        if states and game.rational:  # products and gcds of w-word weights here and below: about w^2 each
            w = max(max(a.bit_length(), b.bit_length()) for a, b in states) // 64 + 1
            spend("steps", 16 * len(states) * len(rows) * w * w, "the point recursion's weights")  # (~1 us each)
        for row, c in zip(rows, nodes[k][-1]) if states else ():  # (an option of the adversary: weight 1)
            if row[i] and row[j] and nodes[c][0] != "end":
                got = [(a * row[i], b * row[j]) for a, b in states]
                got = [lowest(game, a, b)[:2] for a, b in got] if c in shared else got
                need.setdefault(c, set()).update(got)
    game.weights[i, j] = need  # node -> the weights it is reached with
    val: dict = {}

    def child(c: int, a: Any, b: Any) -> tuple:  # (G_c, E_c) at the weights (a, b)
        if nodes[c][0] == "end":
            x = a * ld - ln * b
            return (x, b) if x >= 0 else (0, 0)
        a, b, h = lowest(game, a, b) if c in shared else (a, b, None)
        return val[c, a, b] if h is None else tuple(x * h for x in val[c, a, b])

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
        size += (n := sum(len(memo[c][1]) for c in nd[-1]))  # the edges this node combines
        if size > LIMITS["max_states"]:
            too_large("max_states", "the chains of the game", f"more than {size} edges")
        w = max(bits(x) for c in nd[-1] for x in (memo[c][0], *(v for e in memo[c][1] for v in e))) // 64 + 2  # words
        spend("steps", 32 * (n + len(nd[-1])) * w * w, "the chains of the game")  # (~1 us an edge)
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


def values(chain_: tuple, lams: list) -> list:
    """delta at each lam of an increasing list (INF: the limit, the top), in one sweep: top + A - lam B,
    A and B the sums of r w and w over the edges with r > lam (a lam at a time: quadratic in edges)."""
    (top, edges), out, a, b, k = chain_, [], ZERO, ZERO, 0
    for lam in reversed(lams):
        while lam != INF and k < len(edges) and edges[k][0] > lam:
            a, b, k = a + edges[k][0] * edges[k][1], b + edges[k][1], k + 1
        out.append(top if lam == INF else top + a - lam * b)
    return out[::-1]


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
    said, (v, s) = f"PrivLoss({game.shown}, {text(delta)})", delta_at(game, lam)
    if not (v > delta if lam == INF else v <= delta if lam == 1 else v == delta and s < 0):
        raise Rejected(f"{said} is not {log_text(lam)}{note}")
    return f"{said} = {log_text(lam)}"


def privloss(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """PrivLoss(M, delta) = inf{eps >= 0 : delta_M(e^eps) <= delta} is log of ``exp_privloss``."""
    game, delta = game_of(games, claim.get("of")), param(claim, "delta", kind="prob")
    lam_c, (rel, test) = param(claim, "exp_eps", kind="exp"), relation(claim, ["equals", "at_most"])
    lam = param(proof, "exp_privloss", "proof", "lam")
    facts, c = pinned(game, delta, lam, ", the value the proof states"), order(lam, lam_c)
    return facts, f"PrivLoss({game.shown}, {text(delta)}) {rel} {log_text(lam_c)}", test(c)


def relation(claim: dict, allowed: list) -> tuple:
    """claim.relation, one of ``allowed`` (equals, at_most, at_least, exceeds): =, <=, >= or >, and
    its test on the sign of value - bound."""
    rel = field(claim, "relation", str, "claim")
    if rel not in allowed:
        raise Malformed(f"claim.relation: {' or '.join(allowed)}")
    tests = {"equals": ("=", lambda c: c == 0), "at_most": ("<=", lambda c: c <= 0)}
    tests.update(at_least=(">=", lambda c: c >= 0), exceeds=(">", lambda c: c > 0))
    return tests[rel]


def dp(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """(eps, delta)-DP is delta_M(e^eps) <= delta (Def. 1.7); for e^q outside the field, at the
    proof's ``bracket`` b: delta_M is nonincreasing, so b <= e^q with delta_M(b) <= delta proves it
    and b >= e^q with delta_M(b) > delta refutes it.  A delta claim compares delta_M(e^eps)."""
    game, lam = game_of(games, claim.get("of")), param(claim, "exp_eps", kind="ratio" if kind == "delta" else "exp")
    delta = param(claim, "equals") if kind == "delta" else param(claim, "delta", kind="prob")
    if lam == INF:
        raise Malformed("claim.exp_eps: must be finite")
    b = param(proof, "bracket", "proof", "lam") if isinstance(lam, tuple) else lam
    v = delta_at(game, b)[0]
    facts = f"delta_{game.shown}({text(b)}) = {text(v)}"
    if kind == "delta":
        return facts, f"delta_{game.shown}({text(lam)}) = {text(delta)}", v == delta
    statement = f"{game.shown} is {NOT}({log_text(lam)}, {text(delta)})-DP"
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
    return next((lam for lam, a, b in zip(lams, values(ca, lams), values(cb, lams)) if a > b), None)


# claim kind: its check and the proof objects it reads; the other kinds are added by their modules
HANDLERS = {
    "privloss": (privloss, {"exp_privloss"}),
    "dp": (dp, {"bracket"}),
    "delta": (dp, set()),
}
NEGATED, NOT = {"dp", "fdp"}, "\0"  # the kinds with a not_ form (not_dp, ...); NOT marks where "not " goes


# --- a certificate ---------------------------------------------------------------------------------
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
        if not (body.isascii() and body.isdigit() and body.strip("0")):
            raise Malformed('certificate.field: "exp(1/L)" with a whole L >= 1')
        if len(body) > len(str(LIMITS["max_degree"])) or int(body) > LIMITS["max_degree"]:  # (no 4,300-digit int)
            too_large("max_degree", "the field exp(1/L)", f"L = {text(body[:40])}")
        Qt.L = int(body)
    games = {name: Game(name, g, f"games.{name}") for name, g in field(cert, "games", dict, "certificate").items()}
    if Cell.name or Cell.at:  # a symbol's cell or point reads and walks the games again: ~25 us a node
        spend("steps", 512 * sum(len(nd[-1]) + 1 for g in games.values() for nd in g.nodes), "reading the games")
    return games


def check_certificate(cert: object, hashes: set | None = None) -> str:
    """Check one certificate; return what was proved (the statement, each game's fingerprint, and
    apart the unverified labels), or raise Malformed, Rejected or OtherCase.  One budget of
    --max-steps and --max-bits for the whole certificate, a symbol's cells and points included."""
    if not _SPENT["open"]:
        _SPENT.update(bits=0, steps=0, histories=0, open=1)
        try:
            return check_certificate(cert, hashes)
        finally:
            _SPENT.update(bits=0, steps=0, histories=0, open=0)
    if isinstance(cert, dict) and ("symbol" in cert or "at" in cert):
        return symbol.check_symbolic(cert, hashes)
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
            raise Rejected(f"the certificate says the claim {verdict}, but it {said}: {statement} (found: {facts})")
        outcome = "holds" if holds else "FALSE (the certificate refutes it)"
        lines = [f"proved: {facts}", f"claim: {statement} -- {outcome}"]
        t = f"; t = e^(1/{Qt.L})" if Qt.L > 0 else f"; rational functions of {Cell.name}" if Qt.L else ""
        for g in games.values():
            ds, pairs = ", ".join(map(text, g.datasets)), ", ".join(map(g.pair_names, g.pairs))
            shape = f"{len(g.reachable)} nodes; datasets ({ds}); ordered pairs {pairs}{t}"
            lines.append(f"game {g.shown}: sha256 {fingerprint(g)}; {shape}")
    case: dict = cert["case"] if isinstance(cert, dict) and isinstance(cert.get("case"), dict) else {}
    file, sha = text(case.get("file")), text(case.get("sha256"))
    said = f"case file {file} (sha256 {sha}), case {text(case.get('name'))}, claim {text(case.get('claim'))}"
    lines.append(f"unverified (written by the certificate's author, not checked): {said}")
    if hashes is not None and case.get("sha256") not in hashes:
        said = f"it names the case file {file} (sha256 {sha}), not one of the --case files; its proof checks:"
        raise OtherCase("\n  ".join([said] + lines))
    return "\n".join(lines)


# --- a symbol: its state, which reading and signs consult (the checks are in symbol.py) ----------
class Cell:
    """The open cell (lo, hi) of the symbol being checked (None: an infinite end; name "": none),
    or (name, x) when the symbol is substituted by the value x."""

    name, signs, at = "", dict[tuple, int](), tuple[Any, ...]()
    lo: Any = None
    hi: Any = None


from . import symbol  # noqa: E402  (claims with a symbol: symbol.py uses this module's names, so it comes last)
