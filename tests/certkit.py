"""Helpers for the certificate tests: hand-made certificates, certificates of random mechanisms,
and an independent proof of a certificate's claim (exactdp's *enumerator*, Lemma 2.2 literally,
run on the game as the certificate states it)."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from exactdp.analysis import enumerator
from exactdp.certificates import wrap
from exactdp.model import END, Ask, Chance, Mechanism
from exactdp.numbers import Q

__all__ = ["game", "certificate", "mechanism_of", "number_of", "claim_truth", "numbers_in", "set_at", "wrap_body"]


def game(nodes: list, *, datasets=("x0", "x1"), pairs=None, root: int | None = None) -> dict:
    """A game from compact node specs: "end", ("ask", {label: child}), ("answer", {label: (probs, child)})."""
    out = []
    for k, spec in enumerate(nodes):
        if spec == "end":
            out.append({"id": k, "end": True})
        elif spec[0] == "ask":
            out.append({"id": k, "ask": [[lab, c] for lab, c in spec[1].items()]})
        else:
            out.append({"id": k, "answer": [[lab, [str(p) for p in probs], c] for lab, (probs, c) in spec[1].items()]})
    pairs = pairs or [[datasets[0], datasets[1]], [datasets[1], datasets[0]]]
    return {
        "datasets": list(datasets),
        "pairs": [list(p) for p in pairs],
        "root": len(out) - 1 if root is None else root,
        "nodes": out,
    }


def certificate(claim: dict, games: dict, proof: dict, verdict: str = "holds") -> dict:
    return {
        "format": "exactdp-certificate",
        "version": 2,
        "case": {"file": "hand.yaml", "sha256": "0" * 64, "name": "hand", "claim": 1},
        "claim": claim,
        "verdict": verdict,
        "games": games,
        "proof": proof,
    }


def wrap_body(body: dict, text: str = "claim") -> dict:
    return wrap(body, case_file="random.yaml", sha256="0" * 64, case_name="random", number=1, text=text)


def number_of(text: str, L: int = 0):
    """A certificate number as exactdp's own number (independently of the checker): a rational, or
    an element of Q(e^(1/L)) from its coefficient lists."""
    from exactdp.numbers.qt import QtElement, _poly

    n, _, d = text.partition("/")
    if "," not in text:
        return Q(Fraction(text))
    return QtElement._make(
        L, Q(1), _poly([int(c) for c in n.split(",")]), _poly([int(c) for c in (d or "1").split(",")])
    )


def lam_of(text, L: int = 0):
    """e^eps of a certificate: a number, INF, or e^q for "exp(q)"."""
    from exactdp.numbers import INF, ladder

    if text == "inf":
        return INF
    if text.startswith("exp("):
        return ladder.exp(Q(Fraction(text[4:-1])))
    return number_of(text, L)


def mechanism_of(doc: dict, name: str = "M", L: int = 0) -> Mechanism:
    """The certificate's game as an exactdp mechanism (nodes rebuilt from the JSON)."""
    built: list = []
    for node in doc["nodes"]:
        if "end" in node:
            built.append(END)
        elif "ask" in node:
            built.append(Ask([lab for lab, _ in node["ask"]], [built[c] for _, c in node["ask"]]))
        else:
            items = node["answer"]
            rows = [tuple(number_of(p, L) for p in probs) for _, probs, _ in items]
            built.append(Chance([lab for lab, _, _ in items], rows, [built[c] for _, _, c in items]))
    ds = tuple(doc["datasets"])
    adj = tuple((ds.index(a), ds.index(b)) for a, b in doc["pairs"])
    return Mechanism(built[doc["root"]], ds, adj, name)


def _cmp(x, y) -> int:
    """exactdp's exact (certified) order, for delta values (affine in a transcendental lambda) too."""
    from exactdp.analysis.results import value_cmp
    from exactdp.numbers import ladder

    return value_cmp(x, y) if hasattr(x, "cmp") else ladder.cmp(x, y)


