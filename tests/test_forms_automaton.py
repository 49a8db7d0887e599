"""The ``automaton:`` case form: every documented spelling, and located errors with hints."""

from __future__ import annotations

import textwrap

import pytest

from exactdp.analysis import profile
from exactdp.builders import repeat, rr
from exactdp.builders.automaton import AutomatonMechanism
from exactdp.caseio import parse_case
from exactdp.claims import Analysis
from exactdp.errors import CaseError
from exactdp.numbers import Q

from .bruteforce_cm import unroll_automaton


def case(body: str):
    return parse_case(textwrap.dedent(body), "t.yaml")


def problems(body: str) -> list[str]:
    with pytest.raises(CaseError) as e:
        case(body)
    return [p.render() for p in e.value.problems]


HEAD = """
exactdp: 1
name: a
mechanisms:
  M:
    automaton:
"""


def auto(body: str, claims: str = "  - privloss: {delta: 0, at_most: inf}") -> str:
    return HEAD + textwrap.indent(textwrap.dedent(body), " " * 6) + "claims:\n" + claims + "\n"


def test_rr_twice_with_per_dataset_rows_and_default_next():
    c = case(
        auto(
            """
            states: [s]
            initial: s
            horizon: 2
            transitions:
              s:
                q:
                  "0": {p: [3/4, 1/4]}          # no `next`: stay
                  "1": {p: {x1: 3/4, x0: 1/4}}  # map form
            """
        )
    )
    m = c.mechanisms["M"]
    assert isinstance(m, AutomatonMechanism) and m.automaton.n_rows == 2
    assert profile.profile(m).equals_on_eps_ge_0(profile.profile(repeat(rr(exp_eps=3), 2)))


def test_per_dataset_initial_distributions_final_and_split_outcomes():
    c = case(
        auto(
            """
            states: [a, b, done]
            initial: {x0: a, x1: {a: 1/2, b: 1/2}}
            queries: [q]
            final: [done]
            horizon: 3
            transitions:
              a:
                q:
                  y: [{p: 1/4, next: b}, {p: 1/4, next: done}]
                  n: {p: 1/2}
              b:
                q: {y: {p: 1/3, next: done}, n: {p: 2/3, next: a}}
            """
        )
    )
    m = c.mechanisms["M"]
    assert m.automaton.n_rows == 2
    u = unroll_automaton(m.automaton)
    assert [pp.hull for pp in profile.profile(m).pairs] == [pp.hull for pp in profile.profile(u).pairs]


def test_shared_initial_distribution_and_claims():
    c = case(
        auto(
            """
            states: [h, t]
            initial: {h: 1/2, t: 1/2}
            horizon: 1
            transitions:
              h: {q: {"0": {p: [3/4, 1/4]}, "1": {p: [1/4, 3/4]}}}
              t: {q: {"0": {p: [1/4, 3/4]}, "1": {p: [3/4, 1/4]}}}
            """,
            "  - privloss: {delta: 0, equals: 0}",
        )
    )
    an = Analysis(c.mechanisms)
    assert [cl.check(an).status for cl in c.claims] == ["holds"]  # a hidden fair coin hides the data


