"""The standalone checker (the package exactdp/checker), a trusted kernel: its computations against exactdp's
engines and the definitions (hypothesis, on random games), its decisions on hand-made
certificates, hostile files refused promptly by a named limit, and the file run alone under
``python -I -S``.

Hand-computed values come from the definitions (Vadhan & Wang 2021, Def. 1.7 and Lemma 2.2:
delta(lam) = sup_A sum_w (P_x(w) - lam P_x'(w))_+)."""

from __future__ import annotations

import ast
import hashlib
import json
import operator
import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactdp import checker
from exactdp.analysis import enumerator
from exactdp.analysis import profile as engine
from exactdp.analysis.bounded_range import br_range
from exactdp.builders import concomp
from exactdp.certificates import export_game, games_document, number_text
from exactdp.model import count_strategies
from exactdp.numbers import Q
from tests.certkit import certificate, game
from tests.strategies import mechanisms

CHECKER = Path(checker.__file__).parent  # the folder: a package of the standard library only
RR3 = ("answer", {"0": (["3/4", "1/4"], 0), "1": (["1/4", "3/4"], 0)})  # RR with e^eps = 3
SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check(cert: dict) -> str:
    return checker.check_certificate(json.loads(json.dumps(cert)))


def refused(error: type, cert: dict, *words: str) -> str:
    """The checker's message refusing ``cert`` with ``error``, which names each of ``words``."""
    with pytest.raises(error) as e:
        check(cert)
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)


def malformed(cert: dict, *words: str) -> str:
    return refused(checker.Malformed, cert, *words)


def rejected(cert: dict, *words: str) -> str:
    return refused(checker.Rejected, cert, *words)


@contextmanager
def kernel_games(mechs: dict):
    """The checker's own reading of the games exactdp exports for ``mechs`` (name -> mechanism)."""
    doc = games_document({name: export_game(m, name) for name, m in mechs.items()})
    try:
        yield checker.read_games(json.loads(json.dumps(doc)))
    finally:
        checker.core.Qt.L = 0


LAMBDAS = [Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(7)]


# --- the point recursion against the enumerator (Lemma 2.2 taken literally) ----------------------


@SLOW
@given(m=mechanisms(max_depth=3), lam=st.sampled_from(LAMBDAS))
def test_hockey_is_the_enumerators_delta_and_left_derivative(m, lam):
    assume(count_strategies(m.root) <= 2000)
    prof = enumerator.profile(m, max_strategies=200_000)
    with kernel_games({"M": m}) as games:
        g = games["M"]
        for pp, pair in zip(prof.pairs, m.ordered_pairs):
            v, s = checker.core.hockey(g, pair, lam)
            h = pp.hull
            assert v == h.value_at(Q(lam))
            # the left derivative: the P_x'-mass of the edges with slope >= lam
            assert -s == sum((w for r, w in h.edges if r >= lam), Q(0))


def test_hockey_figure1_by_hand():
    """Vadhan & Wang Figure 1: a coin, then RR_(log 3) or a coin; delta(2) = 1/4 on both orders."""
    coin = ("answer", {"0": (["1/2", "1/2"], 0), "1": (["1/2", "1/2"], 0)})
    g = game(
        ["end", RR3, coin, ("ask", {"0": 1, "1": 2}), ("answer", {"0": (["1/2", "1/2"], 3), "1": (["1/2", "1/2"], 3)})]
    )
    games = checker.read_games(certificate({"kind": "dp"}, {"M": g}, {}))
    assert checker.core.hockey(games["M"], (0, 1), Fraction(2)) == (Fraction(1, 4), Fraction(-1, 4))
    assert checker.core.hockey(games["M"], (0, 1), Fraction(3)) == (Fraction(0), Fraction(-1, 4))  # left of the bend


# --- the chains against the profile engine ----------------------------------------------------


@SLOW
@given(m=mechanisms(max_depth=3))
def test_chain_is_the_profile_engines_hull(m):
    prof = engine.profile(m)
    with kernel_games({"M": m}) as games:
        g = games["M"]
        env = checker.core.envelope(g)
        points = [Q(0), Q(1, 3), Q(1)] + [r for r, _ in prof.envelope.edges] + [r + 1 for r, _ in prof.envelope.edges]
        lams = sorted(set(points))  # evaluated in one sweep (checker.core.values), each against the engine
        for lam, got in zip(lams, checker.core.values(env, lams)):
            assert got == prof.envelope.value_at(lam)
        assert env[0] == prof.envelope.top


# --- bounded range, Renyi and KL, concurrent composition against exactdp -------------------------


@SLOW
@given(m=mechanisms(max_depth=3), adversaries=st.sampled_from(["deterministic", "randomized"]))
def test_br_range_is_exactdps(m, adversaries):
    want = br_range(m, adversaries=adversaries).ratio
    with kernel_games({"M": m}) as games:
        g = games["M"]
        got = max((checker.bounded_range.br_ratio(g, p, adversaries == "deterministic") for p in g.pairs), key=_key)
    assert (got == "inf") if want == float("inf") else got == want


def _key(v):
    return (1, 0) if v == "inf" else (0, v)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=mechanisms(max_depth=2, combinators=False), alpha=st.sampled_from([1, 2, 3, "inf"]))
