"""Certificate builders against the standalone checker and the enumerator.

* every certificate built for a random small mechanism is accepted, and its verdict is the one
  exactdp's *enumerator* (Vadhan & Wang 2021, Lemma 2.2 taken literally) gives on the game as
  the certificate states it;
* mutation: changing any single number of a certificate (a game probability, a chain vertex,
  an event member, a T entry, a multiplier, an id, a claim parameter) makes the checker reject
  it — or accept it only when the mutated claim is still true, which the enumerator then proves
  on the mutated certificate's own game; the checker never crashes on a mutant;
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
"""


def certify_text(text: str) -> list[dict]:
    """Certificates of every claim of a case, built in the verify pipeline's own run."""
    case = parse_case(text, "pool.yaml")
    out: list = []

    def hook(case, k, claim, verdict, an):
        try:
            body = claim.certificate(an)
        except NoCertificate:
            body = None
        if body is not None:
            assert body["verdict"] == verdict.status, claim.describe()
            out.append(wrap_body(body, claim.describe()))

    with verdict_hook(hook):
        verify_case(case, Options())
    return out


POOL = certify_text(POOL_CASE)


@pytest.fixture(scope="module")
def pool() -> list[dict]:
    return POOL


def roundtrip(cert: dict) -> dict:
    return json.loads(json.dumps(cert))


def test_pool_covers_every_kind_and_both_verdicts(pool):
    kinds = {(c["claim"]["kind"], c["verdict"]) for c in pool}
    for kind in ("privloss", "dp", "delta", "profile_le", "profile_eq", "fdp", "not_fdp", "renyi", "simulates_rr"):
        assert {(kind, "holds"), (kind, "fails")} <= kinds, kind
    assert ("not_dp", "holds") in kinds and ("not_simulates_rr", "holds") in kinds
    assert any("farkas" in c["proof"] for c in pool) and any("simulation" in c["proof"] for c in pool)
    assert len(pool) == POOL_CASE.count("\n  - ") - 1  # every claim but the composition one


def test_pool_is_accepted_and_true(pool):
    for cert in pool:
        checker.check_certificate(roundtrip(cert))
        assert claim_truth(cert) == (cert["verdict"] == "holds"), cert["exactdp"]["claim"]


def test_no_certificate_for_decimal_eps_and_symbolic_mechanisms():
    text = (
        POOL_CASE.split("claims:")[0]
        + "symbols: {E: {gt: 1}}\nclaims:\n  - dp: {eps: 1/10, delta: 0}\n  - privloss: {delta: 0, equals: 1/10}\n"
    )
    text = (
        text.replace("  C: {compose", "  S: {rr: {eps: log(E)}}\n  C: {compose")
        + "  - simulates_rr: {of: S, eps: log(E)}\n"
    )
    case = parse_case(text, "decimal.yaml")
    an = Analysis(case.mechanisms)
    for claim in case.claims:
        claim.check(an)
        with pytest.raises(NoCertificate, match="transcendental|symbolic"):
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


# --- mutation ---------------------------------------------------------------------------------

SMALL = [c for c in POOL if len(json.dumps(c)) < 60_000]


def _mutations(value):
    if isinstance(value, int):
        return [x for x in (value + 1, value - 1, 0, value + 2) if x != value]
    f = Fraction(value)
    out = [f + 1, f - 1, f * 2, f / 2, -f, f + Fraction(1, 7), Fraction(0), Fraction(1)]
    return [str(x) if x.denominator != 1 else str(x.numerator) for x in out if x != f]


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_single_number_mutations(data):
    cert = data.draw(st.sampled_from(SMALL))
    where = data.draw(st.sampled_from(numbers_in(cert)))
    value = cert
    for k in where:
        value = value[k]
    new = data.draw(st.sampled_from(_mutations(value)))
    mutant = set_at(cert, where, new)
    try:
        checker.check_certificate(roundtrip(mutant))
    except (checker.Rejected, checker.Malformed):
        return
    # accepted: only a true claim may be accepted, and the enumerator must agree
    assume(where[0] not in ("version",))
    assert claim_truth(mutant) == (mutant["verdict"] == "holds"), (where, value, new)


# --- the schema -----------------------------------------------------------------------------------


def test_certificates_validate_against_the_schema(pool):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "docs" / "certificate.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    for cert in pool:
        jsonschema.validate(roundtrip(cert), schema)


def test_renyi_certificates_within_what_the_checker_computes():
    """D_1000(R) <= 20 log(3) compares r with 3^19980: accepted; D_2(R) <= log(3)/99999991 would
    raise r to the 99999991st power: "no certificate", never one the checker must refuse."""
    text = (
        "exactdp: 1\nname: r\nmechanism: {rr: {eps: log(3)}}\nclaims:\n"
        "  - renyi: {alpha: 1000, at_most: 20*log(3)}\n"
        "  - renyi: {alpha: 2, at_most: log(3)/99999991}\n"
    )
    case = parse_case(text, "r.yaml")
    an = Analysis(case.mechanisms)
    first, second = case.claims
    assert first.check(an).holds
    assert "D_1000(M) <= 20 log(3)" in checker.check_certificate(roundtrip(wrap_body(first.certificate(an))))
    with pytest.raises(NoCertificate, match="more than the checker computes"):
        second.certificate(an)


def test_the_renyi_builder_knows_the_checkers_bounds():
    """exactdp writes no renyi certificate the checker would refuse: the two share its bounds
    (the checker imports nothing from exactdp, so each states them)."""
    from exactdp.certificates import renyi as builder

    assert builder.MAX_BITS == checker.MAX_BITS
    g = {"nodes": [{"id": 0, "end": True}], "root": 0, "datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]]}
    claim = {"kind": "renyi", "of": "M", "alpha": str(builder.MAX_ORDER + 1), "relation": "equals", "bound": []}
    with pytest.raises(checker.Malformed, match="claim.alpha"):
        checker.check_certificate(
            wrap_body({"claim": claim, "verdict": "holds", "games": {"M": g}, "proof": {}, "exactdp": {}})
        )
