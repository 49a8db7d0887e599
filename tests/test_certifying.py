"""Certificates of a run as a library (exactdp/certifying.py): certify_paths writes what the
standalone checker accepts (read back from disk), a rerun replaces only what certify wrote, and
game_fingerprints gives the checker's own fingerprints of the games of a case."""

from __future__ import annotations

import json
from pathlib import Path

from exactdp import checker
from exactdp.caseio import load_case
from exactdp.certifying import MANIFEST, certify_paths, game_fingerprints

ROOT = Path(__file__).resolve().parents[1]
FIGURE1 = ROOT / "cases" / "vadhan-wang" / "figure1-two-round.yaml"


def test_certify_paths_writes_certificates_the_checker_accepts(tmp_path):
    result, writer = certify_paths([FIGURE1], tmp_path)
    assert result.exit_code == 0
    assert writer.written and not writer.missing
    for path, cert in writer.written:
        assert path.parent == tmp_path / FIGURE1.stem
        assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(cert))
        checker.check_certificate(checker.load(path))  # the referee's step, from the file
    assert writer.check() == [f"checker: all {len(writer.written)} certificate(s) accepted"]
    assert writer.summary()[0] == f"certificates: {len(writer.written)} written to {tmp_path}"


def test_a_rerun_removes_only_what_certify_wrote(tmp_path):
    _, first = certify_paths([FIGURE1], tmp_path)
    folder = tmp_path / FIGURE1.stem
    mine = folder / "notes.txt"
    mine.write_text("kept")
    stale = folder / "99-privloss.json"
    stale.write_text("{}")
    (folder / MANIFEST).write_text((folder / MANIFEST).read_text() + "99-privloss.json\n")
    _, second = certify_paths([FIGURE1], tmp_path)
    assert mine.read_text() == "kept" and not stale.exists()
    assert sorted(p.name for p, _ in second.written) == sorted(p.name for p, _ in first.written)


def test_game_fingerprints_are_the_checkers(tmp_path):
    _, writer = certify_paths([FIGURE1], tmp_path)
    prints, missing = game_fingerprints(load_case(str(FIGURE1)))
    assert missing == []
    cert = writer.written[0][1]
    # the checker's fingerprint of the game it checked, read from the certificate
    assert checker.fingerprints(cert)["M"] == prints["M"]


def test_claims_with_different_pairs_get_one_fingerprint_each(tmp_path):
    """Two claims of one mechanism on different pairs (group 2, and the pair (x0, x2)) check two
    different games with one label: info lists both, named apart by their claims, so that every
    game a certificate of the case holds has its fingerprint listed."""
    case = tmp_path / "two.yaml"
    case.write_text(
        "exactdp: 1\nname: two\ndatasets: [x0, x1, x2]\nadjacent: [[x0, x1], [x1, x2]]\n"
        "mechanisms:\n  M: {respond: {y: [2/3, 1/2, 1/3], n: [1/3, 1/2, 2/3]}}\n"
        "claims:\n  - dp: {eps: log(4), group: 2}\n  - dp: {eps: log(2), pairs: [[x0, x2]]}\n"
    )
    prints, missing = game_fingerprints(load_case(str(case)))
    _, writer = certify_paths([case], tmp_path / "out")
    checked = {d for _, cert in writer.written for d in checker.fingerprints(cert).values()}
    assert missing == [] and len(checked) == 2 and checked <= set(prints.values())
    assert {'"M (the claim\'s pairs) [claim 1]"', '"M (the claim\'s pairs) [claim 2]"'} <= set(prints)  # (quoted)


def test_scopes_inside_a_calibration_target_and_one_order_claims_get_fingerprint_lines(tmp_path):
    """The scope of a calibration or counterexample is written inside its target: its game is
    listed too; a one-order claim's game has no certificate, so it is listed without a fingerprint
    (the checker refused the whole list before)."""
    case = tmp_path / "s.yaml"
    case.write_text(
        "exactdp: 1\nname: s\ndatasets: [x0, x1, x2]\nadjacent: [[x0, x1], [x1, x2]]\nsymbols:\n  E: {gt: 1}\n"
        "mechanisms:\n  M: {respond: {y: [E/(1+E), 1/2, 1/(1+E)], n: [1/(1+E), 1/2, E/(1+E)]}}\n"
        "claims:\n  - calibrate: {target: {dp: {eps: log(2), delta: 1/10, pairs: [[x0, x2]]}}, holds_for: [{gt: 1, le: 7/3}]}\n"
        "  - privloss: {pairs: [[x0, x2]], ordered: true, delta: 0, at_most: log(E)}\n"
    )
    prints, missing = game_fingerprints(load_case(str(case)))
    assert any("the claim's pairs" in name for name in prints)
    assert [name for name, _ in missing] == ["M (the claim's ordered pairs)"]


def test_a_field_games_fingerprint_does_not_depend_on_the_other_mechanisms(tmp_path):
    """A discrete Laplace mechanism of scale 1 (probabilities in Q(e)) next to RR at eps = 0.5:
    the case's games are written in Q(e^(1/2)), and the canonical form's least L was read from
    the numerator's and denominator's exponents run together, which put odd exponents in the
    denominator and kept L = 2: the fingerprint differed from the certificate's game's."""
    f = tmp_path / "fp.yaml"
    f.write_text(
        "exactdp: 1\nname: fp\nmechanisms:\n  M1: {discrete_laplace: {scale: 1, bounds: [-2, 2], data: [0, 1]}}\n"
        "  M2: {rr: {eps: 0.5}}\nclaims:\n  - privloss: {of: M1, delta: 0, equals: 1}\n"
    )
    _, writer = certify_paths([f], tmp_path / "certs")
    both, _ = game_fingerprints(load_case(str(f)))
    alone, _ = game_fingerprints(load_case(str(f)), of="M1")
    assert checker.fingerprints(writer.written[0][1])["M1"] == both["M1"] == alone["M1"]


def test_every_game_of_a_case_gets_its_fingerprint_within_the_checkers_default_budget():
    """The case's games were read in one document, under one --max-steps budget (and the budget
    spent by earlier fingerprints was never reset): dp-accounting's privacy-loss mechanisms, whose
    certificates the checker accepts one by one, were refused together."""
    case = load_case(str(ROOT / "cases" / "known" / "dp-accounting-privacy-loss-mechanism.yaml"))
    first, _ = game_fingerprints(case)
    again, _ = game_fingerprints(case)
    assert first == again and len(first) >= 8
