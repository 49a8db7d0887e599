"""exactdp benchmarks (``make bench``).  Each has a target; nothing here is a unit test.

Each benchmark runs in its own Python process so that its wall time and peak memory are its
own.  Mechanisms are built through the Python API; YAML parsing is timed separately.
Benchmarks live in ``bench/b_*.py`` (registered with ``harness.bench``); results are printed
as a table and written to ``bench/out/results.json``.

Usage: python bench/run.py [name-or-prefix ...]     (default: all)
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
sys.path.insert(0, str(HERE))

from harness import BENCHES, RATIOS  # noqa: E402


def _discover() -> None:
    for f in sorted(HERE.glob("b_*.py")):
        importlib.import_module(f.stem)


def _child(name: str) -> None:
    import resource

    mod, fn, *_ = BENCHES[name]
    res = getattr(importlib.import_module(mod), fn)()
    hwm = (
        [line for line in open("/proc/self/status") if line.startswith("VmHWM")]
        if Path("/proc/self/status").exists()
        else []
    )
    # VmHWM is this process's own peak; ru_maxrss would include the parent's memory at fork
    res["peak_mb"] = int(hwm[0].split()[1]) / 1024 if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(res))


def main(argv: list[str]) -> int:
    _discover()
    if argv and argv[0] == "--child":
        _child(argv[1])
        return 0
    names = [n for n in BENCHES if not argv or any(n == a or n.startswith(a) for a in argv)]
    OUT.mkdir(exist_ok=True)
    results = {}
    failed = False
    for name in names:
        _mod, _fn, tsec, tmb, desc = BENCHES[name]
        p = subprocess.run([sys.executable, __file__, "--child", name], capture_output=True, text=True)
        if p.returncode != 0:
            print(f"ERROR {name}\n{p.stderr}")
            failed = True
            continue
        res = json.loads(p.stdout.strip().splitlines()[-1])
        ok = (tsec is None or res["seconds"] is None or res["seconds"] <= tsec) and (
            tmb is None or res["peak_mb"] <= tmb
        )
        rtext = ""
        if name in RATIOS:
            how, want = RATIOS[name]
            got = res.get("ratio")
            ok = ok and got is not None and (got >= want if how == "at_least" else got <= want)
            rtext = (
                f"  ratio {got:.2f} (target {'>=' if how == 'at_least' else '<='} {want:g})" if got else "  no ratio"
            )
        failed |= not ok
        res.update({"description": desc, "target_seconds": tsec, "target_mb": tmb, "ok": ok})
        results[name] = res
        secs = "-" if res["seconds"] is None else f"{res['seconds']:.2f} s"
        tgt = "" if tsec is None else f" (target <= {tsec:g} s" + (f", <= {tmb:g} MB" if tmb else "") + ")"
        print(f"{'PASS' if ok else 'FAIL'}  {name:<24} {secs:>9}  peak {res['peak_mb']:.0f} MB{tgt}{rtext}  -- {desc}")
        for row in res.get("rows", []):
            print(f"        {row}")
    (OUT / "results.json").write_text(json.dumps(results, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
