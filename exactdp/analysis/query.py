"""The questions about one mechanism (``exactdp privloss``, ``profile``, ``delta``, ``renyi``),
each answered by the engine that fits the mechanism: piecewise in the symbols
(:mod:`exactdp.analysis.parametric.queries`) when its probabilities, or the question, have
symbols (docs/parametric.md), else exactly by the engine given (:class:`~exactdp.analysis.Engine`).

A piecewise answer is a :class:`~exactdp.analysis.parametric.queries.Piecewise`; the rendering
tells the two kinds of answer apart with :func:`is_piecewise`.
"""

from __future__ import annotations

from typing import Any

from ..errors import ExactDPError
from ..model.game import Mechanism
from ..model.symbolic import is_symbolic_mechanism
from .engine import Engine, exact_privloss
from .parametric.queries import Piecewise, delta_of, privloss_of, profile_of, renyi_of
from .renyi_real import renyi_any

__all__ = ["has_symbols", "answers_piecewise", "is_piecewise", "privloss", "profile", "delta", "renyi"]


def has_symbols(symbols: Any, mech: Mechanism) -> bool:
    """Whether ``mech`` has probabilities in the case's ``symbols``."""
    return bool(symbols) and is_symbolic_mechanism(mech)


def is_piecewise(answer: Any) -> bool:
    """Whether ``answer`` is piecewise in the symbols (else the exact answer of an engine)."""
    return isinstance(answer, Piecewise)


def answers_piecewise(symbols: Any, mech: Mechanism, x: Any = None) -> bool:
    """Whether the answer about ``mech`` (and the number ``x`` asked about) is piecewise: when
    either has symbols."""
    return has_symbols(symbols, mech) or hasattr(x, "free_symbols")


def privloss(mech: Mechanism, symbols: Any, delta: Any, engine: Engine, *, witness: bool = False) -> Any:
    """PrivLoss(M, delta) (Vadhan-Wang Def. 1.7): piecewise when M or delta has symbols, else
    ``(value, lambda, witness)`` of :func:`~exactdp.analysis.engine.exact_privloss`."""
    if answers_piecewise(symbols, mech, delta):
        if witness:
            raise ExactDPError(
                "a witness (--witness) needs a mechanism without symbols: it is an adversary at one value of the "
                "symbols (a counterexample claim shows one, at the value it names)"
            )
        return privloss_of(mech, symbols, delta)
    return exact_privloss(engine, mech, delta, witness=witness)


def profile(mech: Mechanism, symbols: Any, engine: Engine) -> Any:
    """The privacy profile: piecewise when M has symbols, else the engine's exact
    :class:`~exactdp.analysis.Profile`."""
    return profile_of(mech, symbols) if has_symbols(symbols, mech) else engine.profile(mech)


def delta(mech: Mechanism, symbols: Any, eps: Any, engine: Engine) -> Any:
    """delta_M(e^eps) (Vadhan-Wang Def. 1.7): piecewise when M or eps has symbols, else exact."""
    if answers_piecewise(symbols, mech, eps):
        return delta_of(mech, symbols, eps, is_lambda=False)
    return engine.profile(mech).delta_at(eps)


def renyi(mech: Mechanism, symbols: Any, alphas: list, engine: Engine) -> list:
    """D_alpha(M) (Mironov 2017, Def. 3) at each order, as ``(alpha, answer)`` pairs: piecewise
    when M has symbols, else the result of :func:`~exactdp.analysis.renyi_real.renyi_any`."""
    if has_symbols(symbols, mech):
        return [(a, renyi_of(mech, symbols, a)) for a in alphas]
    return [(a, renyi_any(engine, mech, a)) for a in alphas]
