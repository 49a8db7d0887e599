"""The continual-mechanism case forms: continual, verifiers, the compositions, and their errors."""

from __future__ import annotations

import textwrap

import pytest

from exactdp.analysis import profile
from exactdp.builders.continual import ContinualMechanism
from exactdp.caseio import parse_case
from exactdp.errors import CaseError
from exactdp.numbers import Q
from exactdp.report.verdicts import shown


def case(body: str):
    return parse_case(textwrap.dedent(body), "t.yaml")


def problems(body: str) -> list[str]:
    with pytest.raises(CaseError) as e:
        case(body)
    return [p.render() for p in e.value.problems]


MD = """
exactdp: 1
name: c
mechanisms:
  Md:
    automaton:
      states: [s0, s1]
      initial: s0
      horizon: 2
      transitions:
        s0:
          "0": &flip {"0": {p: 3/4, next: s0}, "1": {p: 1/4, next: s1}}
          "1": *flip
        s1:
          "0": {"0": {p: 1}}
          "1": {"1": {p: 1}}
"""
CLAIM = "claims:\n  - privloss: {of: Md, delta: 0, equals: 0}\n"


def with_md(extra: str) -> str:
    return MD + textwrap.indent(textwrap.dedent(extra).strip("\n") + "\n", "  ") + CLAIM


def test_continual_bounded_and_automaton_verifiers_agree():
    c = case(
        with_md(
            """
            C1: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            C2:
              continual:
                mechanism: Md
                verifier:
                  states: [none, one, two, diff1, done]
                  initial: none
                  transitions:
                    none: {same: one, differ: diff1}
                    one: {same: done, differ: done}
                    diff1: {same: done}
                    done: ~
            """
        )
    )
    a, b = c.mechanisms["C1"], c.mechanisms["C2"]
    assert isinstance(a, ContinualMechanism)
    assert [pp.hull for pp in profile.profile(a).pairs] == [pp.hull for pp in profile.profile(b).pairs]
    assert profile.delta_at(a, Q(0)) == Q(1, 4)


def test_explicit_pairs_override_wildcards():
    c = case(
        with_md(
            """
            C:
              continual:
                mechanism: Md
                verifier:
                  states: [v, w]
                  initial: v
                  transitions: {v: {any: w, "1,0": v, "1,1": v}, w: {same: w}}
            """
        )
    )
    root = c.mechanisms["C"].root
    assert root.labels == ("(0,0)", "(0,1)", "(1,0)", "(1,1)")


def test_inline_continual_and_compositions():
    c = case(
        with_md(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            P: {sparse_parallel: {menu: {Md: {mechanism: C, eps: 0, delta: 1/4}}, params: [[0, 1/4]], cap: 2}}
            F: {fpc_parallel: {menu: [{mechanism: C, eps: 0, delta: 1/4}], params: [[0, 1/4]], cap: 2}}
            X: {fixed_params: {menu: {Md: {mechanism: C, eps: 0, delta: 1/4}}, params: [[0, 1/4]]}}
            B: {budgeted_parallel: {menu: {Md: {mechanism: C, eps: log(2), delta: 1/4}}, params: [log(2)], budget: 7/16, cap: 3}}
            K: {concurrent: {one: C, two: C}}
            G: {filter: {menu: {Md: {mechanism: C, eps: 0, delta: 1/4}}, eps: 0, delta: 1/2, cap: 3}}
            D:
              continual:
                mechanism:
                  automaton:
                    states: [s]
                    initial: s
                    horizon: 1
                    transitions: {s: {"0": {"0": {p: 2/3}, "1": {p: 1/3}}, "1": {"0": {p: 1/3}, "1": {p: 2/3}}}}
                verifier: {}
            """
        )
    )
    d = {k: profile.delta_at(c.mechanisms[k], Q(0)) for k in "PFXBKDG"}
    assert d == {"P": Q(7, 16), "F": 0, "X": Q(1, 4), "B": Q(7, 16), "K": Q(7, 16), "D": Q(1, 3), "G": Q(7, 16)}


@pytest.mark.parametrize(
    "extra, phrases",
    [
        pytest.param(
            "C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_len: 2}}}",
            ["mechanisms.C.continual.verifier.max_len", "unknown key 'max_len'", "did you mean 'max_length'"],
            id="verifier-typo",
        ),
        pytest.param(
            "C: {continual: {mechanism: {rr: {eps: log(3)}}, verifier: {}}}",
            ["must be an automaton"],
            id="not-an-automaton",
        ),
        pytest.param(
            """
            C:
              continual:
                mechanism: {automaton: {states: [s], initial: s, horizon: 1, transitions: {s: {"0": {"0": {p: [1, 0]}, "1": {p: [0, 1]}}}}}}
                verifier: {}
            """,
            ["mechanism.automaton.transitions.s.0.0.p", "does not depend on the dataset", "Def. 3.1"],
            id="per-dataset-rows-in-a-cm",
        ),
        pytest.param(
            """
            C:
              continual:
                mechanism: {automaton: {states: [a, b], initial: {x0: a, x1: b}, horizon: 1, transitions: {a: {"0": {"0": {p: 1}}}}}}
                verifier: {}
            """,
            ["single initial state (Def. 3.1), not one per dataset"],
            id="per-dataset-initial-in-a-cm",
        ),
        pytest.param(
            "C: {continual: {mechanism: Md, verifier: {states: [v], initial: v, transitions: {v: {'0,2': v}}}}}",
            ["transitions.v.'0,2'", "message '2' is not a query of the mechanism"],
            id="verifier-unknown-message",
        ),
        pytest.param(
            "C: {continual: {mechanism: Md, verifier: {states: [v], initial: v, transitions: {v: {'0-1': v}}}}}",
            ["is not a pair of messages", "`m0,m1`"],
            id="verifier-bad-pair",
        ),
        pytest.param(
            "C: {continual: {mechanism: Md, verifier: {states: [v], initial: w, transitions: {v: {same: v}}}}}",
            ["verifier.initial", "unknown state 'w'"],
            id="verifier-unknown-initial",
        ),
        pytest.param(
            """
            P: {sparse_parallel: {menu: {Md: {mechanism: Md, eps: 0, delta: 1/4}}, params: [[0, 1/4]], cap: 2}}
            """,
            ["must be a continual mechanism"],
            id="menu-item-not-continual",
        ),
        pytest.param(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            P: {sparse_parallel: {menu: {Md: {mechanism: C, eps: 0, delta: 1/4}}, params: [0], cap: 2}}
            """,
            ["params[0]", "each parameter is a pair [eps, delta]"],
            id="params-shape",
        ),
        pytest.param(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            P: {sparse_parallel: {menu: {Md: {mechanism: C, eps: 0, delta: 1/4}}, params: [[0, 1/4]]}}
            """,
            ["sparse_parallel needs `cap:`"],
            id="cap-required",
        ),
        pytest.param(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            P: {budgeted_parallel: {menu: {Md: {mechanism: C, eps: log(2), delta: 1/4}}, params: [[log(2), 0]], budget: 1/2, cap: 2}}
            """,
            ["params[0]", "each entry of params (a list of eps values) is eps"],
            id="eps-params-shape",
        ),
        pytest.param(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            P: {mixed_budgeted: {menu: {Md: {mechanism: C, eps: log(2), delta: 1/4}}, params: [log(2)], budget: 1/2, cap: 2}}
            """,
            ["Def. 5.10 allows only items with eps = 0 or delta = 0", "split it"],
            id="def510-item",
        ),
        pytest.param(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            P: {concurrent: [C, Md]}
            """,
            ["concurrent[1]", "must be a continual mechanism"],
            id="concurrent-component",
        ),
    ],
)
def test_located_errors(extra, phrases):
    text = "\n".join(problems(with_md(extra)))
    for ph in phrases:
        assert ph in text, text


