"""A static, self-contained HTML report of a verification run (for CI artifacts).

``index.html`` has the summary and one row per case file (claims held and failed, time), the
failing files first and every failing claim linked from the top; each case file gets a page with
its claims (failing ones first), the exact values found, witnesses, an inline SVG plot of the
privacy profiles (matplotlib, the optional extra ``plot``) and, for small games, the drawing of
the game (Graphviz, when installed).  No script, no network: styles are inline and fonts are the
reader's own, so the report works offline and from a ``file://`` URL.  All case-file text goes
through :func:`.escape.html`; inline SVG is stripped of comments and prologs.  The figures'
data are computed before (:func:`exactdp.figures.case_figures`): this module only draws them.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..caseio.files import short_name
from ..caseio.sweep import point_label
from ..claims import FAILS, HOLDS, UNDECIDED, UNSUPPORTED, Verdict
from ..errors import cut
from ..figures import CaseFigures, PlotData
from ..verify import FileResult, RunResult
from .dot import GraphvizMissingError, game_graph, render_graphviz, to_dot
from .escape import error_text, html, html_line, text
from .plot import MissingExtraError, render_svg
from .text import render_any_witness, run_scope
from .verdicts import STATUS_TEXT, claim_labels, label_words, shown, value_text

__all__ = [
    "write_report",
    "write_cli",
    "page_name",
    "render_index",
    "render_case_page",
    "case_body",
    "verdict_body",
    "fragment",
    "inline_svg",
    "GAME_DRAWING_MAX_NODES",
]

GAME_DRAWING_MAX_NODES = 120  # a game is drawn when its tree of histories has at most this many nodes

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#111;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}code,pre{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.3em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f4}.s-holds{color:#1a7f37}.s-fails,.s-error,.s-invalid{color:#b42318;font-weight:600}.s-unsupported{color:#9a6700;font-weight:600}
.mark{font-weight:700;white-space:nowrap}.num{text-align:right;font-variant-numeric:tabular-nums}
.claim{border:1px solid #ddd;border-left:6px solid #1a7f37;border-radius:4px;padding:.5em .8em;margin:.8em 0}
.claim.c-fails,.claim.c-error{border-left-color:#b42318}.claim.c-unsupported{border-left-color:#9a6700}
.claim h3{font-size:1em;margin:.2em 0;color:#111}pre{background:#f7f7f7;padding:.6em;overflow-x:auto;white-space:pre-wrap}
.meta{color:#555}.figure svg{max-width:100%;height:auto}.banner{padding:.6em 1em;border-radius:4px;margin:1em 0}
.banner.ok{background:#dafbe1}.banner.bad{background:#ffebe9}dl.values{display:grid;grid-template-columns:max-content auto;gap:.1em 1em;margin:.4em 0}
dl.values dt{color:#555}dl.values dd{margin:0;font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em;overflow-wrap:anywhere}
"""

_MARK = {HOLDS: "✓", FAILS: "✗", UNSUPPORTED: "?", UNDECIDED: "!"}


