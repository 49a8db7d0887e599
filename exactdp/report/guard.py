"""Containing a fault in the display of one file's result, as checking contains a fault in one
file's check: that file becomes an internal error of its own (exit status 3), and the run goes on
showing the others, its summary and its exit status intact."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Generic, TypeVar

from ..errors import InternalError
from ..verify import FileResult

__all__ = ["contained", "display_failure", "Shown"]

T = TypeVar("T")


def contained(fr: FileResult, render: Callable[[FileResult], T]) -> tuple[FileResult, T]:
    """``(fr, render(fr))``; when rendering raises (a bug in exactdp's display of this file), the
    file as an internal error (:func:`display_failure`) and its rendering instead."""
    try:
        return fr, render(fr)
    except Exception as e:  # any fault of the display: the file's own error, never the run's end
        failed = display_failure(fr, e)
        return failed, render(failed)


def display_failure(fr: FileResult, e: Exception) -> FileResult:
    """``fr`` as an internal error that names the fault and keeps the count of its verdicts (their
    values are what could not be shown)."""
    counts = Counter(v.status for v in fr.verdicts)
    checked = ", ".join(f"{n} {status}" for status, n in counts.items()) or "none"
    why = f"{InternalError.from_exception(e)}; while showing the result (its claims were checked: {checked})"
    return replace(fr, case=None, verdicts=(), error=InternalError(why))


class Shown(Generic[T]):
    """Results as they arrive, each rendered once through :func:`contained`: ``results`` (as they
    could be shown) and ``renderings`` (what ``render`` made of each), in order."""

    def __init__(self, render: Callable[[FileResult], T]):
        self.render, self.results, self.renderings = render, list[FileResult](), list[T]()

    def __call__(self, fr: FileResult) -> T:
        fr, got = contained(fr, self.render)
        self.results.append(fr)
        self.renderings.append(got)
        return got
