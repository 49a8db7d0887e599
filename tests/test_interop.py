"""exactdp.interop: the dominating pair handed to dp_accounting.

dp_accounting is an optional extra (``exactdp[interop]``); without it these tests are skipped
(visibly) except the one that checks the message naming the extra.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import pytest

from exactdp.analysis import profile
from exactdp.builders import choose, concomp, repeat, rr
from exactdp.numbers import Q, ladder


def test_missing_extra_names_it(monkeypatch):
    from exactdp.interop import MissingExtraError, to_dp_accounting

    monkeypatch.setitem(sys.modules, "dp_accounting", None)
    monkeypatch.setitem(sys.modules, "dp_accounting.pld", None)
    with pytest.raises(MissingExtraError, match=r"exactdp\[interop\]"):
        to_dp_accounting(rr(exp_eps=3))


def test_log_pmfs_are_the_dominating_pair():
    from exactdp.interop import dominating_pair_log_pmfs

    lower, upper = dominating_pair_log_pmfs(profile.profile(rr(exp_eps=3, delta=Q(1, 10))))
    # RR_(log 3, 1/10) (Vadhan-Wang Def. 5.1), answers I0, 0, 1, I1 by decreasing ratio:
    # P = (1/10, 27/40, 9/40, 0), P' = (0, 9/40, 27/40, 1/10); zero masses are left out
    assert sorted(upper) == [0, 1, 2] and sorted(lower) == [1, 2, 3]
    assert abs(upper[0] - math.log(1 / 10)) < 1e-12 and abs(lower[1] - math.log(9 / 40)) < 1e-12


def _exact(prof, eps: float) -> float:
    """δ_M(e^ε) at the float ε read exactly as a rational (decimal reading of the exact value)."""
    f = Fraction(eps)
    d = prof.delta_at(Q(f.numerator, f.denominator))
    return float(d.decimal(17)) if hasattr(d, "decimal") else float(ladder.decimal(d, 17))


@pytest.mark.parametrize(
    "mech",
    [
        pytest.param(rr(exp_eps=3), id="RR-log3"),
        pytest.param(rr(exp_eps=3, delta=Q(1, 10)), id="RR-log3-delta"),
        pytest.param(repeat(rr(exp_eps=2), 3), id="KOV-3fold"),
        pytest.param(
            concomp([rr(exp_eps=2), choose([rr(exp_eps=3), rr(exp_eps=2, delta=Q(1, 20))])]), id="concomp-interactive"
        ),
    ],
)
def test_dp_accounting_hockey_stick_brackets_the_exact_profile(mech):
    """dp_accounting rounds privacy losses up to multiples of Δ (pessimistic estimate), so
    δ_exact(ε) ≤ δ_pld(ε) ≤ δ_exact(ε − Δ) (up to float noise)."""
    pytest.importorskip("dp_accounting", reason="optional extra exactdp[interop] (dp-accounting) not installed")
    from exactdp.interop import to_dp_accounting

    step = 1e-3
    prof = profile.profile(mech)
    pld = to_dp_accounting(prof, value_discretization_interval=step)
    for eps in [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5]:
        got = pld.get_delta_for_epsilon(eps)
        lo = _exact(prof, eps)
        hi = _exact(prof, max(eps - step, 0.0)) if eps >= step else 1.0
        assert lo - 1e-9 <= got <= hi + 1e-9, (eps, lo, got, hi)
