"""Case files: safe YAML reading, located validation, mechanisms and claims (format version 1)."""

from .case import FORMAT_VERSION, Case, load_case, parse_case
from .claims import CLAIM_KINDS, register_claim
from .forms import FORMS, register_form
from .yamlsafe import YamlLimits

from . import claims_composition, forms_composition  # noqa: E402,F401  (register issue-4 forms and claims)

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
