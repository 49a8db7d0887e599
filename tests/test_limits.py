"""Limits: every one is enforced, named in the error, and raisable; none truncates silently."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest
from click.testing import CliRunner

from exactdp.analysis import profile
from exactdp.builders import choose, compose, repeat, rr
from exactdp.claims import UNDECIDED
from exactdp.cli import main
from exactdp.errors import CaseError, LimitExceededError
from exactdp.limits import DEFAULT, Limits, using
from exactdp.numbers import Q, eval_text
from exactdp.numbers.expr import ExprError
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text


def test_node_budget():
    with using(Limits(max_nodes=100)):
        with pytest.raises(LimitExceededError, match="--max-nodes"):
            repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 200)
    repeat(choose([rr(exp_eps=2), rr(exp_eps=3)]), 200)  # fine under the default


def test_profile_size_limit():
    # compose of RR's with distinct e^eps: 2^k distinct likelihood ratios
    m = compose([rr(exp_eps=Q(p)) for p in [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41]])
    with using(Limits(max_hull_edges=5000)):
        with pytest.raises(LimitExceededError, match="--max-profile-size"):
            profile.profile(m)


def test_power_size_limit():
    with pytest.raises(ExprError, match="bits exceeds the limit of 1000000 bits; raise it with --max-bits"):
        eval_text("(2^10000)^10000")
    with using(Limits(max_bits=10)):
        with pytest.raises(ExprError, match="bits"):
            eval_text("2^100")
    fr = verify_text(
        "exactdp: 1\nname: p\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log((2^10000)^10000)}}]\n", "p.yaml"
    )
    assert fr.exit_code == 2 and "p.yaml:4:" in str(fr.error) and "--max-bits" in str(fr.error)


def test_timeout_marks_remaining_claims_undecided():
    text = textwrap.dedent(
        """
        exactdp: 1
        name: slow
        mechanisms:
          M: {repeat: {mechanism: {compose: [{rr: {eps: log(2)}}, {rr: {eps: log(3)}}, {rr: {eps: log(5)}}, {rr: {eps: log(7)}}]}, times: 30}}
        claims:
          - privloss: {delta: 1/1000, at_most: inf}
          - privloss: {delta: 1/1000, at_most: inf}
        """
    )
    opts = Options(limits=DEFAULT.replace(timeout=0.5))  # ~900,000 likelihood ratios: minutes of work
    t = time.monotonic()
    fr = verify_text(text, "slow.yaml", opts)
    assert time.monotonic() - t < 5
    assert fr.exit_code == 2
    assert [v.status for v in fr.verdicts] == ["error", "error"]
    assert "running time" in shown(fr.verdicts[0]).note and "--timeout" in shown(fr.verdicts[0]).note


def test_cli_flags_reach_the_limits(tmp_path):
    f = tmp_path / "r.yaml"
    f.write_text(
        "exactdp: 1\nname: r\nmechanism: {repeat: {mechanism: {rr: {eps: log(2)}}, times: 50}}\nclaims: [{dp: {eps: log(2^50)}}]\n"
    )
    r = CliRunner().invoke(main, ["verify", str(f), "--max-nodes", "10"])
    assert r.exit_code == 2 and "game nodes exceeds the limit of 10" in r.output and "--max-nodes" in r.output
    assert CliRunner().invoke(main, ["verify", str(f)]).exit_code == 0
    r = CliRunner().invoke(main, ["privloss", str(f), "--max-nodes", "10"])
    assert r.exit_code == 2 and "--max-nodes" in r.output


def test_alias_bomb_is_fast_and_small():
    """A 'billion laughs' file fails in < 2 s using < 200 MB (measured in its own process)."""
    lines = ["exactdp: 1", "name: bomb", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    text = "\n".join(lines) + "\n"
    code = (
        "import resource, sys, time\n"
        "from exactdp.caseio import parse_case\n"
        "from exactdp.errors import CaseError\n"
        "t = time.monotonic()\n"
        "try:\n"
        "    parse_case(sys.stdin.read(), 'bomb.yaml')\n"
        "except CaseError as e:\n"
        "    print('REFUSED', str(e).splitlines()[0])\n"
        # VmHWM, not ru_maxrss: the latter survives exec and would include the forking pytest process
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
        "mb = int(hwm[0].split()[1]) / 1024 if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "print(time.monotonic() - t, mb)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, check=True)
    out = p.stdout.splitlines()
    assert out[0].startswith("REFUSED") and "expands to more than" in out[0]
    secs, mb = map(float, out[1].split())
    assert secs < 2 and mb < 200


def test_timeout_survives_a_swallowed_alarm(monkeypatch):
    """An exception raised where Python drops it (a ``__del__`` method, a garbage-collector
    callback) is lost; the time limit must still end the computation (the alarm repeats, and the
    engines also watch the deadline; it used to run on for minutes when the first alarm fell into
    hypothesis's gc callback).  Here the
    first alarm is made to fall into a ``__del__`` for certain, whatever the machine's load."""
    import exactdp.verify as V

    swallowed: list[str] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: swallowed.append(type(u.exc_value).__name__))

    class Swallower:
        def __del__(self):
            until = time.monotonic() + 10
            while not swallowed and time.monotonic() < until:
                time.sleep(0.01)  # the first alarm (0.5 s) is raised here, and dropped

    real = V._check_one

    def check_one(*args, **kwargs):
        Swallower()  # deleted at once: its __del__ waits for the alarm
        return real(*args, **kwargs)

    monkeypatch.setattr(V, "_check_one", check_one)
    text = textwrap.dedent(
        """
        exactdp: 1
        name: slow
        mechanisms:
          M: {repeat: {mechanism: {compose: [{rr: {eps: log(2)}}, {rr: {eps: log(3)}}, {rr: {eps: log(5)}}, {rr: {eps: log(7)}}]}, times: 30}}
        claims:
          - privloss: {delta: 1/1000, at_most: inf}
        """
    )
    start = time.monotonic()
    fr = verify_text(text, "slow.yaml", Options(limits=DEFAULT.replace(timeout=0.5)))
    elapsed = time.monotonic() - start
    assert swallowed == ["TimeLimitExceeded"], "the first alarm was not swallowed: the test did not exercise the repeat"
    assert [v.status for v in fr.verdicts] == [UNDECIDED] and elapsed < 20


