"""The benchmark registry: ``@bench(name, target_seconds, target_mb, description)``.

A benchmark is a function returning a dict of measurements; its ``seconds`` entry (or None) is
compared with the target.  A benchmark measured *as a ratio* (a speed-up over the reference
engine, measured in the same run) returns ``ratio`` and declares ``ratio_at_least`` or
``ratio_at_most``.  Modules ``bench/b_*.py`` are discovered by ``bench/run.py``.
"""

from __future__ import annotations

__all__ = ["bench", "BENCHES"]

# name -> (module name, function name, target seconds, target MB, description)
BENCHES: dict[str, tuple[str, str, float | None, float | None, str]] = {}
# name -> ("at_least" | "at_most", target ratio)
RATIOS: dict[str, tuple[str, float]] = {}


def bench(
    name: str,
    target_s: float | None,
    target_mb: float | None,
    desc: str,
    *,
    ratio_at_least: float | None = None,
    ratio_at_most: float | None = None,
):
    def deco(fn):
        BENCHES[name] = (fn.__module__, fn.__name__, target_s, target_mb, desc)
        if ratio_at_least is not None:
            RATIOS[name] = ("at_least", ratio_at_least)
        if ratio_at_most is not None:
            RATIOS[name] = ("at_most", ratio_at_most)
        return fn

    return deco
