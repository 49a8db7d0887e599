"""The generated tables of which module declares each form and claim kind
(exactdp/forms/index.py, exactdp/claims/index.py) agree with the declarations, and the
registries import a module only when one of its keys is used."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from exactdp.claims import CLAIMS
from exactdp.forms import FORMS
from exactdp.forms.registry import Registry
from exactdp.tools import registryindex

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("table", registryindex.TABLES, ids=lambda t: t.package)
def test_the_committed_table_is_the_declarations(table):
    """Every declared key is in the table with its module, and nothing else is (a new kind, a
    moved class, a removed one all make this fail until the table is regenerated)."""
    declared = registryindex.declared(table)
    assert table.registry.index == declared
    assert table.path.read_text(encoding="utf-8") == registryindex.render(table)
    assert list(table.registry) == list(declared)


def test_the_check_mode_finds_a_stale_table(tmp_path, monkeypatch):
    stale = tmp_path / "index.py"
    table = registryindex.TABLES[1]
    stale.write_text(registryindex.render(table).replace('"core"', '"fdp"', 1), encoding="utf-8")
    monkeypatch.setattr(registryindex.Table, "path", property(lambda self: stale))
    assert registryindex.main(["--check"]) == 1


def test_a_key_loads_only_its_module():
    """Reading one kind imports its module and not the others'."""
    probe = (
        "import sys\nfrom exactdp.claims import CLAIMS\nfrom exactdp.forms import FORMS\n"
        "assert 'gdp' in CLAIMS and 'svt' in FORMS\n"
        "CLAIMS['dp']; FORMS['rr']\n"
        "print(' '.join(m for m in sys.modules if m.startswith(('exactdp.claims.', 'exactdp.forms.'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    loaded = set(out.stdout.split())
    assert {"exactdp.claims.core", "exactdp.forms.core"} <= loaded
    assert not loaded & {
        "exactdp.claims.fdp",
        "exactdp.claims.calibrate",
        "exactdp.forms.svt",
        "exactdp.forms.continual",
    }


def test_a_registry_without_a_table_row_still_lists_its_key():
    reg: Registry[type] = Registry("thing", "key", "exactdp.forms", {"a": "core"})
    reg.register("b")(type("B", (), {}))
    assert list(reg) == ["a", "b"] and "b" in reg and len(reg) == 2
    with pytest.raises(KeyError):
        reg["c"]


def test_the_registries_list_kinds_in_the_reference_order():
    assert list(CLAIMS)[:3] == ["privloss", "dp", "not_dp"]
    assert list(FORMS)[:4] == ["tree", "ask", "respond", "rr"]


def test_every_module_that_registers_a_decider_is_imported_before_deciding():
    """A module that adds to ``DECIDERS`` or sets a ``HANDLERS`` entry, and declares no claim
    kind, is named in ``DECIDER_MODULES`` (claim modules are imported on first use, a module that
    declares a kind with that kind, so nothing else would import the others)."""
    from exactdp.claims.index import CLAIM_MODULES
    from exactdp.claims.parametric import DECIDER_MODULES

    registers = re.compile(r"^(DECIDERS\.append\(|HANDLERS\[[^\]]+\] = )", re.M)
    found = sorted(
        f"exactdp.claims.{p.stem}"
        for p in (ROOT / "exactdp" / "claims").glob("*.py")
        if p.stem not in {"parametric", *CLAIM_MODULES.values()} and registers.search(p.read_text())
    )
    assert sorted(DECIDER_MODULES) == found
