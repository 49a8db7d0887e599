r"""Check exactdp certificates using nothing but the Python standard library (usage: :func:`main`).

This package imports nothing from exactdp: a referee who reads it need not trust exactdp's reader,
engines, SymPy, gmpy2, mpmath or FLINT, only Python and these files.  Run it as
``python -I -S checker CERT_OR_DIR...`` (this folder, copied anywhere) or as ``exactdp-check``.

What a referee reads: ``core.py``, on which every certificate relies, and the module of each claim
kind they check (each states what it relies on)::

    core.py          reading, limits, exact numbers, games, delta at one lam and every lam; PrivLoss, DP, delta
    profiles.py      privacy profiles compared, f-DP, trade-off values
    divergences.py   Renyi and KL divergences, conversions to (eps, delta)-DP
    bounded_range.py bounded range
    zcdp.py          zero-concentrated DP (with divergences.py)
    gdp.py           Gaussian DP
    simulation.py    post-processings of randomized response (Vadhan & Wang 2021, Thm 1.10)
    composition.py   composition theorems (with divergences.py for theorem renyi)
    symbol.py        claims about a symbol, at a value or for every value
    cli.py           the command line, which decides nothing
"""

from . import bounded_range, composition, core, divergences, gdp, profiles, simulation, symbol, zcdp  # noqa: F401  (each registers its kinds)
from .cli import fingerprints, load, main, show, symbol_fingerprints
from .core import DEFAULT_LIMITS, LIMITS, Malformed, OtherCase, Rejected, TooLarge, check_certificate, read_games
from .symbol import SignChange

__all__ = [
    "main",
    "check_certificate",
    "load",
    "read_games",
    "fingerprints",
    "symbol_fingerprints",
    "show",
    "Malformed",
    "TooLarge",
    "Rejected",
    "OtherCase",
    "SignChange",
    "DEFAULT_LIMITS",
    "LIMITS",
]
