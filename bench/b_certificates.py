"""Certificates (docs/certificates.md): size, time to build them, and time for the standalone
checker to check them, next to the time exactdp takes to compute the answer.

Target: checking costs at most twice what computing costs, on the depth-8 tree.  "compute" is the
profile engine's CPU time for the claim (gmpy2 rationals); "certify" is the time to build and
write the certificate; "check" is the checker exactdp/checker (Python's standard library only) reading and
checking the file.  Times are CPU times of this process (the machine is shared: wall times vary
with the load, their ratio much less); ``cert-tree-d8-ratio`` reports check/compute as its
"seconds" so that the harness compares it with the target 2.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from harness import bench

ROOT = Path(__file__).resolve().parents[1]


def _measure(mech, claim_of):
    """compute, certify (build + write), check; ``claim_of(an)`` builds the certificate body."""
    from exactdp import checker
    from exactdp.analysis import profile
    from exactdp.certificates import dumps_certificate, wrap
    from exactdp.claims import Analysis

    t = time.process_time()
    prof = profile.profile(mech)
    value = prof.privloss(0)
    compute = time.process_time() - t
    an = Analysis({"M": mech})
    an.cached(("profile", "M"), lambda: prof)  # the certificate builder reuses the computed profile, as certify does
    t = time.process_time()
    cert = wrap(claim_of(an, value), case_file="bench.yaml", sha256="0" * 64, case_name="bench", number=1, text="bench")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as f:
        f.write(dumps_certificate(cert))
    certify = time.process_time() - t
    size = os.path.getsize(f.name)
    t = time.process_time()
    statement = checker.check_certificate(checker.load(Path(f.name)))
    check = time.process_time() - t
    os.unlink(f.name)
    return {
        "seconds": check,
        "compute_seconds": round(compute, 3),
        "certify_seconds": round(certify, 3),
        "check_seconds": round(check, 3),
        "check_over_compute": round(check / compute, 2),
        "size_mb": round(size / 1e6, 2),
        "accepted": statement.splitlines()[1],
    }


def _privloss(an, value):
    from exactdp.certificates import privloss_certificate

    return privloss_certificate(an, "M", 0, "equals", value)


@bench(
    "cert-tree-d8",
    None,
    None,
    "certificate of PrivLoss(M, 0) = ... for the full tree 2q x 2a, depth 8: size, certify, check vs compute",
)
def cert_tree_d8():
    from mechanisms import full_tree

    return _measure(full_tree(8), _privloss)


@bench(
    "cert-tree-d8-ratio",
    2.0,
    None,
    "check / compute CPU time for the depth-8 tree certificate ('seconds' is this ratio; target <= 2)",
)
def cert_tree_d8_ratio():
    from mechanisms import full_tree

    res = _measure(full_tree(8), _privloss)
    return {**res, "seconds": res["check_over_compute"]}


@bench(
    "cert-concomp-3x3round",
    None,
    None,
    "certificate of PrivLoss at delta 0 for concomp of three 3-round 2q x 2a mechanisms (--max-states 2,000,000)",
)
def cert_concomp():
    """A component that ends is at the shared end, so the composition's nodes are reached with
    up to 2,015 likelihood ratios: 862,407 states per ordered pair, beyond the checker's default
    --max-states (500,000, which keeps hostile files to seconds); the bench raises it, as a
    referee would with the flag."""
    from mechanisms import full_tree

    import exactdp.certificates.game as builder
    from exactdp import checker
    from exactdp.builders import concomp

    builder.MAX_STATES = checker.LIMITS["max_states"] = 2_000_000
    m = full_tree(3, seed=1)
    return _measure(concomp([m, m, m]), _privloss)


@bench(
    "cert-library",
    None,
    None,
    "the case library: exactdp certify cases/ (verify + certificates) vs the standalone checker",
)
def cert_library():
    import subprocess
    import sys

    with tempfile.TemporaryDirectory() as out:
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "exactdp", "verify", "-q", "cases/"], cwd=ROOT, capture_output=True, check=True
        )
        verify = time.perf_counter() - t
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "exactdp", "certify", "-q", "-o", out, "cases/"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        certify = time.perf_counter() - t
        files = list(Path(out).rglob("*.json"))
        size = sum(f.stat().st_size for f in files)
        t = time.perf_counter()
        p = subprocess.run(
            [sys.executable, "-I", "-S", str(ROOT / "exactdp" / "checker"), "-q", out],
            capture_output=True,
            text=True,
        )
        check = time.perf_counter() - t
        assert p.returncode == 0, p.stdout[-2000:]
        slowest = _slowest(files)
    return {
        "seconds": check,
        "verify_seconds": round(verify, 2),
        "certify_seconds": round(certify, 2),
        "check_seconds": round(check, 2),
        "certificates": len(files),
        "size_mb": round(size / 1e6, 1),
        "rows": slowest,
    }


def _slowest(files: list[Path]) -> list[dict]:
    from exactdp import checker

    rows = []
    for f in files:
        t = time.perf_counter()
        checker.check_certificate(checker.load(f))
        rows.append(
            {
                "file": f"{f.parent.name}/{f.name}",
                "check_seconds": round(time.perf_counter() - t, 2),
                "size_mb": round(f.stat().st_size / 1e6, 2),
            }
        )
    return sorted(rows, key=lambda r: -r["check_seconds"])[:5]


@bench(
    "cert-repeat-100",
    10.0,
    None,
    "the standalone checker at its default limits on the 4 certificates of 100-fold RR_0.1 (Q(e^(1/10)))",
)
def cert_repeat_100():
    """Every certificate must be accepted at the default --max-steps: the games' weights are powers
    of t and most gcds in Z[t] are 1, which the checker must not pay a pseudo-remainder sequence for."""
    import subprocess
    import sys

    case = ROOT / "bench" / "cases" / "rr-tenth-100-fold.yaml"
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([sys.executable, "-m", "exactdp", "certify", "-q", "-o", out, str(case)], check=True)
        t = time.perf_counter()
        p = subprocess.run(
            [sys.executable, "-I", "-S", str(ROOT / "exactdp" / "checker"), "-q", out], capture_output=True, text=True
        )
        check = time.perf_counter() - t
    assert p.returncode == 0, p.stdout[-2000:]
    return {"seconds": check, "summary": p.stdout.strip().splitlines()[-1]}
