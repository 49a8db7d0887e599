r"""Rényi divergences at any order, exact when possible and certified otherwise, with the
adversary that attains them.

* Whole orders α ≥ 2 (and KL) of mechanisms with rational probabilities, and α = ∞: exact, by
  the engine (:mod:`exactdp.analysis.renyi`); the attaining adversary is found by the same
  induction written with the argmax kept, and its sum recomputed by an independent forward
  walk must equal the engine's exactly.
* Any other real order α > 1 (``3/2``, ``2.5``), and whole orders whose value has no exact form
  (probabilities in ℚ(e^{1/L}) with α ≥ 3, or KL): a certified enclosure
  (:mod:`exactdp.analysis.renyi_certified`), refined until a comparison is decided or the
  precision limit is reached.

References
----------
I. Mironov, *Rényi Differential Privacy*, CSF 2017, Def. 3–4.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import (
    ArgumentTypeError,
    ExactDPError,
    InexactValueError,
    LimitExceededError,
    TimeLimitExceeded,
    VerificationError,
)
from ..model.checks import instance_arg, mechanism_arg, takes_mechanism
from ..model.game import Chance, Mechanism, postorder
from ..numbers import ladder
from ..numbers.certified import ball_bounds
from ..numbers.expr import ExprError, eval_text
from ..numbers.infinity import INF, Infinity
from ..numbers.ladder import is_inf
from ..numbers.loglinear import log_linear
from ..numbers.logsum import log_sum, ls_add
from ..numbers.rational import Q, as_q, is_rational, to_fraction
from .renyi import RenyiResult
from .renyi_certified import (
    DEFAULT_PREC,
    MAX_PREC,
    Enclosure,
    RenyiWitness,
    arb_prec,
    attained_views,
    bounds,
    check_recheck,
    recheck_sum,
    renyi_balls,
    to_arb,
)

__all__ = [
    "parse_orders",
    "Order",
    "parse_order",
    "order_str",
    "is_whole",
    "CertifiedRenyi",
    "certified_renyi",
    "renyi_any",
    "renyi_witness",
    "renyi_any_witness",
    "rational_probabilities",
    "compare",
]

Order = int | Fraction | Infinity


def parse_order(alpha: object) -> Order:
    """α as an int (whole orders ≥ 1), a Fraction (a real order > 1 such as 3/2 or 2.5) or INF.

    Raises
    ------
    ExactDPError
        For α < 1, a fractional α ≤ 1, or anything that is not an exact rational or inf.
    """
    if is_inf(alpha) or alpha == "inf":
        return INF
    if isinstance(alpha, str):
        try:
            alpha = eval_text(alpha)
        except ExprError as e:
            raise ExactDPError(f"alpha {alpha!r}: {e.message}") from None
        if is_inf(alpha):
            return INF
    if not is_rational(alpha):
        raise ExactDPError(
            f"alpha must be a rational number >= 1 (such as 2, 3/2 or 2.5) or inf, found {ladder.short(alpha)}"
        )
    f = to_fraction(as_q(alpha))
    if f.denominator == 1 and f >= 1:
        return int(f)
    if f <= 1:
        raise ExactDPError(
            f"alpha = {ladder.short(f)} is not supported: Renyi divergences are defined here for alpha > 1, alpha = 1 (KL) "
            "and alpha = inf"
        )
    return f


def order_str(alpha: Order) -> str:
    return ladder.short(alpha)


def is_whole(alpha: Order) -> bool:
    return isinstance(alpha, int) and not isinstance(alpha, bool)


@dataclass(frozen=True)
class CertifiedRenyi:
    """D_α(M) as a certified enclosure (or ∞), with the pair and adversary attaining it."""

    mechanism: str
    alpha: Order
    value: Enclosure | Infinity
    witness: RenyiWitness | None
    prec: int

    @property
    def exact(self) -> bool:
        return is_inf(self.value) or (isinstance(self.value, Enclosure) and self.value.exact is not None)


def _divergence_ball(ball: Any, alpha: Order, kl: bool) -> Any:
    if kl:
        return ball
    a = to_fraction(as_q(alpha))
    return ball.log() / to_arb(Q(a.numerator, a.denominator) - 1, 0)


@takes_mechanism
def certified_renyi(mech: Mechanism, alpha: Order, prec: int = DEFAULT_PREC) -> CertifiedRenyi:
    """D_α(M) for α > 1 or α = 1 (KL) as a certified enclosure at ``prec`` bits, with the
    attaining adversary re-checked by an independent forward walk."""
    if not (is_inf(alpha) or (is_rational(alpha) and not isinstance(alpha, bool))):
        raise ArgumentTypeError(
            f"certified_renyi: alpha must be a rational order >= 1 (such as 2 or Fraction(3, 2)), got "
            f"{type(alpha).__name__}: {alpha!r:.60}"
        )
    kl = alpha == 1
    pairs = renyi_balls(mech, None if kl else alpha, prec, kl=kl)
    inf = [pb for pb in pairs if pb.ball is None]
    worst = inf[0] if inf else max(pairs, key=lambda pb: pb.ball.mid())
    again = recheck_sum(mech, worst.pair, worst.policy, None if kl else alpha, prec, kl=kl)
    check_recheck(worst.ball, again, f"pair {mech.pair_names(worst.pair)} at alpha = {order_str(alpha)}")
    what = "KL divergence" if kl else "sum P^alpha P'^(1-alpha)"
    if inf:
        w = RenyiWitness(mech, worst.pair, alpha, worst.policy, None, what)
        return CertifiedRenyi(mech.name, alpha, INF, w, prec)
    with arb_prec(prec):
        top = pairs[0].ball
        for pb in pairs[1:]:
            top = top.max(pb.ball)
        lo, hi = bounds(_divergence_ball(top, alpha, kl))
    exact = Q(0) if _all_equal(mech) else None
    wlo, whi = bounds(again)
    w = RenyiWitness(mech, worst.pair, alpha, worst.policy, Enclosure(wlo, whi), what)
    return CertifiedRenyi(mech.name, alpha, Enclosure(lo, hi, exact), w, prec)


def _all_equal(mech: Mechanism) -> bool:
    """Every answer has the same probability under every dataset of every pair: D_α = 0 exactly."""
    for node in postorder(mech.root):
        if isinstance(node, Chance):
            for row in node.probs:
                for i, j in mech.ordered_pairs:
                    if row[i] != row[j]:
                        return False
    return True


def renyi_any(engine: Any, mech: Mechanism, alpha: Order) -> RenyiResult | CertifiedRenyi:
    """D_α(M): the engine's exact value when one exists (whole α, with probabilities in ℚ or
    ℚ(e^{1/L}), or ∞), else a certified enclosure — also when the exact sum outgrows
    ``--max-bits`` (a high order in the field: its enclosure needs no big numbers)."""
    mechanism_arg(mech, "renyi_any", "mech")
    if not hasattr(engine, "renyi"):
        raise ArgumentTypeError(
            f"renyi_any: engine={engine!r:.60}: expected an engine, got {type(engine).__name__}; "
            'use exactdp.make_engine("profile") (or exactdp.profile_engine)'
        )
    if is_inf(alpha) or is_whole(alpha):
        try:
            return engine.renyi(mech, alpha)
        except InexactValueError:
            pass
        except LimitExceededError as e:
            if isinstance(e, TimeLimitExceeded) or "--max-bits" not in e.how_to_raise:
                raise
            try:
                return certified_renyi(mech, alpha)
            except InexactValueError:  # no finite enclosure either: the size limit is the reason
                raise e from None
    return certified_renyi(mech, alpha)


def rational_probabilities(mech: Mechanism) -> bool:
    """Every probability is rational (the standalone checker's Rényi sums take nothing else)."""
    return all(is_rational(p) for n in postorder(mech.root) if isinstance(n, Chance) for row in n.probs for p in row)


@takes_mechanism
def renyi_witness(mech: Mechanism, res: RenyiResult) -> RenyiWitness | None:
    """The adversary attaining an exact Rényi value (whole α ≥ 2 or KL) on its worst pair, its
    sum recomputed by an independent forward walk; None for α = ∞ (see ``privloss --witness``)."""
    instance_arg(
        res,
        RenyiResult,
        "renyi_witness",
        "res",
        what="a Renyi result",
        how="compute it with exactdp.renyi(mech, alpha)",
    )
    if is_inf(res.alpha) or res.worst_pair() is None:
        return None
    worst = res.worst_pair()
    assert worst is not None
    pair = next(p for p in mech.ordered_pairs if mech.pair_names(p) == worst.pair)
    kl = res.alpha == 1
    for prec in (DEFAULT_PREC, 4 * DEFAULT_PREC, 16 * DEFAULT_PREC):  # options closer than the balls: more bits
        balls = renyi_balls(mech, None if kl else res.alpha, prec, kl=kl)
        policy = next(pb.policy for pb in balls if pb.pair == pair)
        total = _exact_sum(mech, pair, policy, res.alpha)
        if (is_inf(total) and is_inf(worst.total)) or (not is_inf(total) and ladder.cmp(total, worst.total) == 0):
            break
    else:
        raise VerificationError(
            f"Renyi witness re-check failed on {worst.pair}: the engine says {ladder.text(worst.total)}, the adversary's "
            f"own views give {ladder.text(total)}"
        )
    what = "KL divergence" if kl else "sum P^alpha P'^(1-alpha)"
    return RenyiWitness(mech, pair, res.alpha, policy, None if is_inf(total) else total, what)


def renyi_any_witness(mech: Mechanism, res: RenyiResult | CertifiedRenyi) -> RenyiWitness | None:
    """The adversary attaining any result of :func:`renyi_any`: a certified enclosure carries its
    own, an exact value gets :func:`renyi_witness`'s."""
    if isinstance(res, CertifiedRenyi):
        return res.witness
    return renyi_witness(mech, res)


def _exact_sum(mech: Mechanism, pair: tuple[int, int], policy: Any, alpha: Any) -> Any:
    """The adversary's exact sum (or KL) over the views of :func:`attained_views`, in exact
    arithmetic."""
    views = attained_views(mech, pair, policy)
    if views is None:
        return INF
    total: Any = Q(0)
    for px, pxp in views:
        rho = px / pxp
        if alpha == 1 and is_rational(rho) and is_rational(px):
            total = ladder.add(total, log_linear(Q(0), [(rho, px)]))
        elif alpha == 1:  # probabilities in Q(e^(1/L)): logarithms with field coefficients
            total = ls_add(total, log_sum(Q(0), ((rho, px),)))
        else:
            total = total + pxp * rho**alpha
    return ladder.add(Q(0), total) if alpha == 1 else total


def compare(
    mech: Mechanism, alpha: Order, target: Any, first: CertifiedRenyi | None = None
) -> tuple[int | None, CertifiedRenyi]:
    """sign(D_α(M) − target), certified, refining the precision up to ``MAX_PREC`` bits:
    −1, 0 (only when the value is known exactly), +1, or None (undecided)."""
    res = first if first is not None else certified_renyi(mech, alpha)
    while True:
        c = _cmp(res.value, target)
        if c is not None or res.prec >= MAX_PREC:
            return c, res
        res = certified_renyi(mech, alpha, res.prec * 4)


def _cmp(value: Enclosure | Infinity, target: Any) -> int | None:
    if is_inf(value):
        return 0 if is_inf(target) else 1
    if is_inf(target):
        return -1
    if value.exact is not None:
        return ladder.cmp(value.exact, target)
    if is_rational(target):
        return value.cmp(target)
    # an exact real target (log(r), LogLinear): compare with a certified enclosure of it
    prec = 64
    while prec <= 4 * MAX_PREC:
        lo, hi = ball_bounds(ladder.ball(target, prec))
        if value.hi < lo:
            return -1
        if value.lo > hi:
            return 1
        if hi - lo < value.width() / 1024:
            return None
        prec *= 4
    return None


def parse_orders(text: str, max_orders: int) -> list[Order]:
    """The comma-separated Rényi orders of ``text`` (:func:`parse_order`), at most ``max_orders``
    of them: counted before any is read, since each order is a whole analysis of the mechanism.

    Raises
    ------
    LimitExceededError
        More than ``max_orders`` orders (the limit ``--max-orders``).
    ExactDPError
        An order that is not one (its message names it).
    """
    parts = text.split(",")
    if len(parts) > max_orders:
        raise LimitExceededError(
            f"the number of Renyi orders in --alpha ({len(parts)})", max_orders, "raise it with --max-orders N"
        )
    return [parse_order(part.strip()) for part in parts]
