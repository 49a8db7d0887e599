r"""Certificates for ``renyi`` claims (every order: α = 1, the KL divergence; whole α ≥ 2; α = ∞; fractions α > 1).

The checker recomputes the value from the game — D_α(M) = log(r*)/(α − 1) with r* the largest,
over ordered adjacent pairs, of the sup over deterministic adversaries of Σ_v P(v)^α P'(v)^(1−α)
(Mironov 2017, Def. 3; views contain the adversary's coins), D_∞ the log of the largest
likelihood ratio, D_1 the sup of Σ_v P(v) log(P(v)/P'(v)) — so the certificate is the explicit
game and the claim, with the claimed value X = s + Σ c_i·log(b_i) written as terms ``[b, c]``
(and ``["e", s]`` for the rational part).  The checker compares exactly: a sum of logarithms of
multiplicatively independent integers is 0 only when every coefficient is, else its sign is
decided from rigorous bounds.  At a fraction α, and for KL over ℚ(e^{1/L}), D_α is
transcendental in general: the checker bounds each term p (p/p')^(α−1) = p e^((α−1) log(p/p'))
and the logarithms by their series, refining until the comparison with X is decided (only claims
exactdp decided get a certificate, and an equality only at 0 or inf, where every term is exact).
"""

from __future__ import annotations

from typing import Any

from ..analysis.renyi import RenyiResult
from ..analysis.renyi_certified import Enclosure
from ..analysis.renyi_real import is_whole, rational_probabilities
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.loglinear import as_log_linear
from ..numbers.rational import Q, is_rational
from .base import NoCertificate, Source, textify
from .build import _body, _game, _num
from .game import check_point_states

__all__ = ["renyi_certificate", "conversion_certificate", "enclosure_reason", "bounded_certificate"]

MAX_ORDER = 10_000  # the largest alpha the checker accepts
MAX_DENOMINATOR = 2**20  # the largest denominator of a fraction alpha it accepts
MAX_BITS = 1_000_000  # the checker's default --max-bits
MAX_FIELD_POWER = 500  # (alpha - 1) times the degree in t of a probability, for a Renyi sum over Q(t)


def renyi_certificate(src: Source, of: Any, alpha: Any, relation: str, target: Any, holds: bool, res: Any) -> dict:
    """``renyi: {alpha: a, equals|at_most|exceeds: X}`` as the checker states it; ``holds`` is
    exactdp's verdict, which the checker re-derives from the game; ``res`` is exactdp's value (a
    RenyiResult, or for a fraction α, which the checker bounds, a CertifiedRenyi enclosure)."""
    _guard(alpha, res)
    g, _ = _game(src, of)
    field = not rational_probabilities(src.mech(of))
    bounds = field and _large_powers(g, alpha)
    bounded = bounds or not (is_inf(alpha) or is_whole(alpha)) or (alpha == 1 and field)
    if bounded and relation == "equals" and holds and not is_inf(target) and ladder.cmp(target, 0) != 0:
        why = f"powers of degree beyond {MAX_FIELD_POWER} in e^(1/L)" if bounds else "no exact form in general"
        raise NoCertificate(
            f"D_{alpha} here has {why}: the checker bounds it, and bounds decide an equality only at 0 or inf "
            "(where every term is exact)"
        )
    claim = {
        "kind": "renyi",
        "of": g.name,
        "alpha": "inf" if is_inf(alpha) else str(alpha),
        "relation": relation,
        "bound": _bound(target),
    }
    return _body(claim, holds, [g], {"by_bounds": "yes"} if bounds else {}, f"D = {_shown(res.value)}")


def conversion_certificate(src: Source, of: Any, theorem: str, alpha: Any, delta: Any, holds: bool, res: Any) -> dict:
    """``conversion: {theorem: renyi-to-dp | renyi-to-dp-cks, alpha: a, delta: d}``: the game and
    e^PrivLoss(M, d), which the checker pins as for ``privloss``; it recomputes D_a and the
    theorem's bound (Mironov 2017, Prop. 3; Canonne, Kamath & Steinke 2020, Prop. 12) itself."""
    _guard(alpha, res)
    g, prof = _game(src, of)
    if not rational_probabilities(src.mech(of)):
        raise NoCertificate(_FIELD_REASON)
    if not is_rational(delta):
        raise NoCertificate(
            f"delta = {ladder.text(delta)} lies in Q(e^(1/L)): the checker evaluates a conversion's bound with logarithms "
            "of rationals"
        )
    check_point_states(g)
    claim = {"kind": "conversion", "of": g.name, "theorem": theorem, "alpha": str(alpha), "delta": _num(delta)}
    lam = prof.least_lambda(delta)
    return _body(claim, holds, [g], {"exp_privloss": lam}, f"e^PrivLoss = {lam}, D = {_shown(res.value)}")


