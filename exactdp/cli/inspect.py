"""``exactdp privloss``, ``exactdp profile``, ``exactdp info``: one mechanism at a time."""

from __future__ import annotations

import click

from .. import checker
from ..analysis.engine import exact_privloss
from ..caseio.schema import schema_text
from ..certifying import game_fingerprints, symbol_values
from ..errors import ExactDPError
from ..limits import using
from ..model import count_strategies, stats
from ..numbers import ladder
from ..report import profile_to_dict
from ..report.inspect import fingerprint_lines, info_doc, info_lines, privloss_doc, privloss_lines, profile_lines
from ..report.jsonout import dumps
from .app import Common, case_options, fail, load_mechanism, main, no_latex, parse_number, running
from .draw import draw_game
from .parametric import echo_privloss, echo_profile, is_parametric, latex_option
from .renyi_fdp import print_dominating_pair

__all__ = ["privloss", "profile", "info", "schema"]


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--delta", "delta_text", default="0", show_default=True, help="delta, e.g. 0, 1/100, 1e-6.")
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--witness", is_flag=True, help="Show the adversary that makes the value tight.")
@latex_option
@case_options()
def privloss(case_path, delta_text, of, witness, as_latex, common: Common):
    """PrivLoss(M, delta) = inf{eps >= 0 : M is (eps, delta)-DP}, exactly; piecewise in the
    symbols for a mechanism with symbols.  -q prints the value only."""
    delta = _delta_or_later(delta_text)
    opts = common.opts
    with running(common) as prog:
        case, name, mech = load_mechanism(case_path, of, opts)
        if is_parametric(case, mech) or delta is None:
            echo_privloss(case, name, mech, delta_text, common, as_latex)
            return
        no_latex(as_latex)
        val, lam, w = exact_privloss(opts.make_engine(prog.callback), mech, delta, witness=witness)
    if common.as_json:
        click.echo(dumps(privloss_doc(name, delta, val, lam, opts.engine, w)))
    else:
        click.echo(ladder.text(val) if common.quiet else "\n".join(privloss_lines(name, delta, val, w)))


def _delta_or_later(delta_text: str):
    """--delta as a number, or None when it names something only the case defines (a symbol)."""
    try:
        return parse_number(delta_text, "--delta", kind="delta")
    except click.BadParameter as e:
        if "unknown name" in str(e):  # a name the case may declare: read it there
            return None
        raise


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option(
    "--dominating-pair", is_flag=True, help="Print finite (P, P') with the same profile (Zhu-Dong-Wang 2022)."
)
@latex_option
@case_options()
def profile(case_path, of, dominating_pair, as_latex, common: Common):
    """The exact privacy profile delta(e^eps): breakpoints for every ordered adjacent pair;
    for a mechanism with symbols, formulas between breakpoints, piecewise in the symbols.
    -q prints only the maximum over the pairs."""
    with running(common) as prog:
        case, name, mech = load_mechanism(case_path, of, common.opts)
        if is_parametric(case, mech):
            if dominating_pair:
                raise click.UsageError("--dominating-pair needs a mechanism without symbols")
            echo_profile(case, name, mech, common, as_latex)
            return
        no_latex(as_latex)
        prof = common.opts.make_engine(prog.callback).profile(mech)
    if dominating_pair:
        print_dominating_pair(prof, common.as_json)
        return
    d = profile_to_dict(prof)
    click.echo(dumps(d) if common.as_json else "\n".join(profile_lines(name, d, pairs=not common.quiet)))


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option(
    "--dot",
    "dot_file",
    is_flag=False,
    flag_value="-",
    default=None,
    metavar="[FILE]",
    help="Write the game as Graphviz DOT (to FILE, or stdout when no FILE is given).",
)
@click.option(
    "--svg",
    "svg_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Render the drawing to SVG (needs Graphviz).",
)
@click.option(
    "--png",
    "png_file",
    type=click.Path(dir_okay=False),
    default=None,
    help="Render the drawing to PNG (needs Graphviz).",
)
@click.option(
    "--witness",
    "witness_eps",
    default=None,
    metavar="EPS",
    help="Highlight the worst adversary at EPS (its choices, the event's views) in the drawing.",
)
@click.option("--depth", type=click.IntRange(0), default=None, help="Draw at most this many moves from the root.")
@click.option("--tree", is_flag=True, help="Draw the tree of histories instead of the game DAG (implied by --witness).")
@click.option(
    "--fingerprint",
    is_flag=True,
    help="Print the SHA-256 fingerprint of every game of the case, as the certificate checker prints it.",
)
@click.option("--at", multiple=True, metavar="SYMBOL=VALUE", help="Fingerprints at these values of the symbols.")
@case_options()
def info(case_path, of, dot_file, svg_file, png_file, witness_eps, depth, tree, fingerprint, at, common: Common):
    """Size of a mechanism's game DAG, its number of deterministic adversaries, and whether
    --engine can analyse it; with --dot, --svg or --png a drawing of the game (adversary choices
    as boxes, answers as edges with their probability under every dataset).  -q prints the
    adversary count only."""
    opts = common.opts
    drawing = dot_file is not None or svg_file is not None or png_file is not None
    if witness_eps is not None and not drawing:
        raise click.BadParameter(
            "--witness draws the adversary: give --dot, --svg or --png too", param_hint="--witness"
        )
    eps = parse_number(witness_eps, "--witness", kind="eps") if witness_eps is not None else None
    if fingerprint or at:
        _print_fingerprints(case_path, of, opts, at)
        return
    with running(common):
        case, name, mech = load_mechanism(case_path, of, opts)
        if drawing:
            draw_game(
                case, mech, eps=eps, depth=depth, dot_file=dot_file, svg_file=svg_file, png_file=png_file, tree=tree
            )
            if dot_file == "-":
                return
        s = stats(mech.root)
        n = count_strategies(mech.root)
        supported = opts.make_engine().supports(mech)
    doc = info_doc(name, mech, s, n, opts.engine, supported)
    if common.as_json:
        click.echo(dumps(doc))
    else:
        click.echo(
            doc["deterministic_adversaries"]
            if common.quiet
            else "\n".join(info_lines(doc, opts.effective_limits().max_strategies))
        )


@main.command()
def schema():
    """Print the JSON Schema of case-format version 1 (for editors and CI validators)."""
    click.echo(schema_text(), nl=False)


def _print_fingerprints(case_path: str, of: str | None, opts, at: tuple[str, ...] = ()) -> None:
    """The checker's fingerprints of the case's games: :func:`exactdp.certifying.game_fingerprints`."""
    try:
        with using(opts.effective_limits()):
            case, _, _ = load_mechanism(case_path, of, opts)
            prints, missing = game_fingerprints(case, of, at=symbol_values(at))
    except (ExactDPError, checker.Malformed) as e:
        fail(e if isinstance(e, ExactDPError) else ExactDPError(str(e)))
    click.echo("\n".join(fingerprint_lines(case_path, prints, missing)))
