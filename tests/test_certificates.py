"""Certificate builders against the standalone checker and exactdp's own decisions.

* every certificate built for a random small mechanism is accepted, and its verdict is the one
  exactdp's *enumerator* (Vadhan & Wang 2021, Lemma 2.2 taken literally) gives on the game as
  the certificate states it;
* mutation, for every claim kind: changing a number of a certificate (a game probability, an
  id, a claim parameter, a proof value, a T entry, a multiplier), its verdict or its relation
  makes the checker reject it — or accept it only when the mutated claim is true, which exactdp
  then shows on the mutated certificate's own games; the checker never crashes on a mutant;
* the certificates validate against docs/certificate.schema.json.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactdp import checker, exact
from exactdp.caseio import parse_case
from exactdp.certificates import (
    NoCertificate,
    delta_certificate,
    dp_certificate,
    privloss_certificate,
    profile_certificate,
)
from exactdp.claims import Analysis
from exactdp.model import count_strategies
from exactdp.numbers import Q
from exactdp.verify import Options, verdict_hook, verify_case
from tests.certkit import claim_truth, numbers_in, set_at, wrap_body
from tests.strategies import mechanisms

ROOT = Path(__file__).resolve().parents[1]

POOL_CASE = """
exactdp: 1
name: certificate-pool
mechanisms:
  M:   # Vadhan-Wang Figure 1: a coin, then RR or a coin, adaptively
    respond:
      0: {p: [1/2, 1/2], then: {ask: {0: &rr3 {0: [3/4, 1/4], 1: [1/4, 3/4]}, 1: &coin {0: [1/2, 1/2], 1: [1/2, 1/2]}}}}
      1: {p: [1/2, 1/2], then: {ask: {0: *coin, 1: *rr3}}}
  R: {rr: {eps: log(3)}}
  K: {respond: {key0: [1/2, 0], key1: [0, 1/2], none: [1/2, 1/2]}}
  D: {rr: {eps: log(2), delta: 1/10}}
  C: {compose: [{rr: {eps: log(2)}}, {rr: {eps: log(2)}}]}
