"""Certificates a referee can check without trusting exactdp (docs/certificates.md).

The builders here turn exactdp's exact results into JSON proof objects — the explicit game, upper
chains, adversaries with events, post-processor tables, Farkas multipliers — that the small
standalone checker :mod:`exactdp.checker` verifies from the definitions (Vadhan & Wang 2021,
Def. 1.7 and Lemma 2.2, Thm 1.10).
"""

from .base import FORMAT, VERSION, NoCertificate, Source
from .build import (
    delta_certificate,
    dp_certificate,
    privloss_certificate,
    profile_certificate,
    simulation_certificate,
)
from .document import case_sha256, certificate_path, dumps_certificate, wrap
from .game import ExportedGame, export_game
from .renyi import renyi_certificate

__all__ = [
    "FORMAT",
    "VERSION",
    "NoCertificate",
    "Source",
    "ExportedGame",
    "export_game",
    "privloss_certificate",
    "dp_certificate",
    "delta_certificate",
    "profile_certificate",
    "simulation_certificate",
    "renyi_certificate",
    "wrap",
    "dumps_certificate",
    "certificate_path",
    "case_sha256",
]
