"""Mechanism forms as frozen, typed values, and the registry of their case-file keys.

A form is a frozen dataclass whose fields are declared with :func:`~exactdp.forms.fields.arg`
and registered under its key with :func:`form`::

    @form("repeat")
    @dataclass(frozen=True, kw_only=True)
    class Repeat(Form):
        '''``repeat: {mechanism: m, times: k}``: k copies of m, one after another.'''
        mechanism: Mechanism = arg(MechanismRef())
        times: int = arg(Count("times", 0, 100_000))

        def build(self, ctx: BuildContext) -> Mechanism:
            return repeat(self.mechanism, self.times, name=ctx.name)

The contract, as for case-format version 1 itself: a key is never registered twice, never
removed, and never changes meaning.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from ..model.game import Mechanism, Node
from ..numbers.symbolic import SymbolTable
from .fields import Declared
from .index import FORM_MODULES

__all__ = ["Form", "BuildContext", "Obligation", "Registry", "FORMS", "form"]

T = TypeVar("T", bound=type)


@dataclass(frozen=True)
class BuildContext:
    """What a form's ``build`` may use besides its own fields: the case's datasets and
    adjacency, the name the mechanism gets, and the declared symbols."""

    datasets: tuple[str, ...]
    adjacent: tuple[tuple[int, int], ...]
    name: str = "M"
    symbols: SymbolTable | None = None

    def wrap(self, root: Node) -> Mechanism:
        return Mechanism(root, self.datasets, self.adjacent, self.name)


@dataclass(frozen=True)
class Obligation:
    """A premise a form's construction relies on, checked later as a verdict under the chosen
    engine: ``mechanism`` is (``eps``, ``delta``)-DP (e.g. a continual mechanism's claimed
    parameters, Henzinger–Safavi–Vadhan Def. 4.4 (iv)).  ``field`` locates it in the form."""

    mechanism: Mechanism
    eps: Any
    delta: Any
    text: str
    field: tuple[str | int, ...] = ()


class Form(Declared):
    """Base of mechanism forms: ``build`` turns the checked fields into a Mechanism.

    ``shorthand`` names the field that the whole value fills when it is not a mapping of the
    form's own keys (``compose: [A, B]`` fills ``mechanisms``).
    """

    key: ClassVar[str] = ""
    shorthand: ClassVar[str | None] = None

    def build(self, ctx: BuildContext) -> Mechanism:  # pragma: no cover - every form overrides it
        raise NotImplementedError

    def obligations(self, ctx: BuildContext) -> tuple[Obligation, ...]:
        """Premises to check before trusting the built mechanism (default: none)."""
        return ()


class Registry(Generic[T]):
    """Keys → declared classes; a key registered twice is a programming error, refused at
    import time (so what a key means never depends on import order).

    ``index`` maps each key to the module of ``package`` that declares it (a generated table,
    :mod:`exactdp.tools.registryindex`, checked against the declarations by the tests): the
    registry knows every key, in the index's order, and imports a key's module only when the
    key's class is first asked for, so reading a case imports only the forms and claims it
    uses."""

    def __init__(self, what: str, attr: str, package: str = "", index: Mapping[str, str] | None = None):
        self.what = what
        self.attr = attr  # the class attribute that records the key ("key" for forms, "kind" for claims)
        self.package = package
        self.index: Mapping[str, str] = index or {}
        self._items: dict[str, T] = {}

    def register(self, key: str) -> Callable[[T], T]:
        def deco(cls: T) -> T:
            old = self._items.get(key)
            if old is not None and old is not cls:
                raise RuntimeError(
                    f"the {self.what} {key!r} is registered twice ({old.__qualname__} and {cls.__qualname__})"
                )
            setattr(cls, self.attr, key)
            self._items[key] = cls
            return cls

        return deco

    def keys(self) -> list[str]:
        """Every key, in the index's order (then keys registered outside the index)."""
        return [*self.index, *(k for k in self._items if k not in self.index)]

    def __getitem__(self, key: str) -> T:
        if key not in self._items and key in self.index:
            importlib.import_module(f"{self.package}.{self.index[key]}")
        return self._items[key]

    def __contains__(self, key: object) -> bool:
        return key in self.index or key in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())

    def items(self) -> list[tuple[str, T]]:
        """Every (key, class), importing every declaring module."""
        return [(k, self[k]) for k in self.keys()]

    def loaded(self) -> dict[str, T]:
        """The keys registered so far (their modules imported), in registration order."""
        return dict(self._items)


FORMS: Registry[type] = Registry("mechanism form", "key", "exactdp.forms", FORM_MODULES)


def form(key: str) -> Callable[[T], T]:
    """Register a mechanism form under ``key`` (see the module docstring)."""
    register = FORMS.register(key)

    def deco(cls: T) -> T:  # the decorated class keeps its own type (FORMS holds plain types)
        register(cls)
        return cls

    return deco


def doc_line(cls: type) -> str:
    """The first paragraph of a declared class's docstring, on one line (for tables)."""
    text = (cls.__doc__ or "").strip().split("\n\n")[0]
    return " ".join(text.split())


__all__.append("doc_line")
