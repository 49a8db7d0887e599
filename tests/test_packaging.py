"""Packaging: the sdist is self-contained, the wheel built from it installs into a fresh
virtual environment outside the repository, and that installation verifies a copied case.

Offline and fast: the sdist and the wheel are built with the current environment's setuptools
(no build isolation, nothing downloaded).  The wheel is installed with ``--no-index`` into one
fresh virtual environment per test module, which holds exactly the runtime dependencies and
nothing of the test extras: their files are linked from where they are installed here, as
their metadata lists them, and pip checks that they satisfy the wheel's requirements.
exactdp itself must come from the wheel, which the test checks.  From an empty directory, that
installation runs what a new user runs first (``verify --jobs 2``, ``sweep --jobs 2``,
``certify`` and the checker) and gets one clear line naming the extra for what needs one
(``plot``, ``--scheduler``), never a traceback.
"""

from __future__ import annotations

import email
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

import exactdp

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_TREES = ("exactdp", "cases", "docs", "tests")
NOT_SHIPPED = re.compile(r"(^|/)(__pycache__|\.pytest_cache|\.hypothesis|_build)(/|$)|\.py[cod]$")
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv*",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    "_build",
    "*.egg-info",
)
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
    # setuptools builds an sdist by writing exactdp.egg-info/ and the release tree exactdp-<version>/
    # into the project directory; built in the repository itself, tests running beside this one
    # (pytest-xdist) would see those files come and go.  A copy of the checkout (without
    # environments, caches and build output, which MANIFEST.in leaves out anyway) gives the same sdist.
    repo = tmp / "repo"
    shutil.copytree(ROOT, repo, ignore=NOT_COPIED)
    sdist = _build("sdist", repo, tmp)
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


def _runtime_closure(wheel: Path) -> list[metadata.Distribution]:
    """The installed distributions the wheel needs at run time: its ``Requires-Dist`` without
    any extra, and theirs, recursively (read from the installed metadata)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    with zipfile.ZipFile(wheel) as zf:
        (meta_name,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        meta = email.message_from_string(zf.read(meta_name).decode("utf-8"))
    todo = [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    found: dict[str, metadata.Distribution] = {}
    while todo:
        req = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue  # an extra's requirement, or one for another platform
        name = canonicalize_name(req.name)
        if name not in found:
            found[name] = metadata.distribution(req.name)
            todo.extend(Requirement(r) for r in found[name].requires or [])
    return list(found.values())


def _link_runtime_dependencies(wheel: Path, site: Path) -> list[str]:
    """Link into ``site`` the files of exactly the runtime dependencies (their packages and
    metadata, as their RECORD lists them), from where they are installed here: nothing else of
    this environment (the test extras) becomes visible.  Returns their names."""
    names = []
    for dist in _runtime_closure(wheel):
        base = Path(str(dist.locate_file("")))
        tops = {f.parts[0] for f in dist.files or [] if f.parts[0] not in ("..", "__pycache__")}
        for top in sorted(tops):
            link = site / top
            assert not link.exists(), f"{top} belongs to two dependencies"
            link.symlink_to(base / top, target_is_directory=(base / top).is_dir())
        names.append(dist.metadata["Name"])
    return names


# what the test extras and the optional extras bring: none of it may be importable in the fresh venv
EXTRAS = ("pytest", "hypothesis", "jsonschema", "matplotlib", "dask", "distributed", "pydot", "sphinx", "setuptools")


@pytest.fixture(scope="module")
def runtime_venv(built: dict[str, Path]) -> Path:
    """A fresh virtual environment (no pip of its own, no system site-packages) holding the
    wheel and exactly its runtime dependencies, built once for this module, offline: the
    dependencies are linked from this environment (:func:`_link_runtime_dependencies`), and pip
    installs the wheel with ``--no-index``, checking that they satisfy its requirements."""
    where = built["tmp"] / "runtime"
    where.mkdir()
    venv = where / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=where)
    py = venv / "bin" / "python"
    purelib = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    site = Path(_run([str(py), "-c", purelib], cwd=where).stdout.strip())
    linked = {n.lower() for n in _link_runtime_dependencies(built["wheel"], site)}
    assert {"sympy", "mpmath", "networkx", "click", "pyyaml", "gmpy2", "python-flint"} <= linked, linked
    pip = [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-index", str(built["wheel"])]
    _run(pip, cwd=where)
    probe = f"import importlib.util as u; print([m for m in {EXTRAS!r} if u.find_spec(m) is not None])"
    assert _run([str(py), "-c", probe], cwd=where).stdout.strip() == "[]", "the fresh venv sees a test extra"
    return venv


def test_wheel_installs_outside_the_repository_and_verifies_a_case(built: dict[str, Path], runtime_venv: Path) -> None:
    work = built["tmp"] / "elsewhere"
    work.mkdir()
    venv = runtime_venv
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


def test_the_wheel_writes_its_examples_and_they_verify(built: dict[str, Path], runtime_venv: Path) -> None:
    """`exactdp examples DIR` from the installed wheel (package data, no repository), then verify."""
    work = built["tmp"] / "examples-elsewhere"
    work.mkdir()
    cli = runtime_venv / "bin" / "exactdp"
    out = _run([str(cli), "examples", "ex"], cwd=work).stdout
    assert "example cases; check them with: exactdp verify ex" in out
    verified = _run([str(cli), "verify", "--no-progress", "ex"], cwd=work).stdout
    assert verified.rstrip().splitlines()[-1].endswith(", 0 fail"), verified


SWEEP = """\
exactdp: 1
name: fresh-sweep
params: {k: 1, eps: log(2)}
sweep:
  k: {from: 1, to: 3}
  eps: [log(2), log(3)]
