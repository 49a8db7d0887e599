r"""The plotting API: ``plot_profile``, ``plot_tradeoff``, ``plot_renyi`` (matplotlib extra).

Each function draws one or several mechanisms (and bounds) on a matplotlib ``Axes`` and returns
it, so a notebook shows the figure and a paper's script styles it further.  The curves are
computed exactly first, by :func:`exactdp.figures.curves_of` (the exact breakpoints of a
privacy profile, the exact vertices of a trade-off function, the exact D_α: the report layer
runs no engine); only drawing converts them to floats.  ``exactdp plot`` and the HTML report draw through these functions too (one
implementation).

What a function takes, one item or a list, or a ``{label: item}`` mapping:

* ``plot_profile``: mechanisms and :class:`~exactdp.analysis.results.Profile`\ s; bounds as
  ``(eps, delta)`` pairs (the largest profile of any (ε, δ)-DP mechanism: RR_(ε,δ)'s,
  Kairouz–Oh–Viswanath 2015, Thm 2.4), composition-theorem results
  (:class:`~exactdp.theorems.Bound`), or mechanisms and profiles drawn as bounds;
* ``plot_tradeoff``: the same, plus :class:`~exactdp.analysis.tradeoff.Tradeoff`\ s (Dong–Roth–Su
  2022, Def. 2.1);
* ``plot_renyi``: mechanisms and :class:`~exactdp.analysis.renyi.RenyiCurve`\ s (Mironov 2017,
  Def. 3); bounds likewise.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..analysis.engine import Engine
from ..analysis.renyi import RENYI_ORDERS
from ..figures import PlotData, curves_of
from .plot import FIGSIZE, KINDS, decorate, pyplot_axes

__all__ = ["plot_profile", "plot_tradeoff", "plot_renyi", "PLOTTERS", "curves_of", "decorate", "new_axes"]


def new_axes(kind: str) -> Any:
    """A new pyplot figure's Axes, sized for ``kind`` (pyplot, so that a notebook shows it)."""
    return pyplot_axes(FIGSIZE[kind])


def _plot(
    kind: str,
    mechanisms: Any,
    bounds: Any,
    ax: Any,
    engine: str | Engine,
    title: str,
    subtitle: str,
    alphas: Sequence[int] = RENYI_ORDERS,
) -> Any:
    curves = curves_of(kind, mechanisms, engine=engine, alphas=alphas)
    if bounds is not None and not (isinstance(bounds, (list, tuple)) and not bounds):
        curves += curves_of(kind, bounds, bound=True, engine=engine, alphas=alphas)
    own = ax is None
    if own:
        ax = new_axes(kind)
    KINDS[kind](ax, PlotData(curves, title, subtitle))
    decorate(ax, kind, title, subtitle)
    if own:
        ax.figure.tight_layout()
    return ax


def plot_profile(
    mechanisms: Any,
    *,
    bounds: Any = (),
    ax: Any = None,
    engine: str | Engine = "profile",
    title: str = "",
    subtitle: str = "",
) -> Any:
    r"""Draw the exact privacy profiles :math:`\delta(\varepsilon)`, :math:`\varepsilon \ge 0`, of
    ``mechanisms`` (and ``bounds``).

    Parameters
    ----------
    mechanisms : Mechanism, Profile, or a list or ``{label: ...}`` mapping of them
        Each is drawn with its exact breakpoints marked (Vadhan–Wang 2021, Def. 1.7).
    bounds : optional
        ``(eps, delta)`` pairs (the largest profile of an :math:`(\varepsilon, \delta)`-DP mechanism,
        that of :math:`\mathrm{RR}_{\varepsilon,\delta}`), composition-theorem results
        (``exactdp.theorems.Bound``), mechanisms or profiles, drawn wide and grey underneath.
    ax : matplotlib Axes, optional
        Where to draw (default: a new figure).
    engine : str or Engine, optional (default = ``"profile"``)
    title, subtitle : str, optional

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    MissingExtraError
        matplotlib is not installed (``pip install 'exactdp[plot]'``).

    Examples
    --------
    >>> import exactdp
    >>> ax = exactdp.plot_profile([exactdp.rr(eps="log(3)"), exactdp.rr(eps="log(2)")], bounds=[("log(3)", "1/10")])
    >>> [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
    ['RR', 'RR', '(log(3), 1/10)-DP']
    """
    return _plot("profile", mechanisms, bounds, ax, engine, title, subtitle)


def plot_tradeoff(
    mechanisms: Any,
    *,
    bounds: Any = (),
    ax: Any = None,
    engine: str | Engine = "profile",
    title: str = "",
    subtitle: str = "",
) -> Any:
    r"""Draw the exact trade-off functions :math:`\beta(\alpha)` of ``mechanisms`` (and ``bounds``)
    with their vertices marked: type I error :math:`\alpha` against type II error :math:`\beta` of
    the best test between adjacent datasets (Dong–Roth–Su 2022, Def. 2.1; the boundary of the
    privacy region, Kairouz–Oh–Viswanath 2015, Thm 2.4).

    Takes what :func:`plot_profile` takes, and :class:`~exactdp.analysis.tradeoff.Tradeoff`
    objects (``exactdp.envelope_tradeoff(profile)``).  Returns the matplotlib Axes.
    """
    return _plot("region", mechanisms, bounds, ax, engine, title, subtitle)


def plot_renyi(
    mechanisms: Any,
    *,
    bounds: Any = (),
    alphas: Sequence[int] = RENYI_ORDERS,
    ax: Any = None,
    engine: str | Engine = "profile",
    title: str = "",
    subtitle: str = "",
) -> Any:
    r"""Draw the exact Rényi divergences :math:`D_\alpha` of ``mechanisms`` against the order
    :math:`\alpha` (1 is the KL divergence), with :math:`D_\infty = \mathrm{PrivLoss}(M, 0)` as a
    dotted asymptote (Mironov 2017, Def. 3).

    ``mechanisms`` and ``bounds`` are mechanisms or :class:`~exactdp.analysis.renyi.RenyiCurve`
    objects (``exactdp.renyi_curve(M)``), one or a list or a ``{label: ...}`` mapping;
    ``alphas`` are the integer orders computed for mechanisms.  Returns the matplotlib Axes.
    """
    return _plot("renyi", mechanisms, bounds, ax, engine, title, subtitle, alphas)


PLOTTERS: dict[str, Callable[..., Any]] = {"profile": plot_profile, "region": plot_tradeoff, "renyi": plot_renyi}
