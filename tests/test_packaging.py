"""Packaging: the sdist is self-contained, the wheel built from it installs into a fresh
virtual environment outside the repository, and that installation verifies a copied case.

Offline and fast: the sdist and the wheel are built with the current environment's setuptools
(no build isolation, nothing downloaded), the wheel is installed with ``--no-deps --no-index``,
and the fresh environment finds exactdp's dependencies through a ``.pth`` file that lists the
directories they are installed in here.  exactdp itself must come from the wheel, which the
test checks.
"""

from __future__ import annotations

import email
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import exactdp

ROOT = Path(__file__).resolve().parents[1]
DEPENDENCIES = ("sympy", "networkx", "click", "yaml", "gmpy2", "mpmath", "flint")
SHIPPED_TREES = ("exactdp", "cases", "docs", "tests")
NOT_SHIPPED = re.compile(r"(^|/)(__pycache__|\.pytest_cache|\.hypothesis|_build)(/|$)|\.py[cod]$")
CASE = ROOT / "cases" / "kov" / "kfold-rr-pure.yaml"
DECIMAL_CASE = ROOT / "cases" / "kov" / "kfold-30-decimal.yaml"


def _run(args: list[str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=300, **kw)
    assert p.returncode == 0, f"{' '.join(map(str, args))} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}"
    return p


def _build(kind: str, src: Path, out: Path) -> Path:
    """Build an sdist or a wheel of the project in ``src`` with setuptools' PEP 517 backend."""
    code = f"from setuptools import build_meta as b; print(b.build_{kind}({str(out)!r}))"
    name = _run([sys.executable, "-c", code], cwd=src).stdout.strip().splitlines()[-1]
    return out / name


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """sdist from the repository; wheel from the unpacked sdist (proving it self-contained)."""
    import setuptools

    if tuple(int(x) for x in setuptools.__version__.split(".")[:2]) < (77, 0):
        pytest.fail(
            f"setuptools {setuptools.__version__} is too old to build exactdp (needs >= 77: pip install -e '.[test]')"
        )
    tmp = tmp_path_factory.mktemp("pkg")
    sdist = _build("sdist", ROOT, tmp)
    with tarfile.open(sdist) as tf:
        if hasattr(tarfile, "data_filter"):  # Python >= 3.11.4: refuse links and paths outside
            tf.extractall(tmp / "src", filter="data")
        else:  # pragma: no cover - our own sdist, just built
            tf.extractall(tmp / "src")
    (src,) = (tmp / "src").iterdir()
    wheel = _build("wheel", src, tmp)
    return {"tmp": tmp, "sdist": sdist, "src": src, "wheel": wheel}


def _repo_files(tree: str) -> set[str]:
    base = ROOT / tree
    out = set()
    for p in base.rglob("*"):
        rel = p.relative_to(ROOT).as_posix()
        if p.is_file() and not NOT_SHIPPED.search(rel):
            out.add(rel)
    return out


def test_sdist_is_self_contained(built: dict[str, Path]) -> None:
    src = built["src"]
    shipped = {p.relative_to(src).as_posix() for p in src.rglob("*") if p.is_file()}
    for tree in SHIPPED_TREES:
        missing = sorted(_repo_files(tree) - shipped)
        assert not missing, f"the sdist lacks {len(missing)} file(s) of {tree}/, e.g. {missing[:5]} (see MANIFEST.in)"
    for f in ("LICENSE", "README.md", "pyproject.toml", "MANIFEST.in", "Makefile", "exactdp/py.typed"):
        assert f in shipped, f
    assert not [f for f in shipped if NOT_SHIPPED.search(f)], "caches were shipped"
    meta = email.message_from_string((src / "PKG-INFO").read_text(encoding="utf-8"))
    assert meta["Version"] == exactdp.__version__
    assert meta["License-Expression"] == "MIT"


def test_wheel_metadata_and_contents(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as zf:
        names = set(zf.namelist())
        (meta_name,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = email.message_from_string(zf.read(meta_name).decode("utf-8"))
    dist_info = meta_name.rsplit("/", 1)[0]
    assert {"exactdp/py.typed", "exactdp/schema/case-v1.json", f"{dist_info}/licenses/LICENSE"} <= names
    examples = sorted(p.name for p in (ROOT / "exactdp" / "examples").glob("*.yaml"))
    assert examples and {f"exactdp/examples/{n}" for n in examples} <= names, "the example cases are package data"
    assert not [n for n in names if n.startswith(("tests/", "cases/", "docs/", "bench/"))], (
        "the wheel ships only the package"
    )
    assert meta["Version"] == exactdp.__version__
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    requires = meta.get_all("Requires-Dist") or []
    assert "gmpy2>=2.1.5" in requires
    assert any(r.startswith("python-flint>=") for r in requires)


def _dependency_dirs() -> list[str]:
    """The directories this environment imports exactdp's dependencies from."""
    dirs = []
    for mod in DEPENDENCIES:
        spec = importlib.util.find_spec(mod)
        assert spec is not None and spec.origin is not None, f"dependency {mod} is not installed"
        origin = Path(spec.origin)
        d = str(origin.parent.parent if origin.name == "__init__.py" else origin.parent)
        if d not in dirs:
            dirs.append(d)
    return dirs


def _fresh_venv(where: Path, wheel: Path) -> Path:
    """A new virtual environment (no pip of its own) with the wheel installed, offline."""
    venv = where / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=where)
    py = venv / "bin" / "python"
    _run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps", "--no-index", str(wheel)],
        cwd=where,
    )
    site = _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=where).stdout.strip()
    Path(site, "exactdp-test-deps.pth").write_text("\n".join(_dependency_dirs()) + "\n", encoding="utf-8")
    return venv


