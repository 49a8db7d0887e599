"""Resource limits: every one has a default, a CLI flag, and an error naming it.

A limit is never a silent truncation: reaching one raises
:class:`~exactdp.errors.LimitExceededError`, which says which limit was hit and how to raise it.
Limits apply within a :func:`using` block (every CLI command wraps each case file in one);
outside any block the defaults of the counting limits apply, but no clock and no memory watch
run (a library caller decides).

=======================  ======================  ==========================================
limit                    default                 what it bounds (flag)
=======================  ======================  ==========================================
``max_nodes``            5,000,000               game nodes built for one case (``--max-nodes``)
``max_hull_edges``       2,000,000               size of one exact privacy profile (``--max-profile-size``)
``max_strategies``       200,000                 adversaries the enumerator may list (``--max-strategies``)
``max_exponent``         10,000                  exponents in numbers (``--max-exponent``)
``max_bits``             1,000,000, or           bits of every number computed from a case file's
                         100 × ``max_exponent``  numbers, product or power (``--max-bits``)
``max_symbolic_degree``  200                     degree of a rational function of symbols (``--max-symbolic-degree``)
``max_field_degree``     4,000                   degree in t = e^(1/L) of a number of Q(e^(1/L)): decimal eps's,
                                                 discrete Gaussians (``--max-field-degree``)
``max_cells``            5,000                   cells of a parametric decomposition of the symbols' domain,
                                                 and faces of their closed bounds (``--max-cells``)
``max_symbols``          100                     symbols a case declares (``--max-symbols``)
``max_precision``        65,536                  bits of precision of one certified sign decision
                                                 (interval arithmetic, ``--max-precision``)
``max_datasets``         1,000                   datasets of a case (``--max-datasets``)
``max_pairs``            20,000                  adjacent pairs of a case (``--max-pairs``)
``max_components``       200,000                 components of ``exactdp compose`` (``--max-components``)
``max_samples``          100,000                 samples of ``exactdp experiment`` (``--max-samples``)
``max_orders``           100                     Rényi orders of one ``exactdp renyi --alpha`` list (``--max-orders``)
``max_automaton_work``   2,000,000               profile pieces an automaton is predicted to need,
                                                 refused before its game is built (``--max-automaton-work``)
``max_alpha_boxes``      4,000                   boxes of orders α examined to decide a zCDP claim (``--max-alpha-boxes``)
``max_symbol_boxes``     2,000                   boxes of a symbol's domain examined to decide a KL or
                                                 Gaussian-DP claim with a symbol (``--max-symbol-boxes``)
``max_histories``        50,000                  histories walked to build a post-processor T of Theorem 1.10
                                                 (``exactdp simulate``, ``simulates_rr`` claims; ``--max-histories``)
``max_memory``           800 MiB                 memory one case file may add to the process (``--max-memory``)
``timeout``              300 s                   wall-clock seconds per case file (each sweep point is
                                                 one) or command (``--timeout``)
``follow_symlinks``      False                   whether symbolic links are followed (``--follow-symlinks``)
=======================  ======================  ==========================================

Reading a case file is bounded by the limits of :class:`Reading`, which every command that reads
case files takes as flags too and hands to the reader (:class:`exactdp.verify.Options`):

=======================  ======================  ==========================================
``max_problems``         20                      problems reported per file (``--max-problems``)
``max_file_bytes``       67,108,864 (64 MiB)     bytes of one case file (``--max-file-bytes``)
``max_yaml_nodes``       1,000,000               alias-expanded nodes of a YAML document (``--max-yaml-nodes``)
``max_sweep_points``     10,000                  points of one case file's sweep (``--max-sweep-points``)
=======================  ======================  ==========================================

Local worker processes (``--jobs N``, ``--scheduler local:N``) are bounded by ``max_workers`` of
:class:`Workers` (``--max-workers``; default 4 per core, :func:`check_workers`).  The command
line makes the option of every limit from these declarations (:func:`flags`): name, default,
flag and help are written once, here.

``timeout`` and ``max_memory`` set to 0 (``--timeout 0``, ``--max-memory 0``) mean no limit.
``max_bits`` follows ``max_exponent`` unless it is given: a power with an exponent at the limit
must fit, so its default is the larger of 1,000,000 and 100 × ``max_exponent``
(``Limits(max_exponent=50000).max_bits`` is 5,000,000, as with ``--max-exponent 50000``).
The memory limit is watched on the process's resident memory every 10 ms of CPU time and
backed by an address-space limit (``RLIMIT_AS``) at twice the allowance, so that even a single
huge allocation ends as this named limit rather than as a crash; numbers themselves are bounded
by ``max_bits`` so that no single arithmetic operation can be long or large.
"""

