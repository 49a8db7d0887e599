r"""zCDP claims with a symbol, decided by certified branch and bound over (α, s).

``zcdp: {rho: X}`` and ``not_zcdp`` for a mechanism whose probabilities are rational functions
of one declared symbol s, with ρ a rational or a rational function of s, say D_α ≤ ρα (or its
negation) for every real α > 1 (Bun & Steinke 2016, Def. 1.1) — a condition at infinitely many
orders, transcendental in s, so the cell decomposition of :mod:`exactdp.claims.parametric` does
not decide it.  :func:`exactdp.analysis.parametric.zcdp_boxes.decide_zcdp_boxes` does:

* ``zcdp`` **holds** when certified enclosures on finitely many boxes of (α, s) cover the
  domain; ``not_zcdp`` then fails;
* ``zcdp`` **fails** (``not_zcdp`` holds) with a rational value s where the exact concrete
  engine (:mod:`exactdp.analysis.zcdp`, the mechanism with the symbol given the value s) finds
  the mechanism not ρ(s)-zCDP; its verdict and witness are the refutation;
* **undecided** otherwise, with the reason: the ``max_symbol_boxes`` limit, D_α/α touching ρ
  (as at an open end where both tend to 0), an unbounded range, or several symbols.

``not_zcdp`` holds iff the mechanism is not ρ(s)-zCDP at *every* value: a box of s proves it
when a certified lower bound of D_α exceeds ρα on the whole box at one order α (the orders where
the exact engine found the failure at rational values of the symbol are tried first); it is
refuted at a rational value where the exact engine finds the mechanism ρ(s)-zCDP.

References
----------
Bun & Steinke 2016 (Def. 1.1, Prop. 1.3); Mironov 2017 (Prop. 1: D_α nondecreasing in α).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..analysis.parametric import Undecided, rational_of
from ..analysis.parametric.algebraic import compare, rational, real_roots
from ..analysis.parametric.boxes import Box, UniRat
from ..analysis.parametric.boxes import _ball as box_ball
from ..analysis.parametric.engine import least_lambda_of
from ..analysis.parametric.hull import INF
from ..analysis.parametric.logpoly import even_nonnegative
from ..analysis.parametric.zcdp_boxes import FAILS as Z_FAILS
from ..analysis.parametric.zcdp_boxes import HOLDS as Z_HOLDS
from ..analysis.parametric.zcdp_boxes import Rho, ZGame, decide_zcdp_boxes
from ..analysis.parametric.zcdp_steps import steps_prove
from ..analysis.renyi_certified import bounds, renyi_balls
from ..analysis.zcdp import rho_bounds
from ..errors import ExactDPError, VerificationError
from ..lazy import flint
from ..numbers import ladder
from ..numbers.certified import arb_prec
from ..numbers.rational import Q
from ..numbers.symball import is_transcendental, sym_ball
from ..numbers.symbolic import expr_str, is_sym, sympy, to_sympy
from .base import FAILS, HOLDS, UNDECIDED, Analysis, Claim, Verdict
from .parametric import DECIDERS, Parametric, analysis_at, claim_at, verdict_at
from .parametric_boxes import ONE_AT_A_TIME, one_symbol

__all__ = ["by_zcdp_boxes", "decide_zcdp_by_boxes", "rho_of", "rho_symbols"]


def by_zcdp_boxes(claim: Claim) -> bool:
    """Whether the claim is decided here (``zcdp`` or ``not_zcdp``)."""
    return claim.kind in ("zcdp", "not_zcdp")


def decide_zcdp_by_boxes(claim: Any, an: Analysis) -> Verdict:
    """Decide a zCDP claim with a symbol for every value of it (module docstring); raises
    :class:`Undecided` with the reason when it cannot."""
    P = Parametric(an)
    game = P.game(claim.subject)
    used = game.variables() | rho_symbols(claim.rho, P)
    if claim.kind == "zcdp":  # a formal proof needs no boxes, and takes several symbols
        try:
            proved = _by_steps(claim, P, game)
        except ExactDPError:  # a limit reached on the way (a degree): the other ways decide
            proved = None
        if proved is not None:
            return proved
    name, index = one_symbol(P, used, "zCDP", ONE_AT_A_TIME)
    dom = P.domains[index]
    negated = claim.kind == "not_zcdp"

    def refute(s: Fraction, alpha: Fraction | None) -> tuple[Verdict | None, Fraction | None]:
        pt = {name: flint.fmpq(s.numerator, s.denominator)}
        here: Any = claim_at(claim, an, pt)
        there_an = analysis_at(an, pt)
        if rho_bounds(here.rho)[0] <= 0:  # rho vanishes there: no box around it is proved, the claim is left undecided
            return None, None
        if alpha is not None and not _exceeds_at(there_an, here, alpha):
            return None, None  # screened: at this order the exact sums do not exceed rho*alpha*(alpha - 1)
        there = here.check(there_an)
        if alpha is not None and there.status == HOLDS:
            raise VerificationError(
                f"{claim.statement()}: at {name} = {s} a certified Renyi sum exceeds rho*alpha at alpha = {alpha}, "
                "but the exact engine says the mechanism is zCDP there"
            )
        z = there.facts.get("zcdp")
        hint = z.alpha if z is not None and z.status == Z_FAILS and z.alpha is not None else None
        return (there if there.status == FAILS else None), hint

    zg = ZGame(game, index)
    if zg.infinite():
        return _infinite(claim, an, zg, name, dom)
    if not negated:
        try:
            proved = _by_pure_dp(claim, an, P)
        except ExactDPError:  # a limit reached on the way (a degree, the cells): the boxes decide
            proved = None
        if proved is not None:
            return proved
    lo = None if dom.lo is None else _fraction(dom.lo)
    hi = None if dom.hi is None else _fraction(dom.hi)
    res = decide_zcdp_boxes(
        zg,
        rho_of(claim.rho, P, index),
        (lo, dom.lo_closed, hi, dom.hi_closed),
        refute,
        name,
        negated=negated,
    )
    facts: dict[str, Any] = {"domains": (dom,), "symbol_boxes": res.boxes}
    if res.status == Z_HOLDS:
        return Verdict(claim, HOLDS, facts)
    if res.status == Z_FAILS:
        assert res.at is not None and res.there is not None
        facts.update(refuted_at={name: flint.fmpq(res.at.numerator, res.at.denominator)}, there=res.there)
        return Verdict(claim, FAILS, facts, res.there.witness)
    return Verdict(claim, UNDECIDED, facts, reason=res.reason)


def _by_steps(claim: Any, P: Parametric, game: Any) -> Verdict | None:
    """``zcdp`` holds when ρ ≥ Σ ε_ν²/2 along every history of the game, proved formally
    (:mod:`~exactdp.analysis.parametric.zcdp_steps`: each step is ε_ν²/2-zCDP by Bun & Steinke
    2016, Prop. 1.4, and the steps compose); each likelihood ratio must depend on one symbol at
    most and have no zero or pole in that symbol's domain.  None when not proved."""
    if len(game.nodes) > _MAX_STEP_NODES:
        return None

    def positive(r: Any) -> bool:
        names = r.variables()
        if not names:
            return bool(r.to_sympy() > 0)
        if len(names) > 1:
            return False
        index = P.ring.names.index(names[0])
        u = UniRat.of(r, index)
        dom = P.domains[index]
        return not any(_in(x, dom) for f in (u.num, u.den) if f.degree() > 0 for x, _ in real_roots(f.numer()))

    plain = {s: sympy.Symbol(s.name) for s in getattr(claim.rho, "free_symbols", ())}
    rho = claim.rho.xreplace(plain) if is_sym(claim.rho) else to_sympy(claim.rho)
    if not steps_prove(game, rho, positive):
        return None
    why = (
        "every step of every history has likelihood ratios within e^(+-eps_i), so it is eps_i^2/2-zCDP "
        "(Bun-Steinke 2016, Prop. 1.4), the steps compose (Lemma 2.3), and rho >= the sum of eps_i^2/2 along "
        "every history (formally, as polynomials in the logarithms)"
    )
    return Verdict(claim, HOLDS, {"domains": tuple(P.domains), "symbol_boxes": 0, "why": why})


