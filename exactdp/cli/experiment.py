"""``exactdp experiment section6``: Vadhan–Wang's Section 6 experiment, in exact arithmetic."""

from __future__ import annotations

import sys

import click

from ..errors import ExactDPError
from ..experiments import run_blocks
from ..limits import check_count, using
from ..report.simulate import dumps_json, section6_doc, section6_lines
from ..report.terminal import ProgressLine
from ..simulation.experiment import blocks
from .app import fail, limit_options, limits_from, main, parse_number, runner_from, runner_options

__all__ = ["experiment", "section6"]


@main.group()
def experiment() -> None:
    """Reproduce experiments from the papers, exactly."""


@experiment.command()
@click.option(
    "--samples",
    type=click.IntRange(1),
    default=10_000,
    show_default=True,
    help="Number of random mechanisms M_p (at most --max-samples).",
)
@click.option(
    "--delta",
    "delta_text",
    default="1/10",
    show_default=True,
    help="delta of RR_(eps,delta); eps = PrivLoss(M_p, delta).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--denominator",
    type=click.IntRange(2),
    default=100,
    show_default=True,
    help="Parameters are drawn from {1, ..., D-1}/D.",
)
@click.option("--no-enumerator-check", is_flag=True, help="Skip the per-sample enumerator comparison of views.")
@click.option("--json", "as_json", is_flag=True)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar on stderr (default: when stderr is a terminal)."
)
@click.option(
    "--block",
    type=click.IntRange(1),
    default=25,
    show_default=True,
    help="Samples per work item (for --jobs / --scheduler).",
)
@runner_options
@limit_options
def section6(
    samples,
    delta_text,
    seed,
    denominator,
    no_enumerator_check,
    as_json,
    progress,
    block,
    jobs,
    scheduler,
    max_workers,
    **limits,
):
    """Random 2-round 1-bit mechanisms M_p (Fig. 1, 10 rational parameters): eps = PrivLoss(M_p,
    delta) by the enumerator (cross-checked by the profile engine), then the exact LP for a
    post-processor T of RR_(eps,delta), certified either way.  Sample k is drawn from its own
    seeded stream, so the counts are the same for any --jobs or --scheduler.  Exit 0 when every
    sample has a T, 1 when some has none, 3 on an internal disagreement, 130 when interrupted
    (the counts so far are printed)."""
    delta = parse_number(delta_text, "--delta", kind="delta")
    show = sys.stderr.isatty() if progress is None else progress
    runner = runner_from(jobs, scheduler, max_workers)
    try:
        lim = limits_from(**limits)
        with using(lim):
            check_count("the number of samples", samples, "max_samples", "--max-samples")
            # every block runs within the limits too, on whichever worker runs it (the clock is
            # the whole run's, kept here)
            each = lim.replace(timeout=0)
            check = not no_enumerator_check
            work = blocks(
                samples, delta, seed, denominator=denominator, check_enumerator=check, size=block, limits=each
            )
            with ProgressLine(samples, "section6", show) as bar:
                res, interrupted = run_blocks(work, runner, progress=bar.update)
    except ExactDPError as e:
        fail(e)
    click.echo(dumps_json(section6_doc(res)) if as_json else "\n".join(section6_lines(res)))
    if interrupted:
        click.echo(f"  interrupted: {samples - res.samples} of {samples} samples not checked", err=True)
        sys.exit(130)
    if res.errors:
        sys.exit(3)
    if res.infeasible:
        sys.exit(1)