from __future__ import annotations

import atexit
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from .errors import FieldDegreeLimit, LimitExceededError, TimeLimitExceeded

try:
    import resource  # POSIX only: the memory backstop (RLIMIT_AS) and the peak on other systems
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

__all__ = [
    "Limits",
    "Flag",
    "flags",
    "Reading",
    "READING",
    "Workers",
    "DEFAULT",
    "current",
    "using",
    "count_nodes",
    "check_hull_size",
    "check_datasets",
    "check_bits",
    "precision_limit_error",
    "count_text",
    "check_count",
    "parse_size",
    "size_text",
    "memory_in_use",
    "MIB",
    "disarm",
    "FLAGS",
    "available_cores",
    "default_max_workers",
    "check_workers",
]

MIB = 1 << 20
BITS_FLOOR = 1_000_000  # the least default of max_bits
BITS_PER_EXPONENT = 100  # max_bits follows max_exponent: at least this many bits per unit of exponent


def _limit(default: Any, flag: str, help: str, kind: str = "count", minimum: int = 1) -> Any:
    """A limit's declaration: its default, its command-line flag and what it bounds (the CLI
    makes the options from these, see :func:`flags`); ``kind`` is count, seconds, size or switch."""
    return field(default=default, metadata={"flag": flag, "help": help, "kind": kind, "minimum": minimum})