def test_renyi_and_kl_are_exactdps(m, alpha):
    """The checker's D_alpha equals exactdp's value exactly (the comparison returns 0)."""
    from exactdp.certificates.renyi import _bound
    from exactdp.numbers import INF

    a = INF if alpha == "inf" else alpha
    res = engine.renyi(m, a) if hasattr(engine, "renyi") else None
    if res is None:
        from exactdp.analysis.renyi import renyi as renyi_engine

        res = renyi_engine(m, a)
    bound = checker.divergences.bound_terms(json.loads(json.dumps(_text(_bound(res.value)))), "bound")
    with kernel_games({"M": m}) as games:
        c, _ = checker.divergences.compare_divergence([games["M"]], None if alpha == "inf" else alpha, bound)
    assert c == 0


def _text(x):
    return x if isinstance(x, str) else [[t if isinstance(t, str) else number_text(t) for t in term] for term in x]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_concomp_is_exactdps_concomp(data):
    """The composition the checker builds from the components has the fingerprint of the one
    exactdp builds without merging copies (Vadhan & Wang 2021, Def. 2.1): the same game, node
    for node."""
    a = data.draw(mechanisms(max_depth=2, combinators=False))
    b = data.draw(mechanisms(max_depth=2, combinators=False))
    b = type(b)(b.root, a.datasets, a.adjacent, "B") if b.datasets == a.datasets else None
    assume(b is not None)
    both = concomp({"A": a, "A#2": a, "B": b}, merge_copies=False)
    with kernel_games({"A": a, "B": b, "C": both}) as games:
        built = checker.composition.concomp([games["A"], games["A"], games["B"]], ["A", "A#2", "B"])
        assert checker.core.fingerprint(built) == checker.core.fingerprint(games["C"])
    # exactdp's default merges the two copies of A: another game, with the same privacy profile
    # (the PrivLoss values in composition certificates come from it)
    merged = concomp({"A": a, "A#2": a, "B": b})
    assert engine.profile(merged).envelope == engine.profile(both).envelope


# --- numbers: Q(t) against exactdp's field, bounds against mpmath --------------------------------

_small = st.integers(-6, 6)


@settings(max_examples=150, deadline=None)
@given(
    n1=st.lists(_small, min_size=1, max_size=4),
    d1=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    n2=st.lists(_small, min_size=1, max_size=4),
    d2=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    L=st.sampled_from([1, 2, 10]),
)
def test_field_arithmetic_and_signs_are_exactdps(n1, d1, n2, d2, L):
    from exactdp.numbers.qt import QtElement, _poly

    checker.core.Qt.L = L
    try:
        x, y = checker.core.Qt.make(n1, d1), checker.core.Qt.make(n2, d2)
        ex, ey = (QtElement._make(L, Q(1), _poly(n), _poly(d)) for n, d in ((n1, d1), (n2, d2)))

        def same(a, b):
            assert checker.core.number(number_text(b, L), "x") == a

        for op in (operator.add, operator.sub, operator.mul):
            same(op(x, y), op(ex, ey))
        if y:
            same(x / y, ex / ey)
        assert checker.core.order(x, y) == ((ex > ey) - (ex < ey))
    finally:
        checker.core.Qt.L = 0


_coeffs = st.lists(st.integers(-(2**70), 2**70), min_size=1, max_size=6).filter(lambda c: c[-1] != 0)


@settings(max_examples=200, deadline=None)
@given(a=_coeffs, b=_coeffs, g=_coeffs, small_prime=st.booleans())
def test_polynomial_gcd_is_sympys(a, b, g, small_prime):
    """The kernel's gcd in Z[t] (a test modulo a prime that most gcds are 1, else primitive
    pseudo-remainders) against SymPy's, with a planted common factor g; the modular test alone never
    calls polynomials with a common factor of positive degree coprime (a prime dividing a leading
    coefficient makes it answer 'unknown', which the tiny prime 2 provokes)."""
    from sympy import Poly, symbols

    t, core = symbols("t"), checker.core
    a, b = (tuple(core.pmul(tuple(x), tuple(g))) for x in (a, b))
    want = Poly(list(reversed(a)), t).gcd(Poly(list(reversed(b)), t))
    want = want if want.LC() > 0 else -want
    assert core.pgcd(a, b) == tuple(int(c) for c in reversed(want.all_coeffs()))
    prime = 2 if small_prime else 2**61 - 1
    if core.coprime(a, b, prime):
        assert want.degree() == 0
    if len(g) > 1:
        assert not core.coprime(a, b, prime)


_fr = st.fractions(min_value=-30, max_value=30, max_denominator=50)


@settings(max_examples=100, deadline=None)
@given(x=_fr, p=st.sampled_from([64, 200]))
def test_rational_bounds_contain_the_values(x, p):
    mpmath.mp.dps = 400
    v = mpmath.mpf(x.numerator) / x.denominator
    for bounds, true in ((checker.core.exp_iv(x, p), mpmath.exp(v)), (checker.gdp.phi_iv(x, p), mpmath.ncdf(v))):
        lo, hi = bounds
        assert mpmath.mpf(lo.numerator) / lo.denominator <= true <= mpmath.mpf(hi.numerator) / hi.denominator
        assert hi - lo < Fraction(1, 2 ** (p // 2)) * max(1, abs(hi))
    if x > 0:
        lo, hi = checker.divergences.log_iv(x, p)
        assert mpmath.mpf(lo.numerator) / lo.denominator <= mpmath.log(v) <= mpmath.mpf(hi.numerator) / hi.denominator


@settings(max_examples=40, deadline=None)
@given(
    b=st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100),
    a=st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100),
    mu=st.fractions(min_value=0, max_value=4, max_denominator=20),
)
def test_gaussian_tradeoff_comparison_is_mpmaths(b, a, mu):
    """G_mu(b) = Phi(Phi^-1(1 - b) - mu) against 1 - a (Dong, Roth & Su 2022, Def. 2.6)."""
    mpmath.mp.dps = 60
    g = mpmath.ncdf(
        mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(b.numerator) / b.denominator)
        - mpmath.mpf(mu.numerator) / mu.denominator
    )
    w = 1 - mpmath.mpf(a.numerator) / a.denominator
    assume(abs(g - w) > mpmath.mpf(10) ** -30)
    assert checker.gdp.gauss_cmp(b, 1 - a, mu) == (1 if g > w else -1)


