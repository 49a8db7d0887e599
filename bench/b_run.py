"""Parallel execution benchmarks: the case library and a 200-point sweep on 1 and 2 local worker
processes, and the same sweep on a Dask LocalCluster (its overhead per point).

Each configuration runs the real command (``exactdp verify`` / ``exactdp sweep``) in a fresh
process, so worker start-up is included.  The machine is shared: the load average before and
after each run is reported next to the times, and the speed-ups are only meaningful when it is
low (below 1 on this 2-core machine).  Target: speed-up >= 1.6 with 2 workers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness import bench

ROOT = Path(__file__).resolve().parents[1]
EXACTDP = [sys.executable, "-m", "exactdp"]

# 200 points: k = 8..15 rounds of an adversary choosing among RR_e, RR_(2e, 1/100) and
# RR_(3e, 1/1000), for 25 values of e; a point takes about 0.05 to 0.5 s (the hull grows with k)
SWEEP_CASE = """\
exactdp: 1
name: bench-sweep-200
title: adaptive choice among three randomized responses, k rounds (benchmark)
reference: Vadhan-Wang 2021, Def. 1.9 and Def. 5.1 (the components)
params: {k: 8, e: log(2)}
sweep:
  k: {from: 8, to: 15}
  e: [%s]
mechanisms:
  A: {rr: {eps: e}}
  B: {rr: {eps: 2*e, delta: 1/100}}
  C: {rr: {eps: 3*e, delta: 1/1000}}
  Q: {choose: [A, B, C]}
  M: {repeat: {mechanism: Q, times: k}}
claims:
  - privloss: {delta: 1/100, at_most: 3*k*e}
  - privloss: {delta: 1/10, at_most: 3*k*e}
""" % ", ".join(f"log({n}/{n - 1})" for n in range(2, 27))  # noqa: UP031 (a YAML template with braces)


def _run(args: list[str]) -> tuple[float, float, float, int]:
    """(seconds, load before, load after, exit status) of one command."""
    before = os.getloadavg()[0]
    t = time.perf_counter()
    p = subprocess.run(EXACTDP + args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    secs = time.perf_counter() - t
    if p.returncode not in (0, 1):
        raise RuntimeError(f"exactdp {' '.join(args)} exited {p.returncode}: {p.stderr[-2000:]}")
    return secs, before, os.getloadavg()[0], p.returncode


def _row(label: str, r: tuple[float, float, float, int]) -> str:
    return f"{label:<34} {r[0]:7.2f} s   (load {r[1]:.2f} -> {r[2]:.2f})"


@bench("run-library-jobs", None, None, "make run (exactdp verify cases/): 1 vs 2 worker processes")
def library_jobs():
    one = _run(["verify", "-q", "--jobs", "1", "cases/"])
    two = _run(["verify", "-q", "--jobs", "2", "cases/"])
    return {
        "seconds": two[0],
        "jobs1_seconds": one[0],
        "speedup": one[0] / two[0],
        "rows": [_row("--jobs 1", one), _row("--jobs 2", two), f"speed-up {one[0] / two[0]:.2f}x (target >= 1.6)"],
    }


@bench("run-sweep-200", None, None, "200-point sweep: --jobs 1 vs 2, and Dask local:2 (overhead per point)")
def sweep_200():
    with tempfile.TemporaryDirectory() as d:
        case = Path(d) / "sweep200.yaml"
        case.write_text(SWEEP_CASE)
        one = _run(["sweep", "-q", "--jobs", "1", str(case)])
        two = _run(["sweep", "-q", "--jobs", "2", str(case)])
        dask = _run(["sweep", "-q", "--scheduler", "local:2", str(case)])
    per_point_ms = 1000 * (dask[0] - two[0]) / 200
    return {
        "seconds": two[0],
        "jobs1_seconds": one[0],
        "dask_seconds": dask[0],
        "speedup": one[0] / two[0],
        "dask_overhead_ms_per_point": per_point_ms,
        "rows": [
            _row("--jobs 1", one),
            _row("--jobs 2", two),
            _row("--scheduler local:2", dask),
            f"speed-up {one[0] / two[0]:.2f}x (target >= 1.6); Dask vs --jobs 2: {per_point_ms:+.1f} ms per point "
            "(cluster start-up included)",
        ],
    }


def _timed_item(item):
    """check_item with the worker's own CPU and wall time (module level: workers import it)."""
    from exactdp.verify import check_item

    c, w = time.process_time(), time.perf_counter()
    fr = check_item(item)
    return fr.exit_code, time.process_time() - c, time.perf_counter() - w, os.getpid()


@bench(
    "run-sweep-200-cpu",
    None,
    None,
    "200-point sweep, CPU accounting: what 2 workers cost, independent of the machine's load",
)
def sweep_200_cpu():
    """Wall time depends on what else runs on the machine; CPU time does not.  The sum of the
    workers' CPU time against the serial CPU time is the overhead of running in workers; on an
    idle 2-core machine the wall time would be about half that sum, plus the start-up and the
    time of the last points when only one worker is left with work."""
    from exactdp.execution import Runner, run_ordered
    from exactdp.verify import Options, work_items

    with tempfile.TemporaryDirectory() as d:
        case = Path(d) / "sweep200.yaml"
        case.write_text(SWEEP_CASE)
        items = work_items([case], Options())
    out = {}
    for jobs in (1, 2):
        load = os.getloadavg()[0]
        t, c = time.perf_counter(), time.process_time()
        res = list(run_ordered(_timed_item, items, Runner(jobs=jobs)))
        out[jobs] = (
            time.perf_counter() - t,
            time.process_time() - c,
            sum(r[1] for r in res),
            sum(r[2] for r in res),
            load,
        )
    (w1, _, cpu1, _, l1), (w2, parent2, cpu2, busy2, l2) = out[1], out[2]
    return {
        "seconds": w2,
        "cpu_serial": cpu1,
        "cpu_workers": cpu2,
        "parent_cpu": parent2,
        "rows": [
            f"--jobs 1: {w1:.2f} s wall, {cpu1:.2f} s CPU (load {l1:.2f})",
            f"--jobs 2: {w2:.2f} s wall, workers {cpu2:.2f} s CPU in total ({cpu2 / cpu1 - 1:+.1%} vs serial), "
            f"busy {busy2:.2f} s, parent {parent2:.2f} s CPU (load {l2:.2f})",
            f"wall speed-up {w1 / w2:.2f}x; CPU-bound bound for 2 idle cores: serial CPU / (workers' CPU / 2) = "
            f"{2 * cpu1 / cpu2:.2f}x (start-up and the last, longest points not counted)",
        ],
    }
