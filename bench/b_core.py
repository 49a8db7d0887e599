"""Core engine benchmarks: full interactive trees, concurrent composition, YAML, enumerator."""

from __future__ import annotations

import os
import time

from harness import bench


@bench("tree-d8-delta0", 2.0, None, "full tree 2q x 2a, depth 8 (65,536 leaf answer edges): PrivLoss at delta = 0")
def tree_d8_delta0():
    return _tree_privloss(8, "0")


@bench("tree-d8-delta1/100", 2.0, None, "full tree 2q x 2a, depth 8: PrivLoss at delta = 1/100")
def tree_d8_delta100():
    return _tree_privloss(8, "1/100")


@bench(
    "tree-d10-delta0", 30.0, 4096.0, "full tree 2q x 2a, depth 10 (1,048,576 leaf answer edges): PrivLoss at delta = 0"
)
def tree_d10_delta0():
    return _tree_privloss(10, "0")


@bench("tree-d10-delta1/100", 30.0, 4096.0, "full tree 2q x 2a, depth 10: PrivLoss at delta = 1/100")
def tree_d10_delta100():
    return _tree_privloss(10, "1/100")


@bench(
    "concomp-3x3round", 10.0, None, "concomp of three copies of a 3-round 2q x 2a interactive mechanism: full profile"
)
def concomp3():
    from mechanisms import full_tree

    from exactdp.analysis import profile
    from exactdp.builders import concomp
    from exactdp.model import stats

    m = full_tree(3, seed=1)
    t = time.perf_counter()
    c = concomp([m, m, m])
    build = time.perf_counter() - t
    t = time.perf_counter()
    prof = profile.profile(c)
    secs = time.perf_counter() - t
    s = stats(c.root)
    return {
        "seconds": secs,
        "build_seconds": build,
        "joint_states": s["ask_nodes"] + s["chance_nodes"],
        "breakpoints": len(prof.envelope.edges),
        "privloss_0": str(prof.privloss(0)),
    }


@bench("yaml-parse-d6", None, None, "reading a depth-6 full tree (5,460 answer edges) from YAML, separately")
def yaml_parse():
    import tempfile

    from mechanisms import full_tree, to_yaml

    from exactdp.caseio import load_case

    m = full_tree(6)
    text = to_yaml(m)
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
        f.write(text)
    t = time.perf_counter()
    load_case(f.name)
    secs = time.perf_counter() - t
    os.unlink(f.name)
    return {"seconds": secs, "bytes": len(text)}


@bench("enumerator-scaling", None, None, "enumerator (the reference): largest full tree finished within 10 s")
def enumerator_scaling():
    from mechanisms import full_tree

    from exactdp.analysis import enumerator
    from exactdp.model import count_strategies

    rows = []
    for queries, depth in [(2, 1), (2, 2), (2, 3), (3, 3), (2, 4)]:
        m = full_tree(depth, queries=queries)
        n = count_strategies(m.root)
        if n > 200_000:
            rows.append(
                {"queries": queries, "depth": depth, "strategies": n, "seconds": None, "note": "refused (limit)"}
            )
            continue
        t = time.perf_counter()
        enumerator.privloss(m, 0, max_strategies=200_000)
        rows.append({"queries": queries, "depth": depth, "strategies": n, "seconds": round(time.perf_counter() - t, 3)})
    return {"seconds": None, "rows": rows}


def _tree_privloss(depth: int, delta: str):
    from mechanisms import full_tree

    from exactdp.analysis import profile
    from exactdp.numbers import eval_text

    t = time.perf_counter()
    m = full_tree(depth)
    build = time.perf_counter() - t
    t = time.perf_counter()
    v = profile.privloss(m, eval_text(delta))
    secs = time.perf_counter() - t
    return {"seconds": secs, "build_seconds": build, "privloss": str(v)[:60]}
