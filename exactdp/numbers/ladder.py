r"""The ladder of exact number domains, stated once as a table, and the operations on exact
values written once over it.

:data:`LADDER` lists every rung: its domain (:mod:`exactdp.numbers.domains`), the kinds of value
it holds (registered by type: :func:`domain_of` is a table lookup) and the rungs its values lift
into.  An operation on two values looks up their domains, then tries, lowest first, the domains
that hold both (their *joins*, computed from the lifts); the first that holds both operands and
has an exact result gives the answer, in its canonical kind.  So ``log(3) + 1/10`` is computed
among the linear forms in logs, ``exp(1/10) + 1`` in the field ℚ(e^{1/L}), and ``log(3)``
against ``exp(1/10)`` is compared by certified intervals in ``RR``.  A value of no registered
kind is an :class:`~exactdp.numbers.element.UnregisteredKindError` (an ``ExactDPError``), never a
``TypeError``; a result with no exact form is an :class:`~exactdp.errors.InexactValueError`.

=====  ========================  ======================================  =================
rung   domain                    kinds                                   lifts into
=====  ========================  ======================================  =================
QQ     ℚ                         ``int``, ``Fraction``, ``mpq``          QT, LL, (SYM)
QT     ℚ(e^{1/L})                ``QtElement``                           EXP, LS, (SYM)
LL     s + Σ c·ln b              ``LogReal``, ``LogLinear``              LQT (integer
                                                                         coefficients),
                                                                         (SYM)
LQT    s + ln r, r ∈ ℚ(e^{1/L})  ``LogQt``                               LS
LS     s + Σ c·ln r, all in      ``LogSum``                              RR
       ℚ(e^{1/L})
EXP    r·e^s, a − b·r·e^s        ``ExpReal``, ``AffineInLambda``         RR, (SYM)
RR     mixed (intervals)         —                                       OO
OO     +∞                        ``Infinity`` (``INF``)                  —
SYM    ℚ(symbols)                SymPy's ``Basic``                       —
=====  ========================  ======================================  =================

(SYM): only to meet a value that is already symbolic — SymPy only where symbols are allowed.

Floats are not on the ladder: a float operand of an exact value gives a float (``log(3) + 0.5``),
and where an exact number is expected a float is taken as the exact binary fraction it is
(:func:`from_float`).

References
----------
SymPy's ``polys.domains`` (``Domain.unify``, ``Domain.convert``): the design this follows.
"""

from __future__ import annotations

import builtins
import math
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .. import limits as _limits
from ..errors import ArgumentError, InexactValueError
from .certified import arb_prec, ball_bounds
from .domains import EXP, LL, LQT, LS, OO, QQ, QT, RR, SYM, Domain, NoOperation
from .element import NotInDomain, UnregisteredKindError, install
from .expreal import AffineInLambda, ExpReal
from .grammar import latex as _grammar_latex
from .infinity import INF, Infinity
from .loglinear import LogLinear, LogReal
from .logqt import LogQt
from .logsum import LogSum
from .qt import QtElement
from .rational import Q, as_q, int_str, q_short

if TYPE_CHECKING:  # pragma: no cover - TypeIs is in typing from Python 3.13 on; only mypy needs it
    from typing_extensions import TypeIs

__all__ = [
    "Rung",
    "LADDER",
    "Domain",
    "QQ",
    "QT",
    "LL",
    "LQT",
    "LS",
    "EXP",
    "RR",
    "OO",
    "SYM",
    "register",
    "domain_of",
    "joins",
    "unify",
    "is_exact",
    "is_inf",
    "from_float",
    "add",
    "sub",
    "neg",
    "mul",
    "div",
    "power",
    "log",
    "exp",
    "cmp",
    "sign",
    "text",
    "short",
    "latex",
    "decimal",
    "bits",
    "check_size",
    "ball",
    "to_float",
    "floor",
    "round_to",
    "format",
    "to_sympy",
    "as_field",
    "affine_sign",
]

