r"""Certificates for claims with a symbol: at one value, or for every value of one symbol.

A claim with ``symbols:`` holds iff it holds for every value the declared bounds allow
(docs/parametric.md).  The checker (:mod:`exactdp.checker`) reads games whose probabilities are
rational functions of the symbol, written like elements of ℚ(t) (``"0,1/1,1"`` is E/(1 + E)),
with ``"symbol": {"name": "E", "gt": "1"}``, and checks either

* ``"at": x`` — the claim at one value (a ``counterexample``: the target claim at the refuting
  value, whose failure the checker recomputes on the games it substitutes itself), or
* ``"cells"`` — open intervals with rational or infinite ends covering the domain, with a proof
  for each (e^PrivLoss as a rational function), and ``"points"``, a numeric proof for each end
  inside the domain: on each cell the checker runs its checks over ℚ(s), every sign decided by a
  Sturm sequence that shows no root in the cell.

The cells start from the parametric engine's pieces (their ends must be rational), and are cut
further where the checker finds a sign that changes inside a cell (at its rational roots; an
irrational root means no certificate, with that reason).

References
----------
Sturm (1835), the count of real roots by sign variations; Vadhan & Wang 2021, Def. 1.7, Lemma 2.2.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from ..model.game import Ask, Chance, End, Mechanism, postorder
from ..model.symbolic import SymChance
from ..numbers.rational import to_fraction
from ..numbers.symbolic import is_sym, sympy
from .base import FORMAT, VERSION, NoCertificate, exp_eps, textify
from .game import ONE_ORDER, ExportedGame, _labels, game_label

__all__ = ["symbolic_certificate", "symbolic_game", "symbol_doc", "poly_text", "Engines", "MAX_SPLITS"]

MAX_SPLITS = 64
"""Rounds of cutting cells where the checker finds a sign change, before giving up."""


@dataclass(frozen=True)
class Engines:
    """What the builders need from the layers above: the numeric certificate body of a claim at
    a value of the symbol, the facts of the claim's verdict (its parametric ``pieces``; for a
    calibration the ``declared`` set), and the checker run on a certificate
    (None when accepted, the polynomial and cell where a sign changes, else an exception)."""

    at: Callable[[Any, dict[str, Fraction]], dict | None]
    facts: Callable[[Any], dict]
    sign_change: Callable[[dict], tuple | None]


# the claim's values a certificate states, by kind: key -> (the claim's attribute(s), as e^value)
_VALUES: dict[str, dict[str, tuple[tuple[str, ...], bool]]] = {
    "privloss": {"delta": (("delta",), False), "exp_eps": (("equals", "at_most"), True)},
    "dp": {"exp_eps": (("eps",), True), "delta": (("delta",), False)},
    "not_dp": {"exp_eps": (("eps",), True), "delta": (("delta",), False)},
    "delta": {"exp_eps": (("eps",), True), "equals": (("equals",), False)},
    "bounded_range": {"exp_eps": (("eps",), True)},
    "not_bounded_range": {"exp_eps": (("eps",), True)},
    "br_range": {"equals": (("equals",), True)},
    **dict.fromkeys(["profile_le", "profile_eq", "fdp", "not_fdp"], {}),
    "tradeoff": {"alpha": (("alpha",), False), "bound": (("equals", "at_least", "at_most"), False)},
    "composition": {},  # (its claimed e^eps_i: _composition_values)
}
_WHY = {
    "renyi": "a Renyi or KL divergence with a symbol: the checker compares logarithms by rational bounds, which "
    "need numbers, not functions of the symbol (and KL is transcendental in it)",
    "composition": "a Renyi composition theorem with a symbol: the checker compares divergences of numbers",
    "gdp": "Gaussian DP is transcendental in the symbol (Phi): no exact cells",
    "simulates_rr": "a simulation of RR with a symbol: the checker's tables and Farkas multipliers are numbers",
    "conversion": "a conversion theorem with a symbol: the checker evaluates no conversion theorem",
    "zcdp": "zCDP with a symbol: zCDP bounds D_alpha at every real order, and the checker bounds one order at a time",
}
_WHY.update(not_gdp=_WHY["gdp"], not_simulates_rr=_WHY["simulates_rr"], not_zcdp=_WHY["zcdp"])


def poly_text(e: Any, s: Any) -> str:
    """A rational function of the symbol ``s`` (a SymPy expression) as certificate text: integer
    coefficients of numerator and denominator, lowest degree first."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    try:
        pn, pd = sympy.Poly(num, s, domain="QQ"), sympy.Poly(den, s, domain="QQ")
    except (sympy.PolynomialError, sympy.CoercionFailed):
        raise NoCertificate(f"{e} is not a rational function of {s} with rational coefficients") from None
    cn, cd = ([Fraction(int(c.p), int(c.q)) for c in reversed(p.all_coeffs())] for p in (pn, pd))
    m = lcm(*(c.denominator for c in cn + cd))
    return "/".join(",".join(str(int(c * m)) for c in cs) for cs in (cn, cd))


