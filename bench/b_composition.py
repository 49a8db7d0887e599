"""Composition benchmarks: exact optimal composition, and exactdp versus dp-accounting's PLD."""

from __future__ import annotations

import time

from harness import bench


def _comps(E0s, k_each):
    from exactdp.numbers import eval_text
    from exactdp.theorems import components

    return components([eval_text(f"log({e})") for e in E0s for _ in range(k_each)])


def _optimal(E0s, k_each, delta="1/1000000"):
    from exactdp.numbers import eval_text, ladder
    from exactdp.theorems import optimal

    comps = _comps(E0s, k_each)
    t = time.perf_counter()
    r = optimal(comps, eval_text(delta))
    secs = time.perf_counter() - t
    return {"seconds": secs, "eps_g": ladder.decimal(r.eps, 12), "exact_chars": len(str(r.lam))}


@bench(
    "compose-homog-10k",
    0.5,
    None,
    "optimal composition, exact: 10,000 x RR with e^eps = 11/10, delta_g = 1e-6 (binomial scan)",
)
def homog_10k():
    return _optimal(["11/10"], 10_000)


@bench("compose-homog-100k", 10.0, None, "optimal composition, exact: 100,000 x RR with e^eps = 11/10, delta_g = 1e-6")
def homog_100k():
    return _optimal(["11/10"], 100_000)


@bench(
    "compose-hetero-120",
    0.5,
    None,
    "optimal composition, exact: 30 each of e^eps in {11/10, 3/2, 2, 3} (k = 120), delta_g = 1e-6 (exact PLD)",
)
def hetero_120():
    return _optimal(["11/10", "3/2", "2", "3"], 30)


@bench(
    "compose-vs-pld-300",
    None,
    None,
    "k = 300 x RR(e^eps = 3/2), delta_g = 1e-6: exactdp exact vs dp-accounting PLD (self_compose), same run",
)
def vs_pld():
    out = _optimal(["3/2"], 300)
    try:
        from dp_accounting.pld import privacy_loss_distribution as pl
    except ImportError:
        return {
            "seconds": None,
            "note": "dp-accounting not installed (make audit installs the peers extra)",
            "exactdp_seconds": out["seconds"],
            "eps_g": out["eps_g"],
        }
    t = time.perf_counter()
    p = pl.from_randomized_response(noise_parameter=2 / (1 + 1.5), num_buckets=2).self_compose(300)
    v = p.get_epsilon_for_delta(1e-6)
    pld_s = time.perf_counter() - t
    return {
        "seconds": out["seconds"],
        "exactdp_seconds": out["seconds"],
        "exactdp_eps_g": out["eps_g"],
        "pld_seconds": pld_s,
        "pld_eps_g": repr(v),
        "time_ratio_pld_over_exactdp": pld_s / out["seconds"] if out["seconds"] else None,
    }
