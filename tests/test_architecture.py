"""The package layout keeps data flowing one way (see ../shared/style.md)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from exactdp.tools import archdoc

PKG = Path(__file__).resolve().parents[1] / "exactdp"


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                rel = path.relative_to(PKG).parent.parts
                base = list(rel[: len(rel) - (node.level - 1)]) if node.level > 1 else list(rel)
                mod = ".".join(["exactdp", *base, *([mod] if mod else [])])
            out.add(mod)
    return out


def modules(sub: str) -> list[Path]:
    p = PKG / sub
    return list(p.rglob("*.py")) if p.is_dir() else [p.with_suffix(".py")]


def test_every_module_belongs_to_a_layer():
    tops = {f.relative_to(PKG).parts[0].removesuffix(".py") for f in PKG.rglob("*.py")}
    assert tops <= set(LAYERS), f"not in archdoc.LAYERS: {sorted(tops - set(LAYERS))}"


# the layers are declared once, with the module table of docs/architecture.md
LAYERS = list(archdoc.LAYERS)


def test_imports_go_one_way():
    for k, layer in enumerate(LAYERS):
        later = LAYERS[k + 1 :]
        for f in modules(layer):
            for mod in imports(f):
                for bad in later:
                    assert not mod.startswith(f"exactdp.{bad}"), f"{f.relative_to(PKG)} imports exactdp.{bad}"


def test_only_caseio_reads_yaml_and_only_cli_uses_click():
    for f in PKG.rglob("*.py"):
        mods = imports(f)
        rel = f.relative_to(PKG).as_posix()
        if "yaml" in mods:
            assert rel.startswith("caseio/"), rel
        if "click" in mods:
            assert rel.startswith("cli/"), rel


def test_only_execution_distributes_work():
    """Worker processes and Dask are one module's business (exactdp/execution.py)."""
    for f in PKG.rglob("*.py"):
        mods = imports(f)
        if any(
            m.split(".")[0] in ("dask", "distributed", "multiprocessing") or m.startswith("concurrent.futures")
            for m in mods
        ):
            assert f.relative_to(PKG).as_posix() == "execution.py", f


def test_only_the_pytest_plugin_imports_pytest():
    """pytest is not a dependency of exactdp: only the plugin module (loaded by pytest) uses it."""
    for f in PKG.rglob("*.py"):
        if any(m == "pytest" or m.startswith("pytest.") for m in imports(f)):
            assert f.relative_to(PKG).as_posix() == "pytest_plugin.py", f


def test_no_eval_exec_or_sympify_on_user_text():
    pat = re.compile(r"\b(eval|exec)\(|sympify\(|parse_expr\(")
    for f in PKG.rglob("*.py"):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if pat.search(code) and "def parse_expr" not in code and "parse_expr(text" not in code:
                # our own grammar's parse_expr is allowed; sympy's parse_expr and eval/exec are not
                assert "numbers/expr.py" in f.as_posix() or "caseio/context.py" in f.as_posix(), (
                    f"{f}:{n}: {line.strip()}"
                )


def test_every_module_declares_all():
    for f in PKG.rglob("*.py"):
        if f.name in ("__main__.py",):
            continue
        assert "__all__" in f.read_text(), f"{f.relative_to(PKG)} has no __all__"


def test_rational_only_use_does_not_load_sympy():
    """SymPy is heavy: only symbolic cases and decimal eps may load it (start-up, memory)."""
    import subprocess
    import sys

    code = (
        "import sys, exactdp\n"
        "from exactdp.verify import verify_file\n"
        "fr = verify_file('cases/kov/kfold-rr-pure.yaml')\n"
        "assert fr.exit_code == 0\n"
        "print('sympy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=PKG.parent, check=True
    ).stdout
    assert out.strip() == "False"


def _calls(path: Path, name: str) -> list[int]:
    """Lines where ``name(...)`` is called in ``path``."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id == name) or (isinstance(f, ast.Attribute) and f.attr == name):
                out.append(node.lineno)
    return out


def test_each_layer_raises_its_own_errors():
    """CaseError is the case file's error (file, place, problem): only the reader, which knows the
    file, and the layers above it raise it.  The builders, the model, the engines, the
    constructions and the theorems raise errors about their own objects (exactdp/errors.py), and
    the reader locates them."""
    below = LAYERS[: LAYERS.index("caseio")]
    found = [
        f"{f.relative_to(PKG)}:{line}"
        for layer in below
        if layer != "errors"  # where CaseError is defined (and unpickled)
        for f in modules(layer)
        for line in _calls(f, "CaseError")
    ]
    assert found == [], f"CaseError raised below caseio/: {found}"
