"""The differential-privacy quantities, checked in one place with one wording.

Every ε, δ, probability, count and e^ε that exactdp accepts — from a case file, the command
line or the Python API — passes through these functions, so each kind of mistake is reported
the same way everywhere.  They take a value the expression grammar already produced (an exact
rational, ``log(r)``, an element of ℚ(e^{1/L}), ``inf``, or a SymPy expression in declared
symbols) and return it in its canonical form, or raise :class:`QuantityError` with a message
and a hint; callers add the place (a YAML path, an option name).

Symbolic values (``symbols:`` in a case) are accepted only where ``symbols`` is given; their
bounds are then *proved* for every value the declared bounds allow
(:func:`~exactdp.numbers.symbolic.prove_nonneg`), never sampled.

References
----------
Vadhan & Wang (2021), Def. 1.7 ((ε, δ)-DP: ε ≥ 0, δ ∈ [0, 1]); Def. 1.9 (RR with e^ε).
"""

from __future__ import annotations

from typing import Any

from .. import limits as _limits
from ..errors import ExactDPError, InexactValueError
from . import ladder
from .element import UnregisteredKindError
from .expr import ExprError, eval_text
from .ladder import EXP, LL, LQT, LS, OO, QQ, QT, SYM
from .loglinear import LogLinear, power_bits
from .rational import as_q, to_fraction
from .symball import constant_bounds, is_transcendental, unsupported
from .symbolic import SymbolTable, check_sym_degree, expr_str, is_sym, prove_nonneg, sympy, to_sympy

__all__ = [
    "QuantityError",
    "eps",
    "privloss_value",
    "delta",
    "probability",
    "rational",
    "count",
    "exp_eps",
    "exp_eps_value",
    "order",
    "divergence",
    "EPS_HINT",
]

EPS_HINT = "eps is the exponent: write eps: log(3) for e^eps = 3, or a decimal such as 0.1"
LOG_DELTA_HINT = (
    "a delta such as log(3)/2 is accepted by the claims dp, not_dp and delta, which compare it with the "
    "profile exactly; elsewhere delta is a fraction such as 1/4"
)


