r"""Certificates for every claim kind: the body of each — the claim in the checker's terms, the
verdict, the games and the proof objects — with the verdict decided from exactdp's own exact
results; the ``certify`` pipeline compares it with the claim's verdict.  What each needs
(docs/certificates.md):

* claims at one e^ε (``dp``, ``not_dp``, ``delta``, ``privloss``): nothing but the game and, for
  PrivLoss, its value — the checker computes δ(λ) and its left derivative at λ itself; an e^ε
  outside the certificate's field gets a rational ``bracket`` on the right side of it;
* ``profile_le``/``profile_eq``/``fdp``/``not_fdp``, ``gdp``/``not_gdp``, ``tradeoff``, ``renyi``,
  bounded range: the games only (the checker computes the profiles, divergences and ranges itself);
* ``simulates_rr``: T's table per adjacent pair, or per pair without T the Farkas multipliers or
  the pair breaking (ε, δ)-DP (:mod:`.simulation`);
* ``composition``: the components' games, their (ε_i, δ_i) and PrivLoss of the composition; the
  checker builds the concurrent composition and recomputes the theorem's bound.

References
----------
Vadhan & Wang (TCC 2021), Def. 1.7, Lemma 2.2, Thm 1.10, Def. 5.1; PrivLoss(M, δ) =
inf{ε ≥ 0 : M is (ε, δ)-DP} (§5); Dong, Roth & Su (2022), Prop. 2.12, Def. 2.6; Dong, Durfee &
Rogers (2020), Def. 2.2.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..analysis.results import Profile, value_cmp
from ..lazy import mpmath
from ..numbers import ladder
from ..numbers.ladder import QQ, QT, is_inf
from ..numbers.qt import monomial
from ..numbers.rational import Q
from ..simulation.approx import ApproxCertificate
from .base import ExpValue, NoCertificate, Source, exp_eps, fields_of
from .game import ExportedGame, check_point_states, export_game, game_label
from .simulation import farkas_entry, t_table

__all__ = [
    "privloss_certificate",
    "dp_certificate",
    "delta_certificate",
    "profile_certificate",
    "simulation_certificate",
    "gdp_certificate",
    "tradeoff_certificate",
    "br_certificate",
]


def _body(claim: dict, holds: bool, games: list[ExportedGame], proof: dict, found: str) -> dict:
    return {
        "claim": claim,
        "verdict": "holds" if holds else "fails",
        "exactdp": {"found": found},
        "games": {g.name: g.doc for g in games},
        "proof": proof,
    }


def _game(src: Source, subject: Any) -> tuple[ExportedGame, Profile]:
    """The exported game of a claim's subject — a mechanism name, or (name, pairs) for a claim
    with its own pairs of datasets, or (name, pairs, "nonadaptive") for a claim about
    non-adaptive adversaries: then the game whose root chooses the whole sequence of queries
    (:func:`~exactdp.model.nonadaptive.nonadaptive_game`) — once per analysis (its chains serve
    every claim on it)."""
    g: Any = src.cached(("certificate-game", subject), lambda: export_game(src.mech(subject), game_label(subject)))
    return g, src.profile(subject)


def _claimed(lam: Any, g: ExportedGame) -> Any:
    """A claim's e^eps as the certificate writes it: ``exp(q)`` when it lies outside the field of
    the game's probabilities (eps = 4.31 against a game in t = e^(1/10)).  Written in the field,
    it would lift the whole game to t = e^(1/100): ten times the degree the checker must walk."""
    mono = monomial(lam) if ladder.is_exact(lam) and ladder.domain_of(lam) is QT else None
    if mono is None or mono[0] != 1:
        return lam
    found: list[int] = []
    fields_of(g.doc, found)
    return lam if not found or math.lcm(*found) % lam.L == 0 else ExpValue(mono[1])


def _cmp(x: Any, y: Any) -> int:
    """The order of two values of e^ε (rationals, field elements, e^q, INF)."""
    if isinstance(x, ExpValue) or isinstance(y, ExpValue):
        return _cmp(_as_real(x), _as_real(y))
    return ladder.cmp(x, y)  # (∞ included: the ladder's top)


def _as_real(x: Any) -> Any:
    return ladder.exp(x.q) if isinstance(x, ExpValue) else x


def privloss_certificate(src: Source, of: Any, delta: Any, relation: str, value: Any) -> dict:
    """``privloss: {delta: d, equals|at_most: e}``: the certificate states L = e^PrivLoss, which
    the checker pins by δ(L) = δ with a negative left derivative (or δ(1) ≤ δ; or the limit > δ
    for L = ∞), and compares with the claimed value."""
    delta = _num(delta)
    g, prof = _game(src, of)
    lam_c = _claimed(exp_eps(value), g)
    check_point_states(g)
    lam = prof.least_lambda(delta)
    c = _cmp(lam, lam_c)
    holds = c == 0 if relation == "equals" else c <= 0
    claim = {"kind": "privloss", "of": g.name, "delta": delta, "relation": relation, "exp_eps": lam_c}
    return _body(claim, holds, [g], {"exp_privloss": lam}, f"e^PrivLoss = {lam}")


def dp_certificate(src: Source, of: Any, eps: Any, delta: Any, negated: bool) -> dict:
    """``dp`` / ``not_dp``: the game (the checker computes δ_M(e^ε)); for e^ε = e^q outside the
    field, a rational bracket b < e^q with δ_M(b) ≤ δ, or b > e^q with δ_M(b) > δ."""
    lam, delta = _finite(exp_eps(eps)), _num(delta)
    g, prof = _game(src, of)
    check_point_states(g)

    d: Any = prof.delta_at(eps)
    is_dp = value_cmp(d, delta) <= 0
    if not isinstance(lam, ExpValue) and isinstance(claimed := _claimed(lam, g), ExpValue):
        try:  # (in the game's own field, with a bracket when one decides the claim)
            return _dp_body(g, negated, claimed, delta, is_dp, {"bracket": _bracket(prof, claimed.q, delta, is_dp)}, d)
        except NoCertificate:
            pass
    proof = {"bracket": _bracket(prof, lam.q, delta, is_dp)} if isinstance(lam, ExpValue) else {}
    return _dp_body(g, negated, lam, delta, is_dp, proof, d)


def _dp_body(g: ExportedGame, negated: bool, lam: Any, delta: Any, is_dp: bool, proof: dict, d: Any) -> dict:
    claim = {"kind": "not_dp" if negated else "dp", "of": g.name, "exp_eps": lam, "delta": delta}
    return _body(claim, is_dp != negated, [g], proof, f"delta_M(e^eps) = {d}")


def _bracket(prof: Profile, q: Any, delta: Any, below: bool) -> Any:
    """A rational b on the side of e^q where δ_M(b) decides the claim like δ_M(e^q) does."""
    f = Fraction(str(q))
    for prec in (64, 128, 256, 512, 1024, 2048):
        with mpmath.workprec(prec + 20):  # interval arithmetic: e^q lies in [lo, hi]
            iv = mpmath.iv.exp(mpmath.iv.mpf(f.numerator) / mpmath.iv.mpf(f.denominator))
            lo, hi = (_exact(end) for end in (iv.a, iv.b))
        for k in (8, 16, 32, 64, prec):
            b = Q(Fraction(math.floor(lo * 2**k), 2**k)) if below else Q(Fraction(math.ceil(hi * 2**k), 2**k))
            v = prof.delta_at_lambda(b)
            if (v <= delta) if below else (v > delta):
                return b
    raise NoCertificate(f"no rational e^eps near e^({q}) decides the claim")


def _exact(x: Any) -> Fraction:
    man, exp = mpmath.mpf(x).man_exp
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def delta_certificate(src: Source, of: Any, eps: Any, equals: Any) -> dict:
    """``delta: {eps: e, equals: d}``: the game; the checker computes δ_M(e^ε)."""
    lam = _finite(exp_eps(eps))
    if isinstance(lam, ExpValue):
        raise NoCertificate(f"e^eps = e^({lam.q}) lies outside the certificate's field; delta claims need it inside")
    g, prof = _game(src, of)
    check_point_states(g)
    d: Any = prof.delta_at_lambda(lam)
    claim = {"kind": "delta", "of": g.name, "exp_eps": lam, "equals": _num(equals)}
    return _body(claim, d == equals, [g], {}, f"delta_M(e^eps) = {d}")


def profile_certificate(src: Source, of: Any, other: Any, kind: str) -> dict:
    """``profile_le: {than: N}`` / ``profile_eq: {as: N}`` on every λ = e^ε ≥ 1; ``fdp: {f: N}``
    and ``not_fdp`` as ``profile_le`` (f-DP with f = T(N) is profile domination, Dong, Roth &
    Su 2022, Prop. 2.12): the games (the checker computes both profiles)."""
    g, prof = _game(src, of)
    h, prof_h = (g, prof) if other == of else _game(src, other)
    holds = prof.le_on_eps_ge_0(prof_h)[0] and (kind != "profile_eq" or prof_h.le_on_eps_ge_0(prof)[0])
    key = {"profile_le": "than", "profile_eq": "as"}.get(kind, "f")
    claim = {"kind": kind, "of": g.name, key: h.name}
    return _body(claim, holds != (kind == "not_fdp"), [g] if h is g else [g, h], {}, "computed by the checker")


def gdp_certificate(src: Source, of: Any, mu: Any, negated: bool, holds: bool) -> dict:
    """``gdp`` / ``not_gdp``: the game (the checker computes the vertices of T(M) and compares
    them with G_μ); ``holds`` is exactdp's verdict."""
    g, _ = _game(src, of)
    claim = {"kind": "not_gdp" if negated else "gdp", "of": g.name, "mu": _num(mu)}
    return _body(claim, holds, [g], {}, "computed by the checker")


