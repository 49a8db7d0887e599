"""exactdp.execution: results in input order whatever runs them; dead workers retried; picklable
results (errors, witnesses) that render exactly as the originals."""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from exactdp.errors import CaseError, CaseProblem, ExactDPError, LimitExceededError
from exactdp.execution import Runner, jobs_from_env, run_ordered
from exactdp.report import render_file, run_to_json
from exactdp.report.jsonout import file_json as _file
from exactdp.verify import FileResult, Options, RunResult, verify_paths

ROOT = Path(__file__).resolve().parents[1]


def _square_late(n: int) -> int:
    """Early items finish last, so results arrive out of order."""
    time.sleep(0.02 * (5 - n % 5))
    return n * n


def _die_once(item: tuple[int, str]) -> int:
    """Item 3 kills its worker the first time (a marker file remembers)."""
    n, marker = item
    if n == 3 and not os.path.exists(marker):
        Path(marker).write_text("died")
        os.kill(os.getpid(), signal.SIGKILL)
    return n + 100


def _always_die(n: int) -> int:
    if n == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def _lost(item: object, message: str) -> str:
    return f"lost {item}: {message}"


def test_serial_and_processes_yield_in_input_order():
    items = list(range(12))
    assert list(run_ordered(_square_late, items)) == [n * n for n in items]
    assert list(run_ordered(_square_late, items, Runner(jobs=2))) == [n * n for n in items]


class _Weighed(int):
    """An item with a cost guess (:attr:`exactdp.verify.WorkItem.weight` is the real one)."""

    weight = property(lambda self: 1 if self % 4 == 3 else 0)


def _started(n: int) -> tuple[int, float]:
    t = time.monotonic()
    time.sleep(0.05)
    return n, t


def test_heavy_items_are_taken_first_and_results_keep_their_order():
    """Workers take the items of weight 1 (3, 7, 11) before the others, so that a long item
    does not run alone at the end; what comes out is still in input order."""
    items = [_Weighed(n) for n in range(12)]
    out = list(run_ordered(_started, items, Runner(jobs=2)))
    assert [n for n, _ in out] == list(range(12))
    began = sorted(out, key=lambda r: r[1])
    assert {n for n, _ in began[:3]} == {3, 7, 11}


def test_a_case_with_symbols_weighs_more():
    from exactdp.verify import WorkItem

    assert WorkItem("a.yaml", "exactdp: 1\nsymbols:\n  E: {gt: 1}\n").weight > WorkItem("b.yaml", "exactdp: 1\n").weight


def test_progress_counts_every_item():
    seen: list[tuple[int, int]] = []
    list(run_ordered(_square_late, range(6), Runner(jobs=2), progress=lambda d, t: seen.append((d, t))))
    assert seen[-1] == (6, 6) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_worker_killed_mid_run_is_retried_and_nothing_is_lost(tmp_path):
    marker = str(tmp_path / "died")
    out = list(run_ordered(_die_once, [(n, marker) for n in range(8)], Runner(jobs=2), lost=_lost))
    assert Path(marker).exists()  # the worker really died
    assert out == [n + 100 for n in range(8)]


def test_an_item_that_always_kills_its_worker_is_given_up_and_no_other_is_blamed():
    out = list(run_ordered(_always_die, range(6), Runner(jobs=2, max_attempts=2), lost=_lost))
    assert out[:2] == [0, 1] and out[3:] == [3, 4, 5]  # the others are not blamed
    assert out[2].startswith("lost 2: the worker process died 2 times")
    with pytest.raises(ExactDPError, match="died"):
        list(run_ordered(_always_die, range(3), Runner(jobs=2, max_attempts=1)))


def test_jobs_from_env(monkeypatch):
    monkeypatch.setenv("EXACTDP_JOBS", "3")
    assert jobs_from_env() == 3
    monkeypatch.setenv("EXACTDP_JOBS", "auto")
    assert jobs_from_env() >= 1
    monkeypatch.setenv("EXACTDP_JOBS", "many")
    with pytest.raises(ExactDPError, match="EXACTDP_JOBS"):
        jobs_from_env()


