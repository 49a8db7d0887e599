"""Parametric analysis: piecewise profiles for every value of a symbol (targets: <= 10 s each).

``parametric-rr4-profile``: the piecewise privacy profile of 4-fold RR_E (E = e^eps > 1), every
ordered pair and the envelope as formulas between breakpoints (one piece: Kairouz-Oh-Viswanath
2015, Thm 3.3).  ``parametric-tree-d3``: a depth-3 interactive tree (the adversary picks one of
two queries per round, each answered with probabilities that are polynomials in p in (0, 1)),
whose worst adversary changes with p.
"""

from __future__ import annotations

import time
from fractions import Fraction

from harness import bench


def _table(name: str, lo, hi):
    from exactdp.numbers import Q
    from exactdp.numbers.symbolic import SymbolBounds, SymbolTable

    return SymbolTable.build(
        [SymbolBounds(name, None if lo is None else Q(lo), False, None if hi is None else Q(hi), False)]
    )


def _profile(mech, table) -> dict:
    from exactdp.analysis.parametric.queries import profile_of

    t, c = time.perf_counter(), time.process_time()
    pw = profile_of(mech, table)
    secs, cpu = time.perf_counter() - t, time.process_time() - c
    return {
        "seconds": secs,
        "cpu_seconds": cpu,
        "cells": pw.cells,
        "pieces": len(pw.pieces),
        "rows": [f"cpu {cpu:.2f} s; {pw.cells} cells, {len(pw.pieces)} pieces"] + [p.text() for p in pw.pieces][:6],
    }


@bench("parametric-rr4-profile", 10.0, None, "exactdp profile of 4-fold RR_E, piecewise in E > 1")
def rr4_profile():
    from exactdp.builders import repeat
    from exactdp.builders.symbolic import rr_sym_node
    from exactdp.model import Mechanism

    table = _table("E", 1, None)
    E = table.symbols["E"]
    rr = Mechanism(rr_sym_node(E, (0, 1)), ("x0", "x1"), ((0, 1),), "RR")
    return _profile(repeat(rr, 4, name="RR4"), table)


def figure1_d3(p):
    """A three-round interactive mechanism in the spirit of Vadhan-Wang's Figure 1, with a
    parameter: in every round the adversary asks A (randomized response that keeps the bit with
    probability 3/4) or B (keeps it with probability p, in (0, 1)); after an answer 1, the query
    asked last answers a fair coin in the next round instead.  Which query (and so which adaptive
    strategy) is worst changes with p."""
    import sympy

    from exactdp.model import END, Ask, Mechanism
    from exactdp.model.symbolic import SymChance

    def rr(keep):
        return [(keep, 1 - keep), (1 - keep, keep)]

    half = sympy.Rational(1, 2)
    coin = [(half, half), (half, half)]

    def sub(level: int, muted: str | None):
        if level == 3:
            return END
        kids = []
        for q, keep in (("A", sympy.Rational(3, 4)), ("B", p)):
            rows = coin if q == muted else rr(keep)
            kids.append(SymChance(("0", "1"), rows, (sub(level + 1, None), sub(level + 1, q))))
        return Ask(("A", "B"), tuple(kids))

    return Mechanism(sub(0, None), ("x0", "x1"), ((0, 1),), "figure1-d3")


