"""Claims about mechanisms and their exact verdicts (one module per family of claims)."""

from .base import FAILS, HOLDS, UNSUPPORTED, Analysis, Claim, Verdict, Where
from .composition import CompositionClaim
from .core import (
    DeltaClaim,
    DPClaim,
    NotDPClaim,
    PrivLossClaim,
    ProfileEqClaim,
    ProfileLeClaim,
    SimulatesRRClaim,
)

__all__ = [
    "FAILS",
    "HOLDS",
    "UNSUPPORTED",
    "Analysis",
    "Claim",
    "Verdict",
    "Where",
    "CompositionClaim",
    "DeltaClaim",
    "DPClaim",
    "NotDPClaim",
    "PrivLossClaim",
    "ProfileEqClaim",
    "ProfileLeClaim",
    "SimulatesRRClaim",
]