def test_wheel_installs_outside_the_repository_and_verifies_a_case(built: dict[str, Path]) -> None:
    work = built["tmp"] / "elsewhere"
    work.mkdir()
    venv = _fresh_venv(work, built["wheel"])
    for case in (CASE, DECIMAL_CASE):
        shutil.copy(case, work / case.name)
    py, cli = venv / "bin" / "python", venv / "bin" / "exactdp"
    where = _run([str(py), "-c", "import exactdp; print(exactdp.__file__)"], cwd=work).stdout.strip()
    assert Path(where).is_relative_to(venv), f"exactdp was imported from {where}, not from the wheel"
    assert ROOT not in Path(where).parents
    typed = "import importlib.resources as r; print(r.files('exactdp').joinpath('py.typed').is_file())"
    assert _run([str(py), "-c", typed], cwd=work).stdout.strip() == "True"
    assert _run([str(cli), "--version"], cwd=work).stdout.strip() == f"exactdp, version {exactdp.__version__}"
    out = _run([str(cli), "verify", "--no-progress", CASE.name, DECIMAL_CASE.name], cwd=work).stdout
    assert out.rstrip().splitlines()[-1].endswith(", 0 fail"), out
    assert f"{CASE.name}:" in out and f"{DECIMAL_CASE.name}:" in out


def test_the_wheel_writes_its_examples_and_they_verify(built: dict[str, Path]) -> None:
    """`exactdp examples DIR` from the installed wheel (package data, no repository), then verify."""
    work = built["tmp"] / "examples-elsewhere"
    work.mkdir()
    venv = _fresh_venv(work, built["wheel"])
    cli = venv / "bin" / "exactdp"
    out = _run([str(cli), "examples", "ex"], cwd=work).stdout
    assert "example cases; check them with: exactdp verify ex" in out
    verified = _run([str(cli), "verify", "--no-progress", "ex"], cwd=work).stdout
    assert verified.rstrip().splitlines()[-1].endswith(", 0 fail"), verified
