"""Permute-and-flip (McKenna & Sheldon 2020) by its closed form against the definition: every
order of the candidates, each flipped in turn."""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from math import factorial

from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator
from exactdp.analysis import profile as engine
from exactdp.builders.exponential import permute_and_flip, permute_and_flip_distribution
from exactdp.numbers import Q


def _by_definition(q: list[F]) -> list[F]:
    n = len(q)
    out = [F(0)] * n
    for order in itertools.permutations(range(n)):
        alive = F(1)
        for r in order:
            out[r] += alive * q[r] / factorial(n)
            alive *= 1 - q[r]
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fractions(min_value=0, max_value=1, max_denominator=9), min_size=1, max_size=5))
def test_closed_form_is_the_definition(qs):
    q = [F(1)] + qs  # the best candidate always flips heads
    got = permute_and_flip_distribution([Q(x.numerator, x.denominator) for x in q])
    assert [F(str(x)) for x in got] == _by_definition(q)


def test_field_weights_and_both_engines():
    """At a decimal eps every flip probability is e^{eps (u - max u)/2} in Q(e^(1/L))."""
    m = permute_and_flip([[2, 1, 0], [2, 1, 1]], eps="0.5")
    assert sum((row[0] for row in m.root.probs), Q(0)) == 1
    assert engine.privloss(m, 0) == Q(1, 4)
    assert enumerator.privloss(m, 0) == Q(1, 4)


def test_pf_is_never_worse_than_its_epsilon():
    """McKenna-Sheldon Thm 1: eps-DP with the exponential mechanism's calibration."""
    for scores in ([[3, 1, 0], [2, 2, 1]], [[1, 0, 0, 0], [0, 1, 1, 1]]):
        m = permute_and_flip(scores, eps="log(4)", sensitivity=1)
        assert engine.is_dp(m, "log(4)", 0)