claims:
  - privloss: {delta: 1/4, equals: log(2)}
  - privloss: {delta: 1/4, equals: log(3)}
  - privloss: {delta: 0, equals: log(2)}
  - privloss: {delta: 0, at_most: log(4)}
  - privloss: {of: K, delta: 0, equals: inf}
  - privloss: {of: K, delta: 0, at_most: log(100)}
  - dp: {eps: log(2), delta: 1/4}
  - dp: {eps: log(2), delta: 1/5}
  - not_dp: {eps: 0, delta: 1/4}
  - delta: {eps: log(2), equals: 1/4}
  - delta: {eps: log(2), equals: 1/3}
  - delta: {eps: log(1/2), equals: 5/8}   # below eps = 0: 1/2 (3/4 - 1/8) + 1/2 (3/4 - 1/8), RR on both coins
  - delta: {eps: log(1/2), equals: 1/2}
  - profile_le: {of: R, than: M}
  - profile_le: {of: K, than: R}
  - profile_eq: {of: R, as: M}
  - profile_eq: {of: K, as: R}
  - fdp: {of: R, f: M}
  - fdp: {of: K, f: R}
  - not_fdp: {of: K, f: R}
  - not_fdp: {of: R, f: M}
  - profile_le: {of: R, than: M, group: 1}   # the claim's own pairs: games named "R (the claim's pairs)"
  - fdp: {of: K, f: R, pairs: [[x1, x0]]}
  - renyi: {of: M, alpha: 2, equals: log(25/24)}
  - renyi: {of: R, alpha: 3, equals: log(61/9)/2}
  - renyi: {of: R, alpha: 2, at_most: log(2)}
  - renyi: {of: C, alpha: 2, exceeds: 2*log(4/3)}
  - renyi: {of: K, alpha: 2, equals: inf}
  - renyi: {of: M, alpha: inf, equals: log(3)}
  - renyi: {of: R, alpha: inf, at_most: log(2)}
  - simulates_rr: {of: R, eps: log(3)}
  - simulates_rr: {of: R, eps: log(2)}
  - simulates_rr: {of: D, eps: log(2), delta: 1/10}
  - not_simulates_rr: {of: C, eps: log(3), delta: 1/20}
  - simulates_rr: {of: M}
  - not_simulates_rr: {of: K}
  - composition: {components: [R, R], theorem: basic}
  - composition: {components: [R, R], theorem: optimal, delta: 1/10}
  - composition: {components: [D, R], theorem: thm-1.8, deltas: [1/10, 0]}
  - composition: {components: [D, D], theorem: improved-basic, deltas: [1/10, 1/10], delta: 1/100}
  - composition: {components: [R, R], theorem: basic, eps: [log(2), log(3)]}
  - composition: {components: [R, K], theorem: renyi, alpha: 2}
  - composition: {components: [R, R], theorem: renyi, alpha: 1}
  - composition: {components: [R, K], theorem: fdp}
  - composition: {components: [D, R, D], theorem: fdp}
  - renyi: {of: R, alpha: 1, equals: log(3)/2}
  - renyi: {of: R, alpha: 1, exceeds: 1/2}
  - renyi: {of: R, alpha: 3, exceeds: log(61/9)/2 - 1/1000}
  - renyi: {of: R, alpha: 2, at_most: 1/2}
  - renyi: {of: R, alpha: 3/2, at_most: 1}   # fractions: D_3/2(R) ~ 0.734 (log(sum)/(1/2), certified enclosure)
  - renyi: {of: R, alpha: 3/2, at_most: 2/5}
  - renyi: {of: M, alpha: 5/2, exceeds: log(2)/4}   # D_5/2(M) ~ 0.915
  - renyi: {of: M, alpha: 5/2, at_most: 1/10}
  - renyi: {of: K, alpha: 3/2, equals: inf}   # key0 is possible under x0 only
  - renyi: {of: K, alpha: 7/3, at_most: 100}
  - bounded_range: {of: R, eps: log(9)}
  - bounded_range: {of: M, eps: log(3)}
  - not_bounded_range: {of: M, eps: log(3), adversaries: randomized}
  - br_range: {of: M, equals: log(9), adversaries: randomized}
  - br_range: {of: M, equals: log(3)}
  - gdp: {of: R, mu: 1.2}
  - gdp: {of: R, mu: 1.4}   # RR_(log 3): T has the vertex (1/4, 1/4), G_mu(1/4) <= 1/4 iff mu >= 2 Phi^-1(3/4) ~ 1.349
  - not_gdp: {of: K, mu: 3}
  - tradeoff: {of: R, alpha: 1/4, equals: 1/4}   # RR_(log 3): T's vertices (0, 1), (1/4, 1/4), (1, 0)
  - tradeoff: {of: R, alpha: 1/8, at_least: 1/2}   # T(1/8) = 1 - 3/8 = 5/8 on the first edge
  - tradeoff: {of: R, alpha: 1/2, at_most: 1/7}   # false: T(1/2) = 1 - (3/4 + (1/4)(1/3)) = 1/6
  - tradeoff: {of: K, alpha: 0, equals: 1/2}   # key0 (possible under x0 only) has P = 1/2: T(0) = 1/2
  - conversion: {of: R, theorem: renyi-to-dp, alpha: 2, delta: 1/10}   # log(13/5) <= log(7/3) + log(10)
  - conversion: {of: M, theorem: renyi-to-dp-cks, alpha: 3, delta: 1/100}
  - conversion: {of: R, theorem: renyi-to-dp, alpha: 3/2, delta: 1/4}   # a fraction: decided by bounds
  - zcdp: {of: R, rho: 3/5}   # sup D_alpha/alpha = KL(RR_log3) = log(3)/2 = 0.549 (Steinke 2024)
  - zcdp: {of: R, rho: 1/2}
  - not_zcdp: {of: R, rho: 1/2}
  - not_zcdp: {of: M, rho: 2}   # false: D_inf(M) = log(3) and D_alpha <= D_inf <= 2 alpha
