"""Claims about mechanisms and their exact verdicts (one module per family of claims).

Every module of this package is a family of claim kinds (``core`` first: the claims of format
version 1), registered in :data:`CLAIMS` by its declarations; a new claim kind is one new
module (or one new class in a module) here, and its words one renderer in
:mod:`exactdp.report.verdicts` (the reader, the JSON Schema and the reference tables follow from
the declaration).
"""

from ..forms.registry import import_topics
from .base import CLAIMS, FAILS, HOLDS, UNDECIDED, UNSUPPORTED, Analysis, Claim, Shows, Status, Verdict, Where, claim

# isort: off
# the claim kinds register in this order (the case-format reference lists them so)
from .core import DeltaClaim, DPClaim, NotDPClaim, PrivLossClaim, ProfileEqClaim, ProfileLeClaim
from .bounded_range import BoundedRangeClaim, BRRangeClaim, NotBoundedRangeClaim
from .simulate import NotSimulatesRRClaim, SimulatesRRClaim
from .composition import CompositionClaim
from .renyi import ConversionClaim, NotZCDPClaim, RenyiClaim, ZCDPClaim
from .fdp import FDPClaim, GDPClaim, NotFDPClaim, NotGDPClaim, TradeoffClaim
from .calibrate import CalibrateClaim
from .counterexample import CounterexampleClaim
# isort: on

import_topics(__name__, __path__, first="core", skip=("base",))

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