@settings(max_examples=40, deadline=None)
@given(
    lams=st.lists(st.sampled_from([Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3)]), min_size=1, max_size=3),
    delta=st.sampled_from([Fraction(0), Fraction(1, 100), Fraction(1, 10), Fraction(1, 3)]),
)
def test_optimal_composition_is_exactdps(lams, delta):
    """log(lam) <= eps_g exactly at exactdp's optimum lam_g (Kairouz, Oh & Viswanath 2015), and
    not above it."""
    from exactdp import exact
    from exactdp.theorems import components, optimal

    res = optimal(components([exact(f"log({x})") if x != 1 else Q(0) for x in lams], [Q(0)] * len(lams)), Q(delta))
    lam_g = res.lam
    zeros = [Fraction(0)] * len(lams)
    if lam_g == float("inf"):
        assert checker.composition.optimal_holds(lams, zeros, delta, Fraction(10**6))
        return
    lam_g = Fraction(str(lam_g))
    assert checker.composition.optimal_holds(lams, zeros, delta, lam_g)
    assert not checker.composition.optimal_holds(lams, zeros, delta, lam_g * Fraction(1001, 1000))
    if lam_g > 1:
        assert checker.composition.optimal_holds(lams, zeros, delta, 1 + (lam_g - 1) * Fraction(999, 1000))


# --- decisions on hand-made certificates ----------------------------------------------------------


def test_point_claims_by_hand():
    g = {"M": game(["end", RR3])}
    dp = {"kind": "dp", "of": "M", "exp_eps": "3", "delta": "0"}
    assert "M is (log(3), 0)-DP -- holds" in check(certificate(dp, g, {}))
    rejected(certificate(dict(dp, exp_eps="2"), g, {}), "but it fails")
    assert "FALSE" in check(certificate(dict(dp, exp_eps="2"), g, {}, "fails"))
    assert "delta_M(2) = 1/4" in check(certificate(dict(dp, exp_eps="2", delta="1/4"), g, {}))
    pl = {"kind": "privloss", "of": "M", "delta": "0", "relation": "equals", "exp_eps": "3"}
    assert "PrivLoss(M, 0) = log(3)" in check(certificate(pl, g, {"exp_privloss": "3"}))
    rejected(certificate(pl, g, {"exp_privloss": "4"}), "is not log(4)")  # delta(4) = 0 < ... flat left of 4
    rejected(certificate(pl, g, {"exp_privloss": "2"}), "is not log(2)")  # delta(2) = 1/4 > 0
    assert "FALSE" in check(certificate(dict(pl, exp_eps="2"), g, {"exp_privloss": "3"}, "fails"))
    at_most = dict(pl, relation="at_most", exp_eps="exp(2)")  # log(3) < 2
    assert "PrivLoss(M, 0) <= 2 -- holds" in check(certificate(at_most, g, {"exp_privloss": "3"}))
    rejected(certificate(dict(at_most, exp_eps="exp(1)"), g, {"exp_privloss": "3"}))
    dl = {"kind": "delta", "of": "M", "exp_eps": "2", "equals": "1/4"}
    assert check(certificate(dl, g, {}))
    with pytest.raises(checker.Malformed, match="not part of"):
        check(certificate(dl, g, {"upper": []}))


def test_decimal_eps_is_decided_in_the_field():
    """RR with eps = 1/10: probabilities t/(1 + t), 1/(1 + t) with t = e^(1/10); it is (1/10, 0)-DP
    and not (1/20, 0)-DP (e^(1/20) = t^(1/2) is outside Q(t): a rational bracket decides it)."""
    rr = {
        "datasets": ["x0", "x1"],
        "pairs": [["x0", "x1"], ["x1", "x0"]],
        "root": 1,
        "nodes": [
            {"id": 0, "end": True},
            {"id": 1, "answer": [["0", ["0,1/1,1", "1/1,1"], 0], ["1", ["1/1,1", "0,1/1,1"], 0]]},
        ],
    }
    cert = certificate({"kind": "dp", "of": "R", "exp_eps": "0,1/1", "delta": "0"}, {"R": rr}, {})
    cert["field"] = "exp(1/10)"
    assert "R is (log(t), 0)-DP -- holds" in check(cert)
    half = dict(cert, claim={"kind": "not_dp", "of": "R", "exp_eps": "exp(1/20)", "delta": "0"})
    assert "R is not (1/20, 0)-DP -- holds" in check(dict(half, proof={"bracket": "1052/1000"}))  # e^(1/20) < 1.0513
    rejected(dict(half, proof={"bracket": "1"}), "does not decide")  # below e^(1/20): proves nothing
    with pytest.raises(checker.Malformed, match="no field"):
        check(
            dict(cert, field=None) | {"field": "exp(1/1)"} if False else {k: v for k, v in cert.items() if k != "field"}
        )


