"""Privacy parameters of the components of a composition, normalised for exact evaluation.

Each component is (εᵢ, δᵢ) with εᵢ an exact real ≥ 0 — ``log(r)`` (then e^εᵢ = r is rational),
a rational (a decimal ε such as 0.1; then e^εᵢ lies in ℚ(e^{1/L})), or a sum of both — and δᵢ
a rational in [0, 1].  Theorems work with Eᵢ = e^εᵢ, an element of ℚ(e^{1/L})
(:mod:`exactdp.numbers.qt`), so every value they return is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ExactDPError, InexactValueError
from ..limits import check_count
from ..numbers import ladder
from ..numbers.ladder import LL, QQ
from ..numbers.rational import Q, as_q, q_str

__all__ = ["Component", "components", "repeated", "exp_eps"]


def exp_eps(eps: Any) -> Any:
    """e^ε exactly: a rational for ``log(r)``, an element of ℚ(e^{1/L}) for a decimal ε."""
    if not ladder.is_exact(eps) or ladder.domain_of(eps) not in (QQ, LL):
        shown = ladder.short(eps) if ladder.is_exact(eps) else repr(eps)[:60]
        raise InexactValueError(f"eps must be an exact real such as log(3) or 0.1, got {shown}")
    if ladder.sign(eps) < 0:
        raise InexactValueError(f"eps must be >= 0, got {ladder.short(eps)}")
    return ladder.as_field(ladder.exp(eps))


@dataclass(frozen=True)
class Component:
    """One (εᵢ, δᵢ)-DP component: ``eps`` as given, ``E`` = e^εᵢ (exact), ``delta`` = δᵢ."""

    eps: Any
    E: Any
    delta: Any

    def __str__(self) -> str:
        return f"({ladder.text(self.eps)}, {q_str(self.delta)})"


def components(eps: Sequence[Any], deltas: Sequence[Any] | None = None) -> tuple[Component, ...]:
    """Pair up ε's and δ's (a single δ applies to every ε; no δ's means pure DP).

    Raises
    ------
    InexactValueError
        If an ε is not an exact value ≥ 0 or a δ is not a rational in [0, 1], or the lists
        differ in length.
    """
    eps = list(eps)
    if not eps:
        raise InexactValueError("a composition needs at least one component")
    if deltas is None or len(deltas) == 0:
        deltas = [Q(0)] * len(eps)
    elif len(deltas) == 1 and len(eps) > 1:
        deltas = list(deltas) * len(eps)
    if len(deltas) != len(eps):
        raise InexactValueError(
            f"{len(eps)} eps values but {len(deltas)} delta values; give one delta per eps (or a single one)"
        )
    out = []
    for e, d in zip(eps, deltas):
        if not ladder.is_exact(d) or ladder.domain_of(d) is not QQ or not (0 <= d <= 1):
            shown = ladder.short(d) if ladder.is_exact(d) else repr(d)[:60]
            raise InexactValueError(f"delta must be an exact rational in [0, 1], got {shown}")
        out.append(Component(e, exp_eps(e), as_q(d)))
    return tuple(out)


def repeated(eps: Sequence[Any], deltas: Sequence[Any], times: int = 1) -> tuple[Component, ...]:
    """The components of the ``times``-fold composition of the list (εᵢ, δᵢ) (:func:`components`;
    a single δ applies to every ε), refused past the limit ``max_components`` before the lists
    are built."""
    check_count("the number of components", len(eps) * times, "max_components", "--max-components")
    return components(list(eps) * times, list(deltas) * times if len(deltas) > 1 else deltas)


class SlackError(ExactDPError):
    """A composition bound's slack δ̃ outside the range its theorem allows."""


def slack_of(delta_slack: Any, *, one_allowed: bool = True) -> Any:
    """The slack δ̃ of a named composition bound as an exact rational, checked: 0 < δ̃ ≤ 1
    (δ̃ < 1 for the advanced composition theorem, whose bound has log(1/δ̃) and needs δ̃ < 1 to
    be finite and meaningful; δ̃ = 0 makes every one of these bounds infinite or undefined).

    Raises
    ------
    SlackError
        When δ̃ is not in the allowed range.
    """
    ds = as_q(delta_slack)
    if not (0 < ds < 1 or (one_allowed and ds == 1)):
        raise SlackError(f"the slack delta~ must lie in (0, {'1]' if one_allowed else '1)'}, got {q_str(ds)}")
    return ds
