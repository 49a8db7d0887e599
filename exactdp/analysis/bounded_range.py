r"""Bounded range (ε-BR, Dong–Durfee–Rogers Def. 2.2), decided exactly.

For a noninteractive mechanism and an adjacent pair (x, x'), the privacy loss of an output y
is L(y) = ln(P_x(y) / P_x'(y)), and the **BR-range** is max_y L(y) − min_y L(y) over the
outputs with P_x(y) + P_x'(y) > 0 (±∞ when only one dataset can produce y).  M is ε-BR when
the BR-range is ≤ ε for every adjacent pair (DDR Def. 2.2 and Cor. 2.1); the range is the same
for (x, x') and (x', x).  Lemma 2.1: ε-BR ⇒ ε-DP, and ε-DP ⇒ 2ε-BR.

**Interactive mechanisms.**  DDR define BR for noninteractive mechanisms only.  exactdp reads
an interactive mechanism as the family of noninteractive ones obtained by fixing the
adversary, with the adversary's whole view as the output, and offers two readings:

* ``adversaries="deterministic"`` (default): M is ε-BR iff View(A, M(·)) is ε-BR for every
  *deterministic* adversary A.  For a noninteractive mechanism this is Def. 2.2 itself.
* ``adversaries="randomized"``: the same for every randomized adversary, whose coins are part of
  its view.  A visible coin mixes deterministic adversaries, and BR is **not closed under
  mixtures** (DDR §4.1): the range is then the largest path loss over *all* adversaries minus
  the smallest, which can exceed every deterministic adversary's range.

Unlike ε-DP (where deterministic adversaries suffice, Vadhan–Wang Lemma 2.2 / DDR Lemma 4.3)
the two readings differ; reports say which one was used.

**Algorithm** (exact, one pass over the DAG per adjacent pair).  Work with likelihood ratios
r = P_x(view)/P_x'(view) ∈ [0, ∞].  For the deterministic reading each node keeps the Pareto
frontier of pairs (hi, lo) = (largest, smallest) ratio of the views below it that one strategy
can produce: an END has {(1, 1)}; an adversary choice takes the union of its options'
frontiers; an answer with ratio ρ_k = P_x(k)/P_x'(k) scales the frontier of outcome k by ρ_k
(an outcome impossible under x' contributes (∞, ∞), one impossible under x contributes (0, 0))
and combines the outcomes, each choosing its own point, into the frontier of
(max_k hi_k, min_k lo_k).  The randomized reading keeps the single point (max over all views,
min over all views).  The BR-range is ln of the largest hi/lo at the root.  The two extreme
views are kept as histories and re-checked by an independent forward computation of their
probabilities (:func:`recheck_views`).

References
----------
J. Dong, D. Durfee, R. Rogers, *Optimal Differential Privacy Composition for Exponential
Mechanisms*, ICML 2020 (arXiv:1909.13830), Def. 2.2, Cor. 2.1, Lemma 2.1, §4.1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import VerificationError
from ..model.checks import takes_mechanism
from ..model.game import Ask, Chance, End, Mechanism, Node, postorder
from ..numbers import INF, ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import Q, q_str
from .enumerator import DEFAULT_MAX_STRATEGIES, strategies
from .witness import format_history

__all__ = ["ADVERSARIES", "BRPair", "BRResult", "BRWitness", "br_range", "br_range_bruteforce", "recheck_views"]

ADVERSARIES = ("deterministic", "randomized")

# A ratio is a rational ≥ 0 or INF.


def _mul(a: Any, b: Any) -> Any:
    if is_inf(a) or is_inf(b):
        return INF
    return a * b


def _lt(a: Any, b: Any) -> bool:
    if is_inf(a):
        return False
    if is_inf(b):
        return True
    return a < b


def _ratio_range(hi: Any, lo: Any) -> Any:
    """hi / lo as a ratio (INF when hi = ∞ or lo = 0)."""
    if is_inf(hi) or lo == 0:
        return INF
    return hi / lo


# A frontier point: (hi, lo, hi_history, lo_history)
Point = tuple


def _prune(points: list[Point]) -> list[Point]:
    """Pareto-optimal points (maximise hi, minimise lo), sorted by lo then hi; ties keep the first."""
    pts = sorted(points, key=lambda p: (_key(p[1]), [-x for x in _key(p[0])]))
    out: list[Point] = []
    for p in pts:
        if out and not _lt(out[-1][0], p[0]):
            continue  # dominated: lo no smaller, hi no larger
        out.append(p)
    return out


def _key(r: Any) -> list:
    return [1, 0] if is_inf(r) else [0, r]


def _chance_frontier(options: list[list[Point]], deterministic: bool) -> list[Point]:
    """Combine one frontier per outcome: each outcome picks one of its points; the result is
    (max hi, min lo) with the histories of the outcomes attaining them."""
    if len(options) == 1:
        return options[0]
    if not deterministic:
        best_hi = max((p for pts in options for p in pts), key=lambda p: _key(p[0]))
        best_lo = min((p for pts in options for p in pts), key=lambda p: _key(p[1]))
        return [(best_hi[0], best_lo[1], best_hi[2], best_lo[3])]
    # best hi of each outcome regardless of lo (its point with the largest hi: the last one)
    top = [pts[-1] for pts in options]
    order = sorted(range(len(options)), key=lambda k: [-x for x in _key(top[k][0])])
    first, second = order[0], (order[1] if len(order) > 1 else None)
    candidates: list[Point] = []
    thresholds = sorted((p for pts in options for p in pts), key=lambda p: _key(p[1]))
    for pt in thresholds:
        ell = pt[1]
        best: Point | None = None
        for j, pts in enumerate(options):
            # outcome j provides the minimum (some point with lo <= ell), the others their top
            feas = [p for p in pts if not _lt(ell, p[1])]
            if not feas:
                continue
            pj = max(feas, key=lambda p: _key(p[0]))
            other = second if j == first else first
            if other is not None and _lt(pj[0], top[other][0]):
                hi, hi_h = top[other][0], top[other][2]
            else:
                hi, hi_h = pj[0], pj[2]
            cand = (hi, pj[1], hi_h, pj[3])
            if best is None or _lt(best[0], cand[0]) or (not _lt(cand[0], best[0]) and _lt(cand[1], best[1])):
                best = cand
        if best is not None:
            candidates.append(best)
    return _prune(candidates)


def _frontiers(mech: Mechanism, i: int, j: int, deterministic: bool) -> list[Point]:
    memo: dict[int, list[Point]] = {}
    for node in postorder(mech.root):
        if isinstance(node, End):
            memo[node.uid] = [(Q(1), Q(1), (), ())]
        elif isinstance(node, Ask):
            pts: list[Point] = []
            for lab, child in zip(node.labels, node.children):
                step = (("q", lab),)
                pts.extend((h, l, step + hh, step + lh) for h, l, hh, lh in memo[child.uid])
            if deterministic:
                memo[node.uid] = _prune(pts)
            else:
                bh = max(pts, key=lambda p: _key(p[0]))
                bl = min(pts, key=lambda p: _key(p[1]))
                memo[node.uid] = [(bh[0], bl[1], bh[2], bl[3])]
        elif isinstance(node, Chance):
            options: list[list[Point]] = []
            for lab, row, child in zip(node.labels, node.probs, node.children):
                px, pxp = row[i], row[j]
                if not px and not pxp:
                    continue
                step = (("a", lab),)
                kid = memo[child.uid]
                if not pxp:  # impossible under x': every view below has ratio ∞
                    hh = kid[-1][2]
                    options.append([(INF, INF, step + hh, step + hh)])
                elif not px:  # impossible under x: ratio 0
                    lh = kid[0][3]
                    options.append([(Q(0), Q(0), step + lh, step + lh)])
                else:
                    rho = px / pxp
                    options.append([(_mul(rho, h), _mul(rho, l), step + hh, step + lh) for h, l, hh, lh in kid])
            memo[node.uid] = _chance_frontier(options, deterministic)
        else:  # pragma: no cover
            raise TypeError(node)
    return memo[mech.root.uid]


@dataclass(frozen=True)
class BRWitness:
    """Two views of one adversary (deterministic reading) or of two adversaries mixed by a
    visible coin (randomized reading) whose privacy losses differ by the BR-range.

    ``p_hi = (P_x(v_hi), P_x'(v_hi))`` and ``p_lo`` likewise, recomputed independently."""

    pair: tuple[str, str]
    adversaries: str
    hi_view: tuple
    lo_view: tuple
    p_hi: tuple[Any, Any]
    p_lo: tuple[Any, Any]

    def ratio_range(self) -> Any:
        return _ratio_range(_ratio(*self.p_hi), _ratio(*self.p_lo))

    def render_lines(self, indent: str = "      ") -> list[str]:
        x, xp = self.pair
        who = (
            "one deterministic adversary, two of its views"
            if self.adversaries == "deterministic"
            else "two deterministic adversaries mixed by a visible coin"
        )
        out = [f"{indent}witness ({who}; re-checked independently): datasets ({x}, {xp})"]
        for tag, view, (a, b) in (
            ("largest loss", self.hi_view, self.p_hi),
            ("smallest loss", self.lo_view, self.p_lo),
        ):
            loss = _loss_text(a, b)
            out.append(f"{indent}  {tag}: {format_history(view)}   ({q_str(a)} vs {q_str(b)}; L = {loss})")
        rng = self.ratio_range()
        out.append(f"{indent}  range = {ladder.text(ladder.log(rng)) if not is_inf(rng) else 'inf'}")
        return out

    def to_dict(self) -> dict[str, Any]:
        rng = self.ratio_range()
        return {
            "kind": "bounded_range",
            "pair": list(self.pair),
            "adversaries": self.adversaries,
            "largest_loss_view": format_history(self.hi_view),
            "largest_loss_p": [q_str(self.p_hi[0]), q_str(self.p_hi[1])],
            "smallest_loss_view": format_history(self.lo_view),
            "smallest_loss_p": [q_str(self.p_lo[0]), q_str(self.p_lo[1])],
            "range": "inf" if is_inf(rng) else ladder.text(ladder.log(rng)),
            "rechecked": True,
        }


def _ratio(a: Any, b: Any) -> Any:
    return INF if not b else a / b


def _loss_text(a: Any, b: Any) -> str:
    if not b:
        return "inf"
    if not a:
        return "-inf"
    return ladder.text(ladder.log(a / b))


@dataclass(frozen=True)
class BRPair:
    """BR-range of one adjacent pair: e^range as a ratio (rational ≥ 1 or INF), and a witness."""

    pair: tuple[str, str]
    ratio: Any
    witness: BRWitness


@dataclass(frozen=True)
class BRResult:
    """The BR-range of a mechanism: the largest over adjacent pairs."""

    mechanism: str
    adversaries: str
    pairs: tuple[BRPair, ...]

    @property
    def worst(self) -> BRPair:
        best = self.pairs[0]
        for p in self.pairs[1:]:
            if _lt(best.ratio, p.ratio):
                best = p
        return best

    @property
    def ratio(self) -> Any:
        """e^(BR-range): a rational ≥ 1, or INF."""
        return self.worst.ratio

    def range(self) -> Any:
        """The BR-range itself: ``0``, ``log(r)`` or ``INF``."""
        r = self.ratio
        return INF if is_inf(r) else ladder.log(r)

    def is_br(self, eps: object) -> bool:
        """Whether M is ε-BR (range ≤ ε), exactly (certified for decimal ε)."""
        if is_inf(eps):
            return True
        return ladder.cmp(self.range(), eps) <= 0

    def text(self) -> str:
        rng = self.range()
        return (
            "inf" if is_inf(rng) else (ladder.text(rng) if rng == 0 else f"{ladder.text(rng)} ≈ {ladder.decimal(rng)}")
        )


def recheck_views(mech: Mechanism, pair: tuple[int, int], view: tuple) -> tuple[Any, Any]:
    """(P_x(view), P_x'(view)) by walking the history from the root (independent of the
    frontier computation)."""
    i, j = pair
    node: Node = mech.root
    px, pxp = Q(1), Q(1)
    for kind, lab in view:
        if kind == "q":
            if not isinstance(node, Ask) or lab not in node.labels:
                raise VerificationError(f"bounded-range witness: option {lab!r} is not available here")
            node = node.children[node.labels.index(lab)]
        else:
            if not isinstance(node, Chance) or lab not in node.labels:
                raise VerificationError(f"bounded-range witness: answer {lab!r} is not possible here")
            k = node.labels.index(lab)
            px, pxp = px * node.probs[k][i], pxp * node.probs[k][j]
            node = node.children[k]
    if not isinstance(node, End):
        raise VerificationError("bounded-range witness: a view stops before the interaction ends")
    return px, pxp


def _same_strategy(a: tuple, b: tuple) -> bool:
    """Two views of one deterministic adversary: they first differ at an answer, not a choice."""
    for sa, sb in zip(a, b):
        if sa != sb:
            return sa[0] == "a" and sb[0] == "a"
    return True


@takes_mechanism
def br_range(mech: Mechanism, *, adversaries: str = "deterministic") -> BRResult:
    """The exact BR-range of ``mech`` (DDR Def. 2.2), per adjacent pair, with witnesses.

    Parameters
    ----------
    mech : Mechanism
    adversaries : {"deterministic", "randomized"}
        How an interactive mechanism is read (see the module docstring).  For a noninteractive
        mechanism both give DDR's Def. 2.2.

    Returns
    -------
    BRResult

    Raises
    ------
    VerificationError
        The independent re-check of a witness disagrees (a bug).

    Examples
    --------
    >>> from exactdp.builders.exponential import grr
    >>> str(br_range(grr(eps="log(16)", t="log(4)")).range())
    'log(16)'

    References
    ----------
    DDR Def. 2.2, Cor. 2.1, §4.1.
    """
    if adversaries not in ADVERSARIES:
        raise ValueError(f"adversaries must be one of {ADVERSARIES}, got {adversaries!r}")
    det = adversaries == "deterministic"
    pairs: list[BRPair] = []
    for a, b in mech.unordered_pairs:
        front = _frontiers(mech, a, b, det)
        best = front[0]
        for p in front[1:]:
            if _lt(_ratio_range(best[0], best[1]), _ratio_range(p[0], p[1])):
                best = p
        hi, lo, hh, lh = best
        p_hi, p_lo = recheck_views(mech, (a, b), hh), recheck_views(mech, (a, b), lh)
        if real_cmp_ratio(_ratio(*p_hi), hi) or real_cmp_ratio(_ratio(*p_lo), lo):
            raise VerificationError(
                f"bounded-range re-check failed on {mech.pair_names((a, b))}: frontier says {hi}, {lo}, "
                f"the views give {_ratio(*p_hi)}, {_ratio(*p_lo)}"
            )
        if det and not _same_strategy(hh, lh):
            raise VerificationError("bounded-range witness: the two views need different deterministic adversaries")
        w = BRWitness(mech.pair_names((a, b)), adversaries, hh, lh, p_hi, p_lo)
        pairs.append(BRPair(mech.pair_names((a, b)), _ratio_range(hi, lo), w))
    return BRResult(mech.name, adversaries, tuple(pairs))


def real_cmp_ratio(a: Any, b: Any) -> int:
    """Nonzero when the two ratios differ."""
    if is_inf(a) or is_inf(b):
        return 0 if (is_inf(a) and is_inf(b)) else 1
    return 0 if a == b else 1


def br_range_bruteforce(
    mech: Mechanism, *, adversaries: str = "deterministic", max_strategies: int | None = None
) -> BRResult:
    """The BR-range from its definition: list every deterministic adversary with the
    enumerator, compute each one's view distribution, and take max L − min L (per adversary,
    or over all of them for the randomized reading).  The reference for :func:`br_range`."""

    if adversaries not in ADVERSARIES:
        raise ValueError(f"adversaries must be one of {ADVERSARIES}, got {adversaries!r}")
    det = adversaries == "deterministic"
    strats = list(strategies(mech, max_strategies=max_strategies or DEFAULT_MAX_STRATEGIES))
    pairs: list[BRPair] = []
    for a, b in mech.unordered_pairs:
        best: tuple | None = None  # (range, hi view, lo view)
        g_hi = g_lo = None
        for _choices, views in strats:
            live = [(h, pr) for h, pr in views if pr[a] or pr[b]]
            hi = max(live, key=lambda v: _key(_ratio(v[1][a], v[1][b])))
            lo = min(live, key=lambda v: _key(_ratio(v[1][a], v[1][b])))
            if det:
                rng = _ratio_range(_ratio(hi[1][a], hi[1][b]), _ratio(lo[1][a], lo[1][b]))
                if best is None or _lt(best[0], rng):
                    best = (rng, hi, lo)
            else:
                if g_hi is None or _lt(_ratio(g_hi[1][a], g_hi[1][b]), _ratio(hi[1][a], hi[1][b])):
                    g_hi = hi
                if g_lo is None or _lt(_ratio(lo[1][a], lo[1][b]), _ratio(g_lo[1][a], g_lo[1][b])):
                    g_lo = lo
        if not det:
            assert g_hi is not None and g_lo is not None
            best = (_ratio_range(_ratio(g_hi[1][a], g_hi[1][b]), _ratio(g_lo[1][a], g_lo[1][b])), g_hi, g_lo)
        assert best is not None
        rng, hi, lo = best
        w = BRWitness(mech.pair_names((a, b)), adversaries, hi[0], lo[0], (hi[1][a], hi[1][b]), (lo[1][a], lo[1][b]))
        pairs.append(BRPair(mech.pair_names((a, b)), rng, w))
    return BRResult(mech.name, adversaries, tuple(pairs))