_MAX_STEP_NODES = 4000  # a larger game is left to the boxes (the bound converts each ratio with SymPy)


def _by_pure_dp(claim: Any, an: Analysis, P: Parametric) -> Verdict | None:
    """``zcdp`` holds when ρ(s) ≥ ε(s)²/2 for ε(s) = PrivLoss(M, 0) on every cell: every view
    pair of every adversary then has likelihood ratios within e^{±ε}, so D_α ≤ αε²/2 (Bun &
    Steinke 2016, Prop. 1.4).  The inequality is proved formally — ρ − ε²/2 a sum of squares of
    the logarithms' indeterminates with nonnegative coefficients (:mod:`~exactdp.analysis.
    parametric.logpoly`), such as ρ = log(E)^2/2 for RR_E — so it holds up to the open ends
    where D_α/α and ρ both tend to 0, which boxes cannot reach.  None when it is not proved."""
    zero = rational_of(Q(0), P.ring)
    dec = P.decide(lambda ctx: least_lambda_of(P.profile(claim.subject, ctx), zero, ctx))
    names = {sympy.Symbol(n): s for n, s in an.symbols.symbols.items()}
    rho = claim.rho if is_sym(claim.rho) else to_sympy(claim.rho)
    forms = []
    for _cell, lam in dec.cells:
        if lam is INF:
            return None
        eps = sympy.log(lam.to_sympy().xreplace(names))
        if not even_nonnegative(rho - eps**2 / 2):
            return None
        forms.append(eps)
    shown = sorted({expr_str(e) for e in forms})
    why = (
        f"PrivLoss({claim.of}, 0) = {' or '.join(shown)} on the domain, so D_alpha <= alpha*eps^2/2 "
        f"(Bun-Steinke 2016, Prop. 1.4), and eps^2/2 <= rho (formally, as polynomials in the logarithms)"
    )
    facts: dict[str, Any] = {"domains": tuple(P.domains), "symbol_boxes": 0, "why": why}
    return Verdict(claim, HOLDS, facts)


