"""How a verdict reads: the text, notes and machine-readable values of every claim kind.

Claims return exact values (:attr:`~exactdp.claims.Verdict.facts`); this module is the one
place that turns them into words and numbers as text, per claim kind (:data:`RENDERERS`, keyed
by the claim's kind; a claim class without an entry of its own reads like its parent).  Every
output of a verdict uses it: the text report, ``--json``, the HTML report, the sweep table, CSV
and plot, and the pytest plugin.  :func:`value_text` writes a claim's declared value
(:meth:`~exactdp.claims.Claim.shown`), the one number a sweep shows per claim.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..analysis.gdp import Enclosure
from ..analysis.results import format_privloss, value_str
from ..claims import Status, Verdict
from ..lazy import deferred, load
from ..numbers import ladder
from ..numbers.ladder import is_inf
from ..numbers.rational import is_rational, q_str

if TYPE_CHECKING:
    from ..theorems.registry import Theorem

# start-up: the words of a claim family come with the family's modules, imported when a verdict
# of that family is first rendered (a case of privloss and dp claims needs none of them)
endpoint_dict = deferred("exactdp.analysis.parametric.piecewise:endpoint_dict")
alpha_str = deferred("exactdp.analysis.renyi:alpha_str")
enclosure_interval = deferred("exactdp.analysis.renyi_certified:enclosure_text")
set_text = deferred("exactdp.claims.calibrate:set_text")
box_lines = deferred("exactdp.claims.calibrate:box_lines")
box_dict = deferred("exactdp.claims.calibrate:box_dict")
mu_text = deferred("exactdp.claims.fdp:mu_text")
readable = deferred("exactdp.claims.renyi:readable")
rho_text = deferred("exactdp.claims.renyi:rho_text")
rho_str = deferred("exactdp.claims.renyi:rho_str")
interval_text = deferred("exactdp.theorems.advanced:interval_text")
calibration_interval_dict = deferred("exactdp.report.parametric:calibration_interval_dict")
piece_dict = deferred("exactdp.report.parametric:piece_dict")
piece_line = deferred("exactdp.report.parametric:piece_line")
point_text = deferred("exactdp.report.parametric:point_text")
outcome_details = deferred("exactdp.report.simulate:outcome_details")
outcome_values = deferred("exactdp.report.simulate:outcome_values")


def theorem(name: str) -> Theorem:
    """The composition theorem registered as ``name`` (:mod:`exactdp.theorems.registry`)."""
    return load("exactdp.theorems.registry:theorem")(name)


def _source(name: str) -> Any:
    """Where the named bound ``name`` is proven (:data:`exactdp.theorems.named.NAMED`)."""
    return load("exactdp.theorems.named:NAMED")[name].source


__all__ = [
    "Shown",
    "RENDERERS",
    "renderer_of",
    "shown",
    "value_text",
    "claim_labels",
    "label_words",
    "status_text",
    "STATUS_TEXT",
    "number_text",
    "approx_text",
    "enclosure_text",
]

HOLDS, FAILS, UNSUPPORTED, UNDECIDED = Status.HOLDS, Status.FAILS, Status.UNSUPPORTED, Status.UNDECIDED

# how people read a status (the machine word is the status' value)
STATUS_TEXT = {HOLDS: "holds", FAILS: "fails", UNSUPPORTED: "not supported", UNDECIDED: "undecided"}


def status_text(status: Status) -> str:
    """``holds``, ``fails``, ``not supported``, ``undecided``."""
    return STATUS_TEXT[status]


@dataclass(frozen=True)
class Shown:
    """A verdict as it reads: ``found`` (what was computed), ``note`` (why it fails, where it
    comes from), ``values`` (the same for machines: exact values as text, in a fixed order) and
    ``details`` (extra report lines: a construction's checks, a certificate)."""

    found: str
    note: str = ""
    values: dict[str, Any] = field(default_factory=dict)
    details: tuple[str, ...] = ()


Renderer = Callable[[Verdict], Shown]
RENDERERS: dict[str, Renderer] = {}


def _renders(*kinds: str) -> Callable[[Renderer], Renderer]:
    def deco(fn: Renderer) -> Renderer:
        for kind in kinds:
            RENDERERS[kind] = fn
        return fn

    return deco


def renderer_of(cls: type) -> Renderer | None:
    """The renderer of the claim class ``cls``: its kind's, else the nearest parent kind's."""
    for c in cls.__mro__:
        fn = RENDERERS.get(vars(c).get("kind", ""))
        if fn is not None:
            return fn
    return None


def shown(v: Verdict) -> Shown:
    """How ``v`` reads (see :class:`Shown`)."""
    if v.reason or not v.checked:  # not decided by the claim itself: a limit, an error, a premise
        return Shown("could not be decided" if v.checked else "not checked", v.reason)
    if "pieces" in v.facts:  # a claim about every value of the symbols (exactdp.claims.parametric)
        return _piecewise(v)
    if "symbol_boxes" in v.facts or "sampled" in v.facts:  # by boxes of the symbol, or refuted at a sampled value
        return _boxwise(v)
    fn = renderer_of(type(v.claim))
    if fn is not None:
        return fn(v)
    raise LookupError(f"no renderer for the claim kind {type(v.claim).__name__}")  # pragma: no cover


# --- numbers as text ----------------------------------------------------------------------------


def number_text(x: Any) -> str:
    """An exact value in exactdp's number grammar (``log(23/9)``, ``1/10``, ``inf``), or a
    certified enclosure's midpoint as a decimal (see :func:`enclosure_text`)."""
    if isinstance(x, Enclosure):
        return enclosure_text(x)
    if isinstance(x, bool):
        return str(x).lower()
    return value_str(x)


def approx_text(v: Any) -> str:
    """``log(7/3) ≈ 0.847298`` / ``0`` / ``inf`` (a long exact text printed short: the exact
    value is in the verdict's values)."""
    if is_inf(v) or ladder.cmp(v, 0) == 0:
        return ladder.text(v)
    return f"{ladder.short(v)} ≈ {ladder.decimal(v)}"


def enclosure_text(e: Enclosure, digits: int = 10) -> str:
    """A decimal with ``digits`` significant digits inside the enclosure's neighbourhood: the
    midpoint of lo and hi when their distance is below the last digit shown, else the enclosure
    itself, ``[lo, hi]`` (a wide one, such as D_alpha at alpha within 10^-30 of 1, has no digits to show)."""
    mid, width = (e.lo + e.hi) / 2, e.hi - e.lo
    if width * 10**digits <= abs(mid):
        return ladder.decimal(mid, digits)
    return f"[{ladder.decimal(e.lo, 6)}, {ladder.decimal(e.hi, 6)}]"


def claim_labels(verdicts: Sequence[Verdict]) -> list[str]:
    """Each verdict's label, as ``certify`` names its certificate: a claim of the file its number
    in the file (``"2"``), a premise of a form (checked first) ``"premise-1"``, numbered apart."""
    out, counts = [], {True: 0, False: 0}
    for v in verdicts:
        premise = v.claim.kind == "premise"
        counts[premise] += 1
        out.append(f"premise-{counts[True]}" if premise else str(counts[False]))
    return out


def label_words(label: str) -> str:
    """A label in a sentence: ``claim 2``, ``premise 1``."""
    return label.replace("-", " ") if label.startswith("premise-") else f"claim {label}"


def value_text(v: Verdict) -> str:
    """The claim's declared value as text (empty when it was not computed)."""
    value = v.value
    return "" if value is None else number_text(value)


# --- privloss, dp, delta -------------------------------------------------------------------------


@_renders("privloss")
def _privloss(v: Verdict) -> Shown:
    c: Any = v.claim
    f = v.facts
    found = f["privloss"]
    target = c.equals if c.equals is not None else c.at_most
    note = ""
    if v.status == FAILS and f["relation"] > 0 and not is_inf(target):
        note = f"not ({ladder.text(target)}, {q_str(c.delta)})-DP"
    elif v.status == FAILS:
        note = f"{c.of} is already ({ladder.text(found)}, {q_str(c.delta)})-DP"
    elif v.witness is not None:
        note = "tight: the witness shows every smaller eps fails"
    values = {
        "privloss": ladder.text(found),
        "decimal": ladder.decimal(found),
        "exp_privloss": ladder.text(f["exp_privloss"]),
    }
    return Shown(format_privloss(found), note, values)


def _delta_values(v: Verdict) -> dict[str, Any]:
    return {"delta_at_eps": value_str(v.facts["delta_at_eps"])}


@_renders("dp", "premise")
def _dp(v: Verdict) -> Shown:
    c: Any = v.claim
    note = "" if v.status == HOLDS else f"exceeds {q_str(c.delta)}"
    return Shown(f"delta_{c.of}(e^eps) = {value_str(v.facts['delta_at_eps'])}", note, _delta_values(v))


@_renders("not_dp")
def _not_dp(v: Verdict) -> Shown:
    c: Any = v.claim
    note = "" if v.status == HOLDS else f"{c.of} is ({ladder.text(c.eps)}, {q_str(c.delta)})-DP"
    return Shown(f"delta_{c.of}(e^eps) = {value_str(v.facts['delta_at_eps'])}", note, _delta_values(v))


@_renders("delta")
def _delta(v: Verdict) -> Shown:
    return Shown(value_str(v.facts["delta_at_eps"]), "", _delta_values(v))


# --- profile comparisons -------------------------------------------------------------------------


def _profile_values(v: Verdict) -> dict[str, Any]:
    bps = [[q_str(lam), q_str(d)] for lam, d in v.facts["breakpoints"]]
    return {"breakpoints": bps, "limit": q_str(v.facts["limit"])}


def _differ_text(v: Verdict, na: str, nb: str) -> str:
    lam = v.facts["differ_at"]
    da, db = v.facts["deltas_there"]
    if is_inf(lam):
        return f"as eps -> inf: delta_{na} -> {q_str(da)}, delta_{nb} -> {q_str(db)}"
    return f"at e^eps = {q_str(lam)}: delta_{na} = {q_str(da)}, delta_{nb} = {q_str(db)}"


@_renders("profile_eq")
def _profile_eq(v: Verdict) -> Shown:
    c: Any = v.claim
    if v.status == HOLDS:
        n = len(v.facts["breakpoints"])
        return Shown(f"{n} breakpoint{'s' if n != 1 else ''}, identical", "", _profile_values(v))
    return Shown(_differ_text(v, c.of, c.other), "", _profile_values(v))


@_renders("profile_le")
def _profile_le(v: Verdict) -> Shown:
    c: Any = v.claim
    if v.status == HOLDS:
        return Shown("dominated at every breakpoint and in the limit", "", _profile_values(v))
    return Shown(_differ_text(v, c.of, c.other), "", _profile_values(v))


# --- bounded range -------------------------------------------------------------------------------


def _br_values(v: Verdict) -> dict[str, Any]:
    f = v.facts
    return {"br_range": ladder.text(f["br_range"]), "adversaries": f["adversaries"], "pair": ",".join(f["pair"])}


@_renders("bounded_range")
def _bounded_range(v: Verdict) -> Shown:
    c: Any = v.claim
    note = "" if v.status == HOLDS else f"exceeds {ladder.text(c.eps)}"
    return Shown(f"BR-range = {format_privloss(v.facts['br_range'])}", note, _br_values(v))


@_renders("not_bounded_range")
def _not_bounded_range(v: Verdict) -> Shown:
    c: Any = v.claim
    note = "" if v.status == HOLDS else f"{c.of} is {ladder.text(c.eps)}-BR"
    return Shown(f"BR-range = {format_privloss(v.facts['br_range'])}", note, _br_values(v))


@_renders("br_range")
def _br_range(v: Verdict) -> Shown:
    return Shown(format_privloss(v.facts["br_range"]), "", _br_values(v))


# --- Theorem 1.10 --------------------------------------------------------------------------------


def _n(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


@_renders("simulates_rr")
def _simulates_rr(v: Verdict) -> Shown:
    out = v.facts["simulation"]
    n = len(out.pairs)
    details, values = tuple(outcome_details(out)), outcome_values(out)
    if out.refuted:
        found = f"no T for {sum(not p.exists for p in out.pairs)} of {_n(n, 'pair')}"
        return Shown(found, "", values, details)
    if out.conditions:
        found = f"T exists for {_n(n, 'pair')} provided {_n(len(out.conditions), 'condition')} hold"
        return Shown(found, "undecided: see the conditions below", values, details)
    found = f"T exists for {_n(n, 'pair')}, checked exactly (e^eps = {values['exp_eps']})"
    return Shown(found, "", values, details)


# --- composition ---------------------------------------------------------------------------------


@_renders("composition")
def _composition(v: Verdict) -> Shown:
    c: Any = v.claim
    f = v.facts
    if c.theorem == "renyi":
        return _renyi_composition(v)
    if c.theorem == "fdp":
        return _fdp_composition(v)
    if "not_applicable" in f:  # a bound stated for homogeneous components only
        return Shown(f["not_applicable"], _source(c.theorem))
    if "bound_interval" in f:
        return _named_composition(v)
    if "component_eps" in f:  # a claimed eps_i that does not hold
        d = f["delta_at_eps"]
        found = f"{f['component']} is not ({ladder.short(f['component_eps'])}, {ladder.short(f['component_delta'])})-DP"
        return Shown(found, f"its delta at that eps is {ladder.text(d) if not hasattr(d, 'cmp') else str(d)}")
    if "component_privloss" in f:  # PrivLoss(M_i, delta_i) = inf: the theorem gives no bound
        name, d = f["component"], ladder.short(f["component_delta"])
        found = f"PrivLoss({name}, {d}) = inf: no finite eps to compose"
        least = ", ".join(ladder.short(x) for x in f["least_deltas"])
        note = (
            f"{name} is not (eps, {d})-DP for any eps: give each component's delta_i under `deltas:` "
            f"({'as given' if c.deltas is not None else 'default 0'}); PrivLoss(M_i, delta_i) is finite from "
            f"delta_i = delta_M_i(inf) on, e.g. deltas: [{least}]"
        )
        return Shown(found, note)
    found, bound, slack = f["privloss"], f["bound"], f["slack"]
    text = f"PrivLoss = {format_privloss(found)}; {c.theorem} gives {format_privloss(bound)}"
    if slack is not None:
        text += f"; slack {ladder.text(slack)}" + ("" if ladder.cmp(slack, 0) == 0 else f" ≈ {ladder.decimal(slack)}")
    parts = ", ".join(f"({ladder.text(e)}, {q_str(d)})" for e, d in f["components"])
    note = f"components ({parts}) at delta {q_str(f['delta'])}"
    if c.theorem != "optimal":
        note += f"; theorem delta {q_str(f['theorem_delta'])}"
    note += "; " + theorem(c.theorem).source([d for _, d in f["components"]])
    if is_inf(bound):
        note += "; the theorem gives no finite bound at this delta"
    values = {
        "privloss": ladder.text(found),
        "bound": ladder.text(bound),
        "slack": ladder.text(slack) if slack is not None else None,
        "components": [[ladder.text(e), q_str(d)] for e, d in f["components"]],
        "delta": q_str(f["delta"]),
    }
    return Shown(text, note, values)


def _short(v: Any) -> str:
    """An exact value for a one-line verdict: exact text when short, else a decimal reading (the
    exact text is in the verdict's values, printed by --json)."""
    text = ladder.text(v)
    return text if len(text) <= 40 else f"≈ {ladder.decimal(v, 12)}"


def _loss(v: Any) -> str:
    """``= log(74/25)`` (PrivLoss as the reports write it), or a decimal reading when long."""
    text = format_privloss(v)
    return f"= {text}" if len(text) <= 60 else _short(v)


_BOUND_WORDS = {"valid": "the bound is valid here", "invalid": "the bound is BELOW PrivLoss: not valid here"}


def _named_composition(v: Verdict) -> Shown:
    """A bound with logarithms (advanced, KOV, the slides): its certified interval beside the
    exact PrivLoss and the exact optimum."""
    c: Any = v.claim
    f = v.facts
    bound, status = f["bound_interval"], f["bound_status"]
    text = (
        f"PrivLoss {_loss(f['privloss'])} at delta {_short(f['delta'])}; {c.theorem} gives eps in "
        f"{interval_text(bound.lo, bound.hi)}; exact optimum over all such compositions {_loss(f['optimum'])}"
    )
    note = f"{_BOUND_WORDS.get(status, 'undecided: the bound touches PrivLoss')}; {_source(c.theorem)}"
    if f["status_vs_optimum"] == "invalid":
        note += "; the bound is below the exact optimum, so it is no valid composition theorem as stated"
    values = {
        "privloss": ladder.text(f["privloss"]),
        "bound_interval": [str(bound.lo), str(bound.hi)],
        "optimum": ladder.text(f["optimum"]),
        "delta": ladder.text(f["delta"]),
        "status": status,
        "status_vs_optimum": f["status_vs_optimum"],
        "components": [[ladder.text(e), q_str(d)] for e, d in f["components"]],
    }
    return Shown(text, note, values)


def _renyi_composition(v: Verdict) -> Shown:
    f = v.facts
    found, bound, slack = f["renyi"], f["bound"], f["slack"]
    text = f"D_{ladder.short(f['alpha'])} = {approx_text(found)}; renyi gives {approx_text(bound)}"
    if slack is not None:
        text += f"; slack {approx_text(slack)}"
    values = {
        "renyi": ladder.text(found),
        "bound": ladder.text(bound),
        "slack": ladder.text(slack) if slack is not None else None,
        "components": [ladder.text(p) for p in f["components"]],
        "alpha": alpha_str(f["alpha"]),
    }
    return Shown(text, theorem("renyi").concurrent, values)


def _fdp_composition(v: Verdict) -> Shown:
    f = v.facts
    nf, nb = f["vertices"], f["bound_vertices"]
    values: dict[str, Any] = {"vertices": nf, "bound_vertices": nb}
    note = theorem("fdp").concurrent
    if v.status != HOLDS:
        a, (tf, tb) = f["alpha"], f["at_alpha"]
        values["alpha"] = q_str(a)
        return Shown(f"at alpha = {q_str(a)}: T(ConComp) = {q_str(tf)} < tensor product {q_str(tb)}", note, values)
    values["slack"] = q_str(f["max_gap"])
    text = f"T(ConComp) ({nf} vertices) >= tensor product of the components ({nb} vertices); slack {values['slack']}"
    return Shown(text, note, values)


# --- Renyi, f-DP, GDP ----------------------------------------------------------------------------


@_renders("renyi")
def _renyi(v: Verdict) -> Shown:
    c: Any = v.claim
    f = v.facts
    if "precision" in f:
        return _certified_renyi(v)
    values: dict[str, Any] = {
        "alpha": alpha_str(c.alpha),
        "renyi": ladder.text(f["renyi"]),
        "decimal": ladder.decimal(f["renyi"]),
    }
    note = ""
    if "pair" in f:
        key = "sum" if c.alpha != 1 else "kl"
        values["pair"] = list(f["pair"])
        values[key] = ladder.text(f[key])
        what = "sup of sum P^alpha P'^(1-alpha)" if c.alpha != 1 else "sup of KL"
        note = f"worst pair ({f['pair'][0]}, {f['pair'][1]}): {what} = {ladder.short(f[key])}"
    return Shown(approx_text(f["renyi"]), note, values)


@_renders("fdp")
def _fdp(v: Verdict) -> Shown:
    c: Any = v.claim
    f = v.facts
    values: dict[str, Any] = {"vertices": f["vertices"]}
    if "max_gap" in f:
        values["max_gap"] = q_str(f["max_gap"])
        return Shown(f"T({c.of}) >= T({c.f}) at every vertex; max gap {values['max_gap']}", "", values)
    a, (tm, tr) = f["alpha"], f["at_alpha"]
    values["alpha"] = q_str(a)
    return Shown(f"at alpha = {q_str(a)}: T({c.of}) = {q_str(tm)} < T({c.f}) = {q_str(tr)}", "", values)


@_renders("not_fdp")
def _not_fdp(v: Verdict) -> Shown:
    return _fdp(v)


_GDP_WORD = {HOLDS: "holds", FAILS: "fails", UNDECIDED: "undecided"}


@_renders("gdp")
def _gdp(v: Verdict) -> Shown:
    c: Any = v.claim
    f = v.facts
    mu = mu_text(c.mu)
    values: dict[str, Any] = {"status": _GDP_WORD[f["gdp"]]}
    at = ""
    if f["vertex"] is not None:
        a, b = f["vertex"]
        values["vertex"] = [q_str(a), q_str(b)]
        values["G_mu"] = f["G_mu"]
        at = f"alpha = {q_str(a)}: T({c.of}) = {q_str(b)}, G_mu ≈ {f['G_mu']}"
    mu_star = f["mu_star"]
    if isinstance(mu_star, Enclosure):
        values["mu_star"] = [_decimal_text(mu_star.lo), _decimal_text(mu_star.hi)]
    else:
        values["mu_star"] = ladder.text(mu_star)
    if f["gdp"] == HOLDS:
        return Shown(f"T({c.of}) >= G_{mu} at every vertex", f"closest: {at}" if at else "", values)
    if f["gdp"] == FAILS:
        return Shown(f"T({c.of}) < G_{mu} at {at}", "", values)
    return Shown(
        f"undecided: a vertex touches G_{mu} ({at})",
        "certified intervals could not separate T from G_mu at this vertex",
        values,
    )


def _decimal_text(q: Any) -> str:
    """An exact decimal rational (a bound of an enclosure) written out as a decimal."""
    return ladder.decimal(q, 30) if is_rational(q) else ladder.text(q)


def _certified_renyi(v: Verdict) -> Shown:
    """D_alpha as a certified enclosure (a real order, or a whole one with no exact form)."""
    c: Any = v.claim
    f = v.facts
    values: dict[str, Any] = {"alpha": ladder.text(c.alpha)}
    value = f["renyi"]
    if is_inf(value):
        values["renyi"] = "inf"
        found = "inf"
    else:
        values["renyi_interval"] = [q_str(value.lo), q_str(value.hi)]
        found = (
            f"D_{ladder.short(c.alpha)} in {enclosure_interval(value, 17)} (certified enclosure, {f['precision']} bits)"
        )
    if v.status == UNDECIDED:
        note = "the certified enclosure contains the claimed value: raise nothing, it cannot be decided here"
        return Shown(f"undecided: {found}", note, values)
    return Shown(found, "", values)


# --- zCDP and conversions to (eps, delta)-DP -----------------------------------------------------


@_renders("zcdp")
def _zcdp(v: Verdict) -> Shown:
    """zcdp and not_zcdp: the decision's evidence (the order where D_alpha > rho*alpha, or the
    best lower bound of sup D_alpha/alpha found) and the branch and bound's account."""
    c: Any = v.claim
    res = v.facts["zcdp"]
    values: dict[str, Any] = {"rho": rho_str(c.rho), "status": res.status, "boxes": res.boxes}
    if res.alpha is not None:
        values["alpha"] = str(res.alpha)
    if res.divergence is not None:
        values["divergence_interval"] = [q_str(res.divergence.lo), q_str(res.divergence.hi)]
    if res.ratio is not None:
        values["ratio_lower_bound"] = str(res.ratio)
    if res.status == "fails":
        at = (
            f"D_{res.alpha} in {enclosure_interval(res.divergence)} > rho*alpha = {rho_text(c.rho, res.alpha)}"
            if res.alpha is not None and res.divergence is not None
            else "D_alpha = inf for every alpha > 1"
        )
        return Shown(f"not {rho_text(c.rho)}-zCDP: {at}", res.reason, values)
    closest = ""
    if res.alpha is not None and res.ratio is not None:
        closest = f"; sup D_alpha/alpha >= {readable(res.ratio)} (at alpha = {res.alpha})"
    if res.status == "holds":
        return Shown(f"D_alpha <= {rho_text(c.rho)}*alpha for every alpha > 1{closest}", res.reason, values)
    return Shown(f"undecided{closest}", res.reason, values)


def _approx_loss(v: Any) -> str:
    """``= log(74/25) ≈ 1.08519``, or ``≈ 2.10988424231`` when the exact text is long (it is in
    the verdict's values)."""
    text = approx_text(v)
    return f"= {text}" if len(text) <= 60 else f"≈ {ladder.decimal(v, 12)}"


@_renders("conversion")
def _conversion(v: Verdict) -> Shown:
    c: Any = v.claim
    f = v.facts
    source = _source(c.theorem)
    found = f["privloss"]
    values: dict[str, Any] = {"privloss": ladder.text(found)}
    if "zcdp" in f:
        z = f["zcdp"]
        if "bound_interval" not in f:  # the premise rho-zCDP does not hold, or is undecided
            values["zcdp"] = z.status
            return Shown(f"the premise: {c.of} is {readable(c.rho)}-zCDP {z.status}", z.reason, values)
        bound = f["bound_interval"]
        values.update({"zcdp": z.status, "bound_interval": [q_str(bound.lo), q_str(bound.hi)]})
        text = (
            f"PrivLoss {_approx_loss(found)}; {c.of} is {readable(c.rho)}-zCDP, and {c.theorem} gives eps in "
            f"{interval_text(bound.lo, bound.hi)}"
        )
        return Shown(text, source, values)
    alpha = ladder.short(c.alpha)
    if "bound" in f:
        values.update({"renyi": ladder.text(f["renyi"]), "bound": ladder.text(f["bound"])})
        text = (
            f"PrivLoss {_approx_loss(found)}; {c.theorem} gives {approx_text(f['bound'])} from D_{alpha} = "
            f"{approx_text(f['renyi'])}"
        )
        return Shown(text, source, values)
    if "renyi_infinite" in f:
        return Shown(f"PrivLoss {_approx_loss(found)}; D_{alpha} = inf: the bound is inf", source, values)
    d, b = f["renyi_enclosure"], f["bound_enclosure"]
    values.update({"renyi_interval": [q_str(d.lo), q_str(d.hi)], "bound_interval": [q_str(b.lo), q_str(b.hi)]})
    text = f"PrivLoss {_approx_loss(found)}; {c.theorem} gives eps in {enclosure_interval(b)}"
    if v.status == UNDECIDED:
        return Shown(text, source + "; the certified bound touches PrivLoss", values)
    return Shown(text, source, values)


# --- one point of the trade-off function ---------------------------------------------------------


def _num_text(v: Any) -> str:
    s = ladder.text(v)
    return s if "exp" not in s else f"{s} ≈ {ladder.decimal(v)}"


@_renders("tradeoff")
def _tradeoff(v: Verdict) -> Shown:
    c: Any = v.claim
    pt = v.facts["point"]
    values: dict[str, Any] = {"alpha": ladder.text(c.alpha), "tradeoff": ladder.text(pt.value)}
    values["vertices"] = [[ladder.text(x.alpha), ladder.text(x.beta)] for x in (pt.left, pt.right) if x is not None]
    if pt.right is not None:
        values["theta"] = ladder.text(pt.theta)
    return Shown(f"T({c.of})({_num_text(c.alpha)}) = {_num_text(pt.value)}", "", values)


# --- claims with symbols: piecewise verdicts, calibrate, counterexample ------------------------------


def _piecewise(v: Verdict) -> Shown:
    """A claim decided for every value of the symbols: the pieces, and where it fails, a
    rational value of the symbols with the numeric verdict there."""
    f = v.facts
    ps = f["pieces"]
    domain = ", ".join(d.describe() for d in f["domains"])
    values: dict[str, Any] = {"symbols": domain, "cells": f["cells"], "pieces": [piece_dict(p) for p in ps]}
    details = tuple(piece_line(p) for p in ps)
    if v.status == HOLDS:
        found = f"holds for every value: {domain} ({_n(len(ps), 'piece')}, {_n(f['cells'], 'cell')})"
        return Shown(found, "", values, details)
    p = f["refuted_piece"]
    if "refuted_at" in f:
        there = shown(f["there"])
        values["refuted_at"] = {k: str(x) for k, x in f["refuted_at"].items()}
        values["concrete"] = dict(there.values)
        found = f"fails at {point_text(f['refuted_at'])}: {there.found}"
        return Shown(found, there.note or f"the claim fails where {_failing_text(ps)}", values, details)
    values["refuted_at"] = {iv.name: endpoint_dict(iv.lo, iv.name) for iv in p.box if iv.is_point()}
    found = f"fails only where {_failing_text(ps)} (no rational value of the symbols refutes it)"
    return Shown(found, "", values, details)


def _failing_text(ps: Any, most: int = 6) -> str:
    """Every piece where the claim fails ("or"), those failing at a transcendental point inside
    marked "(in part)": the place where it fails is the union, not the piece refuted first."""
    failing = [q.text() + (" (in part)" * (getattr(q.value, "at", None) is not None)) for q in ps if not q.value.holds]
    more = f" or {len(failing) - most} more pieces (listed below)" if len(failing) > most else ""
    return " or ".join(failing[:most]) + more


def _boxwise(v: Verdict) -> Shown:
    """A claim decided by certified enclosures on boxes of a symbol: holds on the domain, or
    fails at a rational value with the exact verdict there (also where the verdict for every
    value stopped at a limit and a sampled value refutes the claim: ``sampled`` says so)."""
    f = v.facts
    domain = ", ".join(d.describe() for d in f["domains"])
    values: dict[str, Any] = {"symbols": domain}
    if "symbol_boxes" in f:
        values["boxes"] = f["symbol_boxes"]
    if v.status == HOLDS:
        how = f.get("why") or f"certified enclosures on {_n(f['symbol_boxes'], 'box', 'boxes')}"
        return Shown(f"holds for every value: {domain} ({how})", "", values)
    there = shown(f["there"])
    values["refuted_at"] = {k: str(x) for k, x in f["refuted_at"].items()}
    values["concrete"] = dict(there.values)
    found = f"fails at {point_text(f['refuted_at'])}: {there.found}"
    return Shown(found, "; ".join(filter(None, [there.note, f.get("sampled")])), values)


@_renders("calibrate")
def _calibrate(v: Verdict) -> Shown:
    cal = v.facts["calibration"]
    found = f"holds exactly where {set_text(cal.intervals, cal.symbol)}"
    if cal.boxes is not None:  # proved stretches and gaps (certified boxes)
        found = "; ".join(line.strip() for line in box_lines(cal, "by boxes")[1:])
    values: dict[str, Any] = {
        "symbol": cal.symbol,
        "holds_for": [calibration_interval_dict(iv) for iv in cal.intervals],
        "cells": cal.cells,
    }
    if cal.boxes is not None:
        values["by_boxes"] = box_dict(cal)
    if v.status == HOLDS:
        return Shown(found, "", values)
    note = f"declared: {set_text(v.facts['declared'], cal.symbol)}"
    if "differs_at" in v.facts:
        there = v.facts["there"]
        values["differs_at"] = {k: str(x) for k, x in v.facts["differs_at"].items()}
        note += f"; at {point_text(v.facts['differs_at'])} the target {there.status.value}: {shown(there).found}"
    return Shown(found, note, values)


@_renders("counterexample")
def _counterexample(v: Verdict) -> Shown:
    f = v.facts
    there, at = f["there"], point_text(f["at"])
    sh = shown(there)
    values: dict[str, Any] = {"at": {k: q_str(x) for k, x in f["at"].items()}, "there": dict(sh.values)}
    if there.status != FAILS:
        return Shown(f"at {at}: {sh.found} ({there.status.value})", sh.note, values)
    values["for_every_value"] = f["for_every_value"].value
    return Shown(f"at {at}: {sh.found}", sh.note, values)