# --- the limits added against hostile input -----------------------------------------------------


def test_sizes_read_and_print():
    from exactdp.limits import parse_size, size_text

    assert parse_size("800M") == 800 << 20 and parse_size("4G") == 4 << 30 and parse_size("1.5g") == 3 << 29
    assert parse_size("2GiB") == 2 << 30 and parse_size("123") == 123 and parse_size("0") == 0
    for bad in ("", "-1G", "lots", "1X"):
        with pytest.raises(ValueError, match="not a size"):
            parse_size(bad)
    assert size_text(800 << 20) == "800 MiB" and size_text(3 << 29) == "1.5 GiB" and size_text(1000) == "1000 bytes"
    r = CliRunner().invoke(main, ["compose", "--eps", "log(2)", "--max-memory", "lots"])
    assert r.exit_code == 2 and "not a size" in r.output


def test_limits_replace_refuses_unknown_names():
    with pytest.raises(TypeError, match="unknown limit"):
        DEFAULT.replace(max_nodez=3)
    assert DEFAULT.replace(timeout=None) == DEFAULT  # None: keep the default


def test_memory_limit_is_watched_and_named():
    from exactdp.limits import MIB

    t = time.monotonic()
    with pytest.raises(
        LimitExceededError, match=r"the memory in use exceeds the limit of 50 MiB; raise it with --max-memory"
    ):
        with using(DEFAULT.replace(max_memory=50 * MIB)):
            hog = []
            for _ in range(2000):  # up to 2 GB, refused after about 50 MB
                hog.append(bytearray(1 << 20))
    assert time.monotonic() - t < 5
    del hog
    with pytest.raises(LimitExceededError, match="the memory in use"):
        with using(DEFAULT):
            raise MemoryError()


def test_nested_clocks_and_watches_are_restored():
    import signal

    with using(DEFAULT.replace(timeout=100)):
        with using(DEFAULT.replace(timeout=50, max_memory=0)):
            assert 0 < signal.getitimer(signal.ITIMER_REAL)[0] <= 50
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 90 < left <= 100  # the outer clock runs on, less only the time the inner block took
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 0  # the outer memory watch too
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0 and signal.getitimer(signal.ITIMER_PROF)[0] == 0
    with using(DEFAULT.replace(timeout=0, max_memory=0)):  # 0: no limit
        assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_a_swallowed_timeout_fires_again():
    """Code that catches errors broadly cannot make the rest of the block run unbounded."""
    t = time.monotonic()
    caught = 0
    with pytest.raises(LimitExceededError, match="running time"):
        with using(DEFAULT.replace(timeout=0.2)):
            while time.monotonic() - t < 10:
                try:
                    while True:
                        pass
                except LimitExceededError:
                    caught += 1
                    if caught == 1:
                        continue
                    raise
    assert caught == 2 and time.monotonic() - t < 8


def test_a_ctrl_c_during_setup_leaves_no_clock_running(monkeypatch):
    """A KeyboardInterrupt can land between any two statements; one that lands while a block
    is still starting its memory watch must not leave the clocks armed (once Python resets the
    handlers at exit, an armed ITIMER_PROF kills the process with SIGPROF)."""
    import signal

    import exactdp.limits as limits

    def interrupted(extra):
        raise KeyboardInterrupt

    monkeypatch.setattr(limits, "_cap_address_space", interrupted)
    before = (signal.getsignal(signal.SIGALRM), signal.getsignal(signal.SIGPROF))
    with pytest.raises(KeyboardInterrupt):
        with using(DEFAULT.replace(timeout=100)):
            pass  # pragma: no cover - not reached
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0 and signal.getitimer(signal.ITIMER_PROF)[0] == 0
    assert (signal.getsignal(signal.SIGALRM), signal.getsignal(signal.SIGPROF)) == before


