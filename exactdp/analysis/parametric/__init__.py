"""Parametric analysis: exact answers for every value of the declared symbols at once, as
piecewise closed forms over a cell decomposition of the symbols' domain (docs/parametric.md)."""

from typing import TYPE_CHECKING

from ...lazy import attach

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from .algebraic import Algebraic, closed_form_latex, closed_form_text, decimal_text
    from .cells import Cell, Ctx, Decomposition, Domain, Side, Split, Undecided, decompose, domain_of_table
    from .engine import PGame, PProfile, pgame, profile, renyi_sum, symbols_used
    from .hull import INF, PHull, least_lambda, line_at, value_at
    from .piecewise import Interval, Piece, endpoint_dict, pieces
    from .ratfun import RatFun, Ring, factored_text
    from .values import ExpAffine, LogOf, MaxOf, cmp_log, lambda_of, log_form, mixed_log_form, rational_of, value_text

__all__ = [
    "Algebraic",
    "Cell",
    "Ctx",
    "Decomposition",
    "Domain",
    "INF",
    "Interval",
    "LogOf",
    "PGame",
    "PHull",
    "PProfile",
    "Piece",
    "RatFun",
    "Ring",
    "Side",
    "Split",
    "Undecided",
    "closed_form_latex",
    "closed_form_text",
    "cmp_log",
    "decimal_text",
    "decompose",
    "domain_of_table",
    "endpoint_dict",
    "factored_text",
    "lambda_of",
    "least_lambda",
    "line_at",
    "log_form",
    "mixed_log_form",
    "ExpAffine",
    "MaxOf",
    "pgame",
    "pieces",
    "profile",
    "rational_of",
    "renyi_sum",
    "symbols_used",
    "value_at",
    "value_text",
]

__getattr__, __dir__ = attach(__name__, __file__)
