"""``exactdp experiment section6``: Vadhan–Wang's Section 6 experiment, in exact arithmetic."""

from __future__ import annotations

import sys

import click

from ..experiments import section6 as run_section6
from ..report.simulate import dumps_json, section6_doc, section6_lines
from ..report.terminal import ProgressLine
from .options import OPTION, emit, flag, limit_options, parse_number, progress_wanted, runner_options

__all__ = ["experiment", "section6"]


@click.group()
def experiment() -> None:
    """Reproduce experiments from the papers, exactly."""


@experiment.command()
@click.option(
    "--samples", type=click.IntRange(1), default=10_000, help="Number of random mechanisms M_p (at most --max-samples)."
)
@click.option("--delta", "delta_text", default="1/10", help="delta of RR_(eps,delta); eps = PrivLoss(M_p, delta).")
@click.option("--seed", type=int, default=0)
@click.option("--denominator", type=click.IntRange(2), default=100, help="Parameters are drawn from {1, ..., D-1}/D.")
@flag("--no-enumerator-check", help="Skip the per-sample enumerator comparison of views.")
@OPTION["json"]
@OPTION["progress"]
@click.option("--block", type=click.IntRange(1), default=25, help="Samples per work item (for --jobs / --scheduler).")
@runner_options
@limit_options
def section6(samples, delta_text, seed, denominator, no_enumerator_check, as_json, progress, block, runner, limits):
    """Random 2-round 1-bit mechanisms M_p (Fig. 1, 10 rational parameters): eps = PrivLoss(M_p,
    delta) by the enumerator (cross-checked by the profile engine), then the exact LP for a
    post-processor T of RR_(eps,delta), certified either way.  Sample k is drawn from its own
    seeded stream, so the counts are the same for any --jobs or --scheduler.  Exit 0 when every
    sample has a T, 1 when some has none, 3 on an internal disagreement, 130 when interrupted
    (the counts so far are printed)."""
    delta = parse_number(delta_text, "--delta", kind="delta")
    with ProgressLine(samples, "section6", progress_wanted(progress)) as bar:
        res, interrupted = run_section6(
            samples,
            delta,
            seed,
            limits,
            runner,
            denominator=denominator,
            check_enumerator=not no_enumerator_check,
            block=block,
            progress=bar.update,
        )
    emit(dumps_json(section6_doc(res)) if as_json else "\n".join(section6_lines(res)))
    if interrupted:
        emit(f"  interrupted: {samples - res.samples} of {samples} samples not checked", file=sys.stderr)
    sys.exit(130 if interrupted else 3 if res.errors else 1 if res.infeasible else 0)
