r"""Piecewise answers for people and machines: text, JSON, and LaTeX ``cases``.

A piecewise answer (:class:`~exactdp.analysis.parametric.queries.Piecewise`) is a list of
intervals of the symbols with exact endpoints — rationals, or algebraic numbers given by a
closed form for quadratics (``(1 + sqrt(190))/9``) or a minimal polynomial and an isolating
interval — each with a closed form.  Every endpoint also gets a decimal whose printed digits
are all proved.  Symbol and mechanism names from the case file are escaped for each format
(:mod:`exactdp.report.escape`).
"""

from __future__ import annotations

from typing import Any

from ..analysis.parametric import INF, Piece, RatFun, value_text
from ..analysis.parametric.display import ProfileView, Segment, affine_latex, affine_text
from ..analysis.parametric.piecewise import Interval, endpoint_dict
from ..analysis.parametric.queries import Piecewise
from ..analysis.parametric.ratfun import factored_latex
from ..analysis.parametric.values import ExpAffine, LogOf, MaxOf, RenyiSum
from ..analysis.renyi import alpha_str
from ..claims.calibrate import Calibration, box_dict, box_lines, set_text
from ..claims.parametric import Outcome
from ..numbers import ladder
from ..numbers.rational import Q, q_short
from .escape import json_dumps, latex_math, text

__all__ = [
    "piece_line",
    "piece_dict",
    "calibration_interval_dict",
    "point_text",
    "piecewise_lines",
    "piecewise_to_dict",
    "piecewise_latex",
    "profile_lines",
    "profile_to_dict",
    "profile_latex",
    "interval_dict",
    "symbol_latex",
    "value_latex",
    "endpoint_lines",
    "FORMATS",
    "profile_output",
    "privloss_output",
    "delta_output",
    "renyi_output",
    "calibration_output",
]

DIGITS = 16


def symbol_latex(name: str) -> str:
    """A symbol's name in math mode: a single letter as itself, else escaped upright text."""
    return name if len(name) == 1 and name.isascii() and name.isalpha() else latex_math(name)


def _names(pw: Piecewise) -> list[str]:
    return [symbol_latex(n) for n in pw.ring.names]


def value_latex(v: Any, names: list[str], points: list[dict] | None = None) -> str:
    if v is INF:
        return r"\infty"
    if isinstance(v, RatFun):
        return factored_latex(v, names)
    if isinstance(v, LogOf):
        return v.latex(names, points or ())
    if isinstance(v, (ExpAffine, MaxOf, RenyiSum)):
        return v.latex(names)
    return latex_math(str(v))


def cell_points(p: Piece) -> list[dict]:
    """Where the sign of a logarithm's base is read for display (:meth:`Piece.points`)."""
    return p.points()


def interval_dict(iv: Interval) -> dict[str, Any]:
    return {
        "symbol": iv.name,
        "lo": endpoint_dict(iv.lo, iv.name, digits=DIGITS),
        "lo_closed": iv.lo_closed,
        "hi": endpoint_dict(iv.hi, iv.name, digits=DIGITS),
        "hi_closed": iv.hi_closed,
    }


def point_text(pt: dict) -> str:
    """``E = 3/2, p = 1/4``: a point of the symbols (a long coordinate printed short, with a decimal
    reading: its cut digits alone would read as a much larger number)."""
    return ", ".join(f"{k} = {_coordinate(v)}" for k, v in pt.items())


def _coordinate(v: Any) -> str:
    if hasattr(v, "p") and hasattr(v, "q"):  # FLINT's rationals, as the parametric engine holds them
        v = Q(int(v.p), int(v.q))
    short = q_short(v)
    return short if "…" not in short else f"{ladder.decimal(v, 12)} ({short})"


def piece_line(p: Piece) -> str:
    """One piece of a claim's piecewise verdict: where, the closed form, holds or fails."""
    o: Outcome = p.value
    mark = "holds" if o.holds else "fails"
    if getattr(o, "at", None) is not None:
        mark = f"fails in part: at {point_text(o.at)}, where the claim meets a transcendental number inside"
    found = value_text(o.found, cell_points(p)) if o.found is not None else "-"
    return f"{p.text()}: {o.label + ' = ' if o.label else ''}{found}  [{mark}]"