"""

DECIMAL_CASE = """
exactdp: 1
name: decimal-pool
mechanisms:
  E: {rr: {eps: 0.5}}
  F: {rr: {eps: 0.5, delta: 0.01}}
  R3: {rr: {eps: log(3)}}
claims:
  - dp: {of: E, eps: 0.5}
  - dp: {of: E, eps: 0.4}
  - not_dp: {of: E, eps: 0.45}
  - privloss: {of: E, delta: 0, equals: 0.5}
  - privloss: {of: F, delta: 0.01, at_most: 0.51}
  - delta: {of: F, eps: 0.3, equals: 0.01 + 0.99*(exp(0.5) - exp(0.3))/(1 + exp(0.5))}
  - not_dp: {of: F, eps: 0.12345678901234, delta: 0.01}
  - bounded_range: {of: E, eps: 1}
  - composition: {components: [E, E], theorem: basic}
  - composition: {components: [E, R3], theorem: optimal}   # numbers of Q(t) and of Q in one composition
  - renyi: {of: E, alpha: inf, equals: 0.5}   # the largest ratio is e^0.5 = t: log(t) = 1/2 exactly
  - renyi: {of: E, alpha: 2, at_most: 0.23}   # D_2 = log((t^2 - t + 1)/t) = 0.2274..., t = e^0.5
  - renyi: {of: E, alpha: 2, at_most: 0.22}
  - tradeoff: {of: E, alpha: 1/(1 + exp(0.5)), equals: 1/(1 + exp(0.5))}   # RR's vertex (1/(1 + e^eps), e^eps/(1 + e^eps))
  - renyi: {of: E, alpha: 1, at_most: 0.1225}   # KL = (1/2) tanh(1/4) = 0.122459... (by bounds over Q(t))
  - renyi: {of: E, alpha: 1, exceeds: 0.1225}
  - renyi: {of: E, alpha: 3/2, at_most: 0.18}   # D_3/2 = 2 log(p^(3/2) q^(-1/2) + q^(3/2) p^(-1/2)) = 0.17837, p = t/(1 + t), q = 1 - p
  - renyi: {of: E, alpha: 600, at_most: 0.5}   # D_600 = log(p^600 q^-599 + q^600 p^-599)/599 = 0.499209 (p = t/(1 + t), mpmath): by bounds
  - renyi: {of: E, alpha: 600, exceeds: 0.4993}   # false
  - zcdp: {of: E, rho: 1/8}   # sup D_alpha/alpha = KL = 0.12246 < 1/8 (approached as alpha -> 1)
  - zcdp: {of: E, rho: 0.12}
  - not_zcdp: {of: E, rho: 0.12}
"""


def certify_text(text: str) -> list[dict]:
    """Certificates of every claim of a case, built in the verify pipeline's own run."""
    case = parse_case(text, "pool.yaml")
    missing: list = []
    out: list = []

    def hook(case, k, claim, verdict, an):
        try:
            body = claim.certificate(an)
        except NoCertificate as e:
            missing.append((claim.describe(), str(e)))
            body = None
        if body is not None:
            assert body["verdict"] == verdict.status, claim.describe()
            out.append(wrap_body(body, claim.describe()))

    with verdict_hook(hook):
        verify_case(case, Options())
    assert not missing, missing
    return out


POOL = certify_text(POOL_CASE) + certify_text(DECIMAL_CASE)


@pytest.fixture(scope="module")
def pool() -> list[dict]:
    return POOL


def roundtrip(cert: dict) -> dict:
    return json.loads(json.dumps(cert))


