"""Every claim kind through every output, in every kind of case: the seams between features.

A *cell* is one claim kind, true or false, in one variant of a small case — concrete numbers
(e^ε = 3), a decimal ε (0.1, so e^ε is transcendental), a symbol (E > 1) or a ``sweep:`` over ε —
run through one output: ``verify`` (text, ``-v``, ``--json``), ``verify --html``, ``export
--latex``, ``certify`` then the standalone checker, ``--jobs 2`` against ``--jobs 1``, the
enumerator against the profile engine, ``sweep --csv``/``--json``.  Every output must give the
exit status of ``verify`` (0 holds, 1 fails, 2 refused or undecided with a located message, never
an internal error), parse where it is JSON, and show the same verdict for every claim.

The expected verdicts are derived independently, for randomized response RR_ε (answers its bit
with probability e^ε/(1 + e^ε); Vadhan–Wang 2021, Def. 1.9): PrivLoss = ε, δ(e^0) = (e^ε − 1)/(e^ε + 1)
(total variation), bounded range 2ε (the two views' losses are ±ε), D_2 = log((E² − E + 1)/E) with
E = e^ε (Mironov 2017, Def. 3: (p²/q + q²/p) with p = E/(1 + E), q = 1/(1 + E); 7/3 at E = 3),
ε-DP implies ε²/2-zCDP (Bun–Steinke 2016, Prop. 1.4), T(RR_ε)(1/4) = 1 − E/4 for α ≤ 1/(1 + E)
(Dong–Roth–Su 2022, Def. 2.1: 1/4 at E = 3), RR_(2ε) simulates the composition of two RR_ε but
RR_ε does not (Vadhan–Wang 2021, Thm 1.10: the composition's PrivLoss is 2ε), and M ⪯ M∘M in
profile and trade-off order (composing only loses privacy).

The default run checks one file per variant and truth, holding every claim kind of that variant
(about 30 s on one core); ``EXACTDP_PRODUCTS=full`` runs each cell as its own file through every
output (several minutes).
"""

from __future__ import annotations

import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.cli import main

FULL = bool(os.environ.get("EXACTDP_PRODUCTS"))

HEADS = {
    "concrete": """mechanisms:
  M: {rr: {eps: log(3)}}
  T: {compose: [M, M]}
  T2: {repeat: {mechanism: M, times: 2}}
  G: {grr: {eps: log(16), t: log(4)}}
""",
    "decimal": """mechanisms:
  M: {rr: {eps: 0.1}}
  T: {compose: [M, M]}
  T2: {repeat: {mechanism: M, times: 2}}
""",
    "symbolic": """symbols:
  E: {gt: 1}
mechanisms:
  M: {rr: {eps: log(E)}}
  T: {compose: [M, M]}
  T2: {repeat: {mechanism: M, times: 2}}
""",
    "swept": """params:
  e: log(3)
sweep:
  e: [log(2), log(3)]
mechanisms:
  M: {rr: {eps: e}}
  T: {compose: [M, M]}
  T2: {repeat: {mechanism: M, times: 2}}
""",
}

ADVANCED_NOT_VALID = "composition: {components: [M, M], theorem: advanced, slack: 1/100, valid: false}"

