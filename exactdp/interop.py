"""Export an interactive mechanism's exact worst case to Google's ``dp_accounting``.

The exact privacy profile of a mechanism against every adaptive adversary is the profile of a
pair of finite distributions, its *dominating pair* (Zhu, Dong & Wang 2022, Def. 7; see
:func:`exactdp.analysis.tradeoff.dominating_pair`).  :func:`to_dp_accounting` hands that pair to
``dp_accounting.pld.privacy_loss_distribution.from_two_probability_mass_functions``, so the
interactive mechanism composes with a user's other mechanisms in the accountant they already
use (and is then accounted for with dp_accounting's own pessimistic rounding, which is
numerical: exactdp's verdicts never depend on it).

``dp_accounting`` is an optional dependency: ``pip install 'exactdp[interop]'``.

References
----------
Zhu, Dong & Wang, *Optimal Accounting of Differential Privacy via Characteristic Function*,
AISTATS 2022, Def. 7 and Prop. 8 (dominating pairs and composition).
Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, *Connect the Dots: Tighter Discrete
Approximations of Privacy Loss Distributions*, PETS 2022 (dp_accounting's PLD).
"""

from __future__ import annotations

import math
from typing import Any

from .analysis.engine import Engine, ProfileEngine
from .analysis.results import Profile
from .analysis.tradeoff import dominating_pair
from .errors import ExactDPError
from .model.game import Mechanism
from .numbers import ladder
from .numbers.ladder import QQ
from .numbers.rational import to_fraction

__all__ = ["to_dp_accounting", "dominating_pair_log_pmfs", "MissingExtraError"]


class MissingExtraError(ExactDPError):
    """An optional dependency is not installed; the message names the extra to install."""


def _log(x: object) -> float:
    """ln x for an exact rational x > 0 as a float (big integers welcome): for dp_accounting,
    which works in floating point; no exactdp verdict uses it."""
    if ladder.domain_of(x) is not QQ:
        raise ExactDPError("the dominating pair has probabilities in Q(e^(1/L)) (decimal eps); export needs rationals")
    f = to_fraction(x)
    return math.log(f.numerator) - math.log(f.denominator)


def dominating_pair_log_pmfs(prof: Profile) -> tuple[dict[int, float], dict[int, float]]:
    """(log P', log P) as {outcome: natural log of its mass}: the lower and upper distributions of
    the envelope's dominating pair; outcomes impossible under P' are absent from the first
    (dp_accounting counts their mass as infinite privacy loss)."""
    p, pp = dominating_pair(prof.envelope)
    lower = {k: _log(b) for k, b in enumerate(pp) if b}
    upper = {k: _log(a) for k, a in enumerate(p) if a}
    return lower, upper


def to_dp_accounting(
    mech: Mechanism | Profile,
    *,
    engine: Engine | None = None,
    value_discretization_interval: float = 1e-4,
    pessimistic_estimate: bool = True,
) -> Any:
    """A ``dp_accounting`` ``PrivacyLossDistribution`` with the exact privacy profile of ``mech``.

    Parameters
    ----------
    mech : Mechanism or Profile
        The mechanism (its profile is computed with ``engine``, default the profile engine) or an
        exact profile already computed.
    value_discretization_interval, pessimistic_estimate
        Passed to dp_accounting; with ``pessimistic_estimate=True`` its δ(ε) is an upper bound
        on the exact one.

    Raises
    ------
    MissingExtraError
        When dp_accounting is not installed (install the ``interop`` extra).

    Examples
    --------
    >>> from exactdp.builders import rr
    >>> pld = to_dp_accounting(rr(exp_eps=3))  # doctest: +SKIP
    >>> pld.get_delta_for_epsilon(0.5)  # doctest: +SKIP
    """
    try:
        # optional: the extra 'interop' (dp_accounting ships no type information: no stubs, no py.typed)
        from dp_accounting.pld import privacy_loss_distribution as pld  # type: ignore[import-untyped, import-not-found]
    except ImportError:
        raise MissingExtraError(
            "exactdp.interop.to_dp_accounting needs dp_accounting: pip install 'exactdp[interop]'"
        ) from None
    prof = mech if isinstance(mech, Profile) else (engine or ProfileEngine()).profile(mech)
    lower, upper = dominating_pair_log_pmfs(prof)
    return pld.from_two_probability_mass_functions(
        lower,
        upper,
        pessimistic_estimate=pessimistic_estimate,
        value_discretization_interval=value_discretization_interval,
        symmetric=True,
    )