def test_pool_covers_every_kind_and_both_verdicts(pool):
    from exactdp.claims import CLAIMS

    kinds = {(c["claim"]["kind"], c["verdict"]) for c in pool}
    # the kinds the checker has no check for say why (tests/test_cli_certify.py); calibrate and
    # counterexample are about symbols only
    uncertified = {"calibrate", "counterexample"}
    assert {k for k, _ in kinds} == set(CLAIMS) - uncertified, set(CLAIMS) ^ {k for k, _ in kinds}
    for kind in ("privloss", "dp", "delta", "profile_le", "profile_eq", "fdp", "not_fdp", "renyi", "simulates_rr"):
        assert {(kind, "holds"), (kind, "fails")} <= kinds, kind
    for kind in ("composition", "bounded_range", "br_range", "gdp", "tradeoff", "zcdp", "not_zcdp"):
        assert {(kind, "holds"), (kind, "fails")} <= kinds, kind
    assert ("not_dp", "holds") in kinds and ("not_simulates_rr", "holds") in kinds
    assert any("farkas" in c["proof"] for c in pool) and any("simulation" in c["proof"] for c in pool)
    assert any("field" in c for c in pool) and any("bracket" in c["proof"] for c in pool)
    assert len(pool) == POOL_CASE.count("\n  - ") + DECIMAL_CASE.count("\n  - ")


def test_pool_is_accepted_and_true(pool):
    for cert in pool:
        checker.check_certificate(roundtrip(cert))
        assert claim_truth(cert) == (cert["verdict"] == "holds"), cert["exactdp"]["claim"]


def test_no_certificate_for_symbolic_mechanisms():
    text = POOL_CASE.split("claims:")[0].replace("  C: {compose", "  S: {rr: {eps: log(E)}}\n  C: {compose")
    text += "symbols: {E: {gt: 1}}\nclaims:\n  - simulates_rr: {of: S, eps: log(E)}\n"
    case = parse_case(text, "symbolic.yaml")
    an = Analysis(case.mechanisms)
    for claim in case.claims:
        claim.check(an)
        with pytest.raises(NoCertificate, match="symbolic"):
            claim.certificate(an)


# --- random mechanisms: builders agree with the enumerator, and the checker agrees ---------------

LAMBDAS = [Q(1), Q(3, 2), Q(2), Q(3), Q(7)]
DELTAS = [Q(0), Q(1, 10), Q(1, 4), Q(1, 2)]


def _log(lam):
    return exact(f"log({lam})") if lam != 1 else Q(0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    m=mechanisms(max_depth=3),
    n=mechanisms(max_depth=2, combinators=False),
    kind=st.sampled_from(
        ["privloss", "at_most", "dp", "not_dp", "delta", "profile_le", "profile_eq", "fdp", "not_fdp"]
    ),
    lam=st.sampled_from(LAMBDAS),
    delta=st.sampled_from(DELTAS),
    data=st.data(),
)
def test_random_mechanisms(m, n, kind, lam, delta, data):
    assume(count_strategies(m.root) <= 2000 and count_strategies(n.root) <= 2000)  # the enumerator's reach
    an = Analysis({"M": m, "N": n})
    prof = an.profile("M")
    if kind == "privloss":
        true = prof.least_lambda(delta)
        value = data.draw(st.sampled_from([true, lam]))
        value = exact("inf") if not hasattr(value, "numerator") else _log(value)
        body = privloss_certificate(an, "M", delta, "equals", value)
    elif kind == "at_most":
        body = privloss_certificate(an, "M", delta, "at_most", _log(lam))
    elif kind in ("dp", "not_dp"):
        body = dp_certificate(an, "M", _log(lam), delta, negated=kind == "not_dp")
    elif kind == "delta":
        d = data.draw(st.sampled_from([prof.delta_at_lambda(lam), delta]))
        body = delta_certificate(an, "M", _log(lam), d)
    else:
        body = profile_certificate(an, "M", data.draw(st.sampled_from(["M", "N"])), kind)
    cert = roundtrip(wrap_body(body))
    checker.check_certificate(cert)
    assert claim_truth(cert) == (cert["verdict"] == "holds")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    eps=st.sampled_from(["0.1", "0.5", "1.2"]),
    alpha=st.sampled_from(["2", "3", "inf"]),
    bound=st.fractions(min_value=0, max_value=2, max_denominator=50),
)
def test_renyi_over_q_t_agrees_with_exactdp(eps, alpha, bound):
    """D_alpha of a composition of decimal-eps RRs: the checker's sums over Q(e^(1/10)), signed
    exactly or by bounds, against exactdp's verdict (certify_text asserts they agree)."""
    text = (
        f"exactdp: 1\nname: f\nmechanisms:\n  E: {{rr: {{eps: {eps}}}}}\n  C: {{compose: [E, {{rr: {{eps: 0.3}}}}]}}\n"
        f"claims:\n  - renyi: {{of: C, alpha: {alpha}, at_most: {bound}}}\n"
    )
    (cert,) = certify_text(text)
    assert cert.get("field") == "exp(1/10)"
    checker.check_certificate(roundtrip(cert))