_MPQ = type(Q(0))


@dataclass(frozen=True)
class Rung:
    """One rung of the ladder: a domain, the kinds of value it holds and the rungs its values
    lift into.  ``lazy_kinds`` names (``module.QualName``) types of a package imported only on
    demand (SymPy); ``meets_only`` marks a rung reached only when an operand is already there."""

    domain: Domain
    kinds: tuple[type, ...]
    lifts: tuple[Domain, ...]
    lazy_kinds: tuple[str, ...] = ()
    meets_only: bool = False


LADDER: tuple[Rung, ...] = (
    Rung(QQ, (int, Fraction, _MPQ), lifts=(QT, LL, SYM)),
    Rung(QT, (QtElement,), lifts=(EXP, LS, SYM)),
    Rung(LL, (LogReal, LogLinear), lifts=(LQT, SYM)),
    Rung(LQT, (LogQt,), lifts=(LS,)),
    Rung(LS, (LogSum,), lifts=(RR,)),
    Rung(EXP, (ExpReal, AffineInLambda), lifts=(RR, SYM)),
    Rung(RR, (), lifts=(OO,)),
    Rung(OO, (Infinity,), lifts=()),
    Rung(SYM, (), lifts=(), lazy_kinds=("sympy.core.basic.Basic",), meets_only=True),
)
"""The ladder, lowest rung first (see the module docstring): SymPy only where symbols are, i.e.
the values of QQ, QT, LL and EXP lift into SYM only to meet a value already symbolic."""

_BY_TYPE: dict[type, Domain] = {}
_BY_NAME: dict[str, Domain] = {}
_NOT_NUMBERS: dict[type, str] = {
    bool: "a truth value (true/false) is not a number",
    float: "a float is binary and usually already rounded: write the number as text, e.g. '0.1'",
    str: "text is read by exactdp's number grammar first (exactdp.exact('log(3)'))",
}


def register(kind: type | str, domain: Domain) -> None:
    """Register a kind of value (a type, or the ``module.QualName`` of one not imported yet)
    with its domain."""
    if isinstance(kind, str):
        _BY_NAME[kind] = domain
    else:
        _BY_TYPE[kind] = domain


for _rung in LADDER:
    for _kind in _rung.kinds:
        register(_kind, _rung.domain)
    for _name in _rung.lazy_kinds:
        register(_name, _rung.domain)


def domain_of(x: object) -> Domain:
    """The domain of ``x``'s kind (a table lookup; a subclass of a registered type is looked
    up once through its bases).  Raises :class:`UnregisteredKindError` for anything else."""
    d = _BY_TYPE.get(type(x))
    if d is not None:
        return d
    return _resolve(type(x), x)


def _resolve(t: type, x: object) -> Domain:
    for base in t.__mro__:
        if base in _NOT_NUMBERS:
            break
        d = _BY_TYPE.get(base) or _BY_NAME.get(f"{base.__module__}.{base.__qualname__}")
        if d is not None:
            _BY_TYPE[t] = d
            return d
    why = next((w for b, w in _NOT_NUMBERS.items() if isinstance(x, b)), None)
    try:
        shown = q_short(repr(x), 30)
    except ValueError:  # a repr with an int too long for str()
        shown = "a value"
    raise UnregisteredKindError(f"not an exact number: {shown} ({type(x).__name__})" + (f"; {why}" if why else ""))


def is_exact(x: object) -> bool:
    """Whether ``x`` is a value of some rung of the ladder."""
    try:
        domain_of(x)
    except UnregisteredKindError:
        return False
    return True


def is_inf(x: object) -> TypeIs[Infinity]:
    """Whether ``x`` is +∞, the top of the ladder (narrows ``x`` for type checkers)."""
    return x is INF