def _infinite(claim: Any, an: Analysis, zg: ZGame, name: str, dom: Any) -> Verdict:
    """Some view is possible under x alone with probability p₁(s)···p_k(s), no factor ≡ 0: so
    D_α = ∞ — the mechanism is not ρ-zCDP for any ρ — at every value except the real roots of
    the probabilities' numerators (Bun & Steinke 2016, Def. 1.1).  ``zcdp`` fails at a rational
    value off those roots; ``not_zcdp`` holds when the exact engine confirms it at each rational
    root in the domain (an irrational one leaves it undecided)."""
    roots = [r for f in zg.numerators() if f.degree() > 0 for r, _ in real_roots(f.numer()) if _in(r, dom)]
    exact = lambda pt: verdict_at(claim, an, pt)  # noqa: E731
    facts: dict[str, Any] = {"domains": (dom,), "symbol_boxes": 0}
    if claim.kind == "zcdp":
        for q in _candidates(dom):
            if any(r.q is not None and r.q == q for r in roots):
                continue
            there = exact({name: q})
            if there.status == FAILS:
                facts.update(refuted_at={name: q}, there=there)
                return Verdict(claim, FAILS, facts, there.witness)
        raise Undecided(  # pragma: no cover - a view possible under x alone fails at any value off the roots
            "a view is possible under one dataset only, but the exact engine found no value where it fails"
        )
    for r in roots:
        if r.q is None:
            raise Undecided(
                f"a view is possible under one dataset only (D_alpha = inf) at every value of {name} except where a "
                f"probability vanishes, such as the irrational root of {r.poly} near {ladder.decimal(Q(_fraction(r.lo)), 8)}, "
                "where the mechanism is not decided"
            )
        there = exact({name: r.q})
        if there.status != HOLDS:
            if there.status == FAILS:
                facts.update(refuted_at={name: r.q}, there=there)
                return Verdict(claim, FAILS, facts, there.witness)
            raise Undecided(f"at {name} = {r.q}, where a probability vanishes: {there.reason}")
    facts["why"] = "a view is possible under one dataset only at every value: D_alpha = inf for every alpha > 1"
    if roots:
        facts["why"] += f" (the {len(roots)} values where a probability vanishes decided exactly)"
    return Verdict(claim, HOLDS, facts)


