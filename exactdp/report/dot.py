r"""Drawings of games in Graphviz DOT: adversary choices, answers, views, and a witness.

The game of a mechanism (Vadhan–Wang Def. 1.5–1.7) is drawn as its game DAG
(:func:`dag_graph`, :mod:`exactdp.model.game`): one node per sub-game, shared sub-games drawn
once, as exactdp stores and analyses them.  With a witness it is drawn as the tree of its
histories (:func:`game_graph`), because a view *is* a path and a deterministic adversary chooses
as a function of the history (Lemma 2.2): a sub-game the DAG shares is then drawn once per
history reaching it.

* an adversary choice (``Ask``) is a box; its edges are the options;
* a mechanism answer (``Chance``) is an ellipse; its edges carry the answer and its exact
  probability under every dataset (``3/4 | 1/4`` for datasets x0, x1);
* the end of the interaction is a leaf: one view.

With a witness (:class:`~exactdp.analysis.witness.Witness`) the adversary's choices are drawn
bold, the options it does not take and the histories it never reaches grey, and the views of the
event T = {v : P_x(v) > e^ε P_x'(v)} are filled, with P_x(v) and P_x'(v).  Trees larger than a
depth (``depth``) or a node budget (``max_nodes``) are cut, with a note saying where.

The graph is built as a ``networkx.MultiDiGraph`` (:func:`game_graph`) and written as DOT by
:func:`to_dot`, every label passed through :func:`.escape.dot`.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from typing import Any

from ..analysis.witness import Witness
from ..errors import ExactDPError
from ..lazy import networkx as nx
from ..model.game import Ask, Chance, End, Mechanism, Node, label_str
from ..model.symbolic import SymChance
from ..numbers import INF, ladder
from ..numbers.rational import Q, q_str
from .escape import dot

__all__ = [
    "drawing_dot",
    "GameDrawing",
    "dag_graph",
    "game_graph",
    "to_dot",
    "render_graphviz",
    "GraphvizMissingError",
    "GraphvizFailedError",
    "DEFAULT_MAX_NODES",
]

DEFAULT_MAX_NODES = 400

_BOLD = "#D55E00"
_GREY = "#A0A0A0"
_EVENT_FILL = "#F0E442"


class GraphvizMissingError(ExactDPError, RuntimeError):
    """The ``dot`` program of Graphviz is not installed."""


class GraphvizFailedError(ExactDPError, RuntimeError):
    """The ``dot`` program of Graphviz ran but failed (or could not be run, or timed out)."""


@dataclass(frozen=True)
class GameDrawing:
    """A drawn game: the networkx graph, the graph's caption and whether it was cut."""

    graph: Any
    caption: list[str]
    cut_depth: int | None


def _depth_for_budget(mech: Mechanism, max_nodes: int) -> int | None:
    """The largest depth whose unfolded tree has at most ``max_nodes`` nodes (None: all of it)."""
    level: list[Node] = [mech.root]
    total, d = 1, 0
    while level:
        nxt = [c for n in level for c in n.children_nodes()]
        if not nxt:
            return None
        if total + len(nxt) > max_nodes:
            return d
        total += len(nxt)
        level, d = nxt, d + 1
    return None


def _rows(node: Chance) -> tuple:
    """Probabilities per answer and dataset: exact rationals, or SymPy expressions for a
    mechanism with symbols (drawn as text; no witness exists for those)."""
    return node.sym if isinstance(node, SymChance) else node.probs


def _probs(row: tuple) -> str:
    return " | ".join(ladder.text(p) for p in row)


class _Walk:
    """State of the unfolding: the graph, node numbering and the witness pair's probabilities."""

    def __init__(self, mech: Mechanism, witness: Witness | None):

        self.g = nx.MultiDiGraph()
        self.mech = mech
        self.w = witness
        self.count = 0
        self.in_t = 0

    def new(self, **attrs: Any) -> str:
        nid = f"n{self.count}"
        self.count += 1
        self.g.add_node(nid, **attrs)
        return nid


def _leaf_attrs(walk: _Walk, hist: tuple, px: Any, pxp: Any, reached: bool) -> dict[str, Any]:
    w = walk.w
    attrs: dict[str, Any] = {"kind": "end", "label": "view", "shape": "plaintext"}
    if w is None or not reached:
        return attrs | ({"fontcolor": _GREY} if w is not None else {})

    # in T when P_x(v) > e^eps P_x'(v) (the witness's event, Vadhan-Wang Def. 1.7)
    in_t = bool(px) and (not pxp or ladder.cmp(px / pxp, w.lam) > 0)
    x, xp = w.pair_names
    attrs["label"] = f"{q_str(px)} vs {q_str(pxp)}"
    attrs["tooltip"] = f"Pr[view | {x}] = {q_str(px)}, Pr[view | {xp}] = {q_str(pxp)}"
    if in_t:
        walk.in_t += 1
        attrs.update(shape="box", style="filled,rounded", fillcolor=_EVENT_FILL, label="in T: " + attrs["label"])
    return attrs


