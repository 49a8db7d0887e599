"""One numbering of a file's claims in every output: the premises a form adds (checked first) are
numbered apart, so the file's claim k is "claim k" in the HTML report, "label": "k" in the JSON
report, k in export's notes and certify's file names, and k in the pytest plugin's ids."""

from __future__ import annotations

import json

from click.testing import CliRunner

from exactdp.cli import main
from exactdp.report.verdicts import claim_labels, label_words
from exactdp.verify import Options, verify_text

# one premise (Henzinger-Safavi-Vadhan Def. 4.4 (iv): the menu item B is (log 3, 0)-DP) and one
# claim of the file, which fails: P answers the query with probabilities (3/4, 1/4) against
# (1/4, 3/4), so delta_P(e^0) = 1/2, not 1/3
CASE = """exactdp: 1
name: labels
mechanisms:
  Step:
    automaton:
      states: [s]
      initial: s
      horizon: 1
      transitions:
        s:
          "0": {"0": {p: 3/4}, "1": {p: 1/4}}
          "1": {"0": {p: 1/4}, "1": {p: 3/4}}
  B: {continual: {mechanism: Step, verifier: {max_differing: 1}}}
  P: {sparse_parallel: {menu: {B: {mechanism: B, eps: log(3), delta: 0}}, params: [[log(3), 0]], cap: 1}}
claims:
  - delta: {of: P, eps: 0, equals: 1/3}
"""


def test_premises_are_numbered_apart_in_every_output(tmp_path):
    verdicts = verify_text(CASE, "labels.yaml", Options()).verdicts
    assert claim_labels(verdicts) == ["premise-1", "1"] and [v.status.value for v in verdicts] == ["holds", "fails"]
    assert [label_words(x) for x in claim_labels(verdicts)] == ["premise 1", "claim 1"]
    case = tmp_path / "labels.yaml"
    case.write_text(CASE)
    run = lambda *a: CliRunner().invoke(main, [*a])  # noqa: E731
    doc = json.loads(run("verify", str(case), "--json").output)
    assert [c["label"] for c in doc["files"][0]["claims"]] == ["premise-1", "1"]
    run("verify", str(case), "--html", str(tmp_path / "h"))
    page = (tmp_path / "h" / "labels.html").read_text()
    assert "claim 1: delta_P(e^0) = 1/3" in page and 'id="claim-premise-1"' in page and "claim 2" not in page
    r = run("export", str(case), "--latex", str(tmp_path / "v.tex"))
    assert "claim 1 (delta_P(e^0) = 1/3) fails" in r.output and "from 1 claim of" in r.output
