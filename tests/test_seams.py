"""The seams matrix: every claim kind, through every way a result leaves exactdp, with one and
with two worker processes.

The rows are generated from the declarations: every registered claim kind
(:data:`exactdp.claims.CLAIMS`) and every composition theorem the claim takes
(:mod:`exactdp.theorems.registry`) must have an example below, so a new one cannot be forgotten.
All examples go into one small case file with a two-point ``sweep:`` (randomized response with
e^ε = E = 2 and 3); each output runs once per ``--jobs`` value over the whole file:

* text (``verify -v``), ``--json`` and the HTML report (``verify --json --html``);
* the sweep's table, CSV and plot (``sweep --csv --plot``, and every claim's column drawn);
* certificates (``certify --check``, the standalone checker on each one);
* the pytest plugin (``pytest --exactdp-cases``);
* the LaTeX macros of ``export --latex`` (of the case at its first point: export takes no sweep).

Nothing may end in an internal error, and wherever one value per claim is shown (the sweep's
table and CSV, the plot, ``value`` in ``--json``, the HTML claim block) it is the claim kind's
declared value (:meth:`exactdp.claims.Claim.shown`), equal to the value derived independently
here, in each example's comment.  A claim kind that declares no value (``zcdp``: decided by
certified enclosures, no exact number to show) shows none anywhere and exports no macro.
"""

from __future__ import annotations

import csv
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

import pytest
from click.testing import CliRunner

from exactdp.claims import CLAIMS
from exactdp.cli import main
from exactdp.theorems import theorem_names

POINTS = {"log(2)": 2, "log(3)": 3}  # the swept e and E = e^e