def _upper(d: Domain) -> list[Domain]:
    """d and every domain its values lift into, transitively."""
    rungs = {r.domain: r for r in LADDER}
    out, todo = [d], [d]
    while todo:
        for up in rungs[todo.pop()].lifts:
            if up not in out:
                out.append(up)
                todo.append(up)
    return out


def _joins_table() -> dict[tuple[Domain, Domain], tuple[Domain, ...]]:
    """For each pair of rungs, the rungs their values both lift into, lowest first; a rung
    marked ``meets_only`` only when one of the two is that rung."""
    order = [r.domain for r in LADDER]
    only = {r.domain for r in LADDER if r.meets_only}
    up = {d: set(_upper(d)) for d in order}
    return {
        (a, b): tuple(d for d in order if d in up[a] and d in up[b] and (d not in only or d in (a, b)))
        for a in order
        for b in order
    }


_JOINS = _joins_table()


def joins(a: Domain, b: Domain) -> tuple[Domain, ...]:
    """The domains holding values of both ``a`` and ``b``, lowest first."""
    return _JOINS[a, b]


def unify(*xs: Any) -> Domain:
    """The lowest domain holding every one of ``xs`` (``QQ`` for none)."""
    d: Domain = QQ
    for x in xs:
        options = joins(d, domain_of(x))
        if not options:
            raise InexactValueError(f"{short(x)} cannot meet the other values in one exact domain")
        d = options[0]
    return d


def from_float(x: float) -> Any:
    """The exact value of a float: its binary fraction (``0.1`` is 3602879701896397/2^55),
    ``INF`` for ``math.inf``; NaN and ``-math.inf`` are refused (:class:`ArgumentError`, a ValueError)."""
    if math.isnan(x) or x == -math.inf:
        raise ArgumentError(f"{x!r} is not a number exactdp can use")
    if x == math.inf:
        return INF
    n, d = x.as_integer_ratio()
    return Q(n, d)


# --- arithmetic -----------------------------------------------------------------------------


_SYMBOL = {"add": "+", "mul": "*", "cmp": "compared with"}


def _binary(op: str, a: Any, b: Any, shown: tuple[Any, str, Any] | None = None) -> Any:
    """``op`` on two values in the lowest domain that holds both and has an exact result; else
    the first domain's reason, or a refusal naming both values (as ``shown``, if given)."""
    da, db = domain_of(a), domain_of(b)
    first: InexactValueError | None = None
    for d in _JOINS[da, db]:
        try:
            x, y = d.hold(a, da), d.hold(b, db)
        except NotInDomain:
            continue
        try:
            return getattr(d, op)(x, y)
        except NoOperation:
            continue
        except InexactValueError as e:
            first = first or e
    x, symbol, y = shown or (a, _SYMBOL[op], b)
    raise first or InexactValueError(
        f"({short(x)}) {symbol} ({short(y)}) has no exact representation in exactdp's number types"
    )


def _rational_pair(a: Any, b: Any) -> bool:
    return type(a) is _MPQ and type(b) is _MPQ


def add(a: Any, b: Any) -> Any:
    """a + b, exactly (:class:`~exactdp.errors.InexactValueError` when it has no exact form)."""
    if _rational_pair(a, b):
        return a + b
    return _binary("add", a, b)


def neg(a: Any) -> Any:
    """−a, exactly."""
    return domain_of(a).neg(a)


def sub(a: Any, b: Any) -> Any:
    """a − b, exactly."""
    if _rational_pair(a, b):
        return a - b
    return _binary("add", a, neg(b), shown=(a, "-", b))


def mul(a: Any, b: Any) -> Any:
    """a · b, exactly."""
    if _rational_pair(a, b):
        return a * b
    return _binary("mul", a, b)


def div(a: Any, b: Any) -> Any:
    """a / b, exactly; division by zero is an :class:`~exactdp.errors.InexactValueError`."""
    db = domain_of(b)
    if db is QQ and b == 0:
        raise InexactValueError(f"division by zero: {short(a)} / 0")
    return mul(a, db.inv(b))


