"""Certificates a referee can check without trusting exactdp (docs/certificates.md).

The builders here turn exactdp's exact results into JSON proof objects — the explicit game, the
values the checker pins (e^PrivLoss), upper chains, tangent points, post-processor tables, Farkas
multipliers — that the small standalone checker :mod:`exactdp.checker` verifies from the
definitions (Vadhan & Wang 2021, Def. 1.7, Lemma 2.2, Def. 2.1, Thm 1.10).
"""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from .base import FORMAT, VERSION, ExpValue, NoCertificate, Source, exp_eps, number_text, textify
    from .build import (
        br_certificate,
        delta_certificate,
        dp_certificate,
        gdp_certificate,
        privloss_certificate,
        profile_certificate,
        simulation_certificate,
        tradeoff_certificate,
    )
    from .compose import composition_certificate
    from .document import case_sha256, certificate_path, dumps_certificate, games_document, wrap
    from .game import ExportedGame, export_game, game_label
    from .renyi import conversion_certificate, renyi_certificate
    from .symbolic import Engines, symbol_doc, symbolic_certificate, symbolic_game
    from .zcdp import zcdp_certificate

__all__ = [
    "FORMAT",
    "VERSION",
    "NoCertificate",
    "Source",
    "ExpValue",
    "exp_eps",
    "number_text",
    "textify",
    "ExportedGame",
    "export_game",
    "game_label",
    "privloss_certificate",
    "dp_certificate",
    "delta_certificate",
    "profile_certificate",
    "simulation_certificate",
    "gdp_certificate",
    "tradeoff_certificate",
    "br_certificate",
    "composition_certificate",
    "renyi_certificate",
    "conversion_certificate",
    "zcdp_certificate",
    "Engines",
    "symbolic_certificate",
    "symbolic_game",
    "symbol_doc",
    "wrap",
    "games_document",
    "dumps_certificate",
    "certificate_path",
    "case_sha256",
]

__getattr__, __dir__ = attach(__name__, __file__)