def test_errors_survive_pickling_with_their_structure():
    e = CaseError([CaseProblem("bad", "mechanisms.M", "f.yaml", 3, 4, "fix it")], truncated=True)
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.problems == e.problems and e2.truncated and str(e2) == str(e)
    lim = pickle.loads(pickle.dumps(LimitExceededError("the number of game nodes", 10, "raise it with --max-nodes N")))
    assert (lim.what, lim.limit, str(lim)) == (
        "the number of game nodes",
        10,
        "the number of game nodes exceeds the limit of 10; raise it with --max-nodes N",
    )


@pytest.mark.parametrize(
    "case",
    [
        "vadhan-wang/figure1-two-round.yaml",
        "kov/kfold-rr-pure.yaml",
        "exponential/br-mixture.yaml",
        "continual/counterexample-single.yaml",
    ],
)
def test_results_from_workers_render_exactly_as_local_ones(case):
    """A result crosses processes without its game DAGs (witnesses keep their walk): the text
    and JSON reports are unchanged."""
    (fr,) = list(verify_paths([ROOT / "cases" / case], Options(witness=True)))
    assert any(v.witness is not None for v in fr.verdicts)
    data = pickle.dumps(fr)
    fr2 = pickle.loads(data)
    assert render_file(fr2) == render_file(fr)
    assert _file(fr2) == _file(fr)
    assert run_to_json(RunResult((fr2,))) == run_to_json(RunResult((fr,)))


def test_a_result_carries_no_mechanisms():
    (fr,) = list(verify_paths([ROOT / "cases/vadhan-wang/rr-pure.yaml"]))
    assert isinstance(fr, FileResult) and fr.case is not None and dict(fr.case.mechanisms) == {}


def test_without_dask_the_message_names_the_extra(monkeypatch):
    import sys

    from click.testing import CliRunner

    from exactdp.cli import main
    from exactdp.execution import DaskMissingError

    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    with pytest.raises(DaskMissingError, match=r"pip install 'exactdp\[dask\]'"):
        list(run_ordered(_square_late, [1, 2], Runner(scheduler="local:2")))
    r = CliRunner().invoke(main, ["verify", "--scheduler", "local:2", str(ROOT / "cases/vadhan-wang/rr-pure.yaml")])
    assert r.exit_code == 2 and "exactdp[dask]" in r.output


@pytest.mark.parametrize("address", ["local:0", "local:x", "somewhere:8786"])
def test_a_malformed_scheduler_address_is_refused(address):
    pytest.importorskip("distributed")
    from exactdp.execution import SchedulerError

    with pytest.raises(SchedulerError, match="--scheduler"):
        list(run_ordered(_square_late, [1, 2], Runner(scheduler=address)))


class _Marked:
    """Says, when unpickled, which thread unpickled it."""

    def __init__(self, n: int):
        self.n = n

    def __reduce__(self):
        return (_unpickled_where, (self.n,))


def _unpickled_where(n: int) -> tuple[int, str]:
    return n, threading.current_thread().name


def _marked(n: int) -> _Marked:
    return _Marked(n)


def test_results_are_unpickled_in_the_thread_that_consumes_the_run():
    """The pool's result thread importing the modules a result names while the main thread
    imports others can deadlock in Python's import locks (it happened: ``_DeadlockError`` in
    sympy.functions); results cross as bytes and are read where they are consumed."""
    out = list(run_ordered(_marked, [1, 2, 3], Runner(jobs=2)))
    assert out == [(n, threading.current_thread().name) for n in (1, 2, 3)]


class _Unreadable:
    def __reduce__(self):
        return (_refuse_in_the_parent, ())


def _refuse_in_the_parent():
    if multiprocessing.parent_process() is None:
        raise ValueError("this result cannot be rebuilt here")
    return "rebuilt"


def _unreadable_at_2(n: int) -> object:
    return _Unreadable() if n == 2 else n


def test_a_result_that_cannot_be_read_back_is_that_items_error_not_a_dead_worker():
    """Unpickled in the pool's thread, such a result broke the pool: every item was then
    retried alone and given up as "the worker process died 3 times" (a run of nine files
    reported as nine files not valid)."""
    out = list(run_ordered(_unreadable_at_2, range(5), Runner(jobs=2), lost=_lost))
    assert out[:2] == [0, 1] and out[3:] == [3, 4]
    assert out[2].startswith("lost 2: its result could not be read back") and "cannot be rebuilt" in out[2]


def _raises_at_1(n: int) -> int:
    if n == 1:
        raise KeyError("a bug")
    return n


