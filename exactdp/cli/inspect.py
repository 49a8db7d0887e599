"""``exactdp privloss``, ``exactdp profile``, ``exactdp info``: one mechanism at a time."""

from __future__ import annotations

import click

from ..analysis import format_privloss, make_engine
from ..errors import ExactDPError
from ..limits import using
from ..numbers.rational import q_str
from ..numbers.real import real_str
from ..report import profile_to_dict, render_witness, witness_to_dict
from ..report.jsonout import dumps
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

__all__ = ["privloss", "profile", "info", "schema"]


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--delta", "delta_text", default="0", show_default=True, help="delta, e.g. 0, 1/100, 1e-6.")
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--witness", is_flag=True, help="Show the adversary that makes the value tight.")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def privloss(case_path, delta_text, of, witness, as_json, engine, max_strategies, **limits):
    """PrivLoss(M, delta) = inf{eps >= 0 : M is (eps, delta)-DP}, exactly."""
    delta = parse_number(delta_text, "--delta", kind="delta")
    try:
        with using(limits_from(**limits, max_strategies=max_strategies)):
            case, name, mech = load_mechanism(case_path, of)
            eng = make_engine(engine, max_strategies=max_strategies)
            prof = eng.profile(mech)
            val = prof.privloss(delta)
            w = eng.privloss_witness(mech, delta, prof) if witness else None
    except ExactDPError as e:
        fail(e)
    if as_json:
        click.echo(
            dumps(
                {
                    "mechanism": name,
                    "delta": q_str(delta),
                    "privloss": real_str(val),
                    "exp_privloss": real_str(prof.least_lambda(delta)),
                    "engine": engine,
                    "witness": witness_to_dict(w) if w is not None else None,
                }
            )
        )
    else:
        click.echo(f"PrivLoss({name}, {q_str(delta)}) = {format_privloss(val)}")
        if w is not None:
            click.echo("  every smaller eps fails; at " + real_str(w.lam) + " (below e^PrivLoss):")
            for line in render_witness(w, indent="  "):
                click.echo(line)


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--json", "as_json", is_flag=True)
@engine_option
@max_strategies_option
@limit_options
def profile(case_path, of, as_json, engine, max_strategies, **limits):
    """The exact privacy profile delta(e^eps): breakpoints for every ordered adjacent pair."""
    try:
        with using(limits_from(**limits, max_strategies=max_strategies)):
            case, name, mech = load_mechanism(case_path, of)
            prof = make_engine(engine, max_strategies=max_strategies).profile(mech)
    except ExactDPError as e:
        fail(e)
    d = profile_to_dict(prof)
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(f"privacy profile of {name}: delta(e^eps) for e^eps >= 1 (exact; linear between breakpoints)")
    for block, title in [(d["envelope"], "max over adjacent pairs")] + [
        (p, f"pair ({p['pair'][0]}, {p['pair'][1]})") for p in d["pairs"]
    ]:
        click.echo(f"  {title}:")
        for lam, dl in block["breakpoints"]:
            click.echo(f"    e^eps = {lam:<24} delta = {dl}")
        click.echo(f"    e^eps -> inf{'':<17} delta -> {block['limit']}")


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@limit_options
def info(case_path, of, **limits):
    """Size of a mechanism's game DAG and its number of deterministic adversaries."""
    from ..model import count_strategies, stats

    try:
        with using(limits_from(**limits)):
            case, name, mech = load_mechanism(case_path, of)
            s = stats(mech.root)
            n = count_strategies(mech.root)
    except ExactDPError as e:
        fail(e)
    click.echo(f"{name}: datasets {', '.join(mech.datasets)}; adjacent " + ", ".join(f"({a}, {b})" for a, b in (mech.pair_names(p) for p in mech.adjacent)))
    for k, v in s.items():
        click.echo(f"  {k.replace('_', ' ')}: {v}")
    shown = n if n < 10**15 or not type(n) is int else f"about 10^{len(str(n)) - 1}"  # a saturated count prints itself
    click.echo(f"  deterministic adversaries: {shown}")




@main.command()
def schema():
    """Print the JSON Schema of case-format version 1 (for editors and CI validators)."""
    from ..caseio.schema import schema_text

    click.echo(schema_text(), nl=False)
