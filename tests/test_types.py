"""The number aliases of exactdp.numbers.types name what the API really returns and takes."""

from __future__ import annotations

import typing
from fractions import Fraction

import pytest

import exactdp
from exactdp import numbers
from exactdp.analysis.results import DeltaValue
from exactdp.numbers import ladder, types
from exactdp.numbers.rational import Q


def _members(alias) -> tuple[type, ...]:
    """The runtime classes of a Union alias (forward references resolved in exactdp.numbers)."""
    ns = {
        "mpq": type(Q(1)),
        "QtElement": numbers.QtElement,
        "LogReal": numbers.LogReal,
        "LogLinear": numbers.LogLinear,
        "LogQt": numbers.LogQt,
        "ExpReal": numbers.ExpReal,
        "Infinity": numbers.Infinity,
        "AffineInLambda": numbers.AffineInLambda,
    }
    out = []
    for a in typing.get_args(alias):
        out.append(ns[a.__forward_arg__] if isinstance(a, typing.ForwardRef) else a)
    return tuple(out)


@pytest.mark.parametrize("name", types.__all__)
def test_every_alias_resolves(name):
    members = _members(getattr(types, name))
    assert members and all(isinstance(m, type) for m in members)
    # values are exact; a float is accepted as input only (the exact binary fraction it is)
    assert (float in members) == name.endswith("Like")


def test_every_returned_kind_is_on_the_ladder():
    for name in types.__all__:
        for m in _members(getattr(types, name)):
            if m not in (str, float):
                assert m in {k for rung in ladder.LADDER for k in rung.kinds}, m


def test_returned_values_are_members_of_their_aliases():
    m = exactdp.rr(eps="log(3)", delta="1/10")
    d = exactdp.rr(eps="0.1")
    assert isinstance(exactdp.privloss(m, "1/5"), _members(types.PrivLossValue))
    assert isinstance(exactdp.privloss(m, "1/20"), _members(types.PrivLossValue))  # INF
    assert isinstance(exactdp.privloss(d, 0), _members(types.PrivLossValue))
    for mech, eps in ((m, "log(2)"), (d, "1/20"), (exactdp.repeat(d, 2), "0.2999999999")):
        assert isinstance(exactdp.delta_at(mech, eps), _members(DeltaValue))
    assert isinstance(exactdp.exact("exp(1/10)"), _members(types.ExactReal))
    for v in (3, Fraction(1, 3), Q(1, 3)):
        assert isinstance(v, _members(types.Rational))
