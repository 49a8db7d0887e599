"""Hostile input: reading wide YAML is linear in its width (lists and maps).

Before the fix, a 200 KB list took about a minute and a 60,000-key map more than two minutes
(a quadratic walk over every node's children).  Each benchmark reads the same document at two
widths, n and 4n: a linear reader takes about 4 times as long, a quadratic one 16 times.
"""

from __future__ import annotations

import time

from harness import bench


def _wide(kind: str, n: int) -> str:
    head = "exactdp: 1\nname: wide\n"
    if kind == "list":
        return head + "x: [" + ", ".join(["1/2"] * n) + "]\n"
    return head + "x: {" + ", ".join(f"k{i}: 1" for i in range(n)) + "}\n"


def _time_read(text: str) -> float:
    from exactdp.caseio.yamlsafe import load_yaml

    t = time.perf_counter()
    load_yaml(text, "wide.yaml")
    return time.perf_counter() - t


def _scaling(kind: str, n: int) -> dict:
    small, big = _wide(kind, n), _wide(kind, 4 * n)
    t1, t4 = _time_read(small), _time_read(big)
    return {
        "seconds": t4,
        "rows": [
            f"{kind} of {n} items ({len(small) // 1000} KB): {t1:.2f} s; of {4 * n} ({len(big) // 1000} KB): {t4:.2f} s; ratio {t4 / t1:.1f} (linear: 4)"
        ],
    }


@bench("yaml-wide-list", 5, None, "reading a 200,000-item YAML list (about 1 MB): linear in the width")
def yaml_wide_list():
    return _scaling("list", 50_000)


@bench("yaml-wide-map", 6, None, "reading a 60,000-key YAML map: linear in the width")
def yaml_wide_map():
    return _scaling("map", 15_000)


# --- resource bombs under the default limits -------------------------------------------------------
# (tests/test_hostile.py runs the same bombs under a tight allowance; here the defaults are measured)


def _bomb(name: str, *extra: str) -> dict:
    import resource
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.hostile_cases import BOMBS

    make, flags, limit_flag = BOMBS[name]
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / f"{name}.yaml"
        f.write_text(make())
        t = time.perf_counter()
        p = subprocess.run(
            [sys.executable, "-c", "from exactdp.cli import run; run()", "verify", str(f), *flags, *extra],
            capture_output=True,
            text=True,
        )
        secs = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    # under the defaults whichever limit comes first refuses it (memory or time): any named one; or,
    # once the engines need less, it is decided (exit 0 or 1) within the same time and memory
    named = p.returncode == 2 and "exceeds the limit of" in p.stdout and "raise it with --" in p.stdout
    decided = p.returncode in (0, 1) and "summary: 1 claim in 1 file" in p.stdout
    line = next((ln.strip() for ln in p.stdout.splitlines() if "exceeds the limit" in ln), p.stdout.strip()[:200])
    if not (named or decided) or peak > 1024:  # the target: refused by a named limit or decided, under 1 GB
        raise SystemExit(f"{name}: exit {p.returncode}, peak {peak:.0f} MB, named={named}: {line}")
    outcome = "refused by a named limit" if named else "decided"
    return {
        "seconds": secs,
        "rows": [f"exit {p.returncode}, child peak {peak:.0f} MB, {outcome}", line[:160]],
        "child_peak_mb": peak,
        "named": named,
    }


@bench(
    "bomb-concomp-20",
    300,
    None,
    "ConComp of 20 RRs under the default limits: refused by --max-memory (child peak in the rows)",
)
def bomb_concomp():
    return _bomb("concomp-20")


@bench(
    "bomb-automaton-1e5",
    10,
    None,
    "an automaton with horizon 10^5 under the default limits: refused by --max-automaton-work before its game is built",
)
def bomb_automaton():
    return _bomb("automaton-horizon-1e5")


@bench(
    "bomb-enumerator",
    300,
    None,
    "the enumerator at its default limits (196,608 adversaries x 64 views): one adversary at a time, decided",
)
def bomb_enumerator():
    return _bomb("enumerator-defaults")


@bench(
    "bomb-repeat-3000",
    90,
    None,
    "a three-answer mechanism (ratios 3, 1, 3/7: no common base) repeated 3000 times, a failing claim (witness), --timeout 60: refused by it",
)
def bomb_repeat():
    """(RR itself, or any mechanism whose ratios are powers of one base, is decided in about a second: its k-fold product.)"""
    return _bomb("repeat-3000", "--timeout", "60")