def test_an_exception_in_a_worker_is_raised_by_the_consumer_with_where_it_happened():
    with pytest.raises(KeyError, match="a bug") as info:
        list(run_ordered(_raises_at_1, range(4), Runner(jobs=2)))
    assert "_raises_at_1" in str(info.value.__cause__)


def test_where_no_worker_process_can_be_made_the_run_goes_on_here(monkeypatch, capsys):
    """A process limit (``RLIMIT_NPROC``): no worker process starts, whatever the start method,
    and the run goes on in this process with one line on stderr (was a traceback)."""
    import exactdp.execution as ex

    def no_processes(method):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(ex, "_start_worker", no_processes)
    monkeypatch.setattr(ex, "_METHODS", list(ex._METHODS))  # (every start method is tried, then dropped)
    seen: list[int] = []
    out = list(run_ordered(_square_late, range(6), Runner(jobs=2), progress=lambda d, t: seen.append(d)))
    assert out == [n * n for n in range(6)] and seen == [1, 2, 3, 4, 5, 6]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "worker processes cannot be started here (BlockingIOError" in err
    assert "checked in this process" in err


def _nested(n: int) -> tuple[int, list[int]]:
    return os.getpid(), list(run_ordered(abs, [-n, -n - 1], Runner(jobs=2)))


def test_a_run_inside_a_worker_is_serial():
    """Workers are daemonic (they end with the run's process), and a daemonic process may not
    start processes: a run started by an item runs in that worker, it does not fail."""
    out = list(run_ordered(_nested, [1, 3], Runner(jobs=2)))
    assert [r for _, r in out] == [[1, 2], [3, 4]] and os.getpid() not in {pid for pid, _ in out}


