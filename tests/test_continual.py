"""Continual mechanisms and their compositions (exactdp.builders.continual).

Known answers cite notes-continual-mechanisms.md (sec. 3 and the R-cases of sec. 6) and the
theorem of Henzinger-Safavi-Vadhan (arXiv 2411.03299) they illustrate.  Every composition rule
is cross-checked against an independent unrolling that evaluates the paper's verification
function on whole message sequences (tests/bruteforce_cm.py), and small games against the
enumerator.
"""

from __future__ import annotations

import pytest

from exactdp.analysis import enumerator, profile
from exactdp.builders import compose, concomp, rr, rr_delta
from exactdp.builders.automaton import make_automaton
from exactdp.builders.continual import (
    Continual,
    MenuItem,
    Rule,
    basic_filter,
    budgeted,
    budgeted_parallel,
    concurrent,
    continual,
    ext_concomp,
    fixed_params,
    fpc_parallel,
    mixed_budgeted,
    sparse_parallel,
)
from exactdp.builders.verifier import bounded_verifier, make_verifier
from exactdp.errors import InvalidMechanismError
from exactdp.model import Ask, count_strategies
from exactdp.numbers import Q, eval_text

from .bruteforce_cm import unroll_composition, unroll_continual

L2, L3 = eval_text("log(2)"), eval_text("log(3)")
ENGINES = [pytest.param(profile, id="profile"), pytest.param(enumerator, id="enumerator")]


def hulls(m, engine=profile):
    return [(pp.pair, pp.hull) for pp in engine.profile(m).pairs]


def Md(d, horizon=2):
    """M_delta of Thm 5.2 (Step 2): ignore the first message, flag w.p. delta; then echo."""
    rows = {("s0", m): [("0", "s0", [1 - d]), ("1", "s1", [d])] for m in "01"}
    rows.update({("s1", m): [(m, "s1", [1])] for m in "01"})
    return make_automaton(["s0", "s1"], "s0", rows, horizon)


def rr_step(E, horizon=2):
    """A CM answering every message bit by RR_(log E)."""
    keep, flip = Q(E) / (1 + Q(E)), 1 / (1 + Q(E))
    rows = {("s", m): [(m, "s", [keep]), (str(1 - int(m)), "s", [flip])] for m in "01"}
    return make_automaton(["s"], "s", rows, horizon)


def rr_once(E, d):
    """RR_(log E, d) as a one-message CM (answers I0/I1 = leak, 0/1)."""
    keep, flip = (1 - d) * Q(E) / (1 + Q(E)), (1 - d) / (1 + Q(E))
    rows = {
        ("start", "0"): [("I0", "done", [d]), ("0", "done", [keep]), ("1", "done", [flip])],
        ("start", "1"): [("I1", "done", [d]), ("1", "done", [keep]), ("0", "done", [flip])],
    }
    return make_automaton(["start", "done"], "start", rows, 1)


V1 = bounded_verifier("01", max_differing=1, max_length=2)
EVENT = bounded_verifier("01", max_differing=1)
ONE = bounded_verifier("01", max_length=1)
# V1 restricted to the pairs Thm 5.2's adversary uses, (0,0) and (0,1): small enough to unroll
V1_SMALL = make_verifier(
    ["none", "same", "diff", "full"],
    "none",
    {
        "none": {("0", "0"): "same", ("0", "1"): "diff"},
        "same": {("0", "0"): "full", ("0", "1"): "full"},
        "diff": {("0", "0"): "full"},
    },
    ["0", "1"],
)


def const(d):
    """RR_(0, d): its profile is the constant d for every e^eps >= 1."""
    return rr_delta(exp_eps=1, delta=d)


# --- single continual mechanisms (Cor. 3.8) ------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_md_is_0_delta_dp_and_no_better(engine):
    """notes R3 / Thm 5.2 Step 2: delta_M(E) = delta for every E."""
    C = continual(Continual(Md(Q(1, 4)), V1))
    assert engine.profile(C).equals_on_eps_ge_0(profile.profile(const(Q(1, 4))))


