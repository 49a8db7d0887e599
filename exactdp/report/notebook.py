"""What a Jupyter notebook shows for exactdp's objects (rich display, :mod:`exactdp.display`).

* a :class:`~exactdp.model.game.Mechanism`: its game drawn by Graphviz as the tree of its
  histories (adversary choices as boxes, answers as edges with their probability under every
  dataset), cut at the depth that keeps it within :data:`DRAWING_MAX_NODES` nodes; without
  Graphviz, the same game as an indented outline;
* a :class:`~exactdp.analysis.witness.Witness`: the adversary, the event and both
  probabilities as the text report prints them, and the game with the adversary's choices
  drawn bold;
* a :class:`~exactdp.claims.base.Verdict`, a :class:`~exactdp.verify.FileResult` and a
  :class:`~exactdp.verify.RunResult`: the claims table and details of the HTML report
  (:mod:`.html`), styles limited to the output, no script;
* a :class:`~exactdp.analysis.results.Profile`, a :class:`~exactdp.analysis.tradeoff.Tradeoff`
  and a :class:`~exactdp.analysis.renyi.RenyiCurve`: a plot (the plotting API,
  :mod:`.plotapi`, on a figure of its own, so the notebook's backend and figures are left
  alone); without matplotlib, a table of the exact vertices and a note naming the extra.

Everything from a case file (names, labels) is escaped by :func:`.escape.html`.  A drawing that
cannot be made says why, in the output, instead of failing.
"""

from __future__ import annotations

import importlib.util
import io
import subprocess
from collections.abc import Callable, Sequence
from typing import Any

from ..analysis.parametric.display import ProfileView
from ..analysis.parametric.queries import Piecewise
from ..analysis.renyi import RenyiCurve, alpha_str
from ..analysis.results import Profile
from ..analysis.tradeoff import Tradeoff
from ..analysis.witness import Witness
from ..claims import Verdict
from ..display import register
from ..errors import ExactDPError
from ..model.game import Mechanism
from ..model.ops import stats
from ..numbers import ladder
from ..verify import FileResult, RunResult
from .dot import GraphvizMissingError, game_graph, render_graphviz, to_dot
from .escape import html
from .html import case_body, fragment, inline_svg, verdict_body
from .parametric import profile_lines
from .plot import Curve, MissingExtraError, PlotData, draw, profile_curve, save
from .plotapi import curves_of
from .text import WITNESS_LEGEND, render_summary, render_witness

__all__ = [
    "DRAWING_MAX_NODES",
    "MAX_TABLE_ROWS",
    "GRAPHVIZ_SECONDS",
    "mechanism_html",
    "witness_html",
    "verdict_html",
    "file_html",
    "run_html",
    "plot_png",
    "values_html",
    "outline",
    "register_all",
    "RENDERERS",
]

DRAWING_MAX_NODES = 60  # game nodes drawn in a notebook; larger games are cut (with a note)
MAX_TABLE_ROWS = 40  # rows of exact values shown when there is no plot
GRAPHVIZ_SECONDS = 10.0


def _note(text: str) -> str:
    return f'<p class="meta">{html(text)}</p>'


def outline(drawing: Any) -> list[str]:
    """A drawn game (:mod:`.dot`) as indented text: one line per node, the edge leading to it
    first; a shared sub-game (a DAG's) is written once, with its id, and referred to afterwards."""
    g = drawing.graph
    names = {"ask": "adversary chooses", "chance": "mechanism answers", "end": "end", "cut": "… (not drawn)"}
    lines: list[str] = []
    seen: set[str] = set()
    shared = {n for n in g if g.in_degree(n) > 1}
    stack: list[tuple[str, int, str]] = [("n0", 0, "")] if "n0" in g else []
    while stack:
        node, depth, edge = stack.pop()
        kind = g.nodes[node].get("kind", "")
        head = "  " * depth + (f"{edge} → " if edge else "")
        if kind in ("ask", "chance") and node in seen:
            lines.append(f"{head}{names[kind]} (the sub-game {node} above)")
            continue
        seen.add(node)
        lines.append(head + names.get(kind, kind) + (f" [{node}]" if node in shared and kind != "end" else ""))
        kids = [(child, data.get("label", "")) for _, child, data in g.out_edges(node, data=True)]
        stack.extend((child, depth + 1, label) for child, label in reversed(kids))
    return lines


