"""The ``exactdp`` command line.

Exit status: 0 every claim holds; 1 some claim does not hold (or is not supported yet);
2 invalid input (a case file, an option) or a limit was hit; 3 an internal cross-check failed
(a bug in exactdp: please report it).
"""

from __future__ import annotations

import sys
import time
import traceback
from typing import Any

import click

from . import __version__
from .analysis import ENGINES, format_privloss
from .analysis.tight import privloss_witness
from .caseio import YamlLimits, load_case
from .errors import ExactDPError, VerificationError
from .numbers.expr import ExprError, eval_text
from .numbers.rational import as_q, is_rational, q_str
from .numbers.real import Infinity, LogReal, real_sign, real_str
from .report import Marks, profile_to_dict, render_run, render_witness, run_to_json, witness_to_dict
from .report.jsonout import dumps
from .verify import Options, verify_paths

__all__ = ["main", "run"]


def _stderr_progress(enabled: bool):
    if not enabled:
        return None, None
    last = [0.0]

    def on_file(k: int, n: int, f) -> None:
        click.echo(f"[{k + 1}/{n}] {f}", err=True)

    def progress(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] > 0.5:
            last[0] = now
            click.echo(f"\r  {stage}: {100 * done // max(total, 1)}% of {total} nodes", err=True, nl=False)

    return on_file, progress


def _number(text: str, what: str, *, kind: str) -> Any:
    try:
        v = eval_text(text)
    except ExprError as e:
        raise click.BadParameter(f"{what} {text!r}: {e.message}") from None
    if kind == "delta":
        if not is_rational(v) or not (0 <= v <= 1):
            raise click.BadParameter(f"{what} must be an exact rational in [0, 1], got {real_str(v)}")
        return as_q(v)
    if isinstance(v, Infinity) or not (is_rational(v) or isinstance(v, LogReal)) or real_sign(v) < 0:
        raise click.BadParameter(f"{what} must be an eps >= 0 such as log(3) or 1/10, got {real_str(v)}")
    return as_q(v) if is_rational(v) else v


def _fail(e: Exception) -> None:
    code = 3 if isinstance(e, VerificationError) else 2
    click.echo(f"exactdp: {e}", err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="exactdp")
def main() -> None:
    """Exact differential-privacy verdicts for small finite interactive mechanisms."""


_engine = click.option(
    "--engine",
    type=click.Choice(sorted(ENGINES)),
    default="profile",
    show_default=True,
    help="profile: exact backward induction (fast); enumerator: brute force over every deterministic adversary (the reference).",
)
_max_strat = click.option(
    "--max-strategies", type=click.IntRange(1), default=None, help="Enumerator limit on the number of adversaries."
)


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report on stdout.")
@_engine
@_max_strat
@click.option("--witness", is_flag=True, help="Also show the tight adversary for privloss claims that hold.")
@click.option("--timeout", type=click.FloatRange(0, min_open=True), default=None, help="Wall-clock limit per case file, in seconds.")
@click.option("--max-file-bytes", type=click.IntRange(1), default=YamlLimits.max_bytes, show_default=True)
@click.option("--max-yaml-nodes", type=click.IntRange(1), default=YamlLimits.max_expanded_nodes, show_default=True, help="Limit on the alias-expanded size of a YAML document.")
@click.option("--progress/--no-progress", default=None, help="Progress on stderr (default: when stderr is a terminal).")
@click.option("-q", "--quiet", is_flag=True, help="Only failing claims and the summary.")
@click.option("--ascii", "ascii_only", is_flag=True, help="ASCII marks instead of ✓/✗.")
def verify(paths, as_json, engine, max_strategies, witness, timeout, max_file_bytes, max_yaml_nodes, progress, quiet, ascii_only):
    """Check every claim in the case files (directories are searched for *.yaml).

    Exit 0 when every claim holds, 1 when some claim does not, 2 when a file is not a valid
    case (the message names the file, the place in it and what is wrong).
    """
    show = sys.stderr.isatty() if progress is None else progress
    on_file, prog = _stderr_progress(show)
    opts = Options(
        engine=engine,
        max_strategies=max_strategies,
        witness=witness,
        timeout=timeout,
        yaml_limits=YamlLimits(max_bytes=max_file_bytes, max_expanded_nodes=max_yaml_nodes),
        progress=prog,
    )
    try:
        run = verify_paths(paths, opts, on_file=on_file)
    except ExactDPError as e:
        _fail(e)
    if not run.files:
        click.echo("exactdp: no case files found under " + ", ".join(paths), err=True)
        sys.exit(2)
    if as_json:
        click.echo(run_to_json(run))
    else:
        enc = (sys.stdout.encoding or "").lower()
        click.echo(render_run(run, Marks(ascii_only or "utf" not in enc), quiet=quiet))
    sys.exit(run.exit_code)


