r"""M as a post-processing of randomized response (claim kinds ``simulates_rr``,
``not_simulates_rr``; Vadhan & Wang 2021, Thm 1.10): T's table checked row by row, or Farkas
multipliers showing that no T exists.  Relies on core.py: a referee of these kinds reads both.
"""

from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from . import core
from .core import ONE, ZERO, Game, Malformed, Rejected, expect, field, number, param, text, too_large

__all__ = ["simulates"]


# --- simulation of randomized response: T's table, or Farkas multipliers -------------------------
def rr_weights(game: Game, raw: object, path: str, lam: Any, delta: Any) -> tuple:
    """The pair and the outputs of RR an entry names, and Pr[RR(b) = c] for b = 0, 1: RR_eps
    (Def. 1.9) or RR_(eps, delta) (Def. 5.1)."""
    pair, outputs = game.pair(field(raw, "pair", list, path), path + ".pair"), field(raw, "outputs", list, path)
    keep, flip = (1 - delta) * lam / (1 + lam), (1 - delta) / (1 + lam)
    if outputs == ["0", "1"] and delta == 0:
        return pair, outputs, [[keep, flip], [flip, keep]]
    if outputs == ["I0", "0", "1", "I1"]:
        return pair, outputs, [[delta, keep, flip, ZERO], [ZERO, flip, keep, delta]]
    raise Malformed(f"{path}.outputs: outputs must be [0, 1] (delta = 0) or [I0, 0, 1, I1]")


def rounds(game: Game, pair: tuple, what: str) -> Iterator[tuple]:
    """The system both checks below read: variables tau_c(h) >= 0, the probability that T outputs
    the answers of history h when RR outputs c, and for each round r (a history ending at an answer
    node; p the answer history before it, () at the start) the rows
        consistency(c, r): sum_a tau_c(r.a) - tau_c(p) = 0, or = 1 when p = ();
        mixture(b, r.a):   sum_c Pr[RR(b) = c] tau_c(r.a) = P_(x_b)(r.a), for each answer a.
    Yields (r, its node, (P_x(r), P_x'(r)), p), walking the game as a tree."""
    (i, j), spent = pair, core._SPENT  # (--max-histories counts every walk of the certificate)
    stack: list = [(game.root, (), (ONE, ONE), ())]
    while stack:
        k, hist, (px, pxp), prev = stack.pop()
        spent["histories"] += 1 + len(hist)  # (each history is kept as a tuple of its labels)
        if spent["histories"] > core.LIMITS["max_histories"]:
            too_large("max_histories", what, "more histories (each counted with its length)")
        nd = game.nodes[k]
        if nd[0] == "answer":
            yield hist, k, (px, pxp), prev
        for row, lab, c in zip(game.probs(k), nd[1], nd[-1]):
            at = hist + (lab,)
            stack.append((c, at, (px * row[i], pxp * row[j]), at if nd[0] == "answer" else prev))


def check_simulation(game: Game, raw: object, path: str, lam: Any, delta: Any) -> frozenset:
    """T's table gives tau_c(r.a) = tau_c(p) T_c(r)(a): each T_c(r) must be a distribution over the
    answers (so every consistency row holds), and every mixture row must hold; returns the pair."""
    (i, j), outputs, w = rr_weights(game, raw, path, lam, delta)
    table: dict = {}
    for k, rd in enumerate(field(raw, "rounds", list, path)):
        where = f"{path}.rounds[{k}]"
        hist = tuple(expect(x, str, f"{where}.history") for x in field(rd, "history", list, where))
        rows = field(rd, "T", list, where)
        if hist in table or len(rows) != len(outputs):
            raise Malformed(f"{where}: a repeated round, or not one row per output")
        table[hist] = [
            [number(v, f"{where}.T[{c}][{a}]") for a, v in enumerate(expect(r, list, f"{where}.T[{c}]"))]
            for c, r in enumerate(rows)
        ]
    tau, seen = {(): [ONE] * len(outputs)}, 0
    for hist, k, probs, prev in rounds(game, (i, j), "the simulation check"):
        rows, labels, where = table.get(hist), game.nodes[k][1], f"{path}: round ({', '.join(map(text, hist))})"
        if rows is None:
            raise Rejected(f"{where} has no entry in T's table")
        seen += 1
        for c, row in enumerate(rows):
            if len(row) != len(labels) or any(v < 0 for v in row) or sum(row, ZERO) != 1:
                raise Rejected(f"{where}: T({text(outputs[c])}) is not a probability distribution over the answers")
        for a, (lab, p) in enumerate(zip(labels, game.probs(k))):
            tau[hist + (lab,)] = t = [x * rows[c][a] for c, x in enumerate(tau[prev])]
            for b in (0, 1):
                mix, target = sum((wc * x for wc, x in zip(w[b], t)), ZERO), probs[b] * p[(i, j)[b]]
                if mix != target:
                    said = f"T(RR({b})) gives {text(mix)}, M({text(game.datasets[(i, j)[b]])}) gives {text(target)}"
                    raise Rejected(f"{where}, answer {text(lab)!r}: {said}")
    if seen != len(table):
        raise Rejected(f"{path}: T's table has rounds the game does not have")
    return frozenset((i, j))


