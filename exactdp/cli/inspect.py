"""``exactdp privloss``, ``exactdp profile``, ``exactdp info``: one mechanism at a time."""

from __future__ import annotations

import sys

import click

from ..analysis import make_engine, query
from ..caseio import evaluate_in_case
from ..caseio.files import format_clash
from ..caseio.schema import schema_text
from ..certifying import game_fingerprints, symbol_values
from ..limits import using
from ..model import count_strategies, stats
from ..report.dot import drawing_dot, render_graphviz
from ..report.escape import text
from ..report.inspect import fingerprint_output, info_doc, info_output
from ..report.query import privloss_text, profile_text
from .helptext import command
from .options import PathArg, Query, emit, flag, parse_number, query_options, write_output

__all__ = ["privloss", "profile", "info", "schema"]

_IMAGE = PathArg(dir_okay=False)


@command()
@click.option("--delta", "delta_text", default="0", help="delta, e.g. 0, 1/100, 1e-6.")
@flag("--witness", help="Show the adversary that makes the value tight.")
@query_options(latex=True)
def privloss(delta_text, witness, q: Query):
    """PrivLoss(M, delta) = inf{eps >= 0 : M is (eps, delta)-DP}, exactly; piecewise in the
    symbols for a mechanism with symbols.  -q prints the value only."""
    try:
        delta = parse_number(delta_text, "--delta", kind="delta")
    except click.BadParameter as e:
        if "unknown name" not in str(e):
            raise
        delta = None  # a name the case may declare (a symbol): read it there
    with q.loaded() as (case, name, mech, prog):
        if delta is None or query.has_symbols(case.symbols, mech):
            delta = evaluate_in_case(case, delta_text, "--delta", kind="delta")
        q.latex_if(query.answers_piecewise(case.symbols, mech, delta))
        answer = query.privloss(mech, case.symbols, delta, q.opts.make_engine(prog.callback), witness=witness)
    emit(privloss_text(name, delta_text, delta, answer, q.fmt, q.opts.engine, quiet=q.quiet))


@command()
@flag("--dominating-pair", help="Print finite (P, P') with the same profile (Zhu-Dong-Wang 2022).")
@query_options(latex=True)
def profile(dominating_pair, q: Query):
    """The exact privacy profile delta(e^eps): breakpoints for every ordered adjacent pair;
    for a mechanism with symbols, formulas between breakpoints, piecewise in the symbols.
    -q prints only the maximum over the pairs."""
    with q.loaded() as (case, name, mech, prog):
        if query.has_symbols(case.symbols, mech) and dominating_pair:
            raise click.UsageError("--dominating-pair needs a mechanism without symbols")
        q.latex_if(query.has_symbols(case.symbols, mech))
        answer = query.profile(mech, case.symbols, q.opts.make_engine(prog.callback))
    emit(profile_text(name, answer, q.fmt, pairs=not q.quiet, dominating=dominating_pair))


@command()
@click.option(
    "--dot",
    "dot_file",
    is_flag=False,
    flag_value="-",
    metavar="[FILE]",
    help="Write the game as Graphviz DOT (to FILE, or stdout when no FILE is given).",
)
@click.option("--svg", "svg_file", type=_IMAGE, help="Render the drawing to SVG (needs Graphviz).")
@click.option("--png", "png_file", type=_IMAGE, help="Render the drawing to PNG (needs Graphviz).")
@click.option(
    "--witness",
    "witness_eps",
    metavar="EPS",
    help="Highlight the worst adversary at EPS (its choices, the event's views) in the drawing.",
)
@click.option("--depth", type=click.IntRange(0), help="Draw at most this many moves from the root.")
@flag("--tree", help="Draw the tree of histories instead of the game DAG (implied by --witness).")
@flag(
    "--fingerprint",
    help="Print the SHA-256 fingerprint of every game of the case, as the certificate checker prints it.",
)
@click.option("--at", multiple=True, metavar="SYMBOL=VALUE", help="Fingerprints at these values of the symbols.")
@query_options()
def info(dot_file, svg_file, png_file, witness_eps, depth, tree, fingerprint, at, q: Query):
    """Size of a mechanism's game DAG, its number of deterministic adversaries, and whether
    --engine can analyse it; with --dot, --svg or --png a drawing of the game (adversary choices
    as boxes, answers as edges with their probability under every dataset).  -q prints the
    adversary count only."""
    files = {fmt: path for fmt, path in (("dot", dot_file), ("svg", svg_file), ("png", png_file)) if path is not None}
    if witness_eps is not None and not files:
        raise click.BadParameter("--witness draws the adversary: add --dot, --svg or --png", param_hint="--witness")
    if clash := next(filter(None, (format_clash(path, fmt) for fmt, path in files.items())), None):
        raise click.BadParameter(clash, param_hint="--dot, --svg or --png")
    eps = parse_number(witness_eps, "--witness", kind="eps") if witness_eps is not None else None
    if fingerprint or at:  # the checker's fingerprints (exactdp.certifying.game_fingerprints)
        with using(q.opts.effective_limits()):
            case, _, _ = q.load()
            prints, missing = game_fingerprints(case, q.of, at=symbol_values(at))
        return emit(fingerprint_output(q.case_path, prints, missing, q.as_json))
    with q.loaded() as (case, name, mech, _):
        if files:
            w = make_engine("profile").witness(mech, eps) if eps is not None else None
            cut, src = drawing_dot(mech, case, depth=depth, witness=w, tree=tree)
            if cut is not None:
                emit(text(cut), file=sys.stderr)
            _write_drawing(mech.name, src, files, q.case_path)
            if "-" in files.values():  # (an image on stdout: nothing after it)
                return
        s, n, supported = stats(mech.root), count_strategies(mech.root), q.opts.make_engine().supports(mech)
    doc = info_doc(name, mech, s, n, q.opts.engine, supported)
    limit = q.opts.effective_limits().max_strategies
    emit(info_output(doc, as_json=q.as_json, quiet=q.quiet, max_strategies=limit))


def _write_drawing(name: str, src: str, files: dict[str, str], case_path: str) -> None:
    """The DOT text ``src`` of the drawing of mechanism ``name`` written (``dot``: ``-`` is stdout) and
    rendered by Graphviz (``svg``, ``png``) to the files asked for; never over the case, nor twice to a file."""
    for k, (fmt, path) in enumerate(files.items()):
        data, reads = (src if fmt == "dot" else render_graphviz(src, fmt)), [case_path, *list(files.values())[:k]]
        write_output(path, data, None if path == "-" else f"the drawing of {name} ({fmt.upper()})", reads)


@command()
def schema():
    """Print the JSON Schema of case-format version 1 (for editors and CI validators)."""
    emit(schema_text(), nl=False)
