"""A counterexample claim's certificate proves its *target* claim at the value: the file is named
after the case's claim (``N-counterexample.json``, docs/certificates.md), and the LaTeX appendix
gives the verdict of the claim in its heading, not the target's.

Known answer: RR_E at E = 3 has likelihood ratio 3 > 2 = e^eps, so it is not (log 2, 0)-DP there
(delta(2) = 3/4 - 2/4 = 1/4), and it is (log 4, 0)-DP there."""

from __future__ import annotations

import json

from click.testing import CliRunner

from exactdp.cli import main

CASE = """exactdp: 1
name: cx
symbols:
  E: {gt: 1}
mechanisms:
  M: {rr: {eps: log(E)}}
claims:
  - counterexample: {claim: {dp: {eps: log(2)}}, at: {E: 3}}
  - counterexample: {claim: {dp: {eps: log(4)}}, at: {E: 3}}
"""


def test_a_counterexample_certificate_is_named_and_written_up_as_the_case_claim(tmp_path):
    case = tmp_path / "cx.yaml"
    case.write_text(CASE)
    r = CliRunner().invoke(main, ["certify", str(case), "-o", str(tmp_path / "out"), "--format", "latex"])
    assert r.exit_code == 1, r.output  # the second counterexample fails
    folder = next((tmp_path / "out").iterdir())
    names = sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))
    assert names == ["1-counterexample.json", "1-counterexample.tex", "2-counterexample.json", "2-counterexample.tex"]
    one, two = (json.loads((folder / f"{k}-counterexample.json").read_text()) for k in (1, 2))
    assert (one["claim"]["kind"], one["verdict"], two["verdict"]) == ("dp", "fails", "holds")  # the target's
    tex1, tex2 = ((folder / f"{k}-counterexample.tex").read_text() for k in (1, 2))
    assert "the claim holds: the certificate proves that its target claim fails at that value" in tex1
    assert "the claim fails: the certificate proves that its target claim holds at that value" in tex2
