r"""Pictures of exact privacy curves (matplotlib, the optional extra ``exactdp[plot]``).

The data are exact and computed first, without matplotlib (:class:`~exactdp.figures.Curve`,
:func:`~exactdp.figures.case_plot_data`): each curve is the list of its exact vertices, the
breakpoints (λ, δ(λ)) of a privacy profile with λ = e^ε (Vadhan–Wang Def. 1.7; KOV's privacy
region is the set whose support function it is).  Only drawing converts them to floats, for
display.  Between two breakpoints δ is affine in
λ = e^ε, so in ε it is the curve a − b·e^ε, drawn through points sampled in ε; the exact
breakpoints are drawn as markers on their own line (``gid`` ``vertices-<k>``), which is what the
tests read back.

Plot kinds are small functions ``kind(ax, data)`` in :data:`KINDS`:

* ``profile``: δ(ε) for ε ≥ 0, one curve per mechanism and per bound;
* ``region``: the trade-off curve (type I error α = P_x'(T), type II error β = 1 − P_x(T)) of
  the privacy region's boundary (Kairouz–Oh–Viswanath 2015, Thm 2.4; Dong–Roth–Su 2019, Def. 2.2),
  with the exact vertices marked.

A composition theorem's bound is drawn as the profile it guarantees: for an (ε, δ) guarantee
(basic, improved basic, Vadhan–Wang Thm 1.8) the profile of RR_(ε,δ), which is the largest profile
of any (ε, δ)-DP mechanism (KOV 2015, Thm 2.4); for the optimal composition theorem the exact
profile of ⊗ᵢ RR_(εᵢ,δᵢ) (KOV 2015 Thm 3.3; Vadhan–Wang Thm 1.4, Thm 5.7).

Output files are byte-for-byte reproducible: fixed metadata, no dates, a fixed SVG hash salt.
"""

from __future__ import annotations

import io
import math
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import ExactDPError
from ..figures import Curve, PlotData, chain_from_profile, dp_bound_curve, optimal_bound_curve, profile_curve
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import is_rational, to_fraction
from .escape import json_dumps, mpl, text

__all__ = [
    "Curve",
    "PlotData",
    "KINDS",
    "MissingExtraError",
    "STYLES",
    "display_float",
    "display_log",
    "chain_from_profile",
    "dp_bound_curve",
    "optimal_bound_curve",
    "profile_curve",
    "draw",
    "save",
    "render_svg",
    "plot_summary",
    "load_pyplot",
    "require_matplotlib",
    "pyplot_axes",
]


class MissingExtraError(ExactDPError, ImportError):
    """matplotlib is not installed (it is the optional extra ``exactdp[plot]``)."""


# --- numbers for display only --------------------------------------------------------------------


def display_float(x: Any) -> float:
    """A float for drawing (never for a verdict): exact rationals by correct rounding, field
    elements and e^s values by a certified enclosure's midpoint."""
    return ladder.to_float(x)


def display_log(lam: Any) -> float:
    """ln λ as a float, for drawing an ε axis (exact rationals of any size)."""
    if is_rational(lam):
        f = to_fraction(lam)
        return math.log(f.numerator) - math.log(f.denominator)
    return math.log(display_float(lam))


# --- drawing -------------------------------------------------------------------------------------

# Colour (Okabe–Ito, readable by colour-blind readers), line style and marker together, so curves
# stay distinct in greyscale print.
STYLES: list[tuple[str, Any, str]] = [
    ("#000000", "-", "o"),
    ("#0072B2", "--", "s"),
    ("#D55E00", "-.", "^"),
    ("#009E73", ":", "D"),
    ("#CC79A7", (0, (6, 2, 1, 2, 1, 2)), "v"),
    ("#E69F00", (0, (1, 1)), "P"),
]
BOUND_STYLES: list[tuple[str, Any, str]] = [
    ("#7F7F7F", (0, (8, 3)), "x"),
    ("#B0B0B0", (0, (3, 2)), "+"),
    ("#4D4D4D", (0, (10, 2, 2, 2)), "1"),
]


