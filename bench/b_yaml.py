"""Reading large generated trees: block-style YAML versus flow style (one-line JSON).

Block style indents every line by its depth, so a deep tree's text grows with depth × size and
parsing time with it (PyYAML reads every indentation character); JSON is flow-style YAML
(YAML 1.2 is a superset of JSON), stays linear in the tree, and ``exactdp verify`` reads it as
a case file unchanged.  docs/case-files-at-scale.md explains when to generate which.
``seconds`` is CPU time (the machine is shared).
"""

from __future__ import annotations

import time

from harness import bench


def _parse_seconds(text: str, name: str, *, gc_on: bool = True) -> float:
    import gc

    from exactdp.caseio import parse_case

    gc.collect()
    if not gc_on:
        gc.disable()
    try:
        c = time.process_time()
        parse_case(text, name)
        return time.process_time() - c
    finally:
        gc.enable()


def _compare(mechs: list) -> dict:
    """Parse CPU time of each tree in both styles; also with Python's cyclic garbage collector
    paused, which shows where the superlinear part of the time goes (the collector re-scans
    the growing node graph: compare the two columns as the trees grow)."""
    from mechanisms import to_json, to_yaml

    rows, total_block, total_json = [], 0.0, 0.0
    for m in mechs:
        block, flow = to_yaml(m), to_json(m)
        tb, tj = _parse_seconds(block, "block.yaml"), _parse_seconds(flow, "flow.json")
        nb, nj = _parse_seconds(block, "block.yaml", gc_on=False), _parse_seconds(flow, "flow.json", gc_on=False)
        total_block += tb
        total_json += tj
        rows.append(
            f"{m.name:<14} block {len(block) / 1e3:7.0f} kB {tb:6.3f} s (GC paused {nb:6.3f} s) | "
            f"JSON {len(flow) / 1e3:6.0f} kB {tj:6.3f} s (GC paused {nj:6.3f} s)"
        )
    return {"seconds": total_block, "json_seconds": total_json, "rows": rows}


@bench(
    "yaml-deep-comb-block-vs-json",
    None,
    None,
    "deep narrow trees (depth 25/50/100): block YAML vs one-line JSON, parse CPU s",
)
def deep_comb():
    from mechanisms import comb

    return _compare([comb(d) for d in (25, 50, 100)])


@bench(
    "yaml-full-tree-block-vs-json",
    None,
    None,
    "full 2q x 2a trees (depth 5/6/7): block YAML vs one-line JSON, parse CPU s",
)
def full_trees():
    from mechanisms import full_tree

    return _compare([full_tree(d) for d in (5, 6, 7)])


@bench(
    "yaml-pure-python-block-vs-json",
    None,
    None,
    "full trees depth 5/6 and a depth-100 comb with PyYAML's pure-Python parser (no libyaml): block vs JSON",
)
def pure_python_parser():
    import yaml
    from mechanisms import comb, full_tree

    import exactdp.caseio.yamlsafe as ys

    if not hasattr(ys, "_Parser"):
        return {"seconds": None, "note": "the YAML reader no longer exposes its parser choice (_Parser)"}
    saved = ys._Parser
    ys._Parser = yaml.SafeLoader  # what a Python without libyaml runs
    try:
        return _compare([full_tree(5), full_tree(6), comb(100)])
    finally:
        ys._Parser = saved
