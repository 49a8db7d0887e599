r"""The values of parametric answers: rational functions, logarithms of them, and ∞.

A privacy loss or a Rényi divergence on a cell is log(R)/k for a rational function R > 0 and a
whole k ≥ 1 (:class:`LogOf`), or ∞.  Case-file values (``log(E)``, ``2*log(E) - log(3)``,
``log(61/9)/2``, a fraction) are read into the same forms, and two such values are compared
exactly on a cell: log(R₁)/k₁ < log(R₂)/k₂ ⟺ R₁^{k₂} < R₂^{k₁} (log is increasing).

A value whose comparison would need a transcendental number — e^q for a rational q ≠ 0, such
as ε = 0.1 next to a rational function of the symbols — is refused by :func:`log_form` with
:class:`~exactdp.analysis.parametric.cells.Undecided` (its crossing points are not algebraic,
so no cell ends there); :func:`mixed_log_form` reads it as (q, log(R)/k) for the claims that
compare it by certified signs (:mod:`~exactdp.analysis.parametric.transcendental`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Any

import gmpy2

from ...errors import ExactDPError, InexactValueError
from ...lazy import flint
from ...numbers.loglinear import LogLinear
from ...numbers.symbolic import sympy, to_sympy
from .cells import Ctx, Undecided
from .hull import INF, PHull, normalise
from .ratfun import RatFun, Ring, _factors, factored_latex, factored_text

_Q = flint.fmpq

__all__ = [
    "LogOf",
    "RenyiSum",
    "ExpAffine",
    "log_form",
    "mixed_log_form",
    "exp_lambda",
    "lambda_of",
    "rational_of",
    "cmp_log",
    "same_value",
    "value_text",
    "INF",
    "is_inf",
]


def is_inf(x: Any) -> bool:
    return x is INF or (hasattr(x, "__class__") and x.__class__.__name__ == "Infinity")


@dataclass(frozen=True)
class LogOf:
    """log(R)/k for a rational function R > 0 on the domain and a whole k ≥ 1."""

    R: RatFun
    k: int = 1

    def text(self, points: Sequence[Mapping[str, Any]] = ()) -> str:
        """log(R)/k, with R = S^g shown as ``g*log(S)`` where that is right (see :func:`_as_power`;
        ``points``: one rational point of each connected cell where the value is read)."""
        if self.R.is_one():
            return "0"
        g, root = _as_power(self.R, points)
        coef = Fraction(g, self.k)
        body = f"log({factored_text(root)})"
        if coef == 1:
            return body
        if coef.denominator == 1:
            return f"{coef.numerator}*{body}"
        return f"{body}/{coef.denominator}" if coef.numerator == 1 else f"{coef.numerator}*{body}/{coef.denominator}"

    def __str__(self) -> str:
        return self.text()

    def latex(self, names: list[str], points: Sequence[Mapping[str, Any]] = ()) -> str:
        """log(R)/k in LaTeX (``names``: the symbols, escaped for LaTeX; ``points`` as for :meth:`text`)."""
        if self.R.is_one():
            return "0"
        g, root = _as_power(self.R, points)
        coef = Fraction(g, self.k)
        body = rf"\log\left({factored_latex(root, names)}\right)"
        if coef == 1:
            return body
        c = str(coef.numerator) if coef.denominator == 1 else rf"\frac{{{coef.numerator}}}{{{coef.denominator}}}"
        return f"{c} {body}"

    def exp_k(self) -> RatFun:
        """R, so that the value is log(R)/k."""
        return self.R


@dataclass(frozen=True)
class ExpAffine:
    """A − e^m·B for rational functions A, B and a rational m ≠ 0: δ(λ) at a λ = e^m (a decimal
    ε) on a cell where the optimal event does not change."""

    A: RatFun
    B: RatFun
    m: Any

    def text(self, points: Sequence[Mapping[str, Any]] = ()) -> str:
        """``(E - exp(7/10))/(E + 1)``: over the common denominator of A and B."""
        if self.B.is_zero():
            return factored_text(self.A)
        ring = self.A.ring
        if self.A.den == self.B.den or self.A.is_zero():
            den, an, bn = self.B.den, self.A.num, self.B.num
        else:
            den = self.A.den * self.B.den
            an, bn = self.A.num * self.B.den, self.B.num * self.A.den
        a = RatFun.make(ring, an, ring.ctx.constant(1))
        b = RatFun.make(ring, bn, ring.ctx.constant(1))
        bt = factored_text(b)
        e = f"exp({self.m})" if b.is_one() else f"exp({self.m})*{bt if bt.isalnum() else '(' + bt + ')'}"
        top = f"-{e}" if a.is_zero() else f"{factored_text(a)} - {e}"
        d = RatFun.make(ring, den, ring.ctx.constant(1))
        return (
            top
            if d.is_one()
            else f"({top})/{factored_text(d) if factored_text(d).isalnum() else '(' + factored_text(d) + ')'}"
        )

    def latex(self, names: Sequence[str] | None = None) -> str:
        r"""``A - e^{m} \cdot B`` with A and B as factored LaTeX (``names``: the symbols' names,
        escaped for LaTeX by the caller)."""
        a = factored_latex(self.A, names)
        if self.B.is_zero():
            return a
        m = self.m
        e = rf"e^{{{m}}}" if m.denominator == 1 else rf"e^{{{m.numerator}/{m.denominator}}}"
        b = factored_latex(self.B, names)
        return rf"{'' if self.A.is_zero() else a + ' '}- {e} \cdot \left({b}\right)"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class MaxOf:
    """The largest of several :class:`ExpAffine` values at every point of the cell: δ(λ) at λ = e^q
    where the optimal event changes inside the cell, at a transcendental point (δ(λ) is the largest
    of A_k − λ·B_k over the prefixes k of each pair's chain)."""

    parts: tuple[ExpAffine, ...]

    def text(self, points: Sequence[Mapping[str, Any]] = ()) -> str:
        return "max(" + ", ".join(p.text(points) for p in self.parts) + ")"

    def latex(self, names: Sequence[str] | None = None) -> str:
        return r"\max\left(" + ", ".join(p.latex(names) for p in self.parts) + r"\right)"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class RenyiSum:
    """D_α = log(Σ_v P(v)^α P′(v)^(1−α))/(α − 1) at a fractional order α, with the views' exact
    probabilities (P(v), P′(v)) — rational functions of the symbols — so the value is exact on
    the whole domain (Mironov 2017, Def. 3), though no rational function: each term is written
    P·(P/P′)^(α−1)."""

    alpha: Fraction
    views: tuple[tuple[RatFun, RatFun], ...]

    def expr(self) -> Any:
        """The value as a SymPy expression (exact: rationals, powers with rational exponents, log)."""
        a = sympy.Rational(self.alpha.numerator, self.alpha.denominator)
        total = sympy.Integer(0)
        for P, Q in self.views:
            p, q = P.to_sympy(), Q.to_sympy()
            total += p * (p / q) ** (a - 1)
        return sympy.log(total) / (a - 1)

    def _terms(self) -> list[tuple[int, RatFun, RatFun]]:
        """(multiplicity, P, P/P') per distinct term, in a fixed order."""
        count: dict[tuple[RatFun, RatFun], int] = {}
        for P, Q in self.views:
            key = (P, P / Q)
            count[key] = count.get(key, 0) + 1
        return [(m, P, R) for (P, R), m in count.items()]

    def text(self, points: Sequence[Mapping[str, Any]] = ()) -> str:
        e = self.alpha - 1
        parts = []
        for m, P, R in self._terms():
            head = f"{m}*" if m > 1 else ""
            power = "" if R.is_one() else f"*({factored_text(R)})^({e})"
            parts.append(f"{head}{_paren(factored_text(P))}{power}")
        return f"{_coef_text(1 / e)}log({' + '.join(parts)})"

    def latex(self, names: Sequence[str] | None = None) -> str:
        e = self.alpha - 1
        ex = f"{e.numerator}/{e.denominator}" if e.denominator != 1 else str(e.numerator)
        parts = []
        for m, P, R in self._terms():
            head = f"{m}" if m > 1 else ""
            power = "" if R.is_one() else rf"\left({factored_latex(R, names)}\right)^{{{ex}}}"
            parts.append(f"{head}{factored_latex(P, names)}{power}")
        c = 1 / e
        coef = (
            ""
            if c == 1
            else (str(c.numerator) if c.denominator == 1 else rf"\tfrac{{{c.numerator}}}{{{c.denominator}}}")
        )
        return rf"{coef}\log\left({' + '.join(parts)}\right)"

    def __str__(self) -> str:
        return self.text()


def _paren(text: str) -> str:
    return f"({text})" if any(c in text for c in "+-") else text


def _coef_text(c: Fraction) -> str:
    return "" if c == 1 else f"{c}*"


def _as_power(R: RatFun, points: Sequence[Mapping[str, Any]] = ()) -> tuple[int, RatFun]:
    """(g, S) with log(R) = g·log(S), g as large as the factorisation shows (for display: log(E^2)
    is shown as 2*log(E)).

    For an even g, S^g = R > 0 leaves the sign of S open: S keeps one sign on each connected cell
    where R is read (it has no zero and no pole there), so it is read at ``points``, one per cell,
    and S is turned into -S where it is negative.  Without points, or with both signs, an even g
    is not taken out (log((p - 1)^2) is not 2*log(p - 1) for p < 1)."""

    cn, fn = _factors(R.num)
    cd, fd = _factors(R.den)
    c = cn / cd
    g = 0
    for _, m in fn + fd:
        g = gcd(g, m)
    if g <= 1 or c < 0:
        return 1, R
    (rp, ep), (rq, eq) = gmpy2.iroot(int(c.p), g), gmpy2.iroot(int(c.q), g)
    if not (ep and eq):
        return 1, R
    S = R.ring.const(_Q(int(rp), int(rq)))
    for f, m in fn:
        S = S * RatFun(R.ring, f, R.ring.ctx.constant(1)) ** (m // g)
    for f, m in fd:
        S = S / RatFun(R.ring, f, R.ring.ctx.constant(1)) ** (m // g)
    if g % 2:
        return g, S
    try:
        signs = {S.at(pt) > 0 for pt in points}
    except (ZeroDivisionError, ValueError):  # (a pole at the point: not a point where R is read)
        signs = set()
    if len(signs) != 1:
        return 1, R
    return g, (S if signs.pop() else -S)


def _terms(e: Any) -> tuple[list[tuple[Any, Any]], Any]:
    """e = q + Σ c·log(X): ([(c, X)], q) with rational c and q, or raise Undecided."""

    e = sympy.expand(e)
    logs: list[tuple[Any, Any]] = []
    q = sympy.Integer(0)
    for t in sympy.Add.make_args(e):
        c, rest = t.as_coeff_Mul()
        if rest == 1:
            q += c
        elif isinstance(rest, sympy.log):
            logs.append((c, rest.args[0]))
        else:
            raise Undecided(f"{t} is not a rational multiple of the logarithm of a rational function")
    return logs, q


def _sympy_of(x: Any) -> Any:
    """An exactdp exact real (rational, log(r), a linear form in logs) or SymPy value as SymPy."""

    if isinstance(x, LogLinear):
        out = sympy.Rational(*_nd(x.s))
        for b, c in x.terms:
            out += sympy.Rational(*_nd(c)) * sympy.log(sympy.Integer(int(b)))
        return out
    return to_sympy(x)


def _nd(q: Any) -> tuple[int, int]:
    return int(q.numerator), int(q.denominator)


def log_form(x: Any, ring: Ring) -> LogOf | Any:
    """An ε-type value (``log(E)``, ``log(61/9)/2``, 0, ∞) as :class:`LogOf` or :data:`INF`.

    Raises
    ------
    Undecided
        When the value has a non-zero rational part (e^q is transcendental for rational
        q ≠ 0) or is not made of logarithms of rational functions.
    """
    if is_inf(x):
        return INF
    try:
        return _log_form(x, ring)
    except ExactDPError:
        raise
    except ValueError as err:  # Python refuses to convert an integer of more than 4300 digits to text
        raise ExactDPError(
            f"a value with more than 4300 digits cannot be compared with a function of the symbols ({err})"
        ) from None


def mixed_log_form(x: Any, ring: Ring) -> tuple[flint.fmpq, LogOf] | Any:
    """A value q + Σ c·log(X) (``log(E) + 1``, ``log(E) - 1/2``, a decimal ``0.7``) as (q, log(R)/k)
    with a rational q, or :data:`INF`; q ≠ 0 is compared with functions of the symbols by
    certified enclosures of e^q (:mod:`~exactdp.analysis.parametric.transcendental`)."""
    if is_inf(x):
        return INF
    logs, q = _terms(_sympy_of(x))
    return _Q(int(sympy.Rational(q).p), int(sympy.Rational(q).q)), _from_logs(logs, ring)


def exp_lambda(eps: Any, ring: Ring) -> tuple[Any, RatFun] | None:
    """(q, L) when e^eps = e^q·L with a rational q ≠ 0 (a decimal eps such as 0.7, or
    ``log(E) + 1/2``) and L a rational function of the symbols; None otherwise (eps = ∞, or no
    rational part).

    Raises
    ------
    Undecided
        When the log part is a fraction of a log (e^eps = e^q·R^(1/k), k > 1).
    """
    if is_inf(eps):
        return None
    form = mixed_log_form(eps, ring)
    if form is INF or form[0] == 0:
        return None
    q, f = form
    if f.k != 1:
        raise Undecided(f"e^eps = exp({q})*({value_text(f.R)})^(1/{f.k}) is not e^q times a rational function")
    return q, f.R


def _log_form(x: Any, ring: Ring) -> LogOf:

    e = _sympy_of(x)
    logs, q = _terms(e)
    if q != 0:
        raise Undecided(
            f"the value {e} has the rational part {q}; comparing it with a function of the symbols would "
            "need e^q, a transcendental number (write eps as log(r), or as the log of a rational function)"
        )
    return _from_logs(logs, ring)


def _from_logs(logs: list[tuple[Any, Any]], ring: Ring) -> LogOf:
    k = 1
    for c, _ in logs:
        k = lcm(k, int(sympy.Rational(c).q))
    R = ring.one
    for c, X in logs:
        n = int(sympy.Rational(c) * k)
        try:
            R = R * ring.from_sympy(X) ** n
        except InexactValueError as e:
            raise Undecided(f"log({X}) is not the log of a rational function of the symbols ({e})") from None
    return LogOf(R, k)


def lambda_of(eps: Any, ring: Ring) -> RatFun | Any:
    """λ = e^ε as a rational function of the symbols (or :data:`INF` for ε = ∞).

    Raises
    ------
    Undecided
        When e^ε is not a rational function (``log(E)/2``, or a decimal ε).
    """
    f = log_form(eps, ring)
    if f is INF:
        return INF
    if f.k != 1:
        raise Undecided(
            f"e^eps = ({factored_text(f.R)})^(1/{f.k}) is not a rational function of the symbols; "
            "declare a symbol for it instead (for example F with F^2 = E)"
        )
    return f.R


def rational_of(x: Any, ring: Ring) -> RatFun:
    """A δ-type value (a rational, or a rational function of the symbols) as a RatFun.

    Raises
    ------
    Undecided
        For a value outside ℚ(symbols), such as an element of ℚ(e^{1/L}).
    """
    if type(x).__name__ == "QtElement":
        raise Undecided(f"the value {x} involves e^(1/L) (a decimal eps), which is transcendental")
    try:
        return ring.lift(x)
    except Exception as e:  # an InexactValueError from the conversion
        raise Undecided(f"{x} is not a rational function of the symbols ({e})") from None


def cmp_log(a: Any, b: Any, ctx: Ctx) -> int:
    """The sign of a − b for :class:`LogOf` or :data:`INF` values, exactly on the cell."""
    if a is INF or b is INF:
        return (a is INF) - (b is INF)
    return ctx.cmp(a.R**b.k, b.R**a.k)


def same_value(a: Any, b: Any, ctx: Ctx) -> bool:
    """Whether two answers are equal on the cell (a point where a form found on a neighbouring
    cell is compared with the point's own answer); a form with a pole there is not equal."""
    if type(a) is not type(b):
        return False
    if a is INF or a is None or isinstance(a, (bool, int, str, flint.fmpq)):
        return a == b
    if isinstance(a, RatFun):
        return a == b or (ctx.poly_sign(a.den) != 0 and ctx.poly_sign(b.den) != 0 and ctx.cmp(a, b) == 0)
    if isinstance(a, LogOf):
        return a == b or (
            ctx.poly_sign(a.R.den) != 0
            and ctx.poly_sign(b.R.den) != 0
            and ctx.sign(a.R) > 0
            and cmp_log(a, b, ctx) == 0
        )
    if isinstance(a, PHull):
        if a == b:
            return True
        if not all(ctx.poly_sign(x.den) != 0 for h in (a, b) for e in h.edges for x in e):
            return False
        na, nb = normalise(a, ctx), normalise(b, ctx)
        return (
            len(na.edges) == len(nb.edges)
            and ctx.cmp(na.top, nb.top) == 0
            and all(ctx.cmp(r1, r2) == 0 and ctx.cmp(w1, w2) == 0 for (r1, w1), (r2, w2) in zip(na.edges, nb.edges))
        )
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same_value(x, y, ctx) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a):
        return all(same_value(getattr(a, f.name), getattr(b, f.name), ctx) for f in dataclasses.fields(a))
    return a == b


def value_text(v: Any, points: Sequence[Mapping[str, Any]] = ()) -> str:
    """A value for people: ``(E^2 - 2)/(E + 1)^2``, ``log(E)``, ``inf`` (``points``: one rational
    point of each connected cell where it is read, see :meth:`LogOf.text`)."""
    if v is INF:
        return "inf"
    if isinstance(v, RatFun):
        return factored_text(v)
    if isinstance(v, (LogOf, ExpAffine, MaxOf, RenyiSum)):
        return v.text(points)
    return str(v)