@pytest.mark.parametrize(
    "cm",
    [
        pytest.param(Continual(Md(Q(1, 4)), V1), id="Md-V1"),
        pytest.param(Continual(Md(Q(1, 3), 3), EVENT), id="Md-event-level-3-steps"),
        pytest.param(Continual(Md(Q(1, 3), 3), V1, True), id="Md-V1-first-pair-consistent"),
        pytest.param(Continual(rr_step(3), EVENT), id="RR-step-event-level"),
        pytest.param(Continual(rr_once(2, Q(1, 5)), ONE), id="RR-(log2,1/5)-once"),
    ],
)
def test_cor38_game_equals_the_unrolled_verifier_identifier_mechanism(cm):
    """Cor. 3.8: the state-keyed game equals V o I o M unrolled history by history."""
    C = continual(cm)
    assert hulls(C) == hulls(unroll_continual(cm))
    assert hulls(C, enumerator) == hulls(C)


def test_continual_options_are_the_valid_pairs():
    C = continual(Continual(Md(Q(1, 4)), V1_SMALL))
    assert isinstance(C.root, Ask) and C.root.labels == ("(0,0)", "(0,1)")


def test_rr_step_cm_is_rr():
    """notes R15: the 2-step per-step RR_(log 3) CM, event-level, has RR_(log 3)'s profile."""
    assert profile.profile(continual(Continual(rr_step(3), EVENT))).equals_on_eps_ge_0(profile.profile(rr(exp_eps=3)))


# --- the numbers of the paper and the notes --------------------------------------------------------


@pytest.mark.parametrize(
    "d, n, expected",
    [
        pytest.param(Q(1, 2), 1, Q(1, 2), id="notes-R4-d1/2-n1"),
        pytest.param(Q(1, 2), 2, Q(3, 4), id="Thm5.2-notes-R4-d1/2-n2"),
        pytest.param(Q(1, 2), 3, Q(7, 8), id="Thm5.2-notes-R4-d1/2-n3"),
        pytest.param(Q(1, 4), 2, Q(7, 16), id="Thm5.2-notes-R4-d1/4-n2"),
    ],
)
def test_thm52_sparse_parallel_counterexample(d, n, expected):
    """Thm 1.4 = 5.2: delta_comp(E) = 1 - (1 - delta)^n for every E (notes sec. 3 table)."""
    assert expected == 1 - (1 - d) ** n
    P = sparse_parallel([MenuItem("Md", Continual(Md(d), V1), Q(0), d)], [(Q(0), d)], cap=n)
    assert profile.profile(P).equals_on_eps_ge_0(profile.profile(const(expected)))


def test_thm411_fixed_params_holds_where_thm52_fails():
    """Def. 4.10 (at most k = 1 creation) obeys Thm 4.11's (0, delta); Def. 5.1 does not."""
    item = MenuItem("Md", Continual(Md(Q(1, 2)), V1), Q(0), Q(1, 2))
    F = fixed_params([item], [(Q(0), Q(1, 2))], cap=3)
    assert profile.delta_at(F, Q(0)) == Q(1, 2)
    assert profile.delta_at(sparse_parallel([item], [(Q(0), Q(1, 2))], cap=3), Q(0)) == Q(7, 8)


@pytest.mark.parametrize("n", [2, 3])
def test_fpc_parallel_of_md_is_perfectly_private(n):
    """notes R5 / Def. 5.14: delta_comp = 0 with copies of M_delta."""
    item = MenuItem("Md", Continual(Md(Q(1, 2)), V1), Q(0), Q(1, 2))
    assert profile.delta_at(fpc_parallel([item], [(Q(0), Q(1, 2))], cap=n), Q(0)) == 0


