"""Value by slot: every rung of exact values in every numeric field of every declared form and
claim, through the reader and ``verify``.  Never an internal error: each answer is a verdict or a
located error.

The slots are generated from the declarations (``exactdp.forms`` and ``exactdp.claims``): every
field whose kind is numeric (ε, δ, a probability, a rational, a count, a Rényi order or
divergence), nested records included.  Each slot is placed in a real case: the smallest case of
``cases/`` whose reading reaches that field (found by watching the typed reader); a field that no
case writes is added to a case of its form or claim.  A declared field with no case at all fails
the coverage test, so a new field cannot be forgotten.

``make test`` checks every slot with one value of each rung in turn and a bounded number of
random (slot, value) pairs; ``EXACTDP_SLOT_EXAMPLES=2000`` runs more.
"""

from __future__ import annotations

import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactdp.caseio.typed import TypedReader
from exactdp.claims.base import CLAIMS
from exactdp.errors import CaseError, TimeLimitExceeded
from exactdp.forms import fields as F
from exactdp.forms.registry import FORMS
from exactdp.limits import DEFAULT
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text

from .strategies import EXTREME_TEXTS, RUNG_TEXTS, exact_texts

ROOT = Path(__file__).resolve().parents[1]
N = int(os.environ.get("EXACTDP_SLOT_EXAMPLES", "60"))
OPTS = Options(limits=DEFAULT.replace(timeout=10))
NUMERIC = (F.Eps, F.Delta, F.Prob, F.Rational, F.Count, F.Order, F.Divergence)


# --- the declared numeric fields ----------------------------------------------------------------


def _numeric_kinds(kind: F.Kind, seen: set[type]) -> bool:
    """Whether a value of ``kind`` holds a number directly (through containers, not records)."""
    if isinstance(kind, NUMERIC):
        return True
    inner = [getattr(kind, a) for a in ("item", "value", "first", "second") if hasattr(kind, a)]
    inner += list(getattr(kind, "options", ())) if isinstance(kind, F.Either) else []
    return any(isinstance(k, F.Kind) and _numeric_kinds(k, seen) for k in inner)


def _records(kind: F.Kind) -> list[type]:
    """The record classes a value of ``kind`` may contain."""
    if isinstance(kind, F.Record):
        return [kind.cls]
    if isinstance(kind, F.Tagged):
        return [cls for _, cls in kind.records]
    out: list[type] = []
    for a in ("item", "value", "first", "second"):
        k = getattr(kind, a, None)
        if isinstance(k, F.Kind):
            out += _records(k)
    for k in getattr(kind, "options", ()) if isinstance(kind, F.Either) else ():
        out += _records(k)
    return out


def declared_fields() -> set[tuple[type, str]]:
    """(class, field name) for every numeric field of every form and claim, records included."""
    out: set[tuple[type, str]] = set()
    todo = [cls for _, cls in FORMS.items()] + [cls for _, cls in CLAIMS.items()]
    seen: set[type] = set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for spec in F.field_specs(cls):
            if _numeric_kinds(spec.kind, set()):
                out.add((cls, spec.name))
            todo += _records(spec.kind)
    return out


