"""A certificate file: the header tying it to its case file, and its JSON layout.

``wrap`` adds what the checker needs to tie a proof to its source — the format and version, the
case file's name and SHA-256, the case's name and the claim's number — to a builder's body.
``dumps_certificate`` writes stable JSON (keys in a fixed order) that stays readable: small
values on one line, long lists one item per line.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from .. import __version__
from .base import FORMAT, VERSION, textify

__all__ = ["wrap", "dumps_certificate", "certificate_path", "case_sha256", "games_document"]

_WIDTH = 110


def case_sha256(path: str | Path) -> str:
    """SHA-256 of the case file's bytes (hex)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _file_name(case_file: str) -> str:
    """The case file's name as text: bytes that are not UTF-8 (which the file system allows) as
    ``\\xff`` escapes, so that the certificate can be written as UTF-8 at all."""
    return os.fsencode(Path(case_file).name).decode("utf-8", "backslashreplace")


def wrap(body: dict, *, case_file: str, sha256: str, case_name: str, number: int | str, text: str) -> dict:
    """The full certificate: header, then the builder's ``body`` (claim, verdict, games, proof)
    with its numbers written as text (:func:`~exactdp.certificates.base.textify`)."""

    head = {
        "format": FORMAT,
        "version": VERSION,
        "case": {"file": _file_name(case_file), "sha256": sha256, "name": case_name, "claim": number},
    }
    # exactdp's own words about the claim: for people, never read by the checker
    said = {"claim": text, **body.get("exactdp", {}), "version": __version__}
    core = textify({k: v for k, v in body.items() if k != "exactdp"})
    field = {"field": core.pop("field")} if "field" in core else {}
    return {**head, **field, **core, "exactdp": said}


def games_document(games: dict) -> dict:
    """{format, version, [field], games} for exported games (name → ExportedGame): the part of a
    certificate the checker's fingerprint reads (``exactdp info CASE --fingerprint``)."""
    core = textify({"games": {name: g.doc for name, g in games.items()}})
    return {"format": FORMAT, "version": VERSION, **core}


def certificate_path(outdir: str | Path, stem: str, number: int | str, kind: str) -> Path:
    """``DIR/<case file stem>/<claim number>-<kind>.json`` (a premise: ``premise-<n>-dp.json``)."""
    return Path(outdir) / stem / f"{number}-{kind}.json"


def dumps_certificate(cert: dict) -> str:
    """JSON text: one line for anything short, else one item per line (indented)."""
    out: list[str] = []
    _emit(cert, 0, out)
    return "".join(out) + "\n"


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # built once: json.dumps with
# options would build one per call, and certificates have a line per node


def _compact(x: object) -> str:
    return _ENCODER.encode(x)


def _emit(x: object, indent: int, out: list[str]) -> None:
    pad = " " * (indent + 1)
    if isinstance(x, list) and len(x) > _WIDTH // 4:  # a long list: one item per line
        out.append("[" + ",".join("\n" + pad + _compact(item) for item in x) + "\n" + " " * indent + "]")
        return
    flat = _compact(x)
    if len(flat) + indent <= _WIDTH or not isinstance(x, (list, dict)) or not x:
        out.append(flat)
        return
    items = list(x.items()) if isinstance(x, dict) else list(enumerate(x))
    out.append("{" if isinstance(x, dict) else "[")
    for k, (key, value) in enumerate(items):
        out.append("\n" + pad)
        if isinstance(x, dict):
            out.append(_compact(key) + ":")
        _emit(value, indent + 1, out)
        if k + 1 < len(items):
            out.append(",")
    out.append("\n" + " " * indent + ("}" if isinstance(x, dict) else "]"))
