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

import random
import time
from dataclasses import dataclass, field
from typing import Callable

from ..analysis import enumerator
from ..analysis import profile as profile_engine
from ..errors import ExactDPError, VerificationError
from ..model.game import END, Ask, Chance, Mechanism
from ..numbers.rational import Q, q_str
from ..numbers.real import Infinity, real_exp, real_str
from .approx import ApproxCertificate, approx_postprocessor
from .common import PostProcessor, enumerator_check, verify_postprocessor

__all__ = ["Section6Params", "sample_params", "m_p", "run_one", "Section6Result", "run_section6"]


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
    delta: object
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


def run_one(params: Section6Params, delta, *, check_enumerator: bool = True) -> tuple[str, object]:
    """("feasible" | "infeasible" | "infinite", eps) for one sample; raises on a disagreement."""
    M = m_p(params)
    eps = enumerator.privloss(M, delta)
    eps2 = profile_engine.privloss(M, delta)
    if eps != eps2:
        raise VerificationError(f"PrivLoss: enumerator {real_str(eps)} but profile engine {real_str(eps2)}")
    if isinstance(eps, Infinity):
        return "infinite", eps
    E = Q(real_exp(eps))
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


def run_section6(
    samples: int,
    delta,
    seed: int,
    *,
    denominator: int = 100,
    check_enumerator: bool = True,
    progress: Callable[[int], None] | None = None,
) -> Section6Result:
    """Run the experiment; ``progress(k)`` is called after each sample."""
    rng = random.Random(seed)
    res = Section6Result(samples, Q(delta), seed, denominator)
    start = time.perf_counter()
    for k in range(samples):
        params = sample_params(rng, denominator)
        try:
            status, eps = run_one(params, res.delta, check_enumerator=check_enumerator)
        except LimitExceededError:  # the run's time or memory is spent: stop, do not count it per sample
            raise
        except ExactDPError as e:
            res.errors += 1
            res.failures.append((k, params.text(), f"error: {e}"))
        else:
            if status == "feasible":
                res.feasible += 1
                res.enumerator_checked += int(check_enumerator)
            elif status == "infeasible":
                res.infeasible += 1
                res.failures.append((k, params.text(), f"infeasible at eps = {real_str(eps)}"))
            else:
                res.infinite_eps += 1
            if status != "infinite" and eps == 0:
                res.zero_eps += 1
        if progress is not None:
            progress(k + 1)
    res.seconds = time.perf_counter() - start
    return res
