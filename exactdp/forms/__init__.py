"""Mechanism forms as frozen, typed values (no YAML here).

Each form of the case format is one frozen dataclass, declared once with its fields' kinds
(:mod:`exactdp.forms.fields`) and registered under its key (:data:`FORMS`); it builds its
mechanism with :mod:`exactdp.builders`.  The case reader, the JSON Schema and the case-format
reference are all derived from these declarations.

Every module of this package is a topic (``core`` first: trees, RR and the combinators of
format version 1); a new family of mechanisms is a new module here plus its builder in
``exactdp/builders/`` and its rows in the generated table :mod:`exactdp.forms.index`
(``python -m exactdp.tools.registryindex --write``).  A form's module is imported when the
form is first used.
"""

from .fields import FieldProblem, arg
from .registry import FORMS, BuildContext, Form, Obligation, Registry, form

__all__ = ["FORMS", "BuildContext", "Form", "Obligation", "Registry", "form", "arg", "FieldProblem"]
