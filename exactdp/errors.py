"""The exceptions exactdp raises.

One small hierarchy, rooted at :class:`ExactDPError`.  No ``KeyError``, ``ValueError`` or
traceback reaches a user for a mistake in their input: the CLI turns every
:class:`ExactDPError` into a message and an exit status.

=============================  ==========================================================  ====
class                          meaning                                                     exit
=============================  ==========================================================  ====
``CaseError``                  a case file is not valid (file, place, problem, hint)       2
``InexactValueError``          a value has no exact representation here; never rounded     2
``UnsupportedMechanismError``  a sub-mechanism cannot be handled by the requested engine   2
``LimitExceededError``         a resource limit was hit; the message says how to raise it  2
``VerificationError``          an engine, certificate or witness disagreed: a bug          3
=============================  ==========================================================  ====
"""

from __future__ import annotations

import difflib
from typing import Any
from dataclasses import dataclass
from typing import Sequence

__all__ = [
    "ExactDPError",
    "CaseError",
    "CaseProblem",
    "InexactValueError",
    "UnsupportedMechanismError",
    "LimitExceededError",
    "VerificationError",
]


class ExactDPError(Exception):
    """Root of every error exactdp raises on purpose."""


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

    def render(self) -> str:
        lines = [p.render() for p in self.problems]
        if self.truncated:
            lines.append("(more problems were found; fix these first)")
        return "\n".join(lines)


def _case_error(problems: list[CaseProblem], truncated: bool) -> CaseError:
    return CaseError(problems, truncated=truncated)


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


class TimeLimitExceeded(LimitExceededError):
    """The wall-clock limit (``--timeout``) ran out.  It concerns the whole run of a file, never
    a value in it, so readers must not turn it into a located problem."""

    def __init__(self, limit: object):
        super().__init__("the running time", limit, "raise it with --timeout SECONDS")


class VerificationError(ExactDPError):
    """Two independent computations disagreed (engine vs engine, witness re-check, certificate).

    This always indicates a bug in exactdp; please report it with the case file.
    """


def suggest(word: str, options: Sequence[str]) -> str | None:
    """``did you mean 'x'?`` for the closest of ``options`` to a misspelt ``word`` (or None)."""
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else None