def power(a: Any, e: Any) -> Any:
    """a^e for a rational exponent e, exactly: within ``max_exponent`` and ``max_bits``, and
    only when the result is exact (``2^(1/2)`` is refused)."""
    if domain_of(e) is not QQ:
        raise InexactValueError(f"({short(a)})^({short(e)}) has no exact representation in exactdp's number types")
    return domain_of(a).power(a, as_q(e))


def log(a: Any) -> Any:
    """ln a, exactly: ``log(3)`` stays symbolic; ``log(exp(x)) = x``; ln ∞ = ∞."""
    return domain_of(a).log(a)


def exp(a: Any) -> Any:
    """e^a, exactly: ``exp(log(r)) = r``; ``exp(1/10)`` is kept as r·e^s; e^∞ = ∞."""
    return domain_of(a).exp(a)


# --- order ----------------------------------------------------------------------------------


def cmp(a: Any, b: Any) -> int:
    """−1, 0, +1 as a <, =, > b; exact, certified by intervals when the values share no exact
    domain (within ``--max-precision``)."""
    if _rational_pair(a, b):
        return (a > b) - (a < b)
    return _binary("cmp", a, b)


def sign(a: Any) -> int:
    """The sign of a, exactly (certified for transcendental values)."""
    if type(a) is _MPQ:
        return (a > 0) - (a < 0)
    return domain_of(a).sign(a)


def affine_sign(a: Any, b: Any, lam: Any) -> int:
    """The sign of a − b·λ, exactly (a profile line at λ = e^ε, Vadhan–Wang 2021, Def. 1.7)."""
    if _rational_pair(a, b) and type(lam) is _MPQ:
        v = a - b * lam
        return (v > 0) - (v < 0)
    return sign(sub(a, mul(b, lam)))


# --- text and size --------------------------------------------------------------------------


def text(a: Any) -> str:
    """The exact text of a value, in the number grammar: ``1/3``, ``log(23/9)``,
    ``1/10 + log(2)``, ``3*exp(1/10)``, ``inf`` — however long."""
    return domain_of(a).text(a)


_DIGIT_RUN = re.compile(r"[0-9]{41,}")


def short(a: Any, digits: int = 20) -> str:
    """A value for a message: its exact text when short, else with every long run of digits
    cut to its first and last digits and its length (``1234…89 (4771 digits)``).  Messages
    use this, so that no huge number is ever printed whole (nor reaches ``str()`` of an int)."""
    if domain_of(a) is QQ:
        return q_short(a, digits)
    t = text(a)
    if len(t) <= 4 * digits:
        return t
    t = _DIGIT_RUN.sub(lambda m: f"{m.group(0)[:digits]}…{m.group(0)[-digits // 2 :]} ({len(m.group(0))} digits)", t)
    return t if len(t) <= 12 * digits else t[: 6 * digits] + f"… ({len(t)} characters)"


def latex(a: Any) -> str:
    """The value in LaTeX (``\\log\\left(3\\right)``, ``\\frac{1}{3}``, ``\\infty``)."""
    d = domain_of(a)
    if d is SYM:
        import sympy  # only for a value that is already symbolic

        return sympy.latex(a)
    return _grammar_latex(d.text(a))


def decimal(a: Any, digits: int = 6) -> str:
    """A decimal reading with ``digits`` significant digits (display only; no verdict uses it)."""
    return domain_of(a).decimal(a, digits)


def bits(a: Any) -> int:
    """The size of a value in bits (its largest numerator, denominator or coefficient)."""
    if type(a) is _MPQ:  # the common case first: engines call this at every node
        return max(a.numerator.bit_length(), a.denominator.bit_length())  # type: ignore[attr-defined]
    return domain_of(a).bits(a)


def check_size(a: Any, what: str = "a number") -> Any:
    """``a`` itself when its size is within ``max_bits`` (:func:`exactdp.limits.check_bits`)."""
    _limits.check_bits(bits(a), what)
    return a


