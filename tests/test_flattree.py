"""Big trees read into flat storage: the JSON composer and the event reader against the general
reader (the YAML composer and the typed tree reader), exactly.

Every road must give the same game (labels, probabilities, structure), the same verdicts and,
for a file with a problem, the same located message as the general reader.
"""

from __future__ import annotations

import json
import random

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import profile as P
from exactdp.caseio import parse_case
from exactdp.caseio.flattree import FlatTreeNode
from exactdp.caseio.jsoncase import compose_json
from exactdp.caseio.yamlsafe import YamlLimits, _compose, load_yaml
from exactdp.errors import CaseError
from exactdp.model.flat import _FlatAsk, _FlatChance
from exactdp.model.game import Chance, End, postorder

LIMITS = YamlLimits()
LABELS = ["0", "1", "yes", "no", "a b", "null", "ask", "respond", "p", "then", "é", 'q"1']


@st.composite
def rows(draw, k: int, n: int, plain: bool):
    cols = []
    for _ in range(n):
        den = draw(st.sampled_from([1, 2, 3, 4, 6, 10]))
        w = [draw(st.integers(0, den)) for _ in range(k)]
        if not sum(w):
            w[0] = 1
        tot = sum(w)
        cols.append([(f"{x}/{tot}" if tot != 1 else str(x)) for x in w])
    out = [[cols[d][a] for d in range(n)] for a in range(k)]
    if plain:  # integers as JSON numbers, like a generator might write 0 and 1
        out = [[int(x) if x in ("0", "1") else x for x in r] for r in out]
    return out


@st.composite
def trees(draw, depth: int, n: int, plain: bool):
    kind = draw(st.sampled_from(["ask", "respond"])) if depth > 0 else "respond"
    if kind == "ask":
        qs = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=2, unique=True))
        return {"ask": {q: draw(answers(depth, n, plain)) for q in qs}}
    return {"respond": draw(answers(depth, n, plain))}


@st.composite
def answers(draw, depth: int, n: int, plain: bool):
    labs = draw(st.lists(st.sampled_from(LABELS), min_size=1, max_size=3, unique=True))
    rs = draw(rows(len(labs), n, plain))
    out = {}
    for lab, r in zip(labs, rs):
        shape = draw(st.sampled_from(["list", "p", "then-null", "then"] if depth > 0 else ["list", "p", "then-null"]))
        if shape == "list":
            out[lab] = r
        elif shape == "p":
            out[lab] = {"p": r}
        elif shape == "then-null":
            out[lab] = {"p": r, "then": None}
        else:
            out[lab] = {"p": r, "then": draw(trees(depth - 1, n, plain))}
    return out


@st.composite
def cases(draw):
    n = draw(st.integers(2, 3))
    plain = draw(st.booleans())
    tree = draw(trees(3, n, plain))
    doc = {"exactdp": 1, "name": "t", "datasets": [f"x{i}" for i in range(n)]}
    if draw(st.booleans()):
        doc["mechanism"] = {"tree": tree}
        names = ["M"]
    else:
        doc["mechanisms"] = {"A": {"tree": tree}, "M": {"compose": ["A", "A"]}}
        names = ["A", "M"]
    doc["claims"] = [{"privloss": {"of": names[-1], "delta": "1/10", "at_most": "inf"}}]
    return doc, names


def _game(m):
    """The game as plain data: kinds, labels, probabilities, children by position."""
    order = postorder(m.root)
    index = {node.uid: k for k, node in enumerate(order)}
    out = []
    for node in order:
        if isinstance(node, End):
            out.append(("end",))
        elif isinstance(node, Chance):
            out.append(("chance", node.labels, node.probs, tuple(index[c.uid] for c in node.children)))
        else:
            out.append(("ask", node.labels, tuple(index[c.uid] for c in node.children)))
    return out


def _general(text: str):
    """The case read by the general reader (no flat storage, no JSON composer)."""
    import exactdp.caseio.yamlsafe as ys

    real = ys.compose_json
    ys.compose_json = lambda *a, **k: None
    try:
        from exactdp.caseio import case as case_mod

        return case_mod._parse_case(text, "t.yaml", LIMITS, 20, None, flat_trees=False)
    finally:
        ys.compose_json = real


