"""exactdp plot / exactdp.report.plot: every kind renders (Agg), the drawn vertices are the
exact breakpoints (read back from the figure's Line2D data, never from pixels), bounds are the
theorems' profiles, and files are byte-for-byte reproducible."""

from __future__ import annotations

import builtins
import math
from fractions import Fraction

import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib")

import exactdp
from exactdp import Q
from exactdp.analysis import make_engine
from exactdp.caseio import load_case
from exactdp.cli import main
from exactdp.figures import PlotError, case_plot_data
from exactdp.report import plot as P
from exactdp.theorems import components, optimal_profile

CASES = "cases"
FIG1 = f"{CASES}/vadhan-wang/figure1-two-round.yaml"
THM18 = f"{CASES}/vadhan-wang/thm-1-8-approx-concurrent.yaml"
KOV = f"{CASES}/kov/kfold-rr-pure.yaml"
DECIMAL = f"{CASES}/kov/kfold-30-decimal.yaml"


def f(x) -> float:
    return P.display_float(x)


def lines_by_gid(fig) -> dict[str, object]:
    return {ln.get_gid(): ln for ax in fig.axes for ln in ax.get_lines() if ln.get_gid()}


def data_of(path: str, **kw) -> P.PlotData:
    return case_plot_data(load_case(path), make_engine("profile"), **kw)


def test_profile_vertices_are_the_exact_breakpoints():
    data = data_of(KOV, of=["M", "K10"])
    fig = P.draw(data, "profile")
    lines = lines_by_gid(fig)
    for k, name in enumerate(["M", "K10"]):
        prof = exactdp.profile(load_case(KOV).mechanisms[name])
        exact = prof.breakpoints()
        ln = lines[f"vertices-{k}"]
        assert list(ln.get_xdata()) == pytest.approx([math.log(Fraction(str(l))) for l, _ in exact], abs=1e-12)
        assert list(ln.get_ydata()) == pytest.approx([float(Fraction(str(d))) for _, d in exact], abs=1e-15)
        assert ln.get_label().startswith("_")  # markers are not a second legend entry
        assert lines[f"curve-{k}"].get_label() == name


def test_profile_curve_passes_through_its_vertices_and_is_exact_in_between():
    data = data_of(KOV, of=["K10"])
    xs, ys = P._profile_xy(data.curves[0], 3.0)
    prof = exactdp.profile(load_case(KOV).mechanisms["K10"])
    # at sampled eps the curve is delta(e^eps) of the exact profile (display precision)
    for x, y in zip(xs[::7], ys[::7]):
        lam = Fraction(math.exp(x)).limit_denominator(10**12)
        assert y == pytest.approx(
            float(Fraction(str(prof.envelope.value_at(Q(lam.numerator, lam.denominator))))), abs=1e-9
        )


def test_known_answer_kov_3_fold_rr():
    """Kairouz-Oh-Viswanath 2015 Thm 3.3: 3-fold RR_(log 2) has delta(e^0) = 13/27, delta(2) = 2/9."""
    data = data_of(KOV, of=["M"])
    pts = dict(data.curves[0].points)
    assert pts[Q(1)] == Q(13, 27) and pts[Q(2)] == Q(2, 9)


def test_region_vertices_are_the_exact_chain():
    data = data_of(FIG1)
    fig = P.draw(data, "region")
    ln = lines_by_gid(fig)["vertices-0"]
    chain = exactdp.profile(load_case(FIG1).mechanisms["M"]).envelope.vertices()
    assert list(ln.get_xdata()) == [f(b) for b, _ in chain]
    assert list(ln.get_ydata()) == [f(1 - a) for _, a in chain]
    assert ln.get_xdata()[0] == 0 and ln.get_ydata()[-1] == 0  # from (0, 1) to (1, 0)


def test_chain_from_profile_matches_the_mechanism_chain_for_a_symmetric_region():
    """RR's region is symmetric, so the chain rebuilt from its profile on lambda >= 1 is its chain."""
    for E, d in [(Q(3), Q(0)), (Q(3), Q(1, 10)), (Q(7, 2), Q(1, 5))]:
        m = exactdp.rr(exp_eps=E, delta=d) if d else exactdp.rr(exp_eps=E)
        prof = exactdp.profile(m)
        rebuilt = P.chain_from_profile(prof.breakpoints(), prof.limit())
        assert [v for v in rebuilt if v != (0, 0)] == [v for v in prof.envelope.vertices() if v != (0, 0)]