def piece_dict(p: Piece) -> dict[str, Any]:
    """A piece of a piecewise verdict for JSON: the intervals (exact endpoints with decimals)
    and the value."""
    o = p.value
    out: dict[str, Any] = {
        "where": p.text(),
        "intervals": [
            {
                "symbol": iv.name,
                "lo": endpoint_dict(iv.lo, iv.name),
                "lo_closed": iv.lo_closed,
                "hi": endpoint_dict(iv.hi, iv.name),
                "hi_closed": iv.hi_closed,
            }
            for iv in p.box
            if not iv.whole
        ],
    }
    if isinstance(o, Outcome):
        out["holds"] = o.holds
        if o.at is not None:
            out["fails_at"] = {k: str(v) for k, v in o.at.items()}
        out["value"] = value_text(o.found, cell_points(p))
        if o.label:
            out["quantity"] = o.label
    else:
        out["value"] = value_text(o, cell_points(p))
    return out


def calibration_interval_dict(iv: Interval) -> dict[str, Any]:
    """An interval of a calibration's answer for JSON (exact endpoints with decimals, and as text)."""
    return {
        "lo": endpoint_dict(iv.lo, iv.name),
        "lo_closed": iv.lo_closed,
        "hi": endpoint_dict(iv.hi, iv.name),
        "hi_closed": iv.hi_closed,
        "text": iv.text(),
    }


def _where(p: Piece) -> str:
    return text(p.text())


def endpoint_lines(p: Piece, *, digits: int = DIGITS, rationals: bool = False) -> list[str]:
    """``(1 + sqrt(190))/9 ≈ 1.642672083565580 (root of 9*E^2 - 2*E - 21 in (1, 2))`` for each
    irrational endpoint of the piece (and, with ``rationals``, ``11/9 ≈ 1.222…`` for each
    rational one that is not a whole number)."""
    out = []
    for iv in p.box:
        for a in (iv.lo, iv.hi) if not iv.is_point() else (iv.lo,):
            if a is None or (a.q is not None and (not rationals or a.q.q == 1)):
                continue
            d = endpoint_dict(a, iv.name, digits=digits)
            assert d is not None
            if a.q is not None:
                out.append(text(f"{d['exact']} ≈ {d['decimal']}"))
                continue
            if d["kind"] == "enclosure":
                lo, hi = d["enclosure"]
                out.append(
                    text(
                        f"{d['decimal']}...{' is transcendental' if d.get('transcendental', True) else ''}: the root of "
                        f"{d['equation']} in [{lo}, {hi}] (certified signs at both ends, monotone between; "
                        f"{len(d['decimal'].replace('.', '').lstrip('0'))} digits proved"
                        f"{')' if d.get('transcendental', True) else '; not proved irrational)'}"
                    )
                )
                continue
            lo, hi = d["isolating_interval"]
            out.append(text(f"{d['exact']} ≈ {d['decimal']} (root of {d['minimal_polynomial']} in ({lo}, {hi}))"))
    return list(dict.fromkeys(out))


def _n(k: int, what: str) -> str:
    return f"{k} {what}{'' if k == 1 else 's'}"


def piecewise_lines(pw: Piecewise, lhs: str) -> list[str]:
    """``lhs = value`` on each piece, one line each, then the irrational endpoints."""
    out = [text(f"{lhs}, for every value: {pw.domain_text()} (exact; {_n(len(pw.pieces), 'piece')})")]
    width = max((len(_where(p)) for p in pw.pieces), default=0)
    ends: list[str] = []
    for p in pw.pieces:
        out.append(f"  {_where(p):<{width}}  {text(value_text(p.value, cell_points(p)))}")
        ends += endpoint_lines(p)
    for e in dict.fromkeys(ends):
        out.append(f"  where {e}")
    return out


def piecewise_to_dict(pw: Piecewise, **head: Any) -> dict[str, Any]:
    """JSON: the pieces with exact endpoints (and decimals) and the closed form on each."""
    return {
        **head,
        "symbols": pw.domain_text(),
        "cells": pw.cells,
        "pieces": [
            {
                "where": p.text(),
                "intervals": [interval_dict(iv) for iv in p.box if not iv.whole],
                "value": value_text(p.value, cell_points(p)),
            }
            for p in pw.pieces
        ],
    }


def _cond_latex(p: Piece, names: dict[str, str]) -> str:
    parts = [iv.latex(names[iv.name]) for iv in p.box if not iv.whole]
    return ", ".join(parts) if parts else r"\text{always}"