def test_a_clock_left_running_does_not_kill_the_process_at_exit():
    """The last line of defence: clocks are stopped at interpreter exit, before Python puts the
    default handlers (which end the process) back."""
    code = textwrap.dedent(
        """
        import signal, exactdp.limits
        signal.signal(signal.SIGPROF, lambda *a: None)
        signal.setitimer(signal.ITIMER_PROF, 0.001, 0.001)
        signal.signal(signal.SIGALRM, lambda *a: None)
        signal.setitimer(signal.ITIMER_REAL, 0.001, 0.001)
        n = 0
        for i in range(3_000_000):
            n += i
        """
    )
    for _ in range(3):
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert p.returncode == 0, (p.returncode, p.stderr)


def test_max_bits_follows_max_exponent_in_python_as_on_the_command_line():
    """The --max-bits rule lives in Limits: a power with an exponent at the limit must fit, so
    an unset max_bits is max(1,000,000, 100 x max_exponent), in Python and from the flags alike."""
    import click

    from exactdp.cli.options import limit_options
    from exactdp.limits import DEFAULT, Limits

    seen = []
    probe = click.command()(limit_options(lambda limits: seen.append(limits)))
    assert CliRunner().invoke(probe, ["--max-exponent", "50000"]).exit_code == 0
    assert Limits(max_exponent=50_000).max_bits == 5_000_000 == seen[0].max_bits
    assert DEFAULT.replace(max_exponent=50_000).max_bits == 5_000_000
    assert Limits().max_bits == 1_000_000 == Limits(max_exponent=1_000).max_bits  # never below the floor
    assert Limits(max_exponent=50_000, max_bits=7).max_bits == 7  # given: kept
    assert Limits(max_bits=7).replace(max_exponent=50_000).max_bits == 7


def test_every_limit_option_of_the_command_line_is_declared_in_limits():
    """No limit's option is written out in exactdp/cli/: every ``--max-*`` and ``--timeout``
    flag of every command is one of the declarations of exactdp.limits (Limits, Reading,
    Workers), and the reader's defaults are those declarations' defaults."""
    import click

    from exactdp.caseio import YamlLimits
    from exactdp.caseio.sweep import MAX_SWEEP_POINTS
    from exactdp.cli.helptext import is_limit
    from exactdp.limits import READING, Limits, Reading, Workers, flags
    from exactdp.verify import Options

    declared = {f.flag for table in (Limits, Reading, Workers) for f in flags(table)}
    ctx = main.make_context("exactdp", ["verify", "x"], resilient_parsing=True)
    seen = set()
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        for c in cmd.commands.values() if isinstance(cmd, click.Group) else [cmd]:
            for p in c.get_params(ctx):
                if is_limit(p):
                    assert p.opts[0] in declared, (name, p.opts)
                    seen.add(p.opts[0])
    # and every declared limit is some command's option (the switch --follow-symlinks is listed with the options)
    assert seen == {f.flag for table in (Limits, Reading, Workers) for f in flags(table) if f.kind != "switch"}
    assert YamlLimits() == YamlLimits(max_bytes=READING.max_file_bytes, max_expanded_nodes=READING.max_yaml_nodes)
    assert MAX_SWEEP_POINTS == READING.max_sweep_points and Options().max_problems == READING.max_problems


def test_a_timeout_wrapped_by_python_is_still_the_time_limit():
    """Python 3.11 wraps an error raised in a class's ``__set_name__`` in a RuntimeError; the
    alarm landed there once, during a lazy import defining a dataclass, and the run ended as an
    internal error (exit 3) instead of the time limit (exit 2).  A library that catches the
    alarm and raises its own error is the same case."""

    class Slow:
        def __set_name__(self, owner, name):
            until = time.monotonic() + 10
            while time.monotonic() < until:
                pass  # the alarm (0.2 s) is raised here

    t = time.monotonic()
    with pytest.raises(LimitExceededError, match="running time"):
        with using(DEFAULT.replace(timeout=0.2)):
            type("Holder", (), {"slot": Slow()})
    assert time.monotonic() - t < 5

    with pytest.raises(LimitExceededError, match="running time"):
        with using(DEFAULT.replace(timeout=0.2)):
            try:
                while True:
                    pass
            except LimitExceededError:
                raise ValueError("a library's own error") from None


@pytest.mark.parametrize(("k", "refused"), [(600_000, False), (1_600_000, True)])
def test_a_huge_power_as_eps_is_held_up_to_max_bits_and_refused_naming_it(k, refused):
    """eps = k*log(2) is log(2^k): e^eps is rational, of k + 1 bits.  Up to --max-bits it is held
    exactly; beyond, the refusal names the limit (it never calls a rational e^eps irrational)."""
    text = f"exactdp: 1\nname: big\nmechanisms:\n  M: {{rr: {{eps: log(3)}}}}\nclaims:\n  - dp: {{eps: {k}*log(2)}}\n"
    if not refused:
        (v,) = verify_text(text, "big.yaml").verdicts
        assert v.status == "holds"
        return
    fr = verify_text(text, "big.yaml")
    assert isinstance(fr.error, CaseError), fr
    said = str(fr.error)
    assert "--max-bits = 1000000" in said and "rational" in said and "irrational" not in said, said