@pytest.mark.parametrize(
    "body, phrases",
    [
        pytest.param(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions: {s: {q: {"0": {p: [3/4, 1/4]}, "1": {p: [1/4, 1/2]}}}}
            """,
            ["transitions.s.q", "under x1 sum to 3/4, not 1"],
            id="sum",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions: {s: {q: {"0": {p: 1, next: u}}}}
            """,
            ["transitions.s.q.0.next", "unknown state 'u'"],
            id="unknown-next",
        ),
        pytest.param(
            """
            states: [s, t]
            initial: z
            horizon: 1
            transitions: {s: {q: {"0": {p: 1}}}}
            """,
            ["initial", "unknown state 'z'"],
            id="unknown-initial",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions: {s: {q: {halt: {p: 1}}}}
            """,
            ["'halt' is reserved", "rename the answer"],
            id="halt-reserved",
        ),
        pytest.param(
            """
            states: [s, t]
            initial: s
            queries: [q, r]
            horizon: 1
            transitions: {s: {q: {"0": {p: 1}}, r: {"0": {p: 1}}}, t: {q: {"0": {p: 1}}}}
            """,
            ["transitions.t", "has no transition for query 'r'", "final"],
            id="global-alphabet",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            queries: [q]
            horizon: 1
            transitions: {s: {qq: {"0": {p: 1}}}}
            """,
            ["transitions.s.qq", "is not in `queries:`", "did you mean 'q'"],
            id="query-not-in-alphabet",
        ),
        pytest.param(
            """
            states: [s, done]
            initial: s
            final: [done]
            horizon: 1
            transitions: {s: {q: {"0": {p: 1, next: done}}}, done: {q: {"0": {p: 1}}}}
            """,
            ["transitions.done", "listed as final"],
            id="final-with-transitions",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            transitions: {s: {q: {"0": {p: 1}}}}
            """,
            ["automaton needs `horizon:`"],
            id="missing-horizon",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions: {s: {q: {"0": {p: 1/2}, "1": {p: 0.5, nxt: s}}}}
            """,
            ["unknown key 'nxt'", "did you mean 'next'"],
            id="typo-key",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions: {s: {q: {"0": [3/4, 1/4], "1": [1/4, 3/4]}}}
            """,
            ["an answer is a mapping {p: ..., next: ...}"],
            id="tree-shorthand-is-not-an-outcome",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions: {s: {q: {"0": {p: log(2)}, "1": {p: 0}}}}
            """,
            ["a probability must be an exact rational"],
            id="log-as-probability",
        ),
        pytest.param(
            """
            states: [s]
            initial: s
            stats: [s]
            horizon: 1
            transitions: {s: {q: {"0": {p: 1}}}}
            """,
            ["unknown key 'stats' in automaton", "did you mean 'states'"],
            id="typo-top-key",
        ),
    ],
)
def test_located_errors(body, phrases):
    probs = problems(auto(body))
    text = "\n".join(probs)
    for ph in phrases:
        assert ph in text, text
    assert all(p.startswith("t.yaml:") for p in probs)


def test_error_has_line_and_column():
    probs = problems(
        auto(
            """
            states: [s]
            initial: s
            horizon: 1
            transitions:
              s:
                q:
                  "0": {p: 1/2}
            """
        )
    )
    assert probs[0].startswith("t.yaml:14:13: mechanisms.M.automaton.transitions.s.q:"), probs  # the distribution


def test_horizon_is_bounded():
    probs = problems(auto("states: [s]\ninitial: s\nhorizon: 10000000\ntransitions: {s: {q: {'0': {p: 1}}}}\n"))
    assert "horizon must be between 0 and 100000" in probs[0]


def test_probability_given_once_is_shared():
    c = case(auto("states: [s]\ninitial: s\nhorizon: 1\ntransitions: {s: {q: {'0': {p: 1/3}, '1': {p: 2/3}}}}\n"))
    a = c.mechanisms["M"].automaton
    assert a.dataset_independent and a.transitions[(0, "q")][0].probs == (Q(1, 3),)


def test_automaton_equals_the_tree_written_by_hand():
    """A two-state automaton unrolled by hand into a `tree:` (horizon 2): profile_eq holds."""
    c = case(
        """
        exactdp: 1
        name: hand
        mechanisms:
          A:
            automaton:
              states: [a, b]
              initial: a
              horizon: 2
              transitions:
                a: {q: {"0": {p: [3/4, 1/4]}, "1": {p: [1/4, 3/4], next: b}}}
                b: {q: {"0": {p: 1/2}, "1": {p: 1/2}}}
          T:
            tree:
              ask:
                q:
                  "0": {p: [3/4, 1/4], then: {ask: {q: {"0": [3/4, 1/4], "1": [1/4, 3/4]}}}}
                  "1": {p: [1/4, 3/4], then: {ask: {q: {"0": [1/2, 1/2], "1": [1/2, 1/2]}}}}
        claims:
          - profile_eq: {of: A, as: T}
          - privloss: {of: A, delta: 0, equals: log(9)}
        """
    )
    an = Analysis(c.mechanisms)
    assert [cl.check(an).status for cl in c.claims] == ["holds", "holds"]
