r"""LaTeX macros for the exact values of a case's claims (``exactdp export CASE --latex FILE``).

A paper writes ``\input{values}`` once and then ``$\varepsilon = \exactdpRrDemoRrLoss$``;
continuous integration regenerates ``values.tex`` from the case file, so every number in the
paper is the one exactdp checked.  Each exported value gets two macros: the exact value in
LaTeX (``\log\frac{23}{9}``, math mode via ``\ensuremath``) and its decimal (``Decimal``
appended; significant digits by ``--digits``).  The file needs amsmath only.

Macro names are letters only (LaTeX's rule for control words) and stable:

``\<prefix><claim>[<value>][Decimal]``

* ``<prefix>``: ``exactdp`` followed by the case's ``name:`` in CamelCase (``rr-demo`` →
  ``exactdpRrDemo``), or ``--prefix``;
* ``<claim>``: the claim's ``name:`` in CamelCase (``name: rr-loss`` → ``RrLoss``), else
  ``Claim`` and its position in the file in words (``ClaimOne``, ``ClaimTwelve``): a name stays
  the same when claims are added before it, a position does not;
* ``<value>``: nothing for the claim's main value, else the value's key in CamelCase
  (``ExpPrivloss``).  The main value is the one the claim kind declares it shows
  (:class:`~exactdp.claims.base.Shows`, as a sweep's table and CSV show it); the others are the
  facts it declares beside it (``Shows.also``).

In names, digits are spelled as words (``thm-1-8`` → ``ThmOneEight``) and any other character
separates words.  Two claims whose macros would coincide are an error naming both.

Values are the claims' exact results written in exactdp's number grammar (as the JSON report
writes them, read back by :mod:`exactdp.numbers.expr`, never ``eval``-ed) and typeset from its
syntax tree; decimals are certified (:func:`exactdp.numbers.ladder.decimal`).  A value with no
exact form here (the least μ of a ``gdp`` claim, transcendental: a certified enclosure) is
exported as the decimal that every number of its enclosure rounds to, in both macros.  Text from the case file
reaches the output only in comments, its control characters made visible
(:func:`.escape.visible`) so that a line break cannot end a comment.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .. import __version__
from ..analysis.gdp import Enclosure
from ..analysis.parametric import INF, RatFun
from ..analysis.parametric.algebraic import closed_form_latex, decimal_text
from ..analysis.parametric.piecewise import Interval, merge_box
from ..analysis.parametric.transcendental import TranscendentalEnd
from ..analysis.parametric.values import LogOf
from ..claims import FAILS, HOLDS, Verdict
from ..errors import ExactDPError
from ..numbers import ladder
from ..numbers.expr import ExprError, eval_text, parse_expr
from ..numbers.rational import is_rational, to_fraction
from ..verify import FileResult
from .escape import text, visible
from .parametric import cell_points, symbol_latex, value_latex
from .verdicts import STATUS_TEXT, claim_labels, label_words, number_text

__all__ = [
    "exported",
    "MacroError",
    "camel",
    "number_words",
    "expr_latex",
    "decimal_latex",
    "macro_prefix",
    "claim_part",
    "render_values",
    "export_notes",
    "DEFAULT_DIGITS",
]

DEFAULT_DIGITS = 6


class MacroError(ExactDPError):
    """Macro names that cannot be made: an empty name, or two claims with the same macros."""


_ONES = "Zero One Two Three Four Five Six Seven Eight Nine".split()
_TEENS = "Ten Eleven Twelve Thirteen Fourteen Fifteen Sixteen Seventeen Eighteen Nineteen".split()
_TENS = "_ _ Twenty Thirty Forty Fifty Sixty Seventy Eighty Ninety".split()


def number_words(n: int) -> str:
    """A claim's position in words, letters only: ``12`` → ``Twelve``, ``121`` →
    ``OneHundredTwentyOne`` (below a million; beyond, digit by digit).

    >>> number_words(1), number_words(42), number_words(1000)
    ('One', 'FortyTwo', 'OneThousand')
    """
    if n < 0 or n >= 10**6:
        return "".join(_ONES[int(d)] for d in str(abs(n)))
    if n < 10:
        return _ONES[n]
    if n < 20:
        return _TEENS[n - 10]
    if n < 100:
        return _TENS[n // 10] + (_ONES[n % 10] if n % 10 else "")
    if n < 1000:
        return _ONES[n // 100] + "Hundred" + (number_words(n % 100) if n % 100 else "")
    return number_words(n // 1000) + "Thousand" + (number_words(n % 1000) if n % 1000 else "")


def camel(text: str) -> str:
    """``text`` as letters only, in CamelCase: ASCII letters kept, digits spelled as words, any
    other character separating words (``vw-thm-1-8`` → ``VwThmOneEight``).

    >>> camel("rr-demo"), camel("exp_privloss"), camel("thm 1.10")
    ('RrDemo', 'ExpPrivloss', 'ThmOneOneZero')
    """
    out = []
    for word in re.findall(r"[A-Za-z]+|[0-9]", str(text)):
        out.append(_ONES[int(word)] if word.isdigit() else word[0].upper() + word[1:])
    return "".join(out)


def macro_prefix(case_name: str, prefix: str | None = None) -> str:
    """``prefix`` (letters only), else ``exactdp`` and the case name in CamelCase."""
    if prefix is not None:
        if not re.fullmatch(r"[A-Za-z]+", prefix):
            raise MacroError(f"the macro prefix '{prefix}' must be letters only (LaTeX macro names are letters)")
        return prefix
    return "exactdp" + camel(case_name)


def claim_part(position: int, name: str | None) -> str:
    """The claim's part of a macro name: its ``name:`` in CamelCase, else ``Claim`` and its
    position in words."""
    if name is None:
        return "Claim" + number_words(position)
    part = camel(name)
    if not part:
        raise MacroError(
            f"claim {position}: name {name!r} has no letter or digit to make a LaTeX macro name from; "
            "use letters, digits, '-' or '_', e.g. name: rr-loss"
        )
    return part


# --- exact values in LaTeX -----------------------------------------------------------------------


def _prec(node: tuple) -> int:
    """Binding strength: sums 1, products 2, unary minus 3, powers 4, atoms 5."""
    kind = node[0]
    if kind == "bin":
        return {"+": 1, "-": 1, "*": 2, "/": 5, "^": 4}[node[1]]  # \frac{}{} groups itself
    return {"neg": 3}.get(kind, 5)


def _paren(node: tuple, at_least: int) -> str:
    text = _tex(node)
    return rf"\left({text}\right)" if _prec(node) < at_least else text


def _num(q: Any) -> str:
    f = to_fraction(q)
    if f.denominator == 1:
        return str(f.numerator)
    return rf"\frac{{{f.numerator}}}{{{f.denominator}}}"


def _tex(node: tuple) -> str:
    kind = node[0]
    if kind == "num":
        return _num(node[1])
    if kind == "inf":
        return r"\infty"
    if kind == "name":
        return r"\mathit{" + re.sub(r"[^A-Za-z0-9]", "", node[1]) + "}"
    if kind == "neg":
        return "-" + _paren(node[1], 3)
    if kind == "call":
        arg = node[2]
        if node[1] == "exp":
            return "e^{" + _tex(arg) + "}"
        simple = arg[0] == "num" or (arg[0] == "bin" and arg[1] == "/" and arg[2][0] == arg[3][0] == "num")
        return r"\log " + _tex(arg) if simple else r"\log\left(" + _tex(arg) + r"\right)"
    op, a, b = node[1], node[2], node[3]
    if op == "/":
        if a[0] == "neg":  # (-a)/b, as the grammar reads -a/b: the sign goes in front
            return "-" + _tex(("bin", "/", a[1], b, node[4]))
        return rf"\frac{{{_tex(a)}}}{{{_tex(b)}}}"
    if op == "^":
        return "{" + _paren(a, 5) + "}^{" + _tex(b) + "}"
    if op == "*":
        sep = r"\," if a[0] == "num" and b[0] in ("call", "name") else r" \cdot "
        return _paren(a, 2) + sep + _paren(b, 2)
    return _paren(a, 1) + f" {op} " + _paren(b, 2 if op == "-" else 1)


def expr_latex(text: str) -> str:
    r"""An exact value written in exactdp's number grammar, typeset in LaTeX math.

    >>> expr_latex("log(23/9)"), expr_latex("log(3)/2"), expr_latex("inf")
    ('\\log \\frac{23}{9}', '\\frac{\\log 3}{2}', '\\infty')
    >>> expr_latex("2*exp(1/10) - 1"), expr_latex("2*(1 + log(3))")
    ('2\\,e^{\\frac{1}{10}} - 1', '2 \\cdot \\left(1 + \\log 3\\right)')
    """
    return _tex(parse_expr(text))


def decimal_latex(text: str, digits: int = DEFAULT_DIGITS) -> str:
    r"""The certified decimal of an exact value, for LaTeX math: ``1.09861``, ``-0.5``,
    ``1.2\times 10^{-7}``, ``\infty``."""
    v = eval_text(text)
    d = ladder.decimal(v, digits) if not is_rational(v) or to_fraction(v).denominator != 1 else str(to_fraction(v))
    if d in ("inf", "+inf"):
        return r"\infty"
    return decimal_latex_of(d)


# --- the file --------------------------------------------------------------------------------------

_STATUS = {HOLDS: "holds", FAILS: "does not hold (the value found is exported)"}


def _position(fr: FileResult, claim: Any) -> int | None:
    assert fr.case is not None
    for k, c in enumerate(fr.case.claims, 1):
        if c is claim:
            return k
    return None  # a premise of a form, not a claim of the file


def exported(v: Verdict, digits: int = DEFAULT_DIGITS) -> list[tuple[str, Any]]:
    """(key, value) of each value a verdict exports: its claim kind's declared value first
    (:meth:`~exactdp.claims.base.Claim.shown`), then the facts declared beside it; those not
    computed are left out."""
    if "pieces" in v.facts:
        return _piecewise_values(v)
    if "calibration" in v.facts:
        return _calibrated_values(v, digits)
    shows = v.claim.shown()
    keys = (shows.fact, *shows.also) if shows.fact else ()
    return [(k, v.facts[k]) for k in keys if v.facts.get(k) is not None]


def _enclosure_decimal(e: Enclosure, digits: int) -> str:
    """The decimal that both ends of ``e`` round to (so every number inside does), with as many
    significant digits as agree, at most ``digits``."""
    for d in range(digits, 0, -1):
        lo, hi = ladder.decimal(e.lo, d), ladder.decimal(e.hi, d)
        if lo == hi:
            return lo
    raise ExactDPError(f"the enclosure [{ladder.decimal(e.lo, 6)}, {ladder.decimal(e.hi, 6)}] is too wide to round")


def _bodies(value: Any, digits: int) -> tuple[str, str]:
    """(exact LaTeX, decimal LaTeX) of one value."""
    if isinstance(value, Enclosure):
        dec = decimal_latex_of(_enclosure_decimal(value, digits))  # (7.5e-801: 7.5\times 10^{-801})
        return dec, dec
    text = number_text(value)
    return expr_latex(text), decimal_latex(text, digits)


def _macros(
    prefix: str, part: str, values: Sequence[tuple[str, Any]], digits: int
) -> tuple[list[tuple[str, str, str]], list[str]]:
    """(macro name, LaTeX body, value key) for each exported value, and a note for each value
    that cannot be exported."""
    out: list[tuple[str, str, str]] = []
    notes: list[str] = []
    for n, (key, value) in enumerate(values):
        try:
            body, dec = value.bodies if isinstance(value, _Typeset) else _bodies(value, digits)
        except (ExprError, ExactDPError) as e:  # too long for the grammar's limits, say
            notes.append(f"{key}: not exported ({e})")
            continue
        name = prefix + part + ("" if n == 0 else camel(key))
        out.append((name, body, key))
        if dec is not None:
            out.append((name + "Decimal", dec, key + " (decimal)"))
    return out, notes


# --- claims with symbols: a closed form for every value, or the calibrated set ------------------


@dataclass(frozen=True)
class _Typeset:
    """A value already typeset: (exact LaTeX, decimal LaTeX or None when it has no decimal)."""

    bodies: tuple[str, str | None]


def _piecewise_values(v: Verdict) -> list[tuple[str, Any]]:
    """The closed form of a claim decided for every value of the symbols: one expression, or a
    ``cases`` environment with one row per piece of the domain (no decimal: it depends on the
    symbols).  Nothing when a piece's value is not a closed form (a verdict word)."""
    ps = v.facts["pieces"]
    found = [p.value.found for p in ps]
    forms = [f for f in found if isinstance(f, (RatFun, LogOf))]
    if not forms or any(not (f is INF or isinstance(f, (RatFun, LogOf))) for f in found):
        return []
    ring = forms[0].R.ring if isinstance(forms[0], LogOf) else forms[0].ring
    names = [symbol_latex(n) for n in ring.names]
    rows: list[tuple[str, tuple[Interval, ...]]] = []
    for f, p in zip(found, ps):
        val = value_latex(f, names, cell_points(p))
        joined = merge_box(rows[-1][1], p.box) if rows and rows[-1][0] == val else None
        if joined is not None:  # pieces told apart by the verdict only: one row per closed form
            rows[-1] = (val, joined[0])
        else:
            rows.append((val, p.box))
    if len(rows) == 1:
        return [("value", _Typeset((rows[0][0], None)))]
    by = {n: m for n, m in zip(ring.names, names)}
    body = " \\\\ ".join(
        rf"{val} & \text{{if }} {', '.join(iv.latex(by.get(iv.name, iv.name)) for iv in box if not iv.whole)}"
        for val, box in rows
    )
    return [("value", _Typeset((r"\begin{cases} " + body + r" \end{cases}", None)))]


