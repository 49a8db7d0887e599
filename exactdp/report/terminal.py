"""Writing to a terminal: a progress bar that moves and clears itself, exactdp's own symbols in
ASCII where the terminal's encoding cannot show them, and a console program's exit statuses when
its output cannot be written.

A :class:`ProgressLine` lives on stderr; output lines go through :meth:`ProgressLine.echo`,
which takes the bar off the screen, writes the line and draws the bar again, so results and the
bar never mix.  :func:`escape_unencodable` is a codec error handler (registered as
``exactdp-escape``): exactdp's own symbols (✓, ≈, ε, …) have faithful ASCII spellings; any other
character the encoding cannot show (text from a case file) is written as a visible ``\\uXXXX``
escape and counted in :data:`UNFAITHFUL`, so the command can say its output was not faithful.
:func:`run_console` runs the command line as a console program (``exactdp``).
"""

from __future__ import annotations

import codecs
import errno
import gc
import os
import sys
import time
import traceback
import warnings
from collections.abc import Callable
from typing import NoReturn, TextIO

from ..deprecation import ExactDPDeprecationWarning
from .escape import JsonText, json_for

__all__ = [
    "ProgressLine",
    "EngineProgress",
    "escape_unencodable",
    "ASCII",
    "UNFAITHFUL",
    "ERROR_HANDLER",
    "run_console",
    "emit",
]

ERROR_HANDLER = "exactdp-escape"
UNFAITHFUL = [0]  # characters of the output the terminal's encoding could not show

ASCII = {
    "≈": "~",
    "✓": "ok",
    "✗": "FAIL",
    "—": "-",
    "–": "-",
    "→": "->",
    "←": "<-",
    "≤": "<=",
    "≥": ">=",
    "…": "...",
    "·": "*",
    "×": "x",
    "−": "-",
    "ε": "eps",
    "δ": "delta",
    "λ": "lambda",
    "∞": "inf",
    "′": "'",
}


def escape_unencodable(err: UnicodeError) -> tuple[str, int]:
    """Codec error handler for stdout: one of exactdp's own symbols in ASCII, any other character
    the encoding cannot show as a visible ``\\uXXXX`` escape (counted in :data:`UNFAITHFUL`)."""
    if not isinstance(err, UnicodeEncodeError):
        raise err
    out = []
    for c in err.object[err.start : err.end]:
        if c in ASCII:
            out.append(ASCII[c])
        else:
            UNFAITHFUL[0] += 1
            out.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
    return "".join(out), err.end


codecs.register_error(ERROR_HANDLER, escape_unencodable)


def emit(message: str, nl: bool = True, file: TextIO | None = None) -> None:
    """Write a command's output to stdout (or ``file``) through the stream itself: ``click.echo``
    replaces an ASCII stdout by a UTF-8 one, which would bypass the terminal's codec handler
    (this module: exactdp's symbols in ASCII, other characters as visible
    escapes, exit status 2) and write bytes the terminal cannot show."""
    stream = file if file is not None else sys.stdout
    if isinstance(message, JsonText):  # (escaped as JSON: exact, so not an unfaithful output)
        message = json_for(message, getattr(stream, "encoding", None) or "utf-8")
    stream.write(message + ("\n" if nl else ""))
    stream.flush()


