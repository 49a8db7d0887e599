"""The case library, certified and checked end to end: ``exactdp certify cases/ --format latex -o DIR`` then
the standalone checker (run as ``python -I -S exactdp/checker DIR``: standard library only)
accepts every certificate.  Claims without a certificate are symbolic ones the checker cannot check
for every value (several symbols, irrational break points, calibrated sets, transcendental or
Renyi values, the Renyi composition theorem over a symbol), a claim
at one eps on a game whose histories reach the checker's default --max-states, and the kinds and
cases the checker does not recompute (zCDP over Q(e^(1/L)), with a rho that is not rational or
tight near alpha = 1, zcdp-to-dp conversions, Renyi values known by
certified enclosures or on probabilities in Q(e^(1/L)), named composition bounds), each with its reason.

Both steps run as two processes in parallel (half the case files each) to keep the wall time
down; everything happens once per test session."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = sorted((ROOT / "cases").rglob("*.yaml"))
# two certify processes share one output directory, named per case file by its stem: files with
# the same stem (fdp/ and renyi/concurrent-composition.yaml) go to the same process, which keeps
# their directories apart (two processes would race for one directory)
_STEMS = sorted({f.stem for f in CASES})
HALVES = [[f for f in CASES if _STEMS.index(f.stem) % 2 == k] for k in (0, 1)]
NO_CERTIFICATE_REASONS = re.compile(
    r"the mechanism or eps is symbolic|the checker's default --max-states"
    r"|several symbols \(.*\): the checker decides signs of polynomials in one symbol"
    r"|decided by certified boxes \(.*\): there are no exact cells for the checker"
    r"|a break point is irrational \(.*\): the checker's cells have rational ends"
    r"|a Renyi or KL divergence with a symbol: the checker compares logarithms by rational bounds"
    r"|Gaussian DP is transcendental in the symbol \(Phi\): no exact cells"
    r"|a simulation of RR with a symbol: the checker's tables and Farkas multipliers are numbers"
    r"|an end of the calibrated set is irrational \(.*\): the checker's cells are rational"
    r"|the calibrated set has a single point \(.*\): the checker.s sets are unions of intervals"
    r"|a delta claim false on an interval: the checker certifies its failure only at a value"
    r"|a Renyi composition theorem with a symbol: the checker compares divergences of numbers"
    r"|conversion claims with zcdp-to-dp(-cks)? have no certificate yet: the premise \(rho-zCDP\)"
    r"|zCDP certificates need rational probabilities"
    r"|rho is not rational \(it is written with log or exp\)"
    r"|D_alpha/alpha comes too close to rho"
    r"|zCDP with a symbol: zCDP bounds D_alpha at every real order, and the checker bounds one order at a time"
    r"|at a non-integer order is transcendental in general \(exactdp decides it by a certified enclosure\)"
    r"|KL and fractional-order Renyi certificates need rational probabilities: these lie in Q\(e\^\(1/L\)\)"
    r"|over Q\(e\^\(1/L\)\) raises probabilities of degree \d+ in e\^\(1/L\) to powers of degree \d+"
    r"|named bounds, times or sequential interleaving have no certificate"
    r"|is a polynomial of degree beyond \d+ in t = e\^\(1/\d+\), the checker's default --max-degree"
    r"|a conversion theorem with a symbol: the checker evaluates no conversion theorem"
    r"|a value lies in Q\(e\^\(1/L\)\) \(a decimal eps, or e\^q in a bound\): the checker's cells hold rational"
    r"|is the logarithm of a number of Q\(e\^\(1/L\)\): the checker compares divergences with a rational plus"
    r"|a claim about one order of a pair \(`ordered: true`\): the checker takes both orders"
)


def _parallel(commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    procs = [subprocess.Popen(c, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    out = []
    for p, c in zip(procs, commands):
        stdout, stderr = p.communicate(timeout=900)
        out.append(subprocess.CompletedProcess(c, p.returncode, stdout, stderr))
    return out


@pytest.fixture(scope="session")
def library(tmp_path_factory):
    out = tmp_path_factory.mktemp("certs")
    exe = [sys.executable, "-m", "exactdp", "certify", "-q", "--format", "latex", "-o", str(out)]
    certify = _parallel([exe + [str(f) for f in HALVES[0]], exe + [str(f) for f in HALVES[1]]])
    dirs = sorted(p for p in out.iterdir() if p.is_dir())
    check = [sys.executable, "-I", "-S", str(ROOT / "exactdp" / "checker"), "-q"]
    checked = _parallel([check + [str(d) for d in dirs[0::2]], check + [str(d) for d in dirs[1::2]]])
    return out, certify, checked


def test_certify_exits_like_verify(library):
    _, certify, _ = library
    for p in certify:
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]


def test_the_standalone_checker_accepts_every_certificate(library):
    out, _, checked = library
    total = len(list(out.rglob("*.json")))
    accepted = 0
    for p in checked:
        assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
        accepted += int(re.search(r"(\d+) accepted, 0 rejected, 0 other case, 0 malformed", p.stdout).group(1))
    assert accepted == total > 250


def test_only_unsupported_kinds_and_irrational_eps_lack_a_certificate(library):
    out, certify, _ = library
    missing = [line for p in certify for line in p.stdout.splitlines() if line.startswith("  ") and ": claim " in line]
    for line in missing:
        assert NO_CERTIFICATE_REASONS.search(line), line
    claims = sum(int(re.search(r"summary: (\d+) claims", p.stdout).group(1)) for p in certify)
    assert claims == len(list(out.rglob("*.json"))) + len(missing)


def test_every_certificate_has_its_latex_appendix(library):
    """--format latex renders every certificate of the library (every claim kind, proof shape and
    cell proof), beside its JSON, with the claim in its heading."""
    out, _, _ = library
    for f in out.rglob("*.json"):
        tex = f.with_suffix(".tex").read_text()
        assert tex.count(r"\subsection*{Claim ") == 1 and r"\end{tabular}" in tex, f


def test_certificates_validate_against_the_schema(library):
    """The smallest certificate of every shape (claim kind, verdict, top-level keys, proof objects) in the
    library validates against docs/certificate.schema.json (all of them would take minutes)."""
    import json

    jsonschema = pytest.importorskip("jsonschema")
    out, _, _ = library
    schema = json.loads((ROOT / "docs" / "certificate.schema.json").read_text())
    smallest: dict = {}
    for f in out.rglob("*.json"):
        cert = json.loads(f.read_text())
        shape = (cert["claim"]["kind"], cert["verdict"], tuple(sorted(cert)), tuple(sorted(cert.get("proof", {}))))
        if shape not in smallest or f.stat().st_size < smallest[shape][0]:
            smallest[shape] = (f.stat().st_size, cert)
    assert len(smallest) >= 20
    for _, cert in smallest.values():
        jsonschema.validate(cert, schema)
