"""``exactdp compose`` (issue 4): exact theorem values on the command line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from exactdp.cli import main


def run(*args):
    return CliRunner().invoke(main, ["compose", *args])


def test_compose_issue_example_all_theorems():
    r = run("--eps", "log(2),log(3)", "--delta", "0,1/10", "--delta-g", "1/1000")
    assert r.exit_code == 0, r.output
    assert "basic           eps_g = log(6) ≈ 1.79175946923   delta_g = 1/10" in r.output
    assert "thm-1.8" in r.output and "order 1, 0" in r.output
    assert "optimal         eps_g = inf" in r.output  # 1/1000 < 1 - (9/10)
    assert "valid (>= the exact optimum)" in r.output


def test_compose_optimal_pure_exact_log():
    r = run("--eps", "log(2),log(3)", "--delta-g", "1/10", "--theorem", "optimal")
    assert r.exit_code == 0
    assert "eps_g = log(24/5) ≈ 1.56861591791" in r.output  # cases/vadhan-wang/concomp-two-interactive.yaml


def test_compose_decimal_eps_json_is_exact():
    r = run("--eps", "0.1", "--repeat", "30", "--delta-g", "1e-6", "--theorem", "optimal", "--json")
    assert r.exit_code == 0
    d = json.loads(r.output)
    row = d["theorems"][0]
    assert row["eps"].startswith("log(") and "exp(" in row["eps"]  # log of an element of Q(e^(1/10))
    assert len(d["components"]) == 30


def test_compose_profile_staircase():
    r = run("--eps", "log(2),log(3)", "--theorem", "optimal", "--profile")
    assert r.exit_code == 0
    assert "eps = 0" in r.output and "delta = 1/2" in r.output
    assert "eps = log(3/2)" in r.output and "delta = 3/8" in r.output
    assert "eps = log(6)" in r.output


def test_compose_bad_input_is_exit_2_with_message():
    r = run("--eps", "log(2),x")
    assert r.exit_code == 2 and "unknown name 'x'" in r.output
    r = run("--eps", "log(2),log(3)", "--delta", "0,0,0")
    assert r.exit_code == 2 and "2 eps values but 3 delta values" in r.output
    r = run("--eps", "log(2)", "--delta", "3/2")
    assert r.exit_code == 2 and "[0, 1]" in r.output
