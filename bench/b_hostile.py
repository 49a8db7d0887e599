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
        "rows": [f"{kind} of {n} items ({len(small) // 1000} KB): {t1:.2f} s; of {4 * n} ({len(big) // 1000} KB): {t4:.2f} s; ratio {t4 / t1:.1f} (linear: 4)"],
    }


@bench("yaml-wide-list", 5, None, "reading a 200,000-item YAML list (about 1 MB): linear in the width")
def yaml_wide_list():
    return _scaling("list", 50_000)


@bench("yaml-wide-map", 6, None, "reading a 60,000-key YAML map: linear in the width")
def yaml_wide_map():
    return _scaling("map", 15_000)
