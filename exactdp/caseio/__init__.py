"""Case files: safe YAML reading, located validation, mechanisms and claims (format version 1)."""

from .case import FORMAT_VERSION, Case, load_case, parse_case
from .claims import CLAIM_KINDS, register_claim
from .forms import FORMS, register_form
from . import claims_bounded_range, forms_classic, forms_exponential, forms_svt  # noqa: F401  (register forms and claims)
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
