"""exactdp info --dot / exactdp.report.dot: the drawing of a game parses back (pydot through
networkx) with the same nodes and edges; the witness highlights its adversary's choices and
exactly the views of its event; large games are cut with a note; Graphviz renders it."""

from __future__ import annotations

import html
import re
import shutil

import networkx as nx
import pytest
from click.testing import CliRunner

import exactdp
from exactdp import Q
from exactdp.analysis import make_engine
from exactdp.caseio import load_case, parse_case
from exactdp.cli import main
from exactdp.report.dot import game_graph, render_graphviz, to_dot

from .system_tools import needs

pydot = pytest.importorskip("pydot")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pydot 4 on pyparsing 3.2

FIG1 = "cases/vadhan-wang/figure1-two-round.yaml"
KOV = "cases/kov/kfold-rr-pure.yaml"


def read_back(text: str, tmp_path) -> nx.MultiDiGraph:
    p = tmp_path / "g.dot"
    p.write_text(text, encoding="utf-8")
    return nx.nx_pydot.read_dot(p)


def unquote(s: str) -> str:
    """A DOT string as Graphviz reads it: outer quotes gone, \\" and \\\\ unescaped, then
    HTML character entities decoded (Graphviz does so in every label)."""
    s = s[1:-1] if s.startswith('"') and s.endswith('"') else s
    out, i = [], 0
    while i < len(s):
        if s[i] == "\\" and i + 1 < len(s) and s[i + 1] in '"\\':
            out.append(s[i + 1])
            i += 2
        else:
            out.append(s[i])
            i += 1
    return html.unescape("".join(out))


def same_graph(g: nx.MultiDiGraph, back: nx.MultiDiGraph) -> None:
    nodes = {n for n in back.nodes if n not in ("node", "edge", "graph", "\\n")}
    assert nodes == set(g.nodes)
    want = sorted((u, v, d["label"]) for u, v, d in g.edges(data=True))
    got = sorted((u, v, unquote(d["label"])) for u, v, d in back.edges(data=True))
    assert got == want


def test_figure1_parses_back_with_the_same_nodes_and_edges(tmp_path):
    mech = load_case(FIG1).mechanisms["M"]
    d = game_graph(mech)
    same_graph(d.graph, read_back(to_dot(d), tmp_path))
    kinds = nx.get_node_attributes(d.graph, "kind")
    assert sorted(kinds.values()).count("ask") == 2 and list(kinds.values()).count("end") == 8
    # answers carry one exact probability per dataset (Vadhan-Wang Fig. 1: RR with 3/4, 1/4)
    labels = {d["label"] for _, _, d in d.graph.edges(data=True)}
    assert {"0: 1/2 | 1/2", "0: 3/4 | 1/4", "1: 1/4 | 3/4"} <= labels


def test_tree_size_matches_the_histories():
    """The drawing unfolds the DAG: one node per history (root, each edge's endpoint)."""
    m = exactdp.repeat(exactdp.rr(exp_eps=Q(3)), 3)
    d = game_graph(m)
    assert d.graph.number_of_nodes() == 1 + 2 + 4 + 8 and d.cut_depth is None


def test_witness_highlights_choices_and_exactly_the_event(tmp_path):
    mech = load_case(FIG1).mechanisms["M"]
    w = make_engine("profile").witness(mech, exactdp.exact("0"))
    d = game_graph(mech, witness=w)
    g = d.graph
    bold = [(u, v, a["label"]) for u, v, a in g.edges(data=True) if a.get("penwidth") == "2.5"]
    # the adaptive strategy of Vadhan-Wang Fig. 1: after coin 0 choose 0, after coin 1 choose 1
    assert sorted(lab for _, _, lab in bold) == ["0", "1"]
    views, _ = w.event(limit=100)
    filled = [a for _, a in g.nodes(data=True) if a.get("fillcolor")]
    assert len(filled) == len(views) == 2
    # the filled views' probabilities add up to the witness's Pr[T|x], Pr[T|x']
    total = [Q(0), Q(0)]
    for a in filled:
        p, pp = a["label"].removeprefix("in T: ").split(" vs ")
        total[0] += Q(p)
        total[1] += Q(pp)
    assert total == [w.p, w.p_prime]
    same_graph(g, read_back(to_dot(d), tmp_path))


def test_large_games_are_cut_with_a_note(tmp_path):
    m = exactdp.repeat(exactdp.rr(exp_eps=Q(3)), 12)
    d = game_graph(m, max_nodes=100)
    assert d.cut_depth is not None and d.graph.number_of_nodes() <= 100 + 2 ** (d.cut_depth + 1)
    assert any("cut at depth" in line for line in d.caption)
    d2 = game_graph(m, depth=2)
    assert d2.cut_depth == 2
    assert [a["label"] for _, a in d2.graph.nodes(data=True)].count("…") == 4
    same_graph(d2.graph, read_back(to_dot(d2), tmp_path))


def test_hostile_labels_parse_back(tmp_path):
    case = parse_case(
        'exactdp: 1\nname: h\nreference: "r\\"\\\\ \\e]0;x\\a"\nmechanisms:\n  M:\n    tree:\n      ask:\n'
        '        "q\\"\\\\n\\n{}<b>":\n          "a\\\\N\\e[2J\\"": [3/4, 1/4]\n          "b;->c": [1/4, 3/4]\n'
        "claims:\n  - privloss: {equals: log(3)}\n",
        "h.yaml",
    )
    d = game_graph(case.mechanisms["M"])
    text = to_dot(d, title=case.reference)
    assert "\x1b" not in text and "\x07" not in text
    back = read_back(text, tmp_path)
    assert {n for n in back.nodes if n not in ("node", "edge", "graph", "\\n")} == set(d.graph.nodes)
    labels = sorted(unquote(a["label"]) for _, _, a in back.edges(data=True))
    # Graphviz reads back the label with its control characters made visible (\\n, \\x1b), and the
    # text's own backslash before n doubled: the two characters \\ n and a newline never look alike
    assert labels == sorted(['q"\\\\n\\n{}<b>', 'a\\N\\x1b[2J": 3/4 | 1/4', "b;->c: 1/4 | 3/4"])