def page_name(file: str, used: set[str]) -> str:
    """A file name for a case page: the case path with unsafe characters replaced, unique also
    where file names ignore case (``used`` holds the names taken, case-folded)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", file.replace("\\", "/").strip("/").replace("/", "__"))
    stem = re.sub(r"\.ya?ml$", "", stem) or "case"
    stem = short_name(stem)
    name, k = f"{stem}.html", 2
    while name.casefold() in used or name.casefold() == "index.html":  # (INDEX.html is index.html on macOS)
        name, k = f"{stem}-{k}.html", k + 1
    used.add(name.casefold())
    return name


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def _file_counts(fr: FileResult) -> dict[str, int]:
    out: dict[str, int] = {HOLDS: 0, FAILS: 0, UNSUPPORTED: 0, UNDECIDED: 0}
    for v in fr.verdicts:
        out[v.status] = out.get(v.status, 0) + 1
    return out


def _file_status(fr: FileResult) -> str:
    if fr.error is not None:
        return "invalid" if fr.invalid else "error"
    return "holds" if fr.exit_code == 0 else "fails"


def _order(files: Sequence[tuple[FileResult, str]]) -> list[tuple[FileResult, str]]:
    """Failing files first (internal errors, invalid, undecided, failing), in run order otherwise."""
    rank = {3: 0, 2: 1, 1: 2, 0: 3}
    return sorted(files, key=lambda fp: rank.get(fp[0].exit_code, 0))


def _verdict_order(verdicts: Sequence[Verdict]) -> list[tuple[str, Verdict]]:
    """(label: the number in the file, or premise-k; verdict), claims that do not hold first."""
    numbered = list(zip(claim_labels(verdicts), verdicts))
    return [p for p in numbered if p[1].status != HOLDS] + [p for p in numbered if p[1].status == HOLDS]


def render_index(run: RunResult, pages: Sequence[tuple[FileResult, str]], *, when: str = "") -> str:
    """index.html: summary, the failing claims linked, one row per case file."""
    c = run.counts()
    total = sum(c[s] for s in (HOLDS, FAILS, UNSUPPORTED, UNDECIDED))
    bad = run.exit_code != 0
    parts = [f"{c[HOLDS]} hold", f"{c[FAILS]} fail"]
    if c[UNSUPPORTED]:
        parts.append(f"{c[UNSUPPORTED]} not supported")
    if c[UNDECIDED]:
        parts.append(f"{c[UNDECIDED]} undecided")
    files = run_scope(run.files)
    body = ["<h1>exactdp verification report</h1>"]
    body.append(
        f'<p class="banner {"bad" if bad else "ok"}"><strong>{"Some claims do not hold" if bad else "Every claim holds"}</strong>: '
        f"{total} claims in {files}: {', '.join(parts)} (exit status {run.exit_code}).{html(when)}</p>"
    )
    body.extend(_failing_list(pages))
    body.append(
        '<h2>Case files</h2>\n<table>\n<tr><th></th><th>file</th><th>case</th><th class="num">held</th>'
        '<th class="num">failed</th><th class="num">other</th><th class="num">time (s)</th></tr>'
    )
    for fr, page in _order(pages):
        k = _file_counts(fr)
        st = _file_status(fr)
        mark = {"holds": "✓", "fails": "✗"}.get(st, "!")
        name = html(fr.case.name) if fr.case is not None else f'<span class="s-{st}">{st}</span>'
        body.append(
            f'<tr><td class="mark s-{st}">{mark}</td><td><a href="{html(page)}">{html(fr.file)}</a></td><td>{name}</td>'
            f'<td class="num">{k[HOLDS]}</td><td class="num">{k[FAILS]}</td><td class="num">{k[UNSUPPORTED] + k[UNDECIDED]}</td>'
            f'<td class="num">{fr.seconds:.2f}</td></tr>'
        )
    body.append(
        '</table>\n<p class="meta">Exact verdicts by exactdp: rational arithmetic, certified comparisons; '
        "every witness re-checked by an independent forward computation.</p>\n"
    )
    return _page("exactdp report", "\n".join(body))


def _failing_list(pages: Sequence[tuple[FileResult, str]]) -> list[str]:
    items = []
    for fr, page in _order(pages):
        if fr.error is not None:
            items.append(
                f'<li><a href="{html(page)}">{html(fr.file)}</a>: <span class="s-{_file_status(fr)}">{_file_status(fr)}</span></li>'
            )
            continue
        for n, v in _verdict_order(fr.verdicts):
            if v.status != HOLDS:
                items.append(
                    f'<li><a href="{html(page)}#claim-{n}">{html(fr.file)}, {label_words(n)}</a>: '
                    f'<span class="s-{v.status}">{STATUS_TEXT[v.status]}</span>: {html(v.claim.describe())}</li>'
                )
    if not items:
        return []
    return ['<h2 id="failing">Claims that do not hold</h2>', "<ul>", *items, "</ul>"]


def _flat(v: Any) -> str:
    """A value of the JSON report as one line of text.  Structured records read as their text:
    a piece of a symbols' domain as ``where: value``, an exact endpoint as its exact form, an
    interval by its ``text`` (the full records are in ``--json``)."""
    if v is None:
        return ""
    if isinstance(v, (list, tuple)):
        return "; ".join(
            _flat(x) if isinstance(x, dict) else ", ".join(map(str, x)) if isinstance(x, (list, tuple)) else str(x)
            for x in v
        )
    if not isinstance(v, dict):
        return str(v)
    if "text" in v:
        return str(v["text"])
    if "where" in v and "value" in v:
        return f"{v['where']}: {v['value']}"
    if "exact" in v:
        return str(v["exact"])
    return "; ".join(f"{a}: {_flat(b)}" for a, b in v.items())


def _values(values: Any) -> str:
    if not values:
        return ""
    rows = [f"<dt>{html(k)}</dt><dd>{html(_flat(v))}</dd>" for k, v in values.items()]
    return '<dl class="values">' + "".join(rows) + "</dl>"


def _pre(lines: Sequence[str]) -> str:
    """Preformatted lines of the text report (their case-file pieces already escaped, not again)."""
    return "<pre>" + "\n".join(html_line(line) for line in lines) + "</pre>"


def _claim_block(n: str, v: Verdict) -> str:
    c = v.claim
    params = ", ".join(f"{k}: {val}" for k, val in c.params().items())
    where = f"line {c.where.line}" if c.where.line is not None else ""
    out = [f'<div class="claim c-{v.status}" id="claim-{n}">']
    out.append(
        f'<h3><span class="mark s-{v.status}">{_MARK[v.status]} {STATUS_TEXT[v.status]}</span> '
        f"&nbsp;{label_words(n)}: {html(c.describe())}</h3>"
    )
    out.append(f'<p class="meta">{html(c.kind)} ({html(params)}){"; " + where if where else ""}</p>')
    sh = shown(v)
    out.append(f"<p>found: <code>{html(sh.found)}</code>" + (f"<br>{html(sh.note)}" if sh.note else "") + "</p>")
    value = value_text(v)
    if value:  # the claim kind's declared value, as a sweep's table and CSV show it
        out.append(f'<p class="value">{html(c.shown().doc)}: <code>{html(value)}</code></p>')
    out.append(_values(sh.values))
    if sh.details:
        out.append(_pre([text(d) for d in sh.details]))
    if v.witness is not None:
        lines = render_any_witness(v.witness, indent="")
        out.append("<p>witness:</p>" + _pre(lines))
    out.append("</div>")
    return "\n".join(out)


def _claim_table(verdicts: Sequence[Verdict]) -> str:
    """One row per claim (failing first), linked to its details below."""
    rows = ["<table>", "<tr><th></th><th>#</th><th>claim</th><th>found</th></tr>"]
    for n, v in _verdict_order(verdicts):
        rows.append(
            f'<tr><td class="mark s-{v.status}">{_MARK[v.status]}</td><td><a href="#claim-{n}">{label_words(n).removeprefix("claim ")}</a></td>'
            f"<td>{html(v.claim.describe())}</td><td><code>{html(shown(v).found)}</code></td></tr>"
        )
    rows.append("</table>")
    return "\n".join(rows)


def case_body(fr: FileResult) -> list[str]:
    """A case file's header and claims (failing first) as HTML blocks: the part of its report
    page that a notebook shows too (:func:`fragment`)."""
    if fr.error is not None or fr.case is None:
        return [
            f"<h1>{html(fr.file)}</h1>",
            f'<p class="s-{_file_status(fr)}">{"not a valid case file" if fr.invalid else "error"}:</p>',
            _pre(error_text(fr.error) if fr.error is not None else []),
        ]
    case = fr.case
    body = [f"<h1>{html(case.name)}</h1>"]
    if case.title:  # (a page is for reading: a title or reference of millions of characters is cut, visibly)
        body.append(f"<p><strong>{html(cut(case.title, 4000))}</strong></p>")  # (escaped once, by html())
    if case.reference:
        body.append(f'<p class="meta">Reference: {html(cut(case.reference, 4000))}</p>')
    k = _file_counts(fr)
    body.append(
        f'<p class="meta">{html(fr.file)}: {len(fr.verdicts)} claims, {k[HOLDS]} hold, '
        f"{len(fr.verdicts) - k[HOLDS]} do not; {fr.seconds:.2f} s</p>"
    )
    body.append("<h2>Claims</h2>")
    body.append(_claim_table(fr.verdicts))
    body.extend(_claim_block(n, v) for n, v in _verdict_order(fr.verdicts))
    return body


def verdict_body(v: Verdict, n: int | str = 1) -> list[str]:
    """One claim's row of the claims table and its details block, as on a case page (``n``: its
    label, :func:`~exactdp.report.verdicts.claim_labels`)."""
    return [_claim_table([v]), _claim_block(str(n), v)]


def render_case_page(fr: FileResult, figures: Sequence[str] = ()) -> str:
    """One case file's page: header, claims (failing first), figures (already HTML)."""
    body = ['<p><a href="index.html">← all case files</a></p>', *case_body(fr)]
    title = html(fr.case.name) if fr.error is None and fr.case is not None else html(fr.file)
    if fr.error is None and fr.case is not None:
        body.extend(figures)
    return _page(title, "\n".join(body))


