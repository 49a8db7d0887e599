"""Composition combinators (issue 4): Def. 2.3, Def. 2.4, sequential interleaving, postprocess.

Checked against independent computations: the engine on ``compose``/``concomp``, and for
``postprocess`` a brute force over every deterministic adversary that sees only relabelled
answers, with view probabilities summed over the original histories (no beliefs, no sharing).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator
from exactdp.analysis import profile as engine
from exactdp.analysis.hull import from_views, upper
from exactdp.builders import ask, compose, concomp, mechanism, respond, rr
from exactdp.builders.composition import BOTTOM, NULL, concomp_ordered, concomp_sequential, null_extension, postprocess
from exactdp.errors import InvalidMechanismError
from exactdp.model import END, Ask, Chance, End, Mechanism
from exactdp.numbers import Q

from .strategies import game_nodes, mechanisms

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def small_pair(draw):
    a = Mechanism(draw(game_nodes(2, 2)), ("x0", "x1"), ((0, 1),), "A")
    b = Mechanism(draw(game_nodes(2, 2)), ("x0", "x1"), ((0, 1),), "B")
    return a, b


def _fig1():
    rr3 = {"0": [Q(3, 4), Q(1, 4)], "1": [Q(1, 4), Q(3, 4)]}
    coin = {"0": [Q(1, 2), Q(1, 2)], "1": [Q(1, 2), Q(1, 2)]}
    r2a = ask({"0": rr3, "1": coin})
    r2b = ask({"0": coin, "1": rr3})
    return mechanism(respond({"h": ([Q(1, 2), Q(1, 2)], r2a), "t": ([Q(1, 2), Q(1, 2)], r2b)}))


def brute_profile_postprocessed(mech, mapping):
    """The profile of ``postprocess(mech, mapping)`` by brute force (see the module docstring)."""
    n = len(mech.datasets)

    def strategies(frontier, hist):
        # frontier: list of (original node, raw path-probability vector) sharing one visible history;
        # histories of probability 0 under every dataset are never observed: drop them
        frontier = [(node, v) for node, v in frontier if any(v)]
        if not frontier:
            return [[]]
        kinds = {type(node) for node, _ in frontier}
        assert len(kinds) == 1
        first = frontier[0][0]
        if isinstance(first, End):
            total = tuple(sum(v[d] for _, v in frontier) for d in range(n))
            return [[(hist, total)]]
        if isinstance(first, Ask):
            out = []
            for i, lab in enumerate(first.labels):
                out.extend(strategies([(node.children[i], v) for node, v in frontier], hist + (("q", lab),)))
            return out
        groups: dict = {}
        for node, v in frontier:
            for lab, row, child in zip(node.labels, node.probs, node.children):
                b = mapping.get(lab, lab)
                groups.setdefault(b, []).append((child, tuple(v[d] * row[d] for d in range(n))))
        per = [strategies(fr, hist + (("a", b),)) for b, fr in groups.items()]
        out = [[]]
        for options in per:
            out = [acc + o for acc in out for o in options]
        return out

    all_views = strategies([(mech.root, (Q(1),) * n)], ())
    hulls = {}
    for i, j in mech.ordered_pairs:
        hulls[(i, j)] = upper([from_views((v[i], v[j]) for _, v in views) for views in all_views])
    return upper(list(hulls.values()))


def test_postprocess_merging_the_coin_removes_adaptivity():
    m = _fig1()
    merged = postprocess(m, {"h": "coin", "t": "coin"})
    brute = brute_profile_postprocessed(m, {"h": "coin", "t": "coin"})
    prof = engine.profile(merged)
    assert prof.envelope.restricted() == brute.restricted()
    # without seeing the coin every query is a 1/2-1/2 mixture of RR_(log 3) and a fair coin
    assert engine.profile(m).delta_at_lambda(Q(1)) == Q(1, 2)
    assert prof.delta_at_lambda(Q(1)) == Q(1, 4)


def test_postprocess_identity_and_pure_relabel_keep_the_profile():
    m = _fig1()
    assert engine.profile(postprocess(m, {})).equals_on_eps_ge_0(engine.profile(m))
    assert engine.profile(postprocess(m, {"0": "zero", "1": "one"})).equals_on_eps_ge_0(engine.profile(m))


@SETTINGS
@given(mechanisms(max_depth=3, combinators=False), st.data())
def test_postprocess_against_brute_force_on_random_trees(m, data):
    labels = sorted({lab for node in m.nodes() if isinstance(node, Chance) for lab in node.labels})
    mapping = {lab: data.draw(st.sampled_from(["u", "v", lab])) for lab in labels}
    try:
        pm = postprocess(m, mapping)
    except InvalidMechanismError as e:
        assert "postprocess" in str(e)
        return
    brute = brute_profile_postprocessed(m, mapping)
    assert engine.profile(pm).envelope.restricted() == brute.restricted()
    # post-processing never increases the profile (Lemma 5.3)
    assert engine.profile(pm).le_on_eps_ge_0(engine.profile(m))[0]


def test_postprocess_refuses_merging_different_options():
    m = mechanism(
        respond(
            {
                "a": ([Q(1, 2), Q(1, 3)], ask({"q": {"0": [Q(1), Q(1)]}})),
                "b": ([Q(1, 2), Q(2, 3)], ask({"r": {"0": [Q(1), Q(1)]}})),
            }
        )
    )
    with pytest.raises(InvalidMechanismError, match="offered different queries"):
        engine.profile(postprocess(m, {"a": "x", "b": "x"}))
    m2 = mechanism(
        respond({"a": ([Q(1, 2), Q(1, 3)], None), "b": ([Q(1, 2), Q(2, 3)], ask({"r": {"0": [Q(1), Q(1)]}}))})
    )
    with pytest.raises(InvalidMechanismError, match="differ in kind"):
        postprocess(m2, {"a": "x", "b": "x"})


def test_null_extension_keeps_the_profile_and_answers_bottom():
    a = _fig1()
    ne = null_extension(a, 2)
    assert engine.profile(ne).equals_on_eps_ge_0(engine.profile(a))
    root = ne.root
    assert isinstance(root, Ask) and root.labels == ("poll", NULL)
    assert root.children[1].labels == (BOTTOM,)


@SETTINGS
@given(small_pair())
def test_lemma_2_5_concomp_equals_ordered_over_null_extensions(pair):
    m1, m2 = pair
    c = engine.profile(concomp([m1, m2]))
    o = engine.profile(concomp_ordered([null_extension(m1, 3), null_extension(m2, 3)]))
    assert c.equals_on_eps_ge_0(o)


@SETTINGS
@given(small_pair())
def test_ordered_without_nulls_is_at_most_concurrent(pair):
    m1, m2 = pair
    assert engine.profile(concomp_ordered([m1, m2])).le_on_eps_ge_0(engine.profile(concomp([m1, m2])))[0]


def test_sequential_interleaving_equals_compose_and_is_at_most_concomp():
    a = _fig1()
    b = rr(exp_eps=3)
    s = concomp_sequential({"A": a, "B": b})
    assert engine.profile(s).equals_on_eps_ge_0(engine.profile(compose([a, b])))
    assert engine.profile(s).le_on_eps_ge_0(engine.profile(concomp({"A": a, "B": b})))[0]
    assert enumerator.privloss(s, Q(1, 10)) == engine.privloss(s, Q(1, 10))
    assert s.root.labels == (("A",),)


def test_end_is_end():
    assert null_extension(mechanism(END), 1).root is END or isinstance(null_extension(mechanism(END), 1).root, End)
