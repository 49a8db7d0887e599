"""Resource limits: every one has a default, a CLI flag, and an error naming it.

A limit is never a silent truncation: reaching one raises
:class:`~exactdp.errors.LimitExceededError`, which says which limit was hit and how to raise it.
Limits apply within a :func:`using` block (the CLI wraps each case file in one); outside any
block the defaults apply.

=====================  ======================  ==========================================
limit                  default                 what it bounds
=====================  ======================  ==========================================
``max_nodes``          5,000,000               game nodes built for one case (``--max-nodes``)
``max_hull_edges``     2,000,000               size of one exact privacy profile (``--max-profile-size``)
``max_strategies``     200,000                 adversaries the enumerator may list (``--max-strategies``)
``max_exponent``       10,000                  integer exponents in numbers (``--max-exponent``)
``max_bits``           1,000,000               bits of a number produced by a power (``--max-exponent``)
``timeout``            none                    wall-clock seconds per case file (``--timeout``)
=====================  ======================  ==========================================
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Iterator

from .errors import LimitExceededError, TimeLimitExceeded

__all__ = ["Limits", "DEFAULT", "current", "using", "count_nodes", "check_hull_size"]


@dataclass(frozen=True)
class Limits:
    max_nodes: int = 5_000_000
    max_hull_edges: int = 2_000_000
    max_strategies: int = 200_000
    max_exponent: int = 10_000
    max_bits: int = 1_000_000
    timeout: float | None = None

    def replace(self, **kw) -> "Limits":
        return replace(self, **{k: v for k, v in kw.items() if v is not None})


DEFAULT = Limits()
_stack: list[Limits] = [DEFAULT]
# nodes built in the current `using` block, and the budget (a list for cheap in-place updates)
_nodes = [0, DEFAULT.max_nodes]


def current() -> Limits:
    """The limits in force."""
    return _stack[-1]


@contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Apply ``limits`` inside the block: a fresh node budget and, if ``limits.timeout`` is set,
    a wall-clock alarm (main thread on POSIX; the profile engine also checks deadlines)."""
    saved = list(_nodes)
    _stack.append(limits)
    _nodes[0], _nodes[1] = 0, limits.max_nodes
    try:
        with _time_limit(limits.timeout):
            yield limits
    finally:
        _stack.pop()
        _nodes[0], _nodes[1] = saved


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    # The alarm repeats: an exception raised while Python runs a garbage-collector callback
    # (hypothesis installs one) is printed and dropped, and the computation would then run on
    # unbounded.  A repeat raises again only if the first one has not ended the block within a
    # half second, so the normal cleanup after a delivered timeout is not interrupted.
    first: list[float] = []

    def on_alarm(signum: int, frame: Any) -> None:
        now = time.monotonic()
        if first and now - first[0] < 0.5:
            return
        first[:] = [now]
        raise TimeLimitExceeded(f"{seconds:g} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def count_nodes(n: int = 1) -> None:
    """Called by every game-node constructor; raises past ``max_nodes``."""
    _nodes[0] += n
    if _nodes[0] > _nodes[1]:
        _nodes[0] = 0  # let the error propagate without re-raising in cleanup code
        raise LimitExceededError(
            "the number of game nodes", _nodes[1], "raise it with --max-nodes N (or Limits(max_nodes=N))"
        )


def check_hull_size(n: int) -> None:
    """Called by the profile engine; an exact profile with more pieces than the limit refuses."""
    lim = _stack[-1].max_hull_edges
    if n > lim:
        raise LimitExceededError(
            f"an exact privacy profile with {n} pieces",
            lim,
            "raise it with --max-profile-size N; very large profiles usually mean many distinct likelihood ratios",
        )
