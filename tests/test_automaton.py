"""State-machine mechanisms (exactdp.builders.automaton) against explicit trees.

The automaton game is keyed by exact posterior beliefs over hidden states; it is checked
against an independent history-by-history unrolling (tests/bruteforce_cm.py) on hand-made and
random automata, on both engines, with exact equality of every ordered pair's profile.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator, profile
from exactdp.builders import repeat, rr
from exactdp.builders.automaton import HALT, automaton, make_automaton
from exactdp.errors import InvalidMechanismError
from exactdp.model import Ask, Chance, count_strategies, postorder, stats
from exactdp.numbers import Q, ladder

from .bruteforce_cm import unroll_automaton

ENGINES = [pytest.param(profile, id="profile"), pytest.param(enumerator, id="enumerator")]


def hulls(m, engine=profile):
    return [(pp.pair, pp.hull) for pp in engine.profile(m).pairs]


def rr_rows(E):
    keep, flip = Q(E) / (1 + Q(E)), 1 / (1 + Q(E))
    return [("0", "s", [keep, flip]), ("1", "s", [flip, keep])]


# --- known answers --------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_rr_as_a_one_state_automaton_is_repeated_rr(engine):
    """VW Def. 1.9: RR_(log 3) asked T times by a one-state automaton = repeat(RR, T) (KOV)."""
    a = make_automaton(["s"], "s", {("s", "q"): rr_rows(3)}, 3)
    m = automaton(a)
    assert engine.profile(m).equals_on_eps_ge_0(profile.profile(repeat(rr(exp_eps=3), 3)))
    assert ladder.text(engine.privloss(m, Q(0))) == "log(27)"


@pytest.mark.parametrize("engine", ENGINES)
def test_initial_state_per_dataset_is_the_im_model(engine):
    """HSV Def. 2.6/2.13: the dataset is the initial state; the machine itself is shared."""
    rows = {
        ("a", "q"): [("0", "a", [Q(3, 4)]), ("1", "a", [Q(1, 4)])],
        ("b", "q"): [("0", "b", [Q(1, 4)]), ("1", "b", [Q(3, 4)])],
    }
    a = make_automaton(["a", "b"], [{"a": 1}, {"b": 1}], rows, 2)
    assert a.n_rows == 2
    assert engine.profile(automaton(a)).equals_on_eps_ge_0(profile.profile(repeat(rr(exp_eps=3), 2)))


def test_hidden_initial_randomness_uses_posteriors():
    """A hidden fair coin c; each query answers c xor (data bit) w.p. 3/4.  Exact beliefs over
    the hidden state must match the explicit tree (the posterior after one answer is not a
    point mass, so the sub-game key is a belief, not a state)."""
    # states: c0, c1 (hidden coin); row per dataset: dataset bit b; answer c^b w.p. 3/4
    rows = {
        ("c0", "q"): [("0", "c0", [Q(3, 4), Q(1, 4)]), ("1", "c0", [Q(1, 4), Q(3, 4)])],
        ("c1", "q"): [("1", "c1", [Q(3, 4), Q(1, 4)]), ("0", "c1", [Q(1, 4), Q(3, 4)])],
    }
    a = make_automaton(["c0", "c1"], {"c0": Q(1, 3), "c1": Q(2, 3)}, rows, 3)
    m = automaton(a)
    u = unroll_automaton(a)
    assert hulls(m) == hulls(u)
    assert hulls(m, enumerator) == hulls(u)


def test_state_that_does_not_accept_a_query_halts():
    """A query outside a state's alphabet is answered `halt` and ends the interaction; the
    adversary is offered it only if some possible state accepts it."""
    rows = {
        ("s", "q"): [("0", "s", [Q(1, 2), Q(1, 2)]), ("1", "t", [Q(1, 2), Q(1, 2)])],
        ("s", "r"): [("0", "s", [Q(2, 3), Q(1, 3)]), ("1", "s", [Q(1, 3), Q(2, 3)])],
        ("t", "q"): [
            ("0", "t", [1]),
        ],
    }
    a = make_automaton(["s", "t"], [{"s": 1}, {"s": Q(1, 2), "t": Q(1, 2)}], rows, 2)
    m = automaton(a)
    labels = {lab for n in postorder(m.root) if isinstance(n, Chance) for lab in n.labels}
    assert HALT in labels
    assert hulls(m) == hulls(unroll_automaton(a))
    assert hulls(m, enumerator) == hulls(m)


def test_answer_determined_automaton_is_polynomial_in_states_times_horizon():
    """Issue 5: sub-games keyed by (state under each dataset, steps left).  An
    AboveThreshold-shaped automaton (7 counter states + done: answer T ends it) with horizon
    200 has at most 8 * 201 choice nodes, not one per history (more than 2^200: the coin query
    alone gives that many), and is analysed in well under the time limit."""
    k = 7
    rows = {}
    for i in range(k):
        p = Q(1, 4) + Q(1, 8 * (i + 2))
        rows[(f"c{i}", "up")] = [
            ("T", "done", [p, p + Q(1, 16)]),
            ("F", f"c{min(i + 1, k - 1)}", [1 - p, 1 - p - Q(1, 16)]),
        ]
        rows[(f"c{i}", "coin")] = [("H", f"c{i}", [Q(1, 2)]), ("T", f"c{i}", [Q(1, 2)])]
    a = make_automaton([f"c{i}" for i in range(k)] + ["done"], "c0", rows, 200)
    t = time.perf_counter()
    m = automaton(a)
    prof = profile.profile(m)
    assert time.perf_counter() - t < 20
    s = stats(m.root)
    assert s["ask_nodes"] <= (k + 1) * 201
    assert s["depth"] == 400
    assert prof.privloss(Q(0)) != 0


def test_enumerator_refuses_a_long_horizon_promptly():
    """The number of deterministic adversaries is doubly exponential in the horizon; the
    reference engine must refuse with its message, not try to count them exactly."""
    from exactdp.errors import LimitExceededError

    a = make_automaton(["s"], "s", {("s", "q"): rr_rows(2), ("s", "r"): rr_rows(3)}, 50)
    t = time.perf_counter()
    with pytest.raises(LimitExceededError, match=r"more than 10\^100"):
        enumerator.profile(automaton(a))
    assert time.perf_counter() - t < 5


def test_dead_dataset_rows_do_not_matter():
    """An answer impossible under x1 leaves x1 without a state; the rest of the game still
    has valid rows (a point mass) and the profile is the explicit tree's."""
    rows = {
        ("s", "q"): [("0", "s", [Q(1, 2), Q(1)]), ("1", "t", [Q(1, 2), Q(0)])],
        ("t", "q"): [("0", "t", [Q(1, 3)]), ("1", "s", [Q(2, 3)])],
    }
    a = make_automaton(["s", "t"], "s", rows, 3, n_rows=2)
    m = automaton(a)
    assert hulls(m) == hulls(unroll_automaton(a))
    assert ladder.text(profile.privloss(m, Q(1, 4))) == "inf"