def test_dp_bound_curve_is_the_profile_of_rr_eps_delta():
    """KOV 2015 Thm 2.4: the (eps, delta) region is RR_(eps,delta)'s region."""
    for E, d in [(Q(6), Q(1, 5)), (Q(2), Q(0)), (Q(1), Q(1, 10))]:
        c = P.dp_bound_curve("b", E, d)
        prof = exactdp.profile(exactdp.rr(exp_eps=E, delta=d) if d else exactdp.rr(exp_eps=E))
        for lam in [Q(1), Q(3, 2), E, E + 1, Q(100)]:
            assert _value(c, lam) == prof.delta_at_lambda(lam)


def _value(c: P.Curve, lam):
    pts = c.points
    if lam >= pts[-1][0]:
        return c.limit if lam > pts[-1][0] else pts[-1][1]
    for (l0, d0), (l1, d1) in zip(pts, pts[1:]):
        if l0 <= lam <= l1:
            return d0 + (d1 - d0) * (lam - l0) / (l1 - l0)
    raise AssertionError


def test_composition_claim_draws_found_curve_and_bound():
    data = data_of(THM18)
    assert [c.bound for c in data.curves] == [False, True]
    assert data.curves[0].label.startswith("ConComp(P, Q)")
    bound = data.curves[1]
    assert "(log(6), 1/5)-DP" in bound.label  # Vadhan-Wang Thm 1.8: delta_T = 1/5 (the case's comment)
    assert bound.points[-1] == (Q(6), Q(1, 5)) and bound.limit == Q(1, 5)
    # the curve found is below the bound everywhere (the claim holds)
    found = data.curves[0]
    for lam in sorted({l for l, _ in found.points} | {l for l, _ in bound.points}):
        assert _value(found, lam) <= _value(bound, lam)


def test_optimal_bound_is_optimal_profile():
    data = data_of(THM18, claim=5, bound="optimal")  # claim 5 of the composition claims: A, B pure
    comps = components([exactdp.exact("log(2)"), exactdp.exact("log(3)")], [Q(0), Q(0)])
    assert data.curves[1].points == optimal_profile(comps)
    assert data.curves[1].bound


def test_bound_with_of_mechanisms_and_errors():
    data = data_of(KOV, of=["RR2", "RR32"], bound="basic")
    assert [c.label for c in data.curves][:3] == ["RR2", "RR32", "ConComp(RR2, RR32) (exact)"]
    with pytest.raises(PlotError, match="needs a composition"):
        data_of(KOV, of=["RR2"], bound="basic")
    with pytest.raises(PlotError, match="no mechanism named"):
        data_of(KOV, of=["nope"])
    with pytest.raises(PlotError, match="composition claim"):
        data_of(KOV, claim=1)


def test_decimal_eps_plots():
    data = data_of(DECIMAL)
    fig = P.draw(data, "profile")
    assert all(math.isfinite(x) for ln in fig.axes[0].get_lines() for x in ln.get_xdata())


@pytest.mark.parametrize("kind", sorted(P.KINDS))
@pytest.mark.parametrize("fmt", ["png", "svg", "pdf"])
def test_every_kind_renders_reproducibly(tmp_path, kind, fmt):
    out = []
    for k in range(2):
        path = tmp_path / f"p{k}.{fmt}"
        r = CliRunner().invoke(main, ["plot", THM18, "--kind", kind, "-o", str(path)])
        assert r.exit_code == 0, r.output
        out.append(path.read_bytes())
    assert out[0] == out[1] and len(out[0]) > 1000
    magic = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}[fmt]
    assert out[0].startswith(magic)
    if fmt == "svg":
        assert b"Date" not in out[0] and b"http://www.w3.org/2000/svg" in out[0]
    if fmt == "pdf":
        assert b"CreationDate" not in out[0]


def test_title_and_legend_from_the_case_escaped_for_mathtext():
    from exactdp.caseio import parse_case

    case = parse_case(
        'exactdp: 1\nname: t\ntitle: "cost $5 and $x^{2}$ \\e[2J \\\\bad"\nreference: "Ref $\\\\alpha$ 2021"\n'
        'mechanisms:\n  "M$_x$": {rr: {eps: log(3)}}\nclaims:\n  - privloss: {of: "M$_x$", equals: log(3)}\n',
        "t.yaml",
    )
    data = case_plot_data(case, make_engine("profile"))
    fig = P.draw(data, "profile")
    title = fig.axes[0].get_title()
    assert r"\$5" in title and "\\x1b[2J" in title and "Ref" in title
    assert fig.axes[0].get_legend().get_texts()[0].get_text() == r"M\$_x\$"
    fig.canvas.draw()  # mathtext would fail on an unbalanced or malformed formula


