"""Hostile input, seventh round: a power that FLINT could not allocate, a witness whose views are
too long to list, command-line values with symbols, and symbols mixed with e^(1/10).  Each once
aborted the process, printed a wrong line, or was taken without the checks a case file gets."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from exactdp.cli import main
from exactdp.limits import FieldDegreeLimit
from exactdp.numbers.qt import qt_t


def test_a_power_in_the_field_is_bounded_before_flint_builds_it():
    """(1 + t)^70000 with t = e^(1/10): FLINT could not allocate it and aborted the process."""
    with pytest.raises(FieldDegreeLimit, match="degree 70000 in t"):
        (1 + qt_t(10)) ** 70000


def test_the_optimal_composition_of_many_decimal_steps_is_refused_by_a_named_limit(tmp_path):
    """70,000 steps of eps = 0.1 under theorem optimal: the masses' common denominator (1 + e^0.1)^70000
    aborted the whole run (exit 134, every other file's verdict lost); now that claim is undecided,
    with --max-field-degree named, and the other file in the run is verified."""
    bad = tmp_path / "a_bad.yaml"
    bad.write_text(
        "exactdp: 1\nname: fl4\nmechanisms:\n  C: {respond: {a: [1, 1]}}\nclaims:\n"
        "  - composition: {components: [C], eps: [0.1], times: 70000, interleave: sequential, theorem: optimal,"
        " delta: 1/100000}\n"
    )
    (tmp_path / "b_good.yaml").write_text(
        "exactdp: 1\nname: good\nmechanisms:\n  R: {rr: {eps: log(3)}}\nclaims:\n  - privloss: {delta: 0, equals: log(3)}\n"
    )
    r = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert r.exit_code == 2, r.output
    assert "--max-field-degree" in r.output and "degree 70000 in t" in r.output
    assert "good (1 claim holds)" in r.output
    r = CliRunner().invoke(main, ["compose", "--eps", "0.1,0.2", "--repeat", "2000", "--theorem", "optimal"])
    assert "degree 6000 in t" in r.output and "--max-field-degree" in r.output


def test_a_witness_whose_views_are_too_long_to_list_is_not_called_empty(tmp_path):
    f = tmp_path / "r.yaml"
    f.write_text(
        "exactdp: 1\nname: r4\nmechanisms:\n  RR: {rr: {eps: log(3)}}\n  K: {repeat: {mechanism: RR, times: 1000}}\n"
        "claims:\n  - dp: {of: K, eps: 1, delta: 0}\n"
    )
    r = CliRunner().invoke(main, ["verify", str(f)])
    assert r.exit_code == 1 and "(empty)" not in r.output
    assert "(its views are too long to list here)" in r.output
    r = CliRunner().invoke(main, ["privloss", str(f), "--of", "RR", "--witness"])
    assert "(empty)" not in r.output and "x0" in r.output


SYMBOLIC = (
    "exactdp: 1\nname: sd\nsymbols:\n  E: {gt: 1, lt: 10}\nmechanisms:\n  RE: {rr: {eps: log(E)}}\n"
    "claims:\n  - privloss: {of: RE, delta: 0, equals: log(E)}\n"
)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["privloss", "--of", "RE", "--delta", "E"], "could not prove --delta <= 1"),
        (["privloss", "--of", "RE", "--delta", "-E"], "could not prove --delta >= 0"),
        (["simulate", "--of", "RE", "--eps", "log(E)", "--delta", "E"], "could not prove --delta <= 1"),
        (["simulate", "--of", "RE", "--eps", "log(1/E)"], "could not prove e^--eps >= 1"),
    ],
)
def test_command_line_values_with_symbols_get_the_range_checks_of_a_case_file(tmp_path, args, message):
    """delta = E with 1 < E < 10 was taken (exit 0: 'PrivLoss = 0', and a post-processor for
    RR_(log E, E)); the same delta in a case file is refused."""
    f = tmp_path / "s.yaml"
    f.write_text(SYMBOLIC)
    r = CliRunner().invoke(main, [*args, str(f)])
    assert r.exit_code == 2 and message in r.output, r.output


def test_command_line_values_with_symbols_in_range_are_answered(tmp_path):
    """PrivLoss(RR_(log E), 1/(E + 1)): (E - lam)/(E + 1) <= 1/(E + 1) from lam = E - 1 on, so
    log(E - 1) for E >= 2 and 0 below (Vadhan & Wang 2021, Def. 1.7, by hand)."""
    f = tmp_path / "s.yaml"
    f.write_text(SYMBOLIC)
    r = CliRunner().invoke(main, ["privloss", "--of", "RE", "--delta", "1/(E+1)", str(f)])
    assert r.exit_code == 0 and "1 < E <= 2  0" in r.output and "2 < E < 10  log(E - 1)" in r.output
    r = CliRunner().invoke(main, ["delta", "--of", "RE", "--eps", "-log(E)", str(f)])
    assert r.exit_code == 0 and "(E - 1)/E" in r.output


@pytest.mark.parametrize(
    "mech",
    ["{rr: {eps: 0.1 + log(E)}}", "{respond: {a: [E*exp(0.1)/(1+E*exp(0.1)), 1/(1+E*exp(0.1))], b: [0, 1]}}"],
)
def test_a_symbol_mixed_with_exp_of_a_decimal_is_named_as_such(tmp_path, mech):
    """It was refused as 'could not prove e^eps >= 1' (or a probability >= 0), which is true."""
    f = tmp_path / "m.yaml"
    f.write_text(
        "exactdp: 1\nname: mx\nsymbols:\n  E: {gt: 1, lt: 4}\nmechanisms:\n  R: " + mech + "\n"
        "claims:\n  - privloss: {of: R, delta: 0, at_most: 2}\n"
    )
    r = CliRunner().invoke(main, ["verify", str(f)])
    assert r.exit_code == 2 and "mixes the symbols with the constant exp(1/10)" in r.output, r.output
    assert "could not prove" not in r.output


def test_a_kl_divergence_in_the_field_of_e_is_decided_not_aborted(tmp_path):
    """KL of a game with probabilities in Q(e) (1/10^5 against (e + 1)/10^5): a power formed
    unchecked made FLINT abort the process (exit 134).  The value, 2.16483e-5, is the larger of
    the two orders' sums of p log(p/p'), computed by hand: about 1.405e-5 and 2.165e-5."""
    f = tmp_path / "kl.yaml"
    f.write_text(
        "exactdp: 1\nname: kl4\nmechanisms:\n  M: {respond: {keep: [1/100000, (exp(1) + 1)/100000],"
        " drop: [99999/100000, 1 - (exp(1) + 1)/100000]}}\nclaims:\n"
        "  - renyi: {alpha: 1, at_most: 1/46000}\n  - renyi: {alpha: 1, exceeds: 1/46300}\n"
    )
    r = CliRunner().invoke(main, ["verify", str(f)])
    assert r.exit_code == 0 and "2 claims hold" in r.output, r.output