def claim_truth(cert: dict) -> bool:
    """Whether the certificate's claim holds about its games, decided by exactdp: the enumerator
    (Vadhan & Wang 2021, Lemma 2.2 taken literally) for the profile, Renyi divergences, bounded
    range by brute force, and exactdp's theorems for compositions."""
    from exactdp.analysis.bounded_range import br_range_bruteforce
    from exactdp.analysis.gdp import HOLDS as GDP_HOLDS
    from exactdp.analysis.gdp import check_gdp
    from exactdp.analysis.tradeoff import dominates, envelope_tradeoff
    from exactdp.numbers import INF, ladder
    from exactdp.numbers.loglinear import log_linear

    L = int(cert["field"][6:-1]) if "field" in cert else 0
    claim = cert["claim"]
    kind = claim["kind"]
    mechs = {name: mechanism_of(doc, name, L) for name, doc in cert["games"].items()}
    prof = {name: enumerator.profile(m, max_strategies=200_000) for name, m in mechs.items()}
    if kind == "composition":
        return _composition_truth(claim, mechs, prof)
    p = prof[claim["of"]]
    if kind == "privloss":
        lam, delta = lam_of(claim["exp_eps"], L), number_of(claim["delta"], L)
        c = _cmp(
            ladder.log(p.least_lambda(delta)) if p.least_lambda(delta) != INF else INF,
            ladder.log(lam) if lam != INF else INF,
        )
        return c == 0 if claim["relation"] == "equals" else c <= 0
    if kind in ("dp", "not_dp"):
        d = p.delta_at(ladder.log(lam_of(claim["exp_eps"], L)))
        ok = _cmp(d, number_of(claim["delta"], L)) <= 0
        return ok if kind == "dp" else not ok
    if kind == "delta":
        return _cmp(p.delta_at_lambda(lam_of(claim["exp_eps"], L)), number_of(claim["equals"], L)) == 0
    if kind in ("profile_le", "profile_eq"):
        other = prof[claim["than"] if kind == "profile_le" else claim["as"]]
        return p.le_on_eps_ge_0(other)[0] and (kind == "profile_le" or other.le_on_eps_ge_0(p)[0])
    if kind in ("fdp", "not_fdp"):  # T(M) >= T(N), read off the trade-off curves (Dong-Roth-Su 2022)
        return dominates(p.envelope, prof[claim["f"]].envelope)[0] == (kind == "fdp")
    if kind in ("gdp", "not_gdp"):
        status = check_gdp(envelope_tradeoff(p), Q(Fraction(claim["mu"]))).status
        return (status == GDP_HOLDS) == (kind == "gdp")
    if kind in ("bounded_range", "not_bounded_range", "br_range"):
        r = br_range_bruteforce(mechs[claim["of"]], adversaries=claim["adversaries"], max_strategies=200_000).range()
        target = lam_of(claim["equals" if kind == "br_range" else "exp_eps"], L)
        c = _cmp(r, ladder.log(target) if target != INF else INF)
        return c == 0 if kind == "br_range" else (c <= 0) == (kind == "bounded_range")
    if kind == "renyi":  # the enumerator's Renyi value, over every deterministic adversary
        alpha = INF if claim["alpha"] == "inf" else Fraction(claim["alpha"])
        bound = INF if claim["bound"] == "inf" else _log_linear(claim["bound"], log_linear)
        by_bounds = alpha != INF and (alpha.denominator != 1 or (alpha == 1 and L) or "by_bounds" in cert["proof"])
        if by_bounds:  # (fractions, KL over Q(t), large powers in Q(t)): a certified enclosure, arb
            from exactdp.analysis.renyi_real import compare

            sign = compare(mechs[claim["of"]], alpha, bound)[0]
            assert sign is not None, "exactdp leaves the mutated claim undecided"
            return {"equals": sign == 0, "at_most": sign <= 0, "exceeds": sign > 0}[claim["relation"]]
        res = enumerator.renyi(mechs[claim["of"]], INF if alpha == INF else int(alpha), max_strategies=200_000)
        sign = _cmp(res.value, bound)
        return {"equals": sign == 0, "at_most": sign <= 0, "exceeds": sign > 0}[claim["relation"]]
    if kind in ("zcdp", "not_zcdp"):  # exactdp's branch and bound over alpha (Bun-Steinke 2016, Def. 1.1)
        from exactdp.analysis.zcdp import FAILS as Z_FAILS
        from exactdp.analysis.zcdp import HOLDS as Z_HOLDS
        from exactdp.analysis.zcdp import check_zcdp

        m = mechs[claim["of"]]
        lam = p.least_lambda(Q(0))
        status = check_zcdp(m, Q(Fraction(claim["rho"])), ladder.log(lam) if lam != INF else INF).status
        assert status in (Z_HOLDS, Z_FAILS), "exactdp leaves the mutated claim undecided"
        return (status == Z_HOLDS) == (kind == "zcdp")
    if kind == "conversion":  # PrivLoss(M, delta) <= the theorem's bound (Mironov 2017; Canonne-Kamath-Steinke 2020)
        delta, a, lam = (
            number_of(claim["delta"], L),
            Fraction(claim["alpha"]),
            p.least_lambda(number_of(claim["delta"], L)),
        )
        if lam == INF:
            return False  # (a finite D_alpha would bound it: the theorems)
        logs = [(lam, 1), (delta, 1 / (a - 1))] + [((a - 1) / a, -1), (a, 1 / (a - 1))] * claim["theorem"].endswith(
            "cks"
        )
        x = log_linear(0, logs)  # X = log(e^PrivLoss) less the bound's terms beyond D_alpha
        if a.denominator == 1:
            return _cmp(enumerator.renyi(mechs[claim["of"]], int(a), max_strategies=200_000).value, x) >= 0
        from exactdp.analysis.renyi_real import compare

        sign = compare(mechs[claim["of"]], a, x)[0]
        assert sign is not None, "exactdp leaves the mutated claim undecided"
        return sign >= 0
    if kind == "tradeoff":  # 1 - C(alpha), C the enumerator's envelope chain, b = P_x'(T) (Dong-Roth-Su 2022)
        alpha, bound, env = number_of(claim["alpha"], L), number_of(claim["bound"], L), p.envelope
        b, a = Q(0), env.top
        for r, w in env.edges:
            if _cmp(b + w, alpha) >= 0:
                break
            b, a = b + w, a + r * w
        c = _cmp(1 - a - r * (alpha - b), bound)
        return {"equals": c == 0, "at_least": c >= 0, "at_most": c <= 0}[claim["relation"]]
    if kind in ("simulates_rr", "not_simulates_rr"):
        # T exists for a pair iff the pair is (eps, delta)-DP (post-processing; Thm 1.10 and
        # Lyu 2022 / Vadhan-Zhang 2023 for delta > 0)
        delta = number_of(claim["delta"], L)
        if claim["exp_eps"] is None:
            lam = p.least_lambda(delta)
        else:
            lam = lam_of(claim["exp_eps"], L)
        exists = lam != INF and all(_cmp(pp.hull.value_at(lam), delta) <= 0 for pp in p.pairs)
        return exists == (kind == "simulates_rr")
    raise ValueError(kind)


