"""Hostile certificates that cost the checker minutes, gigabytes or forever under its default limits
before each cost was charged by the size of its numbers: each is now refused with a named limit
(TooLarge, exit 2), or decided cheaply.  No test here is timed; each checks which outcome the
default limits give (the old checker accepted or rejected these after the work)."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp import checker
from exactdp.checker import core


def cert(games: dict, claim: dict, proof: dict | None = None, **extra) -> dict:
    return {
        "format": "exactdp-certificate",
        "version": 2,
        "case": {"file": "x.yaml", "sha256": "0" * 64, "name": "x", "claim": 1},
        "claim": claim,
        "verdict": "holds",
        "games": games,
        "proof": proof or {},
        **extra,
    }


def game(nodes: list) -> dict:
    return {"datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]], "root": len(nodes) - 1, "nodes": nodes}


def refused(doc: dict, limit: str) -> None:
    with pytest.raises(checker.TooLarge, match=f"--{limit}"):
        checker.check_certificate(json.loads(json.dumps(doc)))


def test_gdp_near_a_vertex_is_refused_not_looped_forever():
    """RR with p = 3/4 has the vertex (1/4, 3/4), where G_mu(1/4) = 1/4 exactly at mu = 2 Phi^-1(3/4):
    mu written to 600 digits needs Phi^-1 to about 2^-2000, a bisection that could also stall for ever
    (at 2^-4100 no midpoint was decided).  Bounds on Phi are now charged."""
    import mpmath

    with mpmath.workdps(700):
        mu = 2 * mpmath.sqrt(2) * mpmath.erfinv(mpmath.mpf(1) / 2)
        digits = mpmath.nstr(mu, 610, strip_zeros=False).replace(".", "")[:601]
    nodes = [{"id": 0, "end": True}, {"id": 1, "answer": [["0", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]]}]
    refused(cert({"M": game(nodes)}, {"kind": "gdp", "of": "M", "mu": f"{digits}/1{'0' * 600}"}), "max-steps")


def test_long_histories_count_in_max_histories():
    """A chain of 1,000 one-answer nodes above a DAG of 15 two-answer levels: the Farkas walk keeps
    about 2^16 histories of about 1,000 labels each (1.1 GB before)."""
    nodes = [{"id": 0, "end": True}]
    nodes += [{"id": k, "answer": [["0", ["1/2", "1/2"], k - 1], ["1", ["1/2", "1/2"], k - 1]]} for k in range(1, 16)]
    nodes += [{"id": k, "answer": [["a", ["1", "1"], k - 1]]} for k in range(16, 1016)]
    claim = {"kind": "not_simulates_rr", "of": "M", "delta": "0", "exp_eps": "2"}
    proof = {"farkas": [{"pair": ["x0", "x1"], "outputs": ["0", "1"], "multipliers": []}]}
    refused(cert({"M": game(nodes)}, claim, proof), "max-histories")


def test_big_weights_on_a_shared_dag_are_charged():
    """5 stacked answer nodes with 10 answers each, all to the node below, 500-digit probabilities:
    10^4 states whose weights grow by 1,000 digits a level (16 s before, accepted)."""
    rnd = random.Random(1)
    nodes = [{"id": 0, "end": True}]
    for k in range(1, 6):
        cols = []
        for _ in range(2):
            w = [rnd.randrange(10**499, 10**500) for _ in range(10)]
            cols.append([f"{x}/{sum(w)}" for x in w])
        nodes.append({"id": k, "answer": [[f"a{a}", [cols[0][a], cols[1][a]], k - 1] for a in range(10)]})
    refused(cert({"M": game(nodes)}, {"kind": "dp", "of": "M", "exp_eps": "2", "delta": "1"}), "max-steps")


@pytest.mark.parametrize("theorem, k", [("thm-1.8", 10), ("optimal", 23)])
def test_theorem_orders_and_subsets_are_charged_by_size(theorem, k):
    """k components that are only their end (the composition is one node): Theorem 1.8's 10! orders
    and the optimal theorem's 2^23 subsets took minutes, one step each."""
    g = game([{"id": 0, "end": True}])
    games = {f"C{i}": g for i in range(k)}
    lams = [str(2 + i) for i in range(k)]
    claim = {"kind": "composition", "of": list(games), "theorem": theorem, "deltas": [f"1/{10 + i}" for i in range(k)]}
    claim.update(eps=lams, **({"delta": "1/2"} if theorem == "optimal" else {}))
    refused(cert(games, claim, {"exp_eps": lams, "exp_privloss": "1"}), "max-steps")