# --- random automata: beliefs == explicit trees, both engines ----------------------------------


@st.composite
def automata(draw):
    nd = draw(st.integers(2, 3))
    ns = draw(st.integers(1, 3))
    states = [f"s{i}" for i in range(ns)]
    queries = ["q", "r"][: draw(st.integers(1, 2))]
    answers = ["a", "b", "c"]
    shared = draw(st.booleans())
    rows = {}
    for s in states:
        for q in queries:
            if ns > 1 and draw(st.integers(0, 4)) == 0:
                continue  # per-state alphabet: s does not accept q
            outs = draw(
                st.lists(
                    st.tuples(st.sampled_from(answers), st.sampled_from(states)), min_size=1, max_size=3, unique=True
                )
            )
            width = 1 if shared else nd
            cols = []
            for _ in range(width):
                w = [draw(st.integers(0, 4)) for _ in outs]
                if sum(w) == 0:
                    w[0] = 1
                cols.append([Q(x, sum(w)) for x in w])
            rows[(s, q)] = [(ans, nxt, [col[k] for col in cols]) for k, (ans, nxt) in enumerate(outs)]
    if not rows:
        rows[(states[0], queries[0])] = [("a", states[0], [Q(1)])]
    inits = []
    for _ in range(1 if shared and draw(st.booleans()) else nd):
        w = [draw(st.integers(0, 3)) for _ in states]
        if sum(w) == 0:
            w[0] = 1
        inits.append({s: Q(x, sum(w)) for s, x in zip(states, w)})
    horizon = draw(st.integers(1, 4))
    init = inits[0] if len(inits) == 1 else inits
    n_rows = nd if (not shared or len(inits) > 1) else None
    a = make_automaton(states, init, rows, horizon, n_rows=n_rows)
    datasets = tuple(f"x{i}" for i in range(nd))
    pairs = [(i, j) for i in range(nd) for j in range(i + 1, nd)]
    adj = tuple(draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True)))
    return a, datasets, adj


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=automata())
def test_random_automata_equal_their_explicit_trees(spec):
    a, datasets, adj = spec
    m = automaton(a, datasets=datasets, adjacent=adj)
    u = unroll_automaton(a, datasets, adj)
    assert hulls(m) == hulls(u)
    if count_strategies(m.root) <= 2000:
        assert hulls(m, enumerator) == hulls(m)


# --- validation -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, phrase",
    [
        (dict(rows={("s", "q"): [("0", "s", [Q(1, 2)])]}), "sum to 1/2, not 1"),
        (dict(rows={("s", "q"): [(HALT, "s", [1])]}), "reserved"),
        (dict(rows={("s", "q"): [("0", "u", [1])]}), "unknown state 'u'"),
        (dict(rows={("s", "q"): [("0", "s", [Q(3, 2)]), ("1", "s", [Q(-1, 2)])]}), "negative probability"),
        (dict(rows={("s", "q"): [("0", "s", [1])]}, initial={"s": Q(1, 2)}), "initial: the probabilities sum to 1/2"),
        (dict(rows={("s", "q"): [("0", "s", [1])]}, horizon=-1), "horizon must be at least 0"),
        (dict(rows={("s", "q"): [("0", "s", [1, 0]), ("1", "s", [0, Q(1, 2), Q(1, 2)])]}), "different lengths"),
    ],
)
def test_make_automaton_refuses(kwargs, phrase):
    with pytest.raises(InvalidMechanismError, match=phrase.replace("(", r"\(")):
        make_automaton(["s"], kwargs.get("initial", "s"), kwargs["rows"], kwargs.get("horizon", 1))