def piecewise_latex(pw: Piecewise, lhs: str) -> str:
    r"""``lhs = \begin{cases} ... \end{cases}`` (``lhs`` is LaTeX already)."""
    names = _names(pw)
    nm = dict(zip(pw.ring.names, names))
    rows = [rf"  {value_latex(p.value, names, cell_points(p))} & \text{{if }} {_cond_latex(p, nm)}" for p in pw.pieces]
    return lhs + " = \\begin{cases}\n" + " \\\\\n".join(rows) + "\n\\end{cases}"


# --- the profile ------------------------------------------------------------------------------


def _seg_range(s: Segment) -> str:
    lo = value_text(s.lo)
    return f"e^eps >= {lo}" if s.hi is INF else f"{lo} <= e^eps <= {value_text(s.hi)}"


def _seg_lines(segs: tuple[Segment, ...], indent: str) -> list[str]:
    out = []
    width = max(len(_seg_range(s)) for s in segs)
    for s in segs:
        out.append(f"{indent}{text(_seg_range(s)):<{width}}  delta = {text(affine_text(s.A, s.B))}")
    return out


def profile_lines(name: str, pw: Piecewise[ProfileView], *, pairs: bool = True) -> list[str]:
    """The piecewise profile: for each piece of the symbols' domain, δ(e^ε) = A − B·e^ε between
    breakpoints, for the envelope (max over adjacent pairs) and each ordered pair."""
    out = [
        text(f"privacy profile of {name}: delta(e^eps) for e^eps >= 1, for every value: {pw.domain_text()}"),
        f"  (exact; {_n(len(pw.pieces), 'piece')} of the symbols' domain, {_n(pw.cells, 'cell')})",
    ]
    for p in pw.pieces:
        v: ProfileView = p.value
        out.append(f"  where {_where(p)}:")
        out.append("    max over adjacent pairs:")
        out += _seg_lines(v.envelope, "      ")
        if pairs:
            for (a, b), segs in v.pairs:
                out.append(text(f"    pair ({a}, {b}):"))
                out += _seg_lines(segs, "      ")
        for e in endpoint_lines(p):
            out.append(f"    ({e})")
    return out


def _seg_dict(s: Segment) -> dict[str, Any]:
    return {
        "from": value_text(s.lo),
        "to": "inf" if s.hi is INF else value_text(s.hi),
        "delta": affine_text(s.A, s.B),
        "A": value_text(s.A),
        "B": value_text(s.B),
    }


def profile_to_dict(name: str, pw: Piecewise[ProfileView]) -> dict[str, Any]:
    """JSON: per piece of the domain, the envelope's and every pair's segments
    (δ = A − B·e^ε from ``from`` to ``to``)."""
    return {
        "mechanism": name,
        "symbols": pw.domain_text(),
        "cells": pw.cells,
        "pieces": [
            {
                "where": p.text(),
                "intervals": [interval_dict(iv) for iv in p.box if not iv.whole],
                "envelope": [_seg_dict(s) for s in p.value.envelope],
                "pairs": [
                    {"pair": list(names), "segments": [_seg_dict(s) for s in segs]} for names, segs in p.value.pairs
                ],
            }
            for p in pw.pieces
        ],
    }


def profile_latex(name: str, pw: Piecewise[ProfileView]) -> str:
    r"""The envelope as ``\delta_{M}(e^{\varepsilon}) = \begin{cases} … \end{cases}``, one row
    per segment and piece of the domain."""
    names = _names(pw)
    nm = dict(zip(pw.ring.names, names))
    lam = r"e^{\varepsilon}"
    rows = []
    for p in pw.pieces:
        cond = _cond_latex(p, nm)
        for s in p.value.envelope:
            lo = value_latex(s.lo, names)
            rng = rf"{lam} \ge {lo}" if s.hi is INF else rf"{lo} \le {lam} \le {value_latex(s.hi, names)}"
            rows.append(rf"  {affine_latex(s.A, s.B, names)} & \text{{if }} {rng},\ {cond}")
    lhs = rf"\delta_{{{latex_math(name)}}}({lam})"
    return lhs + " = \\begin{cases}\n" + " \\\\\n".join(rows) + "\n\\end{cases}"


# --- whole answers, as the commands print them -------------------------------------------------

FORMATS = ("text", "json", "latex")  # the ``fmt`` of the functions below


