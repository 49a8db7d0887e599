"""Every code block of README.md and docs/*.md is executed or checked, by its fence's language.

* ```python   — executed, the blocks of one page in order in one namespace, in a temporary
  directory that holds a copy of the repository's ``cases/``;
* ```pycon    — run as a doctest in the same namespace: the printed output is compared;
* ```console  — each ``$ exactdp ...`` command is run by the shell in that directory and its
  output (stdout and stderr) compared with the lines that follow it, after replacing timings;
* ```yaml     — a block whose first line is ``# NAME.yaml`` is written to that file (later
  blocks of the page may run it); a block that starts with ``exactdp: 1`` is a complete case
  whose claims must all hold; any other block must be valid YAML;
* ```json     — must be valid JSON;
* ```text     — shown, never run: the explicit mark for output, grammars and command synopses.

Any other fence (``sh``, none, ...) is an error: a block is either run or marked ``text``.
Pages written by a generator (errors.md, cases.md) show invalid cases on purpose; their blocks
are checked by their generators' own tests, so only their fences are checked here.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from exactdp.caseio import parse_case
from exactdp.claims import Analysis
from exactdp.claims.parametric import check_claim
from exactdp.report.verdicts import shown

from . import system_tools

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GENERATED = {"errors.md", "cases.md"}  # checked by test_caseio (errorcatalog) and test_casedoc
KNOWN = {"python", "pycon", "console", "yaml", "json", "text"}
BIN = Path(sys.executable).parent

_FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.S | re.M)
_TIMING = re.compile(r"\b\d+(?:\.\d+)?\s?(?:s|ms|seconds?)\b")


@dataclass(frozen=True)
class Block:
    lang: str
    body: str
    line: int


def blocks(text: str) -> list[Block]:
    """The fenced code blocks of a Markdown text, with the line of their opening fence."""
    out = []
    for m in _FENCE.finditer(text):
        indent = len(m.group("indent"))
        body = "".join(l[indent:] if l[:indent].strip() == "" else l for l in m.group("body").splitlines(True))
        out.append(Block(m.group("info").strip(), body, text.count("\n", 0, m.start()) + 1))
    return out


def normalise(output: str) -> str:
    return "\n".join(_TIMING.sub("<time>", line.rstrip()) for line in output.strip("\n").splitlines())


def console_steps(body: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block; ``\\`` continues a command."""
    steps: list[tuple[str, list[str]]] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            cmd = line[2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + lines[i].strip()
            steps.append((cmd, []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise AssertionError(f"console output before any `$ ` command: {line!r}")
        i += 1
    return [(c, "\n".join(out)) for c, out in steps]


# options whose commands need a system tool (tests/system_tools.py); without it the step is
# skipped, visibly
NEEDS = {"--png": "dot", "--svg": "dot", "--pdf": "pdflatex"}


def missing_tool(cmd: str) -> str | None:
    """The system tool ``cmd`` needs and this machine lacks, if any (as its skip reason)."""
    for option, tool in NEEDS.items():
        if re.search(rf"(?<!\S){re.escape(option)}(?!\S)", cmd) and not system_tools.available(tool):
            return system_tools.reason(tool)
    return None


def run_console(body: str, cwd: Path, where: str, skipped: list[str] | None = None) -> None:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="100", PYTHONUNBUFFERED="1")
    env.pop("EXACTDP_PROGRESS", None)
    for cmd, expected in console_steps(body):
        assert cmd.startswith("exactdp "), f"{where}: `$ {cmd}` is not an exactdp command: mark the block ```text"
        why = missing_tool(cmd)
        if why is not None:
            if skipped is None:
                pytest.skip(f"{where}: `$ {cmd}`: {why}")
            skipped.append(f"{where}: `$ {cmd}` ({why})")
            continue
        res = subprocess.run(
            ["bash", "-c", cmd],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
        assert normalise(res.stdout) == normalise(expected), (
            f"{where}: output of `$ {cmd}` (exit {res.returncode}) differs:\n{res.stdout}"
        )


def check_case(text: str, where: str) -> None:
    case = parse_case(text, where)
    an = Analysis(case.mechanisms, symbols=case.symbols)
    bad = [(c.describe(), str(shown(v).found)) for c in case.claims if not (v := check_claim(c, an)).holds]
    assert not bad, f"{where}: claims that do not hold: {bad}"


def run_page(page: Path, tmp: Path) -> int:
    """Run or check every block of one page; the number of blocks run or checked."""
    tmp.mkdir(parents=True, exist_ok=True)
    shutil.copytree(ROOT / "cases", tmp / "cases")
    ns: dict = {"__name__": "__doc_example__"}
    done = 0
    skipped: list[str] = []
    old = Path.cwd()
    os.chdir(tmp)
    try:
        for b in blocks(page.read_text(encoding="utf-8")):
            where = f"{_name(page)}:{b.line}"
            assert b.lang in KNOWN or b.lang.startswith("{"), (
                f"{where}: code block marked {b.lang or '(nothing)'!r}: run it (python, pycon, console) or mark it ```text"
            )
            if b.lang.startswith("{"):
                continue  # a MyST directive such as {toctree} or {include}: markup, not code
            if page.name in GENERATED or b.lang == "text":
                continue
            done += 1
            _run_block(b, tmp, ns, where, skipped)
    finally:
        os.chdir(old)
    if skipped:  # every other block ran; say which steps did not
        pytest.skip("system tools missing, not run: " + "; ".join(skipped))
    return done


def _name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else page.name


def _run_block(b: Block, tmp: Path, ns: dict, where: str, skipped: list[str]) -> None:
    if b.lang == "python":
        exec(compile(b.body, where, "exec"), ns)
    elif b.lang == "pycon":
        test = doctest.DocTestParser().get_doctest(b.body, ns, where, where, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        out: list[str] = []
        runner.run(test, out=out.append, clear_globs=False)
        assert not runner.failures, f"{where}: doctest failed:\n" + "".join(out)
    elif b.lang == "console":
        run_console(b.body, tmp, where, skipped)
    elif b.lang == "json":
        json.loads(b.body)
    else:
        header = re.match(r"# ([\w.-]+\.ya?ml)\s*\n", b.body)
        if header:
            (tmp / header.group(1)).write_text(b.body, encoding="utf-8")
        elif b.body.startswith("exactdp: 1"):
            check_case(b.body, where)
        else:
            yaml.safe_load(b.body)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_page_examples_run(page, tmp_path):
    run_page(page, tmp_path)


def test_the_pages_have_runnable_examples():
    runnable = {
        p.name: sum(b.lang in {"python", "pycon", "console"} for b in blocks(p.read_text(encoding="utf-8")))
        for p in PAGES
    }
    assert runnable["README.md"] >= 2 and runnable["composition.md"] >= 1 and runnable["simulate.md"] >= 1


# --- the harness itself -----------------------------------------------------------------------


def test_blocks_and_console_steps_are_parsed():
    text = "a\n```console\n$ exactdp x \\\n    --y 1\nout 1\nout 2\n$ exactdp z\n```\n\n  ```text\n  shown\n  ```\n"
    bs = blocks(text)
    assert [(b.lang, b.line) for b in bs] == [("console", 2), ("text", 10)]
    assert bs[1].body == "shown\n"
    assert console_steps(bs[0].body) == [("exactdp x --y 1", "out 1\nout 2"), ("exactdp z", "")]


def test_timings_are_the_only_normalisation():
    assert normalise("done in 0.42 s  \n3 claims\n") == "done in <time>\n3 claims"
    assert normalise("log(3) ≈ 1.09861") == "log(3) ≈ 1.09861"


def test_an_unmarked_block_is_an_error(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("```sh\nmake run\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="mark it ```text"):
        run_page(page, tmp_path / "run")


def test_a_wrong_output_is_caught(tmp_path):
    with pytest.raises(AssertionError, match="differs"):
        run_console("$ exactdp --version\nexactdp 0.0.0-not-this\n", tmp_path, "here")


def test_a_non_exactdp_command_is_refused(tmp_path):
    with pytest.raises(AssertionError, match="not an exactdp command"):
        run_console("$ rm -rf /\n", tmp_path, "here")


def test_a_failing_claim_in_a_complete_case_is_caught():
    with pytest.raises(AssertionError, match="do not hold"):
        check_case("exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(2)}}]\n", "here")