@dataclass(frozen=True)
class Limits:
    """The resource limits in force (see the module docstring for each field's meaning).

    ``max_bits`` not given (or None) is derived from ``max_exponent``: the larger of
    :data:`BITS_FLOOR` and :data:`BITS_PER_EXPONENT` × ``max_exponent``, also after
    :meth:`replace` changes ``max_exponent``; given, it is kept as given."""

    max_nodes: int = _limit(5_000_000, "--max-nodes", "Most game nodes built for one case")
    max_hull_edges: int = _limit(2_000_000, "--max-profile-size", "Largest exact privacy profile, in pieces")
    max_strategies: int = _limit(200_000, "--max-strategies", "Enumerator limit on the number of adversaries")
    max_exponent: int = _limit(10_000, "--max-exponent", "Largest exponent in a number")
    # None: derived from max_exponent (above)
    max_bits: int = _limit(None, "--max-bits", "Most bits of any number computed from the case's numbers")
    max_symbolic_degree: int = _limit(200, "--max-symbolic-degree", "Highest degree of a rational function of symbols")
    max_field_degree: int = _limit(
        4_000, "--max-field-degree", "Highest degree in t = e^(1/L) of a number of Q(e^(1/L)) (decimal eps)"
    )
    max_cells: int = _limit(
        5_000, "--max-cells", "Most cells of the decomposition of the symbols' domain, and faces of their closed bounds"
    )
    max_symbols: int = _limit(100, "--max-symbols", "Most symbols a case declares under `symbols:`")
    max_precision: int = _limit(
        65_536, "--max-precision", "Most bits of precision of one certified sign decision", minimum=64
    )
    max_datasets: int = _limit(1_000, "--max-datasets", "Most datasets in a case", minimum=2)
    max_pairs: int = _limit(20_000, "--max-pairs", "Most adjacent pairs in a case")
    max_components: int = _limit(200_000, "--max-components", "Most components of a composition (compose --repeat)")
    max_samples: int = _limit(100_000, "--max-samples", "Most samples of an experiment")
    max_automaton_work: int = _limit(
        2_000_000,
        "--max-automaton-work",
        "Most profile pieces an automaton is predicted to need (reachable states x horizon^2 / 2)",
    )
    max_orders: int = _limit(100, "--max-orders", "Most Renyi orders in one --alpha list")
    max_alpha_boxes: int = _limit(
        4_000, "--max-alpha-boxes", "Most boxes of Renyi orders examined to decide a zcdp claim"
    )
    max_symbol_boxes: int = _limit(
        2_000,
        "--max-symbol-boxes",
        "Most boxes of a symbol's domain examined to decide a KL or Gaussian-DP claim with a symbol",
    )
    max_histories: int = _limit(
        50_000, "--max-histories", "Most histories walked to build a post-processor T (simulate, simulates_rr claims)"
    )
    max_memory: int = _limit(
        800 * MIB, "--max-memory", "Memory a case file (or command) may add, e.g. 800M, 4G; 0: none", "size", 0
    )
    timeout: float = _limit(
        300.0,
        "--timeout",
        "Wall-clock limit per case file (each sweep point is one) or command, in seconds; 0: none",
        "seconds",
        0,
    )
    follow_symlinks: bool = _limit(
        False,
        "--follow-symlinks",
        "Follow symbolic links to case files and directories, if their target stays inside the tree being verified (default: refuse them).",
        "switch",
    )
    bits_derived: bool = field(default=False, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.max_bits is None:
            object.__setattr__(self, "max_bits", max(BITS_FLOOR, BITS_PER_EXPONENT * self.max_exponent))
            object.__setattr__(self, "bits_derived", True)

    def replace(self, **kw: Any) -> Limits:
        """A copy with the fields given (``None`` values are ignored: "keep the default"); a
        derived ``max_bits`` follows a new ``max_exponent``."""
        names = {f.name for f in fields(self) if f.init}
        unknown = set(kw) - names
        if unknown:
            raise TypeError(f"unknown limit(s): {', '.join(sorted(unknown))}")
        given = {k: v for k, v in kw.items() if v is not None}
        if self.bits_derived and "max_bits" not in given:
            given["max_bits"] = None
        return replace(self, **given)


DEFAULT = Limits()


@dataclass(frozen=True)
class Reading:
    """What reading one case file may cost: the limits of every command that reads case files,
    given to the reader (:class:`exactdp.verify.Options`) rather than put in force by :func:`using`."""

    max_problems: int = _limit(20, "--max-problems", "Stop reading a case after this many problems")
    max_file_bytes: int = _limit(64 * MIB, "--max-file-bytes", "Largest case file read, in bytes")
    max_yaml_nodes: int = _limit(1_000_000, "--max-yaml-nodes", "Limit on the alias-expanded size of a YAML document")
    max_sweep_points: int = _limit(10_000, "--max-sweep-points", "Most points in one case file's sweep")


READING = Reading()


@dataclass(frozen=True)
class Workers:
    """How many local worker processes a command whose work splits into items may start
    (``None``: :func:`default_max_workers`; refused by :func:`check_workers`)."""

    max_workers: int | None = _limit(
        None, "--max-workers", "Most local worker processes (--jobs N, --scheduler local:N)"
    )


@dataclass(frozen=True)
class Flag:
    """A limit as a command-line option: the field, its flag, what it bounds (with the default,
    as the help shows it), the kind of value, its least value."""

    field: str
    flag: str
    help: str
    kind: str
    minimum: int


def _default_text(name: str, value: Any) -> str:
    if name == "max_bits":
        return f"{value}, or {BITS_PER_EXPONENT} x --max-exponent if larger"
    if name == "max_memory":
        return size_text(value)
    if name == "max_workers":
        return f"4 per core, {default_max_workers()} here"
    return f"{value:g}" if isinstance(value, float) else str(value)


def flags(table: type = Limits) -> list[Flag]:
    """Every limit of ``table`` (:class:`Limits`, :class:`Reading` or :class:`Workers`) as a
    command-line option, in declaration order: the one declaration the CLI makes its options from."""
    out = []
    for f in fields(table):
        if "flag" not in f.metadata:
            continue
        m = f.metadata
        text = (
            m["help"]
            if m["kind"] == "switch"
            else f"{m['help']} [default: {_default_text(f.name, getattr(table(), f.name))}]."
        )
        out.append(Flag(f.name, m["flag"], text, m["kind"], m["minimum"]))
    return out


# The command-line flag of each limit in force by :func:`using`, by field (the pytest plugin's ini
# options are named after these; the errors name them).
FLAGS: dict[str, str] = {f.name: f.metadata["flag"] for f in fields(Limits) if "flag" in f.metadata}


_stack: list[Limits] = [DEFAULT]
# nodes built in the current `using` block, and the budget (a list for cheap in-place updates)
_nodes = [0, DEFAULT.max_nodes]


def current() -> Limits:
    """The limits in force."""
    return _stack[-1]


@contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    """Apply ``limits`` inside the block: a fresh node budget, and (in the main thread, on
    POSIX) a wall-clock alarm for ``timeout`` and a watch on memory for ``max_memory``; a
    ``MemoryError`` inside the block becomes the named memory limit."""
    saved = list(_nodes)
    _stack.append(limits)
    _nodes[0], _nodes[1] = 0, limits.max_nodes
    try:
        with _time_limit(limits.timeout), _memory_limit(limits.max_memory):
            yield limits
    finally:
        _stack.pop()
        _nodes[0], _nodes[1] = saved


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")


def time_limit_error(seconds: float) -> TimeLimitExceeded:
    return TimeLimitExceeded(f"{seconds:g} s")


def _time_limit_in(e: BaseException) -> TimeLimitExceeded | None:
    """The time limit among the causes and contexts of ``e``, if it is there."""
    seen: set[int] = set()
    todo: list[BaseException | None] = [e.__cause__, e.__context__]
    while todo:
        x = todo.pop()
        if x is None or id(x) in seen:
            continue
        if isinstance(x, TimeLimitExceeded):
            return x
        seen.add(id(x))
        todo += [x.__cause__, x.__context__]
    return None


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    if not seconds or seconds != seconds or not _main_thread():  # (0, None or nan from the API: none)
        yield
        return
    seconds = min(seconds, MAX_SECONDS)  # (inf from the API: no alarm the timer cannot hold)

    # The alarm repeats: an exception raised while Python runs a garbage-collector callback
    # (hypothesis installs one) is printed and dropped, and code that catches errors broadly
    # could carry on; either way the block would run on unbounded.  A repeat raises again only
    # if the first one has not ended the block within a half second, so the normal cleanup
    # after a delivered timeout is not interrupted.
    first: list[float] = []

    def on_alarm(signum: int, frame: Any) -> None:
        now = time.monotonic()
        if first and now - first[0] < 0.5:
            return
        first[:] = [now]
        raise time_limit_error(seconds)

    # Set up inside the try: a Ctrl-C landing between two of these calls must still reach the
    # finally, or the clock would outlive the block (and kill the process once Python resets
    # the handlers at exit).
    old: Any = None
    outer = 0.0
    began = time.monotonic()
    try:
        old = signal.signal(signal.SIGALRM, on_alarm)
        outer, _ = signal.setitimer(signal.ITIMER_REAL, seconds, 0.25)
        yield
    except Exception as e:
        # The alarm lands wherever Python is: some places wrap what it raises (Python 3.11
        # wraps an error in a class's __set_name__ in a RuntimeError, as during a lazy import),
        # or a library catches it and raises its own error.  It is still the time limit.
        late = _time_limit_in(e) if first and not isinstance(e, TimeLimitExceeded) else None
        if late is not None:
            raise late from e
        raise
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        if old is not None:
            signal.signal(signal.SIGALRM, old)
        if outer:  # an enclosing block's clock keeps running, less the time spent in this one
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - began), 1e-3))


