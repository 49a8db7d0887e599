"""``exactdp delta`` and ``exactdp calibrate``, and the piecewise output of ``profile``,
``privloss``, ``delta`` and ``renyi`` for a mechanism with symbols (docs/parametric.md)."""

from __future__ import annotations

import click

from ..analysis import make_engine
from ..analysis.parametric import Undecided
from ..analysis.parametric.piecewise import Piece, endpoint_dict
from ..analysis.parametric.queries import delta_of, privloss_of, profile_of, renyi_of
from ..analysis.renyi import alpha_str
from ..analysis.results import value_str
from ..caseio import evaluate_in_case
from ..caseio.case import parse_claim_text
from ..claims import Analysis
from ..claims.calibrate import calibrate as calibrate_claim
from ..claims.calibrate import set_text
from ..errors import ExactDPError
from ..limits import using
from ..model.symbolic import is_symbolic_mechanism
from ..report.escape import latex_math, text
from ..report.jsonout import dumps
from ..report.parametric import (
    endpoint_lines,
    interval_dict,
    piecewise_latex,
    piecewise_lines,
    piecewise_to_dict,
    profile_latex,
    profile_lines,
    profile_to_dict,
    symbol_latex,
)
from .app import Common, EngineProgress, case_options, fail, load_mechanism, main

__all__ = ["delta", "calibrate", "is_parametric", "echo_profile", "echo_privloss", "echo_renyi", "latex_option"]

latex_option = click.option(
    "--latex", "as_latex", is_flag=True, help="With symbols: the piecewise closed form as a LaTeX cases environment."
)


def is_parametric(case, mech) -> bool:
    """Whether the mechanism has probabilities in the case's symbols."""
    return bool(case.symbols) and is_symbolic_mechanism(mech)


def _number(case, text_value: str, what: str, kind: str):
    """A number from the command line, read in the case's params and symbols."""
    return evaluate_in_case(case, text_value, what, kind=kind)


def _undecided(e: Undecided) -> None:
    click.echo("exactdp: undecided: " + text(str(e)), err=True)
    raise SystemExit(2)


def echo_profile(case, name: str, mech, common: Common, as_latex: bool) -> None:
    """Print the piecewise profile of a mechanism with symbols."""
    try:
        pw = profile_of(mech, case.symbols)
    except Undecided as e:
        _undecided(e)
    if common.as_json:
        click.echo(dumps(profile_to_dict(name, pw)))
    elif as_latex:
        click.echo(profile_latex(name, pw))
    else:
        for line in profile_lines(name, pw, pairs=not common.quiet):
            click.echo(line)


def echo_privloss(case, name: str, mech, delta_text: str, common: Common, as_latex: bool) -> None:
    """Print PrivLoss(M, delta) piecewise."""
    d = _number(case, delta_text, "--delta", "delta")
    try:
        pw = privloss_of(mech, case.symbols, d)
    except Undecided as e:
        _undecided(e)
    shown = text(f"PrivLoss({name}, {delta_text})")
    if common.as_json:
        click.echo(dumps(piecewise_to_dict(pw, mechanism=name, delta=delta_text, quantity="privloss")))
    elif as_latex:
        click.echo(piecewise_latex(pw, rf"\mathrm{{PrivLoss}}({latex_math(name)}, {latex_math(delta_text)})"))
    else:
        for line in piecewise_lines(pw, shown):
            click.echo(line)


