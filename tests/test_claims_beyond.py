"""The claims renyi, fdp, gdp and the composition theorems renyi and fdp, from case text.

Values by hand (comments) from the definitions: Mironov 2017, Def. 3 (Rényi); Dong-Roth-Su
2022, Def. 2.1, 2.6, Prop. 2.5 (trade-off functions, GDP).
"""

from __future__ import annotations

import pytest

from exactdp.caseio import parse_case
from exactdp.errors import CaseError
from exactdp.report.verdicts import shown
from exactdp.verify import verify_case

HEAD = "exactdp: 1\nname: x\n"
MECHS = (
    "mechanisms:\n"
    "  M: {rr: {eps: log(3)}}\n"
    "  R: {rr: {eps: log(2)}}\n"
    "  D: {rr: {eps: log(3), delta: 1/10}}\n"
    "  B: {tree: {ask: {q: {0: [3/4, 1/4], 1: [1/4, 3/4]}, c: {0: [1/2, 1/2], 1: [1/2, 1/2]}}}}\n"
    "  F: {tree: {respond: {0: {p: [1/2, 1/2], then: {ask: {0: &rr3 {0: [3/4, 1/4], 1: [1/4, 3/4]}, 1: &coin {0: [1/2, 1/2], 1: [1/2, 1/2]}}}},"
    " 1: {p: [1/2, 1/2], then: {ask: {0: *coin, 1: *rr3}}}}}}\n"
)


def check(claims: str):
    return verify_case(parse_case(HEAD + MECHS + "claims:\n" + claims, "t.yaml"))


@pytest.mark.parametrize(
    "claim, holds",
    [
        # RR(3): alpha 2 sum (9/16)/(1/4) + (1/16)/(3/4) = 7/3; alpha 3 sum 61/9
        ("renyi: {alpha: 2, equals: log(7/3)}", True),
        ("renyi: {alpha: 2, equals: log(7/3) + 1/1000}", False),
        ("renyi: {alpha: 3, equals: log(61/9)/2}", True),
        ("renyi: {alpha: 3, at_most: log(61)/2 - log(3)}", True),
        ("renyi: {alpha: 3, at_most: log(3)/2}", False),
        ("renyi: {alpha: 1, equals: log(3)/2}", True),  # KL: 3/4 log 3 - 1/4 log 3
        ("renyi: {alpha: inf, equals: log(3)}", True),
        ("renyi: {alpha: 2, equals: inf, of: D}", True),  # an answer impossible under x1
        ("renyi: {alpha: 2, equals: log(7/3), of: F}", True),  # the adaptive adversary always picks RR(3)
        ("fdp: {f: M, of: R}", True),  # RR(2) is more private than RR(3)
        ("fdp: {f: R}", False),
        ("fdp: {f: M, of: F}", True),
        ("fdp: {f: B, of: M}", True),  # same region: equal trade-off functions
        ("gdp: {mu: 1.35}", True),  # 2 Phi^-1(3/4) = 1.34898 <= 1.35
        ("gdp: {mu: 1.34}", False),
        ("gdp: {mu: 50, of: D}", False),  # T(0) = 9/10 < 1 = G_mu(0)
        # the negations refute the false claims above
        ("renyi: {alpha: 3, exceeds: log(3)/2}", True),
        ("renyi: {alpha: 3, exceeds: log(61/9)/2}", False),
        ("not_fdp: {f: R}", True),
        ("not_fdp: {f: M, of: R}", False),
        ("not_gdp: {mu: 1.34}", True),
        ("not_gdp: {mu: 1.35}", False),
    ],
)
def test_claims(claim, holds):
    v = check(f"  - {claim}\n")[0]
    assert v.holds == holds, (claim, shown(v).found, shown(v).note)


def test_renyi_verdict_names_mechanism_and_values():
    v = check("  - renyi: {alpha: 3, equals: log(61/9)/2}\n")[0]
    assert v.claim.describe() == "D_3(M) = log(61/9)/2" and shown(v).found.startswith("log(61/9)/2 ≈ 0.9568")
    assert shown(v).values["sum"] == "61/9" and shown(v).values["pair"] == ["x0", "x1"]


def test_fdp_failure_names_the_alpha():
    v = check("  - fdp: {f: R}\n")[0]
    # T(RR(2)) has its vertex at 1/3: at alpha = 1/4, T(R) = 1 - 2/4 = 1/2 > T(M) = 1/4
    assert shown(v).found == "at alpha = 1/4: T(M) = 1/4 < T(R) = 1/2"


