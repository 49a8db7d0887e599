"""The benchmark registry: ``@bench(name, target_seconds, target_mb, description)``.

A benchmark is a function returning a dict of measurements; its ``seconds`` entry (or None) is
compared with the target.  Modules ``bench/b_*.py`` are discovered by ``bench/run.py``.
"""

from __future__ import annotations

__all__ = ["bench", "BENCHES"]

# name -> (module name, function name, target seconds, target MB, description)
BENCHES: dict[str, tuple[str, str, float | None, float | None, str]] = {}


def bench(name: str, target_s: float | None, target_mb: float | None, desc: str):
    def deco(fn):
        BENCHES[name] = (fn.__module__, fn.__name__, target_s, target_mb, desc)
        return fn

    return deco