def game_graph(
    mech: Mechanism, *, depth: int | None = None, max_nodes: int = DEFAULT_MAX_NODES, witness: Witness | None = None
) -> GameDrawing:
    """The tree of histories of ``mech`` as a networkx graph (see the module docstring).

    Parameters
    ----------
    depth : int, optional
        Draw at most this many moves from the root; deeper sub-games become a "…" node.
    max_nodes : int
        Without ``depth``, cut at the largest depth whose tree has at most this many nodes.
    witness : Witness, optional
        Highlight its adversary's choices and the views of its event.
    """
    cut = depth if depth is not None else _depth_for_budget(mech, max_nodes)
    walk = _Walk(mech, witness)
    i, j = witness.pair if witness is not None else (0, 1)
    root = walk.new()
    # (graph node, game node, history, depth, P_x, P_x', reached by the witness adversary)
    stack: list[tuple[str, Node, tuple, int, Any, Any, bool]] = [(root, mech.root, (), 0, Q(1), Q(1), True)]
    truncated = False
    while stack:
        nid, node, hist, d, px, pxp, reached = stack.pop()
        grey = witness is not None and not reached
        if isinstance(node, End):
            walk.g.nodes[nid].update(_leaf_attrs(walk, hist, px, pxp, reached))
            continue
        if cut is not None and d >= cut:
            truncated = True
            walk.g.nodes[nid].update(
                kind="cut", label="…", shape="plaintext", tooltip="sub-game not drawn (depth limit)"
            )
            continue
        kids = _expand(walk, nid, node, hist, d, px, pxp, reached, i, j)
        walk.g.nodes[nid].update(_node_attrs(node, grey))
        stack.extend(reversed(kids))
    caption = _caption(mech, witness, walk, cut if truncated else None)
    return GameDrawing(walk.g, caption, cut if truncated else None)


def dag_graph(mech: Mechanism, *, depth: int | None = None, max_nodes: int = DEFAULT_MAX_NODES) -> GameDrawing:
    """The game DAG of ``mech`` itself as a networkx graph: one node per game node (shared
    sub-games once), adversary choices as boxes, answer edges with their label and exact
    probability under every dataset, and one leaf for the end of the interaction.

    Nodes deeper than ``depth`` moves (or beyond ``max_nodes`` nodes, breadth first) are left
    out, with a note saying so.
    """

    g = nx.MultiDiGraph()
    ids: dict[int, str] = {}
    level, d, cut = [mech.root], 0, None
    while level:
        if (depth is not None and d > depth) or len(ids) + len(level) > max_nodes:
            cut = d - 1
            break
        nxt: list[Node] = []
        for node in level:
            if node.uid in ids:
                continue
            ids[node.uid] = f"n{len(ids)}"
            nxt.extend(node.children_nodes())
        level, d = [n for n in nxt if n.uid not in ids], d + 1
    for nid in ids.values():
        g.add_node(nid, kind="pending")
    for node in mech.nodes():
        if node.uid not in ids:
            continue
        nid = ids[node.uid]
        if isinstance(node, End):
            g.nodes[nid].update(kind="end", label="end", shape="point")
            continue
        assert isinstance(node, (Ask, Chance))  # the other kinds of game node
        g.nodes[nid].update(_node_attrs(node, False))
        rows = _rows(node) if isinstance(node, Chance) else [None] * len(node.labels)
        for lab, row, child in zip(node.labels, rows, node.children_nodes()):
            if child.uid not in ids:
                ids[child.uid] = f"n{len(ids)}"
                g.add_node(
                    ids[child.uid], kind="cut", label="…", shape="plaintext", tooltip="sub-game not drawn (depth limit)"
                )
            text = label_str(lab) if row is None else f"{label_str(lab)}: {_probs(row)}"
            g.add_edge(nid, ids[child.uid], label=text, kind="choice" if row is None else "answer")
    caption = [
        f"{mech.name}: the game DAG (shared sub-games drawn once); answer edges show the probability under "
        + " | ".join(mech.datasets)
    ]
    if cut is not None:
        caption.append(f"cut after depth {cut}: deeper sub-games are drawn as '…' (raise --depth to see more)")
    return GameDrawing(g, caption, cut)


def _node_attrs(node: Node, grey: bool) -> dict[str, Any]:
    if isinstance(node, Ask):
        attrs = {"kind": "ask", "label": "adversary", "shape": "box"}
    else:
        attrs = {"kind": "chance", "label": "mechanism", "shape": "ellipse"}
    if grey:
        attrs.update(color=_GREY, fontcolor=_GREY)
    return attrs