# kind -> variant -> (a true claim, a false claim or None); values derived in the module docstring
CELLS: dict[str, dict[str, tuple[str, str | None]]] = {
    "privloss": {
        "concrete": ("privloss: {delta: 0, equals: log(3)}", "privloss: {delta: 0, equals: log(2)}"),
        "decimal": ("privloss: {delta: 0, equals: 0.1}", "privloss: {delta: 0, equals: 0.05}"),
        "symbolic": ("privloss: {delta: 0, equals: log(E)}", "privloss: {delta: 0, equals: log(E)/2}"),
        "swept": ("privloss: {delta: 0, equals: e}", "privloss: {delta: 0, equals: e/2}"),
    },
    "dp": {
        "concrete": ("dp: {eps: log(3)}", "dp: {eps: log(2)}"),
        "decimal": ("dp: {eps: 0.1}", "dp: {eps: 0.05}"),
        "symbolic": ("dp: {eps: log(E)}", "dp: {eps: log(3)}"),  # fails for E > 3
        "swept": ("dp: {eps: e}", "dp: {eps: e - log(3/2)}"),
    },
    "not_dp": {
        "concrete": ("not_dp: {eps: log(2)}", "not_dp: {eps: log(3)}"),
        "decimal": ("not_dp: {eps: 0.05}", "not_dp: {eps: 0.1}"),
        "symbolic": ("not_dp: {eps: 0}", "not_dp: {eps: log(E)}"),
        "swept": ("not_dp: {eps: e - log(3/2)}", "not_dp: {eps: e}"),
    },
    "delta": {
        "concrete": ("delta: {eps: 0, equals: 1/2}", "delta: {eps: 0, equals: 1/3}"),
        "decimal": ("delta: {eps: 0, equals: (exp(0.1) - 1)/(exp(0.1) + 1)}", "delta: {eps: 0, equals: 1/20}"),
        "symbolic": ("delta: {eps: 0, equals: (E - 1)/(E + 1)}", "delta: {eps: 0, equals: (E - 1)/E}"),
        "swept": ("delta: {eps: 0, equals: (exp(e) - 1)/(exp(e) + 1)}", "delta: {eps: 0, equals: 1/5}"),
    },
    "profile_eq": {v: ("profile_eq: {of: T, as: T2}", "profile_eq: {of: M, as: T}") for v in HEADS},
    "profile_le": {v: ("profile_le: {of: M, than: T}", "profile_le: {of: T, than: M}") for v in HEADS},
    "bounded_range": {
        "concrete": ("bounded_range: {of: G, eps: log(16)}", "bounded_range: {of: M, eps: log(3)}"),
        "decimal": ("bounded_range: {of: M, eps: 0.2}", "bounded_range: {of: M, eps: 0.1}"),
        "symbolic": ("bounded_range: {of: M, eps: 2*log(E)}", "bounded_range: {of: M, eps: log(E)}"),
        "swept": ("bounded_range: {of: M, eps: 2*e}", "bounded_range: {of: M, eps: e}"),
    },
    "not_bounded_range": {
        "concrete": ("not_bounded_range: {of: M, eps: log(3)}", "not_bounded_range: {of: M, eps: log(9)}"),
        "decimal": ("not_bounded_range: {of: M, eps: 0.1}", "not_bounded_range: {of: M, eps: 0.2}"),
        "symbolic": ("not_bounded_range: {of: M, eps: log(E)}", "not_bounded_range: {of: M, eps: 2*log(E)}"),
        "swept": ("not_bounded_range: {of: M, eps: e}", "not_bounded_range: {of: M, eps: 2*e}"),
    },
    "br_range": {
        "concrete": ("br_range: {of: M, equals: log(9)}", "br_range: {of: M, equals: log(3)}"),
        "decimal": ("br_range: {of: M, equals: 0.2}", "br_range: {of: M, equals: 0.1}"),
        "symbolic": ("br_range: {of: M, equals: 2*log(E)}", "br_range: {of: M, equals: log(E)}"),
        "swept": ("br_range: {of: M, equals: 2*e}", "br_range: {of: M, equals: e}"),
    },
    "simulates_rr": {
        "concrete": ("simulates_rr: {of: T, eps: log(9)}", "simulates_rr: {of: T, eps: log(3)}"),
        "decimal": ("simulates_rr: {of: T, eps: 0.2}", "simulates_rr: {of: T, eps: 0.1}"),
        "symbolic": ("simulates_rr: {of: M, eps: log(E)}", "simulates_rr: {of: T, eps: log(E)}"),
        "swept": ("simulates_rr: {of: T, eps: 2*e}", "simulates_rr: {of: T, eps: e}"),
    },
    "not_simulates_rr": {
        "concrete": ("not_simulates_rr: {of: T, eps: log(3)}", "not_simulates_rr: {of: T, eps: log(9)}"),
        "decimal": ("not_simulates_rr: {of: T, eps: 0.1}", "not_simulates_rr: {of: T, eps: 0.2}"),
        "symbolic": ("not_simulates_rr: {of: T, eps: log(E)}", "not_simulates_rr: {of: M, eps: log(E)}"),
        "swept": ("not_simulates_rr: {of: T, eps: e}", "not_simulates_rr: {of: T, eps: 2*e}"),
    },
    "composition": {
        "concrete": ("composition: {components: [M, M], theorem: optimal, delta: 0}", ADVANCED_NOT_VALID),
        "decimal": ("composition: {components: [M, M], theorem: optimal, delta: 0}", ADVANCED_NOT_VALID),
        "symbolic": ("composition: {components: [M, M], theorem: basic, delta: 0}", ADVANCED_NOT_VALID),
        "swept": ("composition: {components: [M, M], theorem: optimal, delta: 0}", ADVANCED_NOT_VALID),
    },
    "renyi": {
        "concrete": ("renyi: {of: M, alpha: 2, equals: log(7/3)}", "renyi: {of: M, alpha: 2, equals: log(2)}"),
        "decimal": ("renyi: {of: M, alpha: 2, at_most: 0.01}", "renyi: {of: M, alpha: 2, at_most: 0.001}"),
        "symbolic": (
            "renyi: {of: M, alpha: 2, equals: log((E^2 - E + 1)/E)}",
            "renyi: {of: M, alpha: 2, equals: log(E)}",
        ),
        "swept": ("renyi: {of: M, alpha: 2, at_most: e}", "renyi: {of: M, alpha: 2, at_most: e/100}"),
    },
    "zcdp": {
        "concrete": ("zcdp: {of: M, rho: log(3)^2/2}", "zcdp: {of: M, rho: 1/100}"),
        "decimal": ("zcdp: {of: M, rho: 1/200}", "zcdp: {of: M, rho: 1/1000}"),
        "symbolic": ("zcdp: {of: M, rho: log(E)^2/2}", "zcdp: {of: M, rho: log(E)^2/100}"),
        "swept": ("zcdp: {of: M, rho: e^2/2}", "zcdp: {of: M, rho: e^2/100}"),
    },
    "not_zcdp": {
        "concrete": ("not_zcdp: {of: M, rho: 1/100}", "not_zcdp: {of: M, rho: log(3)^2/2}"),
        "decimal": ("not_zcdp: {of: M, rho: 1/1000}", "not_zcdp: {of: M, rho: 1/200}"),
        "symbolic": ("not_zcdp: {of: M, rho: log(E)^2/100}", "not_zcdp: {of: M, rho: log(E)^2/2}"),
        "swept": ("not_zcdp: {of: M, rho: e^2/100}", "not_zcdp: {of: M, rho: e^2/2}"),
    },
    "conversion": {v: ("conversion: {of: M, theorem: renyi-to-dp, alpha: 2, delta: 1/100}", None) for v in HEADS},
    "fdp": {v: ("fdp: {of: M, f: T}", "fdp: {of: T, f: M}") for v in HEADS},
    "not_fdp": {v: ("not_fdp: {of: T, f: M}", "not_fdp: {of: M, f: T}") for v in HEADS},
    "gdp": {
        "concrete": ("gdp: {of: M, mu: 1.35}", "gdp: {of: M, mu: 1.34}"),
        "decimal": ("gdp: {of: M, mu: 0.2}", "gdp: {of: M, mu: 0.1}"),
        "symbolic": ("gdp: {of: M, mu: 2*E}", "gdp: {of: M, mu: (E - 1)/100}"),
        "swept": ("gdp: {of: M, mu: 2}", "gdp: {of: M, mu: 1/10}"),
    },
    "not_gdp": {
        "concrete": ("not_gdp: {of: M, mu: 1.34}", "not_gdp: {of: M, mu: 1.35}"),
        "decimal": ("not_gdp: {of: M, mu: 0.1}", "not_gdp: {of: M, mu: 0.2}"),
        "symbolic": ("not_gdp: {of: M, mu: (E - 1)/(100*E)}", "not_gdp: {of: M, mu: 2*E}"),
        "swept": ("not_gdp: {of: M, mu: 1/10}", "not_gdp: {of: M, mu: 2}"),
    },
    "tradeoff": {
        "concrete": ("tradeoff: {of: M, alpha: 1/4, equals: 1/4}", "tradeoff: {of: M, alpha: 1/4, equals: 1/2}"),
        "decimal": ("tradeoff: {of: M, alpha: 1/4, at_least: 0.7}", "tradeoff: {of: M, alpha: 1/4, at_least: 0.8}"),
        "symbolic": ("tradeoff: {of: M, alpha: 1/4, at_most: 3/4}", "tradeoff: {of: M, alpha: 1/4, at_most: 1/4}"),
        "swept": ("tradeoff: {of: M, alpha: 1/4, at_most: 3/4}", "tradeoff: {of: M, alpha: 1/4, at_most: 1/5}"),
    },
    "calibrate": {
        "symbolic": (
            "calibrate: {target: {dp: {of: M, eps: log(3)}}, holds_for: [{le: 3}]}",  # RR_ε is log(3)-DP iff E <= 3
            "calibrate: {target: {dp: {of: M, eps: log(3)}}, holds_for: [{le: 2}]}",
        )
    },
    "counterexample": {
        "symbolic": (
            "counterexample: {claim: {dp: {of: M, eps: log(3)}}, at: {E: 4}}",
            "counterexample: {claim: {dp: {of: M, eps: log(3)}}, at: {E: 2}}",
        )
    },
}

