"""``exactdp renyi`` and ``exactdp tradeoff``: Rényi divergences and f-DP trade-off functions."""

from __future__ import annotations

import click

from ..analysis import make_engine
from ..analysis.renyi_real import CertifiedRenyi, parse_order, renyi_any, renyi_witness
from ..analysis.tradeoff_points import vertex_tests
from ..analysis.zcdp import check_zcdp
from ..claims.base import Analysis
from ..claims.renyi import ConversionClaim
from ..errors import ExactDPError, LimitExceededError
from ..forms.fields import FieldProblem
from ..limits import using
from ..numbers import ladder
from ..numbers.rational import Q
from ..report.escape import text
from ..report.jsonout import any_witness_to_dict, dumps
from ..report.renyi_fdp import (
    certified_renyi_to_dict,
    dominating_pair_to_dict,
    renyi_to_dict,
    tradeoff_to_dict,
    zcdp_to_dict,
)
from ..report.text import render_any_witness, render_witness
from ..theorems.named import CONVERSIONS
from .app import (
    engine_option,
    fail,
    limit_options,
    limits_from,
    load_mechanism,
    main,
    max_strategies_option,
    parse_number,
)

__all__ = ["renyi", "zcdp", "convert", "tradeoff", "print_dominating_pair"]


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
        try:
            out.append(parse_order(part.strip()))
        except ExactDPError as e:
            raise click.BadParameter(str(e), param_hint="--alpha") from None
    return out


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option(
    "--alpha",
    "alpha_text",
    default="2",
    show_default=True,
    help="Orders, e.g. 2,3,3/2,2.5,inf (1 is KL); a non-integer order gives a certified enclosure.",
)
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--witness", "show_witness", is_flag=True, help="Also show the adversary attaining each value.")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def renyi(case_path, alpha_text, of, show_witness, as_json, engine, max_strategies, **limits):
    """D_alpha(M): the Renyi divergence of order alpha against every adaptive adversary, exact
    for whole orders (certified enclosures for real orders such as 3/2)."""
    lim = limits_from(**limits, max_strategies=max_strategies)
    alphas = _alphas(alpha_text, lim.max_orders)
    try:
        with using(lim):
            case, name, mech = load_mechanism(case_path, of)
            eng = make_engine(engine, max_strategies=max_strategies)
            results = [renyi_any(eng, mech, a) for a in alphas]
            witnesses = [_witness(mech, r) for r in results] if show_witness else [None] * len(results)
    except ExactDPError as e:
        fail(e)
    if as_json:
        values = [_renyi_dict(r, w) for r, w in zip(results, witnesses)]
        click.echo(dumps({"mechanism": name, "engine": engine, "values": values}))
        return
    for r, w in zip(results, witnesses):
        d = _renyi_dict(r, None)
        if "renyi_interval" in d:
            shown = f"in {d['enclosure']} (certified enclosure)"
        else:
            shown = "= " + (d["renyi"] if d["renyi"] in ("0", "inf") else f"{d['renyi']} ≈ {d['decimal']}")
        click.echo(f"D_{d['alpha']}({name}) {shown}")
        if w is not None:
            for line in render_any_witness(w, "  "):
                click.echo(line)


def _witness(mech, res):
    if isinstance(res, CertifiedRenyi):
        return res.witness
    return renyi_witness(mech, res)