def _stdout_line(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


class ProgressLine:
    """A progress bar on ``err`` (default stderr) that moves and clears itself, drawn only when
    ``enabled`` (``--progress``; by default when stderr is a terminal); ``echo`` writes an
    output line (default: to stdout).  As a context manager, the bar is cleared on leaving."""

    WIDTH = 30

    def __init__(
        self,
        total: int,
        label: str,
        enabled: bool,
        *,
        echo: Callable[[str], None] = _stdout_line,
        err: TextIO | None = None,
    ):
        self.enabled = enabled and total > 0
        self.total = max(total, 1)
        self.label = label
        self.write_line = echo
        self.err = err
        self.done = 0
        self.shown = False
        self._last = 0.0
        self._start = time.monotonic()

    def _stream(self) -> TextIO:
        return self.err if self.err is not None else sys.stderr

    def line(self) -> str:
        """``verify  [#######-----------------------]  3/12  00:00:05``: the bar, the count, the
        estimated time left."""
        filled = self.WIDTH * min(self.done, self.total) // self.total
        out = f"{self.label}  [{'#' * filled}{'-' * (self.WIDTH - filled)}]  {self.done}/{self.total}"
        if 0 < self.done < self.total:
            elapsed = time.monotonic() - self._start
            out += "  " + _clock(elapsed / self.done * (self.total - self.done))
        return out

    def clear(self) -> None:
        if self.shown:
            self._stream().write("\r\x1b[K")
            self._stream().flush()
            self.shown = False

    def draw(self) -> None:
        if self.enabled:
            self._stream().write("\r" + self.line() + "\x1b[K")
            self._stream().flush()
            self.shown = True
            self._last = time.monotonic()

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` items finished so far."""
        self.done = max(self.done, done)
        if self.enabled and (done >= self.total or time.monotonic() - self._last > 0.1):
            self.draw()

    def echo(self, text: str) -> None:
        was = self.shown
        self.clear()
        self.write_line(text)
        if was:
            self.draw()

    def close(self) -> None:
        self.clear()

    def __enter__(self) -> ProgressLine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EngineProgress:
    """The profile engine's progress (``progress(stage, done, total)`` over game nodes) as a
    :class:`ProgressLine`, created at the first report; use as a context manager."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.line: ProgressLine | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if self.line is None or self.line.total != max(total, 1):
            if self.line is not None:
                self.line.close()
            self.line = ProgressLine(total, f"{stage} (game nodes)", self.enabled)
        self.line.update(done)

    @property
    def callback(self) -> Callable[[str, int, int], None] | None:
        return self if self.enabled else None

    def __enter__(self) -> EngineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.line is not None:
            self.line.close()


_OUTPUT_ERRNOS = {
    errno.EPIPE,
    errno.ENOSPC,
    errno.EBADF,
    errno.EIO,
    errno.EFBIG,
    getattr(errno, "EDQUOT", errno.ENOSPC),
}


def _output_failed(why: str) -> NoReturn:
    """Stop: one line on stderr, exit status 2 (the output could not be written)."""
    try:
        sys.stderr.write(f"exactdp: cannot write the output: {why}\n")
        sys.stderr.flush()
    except Exception:  # stderr is gone too: nothing more can be said
        pass
    try:  # nothing left in stdout's buffer may fail again at interpreter exit
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
    except OSError:
        pass
    sys.exit(2)


def _internal_error() -> NoReturn:
    sys.stderr.write("exactdp: internal error (please report it with the case file):\n")
    traceback.print_exc()
    sys.exit(3)


def _show_warning(message: Warning | str, category: type[Warning], *args: object, **kw: object) -> None:
    sys.stderr.write(f"exactdp: warning: {message}\n")


def run_console(command: Callable[[], object]) -> NoReturn:
    """Run ``command`` (the command line) as a console program: an unexpected exception is
    reported as an internal error (exit 3) instead of escaping, and output that cannot be
    written (standard output closed, a full disk, a broken pipe) ends with one line on stderr
    and exit status 2.  Characters the terminal's encoding cannot show (a Latin-1 terminal) are
    written as visible ``\\uXXXX`` escapes, and the run then also exits with status 2, saying so."""
    out = sys.stdout
    if out is None:
        _output_failed("standard output is closed")
    for stream in (out, sys.stderr):  # (messages quote case-file text too)
        try:
            stream.reconfigure(errors=ERROR_HANDLER)  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            pass
    # a deprecated spelling in a case file is shown once per place, as one line on stderr
    warnings.simplefilter("default", ExactDPDeprecationWarning)
    warnings.showwarning = _show_warning
    code: int | str | None = 0
    try:
        command()
    except SystemExit as e:
        code = e.code if isinstance(e.code, (int, str)) or e.code is None else 1
    except OSError as e:
        if e.errno not in _OUTPUT_ERRNOS:
            _internal_error()
        _output_failed(e.strerror or str(e))
    except Exception:
        _internal_error()
    if sys.stdout is not out:  # replaced after a broken pipe (click does so)
        _output_failed("standard output was closed while writing (broken pipe)")
    try:
        out.flush()
    except OSError as e:
        _output_failed(e.strerror or str(e))
    if UNFAITHFUL[0]:
        enc = getattr(out, "encoding", "?")
        _output_failed(
            f"{UNFAITHFUL[0]} character(s) cannot be shown in the terminal's encoding ({enc}) and were written as \\u escapes; "
            "use a UTF-8 terminal (e.g. PYTHONIOENCODING=utf-8)"
        )
    # Nothing is left to collect: without this, the collector's passes at exit walk every
    # object a big case made (millions of them) before the process can end.
    gc.disable()
    gc.freeze()
    sys.exit(code)
