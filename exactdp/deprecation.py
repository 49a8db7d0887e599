"""Deprecations: one helper, one warning class.

A deprecated usage keeps working, and warns through :func:`warn_deprecated` with a message
that says what to write instead, since when it is deprecated and when it goes away.  The
warning class :class:`ExactDPDeprecationWarning` is a :class:`DeprecationWarning`, so
``python -W error::DeprecationWarning`` and pytest's ``filterwarnings`` catch it (exactdp's own
test suite turns it into an error, so that no deprecated call survives inside exactdp).
"""

from __future__ import annotations

import warnings

__all__ = ["ExactDPDeprecationWarning", "warn_deprecated", "REMOVAL"]

REMOVAL = "0.3.0"
"""The release in which the usages deprecated now will be removed."""


class ExactDPDeprecationWarning(DeprecationWarning):
    """A usage of exactdp's API that still works but will be removed (the message says what
    to write instead)."""


def warn_deprecated(msg: str, *, since: str, removed_in: str = REMOVAL, stacklevel: int = 2) -> None:
    """Warn that a usage is deprecated.

    Parameters
    ----------
    msg : str
        What is deprecated and what to write instead (a complete sentence).
    since : str
        The exactdp version that deprecated it.
    removed_in : str, optional (default = :data:`REMOVAL`)
        The version that will remove it.
    stacklevel : int, optional (default = 2)
        As for :func:`warnings.warn`, counted from the caller of this function: 2 points at the
        caller's caller (the user's code calling a deprecated function).
    """
    warnings.warn(
        f"{msg} (deprecated since exactdp {since}; it will be removed in {removed_in})",
        ExactDPDeprecationWarning,
        stacklevel=stacklevel + 1,
    )