def _calibrated_values(v: Verdict, digits: int) -> list[tuple[str, Any]]:
    """A ``calibrate`` claim: the exact set where its target holds, then each finite end of its
    intervals (``Lo``/``Hi``; with several intervals ``LoOne``, ``HiOne``, ``LoTwo``, ...) exact
    and as a certified decimal."""
    cal = v.facts["calibration"]
    sym = symbol_latex(cal.symbol)
    ivs = cal.intervals
    if cal.boxes is not None:  # certified boxes: where the target is proved to hold, and each gap's digits
        gaps = [g for g in cal.boxes.gaps if g.decimal is not None]
        held = r" \text{ or } ".join(iv.latex(sym) for iv in ivs) if ivs else r"\emptyset"
        return [("set", _Typeset((held, None)))] + [
            ("boundary" + ("" if len(gaps) == 1 else number_words(n)), _Typeset((rf"{g.decimal}\ldots", g.decimal)))
            for n, g in enumerate(gaps, 1)
        ]
    text_set = r" \text{ or } ".join(iv.latex(sym) for iv in ivs) if ivs else r"\emptyset"
    out: list[tuple[str, Any]] = [("set", _Typeset((text_set, None)))]
    for n, iv in enumerate(ivs, 1):
        tag = "" if len(ivs) == 1 else number_words(n)
        for key, end in (("lo", iv.lo), ("hi", iv.hi)):
            if isinstance(end, TranscendentalEnd):  # transcendental: no closed form, proved digits only
                text_end = end.crossing.enclose(digits).decimal
                out.append((key + tag, _Typeset((rf"{end.decimal}\ldots", decimal_latex_of(text_end)))))
            elif end is not None:
                exact = closed_form_latex(end, sym)
                out.append((key + tag, _Typeset((exact, decimal_latex_of(decimal_text(end, digits))))))
    return out