def _in(r: Any, dom: Any) -> bool:
    """Whether the algebraic number r lies in the domain."""
    if dom.lo is not None:
        c = compare(r, rational(dom.lo))
        if c < 0 or (c == 0 and not dom.lo_closed):
            return False
    if dom.hi is not None:
        c = compare(r, rational(dom.hi))
        if c > 0 or (c == 0 and not dom.hi_closed):
            return False
    return True


def _candidates(dom: Any) -> list[Any]:
    """A few rational values of the domain: its closed ends, points inside."""
    out = [e for e, closed in ((dom.lo, dom.lo_closed), (dom.hi, dom.hi_closed)) if e is not None and closed]
    inside = _inside(dom)
    out.append(inside)
    for k in (3, 7, 13):
        q = inside + flint.fmpq(1, k) if dom.hi is None else (inside * (k - 1) + dom.hi) / k
        out.append(q)
    return out


def _inside(dom: Any) -> Any:
    """A rational value inside the domain."""
    if dom.lo is not None and dom.hi is not None:
        return (dom.lo + dom.hi) / 2
    if dom.lo is not None:
        return dom.lo + 1
    return flint.fmpq(0) if dom.hi is None else dom.hi - 1


def _exceeds_at(an_pt: Analysis, claim: Any, alpha: Fraction) -> bool:
    """Whether a certified lower bound of log S*(α) of the concrete mechanism exceeds
    ρα(α − 1) (a cheap screen before the exact engine's own decision)."""
    rho = rho_bounds(claim.rho)[1]
    pairs = renyi_balls(an_pt.mech(claim.subject), alpha, 128)
    if any(pb.ball is None for pb in pairs):
        return True
    with arb_prec(128):
        top = pairs[0].ball
        for pb in pairs[1:]:
            top = top.max(pb.ball)
        if not top > 0:
            return False
        lo, _ = bounds(top.log())
    return lo > rho * alpha * (alpha - 1)


def rho_symbols(rho: Any, P: Parametric) -> set[str]:
    """The symbols ρ mentions."""
    if is_transcendental(rho):
        return {str(s) for s in rho.free_symbols}
    return set(rational_of(rho, P.ring).variables())


def rho_of(rho: Any, P: Parametric, index: int) -> Rho:
    """ρ(s) for the boxes: a rational function of the symbol, or, for an expression with
    logarithms (log(E)^2/2), its certified enclosure on each bounded box."""
    if not is_transcendental(rho):
        return UniRat.of(rational_of(rho, P.ring), index)
    symbol = sympy.Symbol(P.ring.names[index], real=True)
    sym = next((s for s in rho.free_symbols if s.name == symbol.name), symbol)

    def ball(box: Box) -> Any:
        if box.lo is None or box.hi is None:
            return flint.arb("nan")  # not bounded on a tail: the box proves nothing
        return sym_ball(rho, {sym: box_ball(box.lo, box.hi)})

    return ball


def _fraction(q: Any) -> Fraction:
    return Fraction(int(q.p), int(q.q)) if hasattr(q, "p") else Fraction(q)


DECIDERS.append((by_zcdp_boxes, decide_zcdp_by_boxes))
