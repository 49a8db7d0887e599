"""``exactdp certify``: check claims exactly like ``verify`` and write a certificate for every
decided claim, for the standalone checker (``python checker.py DIR``, docs/certificates.md).

The command *is* ``verify`` — the same options, the same report, the same exit status — run with
a verdict hook (:func:`exactdp.verify.verdict_hook`) that builds each claim's certificate in the
claim's own analysis and writes ``DIR/<case file stem>/<claim number>-<kind>.json``.  Claims that
get no certificate are listed after the report, with the reason.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from .. import checker
from ..certificates import NoCertificate, case_sha256, certificate_path, dumps_certificate, wrap
from ..claims import FAILS, HOLDS
from ..claims.parametric import involves_symbols
from ..errors import ExactDPError, LimitExceededError, VerificationError
from ..report.certificate import render_certificate_latex
from ..report.escape import text
from ..verify import verdict_hook
from .app import fail, main
from .verify import verify as verify_command

__all__ = ["certify", "safe_name", "write_whole"]

# claim kinds about symbols only (a calibrated set, a refuting value): no certificate
_ABOUT_SYMBOLS = frozenset({"calibrate", "counterexample"})


MANIFEST = ".exactdp-written"  # in each folder: the files certify wrote there (a rerun removes only these)
_UNSAFE = re.compile(r"[^A-Za-z0-9=.,+()\[\]_-]")


def safe_name(name: str) -> str:
    """A folder or file name made from a case file's stem or a sweep point: characters other
    than letters, digits and ``=.,+-_[]()`` become ``_``, and a leading dot too, so the name
    is never ``.`` or ``..`` (nor hidden) and cannot leave the output folder."""
    out = _UNSAFE.sub("_", name.replace(" ", ""))
    return "_" + out[1:] if out.startswith(".") else out or "_"


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to a temporary name beside ``path``, then rename it: a full disk leaves
    no empty or partial certificate behind."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@dataclass
class _Writer:
    """Builds and writes the certificates of one run; remembers what it did for the summary."""

    outdir: Path
    latex: bool
    written: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    stems: dict = field(default_factory=dict)

    def subdir(self, case) -> Path:
        """``DIR/<stem>``, with the certificates an earlier run of certify wrote there removed
        (only those: they are listed in the folder's manifest); a second case file with the same
        stem gets ``<parent>-<stem>``; a point of a sweep ``<stem>[k=1,eps=log(2)]``.  The name
        is made safe once (:func:`safe_name`)."""
        key = (case.file, case.name)
        if key in self.stems:
            return self.stems[key]
        p = Path(case.file)
        taken = {d.name for d in self.stems.values()}
        point = case.name[case.name.index("[") :] if case.name.endswith("]") and "[" in case.name else ""
        d = self.outdir / safe_name(p.stem + point)
        if d.name in taken:
            d = self.outdir / safe_name(f"{p.parent.name}-{p.stem}{point}")
        if d.is_symlink():  # certificates go into plain folders of OUTPUT, never through a link
            raise ExactDPError(
                f"{text(str(d))} is a symbolic link; certify writes only into folders of {text(str(self.outdir))}"
            )
        _remove_earlier(d)
        self.stems[key] = d
        return d

    def __call__(self, case, label: str, claim, verdict, an) -> None:
        where = f"{case.file}: claim {label} ({claim.kind}: {claim.describe()})"
        if verdict.status not in (HOLDS, FAILS):
            self.missing.append((where, "not decided"))
            return

        if claim.kind in _ABOUT_SYMBOLS or involves_symbols(claim, an):
            self.missing.append((where, "the mechanism or eps is symbolic; certificates cover numeric mechanisms"))
            return
        try:
            body = claim.certificate(an)
        except (NoCertificate, LimitExceededError) as e:
            self.missing.append((where, str(e)))
            return
        except VerificationError:
            raise
        except ExactDPError as e:
            self.missing.append((where, str(e)))
            return
        if body is None:
            self.missing.append((where, f"{claim.kind} claims have no certificate yet"))
            return
        if body["verdict"] != verdict.status:
            raise VerificationError(
                f"{where}: the certificate says the claim {body['verdict']}, the check says it {verdict.status}"
            )
        cert = wrap(
            body,
            case_file=case.file,
            sha256=case_sha256(case.file),
            case_name=case.name,
            number=int(label) if label.isdigit() else label,
            text=claim.describe(),
        )
        folder = self.subdir(case)
        path = folder / safe_name(certificate_path(self.outdir, folder.name, label, body["claim"]["kind"]).name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            files = [(path, dumps_certificate(cert))]
            if self.latex:
                files.append((path.with_suffix(".tex"), render_certificate_latex(cert)))
            for f, content in files:
                _remember(folder, f.name)  # before writing: a file certify wrote is always listed
                write_whole(f, content)
        except OSError as e:  # a full disk, a directory that vanished: that file's error, not a bug
            raise ExactDPError(f"cannot write the certificate {text(str(path))}: {text(e.strerror or e)}") from None
        self.written.append((path, cert))


@main.command(context_settings={"ignore_unknown_options": False})
@click.option(
    "-o", "--output", "outdir", required=True, type=click.Path(file_okay=False), help="Directory for the certificates."
)
@click.option("--show-game", is_flag=True, help="Print the game of every certificate written (once per mechanism).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["json", "latex"]),
    default="json",
    show_default=True,
    help="latex: also write a proof appendix <n>-<kind>.tex next to each certificate.",
)
@click.option("--check", "self_check", is_flag=True, help="Run the standalone checker on every certificate written.")
@click.pass_context
def certify(ctx, outdir, show_game, fmt, self_check, **verify_options):
    """Check every claim like `verify` (same report, same exit status) and write a certificate
    for every decided claim to OUTPUT/<case file stem>/<claim number>-<kind>.json.

    A referee checks them with the standalone checker, which needs only Python:
    `python checker.py OUTPUT` (or `exactdp-check OUTPUT`).  Claims without a certificate are
    listed after the report.
    """
    try:
        Path(outdir).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(ExactDPError(f"cannot create the output directory {outdir}: {e.strerror or e}"))
    writer = _Writer(Path(outdir), fmt == "latex")
    code = 0
    with verdict_hook(writer):
        try:
            ctx.invoke(verify_command, **verify_options)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    out = sys.stderr if verify_options.get("as_json") else sys.stdout
    checked = _checked(writer) if self_check else []
    for line in _summary(writer, show_game) + checked:
        click.echo(line, file=out)
    if any(line.startswith(("REJECTED", "MALFORMED")) for line in checked):
        code = 3  # a certificate exactdp wrote does not check: a bug
    sys.exit(code)


# the options of `verify` (paths, engine, limits, --json, ...) are certify's too
certify.params.extend(p for p in verify_command.params if p.name not in {q.name for q in certify.params})


def _remember(folder: Path, name: str) -> None:
    with open(folder / MANIFEST, "a", encoding="utf-8") as f:
        f.write(name + "\n")


def _remove_earlier(folder: Path) -> None:
    """Remove the files an earlier run of certify wrote in ``folder`` (its manifest lists them;
    names with a path separator or a leading dot are never taken from it)."""
    manifest = folder / MANIFEST
    if not manifest.is_file() or manifest.is_symlink():
        return
    for name in set(manifest.read_text(encoding="utf-8", errors="replace").split("\n")):
        f = folder / name
        if name and name == safe_name(name) and f.is_file() and not f.is_symlink():
            f.unlink()
    manifest.unlink()


def _summary(writer: _Writer, show_game: bool) -> list[str]:
    out = [f"certificates: {len(writer.written)} written to {writer.outdir}"]
    if writer.missing:
        out.append(f"no certificate for {len(writer.missing)} claim(s):")
        out.extend(f"  {where}: {why}" for where, why in writer.missing)
    if show_game:
        seen = set()
        for path, cert in writer.written:
            key = (cert["case"]["sha256"], tuple(cert["games"]))
            if key not in seen:
                seen.add(key)
                out.append(f"{path.parent.name}: mechanism {', '.join(cert['games'])}")
                out.extend(checker.show(cert))
    return out


def _checked(writer: _Writer) -> list[str]:
    """The checker's verdict on every certificate written, read back from its file (the
    referee's step, in-process)."""
    out = []
    for path, _ in writer.written:
        try:
            checker.check_certificate(checker.load(path))
        except (checker.Rejected, checker.Malformed) as e:
            out.append(f"{'REJECTED' if isinstance(e, checker.Rejected) else 'MALFORMED'}: {path}: {e}")
    return out or [f"checker: all {len(writer.written)} certificate(s) accepted"]
