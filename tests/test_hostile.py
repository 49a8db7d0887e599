"""Hostile input end to end: every resource bomb is refused by a named limit, promptly and in
bounded memory; long values print; deep and long structures work; output that cannot be
written ends with exit status 2 and one line, never a traceback.

Each bomb runs in a process of its own, under a tight memory and time allowance (the limits'
defaults are measured by ``make bench``: bench/b_hostile.py), with an address-space cap as a
safety net for the machine, and its peak memory is read from /proc (VmHWM)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactdp.cli import main

from .hostile_cases import BOMBS, chain_of_named, deep_tree

# the CLI entry point, reporting its own peak memory on stderr at exit
RUNNER = (
    "import atexit, sys\n"
    "def _peak():\n"
    "    try:\n"
    "        kb = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
    "        sys.stderr.write('PEAK_KB %s\\n' % kb)\n"
    "    except Exception:\n"
    "        pass\n"
    "atexit.register(_peak)\n"
    "from exactdp.cli import run\n"
    "run()\n"
)
TIGHT = ["--max-memory", "150M", "--timeout", "20"]


def _cap() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def cli(*args: str, timeout: float = 120, **kw) -> tuple[subprocess.CompletedProcess, float, float]:
    """Run ``exactdp *args`` in its own process: (result, seconds, peak MB)."""
    t = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-c", RUNNER, *args], capture_output=True, text=True, timeout=timeout, preexec_fn=_cap, **kw
    )
    secs = time.monotonic() - t
    m = re.search(r"PEAK_KB (\d+)", p.stderr)
    return p, secs, (int(m.group(1)) / 1024 if m else 0.0)


def _no_traceback(p: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in p.stderr and "Traceback" not in p.stdout


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory from /proc")
@pytest.mark.parametrize("name", list(BOMBS))
def test_each_bomb_is_refused_by_a_named_limit_promptly_and_small(name, tmp_path):
    make, flags, limit_flag = BOMBS[name]
    f = tmp_path / f"{name}.yaml"
    f.write_text(make())
    extra = ["--timeout", "3"] if limit_flag == "--timeout" else []
    p, secs, peak = cli("verify", str(f), *TIGHT, *extra, *flags)
    _no_traceback(p)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert limit_flag in p.stdout and "exceeds the limit of" in p.stdout, p.stdout
    assert secs < 30 and peak < 1024, (secs, peak)
    assert len(p.stdout) < 2000


def test_compose_and_experiment_are_bounded():
    r = CliRunner().invoke(main, ["compose", "--eps", "log(2)", "--repeat", "1000000"])
    assert (
        r.exit_code == 2
        and "number of components (1000000) exceeds the limit of 200000" in r.output
        and "--max-components" in r.output
    )
    r = CliRunner().invoke(main, ["compose", "--eps", "log(2)", "--repeat", "1000", "--max-components", "999"])
    assert r.exit_code == 2 and "--max-components" in r.output
    t = time.monotonic()
    r = CliRunner().invoke(main, ["experiment", "section6", "--samples", "1000000000"])
    assert r.exit_code == 2 and "number of samples" in r.output and "--max-samples" in r.output
    assert time.monotonic() - t < 15


def test_every_command_takes_every_limit_and_has_a_default_timeout():
    from exactdp.limits import DEFAULT

    assert DEFAULT.timeout == 300 and DEFAULT.max_memory == 800 << 20
    from exactdp.limits import FLAGS

    # every limit's flag, from the one table in exactdp.limits (--max-strategies, the enumerator's,
    # only where an engine runs: not compose or experiment's own options)
    flags = [f for k, f in FLAGS.items() if k != "max_strategies"]
    for cmd in (["verify"], ["privloss"], ["profile"], ["info"], ["simulate"], ["compose"], ["experiment", "section6"]):
        out = CliRunner().invoke(main, [*cmd, "--help"]).output
        missing = [fl for fl in flags if fl not in out]
        assert not missing, (cmd, missing)
    # --help names every limit; --help-limits gives each one's default
    assert "[default: 300]" in CliRunner().invoke(main, ["verify", "--help-limits"]).output


def test_the_timeout_is_not_overshot(tmp_path):
    """Numbers are bounded, so no single operation is long: --timeout 1 stops a long run at once."""
    f = tmp_path / "r.yaml"
    f.write_text(BOMBS["repeat-3000"][0]())
    p, secs, _ = cli("verify", str(f), "--timeout", "1")
    assert p.returncode == 2 and "the running time exceeds the limit of 1 s" in p.stdout
    assert secs < 12  # (without bounded numbers: 34 s and more)


def test_dataset_names_are_refused_before_pairs_are_built(tmp_path):
    f = tmp_path / "d.yaml"
    f.write_text(BOMBS["datasets-1e4"][0]())
    t = time.monotonic()
    r = CliRunner().invoke(main, ["verify", str(f)])
    assert r.exit_code == 2 and "number of datasets (10000) exceeds the limit of 1000" in r.output
    assert f"{f}:3:" in r.output and time.monotonic() - t < 15
    g = tmp_path / "p.yaml"
    g.write_text(BOMBS["datasets-1e4"][0](300))
    r = CliRunner().invoke(main, ["verify", str(g)])
    assert "number of adjacent pairs (44850) exceeds the limit of 20000" in r.output and "--max-pairs" in r.output
    r = CliRunner().invoke(main, ["verify", str(g), "--max-pairs", "50000"])
    assert "adjacent pairs" not in r.output and "mechanism.respond.a.p" in r.output  # read on, to the next problem
    from exactdp.builders import rr
    from exactdp.errors import LimitExceededError
    from exactdp.model import Mechanism

    with pytest.raises(LimitExceededError, match="--max-datasets"):
        Mechanism(rr(exp_eps=3).root, tuple(f"d{i}" for i in range(2000)), ((0, 1),))


# --- values longer than Python's 4,300-digit int-to-str limit ------------------------------------

BIG = """
exactdp: 1
name: big
mechanism: {rr: {eps: log(3^9999)}}
claims:
  - privloss: {delta: 0, equals: log(3^9999)}
  - not_dp: {eps: log(3^9998)}
