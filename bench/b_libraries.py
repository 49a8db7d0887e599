"""Mechanisms as DP libraries write them: certified Rényi at a real order, zCDP by branch and
bound, non-adaptive adversaries, and the ported library cases.

Targets are for a quiet 2-core machine; each benchmark also reports the work it did (boxes of
orders, precision) so a slow run can be told apart from a harder instance.
"""

from __future__ import annotations

import time
from fractions import Fraction

from harness import bench


@bench("renyi-real-order-tree-d8", 8.0, None, "certified D_3/2 on the depth-8 full tree (Arb induction)")
def renyi_real_d8():
    from mechanisms import full_tree

    from exactdp.analysis.renyi_real import certified_renyi

    m = full_tree(8)
    t = time.perf_counter()
    r = certified_renyi(m, Fraction(3, 2))
    return {"seconds": time.perf_counter() - t, "width": float(r.value.hi - r.value.lo)}


@bench("zcdp-discrete-gaussian", 10.0, None, "zcdp rho = 1/8 for the discrete Gaussian sigma^2 = 4 on [-8, 8]")
def zcdp_gaussian():
    from exactdp.analysis import profile
    from exactdp.analysis.zcdp import check_zcdp
    from exactdp.builders.discrete import discrete_gaussian
    from exactdp.numbers import Q

    m = discrete_gaussian([0, 1], (-8, 8), sigma2=4)
    t = time.perf_counter()
    r = check_zcdp(m, Q(1, 8), profile.privloss(m, Q(0)))
    return {"seconds": time.perf_counter() - t, "status": r.status, "boxes": r.boxes}


@bench("nonadaptive-ddr-menu-3", 10.0, None, "delta(e^0) against non-adaptive adversaries, 3 rounds of a 5-item menu")
def nonadaptive_menu():
    from exactdp.analysis import profile
    from exactdp.builders import grr_menu, repeat
    from exactdp.model.nonadaptive import nonadaptive_game
    from exactdp.numbers import Q

    m = repeat(grr_menu(exp_eps=16, exp_ts=[2, Q(5, 2), 4, Q(32, 5), 8]), 3)
    t = time.perf_counter()
    d = profile.delta_at(nonadaptive_game(m), 0)
    return {"seconds": time.perf_counter() - t, "value": str(d)}


@bench("verify-cases-libraries", 60.0, None, "exactdp verify cases/libraries/ (every ported library test)")
def verify_libraries():
    from pathlib import Path

    from exactdp.verify import Options, verify_paths

    root = Path(__file__).resolve().parents[1] / "cases" / "libraries"
    t = time.perf_counter()
    run = verify_paths([str(root)], Options())
    return {"seconds": time.perf_counter() - t, "exit": run.exit_code}