def symbolic_game(mech: Mechanism, name: str, s: Any) -> ExportedGame:
    """The game of a mechanism with probabilities in the symbol ``s``, each a rational function."""
    order = postorder(mech.root)
    ids = {node.uid: k for k, node in enumerate(order)}
    nodes: list[dict] = []
    for k, node in enumerate(order):
        kids = [ids[c.uid] for c in getattr(node, "children", ())]
        if isinstance(node, End):
            nodes.append({"id": k, "end": True})
        elif isinstance(node, Ask):
            nodes.append({"id": k, "ask": [[lab, c] for lab, c in zip(_labels(node), kids)]})
        else:
            assert isinstance(node, Chance)
            sym = node.sym if isinstance(node, SymChance) else None
            rows = [[poly_text(p, s) for p in r] for r in sym] if sym is not None else [list(r) for r in node.probs]
            nodes.append({"id": k, "answer": [[lab, r, c] for lab, r, c in zip(_labels(node), rows, kids)]})
    pairs = [list(mech.pair_names(p)) for p in mech.ordered_pairs]
    doc = {"datasets": list(mech.datasets), "pairs": pairs, "root": ids[mech.root.uid], "nodes": nodes}
    return ExportedGame(name, mech, doc, ids, order)


def _symbol(an: Any) -> tuple[str, Any, dict]:
    table = an.symbols
    doc = symbol_doc(table)
    return doc["name"], table.symbols[doc["name"]], doc


def symbol_doc(table: Any) -> dict:
    """The certificate's ``"symbol"``: the one symbol a case declares, and its bounds."""
    if not table or len(table.bounds) != 1:
        names = ", ".join(b.name for b in table.bounds)
        raise NoCertificate(f"several symbols ({names}): the checker decides signs of polynomials in one symbol")
    b = table.bounds[0]
    doc: dict = {"name": b.name}
    if b.lo is not None:
        doc["ge" if b.lo_closed else "gt"] = str(to_fraction(b.lo))
    if b.hi is not None:
        doc["le" if b.hi_closed else "lt"] = str(to_fraction(b.hi))
    return doc


def _value(claim: Any, attrs: tuple[str, ...], as_exp: bool, s: Any) -> Any:
    return _text(next(getattr(claim, a) for a in attrs if getattr(claim, a, None) is not None), as_exp, s)


def _text(v: Any, as_exp: bool, s: Any) -> Any:
    """A claim's value (e^value with ``as_exp``) as certificate text, a function of ``s`` or a number."""
    if is_sym(v) and v.free_symbols:
        return poly_text(sympy.exp(v) if as_exp else v, s)
    lam = exp_eps(v) if as_exp else v
    return lam if isinstance(lam, str) else textify(lam)


def _composition_values(claim: Any, s: Any) -> dict:
    """A composition's claimed e^eps_i as functions of the symbol; its delta and delta_i are numbers."""
    if claim.theorem == "renyi":
        raise NoCertificate(_WHY["composition"])
    if any(is_sym(d) and d.free_symbols for d in [claim.delta, *(claim.deltas or ())] if d is not None):
        raise NoCertificate("a composition whose delta depends on the symbol: the checker's deltas are numbers")
    return {} if claim.eps is None else {"eps": [_text(e, True, s) for e in claim.eps]}


def _symbolic_body(claim: Any, an: Any, body: dict, s: Any, sym: dict) -> dict:
    """A numeric certificate body (the claim at a value) with the games and the claim's values
    as functions of the symbol instead."""
    kind = body["claim"]["kind"]
    if kind not in _VALUES:
        raise NoCertificate(_WHY.get(kind, f"{kind} claims with a symbol have no certificate"))
    games = {}
    for name in body["games"]:
        subject = next((x for x in (claim.subject, getattr(claim, "other_subject", "")) if game_label(x) == name), name)
        games[name] = symbolic_game(an.mech(subject), name, s).doc
    values = {k: _value(claim, attrs, ex, s) for k, (attrs, ex) in _VALUES[kind].items()}
    values.update(_composition_values(claim, s) if kind == "composition" else {})
    return {**body, "symbol": sym, "claim": {**body["claim"], **values}, "games": games}


