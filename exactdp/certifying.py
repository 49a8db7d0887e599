"""Certificates of a verification run, written to a folder for the standalone checker
(``python checker DIR``, the folder exactdp/checker; docs/certificates.md).

:class:`CertificateWriter` is a verdict hook (:func:`exactdp.verify.verdict_hook`): any
verification run inside ``with verdict_hook(writer):`` builds each decided claim's certificate in
the claim's own analysis and writes ``DIR/<case file stem>/<claim number>-<kind>.json``.  This is
what ``exactdp certify`` runs around ``verify``; :func:`certify_paths` does the same for a Python
caller.  :func:`game_fingerprints` ties a case's games to the checker's fingerprints
(``exactdp info --fingerprint``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from . import checker
from .caseio import Case
from .caseio.files import short_name
from .certificates import (
    Engines,
    NoCertificate,
    case_sha256,
    certificate_path,
    dumps_certificate,
    export_game,
    game_label,
    games_document,
    symbol_doc,
    symbolic_certificate,
    symbolic_game,
    wrap,
)
from .claims import FAILS, HOLDS, Analysis
from .claims.base import ABOUT_CLAIMS, ORDERED
from .claims.parametric import analysis_at, check_claim, claim_at, involves_symbols, numeric_mechanism, sympy_point
from .errors import ExactDPError, LimitExceededError, VerificationError
from .lazy import flint
from .model.symbolic import is_symbolic_mechanism
from .numbers.rational import Q
from .report.certificate import render_certificate_latex
from .report.escape import text
from .verify import Options, RunResult, verdict_hook, verify_paths

__all__ = [
    "CertificateWriter",
    "certify_paths",
    "game_fingerprints",
    "symbol_values",
    "safe_name",
    "write_whole",
    "MANIFEST",
    "remember",
    "remove_earlier",
]

# claim kinds about symbols only (a calibrated set, a refuting value): no certificate
_ABOUT_SYMBOLS = frozenset({"calibrate", "counterexample"})


def _engines(an) -> Engines:
    """What the builders of certificates for a symbol need from the engines and the checker, for
    the claims of the analysis ``an``."""

    def at(claim, point: dict[str, Fraction]) -> dict | None:  # the numeric body at a value
        pt = {k: flint.fmpq(x.numerator, x.denominator) for k, x in point.items()}
        return claim_at(claim, an, pt).certificate(analysis_at(an, pt))

    def facts(claim) -> dict:
        return dict(check_claim(claim, an).facts)

    return Engines(at, facts, _sign_change)


def _sign_change(cert: dict) -> tuple | None:
    """Run the checker on ``cert``: None when accepted, (polynomial, lo, hi) where a sign it needs
    changes inside a cell; a rejection is a bug."""
    try:
        checker.check_certificate(cert)
    except checker.SignChange as e:
        return (e.poly, *e.cell)
    except (checker.Rejected, checker.Malformed) as e:
        raise VerificationError(f"the checker refuses a certificate for a symbol: {e}") from None
    return None


MANIFEST = ".exactdp-written"  # in each folder: the files certify wrote there (a rerun removes only these)
_UNSAFE = re.compile(r"[^A-Za-z0-9=.,+()\[\]_-]")


def safe_name(name: str) -> str:
    """A folder or file name made from a case file's stem or a sweep point: characters other
    than letters, digits and ``=.,+-_[]()`` become ``_``, and a leading dot too, so the name
    is never ``.`` or ``..`` (nor hidden) and cannot leave the output folder; a long one is cut
    to 100 characters and a digest of the whole."""
    out = _UNSAFE.sub("_", name.replace(" ", ""))
    return short_name("_" + out[1:] if out.startswith(".") else out or "_")


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
class CertificateWriter:
    """A verdict hook (:func:`exactdp.verify.verdict_hook`) that builds the certificate of every
    decided claim in the claim's own analysis and writes it to
    ``outdir/<case file stem>/<claim number>-<kind>.json`` (with ``latex``, also a proof appendix
    ``.tex`` beside it); it remembers what it wrote and, for the claims without a certificate,
    why (:meth:`summary`)."""

    outdir: Path
    latex: bool
    written: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    unchecked: bool = False  # whether check() left a certificate unchecked, beyond a limit of the checker
    stems: dict = field(default_factory=dict)

    def subdir(self, case) -> Path:
        """``DIR/<stem>``, with the certificates an earlier run of certify wrote there removed
        (only those: they are listed in the folder's manifest); a second case file with the same
        stem gets ``<parent>-<stem>``, and if that is taken too ``<parent>-<stem>-2``, ...; a point
        of a sweep ``<stem>[k=1,eps=log(2)]``.  The name is made safe once (:func:`safe_name`)."""
        key = (case.file, case.name)
        if key in self.stems:
            return self.stems[key]
        p = Path(case.file)
        taken = {d.name.casefold() for d in self.stems.values()}  # (A/ and a/ are one folder on macOS)
        point = case.name[case.name.index("[") :] if case.name.endswith("]") and "[" in case.name else ""
        d = self.outdir / safe_name(p.stem + point)
        if d.name.casefold() in taken:
            d = self.outdir / safe_name(f"{p.parent.name}-{p.stem}{point}")
        n = 2
        while d.name.casefold() in taken:  # (still taken: p/x.yaml, p-x.yaml and q/p/x.yaml) a counter
            d, n = self.outdir / safe_name(f"{p.parent.name}-{p.stem}-{n}{point}"), n + 1
        if d.is_symlink():  # certificates go into plain folders of OUTPUT, never through a link
            raise ExactDPError(
                f"{text(str(d))} is a symbolic link; certify writes only into folders of {text(str(self.outdir))}"
            )
        remove_earlier(d)
        self.stems[key] = d
        return d

    def __call__(self, case, label: str, claim, verdict, an) -> None:
        """Certify one checked claim (the hook's signature)."""
        where = f"{case.file}: claim {label} ({claim.kind}: {claim.describe()})"
        if verdict.status not in (HOLDS, FAILS):
            self.missing.append((where, "not decided"))
            return

        symbolic = claim.kind in _ABOUT_SYMBOLS or involves_symbols(claim, an)
        try:  # (writing its numbers as text may also find that a claim has no certificate)
            body = (
                symbolic_certificate(claim, an, verdict.status == HOLDS, _engines(an))
                if symbolic
                else claim.certificate(an)
            )
            cert = None if body is None else wrap(body, **self._source(case, label, claim))
        except (NoCertificate, LimitExceededError) as e:
            self.missing.append((where, str(e)))
            return
        except VerificationError:
            raise
        except ExactDPError as e:
            self.missing.append((where, str(e)))
            return
        if body is None or cert is None:
            self.missing.append((where, f"{claim.kind} claims have no certificate yet"))
            return
        want = verdict.status if claim.kind != "counterexample" else "fails" if verdict.status == HOLDS else "holds"
        if body["verdict"] != want:  # (a counterexample's certificate is of its claim at the value)
            raise VerificationError(
                f"{where}: the certificate says the claim {body['verdict']}, the check says it {verdict.status}"
            )
        folder = self.subdir(case)
        kind = claim.kind if claim.kind in ABOUT_CLAIMS else body["claim"]["kind"]  # (a premise's: dp)
        path = folder / safe_name(certificate_path(self.outdir, folder.name, label, kind).name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            files = [(path, dumps_certificate(cert))]
            if self.latex:
                files.append((path.with_suffix(".tex"), render_certificate_latex(cert)))
            for f, content in files:
                remember(folder, f.name)  # before writing: a file certify wrote is always listed
                write_whole(f, content)
        except OSError as e:  # a full disk, a directory that vanished: that file's error, not a bug
            raise ExactDPError(f"cannot write the certificate {text(str(path))}: {text(e.strerror or e)}") from None
        self.written.append((path, cert))

    @staticmethod
    def _source(case, label: str, claim) -> dict:
        """What a certificate says of where its claim was written (unverified by the checker)."""
        number = int(label) if label.isdigit() else label
        return dict(
            case_file=case.file,
            sha256=case_sha256(case.file),
            case_name=case.name,
            number=number,
            text=claim.describe(),
        )

    @classmethod
    def into(cls, outdir: str, latex: bool = False) -> CertificateWriter:
        """A writer into the folder ``outdir``, made if missing (an :class:`ExactDPError` naming
        it when it cannot be)."""
        try:
            Path(outdir).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ExactDPError(f"cannot create the output directory {outdir}: {e.strerror or e}") from None
        return cls(Path(outdir), latex)

    def closing(self, show_game: bool = False, self_check: bool = False) -> tuple[list[str], bool]:
        """The lines after certify's report (:meth:`summary`, and with ``self_check`` the
        checker's verdicts, :meth:`check`), and whether a certificate exactdp wrote failed to
        check (a bug)."""
        checked = self.check() if self_check else []
        return self.summary(show_game) + checked, any(line.startswith(("REJECTED", "MALFORMED")) for line in checked)

    def summary(self, show_game: bool = False) -> list[str]:
        """How many certificates were written and where, the claims without one and why; with
        ``show_game``, the game of every certificate (once per mechanism), as the checker shows it."""
        out = [f"certificates: {len(self.written)} written to {self.outdir}"]
        if self.missing:
            out.append(f"no certificate for {len(self.missing)} claim(s):")
            out.extend(text(f"  {where}: {why}") for where, why in self.missing)  # (they quote the case file)
        if show_game:
            seen = set()
            for path, cert in self.written:
                key = (cert["case"]["sha256"], tuple(cert["games"]))
                if key not in seen:
                    seen.add(key)
                    out.append(text(f"{path.parent.name}: mechanism {', '.join(cert['games'])}"))
                    out.extend(checker.show(cert))
        return out

    def check(self) -> list[str]:
        """The standalone checker's verdict on every certificate written, read back from its file
        (the referee's step, in this process): a line per certificate ``REJECTED`` or ``MALFORMED``,
        or one line saying all were accepted."""
        out = []
        for path, _ in self.written:
            try:
                checker.check_certificate(checker.load(path))
            except checker.TooLarge as e:  # a limit of the checker, not a wrong certificate
                self.unchecked = True
                out.append(f"NOT CHECKED: {path}: {e}")
            except (checker.Rejected, checker.Malformed) as e:
                out.append(f"{'REJECTED' if isinstance(e, checker.Rejected) else 'MALFORMED'}: {path}: {e}")
        return out or [f"checker: all {len(self.written)} certificate(s) accepted"]


def remember(folder: Path, name: str) -> None:
    """Add ``name`` to the manifest of ``folder`` (the files certify wrote there)."""
    with open(folder / MANIFEST, "a", encoding="utf-8") as f:
        f.write(name + "\n")


def remove_earlier(folder: Path) -> None:
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


def certify_paths(
    paths: Sequence[str | Path], outdir: str | Path, opts: Options = Options(), *, latex: bool = False
) -> tuple[RunResult, CertificateWriter]:
    """Verify the case files under ``paths`` (like :func:`exactdp.verify.verify_paths`, in this
    process) and write a certificate for every decided claim into ``outdir``.

    Returns
    -------
    (RunResult, CertificateWriter)
        The verification's results, and the writer: ``written`` lists (path, certificate),
        ``missing`` (claim, reason); :meth:`CertificateWriter.check` runs the checker on them.
    """
    Path(outdir).mkdir(parents=True, exist_ok=True)
    writer = CertificateWriter(Path(outdir), latex)
    with verdict_hook(writer):
        return verify_paths(paths, opts), writer


def symbol_values(items: Sequence[str]) -> dict[str, Fraction]:
    """``["E=2", "d=1/10"]`` (``exactdp info --fingerprint --at``) as {name: value}.

    Raises
    ------
    ExactDPError
        An item is not SYMBOL=VALUE with a rational VALUE."""
    out: dict[str, Fraction] = {}
    for item in items:
        name, eq, value = item.partition("=")
        try:
            out[name.strip()] = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            eq = ""
        if not eq:
            raise ExactDPError(f"--at {text(item)!r}: expected SYMBOL=VALUE with a rational VALUE, e.g. E=2")
    return out


def game_fingerprints(
    case: Case, of: str | None = None, *, at: dict[str, Fraction] | None = None
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The standalone checker's SHA-256 fingerprint of the game exactdp builds for each mechanism
    of ``case`` (only ``of``, when given), and for each claim with its own pairs, so that a referee
    who trusts exactdp's reader can tie a certificate's game to the case file.  With ``at`` (symbol
    name → rational), the games with the symbols given those values, as a certificate of a claim
    at a value holds them; without, a game with one symbol as a function of it.

    Returns
    -------
    (dict, list)
        The fingerprints by name, and the (name, reason) of the games that have none.

    Raises
    ------
    ExactDPError
        ``at`` names an undeclared symbol, or a value outside its bounds; or the checker
        refuses an exported game (a bug).
    """
    subjects: dict = {n: m for n, m in case.mechanisms.items() if of is None or n == of}
    scoped = Analysis(case.mechanisms)  # (builds a claim's game as its analysis does)
    claims_of: dict = {}  # a claim's own pairs, or non-adaptive adversaries: another game
    for k, outer in enumerate(case.claims, 1):
        for claim in filter(None, (outer, getattr(outer, "target", None))):  # (a calibration's target too)
            for name in sorted({claim.of, getattr(claim, "other", claim.of)} & set(subjects)):
                if not isinstance(subject := claim.subject_of(name), str):
                    claims_of.setdefault(subject, []).append(k)
    labels = [game_label(subject) for subject in claims_of]
    missing: list[tuple[str, str]] = []
    for (subject, ks), label in zip(claims_of.items(), labels):  # (claims with other pairs, one label: named apart)
        many = labels.count(label) > 1
        label += f" [claim{'s' * (len(ks) > 1)} {', '.join(map(str, ks))}]" if many else ""
        if ORDERED in subject[2:]:  # (the checker's games take both orders: no certificate holds it)
            missing.append((label, "one order of each pair: claims about it have no certificate"))
            continue
        subjects[label] = scoped.mech(subject)
    table = case.symbols
    if at:
        declared = {b.name: b for b in table.bounds} if table else {}
        for name, x in at.items():
            if name not in declared or not declared[name].contains(Q(x.numerator, x.denominator)):
                raise ExactDPError(f"--at {text(name)}={x}: not a declared symbol of the case, or outside its bounds")
        if set(declared) - set(at):
            raise ExactDPError(f"--at: give every symbol of the case a value ({', '.join(sorted(declared))})")
        point = sympy_point(table, {k: flint.fmpq(x.numerator, x.denominator) for k, x in at.items()})
        subjects = {n: numeric_mechanism(m, point) if is_symbolic_mechanism(m) else m for n, m in subjects.items()}
    games, symbolic = {}, {}
    for name, mech in subjects.items():
        try:
            if is_symbolic_mechanism(mech):
                symbolic[name] = symbolic_game(mech, name, _one_symbol(table))
            else:
                games[name] = export_game(mech, name)
        except NoCertificate as e:
            missing.append((name, str(e)))
    try:
        prints = {}  # (each game in a document of its own, as a certificate holds a claim's: its own budget)
        for name, game in games.items():
            prints.update(checker.fingerprints(games_document({name: game})))
        if symbolic:
            doc = games_document(symbolic)
            prints.update(checker.symbol_fingerprints({**doc, "symbol": symbol_doc(table)}))
    except checker.Malformed as e:
        raise ExactDPError(str(e)) from None
    return prints, missing


def _one_symbol(table) -> object:
    if not table or len(table.bounds) != 1:
        raise NoCertificate("a game with several symbols has no fingerprint: give every symbol a value with --at")
    return table.symbols[table.bounds[0].name]
