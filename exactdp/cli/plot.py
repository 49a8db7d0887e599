"""``exactdp plot``: pictures of exact privacy profiles and privacy regions (matplotlib extra)."""

from __future__ import annotations

from pathlib import Path

import click

from ..caseio import load_case
from ..claims.composition import COMPOSITION_THEOREMS
from ..errors import ExactDPError
from ..figures import case_plot_data
from ..limits import using
from ..report.escape import text
from ..report.plot import KINDS, draw, plot_summary, save
from .helptext import command, fail
from .options import OPTION, Common, PathArg, case_options, emit

__all__ = ["plot"]

FORMATS = ("png", "svg", "pdf")


@command()
@OPTION["case"]
@click.option("-o", "--output", required=True, type=PathArg(dir_okay=False), help="FILE.png, FILE.svg or FILE.pdf.")
@click.option(
    "--kind",
    type=click.Choice(list(KINDS)),
    default="profile",
    help="profile: delta against eps >= 0; region: the trade-off curve (privacy region) with its exact vertices.",
)
@click.option("--of", help="Comma-separated mechanisms to overlay (default: the composition claim, else M).")
@click.option(
    "--bound",
    type=click.Choice(COMPOSITION_THEOREMS),
    help="Overlay this composition theorem's bound (components: the composition claim, else the --of mechanisms).",
)
@click.option("--claim", type=click.IntRange(1), help="Which composition claim of the case (1 = the first).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Default: from the file name's suffix.")
@case_options()
def plot(case_path, output, kind, of, bound, claim, fmt, common: Common):
    """Draw exact privacy curves: axes in eps (not e^eps), exact vertices marked, a legend with
    the mechanisms' names, the case's name and reference as title.  Needs the optional extra
    'plot' (pip install 'exactdp[plot]')."""
    fmt = fmt or Path(output).suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise click.BadParameter(
            f"cannot tell the format of {text(output)!s}: use .png, .svg or .pdf, or --format", param_hint="-o"
        )
    names = [n.strip() for n in of.split(",")] if of else None
    if names is not None and not all(names):
        raise click.BadParameter("empty name in the comma-separated list", param_hint="--of")
    opts = common.opts
    try:
        with using(opts.effective_limits()):
            case = load_case(case_path, yaml_limits=opts.yaml_limits, max_problems=opts.max_problems)
            data = case_plot_data(case, opts.make_engine(), of=names, bound=bound, claim=claim, kind=kind)
        save(draw(data, kind), output, fmt)
    except OSError as e:
        fail(ExactDPError(f"cannot write {output}: {e.strerror or e}"))
    emit(plot_summary(data, output, kind, as_json=common.as_json))
