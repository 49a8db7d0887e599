"""Claims about mechanisms and their exact verdicts (one module per family of claims)."""

from .base import FAILS, HOLDS, UNSUPPORTED, Analysis, Claim, Verdict, Where
from .beyond import (
    FDPClaim,
    FDPCompositionClaim,
    GDPClaim,
    NotFDPClaim,
    NotGDPClaim,
    RenyiClaim,
    RenyiCompositionClaim,
)
from .bounded_range import BoundedRangeClaim, BRRangeClaim, NotBoundedRangeClaim
from .composition import CompositionClaim
from .core import (
    DeltaClaim,
    DPClaim,
    NotDPClaim,
    PrivLossClaim,
    ProfileEqClaim,
    ProfileLeClaim,
)
from .simulate import NotSimulatesRRClaim, SimulatesRRClaim

__all__ = [
    "RenyiClaim",
    "FDPClaim",
    "GDPClaim",
    "NotFDPClaim",
    "NotGDPClaim",
    "RenyiCompositionClaim",
    "FDPCompositionClaim",
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
    "NotSimulatesRRClaim",
    "BoundedRangeClaim",
    "BRRangeClaim",
    "NotBoundedRangeClaim",
]