def _numeric(claim: Any, E: Engines, point: dict[str, Fraction]) -> dict:
    body = E.at(claim, point)
    if body is None:
        raise NoCertificate(f"{claim.kind} claims have no certificate yet")
    if "field" in textify({"x": body}):
        raise NoCertificate(
            "a value lies in Q(e^(1/L)) (a decimal eps, or e^q in a bound): the checker's cells hold rational "
            "functions of the symbol"
        )
    return body


def symbolic_certificate(claim: Any, an: Any, holds: bool, E: Engines) -> dict:
    """The certificate body of a claim with a symbol whose verdict is ``status``: a
    ``counterexample`` at its value, or a claim that holds on cells; else :class:`NoCertificate`.
    ``holds``: the claim's verdict."""
    target = claim.target if claim.kind in ("calibrate", "counterexample") else claim
    if getattr(target, "ordered", False):  # (the first reason: no other certificate could stand in)
        raise NoCertificate(ONE_ORDER)
    if claim.kind == "calibrate":
        if not holds:
            raise NoCertificate("a calibration that does not hold: exactdp gives a value where it differs")
        return _cells(claim.target, an, E, *_symbol(an), lambda: _declared(E.facts(claim)["declared"]))
    if claim.kind == "counterexample":
        return _counterexample(claim, an, holds, E)
    if claim.kind not in _VALUES:
        raise NoCertificate(_WHY.get(claim.kind, f"{claim.kind} claims with a symbol have no certificate"))
    name, s, sym = _symbol(an)
    if not holds:
        raise NoCertificate("a claim refuted at a value: certified by a counterexample claim at that value")
    return _cells(claim, an, E, name, s, sym, None)


def _counterexample(claim: Any, an: Any, holds: bool, E: Engines) -> dict:
    """The target claim at the counterexample's value: with the games as functions of the symbol
    (the checker substitutes the value itself) where they can be written so, else the numeric
    games at the value, labelled with it (their fingerprints bind them to the case)."""
    point = {k: to_fraction(v) for k, v in claim.at.items()}
    body = _numeric(claim.target, E, point)
    if body["verdict"] != ("fails" if holds else "holds"):
        raise NoCertificate("the verdict at the value differs from the claim's")  # pragma: no cover
    try:
        name, s, sym = _symbol(an)
        return {**_symbolic_body(claim.target, an, body, s, sym), "at": str(point[name])}
    except NoCertificate:
        return {**body, "at": {k: str(v) for k, v in point.items()}}


def _ends(pieces: Any) -> tuple[list, list]:
    """The rational ends of the pieces inside the domain, and each open piece's (lo, hi, value)."""
    ends, opens = [], []
    for p in pieces:
        (iv,) = p.box
        for a in (iv.lo, iv.hi):
            if a is not None and a.q is None:
                raise NoCertificate(
                    f"a break point is irrational ({iv.text()}): the checker's cells have rational ends"
                )
        lo, hi = (None if a is None else Fraction(int(a.q.p), int(a.q.q)) for a in (iv.lo, iv.hi))
        ends += [e for e in (lo, hi) if e is not None]
        if p.open:
            opens.append((lo, hi, p.value))
    return sorted(set(ends)), opens


def _cell_proof(kind: str, value: Any, s: Any) -> dict:
    """The proof on a cell: e^PrivLoss for ``privloss``; for ``composition`` also the components'
    e^eps_i (the parametric outcome's ``parts``); nothing for the other kinds."""
    if (
        kind == "composition"
        and value.label.startswith("PrivLoss")
        and (value.parts is None or isinstance(value.found, str))
    ):
        raise NoCertificate("a composition whose PrivLoss on a cell the parametric engine does not state")
    if kind == "composition" and value.parts is not None:
        return {"exp_eps": [_ratfun_text(R, s) for R in value.parts], "exp_privloss": _lambda_text(value.found, s)}
    return {"exp_privloss": _lambda_text(value.found, s)} if kind == "privloss" else {}


def _lambda_text(found: Any, s: Any) -> str:
    """e^value of a parametric value log(R) (or "inf") as certificate text."""
    if isinstance(found, str) or not hasattr(found, "R"):
        return "inf"
    if found.k != 1:
        raise NoCertificate("e^PrivLoss is not a rational function of the symbol")  # pragma: no cover
    return _ratfun_text(found.R, s)


def _ratfun_text(R: Any, s: Any) -> str:
    """A rational function of the parametric engine, its coefficients exactly (flint's rationals to SymPy's)."""
    if not hasattr(R, "num"):
        raise NoCertificate("a component's e^eps is infinite on a cell: the theorem gives no bound there")
    num, den = (
        sum((sympy.Rational(int(c.p), int(c.q)) * s ** int(k[0]) for k, c in p.to_dict().items()), sympy.Integer(0))
        for p in (R.num, R.den)
    )
    return poly_text(num / den, s)


