"""Preconditions of the Python API: a mechanism where a mechanism is expected.

A case file refers to mechanisms by name; the Python API takes :class:`~.game.Mechanism`
objects.  Passing the name (``privloss("M", 0)``), a bare game node or a whole case is a
:class:`TypeError` that says what was given and what to pass instead, raised at the call the
user wrote rather than deep inside an engine.  :func:`takes_mechanism` states the precondition
on a function (as networkx's ``not_implemented_for`` does), :func:`mechanism_arg` and
:func:`mechanisms_arg` check one argument.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .game import Mechanism, Node

__all__ = ["mechanism_arg", "mechanisms_arg", "takes_mechanism"]

F = TypeVar("F", bound=Callable[..., Any])
_BUILD = 'build one, e.g. exactdp.rr(eps="log(3)")'
_LOAD = "read a case file with exactdp.load_case(PATH)"


def _shown(obj: object, limit: int = 60) -> str:
    r = repr(obj)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def mechanism_arg(obj: Any, call: str, name: str = "mech") -> Mechanism:
    """``obj`` if it is a :class:`Mechanism`; otherwise a :class:`TypeError` naming the call, the
    argument, what was given and what to pass instead."""
    if isinstance(obj, Mechanism):
        return obj
    where = f"{call}: {name}={_shown(obj)}"
    if isinstance(obj, str):
        raise TypeError(
            f"{where} is a name, not a mechanism: names refer to mechanisms inside a case file only; "
            f"use case.mechanisms[{obj!r}] of the case read by exactdp.load_case(PATH), or {_BUILD}"
        )
    if isinstance(obj, Node):
        raise TypeError(f"{where} is a game node, not a mechanism: wrap it as exactdp.mechanism(node)")
    if hasattr(obj, "mechanisms") and isinstance(getattr(obj, "mechanisms", None), Mapping):
        names = ", ".join(map(str, obj.mechanisms)) or "(none)"
        raise TypeError(f"{where} is a case, not a mechanism: pick one, case.mechanisms[NAME] (names: {names})")
    raise TypeError(f"{where}: expected a Mechanism, got {type(obj).__name__}; {_BUILD}, or {_LOAD}")


def mechanisms_arg(items: Any, call: str, name: str = "components") -> Any:
    """Check every mechanism of a list or a ``{label: mechanism}`` mapping; returns ``items``."""
    if isinstance(items, Mechanism) or isinstance(items, str) or not hasattr(items, "__iter__"):
        raise TypeError(
            f"{call}: {name} must be a list of mechanisms or a mapping {{label: mechanism}}, got {type(items).__name__}: "
            f"{_shown(items)}"
        )
    if isinstance(items, Mapping):
        for label, m in items.items():
            mechanism_arg(m, call, f"{name}[{label!r}]")
    else:
        for k, m in enumerate(items):
            mechanism_arg(m, call, f"{name}[{k}]")
    return items


def takes_mechanism(fn: F) -> F:
    """Decorator: the first argument of ``fn`` must be a :class:`Mechanism` (see
    :func:`mechanism_arg`); the error names ``fn``."""

    first = next(iter(inspect.signature(fn).parameters))

    @functools.wraps(fn)
    def checked(*args: Any, **kw: Any) -> Any:
        mechanism_arg(args[0] if args else kw.get(first), fn.__name__, first)
        return fn(*args, **kw)

    return checked  # type: ignore[return-value]
