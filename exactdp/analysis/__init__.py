"""Analysis engines: the profile engine (default, backward induction) and the enumerator
(the brute-force reference of Lemma 2.2).

As modules, both expose ``profile``, ``privloss``, ``delta_at``, ``is_dp`` and ``witness`` with
the same signatures; as objects (:mod:`exactdp.analysis.engine`) both implement the
:class:`Engine` protocol, which is what claims and commands use."""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from . import enumerator, profile
    from .engine import ENGINE_NAMES, Engine, EnumeratorEngine, ProfileEngine, make_engine
    from .hull import Hull
    from .results import AffineInLambda as AffineInLambda  # its home is exactdp.numbers (the ladder)
    from .results import PairProfile, Profile, format_privloss
    from .witness import Witness, recheck

__all__ = [
    "ENGINE_NAMES",
    "Engine",
    "EnumeratorEngine",
    "Hull",
    "PairProfile",
    "Profile",
    "ProfileEngine",
    "Witness",
    "enumerator",
    "format_privloss",
    "make_engine",
    "profile",
    "recheck",
]

__getattr__, __dir__ = attach(__name__, __file__)
