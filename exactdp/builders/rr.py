"""Randomized response, the mechanisms every ε-DP (and (ε,δ)-DP) mechanism reduces to."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ArgumentTypeError, InvalidMechanismError
from ..model.game import END, Chance, Mechanism
from ..numbers.rational import Q
from ..numbers.types import DeltaLike, EpsLike, LambdaLike
from .params import UNSET, check_delta, check_exp_eps, exp_eps_arg, read_rational

__all__ = ["rr", "rr_delta", "rr_node", "rr_delta_node", "rr_rows", "rr_delta_rows", "default_bits"]


def default_bits(
    datasets: Sequence[str], adjacent: Sequence[tuple[int, int]], given: Mapping[str, int] | None = None
) -> tuple[int, ...]:
    """RR's input bit for each dataset: 0 for the first dataset of the first adjacent pair,
    1 for the second, overridden or completed by ``given`` ({dataset: bit}).  Any other
    dataset needs an explicit bit."""
    if not adjacent:
        raise InvalidMechanismError("randomized response needs an adjacent pair")
    a, b = adjacent[0]
    bits: dict[str, int] = {datasets[a]: 0, datasets[b]: 1}
    bits.update(given or {})
    missing = [d for d in datasets if d not in bits]
    if missing:
        raise InvalidMechanismError(
            f"rr: dataset(s) {', '.join(missing)} are not in the first adjacent pair "
            f"({datasets[a]}, {datasets[b]}), so their input bit is unknown",
            hint="give their bits, e.g. `rr: {eps: log(3), bits: {" + ", ".join(f"{d}: 0" for d in missing) + "}}`",
        )
    return tuple(bits[d] for d in datasets)


def rr_rows(E: Any, bits: Sequence[int]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Pr[answer 0] and Pr[answer 1] of RR_ε (Vadhan–Wang Def. 1.9) under each dataset, with
    e^ε = E and the datasets' input bits: b w.p. E/(1+E), 1−b w.p. 1/(1+E).

    ``E`` is any exact value (a rational, a field element, a SymPy expression); the rows are
    computed in its arithmetic."""
    keep, flip = E / (1 + E), 1 / (1 + E)
    p0 = tuple(keep if b == 0 else flip for b in bits)
    p1 = tuple(flip if b == 0 else keep for b in bits)
    return p0, p1


def rr_delta_rows(E: Any, delta: Any, zero: Any, bits: Sequence[int]) -> dict[str, tuple[Any, ...]]:
    """The answer rows of RR_(ε,δ) (Vadhan–Wang Def. 5.1) under each dataset, keyed by the
    answers I0, 0, 1, I1: input bit b gives Ib w.p. δ, b w.p. (1−δ)E/(1+E) and 1−b w.p.
    (1−δ)/(1+E); ``zero`` is 0 in the arithmetic of ``E`` and ``delta``."""
    keep, flip = (1 - delta) * E / (1 + E), (1 - delta) / (1 + E)
    return {
        "I0": tuple(delta if b == 0 else zero for b in bits),
        "0": tuple(keep if b == 0 else flip for b in bits),
        "1": tuple(flip if b == 0 else keep for b in bits),
        "I1": tuple(zero if b == 0 else delta for b in bits),
    }


def rr_node(E: Any, bits: Sequence[int]) -> Chance:
    """RR_ε (Vadhan–Wang Def. 1.9) with e^ε = E: answers b w.p. E/(1+E), 1−b w.p. 1/(1+E).

    ``E`` is a rational, or an element of ℚ(e^{1/L}) (``ExpReal``/``QtElement``) for a decimal ε."""
    return Chance(("0", "1"), rr_rows(check_exp_eps(E, call="rr"), bits), (END, END))


def rr_delta_node(E: Any, delta: Any, bits: Sequence[int]) -> Chance:
    """RR_(ε,δ) (Vadhan–Wang Def. 5.1, from Kairouz–Oh–Viswanath) with answers I0, 0, 1, I1."""
    rows = rr_delta_rows(check_exp_eps(E, call="rr"), check_delta(delta, call="rr"), Q(0), bits)
    return Chance(tuple(rows), tuple(rows.values()), (END,) * 4)


