"""The standalone checker (exactdp/checker.py) on hand-made certificates: every local inequality
and its edges (answers with p = 0 or p' = 0, the last slopes), events, T tables, Farkas rows, the
claim logic, adversarial files, and the file run alone under ``python -I -S``.

Hand-computed values come from the definitions (Vadhan & Wang 2021, Def. 1.7 and Lemma 2.2:
δ(λ) = sup_A Σ_w (P_x(w) − λ P_x'(w))_+)."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import checker
from tests.certkit import certificate, game

CHECKER = Path(checker.__file__)
RR3 = ("answer", {"0": (["3/4", "1/4"], 0), "1": (["1/4", "3/4"], 0)})  # RR with e^eps = 3


def dp_cert(g: dict, chains: dict, lam: str = "3", delta: str = "0", kind: str = "dp", verdict: str = "holds") -> dict:
    """A (eps, delta)-DP certificate whose upper chains are ``chains[pair] = [chain per node]``."""
    full = lambda c: [None if x is None else ["0", "inf"] for x in c]  # noqa: E731  (every chain on [0, inf))
    upper = [{"game": "M", "pair": list(p), "domains": full(c), "chains": c} for p, c in chains.items()]
    return certificate({"kind": kind, "of": "M", "exp_eps": lam, "delta": delta}, {"M": g}, {"upper": upper}, verdict)


def check(cert: dict) -> str:
    return checker.check_certificate(json.loads(json.dumps(cert)))


def rejected(cert: dict, *words: str) -> str:
    with pytest.raises(checker.Rejected) as e:
        check(cert)
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)


LEAF = [["0", "0"], ["1", "1"]]  # (1 - lambda)_+
RR3_CHAIN = [["0", "0"], ["1/4", "3/4"], ["1", "1"]]  # delta(lam) = (3/4 - lam/4)_+ + ... exact


# --- the end of the interaction: U >= (1 - lambda)_+ ------------------------------------------


def test_end_exact_and_looser_chains_are_accepted():
    g = game(["end", RR3])
    assert "is (log(3), 0)-DP" in check(dp_cert(g, {("x0", "x1"): [LEAF, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]}))
    loose = [["0", "1/2"], ["1", "1"]]  # max(1/2, 1 - lambda) >= (1 - lambda)_+
    # then 3/4 max(1/2, 1 - lam/3) + 1/4 max(1/2, 1 - 3 lam) = max(1/2, 7/8 - lam/4, 1 - lam)
    root = [["0", "1/2"], ["1/4", "7/8"], ["1", "1"]]
    assert check(dp_cert(g, {("x0", "x1"): [loose, root], ("x1", "x0"): [LEAF, RR3_CHAIN]}, delta="1/2"))


@pytest.mark.parametrize(
    "chain", [[["1", "1"]], [["0", "0"]], [["0", "0"], ["1", "9/10"]]], ids=["1-lambda", "zero", "low"]
)
def test_end_chains_below_one_minus_lambda_are_rejected(chain):
    g = game(["end", RR3])
    rejected(dp_cert(g, {("x0", "x1"): [chain, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]}), "node 0 (end)")


# --- an answer distribution: U(lam) >= sum_a p_a U_a(lam p'_a / p_a) ---------------------------


def test_answer_exact_chain_accepted_and_every_lowered_vertex_rejected():
    g = game(["end", RR3])
    ok = dp_cert(g, {("x0", "x1"): [LEAF, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]})
    check(ok)
    for k, low in [(0, ["0", "-1/100"]), (1, ["1/4", "74/100"]), (2, ["1", "99/100"])]:
        bad = json.loads(json.dumps(ok))
        bad["proof"]["upper"][0]["chains"][1][k] = low
        rejected(bad, "pair (x0, x1) of game M, node 1 (answer)")


def test_answer_impossible_under_x_prime_adds_its_probability():
    """p' = 0: every view through the answer lies in T, adding p whatever lambda is (under the
    U_child(0) = 1 reading, delta_child(0) = 1 exactly).  Here answer A has (p, p') = (1/2, 0),
    answer B (1/2, 1): delta(lam) = 1/2 + (1/2)(1 - 2 lam)_+."""
    g = game(["end", ("answer", {"A": (["1/2", "0"], 0), "B": (["1/2", "1"], 0)})])
    exact = [["0", "1/2"], ["1", "1"]]
    other = [["0", "0"], ["1/2", "1"]]  # reversed pair: A has p = 0 there, B (1, 1/2): (1 - lam/2)_+
    cert = dp_cert(g, {("x0", "x1"): [LEAF, exact], ("x1", "x0"): [LEAF, other]}, lam="100", delta="1/2")
    check(cert)
    cert["proof"]["upper"][0]["chains"][1] = [["0", "49/100"], ["1", "1"]]  # misses 1/100 of the p'=0 mass
    rejected(cert, "node 1 (answer)", "fails at lambda = 51/100: 49/100 < 1/2")


def test_answer_impossible_under_x_adds_nothing():
    """p = 0: the views through the answer never count (lambda >= 0).  Reversed pair above:
    delta(lam) = 1 * (1 - lam/2)_+; a chain claiming (1 - lam)_+ is too low at lam = 1."""
    g = game(["end", ("answer", {"A": (["1/2", "0"], 0), "B": (["1/2", "1"], 0)})])
    cert = dp_cert(
        g, {("x0", "x1"): [LEAF, [["0", "1/2"], ["1", "1"]]], ("x1", "x0"): [LEAF, LEAF]}, lam="100", delta="1/2"
    )
    rejected(cert, "pair (x1, x0)", "node 1 (answer)")


def test_last_slopes_are_compared():
    """A bound that is high enough at every breakpoint and just past the last one, but grows
    slower than what it must dominate, is rejected (the difference is linear there)."""
    child = [["-1/100", "0"], ["1", "1"]]  # max(lam/100, 1 - lam): a loose but valid bound at a choice
    g = game(["end", ("ask", {"q": 0}), ("answer", {"a": (["1", "1"], 1)})])
    cert = dp_cert(g, {p: [LEAF, child, [["0", "1"]]] for p in (("x0", "x1"), ("x1", "x0"))}, delta="1")
    rejected(cert, "node 2 (answer)", "last slopes")


def test_convex_dip_between_endpoints_is_found():
    """At a choice, U = (1 - lam)_+ agrees with its child RR's (3/4 - lam/4)_+ ... at lam = 0 and
    for lam >= 3, yet misses it in between: the child's vertex (1/4, 3/4) lies above U."""
    g = game(["end", RR3, ("ask", {"q": 1})])
    u = [["0", "0"], ["1", "1"]]  # (1 - lam)_+ < RR3's (3/4 - lam/4)_+ + ... at lam in (1, 3)
    cert = dp_cert(g, {p: [LEAF, RR3_CHAIN, u] for p in (("x0", "x1"), ("x1", "x0"))}, lam="4")
    rejected(cert, "node 2 (choice 'q')", "lies above U")


def test_choice_must_cover_every_child():
    g = game(["end", RR3, ("ask", {"coin": 0, "rr": 1})])
    good = {p: [LEAF, RR3_CHAIN, RR3_CHAIN] for p in (("x0", "x1"), ("x1", "x0"))}
    assert "is (log(3), 0)-DP" in check(dp_cert(g, good))
    bad = {p: [LEAF, RR3_CHAIN, LEAF] for p in (("x0", "x1"), ("x1", "x0"))}
    rejected(dp_cert(g, bad), "node 2 (choice 'rr')")


def test_domains_restrict_where_bounds_are_claimed():
    """A claim at lam = 3 needs the root's bound at 3 only; RR's answers evaluate the end at
    3 * (1/4)/(3/4) = 1 and 3 * 3 = 9, so the end's domain must contain [1, 9], where
    (1 - lam)_+ = 0 and the single vertex (0, 0) is a bound."""
    g = game(["end", RR3])
    up = lambda dom_end, end: {"game": "M", "domains": [dom_end, ["3", "3"]], "chains": [end, [["1/4", "3/4"]]]}  # noqa: E731
    proof = {
        "upper": [
            dict(up(["1", "9"], [["0", "0"]]), pair=["x0", "x1"]),
            dict(up(["1", "9"], [["0", "0"]]), pair=["x1", "x0"]),
        ]
    }
    claim = {"kind": "dp", "of": "M", "exp_eps": "3", "delta": "0"}
    assert "is (log(3), 0)-DP" in check(certificate(claim, {"M": g}, proof))
    proof["upper"][0]["domains"][0] = ["1", "8"]  # misses lam = 9
    rejected(certificate(claim, {"M": g}, proof), "child 0 has no bound on [3, 3] * 3")
    proof["upper"][0]["domains"][0] = ["0", "9"]  # (0, 0) is not >= 1 - lam near 0
    rejected(certificate(claim, {"M": g}, proof), "node 0 (end)")
    proof["upper"][0]["domains"][0] = ["1", "9"]
    rejected(certificate(dict(claim, exp_eps="4"), {"M": g}, proof), "do not decide")  # 4 is outside [3, 3]


def test_root_bound_must_prove_the_claim_for_every_ordered_pair():
    g = game(["end", RR3])
    chains = {("x0", "x1"): [LEAF, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]}
    rejected(dp_cert(g, chains, lam="2"), "do not decide")  # delta(2) = 1/4 > 0: upper bound too weak
    del chains[("x1", "x0")]
    rejected(dp_cert(g, chains), "no upper bound for the ordered pair (x1, x0)")


# --- lower bounds: adversary and event ----------------------------------------------------------

FIG1 = game(
    [
        "end",
        RR3,
        ("answer", {"0": (["1/2", "1/2"], 0), "1": (["1/2", "1/2"], 0)}),  # a fair coin
        ("ask", {"0": 1, "1": 2}),
        ("ask", {"0": 2, "1": 1}),
        ("answer", {"0": (["1/2", "1/2"], 3), "1": (["1/2", "1/2"], 4)}),
    ]
)  # Vadhan-Wang Figure 1: a coin, then the adversary picks RR or a coin; adapting wins


def not_dp(strategy, event, p, pp, lam="1", delta="1/4") -> dict:
    lower = [{"game": "M", "pair": ["x0", "x1"], "strategy": strategy, "event": event, "p": p, "p_prime": pp}]
    return certificate({"kind": "not_dp", "of": "M", "exp_eps": lam, "delta": delta}, {"M": FIG1}, {"lower": lower})


ADAPTIVE = [[3, "1", "0"], [4, "1", "1"]]  # after coin 0 ask RR, after coin 1 ask RR (ratio 1)


def test_event_recomputed_forward_figure1():
    """Vadhan-Wang Figure 1: with e^eps = 1 the adaptive adversary sees RR's answer 0 with
    P_x0 = 3/4, P_x1 = 1/4 whatever the coin: delta(1) = 1/2 > 1/4 (not (0, 1/4)-DP)."""
    assert "is not (0, 1/4)-DP" in check(not_dp(ADAPTIVE, ["3"], "3/4", "1/4"))


def test_event_with_wrong_probabilities_or_choices_is_rejected():
    rejected(not_dp(ADAPTIVE, ["3"], "3/4", "1/5"), "recomputed")
    rejected(not_dp([[3, "1", "0"]], ["3"], "3/4", "1/4"), "no choice at node 4")
    rejected(not_dp(ADAPTIVE + [[4, "2", "0"]], ["3"], "3/4", "1/4"), "no history reaches")
    rejected(not_dp(ADAPTIVE, ["3", "5"], "3/4", "1/4"), "no view has")
    nonadaptive = [[3, "1", "1"], [4, "1", "1"]]  # coin 0: coin again; coin 1: RR -> delta = 1/4 only
    rejected(not_dp(nonadaptive, ["3"], "3/8", "1/8"), "do not decide")


def test_privloss_lower_half_and_infinity():
    """PrivLoss(M, 1/4) = log 2 for Figure 1: the event gives 3/4 - 2 * 1/4 = 1/4 = delta with
    P' > 0, so every smaller eps fails; without an upper bound the claim stays undecided."""
    lower = [{"game": "M", "pair": ["x0", "x1"], "strategy": ADAPTIVE, "event": ["3"], "p": "3/4", "p_prime": "1/4"}]
    claim = {"kind": "privloss", "of": "M", "delta": "1/4", "relation": "equals", "exp_eps": "2"}
    rejected(certificate(claim, {"M": FIG1}, {"lower": lower}), "do not decide")
    claim_low = dict(claim, exp_eps="3/2")  # PrivLoss >= log 2 > log(3/2): fails, proved by the event
    assert "does NOT hold" in check(certificate(claim_low, {"M": FIG1}, {"lower": lower}, verdict="fails"))
    key = game(["end", ("answer", {"k": (["1/2", "0"], 0), "n": (["1/2", "1"], 0)})])
    ev = [{"game": "M", "pair": ["x0", "x1"], "strategy": [], "event": ["inf"], "p": "1/2", "p_prime": "0"}]
    inf = {"kind": "privloss", "of": "M", "delta": "0", "relation": "equals", "exp_eps": "inf"}
    assert "= inf" in check(certificate(inf, {"M": key}, {"lower": ev}))
    rejected(certificate(dict(inf, delta="1/2"), {"M": key}, {"lower": ev}), "do not decide")  # P(T) = delta


def test_verdict_must_match_what_is_proved():
    cert = not_dp(ADAPTIVE, ["3"], "3/4", "1/4")
    cert["verdict"] = "fails"
    rejected(cert, "says the claim fails")


# --- simulation and Farkas ----------------------------------------------------------------------


def rr_sim(T0, T1, lam="3") -> dict:
    g = game(["end", RR3])
    sim = [{"pair": ["x0", "x1"], "outputs": ["0", "1"], "rounds": [{"history": [], "T": [T0, T1]}]}]
    return certificate({"kind": "simulates_rr", "of": "M", "exp_eps": lam, "delta": "0"}, {"M": g}, {"simulation": sim})


def test_rr_simulates_itself_and_wrong_tables_are_rejected():
    """Thm 1.10 for M = RR_eps itself: T(c) answers c."""
    assert "simulates RR_(log(3), 0)" in check(rr_sim(["1", "0"], ["0", "1"]))
    rejected(rr_sim(["0", "1"], ["1", "0"]), "T(RR(0)) gives 1/4")
    rejected(rr_sim(["1", "0"], ["0", "1"], lam="2"), "M(x0) gives 3/4")
    rejected(rr_sim(["1/2", "1/4"], ["0", "1"]), "not a probability distribution")


def test_farkas_multipliers_are_multiplied_out():
    """Two RR_log2 answers at (log 3, 1/20): exactdp's LP is infeasible; its multipliers, in the
    checker's rows, prove it; changing one breaks the proof."""
    from exactdp.builders import compose, rr
    from exactdp.certificates import simulation_certificate
    from exactdp.claims import Analysis
    from exactdp.numbers import Q
    from exactdp.simulation.simulate import simulate

    m = compose([rr(exp_eps=Q(2)), rr(exp_eps=Q(2))])
    sim = simulate(m, eps=__import__("exactdp").exact("log(3)"), delta=Q(1, 20))
    body = simulation_certificate(Analysis({"M": m}), "M", False, Q(3), Q(1, 20), sim, True)
    cert = certificate(body["claim"], body["games"], body["proof"], body["verdict"])
    assert "does not simulate" in check(cert)
    for m in cert["proof"]["farkas"][0]["multipliers"]:
        m["y"] = "0"
    rejected(cert, "right-hand side is 0")


# --- malformed and adversarial files ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[" * 100_000 + "]" * 100_000,
        '{"format": 1e999}',
        '{"format": NaN}',
        '{"a": 1, "a": 2}',
        "1" * 10_000,
        '"' + "9" * 5000 + '"',
        '{"format": "exactdp-certificate", "version": 1, "case": {}, "games": {"M": {"datasets": "x"}}}',
        b"\xff\xfe".decode("latin-1"),
    ],
    ids=["empty", "deep", "float", "nan", "duplicate-key", "huge-int", "huge-string", "wrong-type", "not-utf8"],
)
def test_adversarial_json_is_malformed_not_a_crash(tmp_path, text):
    f = tmp_path / "bad.json"
    f.write_bytes(text.encode("latin-1"))
    p = subprocess.run([sys.executable, str(CHECKER), str(f)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "MALFORMED" in p.stdout and "Traceback" not in p.stdout + p.stderr


@pytest.mark.parametrize(
    "where,value",
    [
        (("games", "M", "nodes", 1, "answer", 0, 1, 0), 3),
        (("games", "M", "nodes", 1, "answer", 0, 2), 1),
        (("games", "M", "nodes", 1, "answer", 0, 2), True),
        (("games", "M", "root"), 7),
        (("proof", "upper", 0, "chains", 1), []),
        (("proof", "upper", 0, "chains", 1, 0), ["1/0", "0"]),
        (("proof", "upper", 0, "chains", 1, 1), ["0", "1/2"]),
        (("proof", "upper", 0, "pair"), ["x0", "x0"]),
        (("claim", "exp_eps"), "1/2"),
        (("claim", "kind"), "rényi"),
        (("games", "M", "pairs"), [["x0", "x1"]]),
    ],
)
def test_wrong_types_and_shapes_are_malformed(where, value):
    from tests.certkit import set_at

    g = game(["end", RR3])
    cert = dp_cert(g, {("x0", "x1"): [LEAF, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]})
    with pytest.raises(checker.Malformed):
        check(set_at(cert, where, value))


def test_runs_alone_under_python_isolated_mode(tmp_path):
    """The checker needs nothing but the standard library: copied alone into an empty folder
    and run with -I -S (no site-packages, no environment, no script folder on sys.path)."""
    shutil.copy(CHECKER, tmp_path / "checker.py")
    g = game(["end", RR3])
    good = dp_cert(g, {("x0", "x1"): [LEAF, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]})
    (tmp_path / "certs").mkdir()
    (tmp_path / "certs" / "good.json").write_text(json.dumps(good))

    def run(*a):
        return subprocess.run(
            [sys.executable, "-I", "-S", "checker.py", *a], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )

    p = run("certs")
    assert p.returncode == 0 and "1 accepted" in p.stdout, p.stdout + p.stderr
    bad = json.loads(json.dumps(good))
    bad["proof"]["upper"][0]["chains"][1][1] = ["1/4", "1/2"]
    (tmp_path / "certs" / "bad.json").write_text(json.dumps(bad))
    p = run("certs")
    assert p.returncode == 1 and "REJECTED" in p.stdout and "node 1 (answer)" in p.stdout
    (tmp_path / "certs" / "worse.json").write_text("{")
    assert run("certs").returncode == 2
    assert run("nothing-here").returncode == 2
    p = run("--show-game", "certs/good.json")
    assert "#1 the mechanism answers" in p.stdout and "0 (3/4, 1/4) -> end" in p.stdout


def test_case_hash_ties_certificates_to_the_case_file(tmp_path):
    g = game(["end", RR3])
    cert = dp_cert(g, {("x0", "x1"): [LEAF, RR3_CHAIN], ("x1", "x0"): [LEAF, RR3_CHAIN]})
    case = tmp_path / "case.yaml"
    case.write_text("anything")
    import hashlib

    f = tmp_path / "c.json"
    f.write_text(json.dumps(cert))
    assert checker.main(["--case", str(case), str(f)]) == 1
    cert["case"]["sha256"] = hashlib.sha256(b"anything").hexdigest()
    f.write_text(json.dumps(cert))
    assert checker.main(["--case", str(case), str(f)]) == 0


def test_imports_only_the_standard_library():
    allowed = {
        "__future__",
        "argparse",
        "collections",
        "contextlib",
        "gc",
        "hashlib",
        "json",
        "math",
        "os",
        "sys",
        "fractions",
        "pathlib",
        "typing",
    }
    tree = ast.parse(CHECKER.read_text())
    mods = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            mods |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative import"
            mods.add((node.module or "").split(".")[0])
    assert mods <= allowed, mods - allowed


def test_terminal_text_is_escaped():
    assert checker.text("a\x1b[2Jb") == "a\\x1b[2Jb"


_ratios = st.fractions(min_value=0, max_value=50, max_denominator=30)


@settings(max_examples=300, deadline=None)
@given(
    _ratios,
    st.one_of(_ratios, st.just(checker.INF)),
    _ratios,
    st.one_of(_ratios, st.just(checker.INF)),
    st.fractions(min_value=Fraction(1, 30), max_value=30, max_denominator=30),
)
def test_inside_is_the_interval_containment_it_says(lo, hi, olo, ohi, scale):
    """The integer comparisons of ``inside`` (fast path of every node) against Fractions."""
    inf = float("inf")
    big = lambda x: inf if x == checker.INF else x  # noqa: E731
    if big(hi) < lo or big(ohi) < olo:
        return
    want = olo <= lo * scale and big(ohi) >= (inf if big(hi) == inf else hi * scale)
    assert checker.inside((lo, hi), (olo, ohi), scale) == want


def test_renyi_is_recomputed_and_hostile_sizes_are_refused():
    """RR with e^eps = 3: sum P^2 / P' = (3/4)^2/(1/4) + (1/4)^2/(3/4) = 7/3 for each ordered
    pair, so D_2 = log(7/3) (Mironov 2017, Def. 3); the checker recomputes it from the game."""
    g = game(["end", RR3])
    claim = {"kind": "renyi", "of": "M", "alpha": "2", "relation": "equals", "bound": [["7", "1"], ["3", "-1"]]}
    assert "D_2(M) = log(7) - log(3)" in check(certificate(claim, {"M": g}, {}))
    rejected(certificate(dict(claim, bound=[["2", "1"]]), {"M": g}, {}), "the proofs show that it fails")
    huge = dict(claim, relation="at_most", bound=[["3", "1/99999991"]])  # r^99999991: refused at once
    with pytest.raises(checker.Malformed, match="more than this checker computes"):
        check(certificate(huge, {"M": g}, {}, "fails"))