mechanisms:
  R: {rr: {eps: eps}}
  M: {repeat: {mechanism: R, times: k}}
claims:
  - privloss: {delta: 0, equals: k*eps}
"""


def _exactdp(venv: Path, work: Path, *args: str) -> subprocess.CompletedProcess:
    """``exactdp *args`` of the fresh installation, in ``work``; never a traceback."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "EXACTDP_JOBS")}
    p = subprocess.run(
        [str(venv / "bin" / "exactdp"), *args], cwd=work, capture_output=True, text=True, env=env, timeout=300
    )
    assert "Traceback" not in p.stdout + p.stderr, f"exactdp {' '.join(args)}:\n{p.stdout}\n{p.stderr}"
    return p


def test_a_fresh_install_runs_the_first_commands_from_an_empty_directory(built: dict[str, Path], runtime_venv: Path):
    """The wheel with its runtime dependencies only (no extra), from an empty directory: the
    parallel runs that once crashed (the preload imported the pytest plugin), certify and the
    referee's checker work; plot and --scheduler say in one line which extra they need (exit 2)."""
    work = built["tmp"] / "empty"
    work.mkdir()
    for case in (CASE, DECIMAL_CASE):
        shutil.copy(case, work / case.name)
    (work / "sweep.yaml").write_text(SWEEP)

    p = _exactdp(runtime_venv, work, "verify", "--jobs", "2", CASE.name, DECIMAL_CASE.name)
    assert p.returncode == 0 and p.stdout.rstrip().endswith(", 0 fail"), p.stdout + p.stderr
    p = _exactdp(runtime_venv, work, "sweep", "--jobs", "2", "--csv", "grid.csv", "sweep.yaml")
    assert p.returncode == 0 and "6 points: 6 where every claim holds" in p.stdout, p.stdout + p.stderr
    assert len((work / "grid.csv").read_text().splitlines()) == 7
    p = _exactdp(runtime_venv, work, "certify", CASE.name, "-o", "certs")
    assert p.returncode == 0, p.stdout + p.stderr
    check = [str(runtime_venv / "bin" / "exactdp-check"), "--case", CASE.name, "certs"]
    c = subprocess.run(check, cwd=work, capture_output=True, text=True, timeout=300)
    assert c.returncode == 0 and "Traceback" not in c.stderr, c.stdout + c.stderr
    p = _exactdp(runtime_venv, work, "verify", "--html", "report", CASE.name)  # without matplotlib: no plot
    assert p.returncode == 0 and (work / "report" / "index.html").is_file(), p.stdout + p.stderr

    for args, extra in [
        (["plot", CASE.name, "-o", "p.png"], "exactdp[plot]"),
        (["sweep", "--scheduler", "local:2", "sweep.yaml"], "exactdp[dask]"),
    ]:
        p = _exactdp(runtime_venv, work, *args)
        lines = p.stderr.splitlines()
        assert p.returncode == 2 and len(lines) == 1 and extra in lines[0], (args, p.stdout, p.stderr)
    assert not (work / "p.png").exists()


def test_ci_runs_make_run_alone_before_make_test():
    """CI exercises the runtime environment without the test extras (`make run` first, in a
    virtual environment without them), then the test suite."""
    lines = [ln.strip() for ln in (ROOT / ".ci" / "run").read_text().splitlines() if not ln.strip().startswith("#")]
    run = next(k for k, ln in enumerate(lines) if ln.startswith("make run"))
    test = next(k for k, ln in enumerate(lines) if ln.startswith("make test"))
    assert run < test
    guard = next(k for k, ln in enumerate(lines) if "import pytest" in ln)
    assert run < guard < test
