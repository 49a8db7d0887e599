"""Case files: safe YAML reading, located validation, mechanisms and claims (format version 1)."""

from . import (  # noqa: F401  (register forms and claims)
    claims_bounded_range,
    claims_simulate,  # noqa: F401  (registers simulates_rr, not_simulates_rr)
    forms_classic,
    forms_exponential,
    forms_svt,
)
from .case import FORMAT_VERSION, Case, evaluate_in_case, load_case, parse_case
from .claims import CLAIM_KINDS, register_claim
from .forms import FORMS, register_form
from . import forms_automaton, forms_continual  # noqa: F401  (register the automaton and continual forms)
from .yamlsafe import YamlLimits

from . import claims_composition, forms_composition  # noqa: E402,F401  (register issue-4 forms and claims)
from . import claims_beyond  # noqa: E402,F401  (renyi, fdp, gdp)

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