def test_renyi_is_recomputed_by_hand():
    """RR with e^eps = 3: sum P^2/P' = (3/4)^2/(1/4) + (1/4)^2/(3/4) = 7/3, so D_2 = log(7/3); the KL
    divergence is (3/4 - 1/4) log 3 = log(3)/2 (Mironov 2017, Def. 3)."""
    g = {"M": game(["end", RR3])}
    claim = {"kind": "renyi", "of": "M", "alpha": "2", "relation": "equals", "bound": [["7", "1"], ["3", "-1"]]}
    assert "D_2(M) = log(7) - log(3)" in check(certificate(claim, g, {}))
    kl = dict(claim, alpha="1", bound=[["3", "1/2"]])
    assert "D_1(M) = 1/2 log(3)" in check(certificate(kl, g, {}))
    rejected(certificate(dict(kl, relation="at_most", bound=[["e", "1/2"]]), g, {}))  # log(3)/2 > 1/2
    assert check(certificate(dict(kl, relation="exceeds", bound=[["e", "1/2"]]), g, {}))


def test_renyi_at_a_fraction_order_is_bounded():
    """RR with e^eps = 3 at alpha = 3/2: sum P^(3/2) P'^(-1/2) = (3/4) sqrt(3) + (1/4)/sqrt(3) =
    5 sqrt(3)/6, so D_3/2 = 2 log(5 sqrt(3)/6) = 0.73396917508020043897...  The checker decides
    the claims on either side of it by bounds; a bound within 2^-10000 of D is refused with a
    named limit (mpmath gives D to 12,000 bits here, outside the checker)."""
    g = {"M": game(["end", RR3])}
    below, above = [["e", "7339691750802/10000000000000"]], [["e", "7339691750803/10000000000000"]]
    claim = {"kind": "renyi", "of": "M", "alpha": "3/2", "relation": "exceeds", "bound": below}
    assert "D_3/2(M) > 3669845875401/5000000000000 -- holds" in check(certificate(dict(claim, bound=below), g, {}))
    rejected(certificate(dict(claim, bound=above), g, {}), "but it fails")
    assert check(certificate(dict(claim, relation="at_most", bound=above), g, {}))
    assert check(certificate(dict(claim, relation="at_most", bound=[["3", "1"]]), g, {}))  # < log(3) = D_inf
    with mpmath.workprec(12_000):
        d = 2 * mpmath.log(5 * mpmath.sqrt(3) / 6)
        close = [["e", str(Fraction(int(mpmath.floor(d * 2**10_000)), 2**10_000))]]
    with pytest.raises(checker.Malformed, match="--max-steps"):
        check(certificate(dict(claim, bound=close), g, {}))
    with pytest.raises(checker.Malformed, match="a whole number from 1 to 10000, inf or a fraction"):
        check(certificate(dict(claim, alpha="1/2", bound=below), g, {}))
    k = {"K": game(["end", ("answer", {"a": (["1/2", "0"], 0), "b": (["1/2", "1"], 0)})])}
    assert "D_5/2(K) = inf -- holds" in check(
        certificate(dict(claim, of="K", alpha="5/2", relation="equals", bound="inf"), k, {})
    )


def test_verdict_must_match_and_proofs_must_be_used():
    g = {"M": game(["end", RR3])}
    claim = {"kind": "bounded_range", "of": "M", "exp_eps": "9", "adversaries": "deterministic"}
    assert "BR-range(M) = log(9)" in check(certificate(claim, g, {}))
    rejected(certificate(claim, g, {}, "fails"), "the certificate says the claim fails")
    with pytest.raises(checker.Malformed, match="not part of"):
        check(certificate(claim, g, {"exp_privloss": "3"}))


# --- hostile files: refused promptly, by a named limit -------------------------------------------


def run_checker(*args: str, timeout: int = 120) -> tuple[subprocess.CompletedProcess, float]:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, str(CHECKER), *args], capture_output=True, text=True, timeout=timeout)
    return p, time.perf_counter() - t


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[" * 100_000 + "]" * 100_000,
        '{"format": 1e999}',
        '{"format": NaN}',
        '{"a": 1, "a": 2}',
        "1" * 10_000,
        '"' + "9" * 5000 + '"',
        '{"format": "exactdp-certificate", "version": 2, "case": {}, "games": {"M": {"datasets": "x"}}}',
        b"\xff\xfe".decode("latin-1"),
    ],
    ids=["empty", "deep", "float", "nan", "duplicate-key", "huge-int", "huge-string", "wrong-type", "not-utf8"],
)
def test_adversarial_json_is_malformed_not_a_crash(tmp_path, text):
    f = tmp_path / "bad.json"
    f.write_bytes(text.encode("latin-1"))
    p, _ = run_checker(str(f))
    assert p.returncode == 2, p.stdout + p.stderr
    assert "MALFORMED" in p.stdout and "Traceback" not in p.stdout + p.stderr


