r"""The plotting API: ``plot_profile``, ``plot_tradeoff``, ``plot_renyi`` (matplotlib extra).

Each function draws one or several mechanisms (and bounds) on a matplotlib ``Axes`` and returns
it, so a notebook shows the figure and a paper's script styles it further.  The curves are
computed exactly first (:class:`~exactdp.report.plot.Curve`: the exact breakpoints of a privacy
profile, the exact vertices of a trade-off function, the exact D_α); only drawing converts
them to floats.  ``exactdp plot`` and the HTML report draw through these functions too (one
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

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..analysis.engine import Engine, make_engine
from ..analysis.renyi import RENYI_ORDERS, RenyiCurve, renyi_curve
from ..analysis.results import Profile
from ..analysis.tradeoff import Tradeoff
from ..model.checks import mechanism_arg
from ..model.game import Mechanism
from ..numbers import kinds as K
from ..numbers import ladder
from ..numbers.rational import Q, q_str
from ..theorems import Bound
from .escape import mpl
from .plot import KINDS, Curve, PlotData, dp_bound_curve, profile_curve, pyplot_axes
from .plotdata import exact_lambda

__all__ = ["plot_profile", "plot_tradeoff", "plot_renyi", "PLOTTERS", "curves_of", "decorate", "new_axes"]

FIGSIZE = {"profile": (6.4, 4.6), "region": (5.6, 5.6), "renyi": (6.4, 4.6)}


def _items(x: Any) -> list[tuple[str | None, Any]]:
    """(label or None, item) for one item, a list of items or a ``{label: item}`` mapping."""
    if isinstance(x, Mapping):
        return [(str(k), v) for k, v in x.items()]
    if isinstance(x, (list, tuple)) and not _is_eps_delta(x):
        return [(None, v) for v in x]
    return [(None, x)]


def _is_eps_delta(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and not any(isinstance(v, (Mechanism, Profile, Curve)) for v in x)


def _engine(engine: str | Engine) -> Engine:
    return make_engine(engine) if isinstance(engine, str) else engine


def _as_profile_curve(label: str | None, item: Any, engine: Engine, call: str) -> Curve:
    if isinstance(item, Curve):
        return item if label is None else replace(item, label=label)
    if isinstance(item, Profile):
        return profile_curve(label or item.mechanism, item)
    if isinstance(item, Tradeoff):
        return Curve(label or item.label, [], Q(0), chain=[(a, 1 - b) for a, b in item.vertices])
    if isinstance(item, Bound):
        return dp_bound_curve(
            label or f"{item.theorem}: ({ladder.text(item.eps)}, {q_str(item.delta)})-DP",
            exact_lambda(item.eps),
            item.delta,
        )
    if _is_eps_delta(item):
        from ..builders.params import read_eps, read_rational

        eps = read_eps(item[0], call=call, name="eps of a bound")
        try:
            delta = K.delta(
                read_rational(item[1], call=call, name="delta of a bound"), what=f"{call}: delta of a bound"
            )
        except K.QuantityError as e:
            raise ValueError(e.text()) from None
        return dp_bound_curve(label or f"({ladder.text(eps)}, {q_str(delta)})-DP", exact_lambda(eps), delta)
    mech = mechanism_arg(item, call, "mechanisms")
    return profile_curve(label or mech.name, engine.profile(mech))


def _as_renyi_curve(label: str | None, item: Any, engine: Engine, alphas: Sequence[int], call: str) -> Curve:
    if isinstance(item, Curve):
        return item if label is None else replace(item, label=label)
    if not isinstance(item, RenyiCurve):
        item = renyi_curve(mechanism_arg(item, call, "mechanisms"), alphas, engine=engine)
    return Curve(label or item.mechanism, [], Q(0), renyi=item.points)


def curves_of(
    kind: str,
    items: Any,
    *,
    bound: bool = False,
    engine: str | Engine = "profile",
    alphas: Sequence[int] = RENYI_ORDERS,
) -> list[Curve]:
    """The exact curves of ``items`` for a plot of ``kind`` (``profile``, ``region`` or
    ``renyi``), drawn as bounds if ``bound``."""
    eng = _engine(engine)
    call = {"profile": "plot_profile", "region": "plot_tradeoff", "renyi": "plot_renyi"}[kind]
    out = []
    for label, item in _items(items):
        if kind == "renyi":
            c = _as_renyi_curve(label, item, eng, alphas, call)
        else:
            c = _as_profile_curve(label, item, eng, call)
        out.append(replace(c, bound=bound or c.bound))
    return out


def new_axes(kind: str) -> Any:
    """A new pyplot figure's Axes, sized for ``kind`` (pyplot, so that a notebook shows it)."""
    return pyplot_axes(FIGSIZE[kind])


def decorate(ax: Any, kind: str, title: str = "", subtitle: str = "") -> None:
    """Grid, legend and a wrapped title (case-file text escaped for matplotlib)."""
    ax.grid(True, color="#E0E0E0", linewidth=0.6)
    ax.legend(loc="lower right" if kind == "renyi" else "upper right", fontsize=8, frameon=True)
    # escape first (a newline in the case file stays visible), then wrap to the figure's width
    width = 64 if kind == "region" else 76
    lines = textwrap.wrap(mpl(title), width) + textwrap.wrap(mpl(subtitle), width + 8)
    if lines:
        ax.set_title("\n".join(lines[:4]), fontsize=8.5)


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
