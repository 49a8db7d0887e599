r"""Certificates for the claim kinds of case-format version 1 and ``simulates_rr``.

Each builder returns the body of a certificate — the claim in the checker's terms, the verdict,
the games and the proof objects — and decides the verdict from the exact profile itself; the
``certify`` pipeline compares it with the claim's own verdict.  What each verdict needs
(docs/certificates.md):

* δ_M(e^ε) ≤ δ (``dp``, PrivLoss ≤, the upper half of PrivLoss =, ``delta``): chains for every
  node and ordered pair (:mod:`.upper`);
* δ_M(e^ε) > δ, or PrivLoss ≥ log λ* (``not_dp``, the lower half of PrivLoss =): an adversary
  and an event (:mod:`.lower`);
* ``profile_le``/``profile_eq``: chains for one mechanism, events on every linear piece of the
  other's profile; a failure: an event beating the other's chains at one λ;
* ``simulates_rr``: T's table per adjacent pair, or "no T": an event breaking (ε, δ)-DP on the
  pair, or Farkas multipliers (:mod:`.simulation`).

References
----------
Vadhan & Wang (TCC 2021), Def. 1.7, Lemma 2.2, Thm 1.10, Def. 5.1; PrivLoss(M, δ) =
inf{ε ≥ 0 : M is (ε, δ)-DP} (§5).
"""

from __future__ import annotations

from typing import Any

from ..analysis.results import Profile
from ..numbers.rational import Q
from ..numbers.real import INF, Infinity
from .base import NoCertificate, Source, exact_lambda, lam_text, num
from .game import ExportedGame, export_game
from .lower import envelope_events, tight_event, worst_event
from .upper import upper_bounds

