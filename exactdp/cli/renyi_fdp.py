"""``exactdp renyi``, ``exactdp zcdp``, ``exactdp convert`` and ``exactdp tradeoff``: Rényi
divergences (at any order), zCDP, conversions to (ε, δ)-DP and f-DP trade-off functions."""

from __future__ import annotations

import json

import click

from ..analysis import query
from ..analysis.renyi_real import parse_orders, renyi_any_witness
from ..analysis.tradeoff import envelope_tradeoff, pair_tradeoffs
from ..analysis.tradeoff_points import vertex_tests
from ..analysis.zcdp import check_zcdp
from ..caseio.case import parse_claim_text
from ..claims.base import Analysis
from ..claims.renyi import ConversionClaim
from ..claims.symbols import check_claim
from ..errors import ExactDPError, LimitExceededError
from ..forms.fields import FieldProblem
from ..numbers.rational import Q
from ..report import renyi_fdp as render
from ..report.query import renyi_text
from ..theorems.named import CONVERSIONS
from .helptext import command
from .options import Query, emit, flag, parse_number, query_options

__all__ = ["renyi", "zcdp", "convert", "tradeoff"]


def _alphas(text: str, max_orders: int) -> list:
    """The orders of ``--alpha`` (:func:`exactdp.analysis.renyi_real.parse_orders`)."""
    try:
        return parse_orders(text, max_orders)
    except LimitExceededError:
        raise
    except ExactDPError as e:
        raise click.BadParameter(str(e), param_hint="--alpha") from None


@command()
@click.option(
    "--alpha",
    "alpha_text",
    default="2",
    help="Orders, e.g. 2,3,3/2,2.5,inf (1 is KL); a non-integer order gives a certified enclosure.",
)
@flag("--witness", "show_witness", help="Also show the adversary attaining each value.")
@query_options(latex=True)
def renyi(alpha_text, show_witness, q: Query):
    """D_alpha(M): the Renyi divergence of order alpha against every adaptive adversary, exact
    for whole orders (certified enclosures for real orders such as 3/2); piecewise in the
    symbols for a mechanism with symbols."""
    alphas = _alphas(alpha_text, q.opts.effective_limits().max_orders)
    with q.loaded() as (case, name, mech, _):
        exact = not query.has_symbols(case.symbols, mech)
        q.latex_if(not exact)
        answers = query.renyi(mech, case.symbols, alphas, q.opts.make_engine())
        witnesses = [renyi_any_witness(mech, r) if show_witness and exact else None for _, r in answers]
    emit(renyi_text(name, answers, q.fmt, q.opts.engine, witnesses))


@command()
@click.option("--rho", "rho_text", required=True, help="The zCDP parameter rho, e.g. 1/8, 0.125 or log(2)^2/2.")
@query_options()
def zcdp(rho_text, q: Query):
    """Whether M is rho-zCDP (Bun-Steinke 2016): D_alpha <= rho*alpha for every real alpha > 1,
    decided by certified branch and bound over alpha (undecided when D_alpha/alpha touches rho);
    for every value of the symbols for a mechanism with symbols (rho may name them)."""
    with q.loaded() as (case, name, mech, _):
        claim = parse_claim_text(case, f"zcdp: {{rho: {json.dumps(rho_text)}}}", of=name, where="--rho")
        if query.has_symbols(case.symbols, mech):  # (rho: 1/8, log(2)^2/2, or naming the symbols)
            v = check_claim(claim, Analysis(case.mechanisms, symbols=case.symbols))
            return emit(render.verdict_output(name, v, q.as_json))
        res = check_zcdp(mech, claim.rho, q.opts.make_engine().profile(mech).privloss(Q(0)))  # type: ignore[attr-defined]
    emit(render.zcdp_output(name, res, rho_text, q.as_json))


@command()
@flag(
    "--witness",
    "show_tests",
    help="Also show, for each vertex of T(M), the adversary and rejection region attaining it.",
)
@query_options()
def tradeoff(show_tests, q: Query):
    """The exact f-DP trade-off function T(M) (Dong-Roth-Su 2022) of the envelope and of every
    ordered adjacent pair, by its vertices (type I error alpha, type II error beta)."""
    with q.loaded() as (_case, name, mech, _):
        prof = q.opts.make_engine().profile(mech)
        tests = vertex_tests(mech, prof) if show_tests else None
    emit(render.tradeoff_output(name, envelope_tradeoff(prof), pair_tradeoffs(prof), tests, q.as_json))


@command()
@click.option("--theorem", "which", type=click.Choice(CONVERSIONS), required=True, help="The conversion theorem.")
@click.option("--delta", "delta_text", required=True, help="The delta of the (eps, delta)-DP statement.")
@click.option("--alpha", "alpha_text", help="The Renyi order (renyi-to-dp, renyi-to-dp-cks).")
@click.option("--rho", "rho_text", help="The zCDP parameter (zcdp-to-dp, zcdp-to-dp-cks).")
@query_options()
def convert(which, delta_text, alpha_text, rho_text, q: Query):
    """A conversion theorem to (eps, delta)-DP (Renyi DP: Mironov 2017, Canonne-Kamath-Steinke
    2020; zCDP: Bun-Steinke 2016, and Canonne-Kamath-Steinke at the best order) evaluated for M, beside M's exact PrivLoss(M, delta)."""
    delta = parse_number(delta_text, "--delta", kind="field delta")
    alpha = _alphas(alpha_text, 1)[0] if alpha_text is not None else None
    rho = parse_number(rho_text, "--rho", kind="positive") if rho_text is not None else None
    try:
        with q.loaded() as (_case, name, mech, _):
            claim = ConversionClaim(of=name, theorem=which, delta=delta, alpha=alpha, rho=rho)
            claim.validate()
            v = claim.check(Analysis({name: mech}, q.opts.make_engine()))
    except FieldProblem as e:
        raise click.UsageError(e.message + (f" ({e.hint})" if e.hint else "")) from None
    emit(render.conversion_output(name, v, q.as_json))