@pytest.mark.parametrize(
    "claim, found, bound",
    [
        # noninteractive symmetric components: both theorems are tight (slack 0)
        ("{components: [M, R], theorem: renyi, alpha: 2}", "log(7/2)", "log(7/2)"),  # sums 7/3 and 3/2 multiply
        ("{components: [M, M], theorem: renyi, alpha: 3}", "log(61/9)", "log(61/9)"),
        ("{components: [M, R], theorem: renyi, alpha: 1}", "log(108)/6", "log(108)/6"),  # log(3)/2 + log(2)/3
    ],
)
def test_renyi_composition_tight_for_noninteractive(claim, found, bound):
    v = check(f"  - composition: {claim}\n")[0]
    assert (
        v.holds
        and shown(v).values["renyi"] == found
        and shown(v).values["bound"] == bound
        and shown(v).values["slack"] == "0"
    )


def test_fdp_composition_tight_for_noninteractive():
    for of in ("[M, R]", "[M, M, R]", "[R, R]"):
        v = check(f"  - composition: {{components: {of}, theorem: fdp}}\n")[0]
        assert v.holds and shown(v).values["slack"] == "0", (of, shown(v).found)


def test_composition_theorems_on_interactive_components():
    """Figure 1 of Vadhan-Wang with an interactive B: the theorems hold; the Renyi bound is
    tight (the adversary picks RR(3) in each), the f-DP one too."""
    v = check(
        "  - composition: {components: [F, B], theorem: renyi, alpha: 2}\n"
        "  - composition: {components: [F, B, F], theorem: fdp}\n"
        "  - composition: {components: [F, D], theorem: renyi, alpha: 2}\n"
    )
    assert [x.holds for x in v] == [True, True, True]
    assert shown(v[0]).values["renyi"] == "log(49/9)" and shown(v[0]).values["slack"] == "0"
    assert shown(v[2]).values["bound"] == "inf"


def test_composition_with_repeated_names_counts_copies():
    v = check("  - composition: {components: [M, M], theorem: renyi, alpha: 2}\n")[0]
    assert shown(v).values["renyi"] == "log(49/9)"


@pytest.mark.parametrize(
    "claim, phrase",
    [
        ("renyi: {alpha: 1/2, equals: log(2)}", "a fractional Renyi order must be > 1"),
        ("renyi: {alpha: log(2), equals: log(2)}", "must be a rational number >= 1 (such as 2 or 3/2"),
        ("renyi: {alpha: 2}", "exactly one of"),
        ("renyi: {alpha: 2, equals: 1, exceeds: 0}", "exactly one of"),
        ("renyi: {alpha: 2, equals: exp(1/2)}", "Renyi divergence is written like"),
        ("fdp: {f: Nope}", "no mechanism named 'Nope'"),
        ("gdp: {mu: log(2)}", "mu must be an exact rational"),
        ("composition: {components: [M, R], theorem: renyi}", "`alpha:` goes with `theorem: renyi`"),
        ("composition: {components: [M, R], theorem: fdp, delta: 1/10}", "`delta:` does not apply"),
    ],
)
def test_located_errors(claim, phrase):
    with pytest.raises(CaseError, match=phrase.replace("(", r"\(").replace("[", r"\[")):
        check(f"  - {claim}\n")


def test_gdp_of_a_decimal_eps_mechanism_is_decided():
    """RR with eps = 0.5: T's kink alpha = beta = 1/(1 + e^(1/2)) lies in Q(e^(1/2)), not Q; as for
    RR(3), mu-GDP iff mu >= 2 Phi^-1(e^(1/2)/(1 + e^(1/2))) = 0.62389... (Dong-Roth-Su 2022, Def. 2.6)."""
    text = (
        HEAD
        + "mechanisms:\n  H: {rr: {eps: 0.5}}\nclaims:\n  - gdp: {of: H, mu: 0.6239}\n  - not_gdp: {of: H, mu: 0.6238}\n"
    )
    vs = verify_case(parse_case(text, "t.yaml"))
    assert [v.holds for v in vs] == [True, True], [(shown(v).found, shown(v).note) for v in vs]
    assert shown(vs[0]).values["vertex"] == ["1/(exp(1/2) + 1)"] * 2