def flag_cm(d):
    """notes R5': data bit first (ack), then `?` -> flag, then `?` -> bit if flagged."""
    rows = {("start", b): [("ack", "x" + b, [1])] for b in "01"}
    for b in "01":
        rows[("x" + b, "?")] = [("1", "f" + b, [d]), ("0", "u", [1 - d])]
        rows[("f" + b, "?")] = [(b, "end", [1])]
    rows[("u", "?")] = [("-", "end", [1])]
    a = make_automaton(["start", "x0", "x1", "f0", "f1", "u", "end"], "start", rows, 3)
    v = make_verifier(
        ["first", "rest"],
        "first",
        {"first": {(x, y): "rest" for x in "01" for y in "01"}, "rest": {("?", "?"): "rest"}},
        ["0", "1", "?"],
    )
    return Continual(a, v)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_fpc_parallel_of_the_flag_mechanism_is_delta(n):
    """notes R5' / Thm 1.3 = 5.15: FPC 1-sparse composition of n copies: delta_comp = delta."""
    d = Q(1, 4)
    G = fpc_parallel([MenuItem("F", flag_cm(d), Q(0), d)], [(Q(0), d)], cap=n)
    assert profile.profile(G).equals_on_eps_ge_0(profile.profile(const(d)))


def test_thm54_met_with_equality():
    """notes R6 / Thm 5.4: delta = 1/2, dbar = 3/4, cap 3 -> 3/4 for every E; mixed deltas
    1/4 and 1/3 with dbar = 1/2 -> 1/2."""
    item = MenuItem("Md", Continual(Md(Q(1, 2)), V1), L2, Q(1, 2))
    B = budgeted_parallel([item], [L2], Q(3, 4), cap=3)
    assert profile.profile(B).equals_on_eps_ge_0(profile.profile(const(Q(3, 4))))
    items = [
        MenuItem("a", Continual(Md(Q(1, 4)), V1), L2, Q(1, 4)),
        MenuItem("b", Continual(Md(Q(1, 3)), V1), L2, Q(1, 3)),
    ]
    assert profile.profile(budgeted_parallel(items, [L2], Q(1, 2), cap=3)).equals_on_eps_ge_0(
        profile.profile(const(Q(1, 2)))
    )


def test_lemma59_adaptive_rr_budget():
    """notes R7 / Lemma 5.9: menu RR_(0, 1/4), RR_(0, 1/3), RR_(0, 1/2), dbar = 1/2, 3 creations:
    delta(1) = delta(4) = 1/2."""
    menu = [MenuItem(f"RR0_{x}", Continual(rr_once(1, x), ONE), Q(0), x) for x in (Q(1, 4), Q(1, 3), Q(1, 2))]
    L = budgeted(menu, Q(1, 2), cap=3)
    assert profile.delta_at(L, Q(0)) == Q(1, 2) == profile.delta_at(L, eval_text("log(4)"))


def test_remark512_via_lemma511():
    """notes R8 / Remark 5.12: the Def. 5.10 composition of RR_(log2,0), RR_(0,1/4), RR_(log3,0),
    RR_(0,1/3) with dbar = 1/2 has exactly the profile of RR_(log2,1/4) x RR_(log3,1/3):
    delta(6) = 1/2, delta(1) = 3/4."""
    menu = [
        MenuItem("a", Continual(rr_once(2, Q(0)), ONE), L2, Q(0)),
        MenuItem("b", Continual(rr_once(1, Q(1, 4)), ONE), Q(0), Q(1, 4)),
        MenuItem("c", Continual(rr_once(3, Q(0)), ONE), L3, Q(0)),
        MenuItem("d", Continual(rr_once(1, Q(1, 3)), ONE), Q(0), Q(1, 3)),
    ]
    mix = profile.profile(mixed_budgeted(menu, [L2, L3], Q(1, 2), cap=4))
    nim = profile.profile(compose([rr_delta(exp_eps=2, delta=Q(1, 4)), rr_delta(exp_eps=3, delta=Q(1, 3))]))
    assert mix.equals_on_eps_ge_0(nim)
    assert nim.delta_at(eval_text("log(6)")) == Q(1, 2) and nim.delta_at(Q(0)) == Q(3, 4)


