"""Automaton and continual-mechanism benchmarks.

* AboveThreshold with a *hidden* noisy threshold: 7 threshold states + ``done`` = 8 states,
  horizon 50.  The threshold is never revealed, so sub-games are keyed by exact posteriors over
  it; with two query types the posteriors after k "below" answers are indexed by how many of
  each type were asked (O(T^2) of them); with three, O(T^3).
* The same shape with a visible (answer-determined) state: one state per history prefix class,
  O(states x horizon) nodes.
* Thm 5.2's counterexample as a 1-sparse parallel composition with a cap of n creations.
"""

from __future__ import annotations

import time

from harness import bench


def _geo(center: int, lo: int, hi: int, a):
    w = {k: a ** abs(k - center) for k in range(lo, hi + 1)}
    t = sum(w.values())
    return {k: v / t for k, v in w.items()}


def above_threshold(horizon: int, values: dict, n_thresholds: int = 7):
    """Finite AboveThreshold: hidden threshold tau ~ two-sided geometric on 0..6 (ratio 1/2,
    centred at 3), per-query noise nu ~ two-sided geometric on -2..2; query q has value
    f_q(x) per dataset (sensitivity 1); answer T (then halt) iff f_q(x) + nu >= tau."""
    from exactdp.builders.automaton import make_automaton
    from exactdp.numbers import Q

    half = Q(1, 2)
    thr = _geo(3, 0, n_thresholds - 1, half)
    noise = _geo(0, -2, 2, half)
    states = [f"t{k}" for k in range(n_thresholds)] + ["done"]
    rows = {}
    for k in range(n_thresholds):
        for q, fs in values.items():
            top = [sum((p for v, p in noise.items() if f + v >= k), Q(0)) for f in fs]
            rows[(f"t{k}", q)] = [("T", "done", top), ("F", f"t{k}", [1 - x for x in top])]
    return make_automaton(states, {f"t{k}": p for k, p in thr.items()}, rows, horizon, n_rows=2)


def _run(a):
    from exactdp.analysis import profile
    from exactdp.builders.automaton import automaton
    from exactdp.model import stats
    from exactdp.numbers import Q

    t = time.perf_counter()
    m = automaton(a)
    build = time.perf_counter() - t
    prof = profile.profile(m)
    secs = time.perf_counter() - t
    s = stats(m.root)
    return {
        "seconds": secs,
        "build_seconds": build,
        "nodes": s["ask_nodes"] + s["chance_nodes"],
        "breakpoints": len(prof.envelope.edges),
        "privloss_1/100": str(prof.privloss(Q(1, 100)))[:50],
    }


@bench(
    "above-threshold-8x50",
    10.0,
    None,
    "AboveThreshold automaton, hidden threshold (8 states), 2 query types, horizon 50: full profile",
)
def at_hidden_2q():
    return _run(above_threshold(50, {"up": (1, 2), "down": (3, 2)}))


@bench("above-threshold-8x50-3q", None, None, "same, 3 query types (O(T^3) posteriors): full profile (no target)")
def at_hidden_3q():
    return _run(above_threshold(50, {"up": (1, 2), "down": (3, 2), "same": (2, 2)}))


@bench(
    "counter-automaton-8x50",
    10.0,
    None,
    "answer-determined AboveThreshold-style counter (8 visible states), horizon 50: full profile",
)
def counter_visible():
    from exactdp.builders.automaton import make_automaton
    from exactdp.numbers import Q

    k = 7
    rows = {}
    for i in range(k):
        p = Q(1, 4) + Q(1, 8 * (i + 2))
        rows[(f"c{i}", "up")] = [
            ("T", "done", [p, p + Q(1, 16)]),
            ("F", f"c{min(i + 1, k - 1)}", [1 - p, 1 - p - Q(1, 16)]),
        ]
        rows[(f"c{i}", "coin")] = [("H", f"c{i}", [Q(1, 2)]), ("T", f"c{i}", [Q(1, 2)])]
    return _run(make_automaton([f"c{i}" for i in range(k)] + ["done"], "c0", rows, 50))


@bench(
    "thm52-sparse-parallel",
    None,
    None,
    "Thm 5.2 counterexample: 1-sparse parallel composition of M_(1/2), cap n = 1..4",
)
def thm52():
    from exactdp.analysis import profile
    from exactdp.builders.automaton import make_automaton
    from exactdp.builders.continual import Continual, MenuItem, bounded_verifier, sparse_parallel
    from exactdp.model import stats
    from exactdp.numbers import Q

    d = Q(1, 2)
    rows = {("s0", m): [("0", "s0", [1 - d]), ("1", "s1", [d])] for m in "01"}
    rows.update({("s1", m): [(m, "s1", [1])] for m in "01"})
    item = MenuItem(
        "Md",
        Continual(make_automaton(["s0", "s1"], "s0", rows, 2), bounded_verifier("01", max_differing=1, max_length=2)),
        Q(0),
        d,
    )
    out = []
    total = 0.0
    for n in (1, 2, 3, 4):
        t = time.perf_counter()
        m = sparse_parallel([item], [(Q(0), d)], cap=n)
        delta = profile.delta_at(m, Q(0))
        secs = time.perf_counter() - t
        total += secs
        s = stats(m.root)
        out.append(
            {"n": n, "nodes": s["ask_nodes"] + s["chance_nodes"], "delta": str(delta), "seconds": round(secs, 3)}
        )
    return {"seconds": None, "rows": out}
