r"""Privacy parameters as the Python builders take them: keywords that read like a case file.

A case file writes ε (``eps: log(3)``), so the builders take ``eps=`` the same way: text in
exactdp's number grammar (``"log(3)"``, ``"0.1"``, read exactly, never ``eval``-ed) or an exact
value (a rational, or a ``LogReal`` such as ``exactdp.exact("log(3)")``).  Where e^ε itself is
the natural input it is named: ``exp_eps=3`` is RR with e^ε = 3.  A float is taken as the exact
binary fraction it is: ``delta=0.5`` is 1/2, but ``0.1`` is 3602879701896397/2^55, not 1/10
(write ``"0.1"`` for the decimal); exactdp never rounds.

This module only reads the arguments (text or exact values, which of ``eps=``/``exp_eps=`` is
given, the deprecated positional e^ε); every check of an ε, δ or e^ε is made by
:mod:`exactdp.numbers.kinds`, with its wording, as for case files and the command line.  A
value that is not an exact number is a :class:`TypeError`; a number kinds refuses is
a :class:`ValueError` (an :class:`~exactdp.errors.InexactValueError` where e^ε is
transcendental but the mechanism needs it rational).

Older releases took e^ε as the first positional argument (``rr(3)``), while case files take ε,
so ``rr(1)`` silently meant ε = 0.  That form still works, with an
:class:`~exactdp.deprecation.ExactDPDeprecationWarning` saying what to write instead.

References
----------
Vadhan & Wang 2021, Def. 1.9 (RR_ε, parametrised by e^ε) and Def. 5.1 (RR_(ε,δ)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from numbers import Integral
from typing import Any

from ..deprecation import warn_deprecated
from ..errors import ArgumentError, ArgumentTypeError, InexactValueError, InvalidMechanismError, suggest
from ..model.checks import shown_arg
from ..numbers import kinds as K
from ..numbers import ladder
from ..numbers.expr import ExprError, eval_text
from ..numbers.rational import is_rational, q_str
from ..numbers.types import DeltaLike, Eps, EpsLike, FieldValue, LambdaLike, Rational, RationalLike

__all__ = [
    "UNSET",
    "read_exact",
    "read_eps",
    "read_exp_eps",
    "read_rational",
    "read_probability",
    "exp_eps_arg",
    "alpha_arg",
    "check_exp_eps",
    "check_delta",
    "whole_arg",
    "per_dataset_arg",
    "mapping_arg",
    "DEPRECATED_SINCE",
]

DEPRECATED_SINCE = "0.1.0"


class _Unset:
    """The default of a deprecated positional parameter: distinguishes "not given" from None."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


def _checked(check: Callable[..., Any], value: Any, *, error: type[Exception] = ArgumentError, **kw: Any) -> Any:
    """``check(value, **kw)``, a function of :mod:`exactdp.numbers.kinds`; its
    :class:`~exactdp.numbers.kinds.QuantityError` becomes ``error`` (the exceptions Python
    callers expect) with the kinds wording and hint."""
    try:
        return check(value, **kw)
    except K.QuantityError as e:
        raise error(e.text()) from None


def _exact(call: str, name: str, value: Any, example: str) -> Any:
    """The exact number an argument stands for: text is read by exactdp's grammar (never
    ``eval``-ed), a float is the exact binary fraction it is, and anything that is not an exact
    number is a TypeError."""
    if isinstance(value, float):
        try:
            return ladder.from_float(value)
        except ValueError as e:
            raise ArgumentError(f"{call}: {name}={value!r}: {e}") from None
    if isinstance(value, str):
        try:
            value = eval_text(value)
        except ExprError as e:
            raise ArgumentError(f"{call}: {name}={value!r} is not a number exactdp can read: {e.message}") from None
    if not ladder.is_exact(value):
        raise ArgumentTypeError(
            f'{call}: {name} must be an exact number or text such as "{example}", got {type(value).__name__}: {value!r}'
        )
    return value


def read_exact(value: Any, *, call: str, name: str, example: str) -> Any:
    """The exact number an argument stands for (text read by exactdp's grammar, or an exact
    value), unchecked: the caller checks its kind with :mod:`exactdp.numbers.kinds`.  A value
    that is not a number is a :class:`TypeError`, unreadable text a :class:`ValueError`."""
    return _exact(call, name, value, example)