def fragment(blocks: Sequence[str], scope: str = "exactdp") -> str:
    """Blocks of a report as one ``<div class="{scope}">`` with the report's styles limited to
    it (a notebook's page keeps its own look): no script, nothing loaded."""
    css = re.sub(r"(^|\})\s*([^{}@]+)\{", lambda m: m.group(1) + _scoped(m.group(2), scope) + "{", _CSS.strip())
    # a page around the output (a notebook, a docs theme) styles headings: these win over it
    css += (
        f"div.{scope}{{margin:0;padding:0;max-width:none}}"
        f"div.{scope} h1{{font-size:1.3em;margin:.4em 0;font-weight:600}}div.{scope} h2{{font-size:1.1em;margin:.8em 0 .3em}}"
        f"div.{scope} h3{{font-size:1em;margin:.2em 0}}"
    )
    return f'<div class="{scope}"><style>{css}</style>' + "\n".join(blocks) + "</div>"


def _scoped(selectors: str, scope: str) -> str:
    return ",".join(f".{scope}" if s.strip() == "body" else f".{scope} {s.strip()}" for s in selectors.split(","))


def inline_svg(svg: str, ids: str = "") -> str:
    """SVG text ready to go inline into HTML: no comments, prolog, DOCTYPE or metadata; with
    ``ids``, every element id and reference to one starts with it (two plots on one page repeat
    matplotlib's ids, and ids must be unique in an HTML document)."""
    if ids:
        svg = re.sub(r'(\bid="|url\(#|href="#)', lambda m: m.group(1) + ids, svg)
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r"<\?xml.*?\?>|<!DOCTYPE.*?>", "", svg, flags=re.S)
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)  # RDF namespace names only
    return svg[svg.index("<svg") :].strip()


