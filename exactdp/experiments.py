"""Experiments from the papers on every core or a Dask cluster: Vadhan–Wang's Section 6 run in
blocks of samples by :mod:`exactdp.execution` (``exactdp experiment section6 --jobs N``).

Sample k is drawn from its own seeded stream (:func:`exactdp.simulation.experiment.sample_rng`),
so the counts are the same whatever the split into blocks and wherever the blocks run;
:func:`exactdp.simulation.experiment.run_section6` is the same experiment in this process.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from .execution import Runner, run_ordered
from .limits import Limits, check_count, using
from .simulation.experiment import Section6Block, Section6Result, blocks, merge_blocks, run_block

__all__ = ["run_blocks", "section6"]


def run_blocks(
    work: Sequence[Section6Block], runner: Runner = Runner(), *, progress: Callable[[int], None] | None = None
) -> tuple[Section6Result, bool]:
    """Vadhan–Wang's Section 6 experiment, cut into blocks of samples by
    :func:`exactdp.simulation.experiment.blocks`, run on ``runner`` (this process, local
    workers, a Dask cluster); ``progress(k)`` with the number of samples done, as blocks finish.

    Returns
    -------
    (Section6Result, bool)
        The counts over the blocks done, and whether the run was interrupted (Ctrl-C: the
        blocks finished so far are counted).
    """
    start = time.perf_counter()

    def done_samples(d: int, _total: int) -> None:
        if progress is not None:
            progress(sum(b.stop - b.start for b in work[:d]))

    done, interrupted = run_ordered(run_block, work, runner, progress=done_samples).collect()
    first = work[0]
    res = merge_blocks(done, sum(r.samples for r in done), first.delta, first.seed, first.denominator)
    res.seconds = time.perf_counter() - start
    return res, interrupted


def section6(
    samples: int,
    delta,
    seed: int,
    limits: Limits,
    runner: Runner = Runner(),
    *,
    denominator: int = 100,
    check_enumerator: bool = True,
    block: int = 25,
    progress: Callable[[int], None] | None = None,
) -> tuple[Section6Result, bool]:
    """Vadhan–Wang's Section 6 experiment with ``samples`` random mechanisms (at most
    ``limits.max_samples``), in blocks of ``block`` samples run by :func:`run_blocks` within
    ``limits``: every block runs within them too, on whichever worker runs it, while the clock
    (``limits.timeout``) is the whole run's, kept here."""
    with using(limits):
        check_count("the number of samples", samples, "max_samples", "--max-samples")
        each = limits.replace(timeout=0)
        work = blocks(
            samples, delta, seed, denominator=denominator, check_enumerator=check_enumerator, size=block, limits=each
        )
        return run_blocks(work, runner, progress=progress)