def load_pyplot() -> Any:
    """matplotlib.pyplot on the Agg backend, or :class:`MissingExtraError` naming the extra."""
    try:
        import matplotlib  # optional: the extra 'plot'
    except ImportError:
        raise MissingExtraError(
            "plots need matplotlib, the optional extra 'plot': pip install 'exactdp[plot]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # optional: the extra 'plot' (after choosing the backend)

    return plt


def _styles(data: PlotData):
    k = b = 0
    for c in data.curves:
        if c.bound:
            yield c, BOUND_STYLES[b % len(BOUND_STYLES)]
            b += 1
        else:
            yield c, STYLES[k % len(STYLES)]
            k += 1


def _weight(c: Curve) -> dict[str, Any]:
    # a bound is drawn wide and underneath, so an exact curve that meets it stays visible on top
    return {"linewidth": 3.2, "zorder": 2, "alpha": 0.8} if c.bound else {"linewidth": 1.6, "zorder": 3}


def _eps_max(curves: Sequence[Curve]) -> float:
    last = max((display_log(c.points[-1][0]) for c in curves if c.points), default=0.0)
    return 1.0 if last <= 0 else last * 1.2


def _profile_xy(c: Curve, eps_max: float, per_piece: int = 24) -> tuple[list[float], list[float]]:
    """Points of the curve in (ε, δ): a − b·e^ε sampled between exact breakpoints."""
    xs: list[float] = []
    ys: list[float] = []
    pts = [(display_float(l), display_float(d)) for l, d in c.points]
    for (l0, d0), (l1, d1) in zip(pts, pts[1:]):
        e0, e1 = math.log(l0), math.log(l1)
        for i in range(per_piece):
            e = e0 + (e1 - e0) * i / per_piece
            xs.append(e)
            ys.append(d0 + (d1 - d0) * (math.exp(e) - l0) / (l1 - l0))
    xs.append(math.log(pts[-1][0]))
    ys.append(pts[-1][1])
    tail = display_float(c.limit)
    if xs[-1] < eps_max:
        xs.append(eps_max)
        ys.append(tail)
    return xs, ys


def kind_profile(ax: Any, data: PlotData) -> None:
    """δ(ε) for ε ≥ 0, with each curve's exact breakpoints marked."""
    eps_max = _eps_max(data.curves)
    for k, (c, (colour, ls, marker)) in enumerate(_styles(data)):
        xs, ys = _profile_xy(c, eps_max)
        ax.plot(xs, ys, color=colour, linestyle=ls, label=mpl(c.label), gid=f"curve-{k}", **_weight(c))
        vx = [display_log(l) for l, _ in c.points]
        vy = [display_float(d) for _, d in c.points]
        ax.plot(vx, vy, linestyle="none", marker=marker, color=colour, markersize=5, gid=f"vertices-{k}", zorder=4)
    ax.set_xlim(0, eps_max)
    ax.set_ylim(bottom=0)
    ax.set_xlabel(r"$\varepsilon$")
    ax.set_ylabel(r"$\delta(\varepsilon)$")


def region_vertices(c: Curve) -> list[tuple[Any, Any]]:
    """The exact chain of ``c`` as trade-off points (α, β) = (P'(T), 1 − P(T))."""
    chain = c.chain if c.chain is not None else chain_from_profile(c.points, c.limit)
    return [(b, 1 - a) for b, a in chain]


def kind_region(ax: Any, data: PlotData) -> None:
    """Trade-off curves β(α) with exact vertices; the diagonal is perfect privacy."""
    ax.plot(
        [0, 1], [1, 0], color="#BBBBBB", linewidth=0.8, linestyle=(0, (1, 2)), label="perfect privacy (ε = 0, δ = 0)"
    )
    for k, (c, (colour, ls, marker)) in enumerate(_styles(data)):
        vs = region_vertices(c)
        xs = [display_float(a) for a, _ in vs]
        ys = [display_float(b) for _, b in vs]
        ax.plot(xs, ys, color=colour, linestyle=ls, label=mpl(c.label), gid=f"curve-{k}", **_weight(c))
        ax.plot(xs, ys, linestyle="none", marker=marker, color=colour, markersize=5, gid=f"vertices-{k}", zorder=4)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel(r"type I error $\alpha = \Pr[T \mid x']$")
    ax.set_ylabel(r"type II error $\beta = 1 - \Pr[T \mid x]$")


def display_real(v: Any) -> float:
    """An exact real (a rational, log(r), a rational multiple of logs) as a float, for drawing."""
    return ladder.to_float(v)


def kind_renyi(ax: Any, data: PlotData) -> None:
    """D_α against the order α = 1 (KL), 2, 3, ..., with D_∞ = PrivLoss(M, 0) as a dotted
    asymptote: exact values (Mironov 2017, Def. 3), drawn as points joined by lines."""
    for k, (c, (colour, ls, marker)) in enumerate(_styles(data)):
        finite = [(a, v) for a, v in c.renyi if not is_inf(a) and not is_inf(v)]
        xs = [float(a) for a, _ in finite]
        ys = [display_real(v) for _, v in finite]
        ax.plot(
            xs,
            ys,
            color=colour,
            linestyle=ls,
            marker=marker,
            markersize=5,
            label=mpl(c.label),
            gid=f"curve-{k}",
            **_weight(c),
        )
        top = [v for a, v in c.renyi if is_inf(a)]
        if top and not is_inf(top[0]):
            ax.axhline(display_real(top[0]), color=colour, linewidth=0.8, linestyle=(0, (1, 2)), gid=f"asymptote-{k}")
    ax.set_xlabel(r"order $\alpha$ (1: KL divergence)")
    ax.set_ylabel(r"$D_\alpha$")
    ax.set_ylim(bottom=0)


KINDS: dict[str, Callable[[Any, PlotData], None]] = {
    "profile": kind_profile,
    "region": kind_region,
    "renyi": kind_renyi,
}


def require_matplotlib() -> None:
    """:class:`MissingExtraError` naming the extra unless matplotlib can be imported."""
    try:
        import matplotlib  # optional: the extra 'plot'  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            "plots need matplotlib, the optional extra 'plot': pip install 'exactdp[plot]'"
        ) from None


