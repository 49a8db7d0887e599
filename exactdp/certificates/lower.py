r"""Lower-bound certificates: a deterministic adversary and an event, from the profile engine's
re-checked witnesses (:mod:`exactdp.analysis.witness`).

The adversary is the engine's :class:`~exactdp.analysis.witness.HullPolicy`: at a history with
likelihood ratio ρ = P_x(h)/P_x'(h) it takes the option whose continuation is worst at λ/ρ.  Its
choice depends only on (node, ρ), both functions of the history, so it is written as a table
``[node, ρ, option]``; the event is T = {views w : P_x(w) > λ P_x'(w)}, written as the list of
the likelihood ratios of its views.  The forward walk that produces the table merges histories
with the same (node, ρ) — exact, since everything downstream depends on them only — and its
probabilities are compared with the witness's independently re-checked ones.

References
----------
Vadhan & Wang (TCC 2021), Def. 1.7 (an event violating (ε, δ)-DP) and Lemma 2.2 (deterministic
adversaries suffice).
"""

from __future__ import annotations

from typing import Any

from ..analysis.results import Profile
from ..analysis.tight import tight_lambda
from ..analysis.witness import HullPolicy, make_witness
from ..errors import VerificationError
from ..model.game import Ask, Chance, End, label_str
from ..numbers import INF
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from .base import num
from .game import ExportedGame

__all__ = ["event_bound", "worst_event", "tight_event", "envelope_events"]

_ONE, _ZERO = Q(1), Q(0)


def event_bound(g: ExportedGame, pair: tuple[int, int], lam: Any) -> dict:
    """The ``lower`` entry of the engine's worst adversary at λ on the ordered ``pair``.

    Raises :class:`VerificationError` when the walk disagrees with the re-checked witness.
    """
    mech = g.mech
    memo = g.chains(pair)
    line = memo[mech.root.uid].line_at(lam)
    policy = HullPolicy(memo, lam)
    w = make_witness(mech, pair, lam, policy, "profile", expected_line=line)  # re-checked
    i, j = pair
    states: dict = {mech.root.uid: {_ONE: [_ONE, _ONE]}}
    final: dict = {}
    strategy = []
    for node in reversed(g.order):  # parents before children
        for ratio, (p, pp) in states.pop(node.uid, {}).items():
            if isinstance(node, End):
                m = final.setdefault(ratio, [_ZERO, _ZERO])
                m[0] += p
                m[1] += pp
            elif isinstance(node, Ask):
                k = policy.choose(node, (), ratio)
                strategy.append([g.node_id(node), _ratio_text(ratio), label_str(node.labels[k])])
                _push(states, node.children[k], p, pp)
            elif isinstance(node, Chance):
                for row, child in zip(node.probs, node.children):
                    _push(states, child, p * row[i], pp * row[j])
    event = [r for r in final if is_inf(r) or r > lam]
    pt = sum((final[r][0] for r in event), _ZERO)
    ppt = sum((final[r][1] for r in event), _ZERO)
    if (pt, ppt) != (w.p, w.p_prime):
        raise VerificationError(
            f"event certificate of {mech.name}: the walk gives ({q_str(pt)}, {q_str(ppt)}), the witness ({q_str(w.p)}, {q_str(w.p_prime)})"
        )
    return {
        "game": g.name,
        "pair": list(mech.pair_names(pair)),
        "strategy": strategy,
        "event": sorted((_ratio_text(r) for r in event), key=_sort_key),
        "p": num(pt),
        "p_prime": num(ppt),
    }


def worst_event(g: ExportedGame, prof: Profile, lam: Any) -> dict:
    """The event of the ordered pair where δ_M(λ) is attained."""
    names = prof.worst_pair(lam).pair
    mech = g.mech
    return event_bound(g, (mech.datasets.index(names[0]), mech.datasets.index(names[1])), lam)


def tight_event(g: ExportedGame, prof: Profile, delta: Any) -> dict | None:
    """An event showing that no ε < PrivLoss(M, δ) works: P_x(T) − λ* P_x'(T) = δ with
    P_x'(T) > 0 (λ* = e^PrivLoss), or P_x'(T) = 0 < P_x(T) − δ when PrivLoss = ∞.  It is the
    optimal event on the last linear piece of δ_M before λ* (:func:`tight_lambda`).  None when
    PrivLoss = 0."""
    lam_w = tight_lambda(prof, delta)
    if lam_w is None:
        return None
    ev = worst_event(g, prof, lam_w)
    lam_star: Any = prof.least_lambda(delta)
    p, pp = Q(ev["p"]), Q(ev["p_prime"])
    ok = (pp == 0 and p > delta) if is_inf(lam_star) else (pp > 0 and p - lam_star * pp == delta)
    if not ok:
        raise VerificationError(
            f"the tightness event of {g.mech.name} does not attain delta = {q_str(delta)} at e^eps = {lam_star}"
        )
    return ev


def envelope_events(g: ExportedGame, prof: Profile) -> list[dict]:
    """One event per linear piece of δ_M on λ ≥ 1, in order of increasing λ: their lines
    P_x(T) − λ P_x'(T) have decreasing P_x'(T) and meet at the profile's breakpoints, so their
    maximum (and 0) is exactly δ_M there.  Pieces where δ_M = 0 need no event."""
    bends: list[Any] = prof.envelope.breakpoints(at_least=_ONE)
    bps = sorted(r for r in bends if r > 1)
    points = [(a + b) / 2 for a, b in zip([_ONE] + bps, bps)] + [(bps[-1] if bps else _ONE) + 1]
    out = []
    for lam in points:
        d: Any = prof.delta_at_lambda(lam)
        if d > 0:
            out.append(worst_event(g, prof, lam))
    return out


def _push(states: dict, child, p, pp) -> None:
    if p or pp:
        bucket = states.setdefault(child.uid, {})
        m = bucket.setdefault(p / pp if pp else INF, [_ZERO, _ZERO])
        m[0] += p
        m[1] += pp


def _ratio_text(r: Any) -> str:
    return "inf" if is_inf(r) else num(r)


def _sort_key(text: str) -> tuple:
    return (1, Q(0)) if text == "inf" else (0, Q(text))
