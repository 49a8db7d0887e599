"""Claims about mechanisms and their exact verdicts (one module per family of claims).

Every module of this package is a family of claim kinds (``core`` first: the claims of format
version 1), registered in :data:`CLAIMS` by its declarations; a new claim kind is one new
module (or one new class in a module) here, its row in the generated table
:mod:`exactdp.claims.index` (``python -m exactdp.tools.registryindex --write``), and its words
one renderer in :mod:`exactdp.report.verdicts` (the reader, the JSON Schema and the reference
tables follow from the declaration).  A kind's module is imported when the kind is first used.
"""

from typing import TYPE_CHECKING

from ..lazy import attach
from .base import CLAIMS, FAILS, HOLDS, UNDECIDED, UNSUPPORTED, Analysis, Claim, Shows, Status, Verdict, Where, claim

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from .bounded_range import BoundedRangeClaim, BRRangeClaim, NotBoundedRangeClaim
    from .calibrate import CalibrateClaim
    from .composition import CompositionClaim
    from .core import DeltaClaim, DPClaim, NotDPClaim, PrivLossClaim, ProfileEqClaim, ProfileLeClaim
    from .counterexample import CounterexampleClaim
    from .fdp import FDPClaim, GDPClaim, NotFDPClaim, NotGDPClaim, TradeoffClaim
    from .renyi import ConversionClaim, NotZCDPClaim, RenyiClaim, ZCDPClaim
    from .simulate import NotSimulatesRRClaim, SimulatesRRClaim

__all__ = [
    "CLAIMS",
    "claim",
    "FAILS",
    "HOLDS",
    "UNDECIDED",
    "UNSUPPORTED",
    "Shows",
    "Status",
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
    "RenyiClaim",
    "FDPClaim",
    "GDPClaim",
    "NotFDPClaim",
    "NotGDPClaim",
    "ZCDPClaim",
    "NotZCDPClaim",
    "ConversionClaim",
    "TradeoffClaim",
    "CalibrateClaim",
    "CounterexampleClaim",
]

__getattr__, __dir__ = attach(__name__, __file__)