def _figures(fig: CaseFigures) -> list[str]:
    """The profile plot(s) and the game drawing of a case, as HTML (or a note saying why not)."""
    return ["<h2>Privacy profile</h2>", _plot_figure(fig), _game_figure(fig)]


def _plot_figure(fig: CaseFigures) -> str:
    if fig.error is not None:
        return f'<p class="meta">No plot: {html_line(" ".join(error_text(fig.error)))}</p>'
    try:
        blocks = []
        if fig.profile is not None:
            caption = "δ(ε) of " + ", ".join(fig.mechanisms) + " (exact breakpoints marked)"
            blocks.append(_figure_html(render_svg(fig.profile), caption, "profile-"))
        if fig.composition is not None:
            caption = _notes(fig.composition) + ": the composition found"
            caption += " and the theorem's bound" if any(c.bound for c in fig.composition.curves) else ""
            caption += "".join(f"; {n}" for n in fig.composition.notes[1:])
            blocks.append(_figure_html(render_svg(fig.composition), caption, "composition-"))
        return "\n".join(blocks)
    except MissingExtraError as e:
        return f'<p class="meta">No plot: {html(e)}.</p>'


def _notes(data: PlotData) -> str:
    return data.notes[0] if data.notes else ""


def _figure_html(svg: str, caption: str, ids: str) -> str:
    figure = inline_svg(svg, ids)
    return f'<figure class="figure">{figure}<figcaption class="meta">{html(caption)}</figcaption></figure>'


