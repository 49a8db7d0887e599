r"""Vadhan–Wang Section 6, exactly: random 2-round 1-bit mechanisms M_p and post-processors of
RR_(ε,δ) with ε = PrivLoss(M_p, δ).

M_p (Fig. 1) first answers a bit a₀ unasked (Pr[M(0) = 0] = p₀, Pr[M(1) = 0] = p'₀); the
adversary then sends a query bit q₁ (it may depend on a₀), and M answers a₁ with
Pr[M(0, q₁ = j) = (a₀ = i, a₁ = 0)] = p_ij (joint), p'_ij likewise for x = 1 — ten rational
parameters.  For each sample, ε = PrivLoss(M_p, δ) is computed by the enumerator over every
deterministic adversary and cross-checked by the profile engine; then the exact LP decides
whether T exists, and the answer is certified (T by substitution and the path-wise checks plus
the enumerator; infeasibility by a Farkas certificate).  The paper found T in all of its 10,000+
floating-point trials; Lyu (2022) and Vadhan–Zhang (2023) later proved it always exists.

References
----------
Vadhan & Wang (TCC 2021), Section 6 and Fig. 1.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..analysis import enumerator
from ..analysis import profile as profile_engine
from ..errors import ExactDPError, LimitExceededError, VerificationError
from ..limits import Limits, using
from ..model.game import END, Ask, Chance, Mechanism
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from .approx import ApproxCertificate, approx_postprocessor
from .common import PostProcessor, enumerator_check, verify_postprocessor

__all__ = [
    "Section6Params",
    "sample_params",
    "sample_rng",
    "m_p",
    "run_one",
    "Section6Result",
    "Section6Block",
    "run_block",
    "merge_blocks",
    "blocks",
    "run_section6",
]


@dataclass(frozen=True)
class Section6Params:
    """p = (p0, p00, p01, p10, p11, p'0, p'00, p'01, p'10, p'11) (Section 6 notation)."""

    p: tuple

    def text(self) -> str:
        return "(" + ", ".join(q_str(x) for x in self.p) + ")"


def sample_params(rng: random.Random, denominator: int = 100) -> Section6Params:
    """p0 and the conditionals Pr[a1 = 0 | a0 = i, q1 = j] uniform on {1, ..., D-1}/D (both
    datasets), so the joint p_ij = Pr[a0 = i] * conditional; every probability is in (0, 1)."""
    D = denominator
    out = []
    for _x in range(2):
        p0 = Q(rng.randint(1, D - 1), D)
        pa = (p0, 1 - p0)
        out.append(p0)
        for i in (0, 1):
            for _j in (0, 1):
                out.append(pa[i] * Q(rng.randint(1, D - 1), D))
    return Section6Params(tuple(out))


def m_p(params: Section6Params) -> Mechanism:
    """The Figure 1 mechanism M_p on datasets x = 0, 1."""
    p = params.p
    first = ((p[0], p[5]), (1 - p[0], 1 - p[5]))  # Pr[a0 = i] under x = 0, 1
    rounds = []
    for i in (0, 1):
        qs = []
        for j in (0, 1):
            c0 = p[1 + 2 * i + j] / first[i][0]
            c1 = p[6 + 2 * i + j] / first[i][1]
            qs.append(Chance(("0", "1"), ((c0, c1), (1 - c0, 1 - c1)), (END, END)))
        rounds.append(Ask(("0", "1"), qs))
    root = Chance(("0", "1"), first, rounds)
    return Mechanism(root, ("x=0", "x=1"), ((0, 1),), "M_p")


@dataclass
class Section6Result:
    samples: int
    delta: Any
    seed: int
    denominator: int
    feasible: int = 0
    infeasible: int = 0
    errors: int = 0
    infinite_eps: int = 0
    zero_eps: int = 0
    seconds: float = 0.0
    enumerator_checked: int = 0
    failures: list = field(default_factory=list)


def run_one(params: Section6Params, delta, *, check_enumerator: bool = True) -> tuple[str, Any]:
    """("feasible" | "infeasible" | "infinite", eps) for one sample; raises on a disagreement."""
    M = m_p(params)
    eps = enumerator.privloss(M, delta)
    eps2 = profile_engine.privloss(M, delta)
    if eps != eps2:
        raise VerificationError(f"PrivLoss: enumerator {ladder.text(eps)} but profile engine {ladder.text(eps2)}")
    if is_inf(eps):
        return "infinite", eps
    E = Q(ladder.exp(eps))
    out = approx_postprocessor(M, (0, 1), E, delta)
    if isinstance(out, PostProcessor):
        res = verify_postprocessor(out)
        if not res.ok:
            raise VerificationError("T fails its check: " + "; ".join(res.problems[:2]))
        if check_enumerator:
            enumerator_check(out)
        return "feasible", eps
    if isinstance(out, ApproxCertificate):
        return "infeasible", eps
    return "infeasible", eps  # a pure-case certificate (delta = 0)


def sample_rng(seed: int, k: int) -> random.Random:
    """The random stream of sample ``k``: its own generator, seeded from (seed, k) through
    SHA-256, so sample k is the same whichever worker draws it and however samples are grouped."""
    digest = hashlib.sha256(f"exactdp section6 seed={seed} sample={k}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


@dataclass(frozen=True)
class Section6Block:
    """Samples ``start`` ≤ k < ``stop`` of one experiment (a work item for worker processes)."""

    start: int
    stop: int
    delta: Any
    seed: int
    denominator: int = 100
    check_enumerator: bool = True
    limits: Limits | None = None  # applied to the block where it runs (a worker, or this process)


def run_block(block: Section6Block) -> Section6Result:
    """The counts over one block of samples (``seconds`` is this block's own time), within
    ``block.limits`` when given."""
    if block.limits is None:
        return _run_block(block)
    with using(block.limits):
        return _run_block(block)


def _run_block(block: Section6Block) -> Section6Result:
    res = Section6Result(block.stop - block.start, Q(block.delta), block.seed, block.denominator)
    start = time.perf_counter()
    for k in range(block.start, block.stop):
        params = sample_params(sample_rng(block.seed, k), block.denominator)
        try:
            status, eps = run_one(params, res.delta, check_enumerator=block.check_enumerator)
        except LimitExceededError:  # the run's time or memory is spent: stop, do not count it per sample
            raise
        except ExactDPError as e:
            res.errors += 1
            res.failures.append((k, params.text(), f"error: {e}"))
            continue
        if status == "feasible":
            res.feasible += 1
            res.enumerator_checked += int(block.check_enumerator)
        elif status == "infeasible":
            res.infeasible += 1
            res.failures.append((k, params.text(), f"infeasible at eps = {ladder.text(eps)}"))
        else:
            res.infinite_eps += 1
        if status != "infinite" and eps == 0:
            res.zero_eps += 1
    res.seconds = time.perf_counter() - start
    return res


def blocks(
    samples: int,
    delta,
    seed: int,
    *,
    denominator: int = 100,
    check_enumerator: bool = True,
    size: int = 25,
    limits: Limits | None = None,
) -> list[Section6Block]:
    """The experiment cut into blocks of ``size`` samples, in order; ``limits`` apply to each
    block where it runs."""
    return [
        Section6Block(a, min(a + size, samples), Q(delta), seed, denominator, check_enumerator, limits)
        for a in range(0, samples, size)
    ]


def merge_blocks(
    parts: Iterable[Section6Result], samples: int, delta, seed: int, denominator: int = 100
) -> Section6Result:
    """Add up block results (in sample order); ``samples`` is the experiment's size."""
    out = Section6Result(samples, Q(delta), seed, denominator)
    for r in parts:
        for name in ("feasible", "infeasible", "errors", "infinite_eps", "zero_eps", "enumerator_checked"):
            setattr(out, name, getattr(out, name) + getattr(r, name))
        out.failures.extend(r.failures)
        out.seconds += r.seconds
    return out


def run_section6(
    samples: int,
    delta,
    seed: int,
    *,
    denominator: int = 100,
    check_enumerator: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Section6Result:
    """Run the experiment in this process; ``progress(k)`` is called after each block of
    samples with the number done.  Sample k is drawn from :func:`sample_rng` ``(seed, k)``, so
    the counts equal those of any split into blocks (``exactdp experiment section6 --jobs N``)."""
    parts = []
    start = time.perf_counter()
    for b in blocks(samples, delta, seed, denominator=denominator, check_enumerator=check_enumerator):
        parts.append(run_block(b))
        if progress is not None:
            progress(b.stop)
    res = merge_blocks(parts, samples, delta, seed, denominator)
    res.seconds = time.perf_counter() - start
    return res