def _load(case_path: str, of: str | None):
    case = load_case(case_path)
    name = of or ("M" if "M" in case.mechanisms else next(iter(case.mechanisms)))
    if name not in case.mechanisms:
        raise click.BadParameter(f"no mechanism named {name!r} in {case_path}; defined: {', '.join(case.mechanisms)}")
    return case, name, case.mechanisms[name]


@main.command()
@click.argument("case_path", metavar="CASE", type=click.Path())
@click.option("--delta", "delta_text", default="0", show_default=True, help="delta, e.g. 0, 1/100, 1e-6.")
@click.option("--of", default=None, help="Mechanism name (default M).")
@click.option("--witness", is_flag=True, help="Show the adversary that makes the value tight.")
@click.option("--json", "as_json", is_flag=True)
@_engine
@_max_strat
def privloss(case_path, delta_text, of, witness, as_json, engine, max_strategies):
    """PrivLoss(M, delta) = inf{eps >= 0 : M is (eps, delta)-DP}, exactly."""
    delta = _number(delta_text, "--delta", kind="delta")
    try:
        case, name, mech = _load(case_path, of)
        eng = ENGINES[engine]
        kw = {"max_strategies": max_strategies} if engine == "enumerator" and max_strategies else {}
        prof = eng.profile(mech, **kw)
        val = prof.privloss(delta)
        w = privloss_witness(eng, mech, delta, prof, **kw) if witness else None
    except ExactDPError as e:
        _fail(e)
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
@_engine
@_max_strat
def profile(case_path, of, as_json, engine, max_strategies):
    """The exact privacy profile delta(e^eps): breakpoints for every ordered adjacent pair."""
    try:
        case, name, mech = _load(case_path, of)
        kw = {"max_strategies": max_strategies} if engine == "enumerator" and max_strategies else {}
        prof = ENGINES[engine].profile(mech, **kw)
    except ExactDPError as e:
        _fail(e)
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
def info(case_path, of):
    """Size of a mechanism's game DAG and its number of deterministic adversaries."""
    from .model import count_strategies, stats

    try:
        case, name, mech = _load(case_path, of)
    except ExactDPError as e:
        _fail(e)
    s = stats(mech.root)
    click.echo(f"{name}: datasets {', '.join(mech.datasets)}; adjacent " + ", ".join(f"({a}, {b})" for a, b in (mech.pair_names(p) for p in mech.adjacent)))
    for k, v in s.items():
        click.echo(f"  {k.replace('_', ' ')}: {v}")
    n = count_strategies(mech.root)
    click.echo(f"  deterministic adversaries: {n if n < 10**15 else f'about 10^{len(str(n)) - 1}'}")


def run() -> None:
    """Console entry point: like ``main`` but an unexpected exception is reported as an
    internal error (exit 3) instead of escaping."""
    try:
        main(standalone_mode=True)
    except SystemExit:
        raise
    except Exception:
        click.echo("exactdp: internal error (please report it with the case file):", err=True)
        traceback.print_exc()
        sys.exit(3)