def _log_linear(terms, log_linear):
    s = sum((Q(Fraction(c)) for b, c in terms if b == "e"), Q(0))
    return log_linear(s, [(Q(Fraction(b)), Q(Fraction(c))) for b, c in terms if b != "e"])


def _composition_truth(claim: dict, mechs: dict, prof: dict) -> bool:
    """exactdp's own reading of a composition claim: ConComp built by exactdp, the theorem's bound
    by :mod:`exactdp.theorems`."""
    from exactdp.builders import concomp
    from exactdp.builders.combinators import distinct_labels
    from exactdp.numbers import INF, ladder
    from exactdp.theorems import basic, components, improved_basic, optimal, thm_1_8

    names = claim["of"]
    built = concomp(dict(zip(distinct_labels(names), (mechs[n] for n in names))))
    if claim["theorem"] == "fdp":  # T(ConComp) >= the tensor product (Dong-Roth-Su 2022, Thm 3.2)
        from exactdp.analysis.tradeoff import dominates, tensor

        found = enumerator.profile(built, max_strategies=200_000).envelope
        return dominates(found, tensor([prof[n].envelope for n in names]))[0]
    if claim["theorem"] == "renyi":
        from exactdp.numbers import ladder

        a = INF if claim["alpha"] == "inf" else int(claim["alpha"])
        found = enumerator.renyi(built, a, max_strategies=200_000).value
        total = Q(0)
        for n in names:
            v = enumerator.renyi(mechs[n], a, max_strategies=200_000).value
            total = INF if INF in (total, v) else ladder.add(total, v)
        return total == INF or ladder.cmp(found, total) <= 0
    deltas = [Q(Fraction(d)) for d in claim["deltas"]]
    eps = []
    for k, n in enumerate(names):
        if claim["eps"][k] is None:
            eps.append(prof[n].privloss(deltas[k]))
        else:
            e = ladder.log(lam_of(claim["eps"][k]))
            if ladder.cmp(prof[n].delta_at(e), deltas[k]) > 0:
                return False
            eps.append(e)
    comps = components(eps, deltas)
    found = enumerator.profile(built, max_strategies=200_000)
    if claim["theorem"] == "optimal":
        at = Q(Fraction(claim["delta"]))
        bound = optimal(comps, at).eps
    else:
        b = {"basic": basic, "improved-basic": improved_basic, "thm-1.8": thm_1_8}[claim["theorem"]](comps)
        at = Q(Fraction(claim["delta"])) if claim["delta"] is not None else b.delta
        bound = b.eps if ladder.cmp(at, b.delta) >= 0 else INF
    return bound == INF or ladder.cmp(found.privloss(at), bound) <= 0


def numbers_in(obj: Any, path: tuple = ()) -> list[tuple]:
    """Paths of every number in a certificate: rational strings and integers (not booleans)."""
    out: list[tuple] = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += numbers_in(v, path + (k,))
    elif isinstance(obj, list):
        for k, v in enumerate(obj):
            out += numbers_in(v, path + (k,))
    elif isinstance(obj, bool):
        pass
    elif isinstance(obj, int):
        out.append(path)
    elif isinstance(obj, str) and _is_rational_text(obj):
        out.append(path)
    return out


def _is_rational_text(s: str) -> bool:
    n, _, d = s.partition("/")
    n = n[1:] if n.startswith("-") else n
    return n.isdigit() and (not d or d.isdigit()) and n.isascii()


def set_at(obj: Any, path: tuple, value: Any) -> Any:
    """A deep copy of ``obj`` with the value at ``path`` replaced."""
    out = copy.deepcopy(obj)
    cur = out
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return out
