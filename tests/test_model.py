"""The game model: validation, traversal, grafting, sharing, joint-state concurrent composition."""

from __future__ import annotations

import pytest

from exactdp.builders import ask, choose, compose, concomp, mechanism, repeat, respond, rr
from exactdp.errors import InvalidGameError, InvalidMechanismError
from exactdp.model import END, Ask, Chance, count_strategies, postorder, share, stats, to_networkx
from exactdp.numbers import Q


def test_chance_validates_distributions():
    with pytest.raises(InvalidGameError, match="sum to 5/4, not 1"):
        Chance(["a", "b"], [(Q(1, 2), Q(1, 2)), (Q(3, 4), Q(1, 2))], [END, END])
    with pytest.raises(InvalidGameError, match="negative probability"):
        Chance(["a", "b"], [(Q(-1, 2), Q(1, 2)), (Q(3, 2), Q(1, 2))], [END, END])
    with pytest.raises(InvalidGameError, match="appears twice"):
        Chance(["a", "a"], [(Q(1, 2),), (Q(1, 2),)], [END, END])
    with pytest.raises(InvalidGameError, match="appears twice"):
        Ask(["q", "q"], [END, END])
    with pytest.raises(TypeError, match="exact rational"):
        Chance(["a"], [(0.5,)], [END])


def test_postorder_children_first_and_once():
    leaf = respond({"0": [1, 1]})
    root = ask({"q0": leaf, "q1": leaf})
    order = postorder(root)
    assert order[-1] is root and order.count(leaf) == 1
    assert order.index(leaf) < order.index(root)


def test_graft_shares_the_continuation():
    a = rr(exp_eps=2)
    m = compose([a, a, a])
    s = stats(m.root)
    assert s["chance_nodes"] == 3 and s["answer_edges"] == 6


def test_share_merges_identical_subgames():
    t = ask(
        {"q0": {"0": ([Q(1, 2), Q(1, 2)], respond({"a": [1, 1]})), "1": ([Q(1, 2), Q(1, 2)], respond({"a": [1, 1]}))}}
    )
    before = stats(t)["chance_nodes"]
    after = stats(share(t))["chance_nodes"]
    assert before == 3 and after == 2


def test_concomp_shares_joint_states():
    """ConComp of k noninteractive RRs has one node per subset of answered components,
    not one per interleaving (k! orders)."""
    k = 6
    m = concomp([rr(exp_eps=e) for e in range(2, 2 + k)])  # different components
    s = stats(m.root)
    assert s["ask_nodes"] == 2**k - 1  # each nonempty set of pending components
    assert s["chance_nodes"] == k * 2 ** (k - 1)
    same = stats(concomp([rr(exp_eps=2)] * k).root)  # copies of one RR: how many are pending
    assert (same["ask_nodes"], same["chance_nodes"]) == (k, k)


def test_concomp_labels_are_qualified():
    m = concomp({"A": rr(exp_eps=2), "B": mechanism(ask({"q": {"0": [Q(1, 2), Q(1, 2)], "1": [Q(1, 2), Q(1, 2)]}}))})
    assert set(m.root.labels) == {("A",), ("B", "q")}


def test_count_strategies():
    assert (
        count_strategies(repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 2).root) == 2 * 2**2
    )  # first choice, then a choice after each of 2 answers
    assert count_strategies(rr(exp_eps=2).root) == 1


def test_count_strategies_saturates_on_deep_games():
    """Doubly exponential in the depth: repeat(choose) of depth 60 has more than 2^(2^59)
    adversaries; the count saturates at cap + 1 instead of building that integer."""
    m = repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 60)
    assert count_strategies(m.root) == 10**100 + 1 and str(count_strategies(m.root)) == "more than 10^100"
    assert count_strategies(m.root, cap=1000) == 1001 and f"{count_strategies(m.root, cap=1000)}" == "more than 1000"
    assert count_strategies(repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 3).root, cap=None) == 2 * 2**2 * 2**4


def test_networkx_export():
    g = to_networkx(compose([rr(exp_eps=2), rr(exp_eps=3)]))
    assert g.number_of_edges() == 4
    assert all("p" in d for _, _, d in g.edges(data=True))


def test_mechanism_checks_datasets():
    with pytest.raises(InvalidMechanismError):
        mechanism(END, datasets=("x", "x"))
    with pytest.raises(InvalidMechanismError, match="different datasets"):
        compose([rr(exp_eps=2), rr(exp_eps=2, datasets=("a", "b"))])
