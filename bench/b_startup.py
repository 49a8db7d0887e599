"""Start-up: how long ``exactdp verify`` of a small rational case takes from a fresh process,
most of which is importing exactdp (the claim kinds, forms, engines and renderers a case does
not use are not imported: exactdp/lazy.py, the generated tables exactdp/claims/index.py and
exactdp/forms/index.py).

Each command runs in a fresh process several times; the median wall and CPU time are reported
(the machine is shared: CPU time is the steadier of the two).  When valgrind is installed, the
instruction count of one run of each command (``valgrind --tool=callgrind``, PYTHONHASHSEED=0)
is reported too: it does not depend on the load, and is the number to compare between two
versions measured on the same machine.  Whether exactdp's bytecode was cached (``__pycache__``)
is part of the result: without it every run compiles exactdp's source again.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from harness import bench

ROOT = Path(__file__).resolve().parents[1]
CASE = "cases/vadhan-wang/rr-pure.yaml"
RUNS = 7
COMMANDS = {
    "import exactdp.cli": [sys.executable, "-c", "import exactdp.cli"],
    "exactdp --help": [sys.executable, "-m", "exactdp", "--help"],
    f"exactdp verify {CASE}": [sys.executable, "-m", "exactdp", "verify", CASE],
}


def _once(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _instructions(cmd: list[str]) -> int | None:
    """Instructions executed by one run under callgrind (None without valgrind).  The exit
    status is not checked: under valgrind's slow clock the time limit's profiling timer can
    fire as the process ends, after the count is written."""
    if shutil.which("valgrind") is None:
        return None
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    m = re.search(r"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None


@bench(
    "startup-verify-rr-pure",
    1.0,
    None,
    f"exactdp verify {CASE} in a fresh process: median CPU s of {RUNS} (and --help, import), instructions",
)
def startup():
    cached = (ROOT / "exactdp" / "__pycache__").is_dir()
    rows, out = [f"exactdp bytecode cached: {'yes' if cached else 'no (every run compiles the source)'}"], {}
    for label, cmd in COMMANDS.items():
        runs = [_once(cmd) for _ in range(RUNS)]
        wall, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
        count = _instructions(cmd)
        out[label] = {"wall": wall, "cpu": cpu, "instructions": count}
        ins = "" if count is None else f"  {count / 1e9:6.3f} G instructions"
        rows.append(f"{label:<48} wall {wall:6.3f} s  CPU {cpu:6.3f} s{ins}")
    verify = out[f"exactdp verify {CASE}"]
    return {"seconds": verify["cpu"], "commands": out, "bytecode_cached": cached, "rows": rows}
