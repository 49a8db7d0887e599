"""Certificates for claims with a symbol (docs/certificates.md, "Claims with a symbol"): the
checker's statements on the library's parametric cases, its refusal of every mutant whose claim is
false (a changed closed form, a cell that misses part of the domain, a cell end moved over a root,
a flipped verdict, a counterexample at a value where the claim holds), fingerprints bound to
``exactdp info --fingerprint --at``, and accepted certificates against the concrete engine at
random rational points of each cell (hypothesis).

Closed forms: Kairouz, Oh & Viswanath 2015, Thm 3.3 (k-fold RR), as derived in the comments of
cases/parametric/kfold-rr.yaml and two-round-break-point.yaml."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import flint
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp import checker
from exactdp.analysis.engine import make_engine
from exactdp.caseio import load_case
from exactdp.certifying import certify_paths, game_fingerprints
from exactdp.claims import HOLDS, Analysis
from exactdp.claims.parametric import analysis_at, claim_at

CASES = Path(__file__).resolve().parents[1] / "cases" / "parametric"
FILES = (
    "kfold-rr.yaml",
    "two-round-break-point.yaml",
    "bounded-range-rr.yaml",
    "rr-eps-delta.yaml",
    "tradeoff-rr.yaml",
)


@pytest.fixture(scope="module")
def certs(tmp_path_factory) -> dict:
    """Every certificate certify writes for five parametric cases, by "<stem>/<file name>"."""
    out = tmp_path_factory.mktemp("symcerts")
    _, writer = certify_paths([CASES / f for f in FILES], out)
    return {f"{p.parent.name}/{p.name}": json.loads(p.read_text()) for p, _ in writer.written}


def check(cert: dict) -> str:
    return checker.check_certificate(json.loads(json.dumps(cert)))


def refused(cert: dict, *words: str) -> str:
    with pytest.raises((checker.Rejected, checker.Malformed)) as e:
        check(cert)
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)


def test_every_certificate_is_accepted_and_states_its_domain(certs):
    assert len(certs) >= 20
    for name, cert in certs.items():
        out = check(cert)
        claim = next(line for line in out.split("\n") if line.startswith("claim: "))
        if "cells" in cert:
            said = "holds exactly where" if "holds_for" in cert else "claim: for every "
            assert out.startswith("proved: for every ") and said in claim, name
            assert claim.endswith("-- holds"), name
        elif "symbol" in cert:  # the checker substitutes the value
            assert claim.startswith("claim: at "), name
        else:  # numeric games, labelled with the values
            assert "the games are the case's at " in out.split("\n")[-1], name
    out = check(certs["kfold-rr/1-privloss.json"])
    assert out.split("\n")[:2] == [
        "proved: for every E with 1 < E: PrivLoss(R, 0) = log(E)",
        "claim: for every E with 1 < E: PrivLoss(R, 0) = log(E) -- holds",
    ]


def test_a_counterexample_states_the_substituted_claim_and_fails(certs):
    cert = certs["kfold-rr/9-counterexample.json"]
    assert cert["at"] == "2" and cert["verdict"] == "fails"
    out = check(cert).split("\n")
    assert out[0] == "proved: at E = 2: delta_M2(2) = 2/9"  # (4 - 2)/9, KOV Thm 3.3 at E = 2
    assert out[1] == "claim: at E = 2: delta_M2(2) = 1/3 -- FALSE (the certificate refutes it)"


def test_a_counterexample_with_two_symbols_labels_its_numeric_games(certs):
    cert = certs["rr-eps-delta/5-counterexample.json"]
    assert cert["at"] == {"E": "3", "d": "1/10"} and "symbol" not in cert
    out = check(cert).split("\n")
    assert out[:2] == ["proved: delta_R(3) = 1/10", "claim: R is (log(3), 0)-DP -- FALSE (the certificate refutes it)"]
    assert out[-1].startswith("unverified") and out[-1].endswith("the games are the case's at E = 3, d = 1/10")
    digest = out[2].split("sha256 ")[1].split(";")[0]
    case = load_case(str(CASES / "rr-eps-delta.yaml"))
    assert game_fingerprints(case, at={"E": Fraction(3), "d": Fraction(1, 10)})[0]["R"] == digest


def test_the_counterexample_fingerprint_is_the_substituted_game(certs):
    out = check(certs["kfold-rr/9-counterexample.json"])
    digest = next(
        line.split("sha256 ")[1].split(";")[0] for line in out.split("\n") if line.startswith("game M2 at E = 2")
    )
    case = load_case(str(CASES / "kfold-rr.yaml"))
    prints, missing = game_fingerprints(case, at={"E": Fraction(2)})
    assert prints["M2"] == digest and not missing
    symbolic, _ = game_fingerprints(case)
    assert symbolic["M2"] != digest and symbolic["M2"] in check(certs["kfold-rr/4-delta.json"])


def test_a_break_point_the_checker_needs_is_a_cell_end(certs):
    """Which option the worst adversary takes changes at p = 1/4 and 3/4 (the engine's pieces); the
    checker's own comparisons also change sign at p = 1/2, where certify cut the cell."""
    cert = certs["two-round-break-point/4-profile_le.json"]
    assert [c["from"] for c in cert["cells"]] == ["0", "1/4", "1/2", "3/4"]
    assert [p["at"] for p in cert["points"]] == ["1/4", "1/2", "3/4"]
    lines = check(cert).split("\n")
    assert lines[0].startswith("proved: for every p with 0 < p < 1/4:")
    assert "at p = 1/2:" in lines[3]


# --- mutants whose claim is false (or whose proof does not prove it) are refused -------------------


def mutants(certs: dict) -> list[tuple[str, dict, str]]:
    out = []
    pl = certs["kfold-rr/1-privloss.json"]
    m = copy.deepcopy(pl)
    m["cells"][0]["proof"]["exp_privloss"] = "0,0,1"  # e^PrivLoss = E^2: a changed closed form
    out.append(("closed form", m, "is not log(E^2)"))
    m = copy.deepcopy(pl)
    m["claim"]["exp_eps"] = "0,0,1"  # the claim PrivLoss = 2 log(E), false for one RR
    m["cells"][0]["proof"]["exp_privloss"] = "0,1"
    out.append(("claimed value", m, "it fails"))
    m = copy.deepcopy(pl)
    m["cells"][0]["from"] = "2"  # 1 < E <= 2 left out
    out.append(("a cell misses part of the domain", m, "do not cover"))
    m = copy.deepcopy(pl)
    m["symbol"] = {"name": "E", "gt": "0"}  # a wider domain, where RR is not a distribution... nor log(E) >= 0
    m["cells"][0]["from"] = "0"
    out.append(("a domain the claim is false on", m, ""))
    m = copy.deepcopy(pl)
    m["verdict"] = "fails"  # a flipped verdict
    out.append(("flipped verdict", m, "verdict"))
    d = certs["kfold-rr/4-delta.json"]
    m = copy.deepcopy(d)
    m["claim"]["equals"] = "-1,1/1,1"  # (E - 1)/(E + 1), the false companion, for every E
    out.append(("delta closed form", m, "it fails"))
    pr = certs["two-round-break-point/4-profile_le.json"]
    m = copy.deepcopy(pr)
    m["cells"][1]["to"], m["cells"][2]["from"], m["points"][1]["at"] = "3/5", "3/5", "3/5"  # over p = 1/2
    out.append(("a cell end moved over a root", m, "changes sign inside the cell"))
    m = copy.deepcopy(pr)
    m["cells"] = [{"from": "0", "to": "1", "proof": {}}]  # one cell over every break point
    m["points"] = []
    out.append(("cells merged over the break points", m, "changes sign inside the cell"))
    m = copy.deepcopy(pr)
    del m["points"][1]
    out.append(("a cell end without its point", m, "points"))
    m = copy.deepcopy(pr)
    m["cells"][3]["to"] = "2"  # beyond p < 1, where the game is no distribution
    out.append(("a cell beyond the domain", m, "do not cover"))
    ce = certs["kfold-rr/9-counterexample.json"]
    m = copy.deepcopy(ce)
    m["verdict"] = "holds"  # the counterexample's failure flipped
    out.append(("counterexample verdict", m, "it fails"))
    m = copy.deepcopy(ce)
    m["at"] = "1"  # outside E > 1 (where delta is 0 = (E - 1)/(E + 1))
    out.append(("a value outside the domain", m, "at:"))
    m = copy.deepcopy(ce)
    m["claim"]["equals"] = "0,-1,1/1,2,1"  # the true (E^2 - E)/(1 + E)^2: no longer refuted
    out.append(("a counterexample to a true claim", m, "it holds"))
    lab = certs["rr-eps-delta/5-counterexample.json"]  # numeric games labelled with E = 3, d = 1/10 (two symbols)
    m = copy.deepcopy(lab)
    m["verdict"] = "holds"  # RR_(log 3, 1/10) is not (log 3, 0)-DP: delta(3) = 1/10
    out.append(("a labelled counterexample flipped", m, "it fails"))
    m = copy.deepcopy(lab)
    m["claim"]["delta"] = "1/10"  # (log 3, 1/10)-DP holds: no counterexample
    out.append(("a labelled counterexample to a true claim", m, "it holds"))
    m = copy.deepcopy(ce)
    node = m["games"]["M2"]["nodes"][1]["answer"]
    node[0][1][0] = "0,2/1,1"  # 2E/(1 + E): not a distribution
    out.append(("a game that is not a distribution", m, "not a distribution"))
    t = certs["tradeoff-rr/1-tradeoff.json"]  # T(RR_E)(1/4) = 1 - E/4 for 1 < E <= 3
    m = copy.deepcopy(t)
    m["claim"]["bound"] = "5,-1/5"  # 1 - E/5
    out.append(("a trade-off value changed", m, "it fails"))
    m = copy.deepcopy(t)
    m["claim"]["alpha"] = "1/2"  # T(1/2) = 1/(2E), never 1 - E/4 on 1 < E <= 3 (E = 2 +- sqrt(2))
    out.append(("a trade-off point moved", m, "it fails"))
    return out


def test_every_mutant_is_refused(certs):
    ms = mutants(certs)
    assert len(ms) >= 12
    for what, m, words in ms:
        try:
            refused(m, *([words] if words else []))
        except BaseException as e:  # (name the mutant that got through)
            raise AssertionError(f"mutant not refused as expected: {what}") from e


def test_hostile_symbol_fields_are_malformed(certs):
    pl = certs["kfold-rr/1-privloss.json"]
    for change in (
        {"symbol": {"name": "E; rm", "gt": "1"}},
        {"symbol": {"name": "E", "gt": "1", "ge": "1"}},
        {"symbol": {"name": "E", "gt": "1", "lt": "1"}},
        {"field": "exp(1/2)"},
        {"cells": []},
    ):
        refused({**pl, **change})
    m = copy.deepcopy(pl)
    m["claim"]["exp_eps"] = "exp(1/3)"
    refused(m, "exp(q)")


# --- accepted certificates against the concrete engine, at random rational points of each cell ----


def _analysis(stem: str):
    case = load_case(str(CASES / f"{stem}.yaml"))
    return case, Analysis(dict(case.mechanisms), make_engine("profile"), symbols=case.symbols)


def _point_in(cell: dict, u: Fraction) -> Fraction:
    lo, hi = (None if cell[k] in ("inf", "-inf") else Fraction(cell[k]) for k in ("from", "to"))
    if lo is not None and hi is not None:
        return lo + (hi - lo) * u
    return lo + u / (1 - u) if lo is not None else hi - u / (1 - u)  # (u in (0, 1))


def _value(text: str, s: Fraction) -> Fraction:
    num, _, den = text.partition("/")
    ev = [sum(int(c) * s**k for k, c in enumerate(part.split(","))) for part in (num, den or "1")]
    return Fraction(ev[0]) / ev[1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(u=st.fractions(min_value=Fraction(1, 1000), max_value=Fraction(999, 1000)), k=st.integers(0, 10**6))
def test_accepted_cells_agree_with_the_concrete_engine(certs, u, k):
    names = sorted(n for n, c in certs.items() if "cells" in c)
    name = names[k % len(names)]
    cert = certs[name]
    cell = cert["cells"][k % len(cert["cells"])]
    s = _point_in(cell, u)
    case, an = _analysis(name.split("/")[0])
    claim = case.claims[int(name.split("/")[1].split("-")[0]) - 1]
    inside = _member(cert, s) if "holds_for" in cert else True
    claim = claim.target if claim.kind == "calibrate" else claim
    pt = {cert["symbol"]["name"]: flint.fmpq(s.numerator, s.denominator)}
    there = claim_at(claim, an, pt).check(analysis_at(an, pt))
    assert (there.status == HOLDS) == inside, (name, s)
    if "exp_privloss" in cell["proof"]:  # the cell's closed form is e^PrivLoss at s
        lam = analysis_at(an, pt).profile(claim.subject).least_lambda(claim_at(claim, an, pt).delta)
        assert Fraction(str(lam)) == _value(cell["proof"]["exp_privloss"], s), (name, s)
    base = {k: v for k, v in json.loads(json.dumps(cert)).items() if k not in checker.symbol.SYMBOL_KEYS}
    verdict = "holds" if inside else "fails"  # the checker, at s
    assert checker.symbol.at_value(base, cert["symbol"]["name"], s, cell["proof"], verdict)


def _member(cert: dict, s: Fraction) -> bool:
    def ok(iv: dict) -> bool:
        tests = {"gt": s.__gt__, "ge": s.__ge__, "lt": s.__lt__, "le": s.__le__}
        return all(tests[k](Fraction(v)) for k, v in iv.items())

    return any(ok(iv) for iv in cert["holds_for"])


def test_a_calibration_is_certified_on_cells(certs):
    """PrivLoss(M, 0) = log(3) exactly where 1/4 <= p <= 3/4 (cases/parametric/two-round-break-point.yaml):
    (1 - p)/p > 3 below 1/4 and p/(1 - p) > 3 above 3/4."""
    cert = certs["two-round-break-point/1-calibrate.json"]
    assert cert["holds_for"] == [{"ge": "1/4", "le": "3/4"}]
    lines = check(cert).split("\n")
    assert (
        lines[0] == "proved: for every p with 0 < p < 1/4: PrivLoss(M, 0) = log((1 - p)/p) (so the claim fails there)"
    )
    assert "claim: PrivLoss(M, 0) = log(3) holds exactly where 1/4 <= p <= 3/4, for 0 < p < 1 -- holds" in lines
    for wrong, words in (
        ([{"ge": "1/4", "lt": "3/4"}], "it holds"),  # leaves out p = 3/4, where it holds
        ([{"ge": "1/4", "le": "1/2"}], "cell"),  # 1/2 is no cell end
        ([{"gt": "0", "lt": "1"}], "it fails"),  # everywhere
        ([], "it holds"),  # nowhere
    ):
        refused({**cert, "holds_for": wrong}, words)
    m = copy.deepcopy(cert)
    m["cells"][0]["proof"]["exp_privloss"] = "3"  # log(3) on 0 < p < 1/4 too
    refused(m, "is not log(3)")


def test_a_denominator_negative_at_t_is_cleared():
    """Regression: for lam = -t/(t - 3) in Q(e) (about 9.6, its denominator negative at t = e) the
    checker computed delta_RR3(lam) = (2t - 3)/(t - 3) < 0 and accepted that claim; it is 0 (RR with
    ratio 3 < lam: Vadhan & Wang 2021, Def. 1.7)."""
    g = {"datasets": ["x0", "x1"], "pairs": [["x0", "x1"], ["x1", "x0"]], "root": 1}
    g["nodes"] = [{"id": 0, "end": True}, {"id": 1, "answer": [["0", ["3/4", "1/4"], 0], ["1", ["1/4", "3/4"], 0]]}]
    cert = {"format": "exactdp-certificate", "version": 2, "field": "exp(1/1)", "verdict": "holds", "proof": {}}
    cert |= {"case": {"file": "x.yaml", "sha256": "0", "name": "x", "claim": 1}, "games": {"R": g}}
    cert["claim"] = {"kind": "delta", "of": "R", "exp_eps": "0,-1/-3,1", "equals": "-3,2/-3,1"}
    refused(cert, "it fails")
    assert check({**cert, "claim": {**cert["claim"], "equals": "0"}}).startswith("proved: delta_R(-t/(-3 + t)) = 0")


def test_info_prints_the_fingerprints_at_a_value(certs):
    from click.testing import CliRunner

    from exactdp.cli import main

    case = str(CASES / "kfold-rr.yaml")
    r = CliRunner().invoke(main, ["info", case, "--fingerprint", "--at", "E=2"])
    assert r.exit_code == 0, r.output
    assert "M2: sha256 " + game_fingerprints(load_case(case), at={"E": Fraction(2)})[0]["M2"] in r.output
    for bad in ("E2", "E=x", "F=2", "E=1/2"):  # not SYMBOL=VALUE, not rational, undeclared, outside E > 1
        r = CliRunner().invoke(main, ["info", case, "--fingerprint", "--at", bad])
        assert r.exit_code == 2 and "--at" in r.output and "Traceback" not in r.output, (bad, r.output)


def test_a_false_counterexample_gets_the_certificate_of_its_claim_at_the_value(tmp_path):
    """A counterexample that fails (its claim holds at the value: PrivLoss(RR_2, 0) = log 2) is
    certified by the claim at the value, which the checker finds true."""
    case = tmp_path / "false-counterexample.yaml"
    text = (CASES / "kfold-rr.yaml").read_text().split("claims:")[0]
    case.write_text(
        text + "claims:\n  - counterexample:\n      claim: {privloss: {of: R, delta: 0, equals: log(E)}}\n"
        "      at: {E: 2}\n"
    )
    _, writer = certify_paths([case], tmp_path / "out")
    assert not writer.missing and len(writer.written) == 1
    cert = writer.written[0][1]
    assert (
        cert["verdict"] == "holds" and check(cert).split("\n")[1] == "claim: at E = 2: PrivLoss(R, 0) = log(2) -- holds"
    )


def test_the_command_line_reports_a_sign_change_as_rejected(certs, tmp_path, capsys):
    """A cell over which a polynomial the checks need changes sign (SignChange, a kind of Rejected)
    is reported as REJECTED with exit status 1, not as a traceback from the command line."""
    cert = copy.deepcopy(certs["bounded-range-rr/8-br_range.json"])
    cert["claim"]["equals"] = "2"  # BR-range = log 2: E^6 - 2 changes sign on the cell 1 < E
    with pytest.raises(checker.SignChange):
        check(cert)
    (tmp_path / "c.json").write_text(json.dumps(cert))
    assert checker.main([str(tmp_path / "c.json")]) == 1
    out = capsys.readouterr().out
    assert "c.json: REJECTED:" in out and "changes sign inside the cell 1 < E" in out, out


def test_a_claim_kind_that_is_not_a_string_is_malformed(certs):
    """A list as the kind of a claim with a symbol once raised TypeError inside the checker (an
    internal error); it is a malformed certificate (found by fuzzing the checker)."""
    m = copy.deepcopy(certs["tradeoff-rr/1-tradeoff.json"])
    m["claim"]["kind"] = [["2", "1"]]
    refused(m, "claim.kind")


def test_an_empty_bound_of_the_symbol_is_malformed(certs):
    """ "gt": "" once read as no lower bound and then compared with the upper one (TypeError, an
    internal error; found by fuzzing the checker)."""
    m = copy.deepcopy(certs["tradeoff-rr/1-tradeoff.json"])
    m["symbol"]["gt"] = ""
    refused(m, "symbol.gt")


def test_composition_theorems_for_every_value_of_the_symbol(tmp_path):
    """cases/parametric/composition-rr.yaml (RR_E, E > 1; its comments derive the values): basic
    and optimal for ConComp(R, R), where PrivLoss(ConComp, 0) = 2 log(E) and each e^eps_i = E, and
    basic for ConComp(S, R) with S = RR_(E^2), are certified on the one cell E > 1 with those
    rational functions as proof; each proof checks at a value too (the checker substitutes it), and
    a changed e^PrivLoss or e^eps_i, or a delta the claim does not have, is refused.  The optimal
    composition at delta = 1/10 breaks at an irrational E (its reason is listed), and the Renyi
    theorem compares divergences, which have no rational form (listed too)."""
    _, writer = certify_paths([CASES / "composition-rr.yaml"], tmp_path)
    got = {p.name: json.loads(p.read_text()) for p, _ in writer.written}
    missing = dict(writer.missing)
    comps = {n: c for n, c in got.items() if c["claim"]["kind"] == "composition" and "cells" in c}
    assert sorted(comps) == ["1-composition.json", "2-composition.json", "7-composition.json"], (sorted(got), missing)
    proofs = {n: c["cells"][0]["proof"] for n, c in comps.items()}
    assert proofs["1-composition.json"] == {"exp_eps": ["0,1/1", "0,1/1"], "exp_privloss": "0,0,1/1"}
    assert proofs["7-composition.json"] == {"exp_eps": ["0,0,1/1", "0,1/1"], "exp_privloss": "0,0,0,1/1"}
    for name, cert in comps.items():
        out = check(cert)
        assert out.split("\n")[1].startswith("claim: for every E with 1 < E: PrivLoss(ConComp(") and "-- holds" in out
        base = {k: v for k, v in cert.items() if k not in ("cells", "points")}
        for x in ("3/2", "2", "17"):
            assert "-- holds" in check({**base, "at": x, "proof": cert["cells"][0]["proof"]}), (name, x)
        for key, bad in (("exp_privloss", "0,1/1"), ("exp_eps", ["0,1/1", "0,0,1/1"]), ("exp_eps", ["1", "0,1/1"])):
            mutant = copy.deepcopy(cert)
            mutant["cells"][0]["proof"][key] = bad
            refused(mutant)
        mutant = copy.deepcopy(cert)
        mutant["claim"]["delta"] = "1/2"
        refused(mutant)
    assert "a break point is irrational" in next(why for where, why in missing.items() if "claim 3 " in where)
    assert "divergences of numbers" in next(why for where, why in missing.items() if "claim 5 " in where)