def decimal_latex_of(d: str) -> str:
    """A decimal string in LaTeX math (``1.2e-07`` → ``1.2\\times 10^{-7}``)."""
    m = re.fullmatch(r"(-?[0-9.]+)e([+-]?)0*([0-9]+)", d)
    if m:
        return rf"{m.group(1)}\times 10^{{{'-' if m.group(2) == '-' else ''}{m.group(3)}}}"
    return d


def _comment(text: str) -> str:
    """Case-file text in a LaTeX comment: a line break would end the comment, so control
    characters are made visible (:func:`.escape.visible`); the rest is never read by TeX."""
    return visible(text)


def render_values(fr: FileResult, *, prefix: str | None = None, digits: int = DEFAULT_DIGITS, source: str = "") -> str:
    """The LaTeX file of ``fr``'s exact values (see the module docstring).

    Raises
    ------
    MacroError
        A claim name without letters or digits, or two claims whose macros coincide.
    """
    if fr.case is None:
        raise MacroError(f"{fr.file}: no case to export")
    pre = macro_prefix(fr.case.name, prefix)
    src = source or fr.file
    lines = [
        f"% Exact values of {_comment(src)} (case {_comment(fr.case.name)}), checked by exactdp {__version__}.",
        f"% Regenerate: exactdp export {_comment(src)} --latex FILE.  Needs amsmath; \\input it in the preamble or body.",
        "% Each value \\X comes with \\XDecimal, its decimal reading.",
    ]
    owner: dict[str, int] = {}
    for v in fr.verdicts:
        pos = _position(fr, v.claim)
        if pos is None:
            continue
        part = claim_part(pos, getattr(v.claim, "name", None))
        status = _STATUS.get(v.status, "was not decided: no value")
        lines += ["%", f"% claim {pos}: {_comment(v.claim.describe())}: {status}"]
        values = exported(v, digits) if v.status in _STATUS else []
        macros, notes = _macros(pre, part, values, digits)
        lines += [f"% {_comment(n)}" for n in notes]
        if not values and v.status in _STATUS:
            lines.append("% (no value was computed for this claim)")
        for name, body, key in macros:
            if name in owner:
                raise MacroError(
                    f"claims {owner[name]} and {pos} both give the macro \\{name}: give one of them another `name:`"
                )
            owner[name] = pos
            lines.append(f"\\newcommand{{\\{name}}}{{\\ensuremath{{{body}}}}} % {key}")
    return "\n".join(lines) + "\n"


def export_notes(fr: FileResult, body: str, source: str, written_to: str | None, sweep: int = 0) -> list[str]:
    """The lines ``exactdp export`` prints on stderr: that the values are those at the
    ``params:`` values of a file with a ``sweep:`` of ``sweep`` points (not checked at its other
    points), where the macros of ``body`` were written (when ``written_to`` is given), then every
    claim that does not hold."""
    n = body.count("\\newcommand")
    claims = len(fr.case.claims) if fr.case else 0  # (the file's: premises are checked, not exported)
    lines = (
        []
        if not sweep
        else [
            f"exactdp: {source} has a sweep: of {sweep} points; exported and checked at its params: values only (exactdp sweep checks every point)"
        ]
    )
    lines += (
        []
        if written_to is None
        else [f"wrote {written_to}: {n} macros from {claims} claim{'s' * (claims != 1)} of {source}"]
    )
    lines += [
        f"exactdp: {label_words(k)} ({v.claim.describe()}) {STATUS_TEXT[v.status]}"
        for k, v in zip(claim_labels(fr.verdicts), fr.verdicts)
        if not v.holds
    ]
    return [text(line) for line in lines]