def check_farkas(game: Game, raw: object, path: str, lam: Any, delta: Any) -> frozenset:
    """Farkas: multipliers y on the rows of :func:`rounds` with y^T A >= 0 on every variable
    tau_c(h) >= 0 and y^T b < 0.  Then no T exists."""
    (i, j), outputs, w = rr_weights(game, raw, path, lam, delta)
    ys: dict = {}
    rows, kinds = field(raw, "multipliers", list, path), [("consistency", c) for c in outputs] + [("mixture", 0)]
    if len(rows) > core.LIMITS["max_histories"]:
        too_large("max_histories", "the Farkas check", f"{len(rows)} rows")
    for k, m in enumerate(rows):
        where = f"{path}.multipliers[{k}]"
        y, row = number(field(m, "y", str, where), where + ".y"), field(m, "row", list, where)
        if len(row) != 3 or isinstance(row[1], bool) or (row[0], row[1]) not in kinds + [("mixture", 1)]:
            raise Malformed(f"{where}.row: expected [consistency, output, history] or [mixture, b, history]")
        hist = tuple(expect(x, str, f"{where}.row[2]") for x in expect(row[2], list, where + ".row[2]"))
        key = (row[0], outputs.index(row[1]) if row[0] == "consistency" else row[1], hist)
        ys[key] = total = core.bounded(ys.get(key, ZERO) + y, "the Farkas multipliers")  # (sums grow)
        core.spend("steps", 4 * (core.bits(total) // 64 + 2) ** 2, "the Farkas multipliers")
    column: dict = defaultdict(Fraction)  # (c, h) -> the coefficient of tau_c(h) in y^T A; h = (): y^T b
    for hist, k, probs, prev in rounds(game, (i, j), "the Farkas check"):
        labels = game.nodes[k][1]
        for c in range(len(outputs)):
            y = ys.pop(("consistency", c, hist), ZERO)
            for h, v in [(hist + (lab,), y) for lab in labels] + [(prev, -y if prev else y)]:
                column[c if h else 0, h] += v
        for lab, p in zip(labels, game.probs(k)):
            for b in (0, 1):
                y = ys.pop(("mixture", b, hist + (lab,)), ZERO)
                for c in range(len(outputs)):
                    column[c, hist + (lab,)] += y * w[b][c]
                column[0, ()] += y * probs[b] * p[(i, j)[b]]
    if ys:
        kind, _, h = next(iter(ys))
        raise Malformed(f"{path}: no {kind} row for the history ({', '.join(map(text, h))}) in the game")
    rhs = column.pop((0, ()), ZERO)
    for (c, h), v in column.items():
        if v < 0:
            variable = f"tau_{text(outputs[c])}({', '.join(map(text, h))})"
            raise Rejected(f"{path}: the combined coefficient of {variable} is negative")
    if not rhs < 0:
        raise Rejected(f"{path}: the combined right-hand side is {text(rhs)}, not < 0")
    return frozenset((i, j))


def simulates(kind: str, claim: dict, games: dict, proof: dict) -> tuple:
    """For every adjacent pair, T with View(A, T(RR(b))) = View(A, M(x_b)) (Thm 1.10).  No T for a
    pair: Farkas multipliers, or the pair breaking (eps, delta)-DP (T(RR) is, by post-processing).
    eps defaults to PrivLoss(M, delta), the proof's ``exp_privloss`` (checked)."""
    game, delta = core.game_of(games, claim.get("of")), param(claim, "delta", kind="prob")
    given = claim.get("exp_eps") is not None
    lam = param(claim, "exp_eps", kind="lam") if given else param(proof, "exp_privloss", "proof", "lam")
    eps = core.log_text(lam) if given else core.pinned(game, delta, lam)
    statement = f"{game.shown} is {core.NOT}a post-processing T(RR_({eps}, {text(delta)})) (Thm 1.10)"
    if lam == core.INF:
        return "no finite eps", statement, False
    sims, farkas, breaks = (field(proof, key, list, "proof", True) or [] for key in ("simulation", "farkas", "breaks"))
    with_t = {check_simulation(game, s, f"proof.simulation[{k}]", lam, delta) for k, s in enumerate(sims)}
    no_t = {check_farkas(game, f, f"proof.farkas[{k}]", lam, delta) for k, f in enumerate(farkas)}
    for pair, k in {game.pair(raw, f"proof.breaks[{k}]"): k for k, raw in enumerate(breaks)}.items():
        if not core.hockey(game, pair, lam)[0] > delta:  # (each pair once: a repeat is not worked again)
            said = f"the pair {game.pair_names(pair)} is ({core.log_text(lam)}, {text(delta)})-DP"
            raise Rejected(f"proof.breaks[{k}]: {said}")
        no_t.add(frozenset(pair))
    if with_t & no_t:
        raise Rejected("T was shown both to exist and not to exist for the same pair")
    everything = {frozenset(p) for p in game.pairs}
    facts = f"T exists for {len(with_t)} and for {len(no_t)} not, of {len(everything)} pairs"
    return facts, statement, True if with_t == everything else False if no_t else None


core.HANDLERS["simulates_rr"] = (simulates, {"exp_privloss", "simulation", "farkas", "breaks"})
core.NEGATED.add("simulates_rr")
