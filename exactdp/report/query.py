"""The answers of :mod:`exactdp.analysis.query` as ``exactdp privloss``, ``profile``, ``delta``
and ``renyi`` print them, in ``fmt`` (``text``, ``json``, or ``latex`` for an answer piecewise in
the symbols): a piecewise answer by :mod:`exactdp.report.parametric`, an exact one by
:mod:`exactdp.report.inspect` and :mod:`exactdp.report.renyi_fdp`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..analysis.query import is_piecewise
from ..analysis.tradeoff import dominating_pair
from ..numbers import ladder
from . import parametric
from .inspect import delta_doc, delta_lines, privloss_doc, privloss_lines, profile_lines
from .jsonout import dumps, profile_to_dict
from .renyi_fdp import dominating_pair_lines, dominating_pair_to_dict, renyi_any_doc, renyi_any_lines

__all__ = ["privloss_text", "profile_text", "delta_text", "renyi_text"]


def _exact(fmt: str, doc: Any, lines: Any) -> str:
    """``doc()`` as JSON for ``fmt == "json"``, else the text ``lines()`` (only one is made)."""
    return dumps(doc()) if fmt == "json" else "\n".join(lines())


def privloss_text(
    name: str, delta_text: str, delta: Any, answer: Any, fmt: str, engine: str, *, quiet: bool = False
) -> str:
    """PrivLoss(``name``, delta); ``quiet``: the exact value only (not with JSON)."""
    if is_piecewise(answer):
        return parametric.privloss_output(name, delta_text, answer, fmt)
    val, lam, w = answer
    if quiet and fmt != "json":
        return ladder.text(val)
    return _exact(
        fmt, lambda: privloss_doc(name, delta, val, lam, engine, w), lambda: privloss_lines(name, delta, val, w)
    )


def profile_text(name: str, answer: Any, fmt: str, *, pairs: bool = True, dominating: bool = False) -> str:
    """The privacy profile of ``name``: the envelope and (``pairs``) every ordered adjacent pair;
    ``dominating``: instead, finite (P, P') with the same profile as the exact envelope
    (:func:`~exactdp.analysis.tradeoff.dominating_pair`, Zhu-Dong-Wang 2022)."""
    if is_piecewise(answer):
        return parametric.profile_output(name, answer, fmt, pairs=pairs)
    if dominating:
        dp = dominating_pair_to_dict(answer.mechanism, *dominating_pair(answer.envelope))
        return _exact(fmt, lambda: dp, lambda: dominating_pair_lines(dp))
    d = profile_to_dict(answer)
    return _exact(fmt, lambda: d, lambda: profile_lines(name, d, pairs=pairs))


def delta_text(name: str, eps_text: str, answer: Any, fmt: str, engine: str, *, quiet: bool = False) -> str:
    """delta_``name``(e^eps); ``quiet``: the exact value only."""
    if is_piecewise(answer):
        return parametric.delta_output(name, eps_text, answer, fmt)
    return _exact(
        fmt, lambda: delta_doc(name, eps_text, answer, engine), lambda: delta_lines(name, eps_text, answer, quiet=quiet)
    )


def renyi_text(name: str, answers: Sequence[tuple[Any, Any]], fmt: str, engine: str, witnesses: list) -> str:
    """D_alpha(``name``) for each ``(alpha, answer)``, with the exact answers' ``witnesses``."""
    if answers and is_piecewise(answers[0][1]):
        return parametric.renyi_output(name, list(answers), fmt)
    results = [r for _, r in answers]
    return _exact(
        fmt,
        lambda: renyi_any_doc(name, engine, results, witnesses),
        lambda: renyi_any_lines(name, results, witnesses),
    )