def _chain_of_choices(n: int) -> dict:
    """n choice nodes, each with two options leading to the next: 2^n histories, no answers."""
    nodes = [{"id": 0, "end": True}] + [{"id": k, "ask": [["a", k - 1], ["b", k - 1]]} for k in range(1, n + 1)]
    return {"datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]], "root": n, "nodes": nodes}


def _prime_ratios(n: int) -> dict:
    """n answer nodes in a chain, answer k with likelihood ratios p/2 and p/(2(p - 1)) for the k-th
    prime p: every path has its own likelihood ratio, 2^n of them at the end."""
    primes = [p for p in range(3, 1000) if all(p % q for q in range(2, p))][:n]
    nodes = [{"id": 0, "end": True}]
    for k, p in enumerate(primes, 1):
        nodes.append({"id": k, "answer": [["a", ["1/2", f"1/{p}"], k - 1], ["b", ["1/2", f"{p - 1}/{p}"], k - 1]]})
    return {"datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]], "root": n, "nodes": nodes}


def _renyi_growth(n: int) -> dict:
    """n answer nodes in a chain whose Renyi sums multiply: (p/p')^(alpha - 1) with alpha = 10000
    grows by thousands of bits per node."""
    nodes = [{"id": 0, "end": True}]
    for k in range(1, n + 1):
        nodes.append({"id": k, "answer": [["a", ["3/4", "1/4"], k - 1], ["b", ["1/4", "3/4"], k - 1]]})
    return {"datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]], "root": n, "nodes": nodes}


def _field_gaussian() -> dict:
    """Outputs y = -4..4 with weights t^(25 - y^2) under x0 and t^(25 - (y - 1)^2) under x1 (a
    discrete Gaussian, t = e^(1/2)): probabilities of degree 25 in t, as in the library's."""
    ws = [[25 - y * y for y in range(-4, 5)], [25 - (y - 1) ** 2 for y in range(-4, 5)]]

    def poly(e: int) -> str:
        return ",".join(["0"] * e + ["1"])

    def prob(d: int, y: int) -> str:
        total = [0] * 26
        for e in ws[d]:
            total[e] += 1
        return poly(ws[d][y]) + "/" + ",".join(map(str, total))

    answer = [[str(y - 4), [prob(0, y), prob(1, y)], 0] for y in range(9)]
    nodes = [{"id": 0, "end": True}, {"id": 1, "answer": answer}]
    return {"datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]], "root": 1, "nodes": nodes}


def _many_orders(n: int) -> dict:
    """n orders 1 + k/2^20 with bounds 1000 a (a - 1) - 1000/2^40, true for RR_(log 3) (K(a) <
    (a - 1) log 3) and with chords below 1000 a (a - 1): an honest proof, wastefully long."""
    orders = [1 + Fraction(k, 2**20) for k in range(1, n + 1)]
    return {
        "orders": [str(a) for a in orders],
        "bounds": [str(1000 * a * (a - 1) - Fraction(1000, 2**40)) for a in orders],
    }


HOSTILE = {
    "field-renyi-order-10000": (
        {"kind": "renyi", "of": "M", "alpha": "10000", "relation": "at_most", "bound": "inf"},
        _field_gaussian(),
        {},
        "--max-",
    ),
    "zcdp-100000-orders": (
        {"kind": "zcdp", "of": "M", "rho": "1000"},
        game(["end", RR3]),
        _many_orders(100_000),
        "--max-steps",
    ),
    "shared-choices-simulation": (
        {"kind": "simulates_rr", "of": "M", "delta": "0", "exp_eps": "3"},
        _chain_of_choices(60),
        {"simulation": [{"pair": ["x0", "x1"], "outputs": ["0", "1"], "rounds": []}]},
        "--max-histories",
    ),
    "prime-ratio-chain": (
        {"kind": "dp", "of": "M", "exp_eps": "2", "delta": "0"},
        _prime_ratios(60),
        {},
        "--max-states",
    ),
    "renyi-growth": (
        {"kind": "renyi", "of": "M", "alpha": "10000", "relation": "at_most", "bound": "inf"},
        _renyi_growth(300),
        {},
        "--max-bits",
    ),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_certificates_are_refused_in_seconds(tmp_path, name):
    """The adversarial certificates of the hostile-input review: a 3 KB game of shared choices
    (2^60 histories for the simulation check), a 4 KB chain of prime likelihood ratios (2^60
    states), a Renyi certificate whose sums would pass the bit cap; and a Renyi sum at order 10,000
    over Q(e^(1/2)) (powers of degree 250,000 in t), a zCDP proof with 100,000 orders.  Each ends
    with exit 2 and the name of the limit, in seconds."""
    claim, g, proof, limit = HOSTILE[name]
    f = tmp_path / "hostile.json"
    field = {"field": "exp(1/2)"} if name.startswith("field") else {}
    f.write_text(json.dumps(certificate(claim, {"M": g}, proof) | field))
    assert f.stat().st_size < (10_000_000 if name.startswith("zcdp") else 30_000)
    p, seconds = run_checker(str(f))
    assert p.returncode == 2 and limit in p.stdout, p.stdout + p.stderr
    assert seconds < 60, seconds


def test_case_files_that_are_not_regular_files_are_refused(tmp_path):
    cert = tmp_path / "c.json"
    cert.write_text(
        json.dumps(certificate({"kind": "dp", "of": "M", "exp_eps": "3", "delta": "0"}, {"M": game(["end", RR3])}, {}))
    )
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for case in (str(fifo), "/dev/zero", str(tmp_path)):
        p, seconds = run_checker("--case", case, str(cert), timeout=30)
        assert p.returncode == 2 and "not a regular file" in p.stdout and "Traceback" not in p.stderr, (
            p.stdout + p.stderr
        )
        assert seconds < 20
    p, _ = run_checker("--case", str(tmp_path / "missing.yaml"), str(cert))
    assert p.returncode == 2 and "no such file" in p.stdout


def test_limits_are_flags():
    """Each limit is a flag taking a whole number >= 1 (0 or a negative one would refuse everything or
    nothing: argparse refuses them, exit 2)."""
    p, _ = run_checker("--help")
    for name in checker.DEFAULT_LIMITS:
        assert "--" + name.replace("_", "-") in p.stdout
    for bad in ("0", "-5", "1e9", "\u0661"):
        p, _ = run_checker("--max-steps", bad, "x.json")
        assert p.returncode == 2 and "is not a whole number >= 1" in p.stderr, p.stderr


# --- what the checker says ------------------------------------------------------------------------


def test_output_states_what_was_proved_first_and_labels_apart(tmp_path):
    cert = certificate({"kind": "dp", "of": "M", "exp_eps": "3", "delta": "0"}, {"M": game(["end", RR3])}, {})
    f = tmp_path / "c.json"
    f.write_text(json.dumps(cert))
    p, _ = run_checker(str(f))
    lines = p.stdout.splitlines()
    assert lines[0].endswith("accepted") and lines[1].strip().startswith("proved: delta_M(3) = 0")
    assert lines[2].strip() == "claim: M is (log(3), 0)-DP -- holds"
    assert lines[3].strip().startswith("game M: sha256 ")
    assert (
        lines[4]
        .strip()
        .startswith("unverified (written by the certificate's author, not checked): case file hand.yaml")
    )


def test_case_hash_names_the_other_case_file(tmp_path):
    cert = certificate({"kind": "dp", "of": "M", "exp_eps": "3", "delta": "0"}, {"M": game(["end", RR3])}, {})
    case = tmp_path / "case.yaml"
    case.write_text("anything")
    f = tmp_path / "c.json"
    f.write_text(json.dumps(cert))
    p, _ = run_checker("--case", str(case), str(f))
    assert p.returncode == 1 and "OTHER CASE" in p.stdout and "REJECTED" not in p.stdout
    assert "names the case file hand.yaml" in p.stdout and "its proof checks" in p.stdout
    assert "not that a game is that file's mechanism" in p.stdout
    cert["case"]["sha256"] = hashlib.sha256(b"anything").hexdigest()
    f.write_text(json.dumps(cert))
    assert checker.main(["--case", str(case), str(f)]) == 0


def test_runs_alone_under_python_isolated_mode(tmp_path):
    """The checker needs nothing but the standard library: copied alone into an empty folder and
    run with -I -S (no site-packages, no environment, no script folder on sys.path)."""
    shutil.copytree(CHECKER, tmp_path / "checker", ignore=shutil.ignore_patterns("__pycache__"))
    good = certificate({"kind": "dp", "of": "M", "exp_eps": "3", "delta": "0"}, {"M": game(["end", RR3])}, {})
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "good.json").write_text(json.dumps(good))

    def run(*a):
        return subprocess.run(
            [sys.executable, "-I", "-S", "checker", *a], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )

    p = run("certs")
    assert p.returncode == 0 and "1 accepted" in p.stdout, p.stdout + p.stderr
    bad = json.loads(json.dumps(good))
    bad["games"]["M"]["nodes"][1]["answer"][0][1][0] = "1/2"
    (tmp_path / "certs" / "bad.json").write_text(json.dumps(bad))
    p = run("certs")
    assert p.returncode == 1 and "REJECTED" in p.stdout and "not a distribution" in p.stdout
    (tmp_path / "certs" / "worse.json").write_text("{")
    assert run("certs").returncode == 2
    assert run("nothing-here").returncode == 2
    p = run("--show-game", "certs/good.json")
    assert "#1 the mechanism answers" in p.stdout and "0 (3/4, 1/4) -> end" in p.stdout


def test_imports_only_the_standard_library():
    allowed = {
        "__future__",
        "argparse",
        "importlib",  # (__main__.py: the folder run on its own)
        "gc",
        "hashlib",
        "json",
        "math",
        "operator",
        "os",
        "sys",
        "fractions",
        "functools",
        "itertools",
        "collections",
        "contextlib",
        "pathlib",
        "typing",
    }
    mods = set()
    for path in CHECKER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                mods |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0:  # (level 1: a module of this folder)
                mods.add((node.module or "").split(".")[0])
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 1 and (node.module or "").split(".")[0] in MODULES | {""}, (path, node.module)
    assert mods <= allowed, mods - allowed


# What a referee reads to trust a certificate: __init__.py, core.py and the modules of its claim kind.
TRUST = {
    "privloss, dp, delta": [],
    "profile_le, profile_eq, fdp, tradeoff": ["profiles"],
    "renyi, conversion": ["divergences"],
    "zcdp": ["zcdp", "divergences"],
    "bounded_range, br_range": ["bounded_range"],
    "gdp": ["gdp"],
    "simulates_rr": ["simulation"],
    "composition": ["composition", "divergences"],
    "a symbol (with bounded_range)": ["symbol", "bounded_range"],
    "a symbol (with profiles)": ["symbol", "profiles"],
    "a symbol, composition (its theorems but renyi)": ["symbol", "composition"],
}
KERNEL_BUDGET = 1600  # lines of what any one certificate relies on (the whole package is more: docs/certificates.md)
MODULES = {"core", "profiles", "divergences", "bounded_range", "gdp", "simulation", "composition", "symbol", "zcdp"}
MODULES |= {"cli"}


def _lines(name: str) -> int:
    return len((CHECKER / f"{name}.py").read_text().splitlines())


def test_what_a_referee_reads_for_one_certificate_stays_within_the_budget():
    """Every claim kind's trust base (__init__.py, core.py and the modules it names) stays within
    KERNEL_BUDGET lines; each kind module states in its docstring what it relies on."""
    for kinds, mods in TRUST.items():
        total = sum(_lines(m) for m in ["__init__", "core", *mods])
        assert total <= KERNEL_BUDGET, (kinds, total)
    assert {p.stem for p in CHECKER.glob("*.py")} == MODULES | {"__init__", "__main__"}


def test_the_command_line_decides_nothing():
    """cli.py (argument parsing, walking folders, reading files, printing, --show-game) decides
    nothing: no kernel module uses a name it defines, and it never raises a verdict itself."""
    front = (CHECKER / "cli.py").read_text()
    front_names = {n.name for n in ast.parse(front).body if isinstance(n, ast.FunctionDef)}
    for m in MODULES - {"cli"}:
        used = {n.id for n in ast.walk(ast.parse((CHECKER / f"{m}.py").read_text())) if isinstance(n, ast.Name)}
        assert not used & front_names, (m, used & front_names)
    assert "raise Rejected" not in front and "raise OtherCase" not in front


def test_terminal_text_is_escaped():
    assert checker.core.text("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert checker.core.text(Fraction(10**5000, 3)).startswith("<a number of")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=mechanisms(max_depth=2, combinators=False), b=mechanisms(max_depth=2, combinators=False))
def test_tensor_product_is_exactdps(a, b):
    """The product of the components' dominating pairs (Dong, Roth & Su 2022, Def. 3.1) as the
    checker builds it has exactdp's profile at every bend."""
    from exactdp.analysis.tradeoff import tensor

    want = tensor([engine.profile(a).envelope, engine.profile(b).envelope])
    with kernel_games({"A": a, "B": b}) as games:
        got = checker.composition.tensor([checker.core.envelope(games["A"]), checker.core.envelope(games["B"])])
        assert got[0] == want.top
        lams = sorted({Q(0), Q(1)} | {r for r, _ in want.edges} | {r + Q(1, 3) for r, _ in want.edges})
        for lam, v in zip(lams, checker.core.values(got, lams)):
            assert v == want.value_at(lam)


# --- trade-off values, conversions, Renyi sums over Q(t): by hand ---------------------------------


def test_tradeoff_values_of_rr3_by_hand():
    """RR_(log 3): T's vertices (0, 1), (1/4, 1/4), (1, 0) (Dong-Roth-Su 2022, Def. 2.1): T(1/4) = 1/4,
    T(1/2) = 1 - (3/4 + (1/4)(1/3)) = 1/6 on the second edge, T(0) = 1."""
    g = {"M": game(["end", RR3])}
    for alpha, rel, bound in (("1/4", "equals", "1/4"), ("1/2", "equals", "1/6"), ("0", "equals", "1")):
        out = check(
            certificate({"kind": "tradeoff", "of": "M", "alpha": alpha, "relation": rel, "bound": bound}, g, {})
        )
        assert f"T(M)({alpha}) = {bound}" in out
    rejected(certificate({"kind": "tradeoff", "of": "M", "alpha": "1/2", "relation": "at_most", "bound": "1/7"}, g, {}))
    malformed(certificate({"kind": "tradeoff", "of": "M", "alpha": "3/2", "relation": "equals", "bound": "0"}, g, {}))


def test_conversions_of_rr3_by_hand():
    """RR_(log 3): D_2 = log(7/3), PrivLoss(M, 1/100) = log(74/25) (delta(lam) = (3 - lam)/4 = 1/100);
    renyi-to-dp gives log(7/3) + log(100) = log(700/3) >= it (Mironov 2017, Prop. 3); a wrong
    e^PrivLoss is refused; a field value where a rational is needed is malformed."""
    g = {"M": game(["end", RR3])}
    claim = {"kind": "conversion", "of": "M", "theorem": "renyi-to-dp", "alpha": "2", "delta": "1/100"}
    out = check(certificate(claim, g, {"exp_privloss": "74/25"}))
    assert "PrivLoss(M, 1/100) = log(74/25)" in out and "-- holds" in out
    rejected(certificate(claim, g, {"exp_privloss": "3"}), "is not log(3)")
    field = {**certificate(claim, g, {"exp_privloss": "1,1/1"}), "field": "exp(1/1)"}
    malformed(field, "rational numbers")
    # RR with e^eps = t = e^(1/2): delta(lam) = (t - lam)/(1 + t) = 1/100 at lam = (99t - 1)/100, which
    # pins; it once reached the logarithms as an element of Q(t) (an internal error)
    t_rr = ("answer", {"0": (["0,1/1,1", "1/1,1"], 0), "1": (["1/1,1", "0,1/1,1"], 0)})
    in_field = {**certificate(claim, {"M": game(["end", t_rr])}, {"exp_privloss": "-1,99/100"}), "field": "exp(1/2)"}
    malformed(in_field, "rational numbers")


def test_renyi_over_q_t_is_exact_for_a_monomial_sum():
    """RR with e^eps = t = e^(1/2): the largest ratio is t, so D_inf = log(t) = 1/2 exactly; D_2 =
    log((t^2 - t + 1)/t) = 0.2274... is signed by bounds and is never equal to a rational."""
    t_rr = ("answer", {"0": (["0,1/1,1", "1/1,1"], 0), "1": (["1/1,1", "0,1/1,1"], 0)})
    g = {"M": game(["end", t_rr])}

    def renyi(alpha, rel, bound):
        cert = certificate({"kind": "renyi", "of": "M", "alpha": alpha, "relation": rel, "bound": bound}, g, {})
        return {**cert, "field": "exp(1/2)"}

    assert "-- holds" in check(renyi("inf", "equals", [["e", "1/2"]]))
    assert "-- holds" in check(renyi("2", "at_most", [["e", "23/100"]]))
    rejected(renyi("2", "at_most", [["e", "22/100"]]))
    rejected(renyi("inf", "equals", [["e", "1/3"]]))


def test_zcdp_by_hand():
    """RR_(log 3): sup D_alpha/alpha = KL = log(3)/2 = 0.549 (Steinke 2024), approached as alpha -> 1,
    and D_inf = log 3.  K(alpha) = (alpha - 1) D_alpha = log((3^alpha + 3^(1 - alpha))/4) (the sum
    over both answers), so K(17/16) = 0.03606 <= 37/1000, K(19/16) = 0.11780 <= 59/500, K(85/64) =
    0.22302 <= 28/125, K(53/32) = 0.50915 <= 51/100, K(2) = log(7/3) = 0.84730 <= 106/125 (mpmath,
    40 digits), and the chords through these bounds stay below 3/5 alpha (alpha - 1); D_inf = 1.0986
    <= 3/5 * 2.  A chord from (1, 0) straight to (2, 106/125) rises above it (slope 0.848 > 3/5); a
    bound below K proves nothing; D_(9/8) > 9/16 refutes 1/2-zCDP."""
    g = {"M": game(["end", RR3])}
    zcdp = {"kind": "zcdp", "of": "M", "rho": "3/5"}
    orders, bounds = ["17/16", "19/16", "85/64", "53/32", "2"], ["37/1000", "59/500", "28/125", "51/100", "106/125"]
    assert "-- holds" in check(certificate(zcdp, g, {"orders": orders, "bounds": bounds}))
    rejected(certificate(zcdp, g, {"orders": ["2"], "bounds": ["106/125"]}), "does not decide", "the chord on [1, 2]")
    low = {"orders": orders, "bounds": ["36/1000"] + bounds[1:]}
    rejected(certificate(zcdp, g, low), "does not decide", "D_17/16(M) > 72/125")
    rejected(certificate(zcdp, g, {"orders": orders[:-1], "bounds": bounds[:-1]}), "does not decide", "D_inf(M)")
    malformed(certificate(zcdp, g, {"orders": ["19/16", "17/16"], "bounds": bounds[:2]}), "increasing")
    malformed(certificate(zcdp, g, {"orders": orders, "bounds": bounds[:-1]}), "one for each order")
    refute = {"kind": "not_zcdp", "of": "M", "rho": "1/2"}
    assert "D_9/8(M) > 9/16" in check(certificate(refute, g, {"alpha": "9/8"}))
    rejected(certificate(refute, g, {"alpha": "3"}), "does not decide")


def test_kl_and_fraction_orders_over_q_t_by_bounds():
    """RR with e^eps = t = e^(1/2) (p = t/(1 + t)): KL = (2p - 1)/2 = tanh(1/4)/2 = 0.1224593,
    D_(3/2) = 2 log(p^(3/2) q^(-1/2) + q^(3/2) p^(-1/2)) = 0.1783694 and D_4 = 0.3518911 (mpmath,
    30 digits); the checker bounds each until the comparison is decided (an equality never is), and
    ``by_bounds`` asks for bounds at a whole order, never at inf."""
    t_rr = ("answer", {"0": (["0,1/1,1", "1/1,1"], 0), "1": (["1/1,1", "0,1/1,1"], 0)})
    g = {"M": game(["end", t_rr])}

    def renyi(alpha: str, rel: str, bound: str, proof: dict | None = None) -> dict:
        claim = {"kind": "renyi", "of": "M", "alpha": alpha, "relation": rel, "bound": [["e", bound]]}
        return {**certificate(claim, g, proof or {}), "field": "exp(1/2)"}

    assert "-- holds" in check(renyi("1", "at_most", "1224594/10000000"))
    assert "-- holds" in check(renyi("1", "exceeds", "1224593/10000000"))
    rejected(renyi("1", "at_most", "1224593/10000000"), "but it fails")
    assert "-- holds" in check(renyi("3/2", "exceeds", "1783693/10000000"))
    rejected(renyi("3/2", "exceeds", "1783695/10000000"), "but it fails")
    assert "-- holds" in check(renyi("4", "at_most", "3518912/10000000", {"by_bounds": "yes"}))
    rejected(renyi("4", "at_most", "3518910/10000000", {"by_bounds": "yes"}), "but it fails")
    malformed(renyi("inf", "at_most", "1", {"by_bounds": "yes"}), "at a finite order")
    malformed(renyi("4", "at_most", "1", {"by_bounds": "no"}), "by_bounds")


def test_bounds_on_probabilities_whose_denominator_is_negative_at_t():
    """p = (t - 3)/(t - 4) = 0.2197973 and 1 - p = -1/(t - 4) at t = e: numerator and denominator
    are both negative at t (the denominator's leading coefficient is positive, as the checker
    keeps it).  KL = 0.7099486 and D_(3/2) = 0.9231911 (mpmath, 30 digits) are still bounded."""
    answer = {"a": (["-3,1/-4,1", "-1/-4,1"], 0), "b": (["-1/-4,1", "-3,1/-4,1"], 0)}
    g = {"M": game(["end", ("answer", answer)])}

    def renyi(alpha: str, rel: str, bound: str) -> dict:
        claim = {"kind": "renyi", "of": "M", "alpha": alpha, "relation": rel, "bound": [["e", bound]]}
        return {**certificate(claim, g, {}), "field": "exp(1/1)"}

    assert "-- holds" in check(renyi("1", "at_most", "71/100"))
    assert "-- holds" in check(renyi("1", "exceeds", "7099/10000"))
    assert "-- holds" in check(renyi("3/2", "at_most", "924/1000"))
    rejected(renyi("3/2", "at_most", "923/1000"), "but it fails")