def _shown(value: Any) -> str:
    """exactdp's value as text: exact, or a certified enclosure [lo, hi] (which has no exact form)."""
    if isinstance(value, Enclosure):
        return ladder.text(value.exact) if value.exact is not None else f"in [{value.lo}, {value.hi}]"
    return ladder.text(value)


def _guard(alpha: Any, res: Any) -> None:
    """Orders and sums beyond what the checker accepts by default have no certificate."""
    if not is_inf(alpha) and int(alpha) > MAX_ORDER:
        raise NoCertificate(f"orders above {MAX_ORDER} have no certificate: the checker bounds the powers it computes")
    worst = res.worst_pair() if isinstance(res, RenyiResult) else None
    if worst is not None and not is_inf(worst.total) and ladder.bits(worst.total) * 4 > MAX_BITS:
        raise NoCertificate(
            f"the Renyi sum has about {ladder.bits(worst.total)} bits: more than the checker's --max-bits allows"
        )


def _large_powers(g: Any, alpha: Any) -> bool:
    """Whether the checker's exact Rényi sum at a whole order over ℚ(e^{1/L}) would raise
    probabilities to powers of degree beyond MAX_FIELD_POWER in t = e^{1/L} (its default
    --max-steps would refuse them): then the certificate asks for bounds, as at a fraction."""
    if is_inf(alpha) or alpha == 1 or not is_whole(alpha):
        return False
    doc = textify({"game": g.doc})["game"]
    parts = [part for nd in doc["nodes"] for _, row, _ in nd.get("answer", []) for p in row for part in p.split("/")]
    degree = max((part.count(",") for part in parts), default=0)  # of a numerator or denominator
    return (int(alpha) - 1) * degree > MAX_FIELD_POWER


_FIELD_REASON = (
    "conversion certificates need rational probabilities: these lie in Q(e^(1/L)) (a decimal eps, or the "
    "e^(-x^2/(2 sigma^2)) of a discrete Gaussian), and the checker compares a conversion's logarithms of rationals"
)


def bounded_certificate(mech: Any, alpha: Any) -> bool:
    """Whether the checker can decide a claim about D_α that exactdp decided by a certified
    enclosure: α a fraction > 1 (α <= MAX_ORDER with a denominator <= MAX_DENOMINATOR), or KL, a whole
    α >= 2 or ∞ on probabilities in ℚ(e^{1/L}) (exact, or by bounds)."""
    if is_inf(alpha) or is_whole(alpha):
        return not rational_probabilities(mech)
    return alpha.denominator <= MAX_DENOMINATOR and alpha <= MAX_ORDER


def enclosure_reason(mech: Any, alpha: Any, status: Any = None) -> str:
    """Why a Rényi value known only by a certified enclosure has no certificate: the checker
    recomputes D_α exactly at whole orders and ∞ and bounds it elsewhere (KL, fraction orders, and
    over ℚ(e^{1/L})) until the comparison is decided, which needs an order it takes and a claim
    exactdp decided."""
    if not is_whole(alpha) and (alpha.denominator > MAX_DENOMINATOR or alpha > MAX_ORDER):
        return f"D_{alpha}: orders beyond {MAX_ORDER} or with a denominator beyond 2^20 have no certificate"
    if status is not None:
        return (
            f"D_{alpha} is decided by bounds; this claim is {status} here, and the checker certifies only decided "
            "comparisons"
        )
    return (
        f"D_{alpha} has no exact form here (exactdp decides it by a certified enclosure); the checker compares "
        "exact values only"
    )


def _bound(target: Any) -> Any:
    """X as "inf" or its terms [[b, c], ...] for X = Σ c·log(b) (b = "e" for the rational part)."""
    if is_inf(target):
        return "inf"
    ll = as_log_linear(target)
    if ll is None:
        raise NoCertificate(
            f"the value {target} is the logarithm of a number of Q(e^(1/L)): the checker compares divergences with "
            "a rational plus rational multiples of logarithms of rationals"
        )
    terms: list = [[Q(b), Q(c)] for b, c in ll.terms]
    return terms + ([["e", Q(ll.s)]] if ll.s != 0 else [])
