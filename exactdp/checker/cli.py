r"""The command line: arguments, folders, reading files and printing.  It decides nothing: it
calls :func:`core.check_certificate` and prints what it returns or raises (outside the trusted
kernel; ``tests/test_checker.py`` checks that the kernel uses none of its names).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from .core import (
    _SPENT,
    DEFAULT_LIMITS,
    LIMITS,
    Malformed,
    OtherCase,
    Rejected,
    TooLarge,
    check_certificate,
    fingerprint,
    one_certificate,
    read_games,
    text,
    too_large,
)
from .symbol import on_cell, read_symbol

__all__ = ["main", "load", "show", "fingerprints", "symbol_fingerprints"]


def fingerprints(cert: object) -> dict:
    """Each game's fingerprint in a document {format, version, [field], games} (``exactdp info``), by its
    name as the checker prints it (in quotes unless plain)."""
    _SPENT.update(bits=0, steps=0, histories=0)  # (one document's budget, as check_certificate's)
    try:
        with one_certificate():
            return {g.shown: fingerprint(g) for g in read_games(cert).values()}
    finally:
        _SPENT.update(bits=0, steps=0, histories=0)


def load(path: Path) -> Any:
    """The JSON of a certificate file: a regular file (a FIFO or a device would block or never end)
    of at most --max-bytes, UTF-8, without floating-point numbers or repeated keys."""

    def pairs(items: list) -> dict:
        if len(out := dict(items)) != len(items):
            raise Malformed("a key appears twice in one object")
        return out

    def refuse(s: str) -> None:
        raise Malformed(f'the JSON number {s[:20]} is not allowed: numbers are strings such as "3/4"')

    try:
        if not path.is_file():
            raise Malformed("not a regular file" if path.exists() else "no such file")
        with open(path, "rb") as f:
            data = f.read(LIMITS["max_bytes"] + 1)
        if len(data) > LIMITS["max_bytes"]:
            too_large("max_bytes", "reading the file", "more bytes")
        if path.suffix != ".json":
            return data
        with one_certificate():
            return json.loads(data.decode("utf-8"), object_pairs_hook=pairs, parse_float=refuse, parse_constant=refuse)
    except OSError as e:
        raise Malformed(f"cannot read it: {text(e.strerror or e)}") from None
    except (UnicodeDecodeError, RecursionError, ValueError) as e:  # JSONDecodeError is a ValueError
        raise Malformed(f"cannot read it as UTF-8 JSON: {str(e)[:200] or type(e).__name__}") from None


def symbol_fingerprints(doc: dict) -> dict:
    """The fingerprints of games as functions of the symbol (read on its whole domain)."""
    name, lo, _, hi, _ = read_symbol(doc)
    with on_cell(name, lo, hi):
        return fingerprints({**doc, "field": "symbol"})


def show(cert: object) -> list:
    """Every game of the certificate as an indented tree (``--show-game``); a shared sub-game is
    printed once and then referred to."""
    if isinstance(cert, dict) and "symbol" in cert:  # games as functions of the symbol, on its domain
        name, lo, _, hi, _ = read_symbol(cert)
        with on_cell(name, lo, hi):
            return show({**{k: v for k, v in cert.items() if k != "symbol"}, "field": "symbol"})
    out = []
    with one_certificate():
        for game in read_games(cert).values():
            ds = ", ".join(map(text, game.datasets))
            out.append(
                f"game {game.shown}: datasets ({ds}); ordered pairs " + ", ".join(map(game.pair_names, game.pairs))
            )
            shown: set = set()
            stack = [(game.root, 1, "")]
            while stack:
                k, depth, head = stack.pop()
                nd, pad = game.nodes[k], "  " * depth
                if nd[0] == "end" or k in shown:
                    out.append(f"{pad}{head}" + ("end" if nd[0] == "end" else f"#{k} (shown above)"))
                    continue
                shown.add(k)
                does = "the adversary chooses" if nd[0] == "ask" else f"the mechanism answers, Pr under ({ds})"
                out.append(f"{pad}{head}#{k} {does}:")
                rows = game.probs(k) if nd[0] == "answer" else []
                probs = [" (" + ", ".join(map(text, row)) + ")" for row in rows] or [""] * len(nd[1])
                stack += reversed([(c, depth + 1, f"{text(lab)}{pr} -> ") for lab, pr, c in zip(nd[1], probs, nd[-1])])
    return out


def main(argv: list | None = None) -> int:
    """:func:`check_paths`, with an output that cannot be written (a closed pipe, a full disk)
    reported on stderr with exit status 2, not taken for a rejection (1) or a traceback."""
    try:
        code = check_paths(argv)
        sys.stdout.flush()
        return code
    except OSError as e:
        try:  # (the interpreter flushes stdout again at exit)
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        print(f"exactdp-check: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 2


def check_paths(argv: list | None = None) -> int:
    """``python checker [--case CASE.yaml]... [--show-game] [-q] [--max-... N] CERT_OR_DIR...``
    (or ``exactdp-check``).  Exit status 0: every certificate is accepted; 1: one is rejected, or names
    another case file than the ``--case`` files; 2: one is unreadable, malformed, or needs more than a
    named limit (DEFAULT_LIMITS, each a flag: a hostile file is refused in seconds).  For an accepted
    certificate the checker prints what it derived from the games and the proof, each game's SHA-256
    fingerprint (``exactdp info CASE --fingerprint`` prints it for the games exactdp builds from a case
    file) and, apart and marked, the labels it did not verify."""
    import argparse  # start-up: only the command line parses arguments (the kernel, imported by exactdp, needs none)

    def limit_value(s: str) -> int:  # (0 or a negative limit would refuse everything, or nothing)
        if not (s.isascii() and s.isdigit() and int(s) >= 1):
            raise argparse.ArgumentTypeError(f"{text(s[:40])!r} is not a whole number >= 1")
        return int(s)

    ap = argparse.ArgumentParser(
        prog="exactdp-check", description="Check exactdp certificates (Python standard library only)."
    )
    ap.add_argument("paths", nargs="+", help="certificate files, or directories searched for *.json")
    ap.add_argument(
        "--case",
        action="append",
        default=[],
        help="a case file: compare its SHA-256 with the one each certificate names",
    )
    ap.add_argument("--show-game", action="store_true", help="print each certificate's games")
    ap.add_argument("-q", "--quiet", action="store_true", help="print only certificates that are not accepted")
    for name, default in DEFAULT_LIMITS.items():
        ap.add_argument(
            "--" + name.replace("_", "-"), type=limit_value, default=default, metavar="N", help=f"default {default:,}"
        )
    args = ap.parse_args(argv)
    LIMITS.update({name: getattr(args, name) for name in DEFAULT_LIMITS})
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    try:
        hashes = {hashlib.sha256(load(Path(c))).hexdigest() for c in args.case} if args.case else None
    except Malformed as e:
        print(f"exactdp-check: the case file: {e}")
        return 2
    files = []
    for p in map(Path, args.paths):  # symbolic links in folders are not followed: a certificate folder is plain files
        found = [Path(d, f) for d, _, names in os.walk(p) for f in names if f.endswith(".json")] if p.is_dir() else [p]
        files.extend(sorted(f for f in found if not p.is_dir() or (f.is_file() and not f.is_symlink())))
    counts = dict.fromkeys(["accepted", "REJECTED", "OTHER CASE", "MALFORMED", "NOT CHECKED"], 0)
    for f in files:
        try:
            cert = load(f)
            status, body = (
                "accepted",
                "\n".join([check_certificate(cert, hashes)] + (show(cert) if args.show_game else [])),
            )
        except (Rejected, OtherCase, Malformed) as e:
            kinds = {Rejected: "REJECTED", OtherCase: "OTHER CASE", TooLarge: "NOT CHECKED", Malformed: "MALFORMED"}
            status, body = next(v for k, v in kinds.items() if isinstance(e, k)), str(e)
        except UnicodeError:  # (a ValueError) JSON may escape a lone surrogate, which is no character
            status, body = "MALFORMED", "a text that is not Unicode (a lone surrogate, written as an escape)"
        except (RecursionError, MemoryError, ArithmeticError, ValueError) as e:
            status, body = "MALFORMED", f"too large or deep to check ({type(e).__name__})"
        except Exception as e:  # a bug in this file: say so, without a traceback
            status, body = "MALFORMED", f"not checked: internal error in the checker ({type(e).__name__}: {text(e)})"
        counts[status] += 1
        if status != "accepted" or not args.quiet:
            print(
                f"{text(f)}: {status}" + ("\n  " + body.replace("\n", "\n  ") if status == "accepted" else f": {body}")
            )
    summary = ", ".join(f"{n} {k.lower()}" for k, n in counts.items())
    print(f"{len(files)} certificate(s): {summary}" if files else "exactdp-check: no certificates found")
    if hashes is not None:
        print(
            "--case compares the SHA-256 each certificate's author recorded with that of the case files given: it shows which file the author says a certificate is about, not that a game is that file's mechanism (compare each game's sha256 with `exactdp info CASE --fingerprint`)"
        )
    bad = counts["MALFORMED"] or counts["NOT CHECKED"] or not files
    return 2 if bad else 1 if counts["REJECTED"] or counts["OTHER CASE"] else 0
