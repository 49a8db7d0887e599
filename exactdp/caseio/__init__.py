"""Case files: safe YAML, located problems, params and symbols, the explicit tree grammar, and
one generic reader for every declared form and claim (format version 1)."""

from .case import FORMAT_VERSION, TOP_LEVEL_KEYS, Case, evaluate_in_case, load_case, parse_case
from .files import output_clash
from .yamlsafe import YamlLimits

__all__ = [
    "output_clash",
    "FORMAT_VERSION",
    "TOP_LEVEL_KEYS",
    "Case",
    "load_case",
    "parse_case",
    "evaluate_in_case",
    "YamlLimits",
]
