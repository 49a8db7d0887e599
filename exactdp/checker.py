#!/usr/bin/env python3
r"""Check exactdp certificates using nothing but the Python standard library.

Usage: ``python checker.py [--case CASE.yaml]... [--show-game] CERT_OR_DIR...``
(or the console script ``exactdp-check``).  Exit status: 0 every certificate is accepted,
1 some certificate is rejected (the message names the inequality, the node and the pair),
2 some file is unreadable or malformed.

This file imports nothing from exactdp and shares no code with it.  It is written from the
definitions, so that a referee who reads it need not trust exactdp's reader, builders, engines,
SymPy, gmpy2 or mpmath; only Python and these lines.

The mathematics (Vadhan & Wang 2021, Def. 1.7 and Lemma 2.2).  A certificate holds a finite
game: adversary choices (``ask``), answer distributions with one exact probability per dataset
(``answer``) and the end.  For an ordered pair (x, x') and a node v let

    delta_v(lam) = sup over deterministic adversaries A from v of
                   sum over views w of (P_x(w) - lam * P_x'(w))_+        (lam >= 0),

the hockey-stick divergence; M is (eps, delta)-DP iff delta_root(e^eps) <= delta for every
ordered adjacent pair (Lemma 2.2: deterministic adversaries suffice).  By induction over the
game, delta_end(lam) = (1 - lam)_+, delta at a choice is the max over the options, and at an
answer distribution

    delta_v(lam) = sum over answers with p > 0, p' > 0 of p * delta_child(lam * p' / p)
                 + sum over answers with p > 0, p' = 0 of p          (their views all lie in T)

(answers with p = 0 add nothing for lam >= 0).  So *upper bounds* are functions U_v, one per
node, that satisfy the same three relations with ">=": then U_v >= delta_v, by induction from
the end.  Each U_v is given by the vertices (b_i, a_i) of a concave chain,
U_v(lam) = max_i (a_i - lam * b_i), and claimed on a domain [lo, hi] of lam that must contain
whatever its parents evaluate it on (a choice passes its domain on, an answer scales it by
p'/p).  Two convex piecewise-linear functions are compared exactly at the domain's ends, at the
union of their breakpoints inside it, and, for hi = inf, on their last slopes (a convex function
can dip below a chord, so the breakpoints of both are needed).  U_v >= U_child is checked vertex
by vertex: each vertex (b, a) of the child's chain is a line a - lam * b that must lie below U_v.

*Lower bounds* are a deterministic adversary and an event T: the checker walks the game
forward and recomputes P_x(T) and P_x'(T) exactly; then delta_M(lam) >= P_x(T) - lam * P_x'(T)
for every lam.  The adversary may use the node reached and the likelihood ratio
P_x(h)/P_x'(h) of the history so far (both are functions of the history); T is the set of
complete views whose likelihood ratio is listed.

*Simulation* (Vadhan & Wang Thm 1.10, Def. 5.1): a table of the post-processor T, one
conditional distribution per randomized-response output c and round; the checker checks each
conditional and the identity sum_c Pr[RR(b) = c] * T_c(h) = P_{x_b}(h) on every history h.
*No simulation*: Farkas multipliers y for the linear system "path measures tau_c(h) >= 0,
consistent, mixing to P_{x_b}" (which has a solution iff T exists): y^T A >= 0 and y^T b < 0.
A lower bound that breaks (eps, delta)-DP on a pair also rules T out (post-processing).

*Renyi divergence* (Mironov 2017) of a whole order alpha >= 2 or alpha = inf: recomputed from
the game by one backward induction (no proof object), and compared with the claimed value
written as a sum of rational multiples of logarithms of rationals, exactly.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # `python exactdp/checker.py`: this file's folder holds exactdp's own
    _HERE = os.path.dirname(os.path.abspath(__file__))  # `numbers` package, which would shadow
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]  # the stdlib's

import argparse  # noqa: E402
import gc  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from fractions import Fraction  # noqa: E402
from math import lcm  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any

__all__ = ["main", "check_certificate", "Malformed", "Rejected"]

FORMAT, VERSION = "exactdp-certificate", 1
INF = "inf"  # lambda = e^eps = infinity, and the likelihood ratio of a history with P_x' = 0
ZERO, ONE = Fraction(0), Fraction(1)


class Malformed(Exception):
    """The file is not a certificate of this format (exit status 2)."""


class Rejected(Exception):
    """A mathematical check failed (exit status 1)."""


# --- reading: every value is type-checked; no exception other than Malformed escapes -----------


def _where(path: str, key: object) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


def field(obj: Any, key: str, kind: type, path: str, optional: bool = False) -> Any:
    if not isinstance(obj, dict):
        raise Malformed(f"{path}: expected an object")
    if key not in obj:
        if optional:
            return None
        raise Malformed(f"{path}: missing key {key!r}")
    return expect(obj[key], kind, _where(path, key))


def expect(value: Any, kind: type, path: str) -> Any:
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise Malformed(f"{path}: expected an integer")
    if not isinstance(value, kind):
        names: dict = {list: "a list", dict: "an object", str: "a string"}
        raise Malformed(f"{path}: expected {names.get(kind, kind.__name__)}")
    return value


def rational(value: object, path: str) -> Fraction:
    """An exact rational written as "n" or "n/d" (ASCII digits, optional leading minus)."""
    s = expect(value, str, path)
    num, slash, den = s.partition("/")
    digits = num[1:] if num.startswith("-") else num
    ok = digits.isascii() and digits.isdigit() and (not slash or (den.isascii() and den.isdigit()))
    if not ok or len(s) > 4000:
        raise Malformed(f"{path}: {s[:40]!r} is not an exact rational such as 3/4")
    if slash and int(den) == 0:
        raise Malformed(f"{path}: zero denominator in {s[:40]!r}")
    return Fraction(int(num), int(den) if slash else 1)


def ratio(value: object, path: str) -> Any:
    """A likelihood ratio or e^eps: a rational >= 0, or "inf"."""
    if value == INF:
        return INF
    r = rational(value, path)
    if r < 0:
        raise Malformed(f"{path}: must be >= 0")
    return r


def text(x: object) -> str:
    """A number or a label for messages; labels come from case files, so control characters
    are escaped before they reach the terminal."""
    if isinstance(x, Fraction):
        return str(x)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(x))


def log_text(lam: object) -> str:
    return "inf" if lam == INF else "0" if lam == 1 else f"log({text(lam)})"


class Game:
    """A validated game: ``nodes[k]`` is ("end",), ("ask", labels, children) or
    ("answer", labels, rows, children) with rows[answer][dataset] a Fraction."""

    def __init__(self, name: str, raw: object, path: str):
        self.name = name
        self.datasets = [
            expect(d, str, f"{path}.datasets[{k}]") for k, d in enumerate(field(raw, "datasets", list, path))
        ]
        if not self.datasets or len(set(self.datasets)) != len(self.datasets):
            raise Malformed(f"{path}.datasets: must be distinct names")
        self.pairs: list[tuple] = []
        for k, pr in enumerate(field(raw, "pairs", list, path)):
            pr = expect(pr, list, f"{path}.pairs[{k}]")
            if len(pr) != 2 or pr[0] not in self.datasets or pr[1] not in self.datasets or pr[0] == pr[1]:
                raise Malformed(f"{path}.pairs[{k}]: must name two different datasets")
            if tuple(pr) in self.pairs:
                raise Malformed(f"{path}.pairs[{k}]: listed twice")
            self.pairs.append(tuple(pr))
        for x, y in self.pairs:
            if (y, x) not in self.pairs:
                raise Malformed(f"{path}.pairs: ({x}, {y}) is listed but not ({y}, {x}); adjacency is symmetric")
        if not self.pairs:
            raise Malformed(f"{path}.pairs: no adjacent pair")
        self.nodes = [self._node(k, n, f"{path}.nodes[{k}]") for k, n in enumerate(field(raw, "nodes", list, path))]
        self.root = field(raw, "root", int, path)
        if not 0 <= self.root < len(self.nodes):
            raise Malformed(f"{path}.root: no node {self.root}")

    def _node(self, k: int, raw: Any, path: str) -> tuple:
        if field(raw, "id", int, path) != k:
            raise Malformed(f"{path}.id: must be {k} (nodes are listed in order of their ids)")
        kinds = [key for key in ("end", "ask", "answer") if key in raw]
        if len(kinds) != 1 or len(raw) != 2:
            raise Malformed(f"{path}: a node has an id and exactly one of end, ask, answer")
        if kinds[0] == "end":
            if raw["end"] is not True:
                raise Malformed(f"{path}.end: must be true")
            return ("end",)
        items = field(raw, kinds[0], list, path)
        width = 2 if kinds[0] == "ask" else 3
        labels, rows, kids = [], [], []
        for a, item in enumerate(items):
            where = f"{path}.{kinds[0]}[{a}]"
            item = expect(item, list, where)
            if len(item) != width:
                raise Malformed(f"{where}: expected [label, {'probabilities, ' if width == 3 else ''}child id]")
            labels.append(expect(item[0], str, where + "[0]"))
            kid = expect(item[-1], int, f"{where}[{width - 1}]")
            if not 0 <= kid < k:
                raise Malformed(f"{where}: child {kid} must be an earlier node (ids < {k})")
            kids.append(kid)
            if width == 3:
                probs = expect(item[1], list, where + "[1]")
                if len(probs) != len(self.datasets):
                    raise Malformed(f"{where}[1]: needs one probability per dataset")
                rows.append([rational(p, f"{where}[1][{d}]") for d, p in enumerate(probs)])
        if not labels or len(set(labels)) != len(labels):
            raise Malformed(f"{path}: labels must be distinct and there must be at least one")
        if kinds[0] == "ask":
            return ("ask", labels, kids)
        for d, x in enumerate(self.datasets):  # a distribution under every dataset
            if any(row[d] < 0 for row in rows) or sum(row[d] for row in rows) != 1:
                raise Rejected(
                    f"game {self.name}, node {k}: the answer probabilities under {text(x)} are not a distribution"
                )
        return ("answer", labels, rows, kids)

    def pair(self, raw: object, path: str) -> tuple[int, int]:
        pr = expect(raw, list, path)
        if len(pr) != 2 or tuple(pr) not in self.pairs:
            raise Malformed(f"{path}: not an ordered adjacent pair of game {self.name}")
        return self.datasets.index(pr[0]), self.datasets.index(pr[1])

    def walk_path(self, labels: list, path: str) -> tuple[int, list, list]:
        """Follow a history (a list of labels) from the root: the node reached, the answer
        probabilities picked up (per dataset), and for each label whether it was an answer."""
        node, probs, answered = self.root, [ONE] * len(self.datasets), []
        for k, lab in enumerate(labels):
            nd = self.nodes[node]
            if nd[0] == "end" or lab not in nd[1]:
                raise Malformed(f"{path}[{k}]: the history leaves the game at {text(lab)!r}")
            i = nd[1].index(lab)
            if nd[0] == "answer":
                probs = [p * q for p, q in zip(probs, nd[2][i])]
            answered.append(nd[0] == "answer")
            node = nd[-1][i]
        return node, probs, answered


# --- upper bounds: concave chains and the local inequalities -------------------------------------


class Chain:
    """U(lam) = max_i (a_i - lam * b_i) over the vertices of a concave chain (b increasing,
    slopes decreasing), so the maximiser moves left as lam grows."""

    def __init__(self, raw: object, path: str):
        pts = expect(raw, list, path)
        if not pts:
            raise Malformed(f"{path}: a chain needs at least one vertex")
        self.b: list[Fraction] = []
        self.a: list[Fraction] = []
        self.s: list[Fraction] = [ZERO]  # s[i]: the slope between vertices i - 1 and i (s[0] unused)
        for k, v in enumerate(pts):
            v = expect(v, list, f"{path}[{k}]")
            if len(v) != 2:
                raise Malformed(f"{path}[{k}]: a vertex is [b, a]")
            b, a = rational(v[0], f"{path}[{k}][0]"), rational(v[1], f"{path}[{k}][1]")
            if self.b:
                if b <= self.b[-1]:
                    raise Malformed(f"{path}[{k}]: vertices must have increasing b")
                slope = (a - self.a[-1]) / (b - self.b[-1])
                if len(self.s) > 1 and slope >= self.s[-1]:
                    raise Malformed(f"{path}[{k}]: the chain is not concave (slopes must decrease)")
                self.s.append(slope)
            self.b.append(b)
            self.a.append(a)
        self.sn = [t.numerator for t in self.s]
        self.sd = [t.denominator for t in self.s]

    def bends(self) -> list:
        """The slopes where U bends, ascending (U's slopes decrease along the chain)."""
        return [t for t in reversed(self.s[1:]) if t >= 0]

    def covers(self, other: Chain, lo: Fraction, hi: Any) -> tuple | None:
        """U(lam) >= other(lam) for every lam in [lo, hi]: every vertex (b, a) of ``other`` gives
        a line a - lam * b that must lie below U there; returns the first vertex that does not.
        U minus such a line is convex, with slope b - b_j where vertex j is active, growing as
        lam grows; so its minimum is where that slope turns >= 0 (at the bend s_m with
        b_(m-1) <= b < b_m; at lam = 0 when no such bend is positive; never, if b < b_0),
        moved into [lo, hi].  Both vertex lists increase in b, so one sweep finds every m."""
        at: list[Any] = []  # a Fraction, or INF where the difference tends to -inf
        m = 0
        for b in other.b:
            while m < len(self.b) and self.b[m] <= b:
                m += 1
            x: Any = INF if b < self.b[0] else ZERO if m == len(self.b) or self.s[m] <= 0 else self.s[m]
            if infinite(x) or (not infinite(hi) and x > hi):
                x = hi
            at.append(INF if infinite(x) else max(x, lo))
        if any(infinite(x) for x in at):  # the difference tends to -inf
            return next((b, a) for b, a, x in zip(other.b, other.a, at) if infinite(x))
        value = dict(zip(sorted(set(at)), self.values(sorted(set(at)))))
        return next(((b, a) for b, a, x in zip(other.b, other.a, at) if a - x * b > value[x]), None)

    def values(self, xs: list) -> list:
        """U at every point of the ascending list ``xs`` (one sweep; the slope test s_j <= x is
        done on numerators and denominators, the same exact comparison, only faster)."""
        b, a, sn, sd = self.b, self.a, self.sn, self.sd
        j, out = len(b) - 1, []
        for x in xs:
            xn, xd = x.numerator, x.denominator
            while j and sn[j] * xd <= xn * sd[j]:
                j -= 1
            out.append(a[j] - x * b[j])
        return out


END = Chain([["0", "0"], ["1", "1"]], "end")  # (1 - lambda)_+ = max(0, 1 - lambda)


def dominates(big, small, bends: list, lo: Fraction, hi: Any, what: str) -> None:
    """big(lam) >= small(lam) for every lam in [lo, hi], for two convex piecewise-linear
    functions (given as ``values(xs)`` for ascending xs) whose bends are all in ``bends``.
    Between two consecutive bends both are linear, so it suffices to compare them at lo, at
    every bend, at hi, and, when hi = inf, beyond the last bend on their slopes."""
    pts = [lo]
    for t in sorted(bends):  # (ascending runs: sorting merges them)
        if t > pts[-1] and (infinite(hi) or t < hi):
            pts.append(t)
    pts += [pts[-1] + 1, pts[-1] + 2] if infinite(hi) else [hi] if hi > lo else []
    u, v = big(pts), small(pts)
    for x, a, b in zip(pts, u, v):
        if a < b:
            raise Rejected(f"{what}: fails at lambda = {x}: {a} < {b}")
    if infinite(hi) and u[-1] - u[-2] < v[-1] - v[-2]:
        raise Rejected(f"{what}: fails for large lambda (last slopes {u[-1] - u[-2]} < {v[-1] - v[-2]})")


def domain(raw: Any, path: str) -> tuple | None:
    """Where a node's bound is claimed: [lo, hi] with 0 <= lo <= hi <= inf, or null (nowhere)."""
    if raw is None:
        return None
    raw = expect(raw, list, path)
    if len(raw) != 2:
        raise Malformed(f"{path}: a domain is [lo, hi]")
    lo, hi = ratio(raw[0], path + "[0]"), ratio(raw[1], path + "[1]")
    if lo == INF or (hi != INF and hi < lo):
        raise Malformed(f"{path}: need lo <= hi, lo finite")
    return lo, hi


def inside(inner: tuple, outer: tuple | None, scale: Fraction = ONE) -> bool:
    """scale * [lo, hi] lies within ``outer``."""
    if outer is None:
        return False
    if not scaled_le(outer[0], ONE, inner[0], scale):
        return False
    return infinite(outer[1]) or (not infinite(inner[1]) and scaled_le(inner[1], scale, outer[1], ONE))


def scaled_le(x: Fraction, s: Fraction, y: Fraction, t: Fraction) -> bool:
    """x * s <= y * t for rationals with s, t > 0, on integers (the same exact comparison as
    with Fractions, without building the products: this test runs at every node)."""
    return (
        x.numerator * s.numerator * y.denominator * t.denominator
        <= y.numerator * t.numerator * x.denominator * s.denominator
    )


def check_chains(game: Game, pair: tuple[int, int], raw: Any, path: str) -> tuple:
    """The local inequalities at every node for one ordered pair, each on the node's domain
    (a child's domain must contain the part of its parent's that it is evaluated on); returns
    the root's chain and domain."""
    chains, doms = field(raw, "chains", list, path), field(raw, "domains", list, path)
    if len(chains) != len(game.nodes) or len(doms) != len(game.nodes):
        raise Malformed(f"{path}: needs one chain and one domain per node ({len(game.nodes)})")
    i, j = pair
    name = f"pair ({text(game.datasets[i])}, {text(game.datasets[j])}) of game {game.name}, node"
    done: list = []
    dom: list = []
    for k, nd in enumerate(game.nodes):
        d = domain(doms[k], f"{path}.domains[{k}]")
        u = None if d is None and chains[k] is None else Chain(chains[k], f"{path}.chains[{k}]")
        if d is not None:
            assert u is not None  # a node with a domain has a chain (Chain(None) is Malformed)
            lo, hi = d
            if nd[0] == "end" and u.covers(END, lo, hi) is not None:
                raise Rejected(f"{name} {k} (end): U >= (1 - lambda)_+ fails")
            for c, lab in dict(zip(reversed(nd[-1]), reversed(nd[1]))).items() if nd[0] == "ask" else ():
                what = f"{name} {k} (choice {text(lab)!r}): U >= U_child on [{lo}, {hi}] fails"
                if not inside(d, dom[c]):
                    raise Rejected(f"{what}: the child's bound is not given there")
                bad = u.covers(done[c], lo, hi) if chains[c] != chains[k] else None  # (same chain: holds)
                if bad is not None:
                    raise Rejected(f"{what}: the child's vertex ({bad[0]}, {bad[1]}) lies above U")
            if nd[0] == "answer":
                const = sum((r[i] for r in nd[2] if r[i] and not r[j]), ZERO)
                terms = [(r[i], r[j] / r[i], done[c], c) for r, c in zip(nd[2], nd[3]) if r[i] and r[j]]
                for _, q, _, c in terms:
                    if not inside(d, dom[c], q):
                        raise Rejected(f"{name} {k} (answer): child {c} has no bound on [{lo}, {hi}] * {q}")
                bends = u.bends() + [t / q for _, q, ch, _ in terms for t in ch.bends()]

                def g(xs: list, terms: list = terms, const: Fraction = const) -> list:
                    out = [const] * len(xs)
                    for p, q, ch, _ in terms:
                        out = [o + p * v for o, v in zip(out, ch.values([x * q for x in xs]))]
                    return out

                dominates(
                    u.values, g, bends, lo, hi, f"{name} {k} (answer): U(lambda) >= sum_a p_a U_a(lambda p'_a / p_a)"
                )
        done.append(u)
        dom.append(d)
    return done[game.root], dom[game.root]


# --- lower bounds: a deterministic adversary and an event, walked forward ------------------------


def check_event(game: Game, raw: object, path: str) -> tuple[Fraction, Fraction]:
    """Recompute (P_x(T), P_x'(T)) for the adversary and event of one lower bound."""
    i, j = game.pair(field(raw, "pair", list, path), path + ".pair")
    choice: dict = {}
    for k, st in enumerate(field(raw, "strategy", list, path)):
        where = f"{path}.strategy[{k}]"
        st = expect(st, list, where)
        if len(st) != 3:
            raise Malformed(f"{where}: expected [node, likelihood ratio, option]")
        node, r = expect(st[0], int, where + "[0]"), ratio(st[1], where + "[1]")
        if not 0 <= node < len(game.nodes) or game.nodes[node][0] != "ask" or st[2] not in game.nodes[node][1]:
            raise Malformed(f"{where}: node {node} has no option {text(st[2])!r}")
        if (node, r) in choice:
            raise Malformed(f"{where}: a second choice at node {node}, ratio {text(r)}")
        choice[(node, r)] = game.nodes[node][1].index(st[2])
    event = {ratio(r, f"{path}.event[{k}]") for k, r in enumerate(field(raw, "event", list, path))}
    states: dict = {game.root: {ONE: [ONE, ONE]}}
    final: dict = {}
    used = set()
    for k in range(game.root, -1, -1):  # children have smaller ids: parents come first
        nd = game.nodes[k]
        for r, (p, pp) in states.pop(k, {}).items():
            if nd[0] == "end":
                final.setdefault(r, [ZERO, ZERO])
                final[r][0] += p
                final[r][1] += pp
            elif nd[0] == "ask":
                if (k, r) not in choice:
                    raise Rejected(f"{path}: the adversary has no choice at node {k} for likelihood ratio {text(r)}")
                used.add((k, r))
                push(states, nd[2][choice[(k, r)]], p, pp)
            else:
                for row, c in zip(nd[2], nd[3]):
                    push(states, c, p * row[i], pp * row[j])
    if used != set(choice):
        raise Rejected(f"{path}: strategy entries that no history reaches: {sorted(map(str, set(choice) - used))[:3]}")
    if not event <= set(final):
        raise Rejected(f"{path}: event members that no view has: {sorted(map(str, event - set(final)))[:3]}")
    pt = sum((final[r][0] for r in event), ZERO)
    ppt = sum((final[r][1] for r in event), ZERO)
    if (
        rational(field(raw, "p", str, path), path + ".p"),
        rational(field(raw, "p_prime", str, path), path + ".p_prime"),
    ) != (pt, ppt):
        raise Rejected(f"{path}: the stated probabilities of T are wrong: recomputed P_x(T) = {pt}, P_x'(T) = {ppt}")
    return pt, ppt


def push(states: dict, node: int, p: Fraction, pp: Fraction) -> None:
    if p or pp:
        bucket = states.setdefault(node, {})
        m = bucket.setdefault(p / pp if pp else INF, [ZERO, ZERO])
        m[0] += p
        m[1] += pp


# --- simulation of randomized response: T's table, or Farkas multipliers -------------------------


def rr_weights(outputs: list, lam: Fraction, delta: Fraction, path: str) -> list:
    """Pr[RR(b) = c] for b = 0, 1: RR_eps (Def. 1.9) or RR_(eps, delta) (Def. 5.1)."""
    keep, flip = (1 - delta) * lam / (1 + lam), (1 - delta) / (1 + lam)
    if outputs == ["0", "1"] and delta == 0:
        return [[keep, flip], [flip, keep]]
    if outputs == ["I0", "0", "1", "I1"]:
        return [[delta, keep, flip, ZERO], [ZERO, flip, keep, delta]]
    raise Malformed(f"{path}: outputs must be [0, 1] (delta = 0) or [I0, 0, 1, I1]")


def check_simulation(game: Game, raw: object, path: str, lam: Fraction, delta: Fraction) -> frozenset:
    """Check T on every history of the game (walked as a tree); returns the pair it covers."""
    i, j = game.pair(field(raw, "pair", list, path), path + ".pair")
    outputs = field(raw, "outputs", list, path)
    w = rr_weights(outputs, lam, delta, path + ".outputs")
    table: dict = {}
    for k, rd in enumerate(field(raw, "rounds", list, path)):
        where = f"{path}.rounds[{k}]"
        hist = tuple(expect(x, str, f"{where}.history") for x in field(rd, "history", list, where))
        rows = field(rd, "T", list, where)
        if hist in table or len(rows) != len(outputs):
            raise Malformed(f"{where}: a repeated round, or not one row per output")
        table[hist] = [
            [rational(v, f"{where}.T[{c}][{a}]") for a, v in enumerate(expect(r, list, f"{where}.T[{c}]"))]
            for c, r in enumerate(rows)
        ]
    seen = set()
    stack: list[tuple[int, tuple, list, Fraction, Fraction]] = [(game.root, (), [ONE] * len(outputs), ONE, ONE)]
    while stack:
        node, hist, tau, px, pxp = stack.pop()
        nd = game.nodes[node]
        if nd[0] == "ask":
            stack.extend((c, hist + (lab,), tau, px, pxp) for lab, c in zip(nd[1], nd[2]))
        elif nd[0] == "answer":
            rows = table.get(hist)
            where = f"{path}: round ({', '.join(map(text, hist))})"
            if rows is None:
                raise Rejected(f"{where} has no entry in T's table")
            seen.add(hist)
            for c, row in enumerate(rows):
                if len(row) != len(nd[1]) or any(v < 0 for v in row) or sum(row) != 1:
                    raise Rejected(
                        f"{where}: T({text(outputs[c])}) is not a probability distribution over the {len(nd[1])} answers"
                    )
            for a, (lab, c) in enumerate(zip(nd[1], nd[3])):
                t2 = [t * rows[o][a] for o, t in enumerate(tau)]
                p2, pp2 = px * nd[2][a][i], pxp * nd[2][a][j]
                for b, target in ((0, p2), (1, pp2)):
                    mix = sum((wc * t for wc, t in zip(w[b], t2)), ZERO)
                    if mix != target:
                        raise Rejected(
                            f"{where}, answer {text(lab)!r}: T(RR({b})) gives {mix}, M({text(game.datasets[(i, j)[b]])}) gives {target}"
                        )
                stack.append((c, hist + (lab,), t2, p2, pp2))
    if seen != set(table):
        raise Rejected(f"{path}: T's table has rounds the game does not have")
    return frozenset((i, j))


def check_farkas(game: Game, raw: object, path: str, lam: Fraction, delta: Fraction) -> frozenset:
    """Farkas: y^T A >= 0 on every variable tau_c(h) >= 0 and y^T b < 0, for the rows
    consistency(c, round): sum_a tau_c(round.a) - tau_c(previous answer history) = [no previous]
    and mixture(b, h): sum_c Pr[RR(b) = c] tau_c(h) = P_{x_b}(h).  Then no T exists."""
    i, j = game.pair(field(raw, "pair", list, path), path + ".pair")
    outputs = field(raw, "outputs", list, path)
    w = rr_weights(outputs, lam, delta, path + ".outputs")
    column: dict = {}
    rhs = ZERO
    for k, m in enumerate(field(raw, "multipliers", list, path)):
        where = f"{path}.multipliers[{k}]"
        y = rational(field(m, "y", str, where), where + ".y")
        row = field(m, "row", list, where)
        if len(row) != 3 or row[0] not in ("consistency", "mixture"):
            raise Malformed(f"{where}.row: expected [consistency, output, history] or [mixture, b, history]")
        hist = tuple(expect(x, str, f"{where}.row[2]") for x in expect(row[2], list, where + ".row[2]"))
        node, probs, answered = game.walk_path(list(hist), where + ".row[2]")
        if row[0] == "consistency":  # sum_a tau_c(h.a) = tau_c(the answer history before h), or 1
            if row[1] not in outputs or game.nodes[node][0] != "answer":
                raise Malformed(f"{where}.row: not an output, or the history does not end at an answer distribution")
            c = outputs.index(row[1])
            for lab in game.nodes[node][1]:
                column[(c, hist + (lab,))] = column.get((c, hist + (lab,)), ZERO) + y
            prev = max([k + 1 for k, a in enumerate(answered) if a], default=0)
            if prev:
                column[(c, hist[:prev])] = column.get((c, hist[:prev]), ZERO) - y
            else:
                rhs += y
        else:  # sum_c Pr[RR(b) = c] tau_c(h) = P_{x_b}(h)
            if row[1] not in (0, 1) or isinstance(row[1], bool) or not answered or not answered[-1]:
                raise Malformed(f"{where}.row: b must be 0 or 1 and the history must end with an answer")
            for c in range(len(outputs)):
                column[(c, hist)] = column.get((c, hist), ZERO) + y * w[row[1]][c]
            rhs += y * probs[(i, j)[row[1]]]
    bad = [key for key, v in column.items() if v < 0]
    if bad:
        c, h = bad[0]
        raise Rejected(
            f"{path}: the combined coefficient of tau_{text(outputs[c])}({', '.join(map(text, h))}) is negative"
        )
    if not rhs < 0:
        raise Rejected(f"{path}: the combined right-hand side is {rhs}, not < 0")
    return frozenset((i, j))


# --- claims: what the proofs establish, and whether that decides the claim -----------------------


def infinite(x: Any) -> bool:
    """x is INF.  Every value in [0, inf] here is a Fraction or INF (a string), so the test
    is on the type: comparing a Fraction with a string by == goes through the numeric tower,
    which costs more than the rest of the check at a node."""
    return type(x) is str


def lt(x: Any, y: Any) -> bool:
    """x < y for values in [0, inf]."""
    return x != INF and (y == INF or x < y)


class Proof:
    """The proof objects of one certificate, each checked once: the root chains of every
    ordered pair of a game (upper bounds), and the (P_x(T), P_x'(T), pair) of its events."""

    def __init__(self, raw: dict, games: dict):
        self.raw, self.games = raw, games
        self.entries = {}
        for key in ("upper", "lower"):
            items = field(raw, key, list, "proof", optional=True) or []
            for k, item in enumerate(items):
                game_of(games, field(item, "game", str, f"proof.{key}[{k}]"))
            self.entries[key] = items
        self._upper: dict = {}
        self._lower: dict = {}

    def upper(self, game: Game) -> list | None:
        """Root chains of every ordered pair of ``game``; None when the proof gives none."""
        if game.name not in self._upper:
            found: dict = {}
            for k, up in enumerate(self.entries["upper"]):
                where = f"proof.upper[{k}]"
                if up["game"] == game.name:
                    pair = game.pair(field(up, "pair", list, where), where + ".pair")
                    if pair in found:
                        raise Malformed(f"{where}: a second upper bound for the same pair")
                    found[pair] = check_chains(game, pair, up, where)
            for x, y in game.pairs if found else ():
                if (game.datasets.index(x), game.datasets.index(y)) not in found:
                    raise Rejected(f"game {game.name}: no upper bound for the ordered pair ({text(x)}, {text(y)})")
            self._upper[game.name] = list(found.values()) or None
        return self._upper[game.name]

    def lower(self, game: Game) -> list:
        """(P_x(T), P_x'(T), pair) of every event on ``game``, in the order given."""
        if game.name not in self._lower:
            out = []
            for k, lo in enumerate(self.entries["lower"]):
                if lo["game"] == game.name:
                    p, pp = check_event(game, lo, f"proof.lower[{k}]")
                    out.append((p, pp, game.pair(lo["pair"], "pair")))
            self._lower[game.name] = out
        return self._lower[game.name]

    def delta_at_most(self, game: Game, lam: Fraction) -> Fraction | None:
        """An upper bound on delta_M(lam): the largest root chain at lam (None: no chains, or
        some root bound does not cover lam)."""
        roots = self.upper(game)
        if roots is None or not all(inside((lam, lam), d) for _, d in roots):
            return None
        return max(c.values([lam])[0] for c, _ in roots)

    def delta_at_least(self, game: Game, lam: Fraction) -> Fraction:
        """A lower bound on delta_M(lam): the best event, or 0 (the empty event)."""
        return max([ZERO] + [p - lam * pp for p, pp, _ in self.lower(game)])


def check_certificate(cert: object, hashes: set | None = None) -> str:
    """Check one certificate; return the statement proved, or raise Malformed / Rejected."""
    with no_gc():
        return _check(cert, hashes)


@contextmanager
def no_gc() -> Iterator[None]:
    """Run without Python's cycle collector: the check builds millions of short-lived numbers
    and no cycles, and each collection would walk the whole loaded certificate (a third of the
    running time on large games).  Reference counting still frees every number."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _check(cert: object, hashes: set | None) -> str:
    if field(cert, "format", str, "certificate") != FORMAT or field(cert, "version", int, "certificate") != VERSION:
        raise Malformed(f"not an {FORMAT} of version {VERSION}")
    case = field(cert, "case", dict, "certificate")
    if hashes is not None and field(case, "sha256", str, "case") not in hashes:
        raise Rejected(
            f"the certificate is about a case file whose SHA-256 is not that of any --case file ({text(case.get('file'))})"
        )
    games = {name: Game(name, g, f"games.{name}") for name, g in field(cert, "games", dict, "certificate").items()}
    claim = field(cert, "claim", dict, "certificate")
    kind = field(claim, "kind", str, "claim")
    verdict = field(cert, "verdict", str, "certificate")
    if verdict not in ("holds", "fails"):
        raise Malformed("verdict: must be holds or fails")
    pf = Proof(field(cert, "proof", dict, "certificate"), games)
    of = game_of(games, field(claim, "of", str, "claim"))
    handler, keys = {
        "privloss": (privloss, "upper lower upper_at"),
        "dp": (dp, "upper lower"),
        "not_dp": (dp, "upper lower"),
        "delta": (delta_claim, "upper lower"),
        "profile_le": (profile, "upper lower at"),
        "profile_eq": (profile, "upper lower at"),
        "fdp": (profile, "upper lower at"),
        "not_fdp": (profile, "upper lower at"),
        "simulates_rr": (simulates, "upper lower simulation farkas exp_eps_used"),
        "not_simulates_rr": (simulates, "upper lower simulation farkas exp_eps_used"),
        "renyi": (renyi, ""),
    }.get(kind, (None, ""))
    if handler is None:
        raise Malformed(f"claim.kind: unknown kind {text(kind)!r}")
    extra = set(pf.raw) - set(keys.split())
    if extra:  # nothing in a certificate goes unchecked
        raise Malformed(f"proof: {', '.join(sorted(map(text, extra)))} is not part of a {kind} proof")
    statement, holds = handler(kind, claim, of, games, pf)
    for g in games.values():  # every proof object is checked, even one the verdict does not need
        pf.upper(g)
        pf.lower(g)
    if holds is None:
        raise Rejected(f"the proofs do not decide the claim {statement}")
    if holds != (verdict == "holds"):
        raise Rejected(
            f"the certificate says the claim {verdict}, but the proofs show that it {'holds' if holds else 'fails'}: {statement}"
        )
    where = f"[{text(case.get('name'))}, claim {text(case.get('claim'))}] "
    return where + statement + ("" if holds else "  -- does NOT hold")


def game_of(games: dict, name: str) -> Game:
    if name not in games:
        raise Malformed(f"no game named {text(name)!r}")
    return games[name]


def number(claim: dict, key: str, lam: bool = False) -> Any:
    """A rational parameter of the claim; ``lam``: e^eps, a rational >= 1 or "inf"."""
    v = (
        ratio(field(claim, key, str, "claim"), "claim." + key)
        if lam
        else rational(field(claim, key, str, "claim"), "claim." + key)
    )
    if lam and v != INF and v < 1:
        raise Malformed(f"claim.{key}: e^eps must be >= 1")
    if key == "delta" and not 0 <= v <= 1:
        raise Malformed("claim.delta: must lie in [0, 1]")
    return v


def decide(holds: bool, fails: bool) -> bool | None:
    return True if holds else False if fails else None


def privloss(kind: str, claim: dict, game: Game, games: dict, pf: Proof) -> tuple:
    """PrivLoss(M, delta) = inf{eps >= 0 : (eps, delta)-DP} = log(L) with L proved to lie in
    [lo, hi]: an event with P_x'(T) > 0 rules out every lam < (P_x(T) - delta) / P_x'(T), one
    with P_x'(T) = 0 < P_x(T) - delta every finite lam; chains with delta_M(hi) <= delta give L <= hi."""
    delta, lam = number(claim, "delta"), number(claim, "exp_eps", lam=True)
    rel = field(claim, "relation", str, "claim")
    if rel not in ("equals", "at_most"):
        raise Malformed("claim.relation: equals or at_most")
    lo: Any = ONE
    hi: Any = INF
    for p, pp, _ in pf.lower(game):
        if pp == 0 and p > delta:
            lo = INF
        elif pp and lo != INF:
            lo = max(lo, (p - delta) / pp)
    if field(pf.raw, "upper_at", str, "proof", optional=True) is not None:
        hi = ratio(pf.raw["upper_at"], "proof.upper_at")
        if hi == INF or hi < 1:
            raise Malformed("proof.upper_at: a finite e^eps >= 1")
        bound = pf.delta_at_most(game, hi)
        if bound is None or bound > delta:
            raise Rejected(f"the upper bounds do not show that {game.name} is ({log_text(hi)}, {delta})-DP")
    statement = f"PrivLoss({text(game.name)}, {delta}) {'=' if rel == 'equals' else '<='} {log_text(lam)}"
    if rel == "equals":
        return statement, decide(not lt(lo, lam) and not lt(lam, hi), lt(lam, lo) or lt(hi, lam))
    return statement, decide(not lt(lam, hi), lt(lam, lo))


def dp(kind: str, claim: dict, game: Game, games: dict, pf: Proof) -> tuple:
    """(eps, delta)-DP: delta_M(e^eps) <= delta (Def. 1.7); not_dp is its negation."""
    lam, delta = number(claim, "exp_eps", lam=True), number(claim, "delta")
    if lam == INF:
        raise Malformed("claim.exp_eps: must be finite")
    hi, lo = pf.delta_at_most(game, lam), pf.delta_at_least(game, lam)
    holds = decide(hi is not None and hi <= delta, lo > delta)
    neg = kind == "not_dp"
    statement = f"{text(game.name)} is {'not ' if neg else ''}({log_text(lam)}, {delta})-DP"
    return statement, (None if holds is None else holds != neg)


def delta_claim(kind: str, claim: dict, game: Game, games: dict, pf: Proof) -> tuple:
    lam, d = number(claim, "exp_eps", lam=True), number(claim, "equals")
    if lam == INF:
        raise Malformed("claim.exp_eps: must be finite")
    hi, lo = pf.delta_at_most(game, lam), pf.delta_at_least(game, lam)
    holds = decide(hi is not None and hi <= d <= lo, lo > d or (hi is not None and hi < d))
    return f"delta_{text(game.name)}(e^eps) = {d} at e^eps = {lam}", holds


def envelope(events: list, name: str) -> tuple[list, list]:
    """Lines p - lam p' listed in envelope order (p' decreasing, crossings increasing): their
    max has its bends exactly at the consecutive crossings (and where it crosses 0)."""
    bends, last = [], None
    for k in range(1, len(events)):
        (a0, b0, _), (a1, b1, _) = events[k - 1], events[k]
        if not b1 < b0:
            raise Rejected(f"the lower bounds of {name} are not in envelope order (P_x'(T) must decrease)")
        t = (a0 - a1) / (b0 - b1)
        if last is not None and not t > last:
            raise Rejected(f"the lower bounds of {name} are not in envelope order (crossings must increase)")
        bends.append(t)
        last = t
    bends += [a / b for a, b, _ in events if b]
    return bends, [(a, b) for a, b, _ in events]


def profile(kind: str, claim: dict, game: Game, games: dict, pf: Proof) -> tuple:
    """delta_M(lam) <= delta_N(lam) for every lam >= 1 (eps >= 0): M's upper chains lie below the
    max of N's event lines; profile_eq is both directions.  A failure: at some lam, an event of
    one mechanism beats the other's upper chains.

    fdp: M is f-DP for f = T(N), N's trade-off function (Dong, Roth & Su 2022): T(M) >= T(N)
    pointwise, which is delta_M <= delta_N for every lam >= 0 (their Prop. 2.12).  For lam < 1
    it follows from lam >= 1, because games have symmetric pairs: delta(lam) =
    1 - lam + lam * delta(1 / lam) over a symmetric set of pairs.  not_fdp is its negation."""
    if kind in ("fdp", "not_fdp"):
        other = game_of(games, field(claim, "f", str, "claim"))
        statement = f"{text(game.name)} is {'not ' if kind == 'not_fdp' else ''}T({text(other.name)})-DP"
        holds = domination(pf, [(game, other)])
        return statement, (None if holds is None else holds != (kind == "not_fdp"))
    other = game_of(games, field(claim, "than" if kind == "profile_le" else "as", str, "claim"))
    statement = (
        f"profile of {text(game.name)} {'<=' if kind == 'profile_le' else 'equals'} profile of {text(other.name)}"
    )
    return statement, domination(pf, [(game, other)] + ([(other, game)] if kind == "profile_eq" else []))


def domination(pf: Proof, directions: list) -> bool | None:
    """Whether delta_m <= delta_n for every lam >= 1 in every direction (m, n); None: undecided."""
    if field(pf.raw, "at", str, "proof", optional=True) is not None:
        lam = ratio(pf.raw["at"], "proof.at")
        if lam == INF or lam < 1:
            raise Malformed("proof.at: a finite e^eps >= 1")
        for m, n in directions:
            hi = pf.delta_at_most(n, lam)
            if hi is not None and pf.delta_at_least(m, lam) > hi:
                return False
        return None
    for m, n in directions:
        roots, (bends, lines) = pf.upper(m), envelope(pf.lower(n), n.name)
        if roots is None or not all(inside((ONE, INF), d) for _, d in roots):
            return None
        lower = lambda xs: [max([ZERO] + [a - x * b for a, b in lines]) for x in xs]  # noqa: E731, B023 (used in this iteration only)
        for ch, _ in roots:
            dominates(
                lower,
                ch.values,
                ch.bends() + bends,
                ONE,
                INF,
                f"profile of {m.name} below the lower bounds of {n.name}",
            )
    return True


def simulates(kind: str, claim: dict, game: Game, games: dict, pf: Proof) -> tuple:
    """For every adjacent pair, T with View(A, T(RR(b))) = View(A, M(x_b)) (Thm 1.10).  "No T"
    for a pair: Farkas multipliers, or an event breaking (eps, delta)-DP on it (T(RR) would be
    (eps, delta)-DP by post-processing).  With eps = PrivLoss(M, delta) (the default), lam must
    also be proved to be e^PrivLoss."""
    delta = number(claim, "delta")
    default = claim.get("exp_eps") is None
    lam = (
        ratio(field(pf.raw, "exp_eps_used", str, "proof"), "proof.exp_eps_used")
        if default
        else number(claim, "exp_eps", lam=True)
    )
    if (lam == INF and not default) or (lam != INF and lam < 1):
        raise Malformed("e^eps must be finite and >= 1")
    events = pf.lower(game)
    eps = f"PrivLoss({text(game.name)}, {delta}) = {log_text(lam)}" if default else log_text(lam)
    statement = f"{text(game.name)} {'does not simulate' if kind == 'not_simulates_rr' else 'simulates'} RR_({eps}, {delta}) (Thm 1.10)"
    negated = kind == "not_simulates_rr"
    if lam == INF:  # PrivLoss = inf: an event impossible under x' shows that no finite eps works
        holds = decide(False, any(pp == 0 and p > delta for p, pp, _ in events))
        return statement, None if holds is None else holds != negated
    pairs = {frozenset((game.datasets.index(x), game.datasets.index(y))) for x, y in game.pairs}
    with_t = {
        check_simulation(game, s, f"proof.simulation[{k}]", lam, delta)
        for k, s in enumerate(field(pf.raw, "simulation", list, "proof", optional=True) or [])
    }
    no_t = {
        check_farkas(game, f, f"proof.farkas[{k}]", lam, delta)
        for k, f in enumerate(field(pf.raw, "farkas", list, "proof", optional=True) or [])
    }
    no_t |= {frozenset(pr) for p, pp, pr in events if p - lam * pp > delta}
    if with_t & no_t:
        raise Rejected("T was shown both to exist and not to exist for the same pair")
    if default:  # lam = e^PrivLoss: an event gives lam <= L, T for every pair or chains give L <= lam
        tight = lam == 1 or any(pp and p - lam * pp >= delta for p, pp, _ in events)
        bound = pf.delta_at_most(game, lam)
        if not tight or not (with_t == pairs or (bound is not None and bound <= delta)):
            return statement, None
    holds = decide(with_t == pairs, bool(no_t))
    return statement, None if holds is None else holds != negated


# --- the command line ----------------------------------------------------------------------------


# --- Renyi divergence: recomputed by backward induction ---------------------------------------


def renyi(kind: str, claim: dict, game: Game, games: dict, pf: Proof) -> tuple:
    """D_alpha(M) (Mironov 2017, Def. 3) for a whole alpha >= 2: log(r)/(alpha - 1) with r the
    largest, over ordered pairs and deterministic adversaries (views contain the adversary's
    coins), of sum_v P_x(v)^alpha P_x'(v)^(1 - alpha); for alpha = inf, log of the largest
    likelihood ratio of a view.  Both are recomputed here, node by node from the end.  The
    claimed X = sum c_i log(b_i) compares as r with prod b_i^((alpha - 1) c_i)."""
    text_alpha = field(claim, "alpha", str, "claim")
    alpha = None if text_alpha == INF else int(text_alpha) if text_alpha.isascii() and text_alpha.isdigit() else 0
    if alpha is not None and not 2 <= alpha <= 10_000:
        raise Malformed("claim.alpha: a whole number from 2 to 10000, or inf")
    rel = field(claim, "relation", str, "claim")
    if rel not in ("equals", "at_most", "exceeds"):
        raise Malformed("claim.relation: equals, at_most or exceeds")
    bound = claim.get("bound")
    terms = (
        None
        if bound == INF
        else [
            (ratio(b, f"claim.bound[{k}][0]"), rational(c, f"claim.bound[{k}][1]"))
            for k, (b, c) in enumerate(pairs_of(bound))
        ]
    )
    if terms is not None and any(b == 0 or infinite(b) for b, _ in terms):
        raise Malformed("claim.bound: the bases of the logarithms must be positive rationals")
    r = max(
        (renyi_sum(game, game.datasets.index(x), game.datasets.index(y), alpha) for x, y in game.pairs), key=order_key
    )
    c = compare_power(r, (alpha or 2) - 1, terms)
    x = "inf" if terms is None else log_sum_text(terms)
    statement = f"D_{text_alpha}({text(game.name)}) {dict(equals='=', at_most='<=', exceeds='>')[rel]} {x}"
    return statement, {"equals": c == 0, "at_most": c <= 0, "exceeds": c > 0}[rel]


def log_sum_text(terms: list) -> str:
    """sum c log(b) as ``log(7) - log(3)`` or ``1/2 log(61) - log(3)``."""
    out = ""
    for b, c in terms:
        mag = "" if abs(c) == 1 else f"{abs(c)} "
        out += (" - " if c < 0 else " + " if out else "") + f"{mag}log({b})"
    return out or "0"


def pairs_of(bound: Any) -> list:
    items = expect(bound, list, "claim.bound")
    for k, item in enumerate(items):
        if len(expect(item, list, f"claim.bound[{k}]")) != 2:
            raise Malformed(f"claim.bound[{k}]: a term is [b, c], for c * log(b)")
    return items


def order_key(v: Any) -> tuple:
    return (1, ZERO) if infinite(v) else (0, v)


def renyi_sum(game: Game, i: int, j: int, alpha: int | None) -> Any:
    """The sup over deterministic adversaries for the ordered pair (i, j): children come
    before parents (ids increase), so one pass in id order computes every node's value."""
    val: list = []
    for nd in game.nodes:
        if nd[0] == "end":
            val.append(ONE)
        elif nd[0] == "ask":
            val.append(max((val[c] for c in nd[2]), key=order_key))
        else:
            parts = []
            for row, c in zip(nd[2], nd[3]):
                p, q = row[i], row[j]
                if not p:
                    continue  # a view impossible under x adds nothing
                if not q or infinite(val[c]):
                    parts.append(INF)
                else:
                    limit_size(bits(p) + bits(q), alpha or 1, "a term p^alpha p'^(1 - alpha)")
                    parts.append((p / q) ** (alpha - 1) * p * val[c] if alpha else p / q * val[c])
            if any(infinite(v) for v in parts):
                val.append(INF)
            else:
                val.append(max(parts) if alpha is None else sum(parts, ZERO))
    return val[game.root]


def compare_power(r: Any, k: int, terms: list | None) -> int:
    """The sign of log(r) / k - sum c log(b), i.e. of r - prod b^(k c): both sides are raised
    to the least common denominator of the exponents k c, so that it is exact."""
    if terms is None or infinite(r):
        return 0 if terms is None and infinite(r) else 1 if infinite(r) else -1
    exps = [(b, k * c) for b, c in terms]
    d = lcm(*(e.denominator for _, e in exps))
    limit_size(bits(r), d, "the Renyi sum raised to the exponents' common denominator")
    limit_size(sum(bits(b) * abs(e * d) for b, e in exps), 1, "the claimed bound raised to that power")
    left, right = r**d, ONE
    for b, e in exps:
        n = int(e * d)
        if n > 0:
            right *= b**n
        else:
            left *= b**-n
    return (left > right) - (left < right)


MAX_BITS = 4_000_000  # the largest number this checker builds (a hostile file must not stall it)


def bits(x: Fraction) -> int:
    return max(x.numerator.bit_length(), x.denominator.bit_length())


def limit_size(size: Any, times: int, what: str) -> None:
    if size * times > MAX_BITS:
        raise Malformed(f"{what} would have about {size * times} bits, more than this checker computes ({MAX_BITS})")


def show_game(game: Game) -> list:
    """The game as an indented tree; a shared sub-game is printed once and then referred to."""
    ds = ", ".join(map(text, game.datasets))
    out = [
        f"game {text(game.name)}: datasets ({ds}); ordered pairs "
        + ", ".join(f"({text(x)}, {text(y)})" for x, y in game.pairs)
    ]
    shown: set = set()
    stack = [(game.root, 1, "")]
    while stack:
        k, depth, head = stack.pop()
        nd, pad = game.nodes[k], "  " * depth
        if nd[0] == "end":
            out.append(f"{pad}{head}end")
            continue
        if k in shown:
            out.append(f"{pad}{head}#{k} (shown above)")
            continue
        shown.add(k)
        out.append(
            f"{pad}{head}#{k} {'the adversary chooses' if nd[0] == 'ask' else f'the mechanism answers, Pr under ({ds})'}:"
        )
        kids = []
        for a, (lab, c) in enumerate(zip(nd[1], nd[-1])):
            pr = " (" + ", ".join(map(str, nd[2][a])) + ")" if nd[0] == "answer" else ""
            kids.append((c, depth + 1, f"{text(lab)}{pr} -> "))
        stack.extend(reversed(kids))
    return out


def load(path: Path) -> Any:
    def pairs(items: list) -> dict:
        d = dict(items)
        if len(d) != len(items):
            raise Malformed("a key appears twice in one object")
        return d

    def refuse(s: str) -> None:
        raise Malformed(f'the JSON number {s[:20]} is not allowed: numbers are strings such as "3/4"')

    if not path.is_file():  # (a FIFO or device would block or never end)
        raise Malformed("not a regular file")
    try:
        with no_gc():  # (the same reason as for the check: many objects, no cycles)
            return json.loads(
                path.read_bytes().decode("utf-8"), object_pairs_hook=pairs, parse_float=refuse, parse_constant=refuse
            )
    except (OSError, UnicodeDecodeError, RecursionError, ValueError) as e:  # JSONDecodeError is a ValueError
        raise Malformed(f"cannot read it as UTF-8 JSON: {str(e)[:200] or type(e).__name__}") from None


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="exactdp-check", description="Check exactdp certificates (Python standard library only)."
    )
    ap.add_argument("paths", nargs="+", help="certificate files, or directories searched for *.json")
    ap.add_argument(
        "--case", action="append", default=[], help="the case file the certificates are about (checks its SHA-256)"
    )
    ap.add_argument("--show-game", action="store_true", help="print each certificate's game")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only rejected and malformed certificates")
    args = ap.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        hashes = {hashlib.sha256(Path(c).read_bytes()).hexdigest() for c in args.case} if args.case else None
    except OSError as e:
        print(f"exactdp-check: cannot read the case file: {e}")
        return 2
    files = []
    for p in map(Path, args.paths):
        if p.is_dir():  # symbolic links are not followed: a certificate folder is plain files
            found = [Path(d, f) for d, _, names in os.walk(p) for f in names if f.endswith(".json")]
            files.extend(sorted(f for f in found if f.is_file() and not f.is_symlink()))
        else:
            files.append(p)
    if not files:
        print("exactdp-check: no certificates found")
        return 2
    counts = {"accepted": 0, "REJECTED": 0, "MALFORMED": 0}
    for f in files:
        try:
            cert = load(f)
            line = "accepted: " + check_certificate(cert, hashes)
            status = "accepted"
            if args.show_game:
                games = field(cert, "games", dict, "certificate")
                line += "\n" + "\n".join(
                    x for name in games for x in show_game(Game(name, games[name], f"games.{name}"))
                )
        except Rejected as e:
            status, line = "REJECTED", f"REJECTED: {e}"
        except Malformed as e:
            status, line = "MALFORMED", f"MALFORMED: {e}"
        except (RecursionError, MemoryError, ArithmeticError, ValueError) as e:
            status, line = "MALFORMED", f"MALFORMED: too large or deep to check ({type(e).__name__})"
        except Exception as e:  # a bug in this file: say so, without a traceback
            status, line = (
                "MALFORMED",
                f"MALFORMED: not checked: internal error in the checker ({type(e).__name__}: {text(e)})",
            )
        counts[status] += 1
        if status != "accepted" or not args.quiet:
            print(f"{text(f)}: {line}")
    print(
        f"{len(files)} certificate(s): {counts['accepted']} accepted, {counts['REJECTED']} rejected, {counts['MALFORMED']} malformed"
    )
    return 2 if counts["MALFORMED"] else 1 if counts["REJECTED"] else 0


if __name__ == "__main__":
    sys.exit(main())
