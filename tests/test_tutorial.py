"""The tutorial notebook (docs/tutorial.ipynb) runs top to bottom in a fresh kernel, and shows
what it says it shows: the game of a mechanism, a plot of its profile, the witness of a false
claim, the HTML report's table, a certificate accepted by the standalone checker, LaTeX macros.

The notebook is stored without outputs (the docs site executes it too); this test is what runs
it in ``make test``."""

from __future__ import annotations

from pathlib import Path

import pytest

from .system_tools import available

nbformat = pytest.importorskip("nbformat", reason="the test extra (nbformat, nbclient, ipykernel) is not installed")
nbclient = pytest.importorskip("nbclient", reason="the test extra (nbformat, nbclient, ipykernel) is not installed")
pytest.importorskip("ipykernel", reason="the test extra (nbformat, nbclient, ipykernel) is not installed")
pytest.importorskip("matplotlib", reason="the tutorial draws plots: the extra 'plot' is not installed")

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "tutorial.ipynb"


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    cwd = tmp_path_factory.mktemp("tutorial")
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}})
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any error
    return nb, cwd


def _outputs(nb) -> list[tuple[str, dict]]:
    """(source, output) for every output of every code cell."""
    return [(c.source, o) for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def _data(nb, mime: str, source_has: str) -> str:
    for src, o in _outputs(nb):
        if source_has in src and mime in o.get("data", {}):
            return o["data"][mime]
    raise AssertionError(f"no {mime} output from the cell with {source_has!r}")


def _text(nb, source_has: str) -> str:
    return "".join(o.get("text", "") for src, o in _outputs(nb) if source_has in src and o.output_type == "stream")


def test_the_notebook_is_stored_without_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(nb)
    assert all(not c.outputs and c.execution_count is None for c in nb.cells if c.cell_type == "code")
    assert nb.metadata.kernelspec.name == "python3"


def test_it_runs_top_to_bottom_without_errors(executed):
    nb, cwd = executed
    assert not [o for _src, o in _outputs(nb) if o.output_type == "error"]
    assert not [o for _src, o in _outputs(nb) if o.output_type == "stream" and o.name == "stderr"]
    assert list(cwd.iterdir()) == [], "the tutorial works in a temporary directory of its own"


def test_a_mechanism_shows_its_game(executed):
    nb, _ = executed
    html = _data(nb, "text/html", 'M = exactdp.rr(eps="log(3)")')
    assert "datasets x0, x1; adjacent (x0, x1)" in html
    assert ("<svg" in html) if available("dot") else ("The game as text" in html)


def test_exact_values_and_plots(executed):
    nb, _ = executed
    assert _text(nb, "eps = exactdp.privloss(M, 0)").startswith("log(3) ≈ 1.098")
    assert _text(nb, "nonadaptive = exactdp.choose") == (
        "adaptive: PrivLoss(M, 0) = log(3), PrivLoss(M, 1/4) = log(2)\n"
        "non-adaptive: PrivLoss(M, 0) = log(3), PrivLoss(M, 1/4) = 0\n"
    )  # Vadhan-Wang 2021, Fig. 1: delta(l) = (3 - l)/4 adaptive, (3 - l)/8 not
    for cell in ("exactdp.profile(M)", "exactdp.plot_profile([adaptive", "exactdp.plot_tradeoff(", "curve = exactdp"):
        assert _data(nb, "image/png", cell)
    assert "'log(7/3)'" in _text(nb, "curve = exactdp.renyi_curve")


def test_the_false_claim_and_its_witness(executed):
    nb, _ = executed
    assert _data(nb, "text/plain", 'exactdp.is_dp(adaptive, 0, "1/4")') == "False"
    witness = _data(nb, "text/html", "exactdp.witness(adaptive, 0)")
    assert "after 0: choose 0" in witness and "Pr[T | x0] = 3/4, Pr[T | x1] = 1/4" in witness
    report = _data(nb, "text/html", "exactdp.verify_file(case)")
    assert "<table>" in report and "✗ fails" in report and "M is (log(2), 0)-DP" in report


def test_the_certificate_is_accepted_and_the_macros_are_written(executed):
    nb, _ = executed
    checked = _text(nb, "exactdp.checker.__file__")
    assert "certificates: 3 written to certs" in checked
    assert "3 certificate(s): 3 accepted, 0 rejected, 0 other case, 0 malformed" in checked
    latex = _text(nb, '"export", "rr.yaml"')
    assert latex.startswith("exit status 1\n")
    assert "\\newcommand{\\exactdpRrDemoRrLoss}{\\ensuremath{\\log 3}}" in latex
