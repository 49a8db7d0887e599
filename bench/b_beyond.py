"""Rényi DP and f-DP on the depth-8 full-tree benchmark, against PrivLoss (target: at most 2x).

Each benchmark times PrivLoss(M, 0) on the same mechanism in the same process, so the ratio is
measured under the same machine load.
"""

from __future__ import annotations

import time

from harness import bench


def _tree(depth: int):
    from mechanisms import full_tree

    return full_tree(depth)


def _privloss_seconds(m) -> float:
    from exactdp.analysis import profile
    from exactdp.numbers import Q

    t = time.perf_counter()
    profile.privloss(m, Q(0))
    return time.perf_counter() - t


def _renyi(depth: int, alpha) -> dict:
    from exactdp.analysis.renyi import renyi

    m = _tree(depth)
    base = _privloss_seconds(m)
    t = time.perf_counter()
    v = renyi(m, alpha).value
    secs = time.perf_counter() - t
    return {"seconds": secs, "privloss_seconds": base, "ratio": secs / base, "value": str(v)[:60]}


@bench("renyi-tree-d8-alpha2", 4.0, None, "exactdp renyi --alpha 2 on the depth-8 full tree (target <= 2x PrivLoss)")
def renyi_d8_alpha2():
    return _renyi(8, 2)


@bench("renyi-tree-d8-alpha4", 4.0, None, "exactdp renyi --alpha 4 on the depth-8 full tree")
def renyi_d8_alpha4():
    return _renyi(8, 4)


@bench(
    "renyi-tree-d8-kl", None, None, "exactdp renyi --alpha 1 (KL, exact linear forms in logs) on the depth-8 full tree"
)
def renyi_d8_kl():
    return _renyi(8, 1)


@bench(
    "tradeoff-tree-d8",
    4.0,
    None,
    "exactdp tradeoff on the depth-8 full tree: profile + trade-off vertices (target <= 2x PrivLoss)",
)
def tradeoff_d8():
    from exactdp.analysis import profile
    from exactdp.analysis.tradeoff import envelope_tradeoff, pair_tradeoffs
    from exactdp.report.renyi_fdp import tradeoff_to_dict

    m = _tree(8)
    base = _privloss_seconds(m)
    t = time.perf_counter()
    prof = profile.profile(m)
    d = tradeoff_to_dict(m.name, envelope_tradeoff(prof), pair_tradeoffs(prof))
    secs = time.perf_counter() - t
    return {"seconds": secs, "privloss_seconds": base, "ratio": secs / base, "vertices": len(d["envelope"]["vertices"])}