def test_thm49_interleaved_equals_rr_composition():
    """notes R9 / Thm 4.9: M_(1/4) || per-step RR_(log 3): delta(E) = 1/4 + (3/4)(3 - E)_+/4."""
    A, B = Continual(Md(Q(1, 4)), V1), Continual(rr_step(3), EVENT)
    M = concurrent({"A": A, "B": B})
    ref = profile.profile(compose([rr_delta(exp_eps=1, delta=Q(1, 4)), rr(exp_eps=3)]))
    assert profile.profile(M).equals_on_eps_ge_0(ref)
    for E, v in [(1, Q(5, 8)), (2, Q(7, 16)), (3, Q(1, 4)), (4, Q(1, 4))]:
        assert profile.profile(M).delta_at_lambda(Q(E)) == v
    # the generic concomp of the two continual games is the same game up to labels
    assert hulls(concomp({"A": continual(A), "B": continual(B)})) == hulls(M)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_cor55_pure_parallel(n):
    """notes R15 / Cor 5.5: delta_comp(E) = delta_M(E) for pure CMs."""
    B = Continual(rr_step(3), EVENT)
    P = sparse_parallel([MenuItem("B", B, L3, Q(0))], [(L3, Q(0))], cap=n)
    assert profile.profile(P).equals_on_eps_ge_0(profile.profile(rr(exp_eps=3)))


def _r11_menu():
    return [
        MenuItem("(2,0)", Continual(rr_once(2, Q(0)), ONE), L2, Q(0)),
        MenuItem("(1,1/4)", Continual(rr_once(1, Q(1, 4)), ONE), Q(0), Q(1, 4)),
        MenuItem("(2,1/4)", Continual(rr_once(2, Q(1, 4)), ONE), L2, Q(1, 4)),
        MenuItem("(1,1/8)", Continual(rr_once(1, Q(1, 8)), ONE), Q(0), Q(1, 8)),
    ]


def test_r11_basic_filter():
    """notes R11 / Def. 10.2, Thm 10.4: filter prod E_i <= 4, sum delta_i <= 1/4, menu
    {(2,0), (1,1/4), (2,1/4), (1,1/8)}, at most 3 creations: delta(4) = 1/4."""
    M = basic_filter(_r11_menu(), eval_text("log(4)"), Q(1, 4), cap=3)
    assert profile.delta_at(M, eval_text("log(4)")) == Q(1, 4)
    small = basic_filter(_r11_menu(), eval_text("log(4)"), Q(1, 4), cap=2)  # brute force: cap 2 is enough work
    assert hulls(small) == hulls(unroll_composition(_r11_menu(), "10.2", params=(Q(4), Q(1, 4)), cap=2))


# --- every rule against the definitions, evaluated on whole sequences ---------------------------


def _small_menu():
    return [
        MenuItem("A", Continual(Md(Q(1, 4)), V1_SMALL), Q(0), Q(1, 4)),
        MenuItem("B", Continual(Md(Q(1, 2)), V1_SMALL), L2, Q(1, 2)),
    ]