# --- slots found in the case library ------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """A numeric field of ``cls`` at ``path`` in the case ``text`` (``add``: the key is not
    written there yet and is added to the mapping at ``path``)."""

    cls: type
    field: str
    text: str
    path: tuple[str | int, ...]
    source: str
    add: bool = False

    def __str__(self) -> str:
        return f"{self.cls.__name__}.{self.field} @ {self.source}"


_STEP = re.compile(r"\.?(?:'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|([^.\[]+))|\[(\d+)\]")


def parse_path(path: str) -> tuple[str | int, ...]:
    out: list[str | int] = []
    for m in _STEP.finditer(path):
        if m.group(4) is not None:
            out.append(int(m.group(4)))
        else:
            out.append(next(g for g in m.groups()[:3] if g is not None))
    return tuple(out)


def _watch(text: str, file: str) -> list[tuple[type, str, str, str]]:
    """(record class, record path, field, field path) of every numeric value read in ``text``."""
    from exactdp.caseio.case import parse_case

    seen: list[tuple[type, str, str, str]] = []
    stack: list[tuple[type, str]] = []
    record, value = TypedReader.record, TypedReader.value

    def rec(self, cls, node, path, what, extra=None):  # type: ignore[no-untyped-def]
        if isinstance(node, yaml.MappingNode) and TypedReader.shorthand_of(self, cls, node) is None:
            seen.append((cls, path, "", ""))  # a mapping of the class's own keys
        stack.append((cls, path))
        try:
            return record(self, cls, node, path, what, extra)
        finally:
            stack.pop()

    def val(self, kind, node, path):  # type: ignore[no-untyped-def]
        if isinstance(kind, NUMERIC) and stack and isinstance(node, yaml.ScalarNode):
            cls, rpath = stack[-1]
            rest = path[len(rpath) :]
            steps = parse_path(rest) if rest else ()
            names = {spec.name for spec in F.field_specs(cls)}
            field = steps[0] if steps and steps[0] in names else getattr(cls, "shorthand", None)
            if field:
                seen.append((cls, rpath, str(field), path))
        return value(self, kind, node, path)

    TypedReader.record, TypedReader.value = rec, val  # type: ignore[method-assign]
    try:
        parse_case(text, file)
    except CaseError:
        pass
    finally:
        TypedReader.record, TypedReader.value = record, value  # type: ignore[method-assign]
    return seen


def _spec_name(cls: type, name: str) -> str:
    return next((s.name for s in F.field_specs(cls) if s.name == name or s.attr == name), name)


_FENCE = re.compile(r"^```yaml\n(.*?)^```", re.M | re.S)


def contexts() -> list[tuple[str, str]]:
    """(source, text) of every complete case: the case library, then the YAML blocks of the
    docs and README that are whole cases; smallest first."""
    out = [(str(f.relative_to(ROOT)), f.read_text()) for f in (ROOT / "cases").rglob("*.yaml")]
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for k, m in enumerate(_FENCE.finditer(doc.read_text())):
            if re.search(r"^exactdp: 1$", m.group(1), re.M):
                out.append((f"{doc.relative_to(ROOT)} (yaml block {k + 1})", m.group(1)))
    return sorted(out, key=lambda st: len(st[1]))


def find_slots() -> tuple[list[Slot], set[tuple[type, str]]]:
    found: dict[tuple[type, str], Slot] = {}
    records: dict[type, Slot] = {}  # a mapping of the class's own keys, to add missing fields to
    for src, text in contexts():
        for cls, rpath, field, path in _watch(text, src):
            if not field:
                records.setdefault(cls, Slot(cls, "", text, parse_path(rpath), src))
                continue
            key = (cls, _spec_name(cls, field))
            found.setdefault(key, Slot(cls, key[1], text, parse_path(path), src))
    for cls, name in declared_fields() - set(found):
        base = records.get(cls)
        if base is not None:
            found[cls, name] = Slot(cls, name, base.text, base.path, base.source, add=True)
    missing = declared_fields() - set(found)
    return sorted(found.values(), key=str), missing


SLOTS, MISSING = find_slots()


def test_every_declared_numeric_field_has_a_slot():
    """A new numeric field of a form or claim is exercised here as soon as it is declared; one
    with no case in cases/ to put it in fails until a case uses its form or claim."""
    assert declared_fields(), "no numeric fields found"
    names = sorted(f"{cls.__name__}.{name}" for cls, name in MISSING)
    assert not names, f"numeric fields with no case to test them in: {names}"


# --- putting a value in a slot --------------------------------------------------------------------


def _node_at(root: yaml.Node, path: tuple[str | int, ...]) -> yaml.Node:
    node = root
    for step in path:
        if isinstance(node, yaml.MappingNode):
            node = next(v for k, v in node.value if k.value == str(step))
        else:
            node = node.value[int(step)]
    return node


def place(slot: Slot, value: str) -> str:
    """The case text of ``slot`` with ``value`` (exactdp number text) in the slot."""
    root = yaml.compose(slot.text)
    scalar = yaml.ScalarNode("tag:yaml.org,2002:str", value, style='"')
    node = _node_at(root, slot.path)
    if slot.add:
        assert isinstance(node, yaml.MappingNode)
        node.value = [(k, v) for k, v in node.value if k.value != slot.field]
        node.value.append((yaml.ScalarNode("tag:yaml.org,2002:str", slot.field), scalar))
    else:
        parent = _node_at(root, slot.path[:-1])
        last = slot.path[-1]
        if isinstance(parent, yaml.MappingNode):
            parent.value = [(k, scalar if k.value == str(last) else v) for k, v in parent.value]
        else:
            parent.value[int(last)] = scalar
    return yaml.serialize(root)


def check(slot: Slot, value: str) -> None:
    """A verdict for every claim, or a located error: never an internal error (exit 3)."""
    text = place(slot, value)
    fr = verify_text(text, "slot.yaml", OPTS)  # an exception here is an internal error
    assert fr.exit_code in (0, 1, 2), (str(slot), value, fr.error)
    if isinstance(fr.error, TimeLimitExceeded):
        return  # a value that makes the game too big to build within --timeout: the named limit
    if fr.error is not None:
        assert isinstance(fr.error, CaseError), (str(slot), value, repr(fr.error))
        assert all(p.line is not None or p.path for p in fr.error.problems), (str(slot), value, str(fr.error))
        assert len(str(fr.error)) < 4000
    for v in fr.verdicts:  # (statements and notes print exact values in full: they may be long)
        assert v.status in ("holds", "fails", "error", "unsupported"), (str(slot), value, v.status)
        if v.status == "error":
            assert len(shown(v).note) < 4000, (str(slot), value)  # an error's message is bounded


# one value of every rung (and the extremes), each placed in every slot in turn
REPRESENTATIVES = ["1/3", "0.25", "log(3)/2", "exp(1/10) + 1", "exp(1/10)", "log(exp(1/10) + 1)", "inf"]
REPRESENTATIVES += [
    "log(exp(1/10) + 1)/2",
    "-log(3)",
    "10^5000",
    "1/10^5000",
    "undefined_symbol",
    "log(1 + 1/10^9999) - 1/10^9999",
]


@pytest.mark.parametrize("slot", SLOTS, ids=str)
def test_every_slot_takes_every_rung(slot):
    for value in REPRESENTATIVES[zlib.crc32(str(slot).encode()) % 3 :: 3]:  # a third per slot, in turn
        check(slot, value)


@settings(max_examples=N, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SLOTS), exact_texts())
def test_any_value_in_any_slot(slot, value):
    check(slot, value)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("EXACTDP_SLOT_EXAMPLES"), reason="set EXACTDP_SLOT_EXAMPLES for the full run")
@pytest.mark.parametrize("slot", SLOTS, ids=str)
def test_every_slot_takes_every_representative(slot):
    for value in REPRESENTATIVES:
        check(slot, value)


def test_the_strategy_covers_the_rungs_and_extremes():
    assert {"QQ", "QT", "LL", "LQT", "LS", "EXP", "OO", "SYM"} <= set(RUNG_TEXTS) and EXTREME_TEXTS is not None