def _expand(
    walk: _Walk, nid: str, node: Node, hist: tuple, d: int, px: Any, pxp: Any, reached: bool, i: int, j: int
) -> list:

    kids = []
    w = walk.w
    if isinstance(node, Ask):
        chosen = None
        if w is not None and reached:
            chosen = w.policy.choose(node, hist, INF if not pxp else px / pxp)
        for k, (lab, child) in enumerate(zip(node.labels, node.children)):
            cid = walk.new()
            on = chosen == k
            attrs: dict[str, Any] = {"label": label_str(lab), "kind": "choice"}
            if w is not None:
                attrs.update(color=_BOLD, penwidth="2.5", fontcolor=_BOLD) if on else attrs.update(
                    color=_GREY, fontcolor=_GREY, style="dashed"
                )
            walk.g.add_edge(nid, cid, **attrs)
            kids.append((cid, child, hist + (("q", lab),), d + 1, px, pxp, reached and (w is None or on)))
    elif isinstance(node, Chance):
        for lab, row, child in zip(node.labels, _rows(node), node.children):
            cid = walk.new()
            attrs = {"label": f"{label_str(lab)}: {_probs(row)}", "kind": "answer"}
            if w is not None and not reached:
                attrs.update(color=_GREY, fontcolor=_GREY)
            walk.g.add_edge(nid, cid, **attrs)
            # the witness pair's probabilities of the history (only needed with a witness)
            p2, pp2 = (px * row[i], pxp * row[j]) if w is not None else (px, pxp)
            kids.append((cid, child, hist + (("a", lab),), d + 1, p2, pp2, reached))
    return kids


def _caption(mech: Mechanism, w: Witness | None, walk: _Walk, cut: int | None) -> list[str]:
    lines = [f"{mech.name}: answer edges show the probability under " + " | ".join(mech.datasets)]
    if w is not None:
        x, xp = w.pair_names
        lines.append(
            f"witness ({w.source} engine, re-checked): datasets ({x}, {xp}), eps = {ladder.text(ladder.log(w.lam))}; "
            f"bold: the adversary's choices; filled: views in T ({walk.in_t} drawn)"
        )
        lines.append(f"Pr[T | {x}] = {q_str(w.p)}, Pr[T | {xp}] = {q_str(w.p_prime)}")
    if cut is not None:
        lines.append(f"cut at depth {cut}: deeper moves are drawn as '…' (raise --depth to see more)")
    return lines


def _attrs_text(attrs: dict[str, Any]) -> str:
    parts = [f'{k}="{dot(v)}"' for k, v in sorted(attrs.items()) if k != "kind"]
    return "[" + ", ".join(parts) + "]" if parts else ""


def to_dot(drawing: GameDrawing, *, title: str = "") -> str:
    """DOT text of a drawing: deterministic (nodes in walk order), every label escaped."""
    g = drawing.graph
    cap = ([title] if title else []) + drawing.caption
    label = "\\n".join(dot(c) for c in cap)  # DOT's own line break between escaped lines
    out = [
        "digraph game {",
        f'  graph [rankdir="TB", fontname="DejaVu Sans", fontsize="11", labelloc="t", label="{label}"];',
        '  node [fontname="DejaVu Sans", fontsize="10"];',
        '  edge [fontname="DejaVu Sans", fontsize="9"];',
    ]
    for n, attrs in g.nodes(data=True):
        out.append(f"  {n} {_attrs_text(dict(attrs))};")
    for u, v, attrs in g.edges(data=True):
        out.append(f"  {u} -> {v} {_attrs_text(dict(attrs))};")
    out.append("}")
    return "\n".join(out) + "\n"


def drawing_dot(
    mech: Mechanism, case: Any, *, depth: int | None = None, witness: Witness | None = None, tree: bool = False
) -> tuple[str | None, str]:
    """The DOT text of the drawing of ``mech`` (titled with ``case``'s name and reference): the
    tree of its histories (``tree``, or with a ``witness`` to highlight), else its game DAG, cut
    at ``depth`` moves from the root; and the note saying where it was cut, if it was."""
    drawing = (
        game_graph(mech, depth=depth, witness=witness) if tree or witness is not None else dag_graph(mech, depth=depth)
    )
    title = case.name + (f" [{case.reference}]" if case.reference else "")
    return (drawing.caption[-1] if drawing.cut_depth is not None else None), to_dot(drawing, title=title)


def render_graphviz(dot_text: str, fmt: str, *, timeout: float = 60.0) -> bytes:
    """Run Graphviz ``dot -T<fmt>`` on ``dot_text`` (svg or png)."""
    exe = shutil.which("dot")
    if exe is None:
        raise GraphvizMissingError(
            "rendering needs the Graphviz program 'dot' (e.g. apt-get install graphviz); "
            "`exactdp info --dot` writes the DOT text without it"
        )
    try:
        p = subprocess.run(
            [exe, f"-T{fmt}"], input=dot_text.encode("utf-8"), capture_output=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:  # (not executable, or hung)
        raise GraphvizFailedError(f"Graphviz's dot ({exe}) could not draw the game: {e}") from None
    if p.returncode != 0:
        said = " ".join(p.stderr.decode("utf-8", "replace").split())[:300] or f"exit status {p.returncode}"
        raise GraphvizFailedError(f"Graphviz's dot ({exe}) failed: {said}")
    return p.stdout
