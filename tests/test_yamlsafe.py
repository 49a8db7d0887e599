"""Reading YAML safely and in linear time (exactdp/caseio/yamlsafe.py).

The timing itself is a benchmark (bench/b_hostile.py); here the work is counted: each node's
children are listed once, whatever the width of a list or map, so reading is linear."""

from __future__ import annotations

import pytest

from exactdp.caseio import yamlsafe
from exactdp.caseio.yamlsafe import YamlLimits, load_yaml
from exactdp.errors import CaseError


def _wide(kind: str, n: int) -> str:
    if kind == "list":
        return "x: [" + ", ".join(["1/2"] * n) + "]\n"
    return "x: {" + ", ".join(f"k{i}: 1" for i in range(n)) + "}\n"


@pytest.mark.parametrize("kind", ["list", "map"])
def test_each_node_lists_its_children_once(kind, monkeypatch):
    calls: list[int] = []
    items: list[int] = []
    original = yamlsafe._children

    def counting(node):
        kids = original(node)
        calls.append(1)
        items.append(len(kids))
        return kids

    monkeypatch.setattr(yamlsafe, "_children", counting)
    for n in (1_000, 4_000):
        calls.clear()
        items.clear()
        load_yaml(_wide(kind, n), "w.yaml")
        nodes = 3 + (n if kind == "list" else 2 * n)  # the root map, the key x, the collection, its items
        assert len(calls) == nodes
        assert sum(items) == nodes - 1  # every edge of the node graph is looked at once


def test_shared_subtrees_are_checked_once(monkeypatch):
    seen: list[int] = []
    original = yamlsafe._check_node
    monkeypatch.setattr(
        yamlsafe, "_check_node", lambda node, file, problems: (seen.append(id(node)), original(node, file, problems))
    )
    text = "a: &a {" + ", ".join(f"k{i}: v" for i in range(100)) + "}\nb: [" + ", ".join(["*a"] * 1000) + "]\n"
    load_yaml(text, "s.yaml")
    assert len(seen) == len(set(seen))  # no node checked twice, though reached 1001 times


def test_wide_documents_are_read_and_bounded():
    root = load_yaml(_wide("map", 30_000), "w.yaml")
    assert len(root.value[0][1].value) == 30_000
    with pytest.raises(CaseError, match="expands to more than 1000 YAML nodes"):
        load_yaml(_wide("list", 2_000), "w.yaml", YamlLimits(max_expanded_nodes=1000))


def test_duplicate_keys_are_shown_as_excerpts():
    key = "k" * 5000
    with pytest.raises(CaseError) as e:
        load_yaml(f"? {key}\n: 1\n? {key}\n: 2\n", "d.yaml")
    assert "duplicate key" in str(e.value) and "k" * 61 not in str(e.value) and "5000 characters" in str(e.value)