def test_three_datasets_are_refused():
    body = with_md("C: {continual: {mechanism: Md, verifier: {}}}").replace(
        "name: c\n", "name: c\ndatasets: [x0, x1, x2]\n"
    )
    text = "\n".join(problems(body))
    assert "two worlds" in text and "exactly two datasets" in text


def test_menu_claims_are_checked_against_the_fpc_restriction():
    """Under Def. 5.14 an item runs with its verifier restricted to first-pair-consistent
    sequences, so M_(1/4) under V1 may claim (0, 0) there (it cannot under Def. 5.1)."""
    from exactdp.verify import verify_case

    c = case(
        with_md(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            F: {fpc_parallel: {menu: {Md: {mechanism: C, eps: 0, delta: 0}}, params: [[0, 0]], cap: 2}}
            """
        )
    )
    assert profile.delta_at(c.mechanisms["F"], Q(0)) == 0
    assert all(v.holds for v in verify_case(c))
    c = case(
        with_md(
            """
            C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
            F: {sparse_parallel: {menu: {Md: {mechanism: C, eps: 0, delta: 0}}, params: [[0, 0]], cap: 2}}
            """
        )
    )
    premise, *rest = verify_case(c)
    assert premise.status == "fails" and "(0, 0)-DP" in premise.claim.describe()
    assert all(v.status == "error" and "premise" in shown(v).note for v in rest)


def test_a_false_menu_claim_is_a_failing_premise_and_nothing_is_checked_on_it():
    """Def. 4.4 (iv): a created mechanism must have the parameters it claims.  The claim is
    checked as a premise under the chosen engine; claims built on it are not checked."""
    from exactdp.verify import Options, verify_case, verify_text

    body = with_md(
        """
        C: {continual: {mechanism: Md, verifier: {max_differing: 1, max_length: 2}}}
        P: {sparse_parallel: {menu: {Md: {mechanism: C, eps: 0, delta: 1/5}}, params: [[0, 1/5]], cap: 2}}
        """
    )
    for engine in ("profile", "enumerator"):
        premise, *rest = verify_case(case(body), Options(engine=engine))
        assert premise.status == "fails" and shown(premise).found == "delta_P.Md(e^eps) = 1/4"
        assert (
            "menu item 'Md' of P is (0, 1/5)-DP" in premise.claim.describe()
            and "Def. 4.4 (iv)" in premise.claim.describe()
        )
        assert premise.claim.where.path == "mechanisms.P.sparse_parallel.menu.Md"
        assert rest and all(v.status == "error" for v in rest)
    assert verify_text(textwrap.dedent(body), "t.yaml").exit_code == 2