def _drawing_html(drawing: Any) -> str:
    """The drawing as inline SVG (Graphviz), or its outline and why there is no picture."""
    try:
        svg = render_graphviz(to_dot(drawing), "svg", timeout=GRAPHVIZ_SECONDS).decode("utf-8")
    except (GraphvizMissingError, RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        why = "the drawing needs the Graphviz program 'dot' (e.g. apt-get install graphviz)"
        reason = why if isinstance(e, GraphvizMissingError) else str(e)
        text = "\n".join(html(line) for line in outline(drawing))
        caption = "\n".join(html(line) for line in drawing.caption)
        return _note(f"No drawing: {reason}. The game as text:") + f"<pre>{caption}\n\n{text}</pre>"
    return f'<figure class="figure">{inline_svg(svg)}</figure>'  # the caption is the drawing's own title


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def mechanism_html(m: Mechanism) -> str:
    """A mechanism: its datasets, adjacency and size, and the drawing of its game as the tree of
    histories (as the HTML report draws it; cut at a depth for large games, with a note)."""
    s = stats(m.root)
    pairs = ", ".join(f"({a}, {b})" for a, b in (m.pair_names(p) for p in m.adjacent))
    head = (
        f"<p><strong>{html(m.name)}</strong>: datasets {html(', '.join(m.datasets))}; adjacent {html(pairs)}; "
        f"{_count(s['ask_nodes'], 'adversary choice')} and {_count(s['chance_nodes'], 'answer distribution')} "
        f"in its game DAG, depth {s['depth']}</p>"
    )
    return fragment([head, _drawing_html(game_graph(m, max_nodes=DRAWING_MAX_NODES))])


def witness_html(w: Witness) -> str:
    """A witness as the text report prints it, and the game with its adversary drawn."""
    blocks = ["<pre>" + "\n".join(html(line) for line in render_witness(w, indent="")) + "</pre>"]
    blocks.append(_note(WITNESS_LEGEND))
    drawing = game_graph(w.mechanism, witness=w, max_nodes=DRAWING_MAX_NODES)
    blocks.append(_drawing_html(drawing))
    return fragment(blocks)


def verdict_html(v: Verdict) -> str:
    """One claim's verdict: its row of the claims table and its details, as in the HTML report."""
    return fragment(verdict_body(v))


def file_html(fr: FileResult) -> str:
    """A case file's result: header and claims as on its HTML report page."""
    return fragment(case_body(fr))


def run_html(run: RunResult) -> str:
    """A run over several files: the summary line, then each file as :func:`file_html` shows it."""
    blocks = [f"<p><strong>{html(render_summary(run.files))}</strong></p>"]
    for fr in run.files:
        blocks.extend(case_body(fr))
    return fragment(blocks)


# --- plots -----------------------------------------------------------------------------------


def plot_png(curves: Sequence[Curve], kind: str, title: str) -> bytes | None:
    """PNG of a plot of ``curves`` (a figure of its own, reproducible), or None without matplotlib."""
    try:
        fig = draw(PlotData(list(curves), title), kind)
    except MissingExtraError:
        return None
    buf = io.BytesIO()
    save(fig, buf, "png")
    return buf.getvalue()


def values_html(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], why: str) -> str:
    """A table of exact values (at most :data:`MAX_TABLE_ROWS` rows) with a note saying why."""
    shown = list(rows)[:MAX_TABLE_ROWS]
    out = [f"<p><strong>{html(title)}</strong></p>", _note(why), "<table>"]
    out.append("<tr>" + "".join(f"<th>{html(h)}</th>" for h in header) + "</tr>")
    for row in shown:
        out.append("<tr>" + "".join(f"<td><code>{html(c)}</code></td>" for c in row) + "</tr>")
    out.append("</table>")
    if len(rows) > len(shown):
        out.append(_note(f"… {len(rows) - len(shown)} more rows"))
    return fragment(out)