def disarm() -> None:
    """Stop the clock and the memory watch at once, whatever block set them.

    Called when a run is interrupted and at interpreter exit: a ``KeyboardInterrupt`` can land
    inside a block's own cleanup, and a timer left running would kill the process with SIGPROF
    or SIGALRM once Python has put the default handlers back."""
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)


atexit.register(disarm)


# --- memory ----------------------------------------------------------------------------------

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def memory_in_use() -> int:
    """Resident memory of this process in bytes (``/proc/self/statm``; elsewhere the peak)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        if resource is None:  # pragma: no cover - not POSIX
            return 0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def _address_space() -> int | None:
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[0]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def memory_limit_error(allowed: int) -> LimitExceededError:
    return LimitExceededError(
        "the memory in use", size_text(allowed), "raise it with --max-memory SIZE (e.g. 4G; 0: no limit)"
    )


@contextmanager
def _memory_limit(allowed: int | None) -> Iterator[None]:
    if not allowed or not _main_thread():
        try:
            yield
        except MemoryError:
            raise memory_limit_error(allowed or 0) from None
        return
    base = memory_in_use()
    quiet = [0]  # ticks to skip after raising: time for the handlers to free the memory

    def on_tick(signum: int, frame: object) -> None:
        if quiet[0]:
            quiet[0] -= 1
            return
        if memory_in_use() - base > allowed:
            quiet[0] = 20
            raise memory_limit_error(allowed)

    old: Any = None
    outer = (0.0, 0.0)
    old_as = None
    try:  # set up inside the try, as for the clock above
        old = signal.signal(signal.SIGPROF, on_tick)
        outer = signal.setitimer(signal.ITIMER_PROF, 0.01, 0.01)
        old_as = _cap_address_space(2 * allowed + 512 * MIB)
        yield
    except MemoryError:
        raise memory_limit_error(allowed) from None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        if old is not None:
            signal.signal(signal.SIGPROF, old)
        if outer[0]:
            signal.setitimer(signal.ITIMER_PROF, *outer)
        _restore_address_space(old_as)


def _cap_address_space(extra: int) -> tuple[int, int] | None:
    """Lower the soft RLIMIT_AS to the current address space plus ``extra`` (the backstop:
    an allocation beyond it raises MemoryError, turned into the named limit)."""
    if resource is None:  # pragma: no cover - not POSIX
        return None
    vsz = _address_space()
    if vsz is None or not hasattr(resource, "RLIMIT_AS"):
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = vsz + extra
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft != resource.RLIM_INFINITY and soft <= want:
        return None  # already tighter (an outer block, or the caller's own cap)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ValueError, OSError):  # pragma: no cover - refused by the system
        return None
    return soft, hard


def _restore_address_space(old: tuple[int, int] | None) -> None:
    if old is None or resource is None:
        return
    try:
        resource.setrlimit(resource.RLIMIT_AS, old)
    except (ValueError, OSError):  # pragma: no cover
        pass


_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]*)?)\s*([KMGT]?)(?:I?B)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """``800M`` → 838860800: a number of bytes with an optional unit K, M, G or T (powers of
    1024; ``MiB``, ``MB`` and ``m`` read the same); raises ``ValueError``."""
    m = _SIZE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (write e.g. 800M, 4G or a number of bytes)")

    return int(Fraction(m.group(1)) * _UNITS[m.group(2).upper()])


MAX_SECONDS = 10**8  # about three years: the most an interval timer is asked to wait


def parse_seconds(text: str) -> float:
    """``2.5`` → 2.5: a number of seconds from 0 to :data:`MAX_SECONDS` (0: no limit); raises
    ``ValueError`` for anything else (``nan``, ``inf``, a negative number)."""
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"not a number of seconds: {text!r}") from None
    if not 0 <= v <= MAX_SECONDS:  # (false for nan too)
        raise ValueError(f"{text!r}: a number of seconds from 0 to {MAX_SECONDS} (0: no limit)")
    return v


def size_text(n: int) -> str:
    """``838860800`` → ``800 MiB``."""
    for unit, k in (("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % (k // 16 or 1) == 0:
            v = n / k
            return f"{v:g} {unit}"
    return f"{n} bytes"


# --- worker processes ------------------------------------------------------------------------


def available_cores() -> int:
    """Cores this process may run on (the affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def default_max_workers() -> int:
    """The default of ``--max-workers``: 4 local worker processes per core this process may use
    (each one imports exactdp and its dependencies, about 100 MB, before any work)."""
    return 4 * available_cores()


def check_workers(n: int, limit: int | None = None) -> None:
    """Refuse ``n`` local worker processes (``--jobs N``, ``--scheduler local:N``) beyond
    ``limit`` (default :func:`default_max_workers`), before any is started."""
    allowed = default_max_workers() if limit is None else limit
    if n > allowed:
        raise LimitExceededError(
            f"the number of local worker processes ({n})",
            allowed,
            "raise it with --max-workers N (the default is 4 per core)",
        )


# --- counting limits -------------------------------------------------------------------------


def count_nodes(n: int = 1) -> None:
    """Called by every game-node constructor; raises past ``max_nodes``."""
    _nodes[0] += n
    if _nodes[0] > _nodes[1]:
        _nodes[0] = 0  # let the error propagate without re-raising in cleanup code
        raise LimitExceededError(
            "the number of game nodes", _nodes[1], "raise it with --max-nodes N (or Limits(max_nodes=N))"
        )


def check_hull_size(n: int) -> None:
    """Called by the profile engine; an exact profile with more pieces than the limit refuses."""
    lim = _stack[-1].max_hull_edges
    if n > lim:
        raise LimitExceededError(
            f"an exact privacy profile with {n} pieces",
            lim,
            "raise it with --max-profile-size N; very large profiles usually mean many distinct likelihood ratios",
        )


def check_datasets(n_datasets: int, n_pairs: int | None = None) -> None:
    """Refuse more datasets than ``max_datasets``, or more adjacent pairs than ``max_pairs``,
    before anything proportional to them is built (the default adjacency of n datasets has
    n(n-1)/2 pairs: 10^4 names would make 5·10^7)."""
    lim = _stack[-1]
    if n_datasets > lim.max_datasets:
        raise LimitExceededError(
            f"the number of datasets ({n_datasets})", lim.max_datasets, "raise it with --max-datasets N"
        )
    if n_pairs is not None and n_pairs > lim.max_pairs:
        raise LimitExceededError(
            f"the number of adjacent pairs ({n_pairs})",
            lim.max_pairs,
            "raise it with --max-pairs N, or list the pairs that matter under `adjacent:` (without it every two datasets are adjacent)",
        )


def check_count(what: str, n: int, limit_name: str, flag: str) -> None:
    """Refuse ``n`` > the limit ``limit_name`` (e.g. ``max_components``) with its flag."""
    lim = getattr(_stack[-1], limit_name)
    if n > lim:
        raise LimitExceededError(f"{what} ({count_text(n)})", lim, f"raise it with {flag} N")


def check_field_degree(degree: int, what: str) -> None:
    """Refuse a number of Q(e^(1/L)) whose polynomials in t = e^(1/L) would have a degree beyond
    ``max_field_degree`` (:class:`FieldDegreeLimit`, also an inexact value)."""
    lim = _stack[-1].max_field_degree
    if degree > lim:
        raise FieldDegreeLimit(f"{what} (degree {count_text(degree)} in t)", lim)


def check_bits(bits: int, what: str = "a number") -> None:
    """Refuse a number of more than ``max_bits`` bits (numerator or denominator): called on
    every intermediate result computed from a case file's numbers, so that no single
    multiplication can be long or huge (and GMP can never run out of memory and abort)."""
    lim = _stack[-1].max_bits
    if bits > lim:
        raise LimitExceededError(
            f"{what} with about {count_text(bits)} bits", f"{lim} bits", "raise it with --max-bits N"
        )


def count_text(n: int) -> str:
    """A count for a message: ``12345``, or ``10^5000`` (its order) for one too long to print (a count
    computed from a case file's numbers can have thousands of digits)."""
    if n.bit_length() <= 64:
        return str(n)
    return f"10^{int(n.bit_length() * 0.30103)}"


def precision_limit_error(what: str) -> LimitExceededError:
    """The error for a certified sign decision that ``max_precision`` bits of interval
    arithmetic did not settle (``what`` names the quantity, already short)."""
    lim = _stack[-1].max_precision
    return LimitExceededError(
        f"deciding the sign of {what} by certified interval arithmetic",
        f"{lim} bits of precision",
        "raise it with --max-precision BITS",
    )