@settings(max_examples=150, deadline=None)
@given(cases(), st.sampled_from(["json", "json-pretty", "yaml-block", "yaml-flow"]))
def test_fast_roads_give_the_general_readers_game(case, style):
    doc, names = case
    text = {
        "json": lambda: json.dumps(doc, separators=(",", ":")),
        "json-pretty": lambda: json.dumps(doc, indent=2, ensure_ascii=False),
        "yaml-block": lambda: yaml.safe_dump(doc, allow_unicode=True, sort_keys=False),
        "yaml-flow": lambda: yaml.safe_dump(doc, default_flow_style=True, allow_unicode=True, sort_keys=False),
    }[style]()
    fast, slow = parse_case(text, "t.yaml"), _general(text)
    assert isinstance(fast.mechanisms[names[0]].root, (_FlatAsk, _FlatChance))  # the fast road was taken
    for name in names:
        assert _game(fast.mechanisms[name]) == _game(slow.mechanisms[name])
    m = fast.mechanisms[names[-1]]
    assert P.profile(m).envelope == P.profile(slow.mechanisms[names[-1]]).envelope


@settings(max_examples=150, deadline=None)
@given(cases(), st.booleans())
def test_json_composer_builds_the_yaml_composers_graph(case, pretty):
    """Without flat trees the JSON composer's graph equals libyaml's: values, styles, tags and
    the line and column of every node."""
    doc, _ = case
    text = json.dumps(doc, indent=2 if pretty else None, ensure_ascii=False)
    a = compose_json(text, "t.yaml", LIMITS, flat_trees=False)
    b = _compose(text, "t.yaml", LIMITS, flat_trees=False)
    assert a is not None
    assert _shape(a) == _shape(b)


def _shape(node):
    mark = (node.start_mark.line, node.start_mark.column)
    if isinstance(node, yaml.MappingNode):
        return ("map", node.tag, mark, [(_shape(k), _shape(v)) for k, v in node.value])
    if isinstance(node, yaml.SequenceNode):
        return ("seq", node.tag, mark, [_shape(v) for v in node.value])
    return ("scalar", node.tag, node.value, node.style or None, mark)


def test_big_json_tree_is_stored_flat():
    rng = random.Random(3)

    def node(d):
        ans = {}
        p, q = rng.randint(1, 7), rng.randint(1, 7)
        for a, row in (("0", [f"{p}/8", f"{q}/8"]), ("1", [f"{8 - p}/8", f"{8 - q}/8"])):
            ans[a] = row if d == 0 else {"p": row, "then": node(d - 1)}
        return {"respond": ans} if d % 2 else {"ask": {"q0": ans, "q1": {"0": ["1/2", "1/2"], "1": ["1/2", "1/2"]}}}

    doc = {
        "exactdp": 1,
        "name": "big",
        "mechanism": {"tree": node(6)},
        "claims": [{"dp": {"eps": "log(2)", "delta": 1}}],
    }
    text = json.dumps(doc)
    root = load_yaml(text, "b.yaml", flat_trees=True)
    tree = root.value[2][1].value[0][1]
    assert isinstance(tree, FlatTreeNode)
    m = parse_case(text, "b.yaml").mechanisms["M"]
    assert isinstance(m.root, (_FlatAsk, _FlatChance))
    assert _game(m) == _game(_general(text).mechanisms["M"])
    assert P.profile(m).envelope == P.profile(_general(text).mechanisms["M"]).envelope


BAD = [
    ("a sum that is not 1", '{"0": ["1/2", "1/2"], "1": ["1/4", "1/2"]}'),
    ("a probability above 1", '{"0": ["3/2", "1/2"], "1": ["-1/2", "1/2"]}'),
    ("a row too short", '{"0": ["1/2"], "1": ["1/2", "1/2"]}'),
    ("a duplicate answer", '{"0": ["1/2", "1/2"], "0": ["1/2", "1/2"]}'),
    ("a name", '{"0": ["q", "1/2"], "1": ["1/2", "1/2"]}'),
    ("a string then", '{"0": {"p": ["1/2", "1/2"], "then": "null"}, "1": ["1/2", "1/2"]}'),
    ("an unknown key", '{"0": {"p": ["1/2", "1/2"], "next": null}, "1": ["1/2", "1/2"]}'),
    ("an empty distribution", "{}"),
]