def _renyi_dict(res, witness) -> dict:
    if isinstance(res, CertifiedRenyi):
        d = certified_renyi_to_dict(res)
    else:
        d = renyi_to_dict(res)
    if witness is not None:
        d["witness"] = witness.to_dict()
    return d


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--rho", "rho_text", required=True, help="The zCDP parameter rho, e.g. 1/8 or 0.125.")
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def zcdp(case_path, rho_text, of, as_json, engine, max_strategies, **limits):
    """Whether M is rho-zCDP (Bun-Steinke 2016): D_alpha <= rho*alpha for every real alpha > 1,
    decided by certified branch and bound over alpha (undecided when D_alpha/alpha touches rho)."""
    rho = parse_number(rho_text, "--rho", kind="positive")
    try:
        with using(limits_from(**limits, max_strategies=max_strategies)):
            case, name, mech = load_mechanism(case_path, of)
            prof = make_engine(engine, max_strategies=max_strategies).profile(mech)
            res = check_zcdp(mech, rho, prof.privloss(Q(0)))
    except ExactDPError as e:
        fail(e)
    d = zcdp_to_dict(name, res)
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(text(f"{name} is {rho_text}-zCDP: {d['status']} ({d['reason']})"))
    if "alpha" in d:
        label = "fails at" if d["status"] == "fails" else "closest evaluated order"
        click.echo(f"  {label}: alpha = {d['alpha']}, D_alpha in {d['divergence']}")
    if res.witness is not None:
        for line in render_any_witness(res.witness, "  "):
            click.echo(line)


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option(
    "--witness",
    "show_tests",
    is_flag=True,
    help="Also show, for each vertex of T(M), the adversary and rejection region attaining it.",
)
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def tradeoff(case_path, of, show_tests, as_json, engine, max_strategies, **limits):
    """The exact f-DP trade-off function T(M) (Dong-Roth-Su 2022) of the envelope and of every
    ordered adjacent pair, by its vertices (type I error alpha, type II error beta)."""
    try:
        with using(limits_from(**limits, max_strategies=max_strategies)):
            case, name, mech = load_mechanism(case_path, of)
            prof = make_engine(engine, max_strategies=max_strategies).profile(mech)
            tests = vertex_tests(mech, prof) if show_tests else None
    except ExactDPError as e:
        fail(e)
    d = tradeoff_to_dict(prof, tests)
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
    if tests is not None:
        click.echo(f"  tests attaining the vertices of {d['envelope']['label']}:")
        for vt in tests:
            click.echo(f"    vertex ({ladder.text(vt.alpha)}, {ladder.text(vt.beta)}):")
            if vt.witness is None:
                click.echo(f"      {'reject never' if vt.alpha == 0 else 'reject always'}")
                continue
            x, xp = vt.witness.pair_names
            click.echo(text(f"      the test of H0: {xp} against H1: {x} rejects on the event T:"))
            for line in render_witness(vt.witness, indent="      "):
                click.echo(line)


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


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--theorem", "which", type=click.Choice(CONVERSIONS), required=True, help="The conversion theorem.")
@click.option("--delta", "delta_text", required=True, help="The delta of the (eps, delta)-DP statement.")
@click.option("--alpha", "alpha_text", default=None, help="The Renyi order (renyi-to-dp, renyi-to-dp-cks).")
@click.option("--rho", "rho_text", default=None, help="The zCDP parameter (zcdp-to-dp).")
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def convert(case_path, which, delta_text, alpha_text, rho_text, of, as_json, engine, max_strategies, **limits):
    """A conversion theorem to (eps, delta)-DP (Renyi DP: Mironov 2017, Canonne-Kamath-Steinke
    2020; zCDP: Bun-Steinke 2016) evaluated for M, beside M's exact PrivLoss(M, delta)."""
    delta = parse_number(delta_text, "--delta", kind="delta")
    alpha = _alphas(alpha_text, 1)[0] if alpha_text is not None else None
    rho = parse_number(rho_text, "--rho", kind="positive") if rho_text is not None else None
    try:
        with using(limits_from(**limits, max_strategies=max_strategies)):
            case, name, mech = load_mechanism(case_path, of)
            claim = ConversionClaim(of=name, theorem=which, delta=delta, alpha=alpha, rho=rho)
            claim.validate()
            an = Analysis({name: mech}, make_engine(engine, max_strategies=max_strategies))
            v = claim.check(an)
    except FieldProblem as e:
        raise click.UsageError(e.message + (f" ({e.hint})" if e.hint else "")) from None
    except ExactDPError as e:
        fail(e)
    if as_json:
        out = {"mechanism": name, "theorem": which, "status": v.status, "found": v.found, "values": dict(v.values)}
        if v.witness is not None:
            out["witness"] = any_witness_to_dict(v.witness)
        click.echo(dumps(out))
        return
    click.echo(text(f"{claim.describe()}: {v.status}"))
    click.echo(text(f"  {v.found}"))
    if v.note:
        click.echo(f"  [{v.note}]")
    if v.witness is not None:
        for line in render_any_witness(v.witness, "  "):
            click.echo(line)