def _without_plot() -> str | None:
    """Why there is no plot (matplotlib missing), or None when there is one."""
    if importlib.util.find_spec("matplotlib") is not None:
        return None
    return "No plot: plots need matplotlib, the optional extra 'plot' (pip install 'exactdp[plot]'). Exact values:"


def _profile_png(p: Profile) -> bytes | None:
    return plot_png([profile_curve(p.mechanism, p)], "profile", f"privacy profile of {p.mechanism}")


def _profile_html(p: Profile) -> str | None:
    why = _without_plot()
    if why is None:
        return None
    rows = [(ladder.text(ladder.log(lam)), ladder.text(lam), ladder.text(d)) for lam, d in p.breakpoints()]
    rows.append(("∞", "∞", ladder.text(p.limit())))
    return values_html(f"privacy profile of {p.mechanism}", ("eps", "e^eps", "delta(e^eps)"), rows, why)


def _tradeoff_png(t: Tradeoff) -> bytes | None:
    return plot_png(curves_of("region", t), "region", f"trade-off function {t.label}")


def _tradeoff_html(t: Tradeoff) -> str | None:
    why = _without_plot()
    if why is None:
        return None
    rows = [(ladder.text(a), ladder.text(b)) for a, b in t.vertices]
    return values_html(f"trade-off function {t.label}", ("alpha (type I)", "beta (type II)"), rows, why)


def _renyi_png(c: RenyiCurve) -> bytes | None:
    return plot_png(curves_of("renyi", c), "renyi", f"Renyi divergences of {c.mechanism}")


def _renyi_html(c: RenyiCurve) -> str | None:
    why = _without_plot()
    if why is None:
        return None
    rows = [(alpha_str(a), ladder.text(v), ladder.decimal(v)) for a, v in c.points]
    return values_html(f"Renyi divergences of {c.mechanism}", ("alpha", "D_alpha", "≈"), rows, why)


def _piecewise_html(pw: Piecewise) -> str:
    """A piecewise answer: one row per piece of the symbols' domain with its exact closed form
    (a profile: its segments, as ``exactdp profile`` prints them)."""
    why = "Exact closed forms, decided for every value of the symbols."
    if pw.pieces and isinstance(pw.pieces[0].value, ProfileView):
        title, *lines = profile_lines(pw.pieces[0].value.profile.mechanism, pw)
        pre = "<pre>" + "\n".join(html(line) for line in lines) + "</pre>"
        return fragment([f"<p><strong>{html(title)}</strong></p>", _note(why), pre])
    title = f"{pw.what}, for every value: {pw.domain_text()}"
    return values_html(title, ("where", "value"), [(p.text(), p.value_text()) for p in pw.pieces], why)


def _guarded(fn: Callable[[Any], Any], mime: str) -> Callable[[Any], Any]:
    """A renderer that shows an exactdp error (a limit, an inexact value) instead of raising."""

    def render(obj: Any) -> Any:
        try:
            return fn(obj)
        except ExactDPError as e:
            return fragment([_note(f"Cannot show this: {e}")]) if mime == "text/html" else None

    return render


RENDERERS: list[tuple[type, str, Callable[[Any], Any]]] = [
    (Mechanism, "text/html", mechanism_html),
    (Witness, "text/html", witness_html),
    (Verdict, "text/html", verdict_html),
    (FileResult, "text/html", file_html),
    (RunResult, "text/html", run_html),
    (Profile, "image/png", _profile_png),
    (Profile, "text/html", _profile_html),
    (Tradeoff, "image/png", _tradeoff_png),
    (Tradeoff, "text/html", _tradeoff_html),
    (RenyiCurve, "image/png", _renyi_png),
    (RenyiCurve, "text/html", _renyi_html),
    (Piecewise, "text/html", _piecewise_html),
]


def register_all() -> None:
    """Register every renderer of :data:`RENDERERS` with :mod:`exactdp.display`."""
    for cls, mime, fn in RENDERERS:
        register(cls, mime, _guarded(fn, mime))


register_all()