__all__ = [
    "privloss_certificate",
    "dp_certificate",
    "delta_certificate",
    "profile_certificate",
    "simulation_certificate",
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
    with its own pairs of datasets — once per analysis (its chains serve every claim on it)."""
    if not isinstance(subject, str) and len(subject) > 2:
        raise NoCertificate("claims about non-adaptive adversaries have no certificate yet")
    label = subject if isinstance(subject, str) else f"{subject[0]} (the claim's pairs)"
    g: Any = src.cached(("certificate-game", subject), lambda: export_game(src.mech(subject), label))
    return g, src.profile(subject)


def privloss_certificate(src: Source, of: str, delta: Any, relation: str, value: Any) -> dict:
    """``privloss: {delta: d, equals|at_most: e}``.  The value L = e^PrivLoss is pinned from
    above by chains at L (M is (log L, δ)-DP) and from below by the tightness event."""
    lam_c = exact_lambda(value)
    g, prof = _game(src, of)
    lam = prof.least_lambda(delta)
    if relation == "equals":
        holds = not _lt(lam, lam_c) and not _lt(lam_c, lam)
        want_upper, want_lower = holds or _lt(lam, lam_c), holds or _lt(lam_c, lam)
    else:
        holds = not _lt(lam_c, lam)
        want_upper, want_lower = holds and not isinstance(lam_c, Infinity), not holds
    proof: dict = {}
    if want_upper and not isinstance(lam, Infinity):
        proof["upper_at"] = num(lam)
        proof["upper"] = upper_bounds(g, (lam, lam))
    ev = tight_event(g, prof, delta) if want_lower else None
    if ev is not None:
        proof["lower"] = [ev]
    claim = {"kind": "privloss", "of": g.name, "delta": num(delta), "relation": relation, "exp_eps": lam_text(lam_c)}
    return _body(claim, holds, [g], proof, f"e^PrivLoss = {lam_text(lam)}")


def dp_certificate(src: Source, of: str, eps: Any, delta: Any, negated: bool) -> dict:
    """``dp`` / ``not_dp``: chains when δ_M(e^ε) ≤ δ, else the worst event at e^ε."""
    lam = _finite(exact_lambda(eps))
    g, prof = _game(src, of)
    d: Any = prof.delta_at_lambda(lam)
    is_dp = d <= delta
    proof = {"upper": upper_bounds(g, (lam, lam))} if is_dp else {"lower": [worst_event(g, prof, lam)]}
    claim = {"kind": "not_dp" if negated else "dp", "of": g.name, "exp_eps": num(lam), "delta": num(delta)}
    return _body(claim, is_dp != negated, [g], proof, f"delta_M(e^eps) = {num(d)}")


def delta_certificate(src: Source, of: str, eps: Any, equals: Any) -> dict:
    """``delta: {eps: e, equals: d}``: chains for δ_M(e^ε) ≤ d, an event for ≥ d."""
    lam = _finite(exact_lambda(eps))
    g, prof = _game(src, of)
    d: Any = prof.delta_at_lambda(lam)
    proof: dict = {}
    if d <= equals:
        proof["upper"] = upper_bounds(g, (lam, lam))
    if d >= equals and d > 0:
        proof["lower"] = [worst_event(g, prof, lam)]
    claim = {"kind": "delta", "of": g.name, "exp_eps": num(lam), "equals": num(equals)}
    return _body(claim, d == equals, [g], proof, f"delta_M(e^eps) = {num(d)}")


def profile_certificate(src: Source, of: str, other: str, kind: str) -> dict:
    """``profile_le: {than: N}`` / ``profile_eq: {as: N}`` on every λ = e^ε ≥ 1; ``fdp: {f: N}``
    and ``not_fdp`` as ``profile_le`` (f-DP with f = T(N) is profile domination, Dong, Roth &
    Su 2022, Prop. 2.12; the checker states why λ ≥ 1 suffices)."""
    g, prof = _game(src, of)
    h, prof_h = (g, prof) if other == of else _game(src, other)
    games = [g] if h is g else [g, h]
    directions = [(g, prof, h, prof_h)] + ([(h, prof_h, g, prof)] if kind == "profile_eq" and h is not g else [])
    key = {"profile_le": "than", "profile_eq": "as"}.get(kind, "f")
    claim = {"kind": kind, "of": g.name, key: h.name}
    negated = kind == "not_fdp"
    for m, pm, n, pn in directions:
        ok, lam = pm.le_on_eps_ge_0(pn)
        at: Any = lam
        if not ok:
            if isinstance(at, Infinity):  # beyond every bend both are constant
                bends: list[Any] = pm.envelope.breakpoints() + pn.envelope.breakpoints() + [Q(1)]
                at = max(bends) + 1
            proof = {"at": num(at), "lower": [worst_event(m, pm, at)], "upper": upper_bounds(n, (at, at))}
            return _body(claim, negated, games, proof, f"at e^eps = {num(at)} the profiles differ")
    upper, lower = [], []
    for m, _, n, pn in directions:
        upper += upper_bounds(m, (Q(1), INF))
        lower += envelope_events(n, pn)
    return _body(claim, not negated, games, {"upper": upper, "lower": lower}, "dominated for every eps >= 0")


def simulation_certificate(src: Source, of: str, eps_default: bool, lam: Any, delta: Any, sim, negated: bool) -> dict:
    """``simulates_rr`` / ``not_simulates_rr`` from a checked :class:`~exactdp.simulation.
    simulate.Simulation`: T's table per pair with T; per pair without, the Farkas multipliers
    or an event breaking (ε, δ)-DP; with the default ε = PrivLoss(M, δ), the tightness event."""
    from ..simulation.approx import ApproxCertificate
    from .simulation import farkas_entry, t_table

    g, prof = _game(src, of)
    proof: dict = {}
    lower: list = []
    if eps_default:
        proof["exp_eps_used"] = lam_text(lam)
        ev = tight_event(g, prof, delta)
        if ev is not None:
            lower.append(ev)
    if not isinstance(lam, Infinity):
        lam = _finite(exact_lambda_of(lam))
        for pr in sim.pairs:
            if pr.T is not None:
                proof.setdefault("simulation", []).append(t_table(pr.T))
            elif isinstance(pr.certificate, ApproxCertificate):
                proof.setdefault("farkas", []).append(farkas_entry(pr.certificate))
            else:
                lower.append(_breaking_event(g, pr.pair, lam, delta))
    elif not lower:  # pragma: no cover - PrivLoss = inf always has an event
        raise NoCertificate("no event shows PrivLoss = inf")
    if lower:
        proof["lower"] = lower
    exists = not isinstance(lam, Infinity) and all(pr.T is not None for pr in sim.pairs)
    claim = {
        "kind": "not_simulates_rr" if negated else "simulates_rr",
        "of": g.name,
        "delta": num(delta),
        "exp_eps": None if eps_default else lam_text(lam),
    }
    return _body(
        claim,
        exists != negated,
        [g],
        proof,
        f"T exists for {sum(p.T is not None for p in sim.pairs)} of {len(sim.pairs)} pairs",
    )


def exact_lambda_of(lam: Any) -> Any:
    """e^ε given directly (the simulation's E): must be rational."""
    if not hasattr(lam, "numerator"):
        raise NoCertificate("e^eps is not rational (a decimal or symbolic eps)")
    return lam


def _breaking_event(g: ExportedGame, pair: tuple[int, int], lam: Any, delta: Any) -> dict:
    """The worst event at λ on whichever order of ``pair`` violates (ε, δ)-DP."""
    i, j = pair
    for p in ((i, j), (j, i)):
        line = g.chains(p)[g.mech.root.uid].line_at(lam)
        if line[0] - lam * line[1] > delta:
            from .lower import event_bound

            return event_bound(g, p, lam)
    raise NoCertificate(f"pair {g.mech.pair_names(pair)} is (eps, delta)-DP, yet no T was found")  # pragma: no cover


def _finite(lam: Any) -> Any:
    if isinstance(lam, Infinity):
        raise NoCertificate("eps = inf: every mechanism is (inf, delta)-DP; nothing to certify")
    return lam


def _lt(x: Any, y: Any) -> bool:
    """x < y on [0, ∞]."""
    if isinstance(x, Infinity):
        return False
    return isinstance(y, Infinity) or x < y