def _verify_two_files(prelude: str, launch: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run ``verify -q --jobs 2`` on two Vadhan-Wang cases in a new Python: ``prelude`` (which
    breaks something first), then sys.argv set, then ``launch`` (which starts exactdp)."""
    code = prelude + "sys.argv = ['exactdp', 'verify', '-q', '--jobs', '2', sys.argv[1], sys.argv[2]]\n" + launch
    cases = ROOT / "cases" / "vadhan-wang"
    args = [str(cases / "rr-pure.yaml"), str(cases / "rr-approx.yaml")]
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, cwd=cwd)


def test_a_program_read_from_standard_input_runs_two_workers_silently():
    """`python - < prog.py` where prog.py runs `verify --jobs 2` (its main module's file is
    "<stdin>"): every worker died at start importing that file, with a traceback on stderr,
    and the run went on in one process.  The workers start without it now."""
    code = (
        "import sys\n"
        "sys.argv = ['exactdp', 'verify', '-q', '--jobs', '2', 'cases/kov', 'cases/renyi']\n"
        "from exactdp.cli.app import run\n"
        "run()\n"
    )
    p = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0 and p.stderr == "", p.stdout + p.stderr
    assert p.stdout.endswith("summary: 158 claims in 12 files (24 sweep points): 158 hold, 0 fail\n"), p.stdout


def test_python_m_exactdp_is_not_told_about_scripts(tmp_path):
    """`python -m exactdp verify --jobs 2` where no process can start: one line, without the
    advice meant for a script run as ``python script.py`` (its ``__main__`` is a .py file too)."""
    prelude = (
        "import runpy, sys\n"
        "import exactdp.execution as ex\n"
        "def refuse(method):\n"
        "    raise BlockingIOError(11, 'Resource temporarily unavailable')\n"
        "ex._start_worker = refuse\n"
    )
    p = _verify_two_files(prelude, "runpy.run_module('exactdp', run_name='__main__', alter_sys=True)\n", tmp_path)
    assert p.returncode == 0 and len(p.stderr.splitlines()) == 1, p.stdout + p.stderr
    assert "cannot be started here" in p.stderr and "__main__" not in p.stderr, p.stderr


def _no_semaphores(monkeypatch) -> None:
    """Make POSIX semaphores impossible in this process, as with a read-only /dev/shm (what
    ``sem_open`` then says), and check that it holds."""
    import _multiprocessing
    import multiprocessing.synchronize  # noqa: F401  (reads SemLock.SEM_VALUE_MAX when imported)

    def refuse(*args, **kwargs):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(_multiprocessing, "SemLock", refuse)
    with pytest.raises(OSError, match="Read-only"):
        multiprocessing.get_context("spawn").Lock()


def _meet(item: tuple[int, str]) -> tuple[int, int]:
    """Leave a mark in a shared directory and wait (at most 60 s) until two processes have:
    (this process, how many did)."""
    n, where = item
    Path(where, f"{os.getpid()}").touch()
    deadline = time.monotonic() + 60
    while len(os.listdir(where)) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    return os.getpid(), len(os.listdir(where))


def test_without_posix_semaphores_two_workers_run_side_by_side(monkeypatch, capsys, tmp_path):
    """No POSIX semaphores (a read-only /dev/shm): the worker pool needed them for its queues
    and locks, so every run fell back to this process with a line on stderr that users took
    for a crash.  The workers now run (two of them at the same time) and nothing is said."""
    _no_semaphores(monkeypatch)
    out = list(run_ordered(_meet, [(n, str(tmp_path)) for n in range(4)], Runner(jobs=2)))
    pids = {pid for pid, _ in out}
    assert os.getpid() not in pids and len(pids) == 2 and all(met == 2 for _, met in out), out
    assert capsys.readouterr().err == ""


def test_verify_with_two_jobs_and_no_posix_semaphores_says_nothing_on_stderr():
    """`exactdp verify --jobs 2` where semaphores cannot be made: exit 0, every claim holds,
    stderr empty (it said "worker processes cannot be started here (OSError: [Errno 30] ...)")."""
    prelude = (
        "import _multiprocessing, multiprocessing, multiprocessing.synchronize, sys\n"
        "def refuse(*args, **kwargs):\n"
        "    raise OSError(30, 'Read-only file system')\n"
        "_multiprocessing.SemLock = refuse\n"
        "try:\n"
        "    multiprocessing.Lock()\n"
        "    sys.exit('semaphores can still be made: nothing is tested')\n"
        "except OSError:\n"
        "    pass\n"
        "from exactdp.cli.app import run\n"
    )
    p = _verify_two_files(prelude, "run()\n", ROOT)
    assert p.returncode == 0 and p.stderr == "", p.stdout + p.stderr
    assert "in 2 files" in p.stdout and " 0 fail" in p.stdout, p.stdout


def _exit_at_2(n: int) -> int:
    if n == 2:
        os._exit(1)
    return n


def test_a_worker_that_exits_in_the_middle_of_an_item_is_reported_lost():
    out = list(run_ordered(_exit_at_2, range(5), Runner(jobs=2, max_attempts=2), lost=_lost))
    assert out[:2] == [0, 1] and out[3:] == [3, 4]
    assert (
        out[2]
        == "lost 2: the worker process died 2 times while checking this item (the last time: exit status 1); it was given up"
    )


def test_workers_that_die_before_any_item_make_the_run_go_on_here(tmp_path):
    """A script that starts a run without ``if __name__ == "__main__":`` makes every worker die
    while it starts (multiprocessing re-imports the script there): the items are not blamed
    (they were all given up as "the worker process died 3 times" before)."""
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from exactdp.execution import Runner, run_ordered\n"
        "print(list(run_ordered(abs, [-1, -2, -3], Runner(jobs=2), lost=lambda i, m: m)))\n"
    )
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == "[1, 2, 3]\n", p.stdout + p.stderr
    assert "worker processes stopped before finishing anything" in p.stderr
    assert 'if __name__ == "__main__":' in p.stderr


# what a runtime-only install lacks: the test and optional extras
EXTRAS = ("pytest", "_pytest", "hypothesis", "jsonschema", "matplotlib", "dask", "distributed", "pydot", "sphinx")


def test_parallel_verify_runs_without_the_test_extras(tmp_path):
    """`make run` (``verify --jobs auto``) on a fresh clone has only the runtime dependencies;
    the preload before the first worker once imported the pytest plugin and crashed there."""
    code = (
        "import sys\n"
        f"for m in {EXTRAS!r}: sys.modules[m] = None\n"
        "from exactdp.cli.app import run\n"
        "sys.argv = ['exactdp', 'verify', '-q', '--jobs', '2', sys.argv[1], sys.argv[2]]\n"
        "run()\n"
    )
    cases = Path(__file__).resolve().parents[1] / "cases" / "vadhan-wang"
    args = [str(cases / "rr-pure.yaml"), str(cases / "rr-approx.yaml")]
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stdout + p.stderr


def _cli_lines(*args: str, env: dict[str, str] | None = None) -> tuple[int, list[str], float]:
    """``exactdp *args`` in its own process: (exit status, lines of stdout and stderr, seconds)."""
    t = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-m", "exactdp", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    return p.returncode, (p.stdout + p.stderr).splitlines(), time.monotonic() - t


@pytest.mark.parametrize(
    "args, env",
    [
        (["--scheduler", "local:1000"], None),
        (["--jobs", "1000"], None),
        ([], {"EXACTDP_JOBS": "1000"}),
        (["--scheduler", "local:3", "--max-workers", "2"], None),
    ],
    ids=["local-1000", "jobs-1000", "env-1000", "max-workers-2"],
)
def test_local_workers_are_bounded_by_a_named_limit(args, env):
    """`--scheduler local:1000` once started 1,000 workers and ended in about 1,000 traceback
    lines; local workers are bounded by --max-workers (default: 4 per core), refused in one line
    before any worker starts."""
    code, lines, secs = _cli_lines("verify", *args, str(ROOT / "cases/vadhan-wang/rr-pure.yaml"), env=env)
    assert code == 2 and len(lines) == 1, lines
    assert "exceeds the limit of" in lines[0] and "--max-workers" in lines[0], lines
    assert secs < 20


@pytest.mark.parametrize(
    "address",
    ["file:///etc/passwd", "tcp://localhost:notaport", "tcp://", "http://example.org:80", "tcp://:8786", "local:"],
)
def test_an_unknown_or_malformed_scheduler_address_is_one_line(address):
    """An address Dask cannot use is refused before Dask is imported: one line naming the
    address and what to write, exit status 2 (a `file://` address ended in a traceback)."""
    code, lines, _ = _cli_lines("sweep", "--scheduler", address, str(ROOT / "cases/vadhan-wang/thm-1-8-sweep.yaml"))
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].startswith("exactdp: --scheduler") and "tcp://HOST:PORT" in lines[0], lines


def _tracker_of(pid: int) -> int | None:
    """The multiprocessing resource tracker started by process ``pid``, if any (from /proc)."""
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"resource_tracker" in cmd:
            return int(d.name)
    return None


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the resource tracker in /proc")
def test_killing_the_resource_tracker_gives_one_line_not_tracebacks(tmp_path):
    """The multiprocessing resource tracker (a helper process of the worker pools) killed in
    the middle of `verify --jobs 2`: the run finishes with the same verdicts and one line on
    stderr, where the restarted tracker used to print a KeyError traceback per semaphore."""
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "exactdp",
            "verify",
            "-q",
            "--jobs",
            "2",
            str(ROOT / "cases/kov"),
            str(ROOT / "cases/renyi"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    tracker = None
    deadline = time.monotonic() + 60
    while tracker is None and p.poll() is None and time.monotonic() < deadline:
        tracker = _tracker_of(p.pid)
        time.sleep(0.05)
    assert tracker is not None, "no resource tracker found"
    os.kill(tracker, signal.SIGKILL)
    assert p.poll() is None, "the run ended before the tracker was killed: nothing was tested"
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, out + err
    assert "Traceback" not in err and "KeyError" not in err, err
    # the line comes when a worker starts after the tracker died (the workers may all be running)
    assert err == "" or (len(err.splitlines()) == 1 and "resource tracker" in err), err
    assert "summary:" in out and "0 fail" in out


def _square(item):
    return item * item


def test_a_worker_found_dead_when_it_is_given_an_item_puts_the_item_back():
    """A worker killed between two waits is found dead when an item is sent to it: the item
    goes back to the queue without counting against it, and a new worker takes its place."""
    from exactdp.execution import _Pool

    pool = _Pool(_square, [1, 2, 3], Runner(jobs=2))
    buffer: dict = {}
    try:
        pool.fill(buffer, None)
        deadline = time.monotonic() + 120
        while not all(w.ready for w in pool.workers) and time.monotonic() < deadline:
            pool.step(buffer, None)
        assert len(pool.workers) == 2 and all(w.ready and w.item is None for w in pool.workers)
        victim = pool.workers[0]
        os.kill(victim.process.pid, signal.SIGKILL)
        while victim.process.is_alive():
            time.sleep(0.01)
        pool.fill(buffer, None)
        assert victim not in pool.workers and pool.deaths == [0, 0, 0]
        assert list(pool.todo) == [1, 2] and [w.item for w in pool.workers if w.item is not None] == [0]
        while len(buffer) < 3 and time.monotonic() < deadline:
            pool.fill(buffer, None)
            pool.step(buffer, None)
        assert sorted(pickle.loads(buffer[i].data)[1] for i in range(3)) == [1, 4, 9] and pool.deaths == [0, 0, 0]
    finally:
        pool.stop(kill=True)


def test_workers_start_where_the_forkserver_cannot_listen(tmp_path):
    """The forkserver listens on a Unix socket in the temporary directory: under a long TMPDIR
    that path is too long ("AF_UNIX path too long") and every run fell back to the main process
    with a note on stderr.  Spawned workers need no socket: they run, and nothing is said."""
    tmp = tmp_path / ("t" * 60) / ("u" * 40)
    tmp.mkdir(parents=True)
    script = tmp_path / "pids.py"
    script.write_text(
        "import os\n"
        "from exactdp.execution import Runner, run_ordered\n"
        "def pid(_):\n"
        "    return os.getpid()\n"
        "if __name__ == '__main__':\n"
        "    pids = list(run_ordered(pid, range(6), Runner(jobs=2)))\n"
        "    print(len(pids), os.getpid() in pids)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp)}
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, env=env)
    assert p.returncode == 0 and p.stdout == "6 False\n" and p.stderr == "", p.stdout + p.stderr


def test_where_forked_workers_die_at_start_spawned_ones_are_tried(tmp_path):
    """Workers of the fork server that die before running anything (here: the script kills
    them while they import it) are a sick start method, not a sick environment: spawned
    workers are tried before the run falls back to the main process."""
    script = tmp_path / "forkserver_dies.py"
    script.write_text(
        "import os, sys\n"
        "if __name__ == '__mp_main__' and 'multiprocessing.forkserver' in sys.modules:\n"
        "    os._exit(3)  # a worker of the fork server\n"
        "from exactdp.execution import Runner, run_ordered\n"
        "def pid(_):\n"
        "    return os.getpid()\n"
        "if __name__ == '__main__':\n"
        "    pids = list(run_ordered(pid, range(6), Runner(jobs=2)))\n"
        "    print(len(pids), os.getpid() in pids)\n"
    )
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 0 and p.stdout == "6 False\n" and "checked in this process" not in p.stderr, (
        p.stdout + p.stderr
    )


def test_a_deep_game_pickles_without_recursion_and_keeps_its_shape():
    """Pickled node by node, 200 rounds passed Python's recursion limit (a Renyi witness, which
    carries its game, made `verify --jobs 2` exit 3); the nodes now go as one table."""
    from exactdp.analysis.profile import profile
    from exactdp.builders import compose, repeat, rr
    from exactdp.model.game import postorder

    deep = compose([rr(eps=f"log({k % 3 + 2})") for k in range(300)])  # (node objects, not flat storage)
    for m in (repeat(rr(eps="log(2)"), 300), deep):
        back = pickle.loads(pickle.dumps(m))
        assert type(back) is type(m) and back.datasets == m.datasets and back.adjacent == m.adjacent
        assert [n.uid for n in postorder(back.root)] == [n.uid for n in postorder(m.root)]
    back = pickle.loads(pickle.dumps(deep))
    assert profile(back).delta_at(5) == profile(deep).delta_at(5)


def test_verify_with_two_jobs_sends_back_a_renyi_witness_of_a_deep_game(tmp_path):
    f = tmp_path / "deep.yaml"
    f.write_text(
        "exactdp: 1\nname: deep\nparams: {k: 200}\nsweep: {k: [199, 200]}\n"  # (two points: two workers' results)
        "mechanisms:\n  RR: {rr: {eps: log(2)}}\n  K: {repeat: {mechanism: RR, times: k}}\n"
        "claims:\n  - renyi: {of: K, alpha: 2, at_most: k*log(2)}\n"
    )
    p = subprocess.run(
        [sys.executable, "-m", "exactdp", "verify", "--jobs", "2", str(f)], capture_output=True, text=True
    )
    assert p.returncode == 0, p.stdout + p.stderr
