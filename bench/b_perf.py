"""Performance toward the limit: each fast path as a ratio against the reference engine.

The reference (:mod:`exactdp.analysis.reference`) is the engine as it was before the flat-storage
loops, kept callable.  Every ratio is measured in one run, on the same mechanism, alternating
reference and new code; ``seconds`` is CPU time (``time.process_time``: the machine is shared by
other work, whose load shows in wall time but much less in CPU time), the best of the repeats.
Exact answers are compared as well: a benchmark whose answers differ fails.

The tree is the full 2-query x 2-answer tree of ``bench/mechanisms.py``.  "flat" is the tree as
the case reader stores it (read from its JSON text); "nodes" is the same tree built from node
objects through the Python API, where the engine first lists it into flat arrays (included).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import bench

REPEATS = 3


def _best(fn, repeats: int = REPEATS) -> tuple[float, object]:
    best, out = None, None
    for _ in range(repeats):
        t = time.process_time()
        out = fn()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best, out


def _trees(depth: int):
    """The tree as node objects and as read from its JSON text (flat storage)."""
    from mechanisms import full_tree, full_tree_json

    from exactdp.caseio import parse_case

    nodes = full_tree(depth)
    flat = parse_case(full_tree_json(depth), "tree.json").mechanisms["M"]
    return nodes, flat


def _fresh(m):
    """The same game as a new mechanism (its flat arrays are listed again when timed)."""
    from exactdp.model import Mechanism

    return Mechanism(m.root, m.datasets, m.adjacent, m.name)


def _ratio_run(ref, new_flat, new_nodes, check) -> dict:
    """Alternate reference and new runs; the ratio is reference time / new time (flat)."""
    rows = {"reference": [], "new_flat": [], "new_nodes": []}
    outs = {}
    for _ in range(REPEATS):
        for key, fn in (("reference", ref), ("new_flat", new_flat), ("new_nodes", new_nodes)):
            t, out = _best(fn, 1)
            rows[key].append(t)
            outs[key] = out
    if not (check(outs["reference"], outs["new_flat"]) and check(outs["reference"], outs["new_nodes"])):
        raise AssertionError(f"answers differ: {outs}")
    best = {k: min(v) for k, v in rows.items()}
    return {
        "seconds": best["new_flat"],
        "reference_seconds": round(best["reference"], 4),
        "new_flat_seconds": round(best["new_flat"], 4),
        "new_nodes_seconds": round(best["new_nodes"], 4),
        "ratio": best["reference"] / best["new_flat"],
        "ratio_nodes": round(best["reference"] / best["new_nodes"], 2),
        "answer": str(outs["new_flat"])[:60],
    }


@bench(
    "perf-privloss-d7-delta0",
    None,
    None,
    "PrivLoss(M, 0), full 2x2 tree of depth 7: largest-ratio pass vs the reference engine",
    ratio_at_least=4.5,
)
def privloss_d7_delta0():
    from exactdp.analysis import profile
    from exactdp.analysis.reference import reference_privloss
    from exactdp.numbers import Q

    nodes, flat = _trees(7)
    return _ratio_run(
        lambda: reference_privloss(nodes, Q(0)),
        lambda: profile.privloss(_fresh(flat), Q(0)),
        lambda: profile.privloss(_fresh(nodes), Q(0)),
        lambda a, b: a == b,
    )


@bench(
    "perf-privloss-d7-delta1/100",
    None,
    None,
    "PrivLoss(M, 1/100), full 2x2 tree of depth 7: chains on flat storage vs the reference engine",
    ratio_at_least=1.4,
)
def privloss_d7_delta100():
    from exactdp.analysis import profile
    from exactdp.analysis.reference import reference_privloss
    from exactdp.numbers import Q

    nodes, flat = _trees(7)
    return _ratio_run(
        lambda: reference_privloss(nodes, Q(1, 100)),
        lambda: profile.privloss(_fresh(flat), Q(1, 100)),
        lambda: profile.privloss(_fresh(nodes), Q(1, 100)),
        lambda a, b: a == b,
    )


@bench(
    "perf-renyi-d7-alpha2",
    None,
    None,
    "Renyi divergence of order 2, full 2x2 tree of depth 7: lean induction vs the reference",
    ratio_at_least=3.0,
)
def renyi_d7_alpha2():
    from exactdp.analysis.reference import reference_renyi_sums
    from exactdp.analysis.renyi import renyi, result_from_sums

    nodes, flat = _trees(7)
    return _ratio_run(
        lambda: result_from_sums(nodes, 2, reference_renyi_sums(nodes, 2)).value,
        lambda: renyi(_fresh(flat), 2).value,
        lambda: renyi(_fresh(nodes), 2).value,
        lambda a, b: a == b,
    )


def _cli(args: list[str]) -> tuple[float, int, str, int]:
    """CPU seconds (user + system), peak resident KB, stdout and exit status of one
    ``exactdp`` command in its own process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([sys.executable, "-m", "exactdp", *args], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, after.ru_maxrss, p.stdout.strip() or p.stderr.strip(), p.returncode


@bench(
    "perf-cli-d8-json",
    None,
    None,
    "`exactdp privloss` end to end on the depth-8 tree as JSON (delta 1/100), over its engine time",
    ratio_at_most=4.0,
)
def cli_d8_json():
    from mechanisms import full_tree_json

    from exactdp.analysis import profile
    from exactdp.analysis.reference import reference_privloss
    from exactdp.caseio import load_case
    from exactdp.numbers import Q

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tree-d8.json"
        path.write_text(full_tree_json(8))
        rows = []
        for delta in ("1/100", "0"):
            cli, _, out, code = min(_cli(["privloss", str(path), "--delta", delta]) for _ in range(2))
            assert code == 0, out
            m = load_case(path).mechanisms["M"]
            d = Q(1, 100) if delta == "1/100" else Q(0)
            engine, val = _best(lambda m=m, d=d: profile.privloss(_fresh(m), d), 2)
            ref, rval = _best(lambda m=m, d=d: reference_privloss(m, d), 1)
            assert str(val) in out and val == rval, (out, val, rval)
            read, _ = _best(lambda: load_case(path), 1)
            rows.append(
                {
                    "delta": delta,
                    "cli_cpu": round(cli, 2),
                    "read": round(read, 2),
                    "engine": round(engine, 2),
                    "reference_engine": round(ref, 2),
                    "cli_over_engine": round(cli / engine, 2),
                    "cli_over_reference_engine": round(cli / ref, 2),
                }
            )
    first = rows[0]
    return {"seconds": first["cli_cpu"], "ratio": first["cli_over_engine"], "rows": rows}


@bench(
    "perf-concomp-100rr",
    30.0,
    None,
    "ConComp of 100 copies of RR_log3: build, PrivLoss(M, 0), PrivLoss(M, 1/100), delta at 50 log 3",
)
def concomp_100rr():
    from math import comb

    from exactdp.analysis import profile
    from exactdp.analysis.reference import reference_profile
    from exactdp.builders import concomp, rr
    from exactdp.model import stats
    from exactdp.numbers import Q

    R = rr(eps="log(3)")
    t = time.process_time()
    m = concomp([R] * 100)
    build = time.process_time() - t
    pl0 = profile.privloss(m, 0)
    prof = profile.profile(m)
    pl = prof.privloss(Q(1, 100))
    d = prof.delta_at("50*log(3)")
    secs = time.process_time() - t
    # delta at 50 log 3 from the binomial form of the k-fold RR profile (Kairouz-Oh-Viswanath)
    want = sum(comb(100, i) * (Q(3) ** (100 - i) - Q(3) ** 50 * Q(3) ** i) for i in range(25)) / Q(4) ** 100
    assert d == want and str(pl0) == f"log({3**100})"
    # the construction that names every copy, for a size it can still build
    t = time.process_time()
    named = concomp([R] * 12, merge_copies=False)
    ref = reference_profile(named).privloss(Q(1, 100))
    ref12 = time.process_time() - t
    assert ref == profile.privloss(concomp([R] * 12), Q(1, 100))
    return {
        "seconds": secs,
        "build_seconds": round(build, 3),
        "joint_states": stats(m.root)["ask_nodes"] + stats(m.root)["chance_nodes"],
        "privloss_1/100": str(pl)[:50],
        "delta_at_50log3": float(d),
        "reference_12_copies_seconds": round(ref12, 2),
    }


@bench(
    "perf-tree-d10-cli",
    300.0,
    None,
    "full 2x2 tree of depth 10 (1,398,100 answer edges) as JSON through `exactdp privloss`, default limits",
)
def tree_d10_cli():
    from mechanisms import full_tree_json

    answer_edges = 2 * 2 * (4**10 - 1) // 3  # 2 answers x 2 queries per round
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tree-d10.json"
        path.write_text(full_tree_json(10))
        size = os.path.getsize(path)
        cpu, peak_kb, out, code = _cli(["privloss", str(path), "--delta", "1/100"])
    assert code == 0, out
    return {
        "seconds": cpu,
        "exit": code,
        "file_mb": round(size / 1e6, 1),
        "cli_peak_mb": round(peak_kb / 1024, 1),
        "bytes_per_answer_edge": round(peak_kb * 1024 / answer_edges),
        "answer": out[:80],
    }
