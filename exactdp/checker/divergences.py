r"""Renyi and KL divergences, recomputed from the games (claim kinds ``renyi`` and ``conversion``;
and the comparisons of composition ``theorem: renyi``), at whole orders and inf also over Q(t).
Relies on core.py: a referee of these kinds reads both.

Logarithms are bounded by the atanh series with an explicit remainder; KL divergences and
differences of logarithms are linear forms in the logarithms of a coprime base of integers, zero
only when every coefficient is (Lindemann-Weierstrass), else signed by those bounds.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd, prod
from typing import Any

from . import core
from .core import INF, ONE, ZERO, Game, Malformed, Qt, bits, exp_iv, expect, number, rounded, spend, text

__all__ = ["renyi", "conversion", "compare_divergence", "renyi_order"]


def log_iv(x: Fraction, p: int) -> tuple[Fraction, Fraction]:
    """Bounds on log(x), x > 0: x = 2^k y with 1 <= y < 2, log(y) = 2 atanh(z), z = (y - 1)/(y + 1)
    <= 1/3 (the series sum z^(2i+1)/(2i+1) has ratios <= 1/9), and log 2 = 2 atanh(1/3)."""
    k = x.numerator.bit_length() - x.denominator.bit_length()
    y = x / 2**k if k >= 0 else x * 2**-k
    y, k = (2 * y, k - 1) if y < 1 else (y, k)
    q = p + abs(k).bit_length() + 8

    def atanh2(z: Fraction) -> tuple[Fraction, Fraction]:
        lo, hi = core.series(z, lambda j, n=z.numerator**2, d=z.denominator**2: (n * (2 * j + 1), d * (2 * j + 3)), q)
        return 2 * lo, 2 * hi

    if q not in _LOG2:
        _LOG2[q] = atanh2(Fraction(1, 3))
    l2, ylo, yhi = _LOG2[q][:: 1 if k >= 0 else -1], rounded(y, q, False), rounded(y, q, True)
    lo = atanh2((ylo - 1) / (ylo + 1))
    hi = lo if yhi == ylo else atanh2((yhi - 1) / (yhi + 1))
    return lo[0] + k * l2[0], hi[1] + k * l2[1]


_LOG2: dict = {}  # q -> bounds on log 2 at q bits (the same in every certificate)


# --- Renyi divergence, KL divergence, bounded range: recomputed from the game ---------------------
def coprime_base(nums: list) -> list:
    """Pairwise coprime integers > 1 whose products give every number in ``nums``: one sharing a
    factor g > 1 with b in the base splits into b/g, g and itself/g (the pending product drops)."""
    base: list = []
    todo = [n for n in nums if n > 1]
    while todo:
        x = todo.pop()
        # (a gcd of v- and w-word integers costs about v w / 8 word operations, measured)
        words = sum(b.bit_length() // 64 + 1 for b in base)
        spend("steps", words * (x.bit_length() // 64 + 1) // 8 + len(base), "a coprime base of the game's integers")
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

    @staticmethod
    def total(base: list, forms: list) -> LogForm:
        """The sum of many forms in one dict (adding them two at a time rebuilds it each time)."""
        c = dict[int, Any]()
        for k, v in (kv for f in forms for kv in f.c.items()):
            c[k] = c.get(k, ZERO) + v
        return LogForm(base, sum((f.s for f in forms), ZERO), {k: v for k, v in c.items() if v})

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
        return core.decide(self.iv, "a sum of logarithms") if self.c else (self.s > 0) - (self.s < 0)


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
            val.append(core.most([val[c] for c in nd[-1]]) if nd[-1] else LogForm(base or []) if alpha == 1 else ONE)
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
                if size + bits(val[c]) > core.LIMITS["max_bits"]:
                    core.too_large("max_bits", "a term p^alpha p'^(1 - alpha)", f"about {size} bits")
                parts.append(power(p / q, alpha - 1) * p * val[c] if alpha else p / q * val[c])
        if any(v == INF for v in parts):
            val.append(INF)
        elif alpha == 1:
            val.append(LogForm.total(base or [], parts))
            spend("bits", sum(map(bits, val[-1].c.values())), "the KL divergences")
        else:
            val.append(core.bounded(max(parts) if alpha is None else sum(parts, ZERO), "a Renyi sum"))
            spend("bits", bits(val[-1]), "the Renyi sums")
    return val[game.root]


def power(x: Any, k: int) -> Any:
    """x^k for k >= 0 (numbers of Q(t) by squaring: they have no ** of their own)."""
    if isinstance(x, Fraction):
        return x**k
    out: Any = ONE
    while k:
        out, x, k = out * x if k & 1 else out, x * x if k > 1 else x, k >> 1
    return out


def bounded_sum(game: Game, alpha: Fraction, p: int) -> Any:
    """Rational (lo, hi) around the largest over the ordered pairs of the Renyi sum at a non-integer
    alpha (:func:`renyi_sum`), or of the KL divergence at alpha = 1; INF if some view is impossible
    under x' only; None while p bits leave a probability's lower bound at 0.  The recursion is
    renyi_sum's on bounds rounded outwards to p bits (:func:`term_bounds`); a KL term p_a
    (log(p_a/p'_a) + child) lies between the extreme products."""
    out, unsure = [], False
    spend("steps", 64 * len(game.nodes) * len(game.pairs), f"bounds on a divergence at alpha = {text(alpha)}")
    for i, j in game.pairs:
        val: list = []
        for k, nd in enumerate(game.nodes):
            kids = [val[c] for c in nd[-1]]
            if INF in kids or (nd[0] == "answer" and any(r[i] and not r[j] for r in game.probs(k))):
                val.append(INF)
            elif nd[0] != "answer":
                base = (ZERO, ZERO) if alpha == 1 else (ONE, ONE)
                val.append((max(x[0] for x in kids), max(x[1] for x in kids)) if kids else base)
            else:
                lo = hi = ZERO
                for r, (xl, xh) in ((r, x) for r, x in zip(game.probs(k), kids) if r[i]):
                    if (got := term_bounds(r[i], r[j], alpha, p)) is None:
                        unsure = True
                        continue
                    (pl, ph), (fl, fh) = got
                    if alpha == 1:
                        prods = [u * v for u in (pl, ph) for v in (fl + xl, fh + xh)]
                        lo, hi = lo + min(prods), hi + max(prods)
                    else:
                        lo, hi = lo + pl * fl * xl, hi + ph * fh * xh
                val.append((rounded(lo, p, False), core.bounded(rounded(hi, p, True), "a bound on a divergence")))
        out.append(val[game.root])
    return INF if INF in out else None if unsure else (max(x[0] for x in out), max(x[1] for x in out))


def term_bounds(a: Any, b: Any, alpha: Fraction, p: int) -> tuple | None:
    """((lo, hi) on a, (lo, hi) on log(a/b) for alpha = 1, else on (a/b)^(alpha - 1)) for
    probabilities a, b > 0 of Q(t) at p bits (None while a lower bound is not yet positive):
    a and b between rational bounds (:func:`pvalue`), the logarithm between those of the extreme
    ratios, and e^((alpha - 1) l) at the bounds l on the logarithm (both increase with a/b)."""
    if (key := ("term", a, b, alpha, p)) in core._PARSED:  # (terms repeat, and logarithms at every order)
        return core._PARSED[key]
    spend("steps", (p // 64 + 1) ** 3 * 384, "bounds on the terms of a divergence")
    if alpha != 1 and (got := term_bounds(a, b, ONE, p)) is not None:
        (ll, lh), u = got[1], alpha - 1
        got = got[0], (rounded(exp_iv(u * ll, p)[0], p + 8, False), rounded(exp_iv(u * lh, p)[1], p + 8, True))
    elif alpha == 1:
        (al, ah), (bl, bh) = qt_iv(a, p), qt_iv(b, p)
        got = ((al, ah), (log_iv(al / bh, p)[0], log_iv(ah / bl, p)[1])) if al > 0 and bl > 0 else None
    core._PARSED[key] = got
    return got


def qt_iv(x: Any, p: int) -> tuple:
    """Rational bounds on x = n(t)/d(t) > 0 at about p bits (0, 0 while those on d leave its sign open)."""
    if isinstance(x, Fraction):
        return x, x
    (nl, nh), (dl, dh) = core.pvalue(x.n, p), core.pvalue(x.d, p)
    (nl, nh), (dl, dh) = ((-nh, -nl), (-dh, -dl)) if dh < 0 else ((nl, nh), (dl, dh))  # (n/d = (-n)/(-d))
    return (rounded(max(nl, ZERO) / dh, p + 8, False), rounded(nh / dl, p + 8, True)) if dl > 0 else (ZERO, ZERO)


def renyi(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """D_alpha(M) (Mironov 2017, Def. 3) against X = s + sum c log(b) (:func:`compare_divergence`);
    with the proof's ``"by_bounds": "yes"`` a finite whole order is bounded like a fraction (its
    powers in Q(t) would be large)."""
    game, x = core.game_of(games, claim.get("of")), bound_terms(claim.get("bound"), "claim.bound")
    rel, test = core.relation(claim, ["equals", "at_most", "exceeds"])
    alpha = renyi_order(claim.get("alpha"), "claim.alpha")
    if "by_bounds" in proof and (core.field(proof, "by_bounds", str, "proof") != "yes" or alpha is None):
        raise Malformed('proof.by_bounds: "yes", at a finite order')
    c, shown = compare_divergence([game], Fraction(alpha) if "by_bounds" in proof else alpha, x)
    return shown, f"D_{alpha or 'inf'}({game.shown}) {rel} {terms_text(x)}", test(c)


def renyi_order(raw: Any, path: str, whole: bool = False) -> Any:
    """alpha: inf (None), a whole number from 1 to 10,000 (an int) or, unless ``whole``, a fraction
    1 < alpha <= 10,000 with a denominator <= 2^20 (a Fraction)."""
    a = None if expect(raw, str, path) == INF else number(raw, path)
    if a is None or (isinstance(a, Fraction) and 1 <= a <= 10_000 and a.denominator == 1):
        return a if a is None else int(a)
    if whole or not isinstance(a, Fraction) or not 1 < a <= 10_000 or a.denominator > 2**20:
        said = " or a fraction from 1 to 10000 with a denominator up to 2^20" * (not whole)
        raise Malformed(f"{path}: a whole number from 1 to 10000, inf{said}")
    return a


def compare_divergence(games: list, alpha: Any, x: tuple | None = (ZERO, [])) -> tuple[int, str]:
    """The sign of D_alpha(games[0]) - D_alpha(games[1]) - ... - X (X = s + sum c log(b), None: inf),
    and D_alpha(games[0]) as text.  For alpha >= 2 or inf, D = log(r)/(alpha - 1) (log r), r the
    largest Renyi sum over the pairs (:func:`renyi_sum`): divergences compare as r_0 against Prod
    r_i; against X, and for KL (alpha = 1), the difference is a :class:`LogForm` over a coprime base
    of the games' and X's integers; at a fraction alpha, by :func:`compare_bounded`."""
    if not all(g.rational for g in games) and len(games) > 1:
        raise Malformed("Renyi claims in Q(t) compare one game's divergence with a bound")
    xs = [] if x is None else [y for b, _ in x[1] for y in (b.numerator, b.denominator)]
    if isinstance(alpha, Fraction) or (alpha == 1 and not games[0].rational):
        return compare_bounded(games[0], alpha, x)
    ints = [n for g in games for nd in g.nodes if nd[0] == "answer" for r in nd[3] for n in r] if alpha == 1 else []
    base = coprime_base(ints + xs) if alpha == 1 else None
    d, *rest = [core.most([renyi_sum(g, p, alpha, base) for p in g.pairs]) for g in games]
    beyond = x is None or any(r == INF for r in rest)
    if d == INF or alpha == 1:
        shown = "inf" if d == INF else "a sum of logarithms"
    else:
        shown = f"log({text(d)})" + (f"/{alpha - 1}" if alpha and alpha > 2 else "")
    if d == INF or beyond:
        return (d == INF) - beyond, shown
    if alpha != 1 and rest:
        return core.order(d, prod(rest)), shown
    if isinstance(d, Qt):
        return field_sign(d, alpha - 1 if alpha else 1, x or (ZERO, [])), f"D = {shown}"
    if alpha != 1:
        d = LogForm.log(coprime_base([d.numerator, d.denominator] + xs), d, Fraction(1, alpha - 1) if alpha else ONE)
    s, terms = x or (ZERO, [])  # d - s - sum c log(b) - sum of the rest
    diff = sum([LogForm.log(d.base, b, -c) for b, c in terms] + [r.scale(-1) for r in rest], d + LogForm(d.base, -s))
    return diff.sign(), f"D = {shown}"


def field_sign(r: Qt, k: int, x: tuple) -> int:
    """The sign of log(r)/k - X for r > 0 in Q(t), t = e^(1/L), and X = s + sum c log(b).  For
    r = c t^m (one term above and below) log r = log c + m/L exactly: a :class:`LogForm`.  Any
    other r has log(r)/k != X: r = e^(kX) = e^q beta (beta a product of rational powers of
    rationals) would make n(t) = e^q beta d(t), with t and e^q powers of one e^(1/m), transcendental
    over the algebraic numbers (Lindemann-Weierstrass), an identity of polynomials, and r a
    monomial.  So bounds on r and on the logarithms decide the sign (:func:`log_sign`)."""
    s, terms = x
    ends = [[(e, c) for e, c in enumerate(poly) if c] for poly in (r.n, r.d)]
    if len(ends[0]) == len(ends[1]) == 1:
        (m, a), (m2, b) = ends[0][0], ends[1][0]
        base = coprime_base([abs(a), b] + [y for v, _ in terms for y in (v.numerator, v.denominator)])
        d = LogForm.log(base, Fraction(a, b), Fraction(1, k)) + LogForm(base, Fraction(m - m2, Qt.L * k) - s)
        return sum([LogForm.log(base, v, -c) for v, c in terms], d).sign()

    return log_sign(lambda p: b if (b := qt_iv(r, p))[0] > 0 else None, k, x, "a Renyi divergence in Q(t)")


def log_sign(bounds: Any, k: Any, x: tuple, what: str) -> int:
    """The sign of log(r)/k - X (of r - X for k = 0), X = s + sum c log(b), from rational bounds(p) =
    (lo, hi) on r > 0 at p bits (None: not yet known) and bounds on the logarithms, at 64, 128, ...
    bits until they decide it (beyond --max-precision: TooLarge; an equality only when they meet)."""
    bound = LogForm([b for b, _ in x[1]], x[0], {i: c for i, (_, c) in enumerate(x[1])})

    def iv(p: int) -> tuple:  # (the series of a logarithm of a p-bit number costs about p^3 bit operations)
        spend("steps", (p // 64 + 1) ** 3 * 128, f"bounds on {what}")
        if (r := bounds(p)) is None:
            return -ONE, ONE
        (a, b), (xl, xh) = (log_iv(r[0], p)[0] / k, log_iv(r[1], p)[1] / k) if k else r, bound.iv(p)
        return a - xh, b - xl

    return core.decide(iv, f"{what} minus the bound")


def compare_bounded(game: Game, alpha: Fraction | int, x: tuple | None) -> tuple[int, str]:
    """The sign of D_alpha - X at a non-integer alpha (D_alpha = log(r)/(alpha - 1)), or of KL - X
    (alpha = 1), over Q(t): transcendental in general, so signed by :func:`bounded_sum`'s bounds
    on r or KL and those on X (:func:`log_sign`), refined until they decide."""
    a, what = Fraction(alpha), "KL" if alpha == 1 else f"D_{alpha}"
    if (top := bounded_sum(game, a, 1)) == INF or x is None:
        return (top == INF) - (x is None), f"{what} = inf" if top == INF else f"{what} is finite"

    def bounds(p: int) -> tuple | None:
        got = bounded_sum(game, a, p)
        return got if got and (alpha == 1 or got[0] > 0) else None

    return log_sign(bounds, a - 1, x, what), f"{what} between bounds from series for exp and log"


def conversion(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """A conversion to (eps, delta)-DP, checked on the game: PrivLoss(M, delta) (the proof's
    ``exp_privloss``, pinned) is 0 or at most D_alpha + log(1/delta)/(alpha - 1) (renyi-to-dp: Mironov
    2017, Prop. 3), less log(alpha/(alpha - 1)) and less log(alpha)/(alpha - 1) for renyi-to-dp-cks
    (Canonne, Kamath & Steinke 2020, Prop. 12): D_alpha - X >= 0 for X = log(e^PrivLoss) less the
    bound's other terms (:func:`compare_divergence`)."""
    game, delta = core.game_of(games, claim.get("of")), core.param(claim, "delta", kind="prob")
    theorem, alpha = core.field(claim, "theorem", str, "claim"), renyi_order(claim.get("alpha"), "claim.alpha")
    if theorem not in ("renyi-to-dp", "renyi-to-dp-cks") or alpha in (None, 1) or not 0 < delta < 1:
        raise Malformed("claim: theorem renyi-to-dp or renyi-to-dp-cks, a finite alpha > 1 and 0 < delta < 1")
    lam, a = core.param(proof, "exp_privloss", "proof", "lam"), Fraction(alpha)
    if not isinstance(delta, Fraction) or not (lam == INF or isinstance(lam, Fraction)):
        raise Malformed("claim.delta, proof.exp_privloss: rational numbers (a conversion takes logarithms of them)")
    facts, cks = core.pinned(game, delta, lam), [((a - 1) / a, -ONE), (a, 1 / (a - 1))]
    x = None if lam == INF else (ZERO, [(lam, ONE), (delta, 1 / (a - 1))] + cks * theorem.endswith("cks"))
    c, shown = compare_divergence([game], alpha, x)
    statement = f"PrivLoss({game.shown}, {text(delta)}) <= max(0, the {theorem} bound at alpha = {text(alpha)})"
    return f"{facts}; {shown}", statement, c >= 0 or lam == 1  # (a bound < 0 says (0, delta)-DP)


core.HANDLERS["renyi"] = (renyi, {"by_bounds"})
core.HANDLERS["conversion"] = (conversion, {"exp_privloss"})
