"""Concurrent composition with copies merged: the same privacy as the construction that names
every copy (``merge_copies=False``, the reference), on random games, exactly."""

from __future__ import annotations

from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator
from exactdp.analysis import profile as P
from exactdp.analysis.reference import reference_profile, reference_renyi_sums
from exactdp.analysis.renyi import renyi_sums
from exactdp.analysis.witness import recheck
from exactdp.builders import concomp, rr
from exactdp.errors import LimitExceededError
from exactdp.model import END, Ask, Chance, Mechanism, count_strategies, share, stats
from exactdp.numbers import Q

from .strategies import adjacency, game_nodes


@st.composite
def copies(draw):
    """Components some of which are copies of one game (the same object, or an equal one
    built separately), on 2 or 3 datasets."""
    n = draw(st.integers(2, 3))
    datasets = tuple(f"x{i}" for i in range(n))
    adj = draw(adjacency(n))
    a = draw(game_nodes(2, n))
    b = draw(game_nodes(2, n))
    shape = draw(st.sampled_from(["aa", "aaa", "aab", "aba", "a=a"]))
    roots = {"aa": [a, a], "aaa": [a, a, a], "aab": [a, a, b], "aba": [a, b, a], "a=a": [a, share(a)]}[shape]
    return [Mechanism(r, datasets, adj, "C") for r in roots]


@settings(max_examples=120, deadline=None)
@given(copies())
def test_merged_copies_keep_the_profile(comps):
    merged, named = concomp(comps), concomp(comps, merge_copies=False)
    assert P.profile(merged).envelope == reference_profile(named).envelope
    assert [p.hull for p in P.profile(merged).pairs] == [p.hull for p in reference_profile(named).pairs]


@settings(max_examples=80, deadline=None)
@given(copies(), st.integers(2, 3))
def test_merged_copies_keep_renyi(comps, alpha):
    merged, named = concomp(comps), concomp(comps, merge_copies=False)
    assert renyi_sums(merged, alpha) == reference_renyi_sums(named, alpha)
    assert renyi_sums(merged, 1) == reference_renyi_sums(named, 1)  # KL


@settings(max_examples=60, deadline=None)
@given(copies())
def test_merged_copies_agree_with_the_enumerator(comps):
    """The brute force over every deterministic adversary of the merged game (Lemma 2.2)."""
    merged = concomp(comps)
    assume(count_strategies(merged.root) <= 20_000)
    try:
        brute = enumerator.profile(merged, max_strategies=20_000)
    except LimitExceededError:  # few adversaries, but too many views each: too big for brute force
        reject()
    assert brute.envelope == P.profile(merged).envelope


def test_copies_are_merged_into_a_multiset():
    """k copies of RR give k + 1 waiting states (not 2^k), with the same PrivLoss:
    k log 3 at delta = 0 (Vadhan-Wang Def. 2.1 and Thm 3.3)."""
    R = rr(eps="log(3)")
    for k in (2, 5, 12):
        m = concomp([R] * k)
        assert stats(m.root)["ask_nodes"] == k
        assert str(P.privloss(m, 0)) == f"log({3**k})"
    assert stats(concomp([R] * 5, merge_copies=False).root)["ask_nodes"] == 2**5 - 1


def test_hundred_copies_of_randomized_response():
    """100 copies: impossible before (2^100 joint states).  PrivLoss(M, 0) = 100 log 3, and
    delta at 50 log 3 from the binomial form of the k-fold RR profile (Kairouz-Oh-Viswanath
    2015, Thm 3.3): sum over i of C(100, i) (3^(100-i) - 3^50 3^i) / 4^100 over the i with
    100 - 2i > 50."""
    from math import comb

    m = concomp([rr(eps="log(3)")] * 100)
    assert str(P.privloss(m, 0)) == f"log({3**100})"
    expected = sum(comb(100, i) * (Q(3) ** (100 - i) - Q(3) ** 50 * Q(3) ** i) for i in range(100) if 100 - 2 * i > 50)
    assert P.delta_at(m, "50*log(3)") == expected / Q(4) ** 100


def test_labels_name_the_copy_by_its_own_history():
    q = Ask(["q0", "q1"], [rr(exp_eps=3).root, rr(exp_eps=2).root])
    m = Mechanism(q)
    c = concomp({"R": m, "R#2": m})
    assert c.root.labels == (("R", "q0"), ("R", "q1"))
    after = c.root.children[0].children[0]  # R asked q0, answered "0"
    assert ("R[q0→0]",) not in after.labels  # that copy has ended
    assert set(after.labels) == {("R", "q0"), ("R", "q1")}


def test_labels_mark_states_with_several_histories():
    shared = Ask(["q"], [rr(exp_eps=3).root])
    first = Chance(["a", "b"], [(Q(1, 2), Q(1, 2)), (Q(1, 2), Q(1, 2))], [shared, shared])
    m = Mechanism(first)
    c = concomp({"A": m, "B": m})
    polled = c.root.children[0]
    labels = {lab for node in polled.children for lab in node.labels}
    assert ("A|B[a | …]", "q") in labels


def test_distinct_components_keep_their_names():
    a, b = rr(exp_eps=3), rr(exp_eps=2)
    merged, named = concomp({"A": a, "B": b}), concomp({"A": a, "B": b}, merge_copies=False)
    assert merged.root.labels == named.root.labels == (("A",), ("B",))


def test_witness_on_merged_copies_is_rechecked():
    m = concomp([rr(eps="log(3)")] * 4)
    w = P.witness(m, "log(9)")
    p, pp, _ = recheck(m, w.pair, w.lam, w.policy)
    assert (p, pp) == (w.p, w.p_prime)


def test_end_components_are_skipped():
    m = Mechanism(END)
    c = concomp([m, m, rr(exp_eps=3)])
    assert c.root.labels == (("2",),)


def _game(m):
    from exactdp.model.game import postorder

    order = postorder(m.root)
    index = {node.uid: k for k, node in enumerate(order)}
    out = []
    for node in order:
        if node is END:
            out.append(("end",))
        elif isinstance(node, Chance):
            out.append(("chance", node.labels, node.probs, tuple(index[c.uid] for c in node.children)))
        else:
            out.append(("ask", node.labels, tuple(index[c.uid] for c in node.children)))
    return out


@settings(max_examples=60, deadline=None)
@given(copies())
def test_games_built_in_flat_storage_are_the_node_built_games(comps):
    """build_dag stores combinators' games in flat arrays; the same construction with node
    objects gives the same game, node for node."""
    import exactdp.model.dag as dag

    flat = concomp(comps)
    real = dag._build_flat
    dag._build_flat = lambda order, expansions: None
    try:
        nodes = concomp(comps)
    finally:
        dag._build_flat = real
    assert _game(flat) == _game(nodes)