def test_kl_coprime_base_gcds_are_charged_by_size():
    """KL on one answer node of 32 answers whose probabilities have 1,500-digit denominators: the
    coprime base's gcds (68 s before, accepted)."""
    rnd = random.Random(5)

    def dist() -> list:
        out = []
        for _ in range(16):
            n = rnd.randrange(10**1499, 10**1500)
            w = rnd.randrange(1, n)
            out += [str(Fraction(w, 16 * n)), str(Fraction(n - w, 16 * n))]
        return out

    p, q = dist(), dist()
    nodes = [{"id": 0, "end": True}, {"id": 1, "answer": [[f"a{a}", [p[a], q[a]], 0] for a in range(32)]}]
    claim = {"kind": "renyi", "of": "M", "alpha": "1", "relation": "at_most", "bound": [["e", "1"]]}
    refused(cert({"M": game(nodes)}, claim), "max-steps")


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from([1, 3, 1250]),
    st.lists(st.integers(-(10**30), 10**30), min_size=2, max_size=60),
    st.sampled_from([64, 256, 1024]),
)
def test_bounds_on_a_polynomial_in_t_enclose_it(L, coeffs, p):
    """The fixed-point Horner bounds (rounded outward at every step) contain a(t), t = e^(1/L), as
    mpmath computes it at 400 digits, and are within a few units of 2^-p times the terms' sum."""
    import mpmath

    core.Qt.L = L
    try:
        lo, hi = core.pvalue(tuple(coeffs), p)
    finally:
        core.Qt.L = 0
    with mpmath.workdps(400):
        t = mpmath.exp(mpmath.mpf(1) / L)
        true = sum(mpmath.mpf(c) * t**k for k, c in enumerate(coeffs))
        scale = sum(abs(mpmath.mpf(c)) * t**k for k, c in enumerate(coeffs)) + 1
        lo_, hi_ = (mpmath.mpf(x.numerator) / x.denominator for x in (lo, hi))
        assert lo_ <= true <= hi_
        assert hi_ - lo_ <= 8 * len(coeffs) * scale * mpmath.mpf(2) ** (4 - p) + mpmath.mpf(2) ** (8 - p) * len(coeffs)


def test_a_game_name_cannot_add_a_formula_to_the_statement():
    """A game named `M, 0) = log(3); PrivLoss(M`: its statement quotes the name, so the printed
    formula is only the one the checker proved (PrivLoss of that game at 1/5)."""
    name = "M, 0) = log(3); PrivLoss(M"
    nodes = [{"id": 0, "end": True}, {"id": 1, "answer": [["0", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]]}]
    doc = cert(
        {name: game(nodes)}, {"kind": "privloss", "of": name, "delta": "0", "relation": "equals", "exp_eps": "3"}
    )
    doc["proof"] = {"exp_privloss": "3"}
    said = checker.check_certificate(doc)
    assert 'PrivLoss("M, 0) = log(3); PrivLoss(M", 0) = log(3)' in said
    assert f"game {json.dumps(name)}: sha256" in said


@pytest.fixture(scope="module")
def symbol_certificate(tmp_path_factory) -> dict:
    """The library's certificate of PrivLoss(Mix, 0) = 3 log E for every E > 1 (a symbol)."""
    from click.testing import CliRunner

    from exactdp.cli.app import main

    out = tmp_path_factory.mktemp("certs")
    r = CliRunner().invoke(main, ["certify", "cases/parametric/bounded-range-rr.yaml", "-o", str(out), "-q"])
    assert r.exit_code == 0, r.output
    return json.loads((out / "bounded-range-rr" / "9-privloss.json").read_text())


def test_a_symbols_cells_share_one_budget(symbol_certificate):
    """PrivLoss <= log(E^3 + R(E)), R of degree 180 with positive coefficients, on 200 cells: each
    cell's Sturm sequence is just within --max-steps, and each cell used to start a fresh budget
    (238 s before, accepted)."""
    rnd = random.Random(3)
    doc = dict(symbol_certificate)
    q = [rnd.randint(1, 9) for _ in range(181)]
    q[3] += 1
    doc["claim"] = {**doc["claim"], "relation": "at_most", "exp_eps": ",".join(map(str, q)) + "/1"}
    ends = [1 + Fraction(k, 200) for k in range(200)]
    doc["cells"] = [
        {"from": str(a), "to": str(ends[k + 1]) if k + 1 < 200 else "inf", "proof": {"exp_privloss": "0,0,0,1/1"}}
        for k, a in enumerate(ends)
    ]
    doc["points"] = [{"at": str(b), "proof": {"exp_privloss": str(b**3)}} for b in ends[1:]]
    refused(doc, "max-steps")


