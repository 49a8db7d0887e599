"""Rich display in Jupyter (exactdp.display, exactdp.report.notebook): mechanisms show their game
(Graphviz, or a text outline without it), witnesses their adversary, verdicts and file results
the HTML report's claims table, profiles, trade-off functions and Renyi curves a plot (or their
exact values without matplotlib).  Checked through IPython's own display formatter."""

from __future__ import annotations

import builtins
import re
import shutil

import pytest

import exactdp
from exactdp.display import RichDisplay, render
from exactdp.errors import ExactDPError
from exactdp.report import notebook as NB
from exactdp.report.html import render_case_page

from .system_tools import needs

FIG1 = "cases/vadhan-wang/figure1-two-round.yaml"
BREAK = "cases/parametric/two-round-break-point.yaml"
PNG = b"\x89PNG\r\n\x1a\n"
HOSTILE = "M<script>alert(1)</script>&amp;"


@pytest.fixture(scope="module")
def fig1():
    case = exactdp.load_case(FIG1)
    return case, case.mechanisms["M"]


def _example(cls: type, fig1) -> object:
    from exactdp.analysis.parametric.queries import Piecewise, privloss_of
    from exactdp.verify import FileResult, RunResult

    if cls is Piecewise:
        case = exactdp.load_case(BREAK)
        return privloss_of(case.mechanisms["M"], case.symbols, 0)
    _case, m = fig1
    prof = exactdp.profile(m)
    fr = exactdp.verify_file(FIG1)
    return {
        exactdp.Mechanism: m,
        exactdp.Witness: exactdp.witness(m, 0),
        exactdp.Verdict: fr.verdicts[0],
        FileResult: fr,
        RunResult: RunResult((fr,)),
        exactdp.Profile: prof,
        exactdp.Tradeoff: exactdp.envelope_tradeoff(prof),
        exactdp.RenyiCurve: exactdp.renyi_curve(m, [1, 2]),
    }[cls]


@pytest.mark.parametrize("cls, mime", [(c, m) for c, m, _ in NB.RENDERERS], ids=lambda x: getattr(x, "__name__", x))
def test_every_registered_class_shows_itself(cls, mime, fig1):
    """The table of renderers, as a table: each class inherits RichDisplay and its form renders."""
    assert issubclass(cls, RichDisplay)
    out = render(_example(cls, fig1), mime)
    if mime == "image/png":
        pytest.importorskip("matplotlib")
        assert out.startswith(PNG)
    elif out is not None:  # a plot's HTML form is only its fallback without matplotlib
        assert out.startswith('<div class="exactdp"><style>') and "<script" not in out
    else:
        assert cls in (exactdp.Profile, exactdp.Tradeoff, exactdp.RenyiCurve)


def test_ipython_shows_the_rich_forms(fig1):
    """IPython's display formatter (what Jupyter runs) finds the forms."""
    formatters = pytest.importorskip("IPython.core.formatters")
    pytest.importorskip("matplotlib")
    fmt = formatters.DisplayFormatter()
    _case, m = fig1
    data, _meta = fmt.format(m)
    assert "text/html" in data and "text/plain" in data
    data, _meta = fmt.format(exactdp.profile(m))
    assert data["image/png"].startswith(PNG) and "text/html" not in data
    data, _meta = fmt.format(exactdp.verify_file(FIG1))
    assert "<table>" in data["text/html"]


@needs("dot")
def test_mechanism_drawing_with_graphviz(fig1):
    _case, m = fig1
    out = m._repr_html_()
    assert "<svg" in out and "datasets x0, x1; adjacent (x0, x1)" in out
    assert "3/4 | 1/4" in out  # an answer edge with its probability under each dataset
    assert "<?xml" not in out and "<!DOCTYPE" not in out


def test_mechanism_outline_without_graphviz(fig1, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None)
    _case, m = fig1
    out = m._repr_html_()
    assert "<svg" not in out and "Graphviz program" in out
    text = re.sub(r"<[^>]+>", "", out.split("<pre>")[1])
    tree = text.split("\n\n", 1)[1].splitlines()
    assert tree[:4] == [
        "mechanism answers",
        "  0: 1/2 | 1/2 → adversary chooses",
        "    0 → mechanism answers",
        "      0: 3/4 | 1/4 → end",
    ]  # the tree of histories, as the HTML report draws it
    assert len(tree) == 1 + 2 + 4 + 8


def test_the_outline_of_a_dag_writes_a_shared_sub_game_once(fig1):
    from exactdp.report.dot import dag_graph

    _case, m = fig1
    lines = NB.outline(dag_graph(m))
    assert "    0 → mechanism answers [n3]" in lines
    assert "    1 → mechanism answers (the sub-game n3 above)" in lines  # the RR answer, shared