def rr(
    E: LambdaLike | None = UNSET,
    *,
    eps: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    delta: DeltaLike | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    bits: Sequence[int] | None = None,
    name: str = "RR",
) -> Mechanism:
    r"""Randomized response :math:`\mathrm{RR}_\varepsilon` (Vadhan–Wang Def. 1.9) as a :class:`Mechanism`,
    or :math:`\mathrm{RR}_{\varepsilon,\delta}` (Def. 5.1) with ``delta=``: the case file's
    ``rr: {eps: log(3), delta: 1/10}``.  It answers the dataset's bit :math:`b` with probability
    :math:`e^\varepsilon/(1+e^\varepsilon)` and :math:`1-b` otherwise.

    Parameters
    ----------
    eps : str or exact number
        :math:`\varepsilon \ge 0` as in a case file: ``"log(3)"``, ``"0.1"`` (exactly 1/10:
        :math:`e^\varepsilon` lies in :math:`\mathbb{Q}(e^{1/10})`), or an exact value.  Give this
        or ``exp_eps``.
    exp_eps : exact number or str
        :math:`e^\varepsilon \ge 1` itself, e.g. ``3``.
    delta : exact rational or str, optional
        :math:`\delta \in [0, 1]`: build :math:`\mathrm{RR}_{\varepsilon,\delta}` with answers
        I0, 0, 1, I1.
    datasets, adjacent : optional
        Dataset names and adjacent pairs (default: x0 ~ x1).
    bits : sequence of int, optional
        Each dataset's input bit (default: 0 and 1 for the first adjacent pair).
    name : str, optional (default = "RR")
    E : deprecated
        :math:`e^\varepsilon` given positionally (``rr(3)``); warns.  Write ``exp_eps=3`` or ``eps="log(3)"``.

    Examples
    --------
    >>> from exactdp.analysis import profile
    >>> str(profile.privloss(rr(eps="log(3)"), 0))
    'log(3)'
    >>> str(profile.privloss(rr(exp_eps=3, delta="1/10"), "1/5"))
    'log(23/9)'

    References
    ----------
    Vadhan & Wang 2021, Def. 1.9 and Def. 5.1 (after Kairouz–Oh–Viswanath 2015).
    """
    lam = exp_eps_arg("rr", eps=eps, exp_eps=exp_eps, positional=E)
    bits = tuple(bits) if bits is not None else default_bits(datasets, adjacent)
    if delta is not None:
        node = rr_delta_node(lam, read_rational(delta, call="rr", name="delta"), bits)
    else:
        node = rr_node(lam, bits)
    return Mechanism(node, tuple(datasets), tuple(adjacent), name)


def rr_delta(
    E: LambdaLike | None = UNSET,
    delta_: DeltaLike | None = UNSET,
    *,
    eps: EpsLike | None = None,
    exp_eps: LambdaLike | None = None,
    delta: DeltaLike | None = None,
    datasets: Sequence[str] = ("x0", "x1"),
    adjacent: Sequence[tuple[int, int]] = ((0, 1),),
    bits: Sequence[int] | None = None,
    name: str = "RR",
) -> Mechanism:
    r""":math:`\mathrm{RR}_{\varepsilon,\delta}` (Vadhan–Wang Def. 5.1) as a :class:`Mechanism`:
    ``rr_delta(eps="log(3)", delta="1/10")``.  With probability :math:`\delta` it reveals the bit
    (answers I0, I1), otherwise it answers as :math:`\mathrm{RR}_\varepsilon`.

    The same as :func:`rr` with ``delta=``; ``delta`` is required.  The positional form
    ``rr_delta(E, delta)`` (e^ε first) is deprecated: it warns, and means e^ε = E.

    >>> from exactdp.analysis import profile
    >>> str(profile.privloss(rr_delta(eps="log(3)", delta="1/10"), "1/5"))
    'log(23/9)'
    """
    if delta_ is not UNSET:
        if delta is not None:
            raise ArgumentTypeError("rr_delta: delta is given twice (positionally and as delta=)")
        delta = delta_
    if delta is None:
        raise ArgumentTypeError("rr_delta: delta= is required (for RR_eps without delta use rr)")
    lam = exp_eps_arg("rr_delta", eps=eps, exp_eps=exp_eps, positional=E)
    bits = tuple(bits) if bits is not None else default_bits(datasets, adjacent)
    return Mechanism(
        rr_delta_node(lam, read_rational(delta, call="rr_delta", name="delta"), bits),
        tuple(datasets),
        tuple(adjacent),
        name,
    )
