"""Analysis engines: the profile engine (default, backward induction) and the enumerator
(the brute-force reference of Lemma 2.2).  Both expose ``profile``, ``privloss``, ``delta``,
``is_dp`` and ``witness`` with the same signatures."""

from . import enumerator, profile
from .hull import Hull
from .results import AffineInLambda, PairProfile, Profile, format_privloss
from .witness import Witness, recheck

ENGINES = {"profile": profile, "enumerator": enumerator}

__all__ = [
    "ENGINES",
    "AffineInLambda",
    "Hull",
    "PairProfile",
    "Profile",
    "Witness",
    "enumerator",
    "format_privloss",
    "profile",
    "recheck",
]
