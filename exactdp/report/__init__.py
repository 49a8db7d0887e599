"""Rendering verdicts and profiles for people (text, LaTeX) and machines (JSON)."""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from .jsonout import profile_to_dict, run_to_json, witness_to_dict
    from .text import (
        NORMAL,
        QUIET,
        VERBOSE,
        WITNESS_LEGEND,
        Marks,
        TextReport,
        render_file,
        render_run,
        render_summary,
        render_witness,
    )

__getattr__, __dir__ = attach(__name__, __file__)

__all__ = [
    "Marks",
    "NORMAL",
    "QUIET",
    "VERBOSE",
    "TextReport",
    "WITNESS_LEGEND",
    "profile_to_dict",
    "render_file",
    "render_run",
    "render_summary",
    "render_witness",
    "run_to_json",
    "witness_to_dict",
]
