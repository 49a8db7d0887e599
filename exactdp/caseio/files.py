"""Finding and reading case files safely: regular files only, no symbolic links, bounded size.

A case file may come from a stranger (a pull request checked in CI), and so may the directory
it sits in.  This module is the only place that touches the file system for case files:

* **Symbolic links are not followed** — neither a path given on the command line (nor, for a
  relative path, any directory on it) nor anything met while scanning a directory — unless
  ``follow_symlinks`` is set (``--follow-symlinks``).  A refused link is reported with a
  located error naming the link; its target is neither read nor named.  Even when links are
  followed, a target outside *the tree being verified* (the directory given on the command
  line, or the directory holding a file given on the command line) is refused.
* **Only regular files are read.**  The type is checked before opening (``lstat``), so a FIFO,
  a device such as ``/dev/zero``, a socket or a directory is refused at once and nothing
  blocks; the file is then opened without following links and without blocking, and its type
  is checked again on the open descriptor.
* **The size limit is enforced while reading** (``--max-file-bytes``): at most ``max_bytes + 1``
  bytes are ever read, whatever the file claims its size to be.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CaseError, CaseProblem, excerpt

__all__ = [
    "Found",
    "scan",
    "read_case_bytes",
    "file_kind",
    "short_name",
    "output_clash",
    "format_clash",
    "CASE_SUFFIXES",
]

CASE_SUFFIXES = (".yaml", ".yml")
_CHUNK = 1 << 16
_FOLLOW_HINT = "exactdp does not follow symbolic links (one could point at a secret); give --follow-symlinks to follow links that stay inside the tree being verified"


@dataclass(frozen=True)
class Found:
    """A case file found under a command-line path, with the tree its links must stay in."""

    path: Path
    tree: Path


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a symbolic link"),
)


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, for a message ("a FIFO (named pipe)", ...)."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def short_name(name: str) -> str:
    """``name`` if it has at most 120 characters, else its first 100 and a digest of the whole:
    file systems allow 255 bytes a name, and names made from case paths and sweep points grow."""
    return name if len(name) <= 120 else f"{name[:100]}-{hashlib.sha256(name.encode()).hexdigest()[:16]}"


def output_clash(path: str, reads: Sequence[str]) -> str | None:
    """Why ``path`` may not be written, or None: it is one of the files the command ``reads`` (a
    case file) or has written before (``exactdp export a.yaml --latex a.yaml`` replaced the case)."""
    if path == "-" or not os.path.exists(path):
        return None
    same = next((r for r in reads if r != "-" and os.path.exists(r) and os.path.samefile(path, r)), None)
    if same is None:
        return None
    alias = "" if same == path else f" (the same file as {same})"
    return f"{path}{alias} is a file this command reads or has just written: write to another file"


_FORMATS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png", ".pdf": "pdf", ".jpg": "jpeg", ".jpeg": "jpeg"}


def format_clash(path: str, fmt: str) -> str | None:
    """Why ``path`` may not receive ``fmt`` output, or None: its suffix names another format
    (``info --svg x.png`` wrote SVG into a file every viewer then failed to open as PNG)."""
    stem, suffix = os.path.splitext(path)
    named = _FORMATS.get(suffix.lower())
    if path == "-" or named in (None, fmt):
        return None
    return f"{path}: its name says {named.upper()}, but this option writes {fmt.upper()} (name it {stem}.{fmt})"


def _refuse(file: str, message: str, hint: str | None = None) -> CaseError:
    return CaseError(CaseProblem(message, file=file, hint=hint))


def _link_in_path(p: Path, tree: str | Path | None = None) -> Path | None:
    """The first symbolic link among ``p`` and the directories on it: for a relative ``p`` every
    one, for an absolute ``p`` those below ``tree`` (a directory found while scanning the tree
    may be a link; the directories above it are the caller's own)."""
    if not p.is_absolute():
        parts = [Path(*p.parts[: k + 1]) for k in range(len(p.parts))]
    elif tree is not None and Path(os.path.abspath(tree)) in p.parents:
        top = Path(os.path.abspath(tree))
        below = p.relative_to(top).parts
        parts = [top.joinpath(*below[: k + 1]) for k in range(len(below))]
    else:
        parts = [p]
    for q in parts:
        if q.name in ("", ".", ".."):
            continue
        try:
            if stat.S_ISLNK(os.lstat(q).st_mode):
                return q
        except OSError:
            return None  # does not exist (yet): reading it reports that
    return None


def _inside(target: Path, tree: Path) -> bool:
    return target == tree or tree in target.parents


def _tree_of(p: Path) -> Path:
    """The tree a command-line path opens: the directory itself, or the one holding a file."""
    try:
        is_dir = stat.S_ISDIR(os.stat(p).st_mode)
    except OSError:
        is_dir = False
    return Path(os.path.realpath(p if is_dir else (p.parent if str(p.parent) else Path(".")))).resolve()


def scan(paths: Iterable[str | Path], *, follow_symlinks: bool = False) -> list[Found]:
    """Case files under ``paths``: files as given, directories searched for ``*.yaml``/``*.yml``.

    Nothing is read here.  A symbolic link met in a scan (a ``*.yaml`` file or a directory) is
    listed so that reading it reports the refusal (a silently skipped link would hide claims
    from verification); with ``follow_symlinks`` a linked directory inside the tree is
    searched once.  Results are sorted within each directory given.
    """
    out: list[Found] = []
    for p in map(Path, paths):
        tree = _tree_of(p)
        try:
            mode = os.lstat(p).st_mode
        except OSError:
            out.append(Found(p, tree))
            continue
        if stat.S_ISDIR(mode) or (follow_symlinks and stat.S_ISLNK(mode) and os.path.isdir(p)):
            out.extend(sorted(_walk(p, tree, follow_symlinks), key=lambda f: f.path))
        else:
            out.append(Found(p, tree))
    return out


def _walk(top: Path, tree: Path, follow: bool) -> list[Found]:
    """Every case file under ``top`` (iterative; each real directory visited once)."""
    found: list[Found] = []
    seen: set[str] = set()
    stack = [top]
    while stack:
        d = stack.pop()
        real = os.path.realpath(d)
        if real in seen:
            continue
        seen.add(real)
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            found.append(Found(d, tree))  # unreadable directory: reading it reports why
            continue
        subdirs: list[Path] = []
        for e in entries:
            q = Path(d) / e.name
            if e.is_symlink():
                # a linked *.yaml, or a linked directory (which may hold cases), is listed so
                # that reading it reports the refusal; other links are not case files
                is_dir = q.suffix not in CASE_SUFFIXES and os.path.isdir(q)
                if is_dir and follow and _inside(Path(os.path.realpath(q)), tree):
                    subdirs.append(q)
                elif is_dir or q.suffix in CASE_SUFFIXES:
                    found.append(Found(q, tree))
            elif e.is_dir(follow_symlinks=False):
                subdirs.append(q)
            elif q.suffix in CASE_SUFFIXES:
                found.append(Found(q, tree))
        stack.extend(reversed(subdirs))  # visited in name order: a real directory before a later link to it
    return found


def read_case_bytes(
    path: str | Path, *, max_bytes: int, follow_symlinks: bool = False, tree: str | Path | None = None
) -> bytes:
    """The bytes of the regular file ``path``, at most ``max_bytes`` of them.

    Parameters
    ----------
    path : str or Path
        The case file.
    max_bytes : int
        Size limit (``--max-file-bytes``), enforced while reading.
    follow_symlinks : bool, optional (default = False)
        Follow a symbolic link whose target stays inside ``tree``.
    tree : str or Path, optional
        The tree being verified (default: the directory holding ``path``).

    Raises
    ------
    CaseError
        A symbolic link (not followed, or leaving the tree), anything but a regular file, a file
        over the limit, or one that cannot be opened; the message names ``path``, never the
        link's target, and nothing of the file's content.
    """
    p = Path(path)
    file = str(path)
    link = _link_in_path(p, tree)
    if link is not None and not follow_symlinks:
        where = "" if link == p else f" (the directory {excerpt(str(link))} on its path is one)"
        raise _refuse(file, f"is a symbolic link{where}; it was not read", _FOLLOW_HINT)
    target = p
    if link is not None:
        target = Path(os.path.realpath(p))
        home = Path(os.path.realpath(tree)) if tree is not None else _tree_of(p)
        if not _inside(target, home):
            shown = os.path.relpath(home) if _inside(home, Path.cwd().resolve()) else str(home)
            raise _refuse(
                file,
                f"is a symbolic link to a file outside the tree being verified ({excerpt(shown)}); it was not read",
                "links are followed only when their target stays inside the directory given on the command line",
            )
    try:
        st = os.lstat(target)
    except OSError as e:
        raise _refuse(file, f"cannot read the file: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(file, f"is {file_kind(st.st_mode)}, not a regular file; only regular files are read")
    if st.st_size > max_bytes:
        raise _refuse(
            file,
            f"file is {st.st_size} bytes; the limit is {max_bytes}",
            "raise it with --max-file-bytes if this is really a case file",
        )
    return _read_regular(target, file, max_bytes)


def _read_regular(target: Path, file: str, max_bytes: int) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(target, flags)
    except OSError as e:
        raise _refuse(file, f"cannot read the file: {e.strerror or e}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):  # replaced between the check and the open
            raise _refuse(file, f"is {file_kind(mode)}, not a regular file; only regular files are read")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                raise _refuse(
                    file,
                    f"file is more than {max_bytes} bytes; the limit is {max_bytes}",
                    "raise it with --max-file-bytes if this is really a case file",
                )
    except OSError as e:
        raise _refuse(file, f"cannot read the file: {e.strerror or e}") from None
    finally:
        os.close(fd)
    return b"".join(chunks)
