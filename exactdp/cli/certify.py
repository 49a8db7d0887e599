"""``exactdp certify``: ``verify`` (the same options, report and exit status) run with a verdict
hook (:class:`exactdp.certifying.CertificateWriter`) that writes each decided claim's certificate
for the standalone checker (docs/certificates.md)."""

from __future__ import annotations

import sys

import click

from ..certifying import CertificateWriter
from ..errors import ExactDPError
from ..verify import verdict_hook
from .helptext import command, error_line
from .options import PathArg, emit, flag
from .verify import verify as verify_command

__all__ = ["certify"]


@command()
@click.option(
    "-o", "--output", "outdir", required=True, type=PathArg(file_okay=False), help="Directory for the certificates."
)
@flag("--show-game", help="Print the game of every certificate written (once per mechanism).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "latex"]),
    default="json",
    help="latex: also write a proof appendix <n>-<kind>.tex next to each certificate.",
)
@flag("--check", "self_check", help="Run the standalone checker on every certificate written.")
@click.pass_context
def certify(ctx, outdir, show_game, fmt, self_check, **verify_options):
    """Check every claim like `verify` (same report, same exit status) and write a certificate
    for every decided claim to OUTPUT/<case file stem>/<claim number>-<kind>.json.

    A referee checks them with the standalone checker, which needs only Python:
    `python checker OUTPUT` (the folder exactdp/checker, or `exactdp-check OUTPUT`).  Claims without a certificate are
    listed after the report.
    """
    writer = CertificateWriter.into(outdir, fmt == "latex")
    code = 0
    with verdict_hook(writer):
        try:
            ctx.invoke(verify_command, **verify_options)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except ExactDPError as e:  # the certificates written so far are still listed
            code = error_line(e)
    lines, bad = writer.closing(show_game, self_check)
    emit("\n".join(lines), file=sys.stderr if verify_options.get("as_json") else sys.stdout)
    sys.exit(3 if bad else max(code, 2) if writer.unchecked else code)  # 3: a certificate does not check, a bug


# the options of `verify` (paths, engine, limits, --json, ...) are certify's too
certify.params.extend(p for p in verify_command.params if p.name not in {q.name for q in certify.params})
