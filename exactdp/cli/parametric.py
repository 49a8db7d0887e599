"""``exactdp delta`` and ``exactdp calibrate``: delta at one eps, and the values of a symbol
where a claim holds (docs/parametric.md)."""

from __future__ import annotations

import sys

import click

from ..analysis import query
from ..caseio import evaluate_in_case
from ..caseio.case import parse_claim_text
from ..claims import Analysis
from ..claims.calibrate import calibrate as calibrate_claim
from ..report.parametric import calibration_output
from ..report.query import delta_text
from .helptext import command
from .options import Query, emit, query_options

__all__ = ["delta", "calibrate"]


@command()
@click.option("--eps", "eps_text", required=True, help="eps, e.g. log(3), 0.1, log(1/2) or log(E), E a symbol.")
@query_options(latex=True)
def delta(eps_text, q: Query):
    """delta_M(e^eps): the largest hockey-stick divergence at e^eps over adjacent pairs and
    adaptive adversaries (Vadhan-Wang Def. 1.7), exactly; piecewise in the symbols for a
    mechanism with symbols.  -q prints the value only."""
    with q.loaded() as (case, name, mech, prog):
        eps = evaluate_in_case(case, eps_text, "--eps", kind="any eps")
        q.latex_if(query.answers_piecewise(case.symbols, mech, eps))
        answer = query.delta(mech, case.symbols, eps, q.opts.make_engine(prog.callback))
    emit(delta_text(name, eps_text, answer, q.fmt, q.opts.engine, quiet=q.quiet))


@command()
@click.option("--target", required=True, help='The claim (any kind) as in a case file: "dp: {eps: log(2)}".')
@click.option("--symbol", help="The symbol to calibrate (default: the one the answer depends on).")
@click.option("--digits", type=click.IntRange(15, 1000), default=16, help="Decimal digits of each end.")
@query_options(latex=True)
def calibrate(target, symbol, digits, q: Query):
    """The exact set of values of a symbol where the target claim holds: a union of intervals
    with exact endpoints (rational, or algebraic: minimal polynomial and isolating interval),
    each also as a decimal whose printed digits are all proved (exit 2: partly undecided)."""
    with q.loaded() as (case, name, _mech, _):
        claim = parse_claim_text(case, target, of=name)
        cal = calibrate_claim(claim, Analysis(case.mechanisms, symbols=case.symbols), symbol=symbol)
    emit(calibration_output(name, claim.describe(), cal, q.fmt, digits=digits))
    sys.exit(0 if cal.undecided() is None else 2)