def ball(a: Any, prec: int) -> Any:
    """An Arb ball containing the finite value ``a`` at ``prec`` bits."""
    with arb_prec(prec):
        return domain_of(a).ball(a, prec)


def _narrow(a: Any, fits: Callable[[Fraction, Fraction], bool], *, strict: bool = True) -> tuple[Fraction, Fraction]:
    """Rational bounds (lo, hi) of ``a`` refined until ``fits(lo, hi)``; at the precision limit,
    the limit's error (``strict``) or the bounds found."""
    d = domain_of(a)
    cap = max(_limits.current().max_precision, 64)
    prec = 64
    while True:
        with arb_prec(prec):
            lo, hi = ball_bounds(d.ball(a, prec))
        if fits(lo, hi):
            return lo, hi
        if prec >= cap:
            if strict:
                raise _limits.precision_limit_error(f"{short(a)} (to print it)")
            return lo, hi
        prec = min(2 * prec, cap)


def to_float(a: Any) -> float:
    """The double nearest the value (display only)."""
    d = domain_of(a)
    if d is OO:
        return math.inf
    if d is QQ:
        return _float(Fraction(a))  # correctly rounded; beyond the doubles, +-inf
    lo, hi = _narrow(a, lambda lo, hi: _float(lo) == _float(hi), strict=False)
    return _float((lo + hi) / 2)


def _float(f: Fraction) -> float:
    try:
        return float(f)
    except OverflowError:
        return math.inf if f > 0 else -math.inf


def floor(a: Any, scale: Any = 1) -> int:
    """The largest integer m with m/scale ≤ a, exactly (``scale`` a positive rational)."""
    d = domain_of(a)
    if d is OO:
        raise OverflowError("cannot convert inf to an integer")
    if d is QQ:
        return math.floor(Fraction(a) * Fraction(scale))
    fs = Fraction(scale)
    lo, _ = _narrow(a, lambda lo, hi: (hi - lo) * fs < 1)
    m = math.floor(lo * fs)
    while cmp(a, Q(m) / as_q(fs)) < 0:
        m -= 1
    while cmp(a, Q(m + 1) / as_q(fs)) >= 0:
        m += 1
    return m


def round_to(a: Any, ndigits: int | None) -> Any:
    """``round(a, ndigits)``: the nearest integer (``ndigits`` None) or the nearest multiple of
    10^-ndigits as an exact rational, ties to even, decided exactly."""
    if domain_of(a) is OO:
        if ndigits is None:
            raise OverflowError("cannot convert inf to an integer")
        return a
    nd = 0 if ndigits is None else int(ndigits)
    scale = Q(10**nd) if nd >= 0 else Q(1, 10**-nd)
    m = floor(a, scale)
    c = cmp(a, Q(2 * m + 1) / (2 * scale))
    if c > 0 or (c == 0 and m % 2):
        m += 1
    return m if ndigits is None else Q(m) / scale


_SPEC = re.compile(
    r"^(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ]?)(?P<z>z?)(?P<alt>#?)(?P<zero>0?)(?P<width>[0-9]*)"
    r"(?P<grouping>[,_]?)(?:\.(?P<prec>[0-9]+))?(?P<type>[eEfFgGn%]?)$",
    re.DOTALL,
)


def format(a: Any, spec: str) -> str:
    """``format(a, spec)`` for any float format spec, with the exact value's own digits,
    correctly rounded (half to even, decided exactly), laid out as for a float: the precision
    defaults to 6, ``g`` drops trailing zeros, exponents have two digits.  A spec with no
    precision and no type (only a width or an alignment) formats the exact text, as ``str``."""
    if domain_of(a) is OO:
        return builtins.format(math.inf, spec)
    m = _SPEC.match(spec)
    if m is None or (not m.group("type") and m.group("prec") is None):
        return builtins.format(text(a), spec)  # not a float spec (a ValueError names a bad one)
    kind = m.group("type") or "g"
    prec = int(m.group("prec") or 6)
    grouping = m.group("grouping") and ","  # Decimal knows ",", not "_": swapped below
    core = f"{m.group('sign')}{m.group('z')}{grouping}.{prec}{kind}"
    out = _float_style(builtins.format(_rounded(a, kind, prec), core), kind, bool(m.group("alt")))
    if m.group("grouping") == "_":
        out = out.replace(",", "_")
    return _pad(out, m)


