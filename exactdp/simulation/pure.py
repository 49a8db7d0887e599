r"""Theorem 1.10 (= Theorem 5.4) of Vadhan–Wang: the interactive post-processor T of RR_ε.

For a pure ε-DP interactive mechanism M and adjacent x₀, x₁, with E = e^ε > 1, the path measures

.. math:: \vec T(c)(h) = \frac{E\,P_{x_c}(h) - P_{x_{1-c}}(h)}{E - 1}, \qquad c \in \{0, 1\}

(eqs. (6)–(9)) are consistent interactive measures, non-negative exactly when
E·P_x(h) ≥ P_x'(h) on every history, and E/(1+E)·T⃗(0) + 1/(1+E)·T⃗(1) = P_{x₀} (and
symmetrically for x₁).  T's conditionals are their ratios, eqs. (8)–(9).  Since the two mixture
identities determine T⃗(0), T⃗(1) uniquely when E ≠ 1, T exists iff the inequality holds on every
history; the first history where it fails is a counter-certificate.  ε = 0 (E = 1) is the case
M(x₀) ≡ M(x₁), where T(0) = T(1) = M(x₀).

References
----------
Vadhan & Wang, Concurrent Composition of Differential Privacy (TCC 2021), Thm 1.10 / Thm 5.4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import VerificationError
from ..model.game import Mechanism
from ..numbers.ladder import is_inf
from ..numbers.symbolic import substitute
from .common import (
    Histories,
    PostProcessor,
    conditionals_from_paths,
    expand,
    field_for,
    history_text,
    path_probability,
)

__all__ = ["PureCertificate", "pure_postprocessor", "rr_weights", "check_pure_certificate"]


@dataclass
class PureCertificate:
    """No T exists: at history ``path``, E·P_x(h) < P_x'(h) (x, x' the datasets named), so the
    path measure T⃗(c)(h) that both mixture identities force is negative.  (An adversary that
    asks the queries of h sees h with probability P_x'(h) > e^ε·P_x(h): M is not ε-DP.)
    ``point`` is the symbol values where this happens, for a symbolic mechanism."""

    pair_names: tuple[str, str]
    x: str
    x_prime: str
    path: tuple
    p_x: Any
    p_x_prime: Any
    E: Any
    point: dict | None = None

    def describe(self, fld) -> str:
        at = ""
        if self.point:
            at = " at " + ", ".join(f"{k} = {v}" for k, v in self.point.items())
        head = (
            f"no T exists for ({self.pair_names[0]}, {self.pair_names[1]}){at}: at history {history_text(self.path)}, "
        )
        if is_inf(self.E):  # PrivLoss = inf: no finite e^eps can work
            return head + (
                f"P_{self.x}(h) = {fld.text(self.p_x)} < P_{self.x_prime}(h) = {fld.text(self.p_x_prime)}, "
                "so e^eps * P_{0}(h) < P_{1}(h) for every finite eps".format(self.x, self.x_prime)
            )
        return head + (
            f"e^eps * P_{self.x}(h) = {fld.text(self.E)} * {fld.text(self.p_x)} < P_{self.x_prime}(h) = {fld.text(self.p_x_prime)}"
        )


def rr_weights(E, fld) -> tuple:
    """Pr[RR_ε(b) = c] for b, c ∈ {0, 1} (Def. 1.9): E/(1+E) if c = b, 1/(1+E) otherwise."""
    keep, flip = E / (fld.one + E), fld.one / (fld.one + E)
    return ((keep, flip), (flip, keep))


def check_pure_certificate(mech: Mechanism, cert: PureCertificate, fld) -> None:
    """Re-check a certificate by an independent forward walk; raises VerificationError."""
    d = mech.datasets.index(cert.x)
    dp = mech.datasets.index(cert.x_prime)
    px, pxp = path_probability(mech, cert.path, d, fld), path_probability(mech, cert.path, dp, fld)
    violated = (px == 0 < pxp) if is_inf(cert.E) else (cert.E * px < pxp)
    if px != cert.p_x or pxp != cert.p_x_prime or not violated:
        raise VerificationError(f"the counter-certificate at {history_text(cert.path)} does not re-check")


def pure_postprocessor(
    mech: Mechanism,
    pair: tuple[int, int],
    E,
    *,
    eps_text: str = "",
    table=None,
    hist: Histories | None = None,
    max_histories: int | None = None,
) -> PostProcessor | PureCertificate:
    """Build T of Theorem 1.10 for the ordered pair (x_pair[0], x_pair[1]) and E = e^ε ≥ 1.

    Parameters
    ----------
    mech : Mechanism
        Numeric or symbolic (then ``table`` holds the declared symbols and E may be symbolic).
    pair : (int, int)
        Dataset indices; b = 0 is ``pair[0]``.
    E : rational or SymPy expression
        e^ε.

    Returns
    -------
    PostProcessor
        T's conditionals per RR output c ∈ {0, 1} and round; ``conditions`` lists the
        non-negativity conditions a symbolic T needs that could not be proved.
    PureCertificate
        When no T exists (numeric: the first history, shortest first, where E·P_x(h) < P_x'(h);
        symbolic: such a history at the sample point of the symbols).
    """
    fld = hist.fld if hist is not None else field_for(mech, table)
    hist = hist or expand(mech, fld, max_histories=max_histories)
    i, j = pair
    names = mech.pair_names(pair)
    E = fld.const(E)
    Ei = E - fld.one
    notes: list[str] = []
    conditions: list = []
    if fld.is_zero(Ei):  # eps = 0: M(x0) must equal M(x1); then T(0) = T(1) = M(x0)
        for h in hist.bfs():
            a, b = hist.hists[h].P[i], hist.hists[h].P[j]
            if a != b:
                x, xp, px, pxp = (i, j, a, b) if _less(fld, a, b) else (j, i, b, a)
                return PureCertificate(names, mech.datasets[x], mech.datasets[xp], hist.hists[h].path, px, pxp, E)
        paths = [[h.P[i] for h in hist.hists], [h.P[i] for h in hist.hists]]
        notes.append("eps = 0: M(x0) and M(x1) coincide on every history; T(0) = T(1) = M(x0)")
    else:
        if fld.symbolic and -1 in fld.sign_set(Ei) or 0 in fld.sign_set(Ei):
            conditions.append(("E", "", "", f"{fld.text(Ei)} > 0"))
        paths = [[(E * h.P[c] - h.P[o]) / Ei for h in hist.hists] for c, o in ((i, j), (j, i))]
        bad = _first_negative(mech, hist, paths, pair, E, fld, table)
        if isinstance(bad, PureCertificate):
            return bad
        conditions.extend(bad)
    cond, free = conditionals_from_paths(hist, paths, (i, j))
    if free:
        notes.append(
            f"{len(free)} conditional(s) of T are at rounds T never reaches under that RR output "
            "(path measure 0): they are free, and set to M's own conditional under x_c"
        )
    return PostProcessor(
        "pure",
        pair,
        names,
        ("0", "1"),
        rr_weights(E, fld),
        cond,
        free,
        hist,
        paths,
        eps_text,
        E,
        None,
        notes,
        conditions,
    )


def _less(fld, a, b) -> bool:
    if not fld.symbolic:
        return a < b
    return -1 in fld.sign_set(a - b) and 1 not in fld.sign_set(a - b)


def _first_negative(mech, hist, paths, pair, E, fld, table):
    """Numeric: the first history with a negative path measure as a certificate.  Symbolic:
    the unproved non-negativity conditions (or a certificate at the sample point)."""
    names = mech.pair_names(pair)
    conditions = []
    for h in hist.bfs():
        for c in (0, 1):
            v = paths[c][h]
            if not fld.symbolic:
                if v < 0:
                    x, xp = pair if c == 0 else (pair[1], pair[0])
                    H = hist.hists[h]
                    return PureCertificate(names, mech.datasets[x], mech.datasets[xp], H.path, H.P[x], H.P[xp], E)
                continue
            s = fld.sign_set(v)
            if -1 not in s:
                continue
            x, xp = pair if c == 0 else (pair[1], pair[0])
            H = hist.hists[h]
            cert = _sample_certificate(mech, table, fld, names, x, xp, H, E)
            if cert is not None:
                return cert
            conditions.append((f"T({c})", history_text(H.path), "", f"{fld.text(E * H.P[x] - H.P[xp])} >= 0"))
    return conditions


def _sample_certificate(mech, table, fld, names, x, xp, H, E):
    """A symbolic condition that fails at the sample point of the symbols is a disproof."""

    if table is None:
        return None
    point = table.sample_point()
    e, px, pxp = (substitute(fld.to_sympy(v), point) for v in (E, H.P[x], H.P[xp]))
    if e * px < pxp:
        return PureCertificate(
            names, mech.datasets[x], mech.datasets[xp], H.path, px, pxp, e, {str(k): str(v) for k, v in point.items()}
        )
    return None