def _output(pw: Piecewise, fmt: str, text_lhs: str, latex_lhs: str, **head: Any) -> str:
    if fmt == "json":
        return json_dumps(piecewise_to_dict(pw, **head))
    if fmt == "latex":
        return piecewise_latex(pw, latex_lhs)
    return "\n".join(piecewise_lines(pw, text(text_lhs)))


def profile_output(name: str, pw: Piecewise[ProfileView], fmt: str, *, pairs: bool = True) -> str:
    """The piecewise privacy profile of mechanism ``name`` (``exactdp profile``), in ``fmt``."""
    if fmt == "json":
        return json_dumps(profile_to_dict(name, pw))
    return profile_latex(name, pw) if fmt == "latex" else "\n".join(profile_lines(name, pw, pairs=pairs))


def privloss_output(name: str, delta: str, pw: Piecewise, fmt: str) -> str:
    """PrivLoss(``name``, ``delta``) piecewise (``exactdp privloss``), in ``fmt``."""
    latex_lhs = rf"\mathrm{{PrivLoss}}({latex_math(name)}, {latex_math(delta)})"
    return _output(pw, fmt, f"PrivLoss({name}, {delta})", latex_lhs, mechanism=name, delta=delta, quantity="privloss")


def delta_output(name: str, eps: str, pw: Piecewise, fmt: str) -> str:
    """delta_M(e^eps) piecewise (``exactdp delta``), in ``fmt``."""
    latex_lhs = rf"\delta_{{{latex_math(name)}}}(e^{{{latex_math(eps)}}})"
    return _output(pw, fmt, f"delta_{name}(e^({eps}))", latex_lhs, mechanism=name, eps=eps, quantity="delta")


def renyi_output(name: str, results: list[tuple[Any, Piecewise]], fmt: str) -> str:
    """D_alpha(M) piecewise for each (alpha, answer) (``exactdp renyi``), in ``fmt``: one JSON
    document for every order, else one answer after the other."""
    if fmt == "json":
        values = [piecewise_to_dict(pw, alpha=alpha_str(a), quantity="renyi") for a, pw in results]
        return json_dumps({"mechanism": name, "values": values})
    out = []
    for a, pw in results:
        if fmt == "latex":
            out.append(piecewise_latex(pw, rf"D_{{{alpha_str(a)}}}({latex_math(name)})"))
        else:
            out.extend(piecewise_lines(pw, text(f"D_{alpha_str(a)}({name})")))
    return "\n".join(out)


def calibration_output(name: str, target: str, cal: Calibration, fmt: str, *, digits: int = DIGITS) -> str:
    """Where the claim ``target`` holds, as a union of intervals of a symbol with exact endpoints
    (``exactdp calibrate``), in ``fmt``; each irrational end with ``digits`` proved decimals.  A set
    found by certified boxes (zCDP, Gaussian DP) is given as what they proved, with its gaps."""
    if cal.boxes is not None and fmt != "latex":
        if fmt == "json":
            doc = {"mechanism": name, "target": target, "symbol": cal.symbol, "domain": cal.domain.describe()}
            return json_dumps({**doc, **box_dict(cal)})
        return "\n".join(text(line) for line in box_lines(cal, target))
    if fmt == "json":
        ivs = []
        for iv in cal.intervals:
            d = interval_dict(iv)
            for end in ("lo", "hi"):
                if d[end] is not None:
                    d[end] = endpoint_dict(getattr(iv, end), iv.name, digits=digits)
            d["text"] = iv.text()
            ivs.append(d)
        doc = {"mechanism": name, "target": target, "symbol": cal.symbol, "domain": cal.domain.describe()}
        return json_dumps({**doc, "holds_for": ivs, "cells": cal.cells})
    if fmt == "latex":
        n = symbol_latex(cal.symbol)
        held = r" \;\vee\; ".join(iv.latex(n) for iv in cal.intervals) or r"\text{never}"
        if cal.boxes is not None:  # proved to hold there; each boundary's proved digits
            held += "".join(rf" \quad ({n} \approx {g.decimal}\ldots)" for g in cal.gaps() if g.decimal is not None)
        return held
    lines = [text(f"{target} holds exactly where: {set_text(cal.intervals, cal.symbol)}")]
    lines.append(text(f"  (over {cal.domain.describe()}; {cal.cells} cells decided exactly)"))
    ends = endpoint_lines(Piece(tuple(cal.intervals), None, []), digits=digits, rationals=True)  # type: ignore[arg-type]
    return "\n".join(lines + [f"  where {line}" for line in ends])