# --- mutation --------------------------------------------------------------------------------

SMALL = [c for c in POOL if len(json.dumps(c)) < 60_000]


def _mutations(value):
    if isinstance(value, int):
        return [x for x in (value + 1, value - 1, 0, value + 2) if x != value]
    if "," in value:  # a polynomial in t: change one coefficient
        n, _, d = value.partition("/")
        first, *rest = n.split(",")
        return [",".join([str(int(first) + 1)] + rest) + "/" + d, d + "/" + n if d else n + ",1"]
    f = Fraction(value)
    out = [f + 1, f - 1, f * 2, f / 2, -f, f + Fraction(1, 7), Fraction(0), Fraction(1)]
    return [str(x) if x.denominator != 1 else str(x.numerator) for x in out if x != f]


_RELATIONS = {
    "relation": ["equals", "at_most", "at_least", "exceeds"],
    "verdict": ["holds", "fails"],
    "adversaries": ["deterministic", "randomized"],
}


def mutants(cert: dict, rng) -> list:
    """Single changes of a certificate: every number place, the verdict, the relations."""
    out = []
    for where in numbers_in(cert):
        value = cert
        for k in where:
            value = value[k]
        if where[0] in ("case", "version"):
            continue
        out += [(where, new) for new in _mutations(value)]
    for key, options in _RELATIONS.items():
        for where in ((key,), ("claim", key)):
            try:
                value = cert
                for k in where:
                    value = value[k]
            except (KeyError, TypeError):
                continue
            out += [(where, o) for o in options if o != value]
    rng.shuffle(out)
    return out


def _mutate_and_check(cert: dict, where: tuple, new) -> str:
    """'rejected', or 'accepted' after exactdp confirmed the mutated claim on its own games."""
    mutant = set_at(cert, where, new)
    try:
        checker.check_certificate(roundtrip(mutant))
    except (checker.Rejected, checker.Malformed):
        return "rejected"
    try:
        truth = claim_truth(mutant)
    except Exception:  # the mutant is not a valid mechanism (probabilities no longer sum to 1, ...)
        raise AssertionError(f"the checker accepted a mutant exactdp cannot read: {where} -> {new}") from None
    assert truth == (mutant["verdict"] == "holds"), (mutant["exactdp"]["claim"], where, new)
    return "accepted"


def _kind(cert: dict) -> str:
    """The claim kind; Renyi claims at a fraction order, and KL over Q(e^(1/L)) (decided by bounds),
    and zCDP over Q(e^(1/L)) count as kinds of their own."""
    kind, alpha = cert["claim"]["kind"], cert["claim"].get("alpha", "")
    if kind == "renyi" and ("/" in alpha or (alpha == "1" and "field" in cert) or "by_bounds" in cert["proof"]):
        return "renyi by bounds" + " over Q(t)" * ("field" in cert)
    return kind + " over Q(t)" * ("field" in cert and kind in ("zcdp", "not_zcdp"))


MUTATION_KINDS = sorted({_kind(c) for c in SMALL})
MUTANTS_PER_KIND = 200


@pytest.mark.parametrize("kind", MUTATION_KINDS)
def test_mutants_of_every_kind(kind):
    """For each claim kind, mutants of its certificates (both verdicts, every number place): the
    checker rejects each one whose claim is false; what it accepts, exactdp confirms."""
    import random

    rng = random.Random(kind)
    certs = [c for c in SMALL if _kind(c) == kind]
    counts = {"rejected": 0, "accepted": 0}
    for k in range(MUTANTS_PER_KIND):
        cert = certs[k % len(certs)]
        where, new = rng.choice(mutants(cert, rng))
        counts[_mutate_and_check(cert, where, new)] += 1
    assert counts["rejected"] > 0, counts
    MUTATION_REPORT[kind] = counts


