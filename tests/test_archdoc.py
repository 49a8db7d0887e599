"""docs/architecture.md: its module table is generated from the modules' docstrings and complete."""

from __future__ import annotations

import re

from exactdp.tools import archdoc


def test_the_module_table_is_current():
    page = archdoc.DOC_PATH.read_text(encoding="utf-8")
    assert archdoc.render(page) == page, (
        "docs/architecture.md is stale: run `make docs` (python -m exactdp.tools.archdoc --write)"
    )


def test_the_table_lists_every_module_once_with_its_job():
    page = archdoc.DOC_PATH.read_text(encoding="utf-8")
    listed = re.findall(r"^\| `([^`]+\.py)` \|", page, re.M)
    every = sorted(f.relative_to(archdoc.PACKAGE).as_posix() for f in archdoc.PACKAGE.rglob("*.py"))
    assert sorted(listed) == every
    assert all(m.job for m in archdoc.modules()), [m.path for m in archdoc.modules() if not m.job]


def test_rows_follow_the_layers_and_render_roles_as_code():
    mods = archdoc.modules()
    ranks = [archdoc.LAYERS.index(m.layer) for m in mods]
    assert ranks == sorted(ranks)
    row = archdoc.render_table(
        [archdoc.ModuleDoc("x/y.py", archdoc._job("Uses :func:`exactdp.a.b` | c.\n\nMore."), ("f",) * 10)]
    )
    assert "Uses `b` \\| c." in row and "More" not in row and "(10 names)" in row