def _rounded(a: Any, kind: str, prec: int) -> Decimal:
    """``a`` rounded exactly as the format type asks (``prec`` decimals for f and %, ``prec``
    significant digits for g, ``prec`` + 1 for e), as the Decimal of that finite decimal."""
    if kind in "fF%":
        nd = prec + (2 if kind == "%" else 0)
    elif sign(a) == 0:
        return Decimal(0)
    else:
        digits = prec + 1 if kind in "eE" else max(prec, 1)
        nd = digits - 1 - _exponent10(a)
    r = Fraction(round_to(a, nd))  # a multiple of 10^-nd
    k = max(nd, 0)
    return Decimal(f"{int_str(r.numerator * 10**k // r.denominator)}E-{k}")


def _exponent10(a: Any) -> int:
    """e with 10^e ≤ |a| < 10^(e+1), exactly (a ≠ 0)."""
    x = a if sign(a) > 0 else neg(a)
    lo, _ = _narrow(x, lambda lo, hi: lo > 0 and hi < 2 * lo)
    e = math.floor(math.log10(lo.numerator) - math.log10(lo.denominator))
    while cmp(x, _ten(e)) < 0:
        e -= 1
    while cmp(x, _ten(e + 1)) >= 0:
        e += 1
    return e


def _ten(e: int) -> Any:
    return Q(10**e) if e >= 0 else Q(1, 10**-e)


def _float_style(out: str, kind: str, alt: bool) -> str:
    """Decimal's layout as float's: ``g`` without ``#`` drops trailing zeros, exponents get two digits."""
    parts = re.split(r"([eE])", out, maxsplit=1)
    mantissa, e, exponent = parts if len(parts) == 3 else (out, "", "")
    if kind in "gGn" and not alt and "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    if e:
        exponent = exponent[0] + exponent[1:].rjust(2, "0")
    return mantissa + e + exponent


def _pad(out: str, m: re.Match) -> str:
    """The width, fill and alignment of the spec applied to the formatted number."""
    width = int(m.group("width") or 0)
    if len(out) >= width:
        return out
    if m.group("zero") and not m.group("align"):  # sign-aware zero padding
        sign = out[0] if out[0] in "+- " else ""
        return sign + out[len(sign) :].rjust(width - len(sign), "0")
    fill, align = m.group("fill") or " ", m.group("align") or ">"
    if align == "=":
        sign = out[0] if out[0] in "+- " else ""
        return sign + out[len(sign) :].rjust(width - len(sign), fill)
    return builtins.format(out, f"{fill}{align}{width}")


def to_sympy(a: Any) -> Any:
    """The value as a SymPy expression (exact: rationals, ``log``, ``exp``); ∞ is refused."""
    return domain_of(a).to_sympy(a)


def as_field(a: Any) -> Any:
    """``a`` as an element of ℚ(e^{1/L}): a rational as ``Q``, a field element as it is, r·e^s
    lowered into the field; :class:`~exactdp.errors.InexactValueError` when it is no field value
    or would need a field beyond the degree limit."""
    d = domain_of(a)
    if d is QQ:
        return as_q(a)
    if d is QT:
        return a
    if d is EXP:
        return EXP.to_field(EXP.hold(a, EXP))  # the error names the field-degree limit
    raise InexactValueError(f"{short(a)} is not an element of Q(exp(1/L))")


install(sys.modules[__name__])  # the number protocol of every kind is answered here
