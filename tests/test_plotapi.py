"""The plotting API (exactdp.plot_profile, plot_tradeoff, plot_renyi): what is drawn is the exact
data (read back from the Axes' Line2D data, never from pixels), bounds are the theorems'
profiles, one or several mechanisms or a labelled mapping are accepted, and ``exactdp plot``
draws through the same functions."""

from __future__ import annotations

import builtins
import math
from fractions import Fraction

import pytest

pytest.importorskip("matplotlib")

import exactdp
from exactdp import Q
from exactdp.analysis import make_engine
from exactdp.caseio import load_case
from exactdp.figures import case_plot_data
from exactdp.report import plot as P
from exactdp.report.plotapi import PLOTTERS
from exactdp.theorems import basic, components

FIG1 = "cases/vadhan-wang/figure1-two-round.yaml"


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def lines(ax) -> dict[str, object]:
    return {ln.get_gid(): ln for ln in ax.get_lines() if ln.get_gid()}


def fl(x) -> float:
    return float(Fraction(str(x)))


def test_profile_of_several_mechanisms_marks_the_exact_breakpoints():
    a, b = exactdp.rr(eps="log(3)"), exactdp.rr_delta(eps="log(2)", delta="1/10")
    ax = exactdp.plot_profile({"RR3": a, "RR2,1/10": b})
    got = lines(ax)
    for k, (name, m) in enumerate([("RR3", a), ("RR2,1/10", b)]):
        exact = exactdp.profile(m).breakpoints()
        ln = got[f"vertices-{k}"]
        assert list(ln.get_xdata()) == pytest.approx([math.log(fl(l)) for l, _ in exact], abs=1e-12)
        assert list(ln.get_ydata()) == pytest.approx([fl(d) for _, d in exact], abs=1e-15)
        assert got[f"curve-{k}"].get_label() == name
    assert ax.get_xlabel() == r"$\varepsilon$"


def test_one_mechanism_a_profile_or_a_list_draw_the_same_curve():
    m = exactdp.rr(eps="log(3)")
    one = lines(exactdp.plot_profile(m))["vertices-0"].get_ydata()
    prof = lines(exactdp.plot_profile(exactdp.profile(m)))["vertices-0"].get_ydata()
    listed = lines(exactdp.plot_profile([m]))["vertices-0"].get_ydata()
    assert list(one) == list(prof) == list(listed) == [0.5, 0.0]  # delta(1) = 1/2, delta(3) = 0


def test_eps_delta_bound_is_the_profile_of_rr_eps_delta():
    """The largest profile of an (eps, delta)-DP mechanism is RR_(eps,delta)'s (KOV 2015 Thm 2.4):
    drawing ("log(3)", "1/10") as a bound gives the same vertices as the mechanism RR_(log 3, 1/10)."""
    ax = exactdp.plot_profile(exactdp.rr_delta(eps="log(3)", delta="1/10"), bounds=[("log(3)", "1/10")])
    got = lines(ax)
    assert list(got["vertices-0"].get_ydata()) == pytest.approx(list(got["vertices-1"].get_ydata()))
    assert list(got["vertices-0"].get_xdata()) == pytest.approx(list(got["vertices-1"].get_xdata()))
    assert got["curve-1"].get_label() == "(log(3), 1/10)-DP"
    assert got["curve-1"].get_linewidth() > got["curve-0"].get_linewidth()  # a bound is drawn wide, underneath


def test_a_theorem_bound():
    comps = components([exactdp.exact("log(2)")] * 2, [Q(0)] * 2)
    b = basic(comps)
    ax = exactdp.plot_profile(exactdp.compose([exactdp.rr(eps="log(2)")] * 2), bounds=b)
    v = lines(ax)["vertices-1"]
    assert list(v.get_xdata()) == pytest.approx([0.0, math.log(4)])  # basic composition: (log 4, 0)-DP


def test_tradeoff_vertices_are_exact():
    m = load_case(FIG1).mechanisms["M"]
    t = exactdp.envelope_tradeoff(exactdp.profile(m))
    for item in (t, m):
        ax = exactdp.plot_tradeoff(item)
        v = lines(ax)["vertices-0"]
        assert list(v.get_xdata()) == pytest.approx([fl(a) for a, _ in t.vertices])
        assert list(v.get_ydata()) == pytest.approx([fl(b) for _, b in t.vertices])


def test_renyi_points_are_the_exact_divergences_and_the_asymptote_is_privloss():
    m = exactdp.rr(exp_eps=3)
    ax = exactdp.plot_renyi(m, alphas=[1, 2, 3])
    got = lines(ax)
    ys = list(got["curve-0"].get_ydata())
    exact = [exactdp.renyi(m, a).value for a in (1, 2, 3)]
    assert ys == pytest.approx([float(exactdp.numbers.ladder.decimal(v, 17)) for v in exact])
    assert got["asymptote-0"].get_ydata()[0] == pytest.approx(math.log(3))


def test_renyi_curve_agrees_with_the_reference_engine():
    """Two engines: the backward induction and the enumerator of deterministic adversaries."""
    m = load_case(FIG1).mechanisms["M"]
    fast = exactdp.renyi_curve(m, [1, 2, 3])
    ref = exactdp.renyi_curve(m, [1, 2, 3], engine=make_engine("enumerator"))
    assert [str(v) for _, v in fast.points] == [str(v) for _, v in ref.points]
    assert str(fast.value("inf")) == str(exactdp.privloss(m, 0))


def test_draws_on_the_given_axes():
    from matplotlib.figure import Figure

    ax = Figure().add_subplot()
    assert exactdp.plot_profile(exactdp.rr(eps="log(3)"), ax=ax) is ax
    assert exactdp.plot_tradeoff(exactdp.rr(eps="log(3)"), ax=ax) is ax


def test_the_cli_draws_through_the_api():
    """`exactdp plot` (report.plot.draw) and plot_profile draw the same lines for the same curves."""
    case = load_case(FIG1)
    for kind in PLOTTERS:
        data = case_plot_data(case, make_engine("profile"), of=["M", "NA"], kind=kind)
        cli_lines = lines(P.draw(data, kind).axes[0])
        api = PLOTTERS[kind]({"M": case.mechanisms["M"], "NA": case.mechanisms["NA"]})
        api_lines = lines(api)
        assert cli_lines.keys() == api_lines.keys()
        for gid, ln in cli_lines.items():
            assert list(ln.get_xdata()) == pytest.approx(list(api_lines[gid].get_xdata())), (kind, gid)
            assert list(ln.get_ydata()) == pytest.approx(list(api_lines[gid].get_ydata())), (kind, gid)


def test_bad_items_are_clear_errors():
    with pytest.raises(TypeError, match=r"^plot_profile: mechanisms='M' is a name, not a mechanism"):
        exactdp.plot_profile("M")
    with pytest.raises(ValueError, match=r"plot_profile: delta of a bound"):
        exactdp.plot_profile(exactdp.rr(eps="log(3)"), bounds=[("log(3)", "2")])


def test_missing_matplotlib_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def fake(name, *a, **k):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("no matplotlib")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(P.MissingExtraError, match=r"pip install 'exactdp\[plot\]'"):
        exactdp.plot_profile(exactdp.rr(eps="log(3)"))