def tradeoff_certificate(src: Source, of: Any, alpha: Any, relation: str, bound: Any, holds: bool) -> dict:
    """``tradeoff: {alpha: a, equals|at_least|at_most: b}``: the game (the checker computes T(M)(a)
    from the vertices of the envelope's chain, Dong, Roth & Su 2022, Def. 2.1); ``holds`` is
    exactdp's verdict."""
    g, _ = _game(src, of)
    claim = {"kind": "tradeoff", "of": g.name, "alpha": _num(alpha), "relation": relation, "bound": _num(bound)}
    return _body(claim, holds, [g], {}, "computed by the checker")


def br_certificate(src: Source, of: Any, kind: str, value: Any, adversaries: str, holds: bool) -> dict:
    """Bounded range: the game (the checker recomputes the BR-range, Dong, Durfee & Rogers 2020)."""
    g, _ = _game(src, of)
    lam = exp_eps(value)
    claim = {"kind": kind, "of": g.name, "equals" if kind == "br_range" else "exp_eps": lam, "adversaries": adversaries}
    return _body(claim, holds, [g], {}, "recomputed by the checker from the game")


def simulation_certificate(src: Source, of: Any, eps_default: bool, lam: Any, delta: Any, sim, negated: bool) -> dict:
    """``simulates_rr`` / ``not_simulates_rr`` from a checked :class:`~exactdp.simulation.
    simulate.Simulation`: T's table per pair with T; per pair without, the Farkas multipliers
    or the ordered pair breaking (ε, δ)-DP; with the default ε, e^PrivLoss(M, δ)."""

    g, prof = _game(src, of)
    check_point_states(g)
    proof: dict = {}
    if eps_default:
        proof["exp_privloss"] = prof.least_lambda(delta)
    if not is_inf(lam):
        if ladder.domain_of(lam) not in (QQ, QT):
            raise NoCertificate("e^eps is not exact in the certificate's numbers (a symbolic eps)")
        for pr in sim.pairs:
            if pr.T is not None:
                proof.setdefault("simulation", []).append(t_table(pr.T))
            elif isinstance(pr.certificate, ApproxCertificate):
                proof.setdefault("farkas", []).append(farkas_entry(pr.certificate))
            else:
                proof.setdefault("breaks", []).append(_breaking_pair(g, pr.pair, lam, delta))
    exists = not is_inf(lam) and all(pr.T is not None for pr in sim.pairs)
    claim = {
        "kind": "not_simulates_rr" if negated else "simulates_rr",
        "of": g.name,
        "delta": _num(delta),
        "exp_eps": None if eps_default else lam,
    }
    found = f"T exists for {sum(p.T is not None for p in sim.pairs)} of {len(sim.pairs)} pairs"
    return _body(claim, exists != negated, [g], proof, found)


def _breaking_pair(g: ExportedGame, pair: tuple[int, int], lam: Any, delta: Any) -> list[str]:
    """The order of ``pair`` whose δ at λ exceeds δ."""
    i, j = pair
    for p in ((i, j), (j, i)):
        if g.chains(p)[g.mech.root.uid].value_at(lam) > delta:
            return list(g.mech.pair_names(p))
    raise NoCertificate(f"pair {g.mech.pair_names(pair)} is (eps, delta)-DP, yet no T was found")  # pragma: no cover


def _num(x: Any) -> Any:
    """A parameter as exactdp's number (a plain int would be taken for an id when written)."""
    return Q(x) if type(x) is int else x


def _finite(lam: Any) -> Any:
    if is_inf(lam):
        raise NoCertificate("eps = inf: every mechanism is (inf, delta)-DP; nothing to certify")
    return lam
