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

__all__ = ["game", "certificate", "mechanism_of", "claim_truth", "numbers_in", "set_at", "wrap_body"]


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
        "version": 1,
        "case": {"file": "hand.yaml", "sha256": "0" * 64, "name": "hand", "claim": 1},
        "claim": claim,
        "verdict": verdict,
        "games": games,
        "proof": proof,
    }


def wrap_body(body: dict, text: str = "claim") -> dict:
    return wrap(body, case_file="random.yaml", sha256="0" * 64, case_name="random", number=1, text=text)


def mechanism_of(doc: dict, name: str = "M") -> Mechanism:
    """The certificate's game as an exactdp mechanism (nodes rebuilt from the JSON)."""
    built: list = []
    for node in doc["nodes"]:
        if "end" in node:
            built.append(END)
        elif "ask" in node:
            built.append(Ask([lab for lab, _ in node["ask"]], [built[c] for _, c in node["ask"]]))
        else:
            items = node["answer"]
            rows = [tuple(Q(Fraction(p)) for p in probs) for _, probs, _ in items]
            built.append(Chance([lab for lab, _, _ in items], rows, [built[c] for _, _, c in items]))
    ds = tuple(doc["datasets"])
    adj = tuple((ds.index(a), ds.index(b)) for a, b in doc["pairs"])
    return Mechanism(built[doc["root"]], ds, adj, name)


def _lam(text: str) -> Any:
    return None if text == "inf" else Q(Fraction(text))


def _delta_at(prof, lam) -> Any:
    return prof.envelope.value_at(lam)


def claim_truth(cert: dict) -> bool:
    """Whether the certificate's claim holds about its games, decided by the enumerator."""
    claim = cert["claim"]
    kind = claim["kind"]
    mechs = {name: mechanism_of(doc, name) for name, doc in cert["games"].items()}
    prof = {name: enumerator.profile(m, max_strategies=200_000) for name, m in mechs.items()}
    p = prof[claim["of"]]
    if kind == "privloss":
        lam, delta = _lam(claim["exp_eps"]), Q(Fraction(claim["delta"]))
        true = p.least_lambda(delta)
        true = None if not hasattr(true, "numerator") and not isinstance(true, int) else true
        if claim["relation"] == "equals":
            return true == lam
        return lam is None or (true is not None and true <= lam)
    if kind in ("dp", "not_dp"):
        ok = _delta_at(p, _lam(claim["exp_eps"])) <= Q(Fraction(claim["delta"]))
        return ok if kind == "dp" else not ok
    if kind == "delta":
        return _delta_at(p, _lam(claim["exp_eps"])) == Q(Fraction(claim["equals"]))
    if kind in ("profile_le", "profile_eq"):
        other = prof[claim["than"] if kind == "profile_le" else claim["as"]]
        if kind == "profile_le":
            return p.le_on_eps_ge_0(other)[0]
        return p.le_on_eps_ge_0(other)[0] and other.le_on_eps_ge_0(p)[0]
    if kind == "renyi":  # the enumerator's Renyi value, over every deterministic adversary
        from exactdp.numbers import INF, ladder
        from exactdp.numbers.loglinear import log_linear

        res = enumerator.renyi(
            mechs[claim["of"]], INF if claim["alpha"] == "inf" else int(claim["alpha"]), max_strategies=200_000
        )
        bound = (
            INF
            if claim["bound"] == "inf"
            else log_linear(Q(0), [(Q(Fraction(b)), Q(Fraction(c))) for b, c in claim["bound"]])
        )
        sign = ladder.cmp(res.value, bound)
        return {"equals": sign == 0, "at_most": sign <= 0, "exceeds": sign > 0}[claim["relation"]]
    if kind in ("fdp", "not_fdp"):  # T(M) >= T(N), read off the trade-off curves (Dong-Roth-Su 2022)
        from exactdp.analysis.tradeoff import dominates

        return dominates(p.envelope, prof[claim["f"]].envelope)[0] == (kind == "fdp")
    if kind in ("simulates_rr", "not_simulates_rr"):
        # T exists for a pair iff the pair is (eps, delta)-DP (post-processing; Thm 1.10 and
        # Lyu 2022 / Vadhan-Zhang 2023 for delta > 0)
        delta = Q(Fraction(claim["delta"]))
        text = claim["exp_eps"] if claim["exp_eps"] is not None else cert["proof"]["exp_eps_used"]
        lam = _lam(text)
        if claim["exp_eps"] is None:
            true = p.least_lambda(delta)
            true = None if not (hasattr(true, "numerator") or isinstance(true, int)) else true
            if true != lam:
                return kind == "not_simulates_rr"  # the statement names a wrong PrivLoss: false
        exists = lam is not None and all(pp.hull.value_at(lam) <= delta for pp in p.pairs)
        return exists == (kind == "simulates_rr")
    raise ValueError(kind)


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