def read_eps(value: EpsLike, *, call: str, name: str = "eps", positive: bool = False, negative: bool = False) -> Eps:
    """ε from text (``"log(3)"``, ``"0.1"``) or an exact value, checked by
    :func:`exactdp.numbers.kinds.eps`: a finite real ≥ 0 (> 0 if ``positive``; any finite real
    with ``negative``, where δ(e^ε) is asked for).

    Raises
    ------
    TypeError
        A float, or a value that is not an exact number.
    ValueError
        Unreadable text, or a number that is not such an ε (negative, ∞, ``exp(1)``).
    """
    exact = _exact(call, name, value, "log(3)")
    return _checked(K.eps, exact, what=f"{call}: {name}", positive=positive, negative=negative)


def read_exp_eps(value: LambdaLike, *, call: str, name: str = "exp_eps", rational: bool = False) -> FieldValue:
    """e^ε from text (``"3"``) or an exact value, checked by
    :func:`exactdp.numbers.kinds.exp_eps_value`: a rational ≥ 1, or a field element ≥ 1 for a
    decimal ε.  With ``rational``, e^ε must be rational (the builder needs rational weights):
    :class:`~exactdp.errors.InexactValueError` otherwise."""
    lam = _checked(K.exp_eps_value, _exact(call, name, value, "3"), what=f"{call}: {name}")
    if rational:
        lam = _checked(K.exp_eps_value, lam, what=f"{call}: {name}", rational_only=True, error=InexactValueError)
    return lam


def read_rational(value: RationalLike | DeltaLike, *, call: str, name: str) -> Rational:
    """An exact rational from text (``"1/10"``, ``"1e-6"``) or an exact value, checked by
    :func:`exactdp.numbers.kinds.rational`."""
    return _checked(K.rational, _exact(call, name, value, "1/10"), what=f"{call}: {name}")


def read_probability(value: Any, *, call: str, name: str = "probability") -> FieldValue:
    """A probability from text (``"1/4"``, ``"exp(-1/2)/(1 + exp(-1/2))"``) or an exact value,
    checked by :func:`exactdp.numbers.kinds.probability`: a rational or an element of ℚ(e^{1/L})
    in [0, 1].  Rationals pass through unchanged (the hot path of generated trees)."""
    if is_rational(value):
        return value
    return _checked(K.probability, _exact(call, name, value, "1/4"), what=f"{call}: {name}", field=True)


def _exp_of_eps(
    call: str, eps: EpsLike, *, name: str = "eps", rational: bool = False, positive: bool = False
) -> FieldValue:
    """λ = e^ε of an ε argument (:func:`exactdp.numbers.kinds.exp_eps`); a transcendental λ
    that cannot be kept exact, or that ``rational`` refuses, is an InexactValueError."""
    e = read_eps(eps, call=call, name=name, positive=positive)
    try:
        return _checked(K.exp_eps, e, form=call, rational_only=rational, error=InexactValueError)
    except InexactValueError as err:
        if isinstance(eps, float):  # the binary fraction of a float is rarely what was meant
            raise InexactValueError(
                f'{err}; the float {eps!r} is the binary fraction {ladder.short(e)}: write {name}="{eps!r}" '
                "for the decimal"
            ) from None
        raise


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
    given = [
        n
        for n, v in ((n_eps, eps), (n_exp, exp_eps), (positional_name, positional))
        if v is not None and v is not UNSET
    ]
    if len(given) != 1:
        what = "none" if not given else " and ".join(given)
        raise ArgumentTypeError(
            f'{call}: give {n_eps} exactly once, as {n_eps}= (e.g. {n_eps}="log(3)") or {n_exp}= (its exponential); got {what}'
        )
    if eps is not None:
        return _exp_of_eps(call, eps, name=n_eps, rational=rational)
    if exp_eps is not None:
        return read_exp_eps(exp_eps, call=call, name=n_exp, rational=rational)
    shown = q_str(positional) if is_rational(positional) else str(positional)
    warn_deprecated(
        f"{call}: the positional argument {positional_name}={shown} is e^{n_eps}, not {n_eps} as in case files (a positional 1 "
        f'means {n_eps} = 0); write {call}({n_exp}={shown}, ...) or {call}({n_eps}="log({shown})", ...)',
        since=DEPRECATED_SINCE,
        stacklevel=stacklevel,
    )
    return read_exp_eps(positional, call=call, name=positional_name, rational=rational)