class QuantityError(ExactDPError):
    """A value of the wrong kind or out of range; ``hint`` says what to write instead."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint

    def text(self) -> str:
        """The message and its hint in one line, ``message (hint)``, for callers that have no
        separate place for the hint (the Python API's exceptions)."""
        return self.message + (f" ({self.hint})" if self.hint else "")


def _symbolic(v: Any, what: str, symbols: SymbolTable | None, lo: Any = None, hi: Any = None) -> Any:
    """A value in declared symbols, with ``lo <= v <= hi`` proved on the whole declared domain."""
    names = ", ".join(sorted(s.name for s in v.free_symbols))
    if symbols is None:
        raise QuantityError(
            f"{what} depends on the symbols {names}, which is not supported here",
            "symbols may appear in mechanism probabilities, the parameters of the forms listed in "
            "docs/parametric.md (What is decided), and the values of claims",
        )
    const = next((a for a in v.atoms(sympy.exp, sympy.Float, sympy.NumberSymbol) if a.is_number), None)
    if const is not None:  # (no sign proof over the symbols' bounds sees through e^(1/10))
        raise QuantityError(
            f"{what} = {expr_str(v)} mixes the symbols with the constant {expr_str(const)}, which is not supported",
            "a value with symbols is built from them and rationals (and logarithms); for e^eps with a decimal "
            "part, declare a symbol for e^eps itself (E with eps: log(E)) and bound it",
        )
    if lo is not None or hi is not None:  # (a sign proof costs with the degree: bounded before it runs)
        check_sym_degree(v, what)
    for bound, expr, rel in ((lo, lambda: v - to_sympy(lo), ">="), (hi, lambda: to_sympy(hi) - v, "<=")):
        if bound is not None and not prove_nonneg(expr(), symbols):
            raise QuantityError(
                f"could not prove {what} {rel} {ladder.short(bound)} for every value the bounds allow ({symbols.describe()})",
                "tighten the bounds under `symbols:` so that this follows from them",
            )
    return v


_RATIONAL_HINTS = {
    LL: "log(...) is an eps-type value; probabilities and delta are plain fractions such as 1/4",
    LQT: "log(...) is an eps-type value; probabilities and delta are plain fractions such as 1/4",
    EXP: "exp of a rational is transcendental; use exp(log(r)) or a fraction",
    QT: "exp of a rational is transcendental; use exp(log(r)) or a fraction",
    OO: "inf is only allowed as a claimed privacy loss",
}


def _is_sym(v: Any) -> bool:
    return ladder.is_exact(v) and ladder.domain_of(v) is SYM


def _text(v: Any) -> str:
    """A value for a message (short, whatever its size); a value of no kind as Python shows it."""
    return ladder.short(v) if ladder.is_exact(v) else repr(v)[:60]


def rational(
    v: Any,
    *,
    what: str,
    lo: Any = None,
    hi: Any = None,
    positive: bool = False,
    symbols: SymbolTable | None = None,
    transcendental: bool = False,
) -> Any:
    """An exact rational with optional bounds ``lo <= v <= hi`` (and ``v > 0`` if ``positive``).

    With ``transcendental``, an exact real that no rational holds — ``log(2)^2/2``, ``log(E)^2/2``
    — is accepted too, as its exact SymPy expression (:func:`_real`)."""
    d = _domain(v, what)
    shown = _text(v)
    if transcendental and d not in (QQ, SYM, OO):
        v, d = to_sympy(v), SYM
    if transcendental and d is SYM and is_transcendental(v):
        return _real(v, shown, what, symbols, lo, hi, positive)
    if d is SYM:
        if symbols is not None and not v.is_rational_function(*symbols.symbols.values()):
            raise QuantityError(
                f"{what} must be a rational number or a rational function of the symbols, found {expr_str(v)}",
                "log(...) or exp(...) of a symbol has no exact comparison here (docs/parametric.md)",
            )
        return _symbolic(v, what, symbols, lo, hi)
    if d is not QQ:
        raise QuantityError(f"{what} must be an exact rational, found {_text(v)}", _RATIONAL_HINTS.get(d))
    v = as_q(v)
    if lo is not None and v < lo:
        raise QuantityError(f"{what} must be at least {ladder.short(lo)}, found {ladder.short(v)}")
    if hi is not None and v > hi:
        raise QuantityError(f"{what} must be at most {ladder.short(hi)}, found {ladder.short(v)}")
    if positive and v <= 0:
        raise QuantityError(f"{what} must be positive, found {ladder.short(v)}")
    return v


def _real(v: Any, shown: str, what: str, symbols: SymbolTable | None, lo: Any, hi: Any, positive: bool) -> Any:
    """An exact real written with log and exp (:mod:`exactdp.numbers.symball`).  A constant's
    bounds are certified here by enclosures; with symbols, the deciders certify them on each box
    of the symbol they examine (a box where they are not proved proves nothing)."""
    why = unsupported(v)
    if why is not None:
        raise QuantityError(f"{what} = {shown}: {why}", "use +, -, *, /, whole powers, log and exp")
    if v.free_symbols:
        if symbols is None:
            return _symbolic(v, what, symbols)
        return v
    try:
        low, high = constant_bounds(v)
    except ValueError:
        raise QuantityError(f"{what} = {shown} is not a bounded real number") from None
    checks = [(lo, lambda b: low >= b, lambda b: high < b, "at least")]
    checks += [(hi, lambda b: high <= b, lambda b: low > b, "at most")]
    checks += [(0, lambda b: low > b, lambda b: high <= b, "greater than")] if positive else []
    for bound, proved, refuted, rel in checks:
        if bound is None or proved(to_fraction(bound)):
            continue
        if refuted(to_fraction(bound)):
            raise QuantityError(f"{what} must be {rel} {ladder.short(bound)}, found {shown}")
        raise QuantityError(f"could not prove {what} = {shown} {rel} {ladder.short(bound)} (certified enclosures)")
    return v


def _domain(v: Any, what: str) -> Any:
    """The ladder's domain of ``v``; a value of no kind is a QuantityError naming ``what``."""
    try:
        return ladder.domain_of(v)
    except UnregisteredKindError as e:
        raise QuantityError(f"{what}: {e}") from None


def _unit(v: Any, what: str, symbols: SymbolTable | None) -> Any:
    """An exact rational in [0, 1], with one wording for the range."""
    if _is_sym(v):
        return _symbolic(v, what, symbols, 0, 1)
    v = rational(v, what=what, symbols=symbols)
    if not 0 <= v <= 1:
        raise QuantityError(f"{what} must lie in [0, 1], found {ladder.short(v)}")
    return v


_FIELD = (QT, EXP)
"""The domains whose values are elements of ℚ(e^{1/L}): the field itself, and r·e^s (and
a − b·r·e^s) with a rational s, which :func:`ladder.as_field` lowers into it (``exp(-1/2)`` is
read as r·e^s)."""


def _field_unit(v: Any, what: str, hint: str) -> Any:
    """An element of ℚ(e^{1/L}) in [0, 1]: lowered into the field (equality there is exact) and
    its range decided by certified sign evaluation (a field element that is not rational is
    transcendental, so it is never equal to 0 or 1 and the refinement ends)."""
    try:
        v = ladder.as_field(v)
    except InexactValueError as e:
        raise QuantityError(f"{what} = {_text(v)}: {e}", hint) from None
    if ladder.cmp(v, 0) < 0 or ladder.cmp(v, 1) > 0:
        raise QuantityError(f"{what} must lie in [0, 1], found {_text(v)} ≈ {ladder.decimal(v)}")
    return v


def probability(v: Any, *, what: str = "a probability", symbols: SymbolTable | None = None, field: bool = False) -> Any:
    """A probability: an exact rational in [0, 1]; with ``field``, also an element of
    ℚ(e^{1/L}) such as ``exp(-1/2)/(1 + 2*exp(-1/2))`` or ``1 - exp(-0.3)`` (a probability of a
    mechanism written with e^ε for a decimal ε), its range decided exactly."""
    d = _domain(v, what)
    if field and d in _FIELD:
        return _field_unit(v, what, "write the exponents with fewer decimal digits")
    try:
        return _unit(v, what, symbols)
    except QuantityError as e:
        if not field and d in _FIELD:
            raise QuantityError(e.message, "a probability in the field Q(e^(1/L)) is not accepted here") from None
        if field and d in (LL, LQT, LS):
            raise QuantityError(
                f"{what} must be an element of Q(e^(1/L)) (rationals and exp of rationals, with + - * /), "
                f"found {_text(v)}",
                "log(...) makes a probability transcendental in a way exactdp cannot keep exact; write e^eps "
                "as exp(eps), e.g. exp(0.5)/(1 + exp(0.5))",
            ) from None
        raise


def delta(
    v: Any, *, what: str = "delta", symbols: SymbolTable | None = None, field: bool = False, logs: bool = False
) -> Any:
    """δ of (ε, δ)-DP, a number in [0, 1] (Vadhan–Wang Def. 1.7): an exact rational; with
    ``field``, also an element of ℚ(e^{1/L}) such as ``1 - exp(0.4)/2``; with ``logs``, also a
    linear form in logarithms such as ``log(3)/2``.  The range is checked exactly.

    δ bounds a probability, so any real in [0, 1] is meaningful; an irrational δ is accepted
    where exactdp only *compares* it with the profile's values (δ_M(e^ε) ≤ δ, exact in the
    common domain or certified), i.e. by the claims ``dp``, ``not_dp`` and ``delta``
    (``field`` and ``logs``).  ``privloss`` takes a field δ (its least λ with δ_M(λ) ≤ δ is a
    field element) but not a logarithmic one: that λ would be a linear form in logarithms, and
    PrivLoss = ln λ would have no exact form."""
    d = _domain(v, what)
    if field and d in _FIELD:
        return _field_unit(v, what, "write it with fewer decimal digits in the exponents")
    if logs and d is LL:
        if ladder.cmp(v, 0) < 0 or ladder.cmp(v, 1) > 0:
            raise QuantityError(f"{what} must lie in [0, 1], found {_text(v)}")
        return v
    try:
        return _unit(v, what, symbols)
    except QuantityError as e:
        if d in _FIELD and not field:
            raise QuantityError(
                e.message,
                "a delta in the field Q(e^(1/L)) is accepted only by the claims delta, privloss, dp and not_dp",
            ) from None
        if d is LL:
            raise QuantityError(e.message, LOG_DELTA_HINT) from None
        raise


def count(v: Any, *, what: str, lo: int = 0, hi: int | None = None) -> int:
    """A whole number in [lo, hi]."""
    d = _domain(v, what)
    if d is SYM:
        _symbolic(v, what, None)
    if d is not QQ or as_q(v).denominator != 1:
        raise QuantityError(f"{what} must be a whole number, found {_text(v)}")
    if v < lo or (hi is not None and v > hi):
        rng = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
        raise QuantityError(f"{what} must be {rng}, found {ladder.short(v)}")
    return int(as_q(v))


_INF_HINT = (
    "inf is only allowed as a claimed privacy loss; a mechanism with eps = inf adds no noise: write it "
    "with respond: and probabilities 1 and 0"
)


def eps(
    v: Any,
    *,
    what: str = "eps",
    allow_inf: bool = False,
    positive: bool = False,
    negative: bool = False,
    symbols: SymbolTable | None = None,
) -> Any:
    """ε ≥ 0 (ε > 0 if ``positive``; with ``negative`` any real ε, such as ``log(1/2)`` or ``-0.1``,
    where δ(e^ε) is asked for: the hockey-stick divergence is defined for every e^ε > 0): a rational
    (``1/10``), ``log(r)``, a sum of both, or — only where ``allow_inf`` — ``inf``; with ``symbols``,
    also an expression such as ``log(E)``, whose e^ε ≥ 1 (or ε ≥ 0) is proved from the declared
    bounds."""
    d = _domain(v, what)
    if d is SYM:
        mixed = _mixed_log(v, symbols)
        if mixed is not None:  # q + sum c*log(X) with q != 0: e^eps = e^q * (a rational function)
            return _mixed_nonneg(v, mixed, what, symbols)
        lam = sympy.exp(v)
        if lam.is_rational_function(*lam.free_symbols):  # eps = log(E): prove E >= 1 instead
            _symbolic(lam, f"e^{what}", symbols, lo=1)
            return v
        return _symbolic(v, what, symbols, lo=0)
    if d is OO:
        if allow_inf:
            return v
        raise QuantityError(f"{what} = inf is not allowed here", _INF_HINT)
    if d is LL and isinstance(v, LogLinear) and allow_inf:  # a claimed loss such as log(61/9)/2: compared exactly
        return _nonnegative(v, what, positive)
    if not (d in (QQ, LQT) or (d is LL and not isinstance(v, LogLinear))):  # s + log(r): e^eps is exact
        hint = EPS_HINT
        if d is LL and (size := _rational_exp_bits(v)) is not None:  # e^eps = r^k, kept as a form for its size
            raise QuantityError(
                f"{what} = {_text(v)}: e^{what} is a rational number of up to {size} bits, more than "
                f"--max-bits = {_limits.current().max_bits} allows (the limit on the size of one exact number)",
                "raise it with --max-bits N, or give a smaller value",
            )
        if d is LL:
            hint = f"e^eps = exp({_text(v)}) is irrational here; write eps as log(r) with a rational r, or a decimal"
        raise QuantityError(f"{what} must be a real number such as log(3) or 1/10, found {_text(v)}", hint)
    v = v if negative else _nonnegative(v, what, positive)
    return as_q(v) if d is QQ else v


def _rational_exp_bits(v: Any) -> int | None:
    """Bits of r for a form s + sum c ln b with integer coefficients over its coprime basis and s = 0
    (e^v = r is rational, but too large to hold), else None (e^v is irrational)."""
    if not isinstance(v, LogLinear) or v.s != 0 or any(to_fraction(c).denominator != 1 for _, c in v.terms):
        return None
    return power_bits(v)


def _mixed_log(v: Any, symbols: SymbolTable | None) -> tuple[Any, list[tuple[Any, Any]]] | None:
    """``v`` = q + Σ c·log(X) with a rational q ≠ 0, rational c and rational functions X of the
    declared symbols, as (q, [(c, X)]); None for any other value.  Such a value is compared with
    a function of the symbols by certified enclosures of e^q (docs/parametric.md)."""
    if symbols is None:
        return None
    q, logs = sympy.Integer(0), []
    for t in sympy.Add.make_args(sympy.expand(v)):
        c, rest = t.as_coeff_Mul()
        if rest == 1 and c.is_Rational:
            q += c
        elif isinstance(rest, sympy.log) and rest.args[0].is_rational_function(*symbols.symbols.values()):
            logs.append((c, rest.args[0]))
        else:
            return None
    return (q, logs) if q != 0 and logs else None


def _mixed_nonneg(v: Any, mixed: tuple[Any, list[tuple[Any, Any]]], what: str, symbols: SymbolTable | None) -> Any:
    """``v`` = q + Σ c·log(X) ≥ 0, proved when q > 0 and every c·log(X) ≥ 0 (X ≥ 1 for c > 0,
    X ≤ 1 for c < 0, each proved from the declared bounds)."""
    assert symbols is not None
    q, logs = mixed
    ok = q > 0 and all(prove_nonneg((X - 1) if c > 0 else (1 - X), symbols) for c, X in logs)
    if not ok:
        raise QuantityError(
            f"could not prove {what} = {_text(v)} >= 0 for every value the bounds allow ({symbols.describe()})",
            "a value q + c*log(X) is proved >= 0 when q > 0 and each c*log(X) >= 0 follows from the bounds",
        )
    return v


def _nonnegative(v: Any, what: str, positive: bool) -> Any:
    sign = ladder.sign(v)
    if sign < 0 or (positive and sign == 0):
        raise QuantityError(f"{what} must be {'positive' if positive else '>= 0'}, found {_text(v)}")
    return v


def privloss_value(v: Any, *, what: str = "a privacy loss") -> Any:
    """A claimed PrivLoss: an ε ≥ 0 or ``inf``."""
    return eps(v, what=what, allow_inf=True)


def order(v: Any, *, what: str = "alpha", fractional: bool = False) -> Any:
    """A Rényi order α: a whole number >= 1 (1 is the KL divergence) or ``inf`` (Mironov 2017,
    Def. 3); with ``fractional``, also any rational α > 1 such as ``3/2`` or ``2.5`` (returned as
    a :class:`fractions.Fraction`: its divergence is transcendental in general and is decided by
    certified enclosures).  Elsewhere fractional orders are refused."""
    d = _domain(v, what)
    if d is OO:
        return v
    if d is not QQ:
        wanted = "a rational number >= 1 (such as 2 or 3/2)" if fractional else "a whole number >= 1"
        raise QuantityError(f"{what} must be {wanted} or inf, found {_text(v)}", "for example alpha: 2")
    q = as_q(v)
    if fractional and q.denominator != 1:
        if q <= 1:
            raise QuantityError(
                f"{what} = {ladder.short(q)}: a fractional Renyi order must be > 1",
                "for example alpha: 3/2 or alpha: 2.5",
            )
        return to_fraction(q)
    if q.denominator != 1 or q < 1:
        raise QuantityError(
            f"{what} = {ladder.short(q)} is not supported: Renyi divergences are computed exactly for whole orders "
            "alpha >= 1 (1 is KL) and alpha = inf; the sum for a fractional order is irrational",
            "for example alpha: 2, alpha: 3 or alpha: inf",
        )
    return int(q)


def divergence(v: Any, *, what: str = "a Renyi divergence", symbols: SymbolTable | None = None) -> Any:
    """A claimed divergence: any exact real such as ``log(7/3)``, ``log(61/9)/2``,
    ``k*log(3)/5``, a rational, or ``inf``; with ``symbols``, also a rational multiple of the
    log of a rational function of them, such as ``log(E^2 - E + 1)``."""
    if is_sym(v) and symbols is not None:
        return _symbolic_log(v, what, symbols)
    d = _domain(v, what)
    if d not in (QQ, LL, LQT, LS, OO):  # (LQT, LS: logs of numbers of Q(e^(1/L)), as a decimal eps gives)
        raise QuantityError(
            f"{what} is written like log(7/3), log(61/9)/2, log(exp(1) + 1) or inf, found {_text(v)}",
            "D_alpha = log(sum)/(alpha - 1); write the sum's log divided by alpha - 1",
        )
    return as_q(v) if d is QQ else v


def _symbolic_log(v: Any, what: str, symbols: SymbolTable) -> Any:
    """A value q + Σ c·log(X) with rational q, c and rational functions X of the symbols (compared
    exactly with the log of another rational function when q = 0, by certified enclosures of e^q
    otherwise)."""
    for t in sympy.Add.make_args(sympy.expand(v)):
        c, rest = t.as_coeff_Mul()
        ok = (rest == 1 and c.is_Rational) or (
            isinstance(rest, sympy.log) and rest.args[0].is_rational_function(*symbols.symbols.values())
        )
        if not ok:
            raise QuantityError(
                f"{what} = {v} is not made of logarithms of rational functions of the symbols",
                "write it like log(E), log((E^2 + 1)/(E + 1))/2 or log(E) - 1/2",
            )
    return v


def exp_eps(e: Any, *, form: str, rational_only: bool = False, symbols: SymbolTable | None = None) -> Any:
    """λ = e^ε for a mechanism parameter.

    A rational for ``log(r)``; for a decimal ε an exact element of the field ℚ(e^{1/L})
    (:mod:`exactdp.numbers.qt`), unless ``rational_only`` (forms whose builders need rational
    weights refuse it rather than approximate); for a symbolic ε such as ``log(E)``, a rational
    function of the symbols proved ≥ 1.
    """
    if _is_sym(e):
        lam = sympy.exp(e)
        if symbols is None or not lam.is_rational_function(*symbols.symbols.values()):
            raise QuantityError(
                f"{form}: e^eps = {lam} is not a rational function of the symbols",
                "declare E = e^eps as the symbol (`symbols: {E: {gt: 1}}`) and write eps: log(E)",
            )
        return _symbolic(lam, f"{form}: e^eps", symbols, lo=1)
    lam = ladder.exp(e)
    if ladder.domain_of(lam) is QQ:
        return lam
    if rational_only:
        raise QuantityError(
            f"{form}: eps = {_text(e)} makes e^eps transcendental; {form} needs e^eps rational",
            "write eps as log(r), e.g. eps: log(16); exact decimal eps is supported by rr and the engines, not yet here",
        )
    try:
        return ladder.as_field(lam)
    except InexactValueError as err:
        raise QuantityError(f"{form}: eps = {_text(e)}: {err}", "write eps as log(r), e.g. eps: log(11/10)") from None


def exp_eps_value(v: Any, *, what: str = "e^eps", rational_only: bool = False) -> Any:
    """λ = e^ε given as itself, as RR is parametrised (Vadhan–Wang Def. 1.9): a rational ≥ 1,
    or an element ≥ 1 of ℚ(e^{1/L}) such as ``exp(1/10)`` unless ``rational_only``.  Returns it
    as a rational or a field element (:func:`~exactdp.numbers.qt.as_field`)."""
    d = _domain(v, what)
    if d in (EXP, QT):
        if rational_only:
            raise QuantityError(
                f"{what} = {_text(v)} is transcendental; this mechanism needs e^eps rational (exact weights)",
                "write eps as log(r) with a rational r",
            )
        try:
            v = ladder.as_field(v)
        except InexactValueError as err:
            raise QuantityError(f"{what} = {_text(v)}: {err}", "write eps with fewer decimal digits") from None
    elif d is not QQ:
        raise QuantityError(
            f"{what} is e^eps itself, such as 3 or 3/2, found {_text(v)}",
            "this is e^eps, not eps: e^eps = 3 is eps = log(3)",
        )
    if ladder.cmp(v, 1) < 0:
        raise QuantityError(f"{what} must be at least 1 (eps >= 0), found {_text(v)}")
    return as_q(v) if d is QQ else v


def option_value(text: str, what: str, kind: str) -> Any:
    """A number given to a command-line option ``what``, read by exactdp's grammar and checked
    like the same number in a case file (:func:`of_kind`).  A :class:`QuantityError` says what is
    wrong."""
    try:
        v = eval_text(text)
    except ExprError as e:
        raise QuantityError(f"{what} {text!r}: {e.message}", e.hint) from None
    return of_kind(v, what, kind)


def of_kind(v: Any, what: str, kind: str, symbols: SymbolTable | None = None) -> Any:
    """``v`` checked as an option's number of ``kind``: ``eps`` (>= 0), ``any eps`` (also below 0,
    where delta(e^eps) is asked), ``delta`` (in [0, 1]), ``field delta`` (also in ℚ(e^{1/L}), such
    as a conversion's e^-1) or ``positive`` (a rational > 0); a value in ``symbols`` has its range
    proved from their declared bounds, as in a case file."""
    if kind == "positive":
        return rational(v, what=what, positive=True, symbols=symbols)
    if "delta" in kind:
        return delta(v, what=what, field=kind == "field delta", symbols=symbols)
    return eps(v, what=what, negative=kind == "any eps", symbols=symbols)
