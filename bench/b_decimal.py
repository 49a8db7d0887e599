"""Decimal ε at C speed: the field ℚ(e^{1/L}) on python-flint (FLINT polynomials, Arb balls).

Target: ``cases/kov/kfold-30-decimal.yaml`` (30-fold composition of RR_(0.1, 0.001) with
ε = 0.1 exactly; KOV 2015 Thm 3.3) in at most 0.5 s.  Before python-flint (SymPy's dense
polynomial gcds) it took about 3.8 CPU seconds.  ``seconds`` is the CPU time of
``verify_file`` in a fresh process after ``import exactdp`` (the machine is shared, so wall
time is also reported, with the whole ``exactdp verify`` command's wall time).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from harness import bench

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "cases" / "kov" / "kfold-30-decimal.yaml"


@bench(
    "decimal-kfold30-case",
    0.5,
    None,
    "cases/kov/kfold-30-decimal.yaml (eps = 0.1 exactly, 30-fold RR_(0.1, 0.001)): verify_file, CPU s",
)
def kfold30_decimal():
    from exactdp.verify import verify_file

    t, c = time.perf_counter(), time.process_time()
    fr = verify_file(CASE)
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    assert fr.exit_code == 0, fr.error
    t = time.perf_counter()
    p = subprocess.run(
        [sys.executable, "-m", "exactdp", "verify", "--no-progress", str(CASE)], capture_output=True, text=True
    )
    cli = time.perf_counter() - t
    assert p.returncode == 0, p.stderr
    return {
        "seconds": cpu,
        "wall_seconds": wall,
        "cli_wall_seconds": cli,
        "claims": len(fr.verdicts),
        "rows": [f"verify_file: {cpu:.2f} s CPU, {wall:.2f} s wall; whole `exactdp verify` command: {cli:.2f} s wall"],
    }


@bench(
    "decimal-field-arith",
    None,
    None,
    "Q(e^(1/10)) arithmetic: (1+t)^60 expanded, 300 steps acc*y/(y+1), y = (k t + 1)/(t + k), with gcds",
)
def field_arith():
    from exactdp.numbers import Q
    from exactdp.numbers.qt import qt_t

    t = qt_t(10)
    c = time.process_time()
    x = (1 + t) ** 60
    acc = Q(1)
    for k in range(1, 301):
        y = (k * t + 1) / (t + k)
        acc = acc * y / (y + 1)
    cpu = time.process_time() - c
    return {"seconds": cpu, "degree": x.n.degree(), "result_degree": max(acc.n.degree(), acc.d.degree())}


@bench(
    "decimal-repeat-700",
    120.0,
    None,
    "bench/cases/diffprivlib-budget-accountant-kov.yaml (700-fold RR with eps = 2^-9, in Q(e^(1/512))): verify_file, CPU s",
)
def repeat700_decimal():
    """Profiles and a witness of a 700-round game whose probabilities lie in Q(e^(1/512)): about a
    million products of polynomials of degree up to 700 (more than 300 s before denominator
    products were shared; the file's claims then ended undecided at the time limit)."""
    from exactdp.verify import verify_file

    case = ROOT / "bench" / "cases" / "diffprivlib-budget-accountant-kov.yaml"
    t, c = time.perf_counter(), time.process_time()
    fr = verify_file(case)
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    assert fr.exit_code == 0, fr.error
    return {"seconds": cpu, "wall_seconds": wall, "claims": len(fr.verdicts)}


@bench(
    "repeat-product-1000",
    10.0,
    None,
    "PrivLoss at delta = 1e-6 of 1000-fold RR at eps = 0.01 (Q(e^(1/100))): verify_file, CPU s",
)
def repeat1000_product():
    """A repeat of a mechanism without choices, two likelihood ratios: the profile is the k-fold
    product of its privacy loss distribution (exactdp.analysis.product), 1001 ratios, where the
    backward induction over the 1000 layers took about 50 s."""
    import tempfile

    from exactdp.verify import verify_file

    text = (
        "exactdp: 1\nname: rr-hundredth-1000-fold\ntitle: 1000-fold RR at eps 0.01\n"
        "reference: Kairouz, Oh & Viswanath 2015, Thm 3.3 (the k-fold composition of RR)\n"
        "mechanisms:\n  RR: {rr: {eps: 0.01}}\n  K: {repeat: {mechanism: RR, times: 1000}}\n"
        "claims:\n  - privloss: {of: K, delta: 1e-6, at_most: 2}\n"
    )
    with tempfile.TemporaryDirectory() as d:
        case = Path(d) / "rr-1000.yaml"
        case.write_text(text, encoding="utf-8")
        t, c = time.perf_counter(), time.process_time()
        fr = verify_file(case)
        cpu, wall = time.process_time() - c, time.perf_counter() - t
    assert fr.exit_code == 0, fr.error
    return {"seconds": cpu, "wall_seconds": wall}


def _verify_text(name: str, text: str, exit_code: int) -> dict:
    """verify_file on ``text`` written to a temporary case file: CPU and wall seconds."""
    import tempfile

    from exactdp.verify import verify_file

    with tempfile.TemporaryDirectory() as d:
        case = Path(d) / f"{name}.yaml"
        case.write_text(text, encoding="utf-8")
        t, c = time.perf_counter(), time.process_time()
        fr = verify_file(case)
        cpu, wall = time.process_time() - c, time.perf_counter() - t
    assert fr.exit_code == exit_code, fr.error
    return {"seconds": cpu, "wall_seconds": wall}


@bench(
    "repeat-power-1000",
    10.0,
    None,
    "1000-fold three-answer RR (ratios 3, 1, 1/3): a failing dp and a failing privloss claim with witnesses, CPU s",
)
def repeat1000_power():
    """Likelihood ratios that are powers of one base: the k-fold product is one exact polynomial
    power (exactdp.analysis.product.ratio_powers), where the induction over the 1000 layers, and
    the witnesses' forward walk, took about 70 s."""
    return _verify_text(
        "rr3-1000",
        "exactdp: 1\nname: rr3-1000\ntitle: 1000-fold three-answer RR\n"
        "reference: Warner 1965 (randomized response); Vadhan & Wang 2021, Def. 1.7\n"
        "mechanisms:\n  M: {respond: {a: [1/2, 1/6], b: [1/3, 1/3], c: [1/6, 1/2]}}\n"
        "  K: {repeat: {mechanism: M, times: 1000}}\n"
        "claims:\n  - dp: {of: K, eps: log(2)}\n  - privloss: {of: K, delta: 1/1000000, at_most: 10}\n",
        1,
    )


@bench(
    "repeat-count-vectors-300",
    90.0,
    None,
    "300-fold report-noisy-max with geometric noise (three ratios, no common base): privloss, CPU s",
)
def repeat300_count_vectors():
    """Ratios that are not powers of one base: the k-fold product from its 45,451 count vectors
    (exactdp.analysis.product.count_vectors), where the induction walked every layer's (about
    4.5 million states, 304 s); most of the time left is the hull of the two orders' profiles."""
    return _verify_text(
        "rnm-300",
        "exactdp: 1\nname: rnm-300\ntitle: 300-fold report-noisy-max\n"
        "reference: Dwork & Roth 2014, Sec. 3.3 (report noisy max)\ndatasets: [d, d_add]\n"
        "mechanisms:\n  R:\n    report_noisy_max:\n      outputs: [q1, q2, q3]\n"
        "      values: {d: [1, 0, 0], d_add: [2, 1, 0]}\n      noise: {geometric: {eps: log(2), width: 5}}\n"
        "  K: {repeat: {mechanism: R, times: 300}}\n"
        "claims:\n  - privloss: {of: K, delta: 1/1000000, at_most: 100}\n",
        0,
    )
