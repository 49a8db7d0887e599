"""The discrete Laplace (clamped, folded, conditioned) and the discrete Gaussian on a bounded range
(exactdp.builders.discrete), against brute-force sums and the libraries' definitions."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as engine
from exactdp.builders.discrete import (
    bounded_discrete_laplace,
    discrete_gaussian,
    gaussian_field,
    laplace_column,
)
from exactdp.errors import InvalidMechanismError
from exactdp.numbers import Q
from exactdp.numbers.qt import qt_exp
from exactdp.verify import verify_text


def _fold(v: F, lo: F, hi: F) -> F:
    """diffprivlib's TruncationAndFoldingMixin._fold: reflect at the bounds until inside."""
    while v < lo or v > hi:
        v = 2 * lo - v if v < lo else 2 * hi - v
    return v


def _brute(alpha: F, lo: F, hi: F, c: int, how: str, n: int = 120) -> dict[int, F]:
    """Pr[output | c] summed over |z| <= n (the rest has mass < 2 alpha^n)."""
    out: dict[int, F] = {}
    norm = (1 - alpha) / (1 + alpha)
    for z in range(-n, n + 1):
        v = F(c + z)
        y = min(max(v, lo), hi) if how == "clamp" else _fold(v, lo, hi)
        out[int(y)] = out.get(int(y), F(0)) + norm * alpha ** abs(z)
    return out


@settings(max_examples=25, deadline=None)
@given(
    lo=st.integers(-3, 1),
    width=st.integers(0, 4),
    half=st.booleans(),
    how=st.sampled_from(["clamp", "fold"]),
    a=st.sampled_from([F(1, 2), F(1, 3), F(2, 3)]),
    data=st.data(),
)
def test_clamp_and_fold_match_the_series(lo, width, half, how, a, data):
    """Closed forms (GRS clamping; the reflection-group sum for folding) = the series, within its tail."""
    flo, fhi = F(lo), F(lo + width)
    if how == "fold" and width == 0 and not half:
        fhi += 1  # a fold needs room: with lo == hi every reflection bounces forever
    if half and how == "fold":
        flo, fhi = flo - F(1, 2), fhi + F(1, 2)
    first, last = int(-(-flo // 1)), int(fhi // 1)
    c = data.draw(st.integers(first, last))
    exact = laplace_column(Q(a.numerator, a.denominator), flo, fhi, c, how)
    brute = _brute(a, flo, fhi, c, how)
    tail = 2 * a**120
    assert len(exact) == last - first + 1
    for y, p in zip(range(first, last + 1), exact):
        assert abs(F(str(p)) - brute.get(y, F(0))) <= tail
    assert sum(exact, Q(0)) == 1


def test_renormalized_is_the_conditional():
    col = laplace_column(Q(1, 2), 0, 3, 1, "renormalize")
    w = [F(1, 2) ** abs(y - 1) for y in range(4)]
    assert [F(str(p)) for p in col] == [x / sum(w) for x in w]


def test_library_scale_gives_exactly_one_over_scale():
    """OpenDP make_geometric(scale=2, bounds=(1, 10)) and Tumult AddGeometricNoise(alpha=2): 1/2."""
    assert engine.privloss(bounded_discrete_laplace([1, 2], (1, 10), scale=2), 0) == Q(1, 2)
    assert engine.privloss(bounded_discrete_laplace([0, 3], (-10, 10), scale=Q(1, 2)), 0) == 6
    assert str(engine.privloss(bounded_discrete_laplace([1, 2], (0, 4), eps="log(2)", truncation="fold"), 0)) == (
        "log(65/34)"
    )


def test_gaussian_field_and_weights():
    """e^{-d^2/(2 sigma^2)} lies in Q(e^{1/L}), L = den(1/(2 sigma^2)) (CKS 2020, Def. 1)."""
    assert gaussian_field(4) == 8 and gaussian_field(Q(1, 2)) == 1 and gaussian_field(Q(2, 3)) == 4
    m = discrete_gaussian([0, 1], (-2, 3), sigma2=1)
    p00, p01 = m.root.probs[2][0], m.root.probs[3][0]  # outputs 0 and 1 under input 0
    assert p00 / p01 == qt_exp(1, Q(1, 2))  # e^{-0/2} / e^{-1/2}
    assert sum((row[0] for row in m.root.probs), Q(0)) == 1


def test_gaussian_refusals_are_located():
    fr = verify_text(
        "exactdp: 1\nname: g\n"
        "mechanism: {discrete_gaussian: {sigma2: 4, bounds: [-8, 8], data: [0, 1], truncation: clamp}}\n"
        "claims: [{dp: {eps: 1}}]\n"
    )
    assert fr.exit_code == 2
    (p,) = fr.error.problems
    assert p.path == "mechanism.discrete_gaussian.truncation" and "infinite series" in p.message
    fr = verify_text(
        "exactdp: 1\nname: g\nmechanism: {discrete_gaussian: {sigma2: 1/1000, bounds: [-3, 3], data: [0, 1]}}\n"
        "claims: [{dp: {eps: 1}}]\n"
    )
    assert fr.exit_code == 2 and "--max-field-degree" in fr.error.problems[0].message


def test_bad_bounds_and_data():
    with pytest.raises(InvalidMechanismError, match="outside the bounds"):
        laplace_column(Q(1, 2), 0, 3, 5, "clamp")
    with pytest.raises(InvalidMechanismError, match="integers or half-integers"):
        laplace_column(Q(1, 2), F(1, 3), 3, 1, "fold")
    fr = verify_text(
        "exactdp: 1\nname: g\nmechanism: {discrete_laplace: {scale: 2, eps: 1, bounds: [0, 3], data: [0, 1]}}\n"
        "claims: [{dp: {eps: 1}}]\n"
    )
    assert fr.exit_code == 2 and "exactly one of" in fr.error.problems[0].message