def _frac(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _mu_star(E: int) -> float:
    """The least mu with RR_(log E) mu-GDP: its trade-off function has one vertex alpha = beta =
    1/(1 + E), so mu = Phi^-1(1 - alpha) - Phi^-1(beta) = 2 Phi^-1(E/(1 + E)) (Dong-Roth-Su
    2022, Def. 2.6)."""
    return 2 * NormalDist().inv_cdf(E / (1 + E))


@dataclass(frozen=True)
class Example:
    kind: str
    body: str  # the claim's mapping, in the case's names (M = RR_e, Z = RR_0, e, E)
    value: Callable[
        [int], str | float | None
    ]  # E -> the declared value (text, a float for a transcendental one, None: none)
    theorem: str | None = None


# RR with e^e = E: P = (E, 1)/(1 + E) under x0, P' = (1, E)/(1 + E) under x1 (Vadhan-Wang Def. 1.9).
EXAMPLES = [
    # PrivLoss(RR_e, 0) = e
    Example("privloss", "{delta: 0, equals: e}", lambda E: f"log({E})"),
    # delta_M(e^e) = 0: RR_e is (e, 0)-DP
    Example("dp", "{eps: e}", lambda E: "0"),
    # delta_M(1) = total variation = (E - 1)/(E + 1) > 0
    Example("not_dp", "{eps: 0}", lambda E: _frac(Fraction(E - 1, E + 1))),
    Example("delta", "{eps: 0, equals: (E - 1)/(E + 1)}", lambda E: _frac(Fraction(E - 1, E + 1))),
    # the same mechanism: the largest difference of the profiles is 0
    Example("profile_eq", "{as: M}", lambda E: "0"),
    Example("profile_le", "{than: M}", lambda E: "0"),
    # privacy losses log E and -log E: BR-range log(E^2) (Dong-Durfee-Rogers Def. 2.2)
    Example("bounded_range", "{eps: 2*e}", lambda E: f"log({E * E})"),
    Example("not_bounded_range", "{eps: e}", lambda E: f"log({E * E})"),
    Example("br_range", "{equals: 2*e}", lambda E: f"log({E * E})"),
    # RR_e is its own post-processing (Vadhan-Wang Thm 1.10): the eps shown is e; RR_0 cannot
    # simulate it (RR_e is not 0-DP)
    Example("simulates_rr", "{eps: e}", lambda E: f"log({E})"),
    Example("not_simulates_rr", "{eps: 0}", lambda E: "0"),
    # ConComp(RR_e, RR_e) answers two independent RRs: PrivLoss(., 0) = 2e = log(E^2), which is
    # what every (eps, delta) theorem gives for pure components
    *(
        Example("composition", f"{{components: [M, M], theorem: {t}}}", lambda E: f"log({E * E})", t)
        for t in ("basic", "improved-basic", "thm-1.8", "optimal")
    ),
    # D_2 adds up under independent composition: 2 log((E^2 - E + 1)/E) (Mironov 2017, Prop. 1)
    Example(
        "composition",
        "{components: [M, M], theorem: renyi, alpha: 2}",
        lambda E: f"log({_frac(Fraction(E * E - E + 1, E) ** 2)})",
        "renyi",
    ),
    # T(RR x RR) is the tensor product exactly (Dong-Roth-Su Def. 3.1): margin 0
    Example("composition", "{components: [M, M], theorem: fdp}", lambda E: "0", "fdp"),
    # sum P^2/P' = E^2/(1 + E) + 1/(E(1 + E)) = (E^2 - E + 1)/E
    Example("renyi", "{alpha: 2, equals: log((E^2 - E + 1)/E)}", lambda E: f"log({_frac(Fraction(E * E - E + 1, E))})"),
    Example("fdp", "{f: M}", lambda E: "0"),
    # T(RR_0) = 1 - alpha; T(M) - T(RR_0) is least at alpha = 1/(1 + E): 1/(1 + E) - E/(1 + E)
    Example("not_fdp", "{f: Z}", lambda E: _frac(Fraction(1 - E, 1 + E))),
    Example("gdp", "{mu: 3}", _mu_star),
    Example("not_gdp", "{mu: 1/2}", _mu_star),
    # pure eps-DP implies eps^2/2-zCDP (Bun-Steinke 2016, Prop. 1.4): eps^2/2 < 1 for eps = log 2, log 3;
    # KL(RR) = (E - 1)/(E + 1) log E >= 0.23 > 1/100, and D_alpha -> KL as alpha -> 1. No value shown.
    Example("zcdp", "{rho: 1}", lambda E: None),
    Example("not_zcdp", "{rho: 1/100}", lambda E: None),
    # T(RR)(alpha) = max(0, 1 - E alpha, (1 - alpha)/E): at the vertex alpha = 1/(1 + E), beta = 1/(1 + E)
    Example("tradeoff", "{alpha: 1/(1 + E), equals: 1/(1 + E)}", lambda E: _frac(Fraction(1, 1 + E))),
    # delta_M(e^eps') = (E - e^eps')/(1 + E) for eps' <= e: at delta 1/10, e^eps' = (9E - 1)/10; the bound
    # D_2 + log(10) (Mironov 2017, Prop. 3) is larger
    Example(
        "conversion",
        "{theorem: renyi-to-dp, delta: 1/10, alpha: 2}",
        lambda E: f"log({_frac(Fraction(9 * E - 1, 10))})",
    ),
    # ConComp(RR_e, RR_e): losses 2e, 0, -2e with Pr E^2, 2E, 1 (over (1 + E)^2); for eps' < 2e only the
    # first counts: delta = (E^2 - e^eps')/(1 + E)^2 = 1/10 at e^eps' = (9E^2 - 2E - 1)/10.  Each named
    # bound at slack 1/10 (its delta: 1/10, the components being pure) is larger (at least 2e, or
    # min(2e, ...) for the slides)
    *(
        Example(
            "composition",
            f"{{components: [M, M], theorem: {t}, slack: 1/10}}",
            lambda E: f"log({_frac(Fraction(9 * E * E - 2 * E - 1, 10))})",
            t,
        )
        for t in ("advanced", "kov-3.4", "kov-slides-1", "kov-slides-2")
    ),
    # S = RR_(log F) for every F > 1: it is (log 2)-DP exactly when F <= 2 (its PrivLoss is
    # log F); the answer is a set of values of F, not one number: no value (a table shows the text)
    Example(
        "calibrate",
        "{target: {dp: {of: S, eps: log(2)}}, holds_for: [{gt: 1, le: 2}]}",
        lambda E: "holds exactly where 1 < F <= 2",
    ),
    # "S is 0-DP" is false: at F = 2, delta_S(1) = (F - 1)/(F + 1) = 1/3, the value shown
    Example("counterexample", "{claim: {dp: {of: S, eps: 0}}, at: {F: 2}}", lambda E: "1/3"),
]

# kinds whose answer is not one number: no LaTeX macro, no column to plot
NO_SINGLE_VALUE = {"calibrate"}

CASE = (
    "exactdp: 1\n"
    "name: seams\n"
    "title: every claim kind on randomized response\n"
    "params: {e: log(2), E: exp(e)}\n"
    "sweep:\n  e: [log(2), log(3)]\n"
    "symbols: {F: {gt: 1}}\n"
    "mechanisms:\n  M: {rr: {eps: e}}\n  Z: {rr: {eps: 0}}\n  S: {rr: {eps: log(F)}}\n"
    "claims:\n" + "".join(f"  - {x.kind}: {x.body}\n" for x in EXAMPLES)
)


def test_every_claim_kind_and_composition_theorem_has_an_example():
    assert {x.kind for x in EXAMPLES} == set(CLAIMS), "a claim kind without an example in the seams matrix"
    assert {x.theorem for x in EXAMPLES if x.theorem} == set(theorem_names(claim=True))


def _matches(shown: str | None, expected: str | float | None) -> bool:
    if expected is None:  # a kind that declares no value shows none
        return shown in ("", None)
    if isinstance(expected, float):  # a transcendental value: a decimal within 1e-8 of it
        return abs(float(shown) - expected) < 1e-8
    return shown == expected


def _check_values(shown: list[list[str]], where: str, *, table: bool = False) -> None:
    """``shown[point][claim]`` is each example's expected value (a sweep table shows what was
    found where a kind declares no value)."""
    assert len(shown) == len(POINTS), (where, shown)
    for values, E in zip(shown, POINTS.values(), strict=True):
        for x, got in zip(EXAMPLES, values, strict=True):
            if x.kind in NO_SINGLE_VALUE:  # no value; where a table needs a cell, the text found
                assert got in (None, "", x.value(E)), f"{where}: {x.kind} {x.body} at E = {E} shows {got!r}"
                continue
            if table and x.value(E) is None:
                continue
            assert _matches(got, x.value(E)), f"{where}: {x.kind} {x.body} at E = {E} shows {got!r}"


@pytest.fixture(scope="module")
def case(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("seams") / "seams.yaml"
    p.write_text(CASE)
    return p


def run(*args: str):
    r = CliRunner().invoke(main, list(args))
    assert "internal error" not in r.output and "Traceback" not in r.output, r.output
    return r


JOBS = ["1", "2"]


@pytest.mark.parametrize("jobs", JOBS)
def test_text(case, jobs):
    r = run("verify", "-v", "--jobs", jobs, str(case))
    assert r.exit_code == 0, r.output
    claim_lines = [line for line in r.output.splitlines() if line.startswith("  ✓ ")]
    assert len(claim_lines) == len(EXAMPLES) * len(POINTS), r.output
    assert f"summary: {len(EXAMPLES) * len(POINTS)} claims in 1 file (2 sweep points)" in r.output


@pytest.mark.parametrize("jobs", JOBS)
def test_json_and_html(case, jobs, tmp_path):
    r = run("verify", "--json", "--jobs", jobs, "--html", str(tmp_path / "html"), str(case))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    _check_values([[c["value"] for c in f["claims"]] for f in doc["files"]], f"--json --jobs {jobs}")
    pages = sorted(p for p in (tmp_path / "html").glob("*.html") if p.name != "index.html")
    shown = []
    for page in pages:
        html = page.read_text()
        blocks = re.findall(r'id="claim-(\d+)">(.*?)</div>', html, re.S)
        values = {int(n): re.search(r'<p class="value">[^<]*: <code>([^<]*)</code>', b) for n, b in blocks}
        shown.append([values[n + 1].group(1) if values[n + 1] else "" for n in range(len(EXAMPLES))])
    _check_values(shown, f"--html --jobs {jobs}")


@pytest.mark.parametrize("jobs", JOBS)
def test_sweep_table_csv_and_plot(case, jobs, tmp_path):
    has_plot = True
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        has_plot = False
    out = tmp_path / "points.csv"
    args = ["sweep", "--jobs", jobs, "--csv", str(out), str(case)]
    if has_plot:
        args += ["--plot", str(tmp_path / "claim1.png")]
    r = run(*args)
    assert r.exit_code == 0, r.output
    rows = [line for line in r.stdout.splitlines() if line.startswith("e=")]
    table = [[cell.split(" ", 1)[1] for cell in re.split(r"\s{2,}", row)[1:]] for row in rows]
    _check_values(table, f"sweep table --jobs {jobs}", table=True)
    csv_rows = list(csv.DictReader(out.open()))
    by_point = [[row["value"] for row in csv_rows if row["e"] == e] for e in POINTS]
    _check_values(by_point, f"sweep CSV --jobs {jobs}")
    if not has_plot:
        pytest.skip("matplotlib (the extra 'plot') is not installed: the plot seam is not checked")
    assert (tmp_path / "claim1.png").stat().st_size > 0
    from exactdp.report.sweep import plot_sweep

    for k, x in enumerate(EXAMPLES, 1):  # every claim's value column can be drawn
        if x.value(2) is not None and x.kind not in NO_SINGLE_VALUE:
            assert plot_sweep(csv_rows, ["e"], "e", k, str(tmp_path / f"claim{k}.svg")) == len(POINTS), k


@pytest.mark.parametrize("jobs", JOBS)
def test_certificates(case, jobs, tmp_path):
    r = run("certify", "-o", str(tmp_path / "certs"), "--check", "--jobs", jobs, str(case))
    assert r.exit_code == 0, r.output
    assert "REJECTED" not in r.output and "MALFORMED" not in r.output, r.output
    assert re.search(r"checker: all \d+ certificate\(s\) accepted", r.output), r.output
    written = int(re.search(r"certificates: (\d+) written", r.output).group(1))
    missing = re.search(r"no certificate for (\d+) claim", r.output)
    assert written + (int(missing.group(1)) if missing else 0) == len(EXAMPLES) * len(POINTS), r.output


def test_pytest_plugin(case):
    env = dict(os.environ)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--exactdp-cases", str(case), str(case)]
    r = subprocess.run(cmd, cwd=case.parent, env=env, capture_output=True, text=True, timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert f"{len(EXAMPLES) * len(POINTS)} passed" in out and "Traceback" not in out, out


def test_latex_export(case, tmp_path):
    """Each claim's main macro (``\\exactdpSeamsClaimOne``...) is its declared value: its decimal
    macro is checked against the value derived above, at the first point (E = 2)."""
    from exactdp.numbers import ladder
    from exactdp.numbers.expr import eval_text
    from exactdp.report.latexvalues import number_words

    single = tmp_path / "seams.yaml"
    single.write_text(case.read_text().replace("sweep:\n  e: [log(2), log(3)]\n", ""))
    out = tmp_path / "values.tex"
    r = run("export", str(single), "--latex", str(out), "--digits", "12")
    assert r.exit_code == 0, r.output
    macros = dict(re.findall(r"^\\newcommand\{\\([A-Za-z]+)\}\{\\ensuremath\{(.*)\}\} % ", out.read_text(), re.M))
    for k, x in enumerate(EXAMPLES, 1):
        got = macros.get(f"exactdpSeamsClaim{number_words(k)}Decimal")
        if x.kind in NO_SINGLE_VALUE:
            assert got is None, f"claim {k} ({x.kind}) has no single value but exports {got}"
            continue
        expected = x.value(2)
        if expected is None:
            assert got is None, f"claim {k} ({x.kind} {x.body}) declares no value but exports {got}"
            continue
        assert got is not None, f"claim {k} ({x.kind} {x.body}) exports no value"
        want = expected if isinstance(expected, float) else float(ladder.decimal(eval_text(expected), 15))
        assert abs(float(got) - want) <= 1e-9 * max(1.0, abs(want)), f"claim {k} ({x.kind} {x.body}): {got} != {want}"


def test_every_claim_kind_has_words():
    """Each claim kind's verdict reads through a renderer of report/verdicts.py (its own, or its
    parent kind's)."""
    from exactdp.claims.core import PremiseClaim
    from exactdp.report.verdicts import RENDERERS, renderer_of

    assert [k for k, cls in CLAIMS.items() if renderer_of(cls) is None] == []
    kinds = {vars(c).get("kind") for _, cls in CLAIMS.items() for c in (cls, *cls.__mro__)}
    assert set(RENDERERS) - kinds == {PremiseClaim.kind}  # no renderer for a kind that does not exist
