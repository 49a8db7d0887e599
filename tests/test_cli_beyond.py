"""``exactdp renyi``, ``exactdp tradeoff`` and ``exactdp profile --dominating-pair``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from exactdp.cli import main

CASE = "exactdp: 1\nname: c\nmechanisms:\n  M: {rr: {eps: log(3)}}\n  D: {rr: {eps: log(3), delta: 1/10}}\nclaims: [{dp: {eps: log(3)}}]\n"


def run(tmp_path: Path, *args):
    p = tmp_path / "c.yaml"
    p.write_text(CASE)
    return CliRunner().invoke(main, [a if a != "CASE" else str(p) for a in args])


def test_renyi_text_exact_with_decimal(tmp_path):
    r = run(tmp_path, "renyi", "CASE", "--alpha", "1,2,3,4,inf")
    assert r.exit_code == 0, r.output
    assert r.output.splitlines() == [
        "D_1(M) = log(3)/2 ≈ 0.549306",
        "D_2(M) = log(7/3) ≈ 0.847298",
        "D_3(M) = log(61/9)/2 ≈ 0.956825",
        "D_4(M) = log(547/27)/3 ≈ 1.00287",
        "D_inf(M) = log(3) ≈ 1.09861",
    ]


def test_renyi_json_and_enumerator(tmp_path):
    a = json.loads(run(tmp_path, "renyi", "CASE", "--alpha", "3", "--json").output)
    b = json.loads(run(tmp_path, "renyi", "CASE", "--alpha", "3", "--json", "--engine", "enumerator").output)
    assert a["values"][0]["renyi"] == "log(61/9)/2" and a["values"][0]["pairs"][0]["sum"] == "61/9"
    assert a["values"] == b["values"]


def test_renyi_infinite_and_bad_alpha(tmp_path):
    assert run(tmp_path, "renyi", "CASE", "--of", "D").output.strip() == "D_2(D) = inf"
    r = run(tmp_path, "renyi", "CASE", "--alpha", "1.5")
    assert r.exit_code == 2 and "alpha = 3/2 is not supported" in r.output


def test_tradeoff_text_and_json(tmp_path):
    r = run(tmp_path, "tradeoff", "CASE", "--of", "D")
    assert r.exit_code == 0
    assert "T(D) (largest f with D f-DP):" in r.output and "T(D(x0), D(x1)):" in r.output
    assert "alpha = 9/40" in r.output  # (1 - delta)/(1 + e^eps), Dong-Roth-Su Prop. 2.5
    d = json.loads(run(tmp_path, "tradeoff", "CASE", "--of", "D", "--json").output)
    assert d["envelope"]["vertices"] == [["0", "9/10"], ["9/40", "9/40"], ["9/10", "0"], ["1", "0"]]


def test_dominating_pair(tmp_path):
    r = run(tmp_path, "profile", "CASE", "--of", "D", "--dominating-pair")
    assert r.exit_code == 0 and "log(3)" in r.output and "inf" in r.output
    d = json.loads(run(tmp_path, "profile", "CASE", "--of", "D", "--dominating-pair", "--json").output)
    assert d["P"] == ["1/10", "27/40", "9/40", "0"] and d["P_prime"] == ["0", "9/40", "27/40", "1/10"]
    assert d["privacy_loss"] == ["inf", "log(3)", "log(1/3)", "-inf"]


def test_the_number_of_renyi_orders_is_a_named_limit(tmp_path):
    """A list of 20,000 orders ran for minutes (each order is a whole analysis); it is refused
    at once by --max-orders (default 100), in one line, before the case is read."""
    import subprocess
    import sys
    import time

    p = tmp_path / "c.yaml"
    p.write_text(CASE)
    many = ",".join(str(k) for k in range(2, 20002))
    t = time.monotonic()
    r = subprocess.run(
        [sys.executable, "-m", "exactdp", "renyi", str(p), "--alpha", many], capture_output=True, text=True, timeout=60
    )
    assert time.monotonic() - t < 30
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert r.stderr.splitlines() == [
        "exactdp: the number of Renyi orders in --alpha (20000) exceeds the limit of 100; raise it with --max-orders N"
    ]
    ok = run(tmp_path, "renyi", "CASE", "--alpha", ",".join(str(k) for k in range(2, 8)), "--max-orders", "6")
    assert ok.exit_code == 0 and len(ok.output.splitlines()) == 6, ok.output
    assert run(tmp_path, "renyi", "CASE", "--alpha", "2,3,4", "--max-orders", "2").exit_code == 2