def echo_renyi(case, name: str, mech, alphas: list, common: Common, as_latex: bool) -> None:
    """Print D_alpha(M) piecewise for each alpha."""

    results = []
    try:
        for a in alphas:
            results.append((a, renyi_of(mech, case.symbols, a)))
    except Undecided as e:
        _undecided(e)
    if common.as_json:
        click.echo(
            dumps(
                {
                    "mechanism": name,
                    "values": [piecewise_to_dict(pw, alpha=alpha_str(a), quantity="renyi") for a, pw in results],
                }
            )
        )
        return
    for a, pw in results:
        if as_latex:
            click.echo(piecewise_latex(pw, rf"D_{{{alpha_str(a)}}}({latex_math(name)})"))
        else:
            for line in piecewise_lines(pw, text(f"D_{alpha_str(a)}({name})")):
                click.echo(line)


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--eps", "eps_text", required=True, help="eps, e.g. log(3), 0.1, or log(E) with a symbol E.")
@click.option("--of", default=None, help="Mechanism name (default M).")
@latex_option
@case_options()
def delta(case_path, eps_text, of, as_latex, common: Common):
    """delta_M(e^eps): the largest hockey-stick divergence at e^eps over adjacent pairs and
    adaptive adversaries (Vadhan-Wang Def. 1.7), exactly; piecewise in the symbols for a
    mechanism with symbols.  -q prints the value only."""
    opts = common.opts
    try:
        with using(opts.effective_limits()), EngineProgress(common.progress) as prog:
            case, name, mech = load_mechanism(case_path, of, opts)
            eps = _number(case, eps_text, "--eps", "eps")
            if is_parametric(case, mech) or hasattr(eps, "free_symbols"):
                try:
                    pw = delta_of(mech, case.symbols, eps, is_lambda=False)
                except Undecided as e:
                    _undecided(e)
                if common.as_json:
                    click.echo(dumps(piecewise_to_dict(pw, mechanism=name, eps=eps_text, quantity="delta")))
                elif as_latex:
                    click.echo(piecewise_latex(pw, rf"\delta_{{{latex_math(name)}}}(e^{{{latex_math(eps_text)}}})"))
                else:
                    for line in piecewise_lines(pw, text(f"delta_{name}(e^({eps_text}))")):
                        click.echo(line)
                return

            prof = make_engine(opts.engine, max_strategies=opts.max_strategies, progress=prog.callback).profile(mech)
            val = prof.delta_at(eps)
    except ExactDPError as e:
        fail(e)
    if as_latex:
        raise click.UsageError("--latex prints a piecewise closed form: it needs a mechanism with symbols")
    shown = value_str(val)
    if common.as_json:
        click.echo(dumps({"mechanism": name, "eps": eps_text, "delta": shown, "engine": opts.engine}))
    elif common.quiet:
        click.echo(shown)
    else:
        click.echo(text(f"delta_{name}(e^({eps_text})) = {shown}"))


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option(
    "--target",
    required=True,
    help='The claim to calibrate, as in a case file: "dp: {eps: log(2), delta: 1/10}" (any claim kind).',
)
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--symbol", default=None, help="The symbol to calibrate (default: the one the answer depends on).")
@click.option(
    "--digits", type=click.IntRange(15, 1000), default=16, show_default=True, help="Decimal digits of each end."
)
@latex_option
@case_options()
def calibrate(case_path, target, of, symbol, digits, as_latex, common: Common):
    """The exact set of values of a symbol where the target claim holds: a union of intervals
    with exact endpoints (rational, or algebraic: minimal polynomial and isolating interval),
    each also as a decimal whose printed digits are all proved."""
    opts = common.opts
    try:
        with using(opts.effective_limits()):
            case, name, _mech = load_mechanism(case_path, of, opts)
            claim = parse_claim_text(case, target, of=name)
            an = Analysis(case.mechanisms, symbols=case.symbols)
            try:
                cal = calibrate_claim(claim, an, symbol=symbol)
            except Undecided as e:
                _undecided(e)
    except ExactDPError as e:
        fail(e)
    found = set_text(cal.intervals, cal.symbol)
    if common.as_json:
        ivs = []
        for iv in cal.intervals:
            d = interval_dict(iv)
            for end in ("lo", "hi"):
                if d[end] is not None:
                    d[end] = endpoint_dict(getattr(iv, end), iv.name, digits=digits)
            d["text"] = iv.text()
            ivs.append(d)
        click.echo(
            dumps(
                {
                    "mechanism": name,
                    "target": claim.statement(),
                    "symbol": cal.symbol,
                    "domain": cal.domain.describe(),
                    "holds_for": ivs,
                    "cells": cal.cells,
                }
            )
        )
        return
    if as_latex:
        n = symbol_latex(cal.symbol)
        body = r" \;\vee\; ".join(iv.latex(n) for iv in cal.intervals) or r"\text{never}"
        click.echo(body)
        return
    click.echo(text(f"{claim.statement()} holds exactly where: {found}"))
    click.echo(text(f"  (over {cal.domain.describe()}; {cal.cells} cells decided exactly)"))

    ends = endpoint_lines(Piece(tuple(cal.intervals), None, []), digits=digits, rationals=True)  # type: ignore[arg-type]
    for line in ends:
        click.echo(f"  where {line}")
