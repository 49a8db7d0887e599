"""Preconditions of the Python API: a mechanism where a mechanism is expected.

A case file refers to mechanisms by name; the Python API takes :class:`~.game.Mechanism`
objects.  Passing the name (``privloss("M", 0)``), a bare game node or a whole case is an
:class:`~exactdp.errors.ArgumentTypeError` (also a :class:`TypeError`) that says what was given
and what to pass instead, raised at the call the
user wrote rather than deep inside an engine.  :func:`takes_mechanism` states the precondition
on a function (as networkx's ``not_implemented_for`` does), :func:`mechanism_arg` and
:func:`mechanisms_arg` check one argument.  :func:`instance_arg` and :func:`takes_instance` do
the same for the other objects the API passes around (a profile, a chain, a trade-off function):
what was given, what is expected, and how to get one.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from ..errors import ArgumentTypeError
from .game import Mechanism, Node

__all__ = [
    "shown_arg",
    "list_arg",
    "mechanism_arg",
    "mechanisms_arg",
    "collection_arg",
    "takes_mechanism",
    "instance_arg",
    "takes_instance",
]

F = TypeVar("F", bound=Callable[..., Any])
_BUILD = 'build one, e.g. exactdp.rr(eps="log(3)")'
_LOAD = "read a case file with exactdp.load_case(PATH)"


def shown_arg(obj: object, limit: int = 60) -> str:
    """An argument as a message quotes it: its repr, cut at ``limit`` characters (an integer too
    long for Python to print, beyond 4,300 digits, by its size)."""
    try:
        r = repr(obj)
    except ValueError:
        r = f"<an integer of {obj.bit_length()} bits>" if isinstance(obj, int) else f"<a {type(obj).__name__}>"
    return r if len(r) <= limit else r[: limit - 3] + "..."


def mechanism_arg(obj: Any, call: str, name: str = "mech") -> Mechanism:
    """``obj`` if it is a :class:`Mechanism`; otherwise an
    :class:`~exactdp.errors.ArgumentTypeError` naming the call, the argument, what was given and
    what to pass instead."""
    if isinstance(obj, Mechanism):
        return obj
    where = f"{call}: {name}={shown_arg(obj)}"
    if isinstance(obj, str):
        raise ArgumentTypeError(
            f"{where} is a name, not a mechanism: names refer to mechanisms inside a case file only; "
            f"use case.mechanisms[{obj!r}] of the case read by exactdp.load_case(PATH), or {_BUILD}"
        )
    if isinstance(obj, Node):
        raise ArgumentTypeError(f"{where} is a game node, not a mechanism: wrap it as exactdp.mechanism(node)")
    if hasattr(obj, "mechanisms") and isinstance(getattr(obj, "mechanisms", None), Mapping):
        names = ", ".join(map(str, obj.mechanisms)) or "(none)"
        raise ArgumentTypeError(f"{where} is a case, not a mechanism: pick one, case.mechanisms[NAME] (names: {names})")
    raise ArgumentTypeError(f"{where}: expected a Mechanism, got {type(obj).__name__}; {_BUILD}, or {_LOAD}")


def list_arg(
    items: Any, call: str, name: str, what: str, *, single: type | tuple[type, ...] = (), wrap: str = "[x]"
) -> Any:
    """``items`` if it is a list (any iterable but text, and not one ``single`` item, which may be
    iterable itself); otherwise an :class:`~exactdp.errors.ArgumentTypeError` saying that ``name``
    must be a list of ``what`` (and, for one ``single`` item, to ``wrap`` it)."""
    if isinstance(items, (str, bytes, *(single if isinstance(single, tuple) else (single,)))) or not hasattr(
        items, "__iter__"
    ):
        hint = f"; wrap one in a list, {wrap}" if single and isinstance(items, single) else ""
        raise ArgumentTypeError(
            f"{call}: {name} must be a list of {what}, got {type(items).__name__}: {shown_arg(items)}{hint}"
        )
    return items


def collection_arg(items: Any, call: str, name: str = "components") -> Any:
    """``items`` if it is a list (any iterable but text) or a mapping ``{label: mechanism}``, as
    the combinators take their components; the mechanisms themselves are checked by the caller."""
    return list_arg(items, call, name, "mechanisms or a mapping {label: mechanism}", single=Mechanism, wrap="[M]")


def mechanisms_arg(items: Any, call: str, name: str = "components") -> Any:
    """Check every mechanism of a list or a ``{label: mechanism}`` mapping; returns ``items``."""
    collection_arg(items, call, name)
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


def instance_arg(obj: Any, kind: type | tuple[type, ...], call: str, name: str, *, what: str, how: str) -> Any:
    """``obj`` if it is a ``kind``; otherwise an :class:`~exactdp.errors.ArgumentTypeError`
    naming the call and the argument, saying what was given, that ``what`` (``"a profile"``) is
    expected, and ``how`` to get one (``"compute it with exactdp.profile(mech)"``)."""
    if isinstance(obj, kind):
        return obj
    where = f"{call}: {name}={shown_arg(obj)}"
    if isinstance(obj, Mechanism):
        raise ArgumentTypeError(f"{where} is a mechanism, not {what}: {how}")
    if isinstance(obj, str):
        raise ArgumentTypeError(f"{where} is text, not {what}: {how}")
    raise ArgumentTypeError(f"{where}: expected {what}, got {type(obj).__name__}; {how}")


def takes_instance(kind: type | tuple[type, ...], *, what: str, how: str) -> Callable[[F], F]:
    """Decorator: the first argument of the function must be a ``kind`` (see
    :func:`instance_arg`); the error names the function and the argument."""

    def decorate(fn: F) -> F:
        first = next(iter(inspect.signature(fn).parameters))

        @functools.wraps(fn)
        def checked(*args: Any, **kw: Any) -> Any:
            instance_arg(args[0] if args else kw.get(first), kind, fn.__name__, first, what=what, how=how)
            return fn(*args, **kw)

        return checked  # type: ignore[return-value]

    return decorate
