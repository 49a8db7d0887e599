"""``exactdp renyi`` and ``exactdp tradeoff``: Rényi divergences and f-DP trade-off functions."""

from __future__ import annotations

import click

from ..analysis import make_engine
from ..analysis.renyi import parse_alpha
from ..analysis.tradeoff import dominating_pair, envelope_tradeoff, pair_tradeoffs
from ..errors import ExactDPError, LimitExceededError
from ..limits import using
from ..numbers import eval_text
from ..numbers.expr import ExprError
from ..report.jsonout import dumps
from ..report.renyi_fdp import (
    dominating_pair_lines,
    dominating_pair_to_dict,
    renyi_lines,
    renyi_to_dict,
    tradeoff_lines,
    tradeoff_to_dict,
)
from .app import Common, case_options, fail, load_mechanism, main
from .parametric import echo_renyi, is_parametric, latex_option

__all__ = ["renyi", "tradeoff", "print_dominating_pair"]


def _alphas(text: str, max_orders: int) -> list:
    """The orders of ``--alpha``, at most ``max_orders`` of them (counted before any is read:
    each order is a whole analysis of the mechanism)."""
    parts = text.split(",")
    if len(parts) > max_orders:
        fail(
            LimitExceededError(
                f"the number of Renyi orders in --alpha ({len(parts)})", max_orders, "raise it with --max-orders N"
            )
        )
    out = []
    for part in parts:
        part = part.strip()
        try:
            out.append(parse_alpha(part if part == "inf" else eval_text(part)))
        except ExprError as e:
            raise click.BadParameter(f"{part!r}: {e.message}", param_hint="--alpha") from None
        except ExactDPError as e:
            raise click.BadParameter(str(e), param_hint="--alpha") from None
    return out


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--alpha", "alpha_text", default="2", show_default=True, help="Orders, e.g. 2,3,4,inf (1 is KL).")
@click.option("--of", default=None, help="Mechanism name (default M).")
@latex_option
@case_options()
def renyi(case_path, alpha_text, of, as_latex, common: Common):
    """D_alpha(M): the exact Renyi divergence of order alpha against every adaptive adversary;
    piecewise in the symbols for a mechanism with symbols."""
    opts = common.opts
    alphas = _alphas(alpha_text, opts.effective_limits().max_orders)
    try:
        with using(opts.effective_limits()):
            case, name, mech = load_mechanism(case_path, of, opts)
            if is_parametric(case, mech):
                echo_renyi(case, name, mech, alphas, common, as_latex)
                return
            if as_latex:
                raise click.UsageError("--latex prints a piecewise closed form: it needs a mechanism with symbols")
            eng = make_engine(opts.engine, max_strategies=opts.max_strategies)
            results = [eng.renyi(mech, a) for a in alphas]
    except ExactDPError as e:
        fail(e)
    if common.as_json:
        click.echo(dumps({"mechanism": name, "engine": opts.engine, "values": [renyi_to_dict(r) for r in results]}))
    else:
        click.echo("\n".join(renyi_lines(name, results)))


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@case_options()
def tradeoff(case_path, of, common: Common):
    """The exact f-DP trade-off function T(M) (Dong-Roth-Su 2022) of the envelope and of every
    ordered adjacent pair, by its vertices (type I error alpha, type II error beta)."""
    opts = common.opts
    try:
        with using(opts.effective_limits()):
            case, name, mech = load_mechanism(case_path, of, opts)
            prof = make_engine(opts.engine, max_strategies=opts.max_strategies).profile(mech)
    except ExactDPError as e:
        fail(e)
    d = tradeoff_to_dict(name, envelope_tradeoff(prof), pair_tradeoffs(prof))
    click.echo(dumps(d) if common.as_json else "\n".join(tradeoff_lines(d)))


def print_dominating_pair(prof, as_json: bool) -> None:
    """``exactdp profile --dominating-pair``: (P, P') with the same hockey-stick profile."""
    d = dominating_pair_to_dict(prof.mechanism, *dominating_pair(prof.envelope))
    click.echo(dumps(d) if as_json else "\n".join(dominating_pair_lines(d)))
