"""The exceptions exactdp raises.

One small hierarchy, rooted at :class:`ExactDPError`.  No ``KeyError``, ``ValueError`` or
traceback reaches a user for a mistake in their input: the CLI turns every
:class:`ExactDPError` into a message and an exit status.

=============================  ==========================================================  ====
class                          meaning                                                     exit
=============================  ==========================================================  ====
``CaseError``                  a case file is not valid (file, place, problem, hint)       2
``InvalidMechanismError``      a builder's arguments do not describe a mechanism           2
``InvalidGameError``           a game DAG is malformed (a subclass of the one above)       2
``InexactValueError``          a value has no exact representation here; never rounded     2
``UnsupportedMechanismError``  a sub-mechanism cannot be handled by the requested engine   2
``LimitExceededError``         a resource limit was hit; the message says how to raise it  2
``VerificationError``          an engine, certificate or witness disagreed: a bug          3
``InternalError``              another bug met while checking one case file                3
``ArgumentError``              a Python call's argument has a wrong value (a ValueError)   2
``ArgumentTypeError``          a Python call's argument has a wrong type (a TypeError)     2
=============================  ==========================================================  ====

Each layer raises errors about its own objects: the builders raise
:class:`InvalidMechanismError`, the game model :class:`InvalidGameError`, the number checks
:class:`~exactdp.numbers.kinds.QuantityError`; only the case reader (``exactdp.caseio``), which
knows the file and the place in it, raises :class:`CaseError`, locating the others.
"""

from __future__ import annotations

import difflib
import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "excerpt",
    "cut",
    "excerpt_around",
    "bound_text",
    "EXCERPT_CHARS",
    "ExactDPError",
    "CaseError",
    "CaseProblem",
    "InvalidMechanismError",
    "InvalidGameError",
    "InexactValueError",
    "UnsupportedMechanismError",
    "LimitExceededError",
    "VerificationError",
    "InternalError",
    "ArgumentError",
    "ArgumentTypeError",
]


EXCERPT_CHARS = 60  # most characters of a value read from a file that any message repeats
MESSAGE_CHARS = 400  # most characters of one message (or hint) about a case file


def excerpt(value: object, limit: int = EXCERPT_CHARS, *, quote: bool = True) -> str:
    """A short, one-line, visibly cut excerpt of ``value`` for a message.

    At most ``limit`` characters of the value are kept; the cut is marked with ``…`` and the
    full length is given.  With ``quote`` the excerpt is a Python string literal, so line breaks
    and other control characters appear escaped (``\\n``), never raw.

    >>> excerpt("abc")
    "'abc'"
    >>> excerpt("x" * 100, 5)
    "'xxxxx…' (100 characters)"
    """
    text = value if isinstance(value, str) else str(value)
    cut = len(text) > limit
    body = text[:limit] + ("…" if cut else "")
    shown = repr(body) if quote else _one_line(body)
    return f"{shown} ({len(text)} characters)" if cut else shown