# cells that are refused or undecided (exit 2), each with the phrase its message must contain;
# they run with a small box budget (the undecided zCDP cell uses all of it, 2000 boxes by default)
SMALL = ("--max-symbol-boxes", "64")
REFUSED: dict[tuple[str, str, bool], str] = {
    # the post-processor of RR_ε has probabilities in e^ε: exact only for e^ε rational (simulate.md)
    ("decimal", "simulates_rr", True): "Write eps as log(r)",
    ("decimal", "simulates_rr", False): "Write eps as log(r)",
    ("decimal", "not_simulates_rr", True): "Write eps as log(r)",
    ("decimal", "not_simulates_rr", False): "Write eps as log(r)",
    # D_α/α and ρ both vanish as E -> 1: the enclosures cannot separate them there
    ("symbolic", "not_zcdp", True): "--max-symbol-boxes",
    # Gaussian DP with a symbol: T(M) and G_mu meet as E -> 1, and the range of E is unbounded
    ("symbolic", "gdp", True): "could not be decided",
    ("symbolic", "not_gdp", True): "could not be decided",
}


def cells() -> list[tuple[str, str, bool]]:
    return [
        (variant, kind, truth)
        for kind, by_variant in CELLS.items()
        for variant, pair in by_variant.items()
        for truth, claim in ((True, pair[0]), (False, pair[1]))
        if claim is not None
    ]


