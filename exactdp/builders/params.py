r"""Privacy parameters as the Python builders take them: keywords that read like a case file.

A case file writes ε (``eps: log(3)``), so the builders take ``eps=`` the same way: text in
exactdp's number grammar (``"log(3)"``, ``"0.1"``, read exactly, never ``eval``-ed) or an exact
value (a rational, or a ``LogReal`` such as ``exactdp.exact("log(3)")``).  Where e^ε itself is
the natural input it is named: ``exp_eps=3`` is RR with e^ε = 3.  Floats are refused: ``0.1``
is not 1/10 in binary, and exactdp never rounds.

Older releases took e^ε as the first positional argument (``rr(3)``), while case files take ε,
so ``rr(1)`` silently meant ε = 0.  That form still works, with an
:class:`~exactdp.deprecation.ExactDPDeprecationWarning` saying what to write instead.

References
----------
Vadhan & Wang 2021, Def. 1.9 (RR_ε, parametrised by e^ε) and Def. 5.1 (RR_(ε,δ)).
"""

from __future__ import annotations

from typing import Any

from ..deprecation import warn_deprecated
from ..errors import InexactValueError
from ..numbers.expr import ExprError, eval_text
from ..numbers.qt import QtElement, as_field
from ..numbers.rational import as_q, is_rational, q_str
from ..numbers.real import ExpReal, Infinity, LogReal, real_exp, real_str
from ..numbers.types import DeltaLike, Eps, EpsLike, FieldValue, LambdaLike, Rational, RationalLike

__all__ = ["UNSET", "read_eps", "read_exp_eps", "read_rational", "exp_eps_arg", "alpha_arg", "DEPRECATED_SINCE"]

DEPRECATED_SINCE = "0.1.0"