def test_symbolic_mechanisms_draw_their_expressions():
    case = load_case("cases/vadhan-wang/thm110-rr-symbolic.yaml")
    name = next(iter(case.mechanisms))
    d = game_graph(case.mechanisms[name])
    assert any("E" in a["label"] for _, _, a in d.graph.edges(data=True))


def test_cli_dot_to_stdout_and_file(tmp_path):
    r = CliRunner().invoke(main, ["info", FIG1, "--dot"])
    assert r.exit_code == 0 and r.output.startswith("digraph game {")
    r = CliRunner().invoke(main, ["info", FIG1, "--dot", str(tmp_path / "g.dot"), "--witness", "0", "--depth", "2"])
    assert r.exit_code == 0 and "ask nodes: 2" in r.output
    assert "cut at depth 2" in r.output
    assert (tmp_path / "g.dot").read_text().startswith("digraph game {")
    r = CliRunner().invoke(main, ["info", FIG1, "--witness", "0"])
    assert r.exit_code == 2 and "add --dot, --svg or --png" in r.output


@needs("dot")
def test_graphviz_renders_svg_and_png(tmp_path):
    r = CliRunner().invoke(
        main, ["info", FIG1, "--svg", str(tmp_path / "g.svg"), "--png", str(tmp_path / "g.png"), "--witness", "0"]
    )
    assert r.exit_code == 0, r.output
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    svg = (tmp_path / "g.svg").read_text()
    assert "<svg" in svg and "in T: 3/8 vs 1/8" in svg


ENTITIES = """\
exactdp: 1
name: entities
mechanism:
  ask:
    "<script>alert(1)</script>": {"a&b": [3/4, 1/4], "&lt;x&gt;": [1/4, 3/4]}
    "&amp;&#60;": {"&quot;": [1, 1]}
claims:
  - privloss: {delta: 0, equals: log(3)}
"""


@needs("dot")
def test_graphviz_draws_every_label_as_written(tmp_path):
    """Graphviz decodes HTML character entities in plain labels: a label written `&lt;x&gt;`
    in a case file was drawn as `<x>`, the same as a label `<x>`.  Every label is drawn as the
    characters the case file gives, markup and entities alike (the text of the SVG, decoded as
    a browser decodes it, is the label)."""
    case = parse_case(ENTITIES, "e.yaml")
    svg = render_graphviz(to_dot(game_graph(case.mechanisms["M"])), "svg").decode()
    shown = {html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)}
    assert {
        "<script>alert(1)</script>",
        "&amp;&#60;",
        "a&b: 3/4 | 1/4",
        "&lt;x&gt;: 1/4 | 3/4",
        "&quot;: 1 | 1",
    } <= shown
    assert "<x>: 1/4 | 3/4" not in shown and "&<" not in shown


def test_graphviz_missing_is_a_clear_message(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    r = CliRunner().invoke(main, ["info", FIG1, "--svg", str(tmp_path / "g.svg")])
    assert r.exit_code == 2 and "Graphviz" in r.output and "apt-get install graphviz" in r.output
    with pytest.raises(Exception, match="Graphviz"):
        render_graphviz("digraph {}", "svg")


def test_the_default_drawing_is_the_game_dag_with_shared_sub_games_once(tmp_path):
    """`info --dot` draws the DAG exactdp analyses (Vadhan-Wang Def. 1.5-1.7): one node per game
    node, one edge per option or answer; Figure 1's two anchored answer distributions are shared."""
    from exactdp.report.dot import dag_graph

    mech = load_case(FIG1).mechanisms["M"]
    drawing = dag_graph(mech)
    nodes = mech.nodes()
    assert drawing.graph.number_of_nodes() == len(nodes)
    assert drawing.graph.number_of_edges() == sum(len(n.children_nodes()) for n in nodes)
    answers = [d["label"] for _, _, d in drawing.graph.edges(data=True) if d["kind"] == "answer"]
    assert sorted(answers) == sorted(
        ["0: 1/2 | 1/2", "1: 1/2 | 1/2", "0: 3/4 | 1/4", "1: 1/4 | 3/4", "0: 1/2 | 1/2", "1: 1/2 | 1/2"]
    )
    same_graph(drawing.graph, read_back(to_dot(drawing), tmp_path))
    r = CliRunner().invoke(main, ["info", FIG1, "--dot", "-"])
    assert r.exit_code == 0 and "the game DAG" in r.output and r.output.count("->") == drawing.graph.number_of_edges()
    r = CliRunner().invoke(main, ["info", FIG1, "--dot", "-", "--tree"])
    assert "the game DAG" not in r.output and r.output.count("->") > drawing.graph.number_of_edges()


def test_dag_is_cut_at_a_depth_with_a_note():
    from exactdp.report.dot import dag_graph

    mech = exactdp.repeat(exactdp.rr(eps="log(3)"), 6)
    drawing = dag_graph(mech, depth=2)
    assert drawing.cut_depth == 2 and any("cut after depth 2" in c for c in drawing.caption)
    assert any(d.get("kind") == "cut" for _, d in drawing.graph.nodes(data=True))