"""


def test_values_over_4300_digits_print(tmp_path):
    f = tmp_path / "big.yaml"
    f.write_text(BIG)
    for args in (
        ["verify", "-v", str(f)],
        ["verify", "--json", str(f)],
        ["verify", "-v", "--witness", str(f)],
        ["profile", str(f)],
        ["privloss", "--witness", str(f)],
    ):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 0, (args, r.output[-500:])
        assert "5437833951142086247677" in r.output
    r = CliRunner().invoke(main, ["privloss", str(f), "--delta", "1e-9999"])
    assert r.exit_code == 0 and "PrivLoss(M, 1/1" + "0" * 9999 + ")" in r.output
    g = tmp_path / "tg.yaml"
    g.write_text(
        "exactdp: 1\nname: tg\nmechanism: {truncated_geometric: {alpha: 1/2, n: 10000, counts: {x0: 0, x1: 1}}}\nclaims: [{privloss: {delta: 0, equals: log(2)}}]\n"
    )
    r = CliRunner().invoke(main, ["verify", "--witness", str(g)])
    assert r.exit_code == 0, r.output
    # the limit message itself stays short
    h = tmp_path / "lim.yaml"
    h.write_text("exactdp: 1\nname: lim\nmechanism: {rr: {eps: log((3^9999)^1000)}}\nclaims: [{dp: {eps: 1}}]\n")
    r = CliRunner().invoke(main, ["verify", str(h)])
    assert r.exit_code == 2 and "(4771 digits)" in r.output and len(r.output) < 1000


# --- deep and long structures ------------------------------------------------------------------


def test_a_chain_of_200_named_mechanisms(tmp_path):
    f = tmp_path / "chain.yaml"
    f.write_text(chain_of_named(200))
    r = CliRunner().invoke(main, ["verify", str(f)])
    assert r.exit_code == 0, r.output[-2000:]


def test_a_valid_124_level_tree(tmp_path):
    f = tmp_path / "deep.yaml"
    f.write_text(deep_tree(124))
    p, _, _ = cli("verify", str(f))
    _no_traceback(p)
    assert p.returncode == 0, p.stdout[-500:]


def test_deep_games_need_no_recursion_outside_the_reader():
    """A 300-round game built through the API, walked with the recursion limit set to 150
    frames above the test's own: engines, witnesses, reports, simulation, structure operations
    and combinators all walk it iteratively (any per-level recursion would fail)."""
    from exactdp.model import END, Ask, Chance, Mechanism
    from exactdp.numbers import Q

    node = END
    for _ in range(300):
        rr3 = Chance(["0", "1"], [(Q(3, 4), Q(1, 4)), (Q(1, 4), Q(3, 4))], [END, END])
        node = Chance(["a", "b"], [(Q(1, 2), Q(1, 2)), (Q(1, 2), Q(1, 2))], [Ask(["q", "r"], [node, rr3]), END])
    from exactdp.limits import DEFAULT, using

    m = Mechanism(node, name="deep")
    with (
        using(DEFAULT.replace(max_memory=600 << 20, timeout=120)),
        _shallow_stack(150),
    ):  # a regression must not take the machine
        _walk_everything(m, node)


@contextmanager
def _shallow_stack(extra: int):
    import inspect

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + extra)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _walk_everything(m, node) -> None:
    from exactdp import builders as B
    from exactdp import model
    from exactdp.analysis import enumerator
    from exactdp.analysis import profile as P
    from exactdp.analysis.bounded_range import br_range
    from exactdp.model import END, Chance, Mechanism
    from exactdp.numbers import Q
    from exactdp.report import profile_to_dict, render_witness, witness_to_dict
    from exactdp.simulation.simulate import simulate

    prof = P.profile(m)
    assert str(prof.privloss(0)) == "log(3)"
    w = P.witness(m, Q(2))
    assert render_witness(w) and witness_to_dict(w)["rechecked"] and profile_to_dict(prof)
    assert len(w.decision_tree(limit=5000)[0]) >= 300
    assert model.stats(m.root)["depth"] == 601 and model.count_strategies(m.root) > 1
    model.share(m.root), model.to_networkx(m), model.graft(m.root, B.rr(exp_eps=Q(3)).root)
    B.repeat(m, 2), B.compose([m, m]), B.concomp([m, B.rr(exp_eps=Q(3))])
    assert br_range(m) is not None
    assert simulate(m).exists
    deep_label = ("x",)
    for _ in range(1000):
        deep_label = (deep_label, "y")
    assert model.label_str(deep_label).count("y") == 1000
    chain = END  # no choices: one adversary, 301 views, 300 levels deep
    for _ in range(300):
        chain = Chance(["a", "b"], [(Q(1, 2), Q(1, 3)), (Q(1, 2), Q(2, 3))], [chain, END])
    chain_m = Mechanism(chain, name="chain")
    assert enumerator.privloss(chain_m, 0) == P.privloss(chain_m, 0)


# --- output that cannot be written ---------------------------------------------------------------

GOOD = "exactdp: 1\nname: good\nmechanism: {rr: {eps: log(3)}}\nclaims: [{privloss: {delta: 0, equals: log(3)}}]\n"


def test_closed_stdout_full_disk_latin1_and_broken_pipe(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text(GOOD)
    cmd = [sys.executable, "-c", "from exactdp.cli import run; run()"]
    # closed stdout
    p = subprocess.run(
        cmd + ["verify", str(f)],
        stdout=None,
        stderr=subprocess.PIPE,
        text=True,
        pass_fds=(),
        close_fds=True,
        preexec_fn=lambda: os.close(1),
    )
    assert p.returncode == 2 and p.stderr.strip().count("\n") == 0 and "standard output is closed" in p.stderr
    # a full disk
    if Path("/dev/full").exists():
        with open("/dev/full", "w") as full:
            p = subprocess.run(cmd + ["verify", str(f)], stdout=full, stderr=subprocess.PIPE, text=True)
        assert p.returncode == 2 and p.stderr.strip() == "exactdp: cannot write the output: No space left on device"
    # a Latin-1 terminal: exactdp's own symbols in ASCII (exit 0) ...
    env = dict(os.environ, PYTHONIOENCODING="latin-1")
    p = subprocess.run(cmd + ["verify", "-v", str(f)], capture_output=True, env=env)
    assert p.returncode == 0 and b"log(3) ~ 1.0986" in p.stdout and b"\\u" not in p.stdout, p.stdout
    # ... and case-file text it cannot show written as \u escapes, with exit 2
    omega = tmp_path / "omega.yaml"
    omega.write_text(GOOD.replace("name: good", "name: good\ntitle: \u03a9 test"), encoding="utf-8")
    p = subprocess.run(cmd + ["verify", "-v", str(omega)], capture_output=True, env=env)
    assert p.returncode == 2 and b"summary: 1 claim in 1 file: 1 hold" in p.stdout and b"\\u03a9 test" in p.stdout
    assert p.stderr.decode("latin-1").strip().count("\n") == 0 and b"latin" in p.stderr.lower() or b"8859" in p.stderr
    # a reader that goes away (broken pipe)
    p = subprocess.Popen(cmd + ["simulate", "--format", "json", str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait() in (0, 2) and "Traceback" not in err
    for p2 in (p,):
        assert p2.returncode != 3


def test_output_errors_never_look_like_a_failing_claim(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text(GOOD * 1)
    big = tmp_path / "tg.yaml"
    big.write_text(
        "exactdp: 1\nname: tg\nmechanism: {truncated_geometric: {alpha: 1/2, n: 3000, counts: {x0: 0, x1: 1}}}\nclaims: [{privloss: {delta: 0, equals: log(2)}}]\n"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", "from exactdp.cli import run; run()", "simulate", "--format", "json", str(big)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait() == 2 and err.strip().endswith("(broken pipe)") and err.count("\n") == 1, err


def test_json_report_of_a_refused_file_is_valid_and_short(tmp_path):
    f = tmp_path / "junk.yaml"
    f.write_text("{" * 2000)
    r = CliRunner().invoke(main, ["verify", "--json", str(f)])
    d = json.loads(r.output)
    assert d["exit"] == 2 and len(r.output) < 3000


def test_an_automaton_with_horizon_1e5_is_refused_before_its_game_is_built(tmp_path):
    """Under the default limits (no tight allowance) the automaton with horizon 10^5 ran until
    the 300 s time limit; its work is now predicted from the horizon and its reachable states
    and refused at once by --max-automaton-work, with the prediction in the message."""
    from .hostile_cases import automaton_bomb

    f = tmp_path / "auto.yaml"
    f.write_text(automaton_bomb())
    p, secs, peak = cli("verify", str(f), timeout=60)
    _no_traceback(p)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "horizon 100000, 2 reachable joint states" in p.stdout and "--max-automaton-work" in p.stdout, p.stdout
    assert secs < 30 and peak < 300, (secs, peak)


@pytest.mark.parametrize(
    "argv",
    [["privloss", "--of", "M\u00e9"], ["profile", "--of", "M\u00e9"], ["renyi", "--of", "M\u00e9", "--alpha", "2"]],
)
def test_an_ascii_terminal_gets_escapes_from_every_command_not_utf8_bytes(tmp_path, argv):
    """click.echo replaces an ASCII stdout by a UTF-8 one; the commands write through the stream,
    whose handler writes exactdp's symbols in ASCII and a case's text as \\u escapes (exit 2)."""
    f = tmp_path / "a.yaml"
    f.write_text(
        GOOD.replace("mechanism: {rr", "mechanisms:\n  M\u00e9: {rr")
        .replace("}}\nclaims", "}}\nclaims")
        .replace("privloss: {delta", "privloss: {of: M\u00e9, delta"),
        encoding="utf-8",
    )
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    cmd = [sys.executable, "-c", "from exactdp.cli import run; run()"]
    p = subprocess.run(cmd + [argv[0], str(f), *argv[1:]], capture_output=True, env=env)
    assert p.returncode == 2 and b"M\\u00e9" in p.stdout and max(p.stdout, default=0) < 128, p.stdout
    assert b"cannot be shown in the terminal's encoding (ascii)" in p.stderr


def test_json_on_an_ascii_terminal_is_valid_exact_and_exits_0(tmp_path):
    """A name beyond U+FFFF in --json on an ASCII stdout: written as a JSON surrogate-pair escape
    (valid JSON, the same value), not the text escape \\U0001f600, and the run is faithful."""
    f = tmp_path / "e.yaml"
    f.write_text(GOOD.replace("mechanism: {rr", 'mechanisms:\n  "M\U0001f600": {rr'), encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    cmd = [sys.executable, "-c", "from exactdp.cli import run; run()"]
    for argv in (["verify", "--json", str(f)], ["privloss", "--json", str(f)]):
        p = subprocess.run(cmd + argv, capture_output=True, env=env)
        assert p.returncode == 0 and max(p.stdout) < 128, (argv, p.stdout[:200], p.stderr)
        assert "M\U0001f600" in p.stdout.decode("ascii") or "M\U0001f600" in json.dumps(
            json.loads(p.stdout), ensure_ascii=False
        )


def test_messages_on_stderr_escape_case_text_an_ascii_terminal_cannot_show(tmp_path):
    """export's note on a failing claim quotes the mechanism's name on stderr: escaped, exit 2,
    as on stdout (it came out as raw UTF-8 bytes)."""
    f = tmp_path / "s.yaml"
    f.write_text(
        "exactdp: 1\nname: s\nmechanisms:\n  M\u00e9: {rr: {eps: log(3)}}\nclaims: [{dp: {of: M\u00e9, eps: log(2)}}]\n",
        encoding="utf-8",
    )
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    cmd = [sys.executable, "-c", "from exactdp.cli import run; run()"]
    p = subprocess.run(cmd + ["export", str(f), "--latex", str(tmp_path / "v.tex")], capture_output=True, env=env)
    assert p.returncode == 2 and b"M\\u00e9" in p.stderr and max(p.stderr) < 128, p.stderr
