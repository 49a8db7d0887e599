"""Helpers: read YAML the way an editor would (YAML 1.2 core schema), and generate case documents."""

from __future__ import annotations

import re

import yaml
from hypothesis import strategies as st

from exactdp.caseio.yamlsafe import load_yaml

_INT = re.compile(r"[-+]?[0-9]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")


def to_data(node):
    """YAML node graph -> JSON-like data with YAML 1.2 core-schema scalars."""
    if isinstance(node, yaml.MappingNode):
        return {k.value: to_data(v) for k, v in node.value}
    if isinstance(node, yaml.SequenceNode):
        return [to_data(x) for x in node.value]
    t = node.value
    if node.style is None:
        if t in ("", "~", "null", "Null", "NULL"):
            return None
        if t in ("true", "false"):
            return t == "true"
        if _INT.fullmatch(t):
            return int(t)
        if _FLOAT.fullmatch(t):
            return float(t)
    return t


def yaml_text_to_data(text: str):
    return to_data(load_yaml(text, "<text>"))


# --- random valid case documents (as Python data; dumped with yaml.safe_dump) -------------------


@st.composite
def dist(draw, labels, n_datasets):
    """{label: [p per dataset]} with exact fractions as text, each column summing to 1."""
    cols = []
    for _ in range(n_datasets):
        den = draw(st.sampled_from([2, 3, 4, 6, 10]))
        w = [draw(st.integers(0, den)) for _ in labels]
        if sum(w) == 0:
            w[0] = 1
        tot = sum(w)
        cols.append([f"{x}/{tot}" for x in w])
    return {lab: [cols[d][k] for d in range(n_datasets)] for k, lab in enumerate(labels)}


@st.composite
def tree_node(draw, depth, n):
    kind = draw(st.sampled_from(["ask", "respond"]))
    k = draw(st.integers(1, 2))
    labels = [draw(st.sampled_from(["yes", "no", "0", "1", "a", "b", "on", "off"])) for _ in range(k)]
    labels = list(dict.fromkeys(labels))

    def answers():
        d = dist(labels, n)
        out = {}
        base = draw(d)
        for lab, p in base.items():
            if depth > 1 and draw(st.booleans()):
                out[lab] = {"p": p, "then": draw(tree_node(depth - 1, n))}
            else:
                out[lab] = p
        return out

    if kind == "respond":
        return {"respond": answers()}
    qs = list(dict.fromkeys(draw(st.lists(st.sampled_from(["q0", "q1", "q2"]), min_size=1, max_size=2))))
    return {"ask": {q: answers() for q in qs}}


@st.composite
def case_docs(draw):
    """A structurally and semantically valid case document with small mechanisms."""
    n = draw(st.integers(2, 3))
    datasets = [f"x{i}" for i in range(n)]
    mechs = {"A": {"tree": draw(tree_node(2, n))}}
    if n == 2:
        mechs["R"] = {"rr": {"eps": draw(st.sampled_from(["log(2)", "log(3/2)", "0", "log(5)"]))}}
    else:
        mechs["R"] = {"rr": {"eps": "log(3)", "bits": {"x2": 1}}}
    combo = draw(st.sampled_from(["compose", "concomp", "choose", "repeat"]))
    if combo == "repeat":
        mechs["M"] = {"repeat": {"mechanism": "R", "times": draw(st.integers(0, 3))}}
    else:
        mechs["M"] = {combo: ["A", "R"]}
    claims = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["privloss", "dp", "not_dp", "delta", "profile_le"]))
        of = draw(st.sampled_from(list(mechs)))
        if kind == "privloss":
            claims.append(
                {"privloss": {"of": of, "delta": draw(st.sampled_from(["0", "1/10", "0.5"])), "at_most": "log(100)"}}
            )
        elif kind in ("dp", "not_dp"):
            claims.append({kind: {"of": of, "eps": draw(st.sampled_from(["log(2)", "0.1", "0"])), "delta": "1/4"}})
        elif kind == "delta":
            claims.append({"delta": {"of": of, "eps": "log(2)", "equals": "1/3"}})
        else:
            claims.append({"profile_le": {"of": of, "than": draw(st.sampled_from(list(mechs)))}})
    doc = {"exactdp": 1, "name": "fuzz", "datasets": datasets, "mechanisms": mechs, "claims": claims}
    if n == 3 and draw(st.booleans()):
        doc["adjacent"] = [["x0", "x1"], ["x1", "x2"]]
    return doc


def dump(doc) -> str:
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, allow_unicode=True)
