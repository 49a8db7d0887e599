"""One mechanism at a time, as ``exactdp privloss``, ``profile`` and ``info`` print it."""

from __future__ import annotations

import textwrap
from typing import Any

from ..analysis.results import format_privloss, value_str
from ..analysis.witness import Witness
from ..model.symbolic import symbols_of
from ..numbers import ladder
from ..numbers.rational import q_str
from .escape import json_dumps, text
from .jsonout import dumps, witness_to_dict
from .text import WITNESS_LEGEND, render_witness

__all__ = [
    "delta_doc",
    "fingerprint_output",
    "delta_lines",
    "privloss_doc",
    "privloss_lines",
    "profile_lines",
    "info_doc",
    "info_lines",
    "info_output",
    "adversaries_text",
    "fingerprint_lines",
]


def privloss_doc(name: str, delta: Any, value: Any, lam: Any, engine: str, w: Witness | None) -> dict:
    """The ``--json`` document of ``exactdp privloss`` (``lam`` = e^value, the least λ)."""
    return {
        "mechanism": name,
        "delta": q_str(delta),
        "privloss": ladder.text(value),
        "exp_privloss": ladder.text(lam),
        "engine": engine,
        "witness": witness_to_dict(w) if w is not None else None,
    }


def privloss_lines(name: str, delta: Any, value: Any, w: Witness | None) -> list[str]:
    """``PrivLoss(M, 0) = log(3) ≈ 1.09861``, and the tight adversary with the legend."""
    lines = [f"PrivLoss({text(name)}, {q_str(delta)}) = {format_privloss(value)}"]
    if w is not None:
        lines.append("  tightness certificate (every smaller eps fails):")
        lines.extend(render_witness(w, indent="  "))
        lines.extend(textwrap.wrap(f"({WITNESS_LEGEND})", width=100, initial_indent="  ", subsequent_indent="   "))
    return lines


def profile_lines(name: str, d: dict, *, pairs: bool = True) -> list[str]:
    """The breakpoints of the envelope and (``pairs``) of every ordered adjacent pair."""
    lines = [f"privacy profile of {text(name)}: delta(e^eps) for e^eps >= 1 (exact; linear between breakpoints)"]
    blocks = [(d["envelope"], "max over adjacent pairs")]
    if pairs:
        blocks += [(p, f"pair ({p['pair'][0]}, {p['pair'][1]})") for p in d["pairs"]]
    for block, title in blocks:
        lines.append(f"  {text(title)}:")
        lines.extend(f"    e^eps = {lam:<24} delta = {dl}" for lam, dl in block["breakpoints"])
        lines.append(f"    e^eps -> inf{'':<17} delta -> {block['limit']}")
    return lines


def adversaries_text(n: int) -> str:
    """A count of deterministic adversaries; a saturated count prints itself."""
    return str(n) if n < 10**15 or type(n) is not int else f"about 10^{len(str(n)) - 1}"


def info_doc(name: str, mech: Any, stats: dict, n: int, engine: str, supported: bool) -> dict:
    """The ``--json`` document of ``exactdp info``."""
    return {
        "mechanism": name,
        "datasets": list(mech.datasets),
        "adjacent": [list(mech.pair_names(p)) for p in mech.adjacent],
        "stats": dict(stats),
        "deterministic_adversaries": adversaries_text(n),
        "engine": engine,
        "engine_supports": supported,
        "symbols": list(symbols_of(mech)),
    }


def info_lines(doc: dict, max_strategies: int) -> list[str]:
    """The text of ``exactdp info``: datasets and pairs, the game's size, the adversaries."""
    pairs = ", ".join(f"({a}, {b})" for a, b in doc["adjacent"])
    lines = [text(f"{doc['mechanism']}: datasets {', '.join(doc['datasets'])}; adjacent " + pairs)]
    lines.extend(f"  {k.replace('_', ' ')}: {v}" for k, v in doc["stats"].items())
    lines.append(f"  deterministic adversaries: {doc['deterministic_adversaries']}")
    engine, supported = doc["engine"], doc["engine_supports"]
    if doc.get("symbols"):  # the numeric engines need numbers; the parametric engine does not
        names = ", ".join(doc["symbols"])
        lines.append(
            text(
                f"  its probabilities depend on the symbols {names}: the {engine} engine needs numbers; the claims "
                "of a case and the commands verify, profile, privloss, delta, renyi, zcdp, plot, calibrate and simulate "
                "decide it for every value of the symbols"
            )
        )
        return lines
    why = (
        ""
        if supported or engine != "enumerator"
        else f" (more than --max-strategies {max_strategies} adversaries, or symbolic)"
    )
    lines.append(f"  the {engine} engine {'can' if supported else 'cannot'} analyse it{why}")
    return lines


def info_output(doc: dict, *, as_json: bool, quiet: bool, max_strategies: int) -> str:
    """What ``exactdp info`` prints: the ``--json`` document, with ``quiet`` the number of
    adversaries only, else :func:`info_lines`."""
    if as_json:
        return dumps(doc)
    return str(doc["deterministic_adversaries"]) if quiet else "\n".join(info_lines(doc, max_strategies))


def fingerprint_output(case_path: str, prints: dict[str, str], missing: list[tuple[str, str]], as_json: bool) -> str:
    """``exactdp info --fingerprint``: the lines below, or with ``as_json`` one JSON document
    (``case``, ``fingerprints`` by game name, ``missing``: the reason for each game without one)."""
    if as_json:
        return json_dumps({"case": case_path, "fingerprints": prints, "missing": dict(missing)})
    return "\n".join(fingerprint_lines(case_path, prints, missing))


def fingerprint_lines(case_path: str, prints: dict[str, str], missing: list[tuple[str, str]]) -> list[str]:
    """``exactdp info --fingerprint``: the checker's SHA-256 of each game of the case, then the
    games that have none, with the reason."""
    out = [f"game fingerprints of {text(case_path)} (the checker prints the same SHA-256 for the game it checked):"]
    out += [f"  {text(name)}: sha256 {digest}" for name, digest in prints.items()]
    return out + [f"  {text(name)}: no fingerprint ({text(why)})" for name, why in missing]


def delta_doc(name: str, eps_text: str, value: Any, engine: str) -> dict:
    """The ``--json`` document of ``exactdp delta`` for a mechanism without symbols."""
    return {"mechanism": name, "eps": eps_text, "delta": value_str(value), "engine": engine}


def delta_lines(name: str, eps_text: str, value: Any, *, quiet: bool = False) -> list[str]:
    """``delta_M(e^(log(2))) = 1/4`` (with ``quiet``, the value only)."""
    shown = value_str(value)
    return [shown if quiet else text(f"delta_{name}(e^({eps_text})) = {shown}")]