def test_rows_must_match_datasets():
    a = make_automaton(["s"], "s", {("s", "q"): [("0", "s", [1, 0, 0]), ("1", "s", [0, 1, 1])]}, 1)
    with pytest.raises(InvalidMechanismError, match="3 probability rows but there are 2 datasets"):
        automaton(a)


def test_first_node_is_an_adversary_choice_of_the_queries():
    a = make_automaton(["s"], "s", {("s", "q"): rr_rows(2), ("s", "r"): rr_rows(3)}, 1)
    m = automaton(a)
    assert isinstance(m.root, Ask) and m.root.labels == ("q", "r")


# --- the work predicted before the game is built --------------------------------------------


def _joint_states_by_histories(a, rows, depth):
    """Independent count: walk every history up to ``depth`` queries with exact per-dataset
    state sets, and collect the joint states (None: impossible under a dataset) met."""
    start = tuple(a.initial[r][0][0] for r in rows)
    seen, frontier = {start}, {start}
    for _ in range(depth):
        nxt = set()
        for cur in frontier:
            for q in a.queries:
                answers = {}
                for x, s in enumerate(cur):
                    if s is None or (s, q) not in a.transitions:
                        continue
                    for o in a.transitions[(s, q)]:
                        if o.probs[rows[x]] != 0:
                            answers.setdefault(o.answer, [None] * len(cur))[x] = o.next
                nxt.update(tuple(v) for v in answers.values())
        frontier = nxt - seen
        seen |= nxt
    return len(seen)


@st.composite
def answer_determined(draw):
    """A random automaton whose answer (and dataset) determines the next state."""
    n = draw(st.integers(1, 4))
    states = [f"s{i}" for i in range(n)]
    rows = {}
    for s in states:
        for q in draw(st.lists(st.sampled_from(["q", "r"]), min_size=1, max_size=2, unique=True)):
            k = draw(st.integers(1, 3))
            p0 = [Q(1, k)] * k
            p1 = [Q(1, 2)] + [Q(1, 2 * (k - 1))] * (k - 1) if k > 1 else [Q(1)]
            rows[(s, q)] = [(str(j), draw(st.sampled_from(states)), [p0[j], p1[j]]) for j in range(k)]
    return make_automaton(states, "s0", rows, draw(st.integers(1, 6)), n_rows=2)


@given(answer_determined())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_reachable_joint_states_match_a_walk_over_histories(a):
    """The joint states the prediction counts are those an independent walk over every
    history finds (with a horizon long enough to reach them all), and the game built has at
    most J choice nodes per step left."""
    from exactdp.builders.automaton import reachable_joint_states

    J = reachable_joint_states(a, (0, 1), cap=10**6)
    assert J == _joint_states_by_histories(a, (0, 1), depth=J + 1)
    assert stats(automaton(a).root)["ask_nodes"] <= J * a.horizon


def test_the_predicted_work_refuses_a_long_horizon_before_building():
    """Two visible states, RR answers, horizon T: W = 2 * T(T+1)/2 profile pieces; a shared
    row (nothing depends on the dataset) predicts 1 piece per node, J * T."""
    from exactdp.builders.automaton import predicted_work
    from exactdp.errors import LimitExceededError
    from exactdp.limits import DEFAULT, using

    rows = {(s, "q"): [("0", "s0", [Q(3, 4), Q(1, 4)]), ("1", "s1", [Q(1, 4), Q(3, 4)])] for s in ("s0", "s1")}
    assert predicted_work(make_automaton(["s0", "s1"], "s0", rows, 1000), (0, 1)) == (2, 1001000)
    shared = {(s, "q"): [("0", "s0", [Q(1, 2)]), ("1", "s1", [Q(1, 2)])] for s in ("s0", "s1")}
    assert predicted_work(make_automaton(["s0", "s1"], "s0", shared, 1000), (0, 0)) == (2, 2000)
    hidden = make_automaton(["s0", "s1"], {"s0": Q(1, 2), "s1": Q(1, 2)}, rows, 10)
    assert predicted_work(hidden, (0, 1)) == (None, 55)
    t = time.perf_counter()
    with using(DEFAULT), pytest.raises(LimitExceededError, match="--max-automaton-work"):
        automaton(make_automaton(["s0", "s1"], "s0", rows, 100_000))
    assert time.perf_counter() - t < 2
    with using(DEFAULT.replace(max_automaton_work=10)), pytest.raises(LimitExceededError, match="about 110 profile"):
        automaton(make_automaton(["s0", "s1"], "s0", rows, 10))