class _Unset:
    """The default of a deprecated positional parameter: distinguishes "not given" from None."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def _text(call: str, name: str, value: str) -> Any:
    try:
        return eval_text(value)
    except ExprError as e:
        raise ValueError(f"{call}: {name}={value!r} is not a number exactdp can read: {e.message}") from None


def _no_float(call: str, name: str, value: Any) -> None:
    if isinstance(value, float):
        raise TypeError(
            f"{call}: {name}={value!r} is a float, which is binary and usually already rounded; exactdp takes exact "
            f"values: write {name}=\"{value!r}\" (text is read exactly, e.g. \"0.1\" is 1/10) or a Fraction"
        )


def read_eps(value: EpsLike, *, call: str, name: str = "eps") -> Eps:
    """ε from text (``"log(3)"``, ``"0.1"``) or an exact value; must be a finite real ≥ 0.

    Raises
    ------
    TypeError
        A float, or a value of another type.
    ValueError
        Unreadable text, a negative ε, ∞, or a value that is not an ε (such as ``exp(1)``).
    """
    _no_float(call, name, value)
    v = _text(call, name, value) if isinstance(value, str) else value
    if isinstance(v, Infinity):
        raise ValueError(f"{call}: {name} = inf is not allowed here")
    if not (is_rational(v) or isinstance(v, LogReal)):
        if isinstance(v, (ExpReal, QtElement)):
            raise ValueError(f"{call}: {name} must be an exponent such as log(3) or 0.1, got {real_str(v)}")
        raise TypeError(f"{call}: {name} must be text such as \"log(3)\" or an exact number, got {type(v).__name__}: {v!r}")
    if v < 0:
        raise ValueError(f"{call}: {name} must be >= 0, got {real_str(v)}")
    return as_q(v) if is_rational(v) else v


def read_exp_eps(value: LambdaLike, *, call: str, name: str = "exp_eps", rational: bool = False) -> FieldValue:
    """e^ε from text (``"3"``) or an exact value (a rational, or a field element for a decimal ε).

    With ``rational``, e^ε must be rational (the builder needs rational weights)."""
    _no_float(call, name, value)
    v = _text(call, name, value) if isinstance(value, str) else value
    if not (is_rational(v) or isinstance(v, (QtElement, ExpReal))):
        raise TypeError(f"{call}: {name} must be an exact number such as 3 or \"3/2\", got {type(v).__name__}: {v!r}")
    lam = as_field(v)
    if rational and not is_rational(lam):
        raise InexactValueError(
            f"{call}: e^eps = {real_str(lam)} is transcendental; this mechanism needs e^eps rational "
            "(exact weights): write eps=\"log(r)\" with a rational r"
        )
    return lam


def read_rational(value: RationalLike | DeltaLike, *, call: str, name: str) -> Rational:
    """An exact rational from text (``"1/10"``, ``"1e-6"``) or an exact value."""
    _no_float(call, name, value)
    v = _text(call, name, value) if isinstance(value, str) else value
    if not is_rational(v):
        shown = real_str(v) if isinstance(v, (LogReal, ExpReal, QtElement, Infinity)) else f"{type(v).__name__}: {v!r}"
        raise TypeError(f"{call}: {name} must be an exact rational such as 1/10, got {shown}")
    return as_q(v)


def exp_eps_arg(
    call: str,
    *,
    eps: EpsLike | None,
    exp_eps: LambdaLike | None,
    positional: Any = UNSET,
    positional_name: str = "E",
    rational: bool = False,
    stacklevel: int = 3,
    names: tuple[str, str] = ("eps", "exp_eps"),
) -> FieldValue:
    """λ = e^ε from exactly one of ``eps=``, ``exp_eps=`` or a deprecated positional e^ε.

    ``stacklevel`` (as for :func:`warnings.warn`, counted from this function) points the
    deprecation warning at the user's call: 3 when the builder calls this helper directly."""
    n_eps, n_exp = names
    given = [n for n, v in ((n_eps, eps), (n_exp, exp_eps), (positional_name, positional)) if v is not None and v is not UNSET]
    if len(given) != 1:
        what = "none" if not given else " and ".join(given)
        raise TypeError(f"{call}: give {n_eps} exactly once, as {n_eps}= (e.g. {n_eps}=\"log(3)\") or {n_exp}= (its exponential); got {what}")
    if eps is not None:
        lam = as_field(real_exp(read_eps(eps, call=call, name=n_eps)))
        if rational and not is_rational(lam):
            raise InexactValueError(
                f"{call}: eps = {real_str(as_q(eps) if is_rational(eps) else eps)} makes e^eps transcendental; this mechanism "
                "needs e^eps rational (exact weights): write eps=\"log(r)\" with a rational r"
            )
        return lam
    if exp_eps is not None:
        return read_exp_eps(exp_eps, call=call, name=n_exp, rational=rational)
    _no_float(call, positional_name, positional)
    shown = q_str(positional) if is_rational(positional) else str(positional)
    warn_deprecated(
        f"{call}: the positional argument {positional_name}={shown} is e^{n_eps}, not {n_eps} as in case files (a positional 1 "
        f"means {n_eps} = 0); write {call}({n_exp}={shown}, ...) or {call}({n_eps}=\"log({shown})\", ...)",
        since=DEPRECATED_SINCE,
        stacklevel=stacklevel,
    )
    return read_exp_eps(positional, call=call, name=positional_name, rational=rational)


def alpha_arg(call: str, *, eps: EpsLike | None, alpha: RationalLike | None) -> Rational:
    """α = e^{−ε} of geometric noise from exactly one of ``eps=`` (e^ε rational) or ``alpha=``."""
    if (eps is None) == (alpha is None):
        raise TypeError(f"{call}: give exactly one of eps= (alpha = e^-eps, e.g. eps=\"log(2)\") or alpha= (e.g. alpha=\"1/2\")")
    if alpha is not None:
        return read_rational(alpha, call=call, name="alpha")
    lam = exp_eps_arg(call, eps=eps, exp_eps=None, rational=True)
    if lam == 1:
        raise ValueError(f"{call}: eps must be positive (alpha = e^-eps < 1)")
    return 1 / as_q(lam)
