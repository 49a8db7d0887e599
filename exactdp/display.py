"""Rich display in Jupyter: exactdp's objects show drawings, plots and tables in a notebook.

A notebook asks an object for its richer forms through ``_repr_html_`` and ``_repr_png_``.
Mechanisms, profiles, verdicts and file results live in the lower layers, which cannot import
the report layer that draws them (data flows one way), so their classes inherit
:class:`RichDisplay`, whose methods look up the renderer registered here for the object's
type and form.  :mod:`exactdp.report.notebook` registers the renderers; it is imported (by
:func:`exactdp.lazy.load`, named as text so that no lower layer imports the report layer) when
a notebook first asks for a form, not at start-up.  A form with no renderer (or whose renderer has nothing to show) is ``None``, which
a notebook skips.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .lazy import load

__all__ = ["RichDisplay", "register", "render", "MIME_TYPES"]

MIME_TYPES = ("text/html", "image/png")
RENDERERS_MODULE = "exactdp.report.notebook"  # registers the renderers when imported

_RENDERERS: dict[tuple[type, str], Callable[[Any], Any]] = {}


def register(cls: type, mime: str, fn: Callable[[Any], Any]) -> None:
    """Show instances of ``cls`` (and its subclasses) as ``mime`` through ``fn(obj)``, which
    returns the data (``str`` for HTML, ``bytes`` for PNG) or ``None``."""
    if mime not in MIME_TYPES:
        raise ValueError(f"unknown form {mime!r}; forms: {', '.join(MIME_TYPES)}")
    _RENDERERS[(cls, mime)] = fn


def render(obj: Any, mime: str) -> Any:
    """The registered form ``mime`` of ``obj`` (the nearest class in its MRO), or ``None``."""
    if not _RENDERERS:
        load(RENDERERS_MODULE)
    for klass in type(obj).__mro__:
        fn = _RENDERERS.get((klass, mime))
        if fn is not None:
            return fn(obj)
    return None


class RichDisplay:
    """Mixin of the classes a notebook shows richly (see the module docstring)."""

    __slots__ = ()

    def _repr_html_(self) -> str | None:
        return render(self, "text/html")

    def _repr_png_(self) -> bytes | None:
        return render(self, "image/png")