@pytest.mark.parametrize(
    "kind, build, bf",
    [
        pytest.param(
            "5.1", lambda m: sparse_parallel(m, [(Q(0), Q(1, 4))], cap=2), dict(params=[(Q(0), Q(1, 4))]), id="Def5.1"
        ),
        pytest.param(
            "5.14",
            lambda m: fpc_parallel(m, [(L2, Q(1, 2))], cap=2),
            dict(params=[(L2, Q(1, 2))], fpc=True),
            id="Def5.14",
        ),
        pytest.param(
            "4.10",
            lambda m: fixed_params(m, [(Q(0), Q(1, 4)), (L2, Q(1, 2))]),
            dict(params=[(Q(0), Q(1, 4)), (L2, Q(1, 2))]),
            id="Def4.10",
        ),
        pytest.param(
            "5.3", lambda m: budgeted_parallel(m, [L2], Q(5, 8), cap=2), dict(params=[L2], budget=Q(5, 8)), id="Def5.3"
        ),
        pytest.param("5.8", lambda m: budgeted(m, Q(5, 8), cap=2), dict(budget=Q(5, 8)), id="Def5.8"),
    ],
)
def test_rules_equal_the_definitions_unrolled(kind, build, bf):
    menu = _small_menu()
    M = build(menu)
    U = unroll_composition(menu, kind, cap=2, **bf)
    assert hulls(M) == hulls(U)


def test_def510_equals_the_definition_unrolled():
    menu = [
        MenuItem("e", Continual(rr_once(2, Q(0)), ONE), L2, Q(0)),
        MenuItem("d", Continual(rr_once(1, Q(1, 3)), ONE), Q(0), Q(1, 3)),
    ]
    M = mixed_budgeted(menu, [L2], Q(1, 2), cap=3)
    U = unroll_composition(menu, "5.10", params=[L2], budget=Q(1, 2), cap=3)
    assert hulls(M) == hulls(U)


def test_small_compositions_on_the_enumerator():
    """Both engines on the Def. 5.1 / 5.14 games small enough for brute force."""
    item = MenuItem("Md", Continual(Md(Q(1, 4)), V1_SMALL), Q(0), Q(1, 4))
    for M in (sparse_parallel([item], [(Q(0), Q(1, 4))], cap=1), fpc_parallel([item], [(Q(0), Q(1, 4))], cap=2)):
        assert count_strategies(M.root) <= 1000
        assert hulls(M, enumerator) == hulls(M)


def test_one_creation_without_restrictions_is_the_cm_itself():
    """ExtConComp with a single creation and no rule is V o I o M (Cor. 3.8) plus a create move."""
    cm = Continual(Md(Q(1, 3)), V1)
    M = ext_concomp([MenuItem("M", cm, Q(0), Q(1, 3))], Rule("test", 1, None))
    assert hulls(M) == hulls(continual(cm))


# --- refusals ----------------------------------------------------------------------------------


def test_continual_mechanism_must_not_depend_on_the_dataset():
    a = make_automaton(["s"], "s", {("s", "0"): [("0", "s", [1, 0]), ("1", "s", [0, 1])]}, 1)
    with pytest.raises(InvalidMechanismError, match="does not depend on the dataset"):
        Continual(a, bounded_verifier(["0"]))


def test_verifier_messages_must_be_queries():
    with pytest.raises(InvalidMechanismError, match="is not a query of the mechanism"):
        make_verifier(["v"], "v", {"v": {("0", "2"): "v"}}, ["0", "1"])
    with pytest.raises(InvalidMechanismError, match="never accepts"):
        Continual(Md(Q(1, 2)), bounded_verifier(["0", "1", "2"]))


def test_two_worlds_only():
    with pytest.raises(InvalidMechanismError, match="two worlds"):
        continual(Continual(Md(Q(1, 2)), V1), datasets=("a", "b", "c"))


def test_def510_items_have_eps_or_delta_zero():
    item = MenuItem("x", Continual(rr_once(2, Q(1, 4)), ONE), L2, Q(1, 4))
    with pytest.raises(InvalidMechanismError, match="eps = 0 or delta = 0"):
        mixed_budgeted([item], [L2], Q(1, 2), cap=1)


def test_bounded_verifier_counts():
    v = bounded_verifier("01", max_differing=1, max_length=2)
    assert v.accepts_sequence([("0", "1"), ("1", "1")])
    assert not v.accepts_sequence([("0", "1"), ("1", "0")])
    assert not v.accepts_sequence([("0", "0")] * 3)
    assert bounded_verifier("01").accepts_sequence([("0", "1")] * 7)