def _declared(intervals: Any) -> list[dict]:
    """A calibrated set (intervals with rational ends) as the checker's ``holds_for``."""
    out = []
    for iv in intervals:
        if any(a is not None and a.q is None for a in (iv.lo, iv.hi)):
            raise NoCertificate(
                f"an end of the calibrated set is irrational ({iv.text()}): the checker's cells are rational"
            )
        if iv.lo is not None and iv.hi is not None and iv.lo.q == iv.hi.q:
            raise NoCertificate(
                f"the calibrated set has a single point ({iv.text()}): the checker's sets are unions of intervals "
                "with two different ends"
            )
        d = {}
        if iv.lo is not None:
            d["ge" if iv.lo_closed else "gt"] = str(Fraction(int(iv.lo.q.p), int(iv.lo.q.q)))
        if iv.hi is not None:
            d["le" if iv.hi_closed else "lt"] = str(Fraction(int(iv.hi.q.p), int(iv.hi.q.q)))
        out.append(d)
    return out


def _cells(claim: Any, an: Any, E: Engines, name: str, s: Any, sym: dict, declared: Any = None) -> dict:
    """Cells and points for ``claim`` on the symbol's domain (with ``declared()`` giving
    ``holds_for``: a calibration, the claim holding exactly on that set)."""
    facts = E.facts(claim)
    if "pieces" not in facts:
        raise NoCertificate(
            "decided by certified boxes (a KL or fractional-order Renyi divergence, zCDP or Gaussian DP is transcendental "
            "in the symbol): "
            "there are no exact cells for the checker"
        )
    holds_for = declared() if declared is not None else None
    ends, opens = _ends(facts["pieces"])
    if holds_for is not None:
        if claim.kind == "delta" and any(not p.value.holds for p in facts["pieces"]):
            raise NoCertificate("a delta claim false on an interval: the checker certifies its failure only at a value")
        ends = sorted(set(ends) | {Fraction(v) for d in holds_for for v in d.values()})
    b = an.symbols.bounds[0]
    lo, hi = (None if v is None else to_fraction(v) for v in (b.lo, b.hi))
    if lo is not None and lo == hi:
        raise NoCertificate(f"the bounds allow one value of {name} only ({lo}): the checker's cells are intervals")
    ends = [e for e in ends if (lo is None or e > lo) and (hi is None or e < hi)]
    probe = _numeric(claim, E, {name: _inside(lo, hi)})
    doc = _symbolic_body(claim, an, probe, s, sym)
    points: dict = {}
    for _ in range(MAX_SPLITS):
        bounds = [lo, *ends, hi]
        cells = []
        for a, c in zip(bounds, bounds[1:]):
            value = next(
                v
                for pl, ph, v in opens
                if (pl is None or (a is not None and pl <= a)) and (ph is None or (c is not None and c <= ph))
            )
            cells.append(
                {
                    "from": "-inf" if a is None else str(a),
                    "to": "inf" if c is None else str(c),
                    "proof": _cell_proof(claim.kind, value, s),
                }
            )
        need = [lo] * (lo is not None and b.lo_closed) + ends + [hi] * (hi is not None and b.hi_closed)
        for x in need:
            if x not in points:
                points[x] = {"at": str(x), "proof": textify(_numeric(claim, E, {name: x})["proof"])}
        cert = {**doc, "verdict": "holds", "cells": cells, "points": [points[x] for x in need], "proof": {}}
        if holds_for is not None:
            cert["holds_for"] = holds_for
        change = E.sign_change(textify({"format": FORMAT, "version": VERSION, **cert}))
        if change is None:
            return cert
        poly, a, c = change
        ends = sorted(set(ends) | set(_rational_roots(poly, a, c, name)))
    raise NoCertificate(f"more than {MAX_SPLITS} cuts of the domain")


def _inside(lo: Any, hi: Any) -> Fraction:
    if lo is not None and hi is not None:
        return (lo + hi) / 2
    return lo + 1 if lo is not None else hi - 1 if hi is not None else Fraction(0)


def _rational_roots(poly: tuple, lo: Any, hi: Any, name: str) -> list[Fraction]:
    """The roots of ``poly`` inside (lo, hi), all rational (else :class:`NoCertificate`)."""
    x = sympy.Symbol("x")
    out = []
    for r in sympy.Poly(list(reversed(poly)), x).real_roots():
        if (lo is None or r > lo) and (hi is None or r < hi):
            if not r.is_Rational:
                raise NoCertificate(f"a sign the checker needs changes at an irrational {name} = {r}")
            out.append(Fraction(int(r.p), int(r.q)))
    return out
