"""The example cases shipped with exactdp (``exactdp examples DIR`` writes them out).

A curated set of small case files, one per idea a newcomer meets first: randomized response and
a refuted claim with its witness, an adaptive adversary, concurrent composition, Rényi and f-DP,
and the post-processor of Theorem 1.10 (Vadhan–Wang 2021).  They are package data
(``exactdp/examples/*.yaml``), so they come with the wheel, and each one verifies as it is.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

from ..errors import ExactDPError

__all__ = ["example_names", "example_text", "write_examples", "ExamplesExistError"]

_PACKAGE = "exactdp"
_DIR = "examples"


class ExamplesExistError(ExactDPError):
    """Writing the examples would replace files that exist (``--force`` replaces them)."""


def _files() -> list:
    root = importlib.resources.files(_PACKAGE).joinpath(_DIR)
    return sorted((f for f in root.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name)


def example_names() -> list[str]:
    """The file names of the examples, in their reading order (``01-...``, ``02-...``)."""
    return [f.name for f in _files()]


def example_text(name: str) -> str:
    """The text of one example case."""
    for f in _files():
        if f.name == name:
            return f.read_text(encoding="utf-8")
    raise KeyError(f"no example named {name!r}; examples: {', '.join(example_names())}")


def write_examples(dest: str | Path, *, force: bool = False) -> list[Path]:
    """Write every example into ``dest`` (created); refuses to replace a file unless ``force``.

    Returns the paths written."""
    out = Path(dest)
    targets = [(out / f.name, f) for f in _files()]
    existing = [p for p, _ in targets if p.exists()]
    if existing and not force:
        names = ", ".join(p.name for p in existing)
        raise ExamplesExistError(f"{out} already has {names}: use --force to replace them")
    out.mkdir(parents=True, exist_ok=True)
    for path, f in targets:
        path.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    return [p for p, _ in targets]