MUTATION_REPORT: dict = {}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_single_number_mutations(data):
    cert = data.draw(st.sampled_from(SMALL))
    where, new = data.draw(st.sampled_from(mutants(cert, __import__("random").Random(0))))
    _mutate_and_check(cert, where, new)


# --- the schema -----------------------------------------------------------------------------------


def test_certificates_validate_against_the_schema(pool):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "certificate.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for cert in pool:
        jsonschema.validate(roundtrip(cert), schema)


def test_renyi_certificates_compare_logarithms_not_powers():
    """D_1000(R) <= 20 log(3) and D_2(R) <= log(3)/99999991 (true and false): the checker compares
    log(r)/(alpha - 1) with the value as a sum of logarithms of coprime integers, never r with a
    99999991st power."""
    text = (
        "exactdp: 1\nname: r\nmechanism: {rr: {eps: log(3)}}\nclaims:\n"
        "  - renyi: {alpha: 1000, at_most: 20*log(3)}\n"
        "  - renyi: {alpha: 2, at_most: log(3)/99999991}\n"
    )
    case = parse_case(text, "r.yaml")
    an = Analysis(case.mechanisms)
    first, second = case.claims
    assert first.check(an).holds and not second.check(an).holds
    assert "D_1000(M) <= 20 log(3) -- holds" in checker.check_certificate(roundtrip(wrap_body(first.certificate(an))))
    assert "FALSE" in checker.check_certificate(roundtrip(wrap_body(second.certificate(an))))


def test_the_builders_know_the_checkers_limits():
    """exactdp writes no certificate the checker would refuse with its default limits: the two
    state the same bounds (the checker imports nothing from exactdp)."""
    from exactdp.certificates import base, renyi

    assert base.MAX_DEGREE == checker.DEFAULT_LIMITS["max_degree"]
    assert renyi.MAX_BITS == checker.DEFAULT_LIMITS["max_bits"]
    g = {"nodes": [{"id": 0, "end": True}], "root": 0, "datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]]}
    claim = {"kind": "renyi", "of": "M", "alpha": str(renyi.MAX_ORDER + 1), "relation": "equals", "bound": []}
    with pytest.raises(checker.Malformed, match="claim.alpha"):
        checker.check_certificate(
            wrap_body({"claim": claim, "verdict": "holds", "games": {"M": g}, "proof": {}, "exactdp": {}})
        )


@settings(max_examples=300, deadline=None)
@given(
    a=st.fractions(min_value=1, max_value=20, max_denominator=64),
    h=st.fractions(min_value=Fraction(1, 64), max_value=5, max_denominator=64),
    ka=st.fractions(min_value=0, max_value=50, max_denominator=64),
    kb=st.fractions(min_value=0, max_value=80, max_denominator=64),
    rho=st.fractions(min_value=Fraction(1, 64), max_value=4, max_denominator=64),
)
def test_the_chord_test_of_builder_and_checker_agree_with_a_dense_grid(a, h, ka, kb, rho):
    """zCDP chords: the builder's test and the checker's (the same formula, kept in each layer)
    agree, and agree with rho x (x - 1) >= the chord at 201 points of [a, a + h] and the vertex."""
    from exactdp.certificates.zcdp import below as built
    from exactdp.checker.zcdp import below as checked

    b = a + h
    got = checked(a, ka, b, kb, rho)
    assert built(a, ka, b, kb, rho) == got

    def gap(x):
        return rho * x * (x - 1) - ka - (kb - ka) / (b - a) * (x - a)

    xs = [a + h * k / 200 for k in range(201)] + [min(max((rho + (kb - ka) / h) / (2 * rho), a), b)]
    assert got == (min(map(gap, xs)) >= 0)
