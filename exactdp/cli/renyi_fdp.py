"""``exactdp renyi`` and ``exactdp tradeoff``: Rényi divergences and f-DP trade-off functions."""

from __future__ import annotations

import click

from ..analysis import make_engine
from ..analysis.renyi import parse_alpha
from ..errors import ExactDPError, LimitExceededError
from ..limits import using
from ..report.jsonout import dumps
from ..report.renyi_fdp import dominating_pair_to_dict, renyi_to_dict, tradeoff_to_dict
from ..verify import Options
from .app import Common, engine_option, fail, limit_options, limits_from, load_mechanism, main, max_strategies_option
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
            out.append(parse_alpha(part if part == "inf" else _int(part)))
        except ExactDPError as e:
            raise click.BadParameter(str(e), param_hint="--alpha") from None
    return out


def _int(text: str) -> object:
    from ..numbers import eval_text
    from ..numbers.expr import ExprError

    try:
        return eval_text(text)
    except ExprError as e:
        raise click.BadParameter(f"{text!r}: {e.message}", param_hint="--alpha") from None


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--alpha", "alpha_text", default="2", show_default=True, help="Orders, e.g. 2,3,4,inf (1 is KL).")
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--json", "as_json", is_flag=True)
@latex_option
@engine_option
@max_strategies_option
@limit_options
def renyi(case_path, alpha_text, of, as_json, as_latex, engine, max_strategies, **limits):
    """D_alpha(M): the exact Renyi divergence of order alpha against every adaptive adversary;
    piecewise in the symbols for a mechanism with symbols."""
    lim = limits_from(**limits, max_strategies=max_strategies)
    alphas = _alphas(alpha_text, lim.max_orders)
    try:
        with using(lim):
            case, name, mech = load_mechanism(case_path, of)
            if is_parametric(case, mech):
                echo_renyi(case, name, mech, alphas, Common(Options(), as_json=as_json), as_latex)
                return
            if as_latex:
                raise click.UsageError("--latex prints a piecewise closed form: it needs a mechanism with symbols")
            eng = make_engine(engine, max_strategies=max_strategies)
            results = [eng.renyi(mech, a) for a in alphas]
    except ExactDPError as e:
        fail(e)
    if as_json:
        click.echo(dumps({"mechanism": name, "engine": engine, "values": [renyi_to_dict(r) for r in results]}))
        return
    for r in results:
        d = renyi_to_dict(r)
        shown = d["renyi"] if d["renyi"] in ("0", "inf") else f"{d['renyi']} ≈ {d['decimal']}"
        click.echo(f"D_{d['alpha']}({name}) = {shown}")


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def tradeoff(case_path, of, as_json, engine, max_strategies, **limits):
    """The exact f-DP trade-off function T(M) (Dong-Roth-Su 2022) of the envelope and of every
    ordered adjacent pair, by its vertices (type I error alpha, type II error beta)."""
    try:
        with using(limits_from(**limits, max_strategies=max_strategies)):
            case, name, mech = load_mechanism(case_path, of)
            prof = make_engine(engine, max_strategies=max_strategies).profile(mech)
    except ExactDPError as e:
        fail(e)
    d = tradeoff_to_dict(prof)
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(f"trade-off function of {name}: beta = T(alpha), exact, linear between vertices")
    for block, title in [(d["envelope"], f"{d['envelope']['label']} (largest f with {name} f-DP)")] + [
        (p, p["label"]) for p in d["pairs"]
    ]:
        click.echo(f"  {title}:")
        for a, b in block["vertices"]:
            click.echo(f"    alpha = {a:<24} beta = {b}")


def print_dominating_pair(prof, as_json: bool) -> None:
    """``exactdp profile --dominating-pair``: (P, P') with the same hockey-stick profile."""
    d = dominating_pair_to_dict(prof)
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(
        f"dominating pair of {d['mechanism']}: finite (P, P') whose profile delta(e^eps) equals the mechanism's for every eps"
    )
    click.echo(f"  {'outcome':<8} {'P':<24} {'P_prime':<24} privacy loss log(P/P')")
    for k, (p, pp, loss) in enumerate(zip(d["P"], d["P_prime"], d["privacy_loss"])):
        click.echo(f"  {'o' + str(k):<8} {p:<24} {pp:<24} {loss}")