def test_hostile_names_are_escaped():
    node = exactdp.respond({"<b>0</b>": ["1/2", "1/2"], "1": ["1/2", "1/2"]})
    m = exactdp.mechanism(node, datasets=["x<0>", "x1"], name=HOSTILE)
    out = m._repr_html_()
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "<b>0</b>" not in out
    fr = exactdp.verify_file(FIG1)
    assert "<script" not in NB.file_html(fr)


def test_verdicts_and_files_show_the_html_reports_table():
    fr = exactdp.verify_file(FIG1)
    page = render_case_page(fr)
    table = re.search(r"<table>.*?</table>", page, re.S).group(0)
    assert table in fr._repr_html_()
    v = fr.verdicts[0]
    row = re.search(r"<tr><td class=\"mark s-holds\">✓</td><td><a href=\"#claim-1\">1</a></td>.*?</tr>", table).group(0)
    assert row in v._repr_html_() and "found: <code>log(3) ≈ 1.09861</code>" in v._repr_html_()


def test_styles_are_limited_to_the_output():
    css = re.search(r"<style>(.*?)</style>", NB.verdict_html(exactdp.verify_file(FIG1).verdicts[0]), re.S).group(1)
    selectors = [s.strip() for rule in re.findall(r"([^{}]+)\{", css) for s in rule.split(",")]
    assert selectors and all(s.startswith((".exactdp", "div.exactdp")) for s in selectors), selectors


def test_a_failing_claim_shows_its_witness():
    text = "exactdp: 1\nname: f\nmechanism: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: log(2), delta: 0}\n"
    from exactdp.verify import verify_text

    fr = verify_text(text, "f.yaml")
    out = fr._repr_html_()
    assert "✗ fails" in out and "witness:" in out and "Pr[T | x0] = 3/4" in out


def test_plots_are_png_reproducible_and_leave_pyplot_alone(fig1):
    plt = pytest.importorskip("matplotlib.pyplot")
    import matplotlib

    backend, figs = matplotlib.get_backend(), plt.get_fignums()
    _case, m = fig1
    prof = exactdp.profile(m)
    a, b = prof._repr_png_(), exactdp.profile(m)._repr_png_()
    assert a.startswith(PNG) and a == b
    assert prof._repr_html_() is None  # with matplotlib: the plot only
    assert matplotlib.get_backend() == backend and plt.get_fignums() == figs


def test_without_matplotlib_the_exact_values(fig1, monkeypatch):
    real_import = builtins.__import__

    def fake(name, *a, **k):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("no matplotlib")
        return real_import(name, *a, **k)

    import importlib.util

    real_find = importlib.util.find_spec
    monkeypatch.setattr(builtins, "__import__", fake)
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "matplotlib" else real_find(n, *a))
    _case, m = fig1
    prof = exactdp.profile(m)
    assert prof._repr_png_() is None
    out = prof._repr_html_()
    assert "pip install &#x27;exactdp[plot]&#x27;" in out
    assert "<code>log(3)</code></td><td><code>3</code></td><td><code>0</code>" in out  # delta(3) = 0
    t = exactdp.envelope_tradeoff(prof)
    assert t._repr_png_() is None and "<code>1/4</code>" in t._repr_html_()
    c = exactdp.renyi_curve(m, [2])
    assert c._repr_png_() is None and "<code>inf</code></td><td><code>log(3)</code>" in c._repr_html_()


def test_an_exactdp_error_is_shown_not_raised():
    def boom(_obj):
        raise ExactDPError("the limit --max-nodes was hit")

    shown = NB._guarded(boom, "text/html")(object())
    assert "Cannot show this: the limit --max-nodes was hit" in shown
    assert NB._guarded(boom, "image/png")(object()) is None


def test_a_piecewise_answer_shows_its_pieces():
    """PrivLoss(M, 0) of the two-round mechanism with a parameter p (Vadhan-Wang 2021, Fig. 1
    with p, derived in cases/parametric/two-round-break-point.yaml): log((1-p)/p) up to 1/4,
    log 3 to 3/4, then log(p/(1-p)); as text and as a notebook's table, one row per piece."""
    from exactdp.analysis.parametric.queries import privloss_of, profile_of

    case = exactdp.load_case(BREAK)
    pw = privloss_of(case.mechanisms["M"], case.symbols, 0)
    assert str(pw).splitlines()[1:] == [
        "  0 < p <= 1/4: log((1 - p)/p)",
        "  1/4 < p <= 3/4: log(3)",
        "  3/4 < p < 1: log(p/(1 - p))",
    ]
    page = pw._repr_html_()
    assert page.count("<tr>") == 4 and "<code>log(3)</code>" in page
    prof = profile_of(case.mechanisms["M"], case.symbols)
    assert "delta = (3 - e^eps)/4 for 1 <= e^eps <= 3" in str(prof)
    assert "privacy profile of M" in prof._repr_html_() and "\\n" not in prof._repr_html_()
