"""``exactdp delta`` and ``exactdp calibrate``, and what the commands about one mechanism ask of
a mechanism with symbols: whether it has them (docs/parametric.md)."""

from __future__ import annotations

import click

from ..analysis.parametric.queries import delta_of
from ..caseio import evaluate_in_case
from ..caseio.case import parse_claim_text
from ..claims import Analysis
from ..claims.calibrate import calibrate as calibrate_claim
from ..model.symbolic import is_symbolic_mechanism
from ..report.inspect import delta_doc, delta_lines
from ..report.parametric import calibration_output, delta_output
from .helptext import command
from .options import Query, echo_result, query_options, running

__all__ = ["delta", "calibrate", "is_parametric"]


def is_parametric(case, mech) -> bool:
    """Whether the mechanism has probabilities in the case's symbols."""
    return bool(case.symbols) and is_symbolic_mechanism(mech)


@command()
@click.option("--eps", "eps_text", required=True, help="eps, e.g. log(3), 0.1, or log(E) with a symbol E.")
@query_options(latex=True)
def delta(eps_text, q: Query):
    """delta_M(e^eps): the largest hockey-stick divergence at e^eps over adjacent pairs and
    adaptive adversaries (Vadhan-Wang Def. 1.7), exactly; piecewise in the symbols for a
    mechanism with symbols.  -q prints the value only."""
    with running(q.common) as prog:
        case, name, mech = q.load()
        eps = evaluate_in_case(case, eps_text, "--eps", kind="eps")
        if is_parametric(case, mech) or hasattr(eps, "free_symbols"):
            pw = delta_of(mech, case.symbols, eps, is_lambda=False)
            return click.echo(delta_output(name, eps_text, pw, q.fmt))
        val = q.common.opts.make_engine(prog.callback).profile(mech).delta_at(eps)
    q.no_latex()
    echo_result(
        q.common.as_json,
        lambda: delta_doc(name, eps_text, val, q.common.opts.engine),
        lambda: delta_lines(name, eps_text, val, quiet=q.common.quiet),
    )


@command()
@click.option(
    "--target",
    required=True,
    help='The claim to calibrate, as in a case file: "dp: {eps: log(2), delta: 1/10}" (any claim kind).',
)
@click.option("--symbol", default=None, help="The symbol to calibrate (default: the one the answer depends on).")
@click.option(
    "--digits", type=click.IntRange(15, 1000), default=16, show_default=True, help="Decimal digits of each end."
)
@query_options(latex=True)
def calibrate(target, symbol, digits, q: Query):
    """The exact set of values of a symbol where the target claim holds: a union of intervals
    with exact endpoints (rational, or algebraic: minimal polynomial and isolating interval),
    each also as a decimal whose printed digits are all proved."""
    with running(q.common):
        case, name, _mech = q.load()
        claim = parse_claim_text(case, target, of=name)
        cal = calibrate_claim(claim, Analysis(case.mechanisms, symbols=case.symbols), symbol=symbol)
    click.echo(calibration_output(name, claim.statement(), cal, q.fmt, digits=digits))
