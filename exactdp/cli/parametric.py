"""``exactdp delta`` and ``exactdp calibrate``, and the piecewise output of ``profile``,
``privloss``, ``delta`` and ``renyi`` for a mechanism with symbols (docs/parametric.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from ..analysis.parametric import Undecided
from ..analysis.parametric.queries import delta_of, privloss_of, profile_of, renyi_of
from ..analysis.results import value_str
from ..caseio import evaluate_in_case
from ..caseio.case import parse_claim_text
from ..claims import Analysis
from ..claims.calibrate import calibrate as calibrate_claim
from ..model.symbolic import is_symbolic_mechanism
from ..report.escape import text
from ..report.jsonout import dumps
from ..report.parametric import calibration_output, delta_output, privloss_output, profile_output, renyi_output
from .helptext import command
from .options import OPTION, Common, case_options, load_mechanism, no_latex, running

__all__ = [
    "delta",
    "calibrate",
    "is_parametric",
    "echo_profile",
    "echo_privloss",
    "echo_renyi",
    "output_format",
]


def is_parametric(case, mech) -> bool:
    """Whether the mechanism has probabilities in the case's symbols."""
    return bool(case.symbols) and is_symbolic_mechanism(mech)


def output_format(common: Common, as_latex: bool) -> str:
    """``json`` (``--json``), ``latex`` (``--latex``) or ``text``."""
    return "json" if common.as_json else "latex" if as_latex else "text"


def _decided(query: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """``query(*args, **kw)``; an answer that could not be decided ends the command (exit 2)."""
    try:
        return query(*args, **kw)
    except Undecided as e:
        click.echo("exactdp: undecided: " + text(str(e)), err=True)
        raise SystemExit(2) from None


def echo_profile(case, name: str, mech, common: Common, as_latex: bool) -> None:
    """Print the piecewise profile of a mechanism with symbols."""
    pw = _decided(profile_of, mech, case.symbols)
    click.echo(profile_output(name, pw, output_format(common, as_latex), pairs=not common.quiet))


def echo_privloss(case, name: str, mech, delta_text: str, common: Common, as_latex: bool) -> None:
    """Print PrivLoss(M, delta) piecewise."""
    d = evaluate_in_case(case, delta_text, "--delta", kind="delta")
    pw = _decided(privloss_of, mech, case.symbols, d)
    click.echo(privloss_output(name, delta_text, pw, output_format(common, as_latex)))


def echo_renyi(case, name: str, mech, alphas: list, common: Common, as_latex: bool) -> None:
    """Print D_alpha(M) piecewise for each alpha."""
    results = [(a, _decided(renyi_of, mech, case.symbols, a)) for a in alphas]
    click.echo(renyi_output(name, results, output_format(common, as_latex)))


@command()
@OPTION["case"]
@click.option("--eps", "eps_text", required=True, help="eps, e.g. log(3), 0.1, or log(E) with a symbol E.")
@OPTION["of"]
@OPTION["latex"]
@case_options()
def delta(case_path, eps_text, of, as_latex, common: Common):
    """delta_M(e^eps): the largest hockey-stick divergence at e^eps over adjacent pairs and
    adaptive adversaries (Vadhan-Wang Def. 1.7), exactly; piecewise in the symbols for a
    mechanism with symbols.  -q prints the value only."""
    opts = common.opts
    with running(common) as prog:
        case, name, mech = load_mechanism(case_path, of, opts)
        eps = evaluate_in_case(case, eps_text, "--eps", kind="eps")
        if is_parametric(case, mech) or hasattr(eps, "free_symbols"):
            pw = _decided(delta_of, mech, case.symbols, eps, is_lambda=False)
            click.echo(delta_output(name, eps_text, pw, output_format(common, as_latex)))
            return
        val = opts.make_engine(prog.callback).profile(mech).delta_at(eps)
    no_latex(as_latex)
    shown = value_str(val)
    if common.as_json:
        click.echo(dumps({"mechanism": name, "eps": eps_text, "delta": shown, "engine": opts.engine}))
    else:
        click.echo(shown if common.quiet else text(f"delta_{name}(e^({eps_text})) = {shown}"))


@command()
@OPTION["case"]
@click.option(
    "--target",
    required=True,
    help='The claim to calibrate, as in a case file: "dp: {eps: log(2), delta: 1/10}" (any claim kind).',
)
@OPTION["of"]
@click.option("--symbol", default=None, help="The symbol to calibrate (default: the one the answer depends on).")
@click.option(
    "--digits", type=click.IntRange(15, 1000), default=16, show_default=True, help="Decimal digits of each end."
)
@OPTION["latex"]
@case_options()
def calibrate(case_path, target, of, symbol, digits, as_latex, common: Common):
    """The exact set of values of a symbol where the target claim holds: a union of intervals
    with exact endpoints (rational, or algebraic: minimal polynomial and isolating interval),
    each also as a decimal whose printed digits are all proved."""
    with running(common):
        case, name, _mech = load_mechanism(case_path, of, common.opts)
        claim = parse_claim_text(case, target, of=name)
        an = Analysis(case.mechanisms, symbols=case.symbols)
        cal = _decided(calibrate_claim, claim, an, symbol=symbol)
    fmt = output_format(common, as_latex)
    click.echo(calibration_output(name, claim.statement(), cal, fmt, digits=digits))