def alpha_arg(call: str, *, eps: EpsLike | None, alpha: RationalLike | None) -> FieldValue:
    """α = e^{−ε} of geometric noise from exactly one of ``eps=`` (ε > 0; e^ε rational, or in
    ℚ(e^{1/L}) for a decimal ε) or ``alpha=``."""
    if eps is not None and alpha is None:
        return 1 / _exp_of_eps(call, eps, positive=True)
    if alpha is not None and eps is None:
        a = _exact(call, "alpha", alpha, "1/2")
        if not is_rational(a):  # e^(-1/2), a library's noise scale: in Q(e^(1/L)), range checked by the builder
            return _checked(K.probability, a, what=f"{call}: alpha", field=True)
        return read_rational(a, call=call, name="alpha")
    raise ArgumentTypeError(
        f'{call}: give exactly one of eps= (alpha = e^-eps, e.g. eps="log(2)") or alpha= (e.g. alpha="1/2")'
    )


def check_exp_eps(E: Any, *, call: str, rational: bool = False) -> FieldValue:
    """An exact e^ε as the node builders take it (:func:`exactdp.numbers.kinds.exp_eps_value`:
    at least 1, rational if ``rational``), as a rational or a field element; a
    :class:`~exactdp.errors.InvalidMechanismError` otherwise."""
    try:
        return K.exp_eps_value(E, what=f"{call}: e^eps", rational_only=rational)
    except K.QuantityError as e:
        raise InvalidMechanismError(e.message, hint=e.hint) from None


def check_delta(delta: Any, *, call: str) -> Rational:
    """An exact δ ∈ [0, 1] as the node builders take it (:func:`exactdp.numbers.kinds.delta`);
    a :class:`~exactdp.errors.InvalidMechanismError` otherwise."""
    try:
        return K.delta(delta, what=f"{call}: delta")
    except K.QuantityError as e:
        raise InvalidMechanismError(e.message, hint=e.hint) from None


def whole_arg(value: Any, *, call: str, name: str) -> int:
    """A whole-number argument (a size, a count, a number of copies): an int, never a bool or a
    float; an :class:`~exactdp.errors.ArgumentTypeError` (also a TypeError) otherwise."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ArgumentTypeError(f"{call}: {name} must be a whole number, got {value!r}")
    return int(value)


def mapping_arg(value: Any, *, call: str, name: str, shape: str) -> Mapping[Any, Any]:
    """A mapping argument (``shape`` says what it maps, ``"{answer: new answer}"``); an
    :class:`~exactdp.errors.ArgumentTypeError` naming the call and the argument otherwise."""
    if not isinstance(value, Mapping):
        raise ArgumentTypeError(
            f"{call}: {name} must be a mapping {shape}, got {type(value).__name__}: {shown_arg(value)}"
        )
    return value


def per_dataset_arg(
    value: Any, datasets: Sequence[str], *, call: str, name: str, what: str, rows: str | None = None
) -> list[Any]:
    """A per-dataset argument as a case file writes it: a list in dataset order or a mapping
    ``{dataset: value}``, with one entry for every dataset and no other (``what`` names an entry
    in messages: ``"values"``, ``"counts"``).  With ``rows`` (``"scores, one per output"``) every
    entry is itself a list.  A wrong shape is an :class:`~exactdp.errors.ArgumentTypeError`, a
    missing, unknown or extra dataset an :class:`~exactdp.errors.ArgumentError`, each naming the
    call, the argument and the dataset, as the case reader does."""
    ds = [str(d) for d in datasets]
    if isinstance(value, Mapping):
        unknown = [k for k in value if str(k) not in ds]
        if unknown:
            raise ArgumentError(
                f"{call}: {name}: unknown dataset {unknown[0]!r} ({suggest(str(unknown[0]), ds) or 'datasets: ' + ', '.join(ds)})"
            )
        by_name = {str(k): v for k, v in value.items()}
        missing = [d for d in ds if d not in by_name]
        if missing:
            raise ArgumentError(
                f"{call}: {name}: no entry for dataset(s) {', '.join(missing)} ({name} must cover every dataset)"
            )
        out = [by_name[d] for d in ds]
    elif isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, Iterable)):
        raise ArgumentTypeError(
            f"{call}: {name} must be a list (one entry per dataset: {', '.join(ds)}) or a mapping {{dataset: value}}, "
            f"got {type(value).__name__}: {shown_arg(value)}"
        )
    else:
        out = list(value)
        if len(out) != len(ds):
            raise ArgumentError(
                f"{call}: {name}: expected {len(ds)} {what} (one per dataset: {', '.join(ds)}), found {len(out)}"
            )
    if rows is not None:
        for d, row in zip(ds, out):
            if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, Iterable):
                raise ArgumentTypeError(
                    f"{call}: {name}[{d!r}] must be a list of {rows}, got {type(row).__name__}: {shown_arg(row)}"
                )
    return out