def cut(text: str, limit: int) -> str:
    """``text`` cut visibly at ``limit`` characters (``…`` and the full length), escaping nothing:
    for a caller that escapes the whole line once itself (a report's heading)."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def excerpt_around(text: str, column: int, limit: int = EXCERPT_CHARS) -> str:
    """Like :func:`excerpt`, but a window of ``text`` around the 1-based ``column`` (where an
    error was found), each cut marked with ``…``."""
    if len(text) <= limit:
        return repr(text)
    start = max(0, min(column - 1 - limit // 2, len(text) - limit))
    body = ("…" if start else "") + text[start : start + limit] + ("…" if start + limit < len(text) else "")
    return f"{body!r} ({len(text)} characters)"


def _one_line(text: str) -> str:
    return repr(text)[1:-1] if any(not c.isprintable() for c in text) else text


# a Python string literal as repr() writes it (matched left to right, whatever its length, so
# that one literal's closing quote is never taken for the next one's opening quote)
_QUOTED = re.compile(r"'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"")
_LONG_WORD = re.compile(rf"[^\s.\[\]]{{{EXCERPT_CHARS + 1},}}")


def bound_text(text: str, limit: int = MESSAGE_CHARS) -> str:
    """``text`` with every quoted value longer than :data:`EXCERPT_CHARS` cut to an excerpt and
    the whole cut to ``limit`` characters (marked): the net under every message about a file."""
    if len(text) <= EXCERPT_CHARS:
        return text
    text = _QUOTED.sub(lambda m: _cut_literal(m.group(0)), text)
    if len(text) > limit:
        text = text[:limit] + f"… (message cut at {limit} characters)"
    return text


def _cut_literal(lit: str) -> str:
    """A string literal (already escaped by ``repr``) cut to an excerpt, keeping its quotes."""
    q, body = lit[0], lit[1:-1]
    if len(body) <= EXCERPT_CHARS or ("…" in (body[:1], body[-1:]) and len(body) <= 4 * EXCERPT_CHARS + 2):
        return lit  # short, or already an excerpt (whose escapes may make it longer)
    return f"{q}{body[:EXCERPT_CHARS]}…{q} (cut)"


def bound_path(path: str) -> str:
    """A document path with every over-long key cut to an excerpt."""
    if len(path) <= EXCERPT_CHARS:
        return path
    path = _QUOTED.sub(lambda m: _cut_literal(m.group(0)), path)
    path = _LONG_WORD.sub(lambda m: excerpt(m.group(0), quote=False), path)
    return bound_text(path, 200)


class ExactDPError(Exception):
    """Root of every error exactdp raises on purpose.

    Its text is bounded (:func:`bound_text`): a message never repeats more than a short excerpt
    of a value read from a file."""

    heading = ""  # what the command line's error line names before the message ("undecided")

    def __str__(self) -> str:
        return bound_text(super().__str__(), 2000)


@dataclass(frozen=True)
class CaseProblem:
    """One located problem in a case file.

    ``path`` is the place inside the document (``mechanisms.M.tree.ask.q0.yes.p[1]``);
    ``line``/``column`` are 1-based and ``None`` when the place has no mark (for instance
    a value supplied through the Python API).
    """

    message: str
    path: str = ""
    file: str | None = None
    line: int | None = None
    column: int | None = None
    hint: str | None = None

    def __post_init__(self) -> None:
        # the net under every message: keys and values from a file are cut to short excerpts
        object.__setattr__(self, "message", bound_text(self.message))
        object.__setattr__(self, "path", bound_path(self.path))
        if self.hint is not None:
            object.__setattr__(self, "hint", bound_text(self.hint))
        if self.file is not None and len(self.file) > 4 * EXCERPT_CHARS:
            object.__setattr__(self, "file", excerpt(self.file, 4 * EXCERPT_CHARS, quote=False))

    def render(self) -> str:
        where = self.file or "<case>"
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        head = f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"
        return head + (f"\n    hint: {self.hint}" if self.hint else "")


class CaseError(ExactDPError):
    """A case file (or a case built through the API) is not valid.

    Holds every problem found, up to the collection limit, in file order.
    """

    def __init__(self, problems: list[CaseProblem] | CaseProblem | str, *, truncated: bool = False):
        if isinstance(problems, str):
            problems = [CaseProblem(problems)]
        elif isinstance(problems, CaseProblem):
            problems = [problems]
        self.problems: list[CaseProblem] = list(problems)
        self.truncated = truncated
        super().__init__(self.render())

    def __reduce__(self) -> tuple:
        # results travel between worker processes: keep the located problems, not just the text
        return (_case_error, (self.problems, self.truncated))

    def __str__(self) -> str:
        return self.render()

    def render(self) -> str:
        lines = [p.render() for p in self.problems]
        if self.truncated:
            lines.append("(more problems were found; fix these first)")
        return "\n".join(lines)


def _case_error(problems: list[CaseProblem], truncated: bool) -> CaseError:
    return CaseError(problems, truncated=truncated)


class InvalidMechanismError(ExactDPError):
    """The arguments of a builder do not describe a mechanism (scores of the wrong shape, an
    unknown mode, a verifier state that does not exist, ...).

    Raised by :mod:`exactdp.builders` about its own arguments, with no knowledge of any file:
    the case reader turns it into a located :class:`CaseError` (exit status 2).  ``message``
    states the fact; ``hint``, when given, says what to write instead."""

    def __init__(self, message: str, hint: str | None = None):
        self.message = message
        self.hint = hint
        super().__init__(message)

    def __str__(self) -> str:
        return bound_text(self.message + (f" ({self.hint})" if self.hint else ""), 2000)

    def __reduce__(self) -> tuple:
        return (type(self), (self.message, self.hint))


class InvalidGameError(InvalidMechanismError):
    """A game DAG is malformed: an answer distribution whose probabilities do not sum to 1 under
    some dataset, an option offered twice, datasets that are not distinct (Vadhan & Wang 2021,
    Defs. 1.5–1.6).  Raised by :mod:`exactdp.model`."""


class InexactValueError(ExactDPError):
    """A value cannot be represented exactly; exactdp refuses instead of rounding."""


class UnsupportedMechanismError(ExactDPError):
    """A (sub-)mechanism cannot be analysed by the requested engine or construction."""


class LimitExceededError(ExactDPError):
    """A configured resource limit was reached.  Never a silent truncation."""

    def __init__(self, what: str, limit: Any, how_to_raise: str):
        self.what = what
        self.limit = limit
        self.how_to_raise = how_to_raise
        super().__init__(f"{what} exceeds the limit of {limit}; {how_to_raise}")

    def __reduce__(self) -> tuple:
        return (LimitExceededError, (self.what, self.limit, self.how_to_raise))


class FieldDegreeLimit(LimitExceededError, InexactValueError):
    """A number of Q(e^(1/L)) (a decimal eps, a discrete Gaussian's weight) would need polynomials in
    t = e^(1/L) of a degree beyond ``--max-field-degree``: a limit, and also a value exactdp cannot
    hold exactly within it (callers that fall back on certified bounds for inexact values still do)."""

    def __init__(self, what: str, limit: Any):
        super().__init__(what, limit, "raise it with --max-field-degree N, or write eps with fewer decimal digits")

    def __reduce__(self) -> tuple:
        return (FieldDegreeLimit, (self.what, self.limit))


class TimeLimitExceeded(LimitExceededError):
    """The wall-clock limit (``--timeout``) ran out.  It concerns the whole run of a file, never
    a value in it, so readers must not turn it into a located problem."""

    def __init__(self, limit: object):
        super().__init__("the running time", limit, "raise it with --timeout SECONDS (0: no limit)")

    def __reduce__(self) -> tuple:
        return (TimeLimitExceeded, (self.limit,))


class VerificationError(ExactDPError):
    """Two independent computations disagreed (engine vs engine, witness re-check, certificate).

    This always indicates a bug in exactdp; please report it with the case file.
    """


class ArgumentError(ExactDPError, ValueError):
    """A Python call's argument has a wrong value (``rr(eps=-1)``): an :class:`ExactDPError` and
    also a ``ValueError``, so that either ``except`` catches it."""


class ArgumentTypeError(ExactDPError, TypeError):
    """A Python call's argument has a wrong type (``repeat(M, 1.5)``): an :class:`ExactDPError`
    and also a ``TypeError``."""


class InternalError(VerificationError):
    """An unexpected exception while checking one case file: a bug in exactdp.  It ends that
    file's check (exit status 3) and the run goes on with the other files."""

    @classmethod
    def from_exception(cls, e: BaseException) -> InternalError:
        """The exception's type, message and innermost place in exactdp's code."""
        frames = [f for f in traceback.extract_tb(e.__traceback__) if "exactdp" in f.filename]
        where = ""
        if frames:
            f = frames[-1]
            where = f" (at {f.filename[f.filename.rfind('exactdp') :]}:{f.lineno} in {f.name})"
        return cls(
            f"internal error, a bug in exactdp (please report it with the case file): {type(e).__name__}: {e}{where}"
        )


def suggest(word: str, options: Sequence[str]) -> str | None:
    """``did you mean 'x'?`` for the closest of ``options`` to a misspelt ``word`` (or None)."""
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None
