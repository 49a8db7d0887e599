"""Case files: safe YAML reading, located validation, mechanisms and claims (format version 1)."""

from .case import FORMAT_VERSION, Case, load_case, parse_case
from .claims import CLAIM_KINDS, register_claim
from .forms import FORMS, register_form
from . import forms_automaton, forms_continual  # noqa: F401  (register the automaton and continual forms)
from .yamlsafe import YamlLimits

__all__ = [
    "FORMAT_VERSION",
    "Case",
    "load_case",
    "parse_case",
    "CLAIM_KINDS",
    "register_claim",
    "FORMS",
    "register_form",
    "YamlLimits",
]