def pyplot_axes(figsize: tuple[float, float]) -> Any:
    """The Axes of a new pyplot figure (the session's backend: inline in a notebook)."""
    require_matplotlib()
    import matplotlib.pyplot as plt  # optional: the extra 'plot'

    _fig, ax = plt.subplots(figsize=figsize, dpi=100)
    return ax


FIGSIZE = {"profile": (6.4, 4.6), "region": (5.6, 5.6), "renyi": (6.4, 4.6)}


def decorate(ax: Any, kind: str, title: str = "", subtitle: str = "") -> None:
    """Grid, legend and a wrapped title (case-file text escaped for matplotlib)."""
    ax.grid(True, color="#E0E0E0", linewidth=0.6)
    ax.legend(loc="lower right" if kind == "renyi" else "upper right", fontsize=8, frameon=True)
    # escape first (a newline in the case file stays visible), then wrap to the figure's width
    width = 64 if kind == "region" else 76
    title, subtitle = (s if len(s) <= 6 * width else s[: 6 * width] + "…" for s in (title, subtitle))  # (4 lines show)
    lines = textwrap.wrap(mpl(title), width) + textwrap.wrap(mpl(subtitle), width + 8)
    if lines:
        ax.set_title("\n".join(lines[:4]), fontsize=8.5)


def _figure_class() -> Any:
    """matplotlib's Figure, without pyplot: choosing pyplot's backend (Agg, for files) would take
    a notebook's inline display away from the plotting API."""
    require_matplotlib()
    from matplotlib.figure import Figure  # optional: the extra 'plot'

    return Figure


def draw(data: PlotData, kind: str = "profile") -> Any:
    """A matplotlib Figure of ``data`` on a Figure of its own (no pyplot state, the backend of
    the session untouched), drawn as the plotting API (:mod:`.plotapi`, as in a notebook) draws
    it; the caller saves or drops it."""
    fig = _figure_class()(figsize=FIGSIZE[kind], dpi=100)
    ax = fig.add_subplot()
    KINDS[kind](ax, data)
    decorate(ax, kind, data.title, data.subtitle)
    fig.tight_layout()
    return fig


_METADATA: dict[str, dict[str, Any]] = {
    "png": {"Software": "exactdp"},
    "svg": {"Date": None, "Creator": "exactdp"},
    "pdf": {"CreationDate": None, "ModDate": None, "Creator": "exactdp", "Producer": "exactdp"},
}


def save(fig: Any, path: Any, fmt: str, *, svg_text: bool = False) -> None:
    """Write ``fig`` as png/svg/pdf with fixed metadata (byte-for-byte reproducible).

    SVG text is drawn as glyph outlines (the file looks the same everywhere), or with
    ``svg_text=True`` as ``<text>`` elements in the reader's sans-serif font (smaller, faster,
    searchable: for inline use in HTML)."""
    rc: Any = {"svg.hashsalt": "exactdp", "svg.fonttype": "none" if svg_text else "path", "pdf.compression": 6}
    require_matplotlib()
    import matplotlib  # optional: the extra 'plot'

    with matplotlib.rc_context(rc):
        fig.savefig(path, format=fmt, metadata=_METADATA[fmt])


def render_svg(data: PlotData, kind: str = "profile") -> str:
    """The figure as SVG text (for inline use in HTML): reproducible, no external references."""

    fig = draw(data, kind)
    buf = io.BytesIO()
    save(fig, buf, "svg", svg_text=True)
    text = buf.getvalue().decode("utf-8")
    # drop the XML prolog and DOCTYPE: the <svg> element goes inline into an HTML page
    return text[text.index("<svg") :]


__all__ += ["kind_profile", "kind_region", "region_vertices"]


def plot_summary(data: PlotData, output: Any, kind: str, *, as_json: bool = False) -> str:
    """What ``exactdp plot`` prints once ``output`` is written: the plot's notes and the curves
    drawn, as lines or (``as_json``) one JSON document with the keys ``file``, ``kind``,
    ``curves`` (their labels) and ``notes``."""
    labels = [c.label for c in data.curves]
    if as_json:
        return json_dumps(
            {"exactdp_plot": 1, "file": str(output), "kind": kind, "curves": labels, "notes": list(data.notes)}
        )
    return "\n".join(text(line) for line in [*data.notes, f"wrote {output} ({kind}: " + ", ".join(labels) + ")"])
