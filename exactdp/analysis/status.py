"""The outcome of deciding a statement: holds, fails, unsupported, or undecided.

One enumeration for every decision exactdp makes (a claim's verdict, a certified comparison
such as the Gaussian-DP test): the values are the words of the machine-readable reports
(``--json``, the sweep CSV); how people read them is decided in :mod:`exactdp.report`.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status"]


class Status(StrEnum):
    """The outcome of a decision.

    ``UNDECIDED`` is never counted as holding: a limit was reached, a value had no exact
    representation, or certified arithmetic could not separate two numbers.  Its word in the
    machine-readable reports is ``error`` (report format version 1 and the sweep CSV, unchanged);
    people read "undecided" (``!`` in the text report) and the run exits with status 2.
    """

    HOLDS = "holds"
    FAILS = "fails"
    UNSUPPORTED = "unsupported"
    UNDECIDED = "error"
