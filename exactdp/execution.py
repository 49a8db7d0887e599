"""Running independent work items serially, in local worker processes, or on a Dask cluster.

A work item is anything one function checks on its own: a case file, one sweep point of a case
file, a block of Section 6 samples.  Nothing is shared between items, so they can run anywhere;
this module only distributes them and hands the results back **in input order**, each as soon
as it and every item before it are done (results that finish early wait in a buffer), so what a
caller prints is the same whatever the number of workers.

Three ways to run (:class:`Runner`):

* serially, in this process (the default; ``--jobs 1``);
* ``jobs = N``: N local worker processes, each joined to this one by a pipe of its own and
  running one item at a time (no POSIX semaphores needed: they run where ``/dev/shm`` is
  read-only).  A worker that dies (killed, out of memory) is seen at once through its pipe; the
  item it was running is run again on a new worker, and an item whose workers died
  ``max_attempts`` times is given up and reported through ``lost`` (nothing is dropped
  silently).  Where no worker process can start, the run goes on in this process, with one
  line on stderr;
* ``scheduler = "tcp://host:8786"`` (an existing ``dask.distributed`` cluster) or
  ``"local:N"`` (a ``LocalCluster`` of N single-threaded worker processes).  Dask re-runs the
  tasks of a worker that died (``distributed.scheduler.allowed-failures``) and reports
  ``KilledWorker`` past that, which becomes the item's ``lost`` result.

The function and the items must be picklable (module-level functions, plain data), and so must
the results.  Items run one at a time in each worker process, since resource limits
(:mod:`exactdp.limits`) are per process.

Dask is optional (the ``exactdp[dask]`` extra); only this module imports it.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
import threading
import traceback
import types
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing import resource_tracker as rt
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as wait_for
from typing import Any, Generic, TypeVar

from .errors import ExactDPError, excerpt
from .limits import available_cores, check_workers, disarm

__all__ = [
    "Runner",
    "OrderedRun",
    "run_ordered",
    "jobs_from_env",
    "available_cores",
    "DaskMissingError",
    "SchedulerError",
    "parse_scheduler",
    "guard_resource_tracker",
]

T = TypeVar("T")
R = TypeVar("R")

# Items run one at a time per process: limits (node budget, alarm) are process-wide state, and a
# Dask worker may run tasks in several threads.
_ITEM_LOCK = threading.Lock()


class DaskMissingError(ExactDPError):
    """``--scheduler`` was given but dask.distributed is not installed."""


class SchedulerError(ExactDPError):
    """The Dask scheduler could not be reached or the address is malformed."""


def jobs_from_env(default: int = 1) -> int:
    """``EXACTDP_JOBS`` (a positive integer, or ``auto`` for every core), else ``default``."""
    text = os.environ.get("EXACTDP_JOBS", "").strip()
    if not text:
        return default
    n = parse_jobs(text)
    if n is None:
        raise ExactDPError(f"EXACTDP_JOBS={text!r}: expected a positive integer or 'auto'")
    return n


def parse_jobs(text: str) -> int | None:
    """A number of local worker processes (``EXACTDP_JOBS``, ``--jobs``): a positive integer, or
    ``auto`` for one per core; ``None`` for anything else."""
    text = text.strip().lower()
    if text == "auto":
        return available_cores()
    return int(text) if text.isdigit() and int(text) >= 1 else None


@dataclass(frozen=True)
class Runner:
    """Where work items run.

    Parameters
    ----------
    jobs : int, optional (default = 1)
        Local worker processes; 1 runs every item in this process.
    scheduler : str, optional
        ``tcp://host:port`` of a running Dask scheduler, or ``local:N`` for a ``LocalCluster``
        of N worker processes; overrides ``jobs``.
    max_attempts : int, optional (default = 3)
        How many times an item may kill its worker process (``jobs`` > 1) before it is given up.
    max_workers : int, optional
        The most local worker processes (``jobs``, ``local:N``); default 4 per core
        (:func:`~exactdp.limits.default_max_workers`).

    Raises
    ------
    LimitExceededError
        More local workers than ``max_workers``.
    SchedulerError
        A ``scheduler`` address that is not ``tcp://HOST:PORT``, ``tls://HOST:PORT`` or
        ``local:N`` (checked before Dask is imported).
    """

    jobs: int = 1
    scheduler: str | None = None
    max_attempts: int = 3
    max_workers: int | None = None

    def __post_init__(self) -> None:
        if self.scheduler is not None:
            kind, value = parse_scheduler(self.scheduler)
            if kind == "local":
                check_workers(int(value), self.max_workers)
            _distributed()  # a missing extra is said before any work or output
        else:
            check_workers(self.jobs, self.max_workers)

    @property
    def parallel(self) -> bool:
        return self.scheduler is not None or self.jobs > 1

    def describe(self) -> str:
        if self.scheduler is not None:
            return f"Dask scheduler {self.scheduler}"
        return "this process" if self.jobs == 1 else f"{self.jobs} worker processes"


_SCHEMES = ("tcp", "tls")
_ADDRESS_HELP = "write tcp://HOST:PORT or tls://HOST:PORT (a running `dask scheduler`), or local:N"


def parse_scheduler(address: str) -> tuple[str, str]:
    """``("local", "N")`` for ``local:N``, ``("remote", address)`` for ``tcp://HOST:PORT`` or
    ``tls://HOST:PORT``; anything else is a :class:`SchedulerError` naming the address, so that
    Dask never sees an address it would fail on with a traceback (``file://``, no port)."""
    shown = excerpt(address)
    if address.startswith("local:"):
        n = address[len("local:") :]
        if not (n.isascii() and n.isdigit()) or int(n) < 1:
            raise SchedulerError(f"--scheduler {shown}: write local:N with N >= 1 worker processes, or tcp://HOST:PORT")
        return "local", n
    scheme, sep, rest = address.partition("://")
    if not sep:
        raise SchedulerError(f"--scheduler {shown}: {_ADDRESS_HELP}")
    if scheme not in _SCHEMES:
        raise SchedulerError(f"--scheduler {shown}: unknown scheme {excerpt(scheme)}; {_ADDRESS_HELP}")
    host, colon, port = rest.rpartition(":")
    if not colon or not host or "/" in host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise SchedulerError(f"--scheduler {shown}: no HOST:PORT after {scheme}://; {_ADDRESS_HELP}")
    return "remote", address


Lost = Callable[[Any, str], Any]
Progress = Callable[[int, int], None]


class OrderedRun(Generic[R]):
    """An iterator over the results in input order.

    On an interruption (:class:`KeyboardInterrupt` while iterating) the results that finished
    after the last one yielded are still available from :meth:`finished_early`;
    :meth:`close` stops the workers.
    """

    def __init__(
        self, fn: Callable[[Any], R], items: Sequence[Any], runner: Runner, lost: Lost | None, progress: Progress | None
    ):
        self.total = len(items)
        self._items, self._lost = list(items), lost
        self._buffer: dict[int, Any] = {}
        self._gen: Generator[R, None, None] = _dispatch(fn, self._items, runner, lost, progress, self._buffer)

    def __iter__(self) -> Iterator[R]:
        return self

    def __next__(self) -> R:
        return next(self._gen)

    def finished_early(self) -> list[tuple[int, R]]:
        """(index, result) of items that finished but were not yielded yet (input order)."""
        done = sorted(self._buffer.items(), key=lambda kv: kv[0])
        return [(i, _unpacked(r, self._items[i], self._lost)) for i, r in done]

    def close(self) -> None:
        self._gen.close()

    def collect(self, on_result: Callable[[R], None] = lambda r: None) -> tuple[list[R], bool]:
        """Consume the run in order, calling ``on_result`` for each result; on Ctrl-C, stop the
        workers (a second Ctrl-C stops at once) and pass on the results that had finished out
        of order too.  Returns the results and whether the run was interrupted."""
        results: list[R] = []
        try:
            for r in self:
                results.append(r)
                on_result(r)
            return results, False
        except KeyboardInterrupt:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            disarm()  # the block cut short may not have stopped its clocks
            early = [r for _, r in self.finished_early()]
            self.close()
            for r in early:
                results.append(r)
                on_result(r)
            return results, True
        finally:
            self.close()

    def __enter__(self) -> OrderedRun[R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_ordered(
    fn: Callable[[Any], R],
    items: Sequence[Any],
    runner: Runner = Runner(),
    *,
    lost: Lost | None = None,
    progress: Progress | None = None,
) -> OrderedRun[R]:
    """``fn(item)`` for every item, yielded in input order as soon as available.

    Parameters
    ----------
    fn : callable
        A module-level (picklable) function of one item.  It should turn expected problems into
        results; an exception it raises is re-raised here (a bug, as in a serial run).
    items : sequence
        Picklable work items.
    runner : Runner
    lost : callable, optional
        ``lost(item, message)`` builds the result of an item whose worker died too often; without
        it such an item raises :class:`~exactdp.errors.ExactDPError`.
    progress : callable, optional
        ``progress(done, total)`` after each item finishes (in completion order).
    """
    return OrderedRun(fn, items, runner, lost, progress)


def _dispatch(fn, items, runner: Runner, lost, progress, buffer) -> Generator[Any, None, None]:
    if runner.scheduler is not None:
        return _run_dask(fn, items, runner, lost, progress, buffer)
    # a run inside a worker process is serial: workers are daemonic (ended with this process),
    # and a daemonic process may not start processes
    in_worker = multiprocessing.current_process().daemon and not _bootstrapping()
    if runner.jobs > 1 and len(items) > 1 and not in_worker:
        return _run_processes(fn, items, runner, lost, progress, buffer)
    return _run_serial(fn, items, progress)


def _by_weight(items: Sequence[Any]) -> deque[int]:
    """The order in which workers take items: the heaviest first (an item's ``weight``, 0
    without one; stable otherwise), as an item taken last would leave the other workers idle.
    Results still come out in input order."""
    return deque(sorted(range(len(items)), key=lambda i: -getattr(items[i], "weight", 0)))


def _run_serial(fn, items, progress) -> Generator[Any, None, None]:
    for k, item in enumerate(items):
        out = fn(item)
        if progress is not None:
            progress(k + 1, len(items))
        yield out


def _lost_result(lost: Lost | None, item: Any, message: str) -> Any:
    if lost is None:
        raise ExactDPError(message)
    return lost(item, message)


def _drain(
    buffer: dict[int, Any], state: list[int], items: Sequence[Any], lost: Lost | None
) -> Generator[Any, None, None]:
    """Yield buffered results from index ``state[0]`` on while they are contiguous (results from
    other processes are unpickled here, in the thread that consumes the run)."""
    while state[0] in buffer:
        i = state[0]
        out = _unpacked(buffer.pop(i), items[i], lost)
        state[0] += 1
        yield out


# --- results cross processes as bytes ----------------------------------------------------------


@dataclass(frozen=True)
class _Packed:
    """A result (or the exception its function raised) pickled in the process that made it."""

    data: bytes


class WorkerTraceback(Exception):
    """Where, in a worker process, the function of a run raised (the cause of the re-raised error)."""


def _packed_call(fn: Callable[[Any], Any], item: Any) -> bytes:
    """``fn(item)`` in a worker process, pickled there.

    The consumer of the run unpickles it in its own thread (:func:`_drain`), never in the pool's
    result thread: that thread importing the modules a result names while the main thread
    imports others can meet it in Python's import locks (``_DeadlockError``), and a result that
    cannot be read back here is then that item's located error, not a pool that looks broken."""
    try:
        out: tuple[bool, Any] = (True, fn(item))
    except Exception as e:  # re-raised by the consumer, as in a serial run
        out = (False, (e, "".join(traceback.format_exception(e))))
    try:
        return pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as e:  # (a bug: results and errors are plain data)
        return pickle.dumps((False, (RuntimeError(f"a worker could not send its result back: {e!r}"), "")))


def _unpacked(value: Any, item: Any, lost: Lost | None) -> Any:
    if not isinstance(value, _Packed):
        return value
    try:
        ok, out = pickle.loads(value.data)
    except Exception as e:
        return _lost_result(lost, item, f"its result could not be read back in this process ({type(e).__name__}: {e})")
    if ok:
        return out
    error, where = out
    raise error from (WorkerTraceback(where) if where else None)


# --- local worker processes ------------------------------------------------------------------
#
# A pool of our own, not ProcessPoolExecutor: that one needs POSIX semaphores (SemLock) for its
# queues and locks, which a read-only /dev/shm and some containers do not have, and its workers
# take items from a shared queue, so a death cannot be pinned on an item.  Here every worker
# process is joined to this process by a pipe of its own and runs one item at a time; the run
# waits on the pipes and on the processes' sentinels (multiprocessing.connection.wait): no
# thread, lock or queue, and a worker's death (end of file on its pipe, its sentinel) is seen
# at once and is the death of the item it was running, if any.

_READY = b"ready"  # a worker's first message (a result is a pickle, which never reads so)


def _serve(conn: Connection) -> None:
    """A worker process: say it is ready, then run the items sent on ``conn`` one at a time
    until the pipe closes (the run is over, or the parent is gone)."""
    # Ctrl-C in a terminal reaches the whole process group; the parent alone decides what to do
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        conn.send_bytes(_READY)
        while True:
            conn.send_bytes(_packed_call(_unpickled_call, conn.recv_bytes()))
    except (EOFError, OSError):
        pass


def _unpickled_call(task: bytes) -> Any:
    """``fn(item)`` from the pickled pair (a task that cannot be read is that item's error)."""
    fn, item = pickle.loads(task)
    return fn(item)


class _NoWorkers(Exception):
    """Worker processes cannot run here: the run goes on in this process (see :func:`_fall_back`)."""


_TRACKER_GONE: list[bool] = []
_TRACKER_NOTE = (
    "exactdp: the resource tracker of the worker processes was killed; it is not restarted (it only "
    "cleans up after a crash), and the results are not affected"
)


def guard_resource_tracker() -> None:
    """Make a killed multiprocessing resource tracker one line on stderr, not tracebacks.

    Starting worker processes starts a helper process, the resource tracker, which removes the
    semaphores and shared memory of a process that crashed (the local workers make none; a Dask
    ``LocalCluster`` does).  Killed, it is relaunched by the next registration or worker start,
    with a warning, and the new one prints a ``KeyError`` traceback for every semaphore
    unregistered that it never saw.  Once it is found dead, registrations are dropped instead
    and one line says so.  Uses the tracker's ``_check_alive``; on a Python without it, nothing
    is changed."""
    tracker = getattr(rt, "_resource_tracker", None)
    check = getattr(tracker, "_check_alive", None)
    if check is None or getattr(rt.ensure_running, "_exactdp_guard", False):
        return
    # getfd: the forkserver passes the tracker's pipe to every new worker; once the tracker is
    # dead that pipe is passed as it is (a worker registers nothing)
    original = {name: getattr(rt, name) for name in ("ensure_running", "register", "unregister", "getfd")}

    def dead() -> bool:
        if not _TRACKER_GONE and getattr(tracker, "_fd", None) is not None and not check():
            _TRACKER_GONE.append(True)
            try:
                sys.stderr.write(_TRACKER_NOTE + "\n")
                sys.stderr.flush()
            except (OSError, ValueError):
                pass
        return bool(_TRACKER_GONE)

    def guarded(name: str) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            if dead():
                return getattr(tracker, "_fd", None) if name == "getfd" else None
            return original[name](*args)

        call._exactdp_guard = True  # type: ignore[attr-defined]
        return call

    for name in original:
        setattr(rt, name, guarded(name))


# How worker processes start, best first.  forkserver: workers start from a clean single-threaded
# process, with exactdp imported once in the server and inherited.  Its server listens on a Unix
# socket in the temporary directory, which some places refuse ("AF_UNIX path too long" under a
# long TMPDIR, sandboxes without Unix sockets); spawn needs no socket.  A method whose first
# workers cannot start, or all die before they are ready, is dropped for the rest of the process.
_METHODS = [m for m in ("forkserver", "spawn") if m in multiprocessing.get_all_start_methods()]


@dataclass(eq=False)
class _Worker:
    """A worker process, this process's end of its pipe, and the item it is running."""

    process: Any  # a multiprocessing Process of the start method in use
    conn: Connection
    ready: bool = False
    item: int | None = None
    exitcode: int | None = None  # once ended


def _start_worker(method: str) -> _Worker:
    """A new worker process started with ``method``.  Raises OSError (no process can be made
    here: a process limit, no Unix socket), RuntimeError or EOFError (the fork server died)."""
    guard_resource_tracker()
    ctx: Any = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload(["exactdp.verify"])
    mine, theirs = ctx.Pipe()
    # daemon: should this process exit without stopping its workers, multiprocessing ends them
    process = ctx.Process(target=_serve, args=(theirs,), daemon=True)
    try:
        with _no_main_without_a_file():
            process.start()
    except BaseException:
        mine.close()
        raise
    finally:
        theirs.close()  # the worker has its own copy; this process keeps one end only
    return _Worker(process, mine)


@contextmanager
def _no_main_without_a_file() -> Iterator[None]:
    """While a worker starts, a main module whose file does not exist (a program read from
    standard input: ``<stdin>``) is replaced by an empty one.  A spawned or fork-server worker
    imports the parent's main module from its file before anything else, and died at start
    with a traceback on stderr for such a program; none of its functions could reach a worker
    anyway (they are pickled by name), and exactdp's own are imported from exactdp."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    start = getattr(multiprocessing.process, "ORIGINAL_DIR", None) or ""
    if path is None or getattr(main, "__spec__", None) is not None or os.path.isfile(os.path.join(start, path)):
        yield  # (multiprocessing imports nothing, or a module that exists)
        return
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main  # type: ignore[assignment]


def _end_workers(workers: Sequence[_Worker], *, kill: bool) -> None:
    """Stop ``workers``: with ``kill`` at once (a run interrupted or failed, a worker found dead),
    else by closing their pipes, which ends them once idle.  Every wait has an end: a worker
    still there after a few seconds is killed."""
    for w in workers:
        if kill:
            _signal_worker(w)
        w.conn.close()
    for w in workers:
        w.process.join(5)
        if w.process.exitcode is None:
            _signal_worker(w)
            w.process.join(5)
        w.exitcode = w.process.exitcode
        if w.exitcode is not None:
            w.process.close()  # its sentinel


def _signal_worker(w: _Worker) -> None:
    try:
        w.process.kill()
    except (OSError, ValueError, AttributeError):  # already gone (or closed)
        pass


def _bootstrapping() -> bool:
    """Whether this process is a worker still importing its parent's main module (a script that
    starts a run without ``if __name__ == "__main__":``): such a process must not run the items."""
    return bool(getattr(multiprocessing.current_process(), "_inheriting", False))


def _how_it_ended(exitcode: int | None) -> str:
    """How a worker process ended, for a message (SIGKILL is what an out-of-memory killer sends)."""
    if exitcode is None:
        return "it would not end"
    if exitcode >= 0:
        return f"exit status {exitcode}"
    if exitcode == -signal.SIGKILL:
        return "killed by SIGKILL: out of memory?"
    try:
        return f"killed by {signal.Signals(-exitcode).name}"
    except ValueError:
        return f"killed by signal {-exitcode}"


class _Pool:
    """The worker processes of a run and what became of its items (see above).

    ``todo`` holds the items not yet sent (a worker's death puts its item back in front), and
    ``deaths`` counts, per item, the workers that died running it: ``max_attempts`` of them and
    the item is given up."""

    def __init__(self, fn: Callable[[Any], Any], items: Sequence[Any], runner: Runner):
        self.fn, self.items, self.runner = fn, items, runner
        self.size = min(runner.jobs, len(items))
        self.workers: list[_Worker] = []
        self.todo: deque[int] = _by_weight(items)
        self.deaths = [0] * len(items)
        self.proven = False  # has a worker of the current start method been ready?
        self.barren = 0  # worker deaths in a row that no item is to blame for

    def busy(self) -> int:
        return sum(w.item is not None for w in self.workers)

    def fill(self, buffer: dict[int, Any], lost: Lost | None) -> None:
        """Start workers up to the pool's size (no more than there are items left), and give
        every ready idle worker the next item."""
        while len(self.workers) < min(self.size, self.busy() + len(self.todo)) and self.grow():
            pass
        for w in list(self.workers):
            if w.ready and w.item is None and self.todo:
                self.send(w, self.todo.popleft(), buffer, lost)

    def grow(self) -> bool:
        """Start one worker.  When none can start: with workers running, the pool keeps those;
        with none, the next start method is tried, and then :class:`_NoWorkers`."""
        try:
            self.workers.append(_start_worker(_METHODS[0]))
            return True
        except (OSError, RuntimeError, EOFError) as e:
            if _bootstrapping():
                raise
            if self.workers:
                self.size = len(self.workers)
                return False
            if len(_METHODS) > 1:
                self.next_method()
                return self.grow()
            raise _NoWorkers(f"worker processes cannot be started here ({type(e).__name__}: {e})") from None

    def next_method(self) -> None:
        _METHODS.pop(0)
        self.proven, self.barren = False, 0
        self.size = min(self.runner.jobs, len(self.items))

    def send(self, w: _Worker, i: int, buffer: dict[int, Any], lost: Lost | None) -> None:
        task = pickle.dumps((self.fn, self.items[i]), protocol=pickle.HIGHEST_PROTOCOL)
        try:
            w.conn.send_bytes(task)
            w.item = i
        except OSError:  # the worker died since the last wait: the item did not reach it
            self.todo.appendleft(i)
            self.bury(w, buffer, lost)

    def step(self, buffer: dict[int, Any], lost: Lost | None) -> None:
        """Wait until a worker says something or dies, and handle what every such worker said."""
        heard: dict[Any, _Worker] = {}
        for w in self.workers:
            heard[w.conn] = heard[w.process.sentinel] = w
        for w in dict.fromkeys(heard[obj] for obj in wait_for(list(heard))):
            self.hear(w, buffer, lost)

    def hear(self, w: _Worker, buffer: dict[int, Any], lost: Lost | None) -> None:
        try:
            while w.conn.poll():  # (a result sent just before the worker died is kept)
                self.receive(w, w.conn.recv_bytes(), buffer)
        except (EOFError, OSError):
            return self.bury(w, buffer, lost)
        if not w.process.is_alive():
            self.bury(w, buffer, lost)

    def receive(self, w: _Worker, data: bytes, buffer: dict[int, Any]) -> None:
        if not w.ready:
            w.ready = self.proven = True
        elif w.item is not None:
            buffer[w.item] = _Packed(data)
            w.item, self.barren = None, 0

    def bury(self, w: _Worker, buffer: dict[int, Any], lost: Lost | None) -> None:
        """``w`` died: the item it was running is put back, or given up after ``max_attempts``
        deaths; a death no item is to blame for counts against the way workers start."""
        self.workers.remove(w)
        _end_workers([w], kill=True)
        i = w.item
        if i is None:
            self.barren += 1
            return self.check_start()
        self.deaths[i] += 1
        if self.deaths[i] < self.runner.max_attempts:
            self.todo.appendleft(i)
            return
        msg = (
            f"the worker process died {self.deaths[i]} times while checking this item (the last time: "
            f"{_how_it_ended(w.exitcode)}); it was given up"
        )
        buffer[i] = _lost_result(lost, self.items[i], msg)

    def check_start(self) -> None:
        """Every worker of the current start method died before it was ready (workers dying at
        start, as in a script without ``if __name__ == "__main__":``): the next method is tried,
        and then :class:`_NoWorkers`; so it is when workers keep dying with nothing to blame."""
        if not self.proven and self.barren >= self.size:
            self.stop(kill=True)
            if len(_METHODS) > 1:
                return self.next_method()
            raise _NoWorkers("worker processes stopped before finishing anything")
        if self.barren >= 3 * self.size:
            raise _NoWorkers("worker processes keep stopping with no item to blame")

    def stop(self, *, kill: bool) -> None:
        workers, self.workers = self.workers, []
        for w in workers:
            if w.item is not None:
                self.todo.appendleft(w.item)
        _end_workers(workers, kill=kill)


def _fall_back(why: str) -> None:
    """Say once, on stderr, that the run goes on in this process (same results, one process)."""
    main = sys.modules.get("__main__")
    script = getattr(main, "__file__", None) or ""
    hint = (
        '; a Python script that runs exactdp with several jobs must start it under if __name__ == "__main__":'
        if script.endswith(".py") and getattr(main, "__spec__", None) is None  # (not `python -m exactdp`)
        else ""
    )
    try:
        sys.stderr.write(f"exactdp: {why}; the remaining items are checked in this process{hint}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _run_processes(fn, items, runner: Runner, lost, progress, buffer: dict[int, Any]) -> Generator[Any, None, None]:
    pool = _Pool(fn, items, runner)
    state = [0]
    done = [0]

    def count(before: int) -> None:
        done[0] += len(buffer) - before
        if progress is not None and len(buffer) > before:
            progress(done[0], len(items))

    finished = False
    try:
        try:
            while state[0] < len(items):
                before = len(buffer)
                pool.fill(buffer, lost)
                if pool.workers and (pool.todo or pool.busy()):  # (waiting on nothing would never end)
                    pool.step(buffer, lost)
                    pool.fill(buffer, lost)  # (workers that just finished go on while results are used)
                count(before)
                yield from _drain(buffer, state, items, lost)
        except _NoWorkers as e:
            pool.stop(kill=True)
            _fall_back(str(e))
            for i in range(state[0], len(items)):
                if i not in buffer:
                    before = len(buffer)
                    buffer[i] = fn(items[i])
                    count(before)
                yield from _drain(buffer, state, items, lost)
        finished = True
    finally:
        pool.stop(kill=not finished)


# --- Dask ---------------------------------------------------------------------------------------


def _dask_call(fn: Callable[[Any], Any], item: Any) -> Any:
    """Run one item on a Dask worker (one item at a time per worker process)."""
    with _ITEM_LOCK:
        return _packed_call(fn, item)


def _distributed() -> Any:
    """dask.distributed, or :class:`DaskMissingError` naming the extra."""
    try:
        import dask.distributed as distributed  # optional: the extra 'dask'
    except ImportError:
        raise DaskMissingError(
            "--scheduler needs dask.distributed, which is not installed; install the optional "
            "extra: pip install 'exactdp[dask]'"
        ) from None
    return distributed


def _dask_client(address: str) -> tuple[Any, Any]:
    dd = _distributed()
    Client, LocalCluster = dd.Client, dd.LocalCluster
    kind, value = parse_scheduler(address)
    if kind == "local":
        cluster = LocalCluster(
            n_workers=int(value), threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
        )
        return Client(cluster), cluster
    try:
        return Client(address, timeout="10s"), None
    except (OSError, TimeoutError, ValueError) as e:  # ValueError: an address Dask's parser refuses
        raise SchedulerError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def _run_dask(fn, items, runner: Runner, lost, progress, buffer: dict[int, Any]) -> Generator[Any, None, None]:
    assert runner.scheduler is not None
    guard_resource_tracker()
    client, cluster = _dask_client(runner.scheduler)  # first: it says which extra is missing
    as_completed, KilledWorker = _distributed().as_completed, _distributed().KilledWorker

    state = [0]
    done_count = 0
    try:
        window = max(2, 2 * sum(client.nthreads().values()))
        todo = _by_weight(items)
        index: dict[str, int] = {}

        def submit() -> Any:
            i = todo.popleft()
            f = client.submit(_dask_call, fn, items[i], pure=False)
            index[f.key] = i
            return f

        pending = as_completed([submit() for _ in range(min(window, len(todo)))])
        for f in pending:
            i = index.pop(f.key)
            try:
                buffer[i] = _Packed(f.result())
            except KilledWorker as e:
                buffer[i] = _lost_result(lost, items[i], f"the Dask workers running this item died too often ({e})")
            done_count += 1
            f.release()
            if progress is not None:
                progress(done_count, len(items))
            if todo:
                pending.add(submit())
            yield from _drain(buffer, state, items, lost)
        yield from _drain(buffer, state, items, lost)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