def test_cli_errors(tmp_path):
    r = CliRunner().invoke(main, ["plot", FIG1, "-o", str(tmp_path / "x.gif")])
    assert r.exit_code == 2 and "use .png, .svg or .pdf" in r.output
    r = CliRunner().invoke(main, ["plot", KOV, "--of", "nope", "-o", str(tmp_path / "x.png")])
    assert r.exit_code == 2 and "no mechanism named 'nope'" in r.output
    r = CliRunner().invoke(main, ["plot", FIG1, "-o", str(tmp_path / "no" / "dir" / "x.png")])
    assert r.exit_code == 2 and "cannot write" in r.output


def test_missing_matplotlib_names_the_extra(tmp_path, monkeypatch):
    real_import = builtins.__import__

    def fake(name, *a, **k):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("no matplotlib")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    r = CliRunner().invoke(main, ["plot", FIG1, "-o", str(tmp_path / "x.png")])
    assert r.exit_code == 2
    assert "pip install 'exactdp[plot]'" in r.output
    assert "Traceback" not in r.output


def test_styles_survive_greyscale():
    """Every mechanism style differs from every other in line style and in marker, not only colour."""
    assert len({s[1] if isinstance(s[1], str) else str(s[1]) for s in P.STYLES}) == len(P.STYLES)
    assert len({s[2] for s in P.STYLES}) == len(P.STYLES)


def test_only_report_plot_imports_matplotlib():
    """matplotlib is optional: importing exactdp (or any other module) never needs it."""
    import ast
    from pathlib import Path

    pkg = Path(exactdp.__file__).parent
    for f in pkg.rglob("*.py"):
        tree = ast.parse(f.read_text())
        mods = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        mods |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        if any(m.split(".")[0] == "matplotlib" for m in mods):
            assert f.relative_to(pkg).as_posix() == "report/plot.py", f


def test_renyi_points_are_the_exact_divergences():
    """--kind renyi draws D_alpha at alpha = 1, 2, ... (exact values, Mironov 2017 Def. 3) and
    D_inf = PrivLoss(M, 0) as an asymptote; adaptive Figure 1 vs its nonadaptive twin."""
    from exactdp.analysis.renyi import renyi
    from exactdp.numbers import ladder

    case = load_case(FIG1)
    data = case_plot_data(case, make_engine("profile"), of=["M", "NA"], kind="renyi")
    lines = lines_by_gid(P.draw(data, "renyi"))
    for k, name in enumerate(["M", "NA"]):
        mech = case.mechanisms[name]
        ln = lines[f"curve-{k}"]
        assert list(ln.get_xdata()) == [float(a) for a in P_orders()]
        exact = [float(ladder.decimal(renyi(mech, a).value, 17)) for a in P_orders()]
        assert list(ln.get_ydata()) == pytest.approx(exact, rel=1e-14)
        top = lines[f"asymptote-{k}"].get_ydata()[0]
        assert top == pytest.approx(math.log(3), rel=1e-14)  # PrivLoss(M, 0) = PrivLoss(NA, 0) = log 3
    # D_2 of Figure 1 (adaptive) is log(7/3): the adversary gets RR_(log 3) on the informative round
    assert lines["curve-0"].get_ydata()[1] == pytest.approx(math.log(7 / 3), rel=1e-14)


def test_renyi_composition_bound_is_the_sum_of_the_components():
    """A composition claim under --kind renyi: ConComp's D_alpha and Lyu's bound, the sum of the
    components' D_alpha, which it never exceeds."""
    data = data_of("cases/renyi/concurrent-composition.yaml", kind="renyi")
    found, bound = data.curves
    assert bound.bound and not found.bound
    from exactdp.numbers import ladder

    for (a, v), (b, w) in zip(found.renyi, bound.renyi):
        assert a == b and ladder.cmp(v, w) <= 0


def P_orders():
    from exactdp.figures import RENYI_ORDERS

    return RENYI_ORDERS