def claim_of(variant: str, kind: str, truth: bool) -> str:
    claim = CELLS[kind][variant][0 if truth else 1]
    assert claim is not None
    return claim


def case_text(name: str, variant: str, claims: list[str]) -> str:
    return f"exactdp: 1\nname: {name}\n{HEADS[variant]}claims:\n" + "".join(f"  - {c}\n" for c in claims)


def bundle(variant: str, truth: bool) -> list[str]:
    """Every decided claim of a variant, all true or all false."""
    return [claim_of(v, k, t) for v, k, t in cells() if v == variant and t == truth and (v, k, t) not in REFUSED]


# --- running the command line ----------------------------------------------------------------------------


def cli(*args: object) -> tuple[int, str]:
    """Exit status and output of ``exactdp ARGS`` in this process; an exception that escapes the
    command is an internal error (exit 3 and a traceback for a user), so it fails the test."""
    r = CliRunner().invoke(main, [str(a) for a in args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        pytest.fail(f"exactdp {' '.join(map(str, args))} raised:\n" + "".join(traceback.format_exception(r.exception)))
    assert "Traceback" not in r.output, r.output
    assert r.exit_code in (0, 1, 2), (r.exit_code, r.output)
    return r.exit_code, r.output


def statuses(report: dict) -> list[str]:
    """Every claim's status in a ``verify --json`` report, in order (a sweep: point after point)."""
    return [c["status"] for f in report["files"] for c in f.get("claims", [])]


def expected_exit(truth: bool) -> int:
    return 0 if truth else 1


def check_text_and_json(path: Path, want_exit: int, opts: tuple[str, ...] = ()) -> list[str]:
    """``verify``, ``verify -v`` and ``verify --json`` agree: exit status, and one mark per claim
    in the text for each status in the JSON.  Returns the statuses."""
    code, _ = cli("verify", *opts, path)
    assert code == want_exit
    vcode, verbose = cli("verify", "-v", "--ascii", *opts, path)
    jcode, out = cli("verify", "--json", *opts, path)
    report = json.loads(out)
    assert vcode == jcode == report["exit"] == want_exit, (vcode, jcode, report["exit"])
    got = statuses(report)
    marks = re.findall(r"^  \[(ok|FAIL|n/a|ERR)\]", verbose, flags=re.M)
    assert len(marks) == len(got), verbose
    for mark, status in zip(marks, got):
        assert {"ok": "holds", "FAIL": "fails", "n/a": "unsupported", "ERR": "error"}[mark] == status, (mark, status)
    return got


def check_html(tmp: Path, path: Path, want_exit: int, got: list[str], opts: tuple[str, ...] = ()) -> None:
    code, _ = cli("verify", "--html", tmp / "html", *opts, path)
    assert code == want_exit
    page = (tmp / "html" / f"{path.stem}.html").read_text(encoding="utf-8")
    shown = re.findall(r'<td class="mark s-(\w+)">[^<]*</td><td><a href="#claim-', page)  # the table of claims
    assert shown == got, (shown, got)
    if importlib.util.find_spec("matplotlib") is not None:  # every case here can be drawn
        assert "No plot: " not in page, re.findall(r"No plot: [^<]*", page)


def check_latex(tmp: Path, path: Path, want_exit: int, got: list[str], opts: tuple[str, ...] = ()) -> None:
    tex = tmp / "values.tex"
    code, _ = cli("export", "--latex", tex, *opts, path)
    assert code == want_exit
    said = re.findall(
        r"^% claim \d+: .*: (holds|does not hold|was not decided)", tex.read_text(encoding="utf-8"), flags=re.M
    )
    words = {"holds": "holds", "fails": "does not hold", "unsupported": "does not hold", "error": "was not decided"}
    assert said == [words[s] for s in got]


def check_certificates(tmp: Path, path: Path, want_exit: int, got: list[str], opts: tuple[str, ...] = ()) -> None:
    """``certify`` exits like ``verify``; every claim that holds has a certificate the standalone
    checker accepts, or is listed with the reason it has none; each has its LaTeX appendix."""
    out = tmp / "certs"
    code, report = cli("certify", "-o", out, "--format", "latex", *opts, path)
    assert code == want_exit
    written = sorted(out.rglob("*.json"))
    assert all(p.with_suffix(".tex").is_file() for p in written)
    holding = [k for k, s in enumerate(got, 1) if s == "holds"]
    certified = {int(p.name.split("-", 1)[0]) for p in written}
    for k in holding:
        assert k in certified or f"claim {k} (" in report, (k, report)
    if written:
        r = subprocess.run([sys.executable, "-m", "exactdp.checker", str(out)], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr


def check_sweep(tmp: Path, path: Path, want_exit: int, got: list[str], opts: tuple[str, ...] = ()) -> None:
    table = tmp / "sweep.csv"
    code, _ = cli("sweep", "--csv", table, *opts, path)
    jcode, out = cli("sweep", "--json", *opts, path)
    assert code == jcode == want_exit
    with open(table, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [r["status"] for r in rows] == got
    assert statuses(json.loads(out)) == got


# --- the default run: one file per variant and truth, every output --------------------------------------

BUNDLES = [(v, t) for v in HEADS for t in (True, False)]


@pytest.mark.parametrize(("variant", "truth"), BUNDLES, ids=[f"{v}-{'true' if t else 'false'}" for v, t in BUNDLES])
def test_every_kind_through_every_output(tmp_path, variant, truth):
    path = tmp_path / f"{variant}-{truth}.yaml"
    path.write_text(case_text(f"{variant}-{'t' if truth else 'f'}", variant, bundle(variant, truth)))
    want = "holds" if truth else "fails"
    got = check_text_and_json(path, expected_exit(truth))
    assert set(got) == {want}, got
    if variant == "swept":
        check_sweep(tmp_path, path, expected_exit(truth), got)
        return  # export and certificates are about one case; a sweep's points are checked above
    check_html(tmp_path, path, expected_exit(truth), got)
    check_latex(tmp_path, path, expected_exit(truth), got)
    if truth:
        check_certificates(tmp_path, path, 0, got)


@pytest.mark.parametrize(("variant", "kind", "truth"), sorted(REFUSED))
def test_refused_cells_say_where_and_why(tmp_path, variant, kind, truth):
    path = tmp_path / "refused.yaml"
    path.write_text(case_text("refused", variant, [claim_of(variant, kind, truth)]))
    code, out = cli("verify", *SMALL, path)
    assert code == 2 and str(path) in out and REFUSED[(variant, kind, truth)] in out, out
    jcode, jout = cli("verify", "--json", *SMALL, path)
    assert jcode == 2 and statuses(json.loads(jout)) == ["error"]  # undecided: `error` in the JSON report


def test_jobs_2_gives_the_verdicts_of_jobs_1(tmp_path):
    """Work items run in worker processes give the report of the in-process run, byte for byte
    (a sweep is one item per point)."""
    for variant in ("concrete", "swept"):
        for truth in (True, False):
            (tmp_path / f"{variant}-{truth}.yaml").write_text(
                case_text(f"{variant}-{'t' if truth else 'f'}", variant, bundle(variant, truth)[:6])
            )
    runs = [
        subprocess.run(
            [sys.executable, "-m", "exactdp", "verify", "--json", "--jobs", jobs, str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=300,
        )
        for jobs in ("1", "2")
    ]
    assert runs[0].returncode == runs[1].returncode == 1, runs[1].stderr
    assert json.loads(runs[0].stdout) == json.loads(runs[1].stdout)


# --- the full run: each cell on its own, every output, both engines --------------------------------------


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="set EXACTDP_PRODUCTS=full for every cell through every output")
@pytest.mark.parametrize(("variant", "kind", "truth"), cells())
def test_each_cell_through_every_output(tmp_path, variant, kind, truth):
    path = tmp_path / "cell.yaml"
    path.write_text(case_text("cell", variant, [claim_of(variant, kind, truth)]))
    refused = (variant, kind, truth) in REFUSED
    want, opts = (2, SMALL) if refused else (expected_exit(truth), ())
    got = check_text_and_json(path, want, opts)
    jcode, out = cli("verify", "--json", "--engine", "enumerator", *opts, path)
    assert jcode == want and statuses(json.loads(out)) == got
    if variant == "swept":
        check_sweep(tmp_path, path, want, got, opts)
        return
    check_html(tmp_path, path, want, got, opts)
    check_latex(tmp_path, path, want, got, opts)
    check_certificates(tmp_path, path, want, got, opts)


# --- defects the products found, each pinned where it showed ---------------------------------------------

KOV = Path(__file__).resolve().parents[1] / "cases" / "kov" / "slides-theorem-1-as-printed.yaml"


def test_html_report_of_a_composition_claim_with_an_interval_theorem(tmp_path):
    """advanced, kov-3.4 and kov-slides-1/2 give ε as a certified interval at the δ their slack
    fixes: the report draws the composition found and says the bound is not drawn (it drew the
    bound with no slack and crashed)."""
    pytest.importorskip("matplotlib")
    code, _ = cli("verify", "--html", tmp_path, KOV)
    assert code == 0
    page = (tmp_path / f"{KOV.stem}.html").read_text(encoding="utf-8")
    assert "the composition found; kov-slides-1: not drawn" in page


def test_plot_of_an_interval_theorem_draws_the_composition_and_says_why_not_the_bound(tmp_path):
    pytest.importorskip("matplotlib")
    code, out = cli("plot", KOV, "-o", tmp_path / "k.png")
    assert code == 0 and "kov-slides-1: not drawn (its eps is a certified interval" in out, out
    case = tmp_path / "c.yaml"
    case.write_text(case_text("c", "concrete", [claim_of("concrete", "privloss", True)]))
    code, out = cli("plot", case, "--of", "M,M", "--bound", "advanced", "-o", tmp_path / "a.svg")
    assert code == 0 and "advanced: not drawn" in out and (tmp_path / "a.svg").exists(), out


def test_plot_json_is_json(tmp_path):
    pytest.importorskip("matplotlib")
    case = tmp_path / "c.yaml"
    case.write_text(case_text("c", "concrete", [claim_of("concrete", "privloss", True)]))
    code, out = cli("plot", "--json", case, "-o", tmp_path / "p.svg")
    doc = json.loads(out)
    assert code == 0 and doc["file"] == str(tmp_path / "p.svg") and doc["curves"] == ["M"] and doc["kind"] == "profile"


def test_export_offers_no_json_it_would_ignore(tmp_path):
    case = tmp_path / "c.yaml"
    case.write_text(case_text("c", "concrete", [claim_of("concrete", "privloss", True)]))
    code, out = cli("export", "--json", "--latex", tmp_path / "v.tex", case)
    assert code == 2 and "No such option '--json'" in out and not (tmp_path / "v.tex").exists()


def test_export_of_a_sweep_says_it_checks_the_params_values_only(tmp_path):
    """At e = log(3) (the params: value) δ(e^0) = 1/2 holds; at e = log(2) it is 1/3: verify
    exits 1 and export, which checks the params: values, says so instead of passing silently."""
    case = tmp_path / "s.yaml"
    case.write_text(case_text("s", "swept", ["delta: {eps: 0, equals: 1/2}"]))
    assert cli("verify", case)[0] == 1
    r = CliRunner().invoke(main, ["export", "--latex", str(tmp_path / "v.tex"), str(case)])
    assert r.exit_code == 0
    assert "has a sweep: of 2 points; exported and checked at its params: values only" in r.stderr


def test_calibrate_without_symbols_says_it_needs_one(tmp_path):
    case = tmp_path / "c.yaml"
    case.write_text(case_text("c", "concrete", [claim_of("concrete", "privloss", True)]))
    code, out = cli("calibrate", case, "--target", "dp: {eps: log(3)}")
    assert code == 2 and "calibration needs a symbol, but the case declares none under `symbols:`" in out, out
    assert "undecided" not in out  # (a mistake in the question, not a limit of the method)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--target", ""], '--target: give a claim as in a case file, e.g. "dp: {eps: log(2)}"'),
        (["--target", "dp: {eps: log(2)}", "--symbol", "q"], "no symbol named 'q' to calibrate; the case declares p"),
        (["--target", "calibrate: {target: {dp: {eps: log(2)}}, holds_for: []}"], "the target is a calibrate claim"),
    ],
)
def test_calibrate_names_a_mistake_in_the_question_as_such(tmp_path, args, said):
    case = tmp_path / "p.yaml"
    case.write_text(
        "exactdp: 1\nname: p\nsymbols: {p: {gt: 0, lt: 1}}\nmechanisms:\n  N: {respond: {a: [p, 1 - p], b: [1 - p, p]}}\n"
        "claims:\n  - delta: {eps: 0, equals: 1}\n",
        encoding="utf-8",
    )
    code, out = cli("calibrate", case, *args)
    assert code == 2 and said in out and "undecided" not in out, out


def test_missing_graphviz_names_the_command_that_writes_dot(monkeypatch):
    from exactdp.report import dot

    monkeypatch.setattr(dot.shutil, "which", lambda _: None)
    with pytest.raises(dot.GraphvizMissingError, match=r"`exactdp info --dot` writes the DOT text"):
        dot.render_graphviz("digraph {}", "svg")


def test_export_says_undecided_not_error(tmp_path):
    """The status word of the JSON report is `error`; people read "undecided" (as in verify)."""
    case = tmp_path / "u.yaml"
    case.write_text(case_text("u", "decimal", [claim_of("decimal", "simulates_rr", True)]))
    r = CliRunner().invoke(main, ["export", "--latex", str(tmp_path / "v.tex"), str(case)])
    assert r.exit_code == 2 and r.stderr.rstrip().endswith("(T simulates RR_(1/5) (Thm 1.10)) undecided"), r.stderr
