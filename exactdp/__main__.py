"""``python -m exactdp``: the command line (same as the ``exactdp`` command)."""

from .cli import run

__all__: list[str] = []

run()
