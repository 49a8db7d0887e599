"""``exactdp verify``: check every claim in case files."""

from __future__ import annotations

import sys

import click

from ..caseio import YamlLimits
from ..errors import ExactDPError
from ..report import Marks, render_run, run_to_json
from ..verify import Options, verify_paths
from .app import (
    _stderr_progress,
    engine_option,
    fail,
    limit_options,
    limits_from,
    main,
    max_strategies_option,
)

__all__ = ["verify"]


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report on stdout.")
@engine_option
@max_strategies_option
@click.option("--witness", is_flag=True, help="Also show the tight adversary for privloss claims that hold.")
@limit_options
@click.option("--max-problems", type=click.IntRange(1), default=20, show_default=True, help="Stop reading a case after this many problems.")
@click.option("--max-file-bytes", type=click.IntRange(1), default=YamlLimits.max_bytes, show_default=True)
@click.option("--max-yaml-nodes", type=click.IntRange(1), default=YamlLimits.max_expanded_nodes, show_default=True, help="Limit on the alias-expanded size of a YAML document.")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr (default: when stderr is a terminal).")
@click.option("-q", "--quiet", is_flag=True, help="Only failing claims and the summary.")
@click.option("--ascii", "ascii_only", is_flag=True, help="ASCII marks instead of ✓/✗.")
def verify(paths, as_json, engine, max_strategies, witness, max_problems, max_file_bytes, max_yaml_nodes, progress, quiet, ascii_only, **limits):
    """Check every claim in the case files (directories are searched for *.yaml).

    Exit 0 when every claim holds, 1 when some claim does not, 2 when a file is not a valid
    case (the message names the file, the place in it and what is wrong).
    """
    show = sys.stderr.isatty() if progress is None else progress
    on_file, prog = _stderr_progress(show)
    opts = Options(
        engine=engine,
        witness=witness,
        yaml_limits=YamlLimits(max_bytes=max_file_bytes, max_expanded_nodes=max_yaml_nodes),
        max_problems=max_problems,
        progress=prog,
        limits=limits_from(**limits, max_strategies=max_strategies),
    )
    try:
        run = verify_paths(paths, opts, on_file=on_file)
    except ExactDPError as e:
        fail(e)
    if not run.files:
        click.echo("exactdp: no case files found under " + ", ".join(paths), err=True)
        sys.exit(2)
    if as_json:
        click.echo(run_to_json(run))
    else:
        enc = (sys.stdout.encoding or "").lower()
        click.echo(render_run(run, Marks(ascii_only or "utf" not in enc), quiet=quiet))
    sys.exit(run.exit_code)