@pytest.mark.parametrize("what,answers", BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("style", ["json", "yaml"])
def test_problems_are_located_as_by_the_general_reader(what, answers, style):
    text = (
        '{"exactdp": 1, "name": "bad", "mechanism": {"tree": {"respond": '
        + answers
        + '}}, "claims": [{"dp": {"eps": "log(2)"}}]}'
    )
    if style == "yaml":
        text = (
            "exactdp: 1\nname: bad\nmechanism:\n  tree:\n    respond: " + answers + "\nclaims: [{dp: {eps: log(2)}}]\n"
        )
    with pytest.raises(CaseError) as fast:
        parse_case(text, "t.yaml")
    with pytest.raises(CaseError) as slow:
        _general(text)
    assert str(fast.value) == str(slow.value)


def test_anchors_in_a_tree_keep_the_general_reader():
    text = (
        "exactdp: 1\nname: anchored\nmechanism:\n  tree:\n    ask:\n"
        "      a: &rr {'0': [3/4, 1/4], '1': [1/4, 3/4]}\n      b: *rr\nclaims: [{privloss: {equals: log(3)}}]\n"
    )
    m = parse_case(text, "a.yaml").mechanisms["M"]
    assert not isinstance(m.root, (_FlatAsk, _FlatChance))
    assert m.root.children[0] is m.root.children[1]  # the anchor still shares the sub-game


def test_params_in_probabilities_keep_the_general_reader():
    text = (
        "exactdp: 1\nname: p\nparams: {q: 1/4}\nmechanism:\n  tree:\n    respond: {'0': [q, 1 - q], '1': [1 - q, q]}\n"
        "claims: [{privloss: {equals: log(3)}}]\n"
    )
    assert str(P.privloss(parse_case(text, "p.yaml").mechanisms["M"], 0)) == "log(3)"


def test_a_tree_wider_than_the_datasets_is_located():
    text = (
        '{"exactdp": 1, "name": "w", "mechanism": {"tree": {"respond": {"0": ["1/2", "1/2", "1/2"], '
        '"1": ["1/2", "1/2", "1/2"]}}}, "claims": [{"dp": {"eps": "log(2)"}}]}'
    )
    with pytest.raises(CaseError, match="expected 2 probabilities"):
        parse_case(text, "w.yaml")


def test_json_that_yaml_reads_otherwise_goes_to_the_yaml_parser():
    """A tab, or a YAML-only construct, sends the document to libyaml (which reads it or says
    where it is wrong)."""
    assert compose_json('{"a":\t1}', "t", LIMITS) is None
    assert compose_json("{a: 1}", "t", LIMITS) is None
    assert compose_json('{"a": 1} trailing', "t", LIMITS) is None
    assert compose_json('{"a": "\\ud800"}', "t", LIMITS) is None
    assert compose_json('{"a": 1}', "t", LIMITS) is not None


def test_json_documents_are_bounded_like_yaml_ones():
    wide = "{" + ", ".join(f'"k{i}": {i}' for i in range(3000)) + "}"
    with pytest.raises(CaseError, match="expands to more than 1000 YAML nodes"):
        load_yaml(wide, "w.yaml", YamlLimits(max_expanded_nodes=1000))
    deep = '{"a": ' * 600 + "1" + "}" * 600
    with pytest.raises(CaseError, match="nesting deeper than 500 levels"):
        load_yaml(deep, "d.yaml")


@pytest.mark.parametrize("style", ["json", "yaml"])
@pytest.mark.parametrize("rounds", [166, 167, 400])
def test_deep_trees_meet_the_nesting_limit_as_before(style, rounds):
    """Three levels of nesting per round: 166 rounds are read (flat), 167 and 400 are refused by
    the 500-level nesting limit with the general reader's message (never a RecursionError)."""
    node = '{"respond": {"0": ["1/2", "1/2"], "1": ["1/2", "1/2"]}}'
    for _ in range(rounds - 1):  # as text: json.dumps itself stops at Python's recursion limit
        node = '{"respond": {"a": {"p": ["1/2", "1/2"], "then": ' + node + '}, "b": ["1/2", "1/2"]}}'
    text = (
        '{"exactdp": 1, "name": "deep", "mechanism": {"tree": ' + node + '}, "claims": [{"privloss": {"equals": 0}}]}'
    )
    if style == "yaml":  # not strict JSON: the YAML parser's events are read
        text = text.replace('"exactdp": 1', "exactdp: 1", 1)
    if rounds == 166:
        m = parse_case(text, "t.yaml").mechanisms["M"]
        assert isinstance(m.root, (_FlatAsk, _FlatChance))
        return
    with pytest.raises(CaseError, match="nesting deeper than 500 levels") as fast:
        parse_case(text, "t.yaml")
    with pytest.raises(CaseError) as slow:
        _general(text)
    assert str(fast.value) == str(slow.value)
