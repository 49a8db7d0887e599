r"""KL claims with a symbol, decided by certified branch and bound over the symbol's domain.

``renyi: {alpha: 1, at_most: X}`` for a mechanism whose probabilities are rational functions of
one declared symbol (and X = q + Σ c·log R(s), R rational functions of it) compares sums of
p·log(p/p'): transcendental in the symbol, so the cell decomposition of
:mod:`exactdp.claims.parametric` does not decide it.  Here it is decided for every value of the
symbol by :func:`exactdp.analysis.parametric.boxes.branch_and_bound`:

* **holds** when certified enclosures of KL(M) − X on finitely many boxes covering the
  domain are all ≤ 0 (``exceeds``: all > 0);
* **fails** with a rational value s of the symbol where the exact concrete engine (the
  mechanism with the symbol given the value s, :func:`~exactdp.claims.parametric.analysis_at`)
  finds the claim false; its verdict and witness are the refutation;
* **undecided** otherwise, with the reason: the ``max_symbol_boxes`` limit, a divergence that
  touches the bound, a tail of an unbounded domain that no enclosure bounds, several symbols, or
  ``equals`` (an equality for every value is not proved by enclosures; it is refuted by a value).

References
----------
Mironov 2017 (Rényi DP, Def. 3; KL is the order-1 limit); Johansson 2017 (Arb).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..analysis.parametric import Undecided
from ..analysis.parametric.boxes import FAILS as B_FAILS
from ..analysis.parametric.boxes import HOLDS as B_HOLDS
from ..analysis.parametric.boxes import KLGame, Target, UniRat, branch_and_bound
from ..analysis.parametric.values import _sympy_of, _terms
from ..errors import InexactValueError
from ..lazy import flint
from ..numbers.ladder import is_inf
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Verdict
from .parametric import DECIDERS, Parametric, refuted_at

__all__ = ["decide_by_boxes", "by_boxes", "one_symbol", "ONE_AT_A_TIME"]


ONE_AT_A_TIME = "decided: the boxes cover one symbol's range at a time; give the others values (params or a sweep)"
"""Why a decider by boxes takes one symbol (:func:`one_symbol`)."""


def one_symbol(P: Parametric, used: set, what: str, why: str) -> tuple[str, int]:
    """The one symbol boxes run over: the only one in ``used`` (the symbols of the game and of
    the bound), else the ring's first; its name and index in the ring.

    Raises
    ------
    Undecided
        With several symbols: "``what`` with several symbols (…) is not ``why``"."""
    if len(used) > 1:
        raise Undecided(f"{what} with several symbols ({', '.join(sorted(used))}) is not {why}")
    name = next(iter(used)) if used else P.ring.names[0]
    return name, P.ring.names.index(name)


def by_boxes(claim: Claim) -> bool:
    """Whether the claim is decided here (a KL claim: ``renyi`` with alpha 1)."""
    alpha = getattr(claim, "alpha", None)
    return claim.kind == "renyi" and alpha is not None and not is_inf(alpha) and alpha == 1


def _key(claim: Any) -> tuple[str, Any]:
    return next((k, getattr(claim, k)) for k in ("equals", "at_most", "exceeds") if getattr(claim, k) is not None)


def _fraction(q: Any) -> Fraction:
    return Fraction(int(q.p), int(q.q)) if hasattr(q, "p") else Fraction(q)


def _target(raw: Any, P: Parametric) -> tuple[Fraction, list[tuple[Fraction, Any]], set[str]]:
    """X = q + Σ c·log R: (q, [(c, R as a RatFun)], the symbols it uses)."""
    logs, q = _terms(_sympy_of(raw))
    out: list[tuple[Fraction, Any]] = []
    used: set[str] = set()
    for c, X in logs:
        try:
            R = P.ring.from_sympy(X)
        except InexactValueError as e:  # not a rational function of the symbols
            raise Undecided(
                f"the bound's term log({X}) is not the log of a rational function of the symbols ({e})"
            ) from None
        used.update(R.variables())
        out.append((Fraction(int(c.p), int(c.q)), R))
    return Fraction(int(q.p), int(q.q)), out, used


def decide_by_boxes(claim: Any, an: Analysis) -> Verdict:
    """Decide a KL claim with a symbol for every value of it (module docstring); raises
    :class:`Undecided` with the reason when it cannot."""
    P = Parametric(an)
    sense, raw = _key(claim)
    if is_inf(raw):
        if sense == "at_most":
            trivial = {"domains": tuple(P.domains), "symbol_boxes": 0, "why": "every divergence is at most inf"}
            return Verdict(claim, HOLDS, trivial)
        raise Undecided(
            f"a KL divergence {'equal to' if sense == 'equals' else 'above'} inf for every value is not decided with symbols"
        )
    game = P.game(claim.subject)
    q, logs, used = _target(raw, P)
    used |= game.variables()
    name, index = one_symbol(
        P,
        used,
        "the KL divergence",
        "decided: the branch and bound over a symbol's domain takes one symbol at a time; give the others values "
        "(params or a sweep)",
    )
    dom = P.domains[index]
    kg = KLGame(game, index)
    target = Target(q, tuple((c, UniRat.of(R, index)) for c, R in logs))
    lo = None if dom.lo is None else _fraction(dom.lo)
    hi = None if dom.hi is None else _fraction(dom.hi)

    def refute(s: Fraction) -> Verdict:
        return refuted_at(claim, an, name, s, "a certified enclosure there says the claim fails")

    res = branch_and_bound(kg, target, sense, (lo, dom.lo_closed, hi, dom.hi_closed), refute, name)
    facts: dict[str, Any] = {"domains": (dom,), "symbol_boxes": res.boxes}
    if res.status == B_HOLDS:
        return Verdict(claim, HOLDS, facts)
    if res.status == B_FAILS:
        assert res.at is not None
        facts.update(refuted_at={name: flint.fmpq(res.at.numerator, res.at.denominator)}, there=res.there)
        return Verdict(claim, FAILS, facts, res.there.witness)
    why = res.reason
    if sense == "equals":
        why = (
            f"an equality for every value of {name} is not proved by enclosures, and no rational value refuted it "
            f"({why})"
        )
    return Verdict(claim, UNDECIDED, facts, reason=why)


DECIDERS.append((by_boxes, decide_by_boxes))