def tree_d3(p):
    """The depth-3 interactive tree of ``parametric-tree-d3`` (p a SymPy symbol in (0, 1)): in
    each round the adversary asks q0 or q1, seeing all earlier answers; the probabilities depend
    on p, the round and the number of 1s answered so far, so which query is worst changes with p."""
    import sympy

    from exactdp.model import END, Ask, Mechanism
    from exactdp.model.symbolic import SymChance

    def sub(level: int, ones: int):
        if level == 3:
            return END
        shift = sympy.Rational(level + ones, 24)
        keep = (1 + p) / 2 - shift  # q0: randomized response, keep-probability in (1/4, 1)
        a0 = (1 + p**2) / 3 + shift  # q1: a coin whose bias moves with p and the history
        a1 = (1 + p) / 3
        q0 = SymChance(
            ("0", "1"), [(keep, 1 - keep), (1 - keep, keep)], (sub(level + 1, ones), sub(level + 1, ones + 1))
        )
        q1 = SymChance(("0", "1"), [(a0, a1), (1 - a0, 1 - a1)], (sub(level + 1, ones), sub(level + 1, ones + 1)))
        return Ask(("q0", "q1"), (q0, q1))

    return Mechanism(sub(0, 0), ("x0", "x1"), ((0, 1),), "tree-d3")


@bench(
    "parametric-tree-d3",
    10.0,
    None,
    "exactdp profile of a 3-round interactive tree (Figure 1 style) with one parameter p in (0, 1)",
)
def figure1_d3_profile():
    table = _table("p", 0, 1)
    return _profile(figure1_d3(table.symbols["p"]), table)


@bench(
    "parametric-tree-d3-stress",
    None,
    None,
    "exactdp profile of a depth-3 tree whose probabilities are polynomials in p and the history (many break points)",
)
def tree_d3_profile():
    table = _table("p", 0, 1)
    return _profile(tree_d3(table.symbols["p"]), table)


def _kl_verdict(text: str, name: str) -> dict:
    from exactdp.report.verdicts import shown
    from exactdp.verify import verify_text

    t, c = time.perf_counter(), time.process_time()
    verdicts = verify_text(text, name).verdicts
    secs, cpu = time.perf_counter() - t, time.process_time() - c
    rows = [f"cpu {cpu:.2f} s"] + [f"{v.claim.statement()}: {v.status.value}, {shown(v).found}" for v in verdicts]
    return {
        "seconds": secs,
        "cpu_seconds": cpu,
        "boxes": sum(v.facts.get("symbol_boxes", 0) for v in verdicts),
        "rows": rows,
    }


@bench(
    "parametric-kl-rr4",
    10.0,
    None,
    "KL(4-fold RR_E) <= (8/3) log(E) for every 1 < E <= 4, by certified boxes of E (KL = 4 tanh(eps/2) eps)",
)
def kl_rr4():
    text = """
exactdp: 1
name: kl-rr4
symbols: {E: {gt: 1, le: 4}}
mechanisms:
  R: {rr: {eps: log(E)}}
  M4: {repeat: {mechanism: R, times: 4}}
claims:
  - renyi: {of: M4, alpha: 1, at_most: 8*log(E)/3}
  - renyi: {of: M4, alpha: 1, at_most: 2*log(E)}
"""
    return _kl_verdict(text, "kl-rr4.yaml")


@bench(
    "parametric-kl-tree-d3",
    10.0,
    None,
    "KL of the 3-round Figure-1-style tree of parametric-tree-d3 at most 17/10 for every 1/4 <= p <= 3/4, by certified boxes",
)
def kl_tree_d3():
    from exactdp.claims.base import Analysis
    from exactdp.claims.parametric import check_claim
    from exactdp.claims.renyi import RenyiClaim
    from exactdp.numbers import Q

    table = _table("p", Fraction(1, 4), Fraction(3, 4))
    mech = figure1_d3(table.symbols["p"])
    an = Analysis({"M": mech}, symbols=table)
    t, c = time.perf_counter(), time.process_time()
    v = check_claim(RenyiClaim(of="M", alpha=1, at_most=Q(17, 10)), an)
    secs, cpu = time.perf_counter() - t, time.process_time() - c
    return {
        "seconds": secs,
        "cpu_seconds": cpu,
        "boxes": v.facts.get("symbol_boxes"),
        "rows": [f"cpu {cpu:.2f} s; {v.status.value}: {v.reason or v.facts.get('symbol_boxes')}"],
    }
