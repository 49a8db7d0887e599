"""``exactdp info --dot/--svg/--png``: writing and rendering the drawing of a game."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from ..analysis import make_engine
from ..report.dot import GraphvizMissingError, dag_graph, game_graph, render_graphviz, to_dot
from ..report.escape import text

__all__ = ["draw_game"]


def _write(path: str, data: bytes | str, what: str) -> None:
    """Write ``data`` to ``path`` and say so on stderr (stdout keeps what the command prints)."""
    try:
        if isinstance(data, str):
            Path(path).write_text(data, encoding="utf-8")
        else:
            Path(path).write_bytes(data)
    except OSError as e:
        click.echo(f"exactdp: cannot write {text(path)}: {text(e.strerror or e)}", err=True)
        sys.exit(2)
    click.echo(f"exactdp: {text(what)} written to {text(path)}", err=True)


def draw_game(
    case: Any,
    mech: Any,
    *,
    eps: Any,
    depth: int | None,
    dot_file: str | None,
    svg_file: str | None,
    png_file: str | None,
    tree: bool = False,
) -> None:
    """Draw ``mech`` to the files asked for: its game DAG, or (``tree``, or with the profile
    engine's witness at ``eps``) the tree of its histories."""
    w = make_engine("profile").witness(mech, eps) if eps is not None else None
    drawing = game_graph(mech, depth=depth, witness=w) if tree or w is not None else dag_graph(mech, depth=depth)
    title = case.name + (f" [{case.reference}]" if case.reference else "")
    src = to_dot(drawing, title=title)
    for line in drawing.caption[-1:] if drawing.cut_depth is not None else []:
        click.echo(text(line), err=True)
    if dot_file == "-":
        click.echo(src, nl=False)
    elif dot_file is not None:
        _write(dot_file, src, f"the drawing of {mech.name} (DOT)")
    for path, fmt in ((svg_file, "svg"), (png_file, "png")):
        if path is None:
            continue
        try:
            _write(path, render_graphviz(src, fmt), f"the drawing of {mech.name} ({fmt.upper()})")
        except GraphvizMissingError as e:
            click.echo(f"exactdp: {e}", err=True)
            sys.exit(2)
