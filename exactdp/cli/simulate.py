"""``exactdp simulate``: print the post-processor T of Theorem 1.10 (or of RR_(eps,delta))."""

from __future__ import annotations

import sys

import click

from ..caseio import evaluate_in_case
from ..claims.simulate import VIAS
from ..numbers.rational import Q
from ..report.latex import render_simulation_latex
from ..report.simulate import render_simulation
from ..simulation.simulate import simulate as run_simulation
from .helptext import command
from .options import Query, emit, flag, query_options

__all__ = ["simulate"]


@command()
@click.option("--eps", "eps_text", help="eps, e.g. log(3) or log(E) for a symbol E (default: PrivLoss(M, delta)).")
@click.option("--delta", "delta_text", help="delta for RR_(eps,delta) (default 0: Theorem 1.10).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "latex", "yaml", "csv"]), default="text")
@click.option(
    "--via",
    type=click.Choice(VIAS),
    default="auto",
    help="auto: Thm 1.10 for delta = 0, the exact LP otherwise; lemma56: the continual-mechanisms construction (delta > 0).",
)
@flag("--standalone", help="With --format latex: a complete document (for pdflatex).")
@flag("--drop-trivial", help="With --format latex: leave out rows where T(c, a) is the same for every RR output c.")
@click.option("--label", "label", help="With --format latex: prefix of the \\label keys (default T-<mechanism>).")
@query_options()
def simulate(eps_text, delta_text, fmt, via, standalone, drop_trivial, label, q: Query):
    """Build T with T(RR(b)) = M(x_b) for every adjacent pair, check it exactly, print it.

    One table per adjacent pair: rows (query history, answers so far, answer), columns T(c, .)
    for each RR output c.  Exit 0 when T exists for every pair, 1 when some pair has none (the
    certificate is printed), 2 for invalid input or when non-negativity could only be reduced to
    conditions (printed) that the declared bounds do not prove.  --json is --format json; -q
    prints the checks without the tables; with --engine enumerator, eps = PrivLoss(M, delta) is
    computed by the enumerator.
    """
    if q.as_json:
        fmt = "json"
    with q.loaded() as (case, name, mech, prog):
        eps = evaluate_in_case(case, eps_text, "--eps", kind="eps") if eps_text is not None else None
        delta = evaluate_in_case(case, delta_text, "--delta", kind="delta") if delta_text is not None else None
        if via == "lemma56" and delta is None:
            raise click.BadParameter("--via lemma56 needs --delta (the approximate-DP construction)")
        if eps is None and q.opts.engine != "profile":  # PrivLoss(M, delta) by the engine asked for
            eps = q.opts.make_engine(prog.callback).profile(mech).privloss(delta if delta is not None else Q(0))
        sim = run_simulation(mech, eps=eps, delta=delta, table=case.symbols or None, construction=via)
    if fmt == "latex":
        emit(render_simulation_latex(sim, standalone=standalone, drop_trivial=drop_trivial, label=label), nl=False)
    else:
        emit(render_simulation(sim, fmt, quiet=q.quiet), nl=False)
    sys.exit(sim.exit_code)
