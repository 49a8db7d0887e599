"""Finding and reading case files (exactdp/caseio/files.py): no symbolic link is followed unless
asked, and then only inside the tree; only regular files are read, promptly; the size limit holds
while reading; nothing of a refused file reaches any output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.caseio import load_case
from exactdp.caseio.files import read_case_bytes, scan
from exactdp.cli import main
from exactdp.errors import CaseError
from exactdp.verify import find_case_files, verify_paths

SECRET = "TOKEN-d41d8cd98f00b204e9800998ecf8427e"
GOOD = "exactdp: 1\nname: good\nmechanism: {rr: {eps: log(3)}}\nclaims: [{privloss: {delta: 0, equals: log(3)}}]\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """cases/ with a good case, a link to a secret outside, a link to a case inside, a linked
    directory, and a secret next to the tree."""
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET + "\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "o.yaml").write_text(GOOD.replace("good", "outside"))
    cases = tmp_path / "cases"
    (cases / "sub").mkdir(parents=True)
    (cases / "good.yaml").write_text(GOOD)
    (cases / "sub" / "inner.yaml").write_text(GOOD.replace("good", "inner"))
    (cases / "leak.yaml").symlink_to(secret)
    (cases / "alias.yaml").symlink_to(cases / "sub" / "inner.yaml")
    (cases / "linkdir").symlink_to(tmp_path / "outside")
    (cases / "README").symlink_to(secret)  # not a case file: ignored by scans
    return cases


def _outputs(*args: str) -> list[str]:
    """Every output format of every command that reads a case."""
    runs = [
        ("verify", *args),
        ("verify", "--json", *args),
        ("verify", "--witness", "--engine", "enumerator", *args),
    ]
    out = []
    for a in runs:
        r = CliRunner().invoke(main, list(a))
        out.append(r.output)
    return out


def test_a_symlink_is_refused_without_reading_it(tree: Path):
    link = tree / "leak.yaml"
    with pytest.raises(CaseError) as e:
        read_case_bytes(link, max_bytes=10_000)
    text = str(e.value)
    assert str(link) in text and "symbolic link" in text and "--follow-symlinks" in text
    assert SECRET not in text and "secret.txt" not in text  # neither the content nor the target


def test_no_secret_in_any_output_format(tree: Path):
    for args in ([str(tree)], [str(tree / "leak.yaml")]):
        for out in _outputs(*args):
            assert SECRET not in out and "secret.txt" not in out
            assert "leak.yaml" in out
    for cmd in (
        ["privloss"],
        ["profile"],
        ["info"],
        ["simulate"],
        ["simulate", "--format", "json"],
        ["simulate", "--format", "latex"],
    ):
        r = CliRunner().invoke(main, [*cmd, str(tree / "leak.yaml")])
        assert r.exit_code == 2 and SECRET not in r.output and "symbolic link" in r.output


def test_scan_lists_links_and_linked_directories_for_refusal(tree: Path):
    names = sorted(str(p.relative_to(tree)) for p in find_case_files([tree]))
    assert names == ["alias.yaml", "good.yaml", "leak.yaml", "linkdir", "sub/inner.yaml"]
    res = verify_paths([tree])
    by = {Path(f.file).name: f for f in res.files}
    assert by["good.yaml"].exit_code == 0 and by["inner.yaml"].exit_code == 0
    for bad in ("alias.yaml", "leak.yaml", "linkdir"):
        assert by[bad].exit_code == 2 and "symbolic link" in str(by[bad].error)
    assert res.exit_code == 2  # a refused link never passes silently


def test_follow_symlinks_stays_inside_the_tree(tree: Path):
    r = CliRunner().invoke(main, ["verify", "--follow-symlinks", str(tree)])
    assert SECRET not in r.output
    assert "alias.yaml: good" not in r.output and "alias.yaml: inner" in r.output  # followed (inside)
    assert "leak.yaml" in r.output and "outside the tree being verified" in r.output
    assert "linkdir: invalid case" in r.output  # a linked directory outside the tree is refused, not searched
    assert r.exit_code == 2
    # a link inside the tree is followed; the tree of a file argument is its directory
    assert load_case(tree / "alias.yaml", follow_symlinks=True).name == "inner"
    with pytest.raises(CaseError, match="outside the tree"):
        load_case(tree / "leak.yaml", follow_symlinks=True)


def test_a_linked_directory_inside_the_tree_is_searched_once(tmp_path: Path):
    cases = tmp_path / "cases"
    (cases / "a").mkdir(parents=True)
    (cases / "a" / "x.yaml").write_text(GOOD)
    (cases / "b").symlink_to(cases / "a")
    (cases / "a" / "loop").symlink_to(cases)  # a cycle: must not loop
    found = [f.path.relative_to(cases).as_posix() for f in scan([cases], follow_symlinks=True)]
    assert found == ["a/x.yaml"]
    assert verify_paths([cases]).exit_code == 2  # without the flag: links refused


def test_a_symlink_on_a_relative_command_line_path_is_refused(tmp_path: Path, monkeypatch):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "c.yaml").write_text(GOOD)
    (tmp_path / "via").symlink_to(tmp_path / "real")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CaseError, match="directory 'via' on its path"):
        read_case_bytes("via/c.yaml", max_bytes=10_000)
    assert load_case("real/c.yaml").name == "good"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_fifo_and_devices_are_refused_at_once(tmp_path: Path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    for path, kind in ((fifo, "FIFO"), (Path("/dev/zero"), "character device"), (tmp_path, "directory")):
        t = time.monotonic()
        with pytest.raises(CaseError, match=f"is a {kind}.*not a regular file"):
            read_case_bytes(path, max_bytes=5_000_000)
        assert time.monotonic() - t < 10  # (without the type check: blocked for ever)
    # end to end, in a process of its own: nothing blocks, exit 2
    t = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-c", "from exactdp.cli import run; run()", "verify", str(fifo), "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert p.returncode == 2 and time.monotonic() - t < 10
    assert "FIFO" in p.stdout and "character device" in p.stdout


def test_size_limit_is_enforced_while_reading(tmp_path: Path):
    big = tmp_path / "big.yaml"
    big.write_text(GOOD + "#" * 5000)
    with pytest.raises(CaseError, match=r"file is \d+ bytes; the limit is 100"):
        read_case_bytes(big, max_bytes=100)
    # a regular file whose size is not known in advance (/proc reports 0): still bounded
    proc = Path("/proc/self/maps")
    if proc.exists():
        with pytest.raises(CaseError, match="more than 10 bytes"):
            read_case_bytes(proc, max_bytes=10)
    r = CliRunner().invoke(main, ["verify", "--max-file-bytes", "100", str(big)])
    assert r.exit_code == 2 and "--max-file-bytes" in r.output


def test_a_non_yaml_file_is_echoed_as_a_short_excerpt(tmp_path: Path):
    junk = tmp_path / "junk.yaml"
    junk.write_text("x" * 270_000)
    for args in (["verify", str(junk)], ["verify", "--json", str(junk)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2
        assert len(r.output) < 2_000, len(r.output)
        assert "x" * 61 not in r.output and "…" in r.output and "270000 characters" in r.output
    multi = tmp_path / "multi.yaml"
    multi.write_text("exactdp: 1\nname: " + "\n".join(["a b"] * 3) + "\n")
    r = CliRunner().invoke(main, ["verify", "--json", str(multi)])
    problems = json.loads(r.output)["files"][0]["problems"]
    assert all("\n" not in p["message"] for p in problems)