def _game_figure(fig: CaseFigures) -> str:
    name = fig.game_name
    if fig.game is None:
        return ""
    drawing = game_graph(fig.game, max_nodes=GAME_DRAWING_MAX_NODES)
    if drawing.cut_depth is not None:
        return (
            f'<h2>Game</h2><p class="meta">The game of {html(name)} is too large to draw here (more than '
            f"{GAME_DRAWING_MAX_NODES} histories): <code>exactdp info CASE --of NAME --svg FILE --depth N</code> draws it.</p>"
        )
    try:
        svg = render_graphviz(to_dot(drawing), "svg").decode("utf-8")
    except (GraphvizMissingError, RuntimeError) as e:
        return f'<h2>Game</h2><p class="meta">No drawing: {html(e)}.</p>'
    return f"<h2>Game of {html(name)}</h2>" + _figure_html(
        svg, "adversary choices as boxes, answers as edges with their probability under each dataset", "game-"
    )


def _relative_names(files: Sequence[str]) -> list[str]:
    """The files' paths relative to their common directory (page names stay short)."""
    if not files:
        return []
    parents = [os.path.dirname(os.path.normpath(f)) for f in files]
    try:
        common = os.path.commonpath(parents) if all(parents) else ""
    except ValueError:  # absolute and relative paths mixed
        common = ""
    return [os.path.relpath(os.path.normpath(f), common) if common else os.path.normpath(f) for f in files]


def _point_suffix(fr: FileResult) -> str:
    """``-k=3,eps=log(2)``: a sweep point's page is named after its point (made safe by page_name)."""
    if not fr.point:
        return ""
    return "-" + point_label(fr.point).replace(" ", "")


def write_report(run: RunResult, out_dir: str | Path, figures: Sequence[CaseFigures | None] | None = None) -> Path:
    """Write index.html and one page per case file into ``out_dir`` (created); return index.html.

    ``figures``, one per file of ``run`` (:func:`exactdp.figures.case_figures`), adds each case
    page's profile plot and game drawing; without it the pages have none."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
    names = _relative_names([fr.file for fr in run.files])
    pages = [(fr, page_name(re.sub(r"\.ya?ml$", "", n) + _point_suffix(fr), used)) for fr, n in zip(run.files, names)]
    figs = list(figures) if figures is not None else [None] * len(pages)
    for (fr, page), fig in zip(pages, figs, strict=True):
        (out / page).write_text(render_case_page(fr, _figures(fig) if fig is not None else []), encoding="utf-8")
    index = out / "index.html"
    index.write_text(render_index(run, pages), encoding="utf-8")
    return index


def write_cli(run: RunResult, out_dir: str, figures: Sequence[CaseFigures | None] | None = None) -> bool:
    """``verify --html DIR``: write the report, or say on stderr why it could not be written
    (the verdicts on stdout are unaffected; ``verify`` then exits with status 2).  True when
    written."""
    try:
        index = write_report(run, out_dir, figures)
    except OSError as e:
        print(f"exactdp: cannot write the HTML report to {text(out_dir)}: {text(e.strerror or e)}", file=sys.stderr)
        return False
    print(f"exactdp: HTML report written to {text(str(index))}", file=sys.stderr)
    return True
