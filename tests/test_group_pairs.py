"""Per-claim pairs: `group: k` (group privacy) and `pairs:` replace the case's adjacency for one
claim, exactly as a second file with that adjacency would (Dwork & Roth 2014, Thm 2.2)."""

from __future__ import annotations

import itertools
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.caseio import parse_case
from exactdp.errors import CaseError
from exactdp.model.adjacency import group_pairs
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_case, verify_text


def _bfs_pairs(n: int, adjacent, k: int) -> set:
    """Pairs at distance 1..k by breadth-first search, written independently of networkx."""
    nbr = {i: set() for i in range(n)}
    for a, b in adjacent:
        nbr[a].add(b)
        nbr[b].add(a)
    out = set()
    for s in range(n):
        dist, frontier = {s: 0}, [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in nbr[u]:
                    if v not in dist:
                        dist[v] = dist[u] + 1
                        nxt.append(v)
            frontier = nxt
        out |= {(min(s, t), max(s, t)) for t, d in dist.items() if 1 <= d <= k}
    return out


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 7), data=st.data(), k=st.integers(1, 6))
def test_group_pairs_are_the_pairs_at_distance_at_most_k(n, data, k):
    all_pairs = list(itertools.combinations(range(n), 2))
    adjacent = data.draw(st.lists(st.sampled_from(all_pairs), min_size=1, unique=True))
    assert set(group_pairs(n, adjacent, k)) == _bfs_pairs(n, adjacent, k)


def _probs(draw, n):
    w = [draw(st.integers(1, 6)) for _ in range(n)]
    return w


@st.composite
def three_dataset_cases(draw):
    """A random one-query mechanism on x0, x1, x2 and a random adjacency."""
    rows = []
    for _ in range(3):
        w = [draw(st.integers(0, 5)) for _ in range(3)]
        if not any(w):
            w[0] = 1
        rows.append(w)
    cols = [[f"{rows[d][a]}/{sum(rows[d])}" for d in range(3)] for a in range(3)]
    answers = ", ".join(f"a{a}: [{', '.join(cols[a])}]" for a in range(3))
    adjacent = draw(st.sampled_from(["[[x0, x1], [x1, x2]]", "[[x0, x1]]", "[[x1, x2], [x0, x2]]"]))
    return answers, adjacent


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=three_dataset_cases(), engine=st.sampled_from(["profile", "enumerator"]))
def test_a_claim_with_pairs_equals_a_second_file_with_that_adjacency(case, engine):
    answers, adjacent = case
    head = f"exactdp: 1\nname: g\ndatasets: [x0, x1, x2]\nmechanisms:\n  M: {{respond: {{{answers}}}}}\n"
    one = parse_case(
        head
        + f"adjacent: {adjacent}\nclaims:\n  - privloss: {{group: 2, equals: 0}}\n  - privloss: {{pairs: [[x2, x0]], equals: 0}}\n",
        "a.yaml",
    )
    n = one.claims[0]
    groups = verify_case(one, Options(engine=engine))
    two = parse_case(
        head
        + f"adjacent: {[[f'x{a}', f'x{b}'] for a, b in n.adjacency]}\nclaims:\n  - privloss: {{equals: 0}}\n".replace(
            "'", ""
        ),
        "b.yaml",
    )
    three = parse_case(head + "adjacent: [[x2, x0]]\nclaims:\n  - privloss: {equals: 0}\n", "c.yaml")
    assert shown(groups[0]).values["privloss"] == shown(verify_case(two, Options(engine=engine))[0]).values["privloss"]
    assert (
        shown(groups[1]).values["privloss"] == shown(verify_case(three, Options(engine=engine))[0]).values["privloss"]
    )


BASE = """
exactdp: 1
name: g
datasets: [x0, x1, x2]
adjacent: [[x0, x1], [x1, x2]]
mechanisms:
  M: {truncated_geometric: {alpha: 1/2, n: 2, counts: {x0: 0, x1: 1, x2: 2}}}
  N: {truncated_geometric: {alpha: 1/2, n: 2, counts: {x0: 0, x1: 1, x2: 2}}}
"""


@pytest.mark.parametrize(
    "claim, phrase",
    [
        ("{privloss: {pairs: [[x0, x9]], equals: 0}}", "claims[0].privloss.pairs[0][1]: unknown dataset 'x9'"),
        ("{privloss: {pairs: [[x0, x0]], equals: 0}}", "is not paired with itself"),
        ("{privloss: {group: 2, pairs: [[x0, x2]], equals: 0}}", "give `group:` or `pairs:`, not both"),
        ("{privloss: {group: 0, equals: 0}}", "group must be between 1 and 1000, found 0"),
        ("{composition: {components: [M, N], group: 2}}", "unknown key 'group' in `composition`"),
        ("{privloss: {pairs: [x0, x2], equals: 0}}", "each entry of pairs is a pair [dataset, dataset]"),
    ],
)
def test_located_errors(claim, phrase):
    with pytest.raises(CaseError) as e:
        parse_case(textwrap.dedent(BASE) + f"claims:\n  - {claim}\n", "g.yaml")
    assert phrase in str(e.value)


def test_profile_comparisons_use_the_claims_pairs_for_both_mechanisms():
    text = (
        textwrap.dedent(BASE)
        + "claims:\n  - profile_eq: {as: N, group: 2}\n  - profile_le: {than: N, pairs: [[x0, x2]]}\n"
    )
    res = verify_text(text, "g.yaml")
    assert res.exit_code == 0 and all("pairs" in v.claim.describe() for v in res.verdicts)


def test_fdp_reference_curve_is_over_the_reference_mechanisms_own_pairs():
    """f = T(R) is a fixed function (Dong-Roth-Su 2022, Def. 2.3): R's trade-off function over R's
    own adjacency, whatever pairs the claim checks M on.  R answers x0 and x2 alike and x1 like
    RR_(log 3), so over its own pairs T(R) = T(RR_(log 3)) (vertex (1/4, 1/4), DRS Prop. 2.5);
    M on the pair (x0, x2) is RR_(log 3), whose trade-off function is the same: the claim holds.
    Recomputing T(R) on (x0, x2), where R is uninformative, gave f(alpha) = 1 - alpha, perfect
    privacy, and the true claim failed."""
    text = """\
exactdp: 1
name: fdp-pairs
datasets: [x0, x1, x2]
mechanisms:
  M: {respond: {a: [3/4, 1/2, 1/4], b: [1/4, 1/2, 3/4]}}
  R: {respond: {a: [3/4, 1/4, 3/4], b: [1/4, 3/4, 1/4]}}
claims:
  - fdp: {of: M, f: R, pairs: [[x0, x2]]}
  - not_fdp: {of: M, f: R, group: 2}
"""
    fr = verify_text(text, "fdp-pairs.yaml")
    assert fr.exit_code == 1, [(v.status, shown(v).found) for v in fr.verdicts]
    first, second = fr.verdicts
    assert first.holds, shown(first).found
    assert first.value == 0  # the margin: T(M) on (x0, x2) equals T(R) exactly
    # over pairs at distance <= 2 (all of them) M's envelope is RR_(log 3) too: not_fdp fails
    assert not second.holds
