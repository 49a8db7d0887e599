"""Case files: safe YAML reading, located validation, mechanisms and claims (format version 1)."""

from .case import FORMAT_VERSION, Case, evaluate_in_case, load_case, parse_case
from . import claims_simulate  # noqa: F401  (registers simulates_rr, not_simulates_rr)
from .claims import CLAIM_KINDS, register_claim
from .forms import FORMS, register_form
from .yamlsafe import YamlLimits

__all__ = [
    "FORMAT_VERSION",
    "Case",
    "load_case",
    "parse_case",
    "evaluate_in_case",
    "CLAIM_KINDS",
    "register_claim",
    "FORMS",
    "register_form",
    "YamlLimits",
]