def test_a_value_substituted_in_the_symbol_is_bounded_before_the_work(symbol_certificate):
    """The same certificate at E = (N + 1)/N, N of 2,000 digits, its claim a polynomial of degree
    1,000: Horner's rule on Fractions reaches 6.6 million bits (171 s before, then refused)."""
    doc = {k: v for k, v in symbol_certificate.items() if k not in ("cells", "points")}
    n = 10**1999 + 7
    doc.update(at=f"{n + 1}/{n}", verdict="fails")
    doc["claim"] = {**doc["claim"], "exp_eps": ",".join(["1"] * 1001) + "/1"}
    refused(doc, "max-bits")


def _end_then(kind: str, rows: list) -> list:
    return [{"id": 0, "end": True}, {"id": 1, kind: rows}]


def test_a_composition_of_many_components_is_charged_by_their_number():
    """ConComp of k one-query games has 2^k states of k components each: 100 such games (18 KB)
    took 1 GB before --max-states counted the nodes; building a state is charged by k."""
    g = game(_end_then("ask", [["a", 0]]))
    games = {f"G{i}": g for i in range(100)}
    claim = {"kind": "composition", "of": list(games), "theorem": "basic", "deltas": ["0"] * 100, "eps": [None] * 100}
    refused(cert(games, claim, {"exp_eps": ["1"] * 100, "exp_privloss": "1"}), "max-steps")


def test_copies_of_a_component_are_named_apart_from_every_game():
    """The second copy of G is G#2, unless a game of the certificate is named G#2 (then the proved
    statement, read with the listed games, would be about that game); and thousands of copies are
    named in linear time (the naming loop was cubic)."""
    rr = game(_end_then("answer", [["0", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]]))
    triv = game([{"id": 0, "end": True}])
    claim = {"kind": "composition", "of": ["G", "G"], "theorem": "basic", "deltas": ["0", "0"], "eps": [None, None]}
    out = checker.check_certificate(cert({"G": rr, "G#2": triv}, claim, {"exp_eps": ["3", "3"], "exp_privloss": "9"}))
    assert "ConComp(G, G#3)" in out and "ConComp(G, G#2)" not in out
    k = 3000
    claim = {"kind": "composition", "of": ["E"] * k, "theorem": "basic", "deltas": ["0"] * k, "eps": [None] * k}
    out = checker.check_certificate(cert({"E": triv}, claim, {"exp_eps": ["1"] * k, "exp_privloss": "1"}))
    assert f"E#{k}" in out.split("\n")[0]


def test_bounded_range_numbers_are_bounded_and_charged():
    """A chain of answers with ratios A/B and B/A of 30-digit A, B: the BR-range's products grow by
    about 200 bits a level and each level divides them (1,000 levels: 43 s before, uncharged)."""
    a, b = 10**29 + 7, 10**29 + 9
    s = a + b
    nodes = [{"id": 0, "end": True}]
    nodes += [
        {"id": k, "answer": [["u", [f"{a}/{s}", f"{b}/{s}"], k - 1], ["v", [f"{b}/{s}", f"{a}/{s}"], k - 1]]}
        for k in range(1, 1001)
    ]
    claim = {"kind": "bounded_range", "of": "G", "adversaries": "deterministic", "exp_eps": "2"}
    refused(cert({"G": game(nodes)}, claim, verdict="fails"), "max-steps")


def test_a_profile_comparison_is_linear_in_the_bends():
    """profile_le of a game against itself with 2^12 bends: each bend was evaluated over every edge
    (quadratic, uncharged: 85 s at 2^13); one sweep gives the same values, and it holds."""
    primes = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
    nodes = [{"id": 0, "end": True}]
    for k, p in enumerate(primes, 1):
        hi, lo = f"{p}/{p + 1}", f"1/{p + 1}"
        nodes.append({"id": k, "answer": [["a", [hi, lo], k - 1], ["b", [lo, hi], k - 1]]})
    out = checker.check_certificate(cert({"G": game(nodes)}, {"kind": "profile_le", "of": "G", "than": "G"}))
    assert out.startswith("proved")


def test_a_lone_surrogate_is_named_as_such(tmp_path):
    """JSON can escape a lone surrogate (\\ud800), which is no character: the fingerprint cannot
    encode it.  It was reported as "too large or deep to check (UnicodeEncodeError)"."""
    import subprocess
    import sys
    from pathlib import Path

    nodes = [{"id": 0, "end": True}, {"id": 1, "answer": [["\ud800", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]]}]
    claim = {"kind": "composition", "of": ["M", "M"], "theorem": "basic", "deltas": ["0", "0"], "eps": [None, None]}
    doc = cert({"M": game(nodes)}, claim, {"exp_eps": ["3", "3"], "exp_privloss": "9"})
    f = tmp_path / "s.json"
    f.write_text(json.dumps(doc))  # ensure_ascii: the surrogate is written as an escape
    folder = Path(checker.__file__).parent
    p = subprocess.run([sys.executable, "-I", "-S", str(folder), str(f)], capture_output=True, text=True)
    assert p.returncode == 2 and "not Unicode (a lone surrogate" in p.stdout, p.stdout


def test_a_composition_statement_quotes_its_components_and_marks_copies_apart():
    """A component named `RR2) - D_2(F` is quoted on both sides of a Renyi composition's statement
    (unquoted, the line read "D_2(ConComp) <= D_2(RR2)", false); a game named `R#2` is quoted, so it
    never reads as the second copy of R (written R#2)."""
    name = "RR2) - D_2(F"
    rr = _end_then("answer", [["0", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]])
    rr2 = _end_then("answer", [["0", ["2/3", "1/3"], 0], ["1", ["1/3", "2/3"], 0]])
    claim = {"kind": "composition", "of": ["F", name], "theorem": "renyi", "alpha": "2"}
    said = checker.check_certificate(cert({"F": game(rr), name: game(rr2)}, claim))
    assert 'claim: D_2(ConComp(F, "RR2) - D_2(F")) <= D_2(F) + D_2("RR2) - D_2(F")' in said
    triv = game([{"id": 0, "end": True}])
    claim = {"kind": "composition", "of": ["R", "R#2"], "theorem": "basic", "deltas": ["0", "0"], "eps": [None, None]}
    said = checker.check_certificate(
        cert({"R": game(rr), "R#2": triv}, claim, {"exp_eps": ["3", "1"], "exp_privloss": "3"})
    )
    assert 'ConComp(R, "R#2")' in said
    claim = {"kind": "composition", "of": ["R", "R"], "theorem": "basic", "deltas": ["0", "0"], "eps": [None, None]}
    said = checker.check_certificate(cert({"R": game(rr)}, claim, {"exp_eps": ["3", "3"], "exp_privloss": "9"}))
    assert "ConComp(R, R#2)" in said


def test_the_histories_of_every_walk_of_a_certificate_count_together():
    """--max-histories bounds all the simulation and Farkas walks of one certificate, not each: a
    Farkas entry repeated 40 times walked a million histories each (174 s, accepted)."""
    nodes = [{"id": 0, "end": True}]
    nodes += [{"id": k, "answer": [["0", ["1/2", "1/2"], k - 1], ["1", ["1/2", "1/2"], k - 1]]} for k in range(1, 15)]
    g = checker.core.Game("M", game(nodes), "games.M")
    walk = [(g, (0, 1), "a walk")]
    core._SPENT.update(histories=0, open=1)
    try:
        assert sum(1 for _ in checker.simulation.rounds(*walk[0])) == 2**14 - 1  # one walk: within the limit
        with pytest.raises(checker.TooLarge, match="--max-histories"):
            for _ in range(4):
                for _ in checker.simulation.rounds(*walk[0]):
                    pass
    finally:
        core._SPENT.update(histories=0, open=0)


def test_a_pair_listed_many_times_among_the_breaks_is_worked_once(monkeypatch):
    """proof.breaks lists pairs whose delta exceeds the claim's; each distinct pair is computed once
    (100 copies of one pair on a 50-level game took 74 s, the later ones uncharged)."""
    calls = []
    hockey = checker.core.hockey
    monkeypatch.setattr(checker.core, "hockey", lambda *a: calls.append(a[1]) or hockey(*a))
    rr = _end_then("answer", [["0", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]])
    claim = {"kind": "not_simulates_rr", "of": "M", "delta": "0", "exp_eps": "2"}
    said = checker.check_certificate(cert({"M": game(rr)}, claim, {"breaks": [["x0", "x1"]] * 100}))
    assert "T exists for 0 and for 1 not" in said and calls == [(0, 1)]


def test_chains_of_small_fractions_are_charged_by_their_work():
    """profile_le M <= M on 60 stacked four-answer nodes sharing one child: about 240 edges a level,
    each a few Fraction operations (about 1 us), charged 8 word operations an edge before (accepted
    after 25 s); now refused by --max-steps within seconds."""
    rows = [["a0", ["1/15", "7/15"]], ["a1", ["2/15", "1/3"]], ["a2", ["1/3", "2/15"]], ["a3", ["7/15", "1/15"]]]
    nodes = [{"id": 0, "end": True}]
    nodes += [{"id": k, "answer": [[lab, p, k - 1] for lab, p in rows]} for k in range(1, 61)]
    refused(cert({"M": game(nodes)}, {"kind": "profile_le", "of": "M", "than": "M"}), "max-steps")
